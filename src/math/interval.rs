//! Interval arithmetic: a closed interval `[lo, hi]` of reals that is guaranteed to contain the
//! exact value of whatever was computed, so a comparison of two enclosures can be decided in
//! exact arithmetic (disjoint: decided; overlapping: a tie).
//!
//! **Why this carrier.** IEEE 754 rounds `+ − × ÷ √` correctly (to nearest), so the exact result
//! lies within half an ulp of the rounded one; each operation here rounds to nearest and then
//! moves the lower end down and the upper end up *only when the result was inexact*, which it
//! decides exactly with error-free transformations (TwoSum for sums, a fused multiply-add for
//! the remainder of a product, quotient or square root). The result is the enclosure directed
//! rounding would give, without switching the rounding mode and without any instruction-set
//! requirement (the `inari` crate needs AVX and FMA at compile time, which a portable build
//! cannot assume, and its elementary functions need GMP, whose build needs `m4`). Elementary
//! functions come from CORE-MATH (the `core-math` crate: `exp`, `log`, `expm1`, `log1p`, `erfc`,
//! proved correctly rounded to nearest): the rounded result widened by one ulp each way
//! contains the true value. Where a product, quotient or square root is that small (a result,
//! dividend or radicand below 2⁻⁹⁶⁰, where the fused multiply-add's remainder may itself underflow
//! and round) both ends are widened by one ulp, which is always safe.
//!
//! Every `f64` an interval meets as a constant (`x + 1.5`, `Interval::exact(0.1)`) is taken as
//! the exact real it represents: an enclosure covers the rounding of the computation, not how its
//! inputs were obtained.

use super::Real;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// A closed interval `[lo, hi]` containing an exact real value. An interval with a NaN end
/// encloses nothing decidable (an invalid operation, such as `ln` of a negative number): every
/// comparison with it is undecided.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// The lower end.
    pub lo: f64,
    /// The upper end.
    pub hi: f64,
}

/// Below this magnitude a product's or quotient's remainder may itself be rounded, so the
/// exactness test is not trusted and both ends widen.
const TINY: f64 = 1.0e-289; // < 2⁻⁹⁶⁰ ≈ 1.0e-289

impl Interval {
    /// Everything: the enclosure of a value nothing is known about.
    pub const ENTIRE: Interval = Interval { lo: f64::NEG_INFINITY, hi: f64::INFINITY };

    /// `[lo, hi]`; panics if `lo > hi`.
    pub fn new(lo: f64, hi: f64) -> Interval {
        assert!(lo <= hi || lo.is_nan() || hi.is_nan(), "an interval needs lo ≤ hi (got [{lo}, {hi}])");
        Interval { lo, hi }
    }
    /// The exact real an `f64` represents, as the degenerate interval `[x, x]`.
    pub fn exact(x: f64) -> Interval {
        Interval { lo: x, hi: x }
    }
    /// The enclosure of a decimal constant as written (`"0.001"`, `"-2.5e-3"`): the degenerate
    /// interval when the decimal is a binary number (`"0.5"`), else the two neighbours of its
    /// correctly rounded `f64` (`"0.001"` is not a binary point: `[fl(10⁻³)⁻, fl(10⁻³)⁺]`). A
    /// statement's decimal constants enter a certificate through this, never through
    /// [`Interval::exact`] of a rounded literal. `None` for text that is not a finite decimal.
    pub fn decimal(text: &str) -> Option<Interval> {
        use num_traits::Num;
        let x: f64 = text.parse().ok().filter(|x: &f64| x.is_finite())?;
        let (mantissa, exponent) = match text.find(['e', 'E']) {
            Some(i) => (&text[..i], text[i + 1..].parse::<i32>().ok()?),
            None => (text, 0),
        };
        let (sign, digits) = mantissa.strip_prefix('-').map_or((String::new(), mantissa.trim_start_matches('+')), |m| ("-".to_string(), m));
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        if whole.is_empty() && fraction.is_empty() || !(whole.chars().chain(fraction.chars()).all(|c| c.is_ascii_digit())) {
            return None;
        }
        let scale = exponent - fraction.len() as i32;
        let zeros = |n: i32| "0".repeat(n.unsigned_abs() as usize);
        let (num, den) = if scale >= 0 {
            (format!("{whole}{fraction}{}", zeros(scale)), "1".to_string())
        } else {
            (format!("{whole}{fraction}"), format!("1{}", zeros(scale)))
        };
        let exact = num_rational::BigRational::from_str_radix(&format!("{sign}{}/{den}", if num.is_empty() { "0" } else { &num }), 10).ok()?;
        Some(if num_rational::BigRational::from_float(x) == Some(exact) { Interval::exact(x) } else { Interval { lo: x.next_down(), hi: x.next_up() } })
    }
    /// A value computed in floating point with a relative error of at most `ulps` units of
    /// roundoff (u = 2⁻⁵³) plus an absolute error `abs`: `[x − e, x + e]` with
    /// `e = ulps·u·|x| + abs`, itself rounded outward.
    pub fn around(x: f64, ulps: f64, abs: f64) -> Interval {
        let e = (ulps * (f64::EPSILON / 2.0) * x.abs() + abs).next_up();
        Interval::exact(x) + Interval { lo: -e, hi: e }
    }
    /// Every value that prints as `x` with `decimals` decimals (a number read from a paper's
    /// table): `x ± ½·10^−decimals`, widened by two units of roundoff for the binary `x` and the
    /// rounded half-digit, outward.
    pub fn printed(x: f64, decimals: i32) -> Interval {
        Interval::around(x, 2.0, 0.5 * 10f64.powi(-decimals))
    }
    /// The midpoint (the value a floating-point computation would report).
    pub fn mid(self) -> f64 {
        if self.lo == self.hi {
            self.lo
        } else if self.lo.is_infinite() || self.hi.is_infinite() {
            if self.lo.is_infinite() && self.hi.is_infinite() {
                0.0
            } else if self.lo.is_infinite() {
                self.hi
            } else {
                self.lo
            }
        } else {
            0.5 * self.lo + 0.5 * self.hi
        }
    }
    /// The width `hi − lo`, rounded up.
    pub fn width(self) -> f64 {
        (Interval::exact(self.hi) - Interval::exact(self.lo)).hi
    }
    /// The larger of `|lo|` and `|hi|`.
    pub fn mag(self) -> f64 {
        self.lo.abs().max(self.hi.abs())
    }
    /// The least |x| over the interval: 0 when it contains 0, else the smaller of `|lo|`, `|hi|`.
    pub fn mig(self) -> f64 {
        if self.contains(0.0) {
            0.0
        } else {
            self.lo.abs().min(self.hi.abs())
        }
    }
    /// Whether `x` lies in the interval.
    pub fn contains(self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }
    /// Whether the interval has a NaN end (nothing can be decided from it).
    pub fn is_nan(self) -> bool {
        self.lo.is_nan() || self.hi.is_nan()
    }
    /// Whether both ends are finite.
    pub fn is_finite(self) -> bool {
        self.lo.is_finite() && self.hi.is_finite()
    }
    /// The smallest interval containing both.
    pub fn hull(self, other: Interval) -> Interval {
        Interval { lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
    }
    /// The common part of two enclosures of the same real (both contain it, so it is one);
    /// None when either is NaN or they are disjoint (then one of them was not an enclosure).
    pub fn intersect(self, other: Interval) -> Option<Interval> {
        let (lo, hi) = (self.lo.max(other.lo), self.hi.min(other.hi));
        (!self.is_nan() && !other.is_nan() && lo <= hi).then_some(Interval { lo, hi })
    }
    /// `|x|`.
    pub fn abs(self) -> Interval {
        if self.lo >= 0.0 {
            self
        } else if self.hi <= 0.0 {
            -self
        } else {
            Interval { lo: 0.0, hi: self.mag() }
        }
    }
    /// `max(x, y)` (exact: no rounding).
    pub fn max(self, other: Interval) -> Interval {
        Interval { lo: self.lo.max(other.lo), hi: self.hi.max(other.hi) }
    }
    /// `min(x, y)` (exact: no rounding).
    pub fn min(self, other: Interval) -> Interval {
        Interval { lo: self.lo.min(other.lo), hi: self.hi.min(other.hi) }
    }
    /// `x²` (tighter than `x·x` when the interval contains 0).
    pub fn square(self) -> Interval {
        let a = self.abs();
        a * a
    }
    /// `√x`; an interval reaching below 0 is clipped to its non-negative part (NaN if empty).
    pub fn sqrt(self) -> Interval {
        if self.hi < 0.0 || self.is_nan() {
            return nan();
        }
        let lo = self.lo.max(0.0);
        Interval { lo: sqrt_rounded(lo, false), hi: sqrt_rounded(self.hi, true) }
    }
    /// `x^n` for an integer `n ≥ 0`: monotone on `[0, ∞)` (on all reals for odd `n`), so each
    /// end is the power of an end, computed by repeated multiplication with outward rounding.
    pub fn powi(self, n: u32) -> Interval {
        fn pow(x: f64, n: u32) -> Interval {
            (0..n).fold(Interval::exact(1.0), |acc, _| acc * Interval::exact(x))
        }
        if n == 0 {
            return Interval::exact(1.0);
        }
        let base = if n.is_multiple_of(2) { self.abs() } else { self };
        Interval { lo: pow(base.lo, n).lo, hi: pow(base.hi, n).hi }
    }
    /// `erfc(x)` (decreasing), from CORE-MATH's correctly rounded `erfc`.
    pub fn erfc(self) -> Interval {
        Interval { lo: down(core_math::erfc(self.hi)).max(0.0), hi: up(core_math::erfc(self.lo)).min(2.0) }
    }
    /// Whether every value of `self` is `≤` every value of `other`.
    pub fn certainly_le(self, other: Interval) -> bool {
        self.hi <= other.lo
    }
    /// Whether every value of `self` is `<` every value of `other`.
    pub fn certainly_lt(self, other: Interval) -> bool {
        self.hi < other.lo
    }
}

fn nan() -> Interval {
    Interval { lo: f64::NAN, hi: f64::NAN }
}

/// One ulp down, except at −∞ (and NaN stays NaN).
fn down(x: f64) -> f64 {
    if x == f64::NEG_INFINITY {
        x
    } else {
        x.next_down()
    }
}

/// One ulp up, except at +∞.
fn up(x: f64) -> f64 {
    if x == f64::INFINITY {
        x
    } else {
        x.next_up()
    }
}

/// The exact rounding error of `a + b = s` (Knuth's TwoSum; exact barring overflow).
fn two_sum_err(a: f64, b: f64, s: f64) -> f64 {
    let bb = s - a;
    (a - (s - bb)) + (b - bb)
}

fn add_down(a: f64, b: f64) -> f64 {
    let s = a + b;
    if !s.is_finite() {
        return if s == f64::INFINITY && a.is_finite() && b.is_finite() { f64::MAX } else { s };
    }
    if two_sum_err(a, b, s) < 0.0 {
        s.next_down()
    } else {
        s
    }
}

fn add_up(a: f64, b: f64) -> f64 {
    -add_down(-a, -b)
}

fn mul_down(a: f64, b: f64) -> f64 {
    let p = a * b;
    if !p.is_finite() {
        return if p == f64::INFINITY && a.is_finite() && b.is_finite() { f64::MAX } else { p };
    }
    if p.abs() < TINY {
        // Zero times anything finite is exact; otherwise the remainder is not trusted.
        return if a == 0.0 || b == 0.0 { 0.0 } else { down(p) };
    }
    // a·b − p, exactly (a fused multiply-add rounds it once, and it is representable).
    if a.mul_add(b, -p) < 0.0 {
        p.next_down()
    } else {
        p
    }
}

fn mul_up(a: f64, b: f64) -> f64 {
    -mul_down(-a, b)
}

fn div_down(a: f64, b: f64) -> f64 {
    let q = a / b;
    if !q.is_finite() {
        return if q == f64::INFINITY && a.is_finite() && b != 0.0 { f64::MAX } else { q };
    }
    if q.abs() < TINY || a.abs() < TINY {
        return if a == 0.0 { 0.0 } else { down(q) };
    }
    // r = a − q·b exactly; the exact quotient is q + r/b.
    let r = (-q).mul_add(b, a);
    if (r < 0.0) != (b < 0.0) && r != 0.0 {
        q.next_down()
    } else {
        q
    }
}

fn div_up(a: f64, b: f64) -> f64 {
    -div_down(-a, b)
}

/// √x rounded down, or up when `upward`: the remainder x − s², exact by a fused multiply-add,
/// says on which side of √x the rounded s lies (below 2⁻⁹⁶⁰ it may underflow, so s widens).
fn sqrt_rounded(x: f64, upward: bool) -> f64 {
    let s = x.sqrt();
    if s == 0.0 || s.is_infinite() {
        return s;
    }
    if x < TINY {
        return if upward { up(s) } else { down(s) };
    }
    let r = (-s).mul_add(s, x);
    match upward {
        false if r < 0.0 => s.next_down(),
        true if r > 0.0 => s.next_up(),
        _ => s,
    }
}

impl Add for Interval {
    type Output = Interval;
    fn add(self, o: Interval) -> Interval {
        Interval { lo: add_down(self.lo, o.lo), hi: add_up(self.hi, o.hi) }
    }
}
impl Sub for Interval {
    type Output = Interval;
    fn sub(self, o: Interval) -> Interval {
        self + (-o)
    }
}
impl Neg for Interval {
    type Output = Interval;
    fn neg(self) -> Interval {
        Interval { lo: -self.hi, hi: -self.lo }
    }
}
impl Mul for Interval {
    type Output = Interval;
    fn mul(self, o: Interval) -> Interval {
        if self.is_nan() || o.is_nan() {
            return nan();
        }
        // The four corner products (0·∞ taken as 0: an interval end is a bound, not a value).
        let corners = [(self.lo, o.lo), (self.lo, o.hi), (self.hi, o.lo), (self.hi, o.hi)];
        let fix = |v: f64| if v.is_nan() { 0.0 } else { v };
        let lo = corners.iter().map(|&(a, b)| fix(mul_down(a, b))).fold(f64::INFINITY, f64::min);
        let hi = corners.iter().map(|&(a, b)| fix(mul_up(a, b))).fold(f64::NEG_INFINITY, f64::max);
        Interval { lo, hi }
    }
}
impl Div for Interval {
    type Output = Interval;
    fn div(self, o: Interval) -> Interval {
        if self.is_nan() || o.is_nan() {
            return nan();
        }
        if o.lo <= 0.0 && o.hi >= 0.0 {
            // A divisor that may be 0: nothing is known of the quotient.
            return Interval::ENTIRE;
        }
        let corners = [(self.lo, o.lo), (self.lo, o.hi), (self.hi, o.lo), (self.hi, o.hi)];
        let fix = |v: f64| if v.is_nan() { 0.0 } else { v };
        let lo = corners.iter().map(|&(a, b)| fix(div_down(a, b))).fold(f64::INFINITY, f64::min);
        let hi = corners.iter().map(|&(a, b)| fix(div_up(a, b))).fold(f64::NEG_INFINITY, f64::max);
        Interval { lo, hi }
    }
}
impl Add<f64> for Interval {
    type Output = Interval;
    fn add(self, o: f64) -> Interval {
        self + Interval::exact(o)
    }
}
impl Mul<f64> for Interval {
    type Output = Interval;
    fn mul(self, o: f64) -> Interval {
        self * Interval::exact(o)
    }
}
impl AddAssign for Interval {
    fn add_assign(&mut self, o: Interval) {
        *self = *self + o;
    }
}
impl SubAssign for Interval {
    fn sub_assign(&mut self, o: Interval) {
        *self = *self - o;
    }
}
impl MulAssign for Interval {
    fn mul_assign(&mut self, o: Interval) {
        *self = *self * o;
    }
}
impl From<f64> for Interval {
    fn from(x: f64) -> Interval {
        Interval::exact(x)
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.lo == self.hi {
            write!(f, "{:e} (exact)", self.lo)
        } else {
            write!(f, "[{:e}, {:e}]", self.lo, self.hi)
        }
    }
}

impl Interval {
    /// `e^x` (increasing), from CORE-MATH's correctly rounded `exp`.
    pub fn exp(self) -> Interval {
        if self.is_nan() {
            return nan();
        }
        Interval { lo: down(core_math::exp(self.lo)).max(0.0), hi: up(core_math::exp(self.hi)) }
    }
    /// `ln x` (increasing; −∞ where the interval reaches 0, NaN below), from CORE-MATH's `log`.
    pub fn ln(self) -> Interval {
        if self.hi < 0.0 || self.is_nan() {
            return nan();
        }
        let lo = if self.lo <= 0.0 { f64::NEG_INFINITY } else { down(core_math::log(self.lo)) };
        Interval { lo, hi: up(core_math::log(self.hi)) }
    }
    /// `e^x − 1`, from CORE-MATH's `expm1`.
    pub fn exp_m1(self) -> Interval {
        if self.is_nan() {
            return nan();
        }
        Interval { lo: down(core_math::expm1(self.lo)).max(-1.0), hi: up(core_math::expm1(self.hi)) }
    }
    /// `ln(1 + x)`, from CORE-MATH's `log1p`.
    pub fn ln_1p(self) -> Interval {
        if self.hi < -1.0 || self.is_nan() {
            return nan();
        }
        let lo = if self.lo <= -1.0 { f64::NEG_INFINITY } else { down(core_math::log1p(self.lo)) };
        Interval { lo, hi: up(core_math::log1p(self.hi)) }
    }
}

/// π enclosed: `f64::consts::PI` (below π by 1.2·10⁻¹⁶) and the next double.
pub const PI: Interval = Interval { lo: std::f64::consts::PI, hi: 3.141_592_653_589_793_6 };

/// Beyond this magnitude the trigonometric enclosures are the whole range [−1, 1]: below it,
/// every n with nπ near x has n + 1/2 exact in a double (n < 2⁵²), so the critical points
/// (n + offset)π are enclosed one by one.
const TRIG_EXACT_MULTIPLES: f64 = 4.0e15;

impl Interval {
    /// Whether the interval may contain a point `(n + offset)·π` for an integer n with
    /// `n ≡ parity (mod 2)` (offset 0 or 1/2; parity 0 or 1): the critical points of cos
    /// (offset 0) and sin (offset 1/2), maxima for even n, minima for odd. Conservative: a
    /// point within the rounding of its enclosure counts as inside.
    fn may_contain_multiple_of_pi(self, offset: f64, parity: i64) -> bool {
        let first = (self.lo / std::f64::consts::PI - offset).floor() as i64 - 1;
        let last = (self.hi / std::f64::consts::PI - offset).ceil() as i64 + 1;
        (first..=last).filter(|n| n.rem_euclid(2) == parity).any(|n| {
            let point = Interval::exact(n as f64 + offset) * PI;
            point.hi >= self.lo && point.lo <= self.hi
        })
    }

    /// The enclosure of a 2π-periodic function with maxima at `(2k + offset)π` and minima at
    /// `(2k + 1 + offset)π`, from its correctly rounded values at the ends.
    fn periodic(self, f: fn(f64) -> f64, offset: f64) -> Interval {
        if self.is_nan() {
            return nan();
        }
        let whole = Interval { lo: -1.0, hi: 1.0 };
        if !self.is_finite() || self.width() >= 2.0 * PI.lo || self.mag() >= TRIG_EXACT_MULTIPLES {
            return whole;
        }
        let (a, b) = (f(self.lo), f(self.hi));
        let lo = if self.may_contain_multiple_of_pi(offset, 1) { -1.0 } else { down(a.min(b)).max(-1.0) };
        let hi = if self.may_contain_multiple_of_pi(offset, 0) { 1.0 } else { up(a.max(b)).min(1.0) };
        Interval { lo, hi }
    }

    /// `sin x`, from CORE-MATH's correctly rounded `sin` at the ends (one ulp outward) and ±1
    /// where the interval may hold a maximum or minimum; [−1, 1] for an interval 2π wide or
    /// more, or beyond |x| = 4·10¹⁵ (where the multiples of π are no longer doubles).
    pub fn sin(self) -> Interval {
        self.periodic(core_math::sin, 0.5)
    }

    /// `cos x`: as [`Interval::sin`], from CORE-MATH's `cos`.
    pub fn cos(self) -> Interval {
        self.periodic(core_math::cos, 0.0)
    }

    /// The angle of the point (x, y) in (−π, π] (`atan2(y, x)`, `self` being y), enclosed for
    /// every point of the rectangle: from the corners (CORE-MATH's correctly rounded `atan2`,
    /// one ulp outward), which bound the angles of a convex set that neither holds the origin
    /// nor meets the negative real axis (the branch cut); [−π, π] (enclosed) otherwise.
    pub fn atan2(self, x: Interval) -> Interval {
        let y = self;
        if y.is_nan() || x.is_nan() {
            return nan();
        }
        let whole = Interval { lo: -PI.hi, hi: PI.hi };
        if x.lo <= 0.0 && y.lo <= 0.0 && y.hi >= 0.0 {
            return whole; // the origin or the branch cut
        }
        let corners = [(y.lo, x.lo), (y.lo, x.hi), (y.hi, x.lo), (y.hi, x.hi)].map(|(b, a)| core_math::atan2(b, a));
        let (lo, hi) = corners.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
        Interval { lo: down(lo).max(-PI.hi), hi: up(hi).min(PI.hi) }
    }
}

impl Real for Interval {
    fn cst(v: f64) -> Self {
        Interval::exact(v)
    }
    fn value(self) -> f64 {
        self.mid()
    }
    fn exp(self) -> Self {
        Interval::exp(self)
    }
    fn ln(self) -> Self {
        Interval::ln(self)
    }
    fn exp_m1(self) -> Self {
        Interval::exp_m1(self)
    }
    fn ln_1p(self) -> Self {
        Interval::ln_1p(self)
    }
    fn sin(self) -> Self {
        Interval::sin(self)
    }
    fn cos(self) -> Self {
        Interval::cos(self)
    }
    fn sqrt(self) -> Self {
        Interval::sqrt(self)
    }
    fn square(self) -> Self {
        Interval::square(self)
    }
    fn may_be_zero(self) -> bool {
        self.contains(0.0) || self.is_nan()
    }
}

/// `log Σ exp(vᵢ)` on enclosures, without overflow (−∞ for an empty slice).
pub fn logsumexp(v: &[Interval]) -> Interval {
    let m = v.iter().map(|x| x.hi).fold(f64::NEG_INFINITY, f64::max);
    if !m.is_finite() {
        return Interval::exact(m);
    }
    let sum = v.iter().fold(Interval::exact(0.0), |acc, &x| acc + (x - Interval::exact(m)).exp());
    sum.ln() + m
}

/// An enclosure of the matrix exponential `e^A` of a square matrix given by its rows (the
/// entries taken as exact reals): scaling by 2⁻ˢ until ‖A/2ˢ‖∞ ≤ ½, the Taylor polynomial of
/// degree 20 in interval arithmetic plus its remainder (‖B‖^{21}/21!·1/(1 − ‖B‖/22) added to each
/// entry, since |(Σ_{k>20} B^k/k!)_{ij}| ≤ ‖Σ_{k>20} B^k/k!‖∞), then s interval squarings. Each
/// squaring can double the relative width, so the enclosure widens like 2ˢ·n·u·‖e^A‖: about 10⁻¹³
/// relative at ‖A‖ = 100 for n = 4. Returns the rows of enclosures.
pub fn expm(rows: &[Vec<f64>]) -> Vec<Vec<Interval>> {
    let n = rows.len();
    assert!(rows.iter().all(|r| r.len() == n), "expm needs a square matrix");
    let norm = rows.iter().map(|r| r.iter().fold(Interval::exact(0.0), |acc, &x| acc + Interval::exact(x.abs())).hi).fold(0.0, f64::max);
    if !norm.is_finite() {
        // An infinite or NaN entry: nothing is known of e^A.
        return vec![vec![Interval::ENTIRE; n]; n];
    }
    let mut s = 0i32;
    while norm * 2f64.powi(-s) > 0.5 {
        s += 1;
    }
    // A/2ˢ is exact (a power of two) unless an entry underflows; the interval product keeps it honest.
    let scale = Interval::exact(2f64.powi(-s));
    let b: Vec<Vec<Interval>> = rows.iter().map(|r| r.iter().map(|&x| Interval::exact(x) * scale).collect()).collect();
    let identity = |i: usize, j: usize| Interval::exact(if i == j { 1.0 } else { 0.0 });
    let mut sum: Vec<Vec<Interval>> = (0..n).map(|i| (0..n).map(|j| identity(i, j)).collect()).collect();
    let mut term = sum.clone();
    const DEGREE: u32 = 20;
    for k in 1..=DEGREE {
        term = matmul(&term, &b).into_iter().map(|r| r.into_iter().map(|x| x / Interval::exact(f64::from(k))).collect()).collect();
        for (srow, trow) in sum.iter_mut().zip(&term) {
            for (x, t) in srow.iter_mut().zip(trow) {
                *x += *t;
            }
        }
    }
    let nb = Interval::exact(norm) * scale;
    let factorial = (1..=DEGREE + 1).fold(Interval::exact(1.0), |acc, k| acc * Interval::exact(f64::from(k)));
    let r = (nb.powi(DEGREE + 1) / factorial / (Interval::exact(1.0) - nb / Interval::exact(f64::from(DEGREE + 2)))).hi;
    let mut e: Vec<Vec<Interval>> = sum.into_iter().map(|row| row.into_iter().map(|x| x + Interval { lo: -r, hi: r }).collect()).collect();
    for _ in 0..s {
        e = matmul(&e, &e);
    }
    e
}

/// An interval matrix given by rows times an interval vector.
pub fn matvec(a: &[Vec<Interval>], v: &[Interval]) -> Vec<Interval> {
    a.iter().map(|row| row.iter().zip(v).fold(Interval::exact(0.0), |acc, (&x, &y)| acc + x * y)).collect()
}

/// The Euclidean norm ‖v‖₂ of an interval vector, enclosed (the squares summed in order, then
/// the square root).
pub fn norm2(v: &[Interval]) -> Interval {
    v.iter().fold(Interval::exact(0.0), |acc, &x| acc + x.square()).sqrt()
}

/// A matrix of floats given by rows, each entry as its exact (point) interval.
pub fn exact_rows(rows: &[Vec<f64>]) -> Vec<Vec<Interval>> {
    rows.iter().map(|r| r.iter().map(|&x| Interval::exact(x)).collect()).collect()
}

/// The product of two interval matrices given by rows.
pub fn matmul(a: &[Vec<Interval>], b: &[Vec<Interval>]) -> Vec<Vec<Interval>> {
    let m = b.first().map_or(0, Vec::len);
    a.iter().map(|row| (0..m).map(|j| row.iter().zip(b).fold(Interval::exact(0.0), |acc, (&x, brow)| acc + x * brow[j])).collect()).collect()
}

/// How many times [`spectral_norm`] squares the Gram matrix: the upper bound
/// ‖(AᵀA)^k‖_F^{1/(2k)} with k = 2¹² exceeds ‖A‖₂ by a factor at most rank(A)^{1/(4k)}.
const GRAM_SQUARINGS: u32 = 12;

/// The spectral norm ‖A‖₂ (the largest singular value) of a matrix given by its rows, enclosed.
///
/// Lower end: ‖Av‖₂/‖v‖₂ on enclosures for the vector v of 60 power iterations on AᵀA in
/// floating point (any v ≠ 0 gives a lower bound; this one is close to the top singular vector
/// unless the top two singular values nearly tie). Upper end: ‖A‖₂^{2k} = ‖(AᵀA)^k‖₂ ≤
/// ‖(AᵀA)^k‖_F with k = 2¹², the Gram matrix squared twelve times on enclosures and rescaled by
/// powers of two as it goes (exactly, so neither end overflows or underflows), which exceeds ‖A‖₂
/// by a factor at most rank(A)^{1/16384} (2.8·10⁻⁴ relative at rank 100) plus the enclosures'
/// widening. [0, 0] for a zero matrix; [0, ∞] when an entry is not finite.
pub fn spectral_norm(rows: &[Vec<f64>]) -> Interval {
    spectral_norm_squaring(rows, GRAM_SQUARINGS)
}

/// [`spectral_norm`] with the Gram matrix squared `squarings` times.
fn spectral_norm_squaring(rows: &[Vec<f64>], squarings: u32) -> Interval {
    let cols = rows.first().map_or(0, Vec::len);
    assert!(rows.iter().all(|r| r.len() == cols), "spectral_norm needs rows of one length");
    let biggest = rows.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
    if !biggest.is_finite() || rows.iter().flatten().any(|x| x.is_nan()) {
        return Interval { lo: 0.0, hi: f64::INFINITY };
    }
    if biggest == 0.0 {
        return Interval::exact(0.0);
    }
    // A = 2^e·A' with max |A'_ij| in [1/2, 1): an exact rescaling.
    let e = biggest.log2().floor() as i32 + 1;
    let scaled: Vec<Vec<f64>> = rows.iter().map(|r| r.iter().map(|&x| x * 2f64.powi(-e)).collect()).collect();
    let a = exact_rows(&scaled);
    let at: Vec<Vec<Interval>> = (0..cols).map(|j| a.iter().map(|r| r[j]).collect()).collect();
    // The lower end.
    let mut v = vec![1.0; cols];
    for _ in 0..60 {
        let av: Vec<f64> = scaled.iter().map(|r| r.iter().zip(&v).map(|(x, y)| x * y).sum()).collect();
        let w: Vec<f64> = (0..cols).map(|j| scaled.iter().zip(&av).map(|(r, y)| r[j] * y).sum()).collect();
        let n = w.iter().map(|x| x * x).sum::<f64>().sqrt();
        if n == 0.0 || !n.is_finite() {
            break;
        }
        v = w.iter().map(|x| x / n).collect();
    }
    let vi: Vec<Interval> = v.iter().map(|&x| Interval::exact(x)).collect();
    let lower = (norm2(&matvec(&a, &vi)) / norm2(&vi)).lo.max(0.0);
    // The upper end: G = A'ᵀA', squared with a power-of-two rescaling 2^{−s} after each step, so
    // that (A'ᵀA')^k = 2^{shift}·G_final with shift = Σ 2^{(steps left)}·s.
    let mut g = matmul(&at, &a);
    let mut shift = 0i64;
    for _ in 0..squarings {
        g = matmul(&g, &g);
        shift *= 2;
        let m = g.iter().flatten().fold(0.0f64, |m, x| m.max(x.mag()));
        if m > 0.0 && m.is_finite() {
            let s = m.log2().floor() as i32;
            let factor = Interval::exact(2f64.powi(-s));
            g = g.into_iter().map(|r| r.into_iter().map(|x| x * factor).collect()).collect();
            shift += i64::from(s);
        }
    }
    let frobenius = g.iter().flatten().fold(Interval::exact(0.0), |acc, x| acc + x.square()).sqrt();
    let k2 = Interval::exact(2f64.powi(squarings as i32 + 1));
    let ln_upper = (frobenius.ln() + Interval::exact(shift as f64) * Interval::exact(2.0).ln()) / k2;
    let upper = ln_upper.exp().hi;
    let scale = 2f64.powi(e);
    Interval { lo: (lower * scale).min(upper * scale).next_down().max(0.0), hi: (upper * scale).next_up() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;
    use num_traits::FromPrimitive;

    fn q(x: f64) -> BigRational {
        BigRational::from_f64(x).unwrap()
    }

    fn encloses(i: Interval, exact: &BigRational) -> bool {
        (i.lo == f64::NEG_INFINITY || q(i.lo) <= *exact) && (i.hi == f64::INFINITY || *exact <= q(i.hi))
    }

    /// Operands across magnitudes, signs and the subnormal range.
    fn operands() -> Vec<f64> {
        let mut s = crate::mc::Stream::new(crate::mc::StreamKey::new(7, "interval"), 0);
        let mut v = vec![0.0, 1.0, -1.0, 0.1, 3.0, 1e-300, 3.0 * f64::from_bits(1), -2.5e-310, 1e300, 7.0 / 3.0];
        for _ in 0..200 {
            let m = s.uniform() * 2.0 - 1.0;
            let e = (s.uniform() * 80.0 - 40.0).round() as i32;
            v.push(m * 2f64.powi(e));
        }
        v
    }

    #[test]
    fn arithmetic_encloses_the_exact_result_within_one_ulp() {
        let v = operands();
        for (i, &a) in v.iter().enumerate() {
            for &b in v.iter().skip(i % 7).step_by(7) {
                let (x, y) = (Interval::exact(a), Interval::exact(b));
                for (name, got, exact) in [("+", x + y, q(a) + q(b)), ("−", x - y, q(a) - q(b)), ("×", x * y, q(a) * q(b))] {
                    assert!(encloses(got, &exact), "{a} {name} {b}: {got}");
                    // Tight: exact results stay points, inexact ones span one ulp.
                    assert!(got.lo == got.hi || got.lo.next_up() == got.hi || got.mag() < 1e-288, "{a} {name} {b}: {got} is wider than one ulp");
                }
                if b != 0.0 {
                    let got = x / y;
                    assert!(encloses(got, &(q(a) / q(b))), "{a} / {b}: {got}");
                    // Below 2⁻⁹⁶⁰ both ends widen (two ulps); elsewhere one ulp at most.
                    assert!(got.lo == got.hi || got.lo.next_up() == got.hi || got.mag() < 1e-288 || a.abs() < 1e-288, "{a} / {b}: {got}");
                }
            }
        }
    }

    #[test]
    fn square_roots_enclose_and_exact_squares_stay_points() {
        assert_eq!(Interval::exact(9.0).sqrt(), Interval::exact(3.0));
        for &x in &[2.0, 0.1, 1e-300, 5e-320, 1e300] {
            let r = Interval::exact(x).sqrt();
            assert!(q(r.lo) * q(r.lo) <= q(x) && q(x) <= q(r.hi) * q(r.hi), "√{x}: {r}");
        }
    }

    #[test]
    fn elementary_functions_enclose_reference_constants() {
        // e, ln 2 and e⁻¹ − 1 to 40 digits (reference values: their decimal expansions).
        let digits = |s: &str| {
            let (int, frac) = s.split_once('.').unwrap();
            format!("{int}{frac}/1{}", "0".repeat(frac.len())).parse::<BigRational>().unwrap()
        };
        let one = Interval::exact(1.0);
        assert!(encloses(one.exp(), &digits("2.7182818284590452353602874713526624977572")));
        assert!(encloses(Interval::exact(2.0).ln(), &digits("0.6931471805599453094172321214581765680755")));
        assert!(encloses((-one).exp_m1(), &-digits("0.6321205588285576784044762298385391325541")));
        assert!(encloses(one.ln_1p(), &digits("0.6931471805599453094172321214581765680755")));
        assert!(one.exp().width() <= 2.0 * 4.5e-16 * 2.0, "two ulps at most");
        assert!(Interval::exact(-1.0).ln().is_nan());
        assert_eq!(Interval::exact(0.0).ln().lo, f64::NEG_INFINITY);
        assert!(Interval::exact(1.0).erfc().contains(0.157_299_207_050_285_13));
    }

    /// Binary decimals are exact; 0.001 and 0.1 are not binary points, and their enclosures
    /// contain the decimal (checked in exact rationals: 1/1000 lies strictly inside).
    #[test]
    fn a_decimal_constant_is_enclosed_not_rounded() {
        assert_eq!(Interval::decimal("0.5"), Some(Interval::exact(0.5)));
        assert_eq!(Interval::decimal("-2.5e1"), Some(Interval::exact(-25.0)));
        assert_eq!(Interval::decimal("12.5"), Some(Interval::exact(12.5)));
        let milli = Interval::decimal("0.001").unwrap();
        assert!(milli.lo < 1e-3 && 1e-3 < milli.hi);
        let exact = num_rational::BigRational::new(1.into(), 1000.into());
        assert!(q(milli.lo) < exact && exact < q(milli.hi));
        assert_eq!(Interval::decimal("1e-3"), Some(milli));
        assert!(Interval::decimal("0.1").unwrap().width() > 0.0);
        for bad in ["", ".", "1e", "abc", "1.2.3", "inf", "NaN", "1e999"] {
            assert_eq!(Interval::decimal(bad), None, "{bad}");
        }
    }

    #[test]
    fn models_written_over_real_run_on_enclosures() {
        // softplus through the Real trait: the enclosure holds the float value and is narrow.
        let x = Interval::exact(0.3);
        let s = crate::math::softplus::softplus(x);
        let f = crate::math::softplus::softplus(0.3f64);
        assert!(s.contains(f) || (s.lo - f).abs() < 1e-16, "{s} vs {f}");
        assert!(s.width() < 1e-15);
        assert_eq!(Interval::exact(-3.0).abs(), Interval::exact(3.0));
        assert_eq!(Interval::new(-2.0, 1.0).square(), Interval::new(0.0, 4.0));
        assert_eq!(Interval::new(-2.0, 1.0).powi(3), Interval::new(-8.0, 1.0));
        assert_eq!(Interval::exact(1.0) / Interval::new(-1.0, 1.0), Interval::ENTIRE);
        assert!(Interval::exact(1.0).certainly_lt(Interval::exact(1.0).exp()));
    }

    #[test]
    fn the_matrix_exponential_is_enclosed_at_large_norm() {
        // e^{tA} for A = [[−1, 10], [0, −1]]: e^{−t}[[1, 10t], [0, 1]] (exact), at t = 1 and 40.
        for t in [1.0, 40.0] {
            let e = expm(&[vec![-t, 10.0 * t], vec![0.0, -t]]);
            let et = Interval::exact(-t).exp();
            let want = [[et, et * Interval::exact(10.0 * t)], [Interval::exact(0.0), et]];
            for i in 0..2 {
                for j in 0..2 {
                    let (got, w) = (e[i][j], want[i][j]);
                    assert!(got.lo <= w.hi && w.lo <= got.hi, "t = {t}, ({i}, {j}): {got} vs {w}");
                    // Narrow relative to the matrix (an exact 0 entry gets a width of ~1e-29).
                    assert!(got.width() <= 1e-9 * want[0][1].mag(), "t = {t}: {got} too wide");
                }
            }
        }
        // The 2×2 rotation generator: e^{θJ} = [[cos θ, −sin θ], [sin θ, cos θ]] at θ = 30.
        let e = expm(&[vec![0.0, -30.0], vec![30.0, 0.0]]);
        assert!(e[0][0].contains(30f64.cos()) || (e[0][0].mid() - 30f64.cos()).abs() < 1e-14, "{}", e[0][0]);
        assert!(e[1][0].width() < 1e-10);
        // An infinite entry: nothing is known (and no endless scaling loop).
        assert_eq!(expm(&[vec![f64::INFINITY]])[0][0], Interval::ENTIRE);
    }

    #[test]
    fn logsumexp_encloses_and_survives_overflow() {
        let v = [Interval::exact(1000.0), Interval::exact(1000.0)];
        let got = logsumexp(&v);
        assert!(got.contains(1000.0 + std::f64::consts::LN_2) && got.width() < 1e-12, "{got}");
        assert_eq!(logsumexp(&[]).lo, f64::NEG_INFINITY);
    }

    /// A fixed xorshift's doubles in [lo, hi).
    fn draws(n: usize, lo: f64, hi: f64, seed: u64) -> Vec<f64> {
        let mut z = seed | 1;
        (0..n)
            .map(|_| {
                z ^= z << 13;
                z ^= z >> 7;
                z ^= z << 17;
                lo + (hi - lo) * ((z >> 11) as f64 / (1u64 << 53) as f64)
            })
            .collect()
    }

    /// std's sin, cos and atan2 (not correctly rounded: within an ulp or two) inside the
    /// enclosure widened by two ulps.
    fn holds(i: Interval, x: f64) -> bool {
        Interval::new(i.lo.next_down().next_down(), i.hi.next_up().next_up()).contains(x)
    }

    #[test]
    fn sin_and_cos_enclose_every_point_of_the_interval_and_are_tight_on_points() {
        let (starts, widths) = (draws(300, -40.0, 40.0, 7), draws(300, 0.0, 7.0, 11));
        for (&a, &w) in starts.iter().zip(&widths) {
            let x = Interval::new(a, a + w * w / 7.0);
            let (s, c) = (x.sin(), x.cos());
            for k in 0..=64 {
                let p = x.lo + (x.hi - x.lo) * f64::from(k) / 64.0;
                assert!(holds(s, p.sin()) && holds(c, p.cos()), "{x}: sin {s}, cos {c} at {p}");
            }
            // On a point both are one ulp outward of CORE-MATH's correctly rounded value.
            let p = Interval::exact(a);
            assert!(p.sin().width() <= 4.0 * f64::EPSILON && p.cos().width() <= 4.0 * f64::EPSILON, "{a}");
        }
        // The extrema inside: sin on [0, π] reaches 1, cos on [3, 3.2] reaches −1 (π inside).
        assert_eq!(Interval::new(0.0, 3.2).sin().hi, 1.0);
        assert_eq!(Interval::new(3.0, 3.2).cos().lo, -1.0);
        // The control: the end values alone would miss them.
        assert!(1.0 > 0.0f64.sin().max(3.2f64.sin()) && -1.0 < 3.0f64.cos().min(3.2f64.cos()));
        assert_eq!(Interval::new(0.0, 7.0).sin(), Interval::new(-1.0, 1.0), "wider than 2π");
        assert_eq!(Interval::exact(1e300).cos(), Interval::new(-1.0, 1.0), "beyond the exact multiples of π");
    }

    #[test]
    fn atan2_encloses_every_angle_of_the_rectangle_and_the_branch_cut_is_whole() {
        let (xs, ys) = (draws(200, -3.0, 3.0, 5), draws(200, -3.0, 3.0, 9));
        for (&x, &y) in xs.iter().zip(&ys) {
            let (xi, yi) = (Interval::new(x, x + 0.25), Interval::new(y, y + 0.5));
            let angle = yi.atan2(xi);
            for i in 0..=8 {
                for j in 0..=8 {
                    let (px, py) = (x + 0.25 * f64::from(i) / 8.0, y + 0.5 * f64::from(j) / 8.0);
                    assert!(holds(angle, py.atan2(px)), "({xi}, {yi}): {angle} misses atan2({py}, {px})");
                }
            }
        }
        let cut = Interval::new(-0.1, 0.1).atan2(Interval::new(-2.0, -1.0));
        assert!(cut.lo <= -std::f64::consts::PI && cut.hi >= std::f64::consts::PI, "the negative real axis: {cut}");
        assert!(Interval::exact(1.0).atan2(Interval::exact(1.0)).contains(std::f64::consts::FRAC_PI_4));
    }

    #[test]
    fn the_spectral_norm_encloses_the_largest_singular_value_tightly() {
        for (seed, (m, n)) in [(3u64, (3, 3)), (5, (4, 2)), (7, (2, 5)), (13, (6, 6))] {
            let v = draws(m * n, -2.0, 2.0, seed);
            let rows: Vec<Vec<f64>> = v.chunks(n).map(<[f64]>::to_vec).collect();
            let sigma = nalgebra::DMatrix::from_row_slice(m, n, &v).singular_values().max();
            let got = spectral_norm(&rows);
            // nalgebra's SVD is accurate to a few ulps of σ_max: a slack of 10⁻¹³ relative.
            assert!(got.lo <= sigma * (1.0 + 1e-13) && sigma * (1.0 - 1e-13) <= got.hi, "{m}×{n}: {got} vs σ = {sigma}");
            assert!(got.width() <= 1e-3 * sigma, "{m}×{n}: {got} is not tight");
        }
        // The identity of order 4: ‖I‖₂ = 1. The control: without squaring the Gram matrix the
        // upper end is ‖IᵀI‖_F^{1/2} = 4^{1/4}, which the tightness test refuses.
        let identity: Vec<Vec<f64>> = (0..4).map(|i| (0..4).map(|j| f64::from(u8::from(i == j))).collect()).collect();
        let got = spectral_norm(&identity);
        assert!(got.contains(1.0) && got.hi < 1.001, "{got}");
        let loose = spectral_norm_squaring(&identity, 0);
        assert!(loose.contains(1.0) && loose.hi > 1.41, "{loose}");
        assert_eq!(spectral_norm(&[vec![0.0, 0.0]]), Interval::exact(0.0));
        // Huge and tiny entries: the power-of-two rescaling keeps both ends finite.
        for s in [1e300, 1e-300] {
            let got = spectral_norm(&[vec![3.0 * s, 0.0], vec![0.0, 4.0 * s]]);
            assert!(got.contains(4.0 * s) && got.width() <= 1e-3 * 4.0 * s, "{got}");
        }
    }
}
