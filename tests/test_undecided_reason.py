"""An undecided test says what it measured and how many trials would decide it, also for a bound or an ordering
with zero tolerance (E <= predicted: confirmed when the interval's upper end falls below, refuted when the
estimate's excess is detected), where no tolerance gives room to count trials from.

Synthetic tests with known numbers, judged by the verdict rule itself (finalize, decide)."""
from __future__ import annotations

import math

from verify import api
from verify.model.claim import Verdict
from verify.model.evidence import Evidence, StatTest, decide, finalize
from verify.model.stats import trials_to_decide, trials_to_reject


def _ordering(estimate: float, stderr: float = 0.04, trials: int = 128) -> StatTest:
    from scipy.stats import norm

    return StatTest(label=f"ordering at {estimate}", params={"k": 4}, predicted=0.0, estimate=estimate,
                    stderr=stderr, trials=trials, tol=0.0, pvalue=float(norm.sf(estimate / stderr)),
                    ci=(estimate - 1.96 * stderr, estimate + 1.96 * stderr), sided="upper")


def _judged(*tests):
    ev = Evidence(tests=list(tests))
    finalize([ev], api.ALPHA)
    return decide(ev)


def test_an_ordering_on_its_asserted_side_gets_the_trials_that_confirm_it():
    t = _ordering(-0.04)                       # CI [-0.118, 0.038]: not yet below 0
    v, why = _judged(t)
    assert v is Verdict.INCONCLUSIVE and t.status == "undecided"
    # the interval's half-width 0.0784 must shrink below the gap 0.04: 128 (0.0784/0.04)^2 = 492 trials
    assert t.trials_needed == math.ceil(128 * (1.96 * 0.04 / 0.04) ** 2) == 492
    assert "about 492 trials per point would decide" in why, why
    assert "ordering at -0.04: estimate -0.04" in why and "against 0 or less" in why, why


def test_an_ordering_on_the_wrong_side_gets_the_trials_that_would_reject_it():
    t = _ordering(0.05)                        # p = 0.11: far from Holm's level
    v, why = _judged(t)
    assert v is Verdict.INCONCLUSIVE and t.status == "undecided"
    assert t.trials_needed == trials_to_reject(128, t.detectable, 0.05) > 128
    assert f"about {t.trials_needed:,} trials" in why, why


def test_an_exact_tie_gets_no_trial_count():
    t = _ordering(0.0)
    v, why = _judged(t)
    assert t.trials_needed is None and "trials per point" not in why, why


def test_the_counts_follow_one_over_sqrt_n():
    assert trials_to_decide(100, 0.2, -0.1, 0.0) == 400        # half-width must halve: 4x the trials
    assert trials_to_decide(100, 0.2, 0.05, 0.0) is None        # estimate beyond a zero tolerance: cannot confirm
    assert trials_to_reject(100, 0.2, 0.1) == 400
    assert trials_to_reject(100, 0.2, 0.0) is None


def test_a_check_that_names_what_would_decide_governs_the_trial_count():
    """A claim whose undecided check says what would decide it (a lost setting, a longer training) does not also
    get a count of trials: more trials of its tests would not decide it."""
    from verify.model.evidence import Check

    t = _ordering(-0.04)
    ev = Evidence(tests=[t], checks=[Check("at the step 0.5 eta_0", None, "not judged at 2 eta_0; what would decide "
                                           "it: the figure's step (lost)")])
    finalize([ev], api.ALPHA)
    v, why = decide(ev)
    assert v is Verdict.INCONCLUSIVE and t.trials_needed == 492
    assert "trials per point" not in why and "what would decide it: the figure's step (lost)" in why, why
    # an undecided check that names nothing leaves the count in place
    t2 = _ordering(-0.04)
    ev2 = Evidence(tests=[t2], checks=[Check("a plateau", None, "too few runs recovered")])
    finalize([ev2], api.ALPHA)
    assert "about 492 trials per point would decide" in decide(ev2)[1]
