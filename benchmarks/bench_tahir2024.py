"""Old against new, side by side in one process (alternating, one torch thread, CPU time of the process), for the
tahir2024 speed changes recorded in benchmarks/tahir2024.md:

1. eq13.anomalous.all_sigma's property (``_anomalous_all_holds``) with the theta = pi/2 form rebuilt per call (old)
   or built once (new); the outputs are compared on fixed sigmas.
2. thm3.9's controlled sampler at gamma = 2, sigma = 1 (n = 2d, d = 128 and 192): torch GEMM Gram (old,
   ``numerics.least_squares.min_norm_solve``) against syrk + LAPACK (new, ``numerics.scratch.min_norm_solve_syrk``).
3. eq13's sampler (``numerics.transfer.transferability_trials``) at gamma = 1.5 and 2, d = 128: the same two solves.

Run: ``PYTHONPATH=. python benchmarks/bench_tahir2024.py``.
"""
from __future__ import annotations

import random
import time

import sympy as sp
import torch

torch.set_num_threads(1)

import numerics.least_squares as LS  # noqa: E402
import numerics.transfer as TR  # noqa: E402
from derivations import transfer as T, wishart as W  # noqa: E402
from verify.claims.tahir2024 import eq13 as E, finetune as F  # noqa: E402


def _old_holds(p):
    s_ = sp.nsimplify(p["sigma"], rational=True)
    orth = T.transferability_at_orthogonal()
    left = sp.limit(orth["gamma<1"].subs(W.sigma, s_), T.gamma, 1, "-")
    right = sp.limit(orth["gamma>1"].subs(W.sigma, s_), T.gamma, 1, "+")
    return bool(left > 0) and bool(right > 0)


def _alternate(fns: dict, work, reps=4):
    t = dict.fromkeys(fns, 0.0)
    for rep in range(reps):
        for name in (list(fns) if rep % 2 == 0 else list(fns)[::-1]):
            t0 = time.process_time()
            work(fns[name], rep)
            t[name] += time.process_time() - t0
    return t


def bench_anomalous():
    rnd = random.Random(0)
    fixed = [0.0, 1e-300, 0.2, 1.0, 100.0] + [rnd.uniform(0, 100) for _ in range(15)]
    assert [_old_holds({"sigma": s}) for s in fixed] == [E._anomalous_all_holds({"sigma": s}) for s in fixed]

    def work(f, rep):   # fresh sigmas each turn (sympy's own cache would favour the second)
        for s in [rnd.uniform(0, 100) for _ in range(15)]:
            f({"sigma": s})
    return _alternate({"old": _old_holds, "new": E._anomalous_all_holds}, work, reps=3), None


def _swap(module, attr, old, new, call):
    """Time ``call`` with ``module.attr`` bound to old / new solves; return the times and the max relative gap."""
    keep = getattr(module, attr)
    outs = {}

    def work(f, rep):
        setattr(module, attr, f)
        outs[(f is new, rep)] = call(rep)
    t = _alternate({"old": old, "new": new}, work)
    setattr(module, attr, keep)
    gap = max(float(((outs[(False, r)] - outs[(True, r)]).abs() / outs[(False, r)].abs()).max()) for r in range(4))
    return t, gap


def bench_thm39():
    samp = F._controlled_sampler("risk")

    class Ctx:
        dtype = torch.float64
    th = [0.0, 1.0471975511965976, 1.5707963267948966]

    def call(rep):
        return torch.cat([samp({"gamma": 2.0, "sigma": 1.0, "L": 2, "theta": th, "d": N, "n": 2 * N}, B,
                               torch.Generator().manual_seed(rep * 10 + N), Ctx) for N, B in ((192, 271), (128, 610))])
    return _swap(F, "min_norm_solve_syrk", LS.min_norm_solve, F.min_norm_solve_syrk, call)


def bench_eq13():
    def call(rep):
        return torch.cat([TR.transferability_trials(1500, int(g * 128), 128, 0.7, s, torch.Generator().manual_seed(rep))
                          for g, s in ((1.5, 1.0), (2.0, 0.5))])
    return _swap(TR, "min_norm_solve_syrk", LS.min_norm_solve, TR.min_norm_solve_syrk, call)


if __name__ == "__main__":
    for name, fn in (("eq13.anomalous.all_sigma holds", bench_anomalous), ("thm3.9 sampler, gamma = 2", bench_thm39),
                     ("eq13 sampler, gamma = 1.5, 2", bench_eq13)):
        t, gap = fn()
        extra = "" if gap is None else f", max relative gap per draw {gap:.1e}"
        print(f"{name}: old {t['old']:.2f} s, new {t['new']:.2f} s CPU, ratio {t['old'] / t['new']:.2f}{extra}")
