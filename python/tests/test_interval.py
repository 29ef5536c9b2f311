"""The kit's enclosures from Python: Interval arithmetic keeps exact values inside (checked with
exact fractions and with numpy at many points), an Interval is a side of a relation (a
refutation by it is certified), and the spectral norm encloses numpy's largest singular value."""

from fractions import Fraction
from typing import Any, Callable, List, Tuple

import numpy as np
import pytest

import ssmcheck
from ssmcheck import Interval
from ssmcheck import strategies as st


def encloses(i: Interval, exact: Fraction) -> bool:
    return Fraction(i.lo) <= exact <= Fraction(i.hi)


def test_arithmetic_encloses_the_exact_rational_result() -> None:
    a, b = Interval(0.1), Interval(0.3, 0.7)
    fa = Fraction(0.1)
    for x in [Fraction(0.3), Fraction(1, 2), Fraction(0.7)]:
        assert encloses(a + b, fa + x) and encloses(a - b, fa - x) and encloses(a * b, fa * x) and encloses(a / b, fa / x)
    third = Interval(1.0) / 3.0
    assert encloses(third, Fraction(1, 3)) and third.width() > 0
    # The control: the rounded quotient alone is not the exact third.
    assert Fraction(1.0 / 3.0) != Fraction(1, 3)
    assert encloses(Interval.decimal("0.001"), Fraction(1, 1000)) and Fraction(0.001) != Fraction(1, 1000)
    with pytest.raises(ValueError, match="lo ≤ hi"):
        Interval(1.0, 0.0)
    with pytest.raises(ValueError, match="not a decimal"):
        Interval.decimal("one")


def test_the_elementary_functions_enclose_numpy_at_every_point() -> None:
    x = Interval(-2.5, 4.0)
    points = np.linspace(x.lo, x.hi, 401)
    # numpy's functions are within an ulp or two of the exact values: two ulps of slack.
    cases: List[Tuple[Interval, Callable[[Any], Any]]] = [(x.sin(), np.sin), (x.cos(), np.cos), ((x * 0.5).exp(), lambda p: np.exp(0.5 * p))]
    for f, g in cases:
        lo, hi = np.nextafter(np.nextafter(f.lo, -np.inf), -np.inf), np.nextafter(np.nextafter(f.hi, np.inf), np.inf)
        assert np.all((lo <= g(points)) & (g(points) <= hi)), f
    # sin on [−2.5, 4] passes −π/2 and π/2: the whole range.
    assert x.sin().lo == -1.0 and x.sin().hi == 1.0
    assert Interval(1.0).atan2(1.0).contains(np.pi / 4) and Interval.pi().contains(np.pi)


def test_an_interval_is_a_side_and_its_refutation_is_certified() -> None:
    @ssmcheck.conjecture(x=st.real(1.0, 2.0), expect="refuted")
    def sqrt_two_is_rational(x: float) -> object:
        """√2 ≤ 1.41421356 (false by 3.7·10⁻⁹: √2 = 1.41421356237…)."""
        return ssmcheck.le(Interval(2.0).sqrt() * x / x, Interval.decimal("1.41421356"))

    (r,) = ssmcheck.check(sqrt_two_is_rational, budget="quick")
    assert r.verdict == "refuted" and r.certificate is not None and r.certificate["status"] == "certified", r.explain_failure()

    # The control: at the precision of a double the two sides overlap, a tie and not a refutation
    # (√2 − 1.4142135623730950 = 4.9·10⁻¹⁷, below the enclosures' width).
    @ssmcheck.conjecture(x=st.real(1.0, 2.0), expect="holds")
    def sqrt_two_below_its_double(x: float) -> object:
        """√2 ≤ 1.4142135623730950: undecidable in binary64, so never refuted."""
        return ssmcheck.le(Interval(2.0).sqrt(), Interval.decimal("1.4142135623730950"))

    (tie,) = ssmcheck.check(sqrt_two_below_its_double, budget="quick")
    assert tie.verdict == "holds" and "ties" in tie.summary, tie.explain_failure()


def test_the_spectral_norm_encloses_numpys_largest_singular_value() -> None:
    rng = np.random.default_rng(3)
    for shape in [(3, 3), (5, 2), (2, 6)]:
        a = rng.uniform(-2, 2, shape)
        sigma = np.linalg.svd(a, compute_uv=False)[0]
        got = ssmcheck.spectral_norm(a.tolist())
        assert got.lo <= sigma * (1 + 1e-13) and sigma * (1 - 1e-13) <= got.hi and got.width() <= 1e-3 * sigma, (shape, got, sigma)
    with pytest.raises(ValueError, match="differ in length"):
        ssmcheck.spectral_norm([[1.0, 2.0], [3.0]])


def test_the_linear_solve_and_the_complex_exponential_are_enclosed() -> None:
    rng = np.random.default_rng(9)
    a = rng.normal(size=(5, 5)) + 4 * np.eye(5)
    b = rng.normal(size=5)
    x = ssmcheck.solve_enclosed(a.tolist(), b.tolist())
    want = np.linalg.solve(a, b)
    # numpy's LU is within ~n·κ·u of the exact solution; the enclosure holds the exact one.
    assert all(abs(xi.lo - w) < 1e-12 and abs(xi.hi - w) < 1e-12 for xi, w in zip(x, want))
    moved = ssmcheck.solve_enclosed(a.tolist(), (b + 1e-9).tolist())
    assert any(not (m.lo <= w <= m.hi) for m, w in zip(moved, want))
    with pytest.raises(ValueError, match="singular"):
        ssmcheck.solve_enclosed([[1.0, 2.0], [2.0, 4.0]], [1.0, 1.0])
    z = rng.normal(size=(3, 3)) + 1j * rng.normal(size=(3, 3))
    re, im = ssmcheck.expm_complex(z.real.tolist(), z.imag.tolist())
    w, v = np.linalg.eig(z)
    e = v @ np.diag(np.exp(w)) @ np.linalg.inv(v)
    slack = 1e-12 * np.abs(e).max()
    for i in range(3):
        for j in range(3):
            assert re[i][j].lo - slack <= e[i, j].real <= re[i][j].hi + slack
            assert im[i][j].lo - slack <= e[i, j].imag <= im[i][j].hi + slack
