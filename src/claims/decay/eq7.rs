//! 004 eq (7): the matrix form of attention.
//!
//! §2 defines `h_t = Σ_{i=1}^T w(i,t) W_V x_i` (5) with `w(i,t) ∝ exp{β(W_Q x_i)ᵀ(W_K x_t)}` (6),
//! then denotes `K = (W_K x_t)ᵀ`, `Q = [(W_Q x_1)ᵀ, …, (W_Q x_T)ᵀ]`,
//! `V = [(W_V x_1)ᵀ, …, (W_V x_T)ᵀ]ᵀ` and calls (5)–(6) equivalent to
//! `Attention(x_1, …, x_T) = Softmax(βQKᵀ)V` (7).
//!
//! * `004.eq7.printed` (Erratum, typo): (7) is not defined for T ≥ 2 under either reading of Q.
//!   Read as printed (Q a row of T·d_k numbers), QKᵀ needs T·d_k = d_k; read like V (Q the
//!   T×d_k matrix of rows (W_Q x_i)ᵀ), QKᵀ is a T×1 column and Softmax(βQKᵀ)V needs 1 = T.
//! * `004.eq7` (Theorem): `Softmax(βKQᵀ)V` (Q read like V) is h_tᵀ of (5)–(6), every t.
//!   Control: the usual naming of query and key (w(i,t) ∝ exp{β(W_Q x_t)ᵀ(W_K x_i)}), which
//!   differs from (6) unless W_QᵀW_K is symmetric: the orientation matters.

use crate::claim::{property, Claim, ErrorKind, Eval, Paper, Rounding, Scale, Tolerance};
use crate::math::linalg::{mat_from_rows, Mat};
use crate::math::Interval;
use crate::model::Attention;
use crate::strategy::grid_matrix;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// One instance of (5)–(7): the weights, the inputs x_1..x_T (rows) and the current time t.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MatrixForm {
    /// W_Q (d_k×d), rows.
    pub wq: Vec<Vec<f64>>,
    /// W_K (d_k×d), rows.
    pub wk: Vec<Vec<f64>>,
    /// W_V (H×d), rows.
    pub wv: Vec<Vec<f64>>,
    /// β = 1/√d_k.
    pub beta: f64,
    /// Inputs, one row per time.
    pub x: Vec<Vec<f64>>,
    /// The current time t (1-based).
    pub t: usize,
}

/// How Q is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QReading {
    /// As printed, `[(W_Q x_1)ᵀ, …, (W_Q x_T)ᵀ]` with no outer transpose: a 1 × T·d_k row.
    Row,
    /// Like V, the T×d_k matrix whose rows are (W_Q x_i)ᵀ.
    Stacked,
}

/// The shapes (rows, columns) of the factors of `Softmax(βQKᵀ)V` under a reading of Q, and the
/// first product whose inner dimensions differ: `Some((columns of the left, rows of the
/// right))`, or `None` when (7) is defined.
pub fn printed_mismatch(len: usize, dk: usize, reading: QReading) -> Option<(usize, usize)> {
    let q = match reading {
        QReading::Row => (1, len * dk),
        QReading::Stacked => (len, dk),
    };
    let k_t = (dk, 1);
    let v_rows = len;
    if q.1 != k_t.0 {
        return Some((q.1, k_t.0));
    }
    // Softmax keeps the shape of QKᵀ: q.0 × 1.
    (1 != v_rows).then_some((1, v_rows))
}

impl MatrixForm {
    fn model(&self) -> Attention {
        Attention { wq: mat_from_rows(&self.wq), wk: mat_from_rows(&self.wk), wv: mat_from_rows(&self.wv), beta: self.beta, causal: false }
    }
    /// T.
    pub fn len(&self) -> usize {
        self.x.len()
    }
    /// d_k.
    pub fn dk(&self) -> usize {
        self.wq.len()
    }
    /// Q read like V (T×d_k), K = (W_K x_t)ᵀ (1×d_k) and V (T×H), as nalgebra matrices;
    /// `usual` builds the usual naming instead (Q from W_K x_i, K from W_Q x_t).
    fn matrices(&self, usual: bool) -> (Mat, Mat, Mat) {
        let (wq, wk, wv) = (mat_from_rows(&self.wq), mat_from_rows(&self.wk), mat_from_rows(&self.wv));
        let (wq, wk) = if usual { (wk, wq) } else { (wq, wk) };
        let x = mat_from_rows(&self.x);
        let q = &x * wq.transpose();
        let k = Mat::from_row_slice(1, wk.nrows(), (&wk * x.row(self.t - 1).transpose()).as_slice());
        let v = &x * wv.transpose();
        (q, k, v)
    }
    /// `Softmax(βKQᵀ)V` (1×H), the corrected (7); `usual`: with query and key named as usual.
    pub fn corrected(&self, usual: bool) -> Vec<f64> {
        let (q, k, v) = self.matrices(usual);
        let scores = (&k * q.transpose()) * self.beta;
        let m = scores.max();
        let e = scores.map(|s| (s - m).exp());
        let w = &e / e.sum();
        (w * v).iter().copied().collect()
    }
    /// h_t of (5)–(6), summed term by term.
    pub fn hidden(&self) -> Vec<f64> {
        self.model().hidden(&self.x, self.t)
    }
    /// The rounding of either evaluation's difference from the other: every score β·qᵀk is a
    /// dot product of d_k terms (γ_{d_k+1} of S = max_i β Σ_k |q_ik k_k|, each way), a score
    /// error e moves each weight by a relative 2e, and the normalisation and the weighted sum
    /// add γ_{T+4} each: `2(4γ_{d_k+1}S + γ_{T+4})·Σ_i w_i|v_i|_∞`, both evaluations together.
    fn rounding(&self) -> f64 {
        let (q, k, v) = self.matrices(false);
        let s = q.row_iter().map(|r| r.iter().zip(k.iter()).map(|(a, b)| (a * b).abs()).sum::<f64>()).fold(0.0, f64::max) * self.beta;
        let w = self.model().weights(&self.x, self.t);
        let mass: f64 = w.iter().zip(v.row_iter()).map(|(wi, r)| wi * r.amax()).sum();
        2.0 * (4.0 * Rounding::gamma(self.dk() + 1) * s + Rounding::gamma(self.len() + 4)) * mass
    }
}

/// (7) as printed against (5)–(6), the better of the two readings of Q: where the products are
/// defined (T = 1), their value against h_t; else the first inner dimensions that differ, an
/// exact count (so a refutation is certified).
fn printed(c: &MatrixForm) -> Eval {
    let mismatch = [QReading::Row, QReading::Stacked].map(|r| printed_mismatch(c.len(), c.dk(), r));
    match mismatch.iter().flatten().map(|&(a, b)| a.abs_diff(b)).min() {
        Some(gap) if mismatch.iter().all(Option::is_some) => Eval::le_by(Interval::exact(gap as f64), Interval::exact(0.0), Scale(1.0), Tolerance::NONE),
        _ => matches_hidden(c, false),
    }
}

/// ‖Softmax(βKQᵀ)V − h_tᵀ‖∞ within the two evaluations' rounding.
fn matches_hidden(c: &MatrixForm, usual: bool) -> Eval {
    let err = c.corrected(usual).iter().zip(c.hidden()).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    let tol = c.rounding();
    Eval::close(err, Scale(tol.max(f64::MIN_POSITIVE)), Tolerance::absolute(tol))
}

/// T ∈ 1..=6, d, d_k, H ∈ 1..=3, weights on a 1/8 grid in [−2, 2], inputs on a 1/16 grid in
/// [−1, 1], β = 1/√d_k, t uniform in 1..=T.
fn matrix_forms() -> impl Strategy<Value = MatrixForm> + Clone {
    (1..=6usize, 1..=3usize, 1..=3usize, 1..=3usize)
        .prop_flat_map(|(len, d, dk, h)| {
            (
                grid_matrix(dk, d, -2.0, 2.0, 0.125),
                grid_matrix(dk, d, -2.0, 2.0, 0.125),
                grid_matrix(h, d, -2.0, 2.0, 0.125),
                grid_matrix(len, d, -1.0, 1.0, 0.0625),
                1..=len,
            )
        })
        .prop_map(|(wq, wk, wv, x, t)| MatrixForm { beta: 1.0 / (wq.len() as f64).sqrt(), wq, wk, wv, x, t })
}

const PRINTED: &str = "We denote K=(W_K x_t)^T, Q=[(W_Q x_1)^T,…,(W_Q x_T)^T], and V=[(W_V x_1)^T,…,(W_V x_T)^T]^T. After normalization of w(i,t), the above formula is equivalent to the typical expression in the transformer paper Attention(x_1,…,x_T)=Softmax(βQK^T)V (7)";

/// `004.eq7.printed` (erratum): §2, eq (7).
fn claim_eq7_printed() -> Claim {
    Claim::erratum(
        "004.eq7.printed",
        super::FAMILY,
        "Eq (7) as printed, Softmax(βQKᵀ)V with K, Q and V as denoted, is defined and equals h_tᵀ of (5)–(6) under one of the two \
         readings of Q (a row of T·d_k numbers as printed, or the T×d_k matrix of rows (W_Q x_i)ᵀ like V); T ≤ 6, d, d_k, H ≤ 3.",
        property([200, 2000, 20000], matrix_forms(), printed)
            .sides("|columns of the left factor − rows of the right| at the first product of (7) (0 where (7) is defined)", "0")
            .expand(|c| {
                serde_json::json!({
                    "T": c.len(),
                    "d_k": c.dk(),
                    "H": c.wv.len(),
                    "q_as_a_row": printed_mismatch(c.len(), c.dk(), QReading::Row),
                    "q_stacked_like_v": printed_mismatch(c.len(), c.dk(), QReading::Stacked),
                    "legend": "each reading's first product whose inner dimensions differ: [columns of the left factor, rows of the right]; null where (7) is defined",
                })
            }),
    )
    .source(Paper::RethinkingLrd, "§2, eq (7)", PRINTED)
    .correction("Attention(x_1, …, x_T)_t = Softmax(βKQᵀ)V with Q read like V (T×d_k): the 1×T row of scores β(W_K x_t)ᵀ(W_Q x_i) of (6), normalised, times V (004.eq7); equivalently Softmax(βQKᵀ)ᵀV.")
    .error(
        ErrorKind::Typo,
        "§2 denotes 'K=(W_K x_t)^T, Q=[(W_Q x_1)^T,…,(W_Q x_T)^T], and V=[(W_V x_1)^T,…,(W_V x_T)^T]^T' and writes (7) as 'Softmax(βQK^T)V'. For T ≥ 2 the product is not defined under either reading of Q: read as printed, Q is a 1 × T·d_k row and QKᵀ needs T·d_k = d_k; read like V, Q is T×d_k, QKᵀ a T×1 column of scores, and Softmax(βQKᵀ)V needs 1 = T. The factors are in the wrong order (or the softmax lacks a transpose): Softmax(βKQᵀ)V is h_tᵀ of (5)–(6) (004.eq7). The paper's naming — the query built from x_i, the key from x_t — is the reverse of the usual one; it is consistent with (6) and is kept.",
    )
    .holds_instead(&["004.eq7"])
}

/// `004.eq7` (theorem): §2, eq (7), corrected.
fn claim_eq7() -> Claim {
    Claim::theorem(
        "004.eq7",
        super::FAMILY,
        "Eq (7) with its factors in order: Softmax(βKQᵀ)V, Q the T×d_k matrix of rows (W_Q x_i)ᵀ, equals h_tᵀ of (5)–(6) at every t \
         (rounding 2(4γ_{d_k+1}S + γ_{T+4})Σ_i w_i‖v_i‖∞, S the largest |β|Σ_k|q_ik k_k|); T ≤ 6, d, d_k, H ≤ 3.",
        property([200, 2000, 20000], matrix_forms(), |c: &MatrixForm| matches_hidden(c, false))
            .sides("‖Softmax(βKQᵀ)V − h_tᵀ‖∞", "the two evaluations' rounding"),
    )
    .source(Paper::RethinkingLrd, "§2, eq (7), corrected (proofs/decay.md)", PRINTED)
    .correction("Softmax(βKQᵀ)V.")
    .control(
        "query and key named as usual: scores β(W_Q x_t)ᵀ(W_K x_i) in place of (6)'s β(W_Q x_i)ᵀ(W_K x_t)",
        property([200, 2000, 20000], matrix_forms(), |c: &MatrixForm| matches_hidden(c, true)),
    )
}

/// Registers the eq (7) claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_eq7_printed());
    r.add(claim_eq7());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_printed_form_is_defined_only_for_one_input() {
        assert_eq!(printed_mismatch(1, 3, QReading::Row), None);
        assert_eq!(printed_mismatch(1, 3, QReading::Stacked), None);
        assert_eq!(printed_mismatch(2, 3, QReading::Row), Some((6, 3)));
        assert_eq!(printed_mismatch(2, 3, QReading::Stacked), Some((1, 2)));
    }

    #[test]
    fn the_corrected_form_is_the_hidden_state_and_the_usual_naming_is_not() {
        let c = MatrixForm {
            wq: vec![vec![1.0, 0.5]],
            wk: vec![vec![-0.25, 2.0]],
            wv: vec![vec![1.0, -1.0], vec![0.5, 0.0]],
            beta: 1.0,
            x: vec![vec![0.5, -1.0], vec![1.0, 0.25], vec![-0.75, 0.5]],
            t: 2,
        };
        // By hand: q_i = x_i1 + x_i2/2 = (0, 1.125, −0.5), k = −x_21/4 + 2x_22 = 0.25, so the
        // scores of (6) are (0, 0.28125, −0.125); the usual naming scores (W_Q x_t)(W_K x_i)
        // = 1.125·(−2.125, 0.25, 1.1875).
        let (w, v) = ([0.0f64, 0.28125, -0.125].map(f64::exp), [[1.5, 0.25], [0.75, 0.5], [-1.25, -0.375]]);
        let z: f64 = w.iter().sum();
        let h: Vec<f64> = (0..2).map(|n| (0..3).map(|i| w[i] / z * v[i][n]).sum()).collect();
        for (a, b) in c.corrected(false).iter().zip(&h) {
            assert!((a - b).abs() < 1e-15, "{a} vs {b}");
        }
        assert!(!matches_hidden(&c, false).refutes());
        assert!(matches_hidden(&c, true).refutes());
        assert!(printed(&c).refutes());
        assert!(!printed(&MatrixForm { x: vec![vec![0.5, -1.0]], t: 1, ..c }).refutes());
    }
}
