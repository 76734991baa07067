"""The cost of the ``full`` profile, per claim, and the wall time it implies on N workers (issue 23).

Each selected claim is run alone at ``full`` (``python -m verify run ID --profile full --seed S``, in its own process,
one at a time), with a time budget.  A claim that finishes within it is measured whole.  A claim that does not, and
whose check takes parameter points, is measured on ``--points K`` points of its ``full`` grid drawn at random
(``--at``) and extrapolated linearly in the number of points: cost ~= measured x (grid points / K), stated as
such in the output (``"how": "extrapolated from K of N points"``); its point-free
parts (symbolic checks) are not in that figure.  A claim that takes no points and exceeds the budget is reported as
"over budget" with the budget as a lower bound.

From the costs, the expected wall time on N workers (claim granularity, as ``--workers N`` schedules): at least
max(sum / N, longest claim) — the longest claim is the run's critical path — and at most sum / N + longest claim
(greedy list scheduling, Graham's bound); both are printed for N = 1, 8, 64, 512, plus the serial sum.

    python benchmarks/full_cost.py [PATTERN ...] [--sample 20 --seed 0] [--budget 600] [--points 3] [--out FILE]

Heavy: run it on an idle machine (it uses one process at a time, with the machine's torch threads).  Results go to
``benchmarks/local/full_cost.json`` (git-ignored) unless ``--out`` names another file.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _run(cid: str, seed: int, budget: float, at: list[dict] | None = None) -> float | None:
    """Seconds inside the run of claim ``cid`` at full (None when over ``budget``)."""
    with tempfile.TemporaryDirectory(prefix="full-cost-") as out:
        cmd = [sys.executable, "-m", "verify", "run", cid, "--profile", "full", "--seed", str(seed), "--no-progress",
               "--out", out]
        for p in at or []:
            cmd += ["--at", ",".join(f"{k}={v!r}" for k, v in p.items())]
        try:
            subprocess.run(cmd, cwd=ROOT, timeout=budget, check=True, capture_output=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
        except subprocess.TimeoutExpired:
            return None
        doc = json.loads((Path(out) / "results.json").read_text())
        return float(doc["timing"]["claims"][cid])


def full_grid(claim) -> list[dict]:
    """The ``full`` grid points of a claim's point-taking checks (empty if it takes none)."""
    from verify import api
    from verify.judge import _points, takes_points

    ctx = api.make_context("full", 0, progress=False)
    parts = getattr(claim.check, "parts", [claim.check])
    pts: list[dict] = []
    for part in parts:
        if takes_points(part) and getattr(part, "points", None) is not None:
            pts += [p for p in _points(part.points, ctx, claim) if p not in pts]
    return pts


def sample_points(pts: list[dict], k: int, seed: int = 0) -> list[dict]:
    """k of the grid's points drawn at random (without replacement): their mean cost estimates the grid's mean
    without bias (points spread by grid order would not: the sizes usually grow along the grid)."""
    return list(pts) if len(pts) <= k else random.Random(seed).sample(pts, k)


def table(costs: dict[str, float], ns=(1, 8, 64, 512)) -> list[str]:
    total, longest = sum(costs.values()), max(costs.values(), default=0.0)
    rows = ["| workers N | lower bound max(sum/N, longest) | upper bound sum/N + longest |", "|---|---|---|"]
    for n in ns:
        rows.append(f"| {n} | {max(total / n, longest) / 3600:.2f} h | {(total / n + longest) / 3600:.2f} h |")
    return rows


def main(argv=None) -> dict:
    from verify.registry import select

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("patterns", nargs="*")
    ap.add_argument("--sample", type=int, default=None, help="measure this many claims drawn at random")
    ap.add_argument("--seed", type=int, default=0, help="the run seed (and the sample's)")
    ap.add_argument("--budget", type=float, default=600.0, help="seconds per claim before sampling its points")
    ap.add_argument("--points", type=int, default=3, help="grid points measured for a claim over budget")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "local" / "full_cost.json")
    a = ap.parse_args(argv)
    claims = select(a.patterns or None)
    selected = len(claims)
    if a.sample is not None and a.sample < len(claims):
        claims = random.Random(a.seed).sample(claims, a.sample)
    rows, t0 = {}, time.time()
    for c in claims:
        secs = _run(c.id, a.seed, a.budget)
        if secs is not None:
            rows[c.id] = {"seconds": secs, "how": "measured whole"}
        else:
            pts = full_grid(c)
            sub = sample_points(pts, a.points, a.seed)
            s = _run(c.id, a.seed, a.budget, sub) if sub else None
            rows[c.id] = ({"seconds": s * len(pts) / len(sub), "how": f"extrapolated from {len(sub)} of {len(pts)} "
                           f"points ({s:.1f} s measured; point-free parts not included)"} if s is not None else
                          {"seconds": a.budget, "how": "over budget (a lower bound)"})
        print(f"{c.id}: {rows[c.id]['seconds']:.1f} s ({rows[c.id]['how']})", flush=True)
    costs = {k: v["seconds"] for k, v in rows.items()}
    scale = selected / max(1, len(rows))
    doc = {"profile": "full", "seed": a.seed, "budget": a.budget, "selected": selected, "measured": len(rows),
           "claims": rows, "sum_seconds": sum(costs.values()),
           "suite_sum_estimate_seconds": sum(costs.values()) * scale,
           "extrapolation": None if scale == 1 else f"the sample's sum x {selected}/{len(rows)} (a random sample)",
           "table_measured_claims": table(costs), "machine": {"cpus": os.cpu_count(), "loadavg": os.getloadavg()},
           "seconds": round(time.time() - t0, 1)}
    print("\n".join(doc["table_measured_claims"]))
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {a.out}")
    return doc


if __name__ == "__main__":
    main()
