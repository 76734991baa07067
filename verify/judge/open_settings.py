"""Verdicts over the settings a source leaves open (issue 24).

Where a source does not fix a setting of the simulated procedure (a step size, an iteration budget, a width, an
initialisation scale, a sample size of a figure), a qualitative claim is run over a declared range of it and its
verdict is the one that holds over the whole range; where it holds at some values and not at others, the claim is
inconclusive with the dependence shown, never refuted for a setting the source left open unless it fails at every
value.  :func:`over_open_setting` does that for ordering tests (:func:`verify.judge.orders.ordering_test` and the like).
"""
from __future__ import annotations

from verify.model.evidence import Check

__all__ = ["over_open_setting"]


def over_open_setting(setting: str, by_value: dict, *, alpha: float = 0.05):
    """The same ordering tests at each value of a setting the source leaves open (issue 24): ``by_value`` maps a
    value's label (e.g. ``"budget=2500"``) to its list of :class:`StatTest`.  Returns ``(tests, checks)``.

    A value *holds* when every one of its tests agrees (:attr:`StatTest.equivalent`) and *fails* when one of them
    rejects locally (one-sided p below ``alpha`` / number of its tests, Bonferroni within the value).  When no value
    fails, or every value fails, all tests are returned as they are and the judge decides as for one value (Holm over
    the run, replication).  When the ordering holds at some values and fails at others, the verdict depends on a
    setting the source does not fix (so also when it fails at some values and is only not decided at the others):
    the tests of the values that do not fail are returned, and those of the failing
    values go into one undecided check (``passed=None, refutes=False``: inconclusive) that names the values and their
    estimates; never refuted for a setting the source left open unless it fails at every value.  When it holds at some
    values and is not decided at the others (no value fails), all tests are returned and one undecided check names
    the values of each kind.  ``holds`` needs at least one value (a value with no tests is neither)."""
    fails, holds = [], []
    for v, tests in by_value.items():
        k = max(1, len(tests))
        if any(t.pvalue < alpha / k for t in tests):
            fails.append(v)
        elif tests and all(t.equivalent for t in tests):
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
                  f"{t.label}: estimate {t.estimate:.4g}, 95% CI [{t.ci[0]:.4g}, {t.ci[1]:.4g}], p = {t.pvalue:.2g}"
                  for v in fails for t in by_value[v] if t.pvalue < alpha / max(1, len(by_value[v]))) + ")")
    tests = [t for v, ts in by_value.items() if v not in fails for t in ts]
    return tests, [Check(f"{setting} over its declared range", None, detail, refutes=False,
                         extra={"holds at": list(map(str, holds)), "not decided at": list(map(str, undecided)),
                                "fails at": list(map(str, fails))})]
