"""The pytest plugin: shipped claims as tests (`--ssmcheck`, `-k`), conjectures in test files."""

import pytest


def test_shipped_claims_are_tests_selectable_with_k(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--ssmcheck", "-k", "004.cor1.printed or 004.eq10.selective", "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*004.cor1.printed PASSED*"])


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
