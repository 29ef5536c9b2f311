"""The kit's exact rational helpers (the crate's `kit::exact`): a matrix's rank, the solution of a
linear system and a sequence's sign changes, decided over the rationals. Entries may be ints,
floats (taken exactly: a double is a dyadic rational) or `fractions.Fraction`s; solutions come
back as `Fraction`s. A refutation decided by them is exact, as Rust's are."""

from __future__ import annotations

import numbers
from fractions import Fraction
from typing import List, Optional, Sequence, Tuple, Union

from . import _ssmcheck

#: A number taken exactly: an int, a float (its exact dyadic value) or a Fraction.
Rational = Union[int, float, Fraction]

__all__ = ["Rational", "rank", "sign_changes", "solve"]


def _ratio(x: Rational) -> Tuple[str, str]:
    if isinstance(x, bool) or not isinstance(x, (numbers.Rational, float)):
        raise TypeError(f"an exact rational needs an int, a float or a Fraction, not {type(x).__name__}")
    if isinstance(x, float) and (x != x or x in (float("inf"), float("-inf"))):
        raise ValueError(f"{x} has no exact rational value")
    q = Fraction(x)
    return str(q.numerator), str(q.denominator)


def _rows(a: Sequence[Sequence[Rational]]) -> List[List[Tuple[str, str]]]:
    return [[_ratio(x) for x in row] for row in a]


def rank(a: Sequence[Sequence[Rational]]) -> int:
    """The rank of the matrix with rows `a`, by Gaussian elimination over the rationals."""
    return _ssmcheck.exact_rank(_rows(a))


def solve(a: Sequence[Sequence[Rational]], b: Sequence[Rational]) -> Optional[List[Fraction]]:
    """The exact solution x of A x = b (A square, by rows), or None when A is singular."""
    x = _ssmcheck.exact_solve(_rows(a), [_ratio(v) for v in b])
    return None if x is None else [Fraction(int(n), int(d)) for n, d in x]


def sign_changes(values: Sequence[Rational]) -> int:
    """The number of sign changes of `values`, zeros skipped (Descartes' count)."""
    return _ssmcheck.sign_changes([_ratio(v) for v in values])
