//! The portable counter-based generator of the reference workloads in `benches/reference`
//! (`reference.py`, `reference.c`), so that `ssmcheck bench` runs on exactly the inputs of the numpy
//! and C references and its summaries can be compared with theirs value for value:
//!
//! ```text
//! mix64(z)          = z ^= z>>30; z *= 0xBF58476D1CE4E5B9; z ^= z>>27; z *= 0x94D049BB133111EB; z ^ z>>31
//! derive(seed, tag) = mix64(seed + (tag+1)·0xD1B54A32D192ED03)          (sub-stream seeds)
//! uniform(s, i)     = ((mix64(s + (i+1)·0x9E3779B97F4A7C15) >> 11) + 0.5)·2^−53
//! normal(s, 2p), normal(s, 2p+1) = Box–Muller on (uniform(s, 2p), uniform(s, 2p+1))
//! ```
//!
//! All arithmetic is mod 2^64. The claims themselves draw from Philox ([`super::Stream`]); this
//! generator only feeds the benchmark workloads.

use super::normals::{Fill, FillHere, Normals};
use crate::math::isa::Isa;
use crate::math::vecmath::{box_muller_pairs, u53_to_f64, BOX_MULLER_PASS};

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
const DERIVE: u64 = 0xD1B5_4A32_D192_ED03;

/// SplitMix64's finaliser.
#[inline(always)]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of sub-stream `tag` of `seed`.
pub fn derive(seed: u64, tag: u64) -> u64 {
    mix64(seed.wrapping_add(tag.wrapping_add(1).wrapping_mul(DERIVE)))
}

/// Element `i` of the uniform stream `seed`, in (0, 1).
#[inline(always)]
pub fn uniform(seed: u64, i: u64) -> f64 {
    uniform_at(seed.wrapping_add(i.wrapping_add(1).wrapping_mul(GOLDEN)))
}

/// The uniform whose counter, `seed + (i+1)·GOLDEN`, is `z`: `((mix64(z) >> 11) + 0.5)·2^−53`.
#[inline(always)]
fn uniform_at(z: u64) -> f64 {
    (u53_to_f64(mix64(z) >> 11) + 0.5) * (1.0 / 9_007_199_254_740_992.0)
}

/// Normals `[2·p0, 2·(p0 + out.len()/2))` of stream `seed` into `out` (even length): the
/// uniforms of up to [`BOX_MULLER_PASS`] pairs, then [`box_muller_pairs`] on them.
#[inline(always)]
fn normal_pairs(seed: u64, p0: u64, out: &mut [f64]) {
    let (mut u1, mut u2) = ([0.0; BOX_MULLER_PASS], [0.0; BOX_MULLER_PASS]);
    for (k, chunk) in out.chunks_mut(2 * BOX_MULLER_PASS).enumerate() {
        let n = chunk.len() / 2;
        let first = p0 + (k * BOX_MULLER_PASS) as u64;
        // The counters of uniforms 2p and 2p + 1 step by GOLDEN: added, not multiplied (AVX2 has
        // no 64-bit multiply; the same values as `uniform`).
        let mut z = seed.wrapping_add((2 * first + 1).wrapping_mul(GOLDEN));
        for (a, b) in u1[..n].iter_mut().zip(&mut u2[..n]) {
            *a = uniform_at(z);
            *b = uniform_at(z.wrapping_add(GOLDEN));
            z = z.wrapping_add(GOLDEN.wrapping_mul(2));
        }
        box_muller_pairs(&u1[..n], &u2[..n], chunk);
    }
}

/// The normal stream `seed`, read from element `next` on.
#[derive(Clone, Debug)]
pub struct PortableNormals {
    seed: u64,
    next: u64,
}

impl PortableNormals {
    /// The stream `seed` positioned at element `start`.
    pub fn new(seed: u64, start: u64) -> Self {
        PortableNormals { seed, next: start }
    }
}

impl Normals for PortableNormals {
    /// Runs a clone compiled for [`Isa::active`]'s instruction set: the same bits on each.
    fn fill(&mut self, out: &mut [f64]) {
        Isa::active().run(Fill { normals: self, out });
    }
}

impl FillHere for PortableNormals {
    #[inline(always)]
    fn fill_here(&mut self, out: &mut [f64]) {
        let mut rest = &mut out[..];
        // An odd start: the second half of a pair.
        if self.next % 2 == 1 && !rest.is_empty() {
            let mut pair = [0.0; 2];
            normal_pairs(self.seed, self.next / 2, &mut pair);
            rest[0] = pair[1];
            rest = &mut rest[1..];
            self.next += 1;
        }
        let even = rest.len() & !1;
        normal_pairs(self.seed, self.next / 2, &mut rest[..even]);
        self.next += even as u64;
        if even < rest.len() {
            let mut pair = [0.0; 2];
            normal_pairs(self.seed, self.next / 2, &mut pair);
            rest[even] = pair[0];
            self.next += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference values computed independently of this module (an earlier standalone numpy and C
    /// implementation of the generator, 2026-11-22; `benches/reference/reference.py`'s
    /// `derive`/`uniforms`/`normals` reproduce them): derive(12345, 0), the first uniforms and
    /// normals of that stream.
    #[test]
    fn matches_the_reference_implementations() {
        let s = derive(12345, 0);
        const REF_DERIVE: u64 = 11_105_673_715_571_975_583;
        const REF_UNIFORM: [f64; 4] = [0.44949555268035196, 0.6399674903107138, 0.2171675875455043, 0.36735926644343514];
        const REF_NORMAL: [f64; 5] = [-0.8062968584292713, -0.9742402240605271, -1.175025954799229, 1.2936328176449394, 1.4459805909931709];
        assert_eq!(s, REF_DERIVE);
        for (i, &u) in REF_UNIFORM.iter().enumerate() {
            assert_eq!(uniform(s, i as u64), u);
        }
        let mut x = [0.0; 5];
        PortableNormals::new(s, 0).fill(&mut x);
        for (a, b) in x.iter().zip(REF_NORMAL) {
            // Box–Muller's ln/sin/cos differ from libm/libmvec in the last place only.
            assert!((a - b).abs() <= 4e-16 * b.abs().max(1.0), "{a} vs {b}");
        }
    }

    /// The pass that steps the counters by additions gives `box_muller(uniform(s, 2p),
    /// uniform(s, 2p + 1))` bit for bit, across passes and counter wrap-around.
    #[test]
    fn the_normals_are_box_muller_of_the_uniforms() {
        for (seed, p0) in [(99u64, 0u64), (u64::MAX - 5, 1_000_003), (derive(7, 3), u64::MAX / 4 - 300)] {
            let mut out = vec![0.0; 2 * (2 * BOX_MULLER_PASS + 7)];
            normal_pairs(seed, p0, &mut out);
            for (q, pair) in out.chunks_exact(2).enumerate() {
                let p = p0 + q as u64;
                let (z0, z1) = crate::math::vecmath::box_muller(uniform(seed, 2 * p), uniform(seed, 2 * p + 1));
                assert_eq!((pair[0].to_bits(), pair[1].to_bits()), (z0.to_bits(), z1.to_bits()), "pair {p}");
            }
        }
    }

    #[test]
    fn any_split_of_the_stream_gives_the_same_values() {
        let mut whole = vec![0.0; 41];
        PortableNormals::new(99, 3).fill(&mut whole);
        let mut parts = vec![0.0; 41];
        let mut s = PortableNormals::new(99, 3);
        for r in [0..1, 1..4, 4..4, 4..19, 19..41] {
            s.fill(&mut parts[r]);
        }
        assert_eq!(whole, parts);
    }

    #[test]
    fn every_instruction_set_fills_the_same_bits() {
        let run = |isa: Isa| {
            let mut out = vec![0.0; 1500];
            isa.run(Fill { normals: &mut PortableNormals::new(17, 5), out: &mut out });
            out.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        };
        let portable = run(Isa::Portable);
        for isa in Isa::available() {
            assert_eq!(run(isa), portable, "{isa}");
        }
    }
}
