//! 001 §2 and App. C.3: realization-theory facts, the companion form and its conversions, in
//! exact rational arithmetic where the statement is an identity.
//!
//! * `001.c3`, `001.c4`, `001.c5`, `001.c11` (Theorems): FIR realization of any sequence,
//!   Hankel rank and Cayley–Hamilton, SSM = convolution, the canonical form's transfer function.
//! * `001.c12` (Theorem): diagonal ↔ companion for LTI systems, exact; the f64 error against N.
//! * `001.c13` (Erratum, construction): the frozen characteristic-polynomial companion does not
//!   realize an input-varying (selective) diagonal system.
//! * `001.c16.printed` (Erratum, false statement) / `001.c16` (Theorem): the companion
//!   realization is minimal only without pole–zero cancellation.
//! * `001.c19` / `001.c19.oscillator` (Theorems): a real positive diagonal system's impulse
//!   response changes sign at most N − 1 times; the 2-state companion oscillator unboundedly often.

use crate::claim::{property, Claim, ErrorKind, Eval, Figure, Paper, Rounding, Series, Style};
use crate::claim::{Scale, Tolerance};
use crate::math::exact::sign_changes;
use crate::math::Interval;
use crate::model::companion::{exact, rank, to_f64, Companion, DiagonalLti, Exact};
use crate::strategy::grid_vec;
use num_traits::{One, Zero};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

fn ex(v: &[f64]) -> Vec<Exact> {
    v.iter().map(|x| exact(*x)).collect()
}

/// The largest |a_i − b_i| of two exact sequences (as f64; 0 exactly when they are equal), the
/// sequences padded with zeros.
fn max_gap(a: &[Exact], b: &[Exact]) -> f64 {
    (0..a.len().max(b.len()))
        .map(|i| to_f64(&(a.get(i).cloned().unwrap_or_else(Exact::zero) - b.get(i).cloned().unwrap_or_else(Exact::zero))).abs())
        .fold(0.0, f64::max)
}

/// A dyadic f64 system in exact arithmetic.
fn exact_system(s: &DiagonalLti<f64>) -> DiagonalLti<Exact> {
    DiagonalLti { lambda: ex(&s.lambda), b: ex(&s.b), c: ex(&s.c), d: exact(s.d) }
}

/// A diagonal SISO system with distinct poles on a 1/64 grid in `[lo, hi]`, b and c on a 1/8
/// grid in [−1, 1] (zero allowed unless `nonzero`), D on a 1/8 grid, and an input of length T.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiagonalCase {
    /// The poles λ_i (distinct).
    pub lambda: Vec<f64>,
    /// b.
    pub b: Vec<f64>,
    /// c.
    pub c: Vec<f64>,
    /// D.
    pub d: f64,
    /// Input u_0..u_{T−1}.
    pub u: Vec<f64>,
}

impl DiagonalCase {
    /// The system in exact arithmetic.
    pub fn exact(&self) -> DiagonalLti<Exact> {
        exact_system(&self.system())
    }
    /// The system without its input.
    pub fn system(&self) -> DiagonalLti<f64> {
        DiagonalLti { lambda: self.lambda.clone(), b: self.b.clone(), c: self.c.clone(), d: self.d }
    }
    /// Modes with c_i b_i = 0 (cancelled by a zero).
    pub fn cancelled(&self) -> usize {
        self.b.iter().zip(&self.c).filter(|(b, c)| **b == 0.0 || **c == 0.0).count()
    }
}

/// Diagonal systems of order 1..=`max_n` with poles in `[lo, hi]` (64ths).
pub fn diagonal_cases(max_n: usize, lo: f64, hi: f64, nonzero: bool) -> impl Strategy<Value = DiagonalCase> + Clone {
    (1..=max_n).prop_flat_map(move |n| diagonal_of_order(n, lo, hi, nonzero))
}

/// Diagonal systems of order `n` with distinct poles in `[lo, hi]` (64ths), b and c on a 1/8
/// grid in [−1, 1] (nonzero: |b|, |c| ≥ 1/8), an input of length 1..=24.
pub fn diagonal_of_order(n: usize, lo: f64, hi: f64, nonzero: bool) -> impl Strategy<Value = DiagonalCase> + Clone {
    let grid: Vec<i32> = ((lo * 64.0).ceil() as i32..=(hi * 64.0).floor() as i32).collect();
    let coef = move || (-8i32..=8).prop_filter("nonzero", move |k| !nonzero || *k != 0).prop_map(|k| vec![k as f64 / 8.0]);
    (1usize..=24)
        .prop_flat_map(move |t| {
            (
                prop::sample::subsequence(grid.clone(), n),
                prop::collection::vec(coef(), n),
                prop::collection::vec(coef(), n),
                -8i32..=8,
                grid_vec(t, -1.0, 1.0, 0.0625),
            )
        })
        .prop_map(|(l, b, c, d, u)| DiagonalCase {
            lambda: l.into_iter().map(|i| i as f64 / 64.0).collect(),
            b: b.into_iter().flatten().collect(),
            c: c.into_iter().flatten().collect(),
            d: d as f64 / 8.0,
            u,
        })
}

/// `001.c12`: the companion conversion's impulse response (2N + 2 terms), its output on the
/// input, and the partial-fraction round trip back to `c_i b_i`, exactly. `flip` negates the
/// last pole in α (the control).
fn conversion_gap(c: &DiagonalCase, flip: bool) -> Eval {
    let sys = c.exact();
    let mut comp = Companion::from_diagonal(&sys);
    if flip {
        let mut poles = sys.lambda.clone();
        let last = poles.len() - 1;
        poles[last] = -poles[last].clone();
        comp.alpha = crate::model::companion::poly_from_roots(&poles);
    }
    let n = c.lambda.len();
    let impulse = max_gap(&comp.impulse(2 * n + 2), &sys.impulse(2 * n + 2));
    let output = max_gap(&comp.simulate(&ex(&c.u)), &sys.simulate(&ex(&c.u)));
    let back = comp.to_diagonal(&sys.lambda);
    let residues: Vec<Exact> = sys.b.iter().zip(&sys.c).map(|(b, c)| b * c).collect();
    let round_trip = max_gap(&back.c, &residues);
    Eval::le_by(impulse.max(output).max(round_trip), 0.0, Scale(1.0), Tolerance::NONE)
}

/// The f64 conversion's relative impulse-response error against N: poles equally spaced in
/// [0.05, 0.95], b = c = 1, against the exact diagonal response (4N terms).
fn conversion_error_figure() -> Figure {
    let points: Vec<[f64; 2]> = (1..=20)
        .map(|n| {
            let lambda: Vec<f64> = (0..n).map(|i| 0.05 + 0.9 * i as f64 / (n.max(2) - 1) as f64).collect();
            let f = DiagonalLti { lambda: lambda.clone(), b: vec![1.0; n], c: vec![1.0; n], d: 0.0 };
            let e = DiagonalLti { lambda: ex(&lambda), b: ex(&vec![1.0; n]), c: ex(&vec![1.0; n]), d: Exact::zero() };
            let (hf, he) = (Companion::from_diagonal(&f).impulse(4 * n), e.impulse(4 * n));
            let scale = he.iter().map(|h| to_f64(h).abs()).fold(0.0, f64::max);
            let err = hf.iter().zip(&he).map(|(a, b)| (a - to_f64(b)).abs()).fold(0.0, f64::max) / scale;
            [n as f64, err.max(1e-17).log10()]
        })
        .collect();
    Figure::new("companion_conversion_error", "Diagonal → companion in f64: relative impulse-response error against the order", "order N", "log₁₀ relative error")
        .with(Series::new("f64 companion vs exact", Style::Line, points))
        .with(Series::new("exact rationals (the claim)", Style::Dashed, vec![[1.0, -17.0], [20.0, -17.0]]))
        .caption("Poles equally spaced in [0.05, 0.95], b = c = 1, 4N Markov parameters. The claim is checked in exact arithmetic (plotted at the floor 10⁻¹⁷); in f64 the companion coefficients grow like binomials and the error grows with N.")
}

/// `x·y` for square exact matrices (rows).
fn mul(x: &[Vec<Exact>], y: &[Vec<Exact>]) -> Vec<Vec<Exact>> {
    let n = x.len();
    (0..n).map(|i| (0..n).map(|j| (0..n).fold(Exact::zero(), |s, k| s + &x[i][k] * &y[k][j])).collect()).collect()
}

/// `m + cI`.
fn plus_identity(mut m: Vec<Vec<Exact>>, c: &Exact) -> Vec<Vec<Exact>> {
    for (i, row) in m.iter_mut().enumerate() {
        row[i] += c;
    }
    m
}

/// The exact characteristic polynomial `[c_0, …, c_{n−1}]` (monic) of a square matrix, by
/// Faddeev–LeVerrier: `M_k = A·M_{k−1} + c_{n−k+1}I`, `c_{n−k} = −tr(A·M_k)/k`.
fn charpoly(a: &[Vec<Exact>]) -> Vec<Exact> {
    let n = a.len();
    let mut coeffs = vec![Exact::zero(); n + 1];
    coeffs[n] = Exact::one();
    let mut m = vec![vec![Exact::zero(); n]; n];
    for k in 1..=n {
        m = plus_identity(mul(a, &m), &coeffs[n - k + 1]);
        let am = mul(a, &m);
        let tr = (0..n).fold(Exact::zero(), |s, i| s + &am[i][i]);
        coeffs[n - k] = -tr / Exact::from_integer((k as i64).into());
    }
    coeffs.pop();
    coeffs
}

/// The largest entry of `A^n + c_{n−1}A^{n−1} + … + c_0 I` (Horner on matrices) for a square grid
/// matrix, exactly.
fn cayley_hamilton_residual(rows: &[Vec<f64>]) -> f64 {
    let a: Vec<Vec<Exact>> = rows.iter().map(|r| ex(r)).collect();
    let c = charpoly(&a);
    let mut r = plus_identity(vec![vec![Exact::zero(); a.len()]; a.len()], &Exact::one());
    for ck in c.iter().rev() {
        r = plus_identity(mul(&r, &a), ck);
    }
    r.iter().flatten().map(|v| to_f64(v).abs()).fold(0.0, f64::max)
}

/// `001.c4`: rank of the Hankel matrix of Markov parameters `h_{i+j+1}` (k × k, k = N + extra)
/// of a minimal order-N system equals N (`deficit` subtracted for the control).
fn hankel_rank(c: &DiagonalCase, deficit: usize) -> Eval {
    let n = c.lambda.len();
    let k = n + c.u.len() % 3;
    let h = c.exact().impulse(2 * k + 1);
    let rows: Vec<Vec<Exact>> = (0..k).map(|i| (0..k).map(|j| h[i + j + 1].clone()).collect()).collect();
    let r = rank(&rows);
    let want = n - deficit;
    Eval::le_by((r as f64 - want as f64).abs(), 0.0, Scale(1.0), Tolerance::NONE)
}

/// `001.c16`: the observability rank of the companion realization is N minus the cancelled
/// modes (`extra` subtracted for the control), its controllability rank is N, and the reduced
/// system without the cancelled modes has the same impulse response.
fn minimality(c: &DiagonalCase, extra: usize) -> Eval {
    let sys = c.exact();
    let comp = Companion::from_diagonal(&sys);
    let n = c.lambda.len();
    let obs = rank(&comp.observability()) as f64;
    let ctrb = rank(&comp.controllability()) as f64;
    let keep: Vec<usize> = (0..n).filter(|&i| c.b[i] != 0.0 && c.c[i] != 0.0).collect();
    let reduced = DiagonalLti {
        lambda: keep.iter().map(|&i| sys.lambda[i].clone()).collect(),
        b: keep.iter().map(|&i| sys.b[i].clone()).collect(),
        c: keep.iter().map(|&i| sys.c[i].clone()).collect(),
        d: sys.d.clone(),
    };
    let same = max_gap(&Companion::from_diagonal(&reduced).impulse(2 * n + 2), &comp.impulse(2 * n + 2));
    let want = (n - c.cancelled()) as f64 - extra as f64;
    Eval::le_by((obs - want).abs() + (ctrb - n as f64).abs() + same, 0.0, Scale(1.0), Tolerance::NONE)
}

/// `001.c13`: an input-varying diagonal system — per-symbol poles, b and c, the input a symbol
/// sequence with amplitudes — against the companion of each step's frozen matrices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SelectiveCase {
    /// The diagonal system for each of two input symbols (same order N).
    pub systems: Vec<DiagonalLti<f64>>,
    /// The symbol of each step.
    pub symbols: Vec<usize>,
    /// The input amplitude of each step.
    pub u: Vec<f64>,
}

fn selective_cases() -> impl Strategy<Value = SelectiveCase> + Clone {
    (1usize..=4, 2usize..=24)
        .prop_flat_map(|(n, t)| {
            (prop::collection::vec(diagonal_of_order(n, -0.95, 0.95, false), 2), prop::collection::vec(0usize..2, t), grid_vec(t, -1.0, 1.0, 0.0625))
        })
        .prop_map(|(systems, symbols, u)| SelectiveCase { systems: systems.iter().map(DiagonalCase::system).collect(), symbols, u })
}

/// The selective system's output and the frozen-companion output (the printed convention: the
/// input enters at e_n unscaled, b folded into β), exactly; their largest gap.
fn frozen_companion_gap(c: &SelectiveCase) -> (f64, Vec<f64>, Vec<f64>) {
    let sys: Vec<DiagonalLti<Exact>> = c.systems.iter().map(exact_system).collect();
    let comp: Vec<Companion<Exact>> = sys.iter().map(Companion::from_diagonal).collect();
    let yd = selective_output(&sys, c);
    let mut z = vec![Exact::zero(); sys[0].lambda.len()];
    let yc: Vec<Exact> = c.symbols.iter().zip(&c.u).map(|(s, u)| comp[*s].step(&mut z, exact(*u))).collect();
    (max_gap(&yd, &yc), yd.iter().map(to_f64).collect(), yc.iter().map(to_f64).collect())
}

/// The selective diagonal system's output `y_t = d u_t + cᵀx_t`, `x_{t+1} = Λx_t + b u_t`, each
/// step with its symbol's system, exactly.
fn selective_output(sys: &[DiagonalLti<Exact>], c: &SelectiveCase) -> Vec<Exact> {
    let mut x = vec![Exact::zero(); sys[0].lambda.len()];
    let mut y = Vec::with_capacity(c.u.len());
    for (s, u) in c.symbols.iter().zip(&c.u) {
        let (d, u) = (&sys[*s], exact(*u));
        y.push(x.iter().zip(&d.c).fold(&d.d * &u, |acc, (xi, ci)| acc + ci * xi));
        for ((xi, l), b) in x.iter_mut().zip(&d.lambda).zip(&d.b) {
            *xi = l * &*xi + b * &u;
        }
    }
    y
}

/// How far the selective system's output lies outside everything the frozen companion can give
/// under *any* convention of where b and c enter: `rank[M | y] − rank M` (0 or 1, exact), where
/// M's columns are the read-outs available to some per-symbol input gain, read-out and
/// feedthrough. With per-symbol gains g_s the companion state is `z_t = Σ_j g_j z_t^{(j)}`, where
/// `z^{(j)}` is driven (through each step's frozen companion matrix) only by the inputs of the
/// steps with symbol j; the output `r_{s_t}ᵀz_t + d_{s_t}u_t` is then a combination of the
/// columns `[s_t = s]·z^{(j)}_{t,k}` and `[s_t = s]·u_t`, with coefficients `g_j r_{s,k}` and
/// `d_s`. Treating those products as free makes the set larger, so 1 here means that no gain,
/// read-out and feedthrough reproduce y; 0 at order 1 always (gain b_s at input time, read-out
/// c_s, state x_t itself).
fn frozen_companion_span_excess(c: &SelectiveCase) -> f64 {
    let sys: Vec<DiagonalLti<Exact>> = c.systems.iter().map(exact_system).collect();
    // Only the state matrices matter: the input enters at e_n, the read-out is discarded.
    let comp: Vec<Companion<Exact>> = sys.iter().map(Companion::from_diagonal).collect();
    let (n, steps, symbols) = (sys[0].lambda.len(), c.u.len(), sys.len());
    let mut columns: Vec<Vec<Exact>> = Vec::new();
    for source in 0..symbols {
        let mut z = vec![Exact::zero(); n];
        let mut states = Vec::with_capacity(steps);
        for (s, u) in c.symbols.iter().zip(&c.u) {
            states.push(z.clone());
            comp[*s].step(&mut z, if *s == source { exact(*u) } else { Exact::zero() });
        }
        for symbol in 0..symbols {
            columns.extend((0..n).map(|k| (0..steps).map(|t| if c.symbols[t] == symbol { states[t][k].clone() } else { Exact::zero() }).collect()));
        }
    }
    for symbol in 0..symbols {
        columns.push((0..steps).map(|t| if c.symbols[t] == symbol { exact(c.u[t]) } else { Exact::zero() }).collect());
    }
    let rows: Vec<Vec<Exact>> = (0..steps).map(|t| columns.iter().map(|col| col[t].clone()).collect()).collect();
    let y = selective_output(&sys, c);
    let augmented: Vec<Vec<Exact>> = rows.iter().zip(y).map(|(row, yt)| row.iter().cloned().chain([yt]).collect()).collect();
    (rank(&augmented) - rank(&rows)) as f64
}

/// Sign changes of `h_t = Σ_i w_i λ_i^{t−1}`, 1 ≤ t < `len`, counted only between terms whose
/// computed sign is certain: λ^{t−1} by repeated multiplication is within γ_{t} (relative) and
/// the sum adds γ_N, so |ĥ_t − h_t| ≤ γ_{t+N}·Σ|w_i|λ_i^{t−1}; a term larger than that has the
/// true sign. The count is at most the true number of changes.
fn certain_sign_changes(lambda: &[f64], w: &[f64], len: usize) -> usize {
    let mut pow = vec![1.0; lambda.len()];
    let mut signs = Vec::new();
    for t in 1..len {
        let h: f64 = pow.iter().zip(w).map(|(p, w)| p * w).sum();
        let bound = Rounding::gamma(t + lambda.len()) * pow.iter().zip(w).map(|(p, w)| (p * w).abs()).sum::<f64>();
        if h.abs() > bound {
            signs.push(h > 0.0);
        }
        pow.iter_mut().zip(lambda).for_each(|(p, l)| *p *= l);
    }
    signs.windows(2).filter(|s| s[0] != s[1]).count()
}

/// `001.c19`: the impulse response of a diagonal system with distinct poles in (0, 1) changes
/// sign at most N − 1 − `tighter` times over `t < 400` (certain signs only).
fn diagonal_sign_changes(c: &DiagonalCase, tighter: usize) -> Eval {
    let w: Vec<f64> = c.b.iter().zip(&c.c).map(|(b, c)| b * c).collect();
    let n = c.lambda.len() as f64;
    Eval::le_by(certain_sign_changes(&c.lambda, &w, 400) as f64, n - 1.0 - tighter as f64, Scale(1.0), Tolerance::NONE)
}

/// `001.c19.oscillator`: the companion with `α = (1, −c)` (`a_1 = −1`, `a_2 = c = 2cos ω`) over
/// T steps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Oscillator {
    /// c = 2cos ω (64ths in (−2, 2)).
    pub c: f64,
    /// Steps T.
    pub steps: usize,
}

fn oscillator_changes(o: &Oscillator) -> (usize, usize) {
    let comp = Companion { alpha: vec![exact(1.0), exact(-o.c)], beta: vec![exact(0.0), exact(1.0)], d: Exact::zero() };
    let h = comp.impulse(o.steps);
    let omega = (o.c / 2.0).acos();
    let predicted = ((o.steps - 2) as f64 * omega / std::f64::consts::PI).floor() as usize;
    (sign_changes(&h[1..]), predicted.saturating_sub(1))
}

fn sign_change_figure() -> Figure {
    // Deterministic instances: N = 1..5, poles and weights from the golden-ratio sequence.
    let mut counts = [0usize; 6];
    let frac = |i: usize| (i as f64 * 0.618_033_988_749_894_9) % 1.0;
    for trial in 0..400usize {
        let n = 1 + trial % 5;
        let lambda: Vec<f64> = (0..n).map(|i| ((1.0 + 62.0 * frac(7 * trial + i + 1)).round() / 64.0) + i as f64 / 4096.0).collect();
        let gamma: Vec<f64> = (0..n).map(|i| ((frac(11 * trial + 3 * i + 2) * 16.0).round() - 8.0) / 8.0).collect();
        counts[certain_sign_changes(&lambda, &gamma, 400).min(5)] += 1;
    }
    let osc = Oscillator { c: 2.0 * 0.3f64.cos(), steps: 120 };
    let (o, _) = oscillator_changes(&Oscillator { c: (osc.c * 64.0).round() / 64.0, ..osc });
    Figure::new("sign_changes", "Sign changes of the impulse response: real diagonal (t < 400) and the companion oscillator (t < 120)", "sign changes", "instances")
        .with(Series::new("real diagonal, N = 1…5 (400 instances)", Style::Line, counts.iter().enumerate().map(|(k, c)| [k as f64, *c as f64]).collect()))
        .with(Series::new(format!("2-state companion oscillator, ω ≈ 0.3: {o} changes"), Style::Points, vec![[o.min(40) as f64, 50.0]]))
        .caption("Every real diagonal instance stays at or below N − 1 ≤ 4 changes (Descartes' rule for exponential sums); the companion oscillator with a₁ = −1, a₂ = 2cos ω changes sign about Tω/π times.")
}

/// `001.c3` (theorem): Sec. 2.
fn claim_c3() -> Claim {
    let c3 = |reverse: bool| {
        property([300, 3000, 20000], (1usize..=24).prop_flat_map(|t| grid_vec(t, -1.0, 1.0, 0.0625)), move |g: &Vec<f64>| {
            let t = g.len();
            let mut beta: Vec<f64> = g[1..].iter().rev().copied().collect();
            if reverse {
                beta.reverse();
            }
            let comp = Companion { alpha: vec![Exact::zero(); t - 1], beta: ex(&beta), d: exact(g[0]) };
            let mut want = ex(g);
            want.resize(2 * t, Exact::zero());
            Eval::le_by(max_gap(&comp.impulse(2 * t), &want), 0.0, Scale(1.0), Tolerance::NONE)
        })
    };
    Claim::theorem(
            "001.c3",
            super::FAMILY,
            "Any finite sequence g_0, …, g_{T−1} (T ≤ 24) is the impulse response of a nilpotent LTI system of order T − 1: the shift register \
             (companion form with α = 0) with β = [g_{T−1}, …, g_1] and D = g_0, whose response is g followed by zeros — exactly.",
            c3(false).sides("max_j |h_j − g_j| (2T terms, exact)", "0"),
        )
        .source(Paper::Bmojo, "Sec. 2", "Any finite sequence can be realized by a linear time-invariant (LTI) system driven by IID Gaussian noise [27].")
        .correction("The deterministic core, which the suite checks: any finite sequence is the impulse response of an FIR (nilpotent) system of order T − 1. The stochastic version (a spectral factor driven by white noise) is the cited background, not checked.")
        .control("β in the other order, [g_1, …, g_{T−1}]", c3(true))
}

/// `001.c4` (theorem): Sec. 2.
fn claim_c4() -> Claim {
    Claim::theorem(
        "001.c4",
        super::FAMILY,
        "Order identification (Cayley–Hamilton): for a minimal SISO system of order N ≤ 6 (distinct poles, every c_i b_i ≠ 0) the k × k Hankel \
             matrix of Markov parameters h_{i+j+1}, k = N…N+2, has rank exactly N; and every square matrix A (order ≤ 5, entries on a 1/4 grid) \
             satisfies its characteristic polynomial, A^n + c_{n−1}A^{n−1} + … + c_0 I = 0, exactly.",
        property(
            [200, 2000, 10000],
            (diagonal_cases(6, -0.95, 0.95, true), 1usize..=5).prop_flat_map(|(d, n)| (Just(d), crate::strategy::grid_matrix(n, n, -2.0, 2.0, 0.25))),
            |(c, a): &(DiagonalCase, Vec<Vec<f64>>)| hankel_rank(c, 0).min(Eval::le_by(cayley_hamilton_residual(a), 0.0, Scale(1.0), Tolerance::NONE)),
        )
        .sides("|rank H − N| + ‖CH residual‖ (exact)", "0"),
    )
    .source(Paper::Bmojo, "Sec. 2", "If the model is linear and driven by Gaussian noise, the Cayley-Hamilton theorem [22] implies that the model’s “true” order can be inferred with a variety of model selection criteria, including greedy selection.")
    .control("rank N − 1 (one order fewer suffices)", property([200, 2000, 10000], diagonal_cases(6, -0.95, 0.95, true), |c: &DiagonalCase| hankel_rank(c, 1)))
}

/// `001.c5` (theorem): §1, footnote 3.
fn claim_c5() -> Claim {
    let c5 = |shift: usize| {
        property([300, 3000, 20000], diagonal_cases(6, -0.95, 0.95, false), move |c: &DiagonalCase| {
            let sys = c.exact();
            let u = ex(&c.u);
            let h = sys.impulse(u.len() + shift);
            let conv: Vec<Exact> = (0..u.len()).map(|t| (0..=t).fold(Exact::zero(), |s, j| s + &h[j + shift] * &u[t - j])).collect();
            Eval::le_by(max_gap(&sys.simulate(&u), &conv), 0.0, Scale(1.0), Tolerance::NONE)
        })
    };
    Claim::theorem(
        "001.c5",
        super::FAMILY,
        "An LTI state-space system is a convolution: y_t = Σ_{j=0}^{t} h_j u_{t−j} with h_0 = D and h_j = cᵀΛ^{j−1}b, for diagonal systems of \
             order ≤ 6 and inputs of length ≤ 24 — exactly.",
        c5(0).sides("max_t |y_t − (h ∗ u)_t| (exact)", "0"),
    )
    .source(Paper::Bmojo, "§1, footnote 3", "Under the stationary assumption, one stochastic realization of an SSM is a convolution. This input-output map is equivalent to an SSM and standard transformations can be applied from one to the other.")
    .control("the kernel shifted by one, h_{j+1}", c5(1))
}

/// `001.c11` (theorem): App. C.3, eqs (19)–(20).
fn claim_c11() -> Claim {
    let c11 = |flip: bool| {
        property(
            [300, 3000, 20000],
            (1usize..=8).prop_flat_map(|n| (grid_vec(n, -2.0, 2.0, 0.125), grid_vec(n, -1.0, 1.0, 0.125), grid_vec(1, -1.0, 1.0, 0.125))),
            move |(a, b, d): &(Vec<f64>, Vec<f64>, Vec<f64>)| {
                let comp = Companion { alpha: ex(a), beta: ex(b), d: exact(d[0]) };
                let mut div = comp.clone();
                if flip {
                    div.alpha = div.alpha.iter().map(|x| -x).collect();
                }
                let len = 3 * a.len() + 2;
                Eval::le_by(max_gap(&comp.impulse(len), &div.series(len)), 0.0, Scale(1.0), Tolerance::NONE)
            },
        )
    };
    Claim::theorem(
            "001.c11",
            super::FAMILY,
            "The controllable canonical form (A_c with ones on the super-diagonal and last row −α, input e_n, read-out β, feedthrough D) realizes \
             W(z) = β(z)/α(z) + D: its impulse response equals the power series of W in z^{−1} by long division, for any α, β of order ≤ 8 — exactly.",
            c11(false).sides("max_j |h_j − [z^{−j}]W(z)| (3N + 2 terms, exact)", "0"),
        )
        .source(Paper::Bmojo, "App. C.3, eqs (19)–(20)", "W(z) = (β_0 + β_1 z + … + β_{n−1}z^{n−1})/(α_0 + α_1 z + … + α_{n−1}z^{n−1} + z^n) … X_{t+1} = A X_t + [0 … 0 1]ᵀ u_t, y_t = [β_0 … β_{n−1}] X_t + D u_t.")
        .control("the last row +α instead of −α", c11(true))
}

/// `001.c12` (theorem): App. C.3.
fn claim_c12() -> Claim {
    Claim::theorem(
            "001.c12",
            super::FAMILY,
            "A diagonal (LTI, frozen-Mamba) system with distinct real poles λ_i (order ≤ 12) is realized by the companion form with α = Π(z − λ_i) and \
             β(z) = Σ_i c_i b_i Π_{j≠i}(z − λ_j): same impulse response and same output on a random input, and the partial fractions of β/α give \
             back c_i b_i — exactly (rational arithmetic; in f64 the conversion loses accuracy with N, see the figure).",
            property([60, 400, 3000], diagonal_cases(12, -0.95, 0.95, false), |c: &DiagonalCase| conversion_gap(c, false))
                .sides("largest gap: impulse response, output, residues (exact)", "0")
                .illustrate(|_| vec![conversion_error_figure()]),
        )
        .source(Paper::Bmojo, "App. C.3", "We can use this canonical form to represent a Mamba (diagonal) model … by simply picking the coefficients of the characteristic polynomial such that its poles are the same as the diagonal entries of the Mamba block.")
        .correction("Exact for LTI (frozen Δ, B, C) with a linear read-out; input-varying systems: 001.c13.")
        .control("one pole negated in α", property([60, 400, 3000], diagonal_cases(12, 0.02, 0.95, false), |c: &DiagonalCase| conversion_gap(c, true)))
}

/// `001.c13` (erratum): App. C.3, Remark.
fn claim_c13() -> Claim {
    Claim::erratum(
            "001.c13",
            super::FAMILY,
            "The companion form extends to input-varying systems by freezing time: the diagonal system whose poles, b and c depend on the input \
             symbol (two symbols, order ≤ 4, up to 24 steps) is realized by the companion system whose state matrix at each step is the companion \
             of that step's frozen diagonal system (001.c12's conversion), under some convention of where b and c enter (any per-symbol input \
             gain at e_n, read-out and feedthrough) — exactly: its output lies in the span of what those companions can read out.",
            property([200, 2000, 20000], selective_cases(), |c: &SelectiveCase| {
                // An exact rank difference against 0: a refutation is certified.
                Eval::le_by(Interval::exact(frozen_companion_span_excess(c)), Interval::exact(0.0), Scale(1.0), Tolerance::NONE)
            })
            .sides("rank[M | y] − rank M: y outside every gain/read-out/feedthrough of the frozen companions (exact)", "0")
            .expand(|c| {
                let (gap, yd, yc) = frozen_companion_gap(c);
                serde_json::json!({ "y_diagonal": yd, "y_frozen_companion_printed": yc, "largest_gap_printed": gap })
            }),
        )
        .source(Paper::Bmojo, "App. C.3, Remark", "Remark: Extending the previous canonical from [sic] to Time-Varying Systems is tedious but straightforward. The controllable canonical form we introduced in Equation 20 can be easily extended to Time-Varying Systems and Input-Varying as well.")
        .correction("Exact for frozen (LTI) systems: 001.c12; and at order 1 (gain b at input time). An input-varying system of order ≥ 2 with switching poles needs a time-varying state transform T_{t+1}A_tT_t⁻¹, which is not the companion matrix of A_t's characteristic polynomial.")
        .error(
            ErrorKind::Construction,
            "App. C.3 says the canonical form 'can be easily extended to Time-Varying Systems and Input-Varying as well'. The evident extension — the companion matrix of each step's characteristic polynomial, as B'MOJO-F's A(u_t) is written — realizes a different system as soon as the poles of an order ≥ 2 system change, whatever input gain, read-out and feedthrough each symbol is given: a change of coordinates x̂_t = T_t x_t turns A_t into T_{t+1}A_tT_t⁻¹, which is not companion(charpoly(A_t)). (At order 1 the gain b at input time makes it exact, so the search finds order-2 witnesses.) The existence claim may survive — an input-varying realization can exist under uniform controllability, with time-varying coordinates — but not by this construction; for frozen systems it is exact (001.c12).",
        )
        .holds_instead(&["001.c12"])
}

/// `001.c16.printed` (erratum): Sec. 3.1.
fn claim_c16_printed() -> Claim {
    Claim::erratum(
            "001.c16.printed",
            super::FAMILY,
            "B'MOJO-F's companion realization is minimal: the companion form of a diagonal system (order ≤ 6, b and c on a 1/8 grid, not the \
             zero system) is observable, rank[βᵀ; βᵀA_c; …; βᵀA_c^{N−1}] = N.",
            property([200, 2000, 20000], diagonal_cases(6, -0.95, 0.95, false), |c: &DiagonalCase| {
                let comp = Companion::from_diagonal(&c.exact());
                // A rank over the rationals against an order: exact, so a refutation is certified.
                Eval::ge_by(Interval::exact(rank(&comp.observability()) as f64), Interval::exact(c.lambda.len() as f64), Scale(1.0), Tolerance::NONE)
            })
            .given("a transfer function that is not 0 (some c_i b_i ≠ 0)", |c| if c.cancelled() < c.lambda.len() { 1.0 } else { -1.0 })
            .certify_given(|c: &DiagonalCase| {
                let largest = c.b.iter().zip(&c.c).map(|(b, c)| (Interval::exact(*b) * Interval::exact(*c)).abs()).fold(Interval::exact(0.0), Interval::max);
                Eval::gt(largest, Interval::exact(0.0), Scale(1.0), Tolerance::NONE)
            })
            .sides("rank of the observability matrix (exact)", "N")
            .expand(|c| {
                let comp = Companion::from_diagonal(&c.exact());
                serde_json::json!({ "alpha": comp.alpha.iter().map(to_f64).collect::<Vec<_>>(), "beta": comp.beta.iter().map(to_f64).collect::<Vec<_>>(), "cancelled_modes": c.cancelled() })
            }),
        )
        .source(Paper::Bmojo, "Sec. 3.1", "In Appendix C we show that B'MOJO-F is a minimal realization and, when the state dimension is fixed, it generalizes both Mamba and Attention modules.")
        .correction("The companion pair (A_c, e_n) is always controllable; the realization is minimal exactly when β and α are coprime (no mode with c_i b_i = 0): 001.c16.")
        .error(
            ErrorKind::FalseStatement,
            "Sec. 3.1: 'In Appendix C we show that B'MOJO-F is a minimal realization'. Appendix C has no such proof, and it is false in general: a companion realization is minimal iff it is also observable, i.e. iff β(z) and α(z) share no root. A Mamba channel with c_i b_i = 0 for some mode (the paper itself mentions 'zero-pole cancellations depending on B(u_t) and C(u_t)') converts to a companion form whose observability rank is N minus the cancelled modes (001.c16). Read as 'minimal for generic parameters' (β coprime with α) it holds, and 001.c16 checks that too, but the paper states no condition.",
        )
        .holds_instead(&["001.c16"])
}

/// `001.c16` (theorem): App. C.3.
fn claim_c16() -> Claim {
    Claim::theorem(
            "001.c16",
            super::FAMILY,
            "For a diagonal system with distinct poles (order ≤ 6), its companion realization has controllability rank N, observability rank N minus the \
             number of modes with c_i b_i = 0, and the same impulse response as the reduced system without those modes — exactly.",
            property([200, 2000, 20000], diagonal_cases(6, -0.95, 0.95, false), |c: &DiagonalCase| minimality(c, 0)).sides("|rank O − (N − cancelled)| + |rank C − N| + response gap (exact)", "0"),
        )
        .source(Paper::Bmojo, "App. C.3", "Mamba being non-minimal, could have some zero-pole cancellations depending on … B(u_t) and C(u_t) … the input-output behaviour associated with the cancellation does not appear in the output of Mamba.")
        .control("one more unobservable mode than cancelled", property([200, 2000, 20000], diagonal_cases(6, -0.95, 0.95, false), |c: &DiagonalCase| minimality(c, 1)))
}

/// `001.c19` (theorem): Sec. 3.1.
fn claim_c19() -> Claim {
    Claim::theorem(
            "001.c19",
            super::FAMILY,
            "A real diagonal system cannot oscillate: with distinct poles in (0, 1) (order ≤ 5) its impulse response h_t = Σ c_i b_i λ_i^{t−1} changes sign \
             at most N − 1 times over 1 ≤ t < 400 (signs certified against the rounding bound γ_{t+N}·Σ|c_i b_i|λ_i^{t−1}).",
            property([300, 3000, 20000], diagonal_cases(5, 0.02, 0.98, true), |c: &DiagonalCase| diagonal_sign_changes(c, 0))
                .sides("certain sign changes of h_t", "N − 1")
                .illustrate(|_| vec![sign_change_figure()]),
        )
        .source(Paper::Bmojo, "Sec. 3.1", "A Mamba model is obtained by stacking diagonal Mamba layers, hence insufficient to realize even a simple oscillator without resorting to (numerically slow) complex algebra.")
        .correction("The precise form: an exponential sum with N distinct positive real bases has at most N − 1 sign changes (Descartes' rule). It does not hold for Mamba with an input-dependent C(u_t), whose sign can flip freely.")
        .control("at most N − 2 changes", property([300, 3000, 20000], diagonal_cases(5, 0.02, 0.98, true), |c: &DiagonalCase| diagonal_sign_changes(c, 1)))
}

/// `001.c19.oscillator` (theorem): Sec. 3.1.
fn claim_c19_oscillator() -> Claim {
    let osc = |slack: usize| {
        property([200, 2000, 10000], (-127i32..=127, 20usize..=120).prop_map(|(c, steps)| Oscillator { c: c as f64 / 64.0, steps }), move |o: &Oscillator| {
            let (got, want) = oscillator_changes(o);
            Eval::ge_by(got as f64, (want + slack) as f64, Scale(1.0), Tolerance::NONE)
        })
        .sides("sign changes of h_t over t < T (exact)", "⌊(T − 2)ω/π⌋ − 1")
    };
    Claim::theorem(
        "001.c19.oscillator",
        super::FAMILY,
        "The 2-state companion with a₁ = −1, a₂ = 2cos ω (2cos ω on a 1/64 grid in (−2, 2)) realizes h_t = sin(tω)/sin ω, which changes sign at \
             least ⌊(T − 2)ω/π⌋ − 1 times over 1 ≤ t < T (T ≤ 120) — unboundedly many as T grows, exactly.",
        osc(0),
    )
    .source(Paper::Bmojo, "Sec. 3.1", "… insufficient to realize even a simple oscillator without resorting to (numerically slow) complex algebra.")
    .control("three more changes than the count", osc(3))
}

/// Registers the realization-theory claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_c3());
    r.add(claim_c4());
    r.add(claim_c5());
    r.add(claim_c11());
    r.add(claim_c12());
    r.add(claim_c13());
    r.add(claim_c16_printed());
    r.add(claim_c16());
    r.add(claim_c19());
    r.add(claim_c19_oscillator());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charpoly_of_a_two_by_two() {
        let a = vec![ex(&[1.0, 2.0]), ex(&[3.0, 4.0])];
        // z² − 5z − 2.
        assert_eq!(charpoly(&a), ex(&[-2.0, -5.0]));
    }

    #[test]
    fn frozen_companion_differs_when_poles_switch() {
        let s0 = DiagonalLti { lambda: vec![0.5, -0.25], b: vec![1.0, 1.0], c: vec![1.0, 1.0], d: 0.0 };
        let s1 = DiagonalLti { lambda: vec![0.75, 0.25], ..s0.clone() };
        let c = SelectiveCase { systems: vec![s0, s1], symbols: vec![0, 1, 0, 1, 1], u: vec![1.0, 0.0, 0.0, 0.0, 0.0] };
        assert!(frozen_companion_gap(&c).0 > 0.01);
    }

    /// The order-1 instance that refuted 001.c13 under the printed convention only (b folded into
    /// β): with the gain at input time it is exact, and the convention-free check says so.
    #[test]
    fn order_one_is_realized_under_some_convention() {
        let s0 = DiagonalLti { lambda: vec![-0.21875], b: vec![0.0], c: vec![0.0], d: 0.0 };
        let s1 = DiagonalLti { lambda: vec![0.46875], b: vec![-0.125], c: vec![-0.125], d: 0.0 };
        let c = SelectiveCase { systems: vec![s0, s1], symbols: vec![0, 1, 0], u: vec![-0.25, -0.3125, 0.5625] };
        assert_eq!(frozen_companion_gap(&c).0, 0.00390625);
        assert_eq!(frozen_companion_span_excess(&c), 0.0);
    }

    /// Order 2 with switching poles over 16 steps: no gain, read-out and feedthrough reproduce
    /// the output; the same system frozen (both symbols alike) is realized exactly.
    #[test]
    fn order_two_with_switching_poles_is_outside_every_convention() {
        let s0 = DiagonalLti { lambda: vec![0.5, -0.25], b: vec![1.0, 0.5], c: vec![1.0, -1.0], d: 0.0 };
        let s1 = DiagonalLti { lambda: vec![0.75, 0.125], ..s0.clone() };
        let symbols = vec![0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0, 1, 0];
        let u: Vec<f64> = (0..16).map(|t| ((t * 7 % 11) as f64 - 5.0) / 8.0).collect();
        let switching = SelectiveCase { systems: vec![s0.clone(), s1], symbols: symbols.clone(), u: u.clone() };
        assert_eq!(frozen_companion_span_excess(&switching), 1.0);
        let frozen = SelectiveCase { systems: vec![s0.clone(), s0], symbols, u };
        assert_eq!(frozen_companion_span_excess(&frozen), 0.0);
    }
}
