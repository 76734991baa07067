"""Wide two-layer ReLU networks with a fixed +-1 output layer, trained by full-batch gradient descent
on the first layer (the NTK-regime model of 000 §6 and 002 §6.1, after Du et al. 2019), batched over B
independent networks.

Model and normalization (002 §6.1, 000 §6):

    f(x) = (1/sqrt m) sum_{r=1}^m a_r relu(w_r . x),   a_r ~ unif{-1, +1} fixed,   w_r(0) ~ N(0, kappa^2 I_d),
    L(W) = (1/2) sum_i (f(x_i) - y_i)^2,                W <- W - eta dL/dW,

so that dL/dw_r = (1/sqrt m) a_r sum_i (f(x_i) - y_i) 1{w_r . x_i >= 0} x_i, and in the vectorised form of
002 App. C eq. (4), vec W(k+1) = vec W(k) - eta Z(k) (u(k) - y) with Z the md x n matrix of eq. (3).
The finite-width Gram matrix is H(W)_ij = Z^T Z = (1/m) sum_r x_i . x_j 1{w_r . x_i >= 0, w_r . x_j >= 0}, whose
expectation over w_r ~ N(0, kappa^2 I) (any kappa) is the H^inf of :func:`derivations.kernels.ntk_relu_gram`.

Shapes: W (B, m, d) (row r of W[b] is w_r; 002 writes W in R^{d x m} with columns w_r), a (B, m),
X (B, n, d) or (n, d) shared by all networks, y (B, n) or (n,).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from . import NotConverged


def init(B: int, m: int, d: int, gen: torch.Generator, *, kappa: float = 1.0, device=None,
         dtype=torch.float64) -> tuple[torch.Tensor, torch.Tensor]:
    """B independent initialisations: W (B, m, d) with entries N(0, kappa^2), a (B, m) uniform on {-1, +1}."""
    device = gen.device if device is None else device
    W = kappa * torch.randn(B, m, d, generator=gen, device=device, dtype=dtype)
    a = torch.randint(0, 2, (B, m), generator=gen, device=device).to(dtype) * 2 - 1
    return W, a


def _batched_x(X: torch.Tensor, B: int) -> torch.Tensor:
    return X.unsqueeze(0).expand(B, *X.shape) if X.dim() == 2 else X


def preactivations(W: torch.Tensor, X: torch.Tensor) -> torch.Tensor:
    """w_r . x_i: W (B, m, d), X (B, n, d) or (n, d) -> (B, n, m)."""
    return _batched_x(X, W.shape[0]) @ W.mT


def forward(W: torch.Tensor, a: torch.Tensor, X: torch.Tensor) -> torch.Tensor:
    """f(x_i) = (1/sqrt m) sum_r a_r relu(w_r . x_i): W (B, m, d), a (B, m), X (B, n, d) or (n, d) -> (B, n)."""
    m = W.shape[-2]
    return torch.einsum("bnm,bm->bn", torch.relu(preactivations(W, X)), a) / math.sqrt(m)


def loss(W: torch.Tensor, a: torch.Tensor, X: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """L(W) = (1/2) ||f(X) - y||^2 per network -> (B,)."""
    return 0.5 * ((forward(W, a, X) - y) ** 2).sum(-1)


def gradient(W: torch.Tensor, a: torch.Tensor, X: torch.Tensor, y: torch.Tensor):
    """dL/dW (B, m, d) of L = (1/2)||f - y||^2 and the residual f - y (B, n):
    dL/dw_r = (1/sqrt m) a_r sum_i (f_i - y_i) 1{w_r . x_i >= 0} x_i (tests/test_two_layer.py checks it
    against autograd)."""
    m = W.shape[-2]
    Xb = _batched_x(X, W.shape[0])
    pre = Xb @ W.mT                                         # (B, n, m)
    f = torch.einsum("bnm,bm->bn", torch.relu(pre), a) / math.sqrt(m)
    res = f - y
    S = (pre >= 0).to(W.dtype) * res.unsqueeze(-1)          # (B, n, m)
    G = (S.mT @ Xb) * (a / math.sqrt(m)).unsqueeze(-1)      # (B, m, d)
    return G, res


def activation_gradient_norm2(W: torch.Tensor, a: torch.Tensor, X: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """||dL/dX^1||_F^2 with X^1 = relu(W^T X) in R^{m x n} the hidden activations on the data (002 Thm 1,
    App. C eq. (13)): dL/dX^1 = (1/sqrt m) a (u - y)^T, so the squared norm is (a.a/m) ||u - y||^2 -> (B,)."""
    m = W.shape[-2]
    res = forward(W, a, X) - y
    return (a * a).sum(-1) / m * (res ** 2).sum(-1)


@dataclass
class TrainResult:
    """Outcome of :func:`train_gd` for B networks.

    W: final weights (B, m, d); loss: final loss (B,); steps: steps taken per network (B,);
    converged: loss <= tol (B,) bool; history: losses (T, B) every ``record_every`` steps (T may be 0);
    max_move: max_r max_k ||w_r(k) - w_r(0)|| (B,) when ``track_move`` (else None).
    max_zdiff, max_hdiff: max_k ||Z(k) - Z(ref)||_F and max_k ||H(k) - H(ref)||_F (B,) on the training data when
    ``track_gram`` (else None): the activation-pattern movement of 002 Lemma 3 / Lemma 6.
    """

    W: torch.Tensor
    loss: torch.Tensor
    steps: torch.Tensor
    converged: torch.Tensor
    history: torch.Tensor
    max_move: torch.Tensor | None = None
    max_zdiff: torch.Tensor | None = None
    max_hdiff: torch.Tensor | None = None


def _pattern(W: torch.Tensor, Xb: torch.Tensor):
    """The activation pattern I = 1{w_r . x_i >= 0} (B, n, m) and the Gram H = Z^T Z (B, n, n) it gives."""
    I = (Xb @ W.mT >= 0).to(W.dtype)
    return I, (I @ I.mT) / W.shape[-2] * (Xb @ Xb.mT)


def _pattern_distance(W: torch.Tensor, Xb: torch.Tensor, I0: torch.Tensor, H0: torch.Tensor):
    """(||Z(W) - Z_0||_F, ||H(W) - H_0||_F) per network for the reference pattern I0 and its Gram H0 (:func:`_pattern`):
    ||Z(W) - Z_0||_F^2 = (1/m) sum_{r,i} (I_ir - I0_ir)^2 ||x_i||^2 (a_r^2 = 1)."""
    I, H = _pattern(W, Xb)
    z = (((I - I0) ** 2).sum(-1) * (Xb * Xb).sum(-1)).sum(-1).div(W.shape[-2]).sqrt()
    return z, (H - H0).flatten(1).norm(dim=-1)


def train_gd(W: torch.Tensor, a: torch.Tensor, X: torch.Tensor, y: torch.Tensor, *, lr, steps: int,
             tol: float, record_every: int = 0, track_move: bool = False,
             raise_on_fail: bool = True, ref: torch.Tensor | None = None, track_gram: bool = False) -> TrainResult:
    """Full-batch gradient descent W <- W - lr dL/dW on L = (1/2)||f(X) - y||^2 (002 §6.1; App. C eq. (4)),
    second layer a fixed.  Each network stops (its W is frozen) at the first step where L <= tol; the run ends
    when all have stopped or after ``steps`` steps.  ``lr`` is a float or a (B,) tensor.

    Raises :class:`numerics.NotConverged` (message with the final losses) if some network has L > tol at the
    end and ``raise_on_fail``; otherwise returns the flags.  With ``track_move``, ``max_move`` is
    max_k max_r ||w_r(k) - ref_r|| over the run (``ref`` defaults to the starting W; 002 Lemma 1 and Lemma 4
    measure it from the random initialization W(0)).  With ``track_gram``, ``max_zdiff`` and ``max_hdiff`` are
    max_k ||Z(k) - Z(ref)||_F and max_k ||H(k) - H(ref)||_F on X (Z, H of App. C eq. (3) at W(k) and at ``ref``,
    default the starting W; 002 Lemma 6 measures them from W(0)).
    """
    from . import step_budget

    steps = step_budget(steps, steps)  # lowered inside numerics.capped_steps (forced non-convergence)
    B = W.shape[0]
    W = W.clone()
    W0 = (W.clone() if ref is None else ref) if track_move else None
    max_move = (W - W0).norm(dim=-1).amax(-1) if track_move else None
    zmax = hmax = None
    if track_gram:
        Xb = _batched_x(X, B)
        I0, H0 = _pattern(W if ref is None else ref, Xb)
        zmax, hmax = _pattern_distance(W, Xb, I0, H0)
    lr_t = torch.as_tensor(lr, dtype=W.dtype, device=W.device).reshape(-1) * torch.ones(B, dtype=W.dtype, device=W.device)
    active = torch.ones(B, dtype=torch.bool, device=W.device)
    taken = torch.zeros(B, dtype=torch.long, device=W.device)
    hist = []
    cur = None
    for k in range(steps + 1):
        G, res = gradient(W, a, X, y)
        cur = 0.5 * (res ** 2).sum(-1)
        if record_every and k % record_every == 0:
            hist.append(cur.clone())
        active = active & (cur > tol)
        if not bool(active.any()) or k == steps:
            break
        step = (lr_t * active.to(W.dtype)).view(B, 1, 1)
        W = W - step * G
        taken += active.long()
        if track_move:
            max_move = torch.maximum(max_move, (W - W0).norm(dim=-1).amax(-1))
        if track_gram:
            z, h = _pattern_distance(W, Xb, I0, H0)
            zmax, hmax = torch.maximum(zmax, z), torch.maximum(hmax, h)
    conv = cur <= tol
    history = torch.stack(hist) if hist else torch.empty(0, B, dtype=W.dtype, device=W.device)
    out = TrainResult(W=W, loss=cur, steps=taken, converged=conv, history=history, max_move=max_move,
                      max_zdiff=zmax, max_hdiff=hmax)
    if raise_on_fail and not bool(conv.all()):
        bad = (~conv).sum().item()
        raise NotConverged(f"{bad}/{B} networks above loss {tol:g} after {steps} steps "
                           f"(final losses up to {cur.max().item():.3g}, lr {lr_t.max().item():.3g})")
    return out


def band_count(W: torch.Tensor, X: torch.Tensor, R) -> torch.Tensor:
    """sum_i |S-bar_i| = #{(i, r) : |w_r . x_i| <= R} per network (002 App. C.2.1, before Lemma 5: the neurons whose
    activation on x_i may flip under a move of size R).  W (B, m, d), X (B, n, d) or (n, d), R a float or (B,)
    -> (B,)."""
    R = torch.as_tensor(R, dtype=W.dtype, device=W.device).reshape(-1, 1, 1)
    return (preactivations(W, X).abs() <= R).sum((-1, -2)).to(W.dtype)


def gram_at(W: torch.Tensor, X: torch.Tensor, Y: torch.Tensor | None = None,
            W2: torch.Tensor | None = None) -> torch.Tensor:
    """Finite-width Gram H_ij = (1/m) sum_r x_i . y_j 1{w_r . x_i >= 0} 1{w'_r . y_j >= 0} (B, n, n') with
    w_r from W and w'_r from W2 (default W): Z(W)^T Z(W2) of 002 App. C (a_r^2 = 1), e.g.
    H_PQ(P) = Z_P(0)^T Z_Q(P) = gram_at(W(0), X_P, X_Q, W(P))."""
    Y = X if Y is None else Y
    W2 = W if W2 is None else W2
    m = W.shape[-2]
    IX = (preactivations(W, X) >= 0).to(W.dtype)           # (B, n, m)
    IY = (preactivations(W2, Y) >= 0).to(W.dtype)          # (B, n', m)
    Xb, Yb = _batched_x(X, W.shape[0]), _batched_x(Y, W.shape[0])
    return (IX @ IY.mT) / m * (Xb @ Yb.mT)


def ntk_gram_mc(B: int, m: int, X: torch.Tensor, gen: torch.Generator, *, Y: torch.Tensor | None = None,
                kappa: float = 1.0, device=None, dtype=torch.float64) -> torch.Tensor:
    """Per trial the finite-width NTK Gram H(0) of a fresh network of width m (w_r ~ N(0, kappa^2 I)):
    (1/m) sum_r x_i . y_j 1{w_r . x_i >= 0, w_r . y_j >= 0} -> (B, n, n').  Its expectation is exactly
    H^inf of :func:`derivations.kernels.ntk_relu_gram` (002 §6.1), its variance O(1/m)."""
    d = X.shape[-1]
    W, _ = init(B, m, d, gen, kappa=kappa, device=device, dtype=dtype)
    return gram_at(W, X.to(dtype), None if Y is None else Y.to(dtype))


# ----------------------------------------------------------------------------- transfer (002 §6, App. C)
def ntk_direction(W0: torch.Tensor, a: torch.Tensor, X: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """Z(0) v reshaped to weights (B, m, d): row r is (1/sqrt m) a_r sum_j 1{w_r(0) . x_j >= 0} v_j x_j
    (002 App. C eq. (3)); with v = (H^inf)^{-1} y it is the infinite-training limit of vec(W(P) - W(0))
    in eq. (5), so ||vec(W(P) - W(0)) - Z_P(0) (H_P^inf)^{-1} y_P|| is the ||epsilon|| of eq. (6).
    v: (n,) or (B, n)."""
    m = W0.shape[-2]
    Xb = _batched_x(X, W0.shape[0])
    I = (Xb @ W0.mT >= 0).to(W0.dtype)                          # (B, n, m)
    vb = v.expand(W0.shape[0], -1) if v.dim() == 1 else v
    return ((I * vb.unsqueeze(-1)).mT @ Xb) * (a / math.sqrt(m)).unsqueeze(-1)


def transfer_runs(W0: torch.Tensor, a: torch.Tensor, XP: torch.Tensor, yP: torch.Tensor, XQ: torch.Tensor,
                  yQ: torch.Tensor, *, lr_P: float, lr_Q: float, steps: int, tol: float,
                  vP: torch.Tensor | None = None) -> dict:
    """The literal procedure of 002 §6 for B networks: pretrain W(0) -> W(P) by gradient descent on the source
    data (X_P, y_P) until L <= tol, then fine-tune W(P) -> W(Q) on the target data (X_Q, y_Q) until L <= tol
    (same a, same loss (1/2)||f - y||^2).  Raises NotConverged if a phase does not reach tol in ``steps``.

    Returns per-network tensors (B,) (and histories):
      grad2_P, grad2_0  ||dL/dX^1||^2 on the target data at W(P) and at W(0) (= ||u_Q - y_Q||^2, Thm 1)
      dist_QP           ||W(Q) - W(P)||_F (Thm 2);   dist_P0  ||W(P) - W(0)||_F (training from scratch on P)
      move_P            max_k max_r ||w_{P,r}(k) - w_r(0)|| (Lemma 1);  move_Q0  max_k max_r ||w_{Q,r}(k) - w_r(0)|| (Lemma 4)
      resP0, resQP      ||y_P - u_P(0)||, ||y_Q - u_Q(P)|| (the radii of Lemmas 1 and 4)
      uQ0               u_Q(0) (B, n_Q)
      histQ             fine-tuning losses (K+1, B) (Thm 3; frozen networks repeat their last value)
      eps               ||vec(W(P) - W(0)) - Z_P(0) vP|| when vP = (H_P^inf)^{-1} y_P is given (eq. (6))
      HPQ_P             H_PQ(P) = Z_P(0)^T Z_Q(P) (B, n_P, n_Q) (Lemma 3)
      Zdiff_Q, Hdiff_Q  max_k ||Z_Q(k) - Z_Q(W(0))||_F, max_k ||H_Q(k) - H_Q(W(0))||_F over the fine-tuning steps
                        (k = 0 is W(P)) (Lemma 6)
      steps_P, steps_Q, loss_P, loss_Q
    """
    rP = train_gd(W0, a, XP, yP, lr=lr_P, steps=steps, tol=tol, track_move=True)
    WP = rP.W
    rQ = train_gd(WP, a, XQ, yQ, lr=lr_Q, steps=steps, tol=tol, track_move=True, ref=W0, record_every=1,
                  track_gram=True)
    out = {
        "grad2_P": activation_gradient_norm2(WP, a, XQ, yQ),
        "grad2_0": activation_gradient_norm2(W0, a, XQ, yQ),
        "dist_QP": (rQ.W - WP).flatten(1).norm(dim=-1),
        "dist_P0": (WP - W0).flatten(1).norm(dim=-1),
        "move_P": rP.max_move,
        "move_Q0": rQ.max_move,
        "resP0": (yP - forward(W0, a, XP)).norm(dim=-1),
        "resQP": (yQ - forward(WP, a, XQ)).norm(dim=-1),
        "uQ0": forward(W0, a, XQ),
        "histQ": rQ.history,
        "HPQ_P": gram_at(W0, XP, XQ, WP),
        "Zdiff_Q": rQ.max_zdiff, "Hdiff_Q": rQ.max_hdiff,
        "steps_P": rP.steps, "steps_Q": rQ.steps, "loss_P": rP.loss, "loss_Q": rQ.loss,
    }
    if vP is not None:
        out["eps"] = ((WP - W0) - ntk_direction(W0, a, XP, vP)).flatten(1).norm(dim=-1)
    return out


class one_thread:
    """Context manager: torch intra-op threads set to 1 inside (restored after).  Small batched matmuls of
    these networks run ~10x faster on one thread than on two oversubscribed ones (measured on the shared
    2-core machine: 2.9 ms vs 23-60 ms per gradient at B=4, m=500, n=6)."""

    def __enter__(self):
        self._n = torch.get_num_threads()
        torch.set_num_threads(1)
        return self

    def __exit__(self, *exc):
        torch.set_num_threads(self._n)
        return False


def transfer_sweep(B: int, widths, kappas, XP: torch.Tensor, yP: torch.Tensor, XQ: torch.Tensor, yQ: torch.Tensor,
                   gen: torch.Generator, *, lr_P: float, lr_Q: float, steps: int, tol: float,
                   vP: torch.Tensor | None = None, dtype=torch.float64) -> list[dict]:
    """:func:`transfer_runs` at each width m (with init scale kappa_m), B networks per width, on nested random
    numbers: one draw Z (B, max m, d) of N(0, 1) entries and signs a (B, max m); the width-m network uses the first
    m neurons, W(0) = kappa_m Z[:, :m].  Each width's W(0) is exactly the stated initialisation; nesting only makes
    the widths' results positively correlated (common random numbers), which the slope fits use.
    Returns one dict per width (see :func:`transfer_runs`) with keys "m" and "kappa" added."""
    widths = [int(m) for m in widths]
    M = max(widths)
    d = XP.shape[-1]
    Z = torch.randn(B, M, d, generator=gen, device=gen.device, dtype=dtype)
    a = torch.randint(0, 2, (B, M), generator=gen, device=gen.device).to(dtype) * 2 - 1
    out = []
    with one_thread():
        for m, kappa in zip(widths, kappas):
            r = transfer_runs(kappa * Z[:, :m].contiguous(), a[:, :m].contiguous(), XP, yP, XQ, yQ,
                              lr_P=lr_P, lr_Q=lr_Q, steps=steps, tol=tol, vP=vP)
            r["m"], r["kappa"] = m, kappa
            out.append(r)
    return out
