//! COPY (003 Definition 1, Assumption 1) and the string-copying task of Jelassi et al. (2024),
//! "Repeat After Me", used by 003 §4.3.
//!
//! * [`copy_outputs`]: the COPY operation `o_i = v_{pos(i)}` with `pos(i) ≤ i` supplied.
//! * [`CopyQuery`]: one query of Definition 1 at score level — the decays a_k, the scores
//!   s_j = c_iᵀb_j of every position j ≤ i against the query i, the window L, the target
//!   pos(i), δ, ε and the value bound V = M‖Δ‖∞ — with Assumption 1 as a predicate
//!   ([`CopyQuery::assumption1`]) and the exact worst-case copy error ([`CopyQuery::worst_case_error`]).
//!   A long history is a constant-decay prefix with alternating scores, so positions up to 10⁶
//!   stay a handful of numbers.
//! * [`CopyTask`]: `<BOS> s_1 … s_n <SEP> s_1 … s_n` over an alphabet, with the copy target of
//!   every position.
//! * [`StringCopy`] and [`MixedLengthCopy`]: the same sequences as [`TokenTask`](super::TokenTask)s
//!   to train on, at one length or, as 003 §4.3 trains, at lengths drawn from [N_min, N_max] and
//!   scored at N_max.

use super::uniform_index;
use crate::math::Interval;
use crate::mc::Stream;
use serde::{Deserialize, Serialize};

/// The COPY operation of Definition 1: `o_i = v_{pos(i)}` (0-based; `pos[i] ≤ i`). Returns
/// `None` when some `pos[i] > i` (COPY is causal).
pub fn copy_outputs(values: &[Vec<f64>], pos: &[usize]) -> Option<Vec<Vec<f64>>> {
    pos.iter().enumerate().map(|(i, &p)| (p <= i).then(|| values[p].clone())).collect()
}

/// One query i of Definition 1 at score level (positions 1-based, as in the paper).
///
/// Positions `1..=prefix_len` have decay `prefix_decay` and scores `±prefix_score`
/// (alternating, starting with +); positions `prefix_len + 1 ..= i` have the explicit
/// `decays` and `scores`. The query is the last position, `i = prefix_len + decays.len()`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CopyQuery {
    /// The target error ε.
    pub eps: f64,
    /// The value bound V = M‖Δ‖∞ (‖v_j‖∞ ≤ V).
    pub v_bound: f64,
    /// The matching threshold δ.
    pub delta: f64,
    /// The window L: S_i ⊆ [i − L + 1, i].
    pub window: usize,
    /// pos(i), 1-based.
    pub pos: usize,
    /// Length of the constant prefix.
    pub prefix_len: usize,
    /// Decay a_k of every prefix position.
    pub prefix_decay: f64,
    /// |s_j| of every prefix position.
    pub prefix_score: f64,
    /// a_k for k = prefix_len + 1 ..= i.
    pub decays: Vec<f64>,
    /// s_j for j = prefix_len + 1 ..= i.
    pub scores: Vec<f64>,
}

/// Assumption 1 of 003, each part as a signed margin (≥ 0 holds; strict parts are negative at
/// equality).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Assumption1 {
    /// `(s_pos − δ)/δ`: the target's score ρ = s_pos is at least δ (so pos ∈ S_i).
    pub target_score: f64,
    /// `(δ − max_{j∉window}|s_j|)/δ`, strict: positions outside the window score below δ.
    pub outside_window: f64,
    /// `1 − Σ_{j∈S_i} α_j|s_j|`, strict (Assumption 1.2).
    pub matched_mass: f64,
}

impl Assumption1 {
    /// The smallest margin: Assumption 1 holds iff it is ≥ 0.
    pub fn margin(&self) -> f64 {
        self.target_score.min(self.outside_window).min(self.matched_mass)
    }
}

/// A strict margin: exact equality counts as a violation.
fn strict(m: f64) -> f64 {
    if m > 0.0 {
        m
    } else {
        m.min(-f64::MIN_POSITIVE)
    }
}

impl CopyQuery {
    /// The query position i.
    pub fn len(&self) -> usize {
        self.prefix_len + self.decays.len()
    }
    /// Whether there is no position at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// ε′ = ε / V.
    pub fn eps_rel(&self) -> f64 {
        self.eps / self.v_bound
    }
    /// a_k (1-based).
    pub fn decay(&self, k: usize) -> f64 {
        if k <= self.prefix_len {
            self.prefix_decay
        } else {
            self.decays[k - self.prefix_len - 1]
        }
    }
    /// s_j (1-based).
    pub fn score(&self, j: usize) -> f64 {
        if j <= self.prefix_len {
            if j % 2 == 1 {
                self.prefix_score
            } else {
                -self.prefix_score
            }
        } else {
            self.scores[j - self.prefix_len - 1]
        }
    }
    /// The first position of the window, i − L + 1 (at least 1).
    pub fn window_start(&self) -> usize {
        (self.len() + 1).saturating_sub(self.window).max(1)
    }
    /// Calls `f(j, ln α_j, s_j)` for j = i down to 1, with `α_j = ∏_{k=j+1}^{i} a_k` summed in
    /// the log domain.
    pub fn for_each_term(&self, mut f: impl FnMut(usize, f64, f64)) {
        let mut log_alpha = 0.0;
        let ln_prefix = self.prefix_decay.ln();
        for j in (1..=self.len()).rev() {
            f(j, log_alpha, self.score(j));
            log_alpha += if j <= self.prefix_len { ln_prefix } else { self.decay(j).ln() };
        }
    }
    /// ln α_pos.
    pub fn log_alpha_pos(&self) -> f64 {
        (self.pos + 1..=self.len()).map(|k| self.decay(k).ln()).sum()
    }
    /// Assumption 1 for this query.
    pub fn assumption1(&self) -> Assumption1 {
        let start = self.window_start();
        let (mut outside, mut mass) = (0.0f64, 0.0);
        self.for_each_term(|j, la, s| {
            if j < start {
                outside = outside.max(s.abs());
            } else if s.abs() >= self.delta {
                mass += crate::math::exp_or_zero(la) * s.abs();
            }
        });
        let in_window = self.pos >= start && self.pos <= self.len();
        Assumption1 {
            target_score: if in_window { (self.score(self.pos) - self.delta) / self.delta } else { -1.0 },
            outside_window: strict((self.delta - outside) / self.delta),
            matched_mass: strict(1.0 - mass),
        }
    }
    /// The exact worst-case copy error over values v_j ∈ [−V, V]^d chosen independently of the
    /// scores and decays (proofs/copy.md, LB-0):
    /// `E_wc = V·(Σ_{j≠pos} α_j|s_j| + |α_pos s_pos − 1|)`, attained by `v_j = V·sign(α_j s_j)`,
    /// `v_pos = V·sign(α_pos s_pos − 1)`. Also returns `V·Σ_j α_j|s_j|`, the scale of its rounding.
    pub fn worst_case_error(&self) -> (f64, f64) {
        let (mut off, mut abs) = (0.0, 0.0);
        let mut target = 0.0;
        self.for_each_term(|j, la, s| {
            let w = crate::math::exp_or_zero(la) * s;
            abs += w.abs();
            if j == self.pos {
                target = w;
            } else {
                off += w.abs();
            }
        });
        (self.v_bound * (off + (target - 1.0).abs()), self.v_bound * (abs + 1.0))
    }
}

/// The same quantities on enclosures, for certificates: every decay, score, δ, ε and V is a
/// stored `f64`, hence exact; α_j = ∏_{k=j+1}^{i} a_k is a product of exact decays rounded
/// outward (not a sum of logarithms), so each enclosure contains the exact real value.
impl CopyQuery {
    /// [`CopyQuery::for_each_term`] on enclosures, from j = i down to `last` ≥ 1:
    /// `f(j, α_j, s_j)` with α_j enclosed.
    pub fn for_each_term_enclosed(&self, last: usize, mut f: impl FnMut(usize, Interval, f64)) {
        let mut alpha = Interval::exact(1.0);
        for j in (last.max(1)..=self.len()).rev() {
            f(j, alpha, self.score(j));
            alpha *= Interval::exact(self.decay(j));
        }
    }
    /// α_pos = ∏_{k=pos+1}^{i} a_k, enclosed.
    pub fn alpha_pos_enclosed(&self) -> Interval {
        (self.pos + 1..=self.len()).fold(Interval::exact(1.0), |a, k| a * Interval::exact(self.decay(k)))
    }
    /// ε′ = ε/V, enclosed.
    pub fn eps_rel_enclosed(&self) -> Interval {
        Interval::exact(self.eps) / Interval::exact(self.v_bound)
    }
    /// The matched mass of Assumption 1.2 at threshold `delta`, Σ α_j|s_j| over the window's
    /// positions with |s_j| ≥ `delta` (compared exactly), enclosed.
    pub fn matched_mass_enclosed(&self, delta: f64) -> Interval {
        let mut mass = Interval::exact(0.0);
        self.for_each_term_enclosed(self.window_start(), |_, alpha, s| {
            if s.abs() >= delta {
                mass += alpha * Interval::exact(s.abs());
            }
        });
        mass
    }
    /// The largest |s_j| outside the window (0 when the window starts at 1): exact.
    pub fn largest_outside_score(&self) -> f64 {
        let start = self.window_start();
        let prefix = if start > 1 && self.prefix_len > 0 { self.prefix_score.abs() } else { 0.0 };
        (self.prefix_len + 1..start).map(|j| self.score(j).abs()).fold(prefix, f64::max)
    }
    /// [`CopyQuery::worst_case_error`]'s E_wc, enclosed (one pass over all i positions).
    pub fn worst_case_error_enclosed(&self) -> Interval {
        let mut off = Interval::exact(0.0);
        let mut target = Interval::exact(0.0);
        self.for_each_term_enclosed(1, |j, alpha, s| {
            let w = alpha * Interval::exact(s);
            if j == self.pos {
                target = w;
            } else {
                off += w.abs();
            }
        });
        Interval::exact(self.v_bound) * (off + (target - Interval::exact(1.0)).abs())
    }
}

/// A token of the copy task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CopyToken {
    /// Beginning of sequence.
    Bos,
    /// A symbol of the alphabet.
    Symbol(usize),
    /// The separator after which the string is repeated.
    Sep,
}

/// The copy task's sizes (Jelassi et al. 2024: string length uniform in `[min_len, max_len]`,
/// symbols i.i.d. uniform; 003 §4.3 does not state the alphabet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CopyTask {
    /// Alphabet size K.
    pub alphabet: usize,
    /// Shortest string.
    pub min_len: usize,
    /// Longest string.
    pub max_len: usize,
}

/// One copy-task sequence `<BOS> s_1 … s_n <SEP> s_1 … s_n` and the copy target of every
/// position (next-token prediction: at `<SEP>` and at the m-th repeated symbol the next token
/// is s_{m+1}, held at position m + 1; elsewhere a position copies itself).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CopyInstance {
    /// The tokens.
    pub tokens: Vec<CopyToken>,
    /// pos(i) ≤ i, 0-based.
    pub pos: Vec<usize>,
}

impl CopyTask {
    /// The one-hot width of a token: the alphabet plus `<BOS>` and `<SEP>`.
    pub fn width(&self) -> usize {
        self.alphabet + 2
    }
    /// Draws a sequence.
    pub fn sample(&self, s: &mut Stream) -> CopyInstance {
        let n = self.min_len + uniform_index(s, self.max_len - self.min_len + 1);
        let string: Vec<usize> = (0..n).map(|_| uniform_index(s, self.alphabet)).collect();
        let mut tokens = vec![CopyToken::Bos];
        tokens.extend(string.iter().map(|&c| CopyToken::Symbol(c)));
        tokens.push(CopyToken::Sep);
        tokens.extend(string.iter().map(|&c| CopyToken::Symbol(c)));
        let pos = (0..tokens.len()).map(|t| if t > n && t < 2 * n + 1 { t - n } else { t }).collect();
        CopyInstance { tokens, pos }
    }
    /// The one-hot embedding of a token.
    pub fn embed(&self, t: CopyToken) -> Vec<f64> {
        let mut e = vec![0.0; self.width()];
        e[match t {
            CopyToken::Symbol(c) => c,
            CopyToken::Bos => self.alphabet,
            CopyToken::Sep => self.alphabet + 1,
        }] = 1.0;
        e
    }
}

/// The copy task at one string length as integer tokens, for training
/// ([`crate::train::fit`]): `<BOS> s_1 … s_n <SEP> s_1 … s_n` with symbols `0..K`, `<BOS>` = K
/// and `<SEP>` = K + 1, the string uniform over the alphabet. Next-token prediction is scored
/// where the copy is produced: at `<SEP>` (target s_1) and at the m-th repeated symbol (target
/// s_{m+1}), m < n — n targets per sequence. (003 §4.3 trains on lengths drawn from
/// [N_min, N_max] and evaluates at N_max: [`MixedLengthCopy`].)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StringCopy {
    /// Alphabet size K ≥ 2.
    pub alphabet: usize,
    /// String length n ≥ 1.
    pub len: usize,
}

impl StringCopy {
    /// The copy task over `alphabet` ≥ 2 symbols at string length `len` ≥ 1.
    pub fn new(alphabet: usize, len: usize) -> crate::error::Result<Self> {
        if alphabet < 2 || len == 0 {
            return Err(crate::error::Error::InvalidParameter(format!(
                "string copying needs an alphabet of ≥ 2 symbols and a length ≥ 1 (got {alphabet} and {len})"
            )));
        }
        Ok(StringCopy { alphabet, len })
    }
}

impl super::TokenTask for StringCopy {
    fn vocab(&self) -> usize {
        self.alphabet + 2
    }

    fn batch(&self, key: crate::mc::StreamKey, first: u64, size: usize) -> super::Batch {
        copy_batch(self.alphabet, self.len, key, first, size)
    }
}

/// `size` copy sequences over `alphabet` symbols at string length n, sequence i from instance
/// `first + i` of `key`: `<BOS>` = `alphabet`, `<SEP>` = `alphabet + 1`, targets the n copied
/// symbols at positions n + 1 ..= 2n.
fn copy_batch(alphabet: usize, n: usize, key: crate::mc::StreamKey, first: u64, size: usize) -> super::Batch {
    copy_batch_of(alphabet, n, (first..first + size as u64).map(|i| copy_string(alphabet, n, key, i)).collect())
}

/// Instance `i` of `key`: a string of n symbols of the alphabet.
fn copy_string(alphabet: usize, n: usize, key: crate::mc::StreamKey, i: u64) -> Vec<usize> {
    let mut s = Stream::new(key, i);
    (0..n).map(|_| uniform_index(&mut s, alphabet)).collect()
}

/// The copy sequences `<BOS> x <SEP> x` of strings of length n, scored where the copy is produced.
fn copy_batch_of(alphabet: usize, n: usize, strings: Vec<Vec<usize>>) -> super::Batch {
    let tokens = strings.iter().map(|x| [&[alphabet][..], x, &[alphabet + 1], x].concat()).collect();
    super::Batch { tokens, positions: (n + 1..=2 * n).collect(), targets: strings }
}

/// The copy task as 003 §4.3 trains and scores it (App. A.5, after Jelassi et al.): the string
/// length of each training batch is drawn uniformly from [N_min, N_max], and the held-out
/// sequences are all of length N_max. The paper draws a length per instance and packs instances
/// into contexts of 220 tokens; one length per batch keeps the sequences of a batch
/// aligned and draws each sequence's length from the same distribution, so no model can copy by
/// a fixed lag. Tokens as in [`StringCopy`]. With [`MixedLengthCopy::unseen_in`] the held-out
/// strings are none of the training stream's (003 scores copying on strings the model has not
/// seen).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MixedLengthCopy {
    /// Alphabet size K ≥ 2.
    pub alphabet: usize,
    /// N_min ≥ 1.
    pub min_len: usize,
    /// N_max ≥ N_min: the held-out length.
    pub max_len: usize,
    /// The training stream whose strings the held-out set leaves out (none: every string may be
    /// held out); set by [`MixedLengthCopy::unseen_in`].
    pub excluding: Option<TrainingStream>,
}

/// The first `steps` training batches of `batch` sequences from `key`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrainingStream {
    /// The training stream's key.
    pub key: crate::mc::StreamKey,
    /// Its batches (optimiser steps).
    pub steps: usize,
    /// Sequences per batch.
    pub batch: usize,
}

impl MixedLengthCopy {
    /// Lengths in [`min_len`, `max_len`] over `alphabet` ≥ 2 symbols.
    pub fn new(alphabet: usize, min_len: usize, max_len: usize) -> crate::error::Result<Self> {
        if alphabet < 2 || min_len == 0 || max_len < min_len {
            return Err(crate::error::Error::InvalidParameter(format!(
                "string copying needs an alphabet of ≥ 2 symbols and lengths 1 ≤ N_min ≤ N_max (got {alphabet}, [{min_len}, {max_len}])"
            )));
        }
        Ok(MixedLengthCopy { alphabet, min_len, max_len, excluding: None })
    }

    /// The same task with held-out strings that are none of the length-N_max strings of
    /// `training` (as many steps as a run may take): the held-out instances of the test stream
    /// are taken in order, skipping each that occurs there, so a task whose training never
    /// meets a held-out string (16 symbols at N_max ≥ 8) holds out what it held out without the
    /// exclusion. Errs when fewer than a tenth of the K^N_max strings are left to hold out (the
    /// skipping would not end soon).
    pub fn unseen_in(self, training: TrainingStream) -> crate::error::Result<Self> {
        let strings = (self.alphabet as f64).powi(self.max_len as i32);
        let seen = self.seen(training).len() as f64;
        if strings - seen < 0.1 * strings {
            return Err(crate::error::Error::InvalidParameter(format!(
                "copying over {} symbols at N_max = {}: the training stream ({} steps of {}) holds {seen} of the {strings} strings, too many to hold out unseen ones",
                self.alphabet, self.max_len, training.steps, training.batch
            )));
        }
        Ok(MixedLengthCopy { excluding: Some(training), ..self })
    }

    /// The distinct length-N_max strings of `training`.
    fn seen(&self, training: TrainingStream) -> std::collections::HashSet<Vec<usize>> {
        (0..training.steps as u64)
            .map(|step| step * training.batch as u64)
            .filter(|&first| self.batch_len(training.key, first) == self.max_len)
            .flat_map(|first| copy_batch(self.alphabet, self.max_len, training.key, first, training.batch).targets)
            .collect()
    }

    /// The string length of the training batch whose first sequence is instance `first` of
    /// `key` (uniform on [N_min, N_max], from a stream of its own).
    pub fn batch_len(&self, key: crate::mc::StreamKey, first: u64) -> usize {
        let mut s = Stream::new(crate::mc::StreamKey::new(key.as_u64(), "string length"), first);
        self.min_len + uniform_index(&mut s, self.max_len - self.min_len + 1)
    }

    /// The share of `held_out`'s strings that are none of the length-N_max strings of the first
    /// `steps` training batches of `batch` sequences from `key` (003 scores copying on strings
    /// it has not seen; with a small alphabet and short strings most are seen).
    pub fn unseen_share(&self, held_out: &super::Batch, key: crate::mc::StreamKey, steps: usize, batch: usize) -> f64 {
        let seen = self.seen(TrainingStream { key, steps, batch });
        let unseen = held_out.targets.iter().filter(|s| !seen.contains(*s)).count();
        unseen as f64 / held_out.targets.len().max(1) as f64
    }
}

impl super::TokenTask for MixedLengthCopy {
    fn vocab(&self) -> usize {
        self.alphabet + 2
    }

    fn batch(&self, key: crate::mc::StreamKey, first: u64, size: usize) -> super::Batch {
        copy_batch(self.alphabet, self.batch_len(key, first), key, first, size)
    }

    fn held_out(&self, key: crate::mc::StreamKey, size: usize) -> super::Batch {
        let Some(training) = self.excluding else {
            return copy_batch(self.alphabet, self.max_len, key, 0, size);
        };
        // The test stream's instances in order, the first `size` that training does not hold
        // (at least a tenth of the strings: `unseen_in`).
        let seen = self.seen(training);
        let (alphabet, n) = (self.alphabet, self.max_len);
        copy_batch_of(alphabet, n, (0u64..).map(|i| copy_string(alphabet, n, key, i)).filter(|x| !seen.contains(x)).take(size).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::StreamKey;

    #[test]
    fn the_copy_task_targets_the_next_token() {
        let task = CopyTask { alphabet: 5, min_len: 3, max_len: 8 };
        for i in 0..20 {
            let inst = task.sample(&mut Stream::new(StreamKey::new(1, "copy-task"), i));
            let n = (inst.tokens.len() - 2) / 2;
            assert!((3..=8).contains(&n));
            for (t, &p) in inst.pos.iter().enumerate() {
                assert!(p <= t);
                if t > n && t < 2 * n + 1 {
                    // The token after position t is the one at pos(t).
                    assert_eq!(inst.tokens[t + 1], inst.tokens[p], "t={t}");
                }
            }
        }
        assert!(copy_outputs(&[vec![1.0], vec![2.0]], &[0, 0]).is_some());
        assert!(copy_outputs(&[vec![1.0], vec![2.0]], &[1, 1]).is_none(), "pos(1) > 1 is not causal");
    }

    /// Training batches take every length of [N_min, N_max] (each about equally often, one per
    /// batch), the held-out set is all N_max, and a string seen in training is counted as seen:
    /// with 2 symbols at N_max = 2 every held-out string is among the first 200 batches', with
    /// 16 symbols at N_max = 8 none is.
    #[test]
    fn mixed_length_copying_trains_on_an_interval_and_scores_at_its_top() {
        use crate::tasks::TokenTask;
        let key = StreamKey::new(3, "mixed copy");
        let task = MixedLengthCopy::new(16, 4, 8).unwrap();
        let mut counts = [0usize; 9];
        for step in 0..500u64 {
            let b = task.batch(key, step * 16, 16);
            let n = b.positions.len();
            assert!(b.tokens.iter().all(|t| t.len() == 2 * n + 2));
            assert_eq!(b.positions, (n + 1..=2 * n).collect::<Vec<_>>());
            counts[n] += 1;
        }
        // 500 batches over 5 lengths: each count is Binomial(500, 1/5), mean 100, sd 8.9; the
        // bounds are ±5 sd.
        assert!(counts[..4].iter().all(|&c| c == 0) && counts[4..].iter().all(|&c| (55..=145).contains(&c)), "{counts:?}");
        let held_out = task.held_out(StreamKey::new(4, "mixed copy test"), 200);
        assert!(held_out.targets.iter().all(|s| s.len() == 8));
        assert_eq!(task.unseen_share(&held_out, key, 500, 16), 1.0);
        let tiny = MixedLengthCopy::new(2, 2, 2).unwrap();
        assert_eq!(tiny.unseen_share(&tiny.held_out(key, 50), StreamKey::new(5, "other"), 200, 16), 0.0);
        assert!(MixedLengthCopy::new(16, 5, 4).unwrap_err().to_string().contains("N_min ≤ N_max"));
    }

    /// Held out unseen: at N_max = 4 over 16 symbols (003.fig2.left's quick setting) a run of
    /// 4000 steps meets some of 200 held-out strings in training (the control), and with the
    /// exclusion none; at N_max = 8 training meets none, and the exclusion changes nothing; a
    /// stream that holds nearly every string is refused.
    #[test]
    fn held_out_strings_can_be_kept_out_of_training() {
        use crate::tasks::TokenTask;
        let (train, test) = (StreamKey::new(6, "train"), StreamKey::new(6, "test"));
        let training = TrainingStream { key: train, steps: 4000, batch: 16 };
        let plain = MixedLengthCopy::new(16, 2, 4).unwrap();
        assert!(plain.unseen_share(&plain.held_out(test, 200), train, 4000, 16) < 1.0, "the control: some held-out string is seen");
        let unseen = plain.unseen_in(training).unwrap();
        let held_out = unseen.held_out(test, 200);
        assert_eq!((held_out.targets.len(), unseen.unseen_share(&held_out, train, 4000, 16)), (200, 1.0));
        assert!(held_out.tokens.iter().zip(&held_out.targets).all(|(t, x)| t[1..5] == x[..] && t[6..] == x[..]));
        let long = MixedLengthCopy::new(16, 4, 8).unwrap();
        assert_eq!(long.unseen_in(training).unwrap().held_out(test, 200), long.held_out(test, 200));
        let err = MixedLengthCopy::new(2, 2, 2).unwrap().unseen_in(TrainingStream { key: train, steps: 200, batch: 16 }).unwrap_err();
        assert!(err.to_string().contains("too many to hold out"), "{err}");
    }

    #[test]
    fn a_witness_outside_the_window_violates_the_printed_bound() {
        // i = 2, L = 1, pos = 2, a = (0.01, 0.99), δ = ε = 1e-3, s_1 = 0.999e-3 (outside the
        // window), s_2 = 0.9995 + 0.0005·(0.01/0.99).
        let q = CopyQuery {
            eps: 1e-3,
            v_bound: 1.0,
            delta: 1e-3,
            window: 1,
            pos: 2,
            prefix_len: 0,
            prefix_decay: 0.5,
            prefix_score: 0.0,
            decays: vec![0.01, 0.99],
            scores: vec![0.999e-3, 0.9995 + 0.0005 * (0.01 / 0.99)],
        };
        assert!(q.assumption1().margin() > 0.0);
        let (e, _) = q.worst_case_error();
        assert!((e - 1.484e-3).abs() < 1e-6, "{e}");
    }

    #[test]
    fn string_copy_scores_the_copy_with_the_next_symbol() {
        use crate::tasks::TokenTask;
        let task = StringCopy::new(3, 4).unwrap();
        assert!(StringCopy::new(1, 4).unwrap_err().to_string().contains("≥ 2 symbols"));
        let b = task.batch(crate::mc::StreamKey::new(1, "copy"), 0, 5);
        assert_eq!(task.vocab(), 5);
        assert_eq!(b.positions, vec![5, 6, 7, 8]);
        for (x, y) in b.tokens.iter().zip(&b.targets) {
            assert_eq!(x.len(), 10);
            assert_eq!((x[0], x[5]), (3, 4));
            assert_eq!(&x[1..5], &y[..]);
            assert_eq!(&x[6..10], &y[..]);
            // The target at position p is the token at p + 1: next-token prediction.
            for (j, &p) in b.positions.iter().enumerate() {
                assert_eq!(y[j], x[p + 1]);
            }
        }
    }
}
