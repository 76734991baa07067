"""The stated form of a claim as a number: one function every check calls to compare a simulation with it.

A check that compares simulated values with the closed form the source states reads that form from the claim
(:attr:`verify.model.claim.Claim.stated`, a sympy expression) through :func:`stated_value`, never from a numeric copy
of its own.  Then the number the check tests *is* the encoded statement, and ``python -m verify mutants`` can
substitute a perturbed form (``dataclasses.replace(claim, stated=mutant)``) and run the claim's own check,
whatever strategy or custom code it uses, to measure whether that check could have failed.

>>> import sympy as sp
>>> from verify.model.claim import Claim
>>> n, theta = sp.symbols("n theta", positive=True)
>>> f = stated_value(type("C", (), {"id": "demo", "stated": sp.sin(theta) ** 2 + 1 / (n - 2)})())
>>> round(f({"n": 12, "theta": 0.0, "sigma": 1.0}), 12)
0.1

Symbols are matched to point keys by name (``lambda`` is spelled ``lam`` in points, a Python keyword).
"""
from __future__ import annotations

import contextvars
import dataclasses
import functools
import math
from typing import Any, Callable

import sympy as sp

#: point keys that spell a symbol's name differently (``lambda`` is a Python keyword)
ALIASES = {"lambda": "lam"}

#: while set (by :class:`reads`), the claims whose stated form a check evaluated, and where
_READS: contextvars.ContextVar[Any] = contextvars.ContextVar("stated_reads", default=None)


def _arg(p: dict, name: str):
    if name in p:
        return p[name]
    alias = ALIASES.get(name)
    if alias is not None and alias in p:
        return p[alias]
    raise KeyError(f"the stated form has the symbol {name!r}, which the point {sorted(p)} does not give")


@functools.lru_cache(maxsize=512)
def _lambdified(expr: sp.Expr):
    """(symbol names, mpmath function of them), once per expression (sympy expressions hash structurally)."""
    syms = tuple(sorted(expr.free_symbols, key=str))
    return tuple(str(s) for s in syms), sp.lambdify(syms, expr, modules="mpmath")


@functools.lru_cache(maxsize=512)
def function_of(expr: sp.Expr) -> Callable[[dict], float]:
    """``expr`` (sympy) as a function of a parameter point, evaluated with mpmath in double precision out.
    A complex value (outside the form's real domain) gives nan.  Cached per expression, so a check may call it
    at every point."""
    names, f = _lambdified(expr)

    def value(p: dict, *_: Any) -> float:
        v = complex(f(*[_arg(p, n) for n in names]))
        return v.real if abs(v.imag) <= 1e-12 * (1 + abs(v.real)) else math.nan
    return value


@functools.lru_cache(maxsize=512)
def mp_function_of(expr: sp.Expr) -> Callable[[dict], Any]:
    """``expr`` as a function of a point returning an mpmath number at the working precision (``mpmath.workdps``),
    every argument made an mpf first, so that all the arithmetic is mpmath's (a product of two float arguments,
    e.g. lambda t in e^{-lambda t}, would otherwise be rounded to double): for high-precision searches that compare
    at 1e-35, where the double of :func:`function_of` would make a false counterexample at an equality case."""
    import mpmath

    names, f = _lambdified(expr)

    def value(p: dict, *_: Any):
        return f(*[v if isinstance(v := _arg(p, n), mpmath.mpf) else mpmath.mpf(v) for n in names])
    return value


def stated_value(claim, precise: bool = False) -> Callable[..., Any]:
    """The claim's stated sympy form as ``f(point, *instance) -> float`` (extra arguments are ignored, so it can
    be an :class:`~verify.judge.Expectation`'s ``predicted``); ``precise=True``: an mpmath number at the working
    precision (:func:`mp_function_of`).  Calling it records that the check read the stated form, which is how
    ``verify mutants`` knows the claim's whole check judges it."""
    if not isinstance(claim.stated, sp.Expr):
        raise TypeError(f"{claim.id}: its stated form is not a sympy expression ({type(claim.stated).__name__})")
    f = (mp_function_of if precise else function_of)(claim.stated)
    rec = _READS.get()
    if rec is None:
        return f
    rec.ids.add(claim.id)

    def traced(p: dict, *inst: Any):
        rec.points.append(dict(p))
        return f(p, *inst)
    return traced


def stated_slope(claim, values, point=None) -> float:
    """The order of the claim's stated form along one parameter: the least-squares slope of log(stated) on log(x)
    over ``values`` (x > 0), at the points ``point(x)``: ``point`` is the parameter's name (``"alpha"``: the point
    ``{"alpha": x}``) or a function building the whole point from x.  Exact for a power of x; with values far
    out, the x -> oo exponent.  Rounded to 12 digits, so an integer or simple rational exponent comes out exactly.
    Read through :func:`stated_value`, so ``verify mutants`` substitutes perturbed orders.

    >>> import sympy as sp
    >>> a = sp.Symbol("alpha", positive=True)
    >>> stated_slope(type("C", (), {"id": "demo", "stated": 3 * a ** 2})(), [1e-3, 1e-2, 1e-1], "alpha")
    2.0
    """
    f = stated_value(claim)
    at = (lambda x: {point: x}) if isinstance(point, str) else point
    xs = [math.log(float(x)) for x in values]
    ys = [math.log(f(at(float(x)))) for x in values]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return round(slope, 12)


class _Stated:
    """Sentinel for ``Expectation(predicted=STATED)`` / ``Asymptotic(stated=STATED)``: the claim's stated form."""

    def __repr__(self) -> str:
        return "STATED"


STATED = _Stated()


class _Derived:
    """Sentinel for ``Expectation(corrected=DERIVED)``: the claim's own derived sympy form (``Claim.derived``), our
    corrected form, tested on the same draws as the stated one."""

    def __repr__(self) -> str:
        return "DERIVED"


DERIVED = _Derived()


def derived_value(claim) -> Callable[..., Any]:
    """The claim's derived sympy form (``Claim.derived``) as ``f(point, *instance) -> float``, like
    :func:`stated_value`; not recorded as a read of the stated form (``verify mutants`` perturbs the stated form
    only, so the corrected form's tests stay what they are under a mutant)."""
    if not isinstance(claim.derived, sp.Expr):
        raise TypeError(f"{claim.id}: DERIVED needs the claim's derived form as a sympy expression "
                        f"(Claim.derived), not {type(claim.derived).__name__}")
    return function_of(claim.derived)


def resolve_derived(f, claim):
    """``f`` itself, or the claim's derived form where ``f`` is :data:`DERIVED`."""
    return derived_value(claim) if f is DERIVED else f


def resolve(f, claim):
    """``f`` itself, or the claim's stated form where ``f`` is :data:`STATED`."""
    return stated_value(claim) if f is STATED else f


class _Record:
    def __init__(self) -> None:
        self.ids: set = set()
        self.points: list[dict] = []


class reads:
    """Context manager: ``with reads() as rec: ...`` collects in ``rec.ids`` the ids of the claims whose stated
    form a check read, and in ``rec.points`` the points at which it was evaluated."""

    def __enter__(self) -> _Record:
        self._rec = _Record()
        self._tok = _READS.set(self._rec)
        return self._rec

    def __exit__(self, *exc) -> None:
        _READS.reset(self._tok)
        outer = _READS.get()
        if outer is not None:   # nested: what was read inside was read inside the outer block too
            outer.ids |= self._rec.ids
            outer.points += self._rec.points


__all__ = ["STATED", "DERIVED", "derived_value", "resolve_derived", "stated_value", "stated_slope", "function_of", "mp_function_of", "resolve", "reads",
           "ALIASES"]
