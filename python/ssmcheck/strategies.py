"""The suite's generators, one per argument of a conjecture (`ssmcheck.conjecture`). Each is a
description the engine turns into the same Rust strategy a Rust conjecture uses
(`ssmcheck::strategy`), so search and shrinking are the suite's own. Numbers arrive as floats,
vectors and matrices as numpy arrays."""

from __future__ import annotations

from typing import Any, Dict

#: A strategy's description, as the engine reads it (`{"kind": …, parameters…}`).
Spec = Dict[str, Any]


def _spec(kind: str, **params: Any) -> Spec:
    return {"kind": kind, **params}


def real(lo: float, hi: float) -> Spec:
    """A real in [lo, hi], shrinking toward simple values."""
    return _spec("real", lo=float(lo), hi=float(hi))


def standard_normal() -> Spec:
    """A standard normal value (the inverse normal CDF of a grid of 2^21 + 1 probabilities, so
    within ±5.035), shrinking toward 0."""
    return _spec("standard_normal")


def log_uniform(lo: float, hi: float) -> Spec:
    """A positive real, uniform in log between lo > 0 and hi."""
    return _spec("log_uniform", lo=float(lo), hi=float(hi))


def edge_biased(lo: float, hi: float) -> Spec:
    """A real in [lo, hi] that often lands on or near the ends."""
    return _spec("edge_biased", lo=float(lo), hi=float(hi))


def grid(lo: float, hi: float, step: float) -> Spec:
    """A point of the grid lo, lo + step, …, hi (exact dyadics for power-of-two steps)."""
    return _spec("grid", lo=float(lo), hi=float(hi), step=float(step))


def grid_vec(n: int, lo: float, hi: float, step: float) -> Spec:
    """A vector of n grid points."""
    return _spec("grid_vec", n=int(n), lo=float(lo), hi=float(hi), step=float(step))


def grid_matrix(rows: int, cols: int, lo: float, hi: float, step: float) -> Spec:
    """A rows × cols matrix of grid points."""
    return _spec("grid_matrix", rows=int(rows), cols=int(cols), lo=float(lo), hi=float(hi), step=float(step))


def inputs(length: int, amplitude: float) -> Spec:
    """An input sequence of this length, entries in [−amplitude, amplitude]."""
    return _spec("inputs", len=int(length), amplitude=float(amplitude))


def real_diagonal(n: int) -> Spec:
    """n stable real modes (negative), as S4D-Real and Mamba use."""
    return _spec("real_diagonal", n=int(n))


def selective_deltas(length: int) -> Spec:
    """Step sizes Δ_t of a selective SSM, positive."""
    return _spec("selective_deltas", len=int(length))


def stable_matrix(n: int) -> Spec:
    """An n × n Hurwitz matrix (every eigenvalue with negative real part), often non-normal."""
    return _spec("stable_matrix", n=int(n))


def symmetric_matrix(n: int, lo: float, hi: float) -> Spec:
    """A symmetric n × n matrix with entries in [lo, hi]."""
    return _spec("symmetric_matrix", n=int(n), lo=float(lo), hi=float(hi))


def rademacher(count: int, p: int) -> Spec:
    """count vectors of p random signs ±1 (a count × p matrix)."""
    return _spec("rademacher", count=int(count), p=int(p))


def complex_diagonal(n: int) -> Spec:
    """n stable complex modes (S4D-Lin style) as an (n, 2) array of (real part, imaginary part)."""
    return _spec("complex_diagonal", n=int(n))


def normal_matrix(n: int) -> Spec:
    """A stable normal n × n matrix with its exact spectral abscissa: {'a': rows, 'lambda1': …}."""
    return _spec("normal_matrix", n=int(n))


def s6(n: int) -> Spec:
    """A one-channel S6 (Mamba) model with n modes: {'a', 'b_bias', 'b_weight', 'delta', 'disc'}
    (the fields of `model::DiagonalSsm`)."""
    return _spec("s6", n=int(n))


def interaction_model(h: int) -> Spec:
    """The parameters of 004's interaction-term SSM with state size h (`strategy::InteractionParams`)."""
    return _spec("interaction_model", h=int(h))


def mqar(keys: int, values: int, length: int) -> Spec:
    """An MQAR sequence: {'spec', 'tokens', 'targets'} (as `models.mqar_instance` gives)."""
    return _spec("mqar", keys=int(keys), values=int(values), len=int(length))


def integer(lo: int, hi: int) -> Spec:
    """An integer in [lo, hi] (a Python int), shrinking toward the end nearest 0."""
    return _spec("integer", lo=int(lo), hi=int(hi))


#: The strategies that draw one number, which `vec_of` and `matrix_of` take for their entries.
SCALARS = ("real", "standard_normal", "log_uniform", "edge_biased", "grid", "integer")


def _scalar(elem: Spec) -> Spec:
    if not isinstance(elem, dict) or elem.get("kind") not in SCALARS:
        raise ValueError(f"elem: a scalar strategy ({', '.join(SCALARS)}), not {elem!r}")
    return elem


def vec_of(min_len: int, max_len: int, elem: Spec) -> Spec:
    """A vector whose length is drawn from [min_len, max_len], entries from the scalar strategy
    `elem` (real, standard_normal, log_uniform, edge_biased, grid, integer); shrinking shortens
    it first."""
    return _spec("vec_of", min_len=int(min_len), max_len=int(max_len), elem=_scalar(elem))


def matrix_of(min_rows: int, max_rows: int, min_cols: int, max_cols: int, elem: Spec) -> Spec:
    """A matrix whose shape is drawn (rows in [min_rows, max_rows], columns in [min_cols,
    max_cols], at least 1 each), entries from the scalar strategy `elem`; shrinking reduces the
    rows, then the columns, keeping the entries it shows, then the entries."""
    return _spec("matrix_of", min_rows=int(min_rows), max_rows=int(max_rows), min_cols=int(min_cols), max_cols=int(max_cols), elem=_scalar(elem))


def unit_vector(n: int) -> Spec:
    """A unit vector in R^n, uniform on the sphere (n standard normals normalised; e_1 where
    the draw is 0)."""
    return _spec("unit_vector", n=int(n))


def positive_vec(n: int, lo: float, hi: float) -> Spec:
    """n positive values, log-uniform in [lo, hi]."""
    return _spec("positive_vec", n=int(n), lo=float(lo), hi=float(hi))


def disc_eigenvalues(n: int, r_max: float, conjugate_pairs: bool = False) -> Spec:
    """n complex numbers in the disc |z| ≤ r_max (moduli biased to r_max), as an (n, 2) array of
    (real, imaginary) parts; with `conjugate_pairs`, as z, z̄ pairs (the last real for odd n)."""
    return _spec("disc_eigenvalues", n=int(n), r_max=float(r_max), conjugate_pairs=bool(conjugate_pairs))
