"""How serious a refutation is: the rule, in one place, and the measurements it reads.

Every refuted claim gets a severity class, derived from its declared role (:data:`verify.model.claim.ROLES`), its
corrected form's own verdict and what the run measured; nothing is typed in by hand.

========== =====================================================================================================
class      rule (first that applies)
========== =====================================================================================================
remark     the claim reads a sentence of discussion, the abstract, a caption or a table (role ``remark``,
           ``caption`` or ``table``)
proof step the claim reads a displayed step or witness of a proof (role ``proof step``) and the claims that show the
           stated result itself holds (``Claim.holds_by``) are confirmed in the run (named with their verdicts); a
           failing step of a result not shown to hold is classed by what fails, as a statement is
typo       a stated result whose corrected form (ours) is confirmed by the run and differs from the stated one
           by one constant, one factor of a single symbol (a power, a normalization) or one term
substantive a stated result that fails on a set of positive measure of its stated domain: failing draws of a
           uniform draw over the domain, or Monte Carlo rejections (replicated) at grid points inside it
boundary   a stated result that fails only on a set of measure zero: a uniform draw over the domain finds no
           failure (the shrunk counterexample sits at an endpoint, an exact tie, a single value), or every
           rejected grid point lies on the domain's edge
========== =====================================================================================================

The measured support is recorded beside the class (``results.json``, ``claims[].severity``): the fraction of the
domain that fails with its 95 % interval and how it was measured (a uniform draw over the stated domain, recorded
with its seed and box; or, for Monte Carlo claims, the share of grid points rejected), the largest gap in units of
the stated value, and the strongest witness (largest margin, deepest inside the domain) beside the minimal one.
"""
from __future__ import annotations

import math
import random

CLASSES = ("substantive", "typo", "boundary", "proof step", "remark")   # most serious first
RULE = ("remark: a sentence, caption or table; proof step: a step of a proof (the result's own verdict named); "
        "typo: a verified corrected form differing by one constant, factor or term; substantive: fails on a set "
        "of positive measure of the stated domain; boundary: fails only on a set of measure zero")


def rank(cls: str | None) -> int:
    return CLASSES.index(cls) if cls in CLASSES else len(CLASSES)


def assess(result, by_id: dict, ctx) -> dict | None:
    """The severity record of one claim result (refuted or does-not-extend; None otherwise)."""
    from verify.model.claim import Verdict

    claim, ev = result.claim, result.evidence
    if result.verdict not in (Verdict.REFUTED, Verdict.DOES_NOT_EXTEND):
        return None
    m = measure(claim, ev, ctx)
    rec = {"role": claim.reads, "measured": m}
    if result.verdict is Verdict.DOES_NOT_EXTEND:
        rec["class"] = None
        rec["why"] = "a reading beyond the source's context: not an erratum of the source"
        return rec
    if claim.reads in ("remark", "caption", "table"):
        cls, why = "remark", f"the claim reads a {claim.reads} of the source"
    elif claim.reads == "proof step" and _result_holds(claim, by_id):
        held = [{"id": h, "verdict": by_id[h].verdict.value if h in by_id else "not in this run"}
                for h in claim.holds_by]
        rec["holds_by"] = held
        cls = "proof step"
        why = "a step of the proof fails; the result itself: " + ", ".join(f"{h['id']} {h['verdict']}" for h in held)
    else:
        if claim.reads == "proof step":
            # a failing step of a result that no confirmed claim shows to hold is not a slip in a proof of a true
            # result: it is judged by what fails, as a statement is
            rec["holds_by"] = [{"id": h, "verdict": by_id[h].verdict.value if h in by_id else "not in this run"}
                               for h in claim.holds_by]
            rec["note"] = ("a proof step whose result is not shown to hold ("
                           + (", ".join(f"{h['id']} {h['verdict']}" for h in rec["holds_by"]) or "no claim named")
                           + "): classed by what fails")
        typo = one_change(claim) if (result.corrected_verdict is not None
                                     and result.corrected_verdict.value == "confirmed") else None
        if typo:
            cls, why = "typo", f"the corrected form (confirmed) differs from the stated one by {typo}"
            rec["correction"] = typo
        elif m.get("fraction") is not None and m["fraction"] > 0:
            cls = "substantive"
            why = f"fails on {_pct(m)} ({m['method']})"
        elif m.get("fraction") == 0:
            cls = "boundary"
            why = f"fails only on a set of measure zero: {_pct(m)} ({m['method']})"
        elif m.get("depth") == 0:
            cls, why = "boundary", "its only counterexample lies on the domain's edge (fraction not measured)"
        else:
            cls, why = "substantive", "a counterexample inside the stated domain (fraction not measured)"
    rec["class"], rec["why"] = cls, why
    return rec


def _result_holds(claim, by_id: dict) -> bool:
    """Whether the claims named by a proof step's ``holds_by`` are all confirmed in this run (or, for a claim outside
    the run, not known otherwise: a partial run does not reclassify a proof step)."""
    if not claim.holds_by:
        return False
    return all(by_id[h].verdict.value == "confirmed" for h in claim.holds_by if h in by_id)


def _pct(m: dict) -> str:
    f = m["fraction"]
    lo, hi = m.get("ci95", [math.nan, math.nan])
    ci = f" (95 % CI {_p(lo)}-{_p(hi)} %)" if lo == lo else ""
    return f"{_p(f)} % of {m['of']}{ci}"


def _p(x: float) -> str:
    """A fraction as a percentage with up to three significant digits, never in exponent form (100, 0.12, 41.5)."""
    v = 100 * x
    if v == 0 or v >= 99.95:
        return f"{v:.0f}"
    return f"{v:.3g}" if v >= 0.01 else f"{v:.1g}"


def measure(claim, ev, ctx) -> dict:
    """What fraction of the stated domain fails, the largest gap and the strongest witness, from the run's evidence
    (a uniform draw made by a failing property search, else a stated-vs-derived draw, else the Monte Carlo grid)."""
    draws = [c for c in ev.checks if c.passed is False and c.refutes and isinstance(c.extra.get("domain_draw"), dict)
             and "n" in c.extra["domain_draw"]]
    if draws:
        c = max(draws, key=lambda c: c.extra["domain_draw"]["fraction"])
        d = c.extra["domain_draw"]
        out = {"method": f"uniform draw of {d['n']} points over the stated domain (seed {d['seed']}, check "
                         f"'{c.name}')", "fraction": d["fraction"], "ci95": d["ci95"], "n": d["n"],
               "failed": d["failed"], "box": d["box"], "of": "the domain",
               "minimal": c.counterexample, "depth": c.extra.get("minimal_depth")}
        if "largest_margin" in d:
            out["largest_gap"] = d["largest_margin"]
        if c.extra.get("witness"):
            out["witness"] = c.extra["witness"]
        return out
    rejected = [t for t in ev.tests if t.status == "rejected" and t.target == "stated"]
    judged = [t for t in ev.tests if t.target == "stated" and t.status not in ("degenerate", "pending")]
    sd = stated_vs_derived(claim, ctx) if not rejected else None
    if sd is not None:
        return sd
    if rejected:
        from verify.model.stats import clopper_pearson

        def gap(t):
            # in units of the stated value; an ordering test (stated 0, tolerance 0) has no such unit: its
            # difference itself (a claim that wants a relative size tests a relative difference)
            scale = max(abs(t.predicted), t.tol)
            return abs(t.estimate - t.predicted) / scale if scale > 0 else abs(t.estimate - t.predicted)

        def depth(t):
            names = set(claim.domain.names)
            return claim.domain.depth({k: v for k, v in t.params.items() if k in names})
        best = max(rejected, key=lambda t: (depth(t) > 0, gap(t)))
        interior = [t for t in rejected if depth(t) > 0]
        lo, hi = clopper_pearson(len(interior), len(judged))   # the interval of the fraction reported: interior
        return {"method": f"Monte Carlo: {len(rejected)} of {len(judged)} grid points rejected and replicated, "
                          f"{len(interior)} inside the domain (the fraction counts those)",
                "fraction": (len(interior) / len(judged)) if judged else None, "ci95": [lo, hi],
                "n": len(judged), "failed": len(rejected), "of": "the grid points",
                "interior_failed": len(interior), "depth": max(depth(t) for t in rejected),
                "largest_gap": max(gap(t) for t in rejected),
                "witness": {"point": best.params, "margin": gap(best), "depth": depth(best),
                            "how": "the rejected grid point with the largest gap in units of the stated value, "
                                   "inside the domain where one is",
                            "estimate": best.estimate, "ci": list(best.ci), "stated": best.predicted}}
    failed = [c for c in ev.checks if c.passed is False and c.refutes]
    if failed:
        c = failed[0]
        cx = c.counterexample or {}
        names = set(claim.domain.names)
        pt = {k: v for k, v in cx.items() if k in names and isinstance(v, (int, float))}
        return {"method": f"one deterministic counterexample ('{c.name}')", "fraction": None, "of": "the domain",
                "minimal": cx, "depth": claim.domain.depth(pt) if pt else None}
    return {"method": "none recorded", "fraction": None, "of": "the domain"}


def stated_vs_derived(claim, ctx, n: int | None = None) -> dict | None:
    """Where the stated and our derived closed form are both sympy expressions in the same symbols of the domain
    (an exact statement, not a limit), the fraction of a uniform draw over the domain on which they differ by more
    than the practical tolerance max(0.002, 2 % of the derived value)."""
    import sympy as sp

    from verify.model.claim import Kind

    s, d = claim.stated, claim.derived
    if not (isinstance(s, sp.Basic) and isinstance(d, sp.Basic)) or claim.kind in (Kind.ASYMPTOTIC, Kind.LIMIT):
        return None
    names = {str(x) for x in s.free_symbols} | {str(x) for x in d.free_symbols}
    if {str(x) for x in s.free_symbols} != {str(x) for x in d.free_symbols} or not names <= set(claim.domain.names):
        return None
    import mpmath

    from verify.model.stats import clopper_pearson

    syms = sorted(s.free_symbols | d.free_symbols, key=str)
    fs = sp.lambdify(syms, s, modules="mpmath")
    fd = sp.lambdify(syms, d, modules="mpmath")
    n = n or {"quick": 200, "standard": 1000}.get(ctx.profile.name, 4000)
    seed = ctx.seed_for(claim.id, "severity: stated vs derived")
    pts, info = claim.domain.uniform(random.Random(seed), n)
    failed, worst, witness, m = 0, 0.0, None, 0
    with mpmath.workdps(30):
        for p in pts:
            try:
                a = fs(*[p[str(x)] for x in syms])
                b = fd(*[p[str(x)] for x in syms])
                a, b = float(mpmath.re(a)), float(mpmath.re(b))
            except Exception:
                continue
            if not (math.isfinite(a) and math.isfinite(b)):
                continue
            m += 1
            gap = abs(a - b)
            if gap > max(0.002, 0.02 * abs(b)):
                failed += 1
                rel = gap / max(abs(a), 1e-300)
                if rel > worst:
                    worst, witness = rel, {"point": dict(p), "stated": a, "derived": b, "margin": rel,
                                           "depth": claim.domain.depth(p, info["box"]),
                                           "how": "the draw with the largest gap in units of the stated value"}
    if not m:
        return None
    lo, hi = clopper_pearson(failed, m)
    out = {"method": f"stated vs our derived form at a uniform draw of {m} points over the stated domain "
                     f"(seed {seed})", "fraction": failed / m, "ci95": [lo, hi], "n": m, "failed": failed,
           "box": info["box"], "of": "the domain"}
    if witness:
        out["largest_gap"], out["witness"] = worst, witness
    return out


def one_change(claim) -> str | None:
    """How the stated form differs from our derived one when that difference is a single change: one symbol written
    for another, a constant factor, one power of one symbol, or a single additive term (None otherwise, or without
    both forms)."""
    import sympy as sp

    s, d = claim.stated, claim.derived
    if not (isinstance(s, sp.Basic) and isinstance(d, sp.Basic)):
        return None
    try:
        only_s, only_d = s.free_symbols - d.free_symbols, d.free_symbols - s.free_symbols
        if len(only_s) == 1 and len(only_d) == 1:   # one symbol written for another (R_t for R_0)
            a, b = next(iter(only_s)), next(iter(only_d))
            if sp.simplify(s.subs(a, b) - d) == 0:
                return f"one symbol, {a} in place of {b}"
        ratio = sp.simplify(sp.powsimp(s / d, force=True))
        if ratio.free_symbols == set() and ratio != 1:
            return f"a constant factor {sp.sstr(ratio)}"
        c, rest = ratio.as_coeff_Mul()
        base, _ = rest.as_base_exp()
        if len(ratio.free_symbols) == 1 and (base.is_Symbol or rest.is_Symbol) and c.is_Number:
            return f"a factor {sp.sstr(ratio)}"
        diff = sp.simplify(s - d)
        if diff != 0 and not diff.is_Add and not diff.has(sp.Piecewise) and \
                all(f.is_Symbol or f.is_Number or (f.is_Pow and f.base.is_Symbol) for f in sp.Mul.make_args(diff)):
            return f"one monomial term, {sp.sstr(diff)}"
    except Exception:
        return None
    return None
