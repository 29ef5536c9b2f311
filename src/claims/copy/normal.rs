//! 003 §4.1: "the subsequent analysis can be easily extended to the normal case where the
//! elements of matrix Ã_i are different".
//!
//! With a decay a_{k,n} per state n, the weight of position j at the query i is
//! `w_j = Σ_n α_{j,n} s_{j,n}`, `α_{j,n} = ∏_{k=j+1}^{i} a_{k,n}`, `s_{j,n} = c_{i,n} b_{j,n}`, and the
//! exact worst case (LB-0, state by state) is `E_wc = V(Σ_{j≠pos}|w_j| + |w_pos − 1|)`.
//!
//! * `003.sec41.normal.printed` (Erratum): Theorem 1 carried over as the sentence suggests —
//!   Assumption 1 and (7) on the paper's scores s_j = c_iᵀb_j, with a_k read as the largest
//!   element of Ã_k and as the smallest (both must hold) — gives E_wc ≤ ε. False: a key whose per-state products cancel (c_iᵀb_j = 0)
//!   meets every part of the hypothesis, yet with different decays its weight does not cancel.
//! * `003.sec41.normal` (Theorem): the extension through a dominating scalar query — decays
//!   ā_k = max_n a_{k,n}, off-target scores σ_j = Σ_n|s_{j,n}|, target score w_pos/ᾱ_pos — meeting
//!   Assumption 1 and (7) (corrected) gives E_wc ≤ ε, since |w_j| ≤ ᾱ_jσ_j makes E_wc at most the
//!   dominating query's, which 003.thm1.corrected bounds. Control: the signed scores c_iᵀb_j in
//!   place of σ_j (the erratum's hypothesis).

use super::theorem1::{hypothesis, hypothesis_enclosed, queries, AMax, Form};
use crate::claim::{property, Claim, ErrorKind, Eval, Paper, Rounding, Scale, Tolerance};
use crate::math::Interval;
use crate::strategy::real;
use crate::tasks::copy::CopyQuery;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// One query of Definition 1 with a decay per state (positions 1-based, as in the paper).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NormalQuery {
    /// The target error ε.
    pub eps: f64,
    /// The value bound V.
    pub v_bound: f64,
    /// The matching threshold δ.
    pub delta: f64,
    /// The window L.
    pub window: usize,
    /// pos(i), 1-based.
    pub pos: usize,
    /// a_{k,n}: one row per position k = 1..=i, one entry per state.
    pub decays: Vec<Vec<f64>>,
    /// s_{j,n} = c_{i,n} b_{j,n}: one row per position j = 1..=i.
    pub products: Vec<Vec<f64>>,
}

impl NormalQuery {
    /// The query position i.
    pub fn len(&self) -> usize {
        self.decays.len()
    }
    /// Calls `f(j, α_{j,·}, s_{j,·})` for j = i down to 1, α over `R` (f64 or enclosures).
    fn for_each_position<R: Copy + std::ops::Mul<Output = R>>(&self, one: R, lift: impl Fn(f64) -> R, mut f: impl FnMut(usize, &[R], &[f64])) {
        let states = self.decays[0].len();
        let mut alpha = vec![one; states];
        for j in (1..=self.len()).rev() {
            f(j, &alpha, &self.products[j - 1]);
            for (a, &d) in alpha.iter_mut().zip(&self.decays[j - 1]) {
                *a = *a * lift(d);
            }
        }
    }
    /// The weights w_j (index j − 1).
    pub fn weights(&self) -> Vec<f64> {
        let mut w = vec![0.0; self.len()];
        self.for_each_position(1.0, |d| d, |j, alpha, s| w[j - 1] = alpha.iter().zip(s).map(|(a, s)| a * s).sum());
        w
    }
    /// E_wc and the scale of its rounding, V(Σ_j Σ_n α_{j,n}|s_{j,n}| + 1).
    pub fn worst_case_error(&self) -> (f64, f64) {
        let (mut e, mut scale) = (0.0, 0.0);
        self.for_each_position(
            1.0,
            |d| d,
            |j, alpha, s| {
                let w: f64 = alpha.iter().zip(s).map(|(a, s)| a * s).sum();
                scale += alpha.iter().zip(s).map(|(a, s)| a * s.abs()).sum::<f64>();
                e += if j == self.pos { (w - 1.0).abs() } else { w.abs() };
            },
        );
        (self.v_bound * e, self.v_bound * (scale + 1.0))
    }
    /// E_wc enclosed (α_{j,n} as products of exact decays).
    pub fn worst_case_error_enclosed(&self) -> Interval {
        let mut e = Interval::exact(0.0);
        self.for_each_position(Interval::exact(1.0), Interval::exact, |j, alpha, s| {
            let w = alpha.iter().zip(s).fold(Interval::exact(0.0), |acc, (&a, &s)| acc + a * Interval::exact(s));
            e += if j == self.pos { (w - Interval::exact(1.0)).abs() } else { w.abs() };
        });
        Interval::exact(self.v_bound) * e
    }
    /// ā_k = max_n a_{k,n}.
    fn largest_decays(&self) -> Vec<f64> {
        self.decays.iter().map(|r| r.iter().copied().fold(0.0, f64::max)).collect()
    }
    /// a̲_k = min_n a_{k,n}.
    fn smallest_decays(&self) -> Vec<f64> {
        self.decays.iter().map(|r| r.iter().copied().fold(1.0, f64::min)).collect()
    }
    /// A scalar query with decays ā_k and the given scores.
    fn scalar(&self, scores: Vec<f64>) -> CopyQuery {
        CopyQuery {
            eps: self.eps,
            v_bound: self.v_bound,
            delta: self.delta,
            window: self.window,
            pos: self.pos,
            prefix_len: 0,
            prefix_decay: 0.5,
            prefix_score: 0.0,
            decays: self.largest_decays(),
            scores,
        }
    }
    /// The dominating scalar query: decays ā_k, off-target scores σ_j = Σ_n|s_{j,n}|, target
    /// score w_pos/ᾱ_pos (so that its target weight is w_pos).
    pub fn dominating(&self) -> CopyQuery {
        let mut scores: Vec<f64> = self.products.iter().map(|r| r.iter().map(|s| s.abs()).sum()).collect();
        let q = self.scalar(scores.clone());
        scores[self.pos - 1] = self.weights()[self.pos - 1] / q.log_alpha_pos().exp();
        self.scalar(scores)
    }
    /// The sentence's reading: the paper's scores s_j = c_iᵀb_j = Σ_n s_{j,n}, with a_k read as
    /// the largest element of Ã_k (`largest`) or the smallest.
    pub fn naive(&self, largest: bool) -> CopyQuery {
        let mut q = self.scalar(self.products.iter().map(|r| r.iter().sum()).collect());
        if !largest {
            q.decays = self.smallest_decays();
        }
        q
    }
    /// [`NormalQuery::naive`] when its scores are exact (every Σ_n s_{j,n} a float: the
    /// generator's products lie on a 2⁻³⁰ grid), for the hypothesis's certificate.
    fn naive_exact(&self, largest: bool) -> Option<CopyQuery> {
        let exact = self.products.iter().all(|r| {
            let sum = r.iter().fold(Interval::exact(0.0), |acc, &s| acc + Interval::exact(s));
            sum.lo == sum.hi
        });
        exact.then(|| self.naive(largest))
    }
}

/// The sentence's hypothesis under both readings of a_k (largest and smallest element): an
/// instance inside it refutes the extension whichever element a_k stands for.
fn naive_hypothesis(q: &NormalQuery) -> f64 {
    hypothesis(&q.naive(true), AMax::Corrected, Form::MainText).min(hypothesis(&q.naive(false), AMax::Corrected, Form::MainText))
}

/// [`naive_hypothesis`] on enclosures (undecided where a score is not exact).
fn naive_hypothesis_enclosed(q: &NormalQuery) -> Eval {
    match (q.naive_exact(true), q.naive_exact(false)) {
        (Some(a), Some(b)) => hypothesis_enclosed(&a, AMax::Corrected, Form::MainText).and(hypothesis_enclosed(&b, AMax::Corrected, Form::MainText)),
        _ => Eval::Margin(naive_hypothesis(q)),
    }
}

/// E_wc ≤ ε with its rounding (i ≤ 12 positions, N ≤ 3 states: γ_{2i+8} of the scale).
fn within_eps(q: &NormalQuery) -> Eval {
    let (e, scale) = q.worst_case_error();
    Eval::le_by(e, q.eps, Scale(q.eps), Tolerance::absolute(Rounding::gamma(2 * q.len() + 8) * scale))
}

/// Rounds to the 2⁻³⁰ grid (where |x| < 2²², so that sums of three stay exact).
fn on_grid(x: f64) -> f64 {
    if x.abs() < 4_194_304.0 {
        (x * 1_073_741_824.0).round() / 1_073_741_824.0
    } else {
        x
    }
}

/// Normal-case queries built from 003.thm1.corrected's scalar queries (prefix dropped: 1–12
/// positions), 2 or 3 states: state 0 keeps the scalar decays a_k (so ā_k = a_k and
/// ᾱ_pos = α_pos), the others a_k·f with f ∈ [0.3, 1]. Each score s_j is split over the states
/// by random shares of one sign; the target's, half the time, all on state 0 (so that w_pos =
/// α_pos s_pos and the dominating query meets (7) as the scalar one does). One position in three
/// off the target gets a cancelling pair ±m on states 0 and 1 (m ∈ [1, 100]·δ): its c_iᵀb_j is
/// unchanged, its σ_j and, with different decays, its weight are not. Products on a 2⁻³⁰ grid.
pub fn normal_queries() -> impl Strategy<Value = NormalQuery> + Clone {
    let base = queries(AMax::Corrected, Form::MainText).prop_map(|mut q| {
        q.pos -= q.prefix_len;
        q.prefix_len = 0;
        q
    });
    let per_position =
        prop::collection::vec((real(0.3, 1.0), real(0.3, 1.0), real(0.05, 1.0), real(0.05, 1.0), prop::bool::weighted(0.33), real(1.0, 100.0)), 12);
    (base, 2..=3usize, per_position, any::<bool>()).prop_map(|(q, states, draws, target_on_zero)| {
        let i = q.len();
        let mut decays = vec![];
        let mut products = vec![];
        for (k, &(f1, f2, u1, u2, cancel, m)) in draws.iter().take(i).enumerate() {
            let a = q.decays[k];
            decays.push([a, a * f1, a * f2][..states].to_vec());
            let j = k + 1;
            let shares = [1.0, u1, u2][..states].to_vec();
            let total: f64 = shares.iter().sum();
            let mut row: Vec<f64> = if j == q.pos && target_on_zero {
                let mut r = vec![0.0; states];
                r[0] = q.scores[k];
                r
            } else {
                shares.iter().map(|s| q.scores[k] * s / total).collect()
            };
            if cancel && j != q.pos {
                row[0] += m * q.delta;
                row[1] -= m * q.delta;
            }
            products.push(row.into_iter().map(on_grid).collect());
        }
        NormalQuery { eps: q.eps, v_bound: q.v_bound, delta: q.delta, window: q.window, pos: q.pos, decays, products }
    })
}

fn expand(q: &NormalQuery) -> serde_json::Value {
    serde_json::json!({
        "i": q.len(),
        "weights": q.weights(),
        "worst_case_error": q.worst_case_error().0,
        "scores_c_b": q.naive(true).scores,
        "smallest_decays": q.smallest_decays(),
        "largest_decays": q.largest_decays(),
        "dominating_scores": q.dominating().scores,
        "legend": {
            "weights": "w_j = Σ_n α_{j,n} s_{j,n}, j = 1..i",
            "scores_c_b": "the paper's scores s_j = c_iᵀb_j = Σ_n s_{j,n}",
            "largest_decays": "ā_k = max_n a_{k,n}: the dominating query's decays, and the sentence's under one reading",
            "smallest_decays": "a̲_k = min_n a_{k,n}: the sentence's decays under the other reading",
            "dominating_scores": "σ_j = Σ_n |s_{j,n}| off the target, w_pos/ᾱ_pos at it",
        },
    })
}

const PRINTED: &str = "For the sake of simplicity in analysis, we replace the matrix Ã_i with a constant a_i (i.e., considering the case where all elements of Ã_i are the same), where a_i ∈ [0,1] (Dao & Gu, 2024). In fact, the subsequent analysis can be easily extended to the normal case where the elements of matrix Ã_i are different.";

/// `003.sec41.normal.printed` (erratum): §4.1, before eq (6).
fn claim_normal_printed() -> Claim {
    Claim::erratum(
        "003.sec41.normal.printed",
        super::FAMILY,
        "Theorem 1 extended to decays a_{k,n} that differ across the N ≤ 3 states, as the sentence suggests: on every query whose \
         scores s_j = c_iᵀb_j meet Assumption 1 and (7) (corrected) with a_k read as the largest element of Ã_k and as the smallest, the worst-case \
         copy error E_wc = V(Σ_{j≠pos}|w_j| + |w_pos − 1|), w_j = Σ_n α_{j,n}c_{i,n}b_{j,n}, is at most ε. 1–12 positions.",
        property([300, 2000, 20000], normal_queries(), within_eps)
            .given("Assumption 1 and (7) (corrected) on s_j = c_iᵀb_j, with a_k = max_n a_{k,n} and with a_k = min_n a_{k,n}", naive_hypothesis)
            .certify_given(naive_hypothesis_enclosed)
            .certify(|q| Eval::le_by(q.worst_case_error_enclosed(), Interval::exact(q.eps), Scale(q.eps), Tolerance::NONE))
            .sides("E_wc = V(Σ_{j≠pos}|w_j| + |w_pos − 1|), the exact worst-case copy error", "ε")
            .expand(expand),
    )
    .source(Paper::FreeLunch, "§4.1, before eq (6)", PRINTED)
    .correction(
        "State Assumption 1 and (7) on a dominating scalar query: decays ā_k = max_n a_{k,n}, off-target scores σ_j = Σ_n|c_{i,n}b_{j,n}| \
         (not |c_iᵀb_j|), target score w_pos/ᾱ_pos: 003.sec41.normal.",
    )
    .error(
        ErrorKind::FalseStatement,
        "§4.1 says that 'the subsequent analysis can be easily extended to the normal case where the elements of matrix Ã_i are \
         different'. Carried over with the paper's scores s_j = c_iᵀb_j (a_k read as the largest element of Ã_k, or as the smallest), Theorem 1 is \
         false: the weight of position j is Σ_n α_{j,n}c_{i,n}b_{j,n}, not α_j·c_iᵀb_j, so a key whose per-state products cancel \
         (c_iᵀb_j = 0, every part of Assumption 1 and (7) met) still carries weight m(α_{j,0} − α_{j,1}) when the states decay \
         differently, and the worst-case error exceeds ε. The analysis extends with the absolute per-state scores \
         Σ_n|c_{i,n}b_{j,n}| in place of |c_iᵀb_j| (003.sec41.normal).",
    )
    .holds_instead(&["003.sec41.normal"])
}

/// `003.sec41.normal` (theorem): §4.1, corrected (proofs/copy.md).
fn claim_normal() -> Claim {
    Claim::theorem(
        "003.sec41.normal",
        super::FAMILY,
        "Theorem 1 in the normal case through a dominating scalar query: if the query with decays ā_k = max_n a_{k,n}, off-target \
         scores σ_j = Σ_n|c_{i,n}b_{j,n}| and target score w_pos/ᾱ_pos meets Assumption 1 and (7) (corrected), then \
         E_wc = V(Σ_{j≠pos}|w_j| + |w_pos − 1|) ≤ ε (rounding γ_{2i+8}·V(ΣΣα|s| + 1)); N ≤ 3 states, 1–12 positions.",
        property([300, 2000, 20000], normal_queries(), within_eps)
            .given("Assumption 1 and (7) (corrected) on the dominating scalar query", |q| hypothesis(&q.dominating(), AMax::Corrected, Form::MainText))
            .sides("E_wc = V(Σ_{j≠pos}|w_j| + |w_pos − 1|)", "ε")
            .expand(expand),
    )
    .source(Paper::FreeLunch, "§4.1, before eq (6), corrected (proofs/copy.md)", PRINTED)
    .correction("Assumption 1 and (7) on the dominating scalar query (ā_k, σ_j, w_pos/ᾱ_pos).")
    .control(
        "the signed scores c_iᵀb_j in place of σ_j (the sentence's reading)",
        property([300, 2000, 20000], normal_queries(), within_eps).given("Assumption 1 and (7) (corrected) on s_j = c_iᵀb_j", naive_hypothesis),
    )
}

/// Registers the normal-case claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_normal_printed());
    r.add(claim_normal());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancelling_key_keeps_its_weight_when_the_states_decay_differently() {
        // i = 2, pos = 2, L = 1: position 1 lies outside the window with c_iᵀb_1 = 1 − 1 = 0, so
        // Assumption 1.3 holds, and the target meets (7) with α_pos = 1. But a_{2,·} = (0.5, 0.25)
        // gives w_1 = 0.5 − 0.25 = 0.25 and E_wc = 0.5·(0.25 + 10⁻⁴) ≫ ε.
        let q = NormalQuery {
            eps: 1e-3,
            v_bound: 0.5,
            delta: 1e-3,
            window: 1,
            pos: 2,
            decays: vec![vec![0.5, 0.5], vec![0.5, 0.25]],
            products: vec![vec![1.0, -1.0], vec![0.9999, 0.0]],
        };
        assert_eq!(q.weights(), vec![0.25, 0.9999]);
        assert!(naive_hypothesis(&q) >= 0.0, "both readings of a_k");
        assert!(within_eps(&q).refutes());
        assert_eq!(naive_hypothesis_enclosed(&q).standing(), Some(crate::claim::Standing::Holds));
        // The dominating query sees σ_1 = 2 ≥ δ outside the window: outside its hypothesis.
        assert!(hypothesis(&q.dominating(), AMax::Corrected, Form::MainText) < 0.0);
        // Equal decays: the cancelling key has no weight and the error is within ε.
        let equal = NormalQuery { decays: vec![vec![0.5, 0.5], vec![0.5, 0.5]], ..q };
        assert!(!within_eps(&equal).refutes());
    }
}
