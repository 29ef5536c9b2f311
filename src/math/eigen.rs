//! Enclosures of the eigenvalues of a real square matrix, and from them of its spectral radius
//! `max |λ|` and spectral abscissa `max Re λ`.
//!
//! **Method** (a verified similarity transform, then Gershgorin). In floating point: the
//! eigenvalues λᵢ (nalgebra's QR iteration), an eigenvector xᵢ of each by two steps of inverse
//! iteration, X = [x₁ … xₙ] and R ≈ X⁻¹. In interval arithmetic, over complex rectangles:
//! C = R A X and E = R X − I. If η = ‖E‖∞ < 1, then R X is invertible, so X is, and
//! X⁻¹ A X = (I + E)⁻¹ C = C + P with ‖P‖∞ = ‖(I + E)⁻¹ E C‖∞ ≤ η‖C‖∞ / (1 − η) =: p. A has
//! the eigenvalues of C + P, so by Gershgorin's theorem they lie in the discs centred at Cᵢᵢ of
//! radius Σ_{j≠i} |Cᵢⱼ| + p (the diagonal's share of P included), and every connected component
//! of k discs contains exactly k eigenvalues counted with multiplicity (the true discs of C + P lie
//! inside ours, so our components are unions of theirs). When the eigenvector matrix is well
//! conditioned the discs have radius about n·u·κ(X)·‖A‖; near a defective matrix they widen
//! (honestly: a wide enclosure, never a wrong one). If the transform cannot be verified (X
//! singular in floating point, η ≥ 1, an overflow), the discs are Gershgorin's on A itself, which
//! always hold.
//!
//! First, A is split into its irreducible diagonal blocks (the strongly connected components
//! of the graph with an edge i → j where aᵢⱼ ≠ 0): in an order that makes A block triangular, its
//! eigenvalues are those of the blocks, so a triangular A (or one that a permutation makes
//! triangular) has its diagonal as its eigenvalues, exactly, even when they repeat — the case
//! the transform cannot verify, and the one a shrinking search tends to produce. Each block of
//! more than one index gets the transform.
//!
//! Every entry of A is taken as the exact real it represents.

use super::complex::ComplexInterval;
use super::interval::Interval;
use nalgebra::{Complex, DMatrix, DVector};

/// An upper bound on `|z|` over the rectangle.
fn mag(z: ComplexInterval) -> f64 {
    z.abs().hi
}

/// The rectangle of one complex double.
fn point(z: Complex<f64>) -> ComplexInterval {
    ComplexInterval::exact(z.re, z.im)
}

/// The product of two complex interval matrices (row-major, `n × n`).
fn product(a: &[ComplexInterval], b: &[ComplexInterval], n: usize) -> Vec<ComplexInterval> {
    let mut out = vec![ComplexInterval::exact(0.0, 0.0); n * n];
    for i in 0..n {
        for j in 0..n {
            out[i * n + j] = (0..n).fold(ComplexInterval::exact(0.0, 0.0), |acc, k| acc + a[i * n + k] * b[k * n + j]);
        }
    }
    out
}

/// A closed disc `{z : |z − (re + i·im)| ≤ radius}` of the complex plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Disc {
    /// The centre's real part.
    pub re: f64,
    /// The centre's imaginary part.
    pub im: f64,
    /// The radius (rounded up).
    pub radius: f64,
}

impl Disc {
    /// The disc of radius `radius` around every point of the rectangle `centre`.
    fn around(centre: ComplexInterval, radius: f64) -> Disc {
        let (re, im) = (centre.re.mid(), centre.im.mid());
        let reach = |x: Interval, m: f64| (Interval::exact(x.hi) - Interval::exact(m)).hi.max((Interval::exact(m) - Interval::exact(x.lo)).hi);
        let corner = (Interval::exact(reach(centre.re, re)).square() + Interval::exact(reach(centre.im, im)).square()).sqrt();
        Disc { re, im, radius: (Interval::exact(radius) + corner).hi }
    }
    /// Whether `z` lies in the disc (decided in interval arithmetic; a point on the rounded
    /// boundary counts as inside).
    pub fn contains(&self, z: Complex<f64>) -> bool {
        distance((z.re, z.im), (self.re, self.im)).lo <= self.radius
    }
    /// `|centre|`, enclosed.
    fn centre_modulus(&self) -> Interval {
        distance((self.re, self.im), (0.0, 0.0))
    }
    /// Whether the two discs may meet (conservative: rounding counts as meeting).
    fn may_meet(&self, other: &Disc) -> bool {
        distance((self.re, self.im), (other.re, other.im)).lo <= (Interval::exact(self.radius) + Interval::exact(other.radius)).hi
    }
}

/// The distance between two points of the complex plane, enclosed.
fn distance(a: (f64, f64), b: (f64, f64)) -> Interval {
    ((Interval::exact(a.0) - Interval::exact(b.0)).square() + (Interval::exact(a.1) - Interval::exact(b.1)).square()).sqrt()
}

/// Discs that contain every eigenvalue of a real square matrix, with the connected components
/// of their union: a component of k discs contains exactly k eigenvalues (with multiplicity).
#[derive(Clone, Debug)]
pub struct EigenvalueEnclosure {
    discs: Vec<Disc>,
    /// The component of each disc (a representative index).
    component: Vec<usize>,
    /// Whether every block's discs come from the verified similarity transform (false: some
    /// are Gershgorin's discs of the block itself, the fallback).
    refined: bool,
}

impl EigenvalueEnclosure {
    /// Encloses the eigenvalues of the square matrix given by its rows (entries exact).
    pub fn of(rows: &[Vec<f64>]) -> EigenvalueEnclosure {
        let n = rows.len();
        assert!(rows.iter().all(|r| r.len() == n), "an eigenvalue enclosure needs a square matrix");
        let (mut discs, mut refined) = (Vec::with_capacity(n), true);
        for block in irreducible_blocks(rows) {
            let sub: Vec<Vec<f64>> = block.iter().map(|&i| block.iter().map(|&j| rows[i][j]).collect()).collect();
            match if sub.len() > 1 { refined_discs(&sub) } else { Some(gershgorin(&sub)) } {
                Some(d) => discs.extend(d),
                None => {
                    refined = false;
                    discs.extend(gershgorin(&sub));
                }
            }
        }
        // Components of the union over all blocks are unions of each block's components, so the
        // count of each still holds.
        let component = components(&discs);
        EigenvalueEnclosure { discs, component, refined }
    }
    /// The discs, one per eigenvalue slot (their union contains the spectrum).
    pub fn discs(&self) -> &[Disc] {
        &self.discs
    }
    /// Whether every irreducible block's discs come from the verified similarity transform (or
    /// the block is 1 × 1, exact); `false` means a transform could not be verified and that
    /// block's discs are Gershgorin's on the block itself (still rigorous, usually much wider).
    pub fn is_refined(&self) -> bool {
        self.refined
    }
    /// Whether `z` lies in the union of the discs (a point outside is certainly not an eigenvalue).
    pub fn may_contain(&self, z: Complex<f64>) -> bool {
        self.discs.iter().any(|d| d.contains(z))
    }
    /// The components as lists of disc indices.
    fn groups(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        let mut reps: Vec<usize> = self.component.clone();
        reps.sort_unstable();
        reps.dedup();
        reps.into_iter().map(|r| (0..self.discs.len()).filter(|&i| self.component[i] == r).collect())
    }
    /// An enclosure of `max_λ f(λ)` for a function bounded on each disc by `bounds(disc) =
    /// (lower, upper)`: at most the largest upper bound; at least, in every component (which holds
    /// an eigenvalue), the smallest lower bound of its discs.
    fn max_over_spectrum(&self, bounds: impl Fn(&Disc) -> (f64, f64)) -> Interval {
        if self.discs.is_empty() {
            return Interval::ENTIRE;
        }
        let hi = self.discs.iter().map(|d| bounds(d).1).fold(f64::NEG_INFINITY, f64::max);
        let lo = self.groups().map(|g| g.iter().map(|&i| bounds(&self.discs[i]).0).fold(f64::INFINITY, f64::min)).fold(f64::NEG_INFINITY, f64::max);
        Interval::new(lo, hi)
    }
    /// The spectral abscissa `max Re λ`, enclosed.
    pub fn spectral_abscissa(&self) -> Interval {
        self.max_over_spectrum(|d| {
            let (re, r) = (Interval::exact(d.re), Interval::exact(d.radius));
            ((re - r).lo, (re + r).hi)
        })
    }
    /// The spectral radius `max |λ|`, enclosed.
    pub fn spectral_radius(&self) -> Interval {
        self.max_over_spectrum(|d| {
            let (m, r) = (d.centre_modulus(), Interval::exact(d.radius));
            ((m - r).lo.max(0.0), (m + r).hi)
        })
    }
}

/// The spectral abscissa `max Re λ(A)` of the matrix given by its rows, enclosed
/// ([`EigenvalueEnclosure`]).
pub fn spectral_abscissa(rows: &[Vec<f64>]) -> Interval {
    EigenvalueEnclosure::of(rows).spectral_abscissa()
}

/// The spectral radius `max |λ(A)|` of the matrix given by its rows, enclosed
/// ([`EigenvalueEnclosure`]).
pub fn spectral_radius(rows: &[Vec<f64>]) -> Interval {
    EigenvalueEnclosure::of(rows).spectral_radius()
}

/// The index sets of A's irreducible diagonal blocks: the strongly connected components of the
/// graph i → j for aᵢⱼ ≠ 0 (by the transitive closure; the matrices here are small).
fn irreducible_blocks(rows: &[Vec<f64>]) -> Vec<Vec<usize>> {
    let n = rows.len();
    let mut reach: Vec<Vec<bool>> = (0..n).map(|i| (0..n).map(|j| i == j || rows[i][j] != 0.0).collect()).collect();
    for k in 0..n {
        let via = reach[k].clone();
        for row in reach.iter_mut().filter(|row| row[k]) {
            row.iter_mut().zip(&via).for_each(|(r, &v)| *r |= v);
        }
    }
    let mut seen = vec![false; n];
    let mut blocks = Vec::new();
    for i in 0..n {
        if !seen[i] {
            let block: Vec<usize> = (i..n).filter(|&j| reach[i][j] && reach[j][i]).collect();
            block.iter().for_each(|&j| seen[j] = true);
            blocks.push(block);
        }
    }
    blocks
}

/// Gershgorin's discs of A itself: centre aᵢᵢ, radius Σ_{j≠i} |aᵢⱼ| (rounded up).
fn gershgorin(rows: &[Vec<f64>]) -> Vec<Disc> {
    rows.iter()
        .enumerate()
        .map(|(i, r)| {
            let radius = r.iter().enumerate().filter(|&(j, _)| j != i).fold(Interval::exact(0.0), |acc, (_, &x)| acc + Interval::exact(x.abs())).hi;
            Disc { re: r[i], im: 0.0, radius }
        })
        .collect()
}

/// An eigenvector for the eigenvalue estimate `lambda` by two steps of inverse iteration from a
/// start vector that differs per `slot` (so repeated eigenvalues get independent vectors).
fn eigenvector(a: &DMatrix<Complex<f64>>, lambda: Complex<f64>, slot: usize) -> Option<DVector<Complex<f64>>> {
    let n = a.nrows();
    // A shift a little off λ keeps the factorisation regular; inverse iteration still converges.
    let shift = lambda + Complex::new(1e-10 * (1.0 + lambda.norm()), 0.0);
    let lu = (a - DMatrix::identity(n, n) * shift).lu();
    let mut x = DVector::from_fn(n, |i, _| Complex::new(1.0 + ((i * 7 + slot * 13) % 17) as f64 / 17.0, ((i + 3 * slot) % 5) as f64 / 5.0));
    for _ in 0..2 {
        x = lu.solve(&x)?;
        let norm = x.norm();
        if !norm.is_finite() || norm == 0.0 {
            return None;
        }
        x /= Complex::new(norm, 0.0);
    }
    Some(x)
}

/// The discs of the verified similarity transform (module docs), or None when it cannot be
/// verified.
fn refined_discs(rows: &[Vec<f64>]) -> Option<Vec<Disc>> {
    let n = rows.len();
    if n == 0 || rows.iter().flatten().any(|x| !x.is_finite()) {
        return None;
    }
    let real = DMatrix::from_fn(n, n, |i, j| rows[i][j]);
    let lambdas = crate::math::linalg::eigenvalues(&real).ok()?;
    let a = real.map(|x| Complex::new(x, 0.0));
    let mut x = DMatrix::zeros(n, n);
    for (slot, &lambda) in lambdas.iter().enumerate() {
        x.set_column(slot, &eigenvector(&a, lambda, slot)?);
    }
    let r = x.clone().try_inverse()?;
    let flat = |m: &DMatrix<Complex<f64>>| (0..n * n).map(|k| point(m[(k / n, k % n)])).collect::<Vec<_>>();
    let (ai, xi, ri) = (flat(&a), flat(&x), flat(&r));
    let c = product(&ri, &product(&ai, &xi, n), n);
    let mut e = product(&ri, &xi, n);
    for i in 0..n {
        e[i * n + i].re -= Interval::exact(1.0);
    }
    let row_sum = |m: &[ComplexInterval], i: usize, skip: Option<usize>| {
        (0..n).filter(|&j| Some(j) != skip).fold(Interval::exact(0.0), |acc, j| acc + Interval::exact(mag(m[i * n + j]))).hi
    };
    let eta = (0..n).map(|i| row_sum(&e, i, None)).fold(0.0, f64::max);
    let norm_c = (0..n).map(|i| row_sum(&c, i, None)).fold(0.0, f64::max);
    if eta.is_nan() || eta >= 1.0 || !norm_c.is_finite() {
        return None;
    }
    let p = (Interval::exact(eta) * Interval::exact(norm_c) / (Interval::exact(1.0) - Interval::exact(eta))).hi;
    let discs: Vec<Disc> = (0..n).map(|i| Disc::around(c[i * n + i], (Interval::exact(row_sum(&c, i, Some(i))) + Interval::exact(p)).hi)).collect();
    discs.iter().all(|d| d.radius.is_finite()).then_some(discs)
}

/// The connected components of the discs' union (union–find over pairs that may meet).
fn components(discs: &[Disc]) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..discs.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for i in 0..discs.len() {
        for j in i + 1..discs.len() {
            if discs[i].may_meet(&discs[j]) {
                let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                parent[ri.max(rj)] = ri.min(rj);
            }
        }
    }
    (0..discs.len()).map(|i| root(&mut parent, i)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contains_tightly(e: Interval, exact: f64, width: f64) {
        assert!(e.contains(exact), "{e} does not contain {exact}");
        assert!(e.width() < width, "{e} is wider than {width}");
    }

    #[test]
    fn a_rotation_and_scaling_is_enclosed_to_rounding() {
        // [[a, −b], [b, a]] has eigenvalues a ± ib: abscissa a, radius √(a² + b²).
        let (a, b) = (-0.75, 2.5);
        let e = EigenvalueEnclosure::of(&[vec![a, -b], vec![b, a]]);
        assert!(e.is_refined());
        contains_tightly(e.spectral_abscissa(), a, 1e-13);
        contains_tightly(e.spectral_radius(), (a * a + b * b).sqrt(), 1e-13);
    }

    #[test]
    fn a_companion_matrix_and_repeated_eigenvalues() {
        // (x − 1)(x − 2)(x − 3) = x³ − 6x² + 11x − 6.
        let companion = [vec![6.0, -11.0, 6.0], vec![1.0, 0.0, 0.0], vec![0.0, 1.0, 0.0]];
        contains_tightly(spectral_abscissa(&companion), 3.0, 1e-11);
        contains_tightly(spectral_radius(&companion), 3.0, 1e-11);
        // A diagonal matrix with a repeated entry: independent start vectors keep X regular.
        let diag = [vec![-2.0, 0.0, 0.0], vec![0.0, -2.0, 0.0], vec![0.0, 0.0, -0.5]];
        contains_tightly(spectral_abscissa(&diag), -0.5, 1e-13);
        contains_tightly(spectral_radius(&diag), 2.0, 1e-13);
    }

    #[test]
    fn random_matrices_agree_with_floating_point_and_exclude_a_value_off_by_a_little() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64) * 4.0 - 2.0
        };
        for n in 1..=8 {
            let rows: Vec<Vec<f64>> = (0..n).map(|_| (0..n).map(|_| next()).collect()).collect();
            let m = DMatrix::from_fn(n, n, |i, j| rows[i][j]);
            let (alpha, rho) = (super::super::linalg::spectral_abscissa(&m), super::super::linalg::spectral_radius(&m));
            let e = EigenvalueEnclosure::of(&rows);
            assert!(e.is_refined(), "n = {n}");
            let (ea, er) = (e.spectral_abscissa(), e.spectral_radius());
            contains_tightly(ea, alpha, 1e-10);
            contains_tightly(er, rho, 1e-10);
            assert!(!ea.contains(alpha + 1e-8) && !er.contains(rho - 1e-8), "n = {n}: {ea}, {er}");
            for z in m.complex_eigenvalues().iter() {
                assert!(e.may_contain(*z), "n = {n}: {z} outside every disc");
            }
        }
    }

    #[test]
    fn a_defective_matrix_gets_a_wide_but_true_enclosure() {
        // Irreducible, characteristic polynomial (λ − 1)²: eigenvalue 1 twice, one eigenvector;
        // floating-point eigenvectors are nearly parallel, so the discs are wide (or
        // Gershgorin's on A), but they contain 1.
        let e = EigenvalueEnclosure::of(&[vec![2.0, 1.0], vec![-1.0, 0.0]]);
        assert!(e.spectral_abscissa().contains(1.0) && e.spectral_radius().contains(1.0));
        assert!(e.spectral_radius().hi.is_finite());
    }

    #[test]
    fn a_triangular_matrix_has_its_diagonal_exactly_even_when_it_repeats() {
        // Lower triangular with a triple eigenvalue (a Jordan block inside): the blocks are 1 × 1.
        let rows = [vec![-0.25, 0.0, 0.0], vec![0.75, -0.25, 0.0], vec![0.0, 3.0, -0.25]];
        assert_eq!(spectral_abscissa(&rows), Interval::exact(-0.25));
        assert_eq!(spectral_radius(&rows), Interval::exact(0.25));
        // A permuted triangular matrix with a 2 × 2 rotation block: both found.
        let rows = [vec![0.0, 0.0, -2.0], vec![5.0, -3.0, 1.0], vec![2.0, 0.0, 0.0]];
        let e = EigenvalueEnclosure::of(&rows);
        assert_eq!(irreducible_blocks(&rows), vec![vec![0, 2], vec![1]]);
        contains_tightly(e.spectral_abscissa(), 0.0, 1e-13);
        contains_tightly(e.spectral_radius(), 3.0, 1e-13);
    }

    #[test]
    fn the_fallback_is_gershgorin_on_a() {
        // An infinite entry: nothing can be refined; the plain discs are returned (infinite here).
        let e = EigenvalueEnclosure::of(&[vec![f64::INFINITY, 1.0], vec![1.0, 1.0]]);
        assert!(!e.is_refined());
        assert_eq!(e.discs()[1], Disc { re: 1.0, im: 0.0, radius: 1.0 });
    }
}
