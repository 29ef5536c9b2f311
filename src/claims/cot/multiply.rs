//! 003 Lemma 1 (App. A.3): a 4-unit SiLU block multiplies, eq (30), with λ = 108M³/ε.
//!
//! * `003.lem1` (Theorem): |g(a,b) − ab| ≤ ε on [−M, M]² with the paper's λ, in f64, wherever
//!   f64 resolves ε at that λ (the evaluation's rounding, ≈ 4Mλ·γ₁₀, is ≤ ε/2).
//! * `003.lem1.tight` (Theorem): |g − ab| ≤ M⁴/(3λ²) for every λ > 0, tight at a = b = ±M.
//! * `003.lem1.f32` (Erratum, precision) and `003.lem1.stable` (Theorem): in f32 the printed
//!   form cancels (σ(u) and σ(−u) are each ≈ u/2, their sum ≈ u²/4) and misses ε; the form
//!   (λ²/2)(s·tanh(s/2) − t·tanh(t/2)) meets it.
//! * `003.lem1.sigma3.printed` (Erratum, typo) and `003.lem1.sigma3` (Theorem): the printed σ‴
//!   has e^{−2} for e^{−2x}.

use crate::claim::Uncertified;
use crate::claim::{property, Claim, ErrorKind, Eval, Figure, HeatMap, Paper, Rounding, Series, Style};
use crate::claim::{Scale, Tolerance};
use crate::math::Interval;
use crate::model::gadgets::{silu_third, silu_third_corrected, silu_third_enclosed, silu_third_formula_enclosed, silu_third_printed, Multiplier};
use crate::strategy::{log_uniform, real};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// One product: the bound M, the target ε and the factors a, b ∈ [−M, M] (a corner ±M, ±M in
/// one draw of four).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Product {
    /// M.
    pub m: f64,
    /// ε.
    pub eps: f64,
    /// a.
    pub a: f64,
    /// b.
    pub b: f64,
}

/// The same with λ given directly (λ/M log-uniform on [10⁻², 10⁴]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScaledProduct {
    /// M.
    pub m: f64,
    /// λ.
    pub lambda: f64,
    /// a.
    pub a: f64,
    /// b.
    pub b: f64,
}

fn factors() -> impl Strategy<Value = (f64, f64)> + Clone {
    let corner = prop::sample::select(vec![-1.0, 1.0]);
    prop_oneof![3 => (real(-1.0, 1.0), real(-1.0, 1.0)), 1 => (corner.clone(), corner)]
}

fn products() -> impl Strategy<Value = Product> + Clone {
    (log_uniform(0.01, 100.0), log_uniform(1e-6, 1.0), factors()).prop_map(|(m, eps, (u, v))| Product { m, eps, a: u * m, b: v * m })
}

fn scaled_products() -> impl Strategy<Value = ScaledProduct> + Clone {
    (log_uniform(0.01, 100.0), log_uniform(1e-2, 1e4), factors()).prop_map(|(m, r, (u, v))| ScaledProduct { m, lambda: r * m, a: u * m, b: v * m })
}

/// `003.lem1`'s hypothesis: f64 resolves ε at the paper's λ (worst rounding ≤ ε/2).
fn resolves(p: &Product, lambda: f64) -> f64 {
    (p.eps / 2.0 - Multiplier { lambda }.worst_rounding(p.m, Rounding::UNIT)) / p.eps
}

/// `003.lem1.f32`'s hypothesis: ε ≥ 2⁻¹⁶M², so f32 can hold ab to well within ε.
fn f32_resolves(p: &Product) -> f64 {
    (p.eps - 2f64.powi(-16) * p.m * p.m) / p.eps
}

fn within_eps(p: &Product, g: f64) -> Eval {
    Eval::le_by((g - p.a * p.b).abs(), p.eps, Scale(p.eps), Tolerance::NONE)
}

fn lem1(lambda: fn(f64, f64) -> f64) -> impl crate::claim::Check {
    property([300, 3000, 30000], products(), move |p: &Product| within_eps(p, Multiplier { lambda: lambda(p.m, p.eps) }.eval(p.a, p.b)))
        .given("f64 resolves ε at λ: 4Mλ(γ₁₀ + 1.1γ₂) + γ₂M² ≤ ε/2", move |p| resolves(p, lambda(p.m, p.eps)))
        .sides("|g(a, b) − ab|", "ε")
}

fn tight(factor: f64) -> impl crate::claim::Check {
    property([300, 3000, 30000], scaled_products(), move |p: &ScaledProduct| {
        let g = Multiplier { lambda: p.lambda };
        let bound = factor * g.tight_bound(p.m);
        let tol = g.rounding(p.a, p.b, Rounding::UNIT);
        Eval::le_by((g.eval(p.a, p.b) - p.a * p.b).abs(), bound, Scale(bound + tol), Tolerance::absolute(tol))
    })
    .sides("|g(a, b) − ab| (f64)", "M⁴/(3λ²), plus the evaluation's rounding")
    .illustrate(|_| vec![error_against_lambda()])
}

fn in_f32(stable: bool, region: bool) -> impl crate::claim::Check {
    property([300, 3000, 30000], products(), move |p: &Product| {
        let g = Multiplier::paper(p.m, p.eps);
        let (a, b) = (p.a as f32, p.b as f32);
        let v = if stable { g.stable_f32(a, b) } else { g.eval_f32(a, b) };
        within_eps(p, v as f64)
    })
    .given("ε ≥ 2⁻¹⁶M² (f32 holds ab well within ε)", f32_resolves)
    // ε and M are stored numbers and 2⁻¹⁶ a binary point: only M² rounds.
    .certify_given(|p: &Product| Eval::ge_by(Interval::exact(p.eps), Interval::exact(2f64.powi(-16)) * Interval::exact(p.m).square(), Scale(p.eps), Tolerance::NONE))
    .sides("|g(a, b) − ab| evaluated in f32", "ε")
    .expand(|p| {
        let g = Multiplier::paper(p.m, p.eps);
        serde_json::json!({ "lambda": g.lambda, "naive_f32": g.eval_f32(p.a as f32, p.b as f32), "stable_f32": g.stable_f32(p.a as f32, p.b as f32), "naive_f64": g.eval(p.a, p.b), "ab": p.a * p.b })
    })
    .illustrate(move |_| if region { vec![f32_region()] } else { vec![] })
}

/// x ∈ [−1, 1], the interval of the proof's bound.
fn third(printed: bool) -> impl crate::claim::Check {
    property([200, 2000, 20000], real(-1.0, 1.0), move |x: &f64| {
        let x = *x;
        let (e1, e2, e3) = ((-x).exp(), (-2.0f64).exp().max((-2.0 * x).exp()), (-3.0 * x).exp());
        let den = (1.0 + e1).powi(4);
        let s = crate::math::softplus::sigmoid(x);
        let d = s * (1.0 - s);
        // Both sides' rounding: the formula's three terms (≤ 4 roundings each, exp within 2 ulps)
        // over the rounded fourth power; the Leibniz form's two terms.
        let scale = ((x - 3.0).abs() * e1 + 4.0 * x.abs() * e2 + (x + 3.0).abs() * e3) / den
            + 3.0 * (d * (1.0 - 2.0 * s)).abs()
            + (x * d * (1.0 - 6.0 * s + 6.0 * s * s)).abs();
        let f = if printed { silu_third_printed(x) } else { silu_third_corrected(x) };
        Eval::close((f - silu_third(x)).abs(), Scale(scale), Tolerance::relative(Rounding::gamma(16)))
    })
    .sides("|printed σ‴(x) − σ‴(x)|", "the two evaluations' rounding")
    // Exact equality on enclosures: both formulas and e^{−2} enclosed, no rounding allowance.
    .certify(move |x: &f64| {
        let x = Interval::exact(*x);
        Eval::close((silu_third_formula_enclosed(x, !printed) - silu_third_enclosed(x)).abs(), Scale(1.0), Tolerance::NONE)
    })
    .expand(|x| serde_json::json!({ "x": x, "printed": silu_third_printed(*x), "corrected": silu_third_corrected(*x), "leibniz": silu_third(*x) }))
}

/// Lemma 1's error against λ at M = 1: the paper's bound, the tight bound and the measured
/// maximum over a 21 × 21 grid with the corners, in f64 and f32 (printed and stable forms).
fn error_against_lambda() -> Figure {
    let grid: Vec<f64> = (0..=20).map(|i| -1.0 + 0.1 * i as f64).collect();
    let lambdas: Vec<f64> = (0..=36).map(|i| 10f64.powf(0.25 * i as f64)).collect();
    let worst =
        |f: &dyn Fn(f64, f64) -> f64| grid.iter().flat_map(|a| grid.iter().map(move |b| (a, b))).map(|(a, b)| (f(*a, *b) - a * b).abs()).fold(0.0, f64::max);
    let series = |label: &str, style, color, f: &dyn Fn(Multiplier) -> f64| {
        Series::new(label, style, lambdas.iter().map(|&l| [l.log10(), f(Multiplier { lambda: l }).max(1e-300).log10()]).collect()).color(color)
    };
    Figure::new("lemma1-error", "Lemma 1: |g(a, b) − ab| against λ on [−1, 1]²", "log10 λ", "log10 max error")
        .with(series("paper's bound 108M³/λ", Style::Dashed, 0, &|g| g.paper_bound(1.0)))
        .with(series("tight bound M⁴/(3λ²)", Style::Dashed, 1, &|g| g.tight_bound(1.0)))
        .with(series("measured, f64", Style::Line, 1, &|g| worst(&|a, b| g.eval(a, b))))
        .with(series("measured, f32 as printed", Style::Line, 2, &|g| worst(&|a, b| g.eval_f32(a as f32, b as f32) as f64)))
        .with(series("measured, f32 stable form", Style::Points, 3, &|g| worst(&|a, b| g.stable_f32(a as f32, b as f32) as f64)))
        .caption("The tight bound is attained until rounding takes over, which grows like λ: f64 from λ ≈ 10⁵, f32 as printed from λ ≈ 10², while the stable form stays at f32's resolution (≈ 10⁻⁷). The paper's λ for ε = 10⁻² is 1.08·10⁴, about 1900 times the tight λ = M²/√(3ε) = 5.8, and already past f32's turning point.")
}

/// Where f32 fails Lemma 1 with the paper's λ: 1 where the printed form misses ε somewhere on a
/// 21 × 21 grid of [−M, M]² (corners included), 0 where it meets ε, blank outside ε ≥ 2⁻¹⁶M².
fn f32_region() -> Figure {
    let ms: Vec<f64> = (-4..=4).map(|i| 0.5 * i as f64).collect();
    let eps: Vec<f64> = (-12..=0).map(|i| 0.5 * i as f64).collect();
    let grid: Vec<f64> = (0..=20).map(|i| -1.0 + 0.1 * i as f64).collect();
    let values = eps
        .iter()
        .map(|&le| {
            ms.iter()
                .map(|&lm| {
                    let p = Product { m: 10f64.powf(lm), eps: 10f64.powf(le), a: 0.0, b: 0.0 };
                    if f32_resolves(&p) < 0.0 {
                        return f64::NAN;
                    }
                    let g = Multiplier::paper(p.m, p.eps);
                    let fails =
                        grid.iter().any(|u| grid.iter().any(|v| ((g.eval_f32((u * p.m) as f32, (v * p.m) as f32) as f64) - u * v * p.m * p.m).abs() > p.eps));
                    f64::from(u8::from(fails))
                })
                .collect()
        })
        .collect();
    Figure::new("lemma1-f32-region", "Lemma 1 in f32 with λ = 108M³/ε: where eq (30) misses ε", "log10 M", "log10 ε")
        .heat(HeatMap { x: ms, y: eps, values, label: "1: misses ε, 0: meets ε".into(), range: None })
        .caption("The printed form's rounding is ≈ 4Mλ·2⁻²⁴ = 2.6·10⁻⁵M⁴/ε, so it misses ε once M²/ε exceeds ≈ 200, up to the blank region where f32 cannot hold ab within ε at all (ε < 2⁻¹⁶M²). The stable form meets ε everywhere shown (003.lem1.stable).")
}

const PRINTED: &str = "For any ε > 0 and M > 0, there exists Mamba block parameters with l∞ norm upper bounded by O(poly(M, 1/ε)) such that |f(a,b) − ab| ≤ ε holds for all a, b ∈ [−M, M]. […] [proof, after eq (30)] Thus if we set λ ≥ 216M³/(2ε) we will have |g(a,b) − ab| ≤ (λ²/2)|R₂| ≤ ε.";
const LOCUS: &str = "Lemma 1 and its proof, eq (30) (App. A.3)";
const SIGMA3: &str = "Assuming that λ > 2M, we have |(±a ± b)/λ| < 2M/λ < 1 and then |R₂| ≤ (4/3!)(2M/λ)² max_{x∈[−1,1]}|σ‴(x)| \
                      = (4/3!)(2M/λ)² max_{x∈[−1,1]}|((x−3)e^{−x} − 4xe^{−2} + (x+3)e^{−3x})/(1+e^{−x})⁴|";

/// `003.lem1` (theorem): Lemma 1 and its proof, eq (30) (App. A.3).
fn claim_lem1() -> Claim {
    Claim::theorem(
        "003.lem1",
        super::FAMILY,
        "Eq (30) with the paper's λ = 108M³/ε gives |g(a, b) − ab| ≤ ε for a, b ∈ [−M, M] (corners in one draw of four), \
             M ∈ [10⁻², 10²], ε ∈ [10⁻⁶, 1], evaluated in f64 wherever f64 resolves ε at that λ (4Mλ(γ₁₀ + 1.1γ₂) + γ₂M² ≤ ε/2).",
        lem1(|m, eps| Multiplier::paper(m, eps).lambda),
    )
    .source(Paper::FreeLunch, LOCUS, PRINTED)
    .control("λ 10% below the tight threshold M²/√(3ε)", lem1(|m, eps| 0.9 * Multiplier::tight(m, eps).lambda))
}

/// `003.lem1.tight` (theorem): Lemma 1 and its proof, eq (30) (App. A.3).
fn claim_lem1_tight() -> Claim {
    Claim::theorem(
            "003.lem1.tight",
            super::FAMILY,
            "For every λ > 0 (λ/M ∈ [10⁻², 10⁴]) and a, b ∈ [−M, M], |g(a, b) − ab| ≤ M⁴/(3λ²) (from u·tanh(u/2) − u²/2 ∈ [−u⁴/24, 0]), \
             plus the f64 evaluation's rounding (λ²/2)(γ₁₀Σ|σ(x_k)| + 1.1γ₂Σ|x_k|) + γ₂|ab|.",
            tight(1.0),
        )
        .source(Paper::FreeLunch, LOCUS, PRINTED)
        .correction("The paper's remainder bound (2M/λ)² should be cubed (its next line uses 8M³/λ³); the constant 81/2 bounds max|σ‴| = 0.31 on [−1, 1] by 130×; the sharp bound is M⁴/(3λ²), so λ ≥ M²/√(3ε) suffices (proofs/cot.md).")
        .control("the constant 10% smaller: 0.9·M⁴/(3λ²)", tight(0.9))
}

/// `003.lem1.f32` (erratum): Lemma 1 and its proof, eq (30) (App. A.3).
fn claim_lem1_f32() -> Claim {
    Claim::erratum(
            "003.lem1.f32",
            super::FAMILY,
            "Eq (30) with λ = 108M³/ε, every operation in f32, gives |g(a, b) − ab| ≤ ε on [−M, M]² wherever f32 can hold ab \
             well within ε (ε ≥ 2⁻¹⁶M²).",
            in_f32(false, true),
        )
        .source(Paper::FreeLunch, LOCUS, PRINTED)
        .correction("Evaluate (λ²/2)(s·tanh(s/2) − t·tanh(t/2)), s = (a+b)/λ, t = (a−b)/λ (σ(u) + σ(−u) = u·tanh(u/2)): 003.lem1.stable; or take λ near M²/√(3ε).")
        .error(
            ErrorKind::Precision,
            "Lemma 1's construction, eq (30) with 'λ ≥ 216M³/(2ε)', is exact in real arithmetic but cancels in floating point: σ((a+b)/λ) and σ((−a−b)/λ) are ≈ ±(a+b)/(2λ) and their sum is ≈ (a+b)²/(4λ²), so the rounding of the four terms, ≈ (2M/λ)·u each, is multiplied by λ²/2 into ≈ 4Mλ·u = 432M⁴u/ε. In f32 (u = 2⁻²⁴) this exceeds ε once M²/ε ≳ 200, e.g. M = 1, ε = 10⁻³ (λ = 1.08·10⁵) errs by ≈ 10⁻²; f64 breaks the same way at M²/ε ≳ 5·10⁶ (outside 003.lem1's hypothesis). The larger the paper's λ, the worse.",
        )
        .holds_instead(&["003.lem1"]).starts_at("f32 once M²/ε ≳ 200 (M = 1, ε = 10⁻³ errs by ≈ 10⁻²); f64 once M²/ε ≳ 5·10⁶")
    .uncertified(Uncertified::Precision, "the point of this erratum is the f32 behaviour of the construction")
}

/// `003.lem1.stable` (theorem): Lemma 1 and its proof, eq (30) (App. A.3).
fn claim_lem1_stable() -> Claim {
    Claim::theorem(
        "003.lem1.stable",
        super::FAMILY,
        "The stable form (λ²/2)(s·tanh(s/2) − t·tanh(t/2)) of eq (30), λ = 108M³/ε, every operation in f32, gives \
             |g(a, b) − ab| ≤ ε on [−M, M]² wherever ε ≥ 2⁻¹⁶M² (its rounding is ≈ γ₁₂·2M² ≤ ε/10).",
        in_f32(true, false),
    )
    .source(Paper::FreeLunch, LOCUS, PRINTED)
    .control("eq (30) as printed in f32", in_f32(false, false))
}

/// `003.lem1.sigma3.printed` (erratum): proof of Lemma 1 (App. A.3), the display after eq (30).
fn claim_lem1_sigma3_printed() -> Claim {
    Claim::erratum(
            "003.lem1.sigma3.printed",
            super::FAMILY,
            "The printed third derivative of SiLU, [(x−3)e^{−x} − 4xe^{−2} + (x+3)e^{−3x}]/(1+e^{−x})⁴, equals σ‴(x) on [−1, 1] \
             (σ‴ = 3s″ + x·s‴ by Leibniz on x·s(x), s logistic), within both evaluations' rounding γ₁₆.",
            third(true),
        )
        .source(Paper::FreeLunch, "proof of Lemma 1 (App. A.3), the display after eq (30)", SIGMA3)
        .correction("The middle term is −4x·e^{−2x}: 003.lem1.sigma3. The paper's next line bounds it by 4e² on [−1, 1], which is the bound of 4x·e^{−2x}, so the slip does not reach the conclusion.")
        .error(
            ErrorKind::Typo,
            "Lemma 1's proof prints σ‴(x) = [(x−3)e^{−x} − 4xe^{−2} + (x+3)e^{−3x}]/(1+e^{−x})⁴: the middle exponent lost its x. With e^{−2x} the formula is SiLU's third derivative (003.lem1.sigma3); as printed it differs by 4x(e^{−2x} − e^{−2})/(1+e^{−x})⁴, up to 0.15 on [−1, 1] (1.3 on [−3, 3]). The bound the paper then uses, (4e + 4e² + 4e³)/(1+e^{−1})⁴, is that of the e^{−2x} form, and the same display prints (2M/λ)² for (2M/λ)³.",
        )
        .holds_instead(&["003.lem1.sigma3"])
}

/// `003.lem1.sigma3` (theorem): proof of Lemma 1 (App. A.3), the display after eq (30).
fn claim_lem1_sigma3() -> Claim {
    Claim::theorem(
        "003.lem1.sigma3",
        super::FAMILY,
        "With e^{−2x}, [(x−3)e^{−x} − 4xe^{−2x} + (x+3)e^{−3x}]/(1+e^{−x})⁴ equals SiLU's third derivative 3s″ + x·s‴ on [−1, 1] \
             within both evaluations' rounding γ₁₆.",
        third(false),
    )
    .source(Paper::FreeLunch, "proof of Lemma 1 (App. A.3), the display after eq (30)", SIGMA3)
    .control("the printed e^{−2}", third(true))
}

/// Registers the Lemma 1 claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_lem1());
    r.add(claim_lem1_tight());
    r.add(claim_lem1_f32());
    r.add(claim_lem1_stable());
    r.add(claim_lem1_sigma3_printed());
    r.add(claim_lem1_sigma3());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_f32_failure_at_the_corner_reproduces() {
        // M = 1, ε = 10⁻³: λ = 1.08·10⁵, the printed form errs by ≈ 10⁻² in f32 at the corner.
        let g = Multiplier::paper(1.0, 1e-3);
        let worst = [(1.0f32, 1.0f32), (1.0, -1.0), (0.5, 0.7)].iter().map(|(a, b)| ((g.eval_f32(*a, *b) - a * b) as f64).abs()).fold(0.0, f64::max);
        assert!(worst > 1e-3, "{worst}");
        assert!(((g.stable_f32(1.0, 1.0) - 1.0) as f64).abs() < 1e-5);
    }
}
