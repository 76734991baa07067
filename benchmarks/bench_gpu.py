"""CPU vs GPU throughput of the main procedures, in one run, as ratios (issue 23).

The same code, sizes, dtype (float64 unless ``--dtype float32``: allowed here, never for a verdict) and seed on each
device, each procedure timed ``--repeats`` times after one warm-up (best time; the GPU is synchronised before the
clock stops):

- min-norm Monte Carlo (``numerics.scratch.min_norm_risk``, d = 500, n = 250): trials per second;
- literal deep-linear GD (``numerics.deep_linear.train``, empirical loss (5), fixed step, all layers): draw-steps per second;
- spherical online SGD (``numerics.spherical_sgd.online_sgd``, 003 eq. (4)): run-steps per second;
- two-layer NTK training (``numerics.two_layer.train_gd``, full-batch GD, 002 §6.1): network-steps per second;

and the GPU/CPU ratio of each.  Without a CUDA device it says so in one line and measures nothing (``--devices
cpu`` runs the CPU half alone, e.g. to check the script).

    python benchmarks/bench_gpu.py [--devices cpu,cuda] [--dtype float64] [--repeats 3] [--small] [--out FILE]

Results go to ``benchmarks/local/gpu.json`` (git-ignored) unless ``--out`` names another file (e.g. under
``benchmarks/results/`` to commit them).
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

from numerics import deep_linear as DL  # noqa: E402
from numerics import spherical_sgd as S  # noqa: E402
from numerics import two_layer as TL  # noqa: E402
from numerics.sampling import gaussian_design, noisy_labels, teacher_pair  # noqa: E402
from numerics.scratch import min_norm_risk  # noqa: E402

SIZES = {  # (full, --small)
    "min_norm": ({"trials": 2000, "n": 250, "d": 500}, {"trials": 200, "n": 25, "d": 50}),
    "deep_linear": ({"B": 20, "n": 250, "d": 500, "L": 2, "steps": 200}, {"B": 4, "n": 25, "d": 50, "L": 2, "steps": 20}),
    "spherical_sgd": ({"R": 256, "k": 5, "d": 512, "steps": 400}, {"R": 16, "k": 3, "d": 32, "steps": 40}),
    "two_layer_ntk": ({"B": 16, "m": 4096, "n": 100, "d": 50, "steps": 200}, {"B": 2, "m": 64, "n": 10, "d": 5, "steps": 20}),
}


def _sync(dev):
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)


def _gen(dev, seed):
    return torch.Generator(device=dev).manual_seed(seed)


def setup_min_norm(dev, dtype, s, seed):
    return (lambda: min_norm_risk(s["trials"], s["n"], s["d"], 1.0, _gen(dev, seed), dtype=dtype)), s["trials"]


def setup_deep_linear(dev, dtype, s, seed):
    g = _gen(dev, seed)
    B, n, d, L = s["B"], s["n"], s["d"], s["L"]
    Ws = DL.init_weights(B, d, L, 0.5, g, dtype=dtype, device=dev)
    _, bt, _ = teacher_pair(B, d, math.pi / 4, g, dtype=dtype, device=dev)
    X = gaussian_design(B, n, d, g, dtype=dtype, device=dev)
    y = noisy_labels(X, bt, 0.2, g)
    return (lambda: DL.train(Ws, "empirical", X=X, y=y, lr=1e-3, tol=0.0, floor=0.0, max_steps=s["steps"])), \
        B * s["steps"]


def setup_spherical_sgd(dev, dtype, s, seed):
    g = _gen(dev, seed)
    R, k, d = s["R"], s["k"], s["d"]
    W = S.orthonormal_features(R, k, d, g, dtype=dtype)
    u, u0 = S.perpendicular_unit(W, g), S.perpendicular_unit(W, g)
    c, ch = S.rademacher_c(R, k, g, dtype=dtype), S.rademacher_c(R, k, g, dtype=dtype)
    return (lambda: S.online_sgd(W, c, u, ch, u0, 1.0, S.Activation("relu"), 0.5 / d, s["steps"], g,
                                 stop_when_all_hit=False)), R * s["steps"]


def setup_two_layer_ntk(dev, dtype, s, seed):
    g = _gen(dev, seed)
    B, m, n, d = s["B"], s["m"], s["n"], s["d"]
    W, a = TL.init(B, m, d, g, dtype=dtype)
    X = torch.randn(n, d, generator=g, device=dev, dtype=dtype)
    X = X / X.norm(dim=-1, keepdim=True)
    y = torch.randn(B, n, generator=g, device=dev, dtype=dtype)
    return (lambda: TL.train_gd(W, a, X, y, lr=1.0 / n, steps=s["steps"], tol=0.0, raise_on_fail=False)), \
        B * s["steps"]


SETUPS = {"min_norm": setup_min_norm, "deep_linear": setup_deep_linear, "spherical_sgd": setup_spherical_sgd,
          "two_layer_ntk": setup_two_layer_ntk}


def rate(name, dev, dtype, sizes, repeats, seed=0) -> float:
    """Units of work per second (best of ``repeats`` after a warm-up) of procedure ``name`` on ``dev``."""
    fn, units = SETUPS[name](dev, dtype, sizes, seed)
    fn()
    _sync(dev)
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        _sync(dev)
        best = min(best, time.perf_counter() - t)
    return units / best


def main(argv=None) -> dict | None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--devices", default="cpu,cuda", help="comma-separated torch devices (default: cpu,cuda)")
    ap.add_argument("--dtype", default="float64", choices=["float64", "float32"])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--small", action="store_true", help="tiny sizes (a check that the script runs)")
    ap.add_argument("--only", nargs="*", choices=list(SETUPS), help="procedures to measure (default: all)")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "local" / "gpu.json")
    a = ap.parse_args(argv)
    devs = [torch.device(x.strip()) for x in a.devices.split(",") if x.strip()]
    if any(d.type == "cuda" for d in devs) and not torch.cuda.is_available():
        print("no CUDA device here (torch.cuda.is_available() is False): nothing measured; "
              "run it on a machine with a GPU, or with --devices cpu to check the script")
        return None
    dtype = getattr(torch, a.dtype)
    rows = {}
    for name in a.only or SETUPS:
        sizes = SIZES[name][1 if a.small else 0]
        r = {str(d): rate(name, d, dtype, sizes, a.repeats) for d in devs}
        if len(devs) > 1:
            r[f"{devs[1]}/{devs[0]}"] = r[str(devs[1])] / r[str(devs[0])]
        rows[name] = {"sizes": sizes, "per_second": r}
        print(f"{name:14s} " + "  ".join(f"{k}: {v:.3g}" for k, v in r.items()), flush=True)
    doc = {"dtype": a.dtype, "devices": [str(d) for d in devs], "procedures": rows,
           "machine": {"platform": platform.platform(), "torch": torch.__version__, "cpus": os.cpu_count(),
                       "threads": torch.get_num_threads(), "loadavg": os.getloadavg(),
                       "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None}}
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {a.out}")
    return doc


if __name__ == "__main__":
    main()
