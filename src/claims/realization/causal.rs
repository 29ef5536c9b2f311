//! 001 App. C.3, eqs (21)–(24): a non-strictly causal system (Mamba's scan, the state at t uses
//! u_t) in strictly causal form.
//!
//! * `001.c17` (Theorem): `(A, B, C, D) ↦ (A, B, CA, CB + D)` with `x̂_t = x_{t−1}`, for MIMO
//!   systems, constant or input-varying (a matrix set per step).
//! * `001.c17.printed` (Erratum, typo): the printed scalar form with `x̂_{t+1} = Ax̂_t + u_{t−1}`.

use crate::claim::{property, Claim, ErrorKind, Eval, Paper, Rounding};
use crate::claim::{Scale, Tolerance};
use crate::math::linalg::{mat_from_rows, Vector};
use crate::math::{Interval, Real};
use crate::model::lti::{simulate_nonstrict, simulate_strict, Step};
use crate::strategy::grid_matrix;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// Matrices per step (one set: LTI; T sets: input-varying), entries on a 1/8 grid in [−1, 1]
/// (A scaled by 1/2), n ≤ 4 states, m, p ≤ 3, inputs of length T ≤ 16.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CausalCase {
    /// `[A, B, C, D]` (rows) per step.
    pub steps: Vec<[Vec<Vec<f64>>; 4]>,
    /// Inputs (T × m).
    pub u: Vec<Vec<f64>>,
}

fn causal_cases() -> impl Strategy<Value = CausalCase> + Clone {
    (1usize..=4, 1usize..=3, 1usize..=3, 1usize..=16, any::<bool>())
        .prop_flat_map(|(n, m, p, t, varying)| {
            let step = (
                grid_matrix(n, n, -0.5, 0.5, 0.0625),
                grid_matrix(n, m, -1.0, 1.0, 0.125),
                grid_matrix(p, n, -1.0, 1.0, 0.125),
                grid_matrix(p, m, -1.0, 1.0, 0.125),
            )
                .prop_map(|(a, b, c, d)| [a, b, c, d]);
            (prop::collection::vec(step, if varying { t } else { 1 }), grid_matrix(t, m, -1.0, 1.0, 0.0625))
        })
        .prop_map(|(steps, u)| CausalCase { steps, u })
}

impl CausalCase {
    fn steps(&self) -> Vec<Step> {
        self.steps.iter().map(|[a, b, c, d]| Step { a: mat_from_rows(a), b: mat_from_rows(b), c: mat_from_rows(c), d: mat_from_rows(d) }).collect()
    }
    fn inputs(&self) -> Vec<Vector> {
        self.u.iter().map(|r| Vector::from_vec(r.clone())).collect()
    }
}

/// The non-strict outputs against the strictly causal form's. The states are computed by the
/// same operations (x̂_t = x_{t−1} bit for bit), so the outputs differ only by the grouping of
/// C(Ax + Bu) + Du against (CA)x + (CB + D)u: each within γ_{2(n+m)+2} of the absolute terms
/// |C|(|A||x| + |B||u|) + |D||u|, twice that apart.
/// `read_c` reads `C x̂` where `CA x̂` belongs (the control).
fn strict_gap(c: &CausalCase, read_c: bool) -> Eval {
    let steps = c.steps();
    let u = c.inputs();
    let strict: Vec<Step> = steps.iter().map(|s| if read_c { Step { c: s.c.clone(), ..s.strictly_causal() } } else { s.strictly_causal() }).collect();
    let (y, yh) = (simulate_nonstrict(&steps, &u), simulate_strict(&strict, &u));
    let abs = |s: &Step| Step { a: s.a.abs(), b: s.b.abs(), c: s.c.abs(), d: s.d.abs() };
    let (n, m) = (steps[0].a.nrows(), steps[0].b.ncols());
    // x_{t−1}, the state itself (signed): the absolute terms take |x_{t−1}|. (Propagating |x|
    // through A instead, |A x_abs + B u|, is not |x_{t−1}| and could make the tolerance too
    // small: it refuted this theorem at the standard budget, seed 11, margin −2.3·10⁻¹¹.)
    let mut x = Vector::zeros(n);
    let mut worst = Eval::Margin(f64::INFINITY);
    for (t, ut) in u.iter().enumerate() {
        let s = abs(&steps[t % steps.len()]);
        let ua = ut.abs();
        let scale = &s.c * (&s.a * x.abs() + &s.b * &ua) + &s.d * &ua;
        let real = &steps[t % steps.len()];
        x = &real.a * &x + &real.b * ut;
        for (k, sc) in scale.iter().enumerate() {
            let tol = 2.0 * Rounding::gamma(2 * (n + m) + 2) * sc;
            worst = worst.min(Eval::le_by((y[t][k] - yh[t][k]).abs(), 0.0, Scale(sc.max(f64::MIN_POSITIVE)), Tolerance::absolute(tol)));
        }
    }
    worst
}

/// The scalar case `x_t = a x_{t−1} + b u_t`, `y_t = c x_t + d u_t` against the paper's
/// `x̂_{t+1} = a x̂_t + u_{t−lag}`, `y_t = cab x̂_t + (cb + d)u_t` (`lag` 0: the corrected index,
/// 1: as printed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScalarCase {
    /// a, b, c, d.
    pub abcd: [f64; 4],
    /// Inputs.
    pub u: Vec<f64>,
}

fn scalar_cases() -> impl Strategy<Value = ScalarCase> + Clone {
    (prop::array::uniform4(-8i32..=8), prop::collection::vec(-16i32..=16, 2..=16))
        .prop_map(|(abcd, u)| ScalarCase { abcd: abcd.map(|v| v as f64 / 8.0), u: u.into_iter().map(|v| v as f64 / 16.0).collect() })
}

/// The state x_t and both outputs (y_t, ŷ_t) of the scalar case at every t, in any [`Real`]
/// (enclosures on intervals; the grid values taken exactly).
fn scalar_outputs<R: Real>(c: &ScalarCase, lag: usize) -> Vec<[R; 3]> {
    let [a, b, cc, d] = c.abcd.map(R::cst);
    let (mut x, mut xh) = (R::zero(), R::zero());
    let mut out = Vec::with_capacity(c.u.len());
    for (t, &u) in c.u.iter().enumerate() {
        let u = R::cst(u);
        x = a * x + b * u;
        let y = cc * x + d * u;
        let yh = cc * a * b * xh + (cc * b + d) * u;
        xh = a * xh + if t >= lag { R::cst(c.u[t - lag]) } else { R::zero() };
        out.push([x, y, yh]);
    }
    out
}

fn scalar_gap(c: &ScalarCase, lag: usize) -> Eval {
    let [a, b, cc, d] = c.abcd;
    let mut worst = Eval::Margin(f64::INFINITY);
    for ([x, y, yh], &u) in scalar_outputs::<f64>(c, lag).into_iter().zip(&c.u) {
        // Short dyadics: every product and sum is exact below 2⁻⁵³ of the size; γ₈ of the terms.
        let scale = (cc * a * x).abs() + (cc * b * u).abs() + (d * u).abs() + 1.0;
        worst = worst.min(Eval::le_by((y - yh).abs(), 0.0, Scale(scale), Tolerance::absolute(Rounding::gamma(8) * scale)));
    }
    worst
}

/// [`scalar_gap`]'s relation on enclosures with no rounding allowance: y_t = ŷ_t exactly.
fn scalar_gap_enclosed(c: &ScalarCase, lag: usize) -> Eval {
    scalar_outputs::<Interval>(c, lag)
        .into_iter()
        .map(|[_, y, yh]| Eval::le_by((y - yh).abs(), Interval::exact(0.0), Scale(1.0), Tolerance::NONE))
        .fold(Eval::Margin(f64::INFINITY), Eval::min)
}

const CASES: [u64; 3] = [300, 3000, 20000];

/// `001.c17` (theorem): App. C.3, eqs (21)–(24).
fn claim_c17() -> Claim {
    Claim::theorem(
            "001.c17",
            super::FAMILY,
            "A non-strictly causal system x_t = A_t x_{t−1} + B_t u_t, y_t = C_t x_t + D_t u_t (MIMO, n ≤ 4, m, p ≤ 3; constant or a matrix set per \
             step, i.e. input-varying) equals the strictly causal x̂_{t+1} = A_t x̂_t + B_t u_t, y_t = C_tA_t x̂_t + (C_tB_t + D_t)u_t with \
             x̂_t = x_{t−1}, up to 2γ_{2(n+m)+2} of the absolute terms.",
            property(CASES, causal_cases(), |c: &CausalCase| strict_gap(c, false)).sides("|y_t − ŷ_t| per output", "0, plus the rounding"),
        )
        .source(Paper::Bmojo, "App. C.3, eqs (21)–(24)", "{x̂_{t+1} = Ax̂_t + u_{t−1}; x_t = ABx̂_t + Bu_t; y_t = Cx_t + Du_t} → {…; y_t = CABx̂_t + (CB + D)u_t} … Note that the terms C and B only appear as the product CB, which then we can rename as Ĉ.")
        .correction("In general (A, B, C, D) ↦ (A, B, CA, CB + D) with x̂_t = x_{t−1}; the paper's CAB form is the scalar case with x̂_t = x_{t−1}/b, and it holds for input-varying systems with C(u_t)A(u_t) and C(u_t)B(u_t) + D.")
        .control("C·x̂ instead of CA·x̂", property(CASES, causal_cases(), |c: &CausalCase| strict_gap(c, true)))
}

/// `001.c17.printed` (erratum): App. C.3, eq (24).
fn claim_c17_printed() -> Claim {
    Claim::erratum(
            "001.c17.printed",
            super::FAMILY,
            "The paper's scalar strictly causal form with its printed index, x̂_{t+1} = a x̂_t + u_{t−1}, y_t = cab x̂_t + (cb + d)u_t, equals \
             x_t = a x_{t−1} + b u_t, y_t = c x_t + d u_t (a, b, c, d on a 1/8 grid, T ≤ 16).",
            property(CASES, scalar_cases(), |c: &ScalarCase| scalar_gap(c, 1))
                .sides("|y_t − ŷ_t|", "0, plus the rounding")
                .certify(|c: &ScalarCase| scalar_gap_enclosed(c, 1)),
        )
        .source(Paper::Bmojo, "App. C.3, eq (24)", "x̂_{t+1} = Ax̂_t + u_{t−1}; x_t = ABx̂_t + Bu_t; y_t = Cx_t + Du_t")
        .correction("x̂_{t+1} = a x̂_t + u_t (x̂_t = x_{t−1}/b): exact, and in general (A, B, CA, CB + D) — 001.c17.")
        .error(
            ErrorKind::Typo,
            "Eq (24) prints 'x̂_{t+1} = Ax̂_t + u_{t−1}', which delays the input twice: with x̂_t = x_{t−1}/b the recursion is x̂_{t+1} = a x̂_t + u_t, and then y_t = cab x̂_t + (cb + d)u_t is exact (001.c17 checks the general form (A, B, CA, CB + D)).",
        )
        .holds_instead(&["001.c17"])
}

/// Registers the causal-form claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_c17());
    r.add(claim_c17_printed());
}
