"""The engine from Python: list, explain, check, replay, load, report."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

import ssmcheck


def test_claims_lists_the_shipped_claims_with_their_sources() -> None:
    metas = ssmcheck.claims()
    ids = {m["id"] for m in metas}
    assert "004.thm4" in ids and "004.cor1.printed" in ids
    assert len(metas) >= 150
    decay = ssmcheck.claims(family="decay")
    assert decay and all(m["family"] == "decay" for m in decay)


def test_explain_gives_statement_source_and_error() -> None:
    m = ssmcheck.explain("004.cor1.printed")
    assert m["status"] == "erratum"
    assert "Corollary 1" in m["source"]["locus"]
    assert m["error"]["kind"] == "false_statement"
    assert m["control"] is None or isinstance(m["control"], str)


def test_an_unknown_claim_is_one_clear_error() -> None:
    with pytest.raises(ValueError, match="no-such-claim"):
        ssmcheck.check("no-such-claim")
    with pytest.raises(ValueError):
        ssmcheck.check("004.thm4", budget="huge")


def test_an_erratum_is_refuted_with_a_counterexample_and_both_sides(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    results = ssmcheck.check("004.cor1.printed", budget="quick", seed=1, json_path=path)
    (r,) = results
    assert r.verdict == "refuted" and r.agrees
    assert r.counterexample is not None and r.violation is not None and r.certificate is not None
    assert isinstance(r.counterexample["a"], np.ndarray) and r.counterexample["a"].ndim == 2
    v = r.violation
    assert v.margin < 0 and v.lhs > v.rhs  # at_most violated: both sides recorded
    assert r.certificate["status"] in ("certified", "not_certified", "statistical")
    assert results[0] is r and results["004.cor1.printed"] is r
    with pytest.raises(KeyError):
        results["004.thm4"]
    # The JSON written is the one returned, and the same as the command line's format.
    assert ssmcheck.load(path).raw == results.raw


def test_the_same_seed_gives_the_same_results() -> None:
    a = ssmcheck.check(["004.cor1.printed", "004.eq10"], budget="quick", seed=3)
    b = ssmcheck.check(["004.cor1.printed", "004.eq10"], budget="quick", seed=3)
    assert a.untimed() == b.untimed()
    assert all(c.seconds is not None and c.seconds >= 0 for c in a) and a.seconds() >= 0


def test_replay_reevaluates_a_counterexample() -> None:
    results = ssmcheck.check("004.cor1.printed", budget="quick", seed=1)
    out = ssmcheck.replay("004.cor1.printed", results)
    assert out["holds"] is False
    recorded = results["004.cor1.printed"].violation
    assert recorded is not None
    assert out["violation"].margin == pytest.approx(recorded.margin, rel=0, abs=0)
    assert out["certificate"] is not None


def test_load_rejects_what_is_not_results(tmp_path: Path) -> None:
    p = tmp_path / "x.json"
    p.write_text(json.dumps({"a": 1}))
    with pytest.raises(ValueError, match="not an ssmcheck results JSON"):
        ssmcheck.load(p)


def test_results_validate_against_the_schema_and_a_newer_major_is_refused(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema_path = Path(__file__).resolve().parents[2] / "schema" / "results.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    results = ssmcheck.check(["004.cor1.printed", "004.cor1.normal", "004.thm4"], budget="quick", seed=1)
    assert results.raw["schema_version"] == ssmcheck.results.SCHEMA_VERSION
    jsonschema.Draft202012Validator(schema).validate(results.raw)
    foreign = json.loads(json.dumps(results.raw))
    foreign["claims"][0]["verdict"] = "maybe"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(foreign)
    newer = dict(results.raw, schema_version="2.0")
    p = tmp_path / "newer.json"
    p.write_text(json.dumps(newer))
    with pytest.raises(ValueError, match="newer than the 1.1 this ssmcheck reads"):
        ssmcheck.load(p)
    p.write_text(json.dumps(dict(results.raw, schema_version="1.9")))
    assert len(ssmcheck.load(p)) == 3


def test_report_from_results_writes_html(tmp_path: Path) -> None:
    src = tmp_path / "r.json"
    ssmcheck.check("004.eq10", budget="quick", json_path=src)
    out = tmp_path / "report"
    results = ssmcheck.report(out, from_files=[src])
    assert (out / "index.html").exists() and len(results) == 1


def test_ctrl_c_stops_a_run_cleanly(tmp_path: Path) -> None:
    # A run of many claims, interrupted: KeyboardInterrupt comes back once the claims in flight
    # finish, and no results file is left behind. The quick budget: the family runs for about ten
    # seconds on 2 cores, so it is still running at the signal, and each claim takes seconds (at
    # the standard budget one takes 20 s, and a loaded machine once needed 61 s to finish the two
    # in flight).
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "r.json"
    # The child restores Python's own SIGINT handler: a test runner started in the background by a
    # non-interactive shell ignores SIGINT, its children inherit that, and Python then never raises
    # KeyboardInterrupt (what a CI run on 2026-11-27 hit: the run completed, exit status 0).
    code = f"import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\nimport ssmcheck\nprint('ready', flush=True)\ntry:\n    ssmcheck.check(family='stability', budget='quick', json_path={str(out)!r})\nexcept KeyboardInterrupt:\n    print('interrupted')\n"
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Interrupt the run, not the import (which can take seconds on a loaded machine).
    assert p.stdout is not None
    assert p.stdout.readline().strip() == "ready"
    time.sleep(3.0)
    start = time.monotonic()
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=120)
    # On a failure, say how the process ended.
    assert "interrupted" in stdout, f"exit status {p.returncode} after {time.monotonic() - start:.1f} s; stderr: {stderr[-2000:]!r}"
    assert not out.exists()
    assert time.monotonic() - start < 60


def test_the_shards_of_a_selection_split_its_claims(tmp_path: Path) -> None:
    ids = ["004.cor1.printed", "004.eq10"]
    parts = [ssmcheck.check(ids, budget="quick", shard=f"{i}/2", json_path=tmp_path / f"part-{i}.json") for i in range(2)]
    for i in range(2):
        doc = json.loads((tmp_path / f"part-{i}.json").read_text())
        assert doc["shard"]["shard"] == {"index": i, "count": 2} and doc["shard"]["selection"] == ids
    # Each claim ran whole in exactly one shard, with the verdict of the unsharded run.
    assert sorted(c.id for p in parts for c in p) == sorted(ids)
    whole = ssmcheck.check(ids, budget="quick")
    for p in parts:
        for c in p:
            assert c.untimed() == whole[c.id].untimed()
    with pytest.raises(ValueError, match="json_path"):
        ssmcheck.check("004.eq10", shard="0/2")
    with pytest.raises(ValueError, match="I/N"):
        ssmcheck.check("004.eq10", shard="3/2", json_path=tmp_path / "x.json")


def test_a_bad_seed_is_one_value_error() -> None:
    # The bindings take an unsigned 64-bit seed; a negative, too large or non-integer one is the
    # engine's ValueError, not pyo3's OverflowError or TypeError.
    for bad in (-1, 2**64, 1.5, "7", True):
        with pytest.raises(ValueError, match="seed"):
            ssmcheck.check("004.cor1.printed", seed=bad)  # type: ignore[arg-type]  # wrong on purpose
    with pytest.raises(ValueError, match="seed"):
        ssmcheck.models.mqar_instance(4, 4, 16, seed=-3)
