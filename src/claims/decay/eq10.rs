//! 004 Eq. (10): `LRD_SSM(t+k,t) = (∏_{j=t+1}^{t+k} Ā_j) B̄_t`.
//!
//! * `004.eq10` (Theorem): equals the true derivative `dh_{t+k}/dx_t` when Δ is fixed (LTI),
//!   for dense A. Control: the product started one step early (`∏_{j=t}^{t+k}`).
//! * `004.eq10.selective` (Erratum): with `Δ_t = softplus(w x_t + b)` it is not the full derivative.
//! * `004.eq10.full` (Theorem): the full derivative is
//!   `Φ(t+k,t)[B̄_t + ∂Ā_t/∂x_t h_{t−1} + ∂B̄_t/∂x_t x_t]` (proofs/decay.md), also with an
//!   input-dependent B. Control: the correction term with its sign flipped.

use crate::claim::{property, Claim, ErrorKind, Eval, Paper};
use crate::claim::{Scale, Tolerance};
use crate::math::linalg::{dist, norm};
use crate::math::linalg::{mat_from_rows, Vector};
use crate::math::{central_difference, derivative, Interval};
use crate::model::{DeltaRule, DenseSsm, DiagonalSsm, Discretization};
use crate::strategy::{grid, grid_matrix, grid_vec};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// An LTI instance: dense A, B, fixed Δ, inputs x_1..x_T, and the pair (t, k).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LtiInstance {
    /// A (H×H), rows.
    pub a: Vec<Vec<f64>>,
    /// B (H).
    pub b: Vec<f64>,
    /// Fixed step Δ.
    pub delta: f64,
    /// Inputs x_1..x_T.
    pub x: Vec<f64>,
    /// Differentiated time t (1-based).
    pub t: usize,
    /// Lag k.
    pub k: usize,
}

fn lti_instances() -> impl Strategy<Value = LtiInstance> {
    (1usize..=4, 1usize..=12, 0usize..=20)
        .prop_flat_map(|(h, t, k)| {
            (
                grid_matrix(h, h, -2.0, 2.0, 0.125),
                grid_vec(h, -2.0, 2.0, 0.125),
                grid(0.0625, 1.0, 0.0625),
                grid_vec(t + k, -3.0, 3.0, 0.0625),
                Just(t),
                Just(k),
            )
        })
        .prop_map(|(a, b, delta, x, t, k)| LtiInstance { a, b, delta, x, t, k })
}

impl LtiInstance {
    fn model(&self) -> DenseSsm {
        DenseSsm { a: mat_from_rows(&self.a), b: Vector::from_vec(self.b.clone()), disc: Discretization::Zoh }
    }
}

/// Eq (10) evaluated as printed.
fn eq10(m: &DenseSsm, deltas: &[f64], t: usize, k: usize) -> Vector {
    m.lrd_eq10_path(deltas, t, k).pop().expect("k+1 entries")
}

/// The control's mutant: the product started at j = t.
fn eq10_one_step_early(m: &DenseSsm, deltas: &[f64], t: usize, k: usize) -> Vector {
    m.discretize(deltas[t - 1]).0 * eq10(m, deltas, t, k)
}

type DenseFormula = fn(&DenseSsm, &[f64], usize, usize) -> Vector;

/// Margin of "formula = true derivative" (dual numbers, rel 1e−9) and (central differences,
/// rel 1e−5), relative to the size of the derivative and of the unrolled terms.
fn eq10_margin(inst: &LtiInstance, formula: DenseFormula) -> Eval {
    let m = inst.model();
    let deltas = vec![inst.delta; inst.x.len()];
    let (t, k) = (inst.t, inst.k);
    let got: Vec<f64> = formula(&m, &deltas, t, k).iter().copied().collect();
    let exact = derivative(&inst.x, t - 1, |x| m.states(&deltas, x).pop().unwrap());
    let fd = central_difference(&inst.x, t - 1, |x| m.states(&deltas, x).pop().unwrap());
    let abar_norm = crate::math::linalg::spectral_norm(&m.discretize(inst.delta).0).max(1.0);
    let scale = norm(&exact) + norm(m.discretize(inst.delta).1.as_slice()) * abar_norm.powi(k as i32);
    let state_scale = 1.0 + norm(&m.states(&deltas, &inst.x).pop().unwrap());
    Eval::close(dist(&got, &exact), Scale(scale), Tolerance::relative(1e-9).plus_absolute(1e-300)).min(Eval::close(
        dist(&got, &fd),
        Scale(scale + state_scale),
        Tolerance::relative(1e-5).plus_absolute(1e-300),
    ))
}

/// A selective instance: diagonal S6 with Δ = softplus(w x + b), B = b_bias + b_weight·x.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SelectiveInstance {
    /// The S6 model.
    pub model: DiagonalSsm,
    /// Inputs x_1..x_T.
    pub x: Vec<f64>,
    /// Differentiated time t (1-based).
    pub t: usize,
    /// Lag k.
    pub k: usize,
}

fn selective_instances(input_dependent_b: bool) -> impl Strategy<Value = SelectiveInstance> {
    let bw = if input_dependent_b { 1.0 } else { 0.0 };
    (1usize..=4, 1usize..=10, 0usize..=12, any::<bool>())
        .prop_flat_map(move |(h, t, k, zoh)| {
            (
                grid_vec(h, -2.0, -0.0625, 0.0625),
                grid_vec(h, -2.0, 2.0, 0.125),
                grid_vec(h, -bw, bw, 0.125),
                grid(-2.0, 2.0, 0.125),
                grid(-2.0, 2.0, 0.125),
                grid_vec(t + k, -3.0, 3.0, 0.0625),
                Just((t, k, zoh)),
            )
        })
        .prop_map(|(a, b_bias, b_weight, w, bias, x, (t, k, zoh))| SelectiveInstance {
            model: DiagonalSsm {
                a,
                b_bias,
                b_weight,
                delta: DeltaRule::Selective { w, b: bias },
                disc: if zoh { Discretization::Zoh } else { Discretization::Euler },
            },
            x,
            t,
            k,
        })
}

/// The reading of a selective instance: the initial state and what each field feeds.
fn selective_content(inst: &SelectiveInstance) -> serde_json::Value {
    serde_json::json!({
        "h0": vec![0.0; inst.model.a.len()],
        "legend": {
            "h0": "the state before x_1 (zero)",
            "model.a": "diagonal A (one entry per state component)",
            "model.b_bias, model.b_weight": "B(x) = b_bias + b_weight·x per component",
            "model.delta": "Δ_t = softplus(w·x_t + b) (rule selective)",
            "model.disc": "ZOH: Ā = e^{ΔA}, B̄ = (e^{ΔA} − 1)/A·B; Euler: Ā = e^{ΔA}, B̄ = ΔB",
            "x": "x_1..x_T; h_t = Ā_t h_{t−1} + B̄_t x_t",
            "t, k": "the derivative of h_{t+k} with respect to x_t (1-based t; k ≥ 0)",
        },
    })
}

type DiagonalFormula = fn(&DiagonalSsm, &[f64], usize, usize) -> Vec<f64>;

fn selective_margin(inst: &SelectiveInstance, formula: DiagonalFormula) -> Eval {
    let m = &inst.model;
    let got = formula(m, &inst.x, inst.t, inst.k);
    let exact = derivative(&inst.x, inst.t - 1, |x| m.states(x).pop().unwrap());
    let scale = norm(&exact) + norm(&got) + 1e-300;
    Eval::close(dist(&got, &exact), Scale(scale), Tolerance::relative(1e-10).plus_absolute(1e-300))
}

/// [`selective_margin`] on enclosures: the same relation with the formula, the dual-number
/// derivative and their distance computed in interval arithmetic from the instance's exact
/// inputs (the tolerance's scale stays the float run's, a stated number).
fn selective_margin_enclosed(inst: &SelectiveInstance) -> Eval {
    let m = &inst.model;
    let x: Vec<Interval> = inst.x.iter().map(|&v| Interval::exact(v)).collect();
    let got = m.lrd_eq10(&x, inst.t, inst.k);
    let exact = derivative(&x, inst.t - 1, |x| m.states(x).pop().unwrap());
    let err = crate::math::interval::norm2(&got.iter().zip(&exact).map(|(&g, &e)| g - e).collect::<Vec<_>>());
    let mid = |v: &[Interval]| v.iter().map(|i| i.mid()).collect::<Vec<f64>>();
    let scale = norm(&mid(&exact)) + norm(&mid(&got)) + 1e-300;
    Eval::close(err, Scale(scale), Tolerance::relative(1e-10).plus_absolute(1e-300))
}

fn full_sign_flipped(m: &DiagonalSsm, x: &[f64], t: usize, k: usize) -> Vec<f64> {
    let (full, printed) = (m.lrd_full(x, t, k), m.lrd_eq10(x, t, k));
    printed.iter().zip(&full).map(|(p, f)| 2.0 * p - f).collect()
}

const CASES: [u64; 3] = [300, 2000, 20000];

/// `004.eq10` (theorem): Eq. (10).
fn claim_eq10() -> Claim {
    Claim::theorem(
        "004.eq10",
        super::FAMILY,
        "For an LTI SSM (fixed Δ, dense A, ZOH), (∏_{j=t+1}^{t+k} Ā_j) B̄_t equals dh_{t+k}/dx_t computed by \
             dual numbers (relative 1e−9) and by central differences (relative 1e−5). Instances: H ≤ 4, \
             A, B on a 1/8 grid in [−2, 2], Δ ∈ [1/16, 1], t ≤ 12, k ≤ 20.",
        property(CASES, lti_instances(), |i: &LtiInstance| eq10_margin(i, eq10)),
    )
    .source(Paper::RethinkingLrd, "Eq. (10)", "LRD_SSM(t+k,t) = (∏_{j=t+1}^{t+k} Ā_j) B̄_t.")
    .control("product started one step early: (∏_{j=t}^{t+k} Ā_j) B̄_t", property(CASES, lti_instances(), |i: &LtiInstance| eq10_margin(i, eq10_one_step_early)))
}

/// `004.eq10.selective` (erratum): Eq. (10) with Mamba's Δ_t = s(x_t) (§2.1).
fn claim_eq10_selective() -> Claim {
    Claim::erratum(
            "004.eq10.selective",
            super::FAMILY,
            "Eq (10) read as the full derivative of Mamba's state: with Δ_t = softplus(w x_t + b) (diagonal A, \
             ZOH or Euler B̄), (∏ Ā_j) B̄_t = dh_{t+k}/dx_t (dual numbers, relative 1e−10).",
            property(CASES, selective_instances(false), |i: &SelectiveInstance| selective_margin(i, DiagonalSsm::lrd_eq10::<f64>))
                .certify(selective_margin_enclosed)
                .sides("‖(∏ Ā_j) B̄_t − dh_{t+k}/dx_t‖ (dual numbers)", "tolerance 1e−10·scale")
                .expand(selective_content),
        )
        .source(Paper::RethinkingLrd, "Eq. (10) with Mamba's Δ_t = s(x_t) (§2.1)", "LRD_SSM(t+k,t) = (∏_{j=t+1}^{t+k} Ā_j) B̄_t, with Ā_t = exp(Δ_t A), Δ_t = s(x_t).")
        .correction(
            "Eq (10) treats Δ_t (and B_t) as constants. The full derivative adds Φ(t+k,t)[∂Ā_t/∂x_t h_{t−1} + \
             ∂B̄_t/∂x_t x_t]; see 004.eq10.full. The per-step recursion LRD(t+k+1,t) = Ā_{t+k+1} LRD(t+k,t) still holds.",
        )
        .error(ErrorKind::FalseStatement, "§2: 'Mamba relaxes the linear time invariance assumption and allows the time interval to be a function of input, Δ_t = s(x_t)'; §3.1: 'the LRD defined by (8) in SSM/Mamba model is' (10), and (8) is the total derivative dh_{t+k}/dx_t. With Δ_t = s(x_t), (∏ Ā_j) B̄_t is not that derivative: it drops Φ(t+k,t)[∂Ā_t/∂x_t h_{t−1} + ∂B̄_t/∂x_t x_t]. Read with Δ independent of x (the SSM half of 'SSM/Mamba'), (10) is exact: 004.eq10; the full derivative for Mamba is 004.eq10.full.")
        .holds_instead(&["004.eq10", "004.eq10.full"])
}

/// `004.eq10.full` (theorem): Eq. (10), corrected (proofs/decay.md).
fn claim_eq10_full() -> Claim {
    Claim::theorem(
        "004.eq10.full",
        super::FAMILY,
        "For the selective diagonal SSM with Δ_t = softplus(w x_t + b) and B_t = b_bias + b_weight·x_t (ZOH or Euler), \
             dh_{t+k}/dx_t = Φ(t+k,t)[B̄_t + ∂Ā_t/∂x_t h_{t−1} + ∂B̄_t/∂x_t x_t] (dual numbers, relative 1e−10).",
        property(CASES, selective_instances(true), |i: &SelectiveInstance| selective_margin(i, DiagonalSsm::lrd_full)),
    )
    .source(Paper::RethinkingLrd, "Eq. (10), corrected (proofs/decay.md)", "LRD_SSM(t+k,t) = (∏_{j=t+1}^{t+k} Ā_j) B̄_t.")
    .correction("Adds the terms from Δ_t = s(x_t) and B_t = s_B(x_t) that Eq (10) omits.")
    .control(
        "the correction term with its sign flipped",
        property(CASES, selective_instances(true), |i: &SelectiveInstance| selective_margin(i, full_sign_flipped)),
    )
}

/// Registers the Eq (10) claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_eq10());
    r.add(claim_eq10_selective());
    r.add(claim_eq10_full());
}
