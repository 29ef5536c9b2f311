//! The choice sequence: the bytes a strategy reads to build a value, recorded from a draw
//! ([`record`]), fed back ([`replay`]), and edited ([`boundary`], [`between`], [`mutate`],
//! [`shorten`]); and whether a draw can be replayed at all ([`replayable`]: a strategy that forks
//! its RNG leaves a replay too few bytes).

use crate::mc::Stream;
use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// The bytes a strategy read to build one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choices(pub Vec<u8>);

/// The runner configuration for one draw: no persistence, and a filter that cannot be met by
/// replayed bytes gives up quickly.
fn config() -> Config {
    Config { cases: 1, failure_persistence: None, max_local_rejects: 256, ..Config::default() }
}

/// Draws one value tree from `seed` and records the bytes it read.
pub fn record<S: Strategy>(strategy: &S, seed: &[u8; 32]) -> Option<(S::Tree, Choices)> {
    let mut runner = TestRunner::new_with_rng(config(), TestRng::from_seed(RngAlgorithm::Recorder, seed));
    let tree = strategy.new_tree(&mut runner).ok()?;
    Some((tree, Choices(runner.bytes_used())))
}

/// Where a recorded draw forked its RNG: the offsets, in its choice sequence, at which the
/// strategy split off a child RNG (`prop_oneof!` for each arm before the one it picks,
/// `prop_flat_map` once, `prop_perturb`, `Just`-free lazy arms). `None` when the bytes cannot be
/// aligned with the seed's ChaCha stream (a read of part of a word).
///
/// A recording RNG forks by drawing a child seed from its ChaCha stream without recording it,
/// so the recorded bytes are the stream with one gap per fork: walking both, a gap is where
/// they stop agreeing, and it ends where two stream words (64 bits: a chance agreement has
/// probability 2⁻⁶⁴ per place) agree with the record again.
pub fn fork_offsets(seed: &[u8; 32], choices: &Choices) -> Option<Vec<usize>> {
    use proptest::prelude::Rng as _;
    /// The longest gap searched for (in words): 128 consecutive forks of 32 words each.
    const MAX_GAP: usize = 4096;
    let r = &choices.0;
    let mut stream = TestRng::from_seed(RngAlgorithm::ChaCha, seed);
    let mut window: std::collections::VecDeque<[u8; 4]> = std::collections::VecDeque::new();
    let mut next = |window: &mut std::collections::VecDeque<[u8; 4]>, k: usize| {
        while window.len() < k {
            window.push_back(stream.next_u32().to_le_bytes());
        }
    };
    // Whether `words` stream words from `at` agree with the record from byte `i`.
    let agrees = |window: &std::collections::VecDeque<[u8; 4]>, i: usize, at: usize, words: usize| {
        (0..words).all(|k| {
            let from = i + 4 * k;
            let n = r.len().saturating_sub(from).min(4);
            n == 0 || window[at + k][..n] == r[from..from + n]
        })
    };
    let mut forks = vec![];
    let mut i = 0;
    while i < r.len() {
        next(&mut window, 2);
        if agrees(&window, i, 0, 1) {
            window.pop_front();
            i += 4;
            continue;
        }
        next(&mut window, MAX_GAP + 2);
        let gap = (1..=MAX_GAP).find(|&g| agrees(&window, i, g, 2))?;
        window.drain(..gap);
        // Consecutive forks leave one gap of several child seeds.
        forks.extend(std::iter::repeat_n(i, gap.div_ceil(words_per_fork())));
    }
    Some(forks)
}

/// Whether the search can replay a draw of `seed` from its recorded `choices`: `Err(forks)` when
/// its forks would leave the replay too few bytes (`forks`: how often it forked, `usize::MAX` when
/// its bytes could not be aligned with the seed's stream).
pub fn replayable(seed: &[u8; 32], choices: &Choices) -> Result<(), usize> {
    match fork_offsets(seed, choices) {
        Some(forks) if !replay_runs_dry(choices.0.len(), &forks) => Ok(()),
        forks => Err(forks.map_or(usize::MAX, |f| f.len())),
    }
}

/// How many stream words one fork of a recording RNG draws for its child's seed (32 with
/// proptest 1.12 and rand 0.10, which draw each of the seed's 32 bytes from its own word),
/// measured once on a strategy that forks exactly once between two reads, so the count
/// follows the versions the suite is built with.
fn words_per_fork() -> usize {
    static WORDS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *WORDS.get_or_init(|| {
        use proptest::prelude::Rng as _;
        // A union picks its second arm here only after forking once for the first: find a
        // seed that picks it, then measure the gap between its pick and its value.
        let union = proptest::prop_oneof![proptest::strategy::Just(0u32), 0u32..u32::MAX];
        for k in 0..=255u8 {
            let Some((tree, c)) = record(&union, &[k; 32]) else { continue };
            if proptest::strategy::ValueTree::current(&tree) == 0 || c.0.len() < 8 {
                continue;
            }
            let value = u32::from_le_bytes(c.0[c.0.len() - 4..].try_into().expect("4 bytes"));
            let mut stream = TestRng::from_seed(RngAlgorithm::ChaCha, &[k; 32]);
            let before = (c.0.len() - 4) / 4;
            if let Some(at) = (0..4096).position(|_| stream.next_u32() == value) {
                return at.saturating_sub(before).max(1);
            }
        }
        1
    })
}

/// The bytes a replay keeps readable past a recorded draw's end, for edits that read more: a
/// draw whose forks would leave less is not replayed ([`replay_runs_dry`]).
pub const REPLAY_HEADROOM: usize = 4096;

/// Whether replaying a draw of `len` bytes that forked at `forks` (offsets, from
/// [`fork_offsets`]) would run out of bytes before its end plus [`REPLAY_HEADROOM`].
///
/// proptest's pass-through RNG gives a fork the second half of the bytes it has left and keeps
/// the first half, so each fork halves what the strategy can still read; past the end it reads
/// zeros, and a rejection sampler (an integer range whose size is not a power of two) never
/// accepts an all-zero word: the replay would spin forever. `prop_oneof!` forks once per arm
/// before the one it picks, so a vector of twenty unions forks about twenty times and exhausts
/// any buffer. The search checks every random draw with this before it replays any.
pub fn replay_runs_dry(len: usize, forks: &[usize]) -> bool {
    let mut end = len + REPLAY_TAIL;
    for &at in forks {
        if at >= end {
            return true;
        }
        end = at + (end - at) / 2;
    }
    end < len + REPLAY_HEADROOM
}

/// The tail a search replay appends to a choice sequence (1 MiB).
const REPLAY_TAIL: usize = 1 << 20;

/// Bytes read after a choice sequence ends: a fixed pseudo-random tail (splitmix64 from 0), not
/// zeros — rand's rejection samplers reject the all-zero word, so an endless run of zeros would
/// never yield a value. 16 MiB: a value tree regenerates inner values from it while it shrinks
/// (`prop_flat_map`), up to the judge's 2048 shrink steps; building one value reads far less.
fn tail() -> &'static [u8] {
    static TAIL: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    TAIL.get_or_init(|| {
        let mut z = 0u64;
        (0..(1 << 21))
            .flat_map(|_| {
                z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut x = z;
                x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                (x ^ (x >> 31)).to_le_bytes()
            })
            .collect()
    })
}

/// Rebuilds the value that `choices` encode (bytes past the end come from the first MiB of a
/// fixed tail, room for an edited size word to grow a value a hundredfold): for the search,
/// which only reads the tree's current value. A strategy that reads past the tail reads zeros,
/// which rand's rejection samplers never accept: values must stay below about a MiB of draws,
/// and a strategy that forks its RNG often must not be replayed at all ([`replay_runs_dry`]).
pub fn replay<S: Strategy>(strategy: &S, choices: &Choices) -> Option<S::Tree> {
    replay_with_tail(strategy, choices, REPLAY_TAIL)
}

/// Rebuilds the value tree that `choices` encode, followed by the whole 16 MiB tail: for
/// shrinking, which may regenerate parts of the value from the bytes that follow.
pub fn replay_to_shrink<S: Strategy>(strategy: &S, choices: &Choices) -> Option<S::Tree> {
    replay_with_tail(strategy, choices, tail().len())
}

fn replay_with_tail<S: Strategy>(strategy: &S, choices: &Choices, tail_len: usize) -> Option<S::Tree> {
    let mut data = Vec::with_capacity(choices.0.len() + tail_len);
    data.extend_from_slice(&choices.0);
    data.extend_from_slice(&tail()[..tail_len]);
    let mut runner = TestRunner::new_with_rng(config(), TestRng::from_seed(RngAlgorithm::PassThrough, &data));
    strategy.new_tree(&mut runner).ok()
}

fn words(c: &Choices) -> Vec<u32> {
    c.0.chunks(4)
        .map(|b| {
            let mut w = [0u8; 4];
            w[..b.len()].copy_from_slice(b);
            u32::from_le_bytes(w)
        })
        .collect()
}

fn bytes(w: &[u32]) -> Choices {
    Choices(w.iter().flat_map(|x| x.to_le_bytes()).collect())
}

/// A word log-uniformly close to 0: `⌊2^{32u}⌋ − 1` for uniform `u`.
fn near_zero(s: &mut Stream) -> u32 {
    (2f64.powf(32.0 * s.uniform()) - 1.0).floor().min(u32::MAX as f64) as u32
}

/// A word biased to the edges: uniform half the time, else exactly 0 or `u32::MAX`, or
/// log-uniformly close to either.
fn edge_word(s: &mut Stream) -> u32 {
    let u = s.uniform();
    if u < 0.5 {
        (s.uniform() * 4_294_967_296.0) as u32
    } else if u < 0.625 {
        0
    } else if u < 0.75 {
        u32::MAX
    } else if u < 0.875 {
        near_zero(s)
    } else {
        u32::MAX - near_zero(s)
    }
}

/// A fresh choice sequence of `len` bytes, each word biased to the edges ([`Phase::Boundary`](super::Phase::Boundary)).
pub fn boundary(len: usize, s: &mut Stream) -> Choices {
    let w: Vec<u32> = (0..len.div_ceil(4)).map(|_| edge_word(s)).collect();
    bytes(&w)
}

/// The point a fraction `t` of the way from `from` to `to`, word by word (for bisecting toward a
/// hypothesis's edge; monotone word-to-value maps make it a segment in parameter space).
pub fn between(from: &Choices, to: &Choices, t: f64) -> Choices {
    let (a, b) = (words(from), words(to));
    let n = a.len().max(b.len());
    let w: Vec<u32> = (0..n)
        .map(|i| {
            let (x, y) = (f64::from(a.get(i).copied().unwrap_or(0)), f64::from(b.get(i).copied().unwrap_or(0)));
            (x + t * (y - x)).round() as u32
        })
        .collect();
    bytes(&w)
}

/// A random neighbour of `c`: one or a few words nudged by about `2^sigma` (saturating at the
/// ends), set to an edge, copied onto another word, or redrawn. `sigma` is in bits (0..32).
pub fn mutate(c: &Choices, sigma: f64, s: &mut Stream) -> Choices {
    let mut w = words(c);
    if w.is_empty() {
        return boundary(16, s);
    }
    let pick = |s: &mut Stream, n: usize| ((s.uniform() * n as f64) as usize).min(n - 1);
    let nudge = |x: u32, s: &mut Stream| {
        let d = s.normal() * 2f64.powf(sigma);
        (f64::from(x) + d).round().clamp(0.0, u32::MAX as f64) as u32
    };
    let u = s.uniform();
    if u < 0.55 {
        let i = pick(s, w.len());
        w[i] = nudge(w[i], s);
    } else if u < 0.7 {
        for _ in 0..2 + pick(s, 3) {
            let i = pick(s, w.len());
            w[i] = nudge(w[i], s);
        }
    } else if u < 0.82 {
        let i = pick(s, w.len());
        w[i] = edge_word(s);
    } else if u < 0.92 {
        let (i, j) = (pick(s, w.len()), pick(s, w.len()));
        w[j] = w[i];
    } else {
        let i = pick(s, w.len());
        w[i] = (s.uniform() * 4_294_967_296.0) as u32;
    }
    bytes(&w)
}

/// The choices with word `i`'s lowest `bits` bits cleared (`None` when nothing changes): a
/// range's value moves to a shorter dyadic.
pub fn shorten(c: &Choices, i: usize, bits: u32) -> Option<Choices> {
    let mut w = words(c);
    let x = *w.get(i)?;
    let y = if bits >= 32 { 0 } else { x & !((1u32 << bits) - 1) };
    (y != x).then(|| {
        w[i] = y;
        bytes(&w)
    })
}

/// The number of words in a choice sequence.
pub fn word_count(c: &Choices) -> usize {
    c.0.len().div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::StreamKey;
    use proptest::strategy::ValueTree;

    fn stream() -> Stream {
        Stream::new(StreamKey::new(1, "search-test"), 0)
    }

    #[test]
    fn recorded_choices_replay_to_the_same_value() {
        let strategy = (1usize..=4).prop_flat_map(|n| (proptest::collection::vec(-3.0..3.0f64, n), 0i64..100));
        for k in 0..50u8 {
            let (tree, choices) = record(&strategy, &[k; 32]).unwrap();
            assert_eq!(replay(&strategy, &choices).unwrap().current(), tree.current());
        }
    }

    #[test]
    fn edge_words_reach_range_ends_and_thin_corners() {
        let strategy = crate::strategy::real(0.0, 1.0);
        let mut s = stream();
        let values: Vec<f64> = (0..400).map(|_| replay(&strategy, &boundary(8, &mut s)).unwrap().current()).collect();
        assert!(values.contains(&0.0), "the low end");
        assert!(values.iter().any(|&v| v > 0.0 && v < 1e-4), "log-uniformly near the low end");
        assert!(values.iter().any(|&v| v > 1.0 - 1e-4), "near the high end");
    }

    #[test]
    fn mutation_stays_in_the_domain_and_moves_locally() {
        let strategy = (0i64..1000, 0i64..1000).prop_filter("sorted", |(a, b)| a <= b);
        let (tree, c) = record(&strategy, &[7; 32]).unwrap();
        let mut s = stream();
        let mut near = 0;
        for _ in 0..200 {
            if let Some(t) = replay(&strategy, &mutate(&c, 20.0, &mut s)) {
                let (a, b) = t.current();
                assert!(a <= b);
                let (a0, b0) = tree.current();
                near += usize::from((a - a0).abs() <= 2 && (b - b0).abs() <= 2);
            }
        }
        assert!(near > 50, "small nudges give nearby values ({near} of 200)");
    }

    #[test]
    fn forks_are_found_where_a_union_or_a_flat_map_splits_the_rng() {
        // No fork: ranges and vectors read the stream in order.
        let plain = proptest::collection::vec(0.0..1.0f64, 30);
        for k in 0..20u8 {
            let (_, c) = record(&plain, &[k; 32]).unwrap();
            assert_eq!(fork_offsets(&[k; 32], &c), Some(vec![]));
        }
        // prop_oneof! forks once per arm before its pick: the last of three arms forks twice.
        let union = proptest::prop_oneof![0.0..1.0f64, 1.0..2.0f64, 2.0..3.0f64];
        let mut seen = [false; 3];
        for k in 0..60u8 {
            let (tree, c) = record(&union, &[k; 32]).unwrap();
            let arm = tree.current().floor() as usize;
            seen[arm] = true;
            assert_eq!(fork_offsets(&[k; 32], &c).map(|f| f.len()), Some(arm), "value {}", tree.current());
        }
        assert_eq!(seen, [true; 3]);
        // The suite's one_of reads one word and never forks.
        let one = crate::strategy::edge_biased(0.0, 1.0);
        for k in 0..20u8 {
            let (_, c) = record(&proptest::collection::vec(one.clone(), 40), &[k; 32]).unwrap();
            assert_eq!(fork_offsets(&[k; 32], &c), Some(vec![]));
        }
    }

    #[test]
    fn a_vector_of_unions_runs_dry_and_a_flat_map_does_not() {
        let unions = proptest::collection::vec(proptest::prop_oneof![1 => 0.0..1.0f64, 7 => 1.0..2.0f64], 40);
        let (_, c) = record(&unions, &[3; 32]).unwrap();
        let forks = fork_offsets(&[3; 32], &c).unwrap();
        assert!(forks.len() > 25, "{} forks", forks.len());
        assert!(replay_runs_dry(c.0.len(), &forks));
        // A flat map forks after its last read (a child for regenerating while shrinking):
        // nothing the replay reads comes after it.
        let sized = (1usize..=8).prop_flat_map(|n| proptest::collection::vec(0.0..1.0f64, n));
        let (_, c) = record(&sized, &[3; 32]).unwrap();
        let forks = fork_offsets(&[3; 32], &c).unwrap();
        assert!(forks.is_empty() && !replay_runs_dry(c.0.len(), &forks));
        assert_eq!(words_per_fork(), 32, "proptest 1.12 with rand 0.10");
    }

    #[test]
    fn between_and_shorten_edit_words() {
        let a = bytes(&[0, 100]);
        let b = bytes(&[100, 0]);
        assert_eq!(words(&between(&a, &b, 0.25)), vec![25, 75]);
        assert_eq!(words(&shorten(&bytes(&[0b1011]), 0, 2).unwrap()), vec![0b1000]);
        assert!(shorten(&bytes(&[0b1000]), 0, 2).is_none());
        assert_eq!(word_count(&Choices(vec![1, 2, 3, 4, 5])), 2);
    }
}
