"""Conjectures in Python, judged by the engine: one that holds, one the search refutes (shrunk,
both sides, certified on enclosures), hypotheses, and errors in the user's code."""

import math
from typing import Any, Dict, List

import numpy as np
import pytest

import ssmcheck
from ssmcheck import strategies as st
from ssmcheck.models import Array
from ssmcheck.relations import Relation


@ssmcheck.conjecture(a=st.real(-4.0, -0.25), t=st.real(0.0, 10.0), expect="holds")
def decay_is_monotone(a: float, t: float) -> Relation:
    """e^{a(t+1)} ≤ e^{at} for a < 0 (both sides rounded once: 1 ulp each, so rtol 2u)."""
    return ssmcheck.le(math.exp(a * (t + 1)), math.exp(a * t), rtol=2 * ssmcheck.rounding.UNIT)


@ssmcheck.conjecture(x=st.grid(0.0, 4.0, 1 / 64), expect="refuted", sides=("x²", "2x"))
def square_at_most_double(x: float) -> Relation:
    """x² ≤ 2x on [0, 4] (false above 2)."""
    return ssmcheck.le(x * x, 2 * x)


@ssmcheck.conjecture(x=st.grid(0.0, 4.0, 1 / 64), expect="refuted")
def square_below_three_enclosed(x: float) -> Relation:
    """x² ≤ 3 on [0, 4], sides as exact enclosures (the products of 1/64-grid points are exact)."""
    return ssmcheck.le(ssmcheck.enclosure(x * x, x * x), ssmcheck.enclosure(3.0, 3.0))


@ssmcheck.conjecture(v=st.grid_vec(4, -2.0, 2.0, 0.25), given=("some entry is positive", lambda v: bool(np.any(v > 0))), expect="holds")
def max_is_positive_given_a_positive_entry(v: Array) -> Relation:
    """max v > 0 when some entry of v is positive."""
    return ssmcheck.positive(float(np.max(v)))


@ssmcheck.conjecture(x=st.real(0.0, 1.0), expect="holds", control=("the bound 1 lowered to 0.5", lambda x: ssmcheck.le(x * x, 0.5)))
def square_at_most_one(x: float) -> Relation:
    """x² ≤ 1 on [0, 1]; its control, x² ≤ 0.5, fails for x > 0.71 (29% of the draws)."""
    return ssmcheck.le(x * x, 1.0)


def test_a_control_runs_with_the_conjecture_and_must_be_refuted() -> None:
    (r,) = ssmcheck.check(square_at_most_one, budget="quick")
    assert r.verdict == "holds" and r.agrees
    control = r.raw["control"]
    assert control["mutation"] == "the bound 1 lowered to 0.5" and control["detected"] and control["cases"] == r.cases

    @ssmcheck.conjecture(x=st.real(0.0, 1.0), control=("the bound 1 raised to 2", lambda x: ssmcheck.le(x * x, 2.0)))
    def square_with_no_mutant(x: float) -> Relation:
        """x² ≤ 1 on [0, 1], with a control that is no mutant."""
        return ssmcheck.le(x * x, 1.0)

    (r,) = ssmcheck.check(square_with_no_mutant, budget="quick")
    assert r.verdict == "holds" and not r.agrees
    assert r.disagreement is not None and "not refuted" in r.disagreement
    with pytest.raises(ValueError, match="control"):
        ssmcheck.conjecture(x=st.real(0.0, 1.0), control=("no function", 1.0))(square_at_most_one.func)  # type: ignore[arg-type]


def test_a_true_conjecture_holds() -> None:
    (r,) = ssmcheck.check(decay_is_monotone, budget="quick")
    assert r.verdict == "holds" and r.agrees and r.cases >= 200


def test_a_false_conjecture_is_refuted_shrunk_with_both_sides() -> None:
    (r,) = ssmcheck.check(square_at_most_double, budget="quick")
    assert r.verdict == "refuted" and r.agrees
    assert r.counterexample is not None and r.violation is not None and r.certificate is not None
    x = float(r.counterexample["x"])
    assert 2.0 < x <= 2.25  # shrunk toward the boundary 2 on the 1/64 grid
    assert r.violation.lhs == x * x and r.violation.rhs == 2 * x
    assert r.violation.lhs_is == "x²"
    assert r.certificate["status"] == "not_certified"  # float sides: no enclosure


def test_a_refutation_on_enclosures_is_certified() -> None:
    (r,) = ssmcheck.check(square_below_three_enclosed, budget="quick")
    assert r.verdict == "refuted" and r.certificate is not None
    assert r.certificate["status"] == "certified"


def test_the_hypothesis_is_respected() -> None:
    (r,) = ssmcheck.check(max_is_positive_given_a_positive_entry, budget="quick")
    assert r.verdict == "holds"


def test_a_conjecture_is_callable_and_listed() -> None:
    assert square_at_most_double(1.0)["op"] == "le"
    ids = {m["id"] for m in ssmcheck.claims()}
    assert "user.square_at_most_double" in ids


def test_an_error_in_the_conjecture_is_raised_with_its_instance() -> None:
    @ssmcheck.conjecture(x=st.real(0.0, 1.0))
    def broken(x: float) -> Relation:
        """Raises."""
        raise RuntimeError("boom")

    with pytest.raises(ssmcheck.ConjectureError, match="boom"):
        ssmcheck.check(broken, budget="quick")


def test_a_missing_statement_or_strategy_is_refused() -> None:
    with pytest.raises(ValueError, match="docstring"):
        ssmcheck.conjecture(x=st.real(0, 1))(lambda x: ssmcheck.le(x, 1))
    with pytest.raises(ValueError, match="strategies"):

        @ssmcheck.conjecture(y=st.real(0, 1))
        def wrong(x: float) -> Relation:
            """x."""
            return ssmcheck.le(x, 1)


@ssmcheck.conjecture(a=st.log_uniform(1e-3, 4.0), x=st.inputs(20, 3.0), expect="holds")
def s6_lrd_is_monotone(a: float, x: Array) -> List[Relation]:
    """For S6 with one stable mode a < 0, B = 1, Δ = softplus(x): |LRD(1+k, 1)| is non-increasing in k ≤ 19."""
    lrd = [abs(ssmcheck.models.lrd_eq10([-a], [1.0], [0.0], x, t=1, k=k, w=1.0)[0]) for k in range(20)]
    return [ssmcheck.le(lrd[k + 1], lrd[k], rtol=4 * ssmcheck.rounding.UNIT) for k in range(19)]


def test_the_readme_twin_of_the_rust_example_holds() -> None:
    (r,) = ssmcheck.check(s6_lrd_is_monotone, budget="quick")
    assert r.verdict == "holds" and r.cases >= 200


@ssmcheck.conjecture(m=st.s6(3), inst=st.mqar(3, 5, 16), c=st.complex_diagonal(2), expect="holds")
def structured_draws_arrive_as_the_suites_instances(m: Dict[str, Any], inst: Dict[str, Any], c: Array) -> List[Relation]:
    """An S6 model's modes are stable, an MQAR sequence has one query per key, complex modes have negative real parts."""
    queries = sum(t is not None for t in inst["targets"])
    return [ssmcheck.positive(-max(m["a"])), ssmcheck.le(queries, 3), ssmcheck.le(3, queries), ssmcheck.positive(-float(np.max(c[:, 0])))]


def test_structured_strategies_reach_python() -> None:
    (r,) = ssmcheck.check(structured_draws_arrive_as_the_suites_instances, budget="quick")
    assert r.verdict == "holds" and r.cases >= 200


def test_a_conjecture_declared_without_a_source_file_works() -> None:
    # As in a REPL or a notebook cell: exec'd code has no file inspect can read.
    namespace: Dict[str, Any] = {"ssmcheck": ssmcheck, "st": st}
    exec(
        "@ssmcheck.conjecture(x=st.real(0.0, 1.0), expect='holds')\n"
        "def in_a_cell(x):\n"
        "    \"\"\"x ≤ 1 on [0, 1].\"\"\"\n"
        "    return ssmcheck.le(x, 1.0)\n",
        namespace,
    )
    (r,) = ssmcheck.check(namespace["in_a_cell"], budget="quick")
    assert r.verdict == "holds"
    assert ssmcheck.explain("user.in_a_cell")["source"]["locus"].startswith("<string>:")


def test_the_rounding_bounds_are_the_engines() -> None:
    assert ssmcheck.rounding.UNIT == 2.0 ** -53
    assert ssmcheck.rounding.UNDERFLOW == 5e-324
    assert ssmcheck.rounding.gamma(10) == 10 * 2.0 ** -53 / (1 - 10 * 2.0 ** -53)
    assert ssmcheck.rounding.underflow(3) == 3 * 5e-324
    with pytest.raises(ValueError):
        ssmcheck.rounding.gamma(2 ** 53)


def test_integer_and_drawn_size_strategies_shrink_their_size_first() -> None:
    @ssmcheck.conjecture(v=st.vec_of(0, 20, st.grid(0.0, 9.0, 1.0)), expect="refuted")
    def short_or_small(v: Array) -> Relation:
        """No vector of length ≥ 4 has an entry ≥ 7 (false)."""
        return ssmcheck.le(float(len(v) >= 4 and np.max(v) >= 7.0), 0.0)

    @ssmcheck.conjecture(m=st.matrix_of(1, 8, 1, 6, st.integer(0, 9)), expect="refuted")
    def narrow_or_small(m: Array) -> Relation:
        """No matrix of at least 3 rows and 2 columns has an entry ≥ 5 (false)."""
        return ssmcheck.le(float(m.shape[0] >= 3 and m.shape[1] >= 2 and np.max(m) >= 5), 0.0)

    (r,) = ssmcheck.check(short_or_small, budget="quick")
    assert r.verdict == "refuted" and r.counterexample is not None
    v = r.counterexample["v"]
    assert len(v) == 4 and sorted(v) == [0.0, 0.0, 0.0, 7.0], v
    (r,) = ssmcheck.check(narrow_or_small, budget="quick")
    assert r.verdict == "refuted" and r.counterexample is not None
    m = np.asarray(r.counterexample["m"])
    assert m.shape == (3, 2) and sorted(m.ravel().tolist()) == [0, 0, 0, 0, 0, 5], m

    seen: List[Any] = []

    @ssmcheck.conjecture(k=st.integer(-3, 40), u=st.unit_vector(4), z=st.disc_eigenvalues(5, 0.9, conjugate_pairs=True), p=st.positive_vec(3, 1e-3, 1.0),
                         expect="holds")
    def drawn_where_they_should_be(k: int, u: Array, z: Array, p: Array) -> Relation:
        """Integers arrive as ints in range, unit vectors have norm 1, disc eigenvalues lie in the disc in conjugate pairs, positive vectors are positive."""
        seen.append(k)
        ok = isinstance(k, int) and -3 <= k <= 40 and abs(float(np.linalg.norm(u)) - 1.0) < 1e-15 and z.shape == (5, 2)
        ok = ok and bool(np.all(np.hypot(z[:, 0], z[:, 1]) <= 0.9 * (1 + 1e-15))) and z[1, 1] == -z[0, 1] and z[4, 1] == 0.0 and bool(np.all(p > 0))
        return ssmcheck.le(0.0 if ok else 1.0, 0.0)

    (r,) = ssmcheck.check(drawn_where_they_should_be, budget="quick")
    assert r.verdict == "holds" and r.agrees and len(set(seen)) > 20

    normals: List[float] = []

    @ssmcheck.conjecture(x=st.standard_normal(), v=st.vec_of(2, 5, st.standard_normal()), expect="holds")
    def normals_within_their_grid(x: float, v: Array) -> Relation:
        """Standard normals lie within the grid's ±5.035, alone and as vector entries."""
        normals.append(x)
        return ssmcheck.le(max(abs(x), float(np.max(np.abs(v)))), 5.04)

    (r,) = ssmcheck.check(normals_within_their_grid, budget="quick")
    assert r.verdict == "holds" and r.agrees
    # 200 draws: the fraction below 1 is Φ(1) = 0.841 within 5 SE (0.13).
    assert abs(np.mean(np.asarray(normals) < 1.0) - 0.841) < 0.13 and min(normals) < 0 < max(normals)
    with pytest.raises(ValueError, match="scalar strategy"):
        st.vec_of(1, 3, st.unit_vector(2))


@ssmcheck.conjecture(k=st.integer(0, 240), given_exact=("k ≡ 0 (mod 4)", lambda k: k % 4 == 0), expect="refuted")
def quarter_square_below_three_at_whole_times(k: int) -> Relation:
    """If k ≡ 0 (mod 4), (k/4)² ≤ 3 (false at k = 8: the hypothesis is decided exactly, the sides exact)."""
    x = k / 4
    return ssmcheck.le(ssmcheck.enclosure(x * x, x * x), ssmcheck.enclosure(3.0, 3.0))


def test_an_exact_or_enclosed_hypothesis_is_certified_and_a_float_one_is_not() -> None:
    (r,) = ssmcheck.check(quarter_square_below_three_at_whole_times, budget="quick")
    assert r.verdict == "refuted" and r.certificate is not None and r.certificate["status"] == "certified", r.certificate

    def conclusion(x: float) -> Relation:
        """If x ≥ 2, x² ≤ 3 (false)."""
        return ssmcheck.le(ssmcheck.enclosure(x * x, x * x), ssmcheck.enclosure(3.0, 3.0))

    enclosed = ssmcheck.conjecture(id="user.enclosed_hypothesis", x=st.grid(0.0, 4.0, 1 / 64), given=("x ≥ 2", lambda x: x - 2.0),
                                   certify_given=lambda x: ssmcheck.le(ssmcheck.enclosure(2.0, 2.0), ssmcheck.enclosure(x, x)))(conclusion)
    floating = ssmcheck.conjecture(id="user.float_hypothesis", x=st.grid(0.0, 4.0, 1 / 64), given=("x ≥ 2", lambda x: x - 2.0))(conclusion)
    (r,) = ssmcheck.check(enclosed, budget="quick")
    assert r.verdict == "refuted" and r.certificate is not None and r.certificate["status"] == "certified", r.certificate
    (r,) = ssmcheck.check(floating, budget="quick")
    assert r.verdict == "refuted" and r.certificate is not None and r.certificate["status"] == "not_certified"
    with pytest.raises(ValueError, match="given_exact"):
        ssmcheck.conjecture(id="user.two_hypotheses", x=st.real(0.0, 1.0), given=("a", lambda x: 1.0), given_exact=("b", lambda x: True))(conclusion)
