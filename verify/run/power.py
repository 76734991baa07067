"""Could the confirmation have failed?  Each claim's measured power, as the reports show it.

``python -m verify mutants --profile P --out benchmarks/results`` judges, per claim, the mutants of its stated sympy
form and its declared power witnesses (:mod:`verify.audit.mutants`) and writes ``benchmarks/results/mutants_P.json``.  A run
at profile P reads that file and gives every claim a ``power`` record (``results.json`` ``claims[].power``):

* ``shown``: at least one alternative (a sympy mutant or a witness) was rejected by the claim's own check at this
  profile (or, for a check whose tests cannot refute, detected: the check turns inconclusive on it), measured on the
  same code: the claim's power key (:func:`verify.audit.mutants.power_key`: the code the claim's check reaches,
  hashed without layout) matches the one the mutants run recorded;
* ``untested``: the claim has nothing to mutate (no sympy form its check judges, no witness), or the mutants run
  judged its alternatives and rejected none.  A confirmed claim with untested power is reported as "confirmed,
  untested power", with what would give it power (its notes' "untested power: ..." sentence, else the reason);
* ``not measured``: the claim has alternatives, but no mutants run at this profile exists for its present code.

The library versions are compared apart from the code: a record whose code matches but whose mutants run had other
versions of the libraries that change numbers (:data:`verify.run.cache.NUMERIC_LIBRARIES`) is still given, with a
``versions_differ`` note (library -> [measured with, here]); :func:`versions_line` says it once for a whole run
("power measured with hypothesis 6.170.17, this environment has 6.170.27; 204 claims' power read from that run")
instead of the power column silently turning "not measured".

A claims package of one's own (``--claims PKG`` or installed) keeps its power in the package:
``python -m verify mutants --claims PKG --profile P`` writes ``PKG/power/mutants_P.json`` and a run of its claims
reads it there (:func:`package_results`), then ``benchmarks/results/``; the built-in sources read
``benchmarks/results/mutants_P.json`` only.

Nothing here runs a simulation: a claim's power is measured by ``verify mutants`` (slow, once per commit and
profile); a run only reads it.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import sympy as sp

from verify.run.cache import ROOT

RESULTS = ROOT / "benchmarks" / "results"


@lru_cache(maxsize=None)
def _doc(profile: str) -> dict | None:
    try:
        return json.loads((RESULTS / f"mutants_{profile}.json").read_text())
    except (OSError, ValueError):
        return None


@lru_cache(maxsize=32)
def _read(path: str, mtime_ns: int) -> dict | None:
    """A mutants document, read once per version of the file (a package's file is rewritten by its user's
    ``mutants`` run in the same session as the reports that read it)."""
    try:
        doc = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def package_results(paper: str, profile: str) -> Path | None:
    """Where the power of a claims package of one's own is kept: ``<package folder>/power/mutants_<profile>.json``
    (written by ``python -m verify mutants --claims PKG``); None for a built-in source or an undeclared paper."""
    from verify.run.registry import home, is_builtin

    h = home(paper)
    if h is None or is_builtin(paper):
        return None
    return h[1] / "power" / f"mutants_{profile}.json"


def _package_doc(paper: str, profile: str) -> tuple[dict | None, str]:
    path = package_results(paper, profile)
    try:
        return _read(str(path), path.stat().st_mtime_ns), str(path)
    except (OSError, AttributeError):
        return None, ""


def _code_key(claim, profile: str, seed: int) -> str | None:
    """The claim's power key at the mutants run's profile and seed (its :func:`verify.run.cache.claim_key`, which
    :func:`verify.audit.mutants.power_key` records, on the CPU in float64 as ``verify mutants`` runs): equal keys,
    same code."""
    from verify.model.context import PROFILES, Context
    from verify.run.cache import claim_key

    try:
        return claim_key(claim, Context(profile=PROFILES[profile], seed=int(seed), progress=False))
    except Exception:  # noqa: BLE001 - a claim whose objects cannot be hashed is "not measured", not a crash
        return None


def _versions_differ(doc: dict) -> dict:
    """Library -> [version of the mutants run, version here], for the libraries that change numbers."""
    from verify.run.cache import numeric_versions

    if not doc.get("versions"):   # not recorded: nothing to compare
        return {}
    then, now = numeric_versions(doc["versions"]), numeric_versions()
    return {k: [then[k], now[k]] for k in now if then.get(k) != now[k]}


def untested_note(claim) -> str:
    """What would give the claim power, as its notes say it ("untested power: ..."), or ''."""
    notes = claim.notes or ""
    m = (re.search(r"(?:untested power[^:.;]*:|power \(issue 24\):\s*untested\s*(?:--|—|:|,)?)\s*(.+?)(?:\.\s|\.$|$)",
                   notes, flags=re.S | re.I)
         or re.search(r"untested power.{0,80}?what would give it(?: power)? (?:is|would be)\s*(.+?)(?:\.\s|\.$|$)",
                      notes, flags=re.S | re.I))
    return " ".join(m.group(1).split()) if m else ""


def power_of(claim, profile: str) -> dict:
    """The ``power`` record of one claim at ``profile`` (see the module docstring)."""
    sympy_form = isinstance(claim.stated, sp.Expr)
    witnesses = [a.name for a in claim.power]
    rec = {"sympy_form": sympy_form, "witnesses": witnesses, "measured": None}
    doc, file = _package_doc(claim.source.paper, profile)   # a package's own power first, in the package
    r = (doc or {}).get("claims", {}).get(claim.id)
    if r is None:
        doc, file = _doc(profile), f"benchmarks/results/mutants_{profile}.json"
        r = (doc or {}).get("claims", {}).get(claim.id)
    if r is not None and r.get("key") and r["key"] == _code_key(claim, profile, doc.get("seed", 0)):
        rec["measured"] = {k: r.get(k) for k in ("covered", "judged", "refuted", "detected", "power", "why",
                                                 "judged_by")}
        rec["measured"].update(profile=profile, seed=doc.get("seed"), file=file,
                               survivors=[m["mutant"] for m in r.get("mutants", [])
                                          if str(m.get("status", "")).startswith("survived")])
        if differ := _versions_differ(doc):
            rec["versions_differ"] = differ
        # a detection counts: a check whose tests cannot refute (target 'derived') shows its power by turning
        # inconclusive on the wrong statement
        shown = bool(r.get("covered")) and (r.get("refuted") or 0) + (r.get("detected") or 0) > 0
        rec["status"] = "shown" if shown else "untested"
        if not shown:
            rec["why"] = (untested_note(claim) or (r.get("why") if not r.get("covered") else
                          f"none of its {r.get('judged', 0)} alternatives was rejected or detected at {profile}"))
    elif not sympy_form and not witnesses:
        rec["status"] = "untested"
        rec["why"] = untested_note(claim) or "no stated sympy form to mutate and no declared power witness"
    else:
        rec["status"] = "not measured"
        own = package_results(claim.source.paper, profile)
        rec["why"] = (f"no `verify mutants --profile {profile}` result for this claim's present code "
                      f"({own or f'benchmarks/results/mutants_{profile}.json'})")
        py = _versions_differ(doc or {}).get("python")
        if r is not None and py:   # bytecode differs between Python minors: the code cannot be matched
            rec["why"] += f"; measured with Python {py[0]}, this environment has Python {py[1]}"
    return rec


def versions_line(claims: list[dict]) -> str | None:
    """One line for a run or a report whose power records were measured with other library versions than this
    environment's (``claims``: claim records of ``results.json``, or their ``power`` records), or None."""
    recs = [c.get("power", c) or {} for c in claims]
    differ = [r["versions_differ"] for r in recs if r.get("versions_differ")]
    if not differ:
        return None
    libs = {k: v for d in differ for k, v in d.items()}
    then = ", ".join(f"{k} {v[0]}" for k, v in sorted(libs.items()))
    now = ", ".join(f"{v[1]}" for _, v in sorted(libs.items()))
    return f"power measured with {then}, this environment has {now}; {len(differ)} claims' power read from that run"


def power_cell(c: dict) -> str:
    """The reports' one-line answer to "could it have failed?" for a claim record of ``results.json``."""
    p = c.get("power") or {}
    m = p.get("measured")
    st = p.get("status")
    if st == "shown":
        det = m.get("detected") or 0
        return f"{m['refuted']} of {m['judged']} alternatives rejected" + (f", {det} detected" if det else "")
    if st == "untested":
        return "untested power"
    return "not measured"


def is_untested(c: dict) -> bool:
    return (c.get("power") or {}).get("status") == "untested"


__all__ = ["power_of", "package_results", "power_cell", "is_untested", "untested_note", "versions_line"]
