//! The toolkit a conjecture needs, in one place, with each routine's accuracy: what the families
//! themselves call. Everything here is also reachable at its home module; this is the list.
//!
//! **Enclosures** (rigorous: the exact real value is inside; compare them with
//! [`Eval`](crate::claim::Eval) and no tolerance, and a refutation is certified):
//! - [`Interval`]: `+ − × ÷ √`, `exp`, `ln`, `exp_m1`, `ln_1p`, `erfc`, `powi`, `abs`, `max` —
//!   each end at most one ulp outside the exact result (CORE-MATH's correctly rounded functions);
//!   `sin`, `cos` (the same at the ends, ±1 where an extremum may lie inside, [−1, 1] past
//!   |x| = 4·10¹⁵) and `atan2` (the rectangle's corners; [−π, π] across the branch cut), with
//!   [`PI`] enclosed.
//! - [`ComplexInterval`] = [`Complex`]`<Interval>`: complex rectangles with `+ − × ÷`, `exp`,
//!   `powi`, `abs`, `arg`, `conj` (a few ulps wide for point arguments; the whole plane when
//!   dividing by a rectangle around 0), for S4's and LRU's complex diagonal recurrences.
//!   [`Complex`] is written once over any [`Real`] (values, dual numbers, enclosures).
//! - [`solve`], [`inverse`]: linear systems `A X = B` and inverses, real or complex, by Gaussian
//!   elimination with partial pivoting over any [`Field`]; on intervals it is interval
//!   elimination, whose result encloses the exact solution (`None` when a pivot's enclosure
//!   holds 0): relative width about n·κ(A)·u for small well-conditioned systems, growing with
//!   n and κ. [`solve_enclosed`] takes `f64` data as exact.
//! - [`spectral_norm`]: ‖A‖₂ enclosed: below by ‖Av‖/‖v‖ at a power-iteration vector, above by
//!   ‖(AᵀA)^k‖_F^{1/(2k)}, k = 2¹² (over by a factor at most rank^{1/16384}: 3·10⁻⁴ relative at
//!   rank 100; a lower end near the top unless the top two singular values nearly tie).
//!   Every model written over [`Real`] (the S6 and S4D recurrences, [`softplus`], [`softplus_inv`])
//!   runs on intervals as it runs on `f64`.
//! - [`expm_complex`]: e^A of a complex matrix, enclosed through its real 2n × 2n form (the
//!   accuracy of [`expm`] below at twice the norm).
//! - [`expm`]: e^A, entrywise enclosures (Taylor with remainder after scaling, interval
//!   squarings): relative width about 2ˢ·n·u with s = ⌈log₂ 2‖A‖∞⌉, ~10⁻¹³ at ‖A‖ = 100.
//! - [`logsumexp`]: log Σ e^{vᵢ}, without overflow; [`matmul`]: products of enclosed matrices.
//! - [`spectral_radius`], [`spectral_abscissa`]: max |λ(A)| and max Re λ(A), enclosed from
//!   [`EigenvalueEnclosure`] (discs holding every eigenvalue: A split into irreducible blocks, so
//!   a triangular A has its diagonal exactly; each block by a verified similarity transform with
//!   approximate eigenvectors, then Gershgorin). Width about n·u·κ(V)·‖A‖, κ(V) the eigenvector
//!   condition number: ~10⁻¹³ for well-separated eigenvalues, wide (never wrong) near a
//!   defective irreducible block.
//! - [`DenseSsm::lrd_eq10_path_enclosure`]: 004's LRD trajectory B̄_t, Ā_{t+1}B̄_t, … (ZOH)
//!   enclosed, by the interval exponential (B̄ without inverting A); ~10⁻¹⁵ wide per step for
//!   short paths, widening with the number of interval products.
//! - [`Dual`] over [`Interval`] and [`derivative`]: forward-mode derivatives of any function
//!   written over [`Real`], enclosed (`derivative(&[Interval::exact(x), …], i, f)`), as over
//!   `f64` they are exact to rounding.
//! - [`normal_expectation_enclosure`]: E f(X), X ~ N(0, 1), for f written on [`Taylor`] series
//!   (any function generic over [`Real`] is): panels carrying their Taylor remainder, plus the
//!   tails from the [`Growth`] you state for f beyond |x| = 12. Width about 10⁻¹³ for smooth
//!   integrands of order one; near a singularity (ln(c + γx²) with c → 0) the panels shrink
//!   and the width stays at rounding level. [`LogChi2`]'s `mean_enclosure` and
//!   `log_mgf_enclosure` are built on it (and `variance_enclosure`, `kesten_index_enclosure`:
//!   the root of Λ bracketed by certified signs), and so is `nu2_enclosure`: ν²(b), a supremum over λ,
//!   enclosed (chords of the convex ψ, a bound through Λ″ next to λ = 0, refinement near the
//!   sup): about 10⁻⁸ relative, 60–400 quadratures (seconds); upper end +∞ for b < 1/36.
//!
//! **Exact** (rationals; a refutation by them is certified): [`exact`] (the module:
//! [`Exact`](exact::Exact), num-rational's `BigRational` re-exported, `exact(x)` the exact value
//! of a double, `rank`, `solve`, `sign_changes`), for statements about ranks, solutions and signs
//! of matrices and sequences built from the strategies' dyadic draws.
//!
//! **Floating point, with a stated accuracy but no enclosure** (give the relation a tolerance
//! derived from [`Rounding`](crate::claim::Rounding); a refutation by them is not certified):
//! - [`linalg::expm`]: nalgebra's scaling-and-squaring Padé; its error grows like u·‖A‖ (not
//!   bounded by u·‖e^A‖ for non-normal A): at ‖sA‖ = 40 expect ~10⁻¹⁴·40·‖e^{sA}‖ or worse.
//! - [`linalg::spectral_radius`], [`linalg::spectral_abscissa`]: eigenvalues of a dense real
//!   matrix (QR iteration): error about u·‖A‖·κ, κ the eigenvector condition number (large for
//!   near-defective matrices, where eigenvalues are ill-conditioned); the enclosed versions
//!   above are the rigorous ones.
//! - [`normal_expectation`]: E f(X), X ~ N(0, 1), by adaptive Simpson over [−12, 12] (mass
//!   outside < 10⁻³²) to the requested tolerance (an error *estimate*, not a bound; resolve
//!   narrow features with breakpoints; the enclosure above is the rigorous one).
//!   [`expected_log_c_plus_gamma_x2`]: E ln(c + γX²) to ~10⁻¹³ absolute, checked against an
//!   independent closed form (quadrature::expected_log_erfcx_form); [`LogChi2`]'s other
//!   moments, tails and Kesten index likewise, and `nu2` (ν(b)², a supremum over λ found by
//!   search: a value at a point of the domain, below the sup by at most its grid; the
//!   enclosure above bounds it).
//! - [`logsumexp_f64`]: the f64 version, error about (n + 2)·u·|result|.
//! - [`bilinear`], [`bilinear_diagonal`]: S4's bilinear (Tustin) discretisation,
//!   Ā = (I − ΔA/2)⁻¹(I + ΔA/2), B̄ = (I − ΔA/2)⁻¹ΔB, by an LU solve (error about u·κ(I − ΔA/2));
//!   the diagonal form is written over [`Real`] and runs on intervals. ZOH and Euler are
//!   [`Discretization`]'s rules.
//!
//! **Statistical** (an interval at a stated confidence, not an enclosure):
//! - [`lambda_top`]: the top Lyapunov exponent of the interaction model's product, a Student-t
//!   [`ConfidenceInterval`] over independent replicas.
//!
//! **Instances and constants**: [`MqarInstance`] (and `strategy::mqar`), Rademacher and one-hot
//! codes (`strategy::rademacher`, `strategy::rademacher_signs` — printed as signs —,
//! `strategy::one_hot`), [`EULER_GAMMA`].

pub use crate::estimate::lambda_top;
pub use crate::math::complex::expm_complex;
pub use crate::math::eigen::{spectral_abscissa, spectral_radius, EigenvalueEnclosure};
pub use crate::math::exact;
pub use crate::math::field::{inverse, solve, solve_enclosed};
pub use crate::math::interval::{expm, logsumexp, matmul, spectral_norm, PI};
pub use crate::math::linalg;
pub use crate::math::logsumexp as logsumexp_f64;
pub use crate::math::quadrature::{expected_log_c_plus_gamma_x2, normal_expectation, EULER_GAMMA};
pub use crate::math::softplus::{softplus, softplus_inv};
pub use crate::math::subexp::LogChi2;
pub use crate::math::taylor::{normal_expectation_enclosure, Growth, Taylor};
pub use crate::math::{derivative, Complex, ComplexInterval, Dual, Field, Interval, Real};
pub use crate::model::discretize::{bilinear, bilinear_diagonal, Discretization};
pub use crate::model::DenseSsm;
pub use crate::stats::ConfidenceInterval;
pub use crate::tasks::mqar::MqarInstance;
