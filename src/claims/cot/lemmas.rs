//! 003 Remark 1 and Lemmas 2–5 (App. A.3): switching the SSM branch off, ReLU MLPs by scaled
//! SiLU blocks, exact linear maps, select and indicators.
//!
//! * `003.rem1.printed` (Erratum, construction): a large Δ does not zero the state unless W_b = 0.
//! * `003.lem2` / `003.lem2.tight` (Theorems): ‖f − g‖∞ ≤ Md/λ on all of ℝ^{d1}, and the sharp
//!   W₀(1/e)·max_r max(Σ⁺W̄₃\[r\], Σ⁻|W̄₃\[r\]|)/λ, attained.
//! * `003.lem3` (Theorem): SiLU(u) − SiLU(−u) = u makes linear maps exact.
//! * `003.lem4` (Theorem): the explicit 4d-unit select, exact with ReLU, within W₀(1/e)/λ with SiLU.
//! * `003.lem5.printed` (Erratum, false statement) and `003.lem5` (Theorem): indicators fail at
//!   a = b for reals; on integers with the ½ shift they meet the composed bound.

use crate::claim::{property, Claim, ErrorKind, Eval, Paper, Rounding};
use crate::claim::{Scale, Tolerance};
use crate::math::exact::{exact, to_f64, Exact};
use crate::math::softplus::{silu, softplus, softplus_inv};
use crate::math::{interval, Interval};
use crate::model::gadgets::{linear_silu, select_relu, Comparison, Indicator, Mlp, Multiplier, Precision, RELU_GAP};
use crate::model::mixer::Activation;
use crate::model::vector_ssm::{DenseState, VectorSsm};
use crate::strategy::{grid_matrix, grid_vec, log_uniform, real};
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// Remark 1's alternative: the SSM branch of a block with h channels and state d_h, input the
/// constant 1 (W_1 = 0, b_1 = 1), A ≤ 0 with every entry `a`, W_Δ giving Δ on every channel,
/// and the given W_b, W_c, run for `steps` steps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LargeDelta {
    /// Δ (softplus of W_Δ·1).
    pub delta: f64,
    /// The entry of A.
    pub a: f64,
    /// W_b (d_h × h).
    pub w_b: Vec<Vec<f64>>,
    /// Steps.
    pub steps: usize,
}

impl LargeDelta {
    /// The branch's SSM: A = a everywhere, W_c = 0, W_Δ = softplus⁻¹(Δ)/h in every entry, skip 1.
    pub fn ssm(&self) -> VectorSsm {
        let (dh, h) = (self.w_b.len(), self.w_b[0].len());
        VectorSsm {
            a: vec![vec![self.a; h]; dh],
            w_b: self.w_b.clone(),
            w_c: vec![vec![0.0; h]; dh],
            w_delta: vec![vec![softplus_inv(self.delta) / h as f64; h]; h],
            skip: vec![1.0; h],
        }
    }
    /// The branch's Δ_k = softplus(Σ_j W_Δ[k][j]) (input 1) from its own f64 weights, enclosed.
    fn deltas_enclosed(&self) -> Vec<Interval> {
        self.times_ones(&self.ssm().w_delta).into_iter().map(softplus).collect()
    }
    /// `W·1` (the branch's input), enclosed.
    fn times_ones(&self, w: &[Vec<f64>]) -> Vec<Interval> {
        interval::matvec(&interval::exact_rows(w), &vec![Interval::exact(1.0); self.w_b[0].len()])
    }
    /// The final state H on enclosures, entry by entry: H\[n\]\[k\] ← e^{Δ_k a}·H\[n\]\[k\] + b_n·Δ_k with
    /// b = W_b1 (input 1), as [`DenseState::advance`] computes it, every operation on intervals.
    pub fn state_enclosed(&self) -> Vec<Vec<Interval>> {
        let deltas = self.deltas_enclosed();
        let b = self.times_ones(&self.w_b);
        let mut h = vec![vec![Interval::exact(0.0); deltas.len()]; b.len()];
        for _ in 0..self.steps {
            for (row, &bn) in h.iter_mut().zip(&b) {
                for (hk, &dk) in row.iter_mut().zip(&deltas) {
                    *hk = (dk * Interval::exact(self.a)).exp() * *hk + bn * dk;
                }
            }
        }
        h
    }
    /// Remark 1's hypothesis Ã = e^{Δa} ≤ 10⁻³ on the model's own Δ_k, enclosed: −Δ_k a ≥ ln 1000
    /// for every channel.
    fn small_decay_enclosed(&self) -> Eval {
        let least = self.deltas_enclosed().into_iter().map(|d| -(d * Interval::exact(self.a))).reduce(Interval::min).unwrap_or(Interval::ENTIRE);
        Eval::ge_by(least, Interval::exact(1000.0).ln(), Scale(1000f64.ln()), Tolerance::NONE)
    }
    /// The final state H.
    pub fn state(&self) -> Vec<Vec<f64>> {
        let ssm = self.ssm();
        let mut s = DenseState::new(self.w_b.len(), self.w_b[0].len());
        for _ in 0..self.steps {
            s.advance(&ssm.a, &ssm.skip, &ssm.step(&vec![1.0; self.w_b[0].len()]));
        }
        s.h
    }
}

/// ‖H_t − w·Δ·W_b1‖∞ against Ã/(1 − Ã)·Δ‖W_b1‖∞ (w = 1: the write term; w = 0: zero). Δ is
/// softplus of W_Δ·1, taken from the branch's own step. Rounding: each step rounds the decay,
/// the product and the sum (γ₃ per step, of terms summing to at most Δ‖b‖/(1 − Ã)).
fn write_term(c: &LargeDelta, w: f64) -> Eval {
    let h = c.state();
    let step = c.ssm().step(&vec![1.0; c.w_b[0].len()]);
    let delta = step.delta.iter().fold(0.0f64, |m, v| m.max(*v));
    let decay = (delta * c.a).exp();
    let size = delta * step.b.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let gap = h.iter().zip(&step.b).flat_map(|(row, bn)| row.iter().zip(&step.delta).map(move |(v, d)| (v - w * d * bn).abs())).fold(0.0, f64::max);
    let bound = decay / (1.0 - decay) * size;
    let tol = Rounding::gamma(4 + 3 * c.steps) * size / (1.0 - decay);
    Eval::le_by(gap, bound, Scale(bound + tol + f64::MIN_POSITIVE), Tolerance::absolute(tol))
}

fn large_deltas() -> impl Strategy<Value = LargeDelta> + Clone {
    (1usize..=3, 1usize..=4)
        .prop_flat_map(|(dh, h)| (log_uniform(1.0, 1e6), real(-2.0, -0.1), grid_matrix(dh, h, -1.0, 1.0, 1.0 / 64.0), 1usize..=8))
        .prop_map(|(delta, a, w_b, steps)| LargeDelta { delta, a, w_b, steps })
}

/// A ReLU MLP g(x) = W̄₃ReLU(W̄₂x + b̄₂) with entries in [−M, M], λ, and an input x whose
/// entries are spread over [−s, s], s log-uniform on [10⁻³, 10⁴]; W̄₂ has full row rank when
/// the hidden width is at most the input width (for the attained bound).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReluCase {
    /// The ReLU MLP.
    pub mlp: Mlp,
    /// λ.
    pub lambda: f64,
    /// x.
    pub x: Vec<f64>,
}

fn relu_cases() -> impl Strategy<Value = ReluCase> + Clone {
    (1usize..=5, 1usize..=5, 1usize..=3, log_uniform(0.1, 10.0))
        .prop_flat_map(|(d1, d, d2, m)| {
            (
                grid_matrix(d, d1.max(d), -m, m, m / 64.0),
                grid_vec(d, -m, m, m / 64.0),
                grid_matrix(d2, d, -m, m, m / 64.0),
                log_uniform(1.0, 1e4),
                grid_vec(d1.max(d), -1.0, 1.0, 1.0 / 256.0),
                log_uniform(1e-3, 1e4),
            )
        })
        .prop_map(|(w2, b2, w3, lambda, x, s)| ReluCase {
            mlp: Mlp { w2, b2, w3, activation: Activation::Relu },
            lambda,
            x: x.into_iter().map(|v| v * s).collect(),
        })
}

/// Both evaluations' rounding for output r at x: each hidden unit's pre-activation is a dot
/// product of d₁ + 1 terms (γ_{d₁+1}), the activation and its scaling add γ₅ of |z|, and the
/// output is a dot product of d terms, for the ReLU MLP and the SiLU block alike.
fn relu_rounding(mlp: &Mlp, x: &[f64]) -> f64 {
    let (d1, d) = (x.len(), mlp.hidden());
    let z: Vec<f64> = mlp.w2.iter().zip(&mlp.b2).map(|(w, b)| w.iter().zip(x).map(|(a, v)| (a * v).abs()).sum::<f64>() + b.abs()).collect();
    let worst = mlp.w3.iter().map(|w| w.iter().zip(&z).map(|(a, v)| a.abs() * v).sum::<f64>()).fold(0.0, f64::max);
    2.0 * Rounding::gamma(d1 + d + 8) * worst
}

fn sup_error(case: &ReluCase, block: &Mlp, x: &[f64]) -> f64 {
    case.mlp.forward(x).iter().zip(block.forward(x)).map(|(g, f)| (g - f).abs()).fold(0.0, f64::max)
}

/// The input that attains the sharp bound on the worst row: z_k = (1 + W₀(1/e))/λ where the row
/// has the sign of its larger side, z_k = −50/λ elsewhere (δ ≈ 10⁻²⁰/λ), solved for x by least
/// squares (W̄₂ has full row rank); with the residual of the solve.
fn attaining_input(case: &ReluCase) -> Option<(Vec<f64>, usize, f64)> {
    let mlp = &case.mlp;
    let (d, d1) = (mlp.hidden(), mlp.w2[0].len());
    if d > d1 {
        return None;
    }
    let (row, positive, _) = mlp.worst_row()?;
    let target: Vec<f64> = (0..d)
        .map(|k| {
            let w = mlp.w3[row][k];
            let z = if (w > 0.0) == positive && w != 0.0 { (1.0 + RELU_GAP) / case.lambda } else { -50.0 / case.lambda };
            z - mlp.b2[k]
        })
        .collect();
    let a = DMatrix::from_fn(d, d1, |i, j| mlp.w2[i][j]);
    let svd = crate::math::linalg::svd(&a).ok()?;
    let x = svd.solve(&DVector::from_vec(target.clone()), f64::EPSILON * 16.0).ok()?;
    if svd.singular_values.min() < 1e-6 * svd.singular_values.max() {
        return None;
    }
    let residual = (&a * &x - DVector::from_vec(target)).amax();
    Some((x.iter().copied().collect(), row, residual))
}

fn lemma2(case: &ReluCase, sharp: bool, factor: f64) -> Eval {
    let block = case.mlp.silu_scaled(case.lambda);
    let bound = factor * if sharp { case.mlp.silu_gap(case.lambda) } else { case.mlp.paper_gap(case.lambda) };
    let tol = relu_rounding(&case.mlp, &case.x);
    let random = Eval::le_by(sup_error(case, &block, &case.x), bound, Scale(bound + tol), Tolerance::absolute(tol));
    if !sharp {
        return random;
    }
    let Some((x, row, residual)) = attaining_input(case) else { return random };
    let err = (case.mlp.forward(&x)[row] - block.forward(&x)[row]).abs();
    // Near its maximum δ(z) = z/(e^{λz}+1) drops by at most λ·Δz² (|δ″| ≤ 2λ); the far units add
    // at most 50e^{−50}/λ each.
    let w: f64 = case.mlp.w3[row].iter().map(|v| v.abs()).sum();
    let tol_adv = relu_rounding(&case.mlp, &x) + w * (case.lambda * residual * residual + 50.0 * (-50.0f64).exp() / case.lambda);
    random.min(Eval::le_by(err, bound, Scale(bound + tol_adv), Tolerance::absolute(tol_adv))).min(Eval::ge_by(
        err,
        case.mlp.silu_gap(case.lambda) * factor.min(1.0),
        Scale(bound + tol_adv),
        Tolerance::absolute(tol_adv),
    ))
}

/// A linear map W (entries in [−M, M]) and an x scaled so that max_k |(Wx)_k| = u_max,
/// log-uniform on [10⁻³, 700].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinearCase {
    /// W.
    pub w: Vec<Vec<f64>>,
    /// x.
    pub x: Vec<f64>,
}

/// Lemma 3's inputs: W on a grid of [−M, M] (d₁, d₂ ≤ 6). Two times in three x is a grid
/// vector scaled so that max_k |(Wx)_k| is up to 700 (where SiLU's two branches both matter);
/// otherwise its entries are ±10^e with integer e ∈ [0, 308], so equal magnitudes of opposite
/// signs cancel (x = (10¹⁶, −10¹⁶, 1)) and the largest overflow.
fn linear_cases() -> impl Strategy<Value = LinearCase> + Clone {
    (1usize..=6, 1usize..=6, log_uniform(0.1, 10.0)).prop_flat_map(|(d1, d2, m)| {
        let scaled = (grid_vec(d1, -1.0, 1.0, 1.0 / 256.0), log_uniform(1e-3, 700.0)).prop_map(|(x, umax)| (x, Some(umax)));
        let powers = prop::collection::vec((any::<bool>(), 0i32..=308), d1)
            .prop_map(|x| (x.into_iter().map(|(negative, e)| if negative { -(10f64.powi(e)) } else { 10f64.powi(e) }).collect(), None));
        (grid_matrix(d2, d1, -m, m, m / 64.0), prop_oneof![2 => scaled, 1 => powers]).prop_map(|(w, (x, umax))| {
            let peak = w.iter().map(|r| r.iter().zip(&x).map(|(a, b)| a * b).sum::<f64>().abs()).fold(0.0, f64::max);
            let s = match umax {
                Some(umax) if peak > 0.0 => umax / peak,
                _ => 1.0,
            };
            LinearCase { w, x: x.into_iter().map(|v| v * s).collect() }
        })
    })
}

/// The domain where Lemma 3's block can be evaluated in f64: every Σ_j |w_kj x_j| ≤ 2¹⁰²⁰, so
/// no product, sum or SiLU overflows (the lemma is about real x; overflow is the machine's). The
/// margin is in binary orders of magnitude.
fn finite_evaluation(c: &LinearCase) -> f64 {
    let largest = c.w.iter().map(|r| r.iter().zip(&c.x).map(|(a, b)| (a * b).abs()).sum::<f64>()).fold(0.0, f64::max);
    (1020.0 - largest.log2()).max(-1e9)
}

fn lemma3(c: &LinearCase, one_branch: bool) -> Eval {
    let block = if one_branch {
        let d2 = c.w.len();
        Mlp {
            w2: c.w.clone(),
            b2: vec![0.0; d2],
            w3: (0..d2).map(|i| (0..d2).map(|j| f64::from(u8::from(i == j))).collect()).collect(),
            activation: Activation::Silu,
        }
    } else {
        linear_silu(&c.w)
    };
    let f = block.forward(&c.x);
    // Against the exact (Wx)_k (rationals): the block computes u = fl(Wx) (−W's rows give −u
    // exactly), within γ_{d₁}Σ_j|w_kj x_j| of the exact value (plus the underflow of d₁
    // products); each SiLU is within γ₅ of its value and the difference adds one rounding:
    // γ₆(|σ(u)| + |σ(−u)|), plus, where u is subnormal, the underflow of six roundings (W₃'s ±1
    // scale nothing).
    let d1 = c.x.len();
    let mut worst = Eval::Margin(f64::INFINITY);
    for (k, fk) in f.iter().enumerate() {
        let u: f64 = c.w[k].iter().zip(&c.x).fold(0.0, |acc, (a, b)| acc + a * b);
        let absolute: f64 = c.w[k].iter().zip(&c.x).map(|(a, b)| (a * b).abs()).sum();
        let tol = Rounding::gamma(6) * (silu(u).abs() + silu(-u).abs()) + Rounding::gamma(d1 + 1) * absolute + Rounding::underflow(6 + d1);
        // |f_k − (Wx)_k| from an enclosure of (Wx)_k (rigorous, one f64 pass); only when that
        // enclosure does not settle the comparison either way, the exact rational value (slow
        // for 10³⁰⁸).
        let wx = c.w[k].iter().zip(&c.x).fold(Interval::exact(0.0), |acc, (a, b)| acc + Interval::exact(*a) * Interval::exact(*b));
        let enclosed = Interval::exact(*fk) - wx;
        let err = if !fk.is_finite() {
            f64::INFINITY
        } else if enclosed.mag() <= tol {
            enclosed.mag()
        } else if enclosed.mig() > tol {
            enclosed.mig()
        } else {
            let exact_u: Exact = c.w[k].iter().zip(&c.x).map(|(a, b)| exact(*a) * exact(*b)).sum();
            to_f64(&(exact(*fk) - &exact_u)).abs()
        };
        worst = worst.min(Eval::le_by(err, 0.0, Scale(absolute.max(f64::MIN_POSITIVE)), Tolerance::absolute(tol)));
    }
    worst
}

/// Lemma 4: x, y ∈ [−M, M]^d, α, λ and t (|t| ≥ α for the claim, |t| < α for the control).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SelectCase {
    /// M.
    pub m: f64,
    /// α.
    pub alpha: f64,
    /// λ of the SiLU block.
    pub lambda: f64,
    /// x.
    pub x: Vec<f64>,
    /// y.
    pub y: Vec<f64>,
    /// t.
    pub t: f64,
}

fn select_cases(outside: bool) -> impl Strategy<Value = SelectCase> + Clone {
    (1usize..=4, log_uniform(0.1, 100.0), log_uniform(1e-3, 10.0), log_uniform(1.0, 1e4))
        .prop_flat_map(move |(d, m, alpha, lambda)| {
            let spread = prop::sample::select(vec![0.0, 1.0, 1e3]);
            (Just((m, alpha, lambda)), grid_vec(d, -1.0, 1.0, 1.0 / 256.0), grid_vec(d, -1.0, 1.0, 1.0 / 256.0), real(0.0, 1.0), spread, any::<bool>())
        })
        .prop_map(move |((m, alpha, lambda), x, y, u, spread, negative)| {
            let mag = if outside { alpha * (1.0 + spread * (-(1.0 - u).max(1e-12).ln())) } else { alpha * u * 0.999 };
            SelectCase { m, alpha, lambda, x: x.iter().map(|v| v * m).collect(), y: y.iter().map(|v| v * m).collect(), t: if negative { -mag } else { mag } }
        })
}

fn lemma4(c: &SelectCase) -> Eval {
    let d = c.x.len();
    let relu = select_relu(d, c.m, c.alpha);
    let silu_block = relu.silu_scaled(c.lambda);
    let input: Vec<f64> = c.x.iter().chain(&c.y).copied().chain([c.t]).collect();
    let want = if c.t > 0.0 { &c.x } else { &c.y };
    // Units |±x_k ± (M/α)t| ≤ M(1 + |t|/α); the pre-activation, activation and output each round:
    // γ₁₂ of 2M(1 + |t|/α) per output.
    let tol = Rounding::gamma(12) * 2.0 * c.m * (1.0 + c.t.abs() / c.alpha);
    let gap = relu.silu_gap(c.lambda);
    let err = |out: Vec<f64>| out.iter().zip(want).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    Eval::le_by(err(relu.forward(&input)), 0.0, Scale(c.m), Tolerance::absolute(tol)).min(Eval::le_by(
        err(silu_block.forward(&input)),
        gap,
        Scale(gap + tol),
        Tolerance::absolute(tol),
    ))
}

/// Lemma 5: the bound M, the construction's α, λ, ε and the compared pair (a = b in one draw of
/// four; integers for `003.lem5`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IndicatorCase {
    /// M.
    pub m: f64,
    /// ε.
    pub eps: f64,
    /// The indicator.
    pub indicator: Indicator,
    /// a.
    pub a: f64,
    /// b.
    pub b: f64,
    /// ∘.
    pub op: Comparison,
}

/// The paper's construction on reals: shift 0, α log-uniform, λ large enough that |t| ≥ α meets
/// ε/4, the multiplier at ε/4.
fn real_indicators() -> impl Strategy<Value = IndicatorCase> + Clone {
    let op = prop::sample::select(Comparison::ALL.to_vec());
    (log_uniform(0.1, 100.0), log_uniform(1e-4, 0.1), log_uniform(1e-3, 1.0), real(-1.0, 1.0), real(-1.0, 1.0), 0u8..4, op).prop_map(
        |(m, eps, alpha_rel, u, v, eq, op)| {
            let lambda = 4.0 * RELU_GAP / eps;
            let indicator = Indicator { shift: 0.0, alpha: alpha_rel * m, lambda, multiplier: Multiplier::tight(1.0 + eps, eps / 4.0) };
            IndicatorCase { m, eps, indicator, a: u * m, b: if eq == 0 { u * m } else { v * m }, op }
        },
    )
}

/// Integers a, b ∈ [−M, M] with the ½ shift (α = ½) or without it (the control).
fn integer_indicators(shift: f64) -> impl Strategy<Value = IndicatorCase> + Clone {
    let op = prop::sample::select(Comparison::ALL.to_vec());
    (log_uniform(1.0, 1e4), log_uniform(1.0, 1e3), log_uniform(1e-6, 0.1), real(-1.0, 1.0), real(-1.0, 1.0), 0u8..4, op).prop_map(
        move |(m, lambda, eps_m, u, v, eq, op)| {
            let m = m.round();
            let (a, b) = ((u * m).round(), if eq == 0 { (u * m).round() } else { (v * m).round() });
            let e = RELU_GAP / lambda;
            let indicator = Indicator { shift, alpha: 0.5, lambda, multiplier: Multiplier::tight(1.0 + e, eps_m) };
            IndicatorCase { m, eps: indicator.bound(op), indicator, a, b, op }
        },
    )
}

/// |𝕀̂ − 𝕀| ≤ ε plus the rounding: the select units reach λ(1 + 2(2M + ½)), the product's
/// rounding is [`Multiplier::rounding`] at inputs ≤ 1 + ε.
fn lemma5(c: &IndicatorCase) -> Eval {
    let f = c.indicator.eval(c.a, c.b, c.op, Precision::F64);
    let sel = Rounding::gamma(12) * 2.0 * (1.0 + 2.0 * (2.0 * c.m + 0.5) / c.indicator.alpha);
    let tol = match c.op {
        Comparison::NotEqual => 3.0 * sel + c.indicator.multiplier.rounding(1.0, 1.0, Rounding::UNIT),
        _ => sel,
    };
    Eval::le_by((f - c.op.truth(c.a, c.b)).abs(), c.eps, Scale(c.eps + tol), Tolerance::absolute(tol))
}

/// `003.rem1.printed` (erratum): Remark 1 (App. A.3).
fn claim_rem1_printed() -> Claim {
    Claim::erratum(
            "003.rem1.printed",
            super::FAMILY,
            "Remark 1's alternative switch-off: with A ≤ 0 and Δ so large that Ã = e^{ΔA} ≤ 10⁻³, the hidden state of the SSM \
             branch (input the constant 1, W_b, A, d_h ≤ 3, h ≤ 4 random, 1–8 steps) is within 10⁻³ of 0.",
            property([200, 2000, 20000], large_deltas(), |c: &LargeDelta| {
                let h = c.state();
                let norm = h.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs()));
                Eval::le_by(norm, 1e-3, Scale(1e-3), Tolerance::absolute(Rounding::gamma(8) * norm))
            })
            .given("Ã = e^{ΔA} ≤ 10⁻³", |c| (-c.delta * c.a - 1000f64.ln()) / 1000f64.ln())
            .certify_given(LargeDelta::small_decay_enclosed)
            .certify(|c: &LargeDelta| {
                let norm = c.state_enclosed().into_iter().flatten().map(Interval::abs).fold(Interval::exact(0.0), Interval::max);
                // 10⁻³ is a decimal, not a binary point: enclosed, not rounded.
                Eval::le_by(norm, Interval::decimal("0.001").expect("a decimal"), Scale(1e-3), Tolerance::NONE)
            })
            .sides("‖H_t‖∞", "10⁻³")
            .expand(|c| serde_json::json!({ "state": c.state(), "a_tilde": (c.delta * c.a).exp(), "delta_times_b": c.w_b.iter().map(|r| r.iter().sum::<f64>() * c.delta).collect::<Vec<_>>() })),
        )
        .source(Paper::FreeLunch, "Remark 1 (App. A.3)", "In the process of deactivating the SSM branch, we could also choose to make Δ sufficiently large and correspondingly Ã sufficently small with A ≤ 0 so that the hidden states approximates zeros.")
        .correction("A large Δ erases the past (Ã → 0) but scales the write. Under the paper's update (the write Δ·x·bᵀ, an Euler step) H_t → Δ·b·1ᵀ with b = W_b1, unbounded in Δ (003.rem1); under an exact ZOH write ((e^{ΔA} − 1)/A)·b the state tends to −b/A instead: bounded, and still not 0. The remark's goal can still be met another way: with the constant input, b and c = W_c1 are constants, so the large-Δ output is an input-independent constant up to a relative O(Ã), which the next linear map W₃ can absorb — provided every component of cᵀΔb + d is nonzero (a zero component carries nothing to rescale); W_b = 0 (the main construction) and W_c = 0 with skip 1 are not the only switch-offs.")
        .error(
            ErrorKind::FalseStatement,
            "Remark 1 says that one 'could also choose to make Δ sufficiently large and correspondingly Ã sufficently small with A ≤ 0 so that the hidden states approximates zeros'. That is false: the update H_t = Ã_t ⊙ H_{t−1} + (Δ_t ⊙ x_t)b_tᵀ has a write term proportional to Δ, and with the branch's constant input 1 the state tends to Δ·b·1ᵀ (b = W_b1), not to 0; it is the write term up to Ã (003.rem1). (That is the paper's Euler write; with an exact ZOH write the state tends to −b/A: bounded, still not 0.) The lemmas' existence claims do not rest on it (their construction switches the branch off with W_b = 0).",
        )
        .holds_instead(&["003.rem1"])
}

/// `003.rem1` (theorem): Remark 1 (App. A.3).
fn claim_rem1() -> Claim {
    Claim::theorem(
            "003.rem1",
            super::FAMILY,
            "What a large Δ does instead: whenever Ã = e^{ΔA} ≤ 10⁻³, the state of the SSM branch (input 1) is the write term              Δ·b up to the decayed past: ‖H_t − Δ·W_b1‖∞ ≤ Ã/(1 − Ã)·Δ‖W_b1‖∞, plus γ₄ of Δ‖W_b1‖∞/(1 − Ã).",
            property([200, 2000, 20000], large_deltas(), |c: &LargeDelta| write_term(c, 1.0))
                .given("Ã = e^{ΔA} ≤ 10⁻³", |c| (-c.delta * c.a - 1000f64.ln()) / 1000f64.ln())
                .sides("‖H_t − Δ·W_b1‖∞", "Ã/(1 − Ã)·Δ‖W_b1‖∞"),
        )
        .source(Paper::FreeLunch, "Remark 1 (App. A.3)", "… we could also choose to make Δ sufficiently large and correspondingly Ã sufficently small with A ≤ 0 so that the hidden states approximates zeros.")
        .control("the state within Ã/(1 − Ã)·Δ‖W_b1‖∞ of 0 (the remark's reading)", property([200, 2000, 20000], large_deltas(), |c: &LargeDelta| write_term(c, 0.0)).given("Ã = e^{ΔA} ≤ 10⁻³", |c| (-c.delta * c.a - 1000f64.ln()) / 1000f64.ln()))
}

/// `003.lem2` (theorem): Lemma 2 and its proof, eqs (32)–(35) (App. A.3).
fn claim_lem2() -> Claim {
    Claim::theorem(
            "003.lem2",
            super::FAMILY,
            "For a two-layer ReLU MLP g(x) = W̄₃ReLU(W̄₂x + b̄₂) with entries in [−M, M] (d₁, d ≤ 5, d₂ ≤ 3) and λ ∈ [1, 10⁴], the SiLU \
             block (W̄₃/λ)SiLU(λ(W̄₂x + b̄₂)) is within Md/λ of g at every x (entries up to 10⁴), plus both evaluations' rounding.",
            property([300, 3000, 30000], relu_cases(), |c: &ReluCase| lemma2(c, false, 1.0)).sides("‖f(x) − g(x)‖∞", "Md/λ"),
        )
        .source(Paper::FreeLunch, "Lemma 2 and its proof, eqs (32)–(35) (App. A.3)", "Let g: ℝ^{d1} → ℝ^{d2} be a two-layer MLP with ReLU activation, and all parameters are upper bounded by M. Then, for any ε > 0, there exists a Mamba block f and parameters upper bounded by O(poly(M, 1/ε)) in the l∞ norm, such that for all x ∈ ℝ^{d1}, we have ‖f(x) − g(x)‖∞ ≤ ε.")
        .control("SiLU without the λ scaling (W_2 = W̄₂, W_3 = W̄₃)", property([300, 3000, 30000], relu_cases(), |c: &ReluCase| {
            let unscaled = ReluCase { lambda: 1.0, ..c.clone() };
            let block = unscaled.mlp.silu_scaled(1.0);
            let bound = c.mlp.paper_gap(c.lambda);
            let tol = relu_rounding(&c.mlp, &c.x);
            Eval::le_by(sup_error(c, &block, &c.x), bound, Scale(bound + tol), Tolerance::absolute(tol))
        }))
}

/// `003.lem2.tight` (theorem): Lemma 2, eqs (32)–(35) (App. A.3): '|ReLU(z) − SiLU(λz)/λ| = |z|/(e^{λ|z|} + 1) ≤ 1/λ'.
fn claim_lem2_tight() -> Claim {
    Claim::theorem(
        "003.lem2.tight",
        super::FAMILY,
        "The sharp form of Lemma 2: ‖f − g‖∞ ≤ W₀(1/e)/λ·max_r max(Σ⁺W̄₃[r], Σ⁻|W̄₃[r]|) at every x (W₀(1/e) = 0.27846), and when W̄₂ \
             has full row rank the input with z_k = (1 + W₀(1/e))/λ on the worst row's larger side (−50/λ elsewhere) attains it.",
        property([300, 3000, 30000], relu_cases(), |c: &ReluCase| lemma2(c, true, 1.0))
            .sides("‖f(x) − g(x)‖∞ (random x and the attaining x)", "W₀(1/e)·max_r max(Σ⁺, Σ⁻)/λ"),
    )
    .source(
        Paper::FreeLunch,
        "Lemma 2, eqs (32)–(35) (App. A.3): '|ReLU(z) − SiLU(λz)/λ| = |z|/(e^{λ|z|} + 1) ≤ 1/λ'",
        "‖W̄₃ReLU(z) − W̄₃SiLU(λz)/λ‖∞ ≤ ‖W̄₃‖∞‖ReLU(z) − SiLU(λz)/λ‖∞ ≤ Md/λ.",
    )
    .control("the constant 10% smaller", property([300, 3000, 30000], relu_cases(), |c: &ReluCase| lemma2(c, true, 0.9)))
}

/// `003.lem3` (theorem): Lemma 3 (App. A.3).
fn claim_lem3() -> Claim {
    Claim::theorem(
            "003.lem3",
            super::FAMILY,
            "Linear maps are exact with SiLU: W₂ = [W; −W], W₃ = [I, −I] give f(x) = Wx (SiLU(u) − SiLU(−u) = u) for W with entries in \
             [−M, M] (d₁, d₂ ≤ 6) and x with |(Wx)_k| up to 700 or entries ±10^e (e ≤ 308: cancelling and huge), within \
             γ₆(|SiLU(u)| + |SiLU(−u)|) + γ_{d₁+1}Σ_j|w_kj x_j| + (6 + d₁)·2⁻¹⁰⁷⁴ of the exact (Wx)_k (u = fl(Wx)_k), wherever the f64 \
             evaluation is finite (Σ_j|w_kj x_j| ≤ 2¹⁰²⁰).",
            property([300, 3000, 30000], linear_cases(), |c: &LinearCase| lemma3(c, false))
                .given("the evaluation is finite: Σ_j |w_kj x_j| ≤ 2¹⁰²⁰ for every k", finite_evaluation)
                .sides("|f(x)_k − (Wx)_k|, against the exact (Wx)_k", "0, plus the rounding"),
        )
        .source(Paper::FreeLunch, "Lemma 3 (App. A.3)", "Let W ∈ ℝ^{d2×d1} be any matrix used for implementing linear transformations upper bounded by M … for any ε > 0, there exist Mamba block parameters with l∞ norm bounded by O(poly(M, 1/ε)), such that for any x ∈ ℝ^{d1}, we have ‖f(x) − Wx‖∞ ≤ ε.")
        .correction("Exact, not only within ε: SiLU(u) − SiLU(−u) = u·(s(u) + s(−u)) = u with parameters bounded by M.")
        .control(
            "one SiLU branch, f(x) = SiLU(Wx)",
            property([300, 3000, 30000], linear_cases(), |c: &LinearCase| lemma3(c, true)).given("the evaluation is finite", finite_evaluation),
        )
}

/// `003.lem4` (theorem): Lemma 4 (App. A.3; the construction is cited from Feng et al. 2024, Lemma C.4).
fn claim_lem4() -> Claim {
    Claim::theorem(
        "003.lem4",
        super::FAMILY,
        "The suite's 4d-unit select, g_k = ½[ReLU(x_k + Ms) − ReLU(−x_k + Ms)] + ½[ReLU(y_k − Ms) − ReLU(−y_k − Ms)], s = t/α, returns x \
             for t ≥ α and y for t ≤ −α exactly with ReLU and within W₀(1/e)/λ as the scaled SiLU block (Lemma 2), for x, y ∈ [−M, M]^d \
             (d ≤ 4), |t| = α(1 + E·{0, 1, 10³}), plus the rounding γ₁₂·2M(1 + |t|/α).",
        property([300, 3000, 30000], select_cases(true), lemma4).sides("‖f(x, y, t) − g(x, y, t)‖∞ (ReLU; SiLU)", "0; W₀(1/e)/λ"),
    )
    .source(
        Paper::FreeLunch,
        "Lemma 4 (App. A.3; the construction is cited from Feng et al. 2024, Lemma C.4)",
        "… for all x ∈ [−M, M]^d, y ∈ [−M, M]^d, and t ∈ [−∞, −α] ∪ [α, +∞], we have ‖f(x, y, t) − g(x, y, t)‖∞ ≤ ε.",
    )
    .correction("The paper gives no construction; the suite's is stated in proofs/cot.md. The interval [−∞, −α] ∪ [α, +∞] reads (−∞, −α] ∪ [α, ∞).")
    .control("|t| < α", property([300, 3000, 30000], select_cases(false), lemma4))
}

/// `003.lem5.printed` (erratum): Lemma 5 and its proof (App. A.3).
fn claim_lem5_printed() -> Claim {
    Claim::erratum(
            "003.lem5.printed",
            super::FAMILY,
            "Lemma 5 for real inputs, by its proof's construction (𝕀[a > b] = select(1, 0, a − b), 𝕀[a ≠ b] = 1 − (1 − 𝕀[a>b])(1 − 𝕀[a<b])), \
             with any α and λ ≥ 4W₀(1/e)/ε: |f(a, b) − 𝕀(a, b, ∘)| ≤ ε for all a, b ∈ [−M, M] and ∘ ∈ {≠, >, <}.",
            property([300, 3000, 30000], real_indicators(), lemma5).sides("|f(a, b) − 𝕀(a, b, ∘)|", "ε"),
        )
        .source(Paper::FreeLunch, "Lemma 5 and its proof (App. A.3)", "… for any a, b ∈ [−M, M] and ∘ ∈ {≠, >, <}, we have |f(a, b) − 𝕀(a, b, ∘)| ≤ ε. (Proof: 𝕀[a > b] 'is equivalent to consider g(1, 0, a − b)'.)")
        .correction("On integers (Assumption 2) with 𝕀[a > b] = select(1, 0, a − b − ½), α = ½: 003.lem5. On integers 𝕀[≠] also fits in one block, 𝕀[>] + 𝕀[<] = ReLU(z) − ReLU(z − 1) + ReLU(−z) − ReLU(−z − 1) with z = a − b (with SiLU(λ·)/λ its error is largest at a = b, exactly 2/(1 + e^λ): 4.12·10⁻⁹ at λ = 20; proofs/cot.md); the suite's 003.lem5 checks the proof's two-block product form. The linear pre-map folds into {W₂, b₂}, not {W₁, b₁}.")
        .error(
            ErrorKind::FalseStatement,
            "Lemma 5 claims |f(a, b) − 𝕀(a, b, ∘)| ≤ ε 'for any a, b ∈ [−M, M]' with 'a Mamba block'. A Mamba block is continuous and 𝕀 jumps at a = b, so no block meets ε < ½ near a = b; the proof's select g(1, 0, a − b) needs |a − b| ≥ α (Lemma 4) and at a = b returns ½, so 𝕀[a > b] errs by ½ and 𝕀[a ≠ b] = 1 − ½·½ = 0.75 instead of 0. The lemma defines 𝕀: ℝ² × {≠, >, <} → {0, 1}, so the reals are the printed domain; read on integers (as Assumption 2 would supply), the proof's unshifted construction still fails at a = b, and the statement holds with a ½-shifted threshold (003.lem5), and 𝕀[≠] fits in one block (see the correction).",
        )
        .holds_instead(&["003.lem5"])
    .uncertified(crate::claim::Uncertified::FloatingPoint, "the indicator is evaluated in f64 by the proof's Mamba-block construction (select and multiplier gadgets), which is not written over Real; at a = b the select returns exactly ½ in any arithmetic, so the violation (½ against ε) does not rest on rounding")
}

/// `003.lem5` (theorem): Lemma 5 and its proof (App. A.3).
fn claim_lem5() -> Claim {
    Claim::theorem(
        "003.lem5",
        super::FAMILY,
        "On integers a, b ∈ [−M, M] (M ≤ 10⁴), 𝕀[a > b] = select(1, 0, a − b − ½) and 𝕀[a < b] likewise (α = ½, SiLU select with λ ∈ [1, 10³]) err by \
             at most e = W₀(1/e)/λ, and the two-block 𝕀[a ≠ b] = 1 − (1 − 𝕀̂[>])(1 − 𝕀̂[<]) (Lemma 1 multiplier at ε_m) by at most ε_m + 2e + e².",
        property([300, 3000, 30000], integer_indicators(0.5), lemma5).sides("|f(a, b) − 𝕀(a, b, ∘)|", "e, or ε_m + 2e + e² for ≠"),
    )
    .source(Paper::FreeLunch, "Lemma 5 and its proof (App. A.3)", "… for any a, b ∈ [−M, M] and ∘ ∈ {≠, >, <}, we have |f(a, b) − 𝕀(a, b, ∘)| ≤ ε.")
    .control("the unshifted threshold a − b (as printed)", property([300, 3000, 30000], integer_indicators(0.0), lemma5))
}

/// Registers Remark 1 and Lemmas 2–5.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_rem1_printed());
    r.add(claim_rem1());
    r.add(claim_lem2());
    r.add(claim_lem2_tight());
    r.add(claim_lem3());
    r.add(claim_lem4());
    r.add(claim_lem5_printed());
    r.add(claim_lem5());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_inputs_give_three_quarters() {
        let ind = Indicator { shift: 0.0, alpha: 0.1, lambda: 1e4, multiplier: Multiplier::tight(1.0, 1e-6) };
        let ne = ind.eval(2.0, 2.0, Comparison::NotEqual, Precision::F64);
        assert!((ne - 0.75).abs() < 1e-3, "{ne}");
    }

    #[test]
    fn lemma3_against_the_exact_product_holds_on_cancelling_and_subnormal_inputs_and_excludes_overflow() {
        let margin = |c: &LinearCase, one_branch: bool| lemma3(c, one_branch).margin().unwrap();
        // x = (10¹⁶, −10¹⁶, 1): fl(Wx) may lose the 1; the tolerance carries the product's rounding.
        let cancelling = LinearCase { w: vec![vec![1.0, 1.0, 1.0], vec![1.0, 1.0, -1.0], vec![-1.0, 1.0, 1.0]], x: vec![1e16, -1e16, 1.0] };
        assert!(finite_evaluation(&cancelling) > 0.0);
        assert!(margin(&cancelling, false) >= 0.0, "{}", margin(&cancelling, false));
        let subnormal = LinearCase { w: vec![vec![1.0]], x: vec![3.0 * f64::from_bits(1)] };
        assert!(margin(&subnormal, false) >= 0.0);
        // Weights ±2 at x ≈ 10³⁰⁸ overflow f64: outside the domain, not a violation.
        let overflowing = LinearCase { w: vec![vec![2.0, -2.0]], x: vec![1e308, 1e308] };
        assert!(finite_evaluation(&overflowing) < 0.0);
        // The control, one SiLU branch, misses Wx where the other branch matters.
        let negative = LinearCase { w: vec![vec![1.0]], x: vec![-3.0] };
        assert!(margin(&negative, false) >= 0.0 && margin(&negative, true) < 0.0);
    }
}
