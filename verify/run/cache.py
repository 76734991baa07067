"""The resume cache: finished claims of an earlier or interrupted run, reused by ``run --resume``.

A claim's entry is keyed by what its raw evidence depends on (:func:`key`): the claim's id, the profile, the
seed, the ``--at`` points, the device and dtype, the versions of the libraries that change numbers
(:data:`NUMERIC_LIBRARIES`), and the code the claim reaches (:func:`claim_code`): its check, samplers, closed
forms and everything they call, hashed without layout by :mod:`verify.run.reach`.  Moving a function to another
module, renaming a module or editing code the claim does not reach keeps the entry; a change to code it
reaches (a function, a constant it reads, a default argument, a closure value) recomputes it.

What is cached is the claim's raw evidence, before the run-wide steps (Holm's correction, the replication of
rejections, the verdict), which are always redone over the whole run: the code of those steps is not part of
the key.  Each entry is written to a temporary file and renamed into place, so a kill at any moment leaves
every earlier entry whole; a write that fails removes its temporary and raises :class:`OSError` (the caller
decides whether the run goes on).  An entry holds its claim's id and key, and is read back only when both
match (an entry renamed or edited for another claim is refused).
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import platform
import tempfile
from pathlib import Path

from verify.model.evidence import Check, Evidence, StatTest
from verify.run.reach import also_ours, reached_key

ROOT = Path(__file__).resolve().parents[2]
#: the project's own top-level packages (verify.run.distributed compares their source with a worker's)
PACKAGES = ("derivations", "numerics", "verify")
for _p in PACKAGES:   # our code even when installed into site-packages (pip install ., not -e)
    also_ours(_p)
#: libraries whose version can change a number, a generated example or a simplification: torch (kernels, RNG),
#: numpy and scipy (linear algebra, special functions, distributions), sympy (simplification, lambdify),
#: mpmath (multiprecision), hypothesis (the examples a property search draws).  Python counts by its minor
#: version (its bytecode, which the code hash reads, changes between minors; a patch release does not change
#: numbers); the platform, matplotlib (figures only), tqdm and the test tools do not count.
NUMERIC_LIBRARIES = ("torch", "numpy", "scipy", "sympy", "mpmath", "hypothesis")
#: fields of a claim that are prose for the reader (no check reads them): editing them keeps stored results
PROSE = ("statement", "assumptions", "notes", "source", "corrected")
#: prose fields the key holds as None whatever their text (``construction``, why a check is of our own
#: construction: it changes how a confirmation is counted, never the evidence), so that giving a claim one, or
#: rewording it, keeps the claim's stored results
PROSE_AS_NONE = ("construction",)


def numeric_versions(versions: dict | None = None) -> dict:
    """The versions that enter the keys, from ``versions`` (:func:`verify.run.runner.versions`) or this environment."""
    if versions is None:
        import hypothesis
        import mpmath
        import numpy
        import scipy
        import sympy
        import torch

        versions = {"python": platform.python_version(), "torch": torch.__version__, "numpy": numpy.__version__,
                    "scipy": scipy.__version__, "sympy": sympy.__version__, "mpmath": mpmath.__version__,
                    "hypothesis": hypothesis.__version__}
    out = {k: versions.get(k) for k in NUMERIC_LIBRARIES}
    out["python"] = ".".join(str(versions.get("python", "")).split(".")[:2])
    return out


def claim_code(claim) -> str:
    """The hash of the code and data a claim reaches (its non-prose fields, its class), without layout."""
    try:
        from verify.run.registry import module_of

        also_ours(module_of(claim.id).split(".")[0])   # an installed claims package is our code too
    except Exception:  # noqa: BLE001 - a claim built outside the registry (tests, a notebook)
        pass
    fields = {f.name: None if f.name in PROSE_AS_NONE else getattr(claim, f.name)
              for f in dataclasses.fields(claim) if f.name not in PROSE}
    return reached_key(type(claim), fields)


def claim_key(claim, ctx) -> str:
    """What a claim's result depends on except library versions: its code, the profile, seed, points, device
    and dtype (the key a stored power record is compared with; versions are compared apart, so that a
    difference is reported instead of silently losing the record)."""
    parts = {"id": claim.id, "profile": ctx.profile.name, "seed": ctx.seed, "at": ctx.at, "device": str(ctx.device),
             "dtype": str(ctx.dtype), "code": claim_code(claim)}
    return _digest(parts)


def key(claim, ctx, versions: dict) -> str:
    """The resume cache's key of one claim: :func:`claim_key` and the :func:`numeric_versions`."""
    return _digest({"claim": claim_key(claim, ctx), "versions": numeric_versions(versions)})


def _digest(parts: dict) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:32]


class Cache:
    """One folder of JSON entries, ``<claim id>.<key>.json``."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def _path(self, claim, k: str) -> Path:
        return self.folder / f"{claim.id}.{k}.json"

    def get(self, claim, k: str) -> tuple[Evidence, float] | None:
        doc = self.get_doc(claim, k)
        try:
            return evidence_from_json(doc["evidence"]), float(doc["seconds"])
        except (KeyError, TypeError, ValueError):
            return None

    def put(self, claim, k: str, ev: Evidence, seconds: float) -> None:
        self.put_doc(claim, k, {"seconds": seconds, "evidence": ev.to_json()})

    def get_doc(self, claim, k: str) -> dict | None:
        """The claim's entry under key ``k`` as written by :meth:`put_doc`, or None: missing, unreadable, or not
        this claim's entry under this key (its recorded id and key must both match the file's)."""
        try:
            doc = json.loads(self._path(claim, k).read_text())
        except (OSError, ValueError):
            return None
        return doc if isinstance(doc, dict) and doc.get("id") == claim.id and doc.get("key") == k else None

    def put_doc(self, claim, k: str, doc: dict) -> None:
        """Write the claim's entry whole, with its id and key (a temporary file renamed into place: a kill leaves
        every earlier entry whole), then remove its entries under other keys (one entry per claim: the newest
        code).  A failed write (disk full, a read-only folder) removes its temporary and raises :class:`OSError`;
        the entries already written stay."""
        self.folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".partial-", suffix=".json")
        try:
            with os.fdopen(fd, "w") as f:
                json.dump({**doc, "id": claim.id, "key": k}, f, default=str)
            os.replace(tmp, self._path(claim, k))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        for old in self.folder.glob(f"{claim.id}.*.json"):
            if old.name != self._path(claim, k).name and old.name.count(".") == claim.id.count(".") + 2:
                old.unlink(missing_ok=True)


def _num(x):
    return float(x) if isinstance(x, str) and x in ("inf", "-inf", "nan") else x


def evidence_from_json(d: dict) -> Evidence:
    """Rebuild raw :class:`Evidence` from its JSON form (non-finite floats were written as strings)."""
    tests = []
    for t in d.get("tests", []):
        t = {k: _num(v) for k, v in t.items()}
        t["ci"] = tuple(_num(x) for x in t["ci"])
        tests.append(StatTest(**t))
    checks = [Check(**c) for c in d.get("checks", [])]
    return Evidence(tests=tests, checks=checks, figures=d.get("figures", []), details=d.get("details", {}),
                    seeds=list(d.get("seeds", [])))
