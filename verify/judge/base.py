"""The vocabulary every strategy shares: a parameter point, a sampler's signature, the practical tolerance
(:class:`Tol`) and the label of a point in tests and reports.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping
import torch
from verify.model.context import Context

Point = dict


Point = dict
Sampler = Callable[[Point, int, torch.Generator, Context], torch.Tensor]


@dataclass(frozen=True)
class Tol:
    """Practical tolerance: ``|E - predicted| <= max(abs, rel * |predicted|)`` counts as agreement.

    Parameters
    ----------
    rel
        relative tolerance, a share of ``|predicted|``.
    abs
        absolute tolerance, the floor near a predicted value of 0.
    resolution
        the floating-point resolution of one simulated value relative to ``1 + |predicted|``, added in quadrature
        to the standard error (a zero-variance quantity is not rejected for a rounding error).
    """

    rel: float = 0.02
    abs: float = 0.002
    #: floating-point resolution of one simulated value relative to 1 + |predicted|:
    #: added in quadrature to the standard error, so that a zero-variance quantity
    #: computed in float64 (e.g. a noiseless risk that is exactly 0) is not "rejected"
    #: for a rounding error of 1e-15.
    resolution: float = 1e-9

    def of(self, predicted: float) -> float:
        return max(self.abs, self.rel * abs(predicted))


def label_of(p: Mapping[str, Any]) -> str:
    """A parameter point ``p`` (a dict of parameter values) as the label of its test in the reports, e.g.
    ``n=5, d=20, sigma=1``."""
    return ", ".join(f"{k}={_fmt(v)}" for k, v in p.items())


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def takes_points(check) -> bool:
    """Whether a check evaluates parameter points (the profile's grid or the user's ``--at``)."""
    return bool(getattr(check, "takes_points", False))
