"""tahir2024 settings the source leaves open (issue 37): the law of c* in §4 (one declaration for every §4 claim), the
mu of Fig. 4(a)-(b), the pretraining alpha of Theorem 3.7's literal cross-check at L = 3, and
verify.kit.OverOpenSetting for checks that may leave a value undecided (no test: details[OPEN_VALUES_RUN])."""
import numpy as np
import pytest
import torch

from verify import api
from verify.claims.tahir2024 import common as C
from verify.claims.tahir2024 import relu as R
from verify.claims.tahir2024 import text_sim as TS
from verify.claims.tahir2024 import thm3_7, thm3_8
from verify.judge.composite import grid_points
from verify.kit import Check, Claim, Custom, Domain, Evidence, Kind, OpenSetting, OverOpenSetting, ordering_test
from verify.model.context import PROFILES


def test_one_declaration_of_the_law_of_c_star_for_every_section_4_claim():
    assert TS.MU_MONOTONE.check.setting is C.C_LAW
    assert R.KERNEL.check.settings == (R.KERNEL_MU, C.C_LAW)
    assert R.SCRATCH.check.setting is C.C_LAW and R.FIG4E.check.setting is C.C_LAW
    for claim in (R.KERNEL, R.SCRATCH, R.FIG4E):   # the power witnesses are wrapped the same way
        assert all(alt.check.settings == claim.check.settings for alt in claim.power), claim.id
    assert "no law of c* is given" in C.C_LAW.quote and "no mu is given" in R.KERNEL_MU.quote


@pytest.mark.parametrize("profile", ["quick", "standard", "full"])
def test_the_kernel_grid_runs_every_declared_mu_at_every_profile(profile):
    mus = {p["mu"] for p in grid_points(R.KERNEL.check, PROFILES[profile])}
    assert mus == set(R.KERNEL_MU.values) == {0.25, 0.5, 0.75}
    assert R._by_law([{"mu": 0.5}]) == [{"mu": 0.5, "c_law": "normal"}, {"mu": 0.5, "c_law": "ones"}]


def test_c_star_equal_to_one_keeps_the_draws_of_the_features():
    ctx = api.make_context("quick", 0, progress=False)
    p = dict(d=6, m_star=4, mu=0.5)
    out = {}
    for law in C.C_LAW.values:
        g = torch.Generator().manual_seed(3)
        out[law] = R._teachers(2, {**p, "c_law": law}, g, ctx)
    (Wn, cn, Wsn, _), (Wo, co, Wso, cso) = out["normal"], out["ones"]
    assert torch.equal(Wn, Wo) and torch.equal(Wsn, Wso)
    assert bool((co == 1).all()) and bool((cso == 1).all()) and not bool((cn == 1).all())
    with pytest.raises(ValueError, match="c_law"):
        R._teachers(1, {**p, "c_law": "signs"}, torch.Generator().manual_seed(0), ctx)


def test_the_normal_law_keeps_the_stream_of_the_point_before_issue_37():
    ctx = api.make_context("quick", 0, progress=False)
    p = dict(d=8, m=80, m_star=8, mu=0.5)
    _, s_old = ctx.generator(R.KERNEL.id, "instance", "d=8, m=80, m_star=8, mu=0.5")
    assert R._generator(R.KERNEL, ctx, {**p, "c_law": "normal"})[1] == s_old
    assert R._generator(R.KERNEL, ctx, {**p, "c_law": "ones"})[1] != s_old


def test_thm37_runs_the_literal_cross_check_at_every_declared_alpha_at_depth_3():
    parts = thm3_7.THM37.check.parts
    open_part = [p for p in parts if isinstance(p, OverOpenSetting)]
    assert len(open_part) == 1 and open_part[0].setting is C.LITERAL_ALPHA_L3
    assert {1e-2, 1e-5} <= set(C.LITERAL_ALPHA_L3.values)            # the value used before, D.1's value
    assert "no alpha is given for L = 3" in C.LITERAL_ALPHA_L3.quote
    # thm3.8.finite's ridge cross-check keeps its (L, alpha) pairs (alpha does not matter there)
    assert C.LITERAL_DEPTH_ALPHAS == ((2, 1e-4), (3, 1e-2))
    assert not any(isinstance(p, OverOpenSetting) for p in getattr(thm3_8.THM38_FINITE.check, "parts", ()))


# ---------------------------------------------------------------- values run without a test
_S = OpenSetting("law", ("a", "b"), "a test law", "no law is given")
_CLAIM = Claim(id="tahir2024.test.open_run", kind=Kind.ORDERING, source=C.src("test"), statement="x", assumptions="",
               domain=Domain(()), check=None)


def _wrapped(outcome: dict):
    """A check running law a and b: 'holds' (a clear ordering), 'fails' (a clear reversal), 'undecided' (no test,
    an undecided check, as a run stopped at a step cap), 'absent' (not run at all)."""
    def fn(claim, ctx):
        ev = Evidence()
        rng = np.random.default_rng(0)
        for law, what in outcome.items():
            if what == "absent":
                continue
            ev.details.setdefault(C.RAN, []).append({"law": law})
            if what == "undecided":
                ev.checks.append(Check(f"law {law}", None, "undecided: stopped at the step cap", refutes=False))
                continue
            x = rng.normal(-1.0 if what == "holds" else 1.0, 0.1, 50)
            ev.tests.append(ordering_test(f"x < 0, law {law}", {"law": law}, x, seed=0))
        return ev
    return Custom(fn)


def _run(outcome):
    return OverOpenSetting(_wrapped(outcome), _S).run(_CLAIM, api.make_context("quick", 0, progress=False))


def test_open_run_a_value_left_undecided_is_not_decided_not_missing():
    ev = _run({"a": "holds", "b": "undecided"})
    rule = [c for c in ev.checks if "over its declared range" in c.name]
    assert len(rule) == 1 and rule[0].passed is None and rule[0].extra["not decided at"] == ["law = b"]
    assert ev.details["open settings"][0]["values"] == ["a", "b"]
    assert C.RAN not in ev.details
    ev = _run({"a": "undecided", "b": "undecided"})     # nothing decided anywhere: no rule check, no error
    assert not ev.tests and not [c for c in ev.checks if "over its declared range" in c.name]


def test_open_run_fails_at_one_value_is_inconclusive_never_refuted():
    ev = _run({"a": "holds", "b": "fails"})
    rule = [c for c in ev.checks if "over its declared range" in c.name]
    assert len(rule) == 1 and rule[0].passed is None and not rule[0].refutes
    assert rule[0].extra["fails at"] == ["law = b"] and [t.params["law"] for t in ev.tests] == ["a"]
    ev = _run({"a": "fails", "b": "fails"})             # fails at every value: the tests go to the judge as they are
    assert len(ev.tests) == 2 and not [c for c in ev.checks if "over its declared range" in c.name]


def test_open_run_a_declared_value_not_run_is_an_error():
    with pytest.raises(ValueError, match="does not run law = b"):
        _run({"a": "holds", "b": "absent"})
