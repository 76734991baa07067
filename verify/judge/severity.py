"""How serious a refutation is: the rule, in one place, and the measurements it reads.

Every refuted claim gets a severity class, derived from its declared role (:data:`verify.model.claim.ROLES`), what
the run measured (how much of the stated domain fails), its corrected form's own verdict and the shape of the
*minimal* correction (the printed form against ``Claim.corrected_form``, or our derived form when that is the
minimal one); nothing is typed in by hand.  :func:`classify` is the rule; :func:`assess` applies it to a run's
result and :func:`reclassify` to a results document.

=========== ============================================================================================================
class       rule (first that applies)
=========== ============================================================================================================
boundary    the failing set has measure zero, whatever the role: a uniform draw over the domain finds no failure (the
            counterexample is an endpoint, an exact tie, a single value), or every rejected grid point / the only
            counterexample lies on the domain's edge
remark      the claim reads a sentence of discussion or the abstract, a caption or a table (role ``remark``,
            ``caption``, ``table``) and fails on a set of positive measure
proof step  a displayed step of a proof (role ``proof step``) whose result is shown to hold (the claims named by
            ``holds_by`` are confirmed); ranked by what the repaired proof gives (:data:`PROOF_CONSEQUENCES`)
typo        a stated result whose corrected form is confirmed and whose minimal correction is one typo-shaped change
            (an off-by-one or another number in a constant or a denominator, a sign, a constant factor, an exponent,
            a missing or extra factor, one symbol for another, a transposed index, one term), when either the change
            keeps the result's form (a sign, a constant factor, one number changed: a *value-level* change) or the
            failure is not located at points of the domain (an exact identity of a printed display)
substantive a stated result (or a step of a result not shown to hold) that fails on a set of positive measure of its
            domain as printed (failing draws of a uniform draw, rejected grid points inside the domain, a
            counterexample inside it), unless it is a typo
=========== ============================================================================================================

Why a typo-shaped change can still be substantive: a misprint that changes how the result depends on a parameter
(R_t for R_0, ||r||^2 for ||r||, a missing factor 1/kappa, alpha^2 for alpha) makes the printed result a different,
false result on a set of positive measure, which is what a reader would use; a value-level slip (-2 where -1, a sign,
a factor 2) leaves the result's form and order intact and is mended by reading the "what differs" line.  The class
never depends on a term our corrected form adds (a target accuracy epsilon): the typo rule reads the minimal form.

A proof step's consequence, most serious first (``severity.proof``; the report orders proof steps by it):

================= ====================================================================================================
does not follow   no repaired step is verified (the corrected form is not confirmed), or the claim declares
                  ``repair="does not follow"``: the result holds (its own claims) but the proof as printed does not
                  give it
weaker rate       the repair changes how the step depends on a parameter (a power, a factor, a symbol) and the claim
                  does not declare it absorbed, or declares ``repair="weaker rate"``
not assessed      no sympy form of the step to compare and nothing declared
absorbed          the repair changes a constant or a sign only (the O(.) absorbs it), or the claim declares
                  ``repair="absorbed"``
================= ====================================================================================================

The measured support is recorded beside the class (``results.json``, ``claims[].severity``): the fraction of the
domain that fails with its 95 % interval and how it was measured (a uniform draw over the stated domain, recorded
with its seed and box; or, for Monte Carlo claims, the share of grid points rejected), the largest gap in units of
the stated value, and the strongest witness (largest margin, deepest inside the domain) beside the minimal one; a
typo-shaped change is recorded as ``change`` (kind, "what differs", value-level or not) whatever the class.
"""
from __future__ import annotations

import math
import random

CLASSES = ("substantive", "typo", "boundary", "proof step", "remark")   # most serious first
PROOF_CONSEQUENCES = ("does not follow", "weaker rate", "not assessed", "absorbed")   # most serious first
RULE = ("boundary: fails only on a set of measure zero, whatever the role; remark: a sentence, caption or table; "
        "proof step: a step of a proof whose result holds (ranked by what the repaired proof gives); typo: a "
        "confirmed minimal correction of one typo-shaped change that keeps the result's form (or a failure not "
        "located in the domain); substantive: a stated result failing on a set of positive measure as printed")


def rank(cls: str | None) -> int:
    return CLASSES.index(cls) if cls in CLASSES else len(CLASSES)


def order_key(sev: dict | None) -> tuple[int, int]:
    """How the reports order errata: by class, and proof steps by their consequence (:data:`PROOF_CONSEQUENCES`)."""
    sev = sev if isinstance(sev, dict) else {}
    proof = sev.get("proof") or {}
    sub = PROOF_CONSEQUENCES.index(proof["consequence"]) if proof.get("consequence") in PROOF_CONSEQUENCES else 0
    return rank(sev.get("class")), sub


def assess(result, by_id: dict, ctx) -> dict | None:
    """The severity record of one claim result (refuted or does-not-extend; None otherwise)."""
    from verify.model.claim import Verdict

    claim, ev = result.claim, result.evidence
    if result.verdict not in (Verdict.REFUTED, Verdict.DOES_NOT_EXTEND):
        return None
    held = [{"id": h, "verdict": by_id[h].verdict.value if h in by_id else "not in this run"}
            for h in claim.holds_by]
    cv = None if result.corrected_verdict is None else result.corrected_verdict.value
    return classify(role=claim.reads, measured=measure(claim, ev, ctx), holds_by=held, corrected_verdict=cv,
                    change=minimal_change(claim), repair=claim.repair,
                    extension=result.verdict is Verdict.DOES_NOT_EXTEND)


def classify(*, role: str, measured: dict, holds_by: list[dict], corrected_verdict: str | None,
             change: dict | None, repair: str | None = None, extension: bool = False) -> dict:
    """The rule of the module docstring, on what a run records: the claim's role, the measured support, the verdicts
    of the claims named by ``holds_by`` (``[{"id", "verdict"}]``), the corrected form's verdict, the minimal change
    (:func:`minimal_change`) and a declared proof-step consequence."""
    m = measured
    rec = {"role": role, "measured": m}
    if change:
        rec["change"] = change
    if holds_by:
        rec["holds_by"] = holds_by
    if extension:
        rec["class"] = None
        rec["why"] = "a reading beyond the source's context: not an erratum of the source"
        return rec
    support = _support(m)
    if support == "zero":
        cls = "boundary"
        why = (f"fails only on a set of measure zero: {_pct(m)} ({m['method']})" if m.get("fraction") == 0 else
               "its only counterexample lies on the domain's edge (fraction not measured)")
    elif role in ("remark", "caption", "table"):
        cls, why = "remark", f"the claim reads a {role} of the source"
    elif role == "proof step" and _holds(holds_by):
        cls = "proof step"
        rec["proof"] = proof_consequence(repair, corrected_verdict, change)
        why = ("a step of the proof fails; the result itself: " + ", ".join(f"{h['id']} {h['verdict']}" for h in holds_by)
               + f"; the repaired proof: {rec['proof']['consequence']} ({rec['proof']['why']})")
    else:
        if role == "proof step":
            # a failing step of a result that no confirmed claim shows to hold is not a slip in a proof of a true
            # result: it is judged by what fails, as a statement is
            rec["note"] = ("a proof step whose result is not shown to hold ("
                           + (", ".join(f"{h['id']} {h['verdict']}" for h in holds_by) or "no claim named")
                           + "): classed by what fails")
        typo = (change is not None and corrected_verdict == "confirmed"
                and (change["value_level"] or support == "not located"))
        if typo:
            cls = "typo"
            why = (f"the minimal corrected form (confirmed) differs from the printed one by {change['kind']}: "
                   f"{change['differs']}" + ("" if change["value_level"] else
                                             "; the failure is not located at points of the domain"))
            rec["correction"] = f"{change['kind']}: {change['differs']}"
        elif support == "positive":
            cls = "substantive"
            why = f"fails on {_pct(m)} ({m['method']})"
        elif support == "interior":
            cls, why = "substantive", "a counterexample inside the stated domain (fraction not measured)"
        else:
            cls, why = "substantive", "a counterexample whose place in the domain is not recorded"
        if cls == "substantive" and change is not None:
            why += (f"; the minimal correction is {change['kind']} ({change['differs']}), which changes how the "
                    "result depends on its parameters" if not change["value_level"] else
                    f"; the minimal correction, {change['kind']} ({change['differs']}), is not confirmed")
    rec["class"], rec["why"] = cls, why
    return rec


def reclassify(doc: dict, claims: dict | None = None) -> list[dict]:
    """The rule re-applied to a results document without running anything: for each refuted or does-not-extend
    claim, its recorded role, measured support, corrected verdict and the verdicts of its ``holds_by`` claims, with
    the minimal change computed from ``claims`` (id -> :class:`~verify.model.claim.Claim` of this checkout, for
    the sympy forms and a declared ``repair``; a document records LaTeX only) or else read from the record.
    Returns ``[{"id", "old", "new", "record"}]`` (old: the class the document holds)."""
    claims = claims or {}
    verdict = {c["id"]: c["verdict"] for c in doc["claims"]}
    out = []
    for c in doc["claims"]:
        if c["verdict"] not in ("refuted", "does not extend"):
            continue
        sev = c.get("severity") if isinstance(c.get("severity"), dict) else {}
        claim = claims.get(c["id"])
        rec = classify(role=c.get("role") or "statement", measured=sev.get("measured") or {},
                       holds_by=[{"id": h, "verdict": verdict.get(h, "not in this run")} for h in c.get("holds_by", [])],
                       corrected_verdict=c.get("corrected_verdict"),
                       change=minimal_change(claim) if claim is not None else sev.get("change"),
                       repair=getattr(claim, "repair", None), extension=c["verdict"] == "does not extend")
        out.append({"id": c["id"], "old": sev.get("class"), "new": rec["class"], "record": rec})
    return out


def _support(m: dict) -> str:
    """Where the failure lies: "zero" (a set of measure zero), "positive" (a measured positive fraction), "interior"
    (a counterexample inside the domain, fraction not measured), "not located" (no point of the domain recorded)."""
    f = m.get("fraction")
    if f == 0:
        return "zero"
    if isinstance(f, (int, float)) and f > 0:
        return "positive"
    if m.get("depth") == 0:
        return "zero"
    if isinstance(m.get("depth"), (int, float)):
        return "interior"
    return "not located"


def _holds(holds_by: list[dict]) -> bool:
    """Whether the claims named by a proof step's ``holds_by`` are all confirmed (a claim outside the run counts as
    not known otherwise: a partial run does not reclassify a proof step)."""
    return bool(holds_by) and all(h["verdict"] in ("confirmed", "not in this run") for h in holds_by)


def proof_consequence(repair: str | None, corrected_verdict: str | None, change: dict | None) -> dict:
    """What the proof gives once a failing step is repaired (:data:`PROOF_CONSEQUENCES`), declared or derived."""
    if repair:
        out = {"consequence": repair, "why": "declared by the claim"}
    elif corrected_verdict != "confirmed":
        out = {"consequence": "does not follow",
               "why": f"no repaired step is verified (corrected form: {corrected_verdict or 'none'})"}
    elif change is None:
        out = {"consequence": "not assessed", "why": "no sympy form of the step to compare with its repair"}
    elif change["value_level"]:
        out = {"consequence": "absorbed", "why": f"the repair changes {change['kind']} only ({change['differs']})"}
    else:
        out = {"consequence": "weaker rate",
               "why": f"the repair changes {change['kind']} ({change['differs']}); not declared absorbed"}
    out["rank"] = PROOF_CONSEQUENCES.index(out["consequence"])
    return out


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
    """The minimal change in words ("an off-by-one in a constant: -2 where -1"), or None (:func:`minimal_change`)."""
    ch = minimal_change(claim)
    return None if ch is None else f"{ch['kind']}: {ch['differs']}"


def minimal_change(claim) -> dict | None:
    """How the printed form (``claim.stated``) differs from the minimal corrected one (``claim.corrected_form``, else
    our derived form) when that difference is one change of a shape authors mistype; None otherwise or without both
    sympy forms.

    Returns ``kind`` (a sign, a constant factor, an off-by-one in a constant, a constant, an exponent, a missing or
    an extra factor, one symbol for another, a transposed index, a missing or an extra term), ``differs`` ("-2 where
    -1": the printed piece where the correct one stands, in plain text), ``printed`` / ``correct`` (LaTeX of the
    two pieces) and ``value_level``: True when the change leaves the result's form and order intact (a sign, a
    constant factor, one number of a sum changed), False when it changes how the result depends on a parameter."""
    import sympy as sp

    s = claim.stated
    d = getattr(claim, "corrected_form", None)
    d = claim.derived if d is None else d
    if not (isinstance(s, sp.Expr) and isinstance(d, sp.Expr)):
        return None
    try:
        return _change(s, d)
    except Exception:   # a form sympy cannot compare (a relational, a Piecewise it cannot simplify): no shape
        return None


def _change(s, d) -> dict | None:
    import sympy as sp

    if sp.simplify(s - d) == 0:
        return None
    out = lambda kind, a, b, value: {"kind": kind, "differs": f"{_plain(a)} where {_plain(b)}",  # noqa: E731
                                     "printed": sp.latex(a), "correct": sp.latex(b), "value_level": value}
    ratio = sp.simplify(sp.powsimp(s / d, force=True)) if d != 0 else sp.nan
    if ratio == -1:
        return out("a sign", *_context(s, d), True)
    if ratio.is_number and ratio.is_finite and ratio != 0:
        return {**out("a constant factor", s, d, True), "differs": f"{_plain(ratio)} times the correct value"}
    a, b, parent = _differing(s, d, None)
    if a.is_Number and b.is_Number:
        if parent is not None and parent.is_Add:   # a constant of a sum or a denominator: n - p - 2 for n - p - 1
            return out("an off-by-one in a constant" if abs(a - b) == 1 else "a constant", a, b, True)
        if parent is not None and parent.is_Pow and parent.exp == a:   # kappa^(-1/2) for kappa^(-1)
            return out("an exponent", *_context(s, d), False)
        return out("a sign" if a == -b else "a constant", *_context(s, d), False)
    if a.is_Symbol and b.is_Symbol:
        kind = "a transposed index" if _transposed(str(a), str(b)) else "one symbol for another"
        if sp.simplify(s.subs(a, b) - d) == 0:
            return out(kind, a, b, False)
    if (a.is_Pow or b.is_Pow) and a.as_base_exp()[0] == b.as_base_exp()[0]:
        return out("an exponent", a, b, False)
    if b == 1 and _one_factor(a):
        return {**out("an extra factor", a, b, False), "differs": f"an extra factor {_plain(a)}"}
    if a == 1 and _one_factor(b):
        return {**out("a missing factor", a, b, False), "differs": f"a factor {_plain(b)} missing"}
    if _one_factor(ratio) and len(ratio.free_symbols) == 1:   # one factor of one symbol, wherever it sits
        return {**out("a missing factor", s, d, False), "differs": f"a factor {_plain(1 / ratio)} missing"}
    if b == 0 and _one_term(a):
        return out("an extra term", a, b, False)
    if a == 0 and _one_term(b):
        return out("a missing term", a, b, False)
    diff = sp.simplify(s - d)
    if _one_term(diff):
        return {**out("one term", diff, sp.Integer(0), False), "differs": f"an extra term {_plain(diff)}"}
    return None


def _differing(a, b, parent):
    """The smallest pair of sub-expressions in which ``a`` and ``b`` differ, with the expression that holds them."""
    while True:
        na, nb, p = _step(a, b)
        if na is None:
            return a, b, parent
        a, b, parent = na, nb, p


def _context(s, d):
    """The printed and correct pieces around a change that is not a term of a sum (a sign in an exponent): the
    outermost differing pair headed by a function or a power (e^{r^2/2} where e^{-r^2/2}, log(1/y) where log(y)),
    else the whole forms."""
    a, b = s, d
    while a is not None:
        if not (a.is_Add or a.is_Mul or a.is_Number) and a.free_symbols:
            return a, b
        a, b, _ = _step(a, b)
    return s, d


def _step(a, b):
    """One level down: the differing arguments of ``a`` and ``b`` (None when they do not narrow to one pair).  The
    arguments of a sum or product are matched as multisets; a term or factor on one side only is paired with the
    empty sum 0 or the empty product 1."""
    if a.func == b.func and a.args and b.args:
        if a.is_Add or a.is_Mul:
            ra, rb = list(a.args), list(b.args)
            for x in list(ra):
                if x in rb:
                    ra.remove(x)
                    rb.remove(x)
            if len(ra) <= 1 and len(rb) <= 1 and (ra or rb):
                return a.func(*ra), b.func(*rb), a
        elif len(a.args) == len(b.args):
            diffs = [(x, y) for x, y in zip(a.args, b.args) if x != y]
            if len(diffs) == 1:
                return diffs[0][0], diffs[0][1], a
    return None, None, None


def _one_factor(x) -> bool:
    """A single symbol or a power of one, with a numeric coefficient at most (kappa, 1/kappa, sqrt(kappa), 2 n)."""
    c, rest = x.as_coeff_Mul()
    base, _ = rest.as_base_exp()
    return bool(c.is_Number and base.is_Symbol)


def _one_term(x) -> bool:
    """A single monomial: a product of numbers, symbols and powers of symbols."""
    return (x != 0 and not x.is_Add and all(f.is_Symbol or f.is_Number or (f.is_Pow and f.base.is_Symbol)
                                            for f in x.as_ordered_factors()))


def _transposed(a: str, b: str) -> bool:
    """Two symbol names that differ by the order of their indices (W_{lk} for W_{kl}, a_ij for a_ji)."""
    return a != b and sorted(a) == sorted(b)


def _plain(x) -> str:
    """A short plain-text form of a sympy piece for a report line: powers as ^, products as juxtaposition, no sympy
    syntax (``**``, ``oo``)."""
    import sympy as sp

    t = sp.sstr(x).replace("**", "^").replace("*", " ").replace("oo", "∞")
    return t.replace("-", "−")
