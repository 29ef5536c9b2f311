//! The delta rule as a sequence layer (DeltaNet: Schlag et al. 2021, Yang et al. 2024) and its
//! gated form (Gated DeltaNet: Yang, Kautz & Hatamizadeh 2025): a matrix state S (d_v × d_k)
//! that writes each value at its key by one step of online regression,
//!
//! `S_t = α_t S_{t−1} (I − β_t k_t k_tᵀ) + β_t v_t k_tᵀ`, `o_t = S_t q_t`,
//!
//! with α_t ∈ [0, 1] the gate (α ≡ 1: DeltaNet) and β_t ∈ [0, 1] the writing strength. With
//! α_t = 1 the update is `S_{t−1} − β_t (S_{t−1}k_t − v_t) k_tᵀ`, a gradient step on
//! ½‖S k_t − v_t‖²: at β_t = 1 and a unit key, `S_t k_t = v_t` exactly (the last pair is
//! recalled). Written over [`Real`].

use crate::math::Real;

/// The inputs of one delta-rule head over T steps.
#[derive(Clone, Debug, PartialEq)]
pub struct DeltaNet<R> {
    /// Keys k_t (T × d_k; usually unit vectors).
    pub keys: Vec<Vec<R>>,
    /// Values v_t (T × d_v).
    pub values: Vec<Vec<R>>,
    /// Queries q_t (T × d_k).
    pub queries: Vec<Vec<R>>,
    /// Writing strengths β_t (T).
    pub beta: Vec<R>,
    /// Gates α_t (T); all 1 for DeltaNet.
    pub gate: Vec<R>,
}

impl<R: Real> DeltaNet<R> {
    /// A head; panics unless every sequence has T rows and keys and queries one length d_k.
    pub fn new(keys: Vec<Vec<R>>, values: Vec<Vec<R>>, queries: Vec<Vec<R>>, beta: Vec<R>, gate: Vec<R>) -> DeltaNet<R> {
        let t = keys.len();
        assert!(
            values.len() == t && queries.len() == t && beta.len() == t && gate.len() == t,
            "DeltaNet: keys, values, queries, β and α need one entry per step ({t})"
        );
        let dk = keys.first().map_or(0, Vec::len);
        assert!(keys.iter().chain(&queries).all(|k| k.len() == dk), "DeltaNet: keys and queries have d_k = {dk} entries");
        DeltaNet { keys, values, queries, beta, gate }
    }

    /// The states S_1..S_T (each d_v × d_k, by rows) from S_0 = 0.
    pub fn states(&self) -> Vec<Vec<Vec<R>>> {
        let dk = self.keys.first().map_or(0, Vec::len);
        let dv = self.values.first().map_or(0, Vec::len);
        let mut s = vec![vec![R::zero(); dk]; dv];
        (0..self.keys.len())
            .map(|t| {
                let (k, v, b, a) = (&self.keys[t], &self.values[t], self.beta[t], self.gate[t]);
                for (row, &vi) in s.iter_mut().zip(v) {
                    // row ← α·row − β·(α·row·k − v_i) kᵀ
                    let sk = row.iter().zip(k).fold(R::zero(), |acc, (&x, &kj)| acc + x * kj) * a;
                    let err = (sk - vi) * b;
                    row.iter_mut().zip(k).for_each(|(x, &kj)| *x = *x * a - err * kj);
                }
                s.clone()
            })
            .collect()
    }

    /// The outputs o_t = S_t q_t (T × d_v).
    pub fn outputs(&self) -> Vec<Vec<R>> {
        self.states()
            .iter()
            .zip(&self.queries)
            .map(|(s, q)| s.iter().map(|row| row.iter().zip(q).fold(R::zero(), |acc, (&x, &qj)| acc + x * qj)).collect())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DMatrix, DVector};

    fn head(t: usize, dk: usize, dv: usize) -> DeltaNet<f64> {
        let f = |k: usize| ((k * 2_654_435_761) % 1009) as f64 / 1009.0 - 0.5;
        let unit = |v: Vec<f64>| {
            let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            v.into_iter().map(|x| x / n).collect::<Vec<_>>()
        };
        DeltaNet::new(
            (0..t).map(|s| unit((0..dk).map(|j| f(s * 31 + j)).collect())).collect(),
            (0..t).map(|s| (0..dv).map(|j| f(s * 17 + j + 3)).collect()).collect(),
            (0..t).map(|s| (0..dk).map(|j| f(s * 13 + j + 7)).collect()).collect(),
            (0..t).map(|s| 0.5 + f(s * 5) * 0.9).collect(),
            (0..t).map(|s| 0.8 + f(s * 3) * 0.3).collect(),
        )
    }

    /// The recurrence against its unrolled form, computed with nalgebra's matrices:
    /// `S_T = Σ_t β_t v_t k_tᵀ ∏_{s=t+1..T} α_s (I − β_s k_s k_sᵀ)` (products to the right), an
    /// independent computation; they agree to the rounding of T products of d_k × d_k matrices of
    /// norm ≤ 1 (≈ T·d_k·u, tolerance 10⁻¹³).
    #[test]
    fn the_recurrence_equals_its_unrolled_sum_of_products() {
        let (t_len, dk, dv) = (9, 4, 3);
        let h = head(t_len, dk, dv);
        let states = h.states();
        let mut want = DMatrix::<f64>::zeros(dv, dk);
        for t in 0..t_len {
            let k = DVector::from_vec(h.keys[t].clone());
            let v = DVector::from_vec(h.values[t].clone());
            let mut term = &v * k.transpose() * h.beta[t];
            for s in t + 1..t_len {
                let ks = DVector::from_vec(h.keys[s].clone());
                term = term * (DMatrix::identity(dk, dk) - &ks * ks.transpose() * h.beta[s]) * h.gate[s];
            }
            want += term;
        }
        let got = &states[t_len - 1];
        for i in 0..dv {
            for j in 0..dk {
                assert!((got[i][j] - want[(i, j)]).abs() < 1e-13, "S[{i}][{j}]: {} vs {}", got[i][j], want[(i, j)]);
            }
        }
    }

    /// With α = β = 1 and unit keys, the last pair is recalled exactly: S_t k_t = v_t (to the
    /// rounding of a d_k-term dot product); the control, the linear-attention update
    /// S_t = S_{t−1} + v_t k_tᵀ (no erasing), recalls it only up to interference.
    #[test]
    fn at_full_strength_the_last_written_pair_is_recalled() {
        let mut h = head(8, 4, 3);
        h.beta = vec![1.0; 8];
        h.gate = vec![1.0; 8];
        let states = h.states();
        let mut linear = vec![vec![0.0; 4]; 3];
        let mut worst_linear: f64 = 0.0;
        for ((s, k), v) in states.iter().zip(&h.keys).zip(&h.values) {
            for ((row, lin_row), &vi) in s.iter().zip(linear.iter_mut()).zip(v) {
                let recalled: f64 = row.iter().zip(k).map(|(a, b)| a * b).sum();
                assert!((recalled - vi).abs() < 1e-14, "{recalled} vs {vi}");
                lin_row.iter_mut().zip(k).for_each(|(x, kj)| *x += vi * kj);
                let lin: f64 = lin_row.iter().zip(k).map(|(a, b)| a * b).sum();
                worst_linear = worst_linear.max((lin - vi).abs());
            }
        }
        assert!(worst_linear > 1e-2, "linear attention interferes: {worst_linear}");
    }
}
