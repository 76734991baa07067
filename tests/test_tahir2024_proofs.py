"""The proof-step claims of App. B of 001 (verify/claims/tahir2024/proofs/, one module per section): their instances,
the findings they report, and the coverage of App. B by the ledger.  Cheap: no claim is run here (tests/test_claims.py
judges them)."""
from __future__ import annotations

import re

import pytest
import torch

import numerics.deep_linear as DL
from verify.claims.tahir2024.proofs import common as PR
from verify.claims.tahir2024.proofs import thm3_5
from verify.claims.tahir2024.ledger import LEDGER
from verify.run.registry import builtin_claims

DT = torch.float64


def _gen(seed=0):
    return torch.Generator().manual_seed(seed)


@pytest.mark.parametrize("L", [2, 3, 5])
def test_instances_have_the_invariants_exactly(L):
    """D_l(W) = alpha^2 Dbar_l (35) and Dbar_l >= I (22, lambda = 1) on both kinds of instance."""
    a = 0.3
    Wbar, W, Dbar, lam = PR._invariant_instances(64, 4, L, a, 3.0, _gen(), DT)
    for l in range(L - 1):
        Dw = W[l].mT @ W[l] - W[l + 1] @ W[l + 1].mT
        assert torch.allclose(Dw, a ** 2 * Dbar[l], rtol=1e-10, atol=1e-10)
        Db = Wbar[l].mT @ Wbar[l] - Wbar[l + 1] @ Wbar[l + 1].mT
        assert torch.allclose(Db, Dbar[l], rtol=1e-10, atol=1e-10)
    assert (lam >= 1 - 1e-12).all()
    # the first half is the flow's initial point alpha Wbar
    assert torch.allclose(W[0][:32], a * Wbar[0][:32])


def test_squaring_is_not_operator_monotone():
    """The elided link of (43)-(44) needs (A + D)^2 >= A^2 for PSD A, D: a 2 x 2 counterexample."""
    A = torch.tensor([[1.0, 0.0], [0.0, 0.0]], dtype=DT)
    Dm = torch.tensor([[1.0, 1.0], [1.0, 1.0]], dtype=DT)
    gap = (A + Dm) @ (A + Dm) - A @ A
    assert torch.linalg.eigvalsh(gap)[0] < -0.1


def test_the_printed_rate_88_fails_at_the_initial_point():
    """(88) as printed fails at W(0) = alpha Wbar with the balanced-margin Wbar (lambda = 1); the corrected rate
    (2/n)(alpha^2 lambda)^{L-1} lambda_min holds there."""
    n, d, L, a = 20, 8, 2, 0.3
    g = _gen(1)
    W = DL.init_weights(200, d, L, a, g)
    X = torch.randn(200, n, d, generator=g, dtype=DT)
    y = torch.randn(200, n, generator=g, dtype=DT)
    e = thm3_5._empirical_parts(W, X, y)
    Ldot = -sum((u.detach() * v.detach()).flatten(1).sum(-1) for u, v in zip(e["gP"], e["gL"]))
    rate = (a ** 2) ** (L - 1) * e["lam_min"] * e["Lpar"]
    assert (Ldot > -2 * rate).any()                     # printed bound violated on some draws
    assert (Ldot <= -(2 / n) * rate * (1 - 1e-9)).all()   # the corrected one holds on every draw


def test_the_printed_59_fails_at_the_initial_point():
    """(59) with ||Wbar_L|| on the right: at W = alpha Wbar the left side is O(alpha^2), the right side is not."""
    a = 0.1
    Wbar, W, Dbar, lam = PR._invariant_instances(8, 3, 3, a, 1.0, _gen(2), DT)
    W0 = [a * w for w in Wbar]
    lhs = PR._opnorm2(W0[0])
    rhs = PR._opnorm2(Wbar[-1]) + a ** 2 * (PR._opnorm2(Wbar[-1]) - PR._opnorm2(Wbar[0]))
    corrected = PR._opnorm2(W0[-1]) + a ** 2 * (PR._opnorm2(Wbar[-1]) - PR._opnorm2(Wbar[0]))
    assert (lhs < rhs).all() and (lhs >= corrected - 1e-12).all()


def test_links_record_the_worst_point_and_the_kind_of_instance():
    links = PR._Links(half=2)
    a = torch.tensor([1.0, 1.0, 1.0, 0.0], dtype=DT)
    links.ge("a >= b", a, torch.ones(4, dtype=DT), {"x": 1})
    (c,) = links.checks()
    assert c.passed is False and c.counterexample["trial"] == 3
    assert c.counterexample["instance"] == "random point of the invariant set"
    assert c.extra["failing_initial"] == 0 and c.extra["failing_other"] == 1
    ok = PR._Links()
    ok.eq("equal", a, a.clone(), {})
    assert ok.checks()[0].passed is True


def _proof_claims():
    """The CLAIMS of every module of the proofs package."""
    import importlib
    import pkgutil

    from verify.claims.tahir2024 import proofs
    return [c for m in pkgutil.iter_modules(proofs.__path__)
            for c in getattr(importlib.import_module(f"{proofs.__name__}.{m.name}"), "CLAIMS", ())]


def test_every_proof_claim_declares_its_role_and_results():
    ids = {c.id for c in builtin_claims()}
    mine = [c for c in builtin_claims() if c.id.startswith("tahir2024.proof.")]
    assert len(mine) == len(_proof_claims()) >= 15
    for c in mine:
        assert c.role == "proof step" and c.holds_by, c.id
        assert set(c.holds_by) <= ids, c.id
        assert c.notes, c.id


def _eq_number(key):
    m = re.fullmatch(r"eq\. \((\d+)\)", key)
    return int(m.group(1)) if m else None


def test_appendix_b_displays_are_covered_or_have_a_reason():
    """Eqs. (25)-(115) of App. B: each tested by a claim or not checkable with a reason, none left uncovered."""
    entries = [e for e in LEDGER.entries if (_eq_number(e.key) or 0) in range(25, 116)]
    assert len(entries) == 91
    assert not [e.key for e in entries if e.status == "uncovered"]
    ids = {c.id for c in builtin_claims()}
    for e in entries:
        assert set(e.claims) <= ids, e.key
