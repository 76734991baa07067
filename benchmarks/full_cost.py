"""The cost of the ``full`` profile, per claim, and the wall time it implies on N workers (issue 23).

Cost is measured as **CPU seconds on one torch thread** (``time.process_time`` of this process, ``torch`` set to
one thread), which a shared machine's load does not inflate the way it inflates wall time: on an idle core, one
thread's CPU seconds are its wall seconds.  Each claim is computed in this process at ``full`` (its check only: the
replication of a rejection, Holm and the reports are not included -- they cost a re-run of the rejected claims and
seconds respectively):

* whole, under a CPU-time limit (``--budget``, an ``ITIMER_PROF`` alarm);
* if it exceeds it and its check takes parameter points: on ``--points K`` points of its ``full`` grid drawn at
  random (their mean cost estimates the grid's mean without bias; points spread by grid order would not: sizes
  grow along grids), under ``--point-budget`` each, extrapolated linearly: cost ~= measured x (G / K), G the
  number of groups of points that share their draws (:func:`draw_groups`; G = the grid's size when no point
  shares), stated as such (``"how": "extrapolated from K of N points in G groups ..."``); its point-free parts
  (symbolic checks) are not in that figure;
* a claim still over budget is reported with its budget as a lower bound ("over budget").

Memory is capped (``--memory`` GiB of address space) so that a full-size allocation fails as an error of that
claim instead of exhausting a shared machine; such a claim is reported "over memory".

From the costs, the expected wall time on N one-thread workers (claim granularity, as ``--workers N`` schedules):
at least max(sum / N, longest claim) -- the longest claim is the run's critical path -- and at most
sum / N + longest claim (greedy list scheduling, Graham's bound); both for N = 1, 8, 64, 512, and again with the
claims whose check is a :class:`verify.judge.per_point.PerPoint` split by grid point (a
:class:`verify.judge.per_group.PerGroup` by group of shared draws), as ``--workers`` splits them.
Where some costs are lower bounds, so are both columns (the "at most" column is then no upper bound).

Claims that share a simulation through a module cache (liu2019's transfer sweep, shachaf2021's freeze runs,
tahir2024's pretraining) are measured in one process one after another, so the shared work is charged to the first
of them measured; on N workers each worker that needs it repeats it, which makes the sums floors for N > 1.

    python benchmarks/full_cost.py [PATTERN ...] [--budget 60] [--points 2] [--point-budget 240] [--out FILE]
    python benchmarks/full_cost.py --merge A.json B.json [--from-run reports/full/results.json] --out FILE
                                                    # measurements joined (per claim the larger cost)
    python benchmarks/full_cost.py --summary --out FILE                 # per source, critical path, the table

The output JSON is rewritten after every claim and a second call skips the claims it already holds (``--resume``),
so a long measurement can be stopped and continued.  Results go to ``benchmarks/local/full_cost.json``
(git-ignored) unless ``--out`` names another file.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


class _OverBudget(BaseException):
    """Raised by the CPU-time alarm; a BaseException, so that a check's own ``except Exception`` cannot swallow it."""


def _alarm(signum, frame):
    raise _OverBudget()


def _cpu_run(fn, budget: float):
    """(CPU seconds, result) of fn() under a CPU-time alarm of ``budget`` s; (None, reason) when over it."""
    signal.signal(signal.SIGPROF, _alarm)
    t0 = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, budget)
    try:
        out = fn()
    except _OverBudget:
        return None, "over budget"
    except MemoryError:
        return None, "over memory"
    except RuntimeError as e:  # torch's failed allocation
        if "alloc" in str(e).lower() or "memory" in str(e).lower():
            return None, "over memory"
        raise
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return time.process_time() - t0, out


def _error(ev) -> str | None:
    """The error a check raised (``api._compute`` records it as a check), or None."""
    for ch in getattr(ev, "checks", []):
        if ch.name == "check raised an error":
            return str(ch.detail if hasattr(ch, "detail") else ch)
    return None


def full_grid(claim, ctx) -> list[dict]:
    """The ``full`` grid points of a claim's point-taking checks (empty if it takes none)."""
    from verify.judge import takes_points
    from verify.judge.points import _points

    parts = getattr(claim.check, "parts", [claim.check])
    pts: list[dict] = []
    for part in parts:
        if takes_points(part) and getattr(part, "points", None) is not None:
            pts += [p for p in _points(part.points, ctx, claim) if p not in pts]
    return pts


def draw_groups(claim, ctx) -> int:
    """The number of simulations behind a claim's ``full`` grid: points that differ only in a part's shared
    parameter (the ``vector`` of an Asymptotic or Expectation, the ``shared`` of a
    :class:`verify.judge.per_group.PerGroup`) are simulated on the same draws, and a point run alone (what
    :func:`measure` times) makes its whole group's draws.  A claim's cost therefore scales with its groups, not
    its points; a point alone does a little less than its group (one value of the shared parameter instead of
    all), so an extrapolation by groups is a floor."""
    from verify.judge import takes_points
    from verify.judge.points import _points

    keys: set[tuple] = set()
    for part in getattr(claim.check, "parts", [claim.check]):
        if takes_points(part) and getattr(part, "points", None) is not None:
            shared = getattr(part, "vector", None) or getattr(part, "shared", None)
            keys |= {tuple(sorted((k, repr(v)) for k, v in p.items() if k != shared))
                     for p in _points(part.points, ctx, claim)}
    return len(keys)


def _regroup(row: dict, points: int, groups: int) -> dict:
    """A cost extrapolated from points (or a lower bound per point) of a measurement that counted every grid point
    as its own simulation, rescaled to the claim's groups of shared draws (:func:`draw_groups`)."""
    how = row.get("how", "")
    if groups >= points or "groups" in row or not (how.startswith("extrapolated") or how.endswith(f"x {points} points")):
        return row
    per = row["seconds"] / points
    return {**row, "seconds": per * groups, "groups": groups,
            "how": row["how"] + f"; rescaled to its {groups} groups of points sharing their draws ({per:.1f} s each)"}


def sample_points(pts: list[dict], k: int, seed: int = 0) -> list[dict]:
    """k of the grid's points drawn at random (without replacement)."""
    return list(pts) if len(pts) <= k else random.Random(seed).sample(pts, k)


def table(costs: dict[str, float], ns=(1, 8, 64, 512), points: dict[str, int] | None = None) -> list[str]:
    """The expected wall time on N one-thread workers, in hours: at least max(sum/N, longest task), at most
    sum/N + longest task (greedy list scheduling, Graham's bound).  Tasks are claims; with ``points`` (the number
    of tasks a distributed run makes of each claim: its grid size for a :class:`verify.judge.per_point.PerPoint` check,
    :func:`grid_sizes`), a second pair of columns splits those claims by grid point as ``--workers N`` does, a
    claim's cost spread evenly over its points."""
    total, longest = sum(costs.values()), max(costs.values(), default=0.0)
    h = lambda s: f"{s / 3600:.2f} h"  # noqa: E731
    if points is None:
        rows = ["| workers N | lower bound max(sum/N, longest) | upper bound sum/N + longest |", "|---|---|---|"]
        for n in ns:
            rows.append(f"| {n} | {h(max(total / n, longest))} | {h(total / n + longest)} |")
        return rows
    task = max((c / max(points.get(k, 0), 1) for k, c in costs.items()), default=0.0)
    rows = ["| workers N | claims as tasks: at least | at most | PerPoint / PerGroup claims split: at least | "
            "at most |", "|---|---|---|---|---|"]
    for n in ns:
        rows.append(f"| {n} | {h(max(total / n, longest))} | {h(total / n + longest)} | {h(max(total / n, task))} | "
                    f"{h(total / n + task)} |")
    return rows


def _floor(row: dict, budget: float) -> dict:
    """A claim over the whole-claim budget costs at least that budget: an extrapolation from its points below it
    (the heavy part is then in what a point does not run: a point-free part, or a part that fits across points)
    is reported as that lower bound instead."""
    if "over memory" in row.get("how", ""):  # no time was measured: not a cost, listed apart (summary, table)
        return {**row, "seconds": 0.0, "lower_bound": True, "over_memory": True}
    if "extrapolated" in row.get("how", "") and row["seconds"] < budget:
        return {**row, "seconds": budget, "lower_bound": True,
                "how": f"over budget ({budget:.0f} s) whole; its points alone extrapolate to {row['seconds']:.1f} s, "
                       "so the cost is in its point-free parts: the budget is a lower bound"}
    return row


def grid_sizes(claims, seed: int = 0) -> dict[str, int]:
    """The number of tasks a distributed run makes of each claim's ``full`` grid (:func:`verify.judge.per_point.split`:
    the grid's size for a PerPoint check, 0 = one task); nothing is simulated."""
    from verify.run import runner as api
    from verify.judge.per_point import split

    ctx = api.make_context("full", seed, progress=False)
    return {c.id: split(c, ctx) for c in claims}


def _kind(row: dict) -> str:
    how = row.get("how", "")
    if row.get("over_memory"):
        return "over memory"
    if row.get("lower_bound"):
        return "lower bound"
    if how.startswith("extrapolated"):
        return "extrapolated"
    if how.startswith("wall seconds in the full run"):
        return "full run"
    return "measured whole"


def summary(doc: dict, standard: dict[str, float], ids: list[str]) -> dict:
    """Per source and overall: the full-profile costs of ``doc`` (a --merge output) by how each was obtained
    (measured whole, extrapolated from points, from the full run, a lower bound, over memory: not costed), the
    critical path and the N-worker table.  A claim ``doc`` does not hold is estimated from its standard time x the
    median ratio full/standard of its source's claims measured whole (stated as such)."""
    import statistics

    rows = doc["claims"]
    src = lambda cid: cid.split(".")[0]  # noqa: E731
    ratios: dict[str, list[float]] = {}
    for cid, r in rows.items():
        st = standard.get(cid)
        if _kind(r) == "measured whole" and st and st > 0.05:
            ratios.setdefault(src(cid), []).append(r["seconds"] / st)
    costs, how, per = {}, {}, {}
    for cid in ids:
        r = rows.get(cid)
        if r is not None:
            how[cid] = _kind(r)
            if how[cid] != "over memory":
                costs[cid] = r["seconds"]
        elif ratios.get(src(cid)) and standard.get(cid) is not None:
            costs[cid], how[cid] = standard[cid] * statistics.median(ratios[src(cid)]), "estimated from standard"
        else:
            how[cid] = "not measured"
        e = per.setdefault(src(cid), {"claims": 0, "seconds": 0.0, "longest": (None, 0.0), "by": {}})
        e["claims"] += 1
        e["by"][how[cid]] = e["by"].get(how[cid], 0) + 1
        e["seconds"] += costs.get(cid, 0.0)
        if costs.get(cid, 0.0) > e["longest"][1]:
            e["longest"] = (cid, costs[cid])
    pts = doc.get("grid_points") or {}
    return {"per_source": per, "costs": costs, "how": how, "table": table(costs, points=pts or None),
            "critical_path": sorted(costs.items(), key=lambda kv: -kv[1])[:10],
            "sum_seconds": sum(costs.values()), "longest": max(costs.items(), key=lambda kv: kv[1], default=None),
            "over_memory": sorted(k for k, v in how.items() if v == "over memory")}


def measure(claim, seed: int, budget: float, k: int, point_budget: float) -> dict:
    """The full-profile CPU cost of one claim (see the module docstring)."""
    from dataclasses import replace

    from verify.run import runner as api
    from verify.model.claim import DomainError

    ctx = api.make_context("full", seed, progress=False)

    def whole():
        ev, ok, _ = api._compute(claim, ctx)
        return _error(ev) if not ok else None

    secs, err = _cpu_run(whole, budget)
    if secs is not None and err and "memory" in err.lower():
        secs, err = None, "over memory"
    if secs is not None:
        return {"seconds": secs, "how": "measured whole" + (f" (its check raised {err})" if err else "")}
    why = err
    pts = full_grid(claim, ctx)
    if not pts:
        return {"seconds": budget, "how": f"{why}, takes no points (the budget is a lower bound)", "lower_bound": True}
    groups = draw_groups(claim, ctx)
    of = f"{len(pts)} points" + (f" in {groups} groups sharing their draws" if groups < len(pts) else "")
    sub = sample_points(pts, k, seed)
    spent, done = 0.0, 0
    for p in sub:
        pctx = replace(ctx, at=[p])
        try:
            s, res = _cpu_run(lambda: _error(api._compute(claim, pctx)[0]), point_budget)
        except DomainError as e:  # a point of one part that another part's domain does not take
            return {"seconds": budget, "lower_bound": True,
                    "how": f"{why}; its points cannot be run alone ({e}): the budget is a lower bound"}
        if s is not None and res and "memory" in res.lower():
            s, res = None, "over memory"
        if s is None:
            per = max(point_budget, spent / max(done, 1))
            return {"seconds": per * groups, "lower_bound": True, "groups": groups,
                    "how": f"{res} at a point ({point_budget:.0f} s) of {of}: at least {point_budget:.0f} s x "
                           f"{groups} groups"}
        spent, done = spent + s, done + 1
    return {"seconds": spent * groups / done, "points": len(pts), "measured_points": done, "groups": groups,
            "how": f"extrapolated from {done} of {of} ({spent:.1f} s measured; point-free parts not included)"}


def main(argv=None) -> dict:
    import torch

    from verify.run import runner as api
    from verify.run.registry import select

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("patterns", nargs="*")
    ap.add_argument("--seed", type=int, default=0, help="the run seed (and the point sample's)")
    ap.add_argument("--budget", type=float, default=60.0, help="CPU seconds per claim before sampling its points")
    ap.add_argument("--points", type=int, default=2, help="grid points measured for a claim over budget")
    ap.add_argument("--point-budget", type=float, default=240.0, help="CPU seconds per sampled point")
    ap.add_argument("--memory", type=float, default=8.0, help="address-space cap in GiB")
    ap.add_argument("--order", type=Path, default=ROOT / "reports" / "results.json",
                    help="a results.json whose timing orders the claims, cheapest first (default: the committed run)")
    ap.add_argument("--resume", action="store_true", help="skip the claims --out already holds")
    ap.add_argument("--summary", action="store_true",
                    help="measure nothing: print the per-source costs and the N-worker table of --out, with the "
                         "claims it does not hold estimated from their --order (standard) time")
    ap.add_argument("--merge", type=Path, nargs="+", metavar="FILE",
                    help="measure nothing: join the claims of several --out files of this script (measured on "
                         "disjoint claim sets in parallel, or a second pass with larger budgets: per claim the "
                         "larger cost) into --out, with each claim's number of tasks and the N-worker table")
    ap.add_argument("--from-run", type=Path, metavar="RESULTS",
                    help="with --merge: the claims none of the files holds, costed by their time in this full run's "
                         "results.json (wall seconds in one process, stated as such)")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "local" / "full_cost.json")
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    lim = int(a.memory * 2 ** 30)
    resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    claims = select(a.patterns or None)
    try:
        std = json.loads(a.order.read_text())["timing"]["claims"]
    except (OSError, KeyError, ValueError):
        std = {}
    claims.sort(key=lambda c: std.get(c.id, float("inf")))
    if a.merge:
        docs = [json.loads(f.read_text()) for f in a.merge]
        rows: dict[str, dict] = {}
        ctx = api.make_context("full", a.seed, progress=False)
        shape = {c.id: (len(full_grid(c, ctx)), draw_groups(c, ctx)) for c in claims}  # (points, groups)
        for d in docs:  # a claim measured twice (a second pass with larger budgets): the larger cost, never a
            for k, v in d["claims"].items():  # cheaper figure from a smaller budget
                if k in shape:
                    v = _regroup(v, *shape[k])
                v = _floor(v, d.get("budget", 0.0))
                if k not in rows or v["seconds"] > rows[k]["seconds"]:
                    rows[k] = v
        if a.from_run:
            run = json.loads(a.from_run.read_text())
            if run["meta"]["profile"] != "full":
                raise SystemExit(f"error: {a.from_run} is a {run['meta']['profile']} run, not a full one")
            for k, secs in run["timing"]["claims"].items():
                if k not in rows:
                    rows[k] = {"seconds": secs, "how": f"wall seconds in the full run {a.from_run} (one process; a "
                                                      "simulation shared through a module cache is charged to the "
                                                      "first claim that needs it)"}
        costs = {k: v["seconds"] for k, v in rows.items()}
        pts = grid_sizes(claims, a.seed)
        doc = {**{k: docs[0][k] for k in ("profile", "unit", "seed", "budget", "point_budget", "points")},
               "selected": len(claims), "measured": len(rows), "claims": rows, "grid_points": pts,
               "sum_seconds": sum(costs.values()),
               "lower_bounds": sorted(k for k, v in rows.items() if v.get("lower_bound")),
               "over_memory": sorted(k for k, v in rows.items() if v.get("over_memory")),
               "longest": max(costs.items(), key=lambda kv: kv[1], default=(None, 0.0)),
               "table": table(costs, points=pts), "machine": docs[-1].get("machine"),
               "seconds": round(sum(d.get("seconds", 0.0) for d in docs), 1),
               "merged_from": [str(f) for f in a.merge] + ([str(a.from_run)] if a.from_run else [])}
        a.out.write_text(json.dumps(doc, indent=1) + "\n")
        print("\n".join(doc["table"]))
        print(f"wrote {a.out} ({len(rows)} claims of {len(claims)})")
        return doc
    if a.summary:
        doc = summary(json.loads(a.out.read_text()), std, [c.id for c in claims])
        lb = lambda v: "at least " if v["by"].get("lower bound") else ""  # noqa: E731
        print("| source | claims | measured whole | extrapolated from points | from the full run | lower bound | "
              "over memory | full cost, CPU h | longest claim |\n|---|---|---|---|---|---|---|---|---|")
        for k, v in sorted(doc["per_source"].items()):
            by = v["by"]
            print(f"| {k} | {v['claims']} | {by.get('measured whole', 0)} | {by.get('extrapolated', 0)} | "
                  f"{by.get('full run', 0)} | {by.get('lower bound', 0)} | {by.get('over memory', 0)} | "
                  f"{lb(v)}{v['seconds'] / 3600:.2f} | `{v['longest'][0]}` {v['longest'][1] / 3600:.2f} h |")
        print(f"\nall: {doc['sum_seconds'] / 3600:.2f} CPU h; over memory (not costed): {', '.join(doc['over_memory'])}")
        print("critical path (the 10 costliest claims, CPU s): "
              + ", ".join(f"{k} {v:.0f}" for k, v in doc["critical_path"]))
        print("\n".join(doc["table"]))
        return doc
    prev = json.loads(a.out.read_text()) if a.resume and a.out.exists() else {}
    rows = dict(prev.get("claims", {}))
    t0 = time.time()
    a.out.parent.mkdir(parents=True, exist_ok=True)

    def write():
        costs = {k: v["seconds"] for k, v in rows.items()}
        doc = {"profile": "full", "unit": "CPU seconds, one torch thread", "seed": a.seed, "budget": a.budget,
               "point_budget": a.point_budget, "points": a.points, "selected": len(claims), "measured": len(rows),
               "claims": rows, "sum_seconds": sum(costs.values()),
               "lower_bounds": sorted(k for k, v in rows.items() if v.get("lower_bound")),
               "longest": max(costs.items(), key=lambda kv: kv[1], default=(None, 0.0)),
               "table": table(costs), "machine": {"cpus": os.cpu_count(), "loadavg": os.getloadavg()},
               "seconds": round(time.time() - t0, 1) + prev.get("seconds", 0.0)}
        a.out.write_text(json.dumps(doc, indent=1) + "\n")
        return doc

    for c in claims:
        if c.id in rows:
            continue
        rows[c.id] = measure(c, a.seed, a.budget, a.points, a.point_budget)
        rows[c.id]["standard_seconds"] = std.get(c.id)
        print(f"{c.id}: {rows[c.id]['seconds']:.1f} s ({rows[c.id]['how']})", flush=True)
        write()
    doc = write()
    print("\n".join(doc["table"]))
    print(f"wrote {a.out}")
    return doc


if __name__ == "__main__":
    main()
