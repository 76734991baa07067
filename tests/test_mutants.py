"""Automatic mutants of stated sympy forms (verify.audit.mutants): generated, judged on the claim's own samples."""
from __future__ import annotations

import itertools

import sympy as sp

from verify import api
from verify.audit.mutants import claim_mutation_power, mutants
from verify.run.registry import select


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
    from verify.model.claim import Claim, Domain, Kind, Param, Source

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


def _mean_check(stated_read_by_custom: bool):
    """A toy claim E[x] = (1 + g)^2 / (1 - g), judged by a custom check that runs point_tests and compares with
    the stated form read through the kit (or with a numeric copy of it, which the whole-check path cannot see)."""
    import torch

    from verify.kit import Custom, Expectation, Tol, point_tests, stat_test, stated_value

    g = sp.Symbol("g", positive=True)
    stated = (1 + g) ** 2 / (1 - g)
    copy = sp.lambdify(g, stated)
    calls = itertools.count()   # not a list: a sampler closing over a mutable container is never memoised

    def sampler(p, B, gen, ctx):
        next(calls)
        return copy(p["g"]) + 0.05 * torch.randn(B, generator=gen, dtype=torch.float64)

    spec = Expectation(points=[{"g": 0.2}, {"g": 0.5}, {"g": 0.8}], predicted=None, sampler=sampler,
                       tol=Tol(rel=0.005, abs=0.001), trials=2000)

    def check(claim, ctx):
        f = stated_value(claim) if stated_read_by_custom else (lambda p: copy(p["g"]))
        return point_tests(spec, claim, ctx, lambda lab, p, x, seed: stat_test(lab, p, f(p), x, spec.tol, "stated",
                                                                                seed))
    return _toy(Custom(check), stated), calls


def test_the_whole_check_judges_mutants_when_it_reads_the_stated_form():
    """A custom check that reads claim.stated through stated_value is run once per mutant with the mutant as the
    stated form (draws memoised: the sampler runs once per point, plus the replication's); one that compares with
    its own numeric copy is not covered (no check of it could see a mutant)."""
    ctx = api.make_context("quick", 0, progress=False)
    claim, calls = _mean_check(True)
    r = claim_mutation_power(claim, ctx)
    assert r["covered"] and r["judged_by"] == ["whole check"] and r["control_verdict"] == "confirmed"
    assert r["judged"] >= 15 and r["power"] >= 0.9, [x for x in r["mutants"] if x["status"] != "refuted"]
    assert next(calls) <= 2 * 3                     # every mutant met the control's (and the replication's) draws
    blind, _ = _mean_check(False)
    assert not claim_mutation_power(blind, ctx)["covered"]


def test_weaker_bounds_are_set_aside():
    """For a stated upper bound, a mutant above it at every evaluated point is true whenever the bound is: it is
    set aside, not counted as a survivor; a tighter mutant (x 0.9) is judged."""
    import dataclasses

    claim, _ = _mean_check(True)
    claim = dataclasses.replace(claim, stated_bound="upper", kind=claim.kind)
    r = claim_mutation_power(claim, api.make_context("quick", 0, progress=False))
    status = {x["mutant"]: x["status"] for x in r["mutants"]}
    assert status["whole form x 2"].startswith("weaker bound")
    assert status["whole form x 1.1"].startswith("weaker bound")
    assert status["constant 2 x 0.9"] in ("refuted", "survived", "detected (inconclusive)")


def test_memoised_draws_equal_fresh_draws_and_stateful_samplers_are_not_memoised():
    import dataclasses

    import torch

    from verify.judge import monte_carlo

    ctx = api.make_context("quick", 3, progress=False)
    f = lambda p, B, gen, ctx: torch.randn(B, generator=gen, dtype=torch.float64)  # noqa: E731
    fresh, s0 = monte_carlo(f, {"g": 0.5}, 100, ctx, ("toy", "a"), 64)
    mctx = dataclasses.replace(ctx, memo={})
    a, s1 = monte_carlo(f, {"g": 0.5}, 100, mctx, ("toy", "a"), 64)
    b, _ = monte_carlo(f, {"g": 0.5}, 100, mctx, ("toy", "a"), 64)
    assert s0 == s1 and (fresh == a).all() and a is b
    other, _ = monte_carlo(f, {"g": 0.5}, 100, dataclasses.replace(mctx, seed=4), ("toy", "a"), 64)
    assert not (other == a).all()                   # the run seed is part of the key
    steps = {}

    def stateful(p, B, gen, ctx):
        steps[len(steps)] = B
        return torch.randn(B, generator=gen, dtype=torch.float64)
    monte_carlo(stateful, {"g": 0.5}, 10, mctx, ("toy", "b"), 64)
    monte_carlo(stateful, {"g": 0.5}, 10, mctx, ("toy", "b"), 64)
    assert len(steps) == 2                          # its record is made on every run


def test_constant_factors_of_an_order_are_equivalent():
    """A stated order O(f) means the same as O(c f): mutants that only rescale it are equivalent, not survivors."""
    import dataclasses

    claim, _ = _mean_check(True)
    claim = dataclasses.replace(claim, stated_order=True)
    r = claim_mutation_power(claim, api.make_context("quick", 0, progress=False))
    status = {x["mutant"]: x["status"] for x in r["mutants"]}
    assert status["whole form x 2"].startswith("equivalent as an order")
    assert not status["exponent of (g + 1)**2 +1"].startswith("equivalent")


def test_draws_that_read_the_stated_form_are_not_memoised_and_instance_samplers_key_on_their_own_code():
    import dataclasses

    import torch

    from verify.judge import monte_carlo
    from verify.judge.stated import reads, stated_value

    claim, _ = _mean_check(True)
    mctx = dataclasses.replace(api.make_context("quick", 0, progress=False), memo={})

    def reading(p, B, gen, ctx):      # a sampler whose draws depend on the stated form
        return stated_value(claim)(p) + torch.randn(B, generator=gen, dtype=torch.float64)
    with reads() as rec:
        monte_carlo(reading, {"g": 0.5}, 10, mctx, ("toy", "r"), 64)
    assert not mctx.memo and claim.id in rec.ids   # not memoised, and the outer record saw the read
    inner = lambda p, B, gen, ctx, inst: torch.full((B,), float(inst), dtype=torch.float64)  # noqa: E731
    wrap = lambda q, m, g, c, _i=1.0: inner(q, m, g, c, _i)  # noqa: E731
    wrap.__wrapped__ = inner
    monte_carlo(wrap, {"g": 0.5}, 10, mctx, ("toy", "w"), 64)
    assert [k[4] for k in mctx.memo] == [inner.__code__]


def test_equivalence_is_screened_numerically_before_simplify():
    """A mutant that differs at random points is not equivalent, without sympy's simplify (minutes on small
    trigonometric-radical forms); a rewrite of the same form, or a constant multiple of an order, still is."""
    import types

    from verify.audit.mutant_status import _differs_numerically, _equivalent

    t, s = sp.symbols("theta sigma", positive=True)
    f = sp.sqrt((1 + sp.cos(t) ** 2 - s**2) ** 2 - 4 * sp.cos(t) ** 2) / 2 + sp.cos(t) ** 2 / 2
    assert _differs_numerically(f * sp.Rational(11, 10), f)
    assert not _differs_numerically(sp.expand(2 * f) / 2, f)
    claim = types.SimpleNamespace(stated=s**2 / t, stated_order=True)
    assert _equivalent(3 * s**2 / t, claim).startswith("equivalent as an order")
    assert _equivalent(s**3 / t, claim) is None
    k = sp.Symbol("k", integer=True, positive=True)
    assert not _differs_numerically((-1) ** (2 * k), sp.Integer(1))     # integer symbols get integer points


def test_which_symbols_a_mutant_changes_and_which_the_grid_holds_fixed():
    """_on_the_grid: a symbol is changed when moving it alone changes mutant/stated, held fixed when it has one
    value at every point the check read (there the mutant is the stated form times an unseen factor)."""
    from verify.audit.mutant_status import _on_the_grid

    m_, n, k = sp.symbols("m n_P kappa", positive=True)
    stated = n**2 / (sp.sqrt(m_) * k)
    pts = [{"m": mm, "n_P": 4, "kappa": 0.3 * (mm / 256) ** -0.25} for mm in (256, 1024, 4096)]
    assert _on_the_grid(n / (sp.sqrt(m_) * k), stated, pts) == (["n_P"], ["n_P"])
    assert _on_the_grid(n**2 / (m_ * k), stated, pts) == (["m"], [])
    assert _on_the_grid(sp.Rational(9, 10) * stated, stated, pts) == ([], [])


def test_order_and_domain_equivalences_and_tighter_bounds_the_data_satisfy():
    """stated_order=(limit variables): a mutant changing only the factor in other symbols is the same O-statement
    on any finite grid of them; stated_at: a mutant changing only a symbol the statement fixes is equivalent on the
    claim's domain; a tighter bound whose every draw satisfies it is true where tested (not counted), a plain
    survivor otherwise."""
    import dataclasses

    from verify.model.evidence import EVERY_VALUE, Check, Evidence, StatTest
    from verify.audit.mutant_status import _equal_on_integers, _holds_on_the_data

    claim, _ = _mean_check(True)
    g = sp.Symbol("g", positive=True)
    order = dataclasses.replace(claim, stated_order=("none",))
    r = claim_mutation_power(order, api.make_context("quick", 0, progress=False))
    status = {x["mutant"]: x["status"] for x in r["mutants"]}
    assert status["exponent of (g + 1)**2 +1"].startswith("equivalent as an order on the tested domain")
    fixed = dataclasses.replace(claim, stated_at={"g": 0.5})
    r = claim_mutation_power(fixed, api.make_context("quick", 0, progress=False))
    judged = [x["mutant"] for x in r["mutants"] if not x["status"].startswith(("equivalent", "undefined"))]
    assert judged == ["whole form x 1.1", "whole form x 2"], r["mutants"]   # a constant factor is still a change
    # direct evidence: a violation count of 0, or the same estimate with its CI inside the mutant's bound
    t0 = StatTest("v", {}, 0.1, 0.0, 0.01, 50, 0.002, 1.0, extra={"violations": 0}, sided="upper")
    s0 = StatTest("s", {}, -0.125, -0.3, 0.02, 50, 0.1, 1.0, ci=(-0.34, -0.26), sided="upper")
    ev0 = Evidence(tests=[t0, s0])
    tighter = Evidence(tests=[t0, dataclasses.replace(s0, predicted=-0.25)])
    assert _holds_on_the_data(tighter, ev0, 1)
    assert not _holds_on_the_data(Evidence(tests=[t0, dataclasses.replace(s0, predicted=-0.3)]), ev0, 1)
    assert not _holds_on_the_data(Evidence(tests=[dataclasses.replace(t0, extra={"violations": 1}), s0]), ev0, 1)
    few = dataclasses.replace(t0, estimate=0.02, ci=(0.005, 0.06), extra={"violations": 4})   # CI under delta 0.1
    assert _holds_on_the_data(Evidence(tests=[few, s0]), ev0, 1)
    moved = Evidence(tests=[t0, dataclasses.replace(s0, estimate=-0.2, ci=(-0.3, -0.1), predicted=0.0)])
    assert not _holds_on_the_data(moved, ev0, 1)          # the mutant changed the data: not direct evidence
    c0 = Check("bound", True, "max 0.1")
    passed = Check("bound", True, "max 0.5", extra={EVERY_VALUE: True})
    assert _holds_on_the_data(Evidence(tests=[t0], checks=[passed]), Evidence(tests=[t0], checks=[c0]), 1)
    assert not _holds_on_the_data(Evidence(tests=[t0], checks=[Check("b", True, "max 0.5")]),
                                  Evidence(tests=[t0], checks=[c0]), 1)
    # a parity rewrite equal at every integer (sympy cannot prove it for a k/2 exponent)
    k = sp.Symbol("k", integer=True, nonnegative=True)
    even = (1 + (-1) ** k) / 2
    assert _equal_on_integers((-1) ** (k / 2 - 1) * even * g, (-1) ** (-k / 2 - 1) * even * g)
    assert not _equal_on_integers((-1) ** (k / 2) * even * g, (-1) ** (-k / 2 - 1) * even * g)
    assert not _equal_on_integers(g, 2 * g)


def test_bare_symbol_exponents_and_rescaled_terms_of_an_order():
    """A bare symbol's exponent 1 is mutated (d -> d^2, d -> 1; not the base of a power, not a condition); a sum
    whose terms are each rescaled by a positive factor free of the limit variables is the same O-statement."""
    from verify.audit.mutant_status import _rescales_terms

    d, n, m_, k = sp.symbols("d n m kappa", positive=True)
    mut = mutants(d)
    assert mut["exponent of d +1"] == d**2 and mut["exponent of d -1"] == 1
    pw = mutants(sp.Piecewise((n / d, n < d), (d, True)))
    assert pw["exponent of d +1"] == sp.Piecewise((n / d, n < d), (d**2, True))   # 1/d and the condition kept
    assert not any(e.has(sp.zoo) for e in mutants((1 + n) ** 2 / (1 - n)).values())
    stated = n * k + n**2 / (m_ ** sp.Rational(1, 4) * sp.sqrt(k))
    assert _rescales_terms(n**2 * k + n / (m_ ** sp.Rational(1, 4) * sp.sqrt(k)), stated, ("m", "kappa"))
    assert not _rescales_terms(n * k + n**2 / (m_ ** sp.Rational(1, 2) * sp.sqrt(k)), stated, ("m", "kappa"))
    assert not _rescales_terms(-n * k + n**2 / (m_ ** sp.Rational(1, 4) * sp.sqrt(k)), stated, ("m", "kappa"))
    assert not _rescales_terms(n**2 / (m_ ** sp.Rational(1, 4) * sp.sqrt(k)), stated, ("m", "kappa"))


def test_a_check_of_our_derivation_alone_is_listed_not_counted():
    """A claim whose check cannot refute (our derivation, refutes=False) only makes mutants inconclusive: it is
    covered, marked can_refute False, and left out of the power totals."""
    r = claim_mutation_power(select(["dayi2024.prop1.relu"])[0], api.make_context("quick", 0, progress=False))
    assert r["covered"] and r["can_refute"] is False and r["refuted"] == 0 and r["detected"] == r["judged"] > 0


def test_a_mutant_equal_in_the_statements_limit_is_the_same_limit_statement():
    """liu2019.thm1 says LHS -> G_0 - yTy + rTr with G_0 -> yTy: swapping G_0 and yTy changes nothing in the limit
    (set aside), a constant factor does (judged)."""
    import types

    from verify.audit.mutant_status import _equivalent

    g, y, r = sp.symbols("G_0 yTy rTr", positive=True)
    claim = types.SimpleNamespace(stated=g + r - y, stated_order=False, stated_limit={"G_0": "yTy"})
    assert _equivalent(-g + r + y, claim).startswith("equivalent in the statement's limit")
    assert _equivalent(sp.Rational(11, 10) * (g + r - y), claim) is None
    assert _equivalent(g**2 + r - y, claim) is None


def test_a_weaker_order_in_the_limit_is_set_aside_and_a_tighter_one_is_not():
    """O(n^2/(sqrt(m) kappa delta^(3/2))) as m -> oo, kappa -> 0 (liu2019.lemma3): swapping delta and kappa gives
    (delta/kappa)^(1/2) times the stated order, unbounded as kappa -> 0 whatever delta: a weaker O-statement; dropping
    1/kappa gives kappa times it, a tighter one; a sum that turns negative is not weaker."""
    from verify.audit.mutant_status import _weaker_in_the_limit

    m, k, d, n = sp.symbols("m kappa delta n_P", positive=True)
    stated = n**2 / (sp.sqrt(m) * k * d ** sp.Rational(3, 2))
    lim = {"m": "oo", "kappa": "0"}
    pts = [{"m": 256.0, "kappa": 0.3, "delta": 0.1, "n_P": 4}, {"m": 8192.0, "kappa": 0.13, "delta": 0.1, "n_P": 3}]
    assert _weaker_in_the_limit(n**2 / (sp.sqrt(m) * k ** sp.Rational(3, 2) * d), stated, lim, pts, 1)
    assert not _weaker_in_the_limit(n**2 / (sp.sqrt(m) * d ** sp.Rational(3, 2)), stated, lim, pts, 1)
    assert not _weaker_in_the_limit(n**2 / (sp.sqrt(m) * k * d ** sp.Rational(3, 2)) * m ** -1, stated, lim, pts, 1)
    s2 = k * n / d + n**2 / (d * sp.sqrt(k) * m ** sp.Rational(1, 4))
    assert not _weaker_in_the_limit(-k * n / d + n**2 / (d * sp.sqrt(k) * m ** sp.Rational(1, 4)), s2, lim, pts, 1)
    assert _weaker_in_the_limit(d * n / k + n**2 / (sp.sqrt(d) * k * m ** sp.Rational(1, 4)), s2, lim, pts, 1)


def test_a_declared_unresolved_term_sets_aside_only_mutants_of_that_term():
    """liu2019.eq6 declares its second term unresolved (benchmarks/README.md §13): a mutant that keeps the first term
    and drops or reshapes the second (non-negatively) is set aside; one that changes the first term, or makes the
    second negative, is not; a claim without the declaration sets aside nothing; the declaration must name a term of
    the stated sum."""
    import dataclasses

    from derivations import ntk_orders as A
    from verify.audit.mutant_judge import _changes_only_unresolved

    claim = select(["liu2019.eq6"])[0]
    T = claim.unresolved_term
    assert T == A.eq6_second_term()
    first = claim.stated - T
    pts = [{"m": m, "kappa": k, "n_P": 4, "lambda_P": 0.2, "delta": 0.1} for m, k in ((256, 0.3), (4096, 0.15))]
    ms = mutants(claim.stated)
    by = {name: m for name, m in ms.items()}
    dropped = [m for name, m in by.items() if name.startswith("term n_P**2") and "dropped" in name]
    assert dropped and all(_changes_only_unresolved(m, claim, pts) for m in dropped)
    assert _changes_only_unresolved(first + T / A.m, claim, pts)
    assert not _changes_only_unresolved(first - T, claim, pts)                 # a negative second term
    assert not _changes_only_unresolved(2 * first + T, claim, pts)             # the first term changed
    assert not _changes_only_unresolved(T, claim, pts)                         # the first term dropped
    assert not _changes_only_unresolved(first, dataclasses.replace(claim, unresolved_term=None), pts)
    # every declaration names one term of its claim's stated sum (checked here, not in Claim: verify mutants
    # substitutes mutants for the stated form, which need not contain it)
    for c in select(None):
        if c.unresolved_term is not None:
            assert isinstance(c.stated, sp.Add) and c.unresolved_term in sp.Add.make_args(c.stated), c.id


def test_merge_folds_the_selected_claims_into_the_stored_document(tmp_path):
    """``mutants PATTERN --merge``: the selected claims are re-measured, every other claim of the earlier document
    keeps its entry as written, and the totals are those of the union; another profile's document is refused in one
    line before anything is judged."""
    import json
    import subprocess
    import sys
    from verify.audit.mutants import mutation_power

    a, b = "hermite.coefficients.erf", "hermite.coefficients.relu"
    first = mutation_power([a, b], "quick", 0, tmp_path, progress=False)
    stored = json.loads((tmp_path / "mutants_quick.json").read_text())
    stored["claims"][a]["marker"] = "kept as written"
    (tmp_path / "mutants_quick.json").write_text(json.dumps(stored))
    merged = mutation_power([b], "quick", 0, tmp_path, progress=False, merge=True)
    assert list(merged["claims"]) == [a, b] and merged["claims"][a]["marker"] == "kept as written"
    assert merged["claims"][b]["key"] == first["claims"][b]["key"]
    assert (merged["judged"], merged["refuted"], merged["selected"]) == (first["judged"], first["refuted"], 2)
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "mutants_standard.json").write_text(json.dumps({"profile": "quick", "seed": 0, "claims": {}}))
    p = subprocess.run([sys.executable, "-m", "verify", "mutants", b, "--profile", "standard", "--merge", "--out",
                        str(tmp_path / "x")], capture_output=True, text=True)
    assert p.returncode == 2 and "Traceback" not in p.stderr and "--merge" in p.stderr, p.stderr
