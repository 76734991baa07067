"""Benchmark: literal fine-tuning of deep linear networks (001_759117b8232d72ac.txt §3.4, App. D.1).

Two protocols on the same draws (same pretrained weights, same target data sets):

(a) the paper's (App. D.1): full-batch GD with fixed eta = 1e-3, up to 1e5 steps, stopping when
    the training loss reaches 1e-6, one draw at a time;
(b) ours: all draws in one batch, adaptive per-trial step size (numerics.deep_linear.train with
    lr=None), same stopping loss.

Both use the analytic-gradient loop of numerics.deep_linear.train, so the comparison is of the
protocols.  Reports wall times, their ratio, and the differences of the end states and of the
risks ||beta - beta_t||^2 (eq. (8)); also how far the end states are from the alpha -> 0 formulas
(ours, derivations.deep_linear, and the paper's eq. (142)).

    python benchmarks/bench_finetune.py                 # d=100, n=50, L=2, 20 draws
    python benchmarks/bench_finetune.py --d 500 --n 250 --paper-draws 3 --chunk 4

At d = 500 a step is memory bound (a 2 MB layer per draw) and a batch of 20 draws (40 MB) no
longer fits in the 32 MB L3, so draws are trained in chunks: 4 (8 MB) was the fastest measured,
18.9-19.5x against 15.2x for --chunk 1 at the same load (benchmarks/README.md §2).  Chunks of
draws amortise the ~20 small torch calls of the adaptive step over the chunk; they paid only
once ``numerics.deep_linear._mv`` stopped using torch's slow batched ``W @ v[..., None]``.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from numerics.deep_linear import (finetune, finetune_end_state_balanced, finetune_end_state_stated,  # noqa: E402
                                  pretrain, risk, train)
from numerics.sampling import gaussian_design, noisy_labels, teacher_pair  # noqa: E402


def parse(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--d", type=int, default=100)
    p.add_argument("--n", type=int, default=50)
    p.add_argument("--L", type=int, default=2)
    p.add_argument("--draws", type=int, default=20, help="target data sets (the paper uses 20)")
    p.add_argument("--paper-draws", type=int, default=None,
                   help="run protocol (a) on the first k draws only (default: all); times are then per draw")
    p.add_argument("--theta", type=float, default=math.pi / 4, help="angle between source and target teachers")
    p.add_argument("--sigma", type=float, default=0.2, help="label noise (Fig. 1/3 use 0.2)")
    p.add_argument("--alpha", type=float, default=1e-5, help="initialization scale (App. D.1: 1e-5)")
    p.add_argument("--init", default="balanced_margin", choices=["balanced_margin", "gaussian"])
    p.add_argument("--eta", type=float, default=1e-3, help="fixed step of protocol (a)")
    p.add_argument("--max-steps", type=int, default=100_000)
    p.add_argument("--tol", type=float, default=1e-6, help="stopping training loss, both protocols")
    p.add_argument("--lr-scale", type=float, default=1.0)
    p.add_argument("--max-move", type=float, default=1e-3)
    p.add_argument("--chunk", type=int, default=None, help="batch chunk of protocol (b) (cache locality at large d)")
    p.add_argument("--threads", type=int, default=1, help="torch intra-op threads")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "local" / "finetune.json"),
                   help="default: benchmarks/local/ (git-ignored); name a file under benchmarks/results/ to commit it")
    return p.parse_args(argv)


def main(argv=None):
    a = parse(argv)
    torch.set_num_threads(a.threads)
    g = torch.Generator().manual_seed(a.seed)
    B = a.draws
    # one pretrained network (population GD on the source), shared by all draws, as in App. D.1
    bs, bt, _ = teacher_pair(1, a.d, a.theta, g)
    t0 = time.perf_counter()
    pre = pretrain(1, a.d, a.L, a.alpha, bs, g, kind=a.init)
    t_pre = time.perf_counter() - t0
    if not bool(pre.converged.all()):
        print("warning: pretraining did not converge", file=sys.stderr)
    Ws = [W.expand(B, *W.shape[1:]).contiguous() for W in pre.Ws]
    bs, bt = bs.expand(B, -1).contiguous(), bt.expand(B, -1).contiguous()
    X = gaussian_design(B, a.n, a.d, g)
    y = noisy_labels(X, bt, a.sigma, g)

    # (a) the paper's protocol, one draw at a time
    k = B if a.paper_draws is None else min(a.paper_draws, B)
    res_a, t0 = [], time.perf_counter()
    for i in range(k):
        sl = slice(i, i + 1)
        res_a.append(train([W[sl] for W in Ws], "empirical", X=X[sl], y=y[sl], lr=a.eta, tol=a.tol, floor=0.0,
                           max_steps=a.max_steps))
    t_a = time.perf_counter() - t0
    beta_a = torch.cat([r.beta for r in res_a])
    steps_a = torch.cat([r.steps for r in res_a])
    conv_a = torch.cat([r.converged for r in res_a])

    # (b) ours, batched over all draws, adaptive step size
    t0 = time.perf_counter()
    res_b = finetune(Ws, X, y, tol=a.tol, floor=0.0, max_steps=a.max_steps, lr_scale=a.lr_scale,
                     max_move=a.max_move, chunk=a.chunk, alpha=a.alpha)
    t_b = time.perf_counter() - t0

    t_a_all = t_a * B / k  # protocol (a) on all draws (measured if k == B, else per-draw scaled)
    beta_b = res_b.beta
    R_a, R_b = risk(beta_a, bt[:k]), risk(beta_b, bt)
    ours = finetune_end_state_balanced(X, y, bs, a.L)
    stated = finetune_end_state_stated(X, y, bs)
    dist = lambda u, v: float((u - v).norm(dim=-1).max())  # noqa: E731
    out = {
        "config": vars(a) | {"theta": a.theta},
        "machine": {"platform": platform.platform(), "torch": torch.__version__, "threads": a.threads,
                    "cpus": os.cpu_count(), "loadavg": os.getloadavg()},
        "pretraining": {"seconds": t_pre, "steps": int(pre.steps.max()), "converged": bool(pre.converged.all()),
                        "loss": float(pre.loss.max())},
        "paper": {"draws_run": k, "seconds": t_a, "seconds_all_draws": t_a_all, "eta": a.eta,
                  "steps_mean": float(steps_a.double().mean()), "steps_max": int(steps_a.max()),
                  "converged": int(conv_a.sum()), "risk_mean": float(R_a.mean()),
                  "risk_sd": float(R_a.std()) if k > 1 else float("nan")},
        "ours": {"draws_run": B, "seconds": t_b, "steps_mean": float(res_b.steps.double().mean()),
                 "steps_max": int(res_b.steps.max()), "converged": int(res_b.converged.sum()),
                 "risk_mean": float(R_b.mean()), "risk_sd": float(R_b.std()) if B > 1 else float("nan"),
                 "lr_last_mean": float(res_b.lr.mean())},
        "speedup": t_a_all / t_b,
        "max_end_state_difference": dist(beta_a, beta_b[:k]),
        "max_risk_difference": float((R_a - R_b[:k]).abs().max()),
        "max_distance_to_alpha0_formula": {"paper_protocol": dist(beta_a, ours[:k]), "ours": dist(beta_b, ours),
                                           "eq142_vs_formula": dist(stated, ours)},
    }
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(out, indent=2) + "\n")

    print(f"\nFine-tuning benchmark: d={a.d}, n={a.n}, L={a.L}, draws={B}, theta={a.theta:.4f}, "
          f"sigma={a.sigma}, alpha={a.alpha:g}, stop at loss <= {a.tol:g}, threads={a.threads}, "
          f"load average {os.getloadavg()[0]:.2f}\n")
    print("| protocol | draws run | wall time (s) | time for all draws (s) | steps mean / max | converged "
          "| risk mean ± sd |")
    print("|---|---|---|---|---|---|---|")
    rows = [(f"(a) paper: GD eta={a.eta:g}, one draw at a time", k, t_a, t_a_all, out["paper"]),
            ("(b) ours: " + ("batched" if a.chunk is None else f"chunks of {a.chunk}") + ", adaptive lr",
             B, t_b, t_b, out["ours"])]
    for name, runs, t, t_all, p in rows:
        print(f"| {name} | {runs} | {t:.2f} | {t_all:.2f} | {p['steps_mean']:.0f} / {p['steps_max']} | "
              f"{p['converged']}/{runs} | {p['risk_mean']:.5f} ± {p['risk_sd']:.5f} |")
    print(f"\nspeed-up (a)/(b): **{out['speedup']:.1f}x**" + ("" if k == B else f" (a) scaled from {k} draws"))
    print(f"max ||beta_a - beta_b|| = {out['max_end_state_difference']:.2e}; "
          f"max |R_a - R_b| = {out['max_risk_difference']:.2e}")
    m = out["max_distance_to_alpha0_formula"]
    print(f"max distance to the alpha->0 end state X^+y + s^(L-1)(I-P)beta_s: (a) {m['paper_protocol']:.2e}, "
          f"(b) {m['ours']:.2e}; eq. (142) is {m['eq142_vs_formula']:.2e} from it")
    print(f"pretraining: {t_pre:.2f} s, {out['pretraining']['steps']} steps (shared, not timed above)")
    print(f"results written to {a.out}")
    return out


if __name__ == "__main__":
    main()
