//! 004 §4.2, eqs (17)–(18): the special case in which G x xᵀ Wᵀ is diagonalised with Ā, and
//! the unrolled form (15) in Ā's eigenvectors, as printed and corrected, against recursion (14).
//!
//! The setting, as §4.2 states it: scalar inputs, Δ fixed, Ā = PΛPᵀ with P orthogonal and
//! Λ = diag(λ_1, …, λ_H) (not sorted), G and W scalings of Ā's last eigenvector p_H, γ ≥ 0 the
//! product of the two scalings. Then G x_t x_tᵀ Wᵀ = γ x_t² p_H p_Hᵀ, and
//!
//! ```text
//! (17) Ā + G x_t x_tᵀ Wᵀ = P diag(λ_1, …, λ_{H−1}, λ_H + γ x_t²) Pᵀ           (printed: x_{t+1}²)
//! (18) h_t = P diag(λ_n^t, ∏_{i≤t} m_i) Pᵀ h_0 + P Σ_{i≤t} diag(λ_n^{t−i}, ∏_{i<j≤t} m_j) Pᵀ B̄ x_i
//!      (m_i = λ_H + γ x_i²; printed: λ_n^t inside the sum, no leading P on the sum, B for B̄)
//! ```
//!
//! * `004.eq17.printed` (Erratum, typo): (17) with x_{t+1}² is refuted.
//! * `004.eq18.printed` (Erratum, typo): (18) as printed is refuted.
//! * `004.eq18` (Theorem): (17) with x_t² and (18) corrected equal recursion (14) at every t.
//!   Control: the printed exponent λ_n^t inside the sum (the leading P kept).
//!
//! The instances are exact binary numbers and P is a Householder reflection I − 2vvᵀ/(vᵀv) with
//! v on a grid, so P is exactly orthogonal (and symmetric) in the rationals; every formula is
//! written once over [`Real`] and runs on `f64` (the search) and on intervals (the certificate,
//! which encloses the exact P). The tolerances are forward-error bounds of the two computations:
//! every term of either side is dominated entrywise by the absolute recursion
//! s_t = |P||Λ_t||Pᵀ| s_{t−1} + |B̄||x_t| (s_0 = |h_0|, Λ_t = diag(λ_n, m_t)), since
//! |PᵀP| = I ≤ |Pᵀ||P| entrywise; a chain of t steps of H-term dot products rounds at most
//! (T(H + 6) + 4H + 8) times (the P computed in floating point is orthogonal to γ_{H+4} per
//! factor), so each side is within γ_k·s_t of the exact value with k = T(H + 6) + 4H + 8, and the
//! two sides agree to 2γ_k·s_t.

use crate::claim::{property, Claim, ErrorKind, Eval, Paper, Rounding};
use crate::claim::{Scale, Tolerance};
use crate::math::{Interval, Real};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// An instance of §4.2's special case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpecialCase {
    /// λ_1, …, λ_H: Ā's eigenvalues (a 1/16 grid in [−1, 1]).
    pub lambda: Vec<f64>,
    /// v: P = I − 2vvᵀ/(vᵀv), Ā's eigenvectors as P's columns (a 1/4 grid in [−1, 1], v ≠ 0).
    pub householder: Vec<f64>,
    /// g: G = g·p_H (a 1/8 grid in [0, 1]).
    pub g: f64,
    /// w: W = w·p_H (a 1/8 grid in [0, 1]); γ = g·w.
    pub w: f64,
    /// B̄ (length H; a 1/8 grid in [−1, 1]).
    pub b_bar: Vec<f64>,
    /// h_0 (length H; a 1/8 grid in [−1, 1]).
    pub h0: Vec<f64>,
    /// The scalar inputs x_1, …, x_T (a 1/16 grid in [−2, 2]).
    pub x: Vec<f64>,
}

/// Which form of (17)–(18) is compared with recursion (14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// (17) with x_t², (18) with λ_n^{t−i} and the leading P.
    Corrected,
    /// As printed: (17) with x_{t+1}²; (18) with λ_n^t inside the sum and no leading P on it.
    Printed,
    /// (18) corrected but for the exponent λ_n^t inside the sum (the control).
    PrintedExponent,
}

fn grid(lo: i32, hi: i32, step: f64) -> impl Strategy<Value = f64> + Clone {
    (lo..=hi).prop_map(move |k| f64::from(k) * step)
}

fn cases() -> impl Strategy<Value = SpecialCase> {
    (1usize..=5, 1usize..=20)
        .prop_flat_map(|(h, len)| {
            (
                prop::collection::vec(grid(-16, 16, 1.0 / 16.0), h),
                prop::collection::vec(grid(-4, 4, 0.25), h),
                grid(0, 8, 0.125),
                grid(0, 8, 0.125),
                prop::collection::vec(grid(-8, 8, 0.125), h),
                prop::collection::vec(grid(-8, 8, 0.125), h),
                prop::collection::vec(grid(-32, 32, 1.0 / 16.0), len),
            )
        })
        .prop_map(|(lambda, mut householder, g, w, b_bar, h0, x)| {
            if householder.iter().all(|&v| v == 0.0) {
                *householder.last_mut().expect("H ≥ 1") = 1.0;
            }
            SpecialCase { lambda, householder, g, w, b_bar, h0, x }
        })
}

type Matrix<R> = Vec<Vec<R>>;

fn matvec<R: Real>(a: &Matrix<R>, v: &[R]) -> Vec<R> {
    a.iter().map(|row| row.iter().zip(v).fold(R::zero(), |s, (&x, &y)| s + x * y)).collect()
}

fn transpose_vec<R: Real>(p: &Matrix<R>, v: &[R]) -> Vec<R> {
    (0..p.len()).map(|j| p.iter().zip(v).fold(R::zero(), |s, (row, &y)| s + row[j] * y)).collect()
}

/// `P diag(d) Pᵀ`.
fn conjugate<R: Real>(p: &Matrix<R>, d: &[R]) -> Matrix<R> {
    let h = p.len();
    (0..h).map(|i| (0..h).map(|j| (0..h).fold(R::zero(), |s, n| s + p[i][n] * d[n] * p[j][n])).collect()).collect()
}

impl SpecialCase {
    fn size(&self) -> usize {
        self.lambda.len()
    }

    /// P = I − 2vvᵀ/(vᵀv) (in an enclosure: the exact reflection).
    fn p<R: Real>(&self) -> Matrix<R> {
        let v: Vec<R> = self.householder.iter().map(|&x| R::cst(x)).collect();
        let norm2 = v.iter().fold(R::zero(), |s, &x| s + x * x);
        let h = self.size();
        (0..h).map(|i| (0..h).map(|j| R::cst(if i == j { 1.0 } else { 0.0 }) - R::cst(2.0) * v[i] * v[j] / norm2).collect()).collect()
    }

    fn gamma<R: Real>(&self) -> R {
        R::cst(self.g) * R::cst(self.w)
    }

    /// m_i = λ_H + γ x_i² (i counted from 1).
    fn m<R: Real>(&self, i: usize) -> R {
        let x = R::cst(self.x[i - 1]);
        R::cst(self.lambda[self.size() - 1]) + self.gamma::<R>() * x * x
    }

    /// The transition of (14) at step t, Ā + G x_t x_tᵀ Wᵀ with Ā = PΛPᵀ, G = g p_H, W = w p_H.
    fn transition<R: Real>(&self, p: &Matrix<R>, t: usize) -> Matrix<R> {
        let h = self.size();
        let lambda: Vec<R> = self.lambda.iter().map(|&l| R::cst(l)).collect();
        let abar = conjugate(p, &lambda);
        let x = R::cst(self.x[t - 1]);
        let (g, w) = (R::cst(self.g), R::cst(self.w));
        (0..h).map(|i| (0..h).map(|j| abar[i][j] + (g * p[i][h - 1]) * x * x * (w * p[j][h - 1])).collect()).collect()
    }

    /// (17)'s right-hand side at step t, with x_{t+shift}².
    fn eq17<R: Real>(&self, p: &Matrix<R>, t: usize, shift: usize) -> Matrix<R> {
        let h = self.size();
        let mut d: Vec<R> = self.lambda.iter().map(|&l| R::cst(l)).collect();
        d[h - 1] = self.m(t + shift);
        conjugate(p, &d)
    }

    /// h_1, …, h_T by recursion (14).
    fn recursion<R: Real>(&self, p: &Matrix<R>) -> Vec<Vec<R>> {
        let mut h: Vec<R> = self.h0.iter().map(|&x| R::cst(x)).collect();
        (1..=self.x.len())
            .map(|t| {
                let next = matvec(&self.transition(p, t), &h);
                h = next.iter().zip(&self.b_bar).map(|(&s, &b)| s + R::cst(b) * R::cst(self.x[t - 1])).collect();
                h.clone()
            })
            .collect()
    }

    /// h_t by (18) in `form`.
    fn eq18<R: Real>(&self, p: &Matrix<R>, t: usize, form: Form) -> Vec<R> {
        let h = self.size();
        let h0: Vec<R> = self.h0.iter().map(|&x| R::cst(x)).collect();
        let b: Vec<R> = self.b_bar.iter().map(|&x| R::cst(x)).collect();
        let power = |n: usize, e: usize| (0..e).fold(R::cst(1.0), |s, _| s * R::cst(self.lambda[n]));
        let product = |from: usize| (from..=t).fold(R::cst(1.0), |s, j| s * self.m::<R>(j));
        let diagonal = |exponent: usize, from: usize| -> Vec<R> { (0..h).map(|n| if n == h - 1 { product(from) } else { power(n, exponent) }).collect() };
        let (pt_h0, pt_b) = (transpose_vec(p, &h0), transpose_vec(p, &b));
        let free: Vec<R> = diagonal(t, 1).iter().zip(&pt_h0).map(|(&d, &u)| d * u).collect();
        let mut driven = vec![R::zero(); h];
        for i in 1..=t {
            let exponent = if form == Form::Corrected { t - i } else { t };
            let x = R::cst(self.x[i - 1]);
            for ((s, &d), &u) in driven.iter_mut().zip(&diagonal(exponent, i + 1)).zip(&pt_b) {
                *s += d * u * x;
            }
        }
        let free = matvec(p, &free);
        let driven = if form == Form::Printed { driven } else { matvec(p, &driven) };
        free.iter().zip(&driven).map(|(&a, &b)| a + b).collect()
    }

    /// The absolute recursion s_t = |P||Λ_t||Pᵀ| s_{t−1} + |B̄||x_t| (s_0 = |h_0|), which
    /// dominates every term of both sides at step t (module doc).
    fn magnitudes(&self, p: &Matrix<f64>) -> Vec<Vec<f64>> {
        let h = self.size();
        let abs_p: Matrix<f64> = p.iter().map(|row| row.iter().map(|x| x.abs()).collect()).collect();
        let mut s: Vec<f64> = self.h0.iter().map(|x| x.abs()).collect();
        (1..=self.x.len())
            .map(|t| {
                let mut d: Vec<f64> = self.lambda.iter().map(|l| l.abs()).collect();
                d[h - 1] = self.lambda[h - 1].abs() + self.g * self.w * self.x[t - 1] * self.x[t - 1];
                let next = matvec(&conjugate(&abs_p, &d), &s);
                s = next.iter().zip(&self.b_bar).map(|(&a, &b)| a + (b * self.x[t - 1]).abs()).collect();
                s.clone()
            })
            .collect()
    }

    /// The rounding count k of the tolerance 2γ_k·s_t (module doc).
    fn roundings(&self) -> usize {
        let (h, len) = (self.size(), self.x.len());
        len * (h + 6) + 4 * h + 8
    }
}

/// Recursion (14) against (18) in `form` (and, corrected, (17) with x_t²) at every t, each
/// coordinate within 2γ_k of its magnitude s_t: the property of all three claims of (18).
fn margin(c: &SpecialCase, form: Form) -> Eval {
    let p = c.p::<f64>();
    let (states, sizes) = (c.recursion(&p), c.magnitudes(&p));
    let gamma = Rounding::gamma(c.roundings());
    let mut worst = Eval::Margin(f64::INFINITY);
    for (t, (h, s)) in (1..).zip(states.iter().zip(&sizes)) {
        let unrolled = c.eq18(&p, t, form);
        for ((&a, &b), &scale) in h.iter().zip(&unrolled).zip(s) {
            worst = worst.min(Eval::le_by((a - b).abs(), 0.0, Scale(scale.max(f64::MIN_POSITIVE)), Tolerance::absolute(2.0 * gamma * scale)));
        }
        if form == Form::Corrected {
            worst = worst.min(eq17_gap(c, &p, t, 0));
        }
    }
    worst
}

/// (17) at step t with x_{t+shift}², entrywise within 4γ_{2H+8} of |P| diag(|λ|, |λ_H| + γ x²) |Pᵀ|.
fn eq17_gap(c: &SpecialCase, p: &Matrix<f64>, t: usize, shift: usize) -> Eval {
    let h = c.size();
    let (lhs, rhs) = (c.transition(p, t), c.eq17(p, t, shift));
    let abs_p: Matrix<f64> = p.iter().map(|row| row.iter().map(|x| x.abs()).collect()).collect();
    let mut d: Vec<f64> = c.lambda.iter().map(|l| l.abs()).collect();
    let x2 = c.x[t - 1].powi(2).max(c.x[t + shift - 1].powi(2));
    d[h - 1] = c.lambda[h - 1].abs() + c.g * c.w * x2;
    let sizes = conjugate(&abs_p, &d);
    let gamma = Rounding::gamma(2 * h + 8);
    let mut worst = Eval::Margin(f64::INFINITY);
    for ((l, r), s) in lhs.iter().zip(&rhs).zip(&sizes) {
        for ((&a, &b), &scale) in l.iter().zip(r).zip(s) {
            worst = worst.min(Eval::le_by((a - b).abs(), 0.0, Scale(scale.max(f64::MIN_POSITIVE)), Tolerance::absolute(4.0 * gamma * scale)));
        }
    }
    worst
}

/// (17) as printed at every t < T.
fn eq17_printed_margin(c: &SpecialCase) -> Eval {
    let p = c.p::<f64>();
    (1..c.x.len()).map(|t| eq17_gap(c, &p, t, 1)).fold(Eval::Margin(f64::INFINITY), Eval::min)
}

/// Pairs of enclosures that must be equal, with no rounding allowance: violated where a pair is
/// certainly apart.
fn enclosed_equal<'a>(pairs: impl Iterator<Item = (&'a Interval, &'a Interval)>) -> Eval {
    pairs.map(|(a, b)| Eval::le_by((*a - *b).abs(), Interval::exact(0.0), Scale(1.0), Tolerance::NONE)).fold(Eval::Margin(f64::INFINITY), Eval::min)
}

/// (17) as printed on enclosures (the exact P, exact grid values).
fn enclosed_eq17(c: &SpecialCase) -> Eval {
    let p = c.p::<Interval>();
    (1..c.x.len())
        .map(|t| {
            let (l, r) = (c.transition(&p, t), c.eq17(&p, t, 1));
            enclosed_equal(l.iter().flatten().zip(r.iter().flatten()))
        })
        .fold(Eval::Margin(f64::INFINITY), Eval::min)
}

/// Recursion (14) against (18) in `form` on enclosures.
fn enclosed_eq18(c: &SpecialCase, form: Form) -> Eval {
    let p = c.p::<Interval>();
    (1..).zip(c.recursion(&p)).map(|(t, h)| enclosed_equal(h.iter().zip(&c.eq18(&p, t, form)))).fold(Eval::Margin(f64::INFINITY), Eval::min)
}

const CASES: [u64; 3] = [300, 3000, 20000];

const SETTING: &str = "scalar inputs x_t on a 1/16 grid in [−2, 2], T ≤ 20; H ≤ 5; Ā = PΛPᵀ with P = I − 2vvᵀ/(vᵀv) \
     (v on a 1/4 grid), λ_n on a 1/16 grid in [−1, 1]; G = g·p_H, W = w·p_H with g, w on a 1/8 grid in [0, 1] (γ = gw ≥ 0); \
     B̄, h_0 on a 1/8 grid in [−1, 1]";

const PRINTED_17: &str = "Ā_t + G x_t x_tᵀ Wᵀ = P diag(λ_1, λ_2, …, λ_H + γ x_{t+1}²) Pᵀ (17)";

const PRINTED_18: &str =
    "h_t = P diag(λ_1^t, λ_2^t, …, ∏_{i=1}^t (λ_H + γ x_i²)) Pᵀ h_0 + Σ_{i=1}^t diag(λ_1^t, λ_2^t, …, ∏_{j=i+1}^t (λ_H + γ x_j²)) Pᵀ B x_i (18)";

/// `004.eq17.printed` (erratum): §4.2, eq (17).
fn claim_eq17_printed() -> Claim {
    Claim::erratum(
        "004.eq17.printed",
        super::FAMILY,
        &format!(
            "Eq (17) as printed: Ā + G x_t x_tᵀ Wᵀ = P diag(λ_1, …, λ_{{H−1}}, λ_H + γ x_{{t+1}}²) Pᵀ at every t < T, entrywise within \
             4γ_{{2H+8}} of |P| diag(|λ|, |λ_H| + γ max(x_t², x_{{t+1}}²)) |Pᵀ| ({SETTING})."
        ),
        property(CASES, cases(), eq17_printed_margin)
            .sides("|(Ā + G x_t x_tᵀ Wᵀ)_{ij} − (P diag(…, λ_H + γ x_{t+1}²) Pᵀ)_{ij}|", "0, plus the rounding")
            .certify(enclosed_eq17),
    )
    .source(Paper::RethinkingLrd, "§4.2, eq (17)", PRINTED_17)
    .correction("x_t² for x_{t+1}²: Ā + G x_t x_tᵀ Wᵀ = P diag(λ_1, …, λ_H + γ x_t²) Pᵀ, since G x_t x_tᵀ Wᵀ = γ x_t² p_H p_Hᵀ (004.eq18).")
    .error(
        ErrorKind::Typo,
        "Eq (17) prints 'λ_H + γx_{t+1}²' for the transition at step t, whose interaction term is G x_t x_tᵀ Wᵀ = γ x_t² p_H p_Hᵀ: the two differ by \
         γ(x_t² − x_{t+1}²) p_H p_Hᵀ whenever γ > 0 and x_t² ≠ x_{t+1}². The next line, eq (18), uses the intended x_i² (004.eq18).",
    )
    .holds_instead(&["004.eq18"])
}

/// `004.eq18.printed` (erratum): §4.2, eq (18).
fn claim_eq18_printed() -> Claim {
    Claim::erratum(
        "004.eq18.printed",
        super::FAMILY,
        &format!(
            "Eq (18) as printed (λ_n^t inside the sum, no P before the sum, B read as B̄) equals h_t of recursion (14) at every t ≤ T, \
             each coordinate within 2γ_k·s_t (k = T(H + 6) + 4H + 8, s_t the absolute recursion) ({SETTING})."
        ),
        property(CASES, cases(), |c: &SpecialCase| margin(c, Form::Printed))
            .sides("|h_t (recursion (14)) − h_t (eq (18) as printed)| per coordinate", "0, plus the rounding")
            .certify(|c: &SpecialCase| enclosed_eq18(c, Form::Printed)),
    )
    .source(Paper::RethinkingLrd, "§4.2, eq (18)", PRINTED_18)
    .correction("h_t = P diag(λ_n^t, ∏_{i≤t} m_i) Pᵀ h_0 + P Σ_{i=1}^t diag(λ_n^{t−i}, ∏_{j=i+1}^t m_j) Pᵀ B̄ x_i with m_i = λ_H + γ x_i² (004.eq18).")
    .error(
        ErrorKind::Typo,
        "Eq (18) prints 'diag(λ_1^t, λ_2^t, …)' inside the sum, where step i's input has decayed t − i times (λ_n^{t−i}), and drops the P \
         before the sum, which leaves the driven part in eigen-coordinates Pᵀh; 'B' stands where (14) has B̄ (read here as B̄, the charitable \
         reading: with B literally the two differ again). With the exponent t − i and the leading P, (18) is exact (004.eq18).",
    )
    .holds_instead(&["004.eq18"])
}

/// `004.eq18` (theorem): §4.2, eqs (17)–(18), corrected.
fn claim_eq18() -> Claim {
    Claim::theorem(
        "004.eq18",
        super::FAMILY,
        &format!(
            "In §4.2's special case, Ā + G x_t x_tᵀ Wᵀ = P diag(λ_1, …, λ_H + γ x_t²) Pᵀ (eq (17) with x_t²) and \
             h_t = P diag(λ_n^t, ∏_{{i≤t}} m_i) Pᵀ h_0 + P Σ_{{i=1}}^t diag(λ_n^{{t−i}}, ∏_{{j=i+1}}^t m_j) Pᵀ B̄ x_i with m_i = λ_H + γ x_i² \
             (eq (18) corrected) equal recursion (14) at every t ≤ T, within 2γ_k·s_t ({SETTING})."
        ),
        property(CASES, cases(), |c: &SpecialCase| margin(c, Form::Corrected))
            .sides("|h_t (recursion (14)) − h_t (eq (18) corrected)| per coordinate", "0, plus the rounding"),
    )
    .source(Paper::RethinkingLrd, "§4.2, eqs (17)–(18), corrected", PRINTED_18)
    .correction("x_t² in (17); λ_n^{t−i}, the leading P and B̄ in (18).")
    .control("λ_n^t inside the sum of (18), as printed (the leading P kept)", property(CASES, cases(), |c: &SpecialCase| margin(c, Form::PrintedExponent)))
}

/// Registers eqs (17)–(18).
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_eq17_printed());
    r.add(claim_eq18_printed());
    r.add(claim_eq18());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::Standing;

    /// H = 2, P = the swap reflection (v = (1, −1)): the smallest instance of each form, by hand.
    fn small() -> SpecialCase {
        SpecialCase { lambda: vec![0.5, 0.25], householder: vec![1.0, -1.0], g: 1.0, w: 0.5, b_bar: vec![1.0, 0.5], h0: vec![0.0, 0.0], x: vec![1.0, 0.5] }
    }

    #[test]
    fn the_corrected_forms_hold_and_the_printed_ones_fail_on_a_hand_instance() {
        let c = small();
        // P = [[0, 1], [1, 0]] exactly (v = (1, −1): I − 2vvᵀ/2).
        assert_eq!(c.p::<f64>(), vec![vec![0.0, 1.0], vec![1.0, 0.0]]);
        assert_eq!(margin(&c, Form::Corrected).standing(), Some(Standing::Holds));
        // h_1 = B̄ x_1 = (1, 1/2); the printed sum has no P: it gives Pᵀ B̄ x_1 = (1/2, 1).
        assert!(margin(&c, Form::Printed).refutes());
        // h_2's part from x_1 in mode 1: the printed exponent gives λ_1² = 1/4 where λ_1 = 1/2 is meant.
        assert!(margin(&c, Form::PrintedExponent).refutes());
        // γ = 1/2, x_1² = 1 ≠ x_2² = 1/4: (17) as printed is off by γ·3/4 on p_H p_Hᵀ.
        assert!(eq17_printed_margin(&c).refutes());
        assert!(enclosed_eq17(&c).refutes() && enclosed_eq18(&c, Form::Printed).refutes(), "certified false");
        assert!(!enclosed_eq18(&c, Form::Corrected).refutes(), "the corrected form is not refuted on enclosures");
    }

    #[test]
    fn the_magnitudes_dominate_both_sides() {
        let c = SpecialCase { x: vec![-2.0, 1.5, -0.25, 2.0], ..small() };
        let p = c.p::<f64>();
        for (t, s) in (1..).zip(c.magnitudes(&p)) {
            let h = &c.recursion(&p)[t - 1];
            for ((a, b), s) in h.iter().zip(&c.eq18(&p, t, Form::Corrected)).zip(&s) {
                assert!(a.abs() <= *s && b.abs() <= *s, "t = {t}: |h| {a}, |(18)| {b}, s {s}");
            }
        }
    }
}
