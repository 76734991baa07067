"""dayi2024, issue 37 (settings a source leaves open, by the model): §4's d and k and Lemma 2's separation are declared
open (verify.kit.OpenSetting, quoting the extracted line whose values are missing) and judged over their range; the
step constants kappa and alpha are fixed and the notes say so."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps


def _claims():
    from verify.run.registry import all_claims
    return {c.id: c for c in all_claims() if c.id.startswith("dayi2024.")}


def test_figures_declare_their_lost_d_and_k_open_at_standard():
    from verify.claims.dayi2024 import figopen as O
    from verify.kit import OverOpenSetting
    from verify.model.context import pick
    from verify.run.runner import make_context

    cl = _claims()
    std, quick = make_context("standard", 0, progress=False), make_context("quick", 0, progress=False)
    for cid, params in (("dayi2024.fig1", ["k", "d"]), ("dayi2024.fig2", ["k", "d", "xi"]),
                        ("dayi2024.fig2b", ["k", "d", "xi"])):
        chk = cl[cid].check
        assert isinstance(chk, OverOpenSetting), cid
        ss = chk.settings_at(std.profile)
        assert [s.param for s in ss] == params and chk.settings_at(quick.profile) == ()
        assert all("missing from the extract" in s.quote for s in ss)
        # the power witnesses are judged over the same settings
        assert all(isinstance(a.check, OverOpenSetting) for a in cl[cid].power), cid
    assert O.K_FIGS.values == (4, 8) and O.D_FIG1_OPEN.values == (32, 64)
    assert pick(std.profile, O.FIG1_DS) == (32, 64) and pick(quick.profile, O.FIG1_DS) == (32,)
    # Fig. 2's d: open at standard as Fig. 1's; quick runs the d it ran before (figures.D) only
    from verify.claims.dayi2024 import figures as F
    assert O.D_FIG2_OPEN.values == (32, 64) and "the same as above" in O.D_FIG2_OPEN.quote
    assert pick(std.profile, O.FIG2_DS) == (32, 64) and pick(quick.profile, O.FIG2_DS) == (pick(quick.profile, F.D),)
    assert ("dayi2024.fig2", "dayi2024.fig2b") in F.RUN_TOGETHER
    # Fig. 2's xi: open at standard (1 and 2), quick runs xi = 1 only
    assert O.XI_FIG2_OPEN.values == (1.0, 2.0) and pick(quick.profile, O.FIG2_XIS) == (1.0,)
    assert "the scaling" in O.XI_FIG2_OPEN.quote


def test_fig2_step_follows_theorem_7_across_xi():
    """Fig. 2 at xi = 2 runs at the step and budget Theorem 7's prescription eta = kappa lambda/(C d), T ~ C d/(kappa
    lambda^2) gives relative to xi = 1 (figopen.thm7_step_scales): exactly our xi = 1 setting at xi = 1 (no draw), a
    smaller step and a longer budget at xi = 2 (lambda/C falls about as xi^-2.3 for ReLU), the same value for the same
    seed (memoised), and common random numbers across xi (the ratio at xi = 1 against itself is 1)."""
    import torch
    from verify.claims.dayi2024 import figopen as O

    g = torch.Generator().manual_seed(3)
    assert O.thm7_step_scales(g, 4, 1.0) == (1.0, 1.0)
    eta_x, steps_x = O.thm7_step_scales(g, 4, 2.0)
    assert 0.1 < eta_x < 0.3 and 1.2 < steps_x < 2.5
    assert O.thm7_step_scales(torch.Generator().manual_seed(3), 4, 2.0) == (eta_x, steps_x)
    assert O._step_scales(torch.Generator().manual_seed(3), 4, 1.0, 1.0) == (1.0, 1.0)


def test_fig2_runs_keep_their_keys_at_the_d_of_before(monkeypatch):
    """Issue 37: fig2 (and fig2b, which reads its LoRA runs) at every d of FIG2_DS; at figures.D the run keys (hence
    the seeds and numbers) are those of before the d was declared open, the other d keyed by d too."""
    from verify.claims.dayi2024 import figures as F
    from verify.model.context import pick
    from verify.run.runner import make_context

    seen = []
    monkeypatch.setattr(F, "_run", lambda ctx, key, **kw: seen.append((key, pick(ctx.profile, kw["dims"]),
                                                                       kw["linearized"], kw["eta0"],
                                                                       kw["steps_mult"])) or {"seed": 0})
    monkeypatch.setattr(F, "thm7_step_scales", lambda gen, k, xi: (1.0, 1.0) if xi == 1.0 else (0.25, 2.0))
    for prof, want in (("standard", [("fig2 lora k=4", 32), ("fig2 lin k=4", 32), ("fig2 lora k=4 xi=2", 32),
                                      ("fig2 lin k=4 xi=2", 32), ("fig2 lora k=4 d=64", 64),
                                      ("fig2 lin k=4 d=64", 64), ("fig2 lora k=4 d=64 xi=2", 64),
                                      ("fig2 lin k=4 d=64 xi=2", 64)]),
                       ("quick", [("fig2 lora k=4", 16), ("fig2 lin k=4", 16)])):
        ctx, seen[:] = make_context(prof, 0, progress=False), []
        for _, d, xi in F._fig2_grid(ctx, [{"k": 4}]):
            for lin in (False, True):
                tag, _ = F._fig2_lora(ctx, 4, d, xi, linearized=lin)
                assert tag == ("k=4" + ("" if d == pick(ctx.profile, F.D) else f" d={d}")
                               + ("" if xi == 1.0 else f" xi={xi:g}"))
        assert [(k, d) for k, d, *_ in seen] == want and [x[2] for x in seen] == [False, True] * (len(want) // 2)
        # xi = 1: the step and budget of before; xi = 2: moved by thm7_step_scales
        assert {(x[3], x[4]) for x in seen if "xi=" not in x[0]} == {(0.2, 1.5)}
        assert {(x[3], x[4]) for x in seen if "xi=" in x[0]} <= {(0.05, 3.0)}


def _fake(fail, check=False):
    """A figure check whose ordering test per (k, d) rejects where ``fail(k, d, factor)``, with (``check``) a refuting
    check per k failing where ``fail(k, None, factor)`` (as dayi2024.fig2's loss floor)."""
    from verify.claims.dayi2024 import figures as F
    from verify.model.evidence import Check, Evidence, StatTest

    def fn(claim, ctx, points):
        ev = Evidence(seeds=[1])
        for p in points:
            k = int(p["k"])
            for d in (32, 64):
                est = 0.3 if fail(k, d, F._eta()) else -0.3
                ev.tests.append(StatTest(label=f"k={k}, d={d}", params={"k": k, "d": d}, predicted=0.0, estimate=est,
                                         stderr=0.05, trials=96, tol=0.0, pvalue=float(sps.norm.sf(est / 0.05)),
                                         ci=(est - 0.1, est + 0.1), sided="upper"))
            if check:
                ev.checks.append(Check(f"k={k}: floor", not fail(k, None, F._eta()), "", extra={"params": {"k": k}}))
        return ev
    return fn


def test_open_k_and_d_compose_with_the_step_range():
    """figopen's docstring: the step range (_over_steps, intersection-union) inside, the open (k, d) outside: refuted
    only if the ordering fails at every (step, k, d); failing at one k (at every step) is inconclusive, never
    refuted; a refuting check failing at one k only is undecided."""
    from types import SimpleNamespace

    from verify.claims.dayi2024 import figopen as O
    from verify.claims.dayi2024 import figures as F
    from verify.kit import Custom, OverOpenSetting, per_profile
    from verify.model.claim import Verdict
    from verify.model.evidence import decide
    from verify.run.runner import make_context

    ctx = make_context("standard", 0, progress=False)
    claim = SimpleNamespace(id="dayi2024.x")
    pts = [{"k": 4}, {"k": 8}]

    def run(fail, sets=per_profile((), (O.K_FIGS, O.D_FIG1_OPEN)), check=False):
        return OverOpenSetting(Custom(F._over_steps(_fake(fail, check)), points=pts), sets).run(claim, ctx)

    ok = run(lambda k, d, f: False)        # holds everywhere: the rule adds nothing (the judge decides as for one)
    assert len(ok.tests) == 4 and all(c.passed for c in ok.checks) and decide(ok)[0] is not Verdict.REFUTED
    assert [r["param"] for r in ok.details["open settings"]] == ["k", "d"]
    one_k = run(lambda k, d, f: k == 8)
    assert decide(one_k)[0] is Verdict.INCONCLUSIVE
    assert not any(c.passed is False and c.refutes for c in one_k.checks)
    one_step = run(lambda k, d, f: k == 8 and f == 2.0)     # one k, one step factor only
    assert decide(one_step)[0] is Verdict.INCONCLUSIVE
    every = run(lambda k, d, f: True)      # fails at every (step, k, d): the tests go to the judge as for one value
    assert len(every.tests) == 4 and all(t.pvalue < 1e-6 for t in every.tests)
    assert not any("over its declared range" in c.name for c in every.checks)
    # a refuting check per k (as fig2's loss floor before its d was open), failing at one k only: undecided
    k_only = per_profile((), (O.K_FIGS,))
    floor = run(lambda k, d, f: d is None and k == 8, k_only, check=True)
    assert decide(floor)[0] is Verdict.INCONCLUSIVE and not any(c.passed is False and c.refutes for c in floor.checks)
    assert decide(run(lambda k, d, f: d is None, k_only, check=True))[0] is Verdict.REFUTED


def test_lemma2_runs_two_separated_grams_and_is_judged_over_them():
    from verify.claims.dayi2024 import common as CM
    from verify.claims.dayi2024 import conditions as C
    from verify.kit import OverOpenSetting
    from verify.judge.composite import grid_points
    from verify.run.runner import make_context

    for k in (5, 9, 15):
        G1, G3 = CM.gram_separated(k), CM.gram_correlated(k)
        assert np.allclose(np.diag(G3), 1) and np.allclose(G3, CM.gram_correlated(k))      # a fixed draw
        assert 0.2 <= np.abs(G1 - np.eye(k)).max() <= 0.45 and 0.7 <= np.abs(G3 - np.eye(k)).max() <= 0.8
        assert np.linalg.eigvalsh(G3).min() > 0                                           # k independent rows
    lemma2 = _claims()["dayi2024.lemma2"]
    assert isinstance(lemma2.check, OverOpenSetting) and lemma2.check.setting is C.LEMMA2_SEP
    assert "missing from the extracted text" in C.LEMMA2_SEP.quote
    pts = grid_points(lemma2.check, make_context("standard", 0, progress=False).profile)
    assert sorted({p["sep"] for p in pts}) == [1, 3] and len(pts) == 6
    assert all(isinstance(a.check, OverOpenSetting) for a in lemma2.power)
    with pytest.raises(KeyError):
        C._gram({"k": 5, "sep": 2})


def test_theorems_are_judged_over_kappa_alpha_and_the_gram():
    """kappa is open in every theorem (issue 37): the d sweeps run at kappa = 1/4 and 1/2 at standard (1/2 only at
    quick) and the claim is judged over both; alpha (xi = alpha sqrt(k)) is open in Thms 1/5 (crossed with kappa) and
    Lemma 1; the Gram of the separated rows in Thms 6/7 (crossed with kappa, the separated arm only)."""
    from verify.claims.dayi2024 import common as CM
    from verify.claims.dayi2024 import conditions as C
    from verify.claims.dayi2024 import prescribed as PR
    from verify.judge.composite import grid_points
    from verify.judge.open_settings import OverOpenSetting
    from verify.model.context import PROFILES

    cl = _claims()
    std, quick = PROFILES["standard"], PROFILES["quick"]
    for cid in ("dayi2024.thm1", "dayi2024.thm3", "dayi2024.thm4", "dayi2024.thm5", "dayi2024.thm6", "dayi2024.thm7",
                "dayi2024.thm8"):
        check = cl[cid].check
        opens = [check] if isinstance(check, OverOpenSetting) else [p for p in check.parts
                                                                      if isinstance(p, OverOpenSetting)]
        assert opens, cid
        for o in opens:
            assert PR.KAPPA_SETTING in o.settings_at(std) and not o.settings_at(quick), cid
        assert "judged over kappa" in cl[cid].notes and "kappa = 1/4" in cl[cid].notes, cid
        d_rates = [r for r in _rates(check) if "d" in r.held]
        assert {h["kappa"] for r in d_rates for h in r.held["d"]["standard"]} == {0.25, 0.5}, cid
        assert {h["kappa"] for r in d_rates for h in r.held["d"]["quick"]} == {0.5}, cid
        assert {h.get("alpha") for r in d_rates for h in r.held["d"]["quick"]} <= {None, 0.5}, cid
        assert not {h["sep"] for r in d_rates for h in r.held["d"]["quick"]} & {3}, cid
        settings = {s.param for o in opens for s in o.settings_at(std)}
        if cid in ("dayi2024.thm1", "dayi2024.thm5"):
            assert settings == {"kappa", "alpha"}, cid
            held = [h for r in d_rates for h in r.held["d"]["standard"]]
            # every declared (kappa, alpha) combination is run by every arm
            assert {(h["kappa"], h["alpha"]) for h in held} == {(k, a) for k in CM.KAPPAS for a in CM.ALPHAS}, cid
            assert "alpha = 1/4" in cl[cid].notes, cid
        if cid in ("dayi2024.thm6", "dayi2024.thm7"):
            assert settings == {"kappa", "sep"}, cid
            sep_open = [o for o in opens if PR.SEP_SETTING in o.settings_at(std)]
            held = [h for r in _rates(sep_open[0]) if "d" in r.held for h in r.held["d"]["standard"]]
            assert {(h["kappa"], h["sep"]) for h in held} == {(k, s) for k in CM.KAPPAS for s in (1, 3)}, cid
            assert "sep = 3" in cl[cid].notes, cid
    lemma1 = cl["dayi2024.lemma1"]
    pts = grid_points(lemma1.check, std)
    assert sorted((p["act"], p["alpha"]) for p in pts if "alpha" in p) == [(2, 0.25), (2, 0.5), (3, 0.25), (3, 0.5)]
    assert [p for p in grid_points(lemma1.check, quick) if "alpha" in p] == []
    assert C.LEMMA1_ALPHA.values == CM.ALPHAS and "missing from the extracted text" in C.LEMMA1_ALPHA.quote
    assert "alpha = 1/4" in lemma1.notes


def _rates(check) -> list:
    from verify.kit import AllOf, Rate

    if isinstance(check, Rate):
        return [check]
    if isinstance(check, AllOf):
        return [r for p in check.parts for r in _rates(p)]
    return _rates(check.wrapped) if hasattr(check, "wrapped") else []


def test_a_kappa_whose_sweeps_are_all_censored_counts_as_run_not_decided():
    """The theorems' Rates sit directly in OverOpenSetting (no OverKappa): a d sweep censored at one kappa gives an
    undecided check carrying its point, kappa included (verify.judge.rates.Rate), so that kappa is run and not
    decided, never an error of the grid."""
    from verify.claims.dayi2024 import prescribed as PR
    from verify.kit import Rate
    from verify.model.context import PROFILES

    class Ctx:
        profile, at = PROFILES["standard"], None

        def generator(self, *key):
            import torch
            return torch.Generator().manual_seed(0), 0

    def sample(points, trials, gen, ctx):
        return np.array([[np.inf if p["kappa"] == 0.25 else float(p["d"]) for p in points]] * trials)

    r = Rate(exponents={"d": 1}, sweeps={"d": [32, 64, 128]}, held={"d": [{"kappa": 0.25}, {"kappa": 0.5}]},
             sampler=sample, trials=8, name="prescribed")

    class Claim_:
        id = "dayi2024.synthetic"
    ev = PR.over_kappa(r).run(Claim_(), Ctx())
    rule = [c for c in ev.checks if "over its declared range" in c.name]
    assert len(rule) == 1 and rule[0].extra["not decided at"] == ["kappa = 0.25"], ev.checks
