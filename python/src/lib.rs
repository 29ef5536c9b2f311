//! The Python extension module `ssmcheck._ssmcheck`: the engine of the `ssmcheck` crate behind
//! a few functions that trade JSON text with the Python package (`python/ssmcheck`), which turns
//! it into Python objects. Six parts, one module each: running and reading claims (`engine`),
//! conjectures written in Python and judged by the engine (`conjecture`), the verified models as
//! functions of flat arrays (`models`), the rounding bounds for tolerances (`rounding`), the
//! kit's enclosures (`interval`) and its exact rational helpers (`exact`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

mod conjecture;
mod engine;
mod exact;
mod interval;
mod models;
mod rounding;

/// An engine error as a Python `ValueError` with the engine's one-line message (every part's
/// errors reach Python this way).
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The module's functions; `__version__` is the crate's version. Importing the module caps
/// glibc's malloc arenas at one per core, as the command line does before its first thread
/// (`ssmcheck::train::allocator::cap_arenas`): the training claims keep their freed memory per
/// arena, and a cap set only at their first optimiser comes after their threads have made theirs.
#[pymodule]
fn _ssmcheck(m: &Bound<'_, PyModule>) -> PyResult<()> {
    ssmcheck::train::allocator::cap_arenas();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(engine::claims, m)?)?;
    m.add_function(wrap_pyfunction!(engine::check, m)?)?;
    m.add_function(wrap_pyfunction!(engine::replay, m)?)?;
    m.add_function(wrap_pyfunction!(engine::report, m)?)?;
    m.add_function(wrap_pyfunction!(models::selective_scan, m)?)?;
    m.add_function(wrap_pyfunction!(models::lrd_eq10, m)?)?;
    m.add_function(wrap_pyfunction!(models::interaction_states, m)?)?;
    m.add_function(wrap_pyfunction!(models::mqar_instance, m)?)?;
    m.add_function(wrap_pyfunction!(models::mqar_construction, m)?)?;
    m.add_function(wrap_pyfunction!(models::induction_lemma3, m)?)?;
    m.add_function(wrap_pyfunction!(models::copy_theorem2, m)?)?;
    m.add_function(wrap_pyfunction!(models::ssd_forms, m)?)?;
    m.add_function(wrap_pyfunction!(models::ssd_matrix, m)?)?;
    m.add_function(wrap_pyfunction!(models::lru_outputs, m)?)?;
    m.add_function(wrap_pyfunction!(models::dplr_kernel, m)?)?;
    m.add_function(wrap_pyfunction!(models::s4d_lambda, m)?)?;
    m.add_function(wrap_pyfunction!(models::delta_net_outputs, m)?)?;
    m.add_function(wrap_pyfunction!(models::diagonal_scan_states, m)?)?;
    m.add_function(wrap_pyfunction!(rounding::rounding_bounds, m)?)?;
    m.add_class::<interval::Interval>()?;
    m.add_function(wrap_pyfunction!(interval::spectral_norm, m)?)?;
    m.add_function(wrap_pyfunction!(interval::solve_enclosed, m)?)?;
    m.add_function(wrap_pyfunction!(interval::expm_complex, m)?)?;
    m.add_class::<interval::ComplexInterval>()?;
    m.add_function(wrap_pyfunction!(interval::inverse_enclosed, m)?)?;
    m.add_function(wrap_pyfunction!(interval::discretize, m)?)?;
    m.add_function(wrap_pyfunction!(exact::exact_rank, m)?)?;
    m.add_function(wrap_pyfunction!(exact::exact_solve, m)?)?;
    m.add_function(wrap_pyfunction!(exact::sign_changes, m)?)?;
    Ok(())
}
