"""The relation a conjecture returns for one instance: the same helpers as the Rust route's
`Eval` (`le`, `le_by`, `ge_by`, `lt`, `gt`, `close`, `positive`, `reject`), with the same
tolerances and margins. A side is a float, or an enclosure of the exact value (a pair `(lo, hi)`
or an `ssmcheck.Interval`, whose arithmetic keeps the exact value inside): a
relation on enclosures is violated only when they are separated (a certified refutation) and is
a tie when they overlap.

Tolerances: `rtol` relative to the larger side, `atol` absolute; derive them from the rounding
your computation can carry (`ssmcheck.rounding`), do not guess."""

from __future__ import annotations

import math
from typing import Any, Dict, Sequence, SupportsFloat, Tuple, Union

from . import _ssmcheck

#: A relation as the engine reads it (`{"op": …, sides, tolerances}`).
Relation = Dict[str, Any]
#: An exact value's enclosure (lo, hi).
Enclosure = Tuple[float, float]
#: A side as given: a number, or an enclosure (a pair, or an `Interval`).
SideLike = Union[SupportsFloat, Sequence[SupportsFloat], _ssmcheck.Interval]


def _side(x: SideLike) -> Union[float, Enclosure]:
    if isinstance(x, _ssmcheck.Interval):
        return (x.lo, x.hi)
    if isinstance(x, (tuple, list)) and len(x) == 2:
        lo, hi = float(x[0]), float(x[1])
        return (lo, hi)
    if isinstance(x, Sequence):
        raise TypeError(f"a side is a number or an enclosure (lo, hi), not a sequence of {len(x)}")
    return float(x)


def enclosure(lo: float, hi: float) -> Enclosure:
    """An enclosure [lo, hi] of a side's exact value."""
    if not lo <= hi:
        raise ValueError(f"an enclosure needs lo ≤ hi, got ({lo}, {hi})")
    return (float(lo), float(hi))


def le(lhs: SideLike, rhs: SideLike, rtol: float = 0.0, atol: float = 0.0) -> Relation:
    """lhs ≤ rhs, relative margin (rhs − lhs + tol)/(|lhs| + |rhs| + atol)."""
    return {"op": "le", "lhs": _side(lhs), "rhs": _side(rhs), "rtol": float(rtol), "atol": float(atol)}


def le_by(lhs: SideLike, rhs: SideLike, scale: float, rtol: float = 0.0, atol: float = 0.0) -> Relation:
    """lhs ≤ rhs with a margin linear in the gap, (rhs − lhs + tol)/scale: for sides that can be 0."""
    return {"op": "le_by", "lhs": _side(lhs), "rhs": _side(rhs), "scale": float(scale), "rtol": float(rtol), "atol": float(atol)}


def ge_by(lhs: SideLike, rhs: SideLike, scale: float, rtol: float = 0.0, atol: float = 0.0) -> Relation:
    """lhs ≥ rhs with a margin linear in the gap."""
    return {"op": "ge_by", "lhs": _side(lhs), "rhs": _side(rhs), "scale": float(scale), "rtol": float(rtol), "atol": float(atol)}


def lt(lhs: SideLike, rhs: SideLike, scale: float = 1.0, rounding: float = 0.0) -> Relation:
    """The strict lhs < rhs, margin (rhs − lhs)/scale; equality within `rounding` (absolute) is a tie."""
    return {"op": "lt", "lhs": _side(lhs), "rhs": _side(rhs), "scale": float(scale), "atol": float(rounding)}


def gt(lhs: SideLike, rhs: SideLike, scale: float = 1.0, rounding: float = 0.0) -> Relation:
    """The strict lhs > rhs."""
    return {"op": "gt", "lhs": _side(lhs), "rhs": _side(rhs), "scale": float(scale), "atol": float(rounding)}


def close(got: SupportsFloat, want: SupportsFloat, rtol: float = 0.0, atol: float = 0.0) -> Relation:
    """|got − want| ≤ rtol·|want| + atol."""
    if isinstance(got, tuple) or isinstance(want, tuple):
        raise TypeError("close() compares floats; for enclosures state le/ge on the difference")
    err = abs(float(got) - float(want))
    return {"op": "close", "err": err, "scale": max(abs(float(want)), math.ulp(0.0)), "rtol": float(rtol), "atol": float(atol)}


def positive(x: SideLike, scale: float = 1.0) -> Relation:
    """x > 0, margin x/scale."""
    return {"op": "positive", "x": _side(x), "scale": float(scale)}


def reject(why: str) -> Relation:
    """The instance does not meet the conjecture's assumptions (not counted as a case)."""
    return {"op": "reject", "why": str(why)}
