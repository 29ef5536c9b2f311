//! The kit's exact rational helpers in Python (`kit::exact`): a rank, a solution and a sign-change
//! count decided over the rationals. A rational crosses the boundary as the decimal text of its
//! numerator and denominator (any size); `ssmcheck.exact` turns them into and from
//! `fractions.Fraction`, so a float (a dyadic rational) is taken exactly.

use pyo3::prelude::*;
use ssmcheck::kit::exact::Exact;

/// A rational as (numerator, denominator) in decimal.
type Ratio = (String, String);

/// The exact rational of one (numerator, denominator) pair, or a ValueError.
fn rational((num, den): &Ratio) -> PyResult<Exact> {
    format!("{num}/{den}").parse::<Exact>().map_err(|e| crate::value_error(format!("{num}/{den} is not a rational: {e}")))
}

/// Rows of rationals, each row as long as the first, or a ValueError naming `what`.
fn rows(rows: &[Vec<Ratio>], what: &str) -> PyResult<Vec<Vec<Exact>>> {
    let cols = rows.first().map_or(0, Vec::len);
    if rows.iter().any(|r| r.len() != cols) {
        return Err(crate::value_error(format!("{what}: the rows differ in length")));
    }
    rows.iter().map(|r| r.iter().map(rational).collect()).collect()
}

/// The rank of a matrix of rationals given by its rows (`kit::exact::rank`).
#[pyfunction]
pub fn exact_rank(matrix: Vec<Vec<Ratio>>) -> PyResult<usize> {
    Ok(ssmcheck::kit::exact::rank(&rows(&matrix, "rank")?))
}

/// The solution of A x = b over the rationals (`kit::exact::solve`); None when A is singular.
#[pyfunction]
pub fn exact_solve(a: Vec<Vec<Ratio>>, b: Vec<Ratio>) -> PyResult<Option<Vec<Ratio>>> {
    let a = rows(&a, "solve")?;
    if a.len() != b.len() || a.iter().any(|r| r.len() != a.len()) {
        return Err(crate::value_error(format!("solve: a square A ({} rows) and b of as many entries (got {})", a.len(), b.len())));
    }
    let b: Vec<Exact> = b.iter().map(rational).collect::<PyResult<_>>()?;
    Ok(ssmcheck::kit::exact::solve(&a, &b).map(|x| x.iter().map(|q| (q.numer().to_string(), q.denom().to_string())).collect()))
}

/// The number of sign changes of a sequence of rationals, zeros skipped (`kit::exact::sign_changes`).
#[pyfunction]
pub fn sign_changes(values: Vec<Ratio>) -> PyResult<usize> {
    let v: Vec<Exact> = values.iter().map(rational).collect::<PyResult<_>>()?;
    Ok(ssmcheck::kit::exact::sign_changes(&v))
}
