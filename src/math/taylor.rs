//! Truncated Taylor series with enclosed coefficients ("Taylor arithmetic"): a [`Taylor`] holds
//! enclosures of `f(x₀), f′(x₀), f″(x₀)/2!, …, f^{(K−1)}(x₀)/(K−1)!`, and arithmetic, `exp` and
//! `ln` on it follow the standard recurrences (Griewank & Walther, *Evaluating Derivatives*,
//! ch. 13) in interval arithmetic. Seeded at a point it gives the Taylor coefficients there;
//! seeded at an interval `[a, b]` it gives, coefficient by coefficient, enclosures of
//! `f^{(k)}(ξ)/k!` for every ξ in `[a, b]` — the Lagrange remainder of the expansion. That is
//! what makes [`normal_expectation_enclosure`] rigorous.
//!
//! [`Taylor`] implements [`Real`], so a function written generically over `Real` (the models,
//! [`softplus`](super::softplus::softplus)) runs on it unchanged.

use super::{Interval, Real};
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// Coefficients kept: degree 0 to `TAYLOR_ORDER − 1`.
pub const TAYLOR_ORDER: usize = 13;

/// A Taylor series in `t = x − x₀` truncated after degree [`TAYLOR_ORDER`]` − 1`, each
/// coefficient an enclosure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Taylor {
    /// `c[k]` encloses `f^{(k)}/k!` at the expansion point (or over the expansion interval).
    pub c: [Interval; TAYLOR_ORDER],
}

impl Taylor {
    /// A constant enclosure (every derivative zero).
    pub fn constant(v: Interval) -> Taylor {
        let mut c = [Interval::exact(0.0); TAYLOR_ORDER];
        c[0] = v;
        Taylor { c }
    }

    /// The independent variable `x = x₀ + t` expanded about `x₀` (a point, or an interval for
    /// the remainder).
    pub fn variable(x0: Interval) -> Taylor {
        let mut t = Taylor::constant(x0);
        t.c[1] = Interval::exact(1.0);
        t
    }

    /// Series of `exp(a)` from `e₀ = exp(a₀)`: `k·e_k = Σ_{j=1..k} j·a_j·e_{k−j}`.
    fn exp_from(self, e0: Interval) -> Taylor {
        let a = &self.c;
        let mut e = [Interval::exact(0.0); TAYLOR_ORDER];
        e[0] = e0;
        for k in 1..TAYLOR_ORDER {
            let s = (1..=k).fold(Interval::exact(0.0), |s, j| s + a[j] * e[k - j] * j as f64);
            e[k] = s / Interval::exact(k as f64);
        }
        Taylor { c: e }
    }

    /// Series of `ln(b)` given `l₀ = ln(b₀)`: `l_k = (b_k − (1/k)·Σ_{j=1..k−1} j·l_j·b_{k−j}) / b₀`.
    fn ln_from(b: &[Interval; TAYLOR_ORDER], l0: Interval) -> Taylor {
        let mut l = [Interval::exact(0.0); TAYLOR_ORDER];
        l[0] = l0;
        for k in 1..TAYLOR_ORDER {
            let s = (1..k).fold(Interval::exact(0.0), |s, j| s + l[j] * b[k - j] * j as f64);
            l[k] = (b[k] - s / Interval::exact(k as f64)) / b[0];
        }
        Taylor { c: l }
    }

    /// Series of `sin(a)` and `cos(a)` together: `k·s_k = Σ_{j=1..k} j·a_j·c_{k−j}`,
    /// `k·c_k = −Σ_{j=1..k} j·a_j·s_{k−j}`.
    fn sin_cos(self) -> (Taylor, Taylor) {
        let a = &self.c;
        let (mut s, mut c) = ([Interval::exact(0.0); TAYLOR_ORDER], [Interval::exact(0.0); TAYLOR_ORDER]);
        (s[0], c[0]) = (a[0].sin(), a[0].cos());
        for k in 1..TAYLOR_ORDER {
            let (ss, cs) =
                (1..=k).fold((Interval::exact(0.0), Interval::exact(0.0)), |(ss, cs), j| (ss + a[j] * c[k - j] * j as f64, cs + a[j] * s[k - j] * j as f64));
            s[k] = ss / Interval::exact(k as f64);
            c[k] = -(cs / Interval::exact(k as f64));
        }
        (Taylor { c: s }, Taylor { c })
    }
}

impl Add for Taylor {
    type Output = Taylor;
    fn add(self, o: Taylor) -> Taylor {
        Taylor { c: std::array::from_fn(|k| self.c[k] + o.c[k]) }
    }
}

impl Sub for Taylor {
    type Output = Taylor;
    fn sub(self, o: Taylor) -> Taylor {
        Taylor { c: std::array::from_fn(|k| self.c[k] - o.c[k]) }
    }
}

impl Neg for Taylor {
    type Output = Taylor;
    fn neg(self) -> Taylor {
        Taylor { c: self.c.map(|v| -v) }
    }
}

impl Mul for Taylor {
    type Output = Taylor;
    /// The Cauchy product, truncated.
    fn mul(self, o: Taylor) -> Taylor {
        Taylor { c: std::array::from_fn(|k| (0..=k).fold(Interval::exact(0.0), |s, j| s + self.c[j] * o.c[k - j])) }
    }
}

impl Div for Taylor {
    type Output = Taylor;
    /// `q = a/b`: `q_k = (a_k − Σ_{j=1..k} b_j·q_{k−j}) / b₀`.
    fn div(self, o: Taylor) -> Taylor {
        let mut q = [Interval::exact(0.0); TAYLOR_ORDER];
        for k in 0..TAYLOR_ORDER {
            let s = (1..=k).fold(Interval::exact(0.0), |s, j| s + o.c[j] * q[k - j]);
            q[k] = (self.c[k] - s) / o.c[0];
        }
        Taylor { c: q }
    }
}

impl Add<f64> for Taylor {
    type Output = Taylor;
    fn add(mut self, v: f64) -> Taylor {
        self.c[0] += Interval::exact(v);
        self
    }
}

impl Mul<f64> for Taylor {
    type Output = Taylor;
    fn mul(self, v: f64) -> Taylor {
        Taylor { c: self.c.map(|x| x * v) }
    }
}

impl AddAssign for Taylor {
    fn add_assign(&mut self, o: Taylor) {
        *self = *self + o;
    }
}

impl SubAssign for Taylor {
    fn sub_assign(&mut self, o: Taylor) {
        *self = *self - o;
    }
}

impl MulAssign for Taylor {
    fn mul_assign(&mut self, o: Taylor) {
        *self = *self * o;
    }
}

impl Real for Taylor {
    fn cst(v: f64) -> Self {
        Taylor::constant(Interval::exact(v))
    }
    /// The midpoint of the value's enclosure.
    fn value(self) -> f64 {
        self.c[0].mid()
    }
    fn exp(self) -> Self {
        self.exp_from(self.c[0].exp())
    }
    fn ln(self) -> Self {
        Taylor::ln_from(&self.c, self.c[0].ln())
    }
    fn exp_m1(self) -> Self {
        let mut e = self.exp_from(self.c[0].exp());
        e.c[0] = self.c[0].exp_m1();
        e
    }
    fn ln_1p(self) -> Self {
        let mut b = self.c;
        b[0] = Interval::exact(1.0) + b[0];
        Taylor::ln_from(&b, self.c[0].ln_1p())
    }
    fn sin(self) -> Self {
        self.sin_cos().0
    }
    fn cos(self) -> Self {
        self.sin_cos().1
    }
    fn may_be_zero(self) -> bool {
        self.c[0].may_be_zero()
    }
    /// `r = √a`: `r_k = (a_k − Σ_{j=1..k−1} r_j·r_{k−j}) / (2r₀)`.
    fn sqrt(self) -> Self {
        let a = &self.c;
        let mut r = [Interval::exact(0.0); TAYLOR_ORDER];
        r[0] = a[0].sqrt();
        for k in 1..TAYLOR_ORDER {
            let s = (1..k).fold(Interval::exact(0.0), |s, j| s + r[j] * r[k - j]);
            r[k] = (a[k] - s) / (r[0] * 2.0);
        }
        Taylor { c: r }
    }
}

/// How fast `|f|` may grow beyond the integration range of [`normal_expectation_enclosure`]:
/// `|f(x)| ≤ scale·|x|^power` for every `|x| ≥ 12`. It is part of what the caller states about
/// `f`, not a tolerance; it bounds the neglected tails (below 10⁻²⁸·scale for power ≤ 4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Growth {
    /// The constant (≥ 0).
    pub scale: f64,
    /// The power (0 ≤ power ≤ 72, so that `x^power·φ(x)` decreases beyond 12).
    pub power: f64,
}

/// Half-width of the integration range; beyond it [`Growth`] bounds the tails.
const RANGE: f64 = 12.0;

/// An enclosure of `E f(X)`, X ~ N(0, 1): `∫ f φ` over [−12, 12] in panels, each the integral of
/// its degree-11 Taylor polynomial at the midpoint plus the Lagrange remainder enclosed over
/// the panel (the degree-12 coefficient, integrated against t¹² ≥ 0, so the mean-value theorem
/// for integrals applies), panels halved until each is narrower than its share of `tol` (or than
/// 2⁻²⁰·tol) or halving stops helping (rounding); plus `±4·scale·12^{power−1}·φ(12)` for the tails (`x^p φ(x)` decreases at
/// least like `e^{−12(x−12)/2}` beyond 12 when p ≤ 72). The exact expectation is inside whenever
/// `f` is analytic on each panel's real interval, given as a function of [`Taylor`] (built
/// from `+ − × ÷`, `exp`, `ln`, `exp_m1`, `ln_1p`), and `growth` holds. `extra` breakpoints
/// (with their negatives) start panels where `f` changes on a small scale (√(c/γ) for
/// `ln(c + γx²)`, whose complex singularities at ±i√(c/γ) limit the panels' useful width).
/// The width reached is what it is: `tol` is a target, and the enclosure never claims more.
/// An invalid `growth` gives the entire line.
pub fn normal_expectation_enclosure(f: impl Fn(Taylor) -> Taylor, growth: Growth, extra: &[f64], tol: f64) -> Interval {
    if !(growth.scale >= 0.0 && (0.0..=72.0).contains(&growth.power)) {
        return Interval::ENTIRE;
    }
    let g = |x: Taylor| {
        let half_x2 = x * x * 0.5;
        f(x) * (-half_x2).exp()
    };
    let mut pts: Vec<f64> = vec![-RANGE, -6.0, -3.0, -1.0, 0.0, 1.0, 3.0, 6.0, RANGE];
    for &e in extra {
        if e.is_finite() && e.abs() < RANGE {
            pts.push(e);
            pts.push(-e);
        }
    }
    pts.sort_by(f64::total_cmp);
    pts.dedup();
    let per_unit = tol / (2.0 * RANGE);
    let mut splits = MAX_SPLITS;
    let tols = (per_unit, tol * f64::powi(2.0, -20));
    let body = pts.windows(2).fold(Interval::exact(0.0), |s, w| s + refine(&g, w[0], w[1], panel(&g, w[0], w[1]), tols, 60, &mut splits));
    let two_pi = Interval::exact(2.0) * Interval::around(std::f64::consts::PI, 1.0, 0.0);
    let inv_sqrt_2pi = Interval::exact(1.0) / two_pi.sqrt();
    let range = Interval::exact(RANGE);
    let phi_range = (-(range * range * 0.5)).exp() * inv_sqrt_2pi;
    let tail_bound = Interval::exact(4.0 * growth.scale) * pow_real(range, growth.power - 1.0) * phi_range;
    body * inv_sqrt_2pi + Interval::new(-tail_bound.hi, tail_bound.hi)
}

/// `x^p` for an enclosure `x > 0` and a real p, as `exp(p·ln x)`.
fn pow_real(x: Interval, p: f64) -> Interval {
    (x.ln() * Interval::exact(p)).exp()
}

/// Most panel halvings in one [`normal_expectation_enclosure`].
const MAX_SPLITS: usize = 1 << 16;

/// `∫_a^b g` enclosed, given `whole`, its one-panel enclosure: halved while the enclosure is
/// wider than `per_unit·(b − a)` and than `floor` (`tol = (per_unit, floor)`; the floor stops
/// the refinement of the many tiny panels a graded mesh puts next to a near-singularity, each
/// negligible) and halving still helps (the halves' enclosures together at
/// most ¾ as wide; otherwise the width is rounding, which halving does not remove, and the
/// intersection of the two enclosures is kept), at most `depth` levels and `splits` halvings.
fn refine(g: &impl Fn(Taylor) -> Taylor, a: f64, b: f64, whole: Interval, tol: (f64, f64), depth: u32, splits: &mut usize) -> Interval {
    let m = 0.5 * (a + b);
    let (per_unit, floor) = tol;
    if depth == 0 || *splits == 0 || whole.width() <= (per_unit * (b - a)).max(floor) || !(a < m && m < b) {
        return whole;
    }
    *splits -= 1;
    let (left, right) = (panel(g, a, m), panel(g, m, b));
    let halves = left + right;
    if halves.is_nan() || whole.is_nan() {
        return whole;
    }
    if halves.width() > 0.75 * whole.width() {
        return whole.intersect(halves).unwrap_or(whole);
    }
    refine(g, a, m, left, tol, depth - 1, splits) + refine(g, m, b, right, tol, depth - 1, splits)
}

/// `∫_a^b g` on one panel: the Taylor polynomial at the midpoint m integrated exactly over
/// `t ∈ [a − m, b − m]`, plus the top coefficient enclosed over `[a, b]` times `∫ t^{K−1} dt`.
fn panel(g: &impl Fn(Taylor) -> Taylor, a: f64, b: f64) -> Interval {
    const K: usize = TAYLOR_ORDER;
    let m = 0.5 * (a + b);
    let (ta, tb) = (Interval::exact(a) - Interval::exact(m), Interval::exact(b) - Interval::exact(m));
    // ∫_{ta}^{tb} t^j dt = (tb^{j+1} − ta^{j+1})/(j+1).
    let moment = |j: usize| (tb.powi(j as u32 + 1) - ta.powi(j as u32 + 1)) / Interval::exact(j as f64 + 1.0);
    let at_mid = g(Taylor::variable(Interval::exact(m)));
    let over = g(Taylor::variable(Interval::new(a, b)));
    let poly = (0..K - 1).fold(Interval::exact(0.0), |s, j| s + at_mid.c[j] * moment(j));
    // K − 1 is even: t^{K−1} ≥ 0, so ∫ g_{K−1}(ξ(t)) t^{K−1} dt lies in G·∫ t^{K−1} dt.
    let taylor = poly + over.c[K - 1] * moment(K - 1);
    // Also (b − a)·g([a, b]), which needs no derivative: the two enclose the same integral, so
    // their intersection does too. It keeps a panel finite next to a near-singularity, where the
    // high coefficients (~distance^{−k}) overflow.
    let crude = (Interval::exact(b) - Interval::exact(a)) * over.c[0];
    if taylor.is_nan() || !taylor.is_finite() {
        return crude;
    }
    taylor.intersect(crude).unwrap_or(taylor)
}

/// Breakpoints graded geometrically from `d` up to 1 (`d·2^j`), for an integrand with a
/// (complex) singularity at distance `d` from 0, such as ln(c + γx²) at ±i√(c/γ): each panel is
/// then about as wide as its distance to the singularity, where a Taylor expansion converges.
pub fn graded_breakpoints(d: f64) -> Vec<f64> {
    let mut pts = vec![];
    let mut x = d.max(f64::MIN_POSITIVE);
    while x < 1.0 {
        pts.push(x);
        x *= 2.0;
    }
    pts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Polynomial moments: E X^{2n} = (2n − 1)!!, enclosed and within 1e−13.
    #[test]
    fn gaussian_moments_are_enclosed() {
        for (n, exact) in [(0u32, 1.0), (1, 1.0), (2, 3.0), (3, 15.0)] {
            let e = normal_expectation_enclosure(|x| (0..2 * n).fold(Taylor::cst(1.0), |p, _| p * x), Growth { scale: 1.0, power: 2.0 * n as f64 }, &[], 1e-14);
            assert!(e.contains(exact) && e.width() < 1e-13 * exact, "E X^{} = {exact}: {e}", 2 * n);
        }
    }

    /// E ln X² = −γ_E − ln 2 is the limit c → 0 of E ln(c + X²); at c = 10⁻¹⁰ the difference is
    /// √(2πc) − c + o(c) (from d/ds E ln(X² + s) = √(π/(2s))·e^{s/2}·erfc(√(s/2))), and the
    /// enclosure resolves it and agrees with the independent erfcx form.
    #[test]
    fn log_chi_square_near_its_singular_end_is_enclosed() {
        let c: f64 = 1e-10;
        // |ln(c + x²)| ≤ x² for |x| ≥ 12.
        let e = normal_expectation_enclosure(|x| (x * x + c).ln(), Growth { scale: 1.0, power: 2.0 }, &[c.sqrt()], 1e-13);
        let limit = -super::super::quadrature::EULER_GAMMA - std::f64::consts::LN_2;
        let expected = limit + (2.0 * std::f64::consts::PI * c).sqrt() - c;
        assert!(e.width() < 1e-11, "{e}");
        assert!((e.mid() - expected).abs() < 1e-12, "{e} vs {expected}");
        let erfcx = super::super::quadrature::expected_log_erfcx_form(c, 1.0);
        assert!((e.mid() - erfcx).abs() < 1e-12, "{e} vs the erfcx form {erfcx}");
    }

    /// The enclosure can fail: a wrong value (the mean of X² taken as 1 + 10⁻¹²) lies outside.
    #[test]
    fn the_enclosure_excludes_a_value_off_by_a_trillionth() {
        let e = normal_expectation_enclosure(|x| x * x, Growth { scale: 1.0, power: 2.0 }, &[], 1e-15);
        assert!(e.contains(1.0) && !e.contains(1.0 + 1e-12), "{e}");
    }

    /// Series arithmetic against known expansions: ln(1 + t), e^t, 1/(1 − t), at 0.
    #[test]
    fn series_match_known_expansions() {
        let t = Taylor::variable(Interval::exact(0.0));
        let ln1p = t.ln_1p();
        let exp = t.exp();
        let geo = Taylor::cst(1.0) / (Taylor::cst(1.0) - t);
        let mut fact = 1.0;
        for k in 1..TAYLOR_ORDER {
            fact *= k as f64;
            let sign = if k % 2 == 1 { 1.0 } else { -1.0 };
            assert!(ln1p.c[k].contains(sign / k as f64), "ln(1+t)_{k} = {}", ln1p.c[k]);
            assert!(exp.c[k].contains(1.0 / fact) && exp.c[k].width() < 1e-15, "e^t_{k} = {}", exp.c[k]);
            assert!(geo.c[k].contains(1.0), "1/(1−t)_{k} = {}", geo.c[k]);
        }
        let em1 = t.exp_m1();
        assert!(em1.c[0].contains(0.0) && em1.c[3].contains(1.0 / 6.0));
    }

    /// sin, cos and √ against their expansions: at 0, sin t = Σ (−1)^m t^{2m+1}/(2m+1)!, cos
    /// likewise; √(1 + t) = Σ C(½, k) t^k; and at x₀ = 0.7 the identity sin² + cos² = 1 holds
    /// coefficient by coefficient (1 at degree 0, 0 beyond), while a cosine series with its
    /// sign flipped (the control) breaks it at degree 2.
    #[test]
    fn sine_cosine_and_square_root_series_match_their_expansions() {
        let t = Taylor::variable(Interval::exact(0.0));
        let (s, c) = (t.sin(), t.cos());
        let r = (t + 1.0).sqrt();
        let (mut fact, mut binom) = (1.0, 1.0);
        for k in 1..TAYLOR_ORDER {
            fact *= k as f64;
            binom *= (0.5 - (k - 1) as f64) / k as f64;
            let (want_s, want_c) = match k % 4 {
                1 => (1.0 / fact, 0.0),
                2 => (0.0, -1.0 / fact),
                3 => (-1.0 / fact, 0.0),
                _ => (0.0, 1.0 / fact),
            };
            assert!(s.c[k].contains(want_s) && s.c[k].width() < 1e-15, "sin_{k} = {}", s.c[k]);
            assert!(c.c[k].contains(want_c) && c.c[k].width() < 1e-15, "cos_{k} = {}", c.c[k]);
            assert!(r.c[k].contains(binom) && r.c[k].width() < 1e-14, "√(1+t)_{k} = {} vs {binom}", r.c[k]);
        }
        let x = Taylor::variable(Interval::exact(0.7));
        let one = x.sin() * x.sin() + x.cos() * x.cos();
        assert!(one.c[0].contains(1.0) && (1..TAYLOR_ORDER).all(|k| one.c[k].contains(0.0) && one.c[k].width() < 1e-14));
        let wrong = x.sin() * x.sin() + x.cos() * (-x.cos());
        assert!(!wrong.c[2].contains(0.0), "the control breaks the identity");
    }
}
