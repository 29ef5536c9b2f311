//! Induction heads (Sanford et al. 2024; 000 §1.8, App. D.4): the target at t is the token that
//! followed the previous occurrence of x_t, `y_t = x_{j(t)+1}` with `j(t) = max{j < t : x_j = x_t}`,
//! or blank if x_t has not appeared before. The hard case plants a special token v* at positions
//! r and T−r (r ≤ γT) among tokens drawn from V∖{v*}, so the answer must be kept for ~T steps.

use super::uniform_index;
use crate::error::{Error, Result};
use crate::mc::Stream;

/// Induction-head targets of `tokens` (0-based positions): `None` is the blank.
pub fn targets(tokens: &[usize]) -> Vec<Option<usize>> {
    let mut last: std::collections::HashMap<usize, usize> = Default::default();
    tokens
        .iter()
        .enumerate()
        .map(|(t, &x)| {
            let y = last.get(&x).map(|&j| tokens[j + 1]);
            last.insert(x, t);
            y
        })
        .collect()
}

/// A sequence of length `len` over `vocab` tokens: with `hard`, the special token
/// `vocab − 1` sits at positions r and len−1−r (r ≥ 1 uniform up to `gap_ratio·len`) and the
/// others are uniform on the rest; otherwise all are uniform.
pub fn sample(s: &mut Stream, vocab: usize, len: usize, hard: bool, gap_ratio: f64) -> Result<Vec<usize>> {
    if vocab < 2 || len < 4 || !(gap_ratio > 0.0 && gap_ratio <= 0.5) {
        return Err(Error::InvalidParameter("induction heads needs |V| ≥ 2, T ≥ 4, 0 < γ ≤ 1/2".into()));
    }
    if !hard {
        return Ok((0..len).map(|_| uniform_index(s, vocab)).collect());
    }
    let special = vocab - 1;
    let mut x: Vec<usize> = (0..len).map(|_| uniform_index(s, vocab - 1)).collect();
    let r = 1 + uniform_index(s, ((gap_ratio * len as f64) as usize).max(1));
    x[r] = special;
    x[len - 1 - r] = special;
    Ok(x)
}

#[cfg(test)]
mod tests {
    /// The paper's example (000 §1.8): x = [2,1,3,2,4,3,2,4] → y = [×,×,×,1,×,2,4,3].
    #[test]
    fn paper_example() {
        let y = super::targets(&[2, 1, 3, 2, 4, 3, 2, 4]);
        assert_eq!(y, vec![None, None, None, Some(1), None, Some(2), Some(4), Some(3)]);
        // A repeated token answers itself.
        assert_eq!(super::targets(&[5, 5, 5]), vec![None, Some(5), Some(5)]);
    }
}
