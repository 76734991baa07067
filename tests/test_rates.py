"""verify.judge.rates.Rate: a stated order's exponent of every parameter it names (issue 36).

Synthetic samplers with known exponents: Q = d^a k^b times log-normal noise (common random numbers across a sweep).
The strategy confirms the right exponents, refutes a wrong one (of either parameter: a wrong exponent of k is seen
even when d's is right), and is inconclusive when the sizes are too close to separate or when runs are censored
(saying what would reach the regime).  Over every registered claim: a Rate leaves no named parameter unswept
without a reason.
"""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
import torch

from verify import api
from verify.judge import AllOf, Rate
from verify.judge.rates import log_allowance, stated_exponents, unswept
from verify.model.claim import Alternative, Claim, Domain, Kind, Param, Source, Verdict
from verify.model.evidence import decide, finalize
from verify.run.registry import builtin_claims

DOMAIN = Domain((Param("d", 1, 1e9), Param("k", 1, 1e9)))


def _sampler(a: float, b: float, noise: float = 0.2, censor_above: float = np.inf):
    """Q = d^a k^b exp(noise Z_trial + noise/4 Z_trial,point): a per-trial factor shared by the sweep, a small
    independent part; values above ``censor_above`` are censored (inf)."""
    def sample(points, trials, gen, ctx):
        z = torch.randn(trials, 1, generator=gen, dtype=torch.float64).numpy()
        e = torch.randn(trials, len(points), generator=gen, dtype=torch.float64).numpy()
        q = np.array([p["d"] ** a * p["k"] ** b for p in points])[None, :] * np.exp(noise * z + noise / 4 * e)
        return np.where(q > censor_above, np.inf, q)
    return sample


def _claim(rate: Rate) -> Claim:
    return Claim(id="tahir2024.synthetic.rate", kind=Kind.ASYMPTOTIC, source=Source("tahir2024", "synthetic"),
                 statement="", assumptions="", domain=DOMAIN, check=rate)


def _rate(sampler, exponents, *, ds=(16, 32, 64, 128, 256), ks=(2, 4, 8, 16), **kw) -> Rate:
    return Rate(exponents=exponents, sweeps={"d": list(ds), "k": list(ks)},
                held={"d": [{"k": 2}, {"k": 8}], "k": [{"d": 64}, {"d": 256}]}, sampler=sampler,
                **{"trials": 64, **kw})


def _verdict(rate: Rate):
    claim = _claim(rate)
    ev = rate.run(claim, api.make_context("quick", 0, progress=False))
    finalize([ev], api.ALPHA)
    return decide(ev), ev


def test_stated_exponents_from_a_monomial():
    d, k = sp.symbols("d k", positive=True)
    assert stated_exponents(3 * d * k ** 2 * sp.log(d) ** 2) == ({"d": 1.0, "k": 2.0}, {"d": 2})
    assert stated_exponents({"d": 1, "xi": 0}) == ({"d": 1.0, "xi": 0.0}, {})
    with pytest.raises(ValueError, match="not a power"):
        stated_exponents(d + k)


def test_log_allowance_is_the_slope_of_log_x():
    assert log_allowance([32, 64, 128], 1) == pytest.approx(0.243, abs=2e-3)
    assert log_allowance([32, 128], 0) == 0.0


@pytest.mark.parametrize("bound", ["upper", "theta"])
def test_right_exponents_are_confirmed(bound):
    (v, why), ev = _verdict(_rate(_sampler(1.0, 2.0), {"d": 1, "k": 2}, bound=bound))
    assert v is Verdict.CONFIRMED, why
    rows = ev.details["exponents"]
    assert {r["parameter"] for r in rows} == {"d", "k"} and len(rows) == 4   # each swept at two held values
    for r in rows:
        assert abs(r["estimated"] - r["stated"]) < 0.1 and r["ci"][0] <= r["estimated"] <= r["ci"][1]


def test_a_wrong_exponent_of_the_second_parameter_is_refuted():
    """d's exponent right, k's stated 1 where the truth is 2: only the k sweep sees it."""
    (v, why), ev = _verdict(_rate(_sampler(1.0, 2.0), {"d": 1, "k": 1}))
    assert v is Verdict.REFUTED, why
    bad = [t for t in ev.tests if t.status == "rejected"]
    assert bad and all(t.extra["parameter"] == "k" for t in bad)


def test_theta_refutes_a_too_large_stated_exponent():
    (v, why), _ = _verdict(_rate(_sampler(1.0, 0.0), {"d": 2, "k": 0}, bound="theta"))
    assert v is Verdict.REFUTED, why


def test_sizes_too_close_to_separate_are_inconclusive():
    """d from 100 to 110 with a noisy Q: the slope's interval spans both 1 and 2."""
    (v, why), ev = _verdict(_rate(_sampler(1.0, 0.0, noise=0.5), {"d": 1, "k": 0}, ds=(100, 105, 110),
                                  ks=(2, 2.1), bound="theta", trials=16))
    assert v is Verdict.INCONCLUSIVE, why
    assert any(t.ci[1] - t.ci[0] > 1 for t in ev.tests)


def test_censored_runs_leave_the_sweep_undecided_with_what_would_reach_the_regime():
    rate = _rate(_sampler(1.0, 0.0, censor_above=150.0), {"d": 1, "k": 0}, regime="a budget of 4 d would")
    (v, why), ev = _verdict(rate)
    assert v is Verdict.INCONCLUSIVE and "a budget of 4 d would" in why, why
    assert any(not r["reached the regime"] for r in ev.details["exponents"])


def test_a_value_of_an_open_setting_whose_runs_are_all_censored_is_run_and_not_decided():
    """A Rate whose sweep at one value of an open setting is censored in every run gives an undecided check carrying
    its point (``extra['params']``, as a test would): OverOpenSetting counts that value as run and not decided, so
    the claim is inconclusive, naming it (not an error of the grid, not confirmed by the other value)."""
    from verify.judge.open_settings import OpenSetting, OverOpenSetting

    base = _sampler(1.0, 0.0)

    def sample(points, trials, gen, ctx):            # every run at budget = 1 censored, budget = 2 in the regime
        q = base(points, trials, gen, ctx)
        return np.where(np.array([p["budget"] == 1 for p in points])[None, :], np.inf, q)

    setting = OpenSetting("budget", (1, 2), "a budget", "no budget is given")
    rate = Rate(exponents={"d": 1}, sweeps={"d": [16, 32, 64, 128, 256]}, sampler=sample, trials=64,
                held={"d": [{"budget": 1, "k": 2}, {"budget": 2, "k": 2}]}, regime="a larger budget would")
    claim = _claim(rate)
    ev = OverOpenSetting(rate, setting).run(claim, api.make_context("quick", 0, progress=False))
    censored = [c for c in ev.checks if c.name.startswith("exponent of d")]
    assert len(censored) == 1 and censored[0].passed is None and censored[0].extra["params"] == {
        "budget": 1, "k": 2, "d": "16..256"}
    assert [t.params["budget"] for t in ev.tests] == [2] and ev.tests[0].equivalent
    rule = [c for c in ev.checks if "over its declared range" in c.name]
    assert len(rule) == 1 and rule[0].passed is None and not rule[0].refutes
    assert rule[0].extra["not decided at"] == ["budget = 1"] and rule[0].extra["holds at"] == ["budget = 2"]
    finalize([ev], api.ALPHA)
    v, why = decide(ev)
    assert v is Verdict.INCONCLUSIVE, why


def test_an_unswept_parameter_needs_a_reason():
    s = _sampler(1.0, 0.0)
    r = Rate(exponents={"d": 1, "k": 0}, sweeps={"d": [16, 64]}, held={"d": [{"k": 2}]}, sampler=s)
    assert unswept(r) == ["k"]
    (v, _), _ = _verdict(r)
    assert v is Verdict.INCONCLUSIVE
    r2 = Rate(exponents={"d": 1, "k": 0}, sweeps={"d": [16, 64]}, held={"d": [{"k": 2}]}, sampler=s,
              fixed={"k": "the theorem fixes k"})
    assert unswept(r2) == []


def _rates_in(check) -> list:
    """Every Rate inside a check (AllOf parts, wrapped checks such as OverOpenSetting; power witnesses are read by
    the caller)."""
    if isinstance(check, Rate):
        return [check]
    if isinstance(check, AllOf):
        return [r for part in check.parts for r in _rates_in(part)]
    if hasattr(check, "wrapped"):
        return _rates_in(check.wrapped)
    return []


def test_every_registered_claim_reaches_its_rates():
    """The scan below sees the Rates of the claims that wrap them (dayi2024's theorems, over the open kappa)."""
    ids = {c.id for c in builtin_claims() if _rates_in(c.check)}
    assert {"dayi2024.thm1", "dayi2024.thm8", "liu2019.lemma6"} <= ids


def test_rates_joined_in_one_claim_keep_every_row():
    """AllOf keeps one value per details key: two Rates of one claim need distinct labels, or the rows of the
    first are lost (dayi2024.thm1's ReLU sweeps once were)."""
    bad = []
    for claim in builtin_claims():
        keys = [f"exponents: {r.label}" if r.label else "exponents" for r in _rates_in(claim.check)]
        if len(keys) != len(set(keys)):
            bad.append(f"{claim.id}: {keys}")
    assert not bad, "claims joining Rates under one details key: " + "; ".join(bad)


def test_a_labelled_rate_writes_its_own_key():
    rate = _rate(_sampler(1.0, 2.0), {"d": 1, "k": 2})
    rate.label = "first arm"
    (_, _), ev = _verdict(rate)
    assert "exponents: first arm" in ev.details and "exponents" not in ev.details


def test_every_registered_rate_sweeps_every_parameter_it_names_or_says_why():
    bad = []
    for claim in builtin_claims():
        checks = [claim.check] + [w.check for w in claim.power if isinstance(w, Alternative)]
        for rate in (r for c in checks for r in _rates_in(c)):
            if unswept(rate):
                bad.append(f"{claim.id}: {unswept(rate)}")
    assert not bad, "order/rate claims that leave a named parameter unswept without a reason: " + "; ".join(bad)
