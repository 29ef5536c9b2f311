//! The rounding bounds of `ssmcheck::claim::Rounding`, so that tolerances derived in Python use
//! the engine's own formulas.

use pyo3::prelude::*;
use ssmcheck::claim::Rounding;

/// The rounding bounds of `claim::Rounding`, for tolerances derived in Python: `(u, the smallest
/// subnormal)` and, for `n`, `(γ_n, n·2⁻¹⁰⁷⁴)`.
#[pyfunction]
#[pyo3(signature = (n))]
pub fn rounding_bounds(n: usize) -> (f64, f64, f64, f64) {
    (Rounding::UNIT, Rounding::UNDERFLOW, Rounding::gamma(n), Rounding::underflow(n))
}
