"""Online spherical SGD throughput (003, Dayi & Chen, eq. (4)): steps x runs per second.

Measures, in alternation (``--repeats`` times, so both see the same load of the shared machine):

- the literal d-dimensional procedure ``numerics.spherical_sgd.online_sgd`` (fresh x in R^d per step and run,
  the projections onto span(W), the spherical gradient and renormalization), at d, k, R;
- the exact-in-law overlap chain ``numerics.spherical_sgd.overlap_chain`` (O(R k) per step, independent of d),
  at the same k and R_chain runs;

reporting run-steps per second (steps x runs / wall second) for each, median over repeats; and
- the chain's inner step alone, the reference ``overlap_step`` against the one ``overlap_chain`` uses
  (``_chain_step``: the norm as 1 + ec^2 (n2 - su^2), fused f_df), on the same inputs, for ReLU and sigma(r .) = h_3.

    python benchmarks/bench_spherical_sgd.py [--d 128 --k 5 --runs 64 --chain-runs 512 --steps 400 --repeats 3]
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path

import torch

from numerics import spherical_sgd as S


def literal_rate(d, k, R, steps, gen) -> float:
    W = S.orthonormal_features(R, k, d, gen)
    u, u0 = S.perpendicular_unit(W, gen), S.perpendicular_unit(W, gen)
    c, ch = S.rademacher_c(R, k, gen), S.rademacher_c(R, k, gen)
    t = time.perf_counter()
    S.online_sgd(W, c, u, ch, u0, 1.0, S.Activation("relu"), 0.5 / d, steps, gen, stop_when_all_hit=False)
    return steps * R / (time.perf_counter() - t)


def chain_rate(d, k, R, steps, gen) -> float:
    c, ch = S.rademacher_c(R, k, gen), S.rademacher_c(R, k, gen)
    m0 = S.initial_overlaps(R, d, k, gen)
    t = time.perf_counter()
    S.overlap_chain(m0, torch.eye(k, dtype=torch.float64), c, ch, 1.0, S.Activation("relu"), 0.5 / d, d, steps, gen,
                    stop_when_all_hit=False)
    return steps * R / (time.perf_counter() - t)


def step_rates(k, R, steps, gen, name) -> tuple[float, float]:
    """Steps per second of the reference step (overlap_step) and of the chain's fast step, same inputs."""
    act = S.Activation(name, 1.3 if name != "relu" else 1.0)
    c, ch = S.rademacher_c(R, k, gen), S.rademacher_c(R, k, gen)
    xi, eta = torch.full((R,), 1.1, dtype=torch.float64), torch.full((R,), 1e-3, dtype=torch.float64)
    s = torch.randn(steps, R, k, generator=gen, dtype=torch.float64)
    a, b = torch.randn(steps, R, generator=gen, dtype=torch.float64), torch.randn(steps, R, generator=gen, dtype=torch.float64)
    q = torch.full((steps, R), 100.0, dtype=torch.float64)
    fs = act.f(s + xi[None, :, None] * c * a[..., None]).sum(-1)
    n2 = a * a + b * b + q
    xch, ec0 = xi[:, None] * ch, 2 * xi * eta
    out = []
    for fast in (False, True):
        m = torch.full((R,), 0.1, dtype=torch.float64)
        t = time.perf_counter()
        with torch.inference_mode():
            for j in range(steps):
                m = (S._chain_step(m, s[j], a[j], b[j], n2[j], fs[j], xch, ch, ec0, act) if fast else
                     S.overlap_step(m, s[j], a[j], b[j], q[j], c, ch, xi, act, eta, f_star=fs[j]))
        out.append(steps / (time.perf_counter() - t))
    return out[0], out[1]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--d", type=int, default=128)
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--runs", type=int, default=64)
    ap.add_argument("--chain-runs", type=int, default=512)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    gen = torch.Generator().manual_seed(0)
    lit, ch, st = [], [], {"relu": [], "h3": []}
    for _ in range(a.repeats):
        lit.append(literal_rate(a.d, a.k, a.runs, a.steps, gen))
        ch.append(chain_rate(a.d, a.k, a.chain_runs, a.steps, gen))
        for name in st:
            st[name].append(step_rates(a.k, 216, 4 * a.steps, gen, name))
    res = {"d": a.d, "k": a.k, "runs": a.runs, "chain_runs": a.chain_runs, "steps": a.steps, "threads": a.threads,
           "literal_run_steps_per_s": statistics.median(lit), "chain_run_steps_per_s": statistics.median(ch),
           "literal_all": lit, "chain_all": ch,
           "literal_us_per_step": 1e6 * a.runs / statistics.median(lit),
           "chain_us_per_step": 1e6 * a.chain_runs / statistics.median(ch),
           "step_us_reference_vs_fast (216 chains)": {
               n: (1e6 / statistics.median(r[0] for r in v), 1e6 / statistics.median(r[1] for r in v)) for n, v in st.items()}}
    print(json.dumps(res, indent=1))
    if a.out:
        Path(a.out).write_text(json.dumps(res, indent=1))
    return res


if __name__ == "__main__":
    main()
