"""What the proof steps of App. B share (see the package docstring): the bookkeeping of a chain's links
(:class:`_Links`), small batched matrix helpers, the random instances of the invariant set of (35) (B.2-B.4), the literal
scratch-training runs shared by (71)-(72) and (90), and the power-witness wrappers."""
from __future__ import annotations

import functools
import math

import numpy as np
import torch

import numerics.deep_linear as DL
from verify.kit import Check, Custom, Domain, Evidence, Param, label_of, per_profile, pick

from ..common import INF, N


T_ = "tahir2024."
#: relative tolerance of an equality link; an inequality may be violated by at most this share of 1 + |a| + |b|
RTOL = 1e-9


# ============================================================================ link bookkeeping
class _Links:
    """Per link of a chain: the worst relative violation over every point and trial, and where it was.  ``half``: the
    instances of a point are the flow's initial point alpha Wbar below this trial index and a random point of the
    invariant set from it on (``_invariant_instances``); the failing trials are counted for each kind."""

    def __init__(self, half: int | None = None):
        self.rows: dict[str, dict] = {}
        self.half = half

    def _keep(self, name, bad, p, extra, refutes, kind, tol=RTOL):
        row = self.rows.setdefault(name, {"worst": -math.inf, "point": None, "refutes": refutes, "kind": kind,
                                          "n": 0, "tol": tol, "fail_initial": 0, "fail_other": 0})
        v = bad.detach().cpu().numpy().astype(float)
        row["n"] += int(v.size)
        fails = ~(v <= tol)
        if self.half is not None:
            row["fail_initial"] += int(fails[:self.half].sum())
            row["fail_other"] += int(fails[self.half:].sum())
        else:
            row["fail_other"] += int(fails.sum())
        if not np.isfinite(v).all():
            i, w = int(np.flatnonzero(~np.isfinite(v))[0]), math.inf
        else:
            i = int(np.argmax(v))
            w = float(v[i])
        if w > row["worst"]:
            where = {} if self.half is None else {
                "instance": "initial point alpha Wbar" if i < self.half else "random point of the invariant set"}
            row["worst"], row["point"] = w, dict(p) | {"trial": i} | where | {
                k: float(x.reshape(-1)[i]) for k, x in (extra or {}).items()}

    def ge(self, name, a, b, p, *, refutes=True, extra=None):
        """a >= b per trial (relative to 1 + |a| + |b|)."""
        self._keep(name, (b - a) / (1 + a.abs() + b.abs()), p, extra, refutes, "ge")

    def eq(self, name, a, b, p, *, refutes=True, extra=None, scale=None, tol=RTOL):
        """a == b per trial, relative to ``scale`` (default |a| + |b|; give the sum of the magnitudes of the terms
        where a side is a difference of large terms)."""
        den = (a.abs() + b.abs()) if scale is None else scale
        self._keep(name, (a - b).abs() / (den + 1e-300), p, extra, refutes, "eq", tol)

    def checks(self) -> list[Check]:
        out = []
        for name, r in self.rows.items():
            ok = r["worst"] <= r["tol"]
            what = ("largest relative difference" if r["kind"] == "eq"
                    else "largest relative violation of left >= right, (right - left)/(1 + |left| + |right|),")
            det = f"{what} over {r['n']} trials: {r['worst']:.3g} (tolerance {r['tol']:g})"
            if not ok and self.half is not None:
                det += (f"; failing trials: {r['fail_initial']} at the initial point alpha Wbar, {r['fail_other']} at "
                        "other points of the invariant set")
            out.append(Check(name, ok, det, refutes=r["refutes"],
                             counterexample=None if ok else {k: _plain(v) for k, v in r["point"].items()},
                             extra={"worst": r["worst"], "trials": r["n"], "failing_initial": r["fail_initial"],
                                    "failing_other": r["fail_other"]}))
        return out


def _plain(v):
    return float(v) if isinstance(v, (float, np.floating)) else v


def _dot(a, b):
    return (a * b).sum(-1)


def _sqrtm(M):
    e, V = torch.linalg.eigh(M)
    return V @ torch.diag_embed(e.clamp_min(0).sqrt()) @ V.mT


def _opnorm2(W):
    """||W||_op^2 per trial (a column vector: its squared norm)."""
    return torch.linalg.matrix_norm(W, ord=2).square()


def _fro2(W):
    return W.square().flatten(1).sum(-1)


def _prod(Ws):
    P = Ws[0]
    for W in Ws[1:]:
        P = P @ W
    return P


def _top(W):
    """(s, u, v): top singular value and vectors of each W (B, p, q); for a column W_L, (||W_L||, W_L/||W_L||, 1)."""
    U, S, Vh = torch.linalg.svd(W)
    return S[:, 0], U[:, :, 0], Vh[:, 0, :]


def _invariant_instances(B: int, d: int, L: int, alpha: float, spread: float, gen: torch.Generator, dtype):
    """(Wbar, W, Dbar, lam): B random initializations Wbar satisfying (22) and weights W with the invariants (35)
    D_l(W) = alpha^2 Dbar_l exactly, Dbar_l = Wbar_l^T Wbar_l - Wbar_{l+1} Wbar_{l+1}^T = G G^T/d + I (G Gaussian
    times ``spread``).  Built from the last layer down, W_l = Q_l (W_{l+1} W_{l+1}^T + D_l)^{1/2} with Q_l Haar;
    the first half of the trials is W = alpha Wbar (the flow's initial point), the second half a random point of
    the invariant set (W_L ~ N(0, I/d)).  lam (B,) is the tight lambda of (22): min_l lambda_min(Dbar_l)."""
    dev = gen.device
    I = torch.eye(d, dtype=dtype, device=dev)
    Dbar = []
    for _ in range(L - 1):
        G = spread * torch.randn(B, d, d, generator=gen, dtype=dtype, device=dev)
        Dbar.append(G @ G.mT / d + I)

    def build(top, Ds):
        Ws = [top]
        for Dl in reversed(Ds):
            Q = DL._haar_orthogonal(B, d, gen, dtype, dev)
            Ws.insert(0, Q @ _sqrtm(Ws[0] @ Ws[0].mT + Dl))
        return Ws

    Wbar = build(torch.randn(B, d, 1, generator=gen, dtype=dtype, device=dev) / d ** 0.5, Dbar)
    Wt = build(torch.randn(B, d, 1, generator=gen, dtype=dtype, device=dev) / d ** 0.5,
               [alpha ** 2 * Dl for Dl in Dbar])
    h = B // 2
    W = [torch.cat([alpha * a[:h], b[h:]]) for a, b in zip(Wbar, Wt)]
    lam = torch.stack([torch.linalg.eigvalsh(Dl)[:, 0] for Dl in Dbar], -1).min(-1).values
    return Wbar, W, Dbar, lam


# ============================================================================ shared declarations
P_D = Param("d", 1, INF, integer=True, doc="width d of every layer (eq. (9))")
P_L = Param("L", 2, INF, integer=True, doc="depth L >= 2")
P_ALPHA = Param("alpha", 0, INF, lower_open=True, doc="initialization scale alpha > 0 (W(0) = alpha Wbar)")
P_SPREAD = Param("spread", 0, INF, doc="size of the random part of Dbar_l (how anisotropic the invariants are); "
                                       "0 gives Dbar_l = I")
INST_DOMAIN = Domain((P_D, P_L, P_ALPHA, P_SPREAD))
INST_ASSUME = ("Deep linear network (9) with d_l = d, depth L; weights with the invariants (35) D_l = alpha^2 Dbar_l "
               "of an initialization Wbar satisfying (22) (Dbar_l >= lambda I), on random instances (module "
               "docstring) and at the flow's initial point W(0) = alpha Wbar.")
INST_POINTS = per_profile(
    quick=[dict(d=3, L=2, alpha=0.5, spread=3.0), dict(d=3, L=3, alpha=0.5, spread=3.0),
           dict(d=3, L=4, alpha=0.5, spread=3.0), dict(d=4, L=5, alpha=0.3, spread=30.0),
           dict(d=5, L=3, alpha=0.1, spread=0.3)],
    standard=[dict(d=d, L=L, alpha=a, spread=s) for d in (2, 3, 6) for L in (2, 3, 4, 5) for a in (0.1, 0.5, 1.0)
              for s in (0.3, 3.0, 30.0)])
INST_B = per_profile(400, 1000, 2000)


def _each_instance(claim, ctx, points, body):
    """Run ``body(links, p, Wbar, W, Dbar, lam, gen)`` on the instances of every point; the checks of its links."""
    B = per_profile_value(INST_B, ctx)
    links = _Links(half=B // 2)
    ev = Evidence()
    for p in points:
        gen, seed = ctx.generator(claim.id, label_of(p))
        ev.seeds.append(seed)
        Wbar, W, Dbar, lam = _invariant_instances(B, int(p["d"]), int(p["L"]), float(p["alpha"]), float(p["spread"]),
                                                  gen, ctx.dtype)
        body(links, p, Wbar, W, Dbar, lam, gen)
    ev.checks += links.checks()
    return ev


def per_profile_value(spec, ctx):
    """The value of a per-profile spec at the run's profile."""
    return pick(ctx.profile, spec)


# ============================================================================ literal scratch runs: (71)-(72), (90)
RUN_POINTS = per_profile(quick=[dict(n=4, d=8, L=3, alpha=0.1), dict(n=12, d=6, L=2, alpha=0.1)],
                         standard=[dict(n=n, d=d, L=L, alpha=a) for (n, d) in ((4, 8), (12, 6), (10, 20))
                                   for L in (2, 3) for a in (0.1, 0.03)])
RUN_B = per_profile(4, 16, 32)
RUN_DOMAIN = Domain((N, P_D, P_L, P_ALPHA))
_RUNS: dict = {}


def _scratch_run(ctx, p, B):
    """(W(0), X, y, end state) of gradient descent on the empirical loss (5) from alpha Wbar (numerics.deep_linear),
    shared by the claims on (71)-(72) and (90) (one run per point, run seed and dtype)."""
    key = (ctx.seed, label_of(p), B, str(ctx.dtype), str(ctx.device))
    if key not in _RUNS:
        gen, seed = ctx.generator("tahir2024.proof.scratch_run", label_of(p))
        n, d, L, a = int(p["n"]), int(p["d"]), int(p["L"]), float(p["alpha"])
        X = torch.randn(B, n, d, generator=gen, dtype=ctx.dtype, device=gen.device)
        y = torch.randn(B, n, generator=gen, dtype=ctx.dtype, device=gen.device)
        W0 = DL.init_weights(B, d, L, a, gen, dtype=ctx.dtype, device=gen.device)
        res = DL.train(W0, "empirical", X=X, y=y, alpha=a)
        _RUNS[key] = (W0, X, y, res, seed)
    return _RUNS[key]


#: draws per point of the per-draw links of B.5-B.6
DRAW_B = per_profile(1000, 4000, 8000)


# ============================================================================ power witnesses (issue 24)
def _on_instances(body, alt):
    """The check of a chain on the invariant-set instances with one link replaced by the slip ``alt`` (same points,
    same seeds: the witness meets the claim's own instances)."""
    return Custom(lambda claim, ctx, points: _each_instance(claim, ctx, points, functools.partial(body, alt=alt)),
                  points=INST_POINTS)


def _witness(fn, alt, points):
    """A custom check ``fn(claim, ctx, points, alt=alt)`` on the claim's own points: the claim's check with one link
    replaced by the slip ``alt``."""
    return Custom(lambda claim, ctx, pts: fn(claim, ctx, pts, alt=alt), points=points)

#: claims reading the same cached runs (_scratch_run (the from-scratch runs at RUN_POINTS)): a --jobs run gives them to one worker
RUN_TOGETHER = ((
    "tahir2024.proof.lemmaB1.eq71_72",
    "tahir2024.proof.thm3_5.eq90",
),)
