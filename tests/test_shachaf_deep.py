"""Tests of the §5 pieces of 000_efaf07e323d59f0e.txt added to numerics/deep_linear.py (frozen first layers,
exactly 0-balanced init, end states (5), (6)) and derivations/deep_linear.py (the fixed point of (5))."""
from __future__ import annotations

import math

import mpmath as mp
import pytest
import sympy as sp
import torch

import numerics.deep_linear as DL
from derivations import deep_linear as DD
from numerics.sampling import gaussian_design, noisy_labels, unit_vectors
from _deep_linear_fixtures import gen, one_thread  # noqa: F401  (autouse fixture)

F64 = torch.float64


def _data(B, d, n, g, scale_T=2.0, sigma=0.0):
    bs = unit_vectors(B, d, g)
    bt = scale_T * unit_vectors(B, d, g)
    X = gaussian_design(B, n, d, g)
    return bs, bt, X, noisy_labels(X, bt, sigma, g)


@pytest.mark.parametrize("L", [2, 3, 5])
def test_exactly_balanced_init(L):
    Ws = DL.init_balanced_rank_one(4, 7, L, 0.7, gen(0))
    assert float(DL.balancedness_error(Ws).max()) < 1e-14
    assert float(DL.balancedness_error(DL.init_weights(4, 7, L, 0.1, gen(1))).min()) > 1e-3


def test_freeze_zero_is_the_default_and_frozen_layers_do_not_move():
    g = gen(2)
    bs, bt, X, y = _data(3, 6, 3, g)
    pre = DL.pretrain_from(DL.init_weights(3, 6, 3, 0.05, g), bs)
    a = DL.train(pre.Ws, "empirical", X=X, y=y, max_steps=50, tol=None)
    b = DL.train(pre.Ws, "empirical", X=X, y=y, max_steps=50, tol=None, freeze=0)
    assert all(torch.equal(u, v) for u, v in zip(a.Ws, b.Ws))
    c = DL.train(pre.Ws, "empirical", X=X, y=y, max_steps=50, tol=None, freeze=2)
    assert torch.equal(c.Ws[0], pre.Ws[0]) and torch.equal(c.Ws[1], pre.Ws[1])
    assert not torch.equal(c.Ws[2], pre.Ws[2])
    with pytest.raises(ValueError):
        DL.train(pre.Ws, "empirical", X=X, y=y, freeze=3)


def test_frozen_first_layer_from_exact_balance_gives_c_theta_S():
    g = gen(3)
    bs, bt, X, y = _data(4, 6, 3, g)
    pre = DL.pretrain_from(DL.init_balanced_rank_one(4, 6, 3, 0.5, g), bs, max_move=1e-2)
    for k in (1, 2):
        fr = DL.finetune_frozen(pre, X, y, k)
        assert bool(fr.ok.all())
        beta = fr.beta
        z = torch.einsum("bnd,bd->bn", X, bs)
        c = (z * y).sum(-1) / z.square().sum(-1)
        assert float((beta - c.unsqueeze(-1) * bs).norm(dim=-1).max()) < 1e-6


@pytest.mark.parametrize("L", [2, 3])
def test_literal_gd_reaches_eq5(L):
    g = gen(10 + L)
    bs, bt, X, y = _data(4, 6, 2, g)
    pre = DL.pretrain_from(DL.init_balanced_rank_one(4, 6, L, 0.5, g), bs)
    ft = DL.finetune(pre, X, y)
    assert bool(ft.ok.all())
    e5 = DL.end_state_eq5(X, y, bs, L)
    assert float(((ft.beta - e5).norm(dim=-1) / e5.norm(dim=-1)).max()) < 5e-3
    e142 = DL.end_state_eq142(X, y, bs)
    assert float(((ft.beta - e142).norm(dim=-1) / e142.norm(dim=-1)).median()) > 1e-2


def test_eq5_is_our_derived_end_state_of_001_and_tends_to_eq6():
    g = gen(4)
    bs, bt, X, y = _data(20, 9, 4, g, sigma=0.3)
    for L in (2, 3, 7):
        assert torch.allclose(DL.end_state_eq5(X, y, bs, L), DL.finetune_end_state_balanced(X, y, bs, L), atol=1e-10)
    e6 = DL.end_state_eq6(X, y, bs)
    errs = [float((DL.end_state_eq5(X, y, bs, L) - e6).norm(dim=-1).max()) for L in (10, 100, 1000)]
    assert errs[2] < errs[1] < errs[0] and errs[2] < 0.2 * errs[0]
    # L = 1: eq. (1)
    from numerics.linear_finetune import end_state_eq1
    Xn = gaussian_design(5, 3, 9, g)
    bt2 = unit_vectors(5, 9, g)
    assert torch.allclose(DL.end_state_eq5(Xn, noisy_labels(Xn, bt2, 0.0, g), bs[:5], 1),
                          end_state_eq1(Xn, bs[:5], bt2), atol=1e-10)


def test_fixed_point_torch_vs_mpmath_and_the_polynomial():
    import sympy as sp

    p = sp.lambdify((DD.x_, DD.sS, DD.cperp2, DD.bpar2, DD.L), DD.shachaf_eq5_scalar_polynomial(), modules="mpmath")
    for (c2, b2, s2, L) in [(0.5, 0.3, 1.0, 3), (0.9, 2.0, 1.0, 8), (2.0, 0.01, 4.0, 2)]:
        k_mp = DD.shachaf_eq5_k_mp(c2, b2, s2, L)
        k_t = float(DD.shachaf_eq5_k(torch.tensor([c2], dtype=F64), torch.tensor([b2], dtype=F64),
                                     torch.tensor([s2], dtype=F64), L)[0])
        assert abs(k_t - float(k_mp)) < 1e-10
        with mp.workdps(40):
            x = k_mp ** (mp.mpf(2) / (L - 1))
            assert abs(p(x, mp.sqrt(s2), c2, b2, L)) < mp.mpf(10) ** -30


@pytest.mark.parametrize("L, n, sigma", [(2, 4, 0.0), (3, 4, 2.0), (6, 4, 0.0), (3, 30, 0.0)])
def test_thm52_end_state_from_its_stated_form(L, n, sigma):
    """shachaf2021.thm5.2 builds (5) from its stated form (the squared norm of (5)'s right side in r = ||beta||,
    read through stated_value): with the stated form it is numerics' (5); with the factor set to 1
    (stated form c_perp2 + b_par2) it is 001's (142)."""
    import dataclasses

    from numerics.least_squares import min_norm_solve
    from verify.claims.shachaf2021 import deep

    claim = next(c for c in deep.CLAIMS if c.id == "shachaf2021.thm5.2")
    bs, bt, X, y = _data(16, 10, n, gen(7), sigma=sigma)
    e5 = DL.end_state_eq5(X, y, bs, L)
    r = {"L": L, "beta": e5, "xpy": min_norm_solve(X, y), "perp": DL.row_space_split(X, bs)[1],
         "sS2": bs.square().sum(-1), "r_eq5": e5.norm(dim=-1)}
    d, why = deep._stated_eq5_distance(claim, r)
    assert why == "" and float(d.max()) < 1e-13
    e142 = DL.end_state_eq142(X, y, bs)
    d142, _ = deep._stated_eq5_distance(dataclasses.replace(claim, stated=DD.cperp2 + DD.bpar2), r)
    want = ((e5 - e142).norm(dim=-1) / e142.norm(dim=-1)).numpy()
    assert abs(d142 - want).max() < 1e-12
    assert (n > 10) or want.max() > 1e-3   # n < d: (142) differs from (5) (n > d: both are X^+ y)


def test_eq7_check_reads_its_stated_form():
    """shachaf2021.eq7 compares R of the end state (6) with (7) as stated (derivations.deep_linear.shachaf_eq7_stated,
    the square norm written out in the scalars of a draw), draw by draw: it passes with (7) and fails with k -> k^2."""
    import dataclasses

    from verify import api
    from verify.claims.shachaf2021 import risk
    from verify.judge.stated import reads

    claim = next(c for c in risk.CLAIMS if c.id == "shachaf2021.eq7")
    assert claim.stated == DD.shachaf_eq7_stated()
    ctx = api.make_context("quick", 0, progress=False)
    with reads() as rec:
        ev = risk._eq7_check(claim, ctx)
    assert claim.id in rec.ids and ev.checks[0].passed
    k = DD.p_T / DD.p_S
    bad = dataclasses.replace(claim, stated=DD.Q_TT - 2 * k**2 * DD.Q_TS + k**4 * DD.Q_SS)
    assert risk._eq7_check(bad, ctx).checks[0].passed is False


def test_over_open_setting_verdict_over_the_range():
    """Issue 24: the tests at each value of an open setting (fig3's budget / scale, fig2a's d, ...) give the verdict
    that holds over the range: all hold or all fail -> the tests as they are; mixed -> an undecided check naming the
    values and the failing value's tests out of the judged ones (never refuted for a setting the source left open)."""
    import numpy as np
    from verify.judge.orders import ordering_test
    from verify.judge.open_settings import over_open_setting
    rng = np.random.default_rng(0)
    holds = lambda: ordering_test("holds", {}, rng.normal(-1.0, 0.1, 50))   # noqa: E731
    fails = lambda: ordering_test("fails", {}, rng.normal(+1.0, 0.1, 50))   # noqa: E731
    open_ = lambda: ordering_test("open", {}, rng.normal(0.0, 1.0, 5))      # noqa: E731
    tests, checks = over_open_setting("b", {"b=1": [holds()], "b=2": [holds()]})
    assert len(tests) == 2 and not checks
    tests, checks = over_open_setting("b", {"b=1": [fails()], "b=2": [fails()]})
    assert len(tests) == 2 and not checks                                   # fails everywhere: the judge refutes
    tests, checks = over_open_setting("b", {"b=1": [holds()], "b=2": [fails(), holds()]})
    assert [t.label for t in tests] == ["holds"] and len(checks) == 1
    c = checks[0]
    assert c.passed is None and c.refutes is False and "b=2" in c.detail and "b=1" in c.detail
    tests, checks = over_open_setting("b", {"b=1": [holds()], "b=2": [open_()]})
    assert len(tests) == 2 and checks[0].passed is None and checks[0].extra["not decided at"] == ["b=2"]


def test_over_open_setting_fails_somewhere_undecided_elsewhere_is_not_a_refutation():
    """Failing at one value of an open setting and not decided at the other is not 'fails at every value'."""
    import numpy as np
    from verify.judge.orders import ordering_test
    from verify.judge.open_settings import over_open_setting
    rng = np.random.default_rng(1)
    fail = ordering_test("fails", {}, rng.normal(+1.0, 0.1, 50))
    undecided = ordering_test("open", {}, np.array([-0.5, 0.5, -0.4, 0.45, 0.0]))
    tests, checks = over_open_setting("b", {"b=1": [fail], "b=2": [undecided]})
    assert [t.label for t in tests] == ["open"] and checks[0].passed is None and not checks[0].refutes
    assert checks[0].extra["fails at"] == ["b=1"] and checks[0].extra["not decided at"] == ["b=2"]


def test_a_declared_open_setting_is_judged_over_its_range_by_construction():
    """OverOpenSetting: the wrapped check's tests grouped by the declared setting and judged by the rule (mixed ->
    inconclusive, never refuted); a declared value the grid does not run, or a test without the setting, is an error
    of the claim; the declaration and its quote are recorded for the reports."""
    import numpy as np
    from types import SimpleNamespace
    from verify.judge.orders import ordering_test
    from verify.kit import Custom, Evidence, OpenSetting, OverOpenSetting
    from verify.model.claim import Verdict
    from verify.model.evidence import decide
    rng = np.random.default_rng(2)
    S = OpenSetting("n/d", (0.1, 0.5), "the sample size", "'(b) ...' (no n)")

    def check(fracs, sign=lambda f: -1.0 if f > 0.2 else 1.0, key="n/d"):
        return Custom(lambda claim, ctx: Evidence(tests=[
            ordering_test(f"f={f}", {key: f}, rng.normal(sign(f), 0.1, 50)) for f in fracs]))
    claim, ctx = SimpleNamespace(id="x.fig"), SimpleNamespace(at=None)
    ev = OverOpenSetting(check((0.1, 0.5)), S).run(claim, ctx)
    assert decide(ev)[0] is Verdict.INCONCLUSIVE and ev.details["open settings"][0]["quote"] == "'(b) ...' (no n)"
    assert "n/d = 0.5" in ev.checks[0].detail and "n/d = 0.1" in ev.checks[0].detail
    ev = OverOpenSetting(check((0.1, 0.5), sign=lambda f: 1.0), S).run(claim, ctx)
    assert not ev.checks and len(ev.tests) == 2          # fails at every value: the judge refutes as for one value
    with pytest.raises(ValueError, match="does not run n/d = 0.5"):
        OverOpenSetting(check((0.1,)), S).run(claim, ctx)
    with pytest.raises(ValueError, match="does not carry the open setting"):
        OverOpenSetting(check((0.1, 0.5), key="frac"), S).run(claim, ctx)



def test_several_open_settings_are_crossed():
    """OverOpenSetting over two settings: the tests are grouped by the combination of their values, every combination
    must be run, and the evidence names each setting with its quote."""
    import numpy as np
    from types import SimpleNamespace
    from verify.judge.orders import ordering_test
    from verify.kit import Custom, Evidence, OpenSetting, OverOpenSetting
    from verify.model.claim import Verdict
    from verify.model.evidence import decide
    rng = np.random.default_rng(3)
    A = OpenSetting("angle", (15, 45), "the angle", "'we compare ...' (no angle)")
    B = OpenSetting("n/d", (0.25, 0.5), "the sample size", "'(b) ...' (no n)")

    def check(points, sign):
        return Custom(lambda claim, ctx: Evidence(tests=[
            ordering_test(f"{a},{f}", {"angle": a, "n/d": f}, rng.normal(sign(a, f), 0.1, 50)) for a, f in points]))
    claim, ctx = SimpleNamespace(id="x.fig"), SimpleNamespace(at=None)
    grid = [(a, f) for a in (15, 45) for f in (0.25, 0.5)]
    ev = OverOpenSetting(check(grid, lambda a, f: -1.0 if (a, f) != (45, 0.5) else 1.0), (A, B)).run(claim, ctx)
    assert decide(ev)[0] is Verdict.INCONCLUSIVE and "angle = 45, n/d = 0.5" in ev.checks[0].extra["fails at"]
    assert [r["param"] for r in ev.details["open settings"]] == ["angle", "n/d"]
    ev = OverOpenSetting(check(grid, lambda a, f: -1.0), (A, B)).run(claim, ctx)
    assert not ev.checks and len(ev.tests) == 4          # holds at every combination: the judge decides as for one
    with pytest.raises(ValueError, match="does not run angle = 45, n/d = 0.5"):
        OverOpenSetting(check(grid[:3], lambda a, f: -1.0), (A, B)).run(claim, ctx)


def test_an_open_setting_groups_the_exact_checks_that_carry_it():
    """A deterministic check carrying the setting in extra['params'] is judged by the same rule: failing at one
    value and passing at the other is inconclusive (never refuted); failing at every value refutes; a check without
    params does not depend on the setting and is kept as it is."""
    from types import SimpleNamespace
    from verify.kit import Check, Custom, Evidence, OpenSetting, OverOpenSetting
    from verify.model.claim import Verdict
    from verify.model.evidence import decide
    W = OpenSetting("m", (6, 64), "the width", "'... small model ...' (no width)")

    def check(ok):
        return Custom(lambda claim, ctx: Evidence(checks=[Check("free", True, "setting-free")] + [
            Check(f"monotone at m={m}", ok(m), "rises" if not ok(m) else "falls", extra={"params": {"m": m}})
            for m in (6, 64)]))
    claim, ctx = SimpleNamespace(id="x.sim"), SimpleNamespace(at=None)
    ev = OverOpenSetting(check(lambda m: m == 64), W).run(claim, ctx)
    assert decide(ev)[0] is Verdict.INCONCLUSIVE and ev.checks[1].extra["fails at"] == ["m = 6"]
    assert [c.name for c in ev.checks[::2]] == ["free", "monotone at m=64"]
    assert ev.checks[3].name == "monotone at m=6" and ev.checks[3].passed is None and not ev.checks[3].refutes
    assert "fails at m = 6 (monotone at m=6: rises)" in decide(ev)[1]
    ev = OverOpenSetting(check(lambda m: False), W).run(claim, ctx)
    assert decide(ev)[0] is Verdict.REFUTED
    ev = OverOpenSetting(check(lambda m: True), W).run(claim, ctx)
    assert decide(ev)[0] is Verdict.CONFIRMED

def test_fig3_idealised_means_match_their_exact_forms():
    """shachaf2021.fig3's idealisation: the frozen (c* theta_S) and vanilla (X^+ y) risks of the closed-form end states
    average to sin^2 theta (n - 1)/(n - 2) and (d - n)/d (derivations), within 5 standard errors; R_frozen >= sin^2."""
    import math

    import numpy as np

    from verify.claims.shachaf2021.freeze import _F3_MEANS, ideal_risks
    cos_ = math.cos(math.pi / 4)
    for d, n in ((12, 5), (20, 9)):
        R = ideal_risks(6000, d, n, cos_, torch.Generator().manual_seed(d + n))
        assert R["frozen"].min() >= (1 - cos_**2) - 1e-12
        for k in ("frozen", "vanilla"):
            x = R[k]
            assert abs(x.mean() - _F3_MEANS[k](n, d, cos_)) < 5 * x.std() / math.sqrt(len(x)) + 1e-12, (k, d, n)
        assert np.isfinite(R["finetune"]).all()


def test_fig3_limit_conditions():
    """In the proportional limit eq. (5)'s factor is 1 and the orderings hold iff gamma > (1 - cos)/2 and cos > 1/2."""
    lim = DD.shachaf_fig3_limit_conditions()
    g, c = DD.gamma, DD.cos_f3
    assert lim["k polynomial at x = 1"] == 0
    assert sp.simplify(lim["finetune - frozen"] - (c - 1) * (c + 2 * g - 1)) == 0
    assert sp.simplify(lim["finetune - vanilla"] - (2 * c - 1) * (g - 1)) == 0


def test_fig3_angle_is_declared_open_and_45_degrees_reproduces():
    """Issue 37: fig3, thm5.5.approx and sec5.2.workaround declare the angle between theta_S and theta_T open (15, 30
    and 45 degrees; the source gives no task relation); 45 degrees keeps cos(pi/4) exactly, so the runs before
    reproduce; the workaround also declares its two scales open."""
    import math

    from verify.claims.shachaf2021 import freeze as F
    assert F.ANGLES3 == (15, 30, 45) and F.angle_cos(45) == F.COS == math.cos(math.pi / 4)
    assert abs(F.angle_cos(30) - math.sqrt(3) / 2) < 1e-15 and F.FIG3_ANGLE.values == F.ANGLES3
    claims = {c.id: c for c in F.CLAIMS}
    assert F.FIG3_ANGLE in claims["shachaf2021.thm5.5.approx"].check.settings
    assert F.FIG3_ANGLE in claims["shachaf2021.sec5.2.workaround"].check.settings
    assert {s.param for s in F.WORK_SETTINGS} == {"alpha_small", "alpha_large", "angle", "budget"}
    assert F.ALPHA3 in F.WORK_SMALL.values and 0.1 in F.WORK_LARGE.values    # the scales compared before
    for alt in claims["shachaf2021.fig3"].power + claims["shachaf2021.thm5.5.approx"].power:
        assert F.FIG3_ANGLE in alt.check.settings                           # power witnesses wrapped the same way


def test_open_settings_per_profile():
    """OverOpenSetting with settings per profile (fig3's alpha, fig2b's d, dayi2024's k and d): judged over the
    profile's declared values, the declaration recorded; a value that fails -> inconclusive; none declared at a
    profile -> the wrapped check as it is."""
    from types import SimpleNamespace

    import numpy as np

    from verify.judge.orders import ordering_test
    from verify.kit import Custom, Evidence, OpenSetting, OverOpenSetting
    from verify.model.claim import Verdict
    from verify.model.context import PROFILES
    from verify.model.evidence import decide
    rng = np.random.default_rng(3)
    vals = {"quick": (1, 2), "standard": (1, 2, 3)}

    def fn(claim, ctx, points):
        return Evidence(tests=[ordering_test(f"a={a}, n={p['n']}", {"a": a, "n": p["n"]},
                                             rng.normal(-1.0 if a < 3 else 1.0, 0.1, 50))
                               for a in vals[ctx.profile.name] for p in points])
    chk = OverOpenSetting(Custom(fn, points=[{"n": 1}, {"n": 2}]),
                          {name: (OpenSetting("a", v, "the setting a", "'...'"),) for name, v in vals.items()})
    claim = SimpleNamespace(id="x.y")
    ev = chk.run(claim, SimpleNamespace(at=None, profile=PROFILES["quick"]))
    assert not ev.checks and len(ev.tests) == 4 and ev.details["open settings"][0]["values"] == [1, 2]
    ev = chk.run(claim, SimpleNamespace(at=None, profile=PROFILES["standard"]))
    assert decide(ev)[0] is Verdict.INCONCLUSIVE and ev.checks[-1].extra["fails at"] == ["a = 3"]
    none = OverOpenSetting(Custom(fn, points=[{"n": 1}]), {"quick": (), "standard": ()})
    ev = none.run(claim, SimpleNamespace(at=None, profile=PROFILES["quick"]))
    assert "open settings" not in ev.details and len(ev.tests) == 2
