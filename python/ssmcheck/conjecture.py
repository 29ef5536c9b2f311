"""Conjectures written in Python, judged by the engine: each argument is drawn by one of the
suite's strategies (`ssmcheck.strategies`), the function returns a relation
(`ssmcheck.relations`), and search, shrinking, ties, statistics, certificates and the report
work as for a Rust conjecture. Only the evaluation of one instance runs in Python."""

from __future__ import annotations

import inspect
import traceback
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union, overload

import numpy as np

from .relations import Relation
from .strategies import Spec

#: What a hypothesis returns: a bool, or a signed margin (≥ 0: it holds).
Hypothesis = Callable[..., Union[bool, float]]
#: One recorded failure of a conjecture's own code: the instance by argument name, and why.
Failure = Tuple[Dict[str, Any], str]

# Cases at the quick, standard and deep budgets (the Rust `conjecture!`'s).
DEFAULT_CASES = (200, 2000, 20000)

_REGISTERED: List["Conjecture"] = []


def _as_python(value: Any) -> Any:
    """A drawn value as the conjecture sees it: floats stay floats, lists become arrays, a
    structured instance (a dict) stays a dict."""
    return np.asarray(value, dtype=float) if isinstance(value, list) else value


class Conjecture:
    """A conjecture: its id (`user.<function name>` unless given), statement (the docstring),
    source (file:line), arguments and the function. Calling it evaluates the function on
    explicit arguments; `ssmcheck.check(conjecture)` judges it."""

    def __init__(
        self,
        func: Callable[..., Any],
        arguments: Dict[str, Spec],
        id: Optional[str],
        cases: Iterable[int],
        sides: Optional[Sequence[str]],
        given: Optional[Tuple[str, Hypothesis]],
        expect: Optional[str],
        control: Optional[Tuple[str, Callable[..., Any]]] = None,
        given_exact: Optional[Tuple[str, Hypothesis]] = None,
        certify_given: Optional[Callable[..., Any]] = None,
    ) -> None:
        self.func = func
        self.id = id or f"user.{func.__name__}"
        doc = inspect.getdoc(func)
        if not doc:
            raise ValueError(f"conjecture {func.__name__}: write its statement as the docstring")
        self.statement = " ".join(doc.split())
        # From the code object: works in a REPL or a notebook cell, where the source file is gone.
        self.source = f"{func.__code__.co_filename}:{func.__code__.co_firstlineno}"
        params = list(inspect.signature(func).parameters)
        if sorted(params) != sorted(arguments):
            raise ValueError(f"conjecture {func.__name__}: strategies for {sorted(arguments)}, but the function takes {params}")
        self.arguments = [(name, arguments[name]) for name in params]
        self.cases = [int(c) for c in cases]
        if len(self.cases) != 3:
            raise ValueError("cases: three counts (quick, standard, deep)")
        self.sides: Optional[Tuple[str, ...]] = tuple(sides) if sides else None
        if given is not None and given_exact is not None:
            raise ValueError("given and given_exact: one hypothesis, either judged in floating point or decided exactly")
        if certify_given is not None and (given is None or not callable(certify_given)):
            raise ValueError("certify_given: a function of the same arguments stating the `given` hypothesis on enclosures")
        hypothesis = given if given is not None else given_exact
        self.given: Optional[str] = hypothesis[0] if hypothesis else None
        self._hypothesis: Optional[Hypothesis] = hypothesis[1] if hypothesis else None
        self.given_exact: bool = given_exact is not None
        self.certify_given: bool = certify_given is not None
        self._certifier: Optional[Callable[..., Any]] = certify_given
        if expect not in (None, "holds", "refuted"):
            raise ValueError("expect: None, 'holds' or 'refuted'")
        self.expect: Optional[str] = expect
        self.control: Optional[str] = control[0] if control else None
        self._mutant: Optional[Callable[..., Any]] = control[1] if control else None
        if control is not None and (not isinstance(control[0], str) or not callable(control[1])):
            raise ValueError("control: (what is mutated, a function of the same arguments returning the mutant's relation)")
        self.errors: List[Failure] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.func(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<conjecture {self.id}: {self.statement[:60]}>"

    # Called by the engine, one instance at a time.
    def _evaluate(self, values: List[Any]) -> Relation:
        return self._relation(self.func, values)

    def _evaluate_control(self, values: List[Any]) -> Relation:
        if self._mutant is None:
            return {"op": "error", "why": "the conjecture has no control"}
        return self._relation(self._mutant, values)

    def _relation(self, func: Callable[..., Any], values: List[Any]) -> Relation:
        try:
            relation = func(*[_as_python(v) for v in values])
        except Exception as e:  # recorded and raised again after the run
            if len(self.errors) < 3:
                self.errors.append((dict(zip([n for n, _ in self.arguments], values)), traceback.format_exc()))
            return {"op": "error", "why": f"the conjecture raised {type(e).__name__}: {e}"}
        if isinstance(relation, (list, tuple)) and relation and all(isinstance(r, dict) and "op" in r for r in relation):
            return {"op": "all", "relations": list(relation)}
        if not isinstance(relation, dict) or "op" not in relation:
            self.errors.append((dict(zip([n for n, _ in self.arguments], values)), f"returned {relation!r}, not a relation (ssmcheck.le, lt, close, …)"))
            return {"op": "error", "why": "the conjecture returned no relation"}
        out: Relation = relation
        return out

    def _certify_given(self, values: List[Any]) -> Relation:
        if self._certifier is None:
            return {"op": "error", "why": "the conjecture has no enclosed hypothesis"}
        return self._relation(self._certifier, values)

    def _given(self, values: List[Any]) -> float:
        if self._hypothesis is None:
            return 1.0
        out = self._hypothesis(*[_as_python(v) for v in values])
        return (1.0 if out else -1.0) if isinstance(out, (bool, np.bool_)) else float(out)


class ConjectureError(Exception):
    """The conjecture's own code failed on an instance (its traceback is in the message)."""


def raise_recorded(conjectures: Iterable[Conjecture]) -> None:
    """Raises the first error a conjecture's function raised during a run, with the instance."""
    for c in conjectures:
        if c.errors:
            instance, tb = c.errors[0]
            raise ConjectureError(f"{c.id} failed on the instance {instance}:\n{tb}")


@overload
def conjecture(
    _func: Callable[..., Any],
    *,
    id: Optional[str] = ...,
    cases: Iterable[int] = ...,
    sides: Optional[Sequence[str]] = ...,
    given: Optional[Tuple[str, Hypothesis]] = ...,
    expect: Optional[str] = ...,
    control: Optional[Tuple[str, Callable[..., Any]]] = ...,
    given_exact: Optional[Tuple[str, Hypothesis]] = ...,
    certify_given: Optional[Callable[..., Any]] = ...,
    **arguments: Spec,
) -> Conjecture: ...


@overload
def conjecture(
    _func: None = ...,
    *,
    id: Optional[str] = ...,
    cases: Iterable[int] = ...,
    sides: Optional[Sequence[str]] = ...,
    given: Optional[Tuple[str, Hypothesis]] = ...,
    expect: Optional[str] = ...,
    control: Optional[Tuple[str, Callable[..., Any]]] = ...,
    given_exact: Optional[Tuple[str, Hypothesis]] = ...,
    certify_given: Optional[Callable[..., Any]] = ...,
    **arguments: Spec,
) -> Callable[[Callable[..., Any]], Conjecture]: ...


def conjecture(
    _func: Optional[Callable[..., Any]] = None,
    *,
    id: Optional[str] = None,
    cases: Iterable[int] = DEFAULT_CASES,
    sides: Optional[Sequence[str]] = None,
    given: Optional[Tuple[str, Hypothesis]] = None,
    expect: Optional[str] = None,
    control: Optional[Tuple[str, Callable[..., Any]]] = None,
    given_exact: Optional[Tuple[str, Hypothesis]] = None,
    certify_given: Optional[Callable[..., Any]] = None,
    **arguments: Spec,
) -> Union[Conjecture, Callable[[Callable[..., Any]], Conjecture]]:
    """Declares a conjecture: keyword arguments name a strategy per parameter of the function,
    which returns a relation (or a list of relations that must all hold: the engine judges the
    one with the smallest margin); its docstring is the statement.

        @ssmcheck.conjecture(a=strategies.real(-4, -0.25), t=strategies.real(0, 10))
        def decay_is_monotone(a, t):
            '''e^{a(t+1)} ≤ e^{at} for a < 0.'''
            return ssmcheck.le(math.exp(a * (t + 1)), math.exp(a * t))

    Options: `id` (default `user.<name>`), `cases` (quick, standard, deep), `sides` ((what the
    left side is, what the right side is)), `given` ((description, function of the same
    arguments returning a bool or a margin): the hypothesis, which the search respects), `expect`
    ('holds' or 'refuted': the verdict you expect, for a test), `control` ((what is mutated, a
    function of the same arguments returning the mutant's relation): a negative control, run
    with the same strategies and options; when the conjecture holds, its control must be refuted
    at the same sample size, or the result disagrees), `given_exact` (as `given`, for a
    hypothesis decided exactly — integers, comparisons of exact values — so a refutation's
    certificate covers it), `certify_given` (a function of the same arguments returning the
    `given` hypothesis as a relation on enclosures, `ssmcheck.Interval` sides: a refutation is
    certified only when the hypothesis holds for every value in them)."""

    def wrap(func: Callable[..., Any]) -> Conjecture:
        c = Conjecture(func, arguments, id, cases, sides, given, expect, control, given_exact, certify_given)
        _REGISTERED.append(c)
        return c

    return wrap(_func) if _func is not None else wrap


def registered() -> List[Conjecture]:
    """Every conjecture declared so far in this process."""
    return list(_REGISTERED)
