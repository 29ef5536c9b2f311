"""The pytest plugin: shipped claims as tests (`--ssmcheck`, `-k`), conjectures in test files."""

import json

import pytest

import ssmcheck


def test_shipped_claims_are_tests_selectable_with_k(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--ssmcheck", "-k", "004.cor1.printed or 004.eq10.selective", "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*004.cor1.printed PASSED*", "*= ssmcheck: 2 claims in * s =*", "* s  004.cor1.printed"])


def test_the_results_of_a_session_are_written_as_one_json(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_one="""
import ssmcheck
from ssmcheck import strategies as st

@ssmcheck.conjecture(x=st.real(0.0, 1.0), expect="holds")
def x_at_most_one(x):
    '''x ≤ 1 on [0, 1].'''
    return ssmcheck.le(x, 1.0)
"""
    )
    out = pytester.path / "session.json"
    result = pytester.runpytest("--ssmcheck", "-k", "004.cor1.printed or x_at_most_one", f"--ssmcheck-json={out}")
    result.assert_outcomes(passed=2)
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert sorted(c["id"] for c in doc["claims"]) == ["004.cor1.printed", "user.x_at_most_one"]
    assert doc["tool"] == "ssmcheck" and doc["budget"] == "quick" and "schema_version" in doc
    assert ssmcheck.load(out)["004.cor1.printed"].verdict == "refuted"
    assert all(c["seconds"] >= 0 for c in doc["claims"]), "every claim has its time"


def test_without_the_flag_no_claim_is_collected(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_nothing="def test_x():\n    pass\n")
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=1)


def test_conjectures_in_a_test_file_run_and_a_false_one_reports_both_sides(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_mine='''
import ssmcheck
from ssmcheck import strategies as st

@ssmcheck.conjecture(x=st.grid(0.0, 4.0, 1 / 64))
def square_at_most_four_x(x):
    """x² ≤ 4x on [0, 4]."""
    return ssmcheck.le(x * x, 4 * x)

@ssmcheck.conjecture(x=st.grid(0.0, 4.0, 1 / 64), sides=("x²", "2x"))
def square_at_most_double(x):
    """x² ≤ 2x on [0, 4]."""
    return ssmcheck.le(x * x, 2 * x)
'''
    )
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*square_at_most_four_x PASSED*", "*square_at_most_double FAILED*", "*refuted*", "*x² = *", "*2x = *"])
