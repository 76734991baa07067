"""Issue 22 for 001 (Tahir et al.): the readings, roles and root causes of the tahir2024 claims.

Fast (no simulation): the predicates that decide the re-read claims, evaluated at the points that decided them,
and the declarations that the severity rule and the errata list read (role, holds_by, root_cause).
"""
from __future__ import annotations

import math

import mpmath
import pytest

from verify.run.registry import all_claims

CLAIMS = {c.id: c for c in all_claims()}


def test_root_causes_are_shared_objects():
    from verify.claims.tahir2024.common import ROOT_142, ROOT_PI_2, ROOT_TIE

    groups = {
        ROOT_142: {"tahir2024.thm3.9", "tahir2024.thm3.9.end_state", "tahir2024.thm3.9.transferability",
                   "tahir2024.thm3.9.boundary", "shachaf2021.vs_tahir2024.eq142"},
        ROOT_PI_2: {"tahir2024.eq13.angle", "tahir2024.eq13.noiseless", "tahir2024.thm3.8.monotone"},
        ROOT_TIE: {"tahir2024.text.fig6.always_negative_gamma_gt1", "tahir2024.text.abstract.well_represented.strict"},
    }
    for root, ids in groups.items():
        got = {c.id for c in CLAIMS.values() if c.root_cause is root}
        assert got == ids, (root.key, got)
        assert root.summary and root.corrected and root.paper == "tahir2024"
    assert len({r.key for r in groups}) == 3


def test_roles_of_text_and_figure_claims():
    for cid, c in CLAIMS.items():
        if cid.startswith("tahir2024.text.fig"):
            assert c.role == "caption", cid
        elif cid.startswith("tahir2024.text."):
            assert c.role == "remark", cid
    for cid in ("tahir2024.thm2.2.kl_witness", "tahir2024.thm2.2.eq28", "tahir2024.thm3.8.saddle"):
        assert CLAIMS[cid].role == "proof step" and CLAIMS[cid].holds_by, cid
        assert all(h in CLAIMS for h in CLAIMS[cid].holds_by)


def test_extensions_are_the_readings_beyond_the_text():
    ext = {cid for cid, c in CLAIMS.items() if cid.startswith("tahir2024.") and c.extension}
    assert ext == {"tahir2024.eq13.anomalous.all_sigma", "tahir2024.text.abstract.strong_overlap.largest_at_low_data",
                   "tahir2024.text.sec3_3.snr_below_one.all_gamma", "tahir2024.text.abstract.well_represented.strict",
                   "tahir2024.text.sec2_1.far_apart.w1.unit_teachers",
                   "tahir2024.text.sec3_3.kl_not_negatively_correlated.quarter_turn",
                   "tahir2024.text.sec3_3.order_of_limits.finite_alpha",
                   # §4 read at sizes below App. D.2's (quick, standard), where the source does not claim them
                   "tahir2024.relu.fig4c.exponent", "tahir2024.relu.fig4e.boundary"}


def test_kl_covariance_vanishes_on_fig5_setting_and_is_negative_on_a_quarter_turn():
    from verify.claims.tahir2024 import text as TX

    for k in (2, 3, 5, 12):
        for gammas in ([0.5], [0.3, 2.5]):
            cov = TX._design_cov({"sigmas": [0.2], "k": k, "gammas": gammas})
            assert abs(cov) < mpmath.mpf(10) ** -40, (k, gammas, cov)
    # the old reading: angles in [0, pi/2] only, so D_KL and T_lt move against each other
    assert TX._design_corr({"sigmas": [1.0], "thetas": [0.0, 1.0], "gammas": [0.5]}) < 0
    assert TX._cov_uniform_theta() == 0


def test_well_represented_as_meant_and_strict_at_the_tie():
    from verify.claims.tahir2024 import text as TX

    tie = {"gamma": 2.0, "sigma": 0.0}
    assert TX._well_repr_asmeant_holds(tie) and not TX._well_repr_holds(tie)
    for p in ({"gamma": 0.5, "sigma": 0.0}, {"gamma": 2.0, "sigma": 0.1}, {"gamma": 0.9, "sigma": 3.0}):
        assert TX._well_repr_asmeant_holds(p) and TX._well_repr_holds(p)


@pytest.mark.parametrize("theta", [0.0, 0.7, math.pi / 2])
def test_monotone_margin_is_zero_only_at_the_endpoint(theta):
    from verify.claims.tahir2024 import thm3_8

    p = {"theta": theta, "lam": 0.3, "dlam": 0.5}
    m = thm3_8._monotone_margin(p)
    if theta == math.pi / 2:
        assert m == 0 and not thm3_8._monotone_holds(p)
    else:
        assert m < 0 and thm3_8._monotone_holds(p)


def test_dudley_margin_is_the_shortfall_of_the_bound_two():
    from verify.claims.tahir2024 import thm2_2

    assert thm2_2._dudley_margin({"delta": 4.0}) == pytest.approx(0.5)
    assert thm2_2._dudley_margin({"delta": 1.0}) == 0.0


def test_eq50_corrected_order_is_one_power_apart():
    from verify.judge.severity import one_change

    assert one_change(CLAIMS["tahir2024.rate.lemmaB1.eq50"]) == "an exponent: alpha^2 where alpha"
