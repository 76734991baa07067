"""Compute budgets shared by every claim: trials from a flop budget, chunk sizes, per-profile values.

One place for what claim modules used to write each for itself (three copies of the same
"trials from a flop budget" and "chunk under N doubles" arithmetic).
"""
from __future__ import annotations

import math

from typing import Any, Callable, Mapping

from verify.model.context import Profile, pick


def per_profile(quick: Any, standard: Any, full: Any | None = None) -> dict:
    """The one idiom for a value that depends on the profile: ``per_profile(q, s, f)``;
    ``full`` defaults to ``standard``.  Read it with :func:`verify.model.context.pick`.

    Parameters
    ----------
    quick, standard, full
        the value at each profile (``full`` None: the ``standard`` value).
    """
    return {"quick": quick, "standard": standard, "full": standard if full is None else full}


def trials_for_budget(flops: Mapping[str, float], trials: Mapping[str, tuple[int, int]],
                      cost: Callable[[Mapping[str, Any]], float]) -> Callable[[Profile, Mapping[str, Any]], int]:
    """A ``trials=`` function for a strategy: as many trials as ``flops[profile]`` buys at
    ``cost(point)`` flops per trial, clamped to ``trials[profile] = (lo, hi)``.

    >>> from verify.model.context import PROFILES
    >>> f = trials_for_budget(per_profile(1e6, 1e7), per_profile((10, 100), (10, 1000)), lambda p: 1e4 * p["n"])
    >>> f(PROFILES["quick"], {"n": 2}), f(PROFILES["standard"], {"n": 2}), f(PROFILES["standard"], {"n": 1000})
    (50, 500, 10)
    """
    def _trials(profile: Profile, point: Mapping[str, Any]) -> int:
        lo, hi = pick(profile, trials)
        return int(min(hi, max(lo, pick(profile, flops) / max(cost(point), 1.0))))
    return _trials


def chunk_for(doubles: float, size: Callable[[Mapping[str, Any]], float], *, least: int = 8) -> Callable:
    """A ``chunk=`` function: trials per batch so that one batch holds about ``doubles``
    float64 numbers when one trial holds ``size(point)``.

    >>> chunk_for(4e7, lambda p: p["n"] * p["d"])({"n": 100, "d": 1000})
    400

    Parameters
    ----------
    doubles
        how many float64 numbers one batch may hold.
    size
        ``size(point)``: the float64 numbers one trial holds at a point.
    least
        the fewest trials per batch.
    """
    return lambda p: max(least, int(doubles // max(size(p), 1)))


def trials_to_decide_at(variance: float, tol: float, z: float) -> float:
    """Trials for a tolerance ``tol`` to sit at ``z`` standard errors of a mean whose per-trial variance is the
    exact ``variance`` (0 where it is 0 or infinite: no count helps there).

    >>> trials_to_decide_at(4.0, 0.1, 6.0)
    14400.0
    """
    return (z * math.sqrt(variance) / tol) ** 2 if 0 < variance < math.inf else 0.0


def raised(base: int, need: float, cap: int) -> int:
    """The budget's count ``base``, raised to ``need`` trials but not beyond ``cap`` (never below ``base``)."""
    return int(max(base, min(cap, math.ceil(need))))
