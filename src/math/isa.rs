//! The vector instruction set that the hand-vectorised Monte Carlo loops use, chosen at run
//! time.
//!
//! Every Monte Carlo hot loop runs compiled for the chosen set. Most are the portable loops
//! cloned per set (`Kernel`: the diagonal LRD paths, the tail sums, the normal generators, the
//! scan's backward pass), which is what keeps a portable build (the Python wheel's, x86-64-v2,
//! where `f64::mul_add` is otherwise a libm call) at native speed. Two loops have code of their
//! own per instruction set: the S6 selective scan ([`crate::model::selective_scan()`]) and the
//! interaction product of the Lyapunov paths ([`crate::mc::paths::interaction_paths`]). On AVX2
//! they use explicit 256-bit intrinsics that interleave independent work (the compiler's own
//! vectorisation leaves them latency-bound there); on AVX-512 the interaction product uses
//! explicit 512-bit intrinsics (the compiler splits its eight-lane dot products into 128-bit
//! pieces) and the scan the portable code compiled for AVX-512; elsewhere they run as built.
//! Every path performs the same IEEE-754 operations in the same order on every element (only
//! basic operations and fused multiply-adds, all correctly rounded), so **the results are bit
//! for bit the same whichever path runs**; each loop's tests check this on every path the CPU
//! offers.
//!
//! The choice is the best the CPU supports, or the one named by the environment variable
//! [`ISA_ENV`] (`portable`, `avx2` or `avx512`), which may only lower it: measuring the AVX2
//! path on an AVX-512 machine, say, as `SSMCHECK_ISA=avx2 ssmcheck bench w4`.

use crate::error::{Error, Result};
use std::sync::OnceLock;

/// The environment variable that lowers the instruction set ([`Isa::active`]).
pub const ISA_ENV: &str = "SSMCHECK_ISA";

/// An instruction set of the hand-vectorised loops, from the least to the most capable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Isa {
    /// The loops as the crate was compiled (whatever `target-cpu` gave them).
    Portable,
    /// x86-64 AVX2 with FMA: 256-bit intrinsics.
    Avx2,
    /// x86-64 AVX-512 (F, DQ, VL, BW): 512-bit intrinsics or the portable loops compiled for them.
    Avx512,
}

impl Isa {
    /// Every instruction set, least capable first.
    pub const ALL: [Isa; 3] = [Isa::Portable, Isa::Avx2, Isa::Avx512];

    /// Its name, as [`ISA_ENV`] and `ssmcheck bench` spell it.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }

    /// Parses a name of [`Isa::name`].
    pub fn parse(name: &str) -> Result<Isa> {
        Isa::ALL.into_iter().find(|isa| isa.name() == name.trim()).ok_or_else(|| Error::InvalidParameter(unknown(name)))
    }

    /// Whether this CPU can run it.
    pub fn supported(self) -> bool {
        match self {
            Isa::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma"),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => {
                Isa::Avx2.supported()
                    && std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512dq")
                    && std::arch::is_x86_feature_detected!("avx512vl")
                    && std::arch::is_x86_feature_detected!("avx512bw")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The most capable instruction set this CPU supports.
    pub fn detected() -> Isa {
        Isa::ALL.into_iter().rev().find(|isa| isa.supported()).unwrap_or(Isa::Portable)
    }

    /// The instruction set that [`ISA_ENV`] asks for, if it is set: an unknown name, or one this
    /// CPU cannot run, is an error (the command line refuses it before any work starts).
    pub fn from_env() -> Result<Option<Isa>> {
        let Ok(name) = std::env::var(ISA_ENV) else { return Ok(None) };
        let isa = Isa::parse(&name).map_err(|_| Error::InvalidParameter(format!("{ISA_ENV}: {}", unknown(&name))))?;
        if !isa.supported() {
            return Err(Error::InvalidParameter(format!(
                "{ISA_ENV}={}: this CPU does not support it (it supports up to {})",
                isa.name(),
                Isa::detected().name()
            )));
        }
        Ok(Some(isa))
    }

    /// The instruction set the loops use in this process: [`ISA_ENV`]'s if it is set and valid,
    /// otherwise [`Isa::detected`]. Read once.
    pub fn active() -> Isa {
        static ACTIVE: OnceLock<Isa> = OnceLock::new();
        *ACTIVE.get_or_init(|| Isa::from_env().ok().flatten().unwrap_or_else(Isa::detected))
    }

    /// The instruction sets this CPU supports, least capable first (the paths a bit-identity
    /// test compares).
    pub fn available() -> Vec<Isa> {
        Isa::ALL.into_iter().filter(|isa| isa.supported()).collect()
    }
}

/// A loop compiled once per instruction set and chosen at run time ([`Isa::run`]): the
/// `#[target_feature]` clones that `multiversion` would make, by hand. [`Kernel::run`] must be
/// `#[inline(always)]`, as must everything it calls on its hot path, so that the whole loop is
/// compiled inside each clone (a function it calls that is not inlined runs as the crate was
/// built: on an x86-64-v2 build, with `mul_add` a libm call instead of one instruction).
///
/// Only basic IEEE-754 operations and fused multiply-adds (Rust never contracts `a * b + c`
/// by itself), all correctly rounded, so every clone computes the same bits.
pub(crate) trait Kernel {
    /// What the loop returns.
    type Output;

    /// The loop.
    fn run(self) -> Self::Output;
}

impl Isa {
    /// Runs `kernel` compiled for this instruction set.
    ///
    /// # Panics
    /// If the CPU does not support it (callers pass [`Isa::active`] or a member of
    /// [`Isa::available`]).
    #[inline]
    pub(crate) fn run<K: Kernel>(self, kernel: K) -> K::Output {
        /// The AVX2 + FMA clone.
        ///
        /// # Safety
        /// The CPU must support AVX2 and FMA.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn avx2<K: Kernel>(kernel: K) -> K::Output {
            kernel.run()
        }
        /// The AVX-512 clone.
        ///
        /// # Safety
        /// The CPU must support AVX-512 (F, DQ, VL, BW), AVX2 and FMA.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
        unsafe fn avx512<K: Kernel>(kernel: K) -> K::Output {
            kernel.run()
        }
        assert!(self.supported(), "this CPU does not support {self}");
        match self {
            // SAFETY: the CPU supports it (asserted above).
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { avx2(kernel) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { avx512(kernel) },
            _ => kernel.run(),
        }
    }
}

/// The message for a name that is no instruction set.
fn unknown(name: &str) -> String {
    format!("unknown instruction set '{name}' (expected portable, avx2 or avx512)")
}

impl std::fmt::Display for Isa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_refused() {
        for isa in Isa::ALL {
            assert_eq!(Isa::parse(isa.name()).unwrap(), isa);
        }
        let err = Isa::parse("sse9").unwrap_err().to_string();
        assert!(err.contains("unknown instruction set 'sse9'"), "{err}");
    }

    #[test]
    fn the_detected_set_is_supported_and_implies_the_lesser_ones() {
        let best = Isa::detected();
        assert!(best.supported());
        assert!(Isa::ALL.into_iter().filter(|&isa| isa <= best).all(Isa::supported));
        assert_eq!(Isa::available().last(), Some(&best));
    }
}
