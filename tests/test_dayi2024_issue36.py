"""dayi2024, issue 36 (second pass): every prescribed-step run is simulated up to its own horizon (common.run_tuned's
``run_horizon``), and a figure's step at which no run of either arm trains is reported, not judged
(figures._over_steps)."""
from __future__ import annotations

import math

import numpy as np


def test_run_horizon_continues_only_the_unfinished_runs_and_leaves_the_others_unchanged():
    """k = 3 at Thm 1's scale (seed 0, standard): one instance of small lambda was censored by the common budget (set by
    the median instance) long before its own horizon 4 d C/(kappa lambda^2); continued, it hits, and every run that
    finished within the common budget keeps its hitting time (the continuation draws after them)."""
    from verify.claims.dayi2024 import common as CM
    from verify.run.runner import make_context

    ctx = make_context("standard", 0, progress=False)
    k, d = 3, 128
    xi = round(0.5 * math.sqrt(k), 9)

    def run(**kw):
        gen, _ = ctx.generator("dayi2024.prescribed", str(k), str(xi), "0", "0", str((d,)))
        return CM.run_tuned(gen, k=k, arms=[(xi, np.eye(k))], act_name="relu", inner=1.0, ds=[d], R=16,
                            grid=[CM.KAPPA], budget_units=CM.TAU_PRESCRIBED * d / CM.KAPPA, thresholds=(0.5,),
                            per_d=True, **kw)[0]

    plain, own = run(), run(run_horizon=CM.TAU_PRESCRIBED)
    h0, h1 = plain.hits[d][0, :, 0], own.hits[d][0, :, 0]
    done = h0 >= 0
    assert (~done).any(), "the seed no longer has a run censored by the common budget"
    assert np.array_equal(h0[done], h1[done])
    unit = 1.0 / (CM.KAPPA * own.scale * own.lam)
    assert np.all(h1[~done] > plain.budget) and np.all(h1[~done] <= CM.TAU_PRESCRIBED * d * unit[~done])


def test_figures_over_steps_does_not_judge_a_step_at_which_no_run_trains():
    """A factor at which every run of both arms is censored (an exact tie that shows neither ordering) is reported
    as outside the figure's regime; the ordering is judged at the other factors (shown there: no undecided check).
    If every factor is such, nothing is excluded (undecided, as before)."""
    from verify.claims.dayi2024 import figures as F
    from verify.model.evidence import Evidence, StatTest
    from verify.run.runner import make_context

    ctx = make_context("standard", 0, progress=False)

    def fake(dead):
        def fn(claim, ctx, points):
            off = F._eta() in dead
            est, ci, cens = (0.0, (0.0, 0.0), 1.0) if off else (-0.3, (-0.4, -0.2), 0.2)
            return Evidence(tests=[StatTest(label="ordering", params={"k": 4}, predicted=0.0, estimate=est,
                                            stderr=0.0 if off else 0.05, trials=96, tol=0.0, pvalue=1.0, ci=ci,
                                            sided="upper", extra={"censored_slow": cens, "censored_fast": cens})])
        return fn

    ev = F._over_steps(fake((2.0,)))(None, ctx, [{"k": 4}])
    assert [c.passed for c in ev.checks] == [True] and not ev.checks[0].refutes and "2.0" in ev.checks[0].name
    assert ev.tests[0].estimate == -0.3
    ev = F._over_steps(fake(tuple(F.pick(ctx.profile, F.ETA_FACTORS))))(None, ctx, [{"k": 4}])
    assert [c.passed for c in ev.checks] == [None]
