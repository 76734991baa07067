"""Scratch training on the target task: sample a Gaussian design and noisy labels of a
unit teacher, fit by minimum-norm least squares (the end state of gradient flow from
small initialization, Theorem 3.5 of 001_759117b8232d72ac.txt), return the population
risk ||beta_hat - beta_t||^2 of every trial (eq. (8) with x ~ N(0, I_d)).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext

import numpy as np
import torch
from scipy.linalg.lapack import dpotrf as _potrf, dpotrs as _potrs
from threadpoolctl import ThreadpoolController

from .least_squares import _min_norm_gram, _spd_solve, gd_least_squares, intra_op_threads, min_norm_solve
from .sampling import _BLOCKS, gaussian_design, noisy_labels, normal_streams, unit_vectors


def scratch_data(trials: int, n: int, d: int, sigma: float, gen: torch.Generator, dtype=torch.float64):
    """(X, y, beta_t) for ``trials`` independent target data sets."""
    beta = unit_vectors(trials, d, gen, dtype=dtype)
    X = gaussian_design(trials, n, d, gen, dtype=dtype)
    return X, noisy_labels(X, beta, sigma, gen), beta


def min_norm_risk(trials: int, n: int, d: int, sigma, gen: torch.Generator, dtype=torch.float64) -> torch.Tensor:
    """Per-trial risk ||X^+ y - beta_t||^2 of the minimum-norm least-squares fit.

    ``sigma`` may be one value (returns shape (trials,)) or a sequence (returns
    (trials, len(sigma))): the labels y_k = X beta + sigma_k eps then share X, beta and
    eps, and since X^+ is linear, X^+ y_k = X^+ X beta + sigma_k X^+ eps is the exact
    min-norm fit of each y_k from one solve with two right-hand sides.

    On the CPU in float64 (whenever :func:`numerics.sampling.standard_normal` draws the design
    from its numpy streams) each stream's designs are solved as they are drawn, a group of about
    1 MB at a time while it is in cache, one stream per thread (:func:`_fused_risk`): the same
    draws as the batched path, the same risks within float64 rounding (identical below
    ``SYRK_MIN``; tested in ``tests/test_min_norm_fused.py``).
    """
    sigmas = torch.as_tensor(sigma if isinstance(sigma, (list, tuple)) else [sigma], dtype=dtype, device=gen.device)
    beta = unit_vectors(trials, d, gen, dtype=dtype)
    if gen.device.type == "cpu" and dtype == torch.float64 and trials * n * d >= 1 << 16:
        r = _fused_risk(trials, n, d, sigmas, beta, gen)
    else:
        r = _batched_risk(trials, n, d, sigmas, beta, gen, dtype)
    return r if isinstance(sigma, (list, tuple)) else r[:, 0]


def _batched_risk(trials, n, d, sigmas, beta, gen, dtype):
    """Draw every design, then solve them all (:func:`min_norm_solve`): (trials, k)."""
    X = gaussian_design(trials, n, d, gen, dtype=dtype)
    eps = torch.randn(trials, n, generator=gen, dtype=dtype, device=X.device)
    return _risk_of(X, beta, eps, sigmas, min_norm_solve)


def _risk_of(X, beta, eps, sigmas, solve):
    """||X^+ (X beta + sigma_k eps) - beta||^2 for each sigma_k: (B, k)."""
    rhs = torch.stack([torch.einsum("bnd,bd->bn", X, beta), eps], dim=-1)  # (B, n, 2)
    sol = solve(X, rhs)  # (B, d, 2)
    w = sol[..., :1] + sol[..., 1:] * sigmas.to(X.device)  # (B, d, k)
    return (w - beta.unsqueeze(-1)).square().sum(-2)


#: a design whose Gram product has at least this many multiply-adds (m^2 M) is solved in numpy / LAPACK,
#: one matrix at a time (:func:`_gram_solve`): numpy's ``A @ A.T`` calls BLAS syrk, half the flops of
#: torch's GEMM (OpenBLAS syrk 0.72 ms at n = 250, d = 500 on one idle thread here, torch's batched
#: GEMM 1.6-1.8 ms); smaller designs stay batched in torch, where a call per matrix would cost more
#: than the product.
SYRK_MIN = 1_000_000
_GROUP = 1 << 17  # doubles of design per group (1 MB): drawn, then solved while in cache

_POOL: ThreadPoolExecutor | None = None
_BLAS: ThreadpoolController | None = None


def _one_blas_thread():
    """numpy's BLAS on one thread while the streams' threads run (restored on exit).

    OpenBLAS on its default 2 threads, called from two threads at once, ran 10-30x slower here
    (3-13 against 86-110 trials/s), and its results depend on its thread count.  The libraries
    are enumerated once (2.7 ms); each limit then costs ~0.02 ms.
    """
    global _BLAS
    if _BLAS is None:
        _BLAS = ThreadpoolController()
    return _BLAS.limit(limits=1, user_api="blas")


def _pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=_BLOCKS, thread_name_prefix="min_norm")
    return _POOL


def _gram_solve(X: torch.Tensor, Y: torch.Tensor) -> torch.Tensor:
    """X^+ Y for X (B, n, d), Y (B, n, k), as :func:`numerics.least_squares.min_norm_solve` on one
    thread; a large design (``SYRK_MIN``) one matrix at a time in numpy / LAPACK: Gram by syrk,
    Cholesky (``potrf``, 0.31 ms against torch's 0.42 ms at m = 250), ``potrs``; LU if the Cholesky
    factorisation fails, like :func:`numerics.least_squares.spd_solve`."""
    n, d = X.shape[-2:]
    m, M = min(n, d), max(n, d)
    if m * m * M < SYRK_MIN:
        return _min_norm_gram(X, Y)
    Xn, Yn = X.cpu().numpy(), Y.cpu().numpy()  # this path runs on CPU tensors only (see min_norm_risk)
    out = np.empty((X.shape[0], d, Y.shape[-1]))
    for j, x in enumerate(Xn):
        wide = n < d
        G = x @ x.T if wide else x.T @ x  # numpy calls syrk for A @ A.T: one triangle, mirrored
        b = Yn[j] if wide else x.T @ Yn[j]
        c, info = _potrf(G.T, lower=1, clean=0, overwrite_a=0)  # G.T: the same symmetric matrix, Fortran order
        a = _potrs(c, b, lower=1)[0] if info == 0 else np.linalg.solve(G, b)
        out[j] = x.T @ a if wide else a
    return torch.from_numpy(out)  # device: cpu (the numpy/LAPACK path, CPU tensors only)


def min_norm_solve_syrk(X: torch.Tensor, Y: torch.Tensor) -> torch.Tensor:
    """X^+ Y for X (B, n, d), Y (B, n, k) -> (B, d, k), as :func:`numerics.least_squares.min_norm_solve`, with a
    large design (``SYRK_MIN`` multiply-adds in its Gram product) solved one matrix at a time in numpy / LAPACK
    (:func:`_gram_solve`: Gram by syrk, half the flops of torch's GEMM; ``potrf`` / ``potrs``) on one BLAS thread.
    The same solution within float64 rounding (torch's batched GEMM and numpy's syrk sum in another order);
    identical below ``SYRK_MIN`` and off the CPU / float64, where it is ``min_norm_solve`` itself."""
    n, d = X.shape[-2:]
    m, M = min(n, d), max(n, d)
    if X.device.type != "cpu" or X.dtype != torch.float64 or m * m * M < SYRK_MIN:
        return min_norm_solve(X, Y)
    with _one_blas_thread():
        return _gram_solve(X, Y)


def _fused_risk(trials, n, d, sigmas, beta, gen):
    """The risks of :func:`_batched_risk` with each design solved as soon as it is drawn: (trials, k).

    The draws are those of ``gaussian_design(trials, n, d, gen)`` followed by ``randn(trials, n)``
    for the noise: the seed of the design's numpy streams is taken from ``gen`` first, then the
    noise, and each stream then fills its own flat range of the (trials, n, d) design in order
    (:func:`numerics.sampling.normal_streams`), one group of trials at a time, on its own thread
    with one BLAS / intra-op thread (on the calling thread, one stream after the other, when torch
    has one thread: the numbers do not depend on which), and solves the group at once.  A trial cut by a stream
    boundary (an odd count) is assembled from both streams and solved at the end.  The work per
    trial is that of the batched path; what changes is that the 1 MB design is still in cache when
    its Gram product reads it, the two threads never wait for each other between drawing and
    solving, and no (trials, n, d) array is allocated.
    """
    T = n * d
    streams, cuts = normal_streams(trials * T, gen)
    eps = torch.randn(trials, n, generator=gen, dtype=torch.float64)  # device: cpu (the fused path: CPU generator)
    out = torch.empty(trials, sigmas.numel(), dtype=torch.float64)  # device: cpu (as above)
    g = max(1, _GROUP // T)
    split = {c // T: np.empty(T) for c in cuts[1:-1] if c % T}  # trials drawn by two streams

    def solve(i, Xg):
        X = torch.from_numpy(Xg.reshape(-1, n, d))  # device: cpu (the fused path: numpy streams)
        out[i:i + X.shape[0]] = _risk_of(X, beta[i:i + X.shape[0]], eps[i:i + X.shape[0]], sigmas, _gram_solve)

    def run(s):
        if torch.get_num_threads() != 1:
            torch.set_num_threads(1)
        r, pos, b = streams[s], cuts[s], cuts[s + 1]
        if pos % T and pos < b:  # the end of a trial begun by the previous stream
            i, end = pos // T, min(b, (pos // T + 1) * T)
            r.standard_normal(out=split[i][pos - i * T:end - i * T])
            pos = end
        while pos + T <= b:
            k = min(g, (b - pos) // T)
            Xg = np.empty(k * T)
            r.standard_normal(out=Xg)
            solve(pos // T, Xg)
            pos += k * T
        if pos < b:  # the beginning of a trial the next stream ends
            r.standard_normal(out=split[pos // T][:b - pos])

    m, M = min(n, d), max(n, d)
    with (_one_blas_thread() if m * m * M >= SYRK_MIN else nullcontext()), intra_op_threads(1):
        if torch.get_num_threads() == 1:  # one core for this process (e.g. a worker of --jobs 2): no extra threads
            for s in range(len(streams)):
                run(s)
        else:
            for j in [_pool().submit(run, s) for s in range(len(streams))]:
                j.result()
        for i, x in split.items():
            solve(i, x)
    return out


def gd_vs_min_norm(trials: int, n: int, d: int, sigma: float, gen: torch.Generator, steps: int = 20000):
    """Max distance between gradient descent from zero and X^+ y, and the two risks.

    The literal procedure (full-batch gradient descent on the empirical loss from zero
    initialization) and the closed-form end state are compared on the same draws.
    """
    X, y, beta = scratch_data(trials, n, d, sigma, gen)
    w_mn = min_norm_solve(X, y)
    w_gd = gd_least_squares(X, y, steps)
    return {"max_distance": float((w_gd - w_mn).norm(dim=-1).max()),
            "risk_gd": (w_gd - beta).square().sum(-1), "risk_min_norm": (w_mn - beta).square().sum(-1)}
