//! 004 Theorem 2: the interaction recurrence (13), its matrix form (14) and the unrolled
//! form (15) agree.
//!
//! * `004.thm2` (Theorem): (13) ≡ (14) ≡ (15) over random H, d, T, fixed and selective Δ, any
//!   h_0. Control: the products of (15) taken in the reverse order.

use crate::claim::{property, Claim, Eval, Paper};
use crate::claim::{Scale, Tolerance};
use crate::math::linalg::{mat_from_rows, Vector};
use crate::model::{InteractionSequence, StepRule};
use crate::strategy::{grid, grid_matrix, grid_vec};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// A Theorem 2 instance.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SequenceInstance {
    /// A (H×H), rows; shifted left so that the model is mostly stable.
    pub a: Vec<Vec<f64>>,
    /// B (H×d), rows.
    pub b: Vec<Vec<f64>>,
    /// G (H×d), rows.
    pub g: Vec<Vec<f64>>,
    /// W (H×d), rows.
    pub w: Vec<Vec<f64>>,
    /// Fixed Δ, or None for selective Δ_t = softplus(w_Δ·x_t + b_Δ).
    pub delta: Option<f64>,
    /// w_Δ (length d) for selective Δ.
    pub w_delta: Vec<f64>,
    /// b_Δ.
    pub b_delta: f64,
    /// h_0.
    pub h0: Vec<f64>,
    /// Inputs x_1..x_T (rows of length d).
    pub x: Vec<Vec<f64>>,
}

impl SequenceInstance {
    fn model(&self) -> InteractionSequence {
        let step = match self.delta {
            Some(d) => StepRule::Fixed(d),
            None => StepRule::Selective { w: self.w_delta.clone(), b: self.b_delta },
        };
        InteractionSequence {
            a: mat_from_rows(&self.a),
            b: mat_from_rows(&self.b),
            g: mat_from_rows(&self.g),
            w: mat_from_rows(&self.w),
            step,
            h0: Vector::from_vec(self.h0.clone()),
        }
    }
}

fn instances() -> impl Strategy<Value = SequenceInstance> {
    (1usize..=6, 1usize..=3, 1usize..=40, any::<bool>())
        .prop_flat_map(|(h, d, len, selective)| {
            (
                grid_matrix(h, h, -1.0, 1.0, 0.125),
                grid_matrix(h, d, -1.0, 1.0, 0.125),
                grid_matrix(h, d, -0.5, 0.5, 0.0625),
                grid_matrix(h, d, -0.5, 0.5, 0.0625),
                grid(0.0625, 1.0, 0.0625),
                grid_vec(d, -1.0, 1.0, 0.125),
                grid(-1.0, 1.0, 0.125),
                grid_vec(h, -1.0, 1.0, 0.125),
                grid_matrix(len, d, -1.5, 1.5, 0.0625),
                Just(selective),
            )
        })
        .prop_map(|(a, b, g, w, delta, w_delta, b_delta, h0, x, selective)| {
            // Shift A left by its size so that most instances are stable (Ā contracts).
            let n = a.len() as f64;
            let a = a.into_iter().enumerate().map(|(i, mut row)| {
                row[i] -= n;
                row
            });
            SequenceInstance { a: a.collect(), b, g, w, delta: (!selective).then_some(delta), w_delta, b_delta, h0, x }
        })
}

/// Margin of (13) ≡ (14) ≡ (15) at every t, relative to `1 + max_t ‖h_t‖` (products of up to 40
/// matrices; tolerance 1e−10·T).
fn thm2_margin(inst: &SequenceInstance, reversed: bool) -> Eval {
    let m = inst.model();
    let h13 = m.states_eq13(&inst.x);
    let h14 = m.states_eq14(&inst.x);
    let h15 = m.states_eq15(&inst.x, reversed);
    let scale = 1.0 + h13.iter().map(|h| h.norm()).fold(0.0, f64::max);
    let tol = 1e-10 * inst.x.len() as f64;
    let mut worst = Eval::Margin(f64::INFINITY);
    for ((a, b), c) in h13.iter().zip(&h14).zip(&h15) {
        worst = worst.min(Eval::close((a - b).norm(), Scale(scale), Tolerance::relative(tol))).min(Eval::close(
            (a - c).norm(),
            Scale(scale),
            Tolerance::relative(tol),
        ));
    }
    worst
}

const CASES: [u64; 3] = [200, 1000, 10000];

/// `004.thm2` (theorem): Theorem 2, Eq. (13)–(15).
fn claim_thm2() -> Claim {
    Claim::theorem(
        "004.thm2",
        super::FAMILY,
        "The interaction recurrence (13), h_t = Ā_t h_{t−1} + B̄_t x_t + (h_{t−1}ᵀWx_t)(Gx_t), its matrix form (14), \
             h_t = (Ā_t + Gx_tx_tᵀWᵀ)h_{t−1} + B̄_t x_t, and the unrolled form (15) agree at every t (relative to 1 + max‖h‖, \
             tolerance 1e−10·T), for H ≤ 6, vector inputs of dimension d ≤ 3, T ≤ 40, fixed or selective Δ_t = softplus(w·x_t + b) \
             (ZOH), and any h_0.",
        property(CASES, instances(), |i: &SequenceInstance| thm2_margin(i, false)),
    )
    .source(
        Paper::RethinkingLrd,
        "Theorem 2, Eq. (13)–(15)",
        "The unrolled form of the hidden state update in equation (14) is h_t = (∏_{i=1}^{t}(Ā_i + G x_i x_iᵀ Wᵀ)) h_0 + \
             Σ_{i=1}^{t} (∏_{j=i+1}^{t}(Ā_j + G x_j x_jᵀ Wᵀ)) B̄_i x_i. (15) Again, the ∏_i^j notation for matrix multiplication \
             denotes the left matrix multiplication starting with the index at the bottom (i) and ending with the index at the top j.",
    )
    .control("the products of (15) multiplied in the reverse order", property(CASES, instances(), |i: &SequenceInstance| thm2_margin(i, true)))
}

/// Registers Theorem 2.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_thm2());
}
