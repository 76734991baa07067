"""Mutation power, generated automatically from each claim's stated sympy form.

A referee's question about a confirmation is "could this test have failed?".  The answer measured here:
perturb the stated closed form the way misprints and derivation slips perturb formulas (a constant changed by
+-10 % or by a factor 2, an exponent +-1, a term dropped, a term's sign flipped, an index shifted by one, two
symbols swapped), judge each perturbed form ("mutant") with the claim's own Monte Carlo evidence, and count how
many are refuted.

Which claims: those whose ``stated`` is a sympy expression and whose check judges that expression itself.

* **The whole check** (preferred), when the check reads the stated form through
  :func:`verify.judge.stated.stated_value` (``Expectation(predicted=STATED)``, ``Asymptotic(stated=STATED)``, or a
  custom check calling ``stated_value(claim)``), which the control run records: the claim's own check, whatever
  its strategies, is run once per mutant with the mutant as the claim's stated form, judged exactly as ``verify
  run`` judges it (Holm, replication of every rejection), and the mutant counts as refuted when the claim's
  verdict is.  The Monte Carlo draws are memoised (``Context.memo``), so every mutant meets the control's draws
  and the replication's; parts of the check that did not read the stated form (our derivation's identities, a
  literal cross-check) are not run again.  For a claim whose stated form is a bound (``stated_bound``), mutants
  that only weaken the bound at every evaluated point are set aside: no test can refute a true weaker bound.

  A mutant that is not refuted is told apart (each reason is in its row's ``status``, totalled in ``set_aside``):
  set aside, because it is true where the check looks or the same statement there: a tighter bound that the data
  themselves satisfy (a violation count of 0 or, for a probability bound, a violation frequency whose CI lies under
  delta, a passed ``Check`` with ``extra[EVERY_VALUE]``, or the control's
  estimate with its whole CI inside the mutant's bound), on a grid that varies every symbol it changes; a tighter
  bound implied by the claim's ``derived`` (our verified sharper) bound; for an order, a constant factor, or with
  ``stated_order=(limit variables)`` a factor free of them (or each term of a sum rescaled so), or a weaker
  O-statement (mutant / stated bounded away from 0 along every path into the limit); a change of a symbol
  the statement fixes (``stated_at``); for a limit statement, a mutant equal to the stated form where the symbols
  of ``stated_limit`` take their limits (the two differ by a term that vanishes there); a parity rewrite equal at
  every integer.  Otherwise it is a survivor, named
  "the grid holds X fixed" when every symbol it changes (found by moving one symbol at a time at the points the
  check read) has one value there, or "no test changes".  A claim whose check cannot refute (only our derivation's
  tests and ``refutes=False`` checks) is listed with what it caught and not counted in the totals.

Otherwise, a part of the check that judges the stated form itself:

* an ``Expectation`` whose prediction *is* the stated form at every grid point (checked numerically before any
  mutant is judged).  The samples do not depend on the form being judged, so each Expectation is simulated once,
  and once more for the replication of rejections (fresh draws from the replication seed, as ``verify run``
  does); every mutant is then judged on those samples with the same t-test and tolerance as the stated form;
* an ``Asymptotic`` whose stated limit is the stated form at every grid point: simulated and extrapolated in 1/N
  once (and once more at the rejected points for the replication); every mutant is judged on the extrapolated
  intercepts with the same test and tolerance as the stated limit.  Where the claim has an exact finite-size form
  (``finite``), its own check establishes the limit symbolically (which any wrong limit fails); judging the mutant
  on the extrapolation of the same simulations is weaker, so the power reported there is a lower bound;
* an ``Identity`` one of whose sides is the stated form (sympy): the mutant replaces that side and the identity
  is checked again (sympy, then 50-digit mpmath at random points).  A failing identity that refutes counts as
  refuted; one with ``refutes=False`` (our derivation against the stated form) makes the claim inconclusive,
  counted as "detected", not refuted.

A claim whose stated form is judged by none of these (another quantity, a random instance, a search over a
predicate, a custom check) is listed as not covered with the reason.

Multiple testing is made *stricter* than in a run: each mutant's tests are Holm-adjusted as if the family had
``family`` members (default: the size of a full quick run), the others taken as p = 1 (Bonferroni at the
smallest p-value).  A mutant counts as refuted only if some test rejects it and the replication also rejects
it.  A mutant that is symbolically equal to the stated form (sympy) is "equivalent" and not counted; one that
differs symbolically but agrees at every grid point to 1e-12 is a survivor flagged "equal on the grid" (the grid
cannot see that perturbation).
"""
from __future__ import annotations

import dataclasses
import itertools
import json
import math
import time
from pathlib import Path
from typing import Any

import sympy as sp

from verify.run import runner as api
from verify.model.claim import Verdict
from verify.judge import AllOf, Asymptotic, Expectation, Identity, point_tests, stat_test
from verify.judge.points import _points
from verify.judge.stated import ALIASES, function_of, mp_function_of, reads
from verify.model.stats import holm, student_q, two_sided_p

FAMILY = 550     # about the number of Monte Carlo tests of a full quick run
MAX_MUTANTS = 40
CONTROL = "control: the stated form itself"


# ------------------------------------------------------------------ mutant generation
def _key(e: sp.Expr) -> str:
    return sp.srepr(e)


def _formula_nodes(expr) -> list:
    """Sub-expressions of the formula itself: the conditions of a Piecewise (the domain) are not mutated."""
    out = []

    def walk(e):
        if isinstance(e, (sp.logic.boolalg.Boolean, sp.core.relational.Relational)):
            return
        out.append(e)
        for a in e.args:
            walk(a)
    walk(expr)
    return out


def mutants(expr: sp.Expr, limit: int = MAX_MUTANTS) -> dict[str, sp.Expr]:
    """Perturbed forms of ``expr``, name -> expression (deterministic order; symbolic duplicates removed).

    >>> n, d = sp.symbols("n d", positive=True)
    >>> m = mutants(n / (d - n - 1))
    >>> m["term -1 dropped from d - n - 1"], m["index shift d - n - 1 -> d - n - 2"]
    (n/(d - n), n/(d - n - 2))
    >>> m["swap d <-> n"]
    d/(-d + n - 1)
    """
    out: dict[str, sp.Expr] = {}
    seen = {_key(expr)}

    def add(name, make):
        try:   # a perturbation sympy cannot build (e.g. factorial2 of a non-integer) is skipped
            new = sp.sympify(make())
        except Exception:  # noqa: BLE001
            return
        k = _key(new)
        if k not in seen and new.free_symbols <= expr.free_symbols and not new.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            seen.add(k)
            out[name] = new

    nodes = _formula_nodes(expr)
    # constants (not 0, +-1: those are structure, and their shifts are index shifts below)
    for a in sorted({x for x in nodes if isinstance(x, sp.Number) and abs(x) not in (0, 1)}, key=str):
        add(f"constant {a} x 1.1", lambda: expr.xreplace({a: a * sp.Rational(11, 10)}))
        add(f"constant {a} x 0.9", lambda: expr.xreplace({a: a * sp.Rational(9, 10)}))
        add(f"constant {a} x 2", lambda: expr.xreplace({a: 2 * a}))
    # an overall factor
    add("whole form x 1.1", lambda: expr * sp.Rational(11, 10))
    add("whole form x 2", lambda: 2 * expr)
    # exponents
    for p in sorted({x for x in nodes if isinstance(x, sp.Pow) and x.exp.is_number and x.exp not in (-1,)}, key=str):
        add(f"exponent of {p} +1", lambda: expr.xreplace({p: sp.Pow(p.base, p.exp + 1)}))
        add(f"exponent of {p} -1", lambda: expr.xreplace({p: sp.Pow(p.base, p.exp - 1)}))
    # sums: a term dropped, a term's sign flipped, an index shift of a sum holding a symbol
    for s in sorted({x for x in nodes if isinstance(x, sp.Add)}, key=str):
        for t in s.args:
            add(f"term {t} dropped from {s}", lambda: expr.xreplace({s: s - t}))
            add(f"sign of {t} flipped in {s}", lambda: expr.xreplace({s: s - 2 * t}))
        if s.free_symbols:
            add(f"index shift {s} -> {s + 1}", lambda: expr.xreplace({s: s + 1}))
            add(f"index shift {s} -> {s - 1}", lambda: expr.xreplace({s: s - 1}))
    # two symbols swapped
    syms = sorted(expr.free_symbols, key=str)
    for a, b in itertools.combinations(syms, 2):
        add(f"swap {a} <-> {b}", lambda: expr.xreplace({a: b, b: a}))
    # a reciprocal's exponent: 1/x -> 1/x^2 and 1/x -> x^0 (last, so that the cap keeps the kinds above; an order
    # n^-1 has no other mutant that is not a constant factor)
    for p in sorted({x for x in nodes if isinstance(x, sp.Pow) and x.exp == -1}, key=str):
        add(f"exponent of {p} -1", lambda: expr.xreplace({p: sp.Pow(p.base, -2)}))
        add(f"exponent of {p} +1", lambda: expr.xreplace({p: sp.Integer(1)}))
    # a bare symbol's exponent 1 (a factor d, not the base of a power: those are above): d -> d^2 and d -> 1
    for x in syms:
        if _has_bare(expr, x):
            add(f"exponent of {x} +1", lambda: _bare(expr, x, x**2))
            add(f"exponent of {x} -1", lambda: _bare(expr, x, sp.Integer(1)))
    return dict(itertools.islice(out.items(), limit))


def _has_bare(e, x) -> bool:
    """Whether the symbol ``x`` occurs in ``e`` other than as the base of a power (or inside a condition)."""
    if e == x:
        return True
    if isinstance(e, sp.Pow):
        return e.base != x and _has_bare(e.base, x) or _has_bare(e.exp, x)
    if isinstance(e, sp.Piecewise):
        return any(_has_bare(a.expr, x) for a in e.args)
    return any(_has_bare(a, x) for a in e.args)


def _bare(e, x, new):
    """``e`` with the occurrences of ``x`` that are not the base of a power replaced by ``new`` (conditions of a
    Piecewise are kept)."""
    if e == x:
        return new
    if isinstance(e, sp.Pow):
        return sp.Pow(e.base if e.base == x else _bare(e.base, x, new), _bare(e.exp, x, new))
    if isinstance(e, sp.Piecewise):
        return sp.Piecewise(*[(_bare(a.expr, x, new), a.cond) for a in e.args])
    if not e.args:
        return e
    return e.func(*[_bare(a, x, new) for a in e.args])


# ------------------------------------------------------------------ judging
_fn = function_of   # a form as f(point) -> float (verify.judge.stated: the same evaluation every check uses)


def _finite(x) -> bool:
    return isinstance(x, float) and math.isfinite(x)


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


def _mp_pairs(a: sp.Expr, b: sp.Expr, points: list[dict]) -> list:
    """(a, b) in 30-digit mpmath at each point (symbol name -> value) where both are defined and finite."""
    import mpmath

    fa, fb = mp_function_of(a), mp_function_of(b)
    out = []
    with mpmath.workdps(30):
        for p in points:
            try:
                u, v = mpmath.mpmathify(fa(p)), mpmath.mpmathify(fb(p))
            except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                continue
            if mpmath.isfinite(u) and mpmath.isfinite(v):
                out.append((u, v))
    return out


def _differs_numerically(a: sp.Expr, b: sp.Expr, ratio: bool = False) -> bool:
    """Whether a - b (or a / b, with ``ratio``) is visibly not 0 (a constant) at 6 random points (each symbol in
    (0.1, 2), an integer one in 1..12), in 30-digit mpmath.  True rules equivalence out without sympy's simplify,
    which can take minutes on small trigonometric / radical forms (tahir2024.eq13.roots: 40 mutants, about 8
    minutes); False (equal wherever both are defined, or nowhere defined) leaves the question to simplify."""
    import random

    syms = sorted(a.free_symbols | b.free_symbols, key=str)
    rng = random.Random(0)
    pts = [{str(s): rng.randint(1, 12) if s.is_integer else rng.uniform(0.1, 2.0) for s in syms} for _ in range(6)]
    qs = [u / v if ratio else u - v for u, v in _mp_pairs(a, b, pts) if not (ratio and v == 0)]
    ref = qs[0] if ratio and qs else 0
    return any(abs(q - ref) > 1e-20 * (1 + abs(ref)) for q in qs)


def _equal_on_integers(a: sp.Expr, b: sp.Expr) -> bool:
    """For forms with one or two integer symbols: equal (30 digits) at every integer value 0..40 of them (all pairs),
    the other symbols at 3 random points in (0.1, 2); False when there is no integer symbol or somewhere they differ
    (or neither is defined anywhere)."""
    import random

    syms = sorted(a.free_symbols | b.free_symbols, key=str)
    ints = [s for s in syms if s.is_integer]
    if not ints or len(ints) > 2:
        return False
    rng, pts = random.Random(1), []
    for _ in range(3):
        reals = {str(s): rng.uniform(0.1, 2.0) for s in syms if not s.is_integer}
        pts += [{**reals, **{str(s): k for s, k in zip(ints, ks)}}
                for ks in itertools.product(range(41), repeat=len(ints))]
    pairs = _mp_pairs(a, b, pts)
    return bool(pairs) and all(abs(u - v) <= 1e-20 * (1 + abs(v)) for u, v in pairs)


def _equivalent(m: sp.Expr, claim) -> str | None:
    """Why the mutant ``m`` means the same as the claim's stated form, or None: equal (sympy), or, for a stated
    order, a constant multiple of it (O(c f) = O(f)).  A mutant that differs at random points is not simplified."""
    if sp.count_ops(m) > 60:   # sympy's simplify can take minutes on Piecewise / factorial forms: only small ones
        return None
    try:
        if not _differs_numerically(m, claim.stated):
            if sp.simplify(m - claim.stated) == 0:
                return "equivalent (sympy)"
            if _equal_on_integers(m, claim.stated):
                return ("equivalent on the integers (equal to 30 digits at every integer value 0..40 of its integer "
                        "symbols, others random: a parity or sign rewrite sympy does not prove)")
        if getattr(claim, "stated_limit", None):
            syms = {str(x): x for x in claim.stated.free_symbols | m.free_symbols}
            at = {syms.get(k, sp.Symbol(k)): sp.sympify(v, locals=syms) for k, v in claim.stated_limit.items()}
            if sp.simplify((m - claim.stated).subs(at)) == 0:
                return ("equivalent in the statement's limit (equal at " + ", ".join(
                    f"{k} = {v}" for k, v in claim.stated_limit.items()) + ": the two differ by a term that vanishes there)")
        if (claim.stated_order and not _differs_numerically(m, claim.stated, ratio=True)
                and sp.simplify(m / claim.stated).is_number):
            return "equivalent as an order (a constant factor: O(c f) = O(f))"
    except Exception:  # noqa: BLE001 - a simplification sympy cannot do decides nothing
        return None
    return None


def _key_of(p: dict, name: str):
    """The key of point ``p`` that gives the symbol ``name`` (the name itself or its alias), or None."""
    return name if name in p else ALIASES.get(name) if ALIASES.get(name) in p else None


def _on_the_grid(m: sp.Expr, stated: sp.Expr, pts: list[dict]) -> tuple[list[str], list[str]]:
    """Which symbols the mutant ``m`` changes the dependence on, and which of those the check holds fixed.

    A symbol is *changed* when moving it alone (x 1.37; an integer one by +1) at a point the check read changes the
    ratio m / stated (a pure change of a constant changes none).  It is *held fixed* when it has one value at every
    point where the check read the stated form: on that grid the mutant differs from the stated form only by a
    factor the check cannot tell from a constant."""
    f0, fm = _fn(stated), _fn(m)
    syms = {str(s): s for s in (m.free_symbols | stated.free_symbols)}
    changed = set()
    for p0 in pts[:50]:
        try:
            a, b = fm(p0), f0(p0)
        except Exception:  # noqa: BLE001
            continue
        if not (_finite(a) and _finite(b) and a != 0 and b != 0):
            continue
        r0 = a / b
        for n in sorted(set(syms) - changed):
            k = _key_of(p0, n)
            if k is None:
                continue
            v, q = p0[k], dict(p0)
            q[k] = v + 1 if isinstance(v, int) or syms[n].is_integer else v * 1.37
            try:
                a, b = fm(q), f0(q)
            except Exception:  # noqa: BLE001
                continue
            if _finite(a) and _finite(b) and b != 0 and abs(a / b - r0) > 1e-9 * abs(r0):
                changed.add(n)
    changed = sorted(changed)
    fixed = [n for n in changed
             if len({repr(p.get(_key_of(p, n))) for p in pts if _key_of(p, n) is not None}) <= 1]
    return changed, fixed


def _implied_by_derived(claim, m: sp.Expr, pts: list[dict], sign: int) -> bool:
    """Whether the mutant ``m`` of a stated bound lies between our derived (sharper) bound and the stated one at
    every point the check read: then it is a true bound wherever the derived one is."""
    if not claim.derived.free_symbols <= claim.stated.free_symbols or not pts:
        return False
    fd, fm = _fn(claim.derived), _fn(m)
    try:
        pairs = [(fm(p), fd(p)) for p in pts]
    except Exception:  # noqa: BLE001
        return False
    return all(_finite(a) and _finite(b) and sign * (a - b) >= -1e-12 * max(abs(a), abs(b)) for a, b in pairs)


def _rescales_terms(m: sp.Expr, stated: sp.Expr, limit_vars) -> bool:
    """Whether the mutant ``m`` of a stated order that is a sum of terms is the same sum with each term multiplied
    by a positive factor free of the limit variables (so bounded above and below on a finite grid of the other
    symbols): the same O-statement as the limit variables go to their limits."""
    if not isinstance(stated, sp.Add) or not isinstance(m, sp.Add) or len(m.args) != len(stated.args):
        return False
    lim = {s for s in stated.free_symbols | m.free_symbols if str(s) in limit_vars}
    for a, b in zip(sp.Add.make_args(m), sp.Add.make_args(stated)):
        q = sp.simplify(sp.powsimp(a / b, force=True))
        if q.free_symbols & lim or q.is_positive is not True and not (q.is_number and q > 0):
            return False
    return True


def _limit_vars(claim) -> dict[str, str]:
    """The limit variables of a stated order (``stated_order=("m", "kappa->0")``): name -> "oo" or "0"."""
    if not isinstance(claim.stated_order, tuple):
        return {}
    parts = [v.partition("->") for v in claim.stated_order]
    return {name.strip(): (to.strip() or "oo") for name, _, to in parts}


#: how far out a mutant of an order is compared with the stated order (t -> oo along each path into the limit)
_FAR_T = (1e20, 1e40, 1e80, 1e160)


def _weaker_in_the_limit(m: sp.Expr, stated: sp.Expr, limit: dict[str, str], pts: list[dict], sign: int) -> bool:
    """Whether the mutant ``m`` of an order O(stated) (as the variables of ``limit`` go to their limits) is a weaker
    O-statement: mutant / stated positive and, far out, of exponent >= 0 in t (``sign`` > 0, an upper order; <= 0 for
    a lower one) along every path into the limit, at every combination of the other symbols the check read.  Paths:
    each limit variable alone (the others at the check's values) and, for two, (v1, v2) = (t^(+-p), t^(+-1)) for p
    from 1/4 to 16 (any polynomial coupling such as m >= poly(1/kappa)); t at 1e20 .. 1e160, 30 digits.  A ratio of
    sums of powers behaves as c t^q far out (q read between the last two t); with q >= 0 it is bounded below by a
    positive constant there, so the mutant is at least a constant times the stated order: true whenever the stated
    order is."""
    import mpmath

    names = list(limit)
    if not sign or not 1 <= len(names) <= 2:
        return False
    keys = {n: n for n in names}
    for p in pts:
        for n in names:
            keys[n] = _key_of(p, n) or keys[n]
    sgn = {n: (1 if d == "oo" else -1) for n, d in limit.items()}
    paths = [{n: sgn[n]} for n in names]                       # one variable alone, exponent of t
    if len(names) == 2:
        a, b = names
        paths += [{a: sgn[a] * q, b: sgn[b]} for q in (0.25, 0.5, 1, 2, 4, 8, 16)]
    bases = list({repr(sorted((k, v) for k, v in p.items() if k not in keys.values())): p for p in pts}.values())
    for base in bases[:20]:
        for path in paths:
            points = [{**base, **{keys[n]: mpmath.mpf(t) ** e for n, e in path.items()}} for t in _FAR_T]
            pairs = _mp_pairs(m, stated, points)
            if len(pairs) != len(points) or any(v == 0 for _, v in pairs):
                return False
            r = [u / v for u, v in pairs]
            if any(q <= 0 for q in r):
                return False
            # the ratio's exponent in t far out (a ratio of sums of powers behaves as c t^q there): q >= 0 (upper)
            q = mpmath.log(r[-1] / r[-2]) / mpmath.log(mpmath.mpf(_FAR_T[-1]) / _FAR_T[-2])
            if sign * q < -1e-6:
                return False
    return bool(bases)


def _unchanged(ev, ev0) -> bool:
    """Whether a mutant's evidence has every test (predicted value and estimate) and check of the control's."""
    return (len(ev.tests) == len(ev0.tests) and len(ev.checks) == len(ev0.checks)
            and all((t.predicted, t.estimate) == (t0.predicted, t0.estimate) for t, t0 in zip(ev.tests, ev0.tests))
            and all((c.passed, c.detail) == (c0.passed, c0.detail) for c, c0 in zip(ev.checks, ev0.checks)))


def _holds_on_the_data(ev, ev0, sign: int) -> bool:
    """Whether a surviving mutant of a bound is satisfied by the simulated data themselves, not merely not
    rejected: every test of its evidence that differs from the control's is either a violation count with no
    violation at all (or a violation frequency whose whole CI lies under the stated failure probability delta: a
    probability bound the data satisfy as stated), or the control's estimate (the same data) with its whole CI on
    the bound's side of the mutant's value (no tolerance used); and every deterministic check that differs is a
    passed comparison with every recorded value (``Check.extra[EVERY_VALUE]``).  A test whose estimate the mutant
    changes in any other way (an excess over the bound whose slope is tested, say) is not direct evidence."""
    from verify.model.evidence import EVERY_VALUE

    if len(ev.tests) != len(ev0.tests) or len(ev.checks) != len(ev0.checks):
        return False
    moved = 0
    for c, c0 in zip(ev.checks, ev0.checks):
        if c.extra.get(EVERY_VALUE) and c.passed is True:   # the data satisfy it at every recorded value
            moved += 1
        elif (c.passed, c.detail) != (c0.passed, c0.detail):
            return False
    for t, t0 in zip(ev.tests, ev0.tests):
        same_est = t.estimate == t0.estimate or (math.isnan(t.estimate) and math.isnan(t0.estimate))
        if t.target == "stated" and "violations" in t.extra:
            # every draw satisfies the mutant, or the violation frequency's whole CI lies under the statement's
            # failure probability (a probability bound the data satisfy as the statement it is)
            if t.extra["violations"] != 0 and not t.ci[1] <= t.predicted:
                return False
            moved += 1
            continue
        if same_est and t.predicted == t0.predicted:
            continue
        moved += 1
        inside = (t.sided == "upper" and sign > 0 and t.ci[1] <= t.predicted
                  or t.sided == "lower" and sign < 0 and t.ci[0] >= t.predicted)
        if not (t.target == "stated" and same_est and inside):
            return False
    return moved > 0


def _status_of(v, why, ok, control) -> dict:
    if not ok:
        return {"refuted": False, "error": True, "example": why[:120]}
    if v in (Verdict.REFUTED, Verdict.DOES_NOT_EXTEND):   # a refuted extension: its check rejected the form
        return {"refuted": True, "example": why[:160]}
    if control is Verdict.CONFIRMED and v is not Verdict.CONFIRMED:
        return {"refuted": False, "detected": True, "example": why[:160]}
    return {"refuted": False}


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


def _reason(status: str) -> str:
    """The category of a mutant that was not judged (for the totals)."""
    for key in ("equivalent (sympy)", "equivalent on the integers", "equivalent as an order (a constant",
                "equivalent on the tested domain (declared by the claim",
                "equivalent as an order on the tested domain", "equivalent as an order on the tested grid",
                "equivalent on the claim's domain", "equivalent in the statement's limit", "weaker bound as an order",
                "weaker bound", "tighter bound implied by our derived",
                "tighter bound the data satisfy", "undefined", "check raised"):
        if status.startswith(key):
            return key.rstrip(" (")
    return status[:40]


def _short(status: str) -> str:
    """A survivor's reason, short, for the table."""
    return "no test changes" if "does not see" in status else status.removeprefix("survived: ")


def _claim_power_task(claim_id: str, profile: str, seed: int, family: int) -> dict:
    """One claim's mutation power, on a Dask worker (``mutants --workers``): as computed in :func:`mutation_power`."""
    from verify.run.registry import select

    c = select([claim_id], exact=True)[0]
    return _power_or_error(c, api.make_context(profile, seed, progress=False), family)


def _power_or_error(c, ctx, family: int) -> dict:
    t = time.time()
    try:
        r = claim_mutation_power(c, ctx, family=family)
    except Exception as e:  # noqa: BLE001 - one claim's failure is reported, the table goes on
        r = {"covered": False, "why": f"error while judging mutants: {type(e).__name__}: {e}"}
    r["seconds"] = round(time.time() - t, 1)
    return r


def _judge_source() -> str:
    """This module's source down to the storage and tabulation code: what judges a mutant (a change to it
    invalidates every stored result; a change to how results are stored or tabulated does not)."""
    text = Path(__file__).read_text()
    return text[:text.index("def _judge_source(")]


def _store_key(claim, ctx) -> str:
    """The resume key of one claim's mutation power: the run cache's key (id, profile, seed, versions, the code the
    claim depends on) plus the source of the judging code above, so that a changed claim or a changed judge of
    mutants is recomputed."""
    import hashlib

    from verify.run.cache import key

    h = hashlib.sha256((key(claim, ctx, api.versions()) + _judge_source()).encode())
    return h.hexdigest()[:32]


def _store_get(folder: Path, claim, k: str) -> dict | None:
    from verify.run.cache import Cache

    doc = Cache(folder).get_doc(claim, k)
    return doc.get("power") if doc else None


def _store_put(folder: Path, claim, k: str, r: dict) -> None:
    """One claim's result, written whole (:meth:`verify.run.cache.Cache.put_doc`): a killed run loses at most the claims
    it was computing."""
    from verify.run.cache import Cache

    Cache(folder).put_doc(claim, k, {"id": claim.id, "power": r})


def _expected_seconds() -> dict[str, float]:
    """Each claim's time in the committed standard run (``reports/results.json``), to start the heaviest first."""
    try:
        from verify.run.cache import ROOT

        doc = json.loads((ROOT / "reports" / "results.json").read_text())
        return {k: float(v) for k, v in doc["timing"]["claims"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def _compute_local(todo, profile: str, seed: int, family: int, jobs: int):
    """Yield (claim id, result) as each claim's mutation power is finished by one of ``jobs`` spawned processes
    (each with cores // jobs torch threads, heaviest claims first)."""
    import multiprocessing as mp
    import os
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    from verify.run.registry import sources

    cost = _expected_seconds()
    order = sorted(todo, key=lambda c: -cost.get(c.id, 0.0))
    threads = max(1, (os.cpu_count() or 1) // jobs)
    ex = ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("spawn"), initializer=api._worker_init,
                             initargs=(threads, os.getpid(), sources()))
    try:
        futs = {ex.submit(_claim_power_task, c.id, profile, seed, family): c.id for c in order}
        pending = set(futs)
        while pending:
            fin, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in fin:
                yield futs[f], f.result()
    except BaseException:
        ex.shutdown(wait=False, cancel_futures=True)
        raise
    ex.shutdown(wait=True)


def mutation_power(patterns=None, profile: str = "quick", seed: int = 0, out: Path | None = None,
                   family: int = FAMILY, cluster=None, jobs: int = 1, resume: bool = False) -> dict:
    """Mutation power of every selected claim (``python -m verify mutants``): a per-claim table and survivors.
    ``cluster`` (:class:`verify.run.distributed.Cluster`): the claims are judged on its workers (each claim's mutants
    in one task, on the same seeds as here), then tabulated in the selection's order. ``jobs``: that many local
    processes instead. Each finished claim is stored under ``out/.mutants_cache``; ``resume`` reads back the
    claims whose entry matches (same claim code, judge, profile, seed and versions) instead of judging them."""
    from verify.run.registry import select

    ctx = api.make_context(profile, seed, progress=False)
    t0 = time.time()
    per = {}
    chosen = select(patterns)
    store = Path(out) / ".mutants_cache" if out is not None else None
    keys = {c.id: _store_key(c, ctx) for c in chosen} if store is not None else {}
    if resume and store is not None:
        for c in chosen:
            if (r := _store_get(store, c, keys[c.id])) is not None:
                per[c.id] = r
        if per:
            print(f"read back {len(per)} of {len(chosen)} claims from {store}", flush=True)
    todo = [c for c in chosen if c.id not in per]
    by_id = {c.id: c for c in chosen}
    if cluster is not None:
        results = ((cid, r if err is None else {"covered": False, "seconds": 0.0,
                                                "why": f"error while judging mutants: the task failed twice ({err})"})
                   for cid, r, err in cluster.each(_claim_power_task, [c.id for c in todo], profile, seed, family))
    elif jobs > 1 and len(todo) > 1:
        results = _compute_local(todo, profile, seed, family, jobs)
    else:
        results = ((c.id, _power_or_error(c, ctx, family)) for c in todo)
    for k, (cid, r) in enumerate(results, len(per) + 1):
        per[cid] = r
        if store is not None and not str(r.get("why", "")).startswith("error while judging"):
            _store_put(store, by_id[cid], keys[cid], r)
        print(f"[{k}/{len(chosen)}] {cid}: " + (f"{r['refuted']}/{r['judged']} mutants refuted"
                                                 + (" (the stated form itself was refuted too)"
                                                    if r["control_refuted"] else "")
                                                 if r["covered"] else
                                                 f"not covered ({r['why']})") + f"  {r['seconds']} s", flush=True)
    per = {c.id: per[c.id] for c in chosen}   # the selection's order, however they finished
    from verify.run.cache import key as run_key

    vers = api.versions()
    for c in chosen:   # the claim's code key: a run reads this claim's power only while its code is the same
        per[c.id]["key"] = run_key(c, ctx, vers)
    covered = {k: v for k, v in per.items() if v["covered"]}
    # a claim whose stated form is itself refuted (an erratum) says nothing about power: listed, not counted
    # nor does a claim refuted by another part of its check (its reviewed verdict, tests/expected_verdicts.json,
    # is 'refuted' although the part judging the stated form passes, e.g. a correct proof step of a wrong theorem)
    from verify.audit.calibration import reviewed_verdicts

    reviewed = reviewed_verdicts()
    for k, v in covered.items():
        v["claim_refuted"] = v["control_refuted"] or reviewed.get(k) == "refuted"
    # nor does a claim whose check cannot refute (our own derivation, refutes=False): listed with what it caught
    counted = {k: v for k, v in covered.items() if not v["claim_refuted"] and v.get("can_refute", True)}
    judged = sum(v["judged"] for v in counted.values())
    killed = sum(v["refuted"] for v in counted.values())
    caught = killed + sum(v.get("detected", 0) for v in counted.values())
    # the mutants not judged, by reason, over the counted claims: what the power figure leaves out, and why
    set_aside: dict[str, int] = {}
    for v in counted.values():
        for r in v["mutants"]:
            if r["status"] in ("refuted", "detected (inconclusive)") or r["status"].startswith("survived"):
                continue
            key = _reason(r["status"])
            set_aside[key] = set_aside.get(key, 0) + 1
    table = ["| claim | judged by | mutants judged | refuted | detected only | power | claim refuted | survivors |",
             "|---|---|---|---|---|---|---|---|"]
    for cid, v in covered.items():
        surv = "; ".join(f"{r['mutant']}" + (f" ({_short(r['status'])})" if r["status"] != "survived" else "")
                         for r in v["mutants"] if r["status"].startswith("survived")) or "-"
        pw = f"{v['power']:.0%}" if v["power"] is not None else "-"
        table.append(f"| `{cid}` | {', '.join(v.get('judged_by', []))} | {v['judged']} | {v['refuted']} "
                     f"| {v.get('detected', 0)} | {pw}{' ⚠' if cid in counted and (v['power'] or 0) < 0.8 else ''} "
                     f"| {'yes' if v['claim_refuted'] else 'no' if v.get('can_refute', True) else 'cannot (ours)'} "
                     f"| {surv} |")
    untested = _untested_power(chosen, per, reviewed)
    doc = {"profile": profile, "seed": seed, "family": family, "claims": per, "table": table,
           "untested_power": untested,
           "covered": len(covered), "counted": len(counted), "selected": len(per), "judged": judged,
           "refuted": killed, "caught": caught, "power": killed / judged if judged else None,
           "caught_fraction": caught / judged if judged else None, "set_aside": set_aside,
           "seconds": round(time.time() - t0, 1),
           "versions": api.versions()}
    print("\n".join(table))
    print("\nnot judged (counted claims): " + "; ".join(f"{k}: {n}" for k, n in sorted(set_aside.items())))
    print(f"\n{killed}/{judged} mutants refuted ({caught} refuted or detected) over {len(counted)} covered claims "
          f"that are not refuted (by their stated form or another part of the check) and can refute ({len(covered)} "
          f"covered, {len(per)} selected)")
    conf = {k: v for k, v in untested.items() if v["pinned"] == "confirmed"}
    print(f"\nconfirmed claims (pinned verdict) of untested power at {profile}: {len(conf)} of "
          f"{sum(1 for c in chosen if reviewed.get(c.id) == 'confirmed')}" + (":" if conf else ""))
    for k, v in conf.items():
        print(f"- {k}: {v['why']}")
    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
        path = Path(out) / f"mutants_{profile}.json"
        path.write_text(json.dumps(doc, indent=1, default=str))
        print(f"wrote {path}")
    return doc


def _untested_power(chosen, per: dict, reviewed: dict) -> dict:
    """The selected claims no alternative was shown able to fail (not covered, or none of their mutants and
    witnesses refuted or detected), with their pinned verdict and what would give them power (their notes)."""
    from verify.run.power import untested_note

    out = {}
    for c in chosen:
        r = per[c.id]
        if r.get("covered") and (r.get("refuted") or 0) + (r.get("detected") or 0) > 0:
            continue
        why = untested_note(c) or (r.get("why") if not r.get("covered") else
                                   f"none of its {r.get('judged', 0)} alternatives was rejected or detected")
        out[c.id] = {"pinned": reviewed.get(c.id), "why": why}
    return out


__all__ = ["mutants", "claim_mutation_power", "mutation_power"]
