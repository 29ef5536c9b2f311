//! The windowed construction for 003 Theorem 4 (m-local DPs), which the paper's one-sentence
//! proof leaves out (`proofs/cot.md`): a selective SSM with g channel groups (d = 1, d_h = 1,
//! A = −1, b = 1) whose step size Δ_r = softplus(β(2φ_t\[r\] − 1)) is driven by the one-hot phase
//! φ_t = e_{t mod g} the token carries. At t ≡ r the group is erased (e^{−softplus(β)} ≈ 0) and
//! rewritten with softplus(β)·o_t; the others leak by ≈ e^{−β} per step. Read out with
//! c = 1/softplus(β), group r holds the last output written at a phase r, so the m latest outputs
//! sit in separate channels. The token also carries the coefficient each group takes at its
//! phase, w_t\[r\] = c_{((t − r) mod g) + 1}; φ and w move by one cyclic shift per token (Lemma 3,
//! exact). The next output `(Σ_k c_k o_{t+1−k}) mod p` then takes one Lemma 1 product per group
//! and Lemma 5 indicators for the reduction mod p, with an integer rounding after each block.
//!
//! State: g numbers, whatever the length; per step O(g·p) operations (the ⌊g(p−1)²/p⌋
//! indicators dominate), so O(m) at fixed p and O(mT) in all.

use super::gadgets::{select_relu, Multiplier, Precision};
use crate::math::softplus::{silu, softplus};
use crate::model::dp::LocalRecurrence;
use serde::{Deserialize, Serialize};

/// The windowed machine for one recurrence.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WindowedMachine {
    /// g, the channel groups (m for the construction, m − 1 for the control).
    pub groups: usize,
    /// β of the step size.
    pub beta: f64,
    /// The multiplier of Lemma 1 (inputs in [0, p)).
    pub multiplier: Multiplier,
    /// λ of the indicators' select blocks.
    pub lambda: f64,
}

/// What a run produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WindowedRun {
    /// o_1…o_T (the first m are the given ones).
    pub outputs: Vec<u64>,
    /// State entries (g).
    pub state_size: usize,
    /// Operations of each generation step.
    pub step_flops: Vec<u64>,
}

impl WindowedMachine {
    /// The construction with g groups for `r`, its constants derived so that each block errs by
    /// less than ⅛ before rounding: a read is within 2g·p·e^{−β} of the value written (one
    /// erase and g − 1 leaks), so β = ln(16gp); the g products within M⁴/(3λ²) ≤ 1/(8g) each
    /// (M = p); the Q = ⌊g(p−1)²/p⌋ indicators within W₀(1/e)/λ each, scaled by p, so λ = 8·p·Q.
    pub fn new(r: &LocalRecurrence, groups: usize) -> Self {
        let (g, p) = (groups as f64, r.modulus as f64);
        let q = Self::quotients(r, groups) as f64;
        WindowedMachine { groups, beta: (16.0 * g * p).ln(), multiplier: Multiplier::tight(p, 1.0 / (8.0 * g)), lambda: (8.0 * p * q).max(8.0) }
    }

    /// Q = ⌊g(p−1)²/p⌋: the largest quotient of the sum by p.
    fn quotients(r: &LocalRecurrence, groups: usize) -> usize {
        let p = r.modulus as usize;
        groups * (p - 1) * (p - 1) / p
    }

    /// Runs the recurrence to length `len` (≥ m), generating o_{m+1}…o_len.
    pub fn run(&self, r: &LocalRecurrence, len: usize) -> WindowedRun {
        let p = Precision::F64;
        let (g, m, modulus) = (self.groups, r.order(), r.modulus as f64);
        let int = |x: f64| x.round();
        // The token's bookkeeping: the phase one-hot φ_t and the coefficient each group takes at
        // this phase, w_t[r] = c_{((t − r) mod g) + 1} (0 past m). Both move by one cyclic shift
        // per token: Lemma 3's exact block for a permutation, evaluated on its g nonzeros.
        let shift = |v: &[f64]| -> Vec<f64> { (0..g).map(|k| v[(k + g - 1) % g]).map(|u| silu(u) - silu(-u)).collect() };
        let mut phi: Vec<f64> = (0..g).map(|k| f64::from(u8::from(k == 0))).collect();
        let mut w: Vec<f64> = (0..g).map(|k| (g - k) % g + 1).map(|lag| if lag <= m { r.coeffs[lag - 1] as f64 } else { 0.0 }).collect();
        let product = self.multiplier.mlp();
        let flag = select_relu(1, 1.0, 0.5).silu_scaled(self.lambda);
        let q_max = Self::quotients(r, g);
        let write = softplus(self.beta);
        let mut h = vec![0.0f64; g];
        let mut outputs: Vec<u64> = r.init.clone();
        let mut step_flops = vec![];
        let mut t = 0usize;
        while t < len.saturating_sub(1) && t < outputs.len() {
            let o = outputs[t] as f64;
            for (hr, f) in h.iter_mut().zip(&phi) {
                let delta = softplus(self.beta * (2.0 * f - 1.0));
                *hr = (-delta).exp() * *hr + delta * o;
            }
            t += 1;
            if t >= m {
                let sum = int(h.iter().zip(&w).map(|(hr, wr)| product.forward_in(&[int(hr / write), *wr], p)[0]).sum::<f64>());
                let quotient = int((1..=q_max).map(|q| flag.forward_in(&[1.0, 0.0, sum - q as f64 * modulus + 0.5], p)[0]).sum::<f64>());
                outputs.push(int(sum - modulus * quotient).max(0.0) as u64);
                // The SSM update (8 per group), the products and their sum, the indicators and
                // the reduction, the two shifts (4 per entry).
                step_flops.push(8 * g as u64 + g as u64 * (product.flops() + 2) + q_max as u64 * (flag.flops() + 2) + 4 + 8 * g as u64);
            }
            phi = shift(&phi).into_iter().map(int).collect();
            w = shift(&w).into_iter().map(int).collect();
        }
        WindowedRun { outputs, state_size: g, step_flops }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_of_m_solves_and_of_m_minus_one_fails() {
        let r = LocalRecurrence { modulus: 7, coeffs: vec![3, 0, 5], init: vec![1, 4, 2] };
        let run = WindowedMachine::new(&r, 3).run(&r, 2000);
        assert_eq!(run.outputs, r.sequence(2000));
        assert_ne!(WindowedMachine::new(&r, 2).run(&r, 200).outputs, r.sequence(200));
    }
}
