//! Forward-mode dual numbers: `a + b·ε` with `ε² = 0`.
//!
//! Seeding one input with derivative 1 and running a model on `Dual` gives the exact
//! derivative of every output with respect to that input (to rounding), which is how every
//! LRD / sensitivity formula in the suite is checked.

use super::Real;
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// A dual number: value `v` and derivative `d` with respect to one seeded input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dual {
    /// Value.
    pub v: f64,
    /// Derivative with respect to the seeded input.
    pub d: f64,
}

impl Dual {
    /// A variable: value `v`, derivative 1.
    pub fn var(v: f64) -> Self {
        Dual { v, d: 1.0 }
    }
    /// A constant: value `v`, derivative 0.
    pub fn constant(v: f64) -> Self {
        Dual { v, d: 0.0 }
    }
}

impl Add for Dual {
    type Output = Dual;
    fn add(self, o: Dual) -> Dual {
        Dual { v: self.v + o.v, d: self.d + o.d }
    }
}
impl Sub for Dual {
    type Output = Dual;
    fn sub(self, o: Dual) -> Dual {
        Dual { v: self.v - o.v, d: self.d - o.d }
    }
}
impl Mul for Dual {
    type Output = Dual;
    fn mul(self, o: Dual) -> Dual {
        Dual { v: self.v * o.v, d: self.d * o.v + self.v * o.d }
    }
}
impl Div for Dual {
    type Output = Dual;
    fn div(self, o: Dual) -> Dual {
        Dual { v: self.v / o.v, d: (self.d * o.v - self.v * o.d) / (o.v * o.v) }
    }
}
impl Neg for Dual {
    type Output = Dual;
    fn neg(self) -> Dual {
        Dual { v: -self.v, d: -self.d }
    }
}
impl Add<f64> for Dual {
    type Output = Dual;
    fn add(self, o: f64) -> Dual {
        Dual { v: self.v + o, d: self.d }
    }
}
impl Mul<f64> for Dual {
    type Output = Dual;
    fn mul(self, o: f64) -> Dual {
        Dual { v: self.v * o, d: self.d * o }
    }
}
impl AddAssign for Dual {
    fn add_assign(&mut self, o: Dual) {
        *self = *self + o;
    }
}
impl SubAssign for Dual {
    fn sub_assign(&mut self, o: Dual) {
        *self = *self - o;
    }
}
impl MulAssign for Dual {
    fn mul_assign(&mut self, o: Dual) {
        *self = *self * o;
    }
}

impl Real for Dual {
    fn cst(v: f64) -> Self {
        Dual::constant(v)
    }
    fn value(self) -> f64 {
        self.v
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
        Dual { v: self.v.ln_1p(), d: self.d / (1.0 + self.v) }
    }
}

/// Exact derivative of a vector function with respect to input `idx`, by seeding that input
/// with derivative 1 and running `f` on dual numbers.
pub fn derivative(x: &[f64], idx: usize, f: impl Fn(&[Dual]) -> Vec<Dual>) -> Vec<f64> {
    let xs: Vec<Dual> = x.iter().enumerate().map(|(i, &v)| if i == idx { Dual::var(v) } else { Dual::constant(v) }).collect();
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

    #[test]
    fn dual_derivative_matches_central_difference() {
        for &x in &[-1.3, 0.0, 0.4, 2.2] {
            let d = f(Dual::var(x)).d;
            let h = 1e-6;
            let fd = (f(x + h) - f(x - h)) / (2.0 * h);
            assert!((d - fd).abs() < 1e-7 * (1.0 + d.abs()), "x={x}: {d} vs {fd}");
        }
    }

    #[test]
    fn constants_have_zero_derivative() {
        assert_eq!(f(Dual::constant(0.7)).d, 0.0);
    }
}
