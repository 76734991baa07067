"""Mean-field two-layer ReLU networks of §4 of 001_759117b8232d72ac.txt (Tahir, Ganguli, Rotskoff), trained by
full-batch gradient descent on a ReLU teacher with ablated features, and linear transfer (the readout retrained on
the frozen pretrained features), batched over B independent trials.

Model (18) and teachers (19)-(20)::

    f(x) = (1/m) sum_{i<=m} c_i relu(w_i^T x),    w_i on S^{d-1} ("we constrain the hidden features in the model,
    f*_t(x) = (1/m*) sum_{j<=m*} c*_j relu(w*_j^T x),                  source, and target to the unit sphere"),
    f*_s(x) = (1/((1-mu) m*)) sum_{j in A^c} c*_j relu(w*_j^T x),  A uniformly random, |A| = mu m*.

Losses (4)-(5): L_s = (1/2) E_p[(f - f*_s)^2] (the population loss, exact for Gaussian x through the arc-cosine
overlap (152)-(153), :func:`derivations.kernels.gram`), L_t = (1/2n) sum_i (f(x_i) - y_i)^2; the generalization
error (8) is R = E_p[(f - f*)^2] (no 1/2), also exact (:func:`population_risk`).

Training (App. D.2): hidden weights drawn uniformly on the sphere, output weights initialized at 1e-7, full-batch
gradient descent with learning rate 0.01 m for at most 1e5 iterations or until the loss reaches 1e-6.  The sphere
constraint is kept by projected gradient descent: the Euclidean gradient of each w_i is projected on the tangent
space of the sphere at w_i and the row is renormalized after the step (the source does not say how the constraint
is enforced).

Shapes: W (B, m, d), c (B, m), teacher W* (B, m*, d), c* (B, m*), X (B, N, d), y (B, N).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from derivations import kernels as kn
from numerics.relu import ablated_features, relu_features, teacher_network
from numerics.sampling import unit_vectors

#: App. D.2 (L1499-1504)
C_INIT = 1e-7
LR_PER_WIDTH = 0.01
MAX_STEPS = 100_000
LOSS_TOL = 1e-6


# ----------------------------------------------------------------------------- teachers (19)-(20)
def ablated_teachers(B: int, d: int, m_star: int, mu: float, gen: torch.Generator, *, device=None,
                     dtype=torch.float64):
    """B target teachers (20) (W* on S^{d-1}, c* ~ N(0, 1), :func:`numerics.relu.teacher_network`) and their ablated
    source teachers (19) (the rows outside a uniformly random A, |A| = mu m*, :func:`numerics.relu.ablated_features`,
    applied to [W* | c*] so that the kept output weights follow their features).

    Returns (Wt (B, m*, d), ct (B, m*), Ws (B, (1-mu) m*, d), cs (B, (1-mu) m*)), on ``device`` (default: the
    generator's).  The source does not say how c* is drawn; N(0, 1) as in :mod:`numerics.relu`."""
    Wt, ct, Ws, cs = [], [], [], []
    for _ in range(B):
        W, c = teacher_network(d, m_star, gen, dtype=dtype)
        kept = ablated_features(torch.cat([W, c.unsqueeze(-1)], -1), mu, gen)
        Wt.append(W), ct.append(c), Ws.append(kept[:, :-1]), cs.append(kept[:, -1])
    out = tuple(torch.stack(t) for t in (Wt, ct, Ws, cs))
    return tuple(t if device is None else t.to(device) for t in out)


def init_student(B: int, m: int, d: int, gen: torch.Generator, *, c0: float = C_INIT, device=None,
                 dtype=torch.float64):
    """App. D.2's initialization: W (B, m, d) uniform on S^{d-1}, every output weight c_i = c0 (default 1e-7: 'the
    output weights are initialized at 10^-7', read as the value itself)."""
    W = unit_vectors(B * m, d, gen, device=device, dtype=dtype).reshape(B, m, d)
    c = torch.full((B, m), c0, device=W.device, dtype=dtype)
    return W, c


# ----------------------------------------------------------------------------- exact population quantities
def population_risk(W, c, Wt, ct) -> torch.Tensor:
    """R = E_{x~N(0,I)}[(f(x) - f*(x))^2] of (8), exactly, by (152)-(153): with f = (1/m) c . relu(W x) and
    f* = (1/m*) c* . relu(W* x), R = c^T G(W,W) c/m^2 - 2 c^T G(W,W*) c*/(m m*) + c*^T G(W*,W*) c*/m*^2 -> (B,)."""
    m, ms = W.shape[-2], Wt.shape[-2]
    q = lambda A, a, Bm, b: torch.einsum("...i,...ij,...j->...", a, kn.gram(A, Bm), b)
    return q(W, c, W, c) / m ** 2 - 2 * q(W, c, Wt, ct) / (m * ms) + q(Wt, ct, Wt, ct) / ms ** 2


def kernel_distance2(W, Wt) -> torch.Tensor:
    """||k_W - k_W*||^2 in L2(p x p) of the feature kernels k_W(x, x') = (1/m) sum_i relu(w_i^T x) relu(w_i^T x')
    (the kernel of §4, L594-595) and k_W* (the teacher's, over the rows of W*), exactly: since
    E_{x,x'}[k_W k_V] = (1/(m m')) sum_ij <relu(w_i x), relu(v_j x)>^2 = mean_ij G(W,V)_ij^2,
    the distance is mean G(W,W)^2 - 2 mean G(W,W*)^2 + mean G(W*,W*)^2 -> (B,)."""
    ms = lambda A, Bm: (kn.gram(A, Bm) ** 2).mean((-1, -2))
    return ms(W, W) - 2 * ms(W, Wt) + ms(Wt, Wt)


def kernel_norm2(W) -> torch.Tensor:
    """||k_W||^2 in L2(p x p) (see :func:`kernel_distance2`) -> (B,)."""
    return (kn.gram(W, W) ** 2).mean((-1, -2))


def kernel_gram(X, W) -> torch.Tensor:
    """The Gram matrix k_W(x_a, x_b) = (1/m) sum_i relu(w_i^T x_a) relu(w_i^T x_b) on points X (..., N, d) ->
    (..., N, N) (the matrices of Fig. 4(a)-(b))."""
    F = relu_features(X, W)
    return F @ F.mT / W.shape[-2]


# ----------------------------------------------------------------------------- gradients
def _overlap_and_slope(U: torch.Tensor):
    """The unit overlap (153) kappa(u) = (sqrt(1-u^2) + u (pi - arccos u))/(2 pi) and its derivative
    kappa'(u) = (pi - arccos u)/(2 pi) (finite on [-1, 1]: the two 1/sqrt(1-u^2) terms cancel), from one arccos
    (the training loop's hot path; tests/test_meanfield.py pins kappa to derivations.kernels.arccos_overlap)."""
    U = U.clamp(-1.0, 1.0)
    s = (math.pi - torch.acos(U)) / (2 * math.pi)
    return torch.sqrt(1 - U * U) / (2 * math.pi) + U * s, s


def population_gradient(W, c, Ws, cs):
    """Gradient of the population loss (4), L = (1/2) E[(f - f*_s)^2], at weights on the sphere: (dL/dW tangent to
    the sphere (B, m, d), dL/dc (B, m)).  With G_ij = kappa(w_i . w_j) (153) and H_ij = kappa(w_i . w*_j):
    dL/dc = G c/m^2 - H c*/(m m*), and the Euclidean gradient of w_i through the dot products,
    c_i sum_j c_j kappa'(w_i.w_j) w_j / m^2 - c_i sum_j c*_j kappa'(w_i.w*_j) w*_j/(m m*), projected on the tangent
    space (the diagonal term kappa'(1) w_i is radial and drops out).  tests/test_meanfield.py checks it against
    finite differences of :func:`population_risk`."""
    m, ms = W.shape[-2], Ws.shape[-2]
    G, dG = _overlap_and_slope(W @ W.mT)
    H, dH = _overlap_and_slope(W @ Ws.mT)
    cc, ccs = c.unsqueeze(-1), cs.unsqueeze(-1)
    gc = (G @ cc).squeeze(-1) / m ** 2 - (H @ ccs).squeeze(-1) / (m * ms)
    gW = cc * ((dG @ (cc * W)) / m ** 2 - (dH @ (ccs * Ws)) / (m * ms))
    return _tangent(W, gW), gc


def empirical_gradient(W, c, X, y, weight):
    """Gradient of the empirical loss (5), L = (1/2) sum_i weight_i (f(x_i) - y_i)^2 (weight_i = 1/n on the n points
    of a trial, 0 on padding): (dL/dW tangent (B, m, d), dL/dc (B, m), L (B,)).
    dL/dc_k = (1/m) sum_i weight_i r_i relu(w_k x_i), dL/dw_k = (c_k/m) sum_i weight_i r_i 1{w_k x_i > 0} x_i."""
    m = W.shape[-2]
    pre = X @ W.mT                                   # (B, N, m)
    F = torch.relu(pre)
    r = (F @ c.unsqueeze(-1)).squeeze(-1) / m - y    # (B, N)
    wr = weight * r
    gc = (F.mT @ wr.unsqueeze(-1)).squeeze(-1) / m
    S = (pre > 0).to(W.dtype) * wr.unsqueeze(-1)     # (B, N, m)
    gW = (S.mT @ X) * (c / m).unsqueeze(-1)
    return _tangent(W, gW), gc, 0.5 * (weight * r ** 2).sum(-1)


def _tangent(W, g):
    return g - (g * W).sum(-1, keepdim=True) * W


def _sphere_step(W, gW, lr):
    W = W - lr * gW
    return W / W.norm(dim=-1, keepdim=True)


# ----------------------------------------------------------------------------- training
@dataclass
class Trained:
    """The end of a training run: weights, the loss per trial, the steps taken, and whether every trial reached
    the loss tolerance."""

    W: torch.Tensor
    c: torch.Tensor
    loss: torch.Tensor
    steps: int
    converged: torch.Tensor


def pretrain(W, c, Ws, cs, *, steps: int = MAX_STEPS, lr: float | None = None, tol: float = LOSS_TOL) -> Trained:
    """Full-batch gradient descent on the population loss (4) against the source teacher (Ws, cs) (§4: 'train the
    source task on the population loss, which can be computed exactly for this model'), learning rate 0.01 m
    (App. D.2) unless ``lr`` is given, for at most ``steps`` iterations or until every trial's loss <= ``tol``.
    The loss is checked every 50 steps (a trial that reached ``tol`` keeps training until all have)."""
    m = W.shape[-2]
    lr = LR_PER_WIDTH * m if lr is None else lr
    k = 0
    loss = 0.5 * population_risk(W, c, Ws, cs)
    while k < steps and not bool((loss <= tol).all()):
        for _ in range(min(50, steps - k)):
            gW, gc = population_gradient(W, c, Ws, cs)
            W, c = _sphere_step(W, gW, lr), c - lr * gc
            k += 1
        loss = 0.5 * population_risk(W, c, Ws, cs)
    return Trained(W, c, loss, k, loss <= tol)


def train_empirical(W, c, X, y, weight, *, steps: int = MAX_STEPS, lr: float | None = None,
                    tol: float = LOSS_TOL) -> Trained:
    """Full-batch gradient descent on the empirical loss (5) (both layers: the scratch-trained model of (7)),
    learning rate 0.01 m unless ``lr`` is given, at most ``steps`` iterations or until every trial's training
    loss <= ``tol``; ``weight`` (B, N) = 1/n on a trial's n points and 0 on padding, so trials of different n run
    in one batch."""
    m = W.shape[-2]
    lr = LR_PER_WIDTH * m if lr is None else lr
    k = 0
    _, _, loss = empirical_gradient(W, c, X, y, weight)
    while k < steps and not bool((loss <= tol).all()):
        for _ in range(min(50, steps - k)):
            gW, gc, loss = empirical_gradient(W, c, X, y, weight)
            W, c = _sphere_step(W, gW, lr), c - lr * gc
            k += 1
        _, _, loss = empirical_gradient(W, c, X, y, weight)
    return Trained(W, c, loss, k, loss <= tol)


def padded_design(X: torch.Tensor, ns) -> tuple[torch.Tensor, torch.Tensor]:
    """Weights for trials of several sizes in one batch: row b of the result uses the first ns[b] points of X[b]
    (weight 1/ns[b]) and ignores the rest (weight 0).  X (B, N, d), ns (B,) ints <= N -> weight (B, N)."""
    N = X.shape[-2]
    ns = torch.as_tensor(ns, device=X.device)
    idx = torch.arange(N, device=X.device)
    return (idx.unsqueeze(0) < ns.unsqueeze(-1)).to(X.dtype) / ns.unsqueeze(-1).to(X.dtype)


def readout_fit(W, X, y) -> torch.Tensor:
    """Linear transfer: the output weights c refit on the frozen features relu(W x) to the target data (X, y),
    as the limit of gradient descent on (5) in c from c = 0: the minimum-norm least-squares solution
    (min-norm interpolation = kernel interpolation with k_W when n < m; the least-squares fit when n > m).
    f = (1/m) Phi c, so c = m Phi^+ y.  W (B, m, d), X (B, n, d), y (B, n) -> c (B, m).
    Solved by the SVD pseudo-inverse of Phi itself (``torch.linalg.pinv``, minimum norm also when Phi is rank
    deficient), not through the normal equations: pretrained features cluster on the teacher's directions, and the
    Gram matrix Phi^T Phi squares their condition number."""
    F = relu_features(X, W)
    return W.shape[-2] * (torch.linalg.pinv(F) @ y.unsqueeze(-1)).squeeze(-1)


def readout_gd(W, X, y, c0, *, steps: int, lr: float) -> torch.Tensor:
    """The literal linear transfer: gradient descent on (5) in the output weights only, features W frozen, from
    c0 (B, m).  Used to check :func:`readout_fit` (tests/test_meanfield.py)."""
    m = W.shape[-2]
    F = relu_features(X, W)
    n = X.shape[-2]
    c = c0
    for _ in range(steps):
        r = (F @ c.unsqueeze(-1)).squeeze(-1) / m - y
        c = c - lr * (F.mT @ r.unsqueeze(-1)).squeeze(-1) / (m * n)
    return c
