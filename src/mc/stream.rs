//! Keyed random streams on top of Philox: uniforms in (0,1) and standard normals by
//! Box–Muller, addressable by (key, instance, draw index).
//!
//! Layout (shared with the GPU kernels): counter = [block_lo, block_hi, instance_lo,
//! instance_hi]; block `b` gives two uniforms `u1 = U(w0, w1)`, `u2 = U(w2, w3)` with
//! `U(a, b) = ((a >> 6)·2^26 + (b >> 6) + 0.5) / 2^52`, and Box–Muller turns them into the normals
//! `2b` and `2b+1`: `r = √(−2 ln u1)`, `(r cos 2πu2, r sin 2πu2)`.

use super::normals::{Fill, FillHere, Normals};
use super::philox::philox4x32_10;
use crate::math::isa::Isa;
use crate::math::vecmath::{box_muller, box_muller_pairs, u52_to_f64, BOX_MULLER_PASS};

/// The key of a family of streams: derived from the run's seed and a label (the claim id),
/// so two claims never share draws and adding a claim never changes another's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StreamKey(pub [u32; 2]);

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a, 64 bits, of `s`'s bytes (stream labels, job fingerprints).
pub fn fnv1a64(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

impl StreamKey {
    /// The key for `label` (e.g. a claim id) under `seed`.
    pub fn new(seed: u64, label: &str) -> Self {
        let k = splitmix64(seed ^ splitmix64(fnv1a64(label)));
        StreamKey([k as u32, (k >> 32) as u32])
    }
    /// The key as one 64-bit word (for JSON and kernels).
    pub fn as_u64(self) -> u64 {
        u64::from(self.0[0]) | (u64::from(self.0[1]) << 32)
    }
}

/// One instance's stream of draws, read sequentially.
#[derive(Clone, Debug)]
pub struct Stream {
    key: StreamKey,
    instance: u64,
    next_block: u64,
    spare: Option<f64>,
    /// Words of the current block not yet handed out by `RngCore` (from `word_pos` to 4).
    words: [u32; 4],
    word_pos: u8,
}

/// A uniform in the open interval (0, 1) from two 32-bit words (52 random bits, so that the
/// half-offset keeps both ends exactly representable and excluded).
#[inline(always)]
pub fn uniform_from_words(a: u32, b: u32) -> f64 {
    let hi = u64::from(a >> 6);
    let lo = u64::from(b >> 6);
    (u52_to_f64(hi << 26 | lo) + 0.5) * (1.0 / 4_503_599_627_370_496.0)
}

impl Stream {
    /// The stream of `instance` under `key`, positioned at its first draw.
    pub fn new(key: StreamKey, instance: u64) -> Self {
        Stream { key, instance, next_block: 0, spare: None, words: [0; 4], word_pos: 4 }
    }

    fn block(&mut self) -> [u32; 4] {
        let b = self.next_block;
        self.next_block += 1;
        self.block_at(b)
    }

    #[inline(always)]
    fn block_at(&self, b: u64) -> [u32; 4] {
        let ctr = [b as u32, (b >> 32) as u32, self.instance as u32, (self.instance >> 32) as u32];
        philox4x32_10(ctr, self.key.0)
    }

    /// The normal pairs of the next `out.len()/2` blocks (even length): the uniforms of up to
    /// [`BOX_MULLER_PASS`] blocks (Philox, vectorised across blocks), then
    /// [`box_muller_pairs`] on them.
    #[inline(always)]
    fn fill_pairs(&mut self, out: &mut [f64]) {
        let (mut u1, mut u2) = ([0.0; BOX_MULLER_PASS], [0.0; BOX_MULLER_PASS]);
        for chunk in out.chunks_mut(2 * BOX_MULLER_PASS) {
            let n = chunk.len() / 2;
            let b0 = self.next_block;
            for (j, (a, b)) in u1[..n].iter_mut().zip(&mut u2[..n]).enumerate() {
                let w = self.block_at(b0 + j as u64);
                *a = uniform_from_words(w[0], w[1]);
                *b = uniform_from_words(w[2], w[3]);
            }
            box_muller_pairs(&u1[..n], &u2[..n], chunk);
            self.next_block += n as u64;
        }
    }

    /// Next standard normal. Normals `2b` and `2b+1` come from block `b`.
    pub fn normal(&mut self) -> f64 {
        if let Some(z) = self.spare.take() {
            return z;
        }
        let w = self.block();
        let (z0, z1) = box_muller(uniform_from_words(w[0], w[1]), uniform_from_words(w[2], w[3]));
        self.spare = Some(z1);
        z0
    }

    /// Next uniform in (0,1): one block per uniform (the other two words are discarded), so
    /// uniforms and normals never share a block.
    pub fn uniform(&mut self) -> f64 {
        self.spare = None;
        let w = self.block();
        uniform_from_words(w[0], w[1])
    }

    /// Uniforms two per block, as one loop the compiler vectorises: block b gives uniform 2b from
    /// its words (w₀, w₁) and uniform 2b + 1 from (w₂, w₃). `out.len()` must be even (any split
    /// into even-length calls gives the same values as one call).
    #[inline(always)]
    pub fn fill_uniform_pairs(&mut self, out: &mut [f64]) {
        assert!(out.len().is_multiple_of(2), "uniform pairs come two per block");
        self.spare = None;
        let b0 = self.next_block;
        for (j, pair) in out.chunks_exact_mut(2).enumerate() {
            let w = self.block_at(b0 + j as u64);
            pair[0] = uniform_from_words(w[0], w[1]);
            pair[1] = uniform_from_words(w[2], w[3]);
        }
        self.next_block += (out.len() / 2) as u64;
    }
}

/// The stream as a `rand_core` generator (rand 0.8 / rand_distr 0.4 / statrs): any
/// distribution can draw from it — Gamma, Student-t, heavy tails — and stay keyed by (seed,
/// claim, instance). Words are handed out four per Philox block, in order; a block used for
/// words is not used for normals or uniforms.
impl rand_core::RngCore for Stream {
    fn next_u32(&mut self) -> u32 {
        if self.word_pos == 4 {
            self.words = self.block();
            self.word_pos = 0;
        }
        let w = self.words[usize::from(self.word_pos)];
        self.word_pos += 1;
        w
    }
    fn next_u64(&mut self) -> u64 {
        rand_core::impls::next_u64_via_u32(self)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        rand_core::impls::fill_bytes_via_next(self, dest)
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl Normals for Stream {
    /// The same values as `out.len()` calls of [`Stream::normal`]. Runs a clone compiled for
    /// [`Isa::active`]'s instruction set: the same bits on each.
    fn fill(&mut self, out: &mut [f64]) {
        Isa::active().run(Fill { normals: self, out });
    }
}

impl FillHere for Stream {
    #[inline(always)]
    fn fill_here(&mut self, out: &mut [f64]) {
        let mut rest = &mut out[..];
        if !rest.is_empty() {
            if let Some(z) = self.spare.take() {
                rest[0] = z;
                rest = &mut rest[1..];
            }
        }
        let even = rest.len() & !1;
        self.fill_pairs(&mut rest[..even]);
        if even < rest.len() {
            rest[even] = self.normal();
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn rng_core_words_are_the_philox_blocks_in_order() {
        use rand_core::RngCore;
        let key = StreamKey::new(5, "rng");
        let mut s = Stream::new(key, 3);
        let block = Stream::new(key, 3).block_at(0);
        assert_eq!([s.next_u32(), s.next_u32(), s.next_u32(), s.next_u32()], block);
        assert_eq!(s.next_u64(), u64::from(Stream::new(key, 3).block_at(1)[0]) | (u64::from(Stream::new(key, 3).block_at(1)[1]) << 32));
        let mut bytes = [0u8; 5];
        s.fill_bytes(&mut bytes);
        assert_eq!(bytes[..4], Stream::new(key, 3).block_at(1)[2].to_le_bytes());
    }

    use super::*;

    #[test]
    fn block_fills_equal_single_draws_for_any_split() {
        let k = StreamKey::new(3, "fill");
        let single: Vec<f64> = {
            let mut s = Stream::new(k, 5);
            (0..37).map(|_| s.normal()).collect()
        };
        let mut s = Stream::new(k, 5);
        let mut filled = vec![0.0; 37];
        for r in [0..1, 1..2, 2..9, 9..9, 9..30, 30..37] {
            s.fill(&mut filled[r]);
        }
        assert_eq!(single, filled);
    }

    #[test]
    fn uniform_pairs_are_both_halves_of_each_block_for_any_even_split() {
        let k = StreamKey::new(3, "pairs");
        let mut whole = vec![0.0; 10];
        Stream::new(k, 2).fill_uniform_pairs(&mut whole);
        for (b, pair) in whole.chunks(2).enumerate() {
            let w = Stream::new(k, 2).block_at(b as u64);
            assert_eq!(pair, [uniform_from_words(w[0], w[1]), uniform_from_words(w[2], w[3])]);
        }
        let mut parts = vec![0.0; 10];
        let mut s = Stream::new(k, 2);
        for r in [0..2, 2..2, 2..8, 8..10] {
            s.fill_uniform_pairs(&mut parts[r]);
        }
        assert_eq!(whole, parts);
    }

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let k = StreamKey::new(7, "004.sec41");
        let a: Vec<f64> = {
            let mut s = Stream::new(k, 3);
            (0..5).map(|_| s.normal()).collect()
        };
        let b: Vec<f64> = {
            let mut s = Stream::new(k, 3);
            (0..5).map(|_| s.normal()).collect()
        };
        assert_eq!(a, b);
        let mut other = Stream::new(k, 4);
        assert_ne!(a[0], other.normal());
        assert_ne!(StreamKey::new(7, "a"), StreamKey::new(7, "b"));
        assert_ne!(StreamKey::new(7, "a"), StreamKey::new(8, "a"));
    }

    #[test]
    fn normals_have_unit_variance_and_uniforms_stay_open() {
        let mut s = Stream::new(StreamKey::new(1, "moments"), 0);
        let n = 200_000;
        let xs: Vec<f64> = (0..n).map(|_| s.normal()).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        // 5-sigma tolerances: sd(mean) = 1/√n, sd(var) ≈ √(2/n).
        assert!(mean.abs() < 5.0 / (n as f64).sqrt(), "mean {mean}");
        assert!((var - 1.0).abs() < 5.0 * (2.0 / n as f64).sqrt(), "var {var}");
        assert!(uniform_from_words(0, 0) > 0.0 && uniform_from_words(u32::MAX, u32::MAX) < 1.0);
    }

    #[test]
    fn every_instruction_set_fills_the_same_bits() {
        use super::{Fill, Isa, Stream, StreamKey};
        let run = |isa: Isa| {
            let mut out = vec![0.0; 1501];
            let mut stream = Stream::new(StreamKey::new(3, "isa"), 9);
            isa.run(Fill { normals: &mut stream, out: &mut out });
            out.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        };
        let portable = run(Isa::Portable);
        for isa in Isa::available() {
            assert_eq!(run(isa), portable, "{isa}");
        }
    }
}
