//! 004 Corollary 1: `‖LRD(t+k+1,t)‖₂ ≤ exp(λ₁Δ_{t+k+1}) ‖LRD(t+k,t)‖₂`, λ₁ the largest
//! eigenvalue of A.
//!
//! * `004.cor1.printed` (Erratum): over general stable A. The search finds non-normal A.
//! * `004.cor1.normal` (Theorem): for normal A, λ₁ = max Re λ(A). Control: λ₁ − 0.05.
//! * `004.cor1.lognorm` (Theorem): any A, with μ₂(A) = λ_max((A+Aᵀ)/2). Control: μ₂ − 0.05.
//! * `004.cor1.kappa` (Theorem): diagonalisable A = VΛV⁻¹, cumulative
//!   `‖LRD(t+k,t)‖₂ ≤ κ₂(V) e^{λ₁ S_{t,k}} ‖B̄_t‖₂`. Control: the constant 1 for κ₂(V).
//! * `004.cor1.cumulative` (Theorem, rate): diagonal A, selective Δ, horizon up to 10⁶ in log
//!   space: the bound holds at every k and is asymptotically tight. Control: rate 1.02·λ₁.

use crate::claim::custom;
use crate::claim::Tolerance;
use crate::claim::{property, Claim, Comparison, Context, ErrorKind, Eval, Figure, Kind, Outcome, Paper, Relation, Series, Sizes, Style, Verdict};
use crate::math::linalg::{cond2, log_norm2, mat_from_rows, mat_to_rows, spectral_abscissa, Mat, Vector};
use crate::math::softplus::softplus;
use crate::math::{eigen, interval, Interval};
use crate::mc::jobs::{DiagonalLrdJob, DiagonalLrdPath};
use crate::mc::paths::diagonal_lrd_path;
use crate::mc::RunJob;
use crate::mc::Stream;
use crate::model::{DenseSsm, Discretization};
use crate::stats::mean_interval;
use crate::strategy::{grid, grid_matrix, grid_vec, hippo_legs, normal_matrix};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// A per-step instance: A, B, and per-step Δ_{t}, Δ_{t+1}, ..., Δ_{t+K}.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StepInstance {
    /// A (H×H), rows.
    pub a: Vec<Vec<f64>>,
    /// B.
    pub b: Vec<f64>,
    /// Δ_t (for B̄_t) followed by Δ_{t+1..t+K}.
    pub deltas: Vec<f64>,
}

impl StepInstance {
    fn lrd_path(&self) -> Vec<Vector> {
        let m = DenseSsm { a: mat_from_rows(&self.a), b: Vector::from_vec(self.b.clone()), disc: Discretization::Zoh };
        m.lrd_eq10_path(&self.deltas, 1, self.deltas.len() - 1)
    }
}

/// General stable A: a grid matrix shifted left by s·I (instances with max Re λ ≥ 0 are rejected).
fn general_instances() -> impl Strategy<Value = StepInstance> {
    (1usize..=4, 1usize..=30)
        .prop_flat_map(|(h, steps)| {
            (grid_matrix(h, h, -3.0, 3.0, 0.25), grid(0.0, 4.0, 0.25), grid_vec(h, -2.0, 2.0, 0.25), grid_vec(steps + 1, 0.0625, 2.0, 0.0625))
        })
        .prop_map(|(m, s, b, deltas)| {
            let mut a = mat_from_rows(&m);
            for i in 0..a.nrows() {
                a[(i, i)] -= s;
            }
            StepInstance { a: mat_to_rows(&a), b, deltas }
        })
}

/// A per-step instance with normal A and its exact spectral abscissa.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NormalInstance {
    /// The instance (A normal).
    #[serde(flatten)]
    pub step: StepInstance,
    /// λ₁ = max Re λ(A), exact from the block-diagonal construction (not from an eigen-solver).
    pub lambda1: f64,
}

/// Normal A from the public [`normal_matrix`] generator, with its exact spectral abscissa.
fn normal_instances() -> impl Strategy<Value = NormalInstance> {
    (1usize..=4, 1usize..=30)
        .prop_flat_map(|(h, steps)| (normal_matrix(h), grid_vec(h, -2.0, 2.0, 0.25), grid_vec(steps + 1, 0.0625, 2.0, 0.0625)))
        .prop_map(|(nm, b, deltas)| NormalInstance { step: StepInstance { a: nm.a, b, deltas }, lambda1: nm.lambda1 })
}

/// Margin of the per-step bound `‖v_{k+1}‖ ≤ e^{rate·Δ_{k+1}} ‖v_k‖` over all steps (relative
/// tolerance `rtol` for the exponential's rounding).
fn per_step_margin(inst: &StepInstance, rate: f64, rtol: f64) -> Eval {
    let path = inst.lrd_path();
    let mut worst = Eval::Margin(f64::INFINITY);
    for (k, pair) in path.windows(2).enumerate() {
        let (now, next) = (pair[0].norm(), pair[1].norm());
        if now < 1e-250 {
            break;
        }
        worst = worst.min(Eval::le(next, (rate * inst.deltas[k + 1]).exp() * now, Tolerance::relative(rtol)));
    }
    worst
}

/// The concrete reading of a per-step counterexample: what each field feeds, the rate used, and
/// the step k of the worst ratio with both norms.
fn per_step_content(inst: &StepInstance) -> serde_json::Value {
    let a = mat_from_rows(&inst.a);
    let rate = spectral_abscissa(&a);
    let path = inst.lrd_path();
    let worst = path
        .windows(2)
        .enumerate()
        .take_while(|(_, p)| p[0].norm() >= 1e-250)
        .map(|(k, p)| (k, p[0].norm(), p[1].norm(), (rate * inst.deltas[k + 1]).exp()))
        .min_by(|x, y| (x.3 * x.1 - x.2).total_cmp(&(y.3 * y.1 - y.2)));
    let mut out = serde_json::json!({
        "legend": {
            "a": "A (H×H, rows); discretised by ZOH: Ā_j = exp(Δ_j A)",
            "b": "B (H)",
            "deltas": "deltas[0] = Δ_t, which feeds B̄_t = A⁻¹(exp(Δ_t A) − I)B; deltas[k] = Δ_{t+k} for k ≥ 1, which feeds Ā_{t+k}",
            "bound": "‖LRD(t+k+1,t)‖₂ ≤ e^{λ₁Δ_{t+k+1}}‖LRD(t+k,t)‖₂ with LRD(t,t) = B̄_t and LRD(t+k,t) = Ā_{t+k}⋯Ā_{t+1}B̄_t, λ₁ = max Re λ(A)"
        },
        "lambda1": rate,
    });
    if let Some((k, now, next, factor)) = worst {
        out["worst_step"] =
            serde_json::json!({ "k": k, "norm_lrd_k": now, "norm_lrd_k_plus_1": next, "exp_lambda1_delta": factor, "delta_used": inst.deltas[k + 1] });
    }
    out
}

fn stable(inst: &StepInstance) -> Option<Mat> {
    let a = mat_from_rows(&inst.a);
    (spectral_abscissa(&a) < -1e-9).then_some(a)
}

fn printed_margin(inst: &StepInstance) -> Eval {
    match stable(inst) {
        Some(a) => per_step_margin(inst, spectral_abscissa(&a), 1e-12),
        None => Eval::Reject("A not stable"),
    }
}

/// The printed per-step bound on enclosures, no tolerance: λ₁ from [`eigen::spectral_abscissa`]
/// (irreducible blocks, a verified similarity transform, Gershgorin) and the path from
/// [`DenseSsm::lrd_eq10_path_enclosure`] (interval exponentials). The products Δ·a of grid values
/// are exact in f64; were one not, the relation would stay in floating point (not certified).
fn printed_enclosed(inst: &StepInstance) -> Eval {
    let m = DenseSsm { a: mat_from_rows(&inst.a), b: Vector::from_vec(inst.b.clone()), disc: Discretization::Zoh };
    let Some(path) = m.lrd_eq10_path_enclosure(&inst.deltas, 1, inst.deltas.len() - 1) else {
        return printed_margin(inst);
    };
    let rate = eigen::spectral_abscissa(&inst.a);
    let mut worst = Eval::Margin(f64::INFINITY);
    for (pair, &d) in path.windows(2).zip(&inst.deltas[1..]) {
        let (now, next) = (interval::norm2(&pair[0]), interval::norm2(&pair[1]));
        if now.hi < 1e-250 {
            break;
        }
        worst = worst.min(Eval::le(next, (rate * Interval::exact(d)).exp() * now, Tolerance::NONE));
    }
    worst
}

fn lognorm_margin(inst: &StepInstance, shift: f64) -> Eval {
    match stable(inst) {
        Some(a) => per_step_margin(inst, log_norm2(&a) - shift, 1e-12),
        None => Eval::Reject("A not stable"),
    }
}

/// The per-step ratio against e^{λ₁Δ} and e^{μ₂Δ} for a fixed-Δ path of `steps` steps.
fn ratio_figure(name: &str, title: &str, a: &Mat, b: &[f64], delta: f64, steps: usize) -> Figure {
    let inst = StepInstance { a: mat_to_rows(a), b: b.to_vec(), deltas: vec![delta; steps + 1] };
    let path = inst.lrd_path();
    let ratios: Vec<[f64; 2]> = path.windows(2).enumerate().map(|(k, p)| [k as f64, p[1].norm() / p[0].norm()]).collect();
    let (l1, mu) = ((spectral_abscissa(a) * delta).exp(), (log_norm2(a) * delta).exp());
    let line = |v: f64| vec![[0.0, v], [steps as f64, v]];
    Figure::new(name, title, "k", "‖LRD(t+k+1,t)‖ / ‖LRD(t+k,t)‖")
        .with(Series::new("measured per-step ratio", Style::Points, ratios))
        .with(Series::new("printed bound e^{λ₁Δ}", Style::Dashed, line(l1)))
        .with(Series::new("corrected bound e^{μ₂(A)Δ}", Style::Dashed, line(mu)))
        .caption(format!("λ₁ = {:.4}, μ₂(A) = {:.4}, Δ = {delta}. Points above the printed line violate Corollary 1.", spectral_abscissa(a), log_norm2(a)))
}

/// A diagonalisable instance A = V diag(λ) V⁻¹ with cumulative per-step Δ.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct KappaInstance {
    /// Eigenvector matrix V, rows.
    pub v: Vec<Vec<f64>>,
    /// Real eigenvalues (negative).
    pub lambda: Vec<f64>,
    /// B.
    pub b: Vec<f64>,
    /// Δ_t followed by Δ_{t+1..t+K}.
    pub deltas: Vec<f64>,
}

fn kappa_instances() -> impl Strategy<Value = KappaInstance> {
    (1usize..=4, 1usize..=30)
        .prop_flat_map(|(h, steps)| {
            (grid_matrix(h, h, -2.0, 2.0, 0.25), grid_vec(h, -2.0, -0.0625, 0.0625), grid_vec(h, -2.0, 2.0, 0.25), grid_vec(steps + 1, 0.0625, 2.0, 0.0625))
        })
        .prop_map(|(v, lambda, b, deltas)| KappaInstance { v, lambda, b, deltas })
}

fn kappa_margin(inst: &KappaInstance, use_kappa: bool) -> Eval {
    let v = mat_from_rows(&inst.v);
    let kappa = cond2(&v);
    if !kappa.is_finite() || kappa > 1e6 {
        return Eval::Reject("V singular or cond(V) > 1e6");
    }
    let vinv = v.clone().try_inverse().expect("cond finite");
    let a = &v * Mat::from_diagonal(&Vector::from_vec(inst.lambda.clone())) * vinv;
    let step = StepInstance { a: mat_to_rows(&a), b: inst.b.clone(), deltas: inst.deltas.clone() };
    let path = step.lrd_path();
    let l1 = inst.lambda.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let c = if use_kappa { kappa } else { 1.0 };
    let b0 = path[0].norm();
    let mut s = 0.0;
    let mut worst = Eval::Margin(f64::INFINITY);
    for (k, v) in path.iter().enumerate().skip(1) {
        s += inst.deltas[k];
        // The eigen-decomposition is rounded, so allow 1e−9 relative (A is rebuilt from V, Λ).
        worst = worst.min(Eval::le(v.norm(), c * (l1 * s).exp() * b0, Tolerance::relative(1e-9)));
    }
    worst
}

/// The concrete witness of a violated cumulative bound: path `path` of `job` recomputed on the
/// CPU to step k. For diagonal A the relation depends on the path only through Δ_0 (which fixes
/// B̄_n = (e^{a_nΔ_0} − 1)/a_n·b_n) and S_k = Σ_{j=1}^k Δ_j: log‖LRD(t+k,t)‖₂ =
/// ½ ln Σ_n B̄_n² e^{2a_n S_k}, against claimed_rate·S_k + ln‖B̄‖₂.
fn cumulative_witness(job: &DiagonalLrdJob, path: u64, k: u64) -> serde_json::Value {
    let delta0 = softplus(job.w * Stream::new(job.key, path).normal() + job.bias);
    let upto = DiagonalLrdJob { horizon: k, ..job.clone() };
    let p = diagonal_lrd_path(&upto, &[k], Stream::new(job.key, path));
    let (_, s_k, log_lrd) = p.trace[0];
    serde_json::json!({
        "a": job.a, "b": job.b, "disc": "zoh", "claimed_rate": job.claimed_rate, "k": k,
        "delta_0": delta0, "s_k": s_k,
        "log_norm_bbar": p.log_bbar, "log_norm_lrd_k": log_lrd,
        "legend": {
            "delta_0": "Δ_0 = softplus(w·x_0 + bias), which fixes B̄_n = (e^{a_nΔ_0} − 1)/a_n·b_n (ZOH)",
            "s_k": "S_k = Σ_{j=1}^k Δ_j, Δ_j = softplus(w·x_j + bias)",
            "relation": "log‖LRD(t+k,t)‖₂ = ½ ln Σ_n B̄_n² e^{2a_n S_k} must be ≤ claimed_rate·S_k + ln‖B̄‖₂",
        },
    })
}

/// The diagonal selective SSM of the cumulative check (a_n = −(n+1)/2, b = 1, Δ = softplus(x − 1),
/// ZOH) with the claimed rate `rate_factor·λ₁`.
fn cumulative_job(ctx: &Context, rate_factor: f64) -> DiagonalLrdJob {
    let h = 8;
    let a: Vec<f64> = (0..h).map(|n| -((n + 1) as f64) * 0.5).collect();
    DiagonalLrdJob {
        claimed_rate: rate_factor * a[0],
        a,
        b: vec![1.0; h],
        w: 1.0,
        bias: -1.0,
        disc: Discretization::Zoh,
        horizon: ctx.size("horizon", Sizes::new(10_000, 1_000_000, 10_000_000)),
        paths: ctx.size("paths", Sizes::new(8, 16, 64)),
        checkpoints: 25,
        key: ctx.key("diagonal-lrd"),
    }
}

/// Judges the paths: the bound at every k (1e−9 relative for rounding), then its asymptotic
/// tightness, (log‖LRD‖ − log‖B̄‖)/S ∈ [λ₁ − ln√H/S, λ₁] exactly for diagonal A.
fn cumulative_judge(job: &DiagonalLrdJob, paths: &[DiagonalLrdPath]) -> Outcome {
    let lambda1 = job.a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let worst = paths.iter().min_by(|x, y| x.min_margin.total_cmp(&y.min_margin)).expect("paths ≥ 1");
    let rates: Vec<f64> = paths.iter().map(|p| (p.log_lrd_final - p.log_bbar) / p.s_final).collect();
    let slack = paths.iter().map(|p| (job.a.len() as f64).sqrt().ln() / p.s_final).fold(0.0, f64::max);
    let rate_ci = mean_interval(&rates, 0.99);
    let tight = rates.iter().all(|r| *r <= lambda1 + 1e-9 && *r >= lambda1 - slack - 1e-9);
    let tol = 1e-9;
    let margin = worst.min_margin + tol;
    let verdict = if margin < 0.0 {
        let path = paths.iter().position(|p| std::ptr::eq(p, worst)).expect("worst is one of the paths") as u64;
        let mut counterexample = cumulative_witness(job, path, worst.argmin_k);
        counterexample["w"] = job.w.into();
        counterexample["bias"] = job.bias.into();
        Verdict::Refuted {
            counterexample,
            violation: Comparison::custom(
                worst.min_margin,
                -tol,
                Relation::AtLeast,
                margin,
                "the path's smallest relative margin of log‖LRD‖ ≤ rate·S + log‖B̄‖, plus 1e−9",
            )
            .named("smallest relative margin on the path", "−1e−9 (rounding allowance)"),
            margin,
            summary: format!(
                "log‖LRD(t+k,t)‖ exceeds {:.4}·S + log‖B̄_t‖ at k = {} (relative margin {:.3e})",
                job.claimed_rate, worst.argmin_k, worst.min_margin
            ),
        }
    } else if !tight {
        let r = rates.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Verdict::Refuted {
            counterexample: serde_json::json!({ "rates": rates, "lambda1": lambda1 }),
            violation: Comparison::custom(r, lambda1, Relation::AtMost, -1.0, "−1 when some rate leaves [λ₁ − ln√H/S, λ₁] (±1e−9)")
                .named("largest measured rate (log‖LRD‖ − log‖B̄‖)/S", "λ₁"),
            margin: -1.0,
            summary: "the bound holds but is not asymptotically tight".into(),
        }
    } else {
        Verdict::Holds {
            evidence: format!(
                "{} paths × {} steps: bound held at every k (min relative margin {:.2e}); rate {:.6} vs λ₁ = {lambda1}",
                job.paths, job.horizon, worst.min_margin, rate_ci.estimate
            ),
        }
    };
    Outcome::new(verdict, job.paths * job.horizon, Some(margin))
        .detail("paths", job.paths)
        .detail("horizon", job.horizon)
        .detail("lambda1", lambda1)
        .detail("claimed_rate", job.claimed_rate)
        .detail("measured_rate_99", rate_ci)
        .detail("tightness_slack", slack)
}

/// Path 0 in log space against the claimed bound.
fn cumulative_figure(job: &DiagonalLrdJob, p0: &DiagonalLrdPath) -> Figure {
    Figure::new("cumulative", "S6 LRD over 10^k steps, log space", "S = Σ Δ_j", "log ‖LRD(t+k,t)‖₂")
        .with(Series::new("path 0", Style::Line, p0.trace.iter().map(|&(_, s, l)| [s, l]).collect()))
        .with(Series::new(
            format!("bound {:.3}·S + log‖B̄_t‖", job.claimed_rate),
            Style::Dashed,
            p0.trace.iter().map(|&(_, s, _)| [s, job.claimed_rate * s + p0.log_bbar]).collect(),
        ))
        .caption("A diagonal selective SSM (a_n = −(n+1)/2, Δ_j = softplus(x_j − 1), x iid N(0,1)): a straight line of slope λ₁ in S.")
}

/// The Monte Carlo check of the cumulative log-space bound on a diagonal selective SSM:
/// measure (the paths) → judge → figure.
fn cumulative_check(rate_factor: f64) -> impl crate::claim::Check {
    custom(Kind::Rate, move |ctx| {
        let job = cumulative_job(ctx, rate_factor);
        ctx.progress.expect(job.paths);
        let paths = ctx.backend.run(&job, ctx.progress)?;
        Ok(cumulative_judge(&job, &paths).figures([cumulative_figure(&job, &paths[0])]))
    })
}

const CASES: [u64; 3] = [400, 3000, 30000];
const PRINTED: &str = "Given an input x_t, the L_2 norm of LRD decays exponentially with rate λ₁ per unit time, where λ₁ is the largest eigenvalue of A and is non-positive if the SSM is stable. ‖LRD_SSM(t+k+1,t)‖₂ ≤ exp(λ₁Δ_{t+k+1}) ‖LRD_SSM(t+k,t)‖₂.";

/// `004.cor1.printed` (erratum): Corollary 1, Eq. (11).
fn claim_cor1_printed() -> Claim {
    Claim::erratum(
            "004.cor1.printed",
            super::FAMILY,
            "Per-step bound with λ₁ = max Re λ(A), over general stable A (H ≤ 4, grid entries, Δ ∈ [1/16, 2], ZOH), \
             at every step of a path of up to 30 steps (relative tolerance 1e−12).",
            property(CASES, general_instances(), printed_margin)
                .sides("‖LRD(t+k+1,t)‖₂", "e^{λ₁Δ_{t+k+1}}‖LRD(t+k,t)‖₂ at the worst step k")
                .expand(per_step_content)
                .certify(printed_enclosed)
                .illustrate(|inst: &StepInstance| {
                    let a = mat_from_rows(&inst.a);
                    let (legs, legs_b) = hippo_legs(4);
                    let jordan = mat_from_rows(&[vec![-1.0, 10.0], vec![0.0, -1.0]]);
                    vec![
                        ratio_figure("counterexample", "Per-step ratio on the shrunk counterexample", &a, &inst.b, inst.deltas[1], 40),
                        ratio_figure("legs", "Per-step ratio for HiPPO-LegS (N = 4, Δ = 0.1)", &legs, &legs_b, 0.1, 200),
                        ratio_figure("jordan", "Per-step ratio for A = [[−1, 10], [0, −1]], Δ = 0.25", &jordan, &[0.0, 1.0], 0.25, 40),
                    ]
                }),
        )
        .source(Paper::RethinkingLrd, "Corollary 1, Eq. (11)", PRINTED)
        .correction(
            "Step 3 of the proof, ‖e^{ΔA}‖₂ ≤ e^{λ₁Δ}, holds only for normal A. Corrected: 004.cor1.normal (normal A), \
             004.cor1.lognorm (μ₂(A) for any A), 004.cor1.kappa (cumulative, with κ₂(V)).",
        )
        .error(ErrorKind::FalseStatement, "False for non-normal stable A: the search finds 2×2 counterexamples, and HiPPO-LegS (N = 4, Δ = 0.1) violates it at 190 of its first 200 steps. True for normal A (004.cor1.normal) and, for any A, with the logarithmic norm μ₂(A) in place of λ₁ (004.cor1.lognorm).")
        .holds_instead(&["004.cor1.normal", "004.cor1.lognorm"])
}

/// `004.cor1.normal` (theorem): Corollary 1, restricted to normal A.
fn claim_cor1_normal() -> Claim {
    Claim::theorem(
        "004.cor1.normal",
        super::FAMILY,
        "For normal A (Q·blockdiag(real eigenvalues, 2×2 rotation-scaling blocks)·Qᵀ, H ≤ 4), the per-step bound holds \
             with λ₁ = max Re λ(A), at every step (relative tolerance 1e−10), for per-step Δ ∈ [1/16, 2].",
        property(CASES, normal_instances(), |n: &NormalInstance| per_step_margin(&n.step, n.lambda1, 1e-10)),
    )
    .source(Paper::RethinkingLrd, "Corollary 1, restricted to normal A", PRINTED)
    .correction("Restricted to normal A (diagonal as in Mamba/S4D, symmetric, or unitarily diagonalisable).")
    .control("a tighter rate: λ₁ − 0.05", property(CASES, normal_instances(), |n: &NormalInstance| per_step_margin(&n.step, n.lambda1 - 0.05, 1e-10)))
}

/// `004.cor1.lognorm` (theorem): Corollary 1, corrected with the logarithmic norm.
fn claim_cor1_lognorm() -> Claim {
    Claim::theorem(
        "004.cor1.lognorm",
        super::FAMILY,
        "For any stable A (same instances as 004.cor1.printed), ‖LRD(t+k+1,t)‖₂ ≤ exp(μ₂(A)Δ_{t+k+1}) ‖LRD(t+k,t)‖₂ \
             with μ₂(A) = λ_max((A+Aᵀ)/2), at every step (relative tolerance 1e−12).",
        property(CASES, general_instances(), |i: &StepInstance| lognorm_margin(i, 0.0)),
    )
    .source(Paper::RethinkingLrd, "Corollary 1, corrected with the logarithmic norm", PRINTED)
    .correction("λ₁ replaced by the logarithmic norm μ₂(A) ≥ λ₁ (equal for normal A).")
    .control("a tighter rate: μ₂(A) − 0.05", property(CASES, general_instances(), |i: &StepInstance| lognorm_margin(i, 0.05)))
}

/// `004.cor1.kappa` (theorem): Corollary 1, cumulative form with κ₂(V) (proofs/decay.md).
fn claim_cor1_kappa() -> Claim {
    Claim::theorem(
        "004.cor1.kappa",
        super::FAMILY,
        "For diagonalisable A = V diag(λ) V⁻¹ (real λ < 0, grid V with κ₂(V) ≤ 1e6, H ≤ 4), \
             ‖LRD(t+k,t)‖₂ ≤ κ₂(V) exp(λ₁ S_{t,k}) ‖B̄_t‖₂ with S_{t,k} = Σ_{j=t+1}^{t+k} Δ_j, for every k ≤ 30 (relative tolerance 1e−9).",
        property(CASES, kappa_instances(), |i: &KappaInstance| kappa_margin(i, true)),
    )
    .source(Paper::RethinkingLrd, "Corollary 1, cumulative form with κ₂(V) (proofs/decay.md)", PRINTED)
    .correction("The cumulative bound needs the factor κ₂(V) for non-normal A; it cannot be 1.")
    .control("the constant 1 in place of κ₂(V) (the printed bound, cumulated)", property(CASES, kappa_instances(), |i: &KappaInstance| kappa_margin(i, false)))
}

/// `004.cor1.cumulative` (theorem): Corollary 1, cumulative form, diagonal A, T up to 10⁶.
fn claim_cor1_cumulative() -> Claim {
    Claim::theorem(
        "004.cor1.cumulative",
        super::FAMILY,
        "For diagonal A (a_n = −(n+1)/2, n < 8, B = 1, ZOH) with selective Δ_j = softplus(x_j − 1), x iid N(0,1): \
             log‖LRD(t+k,t)‖₂ ≤ λ₁ S_{t,k} + log‖B̄_t‖₂ at every k up to the horizon (10⁴ quick, 10⁶ standard, 10⁷ deep; \
             relative tolerance 1e−9·(1+|λ₁S|)), computed in log space, and the bound is asymptotically tight: \
             (log‖LRD‖ − log‖B̄_t‖)/S lies in [λ₁ − ln√H/S, λ₁].",
        cumulative_check(1.0),
    )
    .split_samples()
    .source(Paper::RethinkingLrd, "Corollary 1, cumulative form, diagonal A, T up to 10⁶", PRINTED)
    .control("a faster claimed decay: rate 1.02·λ₁", cumulative_check(1.02))
}

/// Registers the Corollary 1 claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_cor1_printed());
    r.add(claim_cor1_normal());
    r.add(claim_cor1_lognorm());
    r.add(claim_cor1_kappa());
    r.add(claim_cor1_cumulative());
}
