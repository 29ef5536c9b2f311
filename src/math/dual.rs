//! Forward-mode dual numbers: `a + b·ε` with `ε² = 0`.
//!
//! Seeding one input with derivative 1 and running a model on `Dual` gives the exact
//! derivative of every output with respect to that input (to rounding), which is how every
//! LRD / sensitivity formula in the suite is checked.

use super::Real;
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// A dual number: value `v` and derivative `d` with respect to one seeded input, over the
/// scalar `T`: `f64` for derivatives in floating point, [`Interval`](super::Interval) for
/// enclosures of a derivative (every operation below is then one enclosed in the other).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dual<T = f64> {
    /// Value.
    pub v: T,
    /// Derivative with respect to the seeded input.
    pub d: T,
}

impl<T: Real> Dual<T> {
    /// A variable: value `v`, derivative 1.
    pub fn var(v: T) -> Self {
        Dual { v, d: T::cst(1.0) }
    }
    /// A constant: value `v`, derivative 0.
    pub fn constant(v: T) -> Self {
        Dual { v, d: T::zero() }
    }
}

impl<T: Real> Add for Dual<T> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Dual { v: self.v + o.v, d: self.d + o.d }
    }
}
impl<T: Real> Sub for Dual<T> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Dual { v: self.v - o.v, d: self.d - o.d }
    }
}
impl<T: Real> Mul for Dual<T> {
    type Output = Self;
    fn mul(self, o: Self) -> Self {
        Dual { v: self.v * o.v, d: self.d * o.v + self.v * o.d }
    }
}
impl<T: Real> Div for Dual<T> {
    type Output = Self;
    fn div(self, o: Self) -> Self {
        Dual { v: self.v / o.v, d: (self.d * o.v - self.v * o.d) / (o.v * o.v) }
    }
}
impl<T: Real> Neg for Dual<T> {
    type Output = Self;
    fn neg(self) -> Self {
        Dual { v: -self.v, d: -self.d }
    }
}
impl<T: Real> Add<f64> for Dual<T> {
    type Output = Self;
    fn add(self, o: f64) -> Self {
        Dual { v: self.v + o, d: self.d }
    }
}
impl<T: Real> Mul<f64> for Dual<T> {
    type Output = Self;
    fn mul(self, o: f64) -> Self {
        Dual { v: self.v * o, d: self.d * o }
    }
}
impl<T: Real> AddAssign for Dual<T> {
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}
impl<T: Real> SubAssign for Dual<T> {
    fn sub_assign(&mut self, o: Self) {
        *self = *self - o;
    }
}
impl<T: Real> MulAssign for Dual<T> {
    fn mul_assign(&mut self, o: Self) {
        *self = *self * o;
    }
}

impl<T: Real> Real for Dual<T> {
    fn cst(v: f64) -> Self {
        Dual::constant(T::cst(v))
    }
    fn value(self) -> f64 {
        self.v.value()
    }
    fn exp(self) -> Self {
        let e = self.v.exp();
        Dual { v: e, d: self.d * e }
    }
    fn ln(self) -> Self {
        Dual { v: self.v.ln(), d: self.d / self.v }
    }
    fn exp_m1(self) -> Self {
        Dual { v: self.v.exp_m1(), d: self.d * self.v.exp() }
    }
    fn ln_1p(self) -> Self {
        Dual { v: self.v.ln_1p(), d: self.d / (self.v + 1.0) }
    }
    fn sin(self) -> Self {
        Dual { v: self.v.sin(), d: self.d * self.v.cos() }
    }
    fn cos(self) -> Self {
        Dual { v: self.v.cos(), d: -(self.d * self.v.sin()) }
    }
    fn may_be_zero(self) -> bool {
        self.v.may_be_zero()
    }
    fn sqrt(self) -> Self {
        let r = self.v.sqrt();
        Dual { v: r, d: self.d / (r * 2.0) }
    }
}

/// Exact derivative of a vector function with respect to input `idx`, by seeding that input
/// with derivative 1 and running `f` on dual numbers. Over `f64` it is exact to rounding; over
/// [`Interval`](super::Interval)s (inputs given as intervals, `f` generic over
/// [`Real`]) each result encloses the true derivative.
pub fn derivative<T: Real>(x: &[T], idx: usize, f: impl Fn(&[Dual<T>]) -> Vec<Dual<T>>) -> Vec<T> {
    let xs: Vec<Dual<T>> = x.iter().enumerate().map(|(i, &v)| if i == idx { Dual::var(v) } else { Dual::constant(v) }).collect();
    f(&xs).into_iter().map(|d| d.d).collect()
}

/// Central finite difference of a vector function with respect to input `idx`, step
/// `1e−6·(1 + |x_idx|)` (a second opinion beside [`derivative`], relative accuracy ~1e−8).
pub fn central_difference(x: &[f64], idx: usize, f: impl Fn(&[f64]) -> Vec<f64>) -> Vec<f64> {
    let h = 1e-6 * (1.0 + x[idx].abs());
    let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
    xp[idx] += h;
    xm[idx] -= h;
    f(&xp).iter().zip(f(&xm)).map(|(a, b)| (a - b) / (2.0 * h)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f<R: Real>(x: R) -> R {
        // x·exp(x) / (1 + ln(1 + x²)) + expm1(x)
        x * x.exp() / ((x * x).ln_1p() + 1.0) + x.exp_m1()
    }

    fn g<R: Real>(x: R) -> R {
        // sin(x)·cos(2x) + √(1 + x²)
        x.sin() * (x * 2.0).cos() + (x * x + 1.0).sqrt()
    }

    #[test]
    fn dual_derivative_matches_central_difference() {
        for &x in &[-1.3, 0.0, 0.4, 2.2] {
            let d = f(Dual::var(x)).d;
            let h = 1e-6;
            let fd = (f(x + h) - f(x - h)) / (2.0 * h);
            assert!((d - fd).abs() < 1e-7 * (1.0 + d.abs()), "x={x}: {d} vs {fd}");
            // sin, cos and √ against the closed form g′ = cos x cos 2x − 2 sin x sin 2x + x/√(1 + x²).
            let want = x.cos() * (2.0 * x).cos() - 2.0 * x.sin() * (2.0 * x).sin() + x / (1.0 + x * x).sqrt();
            let got = g(Dual::var(x)).d;
            assert!((got - want).abs() < 1e-14 * (1.0 + want.abs()), "x={x}: {got} vs {want}");
        }
    }

    #[test]
    fn an_interval_dual_encloses_the_derivative() {
        use crate::math::Interval;
        // f'(x) for f above, written out: at x = 0.4 the f64 dual and the enclosure agree, and
        // the enclosure is a few ulps wide.
        for &x in &[-1.3, 0.4, 2.2] {
            let float = f(Dual::var(x)).d;
            let enclosed = f(Dual::var(Interval::exact(x))).d;
            assert!(enclosed.lo <= enclosed.hi && enclosed.width() < 1e-13 * (1.0 + float.abs()), "x={x}: {enclosed:?}");
            assert!((enclosed.mid() - float).abs() <= 1e-13 * (1.0 + float.abs()), "x={x}: {enclosed:?} vs {float}");
        }
        // derivative() over intervals: d/dx₀ of (x₀·x₁, e^{x₀}) at (2, 3) is (3, e²).
        let d = derivative(&[Interval::exact(2.0), Interval::exact(3.0)], 0, |x| vec![x[0] * x[1], x[0].exp()]);
        assert!(d[0].lo <= 3.0 && 3.0 <= d[0].hi);
        let e2 = 7.389_056_098_930_65;
        assert!(d[1].lo <= e2 && e2 <= d[1].hi && d[1].width() < 1e-14);
    }

    #[test]
    fn constants_have_zero_derivative() {
        assert_eq!(f(Dual::constant(0.7)).d, 0.0);
    }
}
