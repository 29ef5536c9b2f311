//! Synthetic sequence tasks the recall and copy constructions are run on: multi-query associative
//! recall ([`mqar`]), induction heads ([`induction`]), the associative-recall variants of 002
//! ([`associative_recall`]), COPY with the string-copying task of 003 ([`copy`]) and 000's Keep
//! n-th with integer tokens, on which models are trained ([`keep_nth`], and the copy task as
//! [`copy::StringCopy`]; both are [`TokenTask`]s). (003's
//! dynamic programs with chain of thought are the references of the models that run them:
//! [`crate::model::dp`].) Every generator draws from a [`Stream`], so an instance is
//! reproducible from (seed, claim, instance index).

pub mod associative_recall;
pub mod copy;
pub mod induction;
pub mod keep_nth;
pub mod mqar;

use crate::mc::{Stream, StreamKey};

/// A batch of token sequences of one length, with the positions scored and their targets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    /// Tokens, one row per sequence (all of one length).
    pub tokens: Vec<Vec<usize>>,
    /// The scored positions (0-based), the same in every sequence.
    pub positions: Vec<usize>,
    /// `targets[i][j]`: the target of sequence i at `positions[j]`.
    pub targets: Vec<Vec<usize>>,
}

/// A task over integer tokens that models are trained on ([`crate::train::fit`]): seeded
/// batches of sequences of one length, with a target at a fixed set of positions.
pub trait TokenTask {
    /// The vocabulary size |V| (tokens are `0..|V|`).
    fn vocab(&self) -> usize;
    /// `size` sequences drawn from `key`, sequence i from instance `first + i` (so a batch is
    /// the same whatever else was drawn before it).
    fn batch(&self, key: StreamKey, first: u64, size: usize) -> Batch;
    /// The held-out set a model is scored on: `size` sequences from `key`. By default drawn as
    /// the training batches are (`batch(key, 0, size)`); a task whose evaluation differs from
    /// its training distribution says so here (003 §4.3 trains the copy task on lengths in
    /// [N_min, N_max] and evaluates at N_max: [`copy::MixedLengthCopy`]).
    fn held_out(&self, key: StreamKey, size: usize) -> Batch {
        self.batch(key, 0, size)
    }
}

/// A uniform integer in `0..n` (n ≥ 1) from one uniform draw.
pub fn uniform_index(s: &mut Stream, n: usize) -> usize {
    ((s.uniform() * n as f64) as usize).min(n - 1)
}

/// A uniformly random permutation of `0..n` (Fisher–Yates).
pub fn permutation(s: &mut Stream, n: usize) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        p.swap(i, uniform_index(s, i + 1));
    }
    p
}
