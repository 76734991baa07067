"""What a run runs on: the library versions recorded with every result, and the run context built from the
command line's profile, seed and device."""
from __future__ import annotations

import platform

import sympy as sp
import torch

from verify.model.claim import DomainError
from verify.model.context import PROFILES, Context


def versions() -> dict:
    import hypothesis
    import mpmath
    import numpy
    import scipy

    return {"python": platform.python_version(), "torch": torch.__version__, "sympy": sp.__version__,
            "mpmath": mpmath.__version__, "numpy": numpy.__version__, "scipy": scipy.__version__,
            "hypothesis": hypothesis.__version__, "platform": platform.platform()}


def make_context(profile: str = "standard", seed: int = 0, device: str = "cpu", at=None,
                 progress: bool = True) -> Context:
    if profile not in PROFILES:
        raise DomainError(f"unknown profile {profile!r}; choose one of {', '.join(PROFILES)}")
    try:
        dev = torch.device(device)
        torch.empty(1, device=dev)
    except (RuntimeError, AssertionError) as e:
        raise DomainError(f"device {device!r} is not available here ({str(e).splitlines()[0]})") from None
    return Context(profile=PROFILES[profile], seed=int(seed), device=dev, at=at, progress=progress)
