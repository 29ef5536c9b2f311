"""Results of a run as Python objects: the results JSON that `ssmcheck check --json` writes,
read into `Results` (the run) and `ClaimResult` (one claim), with counterexamples' numeric lists
as numpy arrays and the violated relation with both sides."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
import os
from typing import Any, Dict, Iterator, List, Optional, Union

import numpy as np

#: A JSON object as read.
Json = Dict[str, Any]


def _arrays(value: Any) -> Any:
    """Numeric lists (vectors, matrices) as numpy arrays, recursively; everything else as is."""
    if isinstance(value, dict):
        return {k: _arrays(v) for k, v in value.items()}
    if isinstance(value, list):
        if value and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return np.asarray(value, dtype=float)
        if value and all(isinstance(v, list) for v in value):
            rows = [_arrays(v) for v in value]
            if all(isinstance(r, np.ndarray) and r.shape == rows[0].shape for r in rows):
                return np.stack(rows)
            return rows
        return [_arrays(v) for v in value]
    return value


def _named(counterexample: Any) -> Any:
    """A conjecture's counterexample by argument name (`instance`), else the record as is."""
    if isinstance(counterexample, dict) and set(counterexample) == {"drawn", "instance"}:
        return counterexample["instance"]
    return counterexample


@dataclass(frozen=True)
class Violation:
    """The relation a counterexample violates (or, for the closest instance, nearly does)."""

    relation: str
    """What must hold between the sides (`at_most`, `below`, `within`, …)."""
    lhs: float
    lhs_is: str
    rhs: float
    rhs_is: str
    margin: float
    """Signed margin: negative when violated."""
    margin_formula: str
    enclosure: Optional[Json] = None
    """The sides' enclosures, the exact gap and the tolerance (when nonzero), when the relation was
    judged on intervals: it holds when gap + tolerance ≥ 0."""

    @classmethod
    def from_json(cls, d: Optional[Json]) -> Optional["Violation"]:
        if not d:
            return None
        return cls(d["relation"], d["lhs"], d["lhs_is"], d["rhs"], d["rhs_is"], d["margin"], d["margin_formula"], d.get("enclosure"))

    def __str__(self) -> str:
        return f"{self.lhs_is} = {self.lhs!r} vs {self.rhs_is} = {self.rhs!r} ({self.relation}; margin {self.margin:.6g})"


@dataclass(frozen=True)
class ClaimResult:
    """One claim's result: its verdict, whether it agrees with the claim's status, the
    counterexample (numeric lists as numpy arrays), the violated relation and its certificate."""

    id: str
    family: str
    status: str
    kind: str
    verdict: str
    """holds, refuted, tie, inconclusive (or an experiment's)."""
    agrees: bool
    """Whether the verdict is the one the claim's status expects."""
    summary: str
    statement: str
    cases: int
    margin: Optional[float]
    counterexample: Optional[Json]
    violation: Optional[Violation]
    certificate: Optional[Json]
    correction: Optional[str]
    disagreement: Optional[str]
    seconds: Optional[float]
    """Wall-clock seconds of the check and its control (a measurement, not a result)."""
    raw: Json = field(repr=False)
    """The claim's whole JSON record (source, error, control, details, figures, sizes)."""

    @classmethod
    def from_json(cls, d: Json) -> "ClaimResult":
        return cls(
            id=d["id"],
            family=d["family"],
            status=d["status"],
            kind=d["kind"],
            verdict=d["verdict"],
            agrees=d["agrees"],
            summary=d.get("summary", ""),
            statement=d.get("statement", ""),
            cases=d.get("cases", 0),
            margin=d.get("margin"),
            counterexample=_arrays(_named(d.get("counterexample"))),
            violation=Violation.from_json(d.get("violation")),
            certificate=d.get("certificate"),
            correction=d.get("correction"),
            disagreement=d.get("disagreement"),
            seconds=d.get("seconds"),
            raw=d,
        )

    def untimed(self) -> Json:
        """The claim's JSON record without its time: what two runs at the same seed and budget
        agree on, whatever the thread count, backend or shard split."""
        return {k: v for k, v in self.raw.items() if k != "seconds"}

    def explain_failure(self) -> str:
        """What went against the claim's status, in a few lines: the verdict, the counterexample
        and both sides of the violated relation."""
        lines = [f"{self.id} [{self.status}]: {self.verdict} — {self.summary}"]
        if self.disagreement:
            lines.append(f"  {self.disagreement}")
        if self.counterexample is not None:
            lines.append(f"  counterexample: {self.counterexample}")
        if self.violation is not None:
            v = self.violation
            lines.append(f"  {v.lhs_is} = {v.lhs!r}")
            lines.append(f"  {v.rhs_is} = {v.rhs!r}")
            lines.append(f"  relation {v.relation}, margin {v.margin:.6g} [{v.margin_formula}]")
        if self.certificate is not None:
            lines.append(f"  certificate: {self.certificate}")
        return "\n".join(lines)


#: The layout of the results JSON this package reads (`schema/results.schema.json`): a file of a
#: newer major version is refused; a newer minor one only adds fields.
SCHEMA_VERSION = "1.1"


def _check_schema(version: str) -> None:
    """Raises `ValueError` with one line when `version` is of a newer major version than ours."""
    try:
        major, minor = (int(p) for p in version.split("."))
    except ValueError:
        raise ValueError(f"its schema version {version!r} is not MAJOR.MINOR") from None
    ours = int(SCHEMA_VERSION.split(".")[0])
    if major > ours:
        raise ValueError(f"its schema version is {version}, newer than the {SCHEMA_VERSION} this ssmcheck reads: upgrade ssmcheck")


@dataclass(frozen=True)
class Results:
    """A run: its seed, budget, backend and the results of its claims, in registry order."""

    seed: int
    budget: str
    backend: Any
    claims: List[ClaimResult]
    raw: Json = field(repr=False)

    @classmethod
    def from_json(cls, d: Json) -> "Results":
        if d.get("tool") != "ssmcheck" or "claims" not in d:
            raise ValueError("not an ssmcheck results JSON (no 'tool': 'ssmcheck' and 'claims')")
        # A file from before the version field is of the first layout.
        _check_schema(str(d.get("schema_version", "1.0")))
        return cls(d["seed"], d["budget"], d["backend"], [ClaimResult.from_json(c) for c in d["claims"]], d)

    def __getitem__(self, key: Union[int, str]) -> ClaimResult:
        """A claim's result by id (`results["004.thm4"]`) or by position (`results[0]`)."""
        if isinstance(key, int):
            return self.claims[key]
        for c in self.claims:
            if c.id == key:
                return c
        raise KeyError(key)

    def __iter__(self) -> Iterator[ClaimResult]:
        return iter(self.claims)

    def __len__(self) -> int:
        return len(self.claims)

    def disagreements(self) -> List[ClaimResult]:
        """The claims whose verdict contradicts their status."""
        return [c for c in self.claims if not c.agrees]

    def untimed(self) -> Json:
        """The run's JSON without the claims' times ([`ClaimResult.untimed`])."""
        return {**self.raw, "claims": [c.untimed() for c in self.claims]}

    def seconds(self) -> float:
        """The sum of the claims' times, seconds."""
        return sum(c.seconds or 0.0 for c in self.claims)

    def to_json(self) -> str:
        return json.dumps(self.raw)


def load(path: Union[str, "os.PathLike[str]"]) -> Results:
    """Reads a results JSON (`ssmcheck check --json`, a report's `results.json`)."""
    with open(Path(path), encoding="utf-8") as f:
        try:
            d = json.load(f)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: not JSON ({e})") from None
    try:
        return Results.from_json(d)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
