//! Attention LRD: 004 Theorem 1 and its polynomial lower bound; 000 App. B sensitivity.
//!
//! * `004.thm1.printed` (Erratum): the sum of Eq (12) stops at t+k−1.
//! * `004.thm1.corrected` (Theorem): the sum over all of I_τ and the closed form
//!   `w(t,τ) W_V [I + (x_t − x̄_τ) g_τᵀ]` equal the Jacobian, causal and full. Control: the
//!   closed form with `I − (x_t − x̄_τ) g_τᵀ`.
//! * `004.attn.lower` (Theorem): `‖LRD(τ,t)‖₂ ≥ σ_d(W_V) e^{−2βR²‖W_QᵀW_K‖₂}/|I_τ|` for
//!   ‖x_i‖ ≤ R, d ≥ 2, H ≥ d. Control: the bound without the exponential factor.
//! * `000.attn` (Theorem): scalar tokens with |x| ≤ X, causal: `t·|∂y_t/∂x_j| ≤
//!   e^{2|q|X²}(|v| + 2|qv|X²)` for all j < t (O(1/t) decay), and eq (44) equals the derivative.
//!   Control: t² in place of t (O(1/t²) decay).
//! * `000.attn.slope` (Theorem, rate): the O(1/t) is the actual rate, not only a bound: the mean
//!   sensitivity (1/(t−1))Σ_j |∂y_t/∂x_j| on iid inputs has log–log slope −1 in t up to 16384.
//!   Control: slope −2.

use super::overview;
use crate::claim::custom;
use crate::claim::rate::{judge_rates, RateCell};
use crate::claim::Uncertified;
use crate::claim::{property, Check, Claim, ErrorKind, Eval, Kind, Paper, Sizes, ALPHA};
use crate::claim::{Scale, Tolerance};
use crate::math::derivative;
use crate::math::linalg::{mat_from_rows, smallest_singular_value, spectral_norm, Mat};
use crate::mc::Stream;
use crate::model::Attention;
use crate::stats::{bonferroni, mean_interval, ols};
use crate::strategy::{grid, grid_matrix};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// An attention instance: weights, inputs x_1..x_T (rows) and the pair (t, k), k ≥ 1.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AttentionInstance {
    /// W_Q (d_k×d), rows.
    pub wq: Vec<Vec<f64>>,
    /// W_K (d_k×d), rows.
    pub wk: Vec<Vec<f64>>,
    /// W_V (H×d), rows.
    pub wv: Vec<Vec<f64>>,
    /// β (= 1/√d_k).
    pub beta: f64,
    /// Causal (I_τ = 1..τ) or full (I_τ = 1..T).
    pub causal: bool,
    /// Inputs, one row per time.
    pub x: Vec<Vec<f64>>,
    /// Differentiated time t.
    pub t: usize,
    /// Lag k ≥ 1.
    pub k: usize,
}

impl AttentionInstance {
    fn model(&self) -> Attention {
        Attention { wq: mat_from_rows(&self.wq), wk: mat_from_rows(&self.wk), wv: mat_from_rows(&self.wv), beta: self.beta, causal: self.causal }
    }

    /// The Jacobian dh_τ/dx_t by dual numbers, one input coordinate at a time.
    fn jacobian(&self) -> Mat {
        let m = self.model();
        let d = self.x[0].len();
        let flat: Vec<f64> = self.x.concat();
        let tau = self.t + self.k;
        let mut j = Mat::zeros(m.wv.nrows(), d);
        for c in 0..d {
            let col = derivative(&flat, (self.t - 1) * d + c, |xs| {
                let rows: Vec<Vec<_>> = xs.chunks(d).map(<[_]>::to_vec).collect();
                m.hidden(&rows, tau)
            });
            j.set_column(c, &nalgebra::DVector::from_vec(col));
        }
        j
    }
}

/// An attention instance with the radius R its inputs were drawn within (‖x_i‖ ≤ R).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BoundedAttention {
    /// The instance.
    #[serde(flatten)]
    pub instance: AttentionInstance,
    /// R: every input satisfies ‖x_i‖₂ ≤ R (the lower bound's e^{−2βR²‖W_QᵀW_K‖₂} uses it).
    pub radius: f64,
}

/// Instances with `d, d_k, H ≤ dmax`, `2 ≤ T ≤ tmax`; inputs on a grid scaled by `radius/√d`
/// so that ‖x_i‖ ≤ radius; `h_at_least_d` forces H ≥ d ≥ 2 (for the lower bound).
fn instances(tmax: usize, h_at_least_d: bool) -> impl Strategy<Value = BoundedAttention> {
    let dmin = if h_at_least_d { 2 } else { 1 };
    (dmin..=3usize, 1..=3usize, 0..=2usize, 2..=tmax, any::<bool>(), grid(0.25, 3.0, 0.25))
        .prop_flat_map(move |(d, dk, extra, len, causal, radius)| {
            let h = if h_at_least_d { d + extra } else { 1 + extra };
            (
                grid_matrix(dk, d, -2.0, 2.0, 0.125),
                grid_matrix(dk, d, -2.0, 2.0, 0.125),
                grid_matrix(h, d, -2.0, 2.0, 0.125),
                grid_matrix(len, d, -1.0, 1.0, 0.0625),
                (1..len).prop_flat_map(move |t| (Just(t), 1..=len - t)),
                Just((dk, causal, radius)),
            )
        })
        .prop_map(|(wq, wk, wv, x, (t, k), (dk, causal, radius))| {
            let s = radius / (x[0].len() as f64).sqrt();
            let x = x.into_iter().map(|r| r.into_iter().map(|v| v * s).collect()).collect();
            BoundedAttention { instance: AttentionInstance { wq, wk, wv, beta: 1.0 / (dk as f64).sqrt(), causal, x, t, k }, radius }
        })
}

#[derive(Clone, Copy)]
enum Formula {
    Printed,
    CorrectedSumAndClosedForm,
    ClosedFormSignFlipped,
}

fn theorem1_margin(inst: &AttentionInstance, f: Formula) -> Eval {
    let m = inst.model();
    let exact = inst.jacobian();
    let tau = inst.t + inst.k;
    let last = *m.index_set(tau, inst.x.len()).end();
    let w = m.weights(&inst.x, tau);
    let g = m.score_gradient(&inst.x[tau - 1]);
    let xmax = inst.x.iter().map(|r| r.iter().map(|v| v * v).sum::<f64>().sqrt()).fold(0.0, f64::max);
    let gnorm = g.iter().map(|v| v * v).sum::<f64>().sqrt();
    let scale = exact.norm() + w[inst.t - 1] * m.wv.norm() * (1.0 + 2.0 * xmax * gnorm);
    let check = |j: Mat| Eval::close((j - &exact).norm(), Scale(scale), Tolerance::relative(1e-9).plus_absolute(1e-300));
    match f {
        Formula::Printed => check(m.lrd_theorem1(&inst.x, inst.t, inst.k, tau - 1)),
        Formula::CorrectedSumAndClosedForm => check(m.lrd_theorem1(&inst.x, inst.t, inst.k, last)).min(check(m.lrd_closed_form(&inst.x, inst.t, inst.k))),
        Formula::ClosedFormSignFlipped => {
            let plus = m.lrd_closed_form(&inst.x, inst.t, inst.k);
            let base = &m.wv * w[inst.t - 1];
            check(&base * 2.0 - plus)
        }
    }
}

fn lower_bound_margin(inst: &AttentionInstance, radius: f64, with_exponential: bool) -> Eval {
    let m = inst.model();
    let sigma_d = smallest_singular_value(&m.wv);
    if sigma_d < 1e-9 {
        return Eval::Reject("W_V not of full column rank");
    }
    let tau = inst.t + inst.k;
    let size = m.index_set(tau, inst.x.len()).count() as f64;
    let qk = spectral_norm(&(m.wq.transpose() * &m.wk));
    let factor = if with_exponential { (-2.0 * m.beta * radius * radius * qk).exp() } else { 1.0 };
    let lrd = spectral_norm(&m.lrd_closed_form(&inst.x, inst.t, inst.k));
    Eval::le(sigma_d * factor / size, lrd, Tolerance::relative(1e-12))
}

/// Scalar-token causal attention (000 App. B): q = W_QᵀW_K, v = W_V, inputs |x_i| ≤ X.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScalarAttention {
    /// q = W_Qᵀ W_K.
    pub q: f64,
    /// v = W_V.
    pub v: f64,
    /// Input bound X.
    pub bound: f64,
    /// Inputs x_1..x_t (t = the last time).
    pub x: Vec<f64>,
}

impl ScalarAttention {
    fn model(&self) -> Attention {
        let one = |v: f64| Mat::from_element(1, 1, v);
        Attention { wq: one(self.q), wk: one(1.0), wv: one(self.v), beta: 1.0, causal: true }
    }
    /// Eq (44): ∂y_t/∂x_j = a_j (v + x_t q (v x_j − Σ_s a_s v x_s)) for all j < t.
    fn eq44(&self) -> Vec<f64> {
        let t = self.x.len();
        let rows: Vec<Vec<f64>> = self.x.iter().map(|&v| vec![v]).collect();
        let a = self.model().weights(&rows, t);
        let mean: f64 = a.iter().zip(&self.x).map(|(ai, xi)| ai * self.v * xi).sum();
        (0..t - 1).map(|j| a[j] * (self.v + self.x[t - 1] * self.q * (self.v * self.x[j] - mean))).collect()
    }
}

fn scalar_instances() -> impl Strategy<Value = ScalarAttention> {
    let xs = proptest::collection::vec(grid(-1.0, 1.0, 0.0625), 2..=400);
    (grid(-2.0, 2.0, 0.125), grid(-2.0, 2.0, 0.125), grid(0.25, 2.0, 0.25), xs).prop_map(|(q, v, bound, x)| ScalarAttention {
        q,
        v,
        bound,
        x: x.into_iter().map(|u| u * bound).collect(),
    })
}

fn sensitivity_margin(inst: &ScalarAttention, power: i32) -> Eval {
    let t = inst.x.len();
    let eq44 = inst.eq44();
    let m = inst.model();
    let rows = |xs: &[crate::math::Dual]| -> Vec<Vec<crate::math::Dual>> { xs.iter().map(|&v| vec![v]).collect() };
    let mut margin = Eval::Margin(f64::INFINITY);
    for &j in &[0, t - 2] {
        let exact = derivative(&inst.x, j, |xs| m.hidden(&rows(xs), t))[0];
        let scale = exact.abs() + eq44[j].abs() + (inst.v.abs() * (1.0 + 2.0 * inst.q.abs() * inst.bound.powi(2))) / t as f64;
        margin = margin.min(Eval::close((exact - eq44[j]).abs(), Scale(scale), Tolerance::relative(1e-9).plus_absolute(1e-300)));
    }
    let (x2, q, v) = (inst.bound * inst.bound, inst.q, inst.v);
    let c = (2.0 * q.abs() * x2).exp() * (v.abs() + 2.0 * (q * v).abs() * x2);
    let worst = eq44.iter().map(|d| d.abs()).fold(0.0, f64::max);
    margin.min(Eval::le((t as f64).powi(power) * worst, c, Tolerance::relative(1e-12)))
}

/// (q, v, X) settings of `000.attn.slope`.
const SLOPE_SETTINGS: [(f64, f64, f64); 3] = [(0.5, 1.0, 1.0), (2.0, 1.0, 1.0), (1.0, -1.0, 2.0)];

/// `000.attn.slope`: per setting, instances of iid inputs U(−X, X); for t = 16·4^i ≤ 16384 the mean
/// of |∂y_t/∂x_j| over j < t (eq 44, exact by `000.attn`) and its fitted log–log slope, against
/// `slope` (± 0.05, Student-t over the instances, Bonferroni over the settings).
fn slope_check(slope: f64) -> impl Check {
    custom(Kind::Rate, move |ctx| {
        let instances = ctx.size("instances", Sizes::new(10, 40, 200));
        let times: Vec<usize> = (0..6).map(|i| 16usize << (2 * i)).collect();
        let level = bonferroni(ALPHA, SLOPE_SETTINGS.len());
        let mut cells = vec![];
        for (si, &(q, v, bound)) in SLOPE_SETTINGS.iter().enumerate() {
            let mut stream = Stream::new(ctx.key(&format!("inputs{si}")), 0);
            let slopes: Vec<f64> = (0..instances)
                .map(|_| {
                    let x: Vec<f64> = (0..*times.last().expect("times")).map(|_| bound * (2.0 * stream.uniform() - 1.0)).collect();
                    let (lx, ly): (Vec<f64>, Vec<f64>) = times
                        .iter()
                        .map(|&t| {
                            let inst = ScalarAttention { q, v, bound, x: x[..t].to_vec() };
                            let mean = inst.eq44().iter().map(|d| d.abs()).sum::<f64>() / (t - 1) as f64;
                            ((t as f64).ln(), mean.ln())
                        })
                        .unzip();
                    ols(&lx, &ly, 0.99).expect("points").slope.estimate
                })
                .collect();
            cells.push(RateCell {
                label: format!("q = {q}, v = {v}, X = {bound}: slope of ln mean |∂y_t/∂x_j| on ln t"),
                measured: mean_interval(&slopes, 1.0 - level),
                predicted: slope,
                slack: 0.05,
                at_most: false,
            });
        }
        let mut out =
            judge_rates(cells, &format!("Student-t over {instances} input sequences per setting at 1 − α/{}, α = {ALPHA}; slack 0.05", SLOPE_SETTINGS.len()));
        out.cases = (instances * SLOPE_SETTINGS.len()) as u64;
        Ok(out.detail("instances_per_setting", instances).detail("times", &times))
    })
}

const CASES: [u64; 3] = [300, 2000, 20000];
const PRINTED: &str = "LRD_transformer(t+k,t) = Σ_{i=1}^{t+k−1} ∂w(i,t+k)/∂x_t W_V x_i + w(t,t+k) W_V.";

/// `004.thm1.printed` (erratum): Theorem 1, Eq. (12).
fn claim_thm1_printed() -> Claim {
    Claim::erratum(
            "004.thm1.printed",
            super::FAMILY,
            "Eq (12) with the sum to t+k−1 equals dh_{t+k}/dx_t (dual numbers, relative 1e−9), for causal and full \
             attention (d, d_k, H ≤ 3, T ≤ 10, weights on a 1/8 grid in [−2, 2], ‖x_i‖ ≤ R ≤ 3, 004's Q/K convention, β = 1/√d_k).",
            property(CASES, instances(10, false), |b: &BoundedAttention| theorem1_margin(&b.instance, Formula::Printed))
                .sides("‖Eq (12) as printed − dh_τ/dx_t‖_F (dual numbers)", "tolerance 1e−9·scale"),
        )
        .source(Paper::RethinkingLrd, "Theorem 1, Eq. (12)", PRINTED)
        .correction(
            "The softmax normalisation couples every weight of I_τ to x_t, so the sum must run over all of I_τ \
             (to t+k causal, to T for Eq (5) as written). Corrected: 004.thm1.corrected.",
        )
        .error(ErrorKind::FalseStatement, "The printed sum stops at i = t+k−1, but the softmax normalisation couples every weight w(i,τ), i ∈ I_τ, to x_t, so the printed expression differs from the Jacobian whenever the score gradient is non-zero. Corrected (sum over all of I_τ, and its closed form): 004.thm1.corrected.")
        .holds_instead(&["004.thm1.corrected"])
    .uncertified(Uncertified::NoEnclosure, "Eq (12)'s side is built from f64 matrices (nalgebra softmax weights and score gradients), which have no enclosure; the Jacobian side alone could be enclosed (dual numbers over intervals, math::Dual<Interval>)")
}

/// `004.thm1.corrected` (theorem): Theorem 1, corrected (proofs/decay.md).
fn claim_thm1_corrected() -> Claim {
    Claim::theorem(
        "004.thm1.corrected",
        super::FAMILY,
        "The sum of Eq (12) over all i ∈ I_τ, and the closed form w(t,τ)·W_V[I + (x_t − x̄_τ) g_τᵀ] with \
             g_τ = βW_QᵀW_K x_τ and x̄_τ = Σ_{i∈I_τ} w(i,τ) x_i, both equal dh_τ/dx_t for k ≥ 1 (dual numbers, relative 1e−9), \
             causal and full.",
        property(CASES, instances(10, false), |b: &BoundedAttention| theorem1_margin(&b.instance, Formula::CorrectedSumAndClosedForm))
            .sides("‖formula − dh_τ/dx_t‖_F (dual numbers)", "tolerance 1e−9·scale"),
    )
    .source(Paper::RethinkingLrd, "Theorem 1, corrected (proofs/decay.md)", PRINTED)
    .correction("Summation over all of I_τ; closed form derived in proofs/decay.md")
    .control(
        "closed form with the sign of (x_t − x̄_τ) g_τᵀ flipped",
        property(CASES, instances(10, false), |b: &BoundedAttention| theorem1_margin(&b.instance, Formula::ClosedFormSignFlipped))
            .sides("‖formula − dh_τ/dx_t‖_F (dual numbers)", "tolerance 1e−9·scale"),
    )
}

/// `004.attn.lower` (theorem): §3.2 ("transformer LRD is not constrained to exponential decay"), bound from proofs/decay.md.
fn claim_attn_lower() -> Claim {
    Claim::theorem(
        "004.attn.lower",
        super::FAMILY,
        "For inputs with ‖x_i‖₂ ≤ R, d ≥ 2, H ≥ d and W_V of full column rank: \
             ‖LRD(τ,t)‖₂ ≥ σ_d(W_V)·exp(−2βR²‖W_QᵀW_K‖₂)/|I_τ| (T ≤ 200, causal and full): attention LRD decays at most \
             polynomially in τ, not exponentially.",
        property(CASES, instances(200, true), |b: &BoundedAttention| lower_bound_margin(&b.instance, b.radius, true))
            .illustrate(|_| vec![overview::decay_comparison()]),
    )
    .source(
        Paper::RethinkingLrd,
        "§3.2 (\"transformer LRD is not constrained to exponential decay\"), bound from proofs/decay.md",
        "The form of LRD of transformers is more complicated, but it does not necessarily decay exponentially.",
    )
    .correction("The paper argues informally; this rigorous lower bound is derived in proofs/decay.md.")
    .control(
        "the bound without the factor exp(−2βR²‖W_QᵀW_K‖₂)",
        property(CASES, instances(200, true), |b: &BoundedAttention| lower_bound_margin(&b.instance, b.radius, false)),
    )
}

/// `000.attn` (theorem): App. B, eq (44)–(45).
fn claim_attn() -> Claim {
    Claim::theorem(
        "000.attn",
        super::FAMILY,
        "Causal softmax attention on scalar tokens |x_i| ≤ X (q = W_QᵀW_K, v = W_V on a 1/8 grid in [−2, 2], t ≤ 400): \
             eq (44) equals ∂y_t/∂x_j (dual numbers, relative 1e−9) and t·|∂y_t/∂x_j| ≤ e^{2|q|X²}(|v| + 2|qv|X²) for every j < t.",
        property(CASES, scalar_instances(), |i: &ScalarAttention| sensitivity_margin(i, 1)),
    )
    .source(
        Paper::InputSelectivity,
        "App. B, eq (44)–(45)",
        "For comparison, we provide a similar sensitivity analysis for the softmax Attention layer as well. … Even in this case, the second term can be bound by a constant C in terms of ‖W_Q‖, ‖W_K‖, ‖W_V‖ … |∂h_t^Attn/∂x_j| ≤ C (1/t) (min_r e^{x_t W_Qᵀ W_K x_r})^{−1}. (45)",
    )
    .correction("The constant C is made explicit for bounded inputs (proofs/decay.md).")
    .control("t² in place of t (a claimed O(1/t²) decay)", property(CASES, scalar_instances(), |i: &ScalarAttention| sensitivity_margin(i, 2)))
}

/// `000.attn.slope` (theorem): App. B, eq (44)–(45).
fn claim_attn_slope() -> Claim {
    Claim::theorem(
        "000.attn.slope",
        super::FAMILY,
        "The O(1/t) of App. B is the actual rate: for causal softmax attention on scalar tokens drawn iid U(−X, X), (q, v, X) ∈ \
             {(0.5, 1, 1), (2, 1, 1), (1, −1, 2)}, the mean sensitivity (1/(t−1))Σ_{j<t}|∂y_t/∂x_j| (eq 44) at t = 16, 64, …, 16384 has \
             fitted log–log slope −1 ± 0.05 (10 / 40 / 200 sequences per setting, Student-t, Bonferroni over the 3 settings at α = 10⁻⁴).",
        slope_check(-1.0),
    )
    .source(Paper::InputSelectivity, "App. B, eq (45)", "|∂h_t^Attn/∂x_j| ≤ C (1/t) (min_r e^{x_t W_Qᵀ W_K x_r})^{−1}. (45)")
    .correction("The bound of 000.attn is attained in rate: each weight a_j is Θ(1/t) for bounded inputs, so the mean sensitivity is Θ(1/t).")
    .control("slope −2", slope_check(-2.0))
}

/// Registers the attention claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_thm1_printed());
    r.add(claim_thm1_corrected());
    r.add(claim_attn_lower());
    r.add(claim_attn());
    r.add(claim_attn_slope());
}
