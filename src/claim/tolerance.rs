//! Typed tolerances: what a relation allows beyond exact equality, and the scale its margin is
//! measured on. Each is its own type, so a relative tolerance cannot be passed where an absolute
//! one or a scale is meant: `Eval::le(lhs, rhs, Tolerance::relative(1e-12))` says what it is, and
//! a swapped argument does not compile.
//!
//! A tolerance is part of what is claimed ("≤ up to rounding"): derive it from
//! [`Rounding`](super::Rounding), and say where it comes from. Sides computed as enclosures
//! ([`Interval`](crate::math::Interval)) need none: their rounding is inside the enclosure.

use std::ops::Add;

/// What a relation allows beyond exact equality: `relative·size + absolute`, where `size` is the
/// larger side's magnitude (or, for [`Eval::close`](super::Eval::close), the given scale).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tolerance {
    /// The part relative to the size of the compared quantities.
    pub relative: f64,
    /// The absolute part.
    pub absolute: f64,
}

impl Tolerance {
    /// Exact: nothing allowed beyond the relation itself.
    pub const NONE: Tolerance = Tolerance { relative: 0.0, absolute: 0.0 };

    /// A tolerance relative to the size of the compared quantities.
    pub const fn relative(r: f64) -> Tolerance {
        Tolerance { relative: r, absolute: 0.0 }
    }
    /// An absolute tolerance (e.g. a [`Rounding`](super::Rounding) bound).
    pub const fn absolute(a: f64) -> Tolerance {
        Tolerance { relative: 0.0, absolute: a }
    }
    /// This tolerance plus an absolute part.
    pub const fn plus_absolute(self, a: f64) -> Tolerance {
        Tolerance { relative: self.relative, absolute: self.absolute + a }
    }
    /// This tolerance plus a relative part.
    pub const fn plus_relative(self, r: f64) -> Tolerance {
        Tolerance { relative: self.relative + r, absolute: self.absolute }
    }
    /// What it allows at quantities of size `size`: `relative·size + absolute` (the absolute
    /// part alone when there is no relative part, also at an infinite size).
    pub fn at(self, size: f64) -> f64 {
        if self.relative == 0.0 {
            self.absolute
        } else {
            self.relative * size + self.absolute
        }
    }
}

impl Add for Tolerance {
    type Output = Tolerance;
    fn add(self, o: Tolerance) -> Tolerance {
        Tolerance { relative: self.relative + o.relative, absolute: self.absolute + o.absolute }
    }
}

/// The size of the compared quantities, by which a margin linear in the gap is divided (so the
/// margin is comparable across instances); a scale that is not positive counts as 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale(pub f64);

impl Scale {
    /// The scale as a positive divisor (1 when it is not positive).
    pub fn divisor(self) -> f64 {
        if self.0 > 0.0 {
            self.0
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerances_add_their_parts() {
        let t = Tolerance::relative(1e-3).plus_absolute(2.0);
        assert_eq!(t.at(1000.0), 3.0);
        assert_eq!((Tolerance::absolute(1.0) + Tolerance::relative(0.5)).at(2.0), 2.0);
        assert_eq!(Tolerance::NONE.at(1e300), 0.0);
        assert_eq!(Scale(0.0).divisor(), 1.0);
        assert_eq!(Scale(-2.0).divisor(), 1.0);
        assert_eq!(Scale(4.0).divisor(), 4.0);
    }
}
