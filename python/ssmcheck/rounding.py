"""Rounding bounds to derive tolerances from (Higham, Accuracy and Stability of Numerical
Algorithms, §3.1), as `ssmcheck::claim::Rounding` gives them in Rust."""

UNIT = 2.0 ** -53
"""The unit roundoff u of binary64."""


def gamma(n: int) -> float:
    """γ_n = n·u/(1 − n·u): the relative error bound of n rounded operations in sequence."""
    nu = n * UNIT
    if nu >= 1.0:
        raise ValueError(f"gamma({n}): n·u ≥ 1, no bound")
    return nu / (1.0 - nu)


def sum_bound(n: int, sum_abs: float) -> float:
    """Absolute error of a recursive sum of n terms whose absolute values sum to `sum_abs`."""
    return gamma(max(n - 1, 0)) * sum_abs
