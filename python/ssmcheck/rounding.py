"""Rounding bounds to derive tolerances from (Higham, Accuracy and Stability of Numerical
Algorithms, §2.2 and §3.1): the engine's own `ssmcheck::claim::Rounding`."""

from . import _ssmcheck

UNIT, UNDERFLOW, _, _ = _ssmcheck.rounding_bounds(0)
"""The unit roundoff u = 2⁻⁵³ of binary64, and the smallest subnormal 2⁻¹⁰⁷⁴ (the absolute error
a product, quotient or elementary function may add when its result is subnormal)."""


def gamma(n: int) -> float:
    """γ_n = n·u/(1 − n·u): the relative error bound of n rounded operations in sequence."""
    if n * UNIT >= 1.0:
        raise ValueError(f"gamma({n}): n·u ≥ 1, no bound")
    return _ssmcheck.rounding_bounds(int(n))[2]


def underflow(n: int) -> float:
    """n·2⁻¹⁰⁷⁴: what a purely relative bound misses when an intermediate result of n operations
    is subnormal; add it to a tolerance whose sides can get that small."""
    return _ssmcheck.rounding_bounds(int(n))[3]


def sum_bound(n: int, sum_abs: float) -> float:
    """Absolute error of a recursive sum of n terms whose absolute values sum to `sum_abs`."""
    return gamma(max(n - 1, 0)) * sum_abs
