"""The rest of the kit from Python: complex rectangles keep the exact complex results inside
(checked with exact fractions and cmath), the enclosed inverse holds the exact rational inverse
(an independent Gauss–Jordan over fractions), the three discretisations against their formulas
in numpy, and the exact rank, solve and sign-change count against hand-checked and numpy cases."""

import cmath
from fractions import Fraction
from typing import List, Sequence

import numpy as np
import pytest

import ssmcheck
from ssmcheck import ComplexInterval, Interval, exact


def encloses(i: Interval, q: Fraction) -> bool:
    return Fraction(i.lo) <= q <= Fraction(i.hi)


def test_complex_arithmetic_encloses_the_exact_complex_result() -> None:
    a, b, c, d = 0.1, -0.7, 0.3, 2.5
    z, w = ComplexInterval(a, b), ComplexInterval(c, d)
    fa, fb, fc, fd = map(Fraction, (a, b, c, d))
    den = fc * fc + fd * fd
    exact_results = {
        "+": (z + w, fa + fc, fb + fd),
        "-": (z - w, fa - fc, fb - fd),
        "*": (z * w, fa * fc - fb * fd, fa * fd + fb * fc),
        "/": (z / w, (fa * fc + fb * fd) / den, (fb * fc - fa * fd) / den),
        "real*": (2.5 * z, 5 * fa / 2, 5 * fb / 2),
    }
    for name, (r, re, im) in exact_results.items():
        assert encloses(r.re, re) and encloses(r.im, im), name
    # |z|² and the conjugate, exactly.
    m = abs(z)
    assert Fraction(m.lo) ** 2 <= fa * fa + fb * fb <= Fraction(m.hi) ** 2
    assert encloses(z.conj().im, -fb)
    # The control: a rectangle one part in 10⁹ away does not hold the product.
    assert not (z * ComplexInterval(c * (1 + 1e-9), d)).re.contains(float(fa * fc - fb * fd))


def test_complex_exp_power_and_arg_enclose_cmath() -> None:
    two_ulps = 4.5e-16  # cmath's results are within an ulp or two of the exact values
    for x, y in [(0.5, 1.25), (-3.0, 10.0), (0.0, -np.pi / 2)]:
        e, ref = ComplexInterval(x, y).exp(), cmath.exp(complex(x, y))
        assert e.re.lo - two_ulps * abs(ref) <= ref.real <= e.re.hi + two_ulps * abs(ref)
        assert e.im.lo - two_ulps * abs(ref) <= ref.imag <= e.im.hi + two_ulps * abs(ref)
        assert ComplexInterval(x, y).arg().contains(cmath.phase(complex(x, y))) or x == 0.0
    z = ComplexInterval(0.5, 0.25)
    p, q = z**3, complex(Fraction(1, 2), Fraction(1, 4)) ** 3
    assert p.contains(q.real, q.imag)
    r = ComplexInterval.polar(Interval(0.9), Interval.pi() / 3.0)
    assert abs(r).contains(0.9) and r.contains(0.45, 0.9 * np.sqrt(3) / 2)
    with pytest.raises(TypeError):
        ComplexInterval("1")  # type: ignore[arg-type]


def exact_inverse(a: Sequence[Sequence[float]]) -> List[List[Fraction]]:
    """Gauss–Jordan over fractions, written here (independent of the crate's)."""
    n = len(a)
    m = [[Fraction(x) for x in row] + [Fraction(int(i == j)) for j in range(n)] for i, row in enumerate(a)]
    for c in range(n):
        p = next(i for i in range(c, n) if m[i][c] != 0)
        m[c], m[p] = m[p], m[c]
        m[c] = [x / m[c][c] for x in m[c]]
        for i in range(n):
            if i != c:
                m[i] = [x - m[i][c] * y for x, y in zip(m[i], m[c])]
    return [row[n:] for row in m]


def test_the_enclosed_inverse_holds_the_exact_inverse() -> None:
    rng = np.random.default_rng(7)
    a = (rng.standard_normal((4, 4)) + 3 * np.eye(4)).tolist()
    inv, ref = ssmcheck.inverse_enclosed(a), exact_inverse(a)
    assert all(encloses(inv[i][j], ref[i][j]) for i in range(4) for j in range(4))
    assert max(inv[i][j].width() for i in range(4) for j in range(4)) < 1e-12
    # The control: the inverse of A with one entry moved by 10⁻⁹ is not inside.
    moved = [row[:] for row in a]
    moved[0][0] += 1e-9
    other = exact_inverse(moved)
    assert not all(encloses(inv[i][j], other[i][j]) for i in range(4) for j in range(4))
    with pytest.raises(ValueError, match="singular"):
        ssmcheck.inverse_enclosed([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(ValueError, match="square"):
        ssmcheck.inverse_enclosed([[1.0, 2.0]])


def test_the_three_discretisations_match_their_formulas() -> None:
    a = np.array([[-1.0, 0.5], [0.0, -2.0]])
    b, delta = np.array([1.0, -0.5]), 0.1
    i2, half = np.eye(2), a * delta / 2
    abar, bbar = ssmcheck.discretize(a.tolist(), b.tolist(), delta, "bilinear")
    np.testing.assert_allclose(abar, np.linalg.solve(i2 - half, i2 + half), rtol=0, atol=1e-15)
    np.testing.assert_allclose(bbar, np.linalg.solve(i2 - half, delta * b), rtol=0, atol=1e-15)
    # ZOH and Euler on a diagonal A: e^{Δa}, and (e^{Δa} − 1)/a·b or Δb.
    d = np.array([-1.0, -3.0])
    for rule, expected_b in [("zoh", np.expm1(delta * d) / d * b), ("euler", delta * b)]:
        abar, bbar = ssmcheck.discretize(np.diag(d).tolist(), b.tolist(), delta, rule)
        np.testing.assert_allclose(np.diag(abar), np.exp(delta * d), rtol=1e-14)
        np.testing.assert_allclose(bbar, expected_b, rtol=1e-14)
    # The control: bilinear is not ZOH (they agree to second order in Δ only).
    zoh_b = ssmcheck.discretize(np.diag(d).tolist(), b.tolist(), delta, "zoh")[1]
    bil_b = ssmcheck.discretize(np.diag(d).tolist(), b.tolist(), delta, "bilinear")[1]
    assert abs(zoh_b[1] - bil_b[1]) > 1e-6
    with pytest.raises(ValueError, match="unknown rule"):
        ssmcheck.discretize(a.tolist(), b.tolist(), delta, "tustin")
    with pytest.raises(ValueError, match="singular"):
        ssmcheck.discretize([[20.0]], [1.0], 0.1, "bilinear")


def test_exact_rank_solve_and_sign_changes() -> None:
    # 0.3 is not 3·0.1 in binary: the exact rank is 2 where numpy's tolerance says 1.
    a = [[0.1, 0.3], [1.0, 3.0]]
    assert exact.rank(a) == 2 and np.linalg.matrix_rank(np.array(a)) == 1
    assert exact.rank([[0.5, 1.5], [1.0, 3.0]]) == 1 and exact.rank([[Fraction(1, 3), 1], [1, 3]]) == 1
    m: List[List[exact.Rational]] = [[2, 1, Fraction(1, 7)], [0.1, -1, 0], [3, 0, 5]]
    rhs_list: List[exact.Rational] = [1, 0.25, -2]
    x = exact.solve(m, rhs_list)
    assert x is not None
    for row, rhs in zip(m, rhs_list):
        assert sum(Fraction(c) * v for c, v in zip(row, x)) == Fraction(rhs)
    assert exact.solve([[1, 2], [2, 4]], [1, 1]) is None
    assert exact.sign_changes([1, 0, -2, 3, 0, 0, -1e-300]) == 3 and exact.sign_changes([0, 0]) == 0
    with pytest.raises(ValueError, match="no exact rational"):
        exact.rank([[float("nan")]])
    with pytest.raises(TypeError):
        exact.sign_changes(["1"])  # type: ignore[list-item]
