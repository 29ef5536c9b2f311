//! The seam between random streams and the Monte Carlo loops: a source of standard normals read
//! in order, a block at a time (so the generator's `ln`/`sin`/`cos` vectorise), whatever the
//! generator — Philox for the claims ([`super::Stream`]), the portable generator for the
//! reference workloads ([`super::portable::PortableNormals`]).

use crate::math::isa::Kernel;

/// A sequence of standard normals, read in order.
pub trait Normals {
    /// Writes the next `out.len()` normals into `out`. Any split into calls gives the same
    /// values as one call.
    fn fill(&mut self, out: &mut [f64]);

    /// The next normal.
    fn next_normal(&mut self) -> f64 {
        let mut x = [0.0];
        self.fill(&mut x);
        x[0]
    }
}

/// A generator whose block fill is one `#[inline(always)]` body, so that [`Fill`] can compile it
/// per instruction set.
pub(crate) trait FillHere {
    /// [`Normals::fill`], compiled as the caller is (`#[inline(always)]` in every impl).
    fn fill_here(&mut self, out: &mut [f64]);
}

/// A generator's [`FillHere::fill_here`] as a [`Kernel`]: its `Normals::fill` is
/// `Isa::active().run(Fill { normals: self, out })`, the same bits on every instruction set.
pub(crate) struct Fill<'a, G> {
    /// The generator.
    pub(crate) normals: &'a mut G,
    /// Where the normals go.
    pub(crate) out: &'a mut [f64],
}

impl<G: FillHere> Kernel for Fill<'_, G> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        self.normals.fill_here(self.out);
    }
}

/// Reads a [`Normals`] source through a buffer of `BLOCK` values, so the loops that take one
/// normal per step still get them from vectorised block fills.
pub struct Buffered<N: Normals> {
    source: N,
    buf: Box<[f64; BLOCK]>,
    pos: usize,
}

/// Buffer length of [`Buffered`]: 4 KiB, small enough for L1.
pub const BLOCK: usize = 512;

impl<N: Normals> Buffered<N> {
    /// Wraps `source`.
    pub fn new(source: N) -> Self {
        Buffered { source, buf: Box::new([0.0; BLOCK]), pos: BLOCK }
    }

    /// The next normal (refilling the buffer every [`BLOCK`] draws).
    #[inline]
    pub fn draw(&mut self) -> f64 {
        if self.pos == BLOCK {
            self.source.fill(&mut self.buf[..]);
            self.pos = 0;
        }
        let x = self.buf[self.pos];
        self.pos += 1;
        x
    }
}
