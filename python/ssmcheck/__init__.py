"""ssmcheck from Python: the suite's claims about Mamba and state-space models, checked by the
same Rust engine as `cargo test` and the `ssmcheck` command, your own conjectures judged by it,
and the verified models as numpy functions.

    import ssmcheck
    results = ssmcheck.check(family="decay", budget="quick")
    for c in results.disagreements():
        print(c.explain_failure())

A run on a terminal shows a progress bar (silent otherwise); Ctrl-C stops it cleanly: no new
claim starts, the claims in flight finish, nothing is written, and `KeyboardInterrupt` is raised.
"""

from __future__ import annotations

import json
import numbers
import sys
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import _ssmcheck, exact, models, relations, rounding, strategies
from .conjecture import Conjecture, ConjectureError, conjecture, raise_recorded, registered
from .relations import close, enclosure, ge_by, gt, le, le_by, lt, positive, reject
from .results import ClaimResult, Json, Results, Violation, load

#: What selects claims: an id, a conjecture, or a list of them (None: every shipped claim).
Selection = Union[None, str, Conjecture, Sequence[Union[str, Conjecture]]]
#: A file path.
PathLike = Union[str, "os.PathLike[str]"]

__version__ = _ssmcheck.__version__

#: An enclosure [lo, hi] of an exact real, with arithmetic (`+ − × ÷ **`, `sqrt`, `exp`, `ln`,
#: `exp_m1`, `ln_1p`, `erfc`, `sin`, `cos`, `atan2`) that keeps the exact result inside (the
#: crate's `kit::Interval`: each end at most one ulp outside); a side of a relation.
Interval = _ssmcheck.Interval
#: ‖A‖₂ of a matrix given by its rows, enclosed (`kit::spectral_norm`): an `Interval`.
spectral_norm = _ssmcheck.spectral_norm
#: The solution of A x = b (rows of A, b; entries exact) enclosed by interval Gaussian elimination
#: (`kit::solve_enclosed`): a list of `Interval`s; ValueError when A may be singular.
solve_enclosed = _ssmcheck.solve_enclosed
#: e^A of a complex matrix (real parts' rows, imaginary parts' rows) enclosed (`kit::expm_complex`):
#: (real parts, imaginary parts) as rows of `Interval`s.
expm_complex = _ssmcheck.expm_complex

#: A complex rectangle re + i·im with enclosed parts (`+ − × ÷ **`, `exp`, `abs`, `arg`, `conj`,
#: `polar`): the exact complex result stays inside (the crate's `kit::ComplexInterval`).
ComplexInterval = _ssmcheck.ComplexInterval

#: A⁻¹ (rows; entries exact) enclosed by interval Gaussian elimination (`kit::inverse`): rows of
#: `Interval`s; ValueError when A may be singular.
inverse_enclosed = _ssmcheck.inverse_enclosed

#: (Ā, B̄) of a dense (A, B) at step Δ: `discretize(A, B, delta, rule)` with rule "zoh", "euler"
#: or "bilinear" (S4's Tustin rule, `kit::bilinear`), in floating point; Ā as rows.
discretize = _ssmcheck.discretize

__all__ = [
    "ClaimResult", "Conjecture", "ConjectureError", "Interval", "Results", "Violation", "check", "claims", "close", "conjecture",
    "enclosure", "explain", "ge_by", "gt", "le", "le_by", "load", "lt", "models", "positive", "registered", "reject",
    "relations", "replay", "report", "rounding", "solve_enclosed", "spectral_norm", "strategies", "expm_complex",
    "ComplexInterval", "discretize", "exact", "inverse_enclosed",
]


def _split(selection: Selection) -> Tuple[List[str], List[Conjecture]]:
    """Claim ids and conjectures from `selection` (an id, a conjecture, or a list of them)."""
    if selection is None:
        return [], []
    if isinstance(selection, (str, Conjecture)):
        selection = [selection]
    ids: List[str] = []
    conjectures: List[Conjecture] = []
    for s in selection:
        if isinstance(s, Conjecture):
            conjectures.append(s)
            ids.append(s.id)
        elif isinstance(s, str):
            ids.append(s)
        else:
            raise TypeError(f"select claims by id or conjecture, not {type(s).__name__}")
    return ids, conjectures


def _with_registered(conjectures: List[Conjecture]) -> List[Conjecture]:
    """The conjectures passed, plus every registered one (so their ids resolve)."""
    out = list(conjectures)
    for c in registered():
        if all(c is not o for o in out) and all(c.id != o.id for o in out):
            out.append(c)
    return out


def claims(selection: Selection = None, family: Optional[str] = None) -> List[Json]:
    """The claims' metadata (id, family, status, kind, source, statement, correction, error,
    control) as dicts: the shipped claims and every conjecture declared in this process."""
    ids, conjectures = _split(selection)
    out: List[Json] = json.loads(_ssmcheck.claims(ids, family, _with_registered(conjectures)))
    return out


def explain(id: str) -> Json:
    """One claim's statement, source (paper, section, the printed words), correction, error and
    negative control."""
    (meta,) = claims(id)
    return meta


def _seed(seed: object) -> int:
    """The run seed as the engine takes it (an integer in [0, 2⁶⁴)), or the one ValueError the
    engine gives for a bad one (the bindings would raise OverflowError or TypeError)."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= int(seed) < 2**64:
        raise ValueError(f"invalid parameter: seed={seed!r} is not an integer in [0, 2^64)")
    return int(seed)


def check(selection: Selection = None, *, family: Optional[str] = None, budget: str = "quick", seed: int = 1, backend: str = "auto",
          json_path: Optional[PathLike] = None, shard: Optional[str] = None, progress: Optional[bool] = None) -> Results:
    """Checks claims and returns their results. `selection`: claim ids, `Conjecture` objects, or a
    mix (all shipped claims when None and no family). `budget`: quick, standard or deep;
    `backend`: auto, cpu, cuda or shim; `json_path`: also write the results JSON there.
    `shard="I/N"`: run only shard I of N and write its part to `json_path` (merge the parts with
    `ssmcheck merge`); the results returned are then the claims the shard ran whole.
    Raises `ConjectureError` when a conjecture's own code failed on an instance."""
    ids, conjectures = _split(selection)
    show = sys.stderr.isatty() if progress is None else progress
    text = _ssmcheck.check(ids, family, budget, _seed(seed), backend, show, None if json_path is None else str(json_path), shard,
                           _with_registered(conjectures))
    raise_recorded(conjectures)
    return Results.from_json(json.loads(text))


def report(out: PathLike = "reports", *, budget: str = "standard", seed: int = 1, backend: str = "auto", from_files: Iterable[PathLike] = (),
           conjectures: Iterable[Conjecture] = (), progress: Optional[bool] = None) -> Results:
    """Runs every shipped claim (and `conjectures`) or reads `from_files` (results JSON to merge),
    and writes the evidence report (index.html, SVG figures, results.json) into `out`."""
    show = sys.stderr.isatty() if progress is None else progress
    mine = list(conjectures)
    text = _ssmcheck.report(str(out), budget, _seed(seed), backend, show, [str(f) for f in from_files], mine)
    raise_recorded(mine)
    return Results.from_json(json.loads(text))


def replay(id: str, instance: Union[Json, Results, str], control: bool = False) -> Dict[str, Any]:
    """Re-evaluates one instance through a claim's check (or its negative control): a
    counterexample from results (`Results`, a results JSON's path, or its dict) or an instance
    of your own (a dict of named fields). Returns {'violation': Violation, 'holds': bool,
    'certificate': …} or {'rejected': why}."""
    if isinstance(instance, Results):
        doc = instance.raw
    elif isinstance(instance, str):
        with open(instance, encoding="utf-8") as f:
            doc = json.load(f)
    else:
        doc = instance
    out: Dict[str, Any] = json.loads(_ssmcheck.replay(id, json.dumps(doc, default=_jsonable), bool(control), registered()))
    if "violation" in out:
        out["violation"] = Violation.from_json(out["violation"])
    return out


def _jsonable(x: Any) -> Any:
    """numpy values in an instance, as JSON."""
    if hasattr(x, "tolist"):
        return x.tolist()
    raise TypeError(f"{type(x).__name__} is not JSON")
