"""Automatic mutants of stated sympy forms (verify.mutants): generated, judged on the claim's own samples."""
from __future__ import annotations

import sympy as sp

from verify import api
from verify.mutants import claim_mutation_power, mutants
from verify.registry import select


def test_mutants_cover_the_operators_and_leave_conditions_alone():
    n, d, s = sp.symbols("n d sigma", positive=True)
    form = sp.Piecewise((1 - n / d + s**2 * n / (d - n - 1), n < d - 1), (s**2 * d / (n - d - 1), n > d + 1))
    m = mutants(form)
    kinds = {k.split()[0] for k in m}
    assert {"constant", "whole", "exponent", "term", "sign", "index", "swap"} <= kinds
    for k, e in m.items():
        conds = [c for _, c in e.args] if isinstance(e, sp.Piecewise) else None
        if conds is not None and not k.startswith("swap"):
            assert conds == [c for _, c in form.args], k      # the domain of each branch is not mutated
        assert sp.simplify(e - form) != 0, k                  # no mutant is the stated form


def test_a_cheap_claim_refutes_its_mutants_and_not_its_stated_form():
    claim = select(["hermite.kernel.arccos1"])[0]
    r = claim_mutation_power(claim, api.make_context("quick", 0, progress=False))
    assert r["covered"] and not r["control_refuted"]
    assert r["judged"] >= 15 and r["power"] >= 0.8, [x for x in r["mutants"] if x["status"] != "refuted"]


def test_claims_without_a_sympy_form_are_reported_not_covered():
    claim = next(c for c in select(["tahir2024.*"]) if not isinstance(c.stated, sp.Expr))
    r = claim_mutation_power(claim, api.make_context("quick", 0, progress=False))
    assert not r["covered"] and r["why"]


def _toy(check, stated):
    from verify.claim import Claim, Domain, Kind, Param, Source

    return Claim(id="tahir2024.toy_mutants", kind=Kind.ASYMPTOTIC, source=Source("tahir2024", "synthetic"),
                 statement="toy", assumptions="toy", domain=Domain((Param("g", 0.1, 0.9),)), check=check, stated=stated)


def test_identity_and_asymptotic_parts_judge_mutants():
    """An Identity with the stated form on one side refutes its mutants; an Asymptotic (1/N extrapolation of a
    mean whose limit is the stated form) refutes them on the extrapolated intercepts, not the stated form."""
    import torch

    from verify.judge import Asymptotic, Identity, Tol

    g = sp.Symbol("g", positive=True)
    stated = (1 + g) ** 2 / (1 - g)
    ident = _toy(Identity("derivation = stated", sp.expand((1 + g) ** 2) / (1 - g), stated, {g: (0.1, 0.9)}), stated)
    ctx = api.make_context("quick", 0, progress=False)
    r = claim_mutation_power(ident, ctx)
    assert r["covered"] and r["judged_by"] == ["Identity"] and not r["control_refuted"]
    assert r["power"] == 1.0, [x for x in r["mutants"] if x["status"] != "refuted"]

    f = sp.lambdify(g, stated)
    asym = _toy(Asymptotic(points=[{"g": 0.3}, {"g": 0.6}], sizes={"quick": [50, 100, 200, 400]},
                           finite_params=lambda p, N: {**p, "N": N}, stated=lambda p: f(p["g"]),
                           sampler=lambda p, B, gen, ctx: f(p["g"]) + 2.0 / p["N"]
                           + 0.01 * torch.randn(B, generator=gen, dtype=torch.float64),
                           tol=Tol(rel=0.01, abs=0.001), trials=400), stated)
    r = claim_mutation_power(asym, ctx)
    assert r["covered"] and r["judged_by"] == ["Asymptotic"] and not r["control_refuted"]
    assert r["power"] >= 0.9, [x for x in r["mutants"] if x["status"] != "refuted"]
