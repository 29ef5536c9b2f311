//! Dynamic programs with chain of thought (003 §5, after Feng et al. 2024): two-string DPs whose
//! chain of thought lists every cell (longest common subsequence, edit distance, global
//! alignment), and m-local
//! recurrences (Theorem 4). These are the references the Theorem 3 and 4 machines are compared
//! with; they compute in integers.
//!
//! Token layout of a two-string DP (fixed, as Theorem 3 needs; `proofs/cot.md`): positions
//! 1…n₁ hold s⁽¹⁾, n₁+1 the first separator, then s⁽²⁾ and the second separator at
//! t_sep,2 = n₁+n₂+2, then the DP cells (i, j) in row-major order, cell (i, j) at
//! t_sep,2 + (i−1)n₂ + j, and the answer last: T = n₁ + n₂ + n₁n₂ + 3 tokens.

use serde::{Deserialize, Serialize};

/// A two-string dynamic program satisfying Assumption 2 (N_s = 2 inputs and N_dp = 3 earlier
/// cells per transition, the answer one cell).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum DpProblem {
    /// Longest common subsequence: dp(i,j) = dp(i−1,j−1) + 1 if a_i = b_j, else
    /// max(dp(i−1,j), dp(i,j−1)); dp(i,0) = dp(0,j) = 0.
    Lcs,
    /// Edit distance: dp(i,j) = min(dp(i−1,j) + 1, dp(i,j−1) + 1, dp(i−1,j−1) + 𝕀[a_i ≠ b_j]);
    /// dp(i,0) = i, dp(0,j) = j.
    EditDistance,
    /// Global alignment score (Needleman–Wunsch, match +1, mismatch −1, gap −1):
    /// dp(i,j) = max(dp(i−1,j−1) + (1 if a_i = b_j else −1), dp(i−1,j) − 1, dp(i,j−1) − 1);
    /// dp(i,0) = −i, dp(0,j) = −j. A maximisation with signed values and a negative boundary.
    Alignment,
}

impl DpProblem {
    /// Every problem.
    pub const ALL: [DpProblem; 3] = [DpProblem::Lcs, DpProblem::EditDistance, DpProblem::Alignment];

    /// The boundary value dp(i, j) when i = 0 or j = 0: w·(i + j) with w = [`DpProblem::boundary_weight`].
    pub fn boundary(self, i: i64, j: i64) -> i64 {
        self.boundary_weight() * (i + j)
    }
    /// 0 for LCS, 1 for edit distance, −1 for global alignment.
    pub fn boundary_weight(self) -> i64 {
        match self {
            DpProblem::Lcs => 0,
            DpProblem::EditDistance => 1,
            DpProblem::Alignment => -1,
        }
    }
    /// The full table, (n₁+1) × (n₂+1), boundary included.
    pub fn table(self, a: &[usize], b: &[usize]) -> Vec<Vec<i64>> {
        let mut dp = vec![vec![0i64; b.len() + 1]; a.len() + 1];
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                dp[i][j] = if i == 0 || j == 0 {
                    self.boundary(i as i64, j as i64)
                } else {
                    let same = a[i - 1] == b[j - 1];
                    match self {
                        DpProblem::Lcs if same => dp[i - 1][j - 1] + 1,
                        DpProblem::Lcs => dp[i - 1][j].max(dp[i][j - 1]),
                        DpProblem::EditDistance => (dp[i - 1][j] + 1).min(dp[i][j - 1] + 1).min(dp[i - 1][j - 1] + i64::from(!same)),
                        DpProblem::Alignment => (dp[i - 1][j - 1] + if same { 1 } else { -1 }).max(dp[i - 1][j].max(dp[i][j - 1]) - 1),
                    }
                };
            }
        }
        dp
    }
    /// The answer dp(n₁, n₂).
    pub fn answer(self, a: &[usize], b: &[usize]) -> i64 {
        self.table(a, b)[a.len()][b.len()]
    }
    /// The chain of thought: inputs, separators, every cell, the answer.
    pub fn chain_of_thought(self, a: &[usize], b: &[usize]) -> Vec<CotToken> {
        let table = self.table(a, b);
        let mut out: Vec<CotToken> = a.iter().map(|&s| CotToken::Input { symbol: s }).collect();
        out.push(CotToken::Separator { index: 1 });
        out.extend(b.iter().map(|&s| CotToken::Input { symbol: s }));
        out.push(CotToken::Separator { index: 2 });
        for (i, row) in table.iter().enumerate().skip(1) {
            out.extend(row.iter().enumerate().skip(1).map(|(j, &value)| CotToken::Cell { i, j, value }));
        }
        out.push(CotToken::Answer { value: table[a.len()][b.len()] });
        out
    }
    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            DpProblem::Lcs => "LCS",
            DpProblem::EditDistance => "edit distance",
            DpProblem::Alignment => "global alignment",
        }
    }
}

/// The total length T = n₁ + n₂ + n₁n₂ + 3 of a two-string chain of thought.
pub fn cot_len(n1: usize, n2: usize) -> usize {
    n1 + n2 + n1 * n2 + 3
}

/// One token of a two-string chain of thought.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CotToken {
    /// An input symbol (1-based alphabet index).
    Input {
        /// The symbol.
        symbol: usize,
    },
    /// The separator `|` ending input `index` (1 or 2).
    Separator {
        /// Which input it ends.
        index: usize,
    },
    /// A DP cell (i, dp(i, j)).
    Cell {
        /// Row (1-based).
        i: usize,
        /// Column (1-based).
        j: usize,
        /// dp(i, j).
        value: i64,
    },
    /// The final answer.
    Answer {
        /// f_A of the answer cells.
        value: i64,
    },
}

/// An m-local recurrence (Theorem 4): `o_i = (Σ_{k=1}^{m} c_k·o_{i−k}) mod p` for i > m, with
/// o_1…o_m given; each output depends on the m before it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocalRecurrence {
    /// p.
    pub modulus: u64,
    /// c_1…c_m in 0..p (c_m ≠ 0, so the window is exactly m).
    pub coeffs: Vec<u64>,
    /// o_1…o_m in 0..p.
    pub init: Vec<u64>,
}

impl LocalRecurrence {
    /// m.
    pub fn order(&self) -> usize {
        self.coeffs.len()
    }
    /// o_1…o_len (len ≥ m).
    pub fn sequence(&self, len: usize) -> Vec<u64> {
        let m = self.order();
        let mut o = self.init.clone();
        while o.len() < len {
            let i = o.len();
            o.push((1..=m).map(|k| self.coeffs[k - 1] * o[i - k]).sum::<u64>() % self.modulus);
        }
        o.truncate(len.max(m));
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_of_known_pairs() {
        // "kitten" / "sitting": edit distance 3, LCS 4 ("ittn").
        let enc = |s: &str| s.bytes().map(|c| (c - b'a' + 1) as usize).collect::<Vec<_>>();
        let (a, b) = (enc("kitten"), enc("sitting"));
        assert_eq!(DpProblem::EditDistance.answer(&a, &b), 3);
        assert_eq!(DpProblem::Lcs.answer(&a, &b), 4);
        // Global alignment: 4 matches (i, t, t, n), k/s and e/i mismatched, g against a gap.
        assert_eq!(DpProblem::Alignment.answer(&a, &b), 1);
        // Identical strings score their length; disjoint ones −max(n, m) (min(n, m) mismatches
        // and |n − m| gaps).
        assert_eq!(DpProblem::Alignment.answer(&a, &a), 6);
        assert_eq!(DpProblem::Alignment.answer(&[1, 1, 1], &[2, 2, 2, 2, 2]), -5);
        let cot = DpProblem::Lcs.chain_of_thought(&a, &b);
        assert_eq!(cot.len(), cot_len(6, 7));
        assert_eq!(cot[6], CotToken::Separator { index: 1 });
    }

    #[test]
    fn fibonacci_mod_p_is_two_local() {
        let r = LocalRecurrence { modulus: 10, coeffs: vec![1, 1], init: vec![1, 1] };
        assert_eq!(r.sequence(8), vec![1, 1, 2, 3, 5, 8, 3, 1]);
    }
}
