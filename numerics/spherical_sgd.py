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

The exact-in-law overlap chain (:func:`overlap_chain`) iterates its per-step map in numpy on CPU tensors and in torch
elsewhere (``backend``): the map is written once (:func:`_chain_step` over an :class:`ArrayOps` namespace), the random
draws are torch's in both, and the two agree to float64 rounding with the same hitting times (tests/test_chain_fast.py;
speed in benchmarks/dayi2024.md).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
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

    def f_df(self, z: Tensor) -> tuple[Tensor, Tensor]:
        """(f(z), f'(z)) in fewer tensor operations: a sum of Hermite polynomials is evaluated as one polynomial by
        Horner's rule (coefficients of z / inner folded in), ReLU shares its comparison; otherwise f and df.  Equal
        to (f, df) to rounding (tests/test_dayi2024.py); the chain uses its neuron sums, :meth:`chain_sums`."""
        poly = self._poly_coefs()
        if poly:
            return _horner(poly[0], z, TORCH_OPS), _horner(poly[1], z, TORCH_OPS)
        if self.name == "relu" and self.inner == 1.0:
            pos = z > 0
            return torch.where(pos, z, 0.0), pos.to(z.dtype)
        return self.f(z), self.df(z)

    def chain_sums(self, z, c_hat, ops: "ArrayOps"):
        """(sum_i sigma(z_i), sum_i sigma'(z_i) c^_i) over the neurons of z (R, k), for torch tensors or numpy
        arrays (``ops``: :data:`TORCH_OPS`, :data:`NUMPY_OPS`).
        The overlap chain's only use of sigma, written once for both.  ReLU: sigma' c^ = (z > 0) c^ (the bool
        promotes to 1.0 / 0.0, so the product equals f_df's pos.to(dtype) * c^ bit for bit); a Hermite sum: Horner's
        rule; otherwise f and df (for numpy arrays evaluated by torch on a shared-memory view, so one definition)."""
        poly = self._poly_coefs()
        if poly:
            f, df = _horner(poly[0], z, ops), _horner(poly[1], z, ops)
        elif self.name == "relu" and self.inner == 1.0:
            return ops.sum(ops.clamp0(z)), ops.sum((z > 0) * c_hat)
        else:
            f, df = ops.apply(self.f, self.df, z)
        return ops.sum(f), ops.sum(df * c_hat)

    def _poly_coefs(self):
        poly = self.__dict__.get("_poly")
        if poly is None:
            poly = self._polynomial()
            object.__setattr__(self, "_poly", poly)
        return poly

    def _polynomial(self):
        """Monomial coefficients (low to high) of f and f' in z, or () if sigma is not a Hermite sum."""
        terms = _parse_hermite(self.name)
        if terms is None:
            return ()
        from numpy.polynomial import hermite_e as He
        he = np.zeros(max(terms) + 1)
        for n, a in terms.items():
            he[n] += a / math.sqrt(math.factorial(n))
        mono = He.herme2poly(he) / self.inner ** np.arange(len(he))        # sigma(z / inner)
        der = np.polynomial.polynomial.polyder(mono) if len(mono) > 1 else np.zeros(1)
        return tuple(map(float, mono)), tuple(map(float, der))


def _horner(coefs: tuple[float, ...], z, ops: "ArrayOps"):
    """sum_n coefs[n] z^n by Horner's rule; an exactly zero coefficient adds nothing (x + 0.0 == x except for the
    sign of a zero, which cannot change the chain's m: see :func:`_chain_step`)."""
    if len(coefs) == 1:
        return ops.full_like(z, coefs[0])
    f = z * coefs[-1]
    if coefs[-2] != 0.0:
        f = f + coefs[-2]
    for a in reversed(coefs[:-2]):
        f = f * z
        if a != 0.0:
            f = f + a
    return f


@dataclass(frozen=True)
class ArrayOps:
    """The array functions the overlap-chain step needs beyond + - * / and comparisons, for one array library
    (torch tensors or numpy arrays; neurons on the last axis, (R, k), in both)."""

    name: str
    sqrt: Callable
    one_minus: Callable       # 1 - x (torch: torch.rsub, skipping Tensor.__rsub__'s Python wrapper)
    clamp0: Callable          # max(x, 0), also ReLU
    sum: Callable             # over neurons, (R, k) -> (R,)
    addcmul: Callable         # s + t su[:, None] for s, t (R, k), su (R,) (torch: one fused operation)
    full_like: Callable
    apply: Callable           # (f(z), df(z)) for the torch functions f, df


def _np_apply(f, df, z):
    t = torch.from_numpy(z)  # device: cpu (z is a numpy array, on the host; shares its memory)
    return f(t).numpy(), df(t).numpy()  # device: cpu (t was made on the host just above)


@functools.lru_cache(maxsize=None)
def _np_ones(k: int, dtype) -> np.ndarray:
    return np.ones(k, dtype=dtype)


def _np_neuron_sum(x):
    """Row sums of (R, k) as a matrix-vector product: numpy's x.sum(-1) walks a short last axis row by row, ~3x
    slower at k = 5."""
    return x @ _np_ones(x.shape[-1], x.dtype)


TORCH_OPS = ArrayOps("torch", torch.sqrt, lambda x: torch.rsub(x, 1.0), lambda x: torch.clamp_min(x, 0.0),
                     lambda x: x.sum(-1), lambda s, t, su: torch.addcmul(s, t, su[:, None]), torch.full_like,
                     lambda f, df, z: (f(z), df(z)))
NUMPY_OPS = ArrayOps("numpy", np.sqrt, lambda x: 1.0 - x, lambda x: np.maximum(x, 0.0), _np_neuron_sum,
                     lambda s, t, su: s + t * su[:, None], np.full_like, _np_apply)


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
    cos_c = lambda v: (v * c).sum(-1) / (v.norm(dim=-1) * c.norm(dim=-1)).clamp_min(1e-300)  # noqa: E731
    rec_c = [cos_c(ch)] if train_c else None            # cos(c^_t, c) at the recorded steps (Fig. 2(b))
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
        cs = torch.empty(S, R, dtype=dt, device=dev) if train_c else None
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
                cs[j] = cos_c(ch)
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
                if train_c:
                    rec_c.append(cs[j])
        t0 += S
        if stop_when_all_hit and bool((hits >= 0).all()):
            break
    path = torch.stack(rec_m, dim=1)
    extra = ({"c_hat_final": ch, "u_hat_final": uh, "cos_c_path": torch.stack(rec_c, dim=1).cpu()} if train_c
             else {"u_hat_final": uh})
    return SGDResult(tuple(float(v) for v in thresholds), hits.cpu(), ms[S - 1].cpu() if steps else (uh * u).sum(-1),
                     torch.tensor(rec_steps), path.cpu(), t0, extra)  # device: cpu (results are read on the host)


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


# ----------------------------------------------------------------------------- the overlap chain (fast path)
# Why m_t alone is a Markov chain (exact in law, not an approximation): the law of x ~ N(0, I_d) is
# invariant under every rotation fixing span(W) and u, and eq. (4) commutes with those rotations; the
# state (u^ relative to W and u) modulo them is m = <u^, u> alone.  Write u^ = m u + sqrt(1-m^2) e and
# P_perp x = a u + b e + y with y perp {W, u, e}: then s = W x ~ N(0, W W^T), a, b ~ N(0, 1) and
# ||y||^2 ~ chi^2_{d-k-2} are independent of each other and of the past, and eq. (4) gives
#   U = m - eta coef (a - su m),  E = sqrt(1-m^2) - eta coef (b - su sqrt(1-m^2)),  Y^2 = eta^2 coef^2 ||y||^2,
#   m' = U / sqrt(U^2 + E^2 + Y^2),   su = <u^, x> = m a + sqrt(1-m^2) b.
# :func:`overlap_step` is this map; :func:`chain_inputs_from_x` extracts (s, a, b, ||y||^2) from a literal
# input, so the test suite checks the chain draw by draw against :func:`online_sgd` (tests/test_dayi2024.py).
def overlap_step(m: Tensor, s: Tensor, a: Tensor, b: Tensor, q: Tensor, c: Tensor, c_hat: Tensor, xi,
                 act: Activation, eta: Tensor, *, out_scale: float = 1.0, half: bool = False,
                 f_star: Tensor | None = None) -> Tensor:
    """One step of eq. (4) written on m: m (R,), s (R, k), a, b, q (R,) -> m' (R,); ``xi`` a float or (R,).
    ``f_star`` (R,) = sum_i sigma(s_i + xi c_i a) (the teacher output / a) may be passed precomputed."""
    xc = xi[:, None] if isinstance(xi, Tensor) else xi
    sq = torch.sqrt(torch.clamp(1 - m * m, min=0.0))
    su = m * a + sq * b
    if f_star is None:
        f_star = act.f(s + xc * c * a[:, None]).sum(-1)
    z = s + (xc * c_hat) * su[:, None]
    coef = (act.f(z).sum(-1) - f_star) * (act.df(z) * c_hat).sum(-1)
    ec = ((1.0 if half else 2.0) * out_scale * out_scale) * (xi * eta) * coef
    U = m - ec * (a - su * m)
    E = sq - ec * (b - su * sq)
    return U / torch.sqrt(U * U + E * E + ec * ec * q)


def _chain_step(m, s, a, b, n2, f_star, xch, c_hat, ec0, act: Activation, ops: ArrayOps = TORCH_OPS):
    """:func:`overlap_step` with fewer operations (the loop is dispatch-bound): xch = xi c^, ec0 = 2 xi eta, and
    n2 = a^2 + b^2 + ||y||^2 precomputed; since m^2 + (1-m^2) = 1 and m a + sqrt(1-m^2) b = su, the norm is
    U^2 + E^2 + Y^2 = 1 + ec^2 (n2 - su^2) exactly, so m' = (m - ec (a - su m)) / sqrt(1 + ec^2 (n2 - su^2)).
    Agrees with :func:`overlap_step` to rounding (tests/test_dayi2024.py).

    Written once for torch tensors (``ops`` = :data:`TORCH_OPS`) and numpy arrays (:data:`NUMPY_OPS`): m, a, b, n2,
    f_star (R,); s, xch, c_hat (R, k).  The sign of a zero in sigma's sums cannot change m': a zero sum makes
    ec = +-0, and m - (+-0) (..) = m, sqrt(1 + 0) = 1."""
    sq = ops.sqrt(ops.clamp0(ops.one_minus(m * m)))
    su = m * a + sq * b
    f, dc = act.chain_sums(ops.addcmul(s, xch, su), c_hat, ops)
    ec = ec0 * (f - f_star) * dc
    return (m - ec * (a - su * m)) / ops.sqrt(1 + ec * ec * (n2 - su * su))


def _chain_loop_torch(m, s_all, a_all, b_all, n2_all, fs_all, xch, c_hat, ec0, act) -> tuple[Tensor, Tensor]:
    """The chunk's S steps in eager torch (any device) -> (m after the chunk (R,), m after each step (S, R)).  The
    steps' m are stacked once per chunk (an indexed copy ms[j] = m per step cost ~26 us, a fifth of the step)."""
    ms = []
    with torch.inference_mode():
        for j in range(s_all.shape[0]):
            m = _chain_step(m, s_all[j], a_all[j], b_all[j], n2_all[j], fs_all[j], xch, c_hat, ec0, act)
            ms.append(m)
    return m, torch.stack(ms)


def _chain_loop_numpy(m, s_all, a_all, b_all, n2_all, fs_all, xch, c_hat, ec0, act) -> tuple[Tensor, Tensor]:
    """The same S steps on CPU tensors, iterated in numpy on shared-memory views (a numpy operation on a few hundred
    numbers costs ~1 us against torch's ~5 us dispatch); the result is handed back as torch tensors.  Equal to
    :func:`_chain_loop_torch` to rounding (numpy sums the k neurons in another order and torch fuses s + xch su into
    one addcmul): tests/test_chain_fast.py."""
    s_np, a_np, b_np, n2_np, fs_np = (t.detach().cpu().numpy() for t in (s_all, a_all, b_all, n2_all, fs_all))
    xch_np, ch_np, ec0_np = (t.detach().cpu().numpy() for t in (xch.expand_as(c_hat), c_hat, ec0))
    mm = m.detach().cpu().numpy().copy()
    ms = np.empty(a_np.shape, dtype=mm.dtype)
    for j in range(ms.shape[0]):
        mm = _chain_step(mm, s_np[j], a_np[j], b_np[j], n2_np[j], fs_np[j], xch_np, ch_np, ec0_np, act, NUMPY_OPS)
        ms[j] = mm
    return (torch.from_numpy(mm).to(m.device),  # device: cpu (numpy's result, moved back to m's device)
            torch.from_numpy(ms).to(m.device))  # device: cpu (as above)


def chain_inputs_from_x(x: Tensor, W: Tensor, u: Tensor, u_hat: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """(s, a, b, ||y||^2) of one literal input x (R, d) relative to the current frame (W, u, u^)."""
    m = (u_hat * u).sum(-1)
    e = u_hat - m[:, None] * u
    e = e / e.norm(dim=-1, keepdim=True)
    s = torch.einsum("rd,rkd->rk", x, W)
    xp = project_perp(x, W)
    a = (xp * u).sum(-1)
    b = (xp * e).sum(-1)
    y = xp - a[:, None] * u - b[:, None] * e
    return s, a, b, (y * y).sum(-1)


def _hits_first(hits: Tensor, dm: Tensor, thr: Tensor, t0: int) -> None:
    """Record in ``hits`` (R, T) (in place; -1 = not yet) the first step t0 + j + 1 with dm[j] >= thr for runs whose
    threshold is first reached within this chunk dm (S, R).  Only those (run, threshold) pairs are searched: the
    chunk's maximum decides which (a NaN m, which the chain never produces, would count as not reached)."""
    new = (dm.amax(0)[:, None] >= thr[None, :]) & (hits < 0)
    if bool(new.any()):
        r, i = new.nonzero(as_tuple=True)
        hits[r, i] = torch.argmax((dm[:, r] >= thr[i]).to(torch.int8), dim=0) + t0 + 1


def overlap_chain(m0: Tensor, gram: Tensor, c: Tensor, c_hat: Tensor, xi: float | Tensor, act: Activation,
                  eta: float | Tensor, d: int | Tensor, steps: int, gen: torch.Generator, *,
                  thresholds: Sequence[float] = (0.5, 0.9), direction: Tensor | None = None,
                  out_scale: float = 1.0, half: bool = False, chunk: int = 512, n_record: int = 100,
                  stop_when_all_hit: bool = True, rank_w: int | None = None, backend: str | None = None) -> SGDResult:
    """Online spherical SGD (eq. (4)) for R runs, simulated exactly in law through m_t (see above).

    m0 (R,) initial overlaps; gram (k, k) or (R, k, k) the features' Gram matrix W W^T; c, c_hat (R, k); xi float or (R,);
    eta float or (R,); d int or (R,) (runs of different dimensions share one tensor); ``direction``
    (R,) +-1: hitting times are first t with direction * m_t >= threshold (-1: censored at ``steps``).
    ``rank_w``: dimension of span(W) (default k; 0 for the GLM limit W = 0, gram = 0).
    Cost per step O(R k), independent of d.
    ``backend``: how the steps within a chunk are iterated, "numpy" (CPU tensors of float32/64; the dispatch-bound
    loop ~2.4x faster, the whole chain with its draws ~1.3-1.5x at R ~ 100-500: benchmarks/dayi2024.md) or "torch"
    (any device); default numpy where it applies.  The random draws are torch's in both, so the two agree to
    rounding with the same hitting times (tests/test_chain_fast.py).
    """
    R, k = c.shape
    dev, dt = c.device, c.dtype
    if backend is None:
        backend = "numpy" if dev.type == "cpu" and dt in (torch.float32, torch.float64) else "torch"
    if backend not in ("numpy", "torch"):
        raise ValueError(f"backend={backend!r}: 'numpy' (CPU tensors) or 'torch'")
    loop = _chain_loop_numpy if backend == "numpy" else _chain_loop_torch
    gram = gram.to(dev, dt)
    L = _sqrt_psd(gram)
    if L.dim() == 2:
        L = L.expand(R, k, k)
    eta = torch.as_tensor(eta, dtype=dt, device=dev).expand(R).clone()
    rank_w = k if rank_w is None else rank_w
    dof = torch.as_tensor(d, dtype=dt, device=dev).expand(R) - rank_w - 2
    if bool((dof <= 0).any()):
        raise ValueError("the overlap chain needs d >= rank(W) + 3 (a nonzero component y perp W, u, u^)")
    direction = torch.ones(R, dtype=dt, device=dev) if direction is None else direction.to(dev, dt)
    thr = torch.tensor(list(thresholds), dtype=dt, device=dev)
    hits = torch.full((R, len(thresholds)), -1, dtype=torch.int64, device=dev)
    m = m0.to(dev, dt).clone()
    rec_every = max(1, steps // max(1, n_record))
    rec_steps, rec_m = [0], [m.clone()]
    alpha = (dof / 2).expand(chunk, R).contiguous()
    xi_t = torch.as_tensor(xi, dtype=dt, device=dev)
    xch = (xi_t[:, None] if xi_t.dim() else xi_t) * c_hat                   # xi c^ (R, k)
    ec0 = ((1.0 if half else 2.0) * out_scale * out_scale) * xi_t * eta     # ec = ec0 * coef
    t0 = 0
    while t0 < steps:
        S = min(chunk, steps - t0)
        g = torch.randn(S, R, k + 2, generator=gen, device=dev, dtype=dt)
        s_all = torch.einsum("srj,rkj->srk", g[..., :k], L)
        a_all, b_all = g[..., k], g[..., k + 1]
        q_all = 2 * torch._standard_gamma(alpha[:S], generator=gen)   # chi^2_{d-k-2} = 2 Gamma((d-k-2)/2)
        xc = xi[:, None] if isinstance(xi, Tensor) else xi
        fs_all = act.f(s_all + xc * c * a_all[..., None]).sum(-1)
        n2_all = a_all * a_all + b_all * b_all + q_all
        m, ms = loop(m, s_all, a_all, b_all, n2_all, fs_all, xch, c_hat, ec0, act)
        _hits_first(hits, direction[None, :] * ms, thr, t0)
        for j in range(S):
            if (t0 + j + 1) % rec_every == 0:
                rec_steps.append(t0 + j + 1)
                rec_m.append(ms[j])
        t0 += S
        if stop_when_all_hit and bool((hits >= 0).all()):
            break
    return SGDResult(tuple(float(v) for v in thresholds), hits.cpu(), m.cpu(), torch.tensor(rec_steps),  # device: cpu (results on the host)
                     torch.stack(rec_m, 1).cpu(), t0, {})


def initial_overlaps(R: int, d: int | Tensor, rank_w: int, gen: torch.Generator, *, g1: Tensor | None = None,
                     device=None, dtype=torch.float64) -> Tensor:
    """m_0 = <u^_0, u> for u^_0 uniform on the unit sphere of span(W)^perp (dimension d - rank_w):
    m_0 = g_1 / ||g|| with g ~ N(0, I_{d-rank_w}), i.e. g_1 / sqrt(g_1^2 + chi^2_{d-rank_w-1}) -> (R,).
    ``g1`` (R,): the Gaussian coordinate along u, given (e.g. shared by runs of one instance at several d:
    common random numbers; each m_0 still has the exact law when g1 ~ N(0, 1)); drawn when None."""
    device = device or gen.device
    if g1 is None:
        g1 = torch.randn(R, generator=gen, device=device, dtype=dtype)
    g1 = g1.to(device, dtype)
    dof = torch.as_tensor(d, dtype=dtype, device=device).expand(R) - rank_w - 1
    q = 2 * torch._standard_gamma((dof / 2).contiguous(), generator=gen)
    return g1 / torch.sqrt(g1 * g1 + q)


def coef_second_moment(n: int, gram: Tensor, c: Tensor, c_hat: Tensor, xi: float | Tensor, act: Activation,
                       gen: torch.Generator, *, m: float = 0.0, out_scale: float = 1.0, half: bool = False) -> Tensor:
    """E[coef(x)^2] at overlap m, per run (n inputs each) -> (R,).  coef is the scalar with
    g = coef (P_perp x - <u^, x> u^); E||g||^2 = E[coef^2 (||P_perp x||^2 - <u^,x>^2)] ~ (d - k - 1) E[coef^2],
    so this is the constant C of Condition 2 per unit dimension (the step-size scale of Thm 7)."""
    R, k = c.shape
    dev, dt = c.device, c.dtype
    L = _sqrt_psd(gram.to(dev, dt))
    if L.dim() == 2:
        L = L.expand(R, k, k)
    g = torch.randn(n, R, k + 2, generator=gen, device=dev, dtype=dt)
    s = torch.einsum("srj,rkj->srk", g[..., :k], L)
    a, b = g[..., k], g[..., k + 1]
    su = m * a + math.sqrt(1 - m * m) * b
    xc = xi[:, None] if isinstance(xi, Tensor) else xi
    f_star = act.f(s + xc * c * a[..., None]).sum(-1)
    z = s + xc * c_hat * su[..., None]
    coef = ((1.0 if half else 2.0) * out_scale * out_scale) * xi * (act.f(z).sum(-1) - f_star) * (act.df(z) * c_hat).sum(-1)
    return (coef * coef).mean(0)


def _sqrt_psd(gram: Tensor) -> Tensor:
    """A square root L with L L^T = gram, also for singular PSD gram (e.g. W = 0 in the GLM limit)."""
    vals, vecs = torch.linalg.eigh(gram)
    return vecs * torch.sqrt(torch.clamp(vals, min=0.0))[..., None, :]


# ----------------------------------------------------------------------------- Monte Carlo of Prop. 1 / Remark 1
def gradient_projection_trials(B: int, W: Tensor, c: Tensor, u: Tensor, c_hat: Tensor, u_hat: Tensor, xi: float,
                               act: Activation, v: Tensor, gen: torch.Generator, *, out_scale: float = 1.0,
                               half: bool = False) -> Tensor:
    """<g(x), v> for B fresh inputs of one instance (W (1, k, d), c, c_hat (1, k), u, u_hat, v (1, d)) -> (B,),
    g the literal per-sample spherical gradient (:func:`spherical_gradients`).  Its mean is
    <grad^S L(u^), v> = -phi(m) <u - m u^, v> by Prop. 1."""
    x = torch.randn(B, 1, W.shape[-1], generator=gen, device=W.device, dtype=W.dtype)
    g = spherical_gradients(x, W, c, u, c_hat, u_hat, xi, act, out_scale=out_scale, half=half)
    return (g * v).sum(-1)[:, 0]


def first_moment_trials(B: int, W: Tensor, c: Tensor, u: Tensor, xi: float, act: Activation, gen: torch.Generator,
                        *, out_scale: float = 1.0) -> Tensor:
    """<P_perp (f*(x) x), u> = f*(x) <x, u> for B fresh inputs of one instance -> (B,) (Remark 1, L83)."""
    x = torch.randn(B, 1, W.shape[-1], generator=gen, device=W.device, dtype=W.dtype)
    f_star, _ = network(x, W, c, u, xi, act, out_scale)
    return (f_star * torch.einsum("brd,rd->br", x, u))[:, 0]


def instance(k: int, d: int, gen: torch.Generator, *, gram: Tensor | None = None, m: float | None = None,
             device=None, dtype=torch.float64) -> dict:
    """One random problem instance (R = 1): W (orthonormal rows, or rows with Gram ``gram`` in a random
    subspace), u uniform on the sphere of span(W)^perp, c, c^ uniform on {+-1/sqrt k}^k, and (if m is given)
    u^ at overlap m with u, and e = (u - m u^)/||u - m u^||."""
    device = device or gen.device
    W = (orthonormal_features(1, k, d, gen, device=device, dtype=dtype) if gram is None
         else gram_features(1, gram.to(device, dtype), d, gen, device=device, dtype=dtype))
    u = perpendicular_unit(W, gen)
    c, c_hat = rademacher_c(1, k, gen, device=device, dtype=dtype), rademacher_c(1, k, gen, device=device, dtype=dtype)
    out = {"W": W, "u": u, "c": c, "c_hat": c_hat}
    if m is not None:
        uh = at_overlap(u, W, m, gen)
        e = u - m * uh
        out.update(u_hat=uh, e=e / e.norm(dim=-1, keepdim=True))
    return out
