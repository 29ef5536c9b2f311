//! Complex numbers over any [`Real`]: [`Complex<R>`] = re + i·im, with the field operations,
//! `exp`, `|z|` and integer powers written once, so a model with complex state (S4's and LRU's
//! diagonal recurrences) runs on `f64`, on dual numbers (derivatives) and on enclosures.
//!
//! Over [`Interval`] it is [`ComplexInterval`], a rectangle holding every complex value an
//! expression can take (and the argument besides). Accuracy there: `+`, `−` and the conjugate
//! are as tight as the parts; `×` and `÷` take the rectangle of the interval formulas,
//! (a + ib)(c + id) = (ac − bd) + i(ad + bc) and z/w = z·w̄/|w|² (the whole plane when w may be
//! 0), a few ulps wide for point arguments; `exp` is e^re·(cos im + i sin im) from CORE-MATH's correctly
//! rounded functions; `abs` is √(re² + im²) (one ulp per operation).

use super::interval::Interval;
use super::Real;
use serde::{Deserialize, Serialize};
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub};

/// A complex number `re + i·im` with parts in `R` (`f64`, [`Dual`](super::Dual), [`Interval`] …).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Complex<R> {
    /// The real part.
    pub re: R,
    /// The imaginary part.
    pub im: R,
}

/// A complex number enclosed by a rectangle: every value re + i·im with re ∈ `re`, im ∈ `im`.
pub type ComplexInterval = Complex<Interval>;

impl<R: Real> Complex<R> {
    /// `re + i·im`.
    pub fn new(re: R, im: R) -> Complex<R> {
        Complex { re, im }
    }
    /// The constant `re + i·im` (each part lifted by [`Real::cst`]).
    pub fn cst(re: f64, im: f64) -> Complex<R> {
        Complex { re: R::cst(re), im: R::cst(im) }
    }
    /// The real number `x` as a complex one.
    pub fn real(x: R) -> Complex<R> {
        Complex { re: x, im: R::zero() }
    }
    /// 0.
    pub fn zero() -> Complex<R> {
        Complex::cst(0.0, 0.0)
    }
    /// 1.
    pub fn one() -> Complex<R> {
        Complex::cst(1.0, 0.0)
    }
    /// The polar form `r·e^{iθ}`.
    pub fn polar(r: R, theta: R) -> Complex<R> {
        Complex { re: r * theta.cos(), im: r * theta.sin() }
    }
    /// The conjugate re − i·im.
    pub fn conj(self) -> Complex<R> {
        Complex { re: self.re, im: -self.im }
    }
    /// |z|² = re² + im² (from [`Real::square`], so over intervals tight even when a part
    /// straddles 0).
    pub fn norm_sqr(self) -> R {
        self.re.square() + self.im.square()
    }
    /// |z| = √(re² + im²).
    pub fn abs(self) -> R {
        self.norm_sqr().sqrt()
    }
    /// e^z = e^re (cos im + i sin im).
    pub fn exp(self) -> Complex<R> {
        Complex::polar(self.re.exp(), self.im)
    }
    /// `z^n` by repeated squaring (n ≥ 0; z⁰ = 1).
    pub fn powi(self, n: u32) -> Complex<R> {
        let (mut out, mut base, mut n) = (Complex::one(), self, n);
        while n > 0 {
            if n & 1 == 1 {
                out *= base;
            }
            base *= base;
            n >>= 1;
        }
        out
    }
    /// The value parts as `f64` ([`Real::value`]: the midpoint of an enclosure).
    pub fn value(self) -> Complex<f64> {
        Complex { re: self.re.value(), im: self.im.value() }
    }
}

impl ComplexInterval {
    /// The complex number re + i·im, exactly (two doubles).
    pub fn exact(re: f64, im: f64) -> ComplexInterval {
        Complex::cst(re, im)
    }
    /// The argument in (−π, π] ([`Interval::atan2`]; [−π, π] when the rectangle holds 0 or
    /// meets the negative real axis).
    pub fn arg(self) -> Interval {
        self.im.atan2(self.re)
    }
    /// Whether `(re, im)` lies in the rectangle.
    pub fn contains(self, re: f64, im: f64) -> bool {
        self.re.contains(re) && self.im.contains(im)
    }
}

/// An enclosure of the matrix exponential `e^A` of a complex square matrix (by rows, entries taken
/// as exact): [`expm`](super::interval::expm) of the real 2n × 2n form `[[Re A, −Im A], [Im A,
/// Re A]]`, whose exponential is the same form of e^A (the map z ↦ [[re, −im], [im, re]] is a ring
/// homomorphism). Its accuracy is the real routine's at ‖A‖∞ ≤ 2‖A‖ (about 2ˢ·2n·u·‖e^A‖,
/// s = ⌈log₂ 4‖A‖∞⌉). The dense ZOH of S4's DPLR matrix (`e^{ΔA}`) enclosed, for one.
pub fn expm_complex(a: &[Vec<Complex<f64>>]) -> Vec<Vec<ComplexInterval>> {
    let n = a.len();
    assert!(a.iter().all(|r| r.len() == n), "expm_complex needs a square matrix");
    let real: Vec<Vec<f64>> = (0..2 * n)
        .map(|i| {
            (0..2 * n)
                .map(|j| {
                    let z = a[i % n][j % n];
                    match (i < n, j < n) {
                        (true, true) | (false, false) => z.re,
                        (true, false) => -z.im,
                        (false, true) => z.im,
                    }
                })
                .collect()
        })
        .collect();
    let e = super::interval::expm(&real);
    (0..n).map(|i| (0..n).map(|j| Complex::new(e[i][j], e[n + i][j])).collect()).collect()
}

impl<R: Real> Add for Complex<R> {
    type Output = Complex<R>;
    fn add(self, o: Complex<R>) -> Complex<R> {
        Complex { re: self.re + o.re, im: self.im + o.im }
    }
}

impl<R: Real> AddAssign for Complex<R> {
    fn add_assign(&mut self, o: Complex<R>) {
        *self = *self + o;
    }
}

impl<R: Real> Sub for Complex<R> {
    type Output = Complex<R>;
    fn sub(self, o: Complex<R>) -> Complex<R> {
        Complex { re: self.re - o.re, im: self.im - o.im }
    }
}

impl<R: Real> Neg for Complex<R> {
    type Output = Complex<R>;
    fn neg(self) -> Complex<R> {
        Complex { re: -self.re, im: -self.im }
    }
}

impl<R: Real> Mul for Complex<R> {
    type Output = Complex<R>;
    fn mul(self, o: Complex<R>) -> Complex<R> {
        Complex { re: self.re * o.re - self.im * o.im, im: self.re * o.im + self.im * o.re }
    }
}

impl<R: Real> MulAssign for Complex<R> {
    fn mul_assign(&mut self, o: Complex<R>) {
        *self = *self * o;
    }
}

/// A complex number times a real one.
impl<R: Real> Mul<R> for Complex<R> {
    type Output = Complex<R>;
    fn mul(self, s: R) -> Complex<R> {
        Complex { re: self.re * s, im: self.im * s }
    }
}

/// z / w = z·w̄ / |w|²; over intervals the whole plane ([`Interval::ENTIRE`] parts) when |w|²
/// may be 0 (w's rectangle holds the origin).
impl<R: Real> Div for Complex<R> {
    type Output = Complex<R>;
    fn div(self, w: Complex<R>) -> Complex<R> {
        let d = w.norm_sqr();
        let num = self * w.conj();
        Complex { re: num.re / d, im: num.im / d }
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

    /// e^A of a complex matrix against nalgebra's complex exponential (Padé; its own error about
    /// u·‖A‖·‖e^A‖, so a slack of 10⁻¹³ relative) and, for a diagonal A, against e^{λ} entry by
    /// entry; the enclosure of e^{A}·e^{−A} holds the identity. The control: e^{A} with one
    /// off-diagonal entry's imaginary part dropped misses nalgebra's value.
    #[test]
    fn the_complex_matrix_exponential_is_enclosed() {
        use nalgebra::{Complex as NComplex, DMatrix};
        let a = vec![
            vec![Complex::new(-0.5, 1.0), Complex::new(0.3, -0.2), Complex::new(0.0, 0.7)],
            vec![Complex::new(0.1, 0.0), Complex::new(-1.0, -2.0), Complex::new(0.4, 0.4)],
            vec![Complex::new(-0.6, 0.2), Complex::new(0.0, 0.0), Complex::new(0.2, 3.0)],
        ];
        let e = expm_complex(&a);
        let na = DMatrix::from_fn(3, 3, |i, j| NComplex::new(a[i][j].re, a[i][j].im));
        let want = na.clone().exp();
        let slack = 1e-13 * want.iter().map(|z| z.norm()).fold(0.0, f64::max);
        let near =
            |e: ComplexInterval, w: NComplex<f64>| (e.re.lo - slack..=e.re.hi + slack).contains(&w.re) && (e.im.lo - slack..=e.im.hi + slack).contains(&w.im);
        for i in 0..3 {
            for j in 0..3 {
                assert!(near(e[i][j], want[(i, j)]) && e[i][j].re.width() < 1e-13, "e^A[{i}][{j}] = {:?} vs {}", e[i][j], want[(i, j)]);
            }
        }
        let minus: Vec<Vec<Complex<f64>>> = a.iter().map(|r| r.iter().map(|&z| -z).collect()).collect();
        let product = crate::math::field::matmul(&e, &expm_complex(&minus));
        assert!((0..3).all(|i| (0..3).all(|j| product[i][j].contains(f64::from(i == j), 0.0))));
        let diag: Vec<Vec<Complex<f64>>> = (0..3).map(|i| (0..3).map(|j| if i == j { a[i][i] } else { Complex::cst(0.0, 0.0) }).collect()).collect();
        let ed = expm_complex(&diag);
        assert!((0..3).all(|i| ed[i][i].contains(a[i][i].exp().re, a[i][i].exp().im) || (ed[i][i].value() - a[i][i].exp()).abs() < 1e-15));
        let mut wrong = a.clone();
        wrong[0][2] = Complex::new(0.0, 0.0);
        assert!(!near(expm_complex(&wrong)[0][2], want[(0, 2)]), "the control is caught");
    }
}
