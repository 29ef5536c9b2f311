//! The associative-recall data of 002 (Le Corre, Huang, Bietti).
//!
//! * The theory distribution of Lemma 1 (002 Sec. 4, App. D): `x_0 = x_T = 0` (the key), and
//!   `x_1, …, x_{T−1}` i.i.d. uniform on the non-key tokens {1, …, n−1}; the target is x_1.
//! * Algorithm 1 (App. A), the "latest association" MQAR: chunks of up to n_ε noise values then a
//!   (key, value) pair until T − |K| tokens, then a permutation of the keys; every occurrence of
//!   a key that has been paired before is a query whose target is the value that followed its
//!   latest pairing.

use super::{permutation, uniform_index};
use crate::error::{Error, Result};
use crate::mc::Stream;

/// The theory distribution: n tokens (0 is the key), sequences x_0..x_T.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TheoryDistribution {
    /// Vocabulary size n = |V| ≥ 3.
    pub n: usize,
    /// Last position T ≥ 2 (the sequence has T+1 tokens).
    pub t: usize,
}

impl TheoryDistribution {
    /// Rejects n < 3 or T < 2.
    pub fn validate(&self) -> Result<()> {
        if self.n < 3 || self.t < 2 {
            return Err(Error::InvalidParameter(format!("002's theory distribution needs |V| ≥ 3 and T ≥ 2 (|V| = {}, T = {})", self.n, self.t)));
        }
        Ok(())
    }

    /// One sequence.
    pub fn sample(&self, s: &mut Stream) -> Vec<usize> {
        let mut x = vec![0; self.t + 1];
        for xi in &mut x[1..self.t] {
            *xi = 1 + uniform_index(s, self.n - 1);
        }
        x
    }

    /// Number of sequences, (n−1)^{T−1} (saturating).
    pub fn support_size(&self) -> u64 {
        ((self.n - 1) as u64).saturating_pow((self.t - 1) as u32)
    }

    /// Calls `f` on every sequence of the support (each has probability 1/support_size).
    pub fn for_each(&self, mut f: impl FnMut(&[usize])) {
        let mut x = vec![0; self.t + 1];
        x[1..self.t].fill(1);
        loop {
            f(&x);
            // Odometer over positions 1..T−1, digits 1..n−1.
            let mut i = 1;
            while i < self.t {
                if x[i] < self.n - 1 {
                    x[i] += 1;
                    break;
                }
                x[i] = 1;
                i += 1;
            }
            if i == self.t {
                return;
            }
        }
    }
}

/// Whether x_1 is a weak mode of x_1..x_{T−1} (no token is strictly more frequent).
pub fn first_value_is_weak_mode(x: &[usize], n: usize) -> bool {
    let mut counts = vec![0usize; n];
    for &v in &x[1..x.len() - 1] {
        counts[v] += 1;
    }
    counts.iter().all(|&c| c <= counts[x[1]])
}

/// Algorithm 1 with keys {0..keys−1}, values {keys..n−1}, uniform key and value choices, noise
/// lengths uniform on 0..=max_noise, fixed length `len` (near the end the noise is shortened and a
/// single free slot gets one noise token). Returns the tokens and the latest-association targets.
pub fn latest_association(s: &mut Stream, n: usize, keys: usize, max_noise: usize, len: usize) -> Result<(Vec<usize>, Vec<Option<usize>>)> {
    if keys == 0 || keys >= n || len < keys + 2 {
        return Err(Error::InvalidParameter("latest-association recall needs 1 ≤ |K| < |V| and T ≥ |K| + 2".into()));
    }
    let body = len - keys;
    let value = |s: &mut Stream| keys + uniform_index(s, n - keys);
    let mut x = Vec::with_capacity(len);
    while x.len() < body {
        let room = body - x.len();
        if room == 1 {
            x.push(value(s));
            break;
        }
        let noise = uniform_index(s, max_noise.min(room - 2) + 1);
        for _ in 0..noise {
            x.push(value(s));
        }
        x.push(uniform_index(s, keys));
        x.push(value(s));
    }
    x.extend(permutation(s, keys));
    let targets = latest_targets(&x, keys);
    Ok((x, targets))
}

/// `target_t = x_{j+1}` for the latest `j < t` with `x_j = x_t` a key followed by a value.
pub fn latest_targets(x: &[usize], keys: usize) -> Vec<Option<usize>> {
    let mut latest = vec![None; keys];
    let mut out = vec![None; x.len()];
    for t in 0..x.len() {
        if x[t] < keys {
            out[t] = latest[x[t]];
        }
        // Record a (key, value) pair when x_t is a value preceded by a key.
        if t >= 1 && x[t - 1] < keys && x[t] >= keys {
            latest[x[t - 1]] = Some(x[t]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 002 App. A's worked example with A, B = keys 0, 1 and X, Y, Z = values 2, 3, 4:
    /// x = [X A Y Z X B Z X X B X A B] → targets Z at 9, Y at 11, X at 12.
    #[test]
    fn paper_example_targets() {
        let x = [2, 0, 3, 4, 2, 1, 4, 2, 2, 1, 2, 0, 1];
        let y = latest_targets(&x, 2);
        let expect: Vec<Option<usize>> = (0..13)
            .map(|t| match t {
                9 => Some(4),
                11 => Some(3),
                12 => Some(2),
                _ => None,
            })
            .collect();
        assert_eq!(y, expect);
    }

    #[test]
    fn enumeration_covers_the_support_once() {
        let d = TheoryDistribution { n: 4, t: 4 };
        let mut seen = std::collections::HashSet::new();
        d.for_each(|x| {
            assert_eq!((x[0], x[4]), (0, 0));
            assert!(x[1..4].iter().all(|&v| (1..4).contains(&v)));
            seen.insert(x.to_vec());
        });
        assert_eq!(seen.len() as u64, d.support_size());
        assert!(first_value_is_weak_mode(&[0, 2, 1, 2, 0], 3) && !first_value_is_weak_mode(&[0, 1, 2, 2, 0], 3));
    }

    #[test]
    fn algorithm_1_has_the_requested_length_and_ends_with_the_keys() {
        let mut s = Stream::new(crate::mc::StreamKey::new(1, "alg1"), 0);
        let (x, y) = latest_association(&mut s, 8, 2, 3, 40).unwrap();
        assert_eq!(x.len(), 40);
        let mut tail = x[38..].to_vec();
        tail.sort_unstable();
        assert_eq!(tail, vec![0, 1]);
        assert!(y.iter().enumerate().all(|(t, v)| v.is_none() || x[t] < 2));
    }
}
