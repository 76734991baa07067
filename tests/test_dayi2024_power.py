"""dayi2024 (issue 24): the power witnesses of the claims of appendix.py (Claim 3 / Corollary 1, Proposition 8,
Lemma 6, the initialization condition of §2.2.1, the remark after Assumption 1), each rejected by the claim's own
check, and the exact Gaussian small-ball law that lets Lemma 6's check refute."""
from __future__ import annotations

import math

import numpy as np
import pytest

from verify.run.runner import _power_declared, make_context
from verify.claims.dayi2024 import appendix as AP
from verify.audit.mutants import claim_mutation_power

CTX = make_context("quick", 0, progress=False)
CLAIMS = {c.id: c for c in AP.CLAIMS}
WITNESSED = ("dayi2024.claim3", "dayi2024.prop8", "dayi2024.lemma6", "dayi2024.init", "dayi2024.assumption1")


@pytest.mark.parametrize("cid", WITNESSED)
def test_witnesses_are_declared_with_a_reason(cid):
    c = CLAIMS[cid]
    declared = _power_declared(c)
    assert declared["status"] != "untested" and declared["witnesses"]
    assert all(a.why for a in c.power)


@pytest.mark.parametrize("cid", ["dayi2024.prop8", "dayi2024.lemma6", "dayi2024.init", "dayi2024.assumption1"])
def test_every_witness_is_refuted_and_the_claim_is_not(cid):
    r = claim_mutation_power(CLAIMS[cid], CTX)
    assert r["control_verdict"] == "confirmed"
    assert [row["status"] for row in r["mutants"]] == ["refuted"] * len(CLAIMS[cid].power)


def test_claim3_witness_bounds_fail_on_the_block_family():
    """The block matrix (an all-ones block of size s plus the identity) has ratio s/(s^2 + k - s): above 1/k for
    1 < s < k and above 1/(2 sqrt(k)) at s ~ sqrt(k); the extremal diagonal D (b at the block, a elsewhere) beats
    Claim 3's 1/sqrt(k) within Corollary 1's (b/a)/sqrt(k)."""
    k = 16
    A = np.eye(k)
    A[:4, :4] = 1.0
    r = AP._influence(A)
    assert r > 1 / k and r > 1 / (2 * math.sqrt(k)) and r <= 1 / math.sqrt(k)
    a, b = 0.5, 1.0
    best = 0.0
    for s in range(1, k + 1):
        G = np.eye(k)
        G[:s, :s] = 1.0
        dg = np.full(k, a)
        dg[0] = b
        D = np.sqrt(dg)
        best = max(best, AP._influence(D[:, None] * G * D[None, :]))
    assert 1 / math.sqrt(k) < best <= (b / a) / math.sqrt(k)


def test_prop8_witness_laws():
    """The first display without its 1/sqrt(k) tends to 1 with k; the second display's limit is not O(eps)."""
    assert AP._p_inner_unscaled(10001, 0.01) > 0.5 > AP._p_inner(10001, 0.01)
    r = [AP._p_outer_limit(e) / e for e in (1e-4, 1e-3, 1e-2)]
    assert r[0] > r[1] > r[2]


def test_gaussian_small_ball_against_the_closed_laws():
    """Gil-Pelaez quadrature (Lemma 6's Gaussian part): one eigenvalue gives |Z Z'|, many equal ones approach |Z|."""
    for e in (1e-4, 1e-3, 0.05, 1.0):
        assert abs(AP._gauss_small_ball(np.array([2.0]), e) - AP._p_outer_limit(e)) < 1e-7 * (1 + 1 / e) * e
    k = 400   # sum of k products g_i h_i / sqrt(k): kurtosis excess 6/k, so P(|.| <= e) = erf(e/sqrt 2) (1 + O(1/k))
    for e in (1e-3, 0.2):
        assert abs(AP._gauss_small_ball(np.ones(k), e) / AP._p_inner_limit(e) - 1) < 5.0 / k
    # the witness's statistic: P_G(eps)/eps grows as eps -> 0 for 11^T (eps log(1/eps)), is flat for I
    r = [AP._gauss_small_ball(np.array([1.0]), e) / e for e in (1e-4, 1e-3)]
    assert r[0] > 1.2 * r[1]
    r = [AP._gauss_small_ball(np.ones(33), e) / e for e in (1e-4, 1e-3)]
    assert abs(r[0] / r[1] - 1) < 1e-4
