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
