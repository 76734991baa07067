"""dayi2024.thm3 / thm8: the figure of each claim is titled with its own theorem and draws the verdict's quantity
(T/u at the theorem's step) beside the step-tuned extra; the power witnesses are judged on the verdict's own
prescribed-step runs (not on the step-tuned extra, whose window slope could not exclude them)."""
from __future__ import annotations

import types

import numpy as np

from verify.claims.dayi2024 import common as CM
from verify.claims.dayi2024 import prescribed as PR
from verify.claims.dayi2024 import thm3 as T8
from verify.kit import Rate
from verify.run.runner import make_context


def test_witnesses_are_rates_on_the_verdicts_runs():
    rate = T8._THM8_RATE
    for alt in T8._THM8_POWER:
        r = alt.check
        assert isinstance(r, Rate) and r.sampler is PR.sample and r.bound == "theta"
        # the witnesses run at kappa = 1/2 (the runs of every profile); the verdict's d sweeps also at kappa = 1/4
        assert list(r.held["d"]) == [h for h in rate.held["d"]["standard"] if h["kappa"] == CM.KAPPA]
        assert list(r.held["d"]) == list(rate.held["d"]["quick"]) and r.sweeps["d"] is rate.sweeps["d"]
        assert r.trials is PR.RUNS
    assert sorted(a.check.exponents["d"] for a in T8._THM8_POWER) == [1.5, 2.0]


def test_each_claim_has_its_own_figure_title(monkeypatch):
    """No simulation: PR.sample and the step-tuned runs are replaced by fixed numbers."""
    ctx = make_context("standard", 0, progress=False)
    ds = [32, 64, 128]

    def fake_sample(points, trials, gen, ctx):
        return np.array([[0.4 * float(p["d"]) for p in points]] * trials)

    ft = types.SimpleNamespace(ds=ds, scale=np.full(4, 0.5), lam=np.full(4, 0.2))
    fits = {w: {"exponent": 2.0, "ci": (1.8, 2.2), "tstar": [0.1 * d * d for d in ds]} for w in (0, 1)}
    monkeypatch.setattr(PR, "sample", fake_sample)
    monkeypatch.setattr(T8, "_thm8_runs", lambda ctx, p: (ft, fits, 0, None))
    claims = {c.id: c for c in T8.CLAIMS}
    titles = {}
    for cid, name in (("dayi2024.thm8", "Thm 8"), ("dayi2024.thm3", "Thm 3")):
        fig_check = claims[cid].check.wrapped.parts[-1]   # OverOpenSetting(AllOf)
        ev = fig_check.fn(claims[cid], ctx, [{"k": 5, "p": 3}])
        (fig,) = ev.figures
        titles[cid] = fig["title"]
        assert fig["title"].startswith(name + (":" if name == "Thm 8" else " (informal statement of Thm 8"))
        arms = {s["group"] for s in fig["series"]}
        assert any("theorem's step" in a for a in arms) and any("best grid step" in a for a in arms)
        # unit = 1/(kappa 0.5 0.2) = 20: T*/unit over the judged mean 0.4 d = 0.1 d^2/20/(0.4 d) = d/80
        ratio = ev.details["figure: best-step count over the count at the theorem's step (sigma(r.) = h_3)"]
        assert abs(ratio["weak (m >= 1/2)"]["64"] - 64 / 80) < 1e-12
    assert titles["dayi2024.thm3"] != titles["dayi2024.thm8"]
