"""Evidence records and the rule that turns them into a verdict.

A check produces an :class:`Evidence`: statistical tests (each with a p-value that
enters the run-wide Holm correction), deterministic checks (symbolic, exact or
counterexample searches), an optional figure, and free-form details.  After the
whole run has been simulated, :func:`finalize` adjusts every p-value of the run with
Holm's procedure and applies :func:`decide` to each claim.
"""
from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from verify.model.claim import Verdict
from verify.model.stats import holm, trials_to_decide, trials_to_reject


@dataclass
class StatTest:
    """One Monte Carlo comparison of an estimate with a predicted value.

    ``target`` says what the prediction is: ``'stated'`` (the source's formula: a
    rejection refutes the claim), ``'derived'`` (our own derivation: a rejection
    means our derivation or simulation is wrong, and the claim stays inconclusive) or
    ``'corrected'`` (:data:`CORRECTED`: our corrected form, tested on the same draws as the
    stated one; it enters only the corrected form's verdict, :func:`decide_corrected`).

    Parameters
    ----------
    label
        the test's label (the point, prefixed by the check's name).
    params
        the parameter point.
    predicted
        the value (or bound) tested.
    estimate, stderr, trials, df
        the Monte Carlo estimate, its standard error, the number of trials and the degrees of freedom.
    tol
        the practical tolerance (absolute) within which the CI must lie to agree.
    pvalue
        the raw p-value of H0 (E = predicted, or E <= predicted for ``sided='upper'``).
    target
        ``'stated'``, ``'derived'`` or ``'corrected'``, as above.
    seed
        the seed the samples were drawn from.
    ci_level, ci
        the confidence level and interval.
    p_adjusted, status, trials_needed, detectable, excluded
        set after the run: the Holm-adjusted p-value, the status ('rejected', 'equivalent', 'undecided',
        'not replicated', 'degenerate'), the trials that would decide an undecided test (None where no count
        would), the deviation detectable with 80 % power, and which ``alternatives`` the CI excludes.
    extra
        further data (the sample spread ``std``, the replication, a heavy tail: :data:`INFINITE_VARIANCE`).
    sided
        ``'two'`` (E = predicted) or ``'upper'`` (E <= predicted: only the CI's upper end must be within tol).
    alternatives
        values of nearby alternative forms at this point (name -> value).
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
    #: the smallest deviation |E - predicted| this test detects with 80 % power at the strictest
    #: Holm level of the run (alpha / number of tests): what a confirmation can rule out
    detectable: float = math.nan
    #: values of nearby alternative forms at this point (name -> value), when the check declares them;
    #: after the run, ``excluded`` says which of them the 95 % CI rules out here
    alternatives: dict = field(default_factory=dict)
    excluded: dict = field(default_factory=dict)

    @property
    def degenerate(self) -> bool:
        """Zero spread over the trials and an estimate equal to the prediction to the last bit: the
        prediction was computed from the same quantity, so the test cannot fail (never evidence)."""
        return self.extra.get("std") == 0.0 and self.estimate == self.predicted

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


#: the ``target`` of a test of a claim's corrected form on the stated form's own draws (``Expectation(corrected=
#: DERIVED)``): judged by :func:`decide_corrected` only, never part of the verdict on the stated form
CORRECTED = "corrected"

#: ``StatTest.extra[INFINITE_VARIANCE]``: the per-trial tail looks too heavy for a finite variance (Hill's tail
#: index, its 95 % upper end below 2: :func:`verify.judge.points.stat_test`); then the test is undecided (its
#: t-interval and p-value assume a finite variance) and no number of trials decides it (:func:`finalize`)
INFINITE_VARIANCE = "infinite variance"

#: ``Check.extra[EVERY_VALUE] = True``: the check compares an inequality with every recorded value of the data
#: (rigorously), so its pass means the data satisfy the inequality everywhere recorded, not a weaker summary
#: (``verify mutants`` tells a tighter bound that holds on the data from a survivor by it)
EVERY_VALUE = "inequality checked at every recorded value"


@dataclass
class Check:
    """A deterministic check (symbolic identity, exact evaluation, counterexample search).

    ``passed`` is True, False, or None (could not be decided).  A failed check with
    ``refutes=True`` refutes the claim; with ``refutes=False`` (a check of our own
    derivation) it makes the claim inconclusive.

    Parameters
    ----------
    name
        the check's name (its label in the reports).
    passed
        True, False, or None (undecided).
    detail
        one line saying what was found (a counterexample's values, a residual).
    refutes
        True: a failure refutes the claim; False: a check of our own derivation (a failure: inconclusive).
    counterexample
        the point where it failed, when there is one.
    extra
        further data shown in the evidence (e.g. :data:`EVERY_VALUE`).
    """

    name: str
    passed: bool | None
    detail: str = ""
    refutes: bool = True
    counterexample: dict | None = None
    extra: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        # a numpy bool (from a numpy comparison) is not ``False``: the verdict rule tests ``passed is False``, so a
        # failed check given as numpy.False_ would count as passed.  Made a Python bool here, once for every check.
        if self.passed is not None and not isinstance(self.passed, bool):
            if isinstance(self.passed, float) and math.isnan(self.passed) or str(self.passed) == "nan":
                # bool(nan) is True: a NaN outcome would count as a pass.  It is an error of the check.
                raise ValueError(f"check {self.name!r}: its outcome is NaN, neither passed nor failed")
            self.passed = bool(self.passed)


@dataclass
class Evidence:
    """What a check returns (a custom check builds one): its Monte Carlo tests, deterministic checks, figures,
    details and the seeds it drew from; the judge turns it into a verdict (:func:`decide`)."""

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


def finalize(evidences: list[Evidence], alpha: float, family: int | None = None) -> None:
    """Holm-adjust every p-value of the run and set each test's status in place.

    ``family``: Holm as if the family had that many members, the others at p = 1 (stricter; ``verify mutants``
    judges one claim as if it were inside a full run).

    A test that is equivalent by construction (:attr:`StatTest.degenerate`) is set aside with the
    status 'degenerate': it enters neither Holm's family nor the verdict.  Every other test gets
    its detectable deviation (80 % power at the strictest Holm level) and, where the check
    declared nearby alternative forms, which of them its 95 % CI excludes.

    A test whose per-trial variance looks infinite (``extra[INFINITE_VARIANCE]``, set by
    :func:`verify.judge.points.stat_test`) is 'undecided' whatever its p-value and interval: both assume a finite
    variance, so it can neither refute nor confirm, and no number of trials is advised for it.
    """
    from scipy.stats import norm

    tests = []
    for ev in evidences:
        for t in ev.tests:
            if t.degenerate:
                t.status, t.p_adjusted = "degenerate", 1.0
            else:
                tests.append(t)
    pad = [1.0] * max(0, (family or 0) - len(tests))
    adj = holm([t.pvalue for t in tests] + pad)[:len(tests)] if tests else []
    m = max(len(tests) + len(pad), 1)
    for t, pa in zip(tests, adj):
        z = norm.isf(alpha / m / (1 if t.sided == "upper" or t.extra.get("one_sided") else 2))
        t.detectable = float((z + norm.isf(0.2)) * t.stderr)
        lo, hi = t.ci
        t.excluded = {k: bool(v < lo or v > hi) for k, v in t.alternatives.items() if v is not None and math.isfinite(v)}
        t.p_adjusted = pa
        if INFINITE_VARIANCE in t.extra:
            # the per-trial variance looks infinite: the t-interval and p-value assume a finite one (the sample mean
            # then runs low with an understated spread, so a true value is rejected too often), and no number of
            # trials repairs that.  Neither a rejection nor a confirmation: undecided, no trial count advised.
            t.status = "undecided"
        elif pa < alpha:
            t.status = "rejected"
        elif t.equivalent:
            t.status = "equivalent"
        else:
            t.status = "undecided"
            lo, hi = t.ci
            # to confirm: the CI within the tolerance (for a bound or an ordering, its upper end below
            # predicted + tol, so an estimate on the asserted side leaves room even at tol = 0); where the estimate
            # itself lies outside, to reject: the trials at which its deviation is detected with 80 % power
            beyond = t.estimate - t.predicted if t.sided == "upper" else t.distance
            t.trials_needed = (trials_to_decide(t.trials, (hi - lo) / 2, beyond, t.tol)
                               or trials_to_reject(t.trials, t.detectable, t.distance))


def decide(ev: Evidence) -> tuple[Verdict, str]:
    """The verdict rule, the same for every kind of claim.

    refuted       a deterministic check that refutes failed, or a Monte Carlo test
                  against the stated form is rejected at the run's family-wise level;
    confirmed     every check passed and every Monte Carlo test is equivalent (its CI
                  lies within the practical tolerance of the prediction);
    inconclusive  otherwise (too few trials, an undecidable check, or our own
                  derivation disagreeing with the simulation);
    error         before all of these: the check did not finish (``details['error']``, set by
                  :func:`verify.run.runner._compute`: it raised, or ran over the per-claim time limit),
                  so whatever evidence it left is no evidence.

    Tests of the claim's corrected form (target :data:`CORRECTED`) are set aside: they judge our corrected form
    (:func:`decide_corrected`), not the stated one.
    """
    err = ev.details.get("error")
    if err:
        return Verdict.ERROR, error_text(err)
    degenerate = [t for t in ev.tests if t.status == "degenerate"]
    if degenerate or any(t.target == CORRECTED for t in ev.tests):
        ev = Evidence(tests=[t for t in ev.tests if t.status != "degenerate" and t.target != CORRECTED],
                      checks=ev.checks)
    failed = [c for c in ev.checks if c.passed is False and c.refutes]
    if failed:
        return Verdict.REFUTED, f"{failed[0].name}: {failed[0].detail}"
    rejected = [t for t in ev.tests if t.status == "rejected" and t.target == "stated"]
    if rejected:
        t = rejected[0]
        of_stated = sum(1 for t in ev.tests if t.target == "stated")   # only the tests that tested the stated form
        return Verdict.REFUTED, (f"{len(rejected)} of {of_stated} Monte Carlo tests reject the stated value, "
                                 f"each replicated on fresh draws (first: {t.label}: {versus(t)}, "
                                 f"Holm p={t.p_adjusted:.2g})")
    own = [c for c in ev.checks if c.passed is False and not c.refutes]
    own_t = [t for t in ev.tests if t.status == "rejected" and t.target != "stated"]
    if own or own_t:
        what = own[0].name if own else own_t[0].label
        return Verdict.INCONCLUSIVE, f"our derivation or simulation disagrees with itself ({what})"
    unreplicated = [t for t in ev.tests if t.status == "not replicated" and t.target == "stated"]
    if unreplicated:
        t = unreplicated[0]
        rep = t.extra.get("replication", {})
        return Verdict.INCONCLUSIVE, (
            f"{len(unreplicated)} rejection(s) of the stated value did not replicate on fresh draws (first: {t.label}: "
            f"{versus(t)}, Holm p={t.p_adjusted:.2g}"
            + (f"; replication {rep['estimate']:.5g}, p={rep['p_adjusted']:.2g})" if rep.get("done") else ")"))
    undecided_checks = [c for c in ev.checks if c.passed is None]
    undecided = [t for t in ev.tests if t.status != "equivalent"]
    if not ev.checks and not ev.tests:
        return Verdict.INCONCLUSIVE, ("no evidence: every Monte Carlo test was equivalent by construction"
                                      if degenerate else "no evidence was produced")
    if undecided_checks or undecided:
        need = [t.trials_needed for t in undecided if t.trials_needed]
        msg = (f"{len(undecided)} of {len(ev.tests)} tests not decided (first: {undecided_text(undecided[0])})"
               if undecided else undecided_checks[0].detail)
        # a count of trials only where nothing else is said to be needed: a check that names what would decide
        # the claim (a lost setting, a longer training) governs, and more trials of these tests would not do it
        if need and not any(_NAMES_WHAT_DECIDES.search(c.detail or "") for c in undecided_checks):
            msg += f"; about {max(need):,} trials per point would decide (if the estimates stay where they are)"
        if undecided and undecided_checks:
            msg += f"; {undecided_checks[0].name}: {undecided_checks[0].detail}"
        heavy = [t for t in undecided if INFINITE_VARIANCE in t.extra]
        if heavy:
            msg += "; " + infinite_variance_text(heavy)
        return Verdict.INCONCLUSIVE, msg
    parts = [_count(len(ev.checks), "deterministic check") + " passed" if ev.checks else "",
             _count(len(ev.tests), "Monte Carlo test") + " within tolerance" if ev.tests else ""]
    return Verdict.CONFIRMED, ", ".join(p for p in parts if p)


#: an undecided check's detail that says what would decide its claim ("what would decide it: Fig. 5's step")
_NAMES_WHAT_DECIDES = re.compile(r"\bwhat (?:would )?decides?\b")
_SLOPE_BOUND = re.compile(r"slope\s*(?:>=|≥)")


def slope_bound_extra(sided, extra) -> dict | None:
    """The extra of a one-sided slope test built on -slope (``slope_bound_test``: "slope >= p" shown as
    "-slope <= -p"), whose numbers read in the slope's own sign; None for any other test.  Takes a test's ``sided``
    and ``extra`` so that a results document's test (whose claim text the reports may have written "slope ≥ p")
    reads the same as a StatTest."""
    x = extra if isinstance(extra, dict) else {}
    return x if sided == "upper" and "slope" in x and _SLOPE_BOUND.match(str(x.get("claim", ""))) else None


def _slope_bound(t: StatTest) -> dict | None:
    return slope_bound_extra(t.sided, t.extra)


def versus(t: StatTest) -> str:
    """A test's estimate against its stated value, as the statement reads: a bound O(x^p) tested on -slope
    prints its slope against "at least p", not "-slope vs -p"."""
    x = _slope_bound(t)
    if x is not None:
        return f"log-log slope {x['slope']:.5g} vs at least {-t.predicted:.5g}"
    return f"{t.estimate:.5g} vs {t.predicted:.5g}"


def undecided_text(t: StatTest) -> str:
    """One undecided test in words: where, the estimate against the stated value, its interval."""
    x = _slope_bound(t)
    if x is not None and x.get("slope_ci"):
        lo, hi = x["slope_ci"]
        tol = f" (tolerance {t.tol:.3g})" if t.tol else ""
        return (f"{t.label}: log-log slope {x['slope']:.4g}, {100 * t.ci_level:g} % CI [{lo:.3g}, {hi:.3g}], "
                f"against at least {-t.predicted:.4g}{tol}")
    side = " or less" if t.sided == "upper" else ""
    tol = f" (tolerance {t.tol:.3g})" if t.tol else ""
    lo, hi = t.ci
    return (f"{t.label}: estimate {t.estimate:.4g}, {100 * t.ci_level:g} % CI [{lo:.3g}, {hi:.3g}], against "
            f"{t.predicted:.4g}{side}{tol}")


def infinite_variance_text(tests: list[StatTest]) -> str:
    """Why no trial count is advised at the undecided tests whose per-trial variance looks infinite."""
    t = tests[0]
    tail = t.extra[INFINITE_VARIANCE]
    where = t.label + (f" and {len(tests) - 1} more point(s)" if len(tests) > 1 else "")
    return (f"no trial count would decide at {where}: the per-trial variance looks infinite (Hill tail index "
            f"{tail['alpha']:.3g}, 95 % upper end {tail['upper']:.3g} < 2, from the {tail['k']} largest of "
            f"{t.trials} trials), so the sample variance does not settle: the t-test's interval and p-value are not "
            "valid there, and more trials do not narrow the interval as 1/sqrt(N) (a divergence of the variance is a "
            "claim for Divergence(moment=2))")


def error_text(err: dict) -> str:
    """One line for a check that did not finish: what happened and where (the file:line of the raising frame)."""
    where = f" at {err['where']}" if err.get("where") else ""
    if err.get("timed_out"):
        return f"{err.get('message', 'timed out')} (stopped{where})"
    return f"the check raised {err.get('type', 'an error')}: {err.get('message', '')}{where}"


def _count(k: int, noun: str) -> str:
    return f"{k} {noun}" + ("" if k == 1 else "s")


def decide_corrected(ev: Evidence) -> tuple[Verdict, str]:
    """The verdict on a corrected form of ours, from the evidence that tests our derivation:
    Monte Carlo tests with target 'derived' and the checks that cannot refute the source
    (``refutes=False``).  A corrected form is a claim of ours; without such evidence it stays a
    candidate (inconclusive), never an established result.
    """
    own_tests = [t for t in ev.tests if t.target != "stated" and t.status != "degenerate"]
    own_checks = [c for c in ev.checks if not c.refutes]
    if not own_tests and not [c for c in own_checks if c.passed is not None]:
        return Verdict.INCONCLUSIVE, "no check of the corrected form itself: a candidate"
    failed = [c for c in own_checks if c.passed is False]
    rejected = [t for t in own_tests if t.status == "rejected"]
    if failed or rejected:
        what = (f"{failed[0].name}: {failed[0].detail}" if failed else
                f"{rejected[0].label}: {versus(rejected[0])}, "
                f"Holm p={rejected[0].p_adjusted:.2g}")
        return Verdict.REFUTED, f"{len(failed) + len(rejected)} check(s) of the corrected form fail (first: {what})"
    undecided = [t for t in own_tests if t.status != "equivalent"] + [c for c in own_checks if c.passed is None]
    if undecided:
        return Verdict.INCONCLUSIVE, f"{len(undecided)} of {len(own_tests) + len(own_checks)} checks of the corrected form undecided"
    parts = ([_count(len(own_checks), "check") + " of the corrected form passed"] if own_checks else []) + \
        ([_count(len(own_tests), "Monte Carlo test") + " of the corrected form within tolerance"] if own_tests else [])
    return Verdict.CONFIRMED, ", ".join(parts)


def rules_out(ev: Evidence) -> str:
    """What the Monte Carlo evidence of a claim excludes, in one sentence (for the report)."""
    tests = [t for t in ev.tests if t.target == "stated" and t.status not in ("degenerate", "pending")]
    if not tests:  # the Monte Carlo evidence tests our exact finite-size or derived form (e.g. asymptotic claims)
        tests = [t for t in ev.tests if t.status not in ("degenerate", "pending")]
    if not tests:
        return ""
    def one_sided(t):
        return t.sided == "upper" or bool(t.extra.get("one_sided"))

    eq = [t for t in tests if t.status == "equivalent"]
    two = [t for t in eq if not one_sided(t)]
    one = [t for t in eq if one_sided(t)]
    parts = []
    if two:
        half = max(max(abs(t.ci[1] - t.predicted), abs(t.predicted - t.ci[0])) for t in two)
        rel = max((max(abs(t.ci[1] - t.predicted), abs(t.predicted - t.ci[0])) / abs(t.predicted))
                  for t in two if t.predicted != 0) if any(t.predicted != 0 for t in two) else None
        # a relative width only where the stated value is not itself within noise of 0 (1.3e+30 % says nothing)
        parts.append(f"at each of its {len(two)} confirming points the 95 % CI excludes a true value farther than "
                     f"{half:.3g} from the stated one" + (f" ({100 * rel:.2g} % relative, at most)"
                                                          if rel and rel < 1 else ""))
    if one:
        over = max(t.ci[1] - t.predicted for t in one)
        parts.append(f"at each of its {len(one)} one-sided points the 95 % CI excludes a true value more than "
                     f"{max(over, 0.0):.3g} beyond the stated bound or limit")
    det = [t.detectable for t in tests if math.isfinite(t.detectable)]
    if det and max(det) > 0:   # a zero-width test (an exact tie) detects nothing worth saying
        span = f"{min(det):.3g}" if f"{min(det):.3g}" == f"{max(det):.3g}" else f"{min(det):.3g} to {max(det):.3g} (by point)"
        parts.append(f"a deviation of {span} would have been detected with 80 % power at the run's strictest Holm "
                     "level")
    names = sorted({k for t in tests for k in t.excluded})
    for k in names:
        hit = sum(1 for t in tests if t.excluded.get(k))
        seen = sum(1 for t in tests if k in t.excluded)
        parts.append(f"alternative '{k}' excluded at {hit} of {seen} points" if hit else
                     f"alternative '{k}' NOT excluded at any of {seen} points (the grid cannot tell it apart)")
    return "; ".join(parts)
