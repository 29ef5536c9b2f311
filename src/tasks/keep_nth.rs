//! Keep n-th (000 §4.1), the task 000's trained models are judged on, as a seeded generator.

use super::{uniform_index, Batch, TokenTask};
use crate::error::{Error, Result};
use crate::mc::{Stream, StreamKey};

/// Keep n-th (000 §4.1, App. D.2; "Keep Fifth" at n = 5): tokens `x_1..x_T` i.i.d. uniform on
/// `{0..|V|−1}`, target `y_t = x_n`. App. D.2 states the target "for n < t ≤ T" but scores the
/// predictions at t = n..T; both the loss and the accuracy here use t = n..T (which includes
/// t = n, where the model must copy its current input).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeepNth {
    /// |V|.
    pub vocab: usize,
    /// T.
    pub len: usize,
    /// n (1-based).
    pub n: usize,
}

impl KeepNth {
    /// Keep n-th with |V| ≥ 2 tokens and 1 ≤ n ≤ T.
    pub fn new(vocab: usize, len: usize, n: usize) -> Result<Self> {
        if vocab < 2 || n == 0 || n > len {
            return Err(Error::InvalidParameter(format!("keep n-th needs |V| ≥ 2 and 1 ≤ n ≤ T (got |V| = {vocab}, T = {len}, n = {n})")));
        }
        Ok(KeepNth { vocab, len, n })
    }

    /// `size` sequences drawn from stream `(seed, label)`, sequence i from instance `first + i`
    /// (so a batch is the same whatever else was drawn before it).
    pub fn batch(&self, key: StreamKey, first: u64, size: usize) -> Batch {
        let tokens: Vec<Vec<usize>> = (0..size as u64)
            .map(|i| {
                let mut s = Stream::new(key, first + i);
                (0..self.len).map(|_| uniform_index(&mut s, self.vocab)).collect()
            })
            .collect();
        let positions: Vec<usize> = (self.n - 1..self.len).collect();
        let targets = tokens.iter().map(|x| vec![x[self.n - 1]; positions.len()]).collect();
        Batch { tokens, positions, targets }
    }

    /// The accuracy of always answering the most frequent token: 1/|V| in expectation.
    pub fn chance(&self) -> f64 {
        1.0 / self.vocab as f64
    }
}

impl TokenTask for KeepNth {
    fn vocab(&self) -> usize {
        self.vocab
    }

    fn batch(&self, key: StreamKey, first: u64, size: usize) -> Batch {
        KeepNth::batch(self, key, first, size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_the_nth_token_from_position_n_on() {
        let task = KeepNth::new(8, 6, 3).unwrap();
        let b = task.batch(StreamKey::new(1, "test"), 0, 4);
        assert_eq!(b.positions, vec![2, 3, 4, 5]);
        for (x, y) in b.tokens.iter().zip(&b.targets) {
            assert_eq!(x.len(), 6);
            assert!(x.iter().all(|&v| v < 8));
            assert_eq!(y, &vec![x[2]; 4]);
        }
        // The same instances whatever the batch split.
        assert_eq!(task.batch(StreamKey::new(1, "test"), 2, 2).tokens, b.tokens[2..].to_vec());
        assert!(KeepNth::new(8, 6, 7).unwrap_err().to_string().contains("1 ≤ n ≤ T"));
    }
}
