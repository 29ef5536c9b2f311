//! The verified models as functions of flat row-major arrays (the Python side reshapes them
//! into numpy arrays): the same code the claims check, so a notebook runs exactly what the
//! suite verified.

use crate::engine::value_error;
use pyo3::prelude::*;
use ssmcheck::math::linalg::{mat_from_rows, Vector};
use ssmcheck::model::diagonal::{DeltaRule, DiagonalSsm};
use ssmcheck::model::discretize::Discretization;
use ssmcheck::model::interaction::InteractionSsm;
use ssmcheck::model::selective_scan::ScanInputs;

/// Mamba's S6 selective scan (`model::selective_scan`): y (L × d, flat) from δ (L × d), A
/// (N × d), B and C (L × N) and u (L × d), all flat row-major; Δ = softplus(δ) when
/// `delta_softplus`.
#[pyfunction]
#[pyo3(signature = (d, n, length, delta, a, b, c, u, delta_softplus))]
#[allow(clippy::too_many_arguments)]
pub fn selective_scan(
    py: Python<'_>,
    d: usize,
    n: usize,
    length: usize,
    delta: Vec<f64>,
    a: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
    u: Vec<f64>,
    delta_softplus: bool,
) -> PyResult<Vec<f64>> {
    let inp = ScanInputs { d, n, len: length, delta: &delta, delta_softplus, a: &a, b: &b, c: &c, u: &u };
    inp.validate().map_err(value_error)?;
    let mut y = vec![0.0; length * d];
    py.detach(|| ssmcheck::model::selective_scan::selective_scan(&inp, &mut y)).map_err(value_error)?;
    Ok(y)
}

/// 004 eq (10) on a diagonal SSM with one input channel (`model::diagonal::DiagonalSsm`):
/// `LRD(t+k, t) = (∏ Ā_j) B̄_t` with Δ_t = softplus(w·x_t + bias) (or the fixed `delta` when
/// `w` is None) and B_t = b_bias + b_weight·x_t; times 1-based. `zoh` picks ZOH for B̄, else
/// Mamba's B̄ = ΔB.
#[pyfunction]
#[pyo3(signature = (a, b_bias, b_weight, w, bias, delta, zoh, x, t, k))]
#[allow(clippy::too_many_arguments)]
pub fn lrd_eq10(
    a: Vec<f64>,
    b_bias: Vec<f64>,
    b_weight: Vec<f64>,
    w: Option<f64>,
    bias: f64,
    delta: f64,
    zoh: bool,
    x: Vec<f64>,
    t: usize,
    k: usize,
) -> PyResult<Vec<f64>> {
    if a.len() != b_bias.len() || a.len() != b_weight.len() || a.is_empty() {
        return Err(value_error("lrd_eq10: A, b_bias and b_weight need the same positive length"));
    }
    if t == 0 || t + k > x.len() {
        return Err(value_error(format!("lrd_eq10: need 1 ≤ t and t + k ≤ len(x) = {}, got t = {t}, k = {k}", x.len())));
    }
    let rule = match w {
        Some(w) => DeltaRule::Selective { w, b: bias },
        None => DeltaRule::Fixed { delta },
    };
    let ssm = DiagonalSsm { a, b_bias, b_weight, delta: rule, disc: if zoh { Discretization::Zoh } else { Discretization::Euler } };
    Ok(ssm.lrd_eq10(&x, t, k))
}

/// The interaction-term SSM of 004 §4, eq (13), from continuous (A, B) at step Δ (ZOH), h₀ = 0:
/// the states h_1…h_T (T × H, flat) for scalar inputs x.
#[pyfunction]
#[pyo3(signature = (a, b, delta, g, w, x))]
pub fn interaction_states(a: Vec<Vec<f64>>, b: Vec<f64>, delta: f64, g: Vec<f64>, w: Vec<f64>, x: Vec<f64>) -> PyResult<Vec<f64>> {
    let h = b.len();
    if a.len() != h || a.iter().any(|r| r.len() != h) || g.len() != h || w.len() != h || h == 0 {
        return Err(value_error(format!("interaction_states: A must be H × H and B, G, W of length H = {h}")));
    }
    let ssm = InteractionSsm::from_continuous(&mat_from_rows(&a), &Vector::from_vec(b), delta, Vector::from_vec(g), Vector::from_vec(w));
    Ok(ssm.states(&x).into_iter().flatten().collect())
}
