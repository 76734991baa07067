"""Low-rank (rank-1) fine-tuning of a two-layer network by online spherical SGD
(003_83d15a9763fa9a30.txt, Dayi & Chen, §1.2, eq. (4)), batched over independent runs.

The setting (the reconstruction used is written out in ``verify/claims/dayi2024/common.py``):

* base model   f_W(x)   = a sum_i sigma(<w_i, x>),  W (k, d) with unit rows w_i;
* teacher      f*(x)    = a sum_i sigma(<w_i + xi c_i u, x>),  u unit, u perp span{w_i},
                          c uniform on {+-1/sqrt k}^k;
* student      f_u^(x)  = a sum_i sigma(<w_i + xi c^_i u^, x>), c^ frozen (independent of c);
* per-sample loss l = (f_u^(x) - f*(x))^2 (``half=True``: times 1/2);
* spherical gradient restricted to span(W)^perp:  g = (I - u^ u^T) P_perp grad_u^ l
                                                    = coef(x) (P_perp x - <u^, x> u^),
  coef(x) = 2 (f_u^ - f*) a sum_i sigma'(<w_i + xi c^_i u^, x>) xi c^_i;
* eq. (4): u^_{t+1} = (u^_t - eta g_t) / ||u^_t - eta g_t|| with a fresh x_t ~ N(0, I_d) at every step.

Every tensor has a leading run dimension R: R independent runs (own W, u, c, c^, data) advance in
one tensor.  Inputs are drawn in chunks of ``chunk`` steps; the projections that do not depend on
u^ (W x, <u, x>, P_perp x, the teacher output) are computed for the whole chunk at once, and the
u^-dependent part is then applied step by step, exactly as eq. (4) (no step is skipped or merged).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import torch

Tensor = torch.Tensor

# ----------------------------------------------------------------------------- activations
_SQRT2 = math.sqrt(2.0)
_SQRTPI = math.sqrt(math.pi)


def _hermite(n: int, z: Tensor) -> tuple[Tensor, Tensor]:
    """(h_n(z), h_n'(z)) for the normalized probabilists' Hermite h_n = He_n/sqrt(n!);
    h_n' = sqrt(n) h_{n-1}."""
    h_prev, h = torch.ones_like(z), z.clone()
    if n == 0:
        return h_prev, torch.zeros_like(z)
    for j in range(1, n):
        h_prev, h = h, (z * h - math.sqrt(j) * h_prev) / math.sqrt(j + 1)
    return h, math.sqrt(n) * h_prev


def _hermite_combo(terms: dict[int, float]) -> tuple[Callable, Callable]:
    def f(z):
        return sum(a * _hermite(n, z)[0] for n, a in terms.items())

    def df(z):
        return sum(a * _hermite(n, z)[1] for n, a in terms.items())
    return f, df


def _parse_hermite(name: str) -> dict[int, float] | None:
    """'h3' -> {3: 1}, 'h2+h3' -> {2: 1, 3: 1}; None if ``name`` is not such a sum."""
    parts = name.replace(" ", "").split("+")
    if not all(p.startswith("h") and p[1:].isdigit() for p in parts):
        return None
    out: dict[int, float] = {}
    for p in parts:
        out[int(p[1:])] = out.get(int(p[1:]), 0.0) + 1.0
    return out


_BASE: dict[str, tuple[Callable, Callable]] = {
    "relu": (torch.relu, lambda z: (z > 0).to(z.dtype)),
    "abs": (torch.abs, torch.sign),
    "erf": (torch.erf, lambda z: (2.0 / _SQRTPI) * torch.exp(-z * z)),
    "tanh": (torch.tanh, lambda z: 1.0 - torch.tanh(z) ** 2),
    "sigmoid": (torch.sigmoid, lambda z: torch.sigmoid(z) * (1.0 - torch.sigmoid(z))),
    "softplus": (torch.nn.functional.softplus, torch.sigmoid),
    "gelu": (lambda z: z * 0.5 * (1.0 + torch.erf(z / _SQRT2)),
             lambda z: 0.5 * (1.0 + torch.erf(z / _SQRT2)) + z * torch.exp(-z * z / 2) / math.sqrt(2 * math.pi)),
}


@dataclass(frozen=True)
class Activation:
    """sigma(z) = base(z / inner) and its derivative; ``inner`` = r gives the normalized-neuron model
    sigma(<a, x>/||a||) for neurons of norm r (e.g. sigma(r .) = h_p in Claim 2 / Prop. 3)."""

    name: str
    inner: float = 1.0

    def __post_init__(self):
        object.__setattr__(self, "_pair", self._fd())

    def _fd(self):
        if self.name in _BASE:
            return _BASE[self.name]
        terms = _parse_hermite(self.name)
        if terms is None:
            raise ValueError(f"unknown activation {self.name!r}: one of {', '.join(_BASE)} or a sum of "
                             f"normalized Hermite polynomials like 'h3' or 'h2+h3'")
        return _hermite_combo(terms)

    def f(self, z: Tensor) -> Tensor:
        return self._pair[0](z if self.inner == 1.0 else z / self.inner)

    def df(self, z: Tensor) -> Tensor:
        return self._pair[1](z) if self.inner == 1.0 else self._pair[1](z / self.inner) / self.inner


# ----------------------------------------------------------------------------- instances
def rademacher_c(R: int, k: int, gen: torch.Generator, *, device=None, dtype=torch.float64) -> Tensor:
    """c uniform on {+-1/sqrt k}^k (Assumption 3) -> (R, k)."""
    device = device or gen.device
    b = torch.randint(0, 2, (R, k), generator=gen, device=device).to(dtype)
    return (2 * b - 1) / math.sqrt(k)


def orthonormal_features(R: int, k: int, d: int, gen: torch.Generator, *, device=None,
                         dtype=torch.float64) -> Tensor:
    """k orthonormal rows in R^d (QR of a Gaussian matrix; Haar-distributed frame) -> (R, k, d)."""
    if d < k + 1:
        raise ValueError(f"k={k} orthonormal features and a direction u perp to them need d >= k + 1, got d={d}")
    device = device or gen.device
    G = torch.randn(R, d, k, generator=gen, device=device, dtype=dtype)
    Q, _ = torch.linalg.qr(G)
    return Q.mT.contiguous()


def gram_features(R: int, gram: Tensor, d: int, gen: torch.Generator, *, device=None, dtype=torch.float64) -> Tensor:
    """Rows with a given Gram matrix ``gram`` (k, k) (unit diagonal: Assumption 1), placed in a
    uniformly random k-dimensional subspace of R^d -> (R, k, d)."""
    k = gram.shape[0]
    frame = orthonormal_features(R, k, d, gen, device=device, dtype=dtype)      # (R, k, d)
    L = torch.linalg.cholesky(gram.to(frame))                                  # gram = L L^T
    return torch.einsum("ij,rjd->rid", L, frame)


def perpendicular_unit(W: Tensor, gen: torch.Generator) -> Tensor:
    """A unit vector uniform on S^{d-1} intersect span(W)^perp, per run: W (R, k, d) -> (R, d)."""
    R, k, d = W.shape
    z = torch.randn(R, d, generator=gen, device=W.device, dtype=W.dtype)
    z = project_perp(z, W)
    return z / z.norm(dim=-1, keepdim=True)


def _gram_inverse(W: Tensor) -> Tensor:
    return torch.linalg.inv(W @ W.mT)


def project_perp(x: Tensor, W: Tensor, Ginv: Tensor | None = None) -> Tensor:
    """P_perp x = x - W^T (W W^T)^{-1} W x for x (..., R, d), W (R, k, d)."""
    Ginv = _gram_inverse(W) if Ginv is None else Ginv
    s = torch.einsum("...rd,rkd->...rk", x, W)
    s = torch.einsum("...rk,rkj->...rj", s, Ginv)
    return x - torch.einsum("...rk,rkd->...rd", s, W)


def at_overlap(u: Tensor, W: Tensor, m: float | Tensor, gen: torch.Generator) -> Tensor:
    """u^ = m u + sqrt(1 - m^2) v with v uniform on the unit sphere of span(W, u)^perp -> (R, d)."""
    R, k, d = W.shape
    Wu = torch.cat([W, u[:, None, :]], dim=1)
    v = perpendicular_unit(Wu, gen)
    m = torch.as_tensor(m, dtype=u.dtype, device=u.device)
    if m.dim() == 1:
        m = m[:, None]
    return m * u + torch.sqrt(1 - m * m) * v


# ----------------------------------------------------------------------------- one gradient
def network(x: Tensor, W: Tensor, c: Tensor, u: Tensor, xi, act: Activation, out_scale: float = 1.0):
    """(f(x), pre-activations) of a sum_i sigma(<w_i + xi c_i u, x>): x (..., R, d) -> (..., R), (..., R, k);
    xi a float or an (R, 1) tensor."""
    z = torch.einsum("...rd,rkd->...rk", x, W) + xi * c * torch.einsum("...rd,rd->...r", x, u)[..., None]
    return out_scale * act.f(z).sum(-1), z


def spherical_gradients(x: Tensor, W: Tensor, c: Tensor, u: Tensor, c_hat: Tensor, u_hat: Tensor, xi: float,
                        act: Activation, *, out_scale: float = 1.0, half: bool = False,
                        Ginv: Tensor | None = None) -> Tensor:
    """Per-sample spherical gradient g = (I - u^ u^T) P_perp grad_{u^} l(u^; x) of the squared loss
    (eq. (4)'s g_t) for inputs x (n, R, d) -> (n, R, d).  Its mean estimates the population spherical
    gradient, -phi(m) (u - m u^) by Prop. 1 (derivations.lowrank.phi_value)."""
    f_star, _ = network(x, W, c, u, xi, act, out_scale)
    f_hat, z = network(x, W, c_hat, u_hat, xi, act, out_scale)
    coef = (1.0 if half else 2.0) * (f_hat - f_star) * out_scale * (act.df(z) * (xi * c_hat)).sum(-1)
    xp = project_perp(x, W, Ginv)
    su = torch.einsum("...rd,rd->...r", xp, u_hat)
    return coef[..., None] * (xp - su[..., None] * u_hat)


# ----------------------------------------------------------------------------- online SGD, eq. (4)
@dataclass
class SGDResult:
    """Outcome of R runs: first hitting times of direction * m_t >= each threshold (-1 = censored
    at ``steps``), the overlap path at the recorded steps, and the final overlaps."""

    thresholds: tuple[float, ...]
    hits: Tensor            # (R, len(thresholds)) int64, -1 if not reached within `steps`
    m_final: Tensor         # (R,)
    record_steps: Tensor    # (n_rec,)
    m_path: Tensor          # (R, n_rec)
    steps: int
    extra: dict


def online_sgd(W: Tensor, c: Tensor, u: Tensor, c_hat: Tensor, u0: Tensor, xi: float, act: Activation,
               eta: float | Tensor, steps: int, gen: torch.Generator, *,
               thresholds: Sequence[float] = (0.5, 0.9), direction: Tensor | None = None,
               out_scale: float = 1.0, half: bool = False, chunk: int = 256, n_record: int = 200,
               stop_when_all_hit: bool = True, train_c: bool = False, project: bool = True,
               linearized: bool = False) -> SGDResult:
    """Online spherical SGD (eq. (4)) for R independent runs.

    Shapes: W (R, k, d); c, c_hat (R, k); u, u0 (R, d) unit, u0 perp span(W) when ``project``; xi float or (R,);
    eta a float or (R,); ``direction`` (R,) of +-1 (default +1): hitting times are measured on
    direction * m_t with m_t = <u^_t, u>.  Returns :class:`SGDResult`.

    Options beyond the analysed algorithm (used for §4's figures only):
    ``train_c``: c^ is trained jointly by plain SGD (eta on c^); ``project=False``: the gradient is not
    restricted to span(W)^perp (only to the tangent space of the sphere; Figs. 3-5);
    ``linearized``: the student is the first-order Taylor expansion of f in the perturbation around the
    base model, f_lin = f_W + a sum_i sigma'(<w_i, x>) xi c^_i <u^, x> (Fig. 2's kernel model).
    With ``stop_when_all_hit`` the loop ends once every run has hit every threshold (the path after
    that is not needed for hitting times; m_final is then the overlap at that step).
    """
    R, k, d = W.shape
    dev, dt = W.device, W.dtype
    Ginv = _gram_inverse(W)
    eta = torch.as_tensor(eta, dtype=dt, device=dev).expand(R).clone()
    xi_t = torch.as_tensor(xi, dtype=dt, device=dev).expand(R).clone()
    xi = xi_t[:, None]                                   # per-run scale, broadcast over neurons
    direction = torch.ones(R, dtype=dt, device=dev) if direction is None else direction.to(dt)
    uh = u0.clone()
    ch = c_hat.clone()
    thr = torch.tensor(list(thresholds), dtype=dt, device=dev)
    hits = torch.full((R, len(thresholds)), -1, dtype=torch.int64, device=dev)
    rec_every = max(1, steps // max(1, n_record))
    rec_steps, rec_m = [0], [(uh * u).sum(-1)]
    coef_scale = (1.0 if half else 2.0) * out_scale
    t0 = 0
    while t0 < steps:
        S = min(chunk, steps - t0)
        x = torch.randn(S, R, d, generator=gen, device=dev, dtype=dt)
        s = torch.einsum("srd,rkd->srk", x, W)                       # <w_i, x>
        f_star = out_scale * act.f(s + xi * c * torch.einsum("srd,rd->sr", x, u)[..., None]).sum(-1)
        if project:
            xp = x - torch.einsum("srk,rkd->srd", torch.einsum("srk,rkj->srj", s, Ginv), W)
        else:
            xp = x
        if linearized:
            f0 = out_scale * act.f(s).sum(-1)
            d0 = act.df(s)
        ms = torch.empty(S, R, dtype=dt, device=dev)
        for j in range(S):
            xj = xp[j]
            su = (x[j] * uh).sum(-1)                                 # <u^, x>
            if linearized:
                f_hat = f0[j] + out_scale * (d0[j] * ch).sum(-1) * xi_t * su
                dz = d0[j]
            else:
                z = s[j] + xi * ch * su[:, None]
                f_hat = out_scale * act.f(z).sum(-1)
                dz = act.df(z)
            err = f_hat - f_star[j]
            coef = coef_scale * err * (dz * ch).sum(-1) * xi_t
            if train_c:
                gc = coef_scale * err[:, None] * dz * (xi * su[:, None])
            g = coef[:, None] * (xj - su[:, None] * uh)         # <u^, P_perp x> = <u^, x>: u^ perp span(W)
            uh = uh - eta[:, None] * g
            uh = uh / uh.norm(dim=-1, keepdim=True)
            if train_c:
                ch = ch - eta[:, None] * gc
            ms[j] = (uh * u).sum(-1)
        # first hitting times within this chunk
        dm = direction[None, :] * ms                                  # (S, R)
        reached = dm[:, :, None] >= thr[None, None, :]                # (S, R, T)
        any_r = reached.any(0)
        first = torch.argmax(reached.to(torch.int8), dim=0) + t0 + 1  # step index t (1-based: after t updates)
        new = any_r & (hits < 0)
        hits[new] = first[new]
        for j in range(S):
            t = t0 + j + 1
            if t % rec_every == 0:
                rec_steps.append(t)
                rec_m.append(ms[j])
        t0 += S
        if stop_when_all_hit and bool((hits >= 0).all()):
            break
    path = torch.stack(rec_m, dim=1)
    extra = {"c_hat_final": ch, "u_hat_final": uh} if train_c else {"u_hat_final": uh}
    return SGDResult(tuple(float(v) for v in thresholds), hits.cpu(), ms[S - 1].cpu() if steps else (uh * u).sum(-1),
                     torch.tensor(rec_steps), path.cpu(), t0, extra)


def population_loss_mc(n: int, W: Tensor, c: Tensor, u: Tensor, c_hat: Tensor, u_hat: Tensor, xi, act: Activation,
                       gen: torch.Generator, *, out_scale: float = 1.0, linearized: bool = False) -> Tensor:
    """Monte Carlo E (f_student - f*)^2 over n fresh inputs, per run -> (R,) (for §4's loss curves); xi float or (R,)."""
    R, k, d = W.shape
    xi_t = torch.as_tensor(xi, dtype=W.dtype, device=W.device).expand(R)
    x = torch.randn(n, R, d, generator=gen, device=W.device, dtype=W.dtype)
    f_star, _ = network(x, W, c, u, xi_t[:, None], act, out_scale)
    if linearized:
        s = torch.einsum("nrd,rkd->nrk", x, W)
        f_hat = out_scale * (act.f(s).sum(-1) + (act.df(s) * c_hat).sum(-1) * xi_t * torch.einsum("nrd,rd->nr", x, u_hat))
    else:
        f_hat, _ = network(x, W, c_hat, u_hat, xi_t[:, None], act, out_scale)
    return ((f_hat - f_star) ** 2).mean(0)
