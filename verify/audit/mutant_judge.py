"""Judging a claim's mutants and power witnesses with the claim's own check: the whole check run once per
mutant on memoised draws (Holm over a full run's family, replication), or a part of it that judges the stated form
itself (an Expectation, an Asymptotic, an Identity) re-judged on one simulation (:func:`claim_mutation_power`).
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any
import sympy as sp
from verify.run import runner as api
from verify.model.claim import Verdict
from verify.judge import AllOf, Asymptotic, Expectation, Identity, point_tests, stat_test
from verify.judge.points import _points
from verify.judge.stated import ALIASES, reads
from verify.model.stats import holm, student_q, two_sided_p
from verify.audit.mutant_forms import CONTROL, FAMILY, _finite, _fn, mutants
from verify.audit.mutant_status import _equivalent, _holds_on_the_data, _implied_by_derived, _limit_vars, _on_the_grid, _rescales_terms, _status_of, _unchanged, _weaker_in_the_limit

def _parts(claim) -> list:
    return list(claim.check.parts) if isinstance(claim.check, AllOf) else [claim.check]


def _expectations(claim) -> list[Expectation]:
    return [p for p in _parts(claim) if isinstance(p, Expectation) and p.target == "stated"]


def _outcome(first: list, again: list) -> dict:
    """A mutant's result: refuted when some first-run rejection was rejected again on the replication draws."""
    return {"refuted": bool(again), "rejected_first": len(first), "replicated": len(again),
            "example": f"{again[0].label}: {again[0].estimate:.5g} vs {again[0].predicted:.5g}" if again else None}


def _holm_rejected(tests, family, alpha):
    ps = [t.pvalue for t in tests] + [1.0] * max(0, family - len(tests))
    adj = holm(ps)[:len(tests)]
    return [t for t, pa in zip(tests, adj) if pa < alpha and not t.equivalent]


def _limits(asym: Asymptotic, claim, ctx) -> list[dict]:
    ev = asym.run(claim, dataclasses.replace(ctx, progress=False))
    return ev.details.get(f"limits{':' + asym.name if asym.name else ''}", [])


def _asym_tests(asym: Asymptotic, limits: list[dict], f) -> list:
    """The tests Asymptotic makes of its stated limit, with ``f`` as the stated limit (same test and tolerance)."""
    from verify.model.evidence import StatTest
    from verify.judge import label_of

    q = student_q(0.95, None)
    out = []
    for lim in limits:
        if "extrapolated" not in lim or lim.get("gof_p", 0.0) < 0.01:
            continue
        p, ex, se = lim["point"], lim["extrapolated"], lim["extrapolated_stderr"]
        value = f(p)
        out.append(StatTest(label=(asym.name + ": " if asym.name else "") + label_of(p), params=dict(p),
                            predicted=value, estimate=ex, stderr=se, trials=0, tol=asym.tol.of(value),
                            pvalue=two_sided_p(ex, se, value), target="stated", ci=(ex - q * se, ex + q * se)))
    return out


def _judge_asymptotic(asym: Asymptotic, claim, ctx, forms: dict, family: int, alpha: float) -> dict[str, dict]:
    """Simulate and extrapolate ``asym`` once (and once more at the rejected points), judge every form."""
    first_lims = _limits(asym, claim, ctx)
    if not _asym_tests(asym, first_lims, forms[CONTROL]):
        return {}   # no extrapolated limit (fewer than three sizes, or the 1/N model rejected): no evidence
    first = {name: _holm_rejected(_asym_tests(asym, first_lims, f), family, alpha) for name, f in forms.items()}
    need = {t.label: t.params for rs in first.values() for t in rs}
    rep_lims = []
    if need:
        from verify.model.context import derive_seed

        rctx = dataclasses.replace(ctx, seed=derive_seed(ctx.seed, "replication"), at=list(need.values()),
                                   progress=False)
        rep_lims = _limits(asym, claim, rctx)
    out = {}
    for name, f in forms.items():
        labs = {t.label for t in first[name]}
        again = [t for t in _holm_rejected(_asym_tests(asym, rep_lims, f), family, alpha) if t.label in labs]
        out[name] = _outcome(first[name], again)
    return out


def _identity_side(ident: Identity, stated) -> str | None:
    """'lhs' or 'rhs' when that side of the identity is the stated form (sympy), else None."""
    for side in ("lhs", "rhs"):
        v = getattr(ident, side)
        try:
            v = sp.sympify(v() if callable(v) else v)
            if v == stated or (sp.count_ops(v) <= 80 and sp.simplify(v - stated) == 0):
                return side
        except Exception:  # noqa: BLE001 - a side that is not a sympy expression is not the stated form
            continue
    return None


def _judge_identity(ident: Identity, side: str, claim, ctx, forms: dict) -> dict[str, dict]:
    out = {}
    for name, m in forms.items():
        ev = dataclasses.replace(ident, **{side: m}).run(claim, ctx)
        bad = [c for c in ev.checks if c.passed is False]
        out[name] = {"refuted": any(c.refutes for c in bad), "detected": bool(bad),
                     "example": (f"{bad[0].name}: {bad[0].detail[:100]}" if bad else None)}
    return out


def _judge(exp: Expectation, claim, ctx, forms: dict, family: int, alpha: float) -> dict[str, dict]:
    """Simulate ``exp`` once (and once more to replicate), then judge every form in ``forms``."""
    recs = []

    def record(lab, p, x, seed, *inst):
        recs.append((lab, p, x, seed, inst))
        return stat_test(lab, p, 0.0, x, exp.tol, exp.target, seed)
    point_tests(exp, claim, ctx, record, exp.vector)

    def tests_for(f, rs):
        out = []
        for lab, p, x, seed, inst in rs:
            var = None if exp.variance is None else exp.variance(p, *inst)
            out.append(stat_test(lab, p, f(p), x, exp.tol, exp.target, seed, variance=var))
        return out

    first = {name: _holm_rejected(tests_for(f, recs), family, alpha) for name, f in forms.items()}
    need = {t.label for rs in first.values() for t in rs}
    reps = []
    if need:
        from verify.model.context import derive_seed

        pts = [p for lab, p, *_ in recs if lab in need]
        rctx = dataclasses.replace(ctx, seed=derive_seed(ctx.seed, "replication"), at=pts, progress=False)
        point_tests(exp, claim, rctx, lambda lab, p, x, seed, *inst: (reps.append((lab, p, x, seed, inst)),
                                                                       stat_test(lab, p, 0.0, x, exp.tol, exp.target,
                                                                                 seed))[1], exp.vector)
    out = {}
    for name, f in forms.items():
        labs = {t.label for t in first[name]}
        again = _holm_rejected(tests_for(f, [r for r in reps if r[0] in labs]), family, alpha) if labs else []
        out[name] = _outcome(first[name], again)
    return out


class _Part:
    """One part of a claim's check, as the whole-check mutation path runs it: on the control run it records whether
    it read the stated form (``reads_stated``); once frozen, a part that did not read it returns a copy of its
    control evidence for the same seed and points instead of running again (its outcome cannot depend on the
    mutant: an Identity of our derivation, a literal cross-check, a figure)."""

    def __init__(self, part, claim_id: str, points: list):
        self.part, self.claim_id, self.points = part, claim_id, points   # points: where the stated form was read
        self.reads_stated, self.frozen, self.memo = False, False, {}
        self.takes_points = bool(getattr(part, "takes_points", False))
        self.name = getattr(part, "name", "")

    def run(self, claim, ctx):
        import copy

        key = (ctx.seed, repr(ctx.at))
        if self.frozen and not self.reads_stated and key in self.memo:
            return copy.deepcopy(self.memo[key])
        with reads() as rec:
            ev = self.part.run(claim, ctx)
        if self.claim_id in rec.ids:
            self.reads_stated = True
            if not self.frozen:   # the control run's points; a mutant's reads are not needed
                self.points += rec.points
        if not self.reads_stated:
            self.memo[key] = copy.deepcopy(ev)
        return ev


def _whole_claim_power(claim, ctx, family: int, alpha: float) -> dict | None:
    """The claim's own check, whatever its strategies (custom code included), run once per mutant with the mutant
    as the claim's stated form.  Only for checks that read the stated form through
    :func:`verify.judge.stated.stated_value` (seen on the control run); the Monte Carlo draws are memoised, so every
    mutant is judged on the control's draws (and the replication's).  None when the check does not read it."""
    mctx = dataclasses.replace(ctx, memo={}, progress=False)
    read_at: list[dict] = []
    parts = [_Part(p, claim.id, read_at) for p in _parts(claim)]
    claim = dataclasses.replace(claim, check=AllOf(parts))
    evs: list = []
    v0, why0, ok0 = api.judge_alone(claim, mctx, alpha, family, evidence=evs)
    ev0 = evs[0]
    if not any(p.reads_stated for p in parts):
        return None
    for p in parts:
        p.frozen = True
    pts = list({repr(sorted(p.items())): p for p in read_at}.values())
    f0 = _fn(claim.stated)
    sign = {"upper": 1, "lower": -1}.get(claim.stated_bound)
    rows = []
    for name, m in mutants(claim.stated).items():
        row = {"mutant": name, "form": sp.sstr(m)}
        rows.append(row)
        if eq := _equivalent(m, claim):
            row["status"] = eq
            continue
        fm = _fn(m)
        try:
            vals = [(fm(p), f0(p)) for p in pts]
        except Exception:  # noqa: BLE001
            vals = [(math.nan, 0.0)]
        if not all(_finite(a) for a, _ in vals):
            row["status"] = "undefined at a point the check evaluates (not judged)"
            continue
        changed, fixed = _on_the_grid(m, claim.stated, pts)
        if changed and set(changed) <= set(claim.stated_at):
            row["status"] = ("equivalent on the claim's domain (it changes only the dependence on "
                             + ", ".join(f"{k}, which the statement fixes at {claim.stated_at[k]:g}" for k in changed)
                             + ")")
            continue
        # relative comparisons: an order evaluated far out (m = 1e120) has values ~1e-30, all distinct
        if all(abs(a - b) <= 1e-12 * max(abs(a), abs(b)) for a, b in vals):
            row["status"] = "survived: equal on the grid" + (f" (it holds {', '.join(fixed)} fixed)" if fixed else "")
            continue
        if sign and all(sign * (a - b) >= -1e-12 * max(abs(a), abs(b)) for a, b in vals):
            row["status"] = (f"weaker bound (not judged: {'above' if sign > 0 else 'below'} the stated "
                             f"{claim.stated_bound} bound at every point, so true whenever it is)")
            continue
        if sign and isinstance(claim.derived, sp.Expr) and _implied_by_derived(claim, m, pts, sign):
            row["status"] = (f"tighter bound implied by our derived bound {sp.sstr(claim.derived)} (which the check "
                             f"verifies) at every point the check reads: true, not counted")
            continue
        limit = _limit_vars(claim)
        limit_vars = tuple(limit)
        if limit_vars and _rescales_terms(m, claim.stated, limit_vars):
            row["status"] = ("equivalent as an order on the tested domain (each term of the sum rescaled by a positive "
                             "factor free of " + ", ".join(limit_vars) + ": O(c1 f1 + c2 f2) = O(f1 + f2))")
            continue
        if limit_vars and changed and not set(changed) & set(limit_vars):
            # O(.) here is as limit_vars go to their limits; the other symbols take finitely many values on any
            # grid, and a factor of them alone is bounded above and below there: the same O-statement
            row["status"] = (f"equivalent as an order on the tested domain (it changes only the factor in "
                             f"{', '.join(changed)}, finitely many values on a grid; the order is as "
                             f"{', '.join(limit_vars)} go to their limits)")
            row["fixed"] = changed
            continue
        ratios = [a / b for a, b in vals if b != 0]
        if (claim.stated_order and fixed and len(ratios) == len(vals)
                and all(abs(q - ratios[0]) <= 1e-9 * abs(ratios[0]) for q in ratios)):
            # every symbol whose dependence the mutant changes has one value on the check's grid: there the
            # mutant is the stated order times a constant, the same O-statement (the grid's limit, said here)
            row["status"] = (f"equivalent as an order on the tested grid (a constant factor there: the check "
                             f"holds {', '.join(fixed)} fixed)")
            row["fixed"] = fixed
            continue
        if limit and sign and _weaker_in_the_limit(m, claim.stated, limit, pts, sign):
            row["status"] = ("weaker bound as an order (mutant / stated bounded away from 0 along every path into the "
                             "limit " + ", ".join(f"{k} -> {v}" for k, v in limit.items())
                             + ", at the other symbols' values: true whenever the stated order is)")
            continue
        mev: list = []
        r = _status_of(*api.judge_alone(dataclasses.replace(claim, stated=m), mctx, alpha, family, evidence=mev),
                       v0)
        row["status"] = ("check raised an error (not judged)" if r.get("error") else "refuted" if r["refuted"]
                         else "detected (inconclusive)" if r.get("detected") else "survived")
        if row["status"] == "survived" and fixed:
            # the grid cannot see the change: a survivor, with the symbol the check should vary named
            row["status"] = f"survived: the grid holds {', '.join(fixed)} fixed"
            row["fixed"] = fixed
        elif row["status"] == "survived" and sign and v0 is Verdict.CONFIRMED and _holds_on_the_data(mev[0], ev0, sign):
            # a bound tighter than the stated one somewhere, which the simulated data themselves satisfy (no draw
            # violates it; a measured slope whose whole CI lies under its exponent) on a grid that varies every
            # symbol it changes: a true statement wherever the check looks, so no sound test refutes it there
            row["status"] = ("tighter bound the data satisfy (no violation / CI inside it, on a grid that varies "
                             + (", ".join(changed) if changed else "nothing it changes: a constant")
                             + "): true where tested, not counted")
        elif row["status"] == "survived" and _unchanged(mev[0], ev0):
            row["status"] = ("survived: every test and check of the claim came out as for the stated form (the "
                             "check does not see this change)")
        if row["status"] in ("survived", "detected (inconclusive)") and _changes_only_unresolved(m, claim, pts):
            row["status"] = ("equivalent on the tested domain (declared by the claim: it keeps every other term and "
                             "changes only " + sp.sstr(claim.unresolved_term) + ", which the data do not resolve "
                             "where the statement applies; see the claim's notes)")
    # a check made only of our derivation's tests and checks (target 'derived', refutes=False) cannot refute a
    # mutant, only make it inconclusive: its claim is listed with what it caught, not counted in the power
    can_refute = any(t.target == "stated" for t in ev0.tests) or any(c.refutes for c in ev0.checks)
    return dict(_summary(rows, ["whole check"]), can_refute=can_refute, control_verdict=v0.value,
                control_refuted=v0 in (Verdict.REFUTED, Verdict.DOES_NOT_EXTEND),
                control_detected=ok0 and v0 is not Verdict.CONFIRMED)


def _changes_only_unresolved(m: sp.Expr, claim, pts: list[dict]) -> bool:
    """Whether a mutant keeps every term of the stated sum but the claim's ``unresolved_term`` and is at least the sum
    of those kept terms at every point the check reads (it drops or replaces only that term by a non-negative one)."""
    T = getattr(claim, "unresolved_term", None)
    if T is None:
        return False
    kept = sp.Add.make_args(sp.expand(claim.stated - T))
    if not set(kept) <= set(sp.Add.make_args(sp.expand(m))):
        return False
    rest = sp.expand(m - (claim.stated - T))
    if rest == 0:
        return True
    f = _fn(rest)
    try:
        return all(f(p) >= 0 for p in pts)
    except Exception:  # noqa: BLE001
        return False


def _summary(rows: list[dict], judged_by: list[str]) -> dict:
    """A covered claim's counts over its mutant rows (the judged ones: refuted, survived, detected)."""
    judged = [r for r in rows if r["status"] in ("refuted", "detected (inconclusive)")
              or r["status"].startswith("survived")]
    killed = sum(r["status"] == "refuted" for r in judged)
    return {"covered": True, "mutants": rows, "judged": len(judged), "refuted": killed,
            "detected": sum(r["status"] == "detected (inconclusive)" for r in judged), "judged_by": judged_by,
            "power": killed / len(judged) if judged else None}


def claim_mutation_power(claim, ctx, family: int = FAMILY, alpha: float = api.ALPHA) -> dict:
    """Mutants of one claim's stated form, judged on its Monte Carlo evidence (see the module docstring), and its
    declared power witnesses (``Claim.power``), each judged by the claim's check built for the wrong statement."""
    res = _sympy_mutation_power(claim, ctx, family, alpha)
    if not claim.power:
        return res
    rows, v0, ok0 = _power_witnesses(claim, ctx, family, alpha)
    if res.get("covered"):
        allrows = res["mutants"] + rows
        return dict(res, **_summary(allrows, res["judged_by"] + ["power witnesses"]))
    return dict(_summary(rows, ["power witnesses"]), can_refute=True, control_verdict=v0.value,
                control_refuted=v0 in (Verdict.REFUTED, Verdict.DOES_NOT_EXTEND),
                control_detected=ok0 and v0 is not Verdict.CONFIRMED, sympy=res.get("why"))


def _power_witnesses(claim, ctx, family: int, alpha: float) -> tuple[list[dict], Any, bool]:
    """Judge each declared :class:`~verify.model.claim.Alternative` as a run would judge the claim with that check (the
    draws memoised, so alternatives that simulate the same points meet the same samples)."""
    mctx = dataclasses.replace(ctx, memo={}, progress=False)
    v0, _, ok0 = api.judge_alone(claim, mctx, alpha, family)
    rows = []
    for alt in claim.power:
        r = _status_of(*api.judge_alone(dataclasses.replace(claim, check=alt.check, tags=()), mctx, alpha, family),
                       v0)
        rows.append({"mutant": f"power witness: {alt.name}", "form": alt.why or alt.name,
                     "status": ("check raised an error (not judged)" if r.get("error") else "refuted" if r["refuted"]
                                else "detected (inconclusive)" if r.get("detected") else "survived"),
                     "evidence": r.get("example", "")})
    return rows, v0, ok0


def _sympy_mutation_power(claim, ctx, family: int, alpha: float) -> dict:
    stated = claim.stated
    if not isinstance(stated, sp.Expr):
        return {"covered": False, "why": "stated form is not a sympy expression"}
    whole = _whole_claim_power(claim, ctx, family, alpha)
    if whole is not None:
        return whole
    names = [str(x) for x in stated.free_symbols]
    f0 = _fn(stated)

    def matches(pred, pts):
        try:
            return bool(pts) and all(all(n in p or ALIASES.get(n) in p for n in names) and _finite(f0(p)) and
                                     abs(f0(p) - float(pred(p))) <= 1e-9 * (1 + abs(f0(p))) for p in pts)
        except Exception:  # noqa: BLE001 - a form that cannot be evaluated at the grid is not covered
            return False

    usable = []       # (part, points): Expectation or Asymptotic judging the stated value on a grid
    idents = []       # (Identity, side)
    for part in _parts(claim):
        if isinstance(part, Expectation) and part.target == "stated" and part.instance is None:
            pts = _points(part.points, ctx, claim)
            if matches(part.predicted, pts):
                usable.append((part, pts))
        elif isinstance(part, Asymptotic):
            pts = _points(part.points, ctx, claim)
            if matches(part.stated, pts):
                usable.append((part, pts))
        elif isinstance(part, Identity):
            side = _identity_side(part, stated)
            if side:
                idents.append((part, side))
    if not usable and not idents:
        return {"covered": False, "why": "no Expectation, Asymptotic or Identity of the check judges the stated sympy "
                                         "form itself (another quantity, a random instance, a predicate searched "
                                         "by PropertySearch, or a custom check)"}
    ms = mutants(stated)
    rows, forms, forms_sym = [], {}, {}
    for name, m in ms.items():
        row = {"mutant": name, "form": sp.sstr(m)}
        if eq := _equivalent(m, claim):
            row["status"] = eq
            rows.append(row)
            continue
        fm = _fn(m)
        vals = []
        for exp, pts in usable:
            for p in pts:
                try:
                    vals.append((fm(p), f0(p)))
                except Exception:  # noqa: BLE001
                    vals.append((math.nan, f0(p)))
        if usable and not all(_finite(a) for a, _ in vals):
            row["status"] = "undefined at a grid point (not judged)"
            rows.append(row)
            continue
        if usable and not idents and all(abs(a - b) <= 1e-12 * (1 + abs(b)) for a, b in vals):
            row["status"] = "survived: equal on the grid"
            rows.append(row)
            continue
        forms[name] = fm
        forms_sym[name] = m
        rows.append(row)
    forms[CONTROL] = f0   # the stated form itself, judged the same way: must not be refuted
    forms_sym[CONTROL] = stated
    verdicts: dict[str, dict] = {name: {"refuted": False} for name in forms}

    def merge(res):
        for name, r in res.items():
            if r["refuted"] and not verdicts[name]["refuted"]:
                verdicts[name] = r
            elif r.get("detected") and not verdicts[name]["refuted"]:
                verdicts[name] = dict(r, refuted=False)
    judged_by = set()
    for part, _ in usable:
        res = (_judge if isinstance(part, Expectation) else _judge_asymptotic)(part, claim, ctx, forms, family, alpha)
        if res:
            judged_by.add(type(part).__name__)
        merge(res)
    for ident, side in idents:
        merge(_judge_identity(ident, side, claim, ctx, forms_sym))
        judged_by.add("Identity")
    if not judged_by:
        return {"covered": False, "why": "its Asymptotic gives no extrapolated limit at this profile (fewer than "
                                         "three sizes, or the 1/N model rejected)"}
    for row in rows:
        if row["mutant"] in verdicts:
            r = verdicts[row["mutant"]]
            row["status"] = ("refuted" if r["refuted"] else "detected (inconclusive)" if r.get("detected")
                             else "survived")
            if r.get("example"):
                row["evidence"] = r["example"]
    return dict(_summary(rows, sorted(judged_by)), control_refuted=verdicts[CONTROL]["refuted"],
                control_detected=bool(verdicts[CONTROL].get("detected")))
