//! Synthetic sequence tasks the recall and copy constructions are run on: multi-query associative
//! recall ([`mqar`]), induction heads ([`induction`]), the associative-recall variants of 002
//! ([`associative_recall`]), COPY with the string-copying task of 003 ([`copy`]) and 000's Keep
//! n-th with integer tokens, on which models are trained ([`keep_nth`]). (003's
//! dynamic programs with chain of thought are the references of the models that run them:
//! [`crate::model::dp`].) Every generator draws from a [`Stream`], so an instance is
//! reproducible from (seed, claim, instance index).

pub mod associative_recall;
pub mod copy;
pub mod induction;
pub mod keep_nth;
pub mod mqar;

use crate::mc::Stream;

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
