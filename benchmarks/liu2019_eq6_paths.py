"""Where the second term of eq. (6) of 002 (Liu et al.) becomes visible (issue 13: liu2019.eq6's mutation power).

eq. (6): ||epsilon||_2 = O(n_P kappa/(lambda_P delta)) + O(n_P^2/(m^(1/4) lambda_P^(3/2) kappa^(1/2) delta)), in the
regime of Lemma 1 (m = Omega(n_P^6/(lambda_P^4 kappa^2 delta^3)), i.e. m kappa^2 large).  The claim's check follows
kappa ~ m^(-1/4), where epsilon is proportional to kappa (the first term) and forms that change only the second term
cannot be told apart.  This script measures the literal remainder (numerics.two_layer.transfer_sweep, the claim's own
simulation; epsilon = vec(W(P) - W(0)) - Z_P(0) H_P^-1 y_P) along steeper paths kappa = 0.3 (m/256)^e, e = -1/4, -0.4,
-1/2 (m kappa^2 ~ m^(1/2), m^(1/5), constant), and on a grid of fixed kappa down to 0.01 (m kappa^2 < 1: outside the
regime), at the three quick task points of the claim:

    python benchmarks/liu2019_eq6_paths.py [--networks 32] [--seed 2] [--out benchmarks/results/liu2019_eq6_paths.json]

Per path: the mean ||epsilon|| per width and the mean per-network log-log slope in m with its 95 % interval (the
widths share random numbers, as in the claim).  Per fixed kappa: ||epsilon||/kappa at each width.
"""
from __future__ import annotations

import argparse
import json
import math
import platform
import time
from pathlib import Path

import numpy as np
import torch

from numerics import two_layer as TL
from verify.claims.liu2019.common import _P1, _P2, _P4, STEPS, TOL, instance

WIDTHS = [256, 512, 1024, 2048, 4096, 8192, 16384]
EXPONENTS = [-0.25, -0.4, -0.5]
FIXED = [0.3, 0.1, 0.03, 0.01]
FIXED_WIDTHS = [256, 1024, 4096]


def _sweep(inst, widths, kappas, B, gen):
    return TL.transfer_sweep(B, widths, kappas, inst["XP"], inst["yP"], inst["XQ"], inst["yQ"], gen,
                             lr_P=1.0 / inst["lmaxP"], lr_Q=1.0 / inst["lmaxQ"], steps=STEPS, tol=TOL, vP=inst["vP"])


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--networks", type=int, default=32)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "local" / "liu2019_eq6_paths.json",
                    help="default: benchmarks/local/ (git-ignored); name a file under benchmarks/results/ to commit it")
    a = ap.parse_args(argv)
    t0 = time.time()
    out = {"networks": a.networks, "seed": a.seed, "widths": WIDTHS, "points": []}
    for P in (_P1, _P2, _P4):
        gen = torch.Generator().manual_seed(a.seed)
        inst = instance(P, gen)
        row = {"point": P, "lambda_P": inst["lamP"], "paths": [], "fixed_kappa": []}
        for e in EXPONENTS:
            ks = [0.3 * (m / WIDTHS[0]) ** e for m in WIDTHS]
            runs = _sweep(inst, WIDTHS, ks, a.networks, gen)
            Y = np.array([r["eps"].numpy() for r in runs])                      # (widths, networks)
            x = np.log(WIDTHS)
            sl = np.array([np.polyfit(x, np.log(Y[:, b]), 1)[0] for b in range(Y.shape[1])])
            half = 1.96 * sl.std(ddof=1) / math.sqrt(len(sl))
            row["paths"].append({"exponent": e, "kappa": ks, "m_kappa2": [m * k * k for m, k in zip(WIDTHS, ks)],
                                 "mean_eps": Y.mean(1).tolist(), "slope": float(sl.mean()),
                                 "slope_ci": [float(sl.mean() - half), float(sl.mean() + half)]})
            print(f"{P} kappa ~ m^{e}: slope {sl.mean():.3f} [{sl.mean() - half:.3f}, {sl.mean() + half:.3f}]",
                  flush=True)
        for k in FIXED:
            runs = _sweep(inst, FIXED_WIDTHS, [k] * len(FIXED_WIDTHS), a.networks, gen)
            ratio = [float(r["eps"].mean()) / k for r in runs]
            row["fixed_kappa"].append({"kappa": k, "widths": FIXED_WIDTHS, "eps_over_kappa": ratio,
                                       "m_kappa2": [m * k * k for m in FIXED_WIDTHS]})
            print(f"{P} kappa = {k}: eps/kappa " + ", ".join(f"{v:.3g}" for v in ratio), flush=True)
        out["points"].append(row)
    out["seconds"] = round(time.time() - t0, 1)
    out["versions"] = {"python": platform.python_version(), "torch": torch.__version__}
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {a.out} ({out['seconds']} s)")
    return out


if __name__ == "__main__":
    main()
