"""Why a mutant that was not refuted is set aside, or named as a survivor: equivalent to the stated form
(sympy, on the integers), true where the check looks (a weaker bound, a tighter bound the data satisfy, one
implied by our derived bound), the same statement there (an order up to a constant, a weaker O-statement, equal
in the statement's limit), or a change the grid cannot see (it holds the changed symbol fixed).
"""
from __future__ import annotations

import itertools
import math
import sympy as sp
from verify.model.claim import Verdict
from verify.judge.stated import ALIASES, mp_function_of
from verify.audit.mutant_forms import _finite, _fn

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
