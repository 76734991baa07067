"""Discovery of claims: every module under :mod:`verify.claims` that defines ``CLAIMS``."""
from __future__ import annotations

import fnmatch
import importlib
import pkgutil
from functools import lru_cache

from . import claims as _claims_pkg
from .claim import Claim


class UnknownClaim(LookupError):
    """A pattern that matches no registered claim."""


_MODULE: dict[str, str] = {}  # claim id -> the module that declares it


@lru_cache(maxsize=1)
def all_claims() -> tuple[Claim, ...]:
    found: dict[str, Claim] = {}
    for mod in pkgutil.walk_packages(_claims_pkg.__path__, _claims_pkg.__name__ + "."):
        module = importlib.import_module(mod.name)
        for c in getattr(module, "CLAIMS", ()):
            if c.id in found:
                raise ValueError(f"duplicate claim id {c.id} in {mod.name}")
            found[c.id] = c
            _MODULE[c.id] = mod.name
    return tuple(sorted(found.values(), key=lambda c: c.id))


def module_of(claim_id: str) -> str:
    """The module whose ``CLAIMS`` declares ``claim_id`` (for the resume cache's code hash)."""
    all_claims()
    return _MODULE[claim_id]


def select(patterns: list[str] | tuple[str, ...] | None = None, exact: bool = False) -> list[Claim]:
    """Claims whose id matches any glob pattern (all claims when none is given).

    A pattern without glob characters also matches its sub-claims: ``tahir2024.thm3.6``
    selects ``tahir2024.thm3.6.finite`` and ``tahir2024.thm3.6.asymptotic`` — unless it is itself
    a claim id and ``exact`` is set (as for ``--at``: a user point is meant for the claim named).
    """
    claims = all_claims()
    if not patterns:
        return list(claims)
    out: list[Claim] = []
    ids = {c.id for c in claims}
    for pat in patterns:
        if exact and pat in ids:
            out += [c for c in claims if c.id == pat and c not in out]
            continue
        hits = [c for c in claims if fnmatch.fnmatchcase(c.id, pat)
                or (not any(ch in pat for ch in "*?[") and c.id.startswith(pat + "."))]
        if not hits:
            raise UnknownClaim(f"no claim matches {pat!r} (see `python -m verify list`)")
        out += [c for c in hits if c not in out]
    return out
