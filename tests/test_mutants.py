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
