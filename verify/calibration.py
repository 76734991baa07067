"""Calibration of the judge on the scratch-risk slice (Theorem 3.6 of 001_759117b8232d72ac.txt).

Two numbers a referee asks for:

- the false-refutation rate: the true finite-size form run under many independent seeds
  must be refuted at most at the nominal family-wise level (5 %);
- the power against plausible errata: perturbed ("mutant") forms, such as n-d-1 -> n-d,
  1-gamma -> 1-gamma/2, a dropped sigma^2 term or a factor of 2, must be refuted
  (target: at least 95 % of them).

``python -m verify calibrate [--profile standard] [--seeds 30]`` writes ``calibration_<profile>.json``.
"""
from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Callable

import sympy as sp

from derivations import wishart as W

from . import api
from .claim import Verdict
from .evidence import decide, finalize

FINITE_ID = "tahir2024.thm3.6.finite"
ASYM_ID = "tahir2024.thm3.6.asymptotic"


def _finite_mutant(fn: Callable[[int, int, float], float]):
    return lambda p: fn(int(p["n"]), int(p["d"]), float(p["sigma"]))


#: mutants of the exact finite-size form (n, d, sigma) -> E R
FINITE_MUTANTS: dict[str, Callable] = {
    "n-d-1 -> n-d": _finite_mutant(lambda n, d, s: (1 - n / d + s * s * n / (d - n)) if n < d else s * s * d / (n - d)),
    "1-n/d -> 1-n/(2d)": _finite_mutant(lambda n, d, s: (1 - n / (2 * d) + s * s * n / (d - n - 1)) if n < d
                                        else s * s * d / (n - d - 1)),
    "sigma^2 term dropped": _finite_mutant(lambda n, d, s: (1 - n / d) if n < d else 0.0),
    "variance x 2": _finite_mutant(lambda n, d, s: (1 - n / d + 2 * s * s * n / (d - n - 1)) if n < d
                                   else 2 * s * s * d / (n - d - 1)),
    "sigma^2 -> sigma": _finite_mutant(lambda n, d, s: (1 - n / d + s * n / (d - n - 1)) if n < d
                                       else s * d / (n - d - 1)),
    "n-d-1 -> n-d+1": _finite_mutant(lambda n, d, s: (1 - n / d + s * s * n / (d - n + 1)) if n < d
                                     else s * s * d / (n - d + 1)),
}

g, s = W.gamma, W.sigma
#: mutants of the stated limit (10), judged through the symbolic limit of the finite form
ASYM_MUTANTS: dict[str, sp.Expr] = {
    "1-gamma -> 1-gamma/2": sp.Piecewise((((1 - g / 2) ** 2 + g * s**2) / (1 - g / 2), g < 1), (s**2 / (g - 1), g > 1)),
    "sigma^2 dropped (gamma<1)": sp.Piecewise(((1 - g) ** 2 / (1 - g), g < 1), (s**2 / (g - 1), g > 1)),
    "factor 2 (gamma>1)": sp.Piecewise((((1 - g) ** 2 + g * s**2) / (1 - g), g < 1), (2 * s**2 / (g - 1), g > 1)),
    "gamma sigma^2 -> sigma^2": sp.Piecewise((((1 - g) ** 2 + s**2) / (1 - g), g < 1), (s**2 / (g - 1), g > 1)),
}


def _run_one(claim, ctx, alpha=api.ALPHA):
    """One claim judged as ``api.run`` judges it: Holm, then the replication of any rejection."""
    res = api.ClaimResult(claim, claim.check.run(claim, ctx))
    finalize([res.evidence], alpha)
    api.replicate_rejections([res], ctx, alpha)
    return decide(res.evidence)[0]


def verdict_stability(patterns, profile: str = "quick", seeds: int = 20, first_seed: int = 0,
                      out: Path | None = None) -> dict:
    """Run a profile over many seeds and count, per claim, how often each verdict came out.

    A pinned verdict that holds only for a lucky seed is a test that passes by chance: the target
    is the same verdict at >= 19 of 20 seeds.  Writes ``stability_<profile>.json`` and prints a
    markdown table (claim, verdict counts, agreement with seed ``first_seed``).
    """
    counts: dict[str, dict[str, int]] = {}
    per_seed = []
    t0 = time.time()
    for k in range(first_seed, first_seed + seeds):
        res = api.run(patterns, profile=profile, seed=k, progress=False)
        row = {r.claim.id: r.verdict.value for r in res.claims}
        per_seed.append({"seed": k, "verdicts": row})
        for cid, v in row.items():
            counts.setdefault(cid, {}).setdefault(v, 0)
            counts[cid][v] += 1
        print(f"seed {k}: " + ", ".join(f"{n} {v}" for v, n in sorted(
            {v: sum(1 for x in row.values() if x == v) for v in set(row.values())}.items())), flush=True)
    ref = per_seed[0]["verdicts"]
    table = ["| claim | confirmed | inconclusive | refuted | same as seed %d |" % first_seed, "|---|---|---|---|---|"]
    for cid in sorted(counts):
        c = counts[cid]
        same = sum(1 for r in per_seed if r["verdicts"].get(cid) == ref.get(cid))
        table.append(f"| `{cid}` | {c.get('confirmed', 0)} | {c.get('inconclusive', 0)} | {c.get('refuted', 0)} | "
                     f"{same}/{seeds}{'' if same >= 0.95 * seeds else ' ⚠'} |")
    doc = {"profile": profile, "seeds": list(range(first_seed, first_seed + seeds)), "patterns": list(patterns or []),
           "counts": counts, "per_seed": per_seed, "table": table, "seconds": round(time.time() - t0, 1),
           "versions": api.versions()}
    print("\n".join(table))
    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
        path = Path(out) / f"stability_{profile}.json"
        path.write_text(json.dumps(doc, indent=1))
        print(f"wrote {path}")
    return doc


def _with_predicted(claim, predicted):
    parts = list(claim.check.parts)
    parts[0] = dataclasses.replace(parts[0], predicted=predicted)
    return dataclasses.replace(claim, check=dataclasses.replace(claim.check, parts=parts))


def _with_stated_limit(claim, stated_expr):
    from .claims.tahir2024.scratch import limit_checks_for

    return dataclasses.replace(claim, check=dataclasses.replace(
        claim.check, limit_checks=lambda: limit_checks_for(stated_expr)))


def calibrate(profile: str = "standard", n_seeds: int = 30, seed: int = 0, out: Path | None = None,
              run_mutants: bool = True) -> int:
    from .registry import select

    finite = select([FINITE_ID])[0]
    asym = select([ASYM_ID])[0]
    t0 = time.time()
    verdicts = []
    for k in range(n_seeds):
        ctx = api.make_context(profile, seed + 1000 + k, progress=False)
        verdicts.append(_run_one(finite, ctx).value)
        print(f"true form, seed {seed + 1000 + k}: {verdicts[-1]}", flush=True)
    false_ref = sum(v == Verdict.REFUTED.value for v in verdicts) / n_seeds
    mutants = []
    ctx = api.make_context(profile, seed, progress=False)
    for name, fn in (FINITE_MUTANTS.items() if run_mutants else ()):
        v = _run_one(_with_predicted(finite, fn), ctx).value
        mutants.append({"claim": FINITE_ID, "mutant": name, "verdict": v})
        print(f"mutant {name!r} of {FINITE_ID}: {v}", flush=True)
    for name, expr in (ASYM_MUTANTS.items() if run_mutants else ()):
        v = _run_one(_with_stated_limit(asym, expr), ctx).value
        mutants.append({"claim": ASYM_ID, "mutant": name, "verdict": v})
        print(f"mutant {name!r} of {ASYM_ID}: {v}", flush=True)
    power = sum(m["verdict"] == "refuted" for m in mutants) / len(mutants) if mutants else None
    doc = {"profile": profile, "seeds": n_seeds, "true_form_run_seeds": [seed + 1000 + k for k in range(n_seeds)],
           "true_form_verdicts": verdicts,
           "false_refutation_rate": false_ref, "nominal_level": api.ALPHA,
           "mutants": mutants, "mutants_refuted_fraction": power, "seconds": round(time.time() - t0, 1),
           "targets": {"false_refutation_rate<=": api.ALPHA, "mutants_refuted_fraction>=": 0.95},
           "versions": api.versions()}
    print(f"\nfalse-refutation rate {false_ref:.3f} over {n_seeds} seeds (nominal {api.ALPHA}); "
          + (f"mutants refuted {power:.2%} ({sum(m['verdict'] == 'refuted' for m in mutants)}/{len(mutants)})"
             if mutants else "mutants not run"))
    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
        path = Path(out) / (f"calibration_{profile}.json" if seed == 0 else f"calibration_{profile}_seed{seed}.json")
        path.write_text(json.dumps(doc, indent=1))
        print(f"wrote {path}")
    return 0
