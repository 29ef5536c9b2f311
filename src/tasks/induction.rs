//! Induction heads (Sanford et al. 2024; 000 §1.8, App. D.4): the target at t is the token that
//! followed the previous occurrence of x_t, `y_t = x_{j(t)+1}` with `j(t) = max{j < t : x_j = x_t}`,
//! or blank if x_t has not appeared before. The hard case plants a special token v* at positions
//! r and T−r (r ≤ γT) among tokens drawn from V∖{v*}, so the answer must be kept for ~T steps.

use super::{uniform_index, Batch, TokenTask};
use crate::error::{Error, Result};
use crate::mc::{Stream, StreamKey};

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

/// 000 App. D.4's data for training, as the paper generates it: with probability p a hard
/// sequence — a special token v* drawn uniformly from V, the other tokens i.i.d. uniform on
/// V∖{v*}, and v* placed at positions r and T − r (1-based) with r uniform on {1, …, ⌊γT⌋} —
/// and otherwise a standard one (i.i.d. uniform on V). Every position is scored; its target is
/// the induction-head answer, or the blank token |V| (so a model has |V| + 1 output classes).
///
/// (The recall family's [`sample`] plants the special token |V| − 1 at r and T − 1 − r: a
/// construction that is exact on every sequence does not care which token is special, but a
/// trained model could learn a fixed one.)
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InductionHeads {
    /// |V|.
    pub vocab: usize,
    /// T.
    pub len: usize,
    /// p, the probability of a hard sequence.
    pub hard_probability: f64,
    /// γ, the special range ratio.
    pub gap_ratio: f64,
}

impl InductionHeads {
    /// App. D.4's generator; it requires T > 2|V| + 1, p ∈ [0, 1] and γ ∈ (0, 0.1] as the paper
    /// does, and ⌊γT⌋ ≥ 1.
    pub fn new(vocab: usize, len: usize, hard_probability: f64, gap_ratio: f64) -> Result<Self> {
        if vocab < 2
            || len <= 2 * vocab + 1
            || !(0.0..=1.0).contains(&hard_probability)
            || !(gap_ratio > 0.0 && gap_ratio <= 0.1)
            || (gap_ratio * len as f64) < 1.0
        {
            return Err(Error::InvalidParameter(format!(
                "induction heads (000 App. D.4) needs |V| ≥ 2, T > 2|V| + 1, p ∈ [0, 1], γ ∈ (0, 0.1] and γT ≥ 1 (got |V| = {vocab}, T = {len}, p = {hard_probability}, γ = {gap_ratio})"
            )));
        }
        Ok(InductionHeads { vocab, len, hard_probability, gap_ratio })
    }

    /// One sequence and, for a hard one, the 0-based position of v*'s second occurrence (T − r).
    pub fn draw(&self, s: &mut Stream) -> (Vec<usize>, Option<usize>) {
        if s.uniform() >= self.hard_probability {
            return ((0..self.len).map(|_| uniform_index(s, self.vocab)).collect(), None);
        }
        let special = uniform_index(s, self.vocab);
        let mut x: Vec<usize> = (0..self.len)
            .map(|_| {
                let v = uniform_index(s, self.vocab - 1);
                v + usize::from(v >= special)
            })
            .collect();
        let r = 1 + uniform_index(s, (self.gap_ratio * self.len as f64) as usize);
        x[r - 1] = special;
        x[self.len - r - 1] = special;
        (x, Some(self.len - r - 1))
    }

    /// The [`TokenTask`] batch and, for each sequence, the position of v*'s second occurrence
    /// when it is hard ([`InductionHeads::draw`]).
    pub fn batch_with_gaps(&self, key: StreamKey, first: u64, size: usize) -> (Batch, Vec<Option<usize>>) {
        let (tokens, gaps): (Vec<Vec<usize>>, Vec<Option<usize>>) = (0..size as u64).map(|i| self.draw(&mut Stream::new(key, first + i))).unzip();
        let targets = tokens.iter().map(|x| targets(x).into_iter().map(|y| y.unwrap_or(self.vocab)).collect()).collect();
        (Batch { tokens, positions: (0..self.len).collect(), targets }, gaps)
    }

    /// The blank token: |V|.
    pub fn blank(&self) -> usize {
        self.vocab
    }
}

impl TokenTask for InductionHeads {
    fn vocab(&self) -> usize {
        self.vocab
    }

    fn batch(&self, key: StreamKey, first: u64, size: usize) -> Batch {
        self.batch_with_gaps(key, first, size).0
    }
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

    /// App. D.4's hard sequences: v* twice, at r and T − r (1-based), nowhere else; the standard
    /// ones uniform; the share of hard ones near p; targets blank at first occurrences.
    #[test]
    fn the_paper_s_generator() {
        let task = super::InductionHeads::new(5, 40, 0.75, 0.1).unwrap();
        let key = crate::mc::StreamKey::new(2, "induction-test");
        let mut hard = 0;
        for i in 0..400 {
            let (x, second) = task.draw(&mut crate::mc::Stream::new(key, i));
            assert_eq!(x.len(), 40);
            assert!(x.iter().all(|&v| v < 5));
            if let Some(p) = second {
                hard += 1;
                let special = x[p];
                let at: Vec<usize> = (0..40).filter(|&t| x[t] == special).collect();
                let r = 40 - p - 1;
                assert!((1..=4).contains(&r), "r = {r}");
                assert_eq!(at, vec![r - 1, 40 - r - 1]);
            }
        }
        // 400 draws of Bernoulli(0.75): 300 ± 8.7; 5 standard deviations.
        assert!((hard as f64 - 300.0).abs() < 44.0, "{hard} hard of 400");
        let b = super::TokenTask::batch(&task, key, 0, 3);
        assert_eq!(b.positions, (0..40).collect::<Vec<_>>());
        assert_eq!(b.targets[0][0], task.blank());
        assert!(super::InductionHeads::new(5, 11, 0.5, 0.1).is_err(), "T > 2|V| + 1");
        assert!(super::InductionHeads::new(5, 40, 0.5, 0.2).is_err(), "γ ≤ 0.1");
    }
}
