//! The scalar trait the models are written against, so one implementation runs on plain
//! `f64` (values) and on [`Dual`](super::Dual) (values and exact derivatives).

use std::fmt::Debug;
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// A real scalar: `f64`, or a forward-mode dual number carrying a derivative.
///
/// Parameters of a model stay `f64`; only quantities that depend on the input being
/// differentiated need to be `Real`. `Real::cst` lifts a parameter.
pub trait Real:
    Copy
    + Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + Add<f64, Output = Self>
    + Mul<f64, Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + Send
    + Sync
{
    /// A constant (zero derivative).
    fn cst(v: f64) -> Self;
    /// The value part.
    fn value(self) -> f64;
    /// Natural exponential.
    fn exp(self) -> Self;
    /// Natural logarithm.
    fn ln(self) -> Self;
    /// `exp(x) - 1`, accurate near 0.
    fn exp_m1(self) -> Self;
    /// `ln(1 + x)`, accurate near 0.
    fn ln_1p(self) -> Self;
    /// Sine (radians): for complex exponentials `e^{a + ib}` (LRU's and S4's eigenvalues).
    fn sin(self) -> Self;
    /// Cosine (radians).
    fn cos(self) -> Self;
    /// Square root (of a non-negative argument): for moduli `|z|` and LRU's `√(1 − |λ|²)`.
    fn sqrt(self) -> Self;
    /// `x²` (an enclosure overrides it with the tight square, which holds no negative value).
    fn square(self) -> Self {
        self * self
    }
    /// Whether the quantity may be 0: its value is, or (an enclosure) 0 is among the values it
    /// holds. What a division or a pivot must rule out.
    fn may_be_zero(self) -> bool {
        self.value() == 0.0
    }
    /// The zero constant.
    fn zero() -> Self {
        Self::cst(0.0)
    }
}

impl Real for f64 {
    fn cst(v: f64) -> Self {
        v
    }
    fn value(self) -> f64 {
        self
    }
    fn exp(self) -> Self {
        f64::exp(self)
    }
    fn ln(self) -> Self {
        f64::ln(self)
    }
    fn exp_m1(self) -> Self {
        f64::exp_m1(self)
    }
    fn ln_1p(self) -> Self {
        f64::ln_1p(self)
    }
    fn sin(self) -> Self {
        f64::sin(self)
    }
    fn cos(self) -> Self {
        f64::cos(self)
    }
    fn sqrt(self) -> Self {
        f64::sqrt(self)
    }
}
