"""Mutants of a stated sympy form: the perturbations misprints and derivation slips make (a constant changed by
+-10 % or by a factor 2, an exponent +-1, a term dropped, a term's sign flipped, an index shifted by one, two
symbols swapped), each a plausible wrong version of the statement (:func:`mutants`).  How they are judged is
:mod:`verify.audit.mutant_judge`; the whole method is described in :mod:`verify.audit.mutants`.
"""
from __future__ import annotations

import itertools
import math
import sympy as sp
from verify.judge.stated import function_of

FAMILY = 550     # about the number of Monte Carlo tests of a full quick run


FAMILY = 550     # about the number of Monte Carlo tests of a full quick run
MAX_MUTANTS = 40


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
