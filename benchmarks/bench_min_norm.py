"""Monte Carlo throughput of the min-norm scratch risk (issue: verification spine, §8).

Measures, side by side in one run, at d = 500, n = 250, float64, batched over trials:
- trials per second of ``numerics.scratch.min_norm_risk`` (sampling X, beta, eps; Gram
  matrix; solve; risk);
- its achieved GFLOP/s, counting a fixed nominal flop count per trial, LINPACK-style:
  2 m^2 M (Gram) + 2 m^3 / 3 (LU-equivalent solve) + 4 n d (products), m = min(n, d),
  M = max(n, d).  The count belongs to the task, not to the algorithm, so the fraction is
  a throughput ratio comparable across implementations.  The flops the current code
  actually executes (Cholesky m^3/3, two triangular solves with two right-hand sides 4 m^2,
  X beta and X^T a 6 n d) are also reported, with their fraction;
- the torch float64 matmul rate on this machine (a 2048^2 x 2048 GEMM);
- the same trials by the batched path (every design drawn, then all solved: ``_batched_risk``,
  the code before issue 23's fused path), for the speed-up on the same load;
and reports the ratio.  Target (issue 23): achieved >= 50 % of the matmul rate.

The three rates are measured in alternation, ``--repeats`` times, so that both see the same
load of the (shared) machine; each repeat gives one ratio, and the median, minimum and
maximum ratio are reported.

    python benchmarks/bench_min_norm.py [--d 500 --n 250 --trials 400 --repeats 7]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import torch

from numerics.sampling import gaussian_design, unit_vectors
from numerics.scratch import SYRK_MIN, _batched_risk, min_norm_risk


def flops_per_trial(n: int, d: int) -> float:
    """Nominal flops of one trial (Gram + LU-equivalent solve + products)."""
    m, M = min(n, d), max(n, d)
    return 2 * m * m * M + (2 / 3) * m**3 + 4 * n * d


def executed_flops_per_trial(n: int, d: int) -> float:
    """Flops executed by ``min_norm_risk`` (syrk Gram above ``SYRK_MIN``, else GEMM; Cholesky; solves)."""
    m, M = min(n, d), max(n, d)
    gram = m * m * M if m * m * M >= SYRK_MIN else 2 * m * m * M
    return gram + m**3 / 3 + 4 * m * m + 6 * n * d


def best_of(fn, repeats):
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--d", type=int, default=500)
    ap.add_argument("--n", type=int, default=250)
    ap.add_argument("--trials", type=int, default=400)
    ap.add_argument("--chunk", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--out", default=str(Path(__file__).parent / "local" / "min_norm.json"),
                    help="default: benchmarks/local/ (git-ignored); name a file under benchmarks/results/ to commit it")
    a = ap.parse_args(argv)
    gen = torch.Generator().manual_seed(0)

    def mc():
        for _ in range(a.trials // a.chunk):
            min_norm_risk(a.chunk, a.n, a.d, 1.0, gen)

    one = torch.ones(1, dtype=torch.float64)

    def mc_batched():
        for _ in range(a.trials // a.chunk):
            beta = unit_vectors(a.chunk, a.d, gen)
            _batched_risk(a.chunk, a.n, a.d, one, beta, gen, torch.float64)

    k = 2048
    A = torch.randn(k, k, dtype=torch.float64)
    Bm = torch.randn(k, k, dtype=torch.float64)
    mc(), mc_batched(), A @ Bm  # warm-up
    ratios, tps_all, mm_all, old_ratios, speedups = [], [], [], [], []
    for _ in range(a.repeats):
        t_mc = best_of(mc, 1)
        t_mm = best_of(lambda: A @ Bm, 3)
        t_old = best_of(mc_batched, 1)
        tps, mm = a.trials / t_mc, 2 * k**3 / t_mm / 1e9
        tps_all.append(tps), mm_all.append(mm)
        ratios.append(tps * flops_per_trial(a.n, a.d) / 1e9 / mm)
        old_ratios.append(a.trials / t_old * flops_per_trial(a.n, a.d) / 1e9 / mm)
        speedups.append(t_old / t_mc)
    med = statistics.median(ratios)
    i_med = ratios.index(sorted(ratios)[len(ratios) // 2])
    t_rng = best_of(lambda: gaussian_design(a.chunk, a.n, a.d, gen), 3)
    tps, mm = tps_all[i_med], mm_all[i_med]
    res = {"d": a.d, "n": a.n, "trials": a.trials, "chunk": a.chunk, "repeats": a.repeats,
           "threads": torch.get_num_threads(), "torch": torch.__version__,
           "flops_per_trial": flops_per_trial(a.n, a.d),
           "executed_flops_per_trial": executed_flops_per_trial(a.n, a.d),
           "executed_fraction_of_matmul": round(med * executed_flops_per_trial(a.n, a.d) / flops_per_trial(a.n, a.d), 3),
           "trials_per_s": round(tps, 1), "achieved_gflops": round(tps * flops_per_trial(a.n, a.d) / 1e9, 2),
           "matmul_gflops": round(mm, 2), "fraction_of_matmul": round(med, 3),
           "fraction_min": round(min(ratios), 3), "fraction_max": round(max(ratios), 3),
           "fractions": [round(r, 3) for r in ratios],
           "batched_fraction_of_matmul": round(statistics.median(old_ratios), 3),
           "batched_fractions": [round(r, 3) for r in old_ratios],
           "speedup_over_batched": round(statistics.median(speedups), 2),
           "speedups": [round(r, 2) for r in speedups],
           "load_average": [round(x, 2) for x in os.getloadavg()],
           "randn_share_of_time": round(t_rng * (a.trials / a.chunk) / (a.trials / tps), 3)}
    print("| d | n | trials/s | achieved GFLOP/s | float64 matmul GFLOP/s | fraction (median) | min-max "
          "| batched path | speed-up | randn share | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {a.d} | {a.n} | {res['trials_per_s']} | {res['achieved_gflops']} | {res['matmul_gflops']} | "
          f"{med:.1%} | {min(ratios):.1%}-{max(ratios):.1%} | {res['batched_fraction_of_matmul']:.1%} | "
          f"{res['speedup_over_batched']}x | {res['randn_share_of_time']:.0%} | {res['load_average'][0]} |")
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
