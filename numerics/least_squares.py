"""Least-squares solvers, batched over trials: minimum norm, ridge, gradient descent.

``min_norm_solve`` is the estimator of Theorem 3.5 / B.5 of 001_759117b8232d72ac.txt,
beta_hat = X^+ y, computed through the smaller Gram matrix (well conditioned away from n = d for Gaussian
designs).  The Gram systems are solved by Cholesky and triangular solves (``spd_solve``), on the CPU
one slice of the batch per core (``map_batch``).
"""
from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import torch


@contextmanager
def intra_op_threads(k: int):
    """Run torch ops with ``k`` intra-op threads, restoring the old count afterwards.

    Nothing is changed when the count is already ``k`` (so the guard nests, also inside
    the worker threads of :func:`map_batch`).
    """
    old = torch.get_num_threads()
    if old == k:
        yield
        return
    torch.set_num_threads(k)
    try:
        yield
    finally:
        torch.set_num_threads(old)


_POOL: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2), thread_name_prefix="map_batch")
    return _POOL


def map_batch(fn: Callable[..., torch.Tensor], *tensors: torch.Tensor) -> torch.Tensor:
    """``fn(*tensors)`` computed on contiguous slices of the leading (trial) dimension.

    On the CPU the batch is cut into one slice per intra-op thread; each slice runs on its own
    Python thread with torch on one intra-op thread (torch releases the GIL inside its
    kernels), and the results are concatenated along dim 0.  ``fn`` must act independently
    on each batch element.  The result is the same as one call with one intra-op thread:
    every matrix is factorised by the same sequential LAPACK routine, whatever the split.

    Why not let torch parallelise: torch splits a batched LAPACK call over the batch while
    MKL threads inside each factorisation; on 2 cores with any other load that
    oversubscription was measured 15-30x slower for batches of small (<= 256) matrices.
    Worse, in the torch 2.13.0 CPU build, once the thread count had been changed, a
    two-thread batched LU of 250 x 250 matrices failed (MKL "Parameter 6 was incorrect on
    entry to DLASWP", invalid pivots).  Splitting the batch ourselves over single-threaded
    calls avoids both, and keeps both cores busy (2.0x the one-thread LU, measured in
    ``benchmarks/bench_min_norm.py``).
    """
    lead = tensors[0]
    if lead.device.type != "cpu" or lead.dim() < 3 or lead.shape[0] < 2:
        return fn(*tensors)
    B = lead.shape[0]
    k = min(torch.get_num_threads(), B)
    with intra_op_threads(1):
        if k == 1:
            return fn(*tensors)
        cuts = [round(i * B / k) for i in range(k + 1)]
        jobs = [_pool().submit(_on_one_thread, fn, *(t[a:b] for t in tensors)) for a, b in zip(cuts[:-1], cuts[1:])]
        return torch.cat([j.result() for j in jobs])


def _on_one_thread(fn, *args):
    """Run ``fn`` in a pool thread with one intra-op thread.

    torch keeps the OpenMP thread count per OS thread: a pool thread created while the count
    was 1 keeps 1, one created earlier keeps its old count, whatever the main thread sets
    later.  The main thread holds the global count at 1 while :func:`map_batch` runs, so
    setting it here changes nothing else.
    """
    if torch.get_num_threads() != 1:
        torch.set_num_threads(1)
    return fn(*args)


def batched_solve(A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """torch.linalg.solve (LU) for a batch of (small) systems, split over the cores by :func:`map_batch`."""
    return map_batch(torch.linalg.solve, A, B)


def _spd_solve(A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """A^{-1} B for symmetric positive definite A (B, m, m), by Cholesky and two triangular solves.

    Only the lower triangle of A is read.  A matrix whose Cholesky factorisation fails
    (not numerically positive definite) is solved by LU instead, so the result never
    silently depends on a failed factor.
    """
    L, info = torch.linalg.cholesky_ex(A)
    Z = torch.linalg.solve_triangular(L, B, upper=False)
    out = torch.linalg.solve_triangular(L.mT, Z, upper=True)
    bad = info != 0
    if bool(bad.any()):
        out[bad] = torch.linalg.solve(A[bad], B[bad])
    return out


def spd_solve(A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """A^{-1} B for a batch of symmetric positive definite systems (Gram and ridge matrices).

    Cholesky (m^3/3 flops) with triangular solves, LU fallback per matrix; split over the
    cores by :func:`map_batch`.  Measured here at m = 250, one thread: 0.84 ms per system
    against 1.28 ms for LU (``torch.linalg.solve``); torch's own ``cholesky_solve`` was
    slower than two ``solve_triangular`` calls (0.39 vs 0.12 ms).
    """
    return map_batch(_spd_solve, A, B)


def _min_norm_gram(X: torch.Tensor, Y: torch.Tensor) -> torch.Tensor:
    """X^+ Y through the smaller Gram matrix, for X (B, n, d) and Y (B, n, k)."""
    n, d = X.shape[-2:]
    if n < d:
        return X.mT @ _spd_solve(X @ X.mT, Y)
    return _spd_solve(X.mT @ X, X.mT @ Y)


def min_norm_solve(X: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """X^+ y for a batch: X (B, n, d), y (B, n) -> (B, d), or y (B, n, k) -> (B, d, k).

    n < d:  X^T (X X^T)^{-1} y  (the interpolator of minimum norm);
    n >= d: (X^T X)^{-1} X^T y  (the unique least-squares solution).
    Gram product and solve run per slice of the batch, one slice per core (:func:`map_batch`).
    """
    vec = y.dim() == 2
    out = map_batch(_min_norm_gram, X, y.unsqueeze(-1) if vec else y)
    return out.squeeze(-1) if vec else out


def ridge_solve(X: torch.Tensor, y: torch.Tensor, lam: float) -> torch.Tensor:
    """argmin 1/(2n)||y - X w||^2 + lam/2 ||w||^2 = (X^T X + n lam I)^{-1} X^T y, batched."""
    B, n, d = X.shape
    if n < d:  # push-through identity: X^T (X X^T + n lam I)^{-1} y
        G = X @ X.mT + n * lam * torch.eye(n, dtype=X.dtype, device=X.device)
        a = spd_solve(G, y.unsqueeze(-1))
        return (X.mT @ a).squeeze(-1)
    G = X.mT @ X + n * lam * torch.eye(d, dtype=X.dtype, device=X.device)
    return spd_solve(G, X.mT @ y.unsqueeze(-1)).squeeze(-1)


def gd_least_squares(X: torch.Tensor, y: torch.Tensor, steps: int, lr: float | None = None,
                     w0: torch.Tensor | None = None) -> torch.Tensor:
    """Full-batch gradient descent on 1/(2n)||y - X w||^2 from w0 (default 0), batched.

    From w0 = 0 the iterates stay in row(X) and converge to X^+ y (the implicit bias of
    Theorem 3.5 for depth one).  ``lr`` defaults to 1/lambda_max(X^T X / n).
    """
    B, n, d = X.shape
    w = torch.zeros(B, d, dtype=X.dtype, device=X.device) if w0 is None else w0.clone()
    if lr is None:
        lmax = torch.linalg.matrix_norm(X, ord=2) ** 2 / n
        lr = (1.0 / lmax).unsqueeze(-1)
    for _ in range(steps):
        r = torch.einsum("bnd,bd->bn", X, w) - y
        w = w - lr * torch.einsum("bnd,bn->bd", X, r) / n
    return w
