//! Complex numbers enclosed as rectangles: [`ComplexInterval`] = re + i·im with both parts
//! [`Interval`]s, so every complex value an expression can take is inside (the field
//! operations, `exp`, `|z|`, the argument). For S4's and LRU's complex diagonal recurrences,
//! complex eigenvalues in the unit disc, and certificates of statements about them.
//!
//! Accuracy: `+`, `−` and the conjugate are as tight as the parts; `×` and `÷` take the
//! rectangle of the interval formulas ((a + ib)(c + id) = (ac − bd) + i(ad + bc), and z/w =
//! z·w̄/|w|² with |w|² from squares; the whole plane when w may be 0), a few ulps wide for point arguments; `exp` is
//! e^re·(cos im + i sin im) from CORE-MATH's correctly rounded functions; [`ComplexInterval::abs`]
//! is √(re² + im²) from squares (one ulp per operation).

use super::interval::Interval;
use serde::{Deserialize, Serialize};
use std::ops::{Add, Div, Mul, Neg, Sub};

/// A complex number enclosed by a rectangle: every value re + i·im with re ∈ `re`, im ∈ `im`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComplexInterval {
    /// The real part.
    pub re: Interval,
    /// The imaginary part.
    pub im: Interval,
}

impl ComplexInterval {
    /// The rectangle re × im.
    pub fn new(re: Interval, im: Interval) -> ComplexInterval {
        ComplexInterval { re, im }
    }
    /// The complex number re + i·im, exactly (two doubles).
    pub fn exact(re: f64, im: f64) -> ComplexInterval {
        ComplexInterval { re: Interval::exact(re), im: Interval::exact(im) }
    }
    /// The conjugate re − i·im.
    pub fn conj(self) -> ComplexInterval {
        ComplexInterval { re: self.re, im: -self.im }
    }
    /// |z|² = re² + im² (squares, so tight even when a part straddles 0).
    pub fn norm_sqr(self) -> Interval {
        self.re.square() + self.im.square()
    }
    /// |z| = √(re² + im²).
    pub fn abs(self) -> Interval {
        self.norm_sqr().sqrt()
    }
    /// The argument in (−π, π] ([`Interval::atan2`]; [−π, π] when the rectangle holds 0 or
    /// meets the negative real axis).
    pub fn arg(self) -> Interval {
        self.im.atan2(self.re)
    }
    /// e^z = e^re (cos im + i sin im).
    pub fn exp(self) -> ComplexInterval {
        let r = self.re.exp();
        ComplexInterval { re: r * self.im.cos(), im: r * self.im.sin() }
    }
    /// `z^n` by repeated squaring (n ≥ 0; z⁰ = 1).
    pub fn powi(self, n: u32) -> ComplexInterval {
        let (mut out, mut base, mut n) = (ComplexInterval::exact(1.0, 0.0), self, n);
        while n > 0 {
            if n & 1 == 1 {
                out = out * base;
            }
            base = base * base;
            n >>= 1;
        }
        out
    }
    /// Whether `(re, im)` lies in the rectangle.
    pub fn contains(self, re: f64, im: f64) -> bool {
        self.re.contains(re) && self.im.contains(im)
    }
}

impl Add for ComplexInterval {
    type Output = ComplexInterval;
    fn add(self, o: ComplexInterval) -> ComplexInterval {
        ComplexInterval { re: self.re + o.re, im: self.im + o.im }
    }
}

impl Sub for ComplexInterval {
    type Output = ComplexInterval;
    fn sub(self, o: ComplexInterval) -> ComplexInterval {
        ComplexInterval { re: self.re - o.re, im: self.im - o.im }
    }
}

impl Neg for ComplexInterval {
    type Output = ComplexInterval;
    fn neg(self) -> ComplexInterval {
        ComplexInterval { re: -self.re, im: -self.im }
    }
}

impl Mul for ComplexInterval {
    type Output = ComplexInterval;
    fn mul(self, o: ComplexInterval) -> ComplexInterval {
        ComplexInterval { re: self.re * o.re - self.im * o.im, im: self.re * o.im + self.im * o.re }
    }
}

impl Mul<Interval> for ComplexInterval {
    type Output = ComplexInterval;
    fn mul(self, s: Interval) -> ComplexInterval {
        ComplexInterval { re: self.re * s, im: self.im * s }
    }
}

/// z / w = z·w̄ / |w|²; the whole plane ([`Interval::ENTIRE`] parts) when |w|² may be 0 (w's
/// rectangle holds the origin).
impl Div for ComplexInterval {
    type Output = ComplexInterval;
    fn div(self, w: ComplexInterval) -> ComplexInterval {
        let d = w.norm_sqr();
        let num = self * w.conj();
        ComplexInterval { re: num.re / d, im: num.im / d }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points of the unit square's neighbourhood, from a fixed xorshift.
    fn points(n: usize) -> Vec<(f64, f64)> {
        let mut z = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            (z >> 11) as f64 / (1u64 << 53) as f64 * 6.0 - 3.0
        };
        (0..n).map(|_| (next(), next())).collect()
    }

    /// One ulp of slack for std's (not correctly rounded) reference values.
    fn near(i: Interval, x: f64) -> bool {
        Interval::new(i.lo.next_down(), i.hi.next_up()).contains(x)
    }

    #[test]
    fn every_operation_encloses_the_complex_arithmetic_of_num_complex() {
        use nalgebra::Complex;
        type Complex64 = Complex<f64>;
        let pts = points(400);
        for w in pts.windows(2) {
            let ((a, b), (c, d)) = (w[0], w[1]);
            let (z, v) = (ComplexInterval::exact(a, b), ComplexInterval::exact(c, d));
            let (zc, vc) = (Complex64::new(a, b), Complex64::new(c, d));
            for (got, want, what) in [
                (z + v, zc + vc, "+"),
                (z - v, zc - vc, "−"),
                (z * v, zc * vc, "×"),
                (z / v, zc / vc, "÷"),
                (z.exp(), zc.exp(), "exp"),
                (z.powi(5), zc.powi(5), "powi"),
            ] {
                // num_complex's ÷, exp and powi round several times: a relative slack of 10⁻¹⁴.
                let slack = 1e-14 * want.norm().max(1.0);
                let widened = ComplexInterval::new(Interval::new(got.re.lo - slack, got.re.hi + slack), Interval::new(got.im.lo - slack, got.im.hi + slack));
                assert!(widened.contains(want.re, want.im), "{what} at {zc}, {vc}: {got:?} vs {want}");
                assert!(got.re.width() <= 1e-13 * want.norm().max(1.0), "{what} at {zc}, {vc} is {got:?}: too wide");
            }
            assert!(near(z.abs(), zc.norm()) && near(z.arg(), zc.arg()) || (b == 0.0 && a < 0.0), "|z|, arg z at {zc}");
        }
    }

    #[test]
    fn a_rectangle_encloses_every_value_of_its_points_and_a_point_outside_is_caught() {
        // Every product of points of two rectangles lies in their product rectangle.
        let (z, v) = (
            ComplexInterval::new(Interval::new(0.5, 0.75), Interval::new(-0.25, 0.5)),
            ComplexInterval::new(Interval::new(-1.0, -0.5), Interval::new(1.0, 2.0)),
        );
        for i in 0..=8 {
            for j in 0..=8 {
                let (a, b) = (0.5 + 0.25 * f64::from(i) / 8.0, -0.25 + 0.75 * f64::from(j) / 8.0);
                let (c, d) = (-1.0 + 0.5 * f64::from(j) / 8.0, 1.0 + f64::from(i) / 8.0);
                let (p, q) = (z * v, z.exp());
                assert!(p.contains(a * c - b * d, a * d + b * c));
                assert!(near(q.re, a.exp() * b.cos()) && near(q.im, a.exp() * b.sin()));
            }
        }
        // The control: the product's real part without the −bd term misses a point.
        let wrong = z.re * v.re;
        assert!(!wrong.contains(0.75 * -0.5 - 0.5 * 2.0), "a wrong formula is caught");
    }

    #[test]
    fn division_by_a_rectangle_around_zero_is_the_whole_plane_and_the_unit_circle_has_modulus_one() {
        let around_zero = ComplexInterval::new(Interval::new(-0.1, 0.1), Interval::new(-0.1, 0.1));
        let q = ComplexInterval::exact(1.0, 0.0) / around_zero;
        assert!(q.re == Interval::ENTIRE && q.im == Interval::ENTIRE, "{q:?}");
        let theta = Interval::exact(0.3);
        let on_circle = ComplexInterval::new(Interval::exact(0.0), theta).exp();
        assert!(on_circle.abs().contains(1.0) && on_circle.abs().width() < 1e-15);
        assert!(on_circle.arg().contains(0.3));
    }
}
