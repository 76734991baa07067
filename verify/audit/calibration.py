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
import sys
import time
from pathlib import Path
from typing import Callable

import sympy as sp

from derivations import wishart as W

from verify.run import runner as api

#: verdicts by which a claim's check rejected its form (a refuted extension "does not extend")
REJECTING = ("refuted", "does not extend")

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
    """One claim judged as ``api.run`` judges it: Holm, then the replication of any rejection.  A check that raised
    is an error here, not an inconclusive verdict to count."""
    v, why, ok = api.judge_alone(claim, ctx, alpha)
    if not ok:
        raise RuntimeError(f"{claim.id}: {why}")
    return v


def strategies_of(claim) -> list[str]:
    """The judge strategies a claim's check is built from (AllOf unpacked), e.g. ['Expectation', 'Identity']; a
    claims package's subclass of a strategy counts as that strategy, and so does a wrapper that says which one it
    runs (class attribute ``judged_as``, e.g. verify.kit.StatedSearch: 'PropertySearch')."""
    from verify.judge import STRATEGIES

    def name(p):
        return getattr(p, "judged_as", None) or next((c.__name__ for c in type(p).__mro__ if c in STRATEGIES),
                                                      type(p).__name__)
    parts = getattr(claim.check, "parts", None) or [claim.check]
    return sorted({name(p) for p in parts})


def reviewed_verdicts() -> dict[str, str]:
    """The reviewed quick verdicts pinned in tests/expected_verdicts.json (empty if the file is absent)."""
    path = Path(__file__).resolve().parents[2] / "tests" / "expected_verdicts.json"
    try:
        return dict(json.loads(path.read_text()))
    except (OSError, ValueError):
        return {}


def strategy_calibration(per_seed: list[dict], strategies: dict[str, list[str]], reference: dict[str, str],
                         alpha: float = api.ALPHA) -> dict:
    """False refutations of claims whose reference verdict is 'confirmed', per judge strategy and run-wide.

    Every (claim, seed) run of a claim counts once for each strategy the claim uses (a claim built from
    Expectation and Identity counts for both: which part produced a refutation is not separated).  Each rate
    comes with its 95 % Clopper-Pearson interval; the target is a rate at or below ``alpha`` with the
    interval's upper end below 2 alpha.  Run-wide: the fraction of seeds at which any reference-confirmed
    claim was refuted (the Holm family of the run as a whole)."""
    from verify.model.stats import clopper_pearson

    confirmed = {cid for cid, v in reference.items() if v == "confirmed"}
    rows: dict[str, dict] = {}
    for cid in sorted(confirmed & set(strategies)):
        for strat in strategies[cid]:
            r = rows.setdefault(strat, {"claims": 0, "runs": 0, "refuted": 0, "inconclusive": 0, "refuted_at": []})
            r["claims"] += 1
            for run in per_seed:
                v = run["verdicts"].get(cid)
                if v is None:
                    continue
                r["runs"] += 1
                r["refuted"] += v in REJECTING
                r["inconclusive"] += v == "inconclusive"
                if v in REJECTING:
                    r["refuted_at"].append([cid, run["seed"]])
    for r in rows.values():
        r["rate"] = r["refuted"] / r["runs"] if r["runs"] else None
        r["ci95"] = list(clopper_pearson(r["refuted"], r["runs"]))
        r["meets_target"] = bool(r["runs"]) and r["rate"] <= alpha and r["ci95"][1] < 2 * alpha
    bad_seeds = [run["seed"] for run in per_seed
                 if any(run["verdicts"].get(cid) in REJECTING for cid in confirmed)]
    family = {"seeds": len(per_seed), "seeds_with_a_false_refutation": bad_seeds,
              "rate": len(bad_seeds) / len(per_seed) if per_seed else None,
              "ci95": list(clopper_pearson(len(bad_seeds), len(per_seed)))}
    recorded = [run for run in per_seed if "first_stage_rejections" in run]
    if recorded:
        # A true claim is refuted only when a first-stage rejection (Holm over the run) is rejected again on
        # independent draws, which Holm over the replications does with probability <= alpha for calibrated tests:
        # P(run refutes a true claim) <= P(first-stage rejection of a true claim) x alpha, the first factor bounded
        # by the 95 % Clopper-Pearson upper end of its measured rate.
        first = [run["seed"] for run in recorded if set(run["first_stage_rejections"]) & confirmed]
        up = clopper_pearson(len(first), len(recorded))[1]
        family.update({"first_stage_seeds": len(recorded), "seeds_with_a_first_stage_rejection": first,
                       "first_stage_ci95": list(clopper_pearson(len(first), len(recorded))),
                       "bound_via_replication": up * alpha})
    return {"per_strategy": rows, "run_wide": family, "reference_confirmed": len(confirmed & set(strategies)),
            "alpha": alpha}


def calibration_table(cal: dict) -> list[str]:
    """Markdown rows of :func:`strategy_calibration`."""
    out = ["| judge strategy | confirmed claims | runs | refuted | inconclusive | false-refutation rate (95 % CP) |",
           "|---|---|---|---|---|---|"]
    for strat, r in sorted(cal["per_strategy"].items()):
        lo, hi = r["ci95"]
        out.append(f"| {strat} | {r['claims']} | {r['runs']} | {r['refuted']} | {r['inconclusive']} | "
                   f"{r['rate']:.3f} [{lo:.3f}, {hi:.3f}] |")
    f = cal["run_wide"]
    out.append(f"| **run-wide (any confirmed claim refuted)** | {cal['reference_confirmed']} | {f['seeds']} seeds | "
               f"{len(f['seeds_with_a_false_refutation'])} | | {f['rate']:.3f} [{f['ci95'][0]:.3f}, {f['ci95'][1]:.3f}] |")
    if "first_stage_seeds" in f:
        lo, hi = f["first_stage_ci95"]
        out.append(f"| run-wide, first stage (a confirmed claim's test rejected before replication) | "
                   f"{cal['reference_confirmed']} | {f['first_stage_seeds']} seeds | "
                   f"{len(f['seeds_with_a_first_stage_rejection'])} | | "
                   f"{len(f['seeds_with_a_first_stage_rejection']) / f['first_stage_seeds']:.3f} [{lo:.3f}, {hi:.3f}]; "
                   f"run-wide false refutation <= {hi:.3f} x {cal['alpha']} = **{f['bound_via_replication']:.4f}** |")
    return out


def verdict_stability(patterns, profile: str = "quick", seeds: int = 20, first_seed: int = 0,
                      out: Path | None = None, jobs: int = 1, name: str = "stability", cluster=None) -> dict:
    """Run a profile over many seeds and count, per claim, how often each verdict came out.

    A pinned verdict that holds only for a lucky seed is a test that passes by chance: the target
    is the same verdict at >= 19 of 20 seeds.  The same runs give the false-refutation rate per judge
    strategy (:func:`strategy_calibration`, against the reviewed verdicts of tests/expected_verdicts.json,
    or the first seed's verdicts for claims not pinned there).  Writes ``<name>_<profile>.json`` after every
    seed (atomically; ``"complete": false`` until the last), so an interrupted run keeps the seeds it finished,
    and prints markdown tables (claim, verdict counts, agreement with the reference verdict; per strategy).
    Runs of the same profile are combined by :func:`merge_stability`.
    """
    from verify.run.registry import select

    per_seed = []
    t0 = time.time()
    strategies = {c.id: strategies_of(c) for c in select(patterns)}
    doc: dict = {}
    for k in range(first_seed, first_seed + seeds):
        # no terminal (a log, CI, a cluster job): one line per finished claim, tagged with the seed
        lines = None
        if not sys.stdout.isatty():
            from verify.run.progress import ClaimLines

            lines = ClaimLines(prefix=f"seed {k} ({k - first_seed + 1}/{seeds})")
        res = api.run(patterns, profile=profile, seed=k, progress=False, jobs=jobs, on_claim=lines,
                      cluster=cluster)
        row = {r.claim.id: r.verdict.value for r in res.claims}
        # claims with a rejection of the stated form before replication (replicated or not): the first stage of
        # "refute only what replicates", whose rate bounds the run-wide false-refutation rate (strategy_calibration)
        first = sorted({r.claim.id for r in res.claims for t in r.evidence.tests
                        if t.target == "stated" and t.status in ("rejected", "not replicated")})
        per_seed.append({"seed": k, "verdicts": row, "first_stage_rejections": first})
        counts = {v: sum(1 for x in row.values() if x == v) for v in set(row.values())}
        print(f"seed {k}: " + ", ".join(f"{n} {v}" for v, n in sorted(counts.items())), flush=True)
        doc = stability_doc(per_seed, strategies, profile, patterns, seconds=time.time() - t0,
                            complete=k == first_seed + seeds - 1)
        if out is not None:
            _write_json(doc, Path(out) / f"{name}_{profile}.json")
    _print_stability(doc)
    if out is not None:
        print(f"wrote {Path(out) / f'{name}_{profile}.json'}")
    return doc


def stability_doc(per_seed: list[dict], strategies: dict[str, list[str]], profile: str, patterns,
                  seconds: float = 0.0, complete: bool = True) -> dict:
    """The stability document (verdict counts per claim, the table, per-strategy calibration) of the runs
    ``per_seed`` (one {"seed", "verdicts", "first_stage_rejections"} per seed)."""
    counts: dict[str, dict[str, int]] = {}
    for run in per_seed:
        for cid, v in run["verdicts"].items():
            counts.setdefault(cid, {}).setdefault(v, 0)
            counts[cid][v] += 1
    # stability: against the reviewed verdict at quick, the most frequent verdict at other profiles;
    # calibration: claims believed true are those whose reviewed (quick) verdict is 'confirmed'
    pinned = reviewed_verdicts()
    if profile == "quick":
        ref = {cid: pinned.get(cid, v) for cid, v in per_seed[0]["verdicts"].items()}
        for cid, c in counts.items():
            ref.setdefault(cid, pinned.get(cid, max(c, key=c.get)))
    else:
        ref = {cid: max(c, key=c.get) for cid, c in counts.items()}
    truth = {cid: pinned.get(cid, ref[cid]) for cid in ref}
    same = {cid: sum(1 for r in per_seed if r["verdicts"].get(cid) == ref.get(cid)) for cid in counts}
    table = ["| claim | confirmed | inconclusive | refuted | same as reference |", "|---|---|---|---|---|"]
    for cid in sorted(counts):
        c = counts[cid]
        runs = sum(c.values())
        table.append(f"| `{cid}` | {c.get('confirmed', 0)} | {c.get('inconclusive', 0)} | {c.get('refuted', 0)} | "
                     f"{same[cid]}/{runs} {ref.get(cid)}{'' if same[cid] >= 0.95 * runs else ' ⚠'} |")
    cal = strategy_calibration(per_seed, strategies, truth)
    stable = sum(1 for cid in counts if same[cid] >= 0.95 * sum(counts[cid].values()))
    return {"profile": profile, "seeds": [r["seed"] for r in per_seed], "complete": complete,
            "patterns": list(patterns or []),
            "reference": ("stability: the reviewed quick verdicts of tests/expected_verdicts.json" if profile == "quick"
                          else "stability: each claim's most frequent verdict")
                         + "; calibration: claims whose reviewed verdict is 'confirmed'",
            "counts": counts, "per_seed": per_seed, "table": table, "stable_claims": stable, "claims": len(counts),
            "calibration": cal, "calibration_table": calibration_table(cal), "strategies": strategies,
            "seconds": round(seconds, 1), "versions": api.versions()}


def merge_stability(paths, out: Path | None = None, name: str = "stability") -> dict:
    """One stability document from several runs of the same profile (``verify stability --merge``): their
    per-seed verdicts pooled (a seed that appears twice counts once, from the first file), every table and
    calibration row recomputed.  Raises ValueError with a one-line message on a file that is not a stability
    document or a mix of profiles."""
    per_seed: dict[int, dict] = {}
    strategies: dict[str, list[str]] = {}
    profiles, patterns, seconds = set(), set(), 0.0
    for p in paths:
        try:
            d = json.loads(Path(p).read_text())
            runs, prof = d["per_seed"], d["profile"]
            strategies.update(d["strategies"])
            seconds += float(d.get("seconds", 0.0))
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{p} is not a stability document of this tool ({type(e).__name__}: {e})") from None
        profiles.add(prof)
        patterns.update(d.get("patterns") or [])
        for run in runs:
            per_seed.setdefault(int(run["seed"]), run)
    if len(profiles) != 1:
        raise ValueError(f"cannot merge runs of different profiles ({', '.join(sorted(profiles))})")
    profile = profiles.pop()
    doc = stability_doc([per_seed[k] for k in sorted(per_seed)], strategies, profile, sorted(patterns), seconds)
    doc["merged_from"] = [str(p) for p in paths]
    _print_stability(doc)
    if out is not None:
        _write_json(doc, Path(out) / f"{name}_{profile}.json")
        print(f"wrote {Path(out) / f'{name}_{profile}.json'}")
    return doc


def _print_stability(doc: dict) -> None:
    if not doc:
        return
    print("\n".join(doc["table"]))
    print(f"\n{doc['stable_claims']} of {doc['claims']} claims reproduce their reference verdict at >= 95 % of "
          f"{len(doc['seeds'])} seeds\n")
    print("\n".join(doc["calibration_table"]))


def _write_json(doc: dict, path: Path) -> None:
    """Write ``doc`` to ``path`` atomically (a temporary file in the same folder, then renamed)."""
    import os
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(doc, indent=1))
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _with_predicted(claim, predicted):
    parts = list(claim.check.parts)
    parts[0] = dataclasses.replace(parts[0], predicted=predicted)
    return dataclasses.replace(claim, check=dataclasses.replace(claim.check, parts=parts))


def _with_stated_limit(claim, stated_expr):
    import sys

    from verify.run.registry import module_of

    # the claim's own module (loaded by the registry) builds its limit checks for any stated form
    limit_checks_for = sys.modules[module_of(claim.id)].limit_checks_for
    return dataclasses.replace(claim, check=dataclasses.replace(
        claim.check, limit_checks=lambda: limit_checks_for(stated_expr)))


def calibrate(profile: str = "standard", n_seeds: int = 30, seed: int = 0, out: Path | None = None,
              run_mutants: bool = True) -> int:
    from verify.run.registry import select

    finite = select([FINITE_ID])[0]
    asym = select([ASYM_ID])[0]
    t0 = time.time()
    verdicts = []
    n_mut = (len(FINITE_MUTANTS) + len(ASYM_MUTANTS)) if run_mutants else 0
    for k in range(n_seeds):
        ctx = api.make_context(profile, seed + 1000 + k, progress=False)
        t = time.time()
        verdicts.append(_run_one(finite, ctx).value)
        print(f"[{k + 1}/{n_seeds}] true form {FINITE_ID}, seed {seed + 1000 + k}: {verdicts[-1]}  "
              f"{time.time() - t:.1f} s", flush=True)
    false_ref = sum(v in REJECTING for v in verdicts) / n_seeds
    mutants = []
    ctx = api.make_context(profile, seed, progress=False)
    for name, fn in (FINITE_MUTANTS.items() if run_mutants else ()):
        t = time.time()
        v = _run_one(_with_predicted(finite, fn), ctx).value
        mutants.append({"claim": FINITE_ID, "mutant": name, "verdict": v})
        print(f"[{len(mutants)}/{n_mut}] mutant {name!r} of {FINITE_ID}: {v}  {time.time() - t:.1f} s", flush=True)
    for name, expr in (ASYM_MUTANTS.items() if run_mutants else ()):
        t = time.time()
        v = _run_one(_with_stated_limit(asym, expr), ctx).value
        mutants.append({"claim": ASYM_ID, "mutant": name, "verdict": v})
        print(f"[{len(mutants)}/{n_mut}] mutant {name!r} of {ASYM_ID}: {v}  {time.time() - t:.1f} s", flush=True)
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
