"""Monte Carlo throughput of the min-norm scratch risk (issue: verification spine, §8).

Measures, side by side in one run, at d = 500, n = 250, float64, batched over trials:
- trials per second of ``numerics.scratch.min_norm_risk`` (sampling X, beta, eps; Gram
  matrix; solve; risk);
- its achieved GFLOP/s, counting 2 n^2 d (Gram) + 2/3 n^3 (LU) + 4 n d (products) per trial;
- the torch float64 matmul rate on this machine (a square GEMM of the same total size);
and reports the ratio.  Target: achieved >= 30 % of the matmul rate.

    python benchmarks/bench_min_norm.py [--d 500 --n 250 --trials 400 --repeats 3]
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch

from numerics.sampling import gaussian_design
from numerics.scratch import min_norm_risk


def flops_per_trial(n: int, d: int) -> float:
    m, M = min(n, d), max(n, d)
    return 2 * m * m * M + (2 / 3) * m**3 + 4 * n * d


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
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "min_norm.json"))
    a = ap.parse_args(argv)
    gen = torch.Generator().manual_seed(0)

    def mc():
        for _ in range(a.trials // a.chunk):
            min_norm_risk(a.chunk, a.n, a.d, 1.0, gen)

    mc()  # warm-up
    t_mc = best_of(mc, a.repeats)
    tps = a.trials / t_mc
    gflops = tps * flops_per_trial(a.n, a.d) / 1e9
    k = 2048
    A = torch.randn(k, k, dtype=torch.float64)
    Bm = torch.randn(k, k, dtype=torch.float64)
    A @ Bm
    t_mm = best_of(lambda: A @ Bm, a.repeats)
    mm = 2 * k**3 / t_mm / 1e9
    t_rng = best_of(lambda: gaussian_design(a.chunk, a.n, a.d, gen), a.repeats)
    res = {"d": a.d, "n": a.n, "trials": a.trials, "threads": torch.get_num_threads(), "torch": torch.__version__,
           "trials_per_s": round(tps, 1), "achieved_gflops": round(gflops, 2), "matmul_gflops": round(mm, 2),
           "fraction_of_matmul": round(gflops / mm, 3),
           "randn_share_of_time": round(t_rng * (a.trials / a.chunk) / t_mc, 3)}
    print("| d | n | trials/s | achieved GFLOP/s | float64 matmul GFLOP/s | fraction | randn share |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {a.d} | {a.n} | {res['trials_per_s']} | {res['achieved_gflops']} | {res['matmul_gflops']} | "
          f"{res['fraction_of_matmul']:.1%} | {res['randn_share_of_time']:.0%} |")
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
