"""dayi2024 (issue 24): the step-tuned exponent design of dayi2024.common (run_tuned / fit_tuned / tuned_test) and
the power witnesses declared by the 003 claims."""
from __future__ import annotations

import math

import numpy as np

from verify.claims.dayi2024 import common as CM

DS = [32, 64, 128]


def _synthetic(e: float, budget: int, nu_star=lambda d: 4.0 / d, R: int = 400, seed: int = 0) -> CM.Tuned:
    """Hitting times T_ij(d) = d^e X_i nu*(d)/nu_j for nu_j <= nu*(d), never (censored) above it: the best step of
    the grid is nu*(d) and T*(d) = d^e median(X)."""
    rng = np.random.default_rng(seed)
    grid = CM.step_grid(2.0 / 128, 8.0 / 32)
    X = rng.lognormal(0.0, 0.3, R)
    hits = {}
    for d in DS:
        h = np.full((len(grid), R, 2), -1, dtype=np.int64)
        for j, nu in enumerate(grid):
            if nu <= nu_star(d) * (1 + 1e-9):
                t = np.ceil(d ** e * X * nu_star(d) / nu).astype(np.int64)
                t[t > budget] = -1
                h[j, :, 0] = h[j, :, 1] = t
        hits[d] = h
    return CM.Tuned(DS, grid, hits, budget, np.ones(R), np.ones(R), np.ones(R), {d: np.ones((len(grid), R)) for d in DS})


def test_step_grid_is_sqrt2_spaced_and_d_free():
    g = CM.step_grid(2.0 / 128, 8.0 / 32)
    assert g[0] == 0.25 and abs(g[-1] - 2.0 / 128) < 1e-12 and len(g) == 9
    assert np.allclose(np.array(g[:-1]) / np.array(g[1:]), math.sqrt(2))


def test_fit_tuned_recovers_the_exponent_and_the_test_can_fail():
    for e in (1.0, 1.5, 2.0):
        sc = _synthetic(e, budget=10 ** 7)
        fit = CM.fit_tuned(sc, 0, 1, n_boot=200)
        assert abs(fit["exponent"] - e) < 0.05, fit["exponent"]
        assert not any(fit["edge"])
        ok = CM.tuned_test("x", {}, fit, DS, bound=e + 0.3, upper=True, trials=400, seed=1)
        bad = CM.tuned_test("x", {}, fit, DS, bound=e - 0.5, upper=True, trials=400, seed=1)
        assert ok.equivalent and ok.pvalue > 0.05
        assert bad.pvalue < 1e-6 and not bad.equivalent


def test_censoring_at_the_largest_d_is_evidence_against_an_upper_bound():
    """T ~ d^2 with a budget that censors every run at d = 128: the estimate is undefined, the capped slope is a
    lower bound of the exponent, and it rejects 'exponent <= 1' (it was 'undecided' in the old design)."""
    sc = _synthetic(2.0, budget=int(64 ** 2 * 2))
    fit = CM.fit_tuned(sc, 0, 1, n_boot=200)
    assert math.isinf(fit["exponent"]) and fit["censored"][128] > 0.99
    assert fit["lower_bound"] > 1.3
    t = CM.tuned_test("x", {}, fit, DS, bound=1.0, upper=True, trials=400, seed=1)
    assert t.pvalue < 1e-6 and not t.equivalent and t.ci[0] <= t.estimate <= t.ci[1]   # it can refute
    loose = CM.tuned_test("x", {}, fit, DS, bound=3.0, upper=True, trials=400, seed=1)
    assert not loose.equivalent and loose.pvalue == 1.0          # never confirm an upper bound


def test_a_best_step_on_the_grid_edge_leaves_the_test_undecided():
    sc = _synthetic(1.0, budget=10 ** 7, nu_star=lambda d: 0.25)     # best step = the grid's largest at every d
    fit = CM.fit_tuned(sc, 0, 1, n_boot=100)
    assert all(fit["edge"])
    t = CM.tuned_test("x", {}, fit, DS, bound=5.0, upper=True, trials=400, seed=1)
    assert t.pvalue == 1.0 and not t.equivalent


def test_run_tuned_small_runs_and_shapes():
    import torch

    g = torch.Generator().manual_seed(0)
    sc = CM.run_tuned(g, k=3, arms=[(1.0, np.eye(3))], act_name="relu", inner=1.0, ds=[16, 32], R=4,
                      grid=[0.5, 0.25], budget_units=2.0)[0]
    assert sc.hits[16].shape == (2, 4, 2) and sc.m_final[32].shape == (2, 4)
    assert sc.budget > 0 and np.all(sc.scale > 0)


def test_every_confirmable_dayi2024_claim_declares_power_or_says_why_not():
    from verify.run.runner import _power_declared
    from verify.run.registry import all_claims

    for c in all_claims():
        if not c.id.startswith("dayi2024."):
            continue
        pw = _power_declared(c)
        if pw["status"] == "untested":
            assert "power (issue 24): untested" in c.notes.lower(), c.id
    ids = {c.id: c for c in all_claims() if c.id.startswith("dayi2024.")}
    for cid in ("dayi2024.thm1", "dayi2024.thm4", "dayi2024.thm5", "dayi2024.thm6", "dayi2024.thm7",
                "dayi2024.thm3", "dayi2024.thm8", "dayi2024.lemma1", "dayi2024.lemma2", "dayi2024.example1"):
        assert ids[cid].power, cid
