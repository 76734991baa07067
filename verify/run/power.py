"""Could the confirmation have failed?  Each claim's measured power, as the reports show it.

``python -m verify mutants --profile P --out benchmarks/results`` judges, per claim, the mutants of its stated sympy
form and its declared power witnesses (:mod:`verify.audit.mutants`) and writes ``benchmarks/results/mutants_P.json``.  A run
at profile P reads that file and gives every claim a ``power`` record (``results.json`` ``claims[].power``):

* ``shown``: at least one alternative (a sympy mutant or a witness) was rejected by the claim's own check at this
  profile (or, for a check whose tests cannot refute, detected: the check turns inconclusive on it), measured on the same code (the claim's code key, as the resume cache computes it, matches the one the
  mutants run recorded);
* ``untested``: the claim has nothing to mutate (no sympy form its check judges, no witness), or the mutants run
  judged its alternatives and rejected none.  A confirmed claim with untested power is reported as "confirmed,
  untested power", with what would give it power (its notes' "untested power: ..." sentence, else the reason);
* ``not measured``: the claim has alternatives, but no mutants run at this profile exists for its present code.

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


def _code_key(claim, profile: str, seed: int) -> str | None:
    """The claim's run-cache key at the mutants run's profile and seed: equal keys, same code and versions."""
    from verify.run import environment as api
    from verify.run.cache import key

    try:
        return key(claim, api.make_context(profile, seed, progress=False), api.versions())
    except Exception:  # noqa: BLE001 - a claim from outside the project may have no findable module
        return None


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
    doc = _doc(profile)
    r = (doc or {}).get("claims", {}).get(claim.id)
    if r is not None and r.get("key") and r["key"] == _code_key(claim, profile, doc.get("seed", 0)):
        rec["measured"] = {k: r.get(k) for k in ("covered", "judged", "refuted", "detected", "power", "why",
                                                 "judged_by")}
        rec["measured"].update(profile=profile, seed=doc.get("seed"), file=f"benchmarks/results/mutants_{profile}.json",
                               survivors=[m["mutant"] for m in r.get("mutants", [])
                                          if str(m.get("status", "")).startswith("survived")])
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
        rec["why"] = (f"no `verify mutants --profile {profile}` result for this claim's present code "
                      f"(benchmarks/results/mutants_{profile}.json)")
    return rec


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


__all__ = ["power_of", "power_cell", "is_untested", "untested_note"]
