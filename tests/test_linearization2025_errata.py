"""The errata of linearization2025 as the slides' authors would read them (issue 22): roles, root causes, the
derived forms behind the severity classes, the margins that choose the strongest witness, and the readings
(ReLU outside Theorem 1's scheme, Theorem 7 with the proof's 0 <= eta <= 1)."""
from __future__ import annotations

import json
import math
import pathlib

import mpmath
import pytest

from derivations import kernel_ridge as KR
from verify.model.claim import DomainError
from verify.judge.severity import one_change

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXPECTED = {k: v for k, v in json.loads((ROOT / "tests" / "expected_verdicts.json").read_text()).items()
            if k.startswith("linearization2025.")}


def _claims():
    from verify.run.registry import all_claims

    return {c.id: c for c in all_claims() if c.id.startswith("linearization2025.")}


@pytest.fixture(scope="module")
def claims():
    return _claims()


def test_every_refuted_claim_declares_role_and_root_cause(claims):
    for cid, v in EXPECTED.items():
        c = claims[cid]
        if v == "refuted":
            assert c.root_cause is not None, cid
            assert c.root_cause.paper == "linearization2025", cid
        if c.role == "proof step":
            for h in c.holds_by:
                assert h in claims and EXPECTED[h] == "confirmed", (cid, h)
        if v == "does not extend":
            assert c.extension, cid


def test_normalization_root_cause_is_one_object_in_common(claims):
    from verify.claims.linearization2025 import common

    ids = {cid for cid, c in claims.items() if c.root_cause is common.ROOT_N}
    assert ids == {"linearization2025.kernel_ridge", "linearization2025.kernel_ridge.finetune",
                   "linearization2025.thm5", "linearization2025.thm5.proof"}


@pytest.mark.parametrize("cid, change", [
    ("linearization2025.kernel_ridge", "a missing factor: a factor n missing"),
    ("linearization2025.kernel_ridge.finetune", "a missing factor: a factor n missing"),
    ("linearization2025.thm5", "a missing factor: a factor 1/n missing"),
    ("linearization2025.thm2", "one symbol for another: R where R0"),
    ("linearization2025.thm4", "an exponent: R_tilde_0 where sqrt(R_tilde_0)"),
])
def test_stated_and_derived_differ_by_one_change(claims, cid, change):
    assert one_change(claims[cid]) == change


def test_derived_shift_minimizes_the_displayed_objective():
    n = 3
    K, _ = __import__("verify.claims.linearization2025.common", fromlist=["psd"]).psd(n, 3, 2.0, 0.5, 7)
    y = mpmath.matrix([0.3, -1.2, 0.8])
    s = mpmath.mpf("0.4")
    with mpmath.workdps(50):
        shift = KR.krr_shift_derived().subs({KR.n: n, KR.sigma: 0.4})
        a = mpmath.lu_solve(K + mpmath.mpf(float(shift)) * mpmath.eye(n), y)
        j = KR.krr_objective_mp(K, y, a, s, "mean")
        for d in (mpmath.matrix([1e-3, 0, 0]), mpmath.matrix([0, -1e-3, 2e-3])):
            assert KR.krr_objective_mp(K, y, a + d, s, "mean") > j


def test_thm5_derived_bound_holds_for_the_mean_risk():
    from verify.claims.linearization2025.common import psd

    for seed in range(5):
        n = 4
        K, E = psd(n, 3, 1.5, 0.0, seed)
        y = mpmath.matrix([1.0, -0.5, 0.25, 2.0])
        with mpmath.workdps(50):
            R = KR.krr_risk_mp(K, y, mpmath.mpf(1), "mean")
            up = KR.thm5_upper_derived().subs({KR.sigma: 1, KR.ynorm: float(mpmath.norm(y)), KR.lmin: float(E[0]),
                                                KR.n: n})
            assert R <= float(up) * (1 + 1e-12)


def test_margins_pick_interior_witnesses():
    from verify.claims.linearization2025 import kernel as KM

    base = {"n": 4, "rank": 4, "log10_kappa": 1.0, "log10_scale": 0.0, "sigma": 1.0, "log10_y": 0.0, "seed": 3}
    stated = lambda q: q["sigma"]  # noqa: E731  (the slides' shift, sigma)
    assert KM._minimizer_margin(stated, base) > 0.01
    assert abs(KM._minimizer_margin(stated, {**base, "n": 1, "rank": 1})) < 1e-30   # n = 1: the slides are right
    assert KM._thm5_lower_margin(base) > 0
    assert math.isnan(KM._thm5_lower_margin({**base, "rank": 0}))                   # K = 0 ranked last
    assert math.isnan(KM._strict_margin({**base, "rank": 0}))


def test_selective_scheme_reads_smooth_models_only(claims):
    sel, relu = claims["linearization2025.thm1.selective"], claims["linearization2025.thm1.selective.relu"]
    with pytest.raises(DomainError):
        sel.domain.validate({"model": 3, "lam": 0.5})
    assert relu.extension and not sel.extension
    assert sel.role == "remark"


def test_thm7_without_the_proofs_eta_condition_is_an_extension(claims):
    assert claims["linearization2025.thm7"].extension
    assert claims["linearization2025.thm7.eta_le_1"].domain.params[-3].upper == 1


def test_one_change_symbol_substitution_needs_the_same_form():
    import sympy as sp
    import types

    a, b, c = sp.symbols("a b c", positive=True)
    assert one_change(types.SimpleNamespace(stated=2 * a * c, derived=2 * b * c)) == "one symbol for another: a where b"
    assert one_change(types.SimpleNamespace(stated=2 * a * c, derived=3 * b * c)) is None
