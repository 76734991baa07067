"""Evidence records and the rule that turns them into a verdict.

A check produces an :class:`Evidence`: statistical tests (each with a p-value that
enters the run-wide Holm correction), deterministic checks (symbolic, exact or
counterexample searches), an optional figure, and free-form details.  After the
whole run has been simulated, :func:`finalize` adjusts every p-value of the run with
Holm's procedure and applies :func:`decide` to each claim.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from .claim import Verdict
from .stats import holm, trials_to_decide


@dataclass
class StatTest:
    """One Monte Carlo comparison of an estimate with a predicted value.

    ``target`` says what the prediction is: ``'stated'`` (the source's formula: a
    rejection refutes the claim) or ``'derived'`` (our own derivation: a rejection
    means our derivation or simulation is wrong, and the claim stays inconclusive).
    """

    label: str
    params: dict
    predicted: float
    estimate: float
    stderr: float
    trials: int
    tol: float
    pvalue: float
    target: str = "stated"
    seed: int | None = None
    df: float | None = None
    ci_level: float = 0.95
    ci: tuple[float, float] = (math.nan, math.nan)
    p_adjusted: float = math.nan
    status: str = "pending"
    trials_needed: int | None = None
    extra: dict = field(default_factory=dict)
    #: "two": the claim is E = predicted; "upper": the claim is E <= predicted (a bound,
    #: e.g. a failure probability); then only the upper end of the CI must be within tol.
    sided: str = "two"

    @property
    def equivalent(self) -> bool:
        """True when the confidence interval lies within the tolerance (only its upper end for a bound)."""
        lo, hi = self.ci
        if self.sided == "upper":
            return hi <= self.predicted + self.tol
        return (lo >= self.predicted - self.tol) and (hi <= self.predicted + self.tol)

    @property
    def distance(self) -> float:
        """How far the estimate is from agreeing with the prediction (0 below a bound)."""
        if self.sided == "upper":
            return max(0.0, self.estimate - self.predicted)
        return abs(self.estimate - self.predicted)


@dataclass
class Check:
    """A deterministic check (symbolic identity, exact evaluation, counterexample search).

    ``passed`` is True, False, or None (could not be decided).  A failed check with
    ``refutes=True`` refutes the claim; with ``refutes=False`` (a check of our own
    derivation) it makes the claim inconclusive.
    """

    name: str
    passed: bool | None
    detail: str = ""
    refutes: bool = True
    counterexample: dict | None = None
    extra: dict = field(default_factory=dict)


@dataclass
class Evidence:
    tests: list[StatTest] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    figures: list[dict] = field(default_factory=list)
    details: dict = field(default_factory=dict)
    seeds: list[int] = field(default_factory=list)

    def extend(self, other: "Evidence") -> "Evidence":
        self.tests += other.tests
        self.checks += other.checks
        self.figures += other.figures
        self.details.update(other.details)
        self.seeds += other.seeds
        return self

    def to_json(self) -> dict:
        return _jsonable(asdict(self))


def _jsonable(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, float):
        return x if math.isfinite(x) else str(x)
    if hasattr(x, "item") and callable(x.item):  # numpy / torch scalars
        return _jsonable(x.item())
    if isinstance(x, (int, str, bool)) or x is None:
        return x
    return str(x)


def finalize(evidences: list[Evidence], alpha: float) -> None:
    """Holm-adjust every p-value of the run and set each test's status in place."""
    tests = [t for ev in evidences for t in ev.tests]
    adj = holm([t.pvalue for t in tests]) if tests else []
    for t, pa in zip(tests, adj):
        t.p_adjusted = pa
        if pa < alpha:
            t.status = "rejected"
        elif t.equivalent:
            t.status = "equivalent"
        else:
            t.status = "undecided"
            lo, hi = t.ci
            t.trials_needed = trials_to_decide(t.trials, (hi - lo) / 2, t.distance, t.tol)


def decide(ev: Evidence) -> tuple[Verdict, str]:
    """The verdict rule, the same for every kind of claim.

    refuted       a deterministic check that refutes failed, or a Monte Carlo test
                  against the stated form is rejected at the run's family-wise level;
    confirmed     every check passed and every Monte Carlo test is equivalent (its CI
                  lies within the practical tolerance of the prediction);
    inconclusive  otherwise (too few trials, an undecidable check, or our own
                  derivation disagreeing with the simulation).
    """
    failed = [c for c in ev.checks if c.passed is False and c.refutes]
    if failed:
        return Verdict.REFUTED, f"{failed[0].name}: {failed[0].detail}"
    rejected = [t for t in ev.tests if t.status == "rejected" and t.target == "stated"]
    if rejected:
        t = rejected[0]
        return Verdict.REFUTED, (f"{len(rejected)} of {len(ev.tests)} Monte Carlo tests reject the stated value "
                                 f"(first: {t.label}: {t.estimate:.5g} vs {t.predicted:.5g}, Holm p={t.p_adjusted:.2g})")
    own = [c for c in ev.checks if c.passed is False and not c.refutes]
    own_t = [t for t in ev.tests if t.status == "rejected" and t.target != "stated"]
    if own or own_t:
        what = own[0].name if own else own_t[0].label
        return Verdict.INCONCLUSIVE, f"our derivation or simulation disagrees with itself ({what})"
    undecided_checks = [c for c in ev.checks if c.passed is None]
    undecided = [t for t in ev.tests if t.status != "equivalent"]
    if not ev.checks and not ev.tests:
        return Verdict.INCONCLUSIVE, "no evidence was produced"
    if undecided_checks or undecided:
        need = [t.trials_needed for t in undecided if t.trials_needed]
        msg = f"{len(undecided)} of {len(ev.tests)} tests not decided" if undecided else undecided_checks[0].detail
        if need:
            msg += f"; about {max(need):,} trials per point would decide"
        return Verdict.INCONCLUSIVE, msg
    parts = [_count(len(ev.checks), "deterministic check") + " passed" if ev.checks else "",
             _count(len(ev.tests), "Monte Carlo test") + " within tolerance" if ev.tests else ""]
    return Verdict.CONFIRMED, ", ".join(p for p in parts if p)


def _count(k: int, noun: str) -> str:
    return f"{k} {noun}" + ("" if k == 1 else "s")
