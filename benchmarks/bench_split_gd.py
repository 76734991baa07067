"""Benchmark: numerics.proximal.split_gd (the fast loop) against the plain loop it replaced (kept as the reference
in tests/test_proximal.py), side by side in one process, alternating, one torch thread, on the problem sizes and
runs of linearization2025's thm1.selective and thm1.selective.relu (64 problems, selective scheme with the losses
and their rounding bounds, eta = frac/(2||J0||^2 + lambda)).  Each pair of runs is also compared bit for bit.

    python benchmarks/bench_split_gd.py                  # 5 repeats per case
    python benchmarks/bench_split_gd.py --repeats 3 --cases relu
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from numerics.proximal import make_problem, split_gd  # noqa: E402
from test_proximal import _reference_split_gd  # noqa: E402

#: (model, n, d, m, lambda, frac, T): the selective scheme with its losses, as thm1.selective(.relu) run it
CASES = {
    "linear": ("linear", 4, 6, 1, 5.0, 0.1, 20.0),
    "quadratic": ("quadratic", 3, 5, 1, 5.0, 0.1, 20.0),
    "tanh": ("tanh", 4, 3, 6, 5.0, 0.1, 20.0),
    "relu": ("relu", 4, 3, 6, 5.0, 0.02, 2.0),
}


def _bits(a):
    return None if a is None else a.contiguous().view(torch.int64)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--cases", nargs="*", default=list(CASES))
    ap.add_argument("--B", type=int, default=64)
    args = ap.parse_args()
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, 1 thread, B = {args.B}, {args.repeats} alternating repeats")
    for name in args.cases:
        kind, n, d, m, lam, frac, T = CASES[name]
        prob = make_problem(args.B, kind, n, d, m, torch.Generator().manual_seed(0))
        eta = frac / (float((2 * torch.linalg.matrix_norm(prob.jac(prob.theta0), ord=2) ** 2).max()) + lam)
        old_t, new_t = [], []
        for r in range(args.repeats):
            for which in ((0, 1) if r % 2 == 0 else (1, 0)):
                t0 = time.perf_counter()
                if which == 0:
                    a = _reference_split_gd(prob, lam, eta, T, True, [0.0], None, False, True)
                    old_t.append(time.perf_counter() - t0)
                else:
                    b = split_gd(prob, lam, eta, T, selective=True, record=[0.0], losses=True)
                    new_t.append(time.perf_counter() - t0)
            same = all((_bits(getattr(a, f)) is None and _bits(getattr(b, f)) is None)
                       or torch.equal(_bits(getattr(a, f)), _bits(getattr(b, f)))
                       for f in ("theta", "lam_t", "losses", "Lam", "I", "loss_err"))
            assert same, f"{name}: results differ"
        steps = int(round(T / eta))
        ratios = sorted(o / n_ for o, n_ in zip(old_t, new_t))
        print(f"{name:10s} {steps:6d} steps  old {min(old_t):7.3f} s  new {min(new_t):7.3f} s  "
              f"ratio of minima {min(old_t) / min(new_t):5.2f}  per-pair ratios {ratios[0]:.2f}-{ratios[-1]:.2f} "
              f"(median {ratios[len(ratios) // 2]:.2f}); bits identical")


if __name__ == "__main__":
    main()
