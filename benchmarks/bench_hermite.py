"""Hermite coefficients to 30 digits for every activation of derivations.hermite.ACTIVATIONS: wall time of
coefficients_mp(name, K) (c_0..c_K, K = 10 by default), cold (first call in the process: the tanh-sinh nodes are
computed) and warm (nodes cached), and the accuracy against sympy's exact values (relu, abs, step, erf) and against
mpmath.quad (the others).  Target: under one second per activation.

    python benchmarks/bench_hermite.py [K]

Measured timings are in benchmarks/liu2019.md (taken on a shared, loaded machine: say so when quoting them).
"""
from __future__ import annotations

import sys
import time

import mpmath
import sympy as sp

from derivations import hermite as H


def main(K: int = 10) -> None:
    rows = []
    for name in H.ACTIVATIONS:
        t0 = time.perf_counter()
        c = H.coefficients_mp(name, K)
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        H.coefficients_mp(name, K)
        warm = time.perf_counter() - t0
        c1 = time.process_time()
        H.coefficients_mp(name, K)
        cpu = time.process_time() - c1
        with mpmath.workdps(45):
            if name in H.EXACT:
                err = max(abs(c[k] - mpmath.mpf(str(sp.N(H.coefficient(name, k), 50)))) for k in range(K + 1))
                ref = "sympy exact"
            else:
                err = max(abs(c[k] - H.coefficient_mp(name, k, dps=35)) for k in (0, K // 2, K))
                ref = "mpmath.quad (k = 0, K/2, K)"
        rows.append((name, cold, warm, cpu, err, ref))
    print(f"coefficients_mp(name, {K}) at 30 digits")
    print(f"{'activation':10s} {'cold s':>8s} {'warm s':>8s} {'cpu s':>8s} {'max error':>10s}  reference")
    for name, cold, warm, cpu, err, ref in rows:
        print(f"{name:10s} {cold:8.3f} {warm:8.3f} {cpu:8.3f} {mpmath.nstr(err, 3):>10s}  {ref}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
