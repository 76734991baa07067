"""Shared pieces of the hermite.* claims: sources, domains, cached coefficient lists."""
from __future__ import annotations

import math
from functools import lru_cache

import mpmath
import sympy as sp

from derivations import hermite as H
from verify.kit import Source

SMOOTH = ("tanh", "sigmoid", "gelu", "softplus")


def src(where: str) -> Source:
    return Source("hermite", where)


@lru_cache(maxsize=None)
def exact_coeffs(name: str, K: int, scale=1) -> tuple:
    """c_0..c_K from the Stein closed form (derivations.hermite.coefficient_closed_form), as mpf at 40 digits."""
    f = sp.lambdify((H.k, H.s), H.coefficient_closed_form(name), modules="mpmath")
    with mpmath.workdps(40):
        return tuple(+f(j, mpmath.mpf(scale)) for j in range(K + 1))


@lru_cache(maxsize=None)
def mp_coeffs(name: str, K: int) -> tuple:
    """c_0..c_K by derivations.hermite.coefficients_mp (30 digits)."""
    return tuple(H.coefficients_mp(name, K))


def coeffs(name: str, K: int) -> tuple:
    return exact_coeffs(name, K) if name in H.EXACT else mp_coeffs(name, K)


@lru_cache(maxsize=None)
def second_moment(name: str):
    """E[act(g)^2]: exact (sympy) where sympy integrates it, else mpmath quadrature (30 digits).  Computed at 45
    working digits whatever the caller's precision: the value is cached per process, and one computed at the
    precision of whichever claim asked first made a later claim's digits depend on the claims run before it in the
    same worker (hermite.parseval.erf's remainder at 1e-41 differed between a full run and a --resume)."""
    with mpmath.workdps(45):
        if name in ("relu", "abs", "step"):
            return mpmath.mpf(str(sp.N(H.second_moment(name), 45)))
        if name == "erf":
            # E[erf(g)^2] = (2/pi) arcsin(2/3) (the dual of erf at rho = 1, Williams 1997); checked against quadrature
            return +(2 / mpmath.pi * mpmath.asin(mpmath.mpf(2) / 3))
        return H.second_moment_mp(name)


def fl(v) -> float:
    return float(v)


SQRT2PI = math.sqrt(2 * math.pi)
