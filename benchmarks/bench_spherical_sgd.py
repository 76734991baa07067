"""Online spherical SGD throughput (003, Dayi & Chen, eq. (4)): steps x runs per second.

Measures, in alternation (``--repeats`` times, so both see the same load of the shared machine):

- the literal d-dimensional procedure ``numerics.spherical_sgd.online_sgd`` (fresh x in R^d per step and run,
  the projections onto span(W), the spherical gradient and renormalization), at d, k, R;
- the exact-in-law overlap chain ``numerics.spherical_sgd.overlap_chain`` (O(R k) per step, independent of d),
  at the same k and R_chain runs;

reporting run-steps per second (steps x runs / wall second) for each, median over repeats; and
- the chain's inner step alone, the reference ``overlap_step`` against the one ``overlap_chain`` uses
  (``_chain_step``: the norm as 1 + ec^2 (n2 - su^2), fused f_df), on the same inputs, for ReLU and sigma(r .) = h_3;
- the chain's two backends, ``backend="torch"`` (eager torch loop, any device) against ``backend="numpy"`` (the CPU
  fast path), for ReLU and sigma(r .) = h_3 at the (R, k) of the dayi2024 claims: the inner loop over a chunk on
  the same inputs (``loop``), and whole ``overlap_chain`` calls from one seed, random draws included (``chain``).

    python benchmarks/bench_spherical_sgd.py [--d 128 --k 5 --runs 64 --chain-runs 512 --steps 400 --repeats 3]
    python benchmarks/bench_spherical_sgd.py --backends-only --steps 1024 --repeats 5     # the backends only
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


def _chunk_inputs(k, R, S_, gen, act, d=200):
    """One chunk's inputs of overlap_chain (as it draws them) at orthonormal rows, xi = sqrt k, a small step."""
    dt = torch.float64
    c, ch = S.rademacher_c(R, k, gen), S.rademacher_c(R, k, gen)
    g = torch.randn(S_, R, k + 2, generator=gen, dtype=dt)
    s, a, b = g[..., :k], g[..., k], g[..., k + 1]
    q = 2 * torch._standard_gamma(torch.full((S_, R), (d - k - 2) / 2, dtype=dt), generator=gen)
    xi = math.sqrt(k)
    fs = act.f(s + xi * c * a[..., None]).sum(-1)
    return s, a, b, a * a + b * b + q, fs, xi * ch, ch, torch.full((R,), 2 * xi * 0.05 / d, dtype=dt)


def backend_rates(k, R, steps, gen, name, repeats) -> dict:
    """us per step of the torch and the numpy backend, alternating over ``repeats``: the chunk loop alone
    (``_chain_loop_torch`` / ``_chain_loop_numpy`` on the same inputs) and whole ``overlap_chain`` calls (same seed,
    draws included, d = 200, no early stop).  Activation ReLU, or sigma(r .) = h_name with r = sqrt 2 (that of
    xi^2 = k at orthonormal rows)."""
    act = S.Activation(name, math.sqrt(2.0) if name != "relu" else 1.0)
    inputs = _chunk_inputs(k, R, steps, gen, act)
    loops = {"torch": S._chain_loop_torch, "numpy": S._chain_loop_numpy}
    c, ch = S.rademacher_c(R, k, gen), S.rademacher_c(R, k, gen)
    m0 = torch.full((R,), 0.05, dtype=torch.float64)
    t_loop, t_chain = {b: [] for b in loops}, {b: [] for b in loops}
    for rep in range(repeats):
        for be in (("torch", "numpy") if rep % 2 == 0 else ("numpy", "torch")):
            t = time.process_time()
            loops[be](m0, *inputs, act)
            t_loop[be].append(1e6 * (time.process_time() - t) / steps)
            t = time.process_time()
            S.overlap_chain(m0, torch.eye(k, dtype=torch.float64), c, ch, math.sqrt(k), act, 0.05 / 200, 200, steps,
                            torch.Generator().manual_seed(rep), stop_when_all_hit=False, backend=be)
            t_chain[be].append(1e6 * (time.process_time() - t) / steps)
    med = lambda v: statistics.median(v)                                       # noqa: E731
    return {"act": name, "k": k, "R": R, "steps": steps, "repeats": repeats,
            "loop_us_per_step": {b: med(v) for b, v in t_loop.items()},
            "loop_ratio_torch_over_numpy": med(t_loop["torch"]) / med(t_loop["numpy"]),
            "chain_us_per_step": {b: med(v) for b, v in t_chain.items()},
            "chain_ratio_torch_over_numpy": med(t_chain["torch"]) / med(t_chain["numpy"]),
            "loop_all": t_loop, "chain_all": t_chain}


#: (activation, k, R) of the backend comparison: the dayi2024 claims run k = 3..17 with R ~ 100-500 chains per call
BACKEND_CASES = [("relu", 5, 240), ("h3", 5, 240), ("relu", 17, 120), ("h3", 3, 480)]


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
    ap.add_argument("--backends-only", action="store_true", help="only the torch-vs-numpy backend comparison")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    gen = torch.Generator().manual_seed(0)
    backends = [backend_rates(k, R, a.steps, gen, name, a.repeats) for name, k, R in BACKEND_CASES]
    if a.backends_only:
        res = {"threads": a.threads, "backends": backends}
        print(json.dumps(res, indent=1))
        if a.out:
            Path(a.out).write_text(json.dumps(res, indent=1))
        return res
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
               n: (1e6 / statistics.median(r[0] for r in v), 1e6 / statistics.median(r[1] for r in v)) for n, v in st.items()},
           "backends": backends}
    print(json.dumps(res, indent=1))
    if a.out:
        Path(a.out).write_text(json.dumps(res, indent=1))
    return res


if __name__ == "__main__":
    main()
