"""The pytest plugin (entry point `pytest11`): `pytest --ssmcheck` collects the shipped claims
as tests, one per claim (select with `-k 004.thm4`, `-k decay`), and every conjecture declared
with `@ssmcheck.conjecture` in a test module runs as a test. A test fails when the verdict
contradicts the claim's status (or the conjecture's `expect`, or, without one, is not `holds`);
the failure message is the verdict, the counterexample and both sides of the violated relation.

Options: --ssmcheck-budget (quick), --ssmcheck-seed (1), --ssmcheck-backend (auto), and
--ssmcheck-json PATH: the results JSON of every claim and conjecture that ran (the layout of
`ssmcheck check --json`, for `ssmcheck report --from PATH`), written when the session ends.
The terminal summary ends with each claim's and conjecture's time, slowest first."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional, Tuple, Union

import pytest

from . import _ssmcheck, check, claims
from .conjecture import Conjecture, registered
from .results import ClaimResult, Json, Results


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ssmcheck")
    group.addoption("--ssmcheck", action="store_true", help="collect the shipped ssmcheck claims as tests")
    group.addoption("--ssmcheck-budget", default="quick", choices=["quick", "standard", "deep"], help="budget of every claim and conjecture")
    group.addoption("--ssmcheck-seed", default=1, type=int, help="seed of every random stream")
    group.addoption("--ssmcheck-backend", default="auto", choices=["auto", "cpu", "cuda", "shim"], help="Monte Carlo backend")
    group.addoption("--ssmcheck-json", default=None, metavar="PATH", help="write the results JSON of the claims and conjectures that ran to PATH")


def _settings(config: pytest.Config) -> Dict[str, Any]:
    return {"budget": config.getoption("ssmcheck_budget"), "seed": config.getoption("ssmcheck_seed"), "backend": config.getoption("ssmcheck_backend")}


class ClaimFailed(Exception):
    """A verdict against the claim's status."""


class _Judged(pytest.Item):
    """An item whose failure is a verdict: its message is the result's explanation."""

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ClaimFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)


class ClaimItem(_Judged):
    """One shipped claim. The first item to run checks every collected claim in one run (claims
    run concurrently, as in `ssmcheck check`), and each item reads its own result."""

    def __init__(self, *, claim: Json, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claim = claim
        self.add_marker(pytest.mark.ssmcheck)
        self.keywords[claim["family"]] = True

    def runtest(self) -> None:
        cache = self.session.config.stash.setdefault(_RESULTS, {})
        if self.claim["id"] not in cache:
            ids = [i.claim["id"] for i in self.session.items if isinstance(i, ClaimItem) and i.claim["id"] not in cache]
            results = check(ids, **_settings(self.config))
            _record(self.config, results)
            for r in results:
                cache[r.id] = r
        result = cache[self.claim["id"]]
        if not result.agrees:
            raise ClaimFailed(result.explain_failure())

    def reportinfo(self) -> Tuple[str, Optional[int], str]:
        return "ssmcheck", None, f"{self.claim['id']} [{self.claim['status']}] {self.claim['source']['locus']}"


class ConjectureItem(_Judged):
    """A conjecture declared in a test module."""

    def __init__(self, *, conjecture: Conjecture, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.conjecture = conjecture

    def runtest(self) -> None:
        results = check(self.conjecture, **_settings(self.config))
        _record(self.config, results)
        (result,) = results
        expected = self.conjecture.expect or "holds"
        if not result.agrees or result.verdict != expected:
            raise ClaimFailed(f"expected {expected}\n" + result.explain_failure())

    def reportinfo(self) -> Tuple[Any, Optional[int], str]:
        return self.path, None, f"conjecture {self.conjecture.id}"


_RESULTS = pytest.StashKey[Dict[str, ClaimResult]]()
#: Every run's results, in the order they ran (for --ssmcheck-json).
_RUNS = pytest.StashKey[List[Results]]()


def _record(config: pytest.Config, results: Results) -> None:
    config.stash.setdefault(_RUNS, []).append(results)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """The time of every claim and conjecture that ran (its check and control, as measured by
    the engine: the claims collected by --ssmcheck run in one batch, so pytest's own durations
    charge the whole batch to its first item), slowest first, with the total."""
    timed = [(c.seconds, c.id) for run in config.stash.get(_RUNS, []) for c in run if c.seconds is not None]
    if not timed:
        return
    timed.sort(key=lambda t: (-t[0], t[1]))
    terminalreporter.write_sep("=", f"ssmcheck: {len(timed)} claims in {sum(s for s, _ in timed):.2f} s")
    for seconds, claim in timed[:_SLOWEST]:
        terminalreporter.write_line(f"{seconds:9.3f} s  {claim}")
    if len(timed) > _SLOWEST:
        terminalreporter.write_line(f"({len(timed) - _SLOWEST} faster claims not shown)")


#: How many claims the terminal summary's time list shows.
_SLOWEST = 10


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Writes --ssmcheck-json: one results document with every claim that ran, in run order
    (atomically: a temporary file beside it, then a rename)."""
    path = session.config.getoption("ssmcheck_json")
    if path is None:
        return
    runs = session.config.stash.get(_RUNS, [])
    doc: Json = dict(runs[0].raw) if runs else {"tool": "ssmcheck", "version": _ssmcheck.__version__, "claims": []}
    doc["claims"] = [c for run in runs for c in run.raw["claims"]]
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2)
        os.replace(tmp, path)
    finally:
        # Nothing half-written is left behind when the write fails.
        if os.path.exists(tmp):
            os.remove(tmp)


def pytest_pycollect_makeitem(collector: Union[pytest.Module, pytest.Class], name: str, obj: object) -> Optional[pytest.Item]:
    if isinstance(obj, Conjecture):
        return ConjectureItem.from_parent(collector, name=name, conjecture=obj)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: List[pytest.Item]) -> None:
    # Before -k and -m deselect: the claims are items like any other.
    if config.getoption("ssmcheck"):
        own = {c.id for c in registered()}
        items.extend(ClaimItem.from_parent(session, name=c["id"], claim=c) for c in claims() if c["id"] not in own)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "ssmcheck: a shipped ssmcheck claim")


def pytest_report_header(config: pytest.Config) -> Optional[str]:
    if config.getoption("ssmcheck"):
        s = _settings(config)
        return f"ssmcheck {_ssmcheck.__version__}: shipped claims at budget {s['budget']}, seed {s['seed']}, backend {s['backend']}"
    return None
