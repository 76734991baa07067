"""Verdicts over the settings a source leaves open (issue 24).

Where a source does not fix a setting of the simulated procedure (a step size, an iteration budget, a width, an
initialisation scale, a sample size of a figure), a qualitative claim is run over a declared range of it and its
verdict is the one that holds over the whole range; where it holds at some values and not at others, the claim is
inconclusive with the dependence shown, never refuted for a setting the source left open unless it fails at every
value.  :func:`over_open_setting` does that for ordering tests (:func:`verify.judge.orders.ordering_test` and the like);
:class:`OverOpenSetting` applies it by construction to a check whose grid runs the declared values of an
:class:`OpenSetting` (the setting in words and the source's words that leave it open).
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from typing import Any, Mapping

from verify.model.context import pick
from verify.model.evidence import Check, Evidence

__all__ = ["OPEN_VALUES_RUN", "OpenSetting", "OverOpenSetting", "over_open_setting"]

#: the key of ``Evidence.details`` where a wrapped check lists the combinations of open values it ran (a list of
#: {param: value}), for a check that may run a value and give no test there (OverOpenSetting counts it as run and
#: not decided, instead of not run)
OPEN_VALUES_RUN = "open values run"


def _fails(x, alpha: float, k: int) -> bool:
    if isinstance(x, Check):
        return x.passed is False and x.refutes
    return x.pvalue < alpha / k


def _holds(x) -> bool:
    return x.passed is True if isinstance(x, Check) else x.equivalent


def _what_failed(x) -> str:
    if isinstance(x, Check):   # its first sentence (what fails); the whole detail stays in the evidence
        first = x.detail.split(". ")[0].rstrip(".")
        return f"{x.name}: {first}"
    return f"{x.label}: estimate {x.estimate:.4g}, 95% CI [{x.ci[0]:.4g}, {x.ci[1]:.4g}], p = {x.pvalue:.2g}"


def over_open_setting(setting: str, by_value: dict, *, alpha: float = 0.05):
    """The same ordering tests at each value of a setting the source leaves open (issue 24): ``by_value`` maps a
    value's label (e.g. ``"budget=2500"``) to its list of :class:`StatTest` (and of deterministic :class:`Check`, for
    a check whose verdict at each value is exact).  Returns ``(kept, checks)``: the tests (and checks) the judge
    decides on, and the undecided check this rule adds, if any.

    A value *holds* when every one of its tests agrees (:attr:`StatTest.equivalent`) and every check passed, and
    *fails* when one of its tests rejects locally (one-sided p below ``alpha`` / number of its tests, Bonferroni
    within the value) or one of its checks fails (refuting).  When no value fails, or every value fails, all tests
    are returned as they are and the judge decides as for one value (Holm over the run, replication).  When the
    ordering holds at some values and fails at others, the verdict depends on a setting the source does not fix (so
    also when it fails at some values and is only not decided at the others): the tests of the values that do not
    fail are returned, and those of the failing values go into one undecided check (``passed=None, refutes=False``:
    inconclusive) that names the values and their estimates; never refuted for a setting the source left open unless
    it fails at every value.  When it holds at some values and is not decided at the others (no value fails), all
    tests are returned and one undecided check names the values of each kind.  ``holds`` needs at least one value (a
    value with no tests is neither)."""
    fails, holds = [], []
    for v, tests in by_value.items():
        k = max(1, sum(not isinstance(t, Check) for t in tests))
        if any(_fails(t, alpha, k) for t in tests):
            fails.append(v)
        elif tests and all(_holds(t) for t in tests):
            holds.append(v)
    undecided = [v for v in by_value if v not in fails and v not in holds]
    if len(fails) == len(by_value) or not (fails or (holds and undecided)):
        return [t for ts in by_value.values() for t in ts], []
    if not fails:   # holds at some values, not decided at the others: the judge says inconclusive, this says where
        return [t for ts in by_value.values() for t in ts], [Check(
            f"{setting} over its declared range", None,
            f"the ordering is confirmed at {'; '.join(map(str, holds))} and not decided at {'; '.join(map(str, undecided))}"
            f" ({setting} is left open by the source)", refutes=False,
            extra={"holds at": list(map(str, holds)), "not decided at": list(map(str, undecided))})]
    detail = (f"the ordering depends on {setting}, which the source leaves open: it holds at "
              f"{'; '.join(map(str, holds)) or 'no value'}"
              + (f", is not decided at {'; '.join(map(str, undecided))}" if undecided else "")
              + f" and fails at {'; '.join(map(str, fails))} (" + "; ".join(
                  _what_failed(t) for v in fails for t in by_value[v]
                  if _fails(t, alpha, max(1, sum(not isinstance(u, Check) for u in by_value[v])))) + ")")
    tests = [t for v, ts in by_value.items() if v not in fails for t in ts]
    return tests, [Check(f"{setting} over its declared range", None, detail, refutes=False,
                         extra={"holds at": list(map(str, holds)), "not decided at": list(map(str, undecided)),
                                "fails at": list(map(str, fails))})]


@dataclass(frozen=True)
class OpenSetting:
    """A setting of the simulated procedure that the source does not state for the item a claim reads (a sample
    size a figure does not give, a step size, a budget), declared with the words that show it is not stated.

    Parameters
    ----------
    param
        the key of the setting in the grid points of the check it wraps (each test's ``params``).
    values
        the plausible values the grid runs, every one of them (the rule needs the whole declared range).
    what
        the setting in words ("the sample size n of Figure 2(b)").
    quote
        the source's own words for the item, which give no value for the setting.
    """

    param: str
    values: tuple
    what: str
    quote: str


@dataclass
class OverOpenSetting:
    """A check run over settings its source leaves open (:class:`OpenSetting`): the open-settings rule applied by
    construction.  The wrapped check's tests are grouped by the setting's value (their ``params[param]``; with
    several settings, by the combination of their values), and so are its deterministic checks that carry the
    setting in ``extra['params']`` (a check without it does not depend on the setting and is kept as it is) and judged by :func:`over_open_setting`: refuted only if
    the ordering fails at every declared value (every combination), inconclusive (with the dependence shown) where it
    holds at some and fails at others.  A declared value (combination) the grid does not run is an error of the
    claim (the rule would be judged on part of the range), as is a test without the setting; a check that may run a
    value and give no test there (only undecided checks) lists what it ran in ``details[OPEN_VALUES_RUN]``, and such a
    value counts as run and not decided.  The declaration is
    recorded in the evidence (``details['open settings']``) for the reports.  Power: ``verify mutants`` judges the
    wrapped check as a whole, so give the claim its power witnesses (:class:`Alternative`) wrapped the same way
    (tahir2024.text.sec4.mu_monotone); sympy mutants of a stated form reach only an unwrapped ``Expectation``.

    Parameters
    ----------
    wrapped
        the check whose grid runs every declared value of the setting (every combination, for several).
    setting
        the :class:`OpenSetting`, or a tuple of them (their declared values are crossed), or these per profile
        (:func:`verify.kit.per_profile`; an empty tuple where a cheaper profile runs one value of each).
    """

    wrapped: Any
    setting: Any

    @property
    def settings(self) -> tuple:
        """The declared settings (those of the standard profile, when they are given per profile)."""
        return self.settings_at(None)

    def settings_at(self, profile) -> tuple:
        """The declared settings at ``profile`` (a :class:`Profile`; None: standard)."""
        s = self.setting
        if isinstance(s, Mapping):
            s = pick(profile, s) if profile is not None else s.get("standard", ())
        return tuple(s) if isinstance(s, (tuple, list)) else (s,)

    @property
    def takes_points(self) -> bool:
        return bool(getattr(self.wrapped, "takes_points", False))

    @property
    def name(self) -> str:
        return getattr(self.wrapped, "name", "") or type(self.wrapped).__name__

    def run(self, claim, ctx) -> Evidence:
        ss = self.settings_at(getattr(ctx, "profile", None))
        if not ss:                         # no setting is open at this profile (it runs one value of each)
            return self.wrapped.run(claim, ctx)
        ev = self.wrapped.run(claim, ctx)

        def one(s, v):
            return f"{s.param} = {v:g}" if isinstance(v, (int, float)) else f"{s.param} = {v}"

        def label(values):
            return ", ".join(one(s, v) for s, v in zip(ss, values))

        by_value: dict = {label(vs): [] for vs in itertools.product(*(s.values for s in ss))}
        for t in ev.tests:
            for s in ss:
                if s.param not in t.params:
                    raise ValueError(f"{claim.id}: the test '{t.label}' does not carry the open setting {s.param!r}")
            by_value.setdefault(label([t.params[s.param] for s in ss]), []).append(t)
        free = []                          # checks that do not depend on the setting (no 'params' in their extra)
        for c in ev.checks:
            params = c.extra.get("params")
            if params is None:
                free.append(c)
                continue
            for s in ss:
                if s.param not in params:
                    raise ValueError(f"{claim.id}: the check '{c.name}' does not carry the open setting {s.param!r}")
            by_value.setdefault(label([params[s.param] for s in ss]), []).append(c)
        # a check that can leave a value with no test (a literal run stopped at its step cap gives an undecided
        # check, never a test) records the combinations it ran in details[OPEN_VALUES_RUN]: those count as run and,
        # without tests, as not decided
        ran = {label([r[s.param] for s in ss]) for r in ev.details.pop(OPEN_VALUES_RUN, [])}
        missing = [k for k, ts in by_value.items() if not ts and k not in ran]
        if missing and ctx.at is None:
            declared = " x ".join(f"{s.param} in {list(s.values)}" for s in ss)
            raise ValueError(f"{claim.id}: the open setting{'s' if len(ss) > 1 else ''} {declared} declared, but the "
                             f"grid does not run {'; '.join(missing)}")
        what = " and ".join(s.what for s in ss)
        kept, checks = over_open_setting(what, {k: ts for k, ts in by_value.items() if ts or k in ran})
        ev.tests = [t for t in kept if not isinstance(t, Check)]
        # the exact checks of the values where it fails stay in the evidence with their data, as undecided: their
        # failure is at one value of a setting the source leaves open (the rule's check, first, says so)
        set_aside = [dataclasses.replace(c, passed=None, refutes=False,
                                         detail=f"fails at this value of an open setting: {c.detail}")
                     for ts in by_value.values() for c in ts
                     if isinstance(c, Check) and checks and c.passed is False and not any(c is k for k in kept)]
        # an undecided check of a failing value (a Rate sweep censored there) stays as it is: what would decide it
        set_aside += [c for ts in by_value.values() for c in ts
                      if isinstance(c, Check) and c.passed is None and not any(c is k for k in kept)]
        ev.checks = free + checks + [c for c in kept if isinstance(c, Check)] + set_aside
        for s in ss:
            ev.details.setdefault("open settings", []).append(
                {"setting": s.what, "param": s.param, "values": list(s.values), "quote": s.quote})
        return ev
