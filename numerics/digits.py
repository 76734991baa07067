"""Table 1 of 000_efaf07e323d59f0e.txt (§4.2) replicated on scikit-learn's bundled 8x8 digits (MNIST cannot be
downloaded here): binary source/target tasks, linear fine-tuning, and the R^2 of three risk predictors.

Needs scikit-learn (an optional extra: ``load_digits`` ships its data inside the package, no download).

Procedure (our reading of §4.2 and the caption of Table 1; see verify/claims/shachaf2021/table1.py):

* inputs: the 64 pixel intensities of each image scaled to unit norm; a task "a vs b" labels class a +1 and
  class b -1 (binary classification modelled as regression to {-1, +1});
* each class is split in half (per repetition) into a training pool and a test set;
* theta_S, theta_T: minimum-norm least squares on the whole training pool of the source / target task
  (the "linear teachers"); Sigma: the second-moment matrix E[x x^T] of the target task's training pool
  (the matrix in the risk (2), R = ||Sigma^{1/2} P_perp (theta_T - theta_S)||^2);
* fine-tuning on n target samples: GD from theta_S on (1/n)||X w - y||^2 converges to
  theta_S + X^+ (y - X theta_S) (Theorem 4.1; checked against literal GD in tests/test_shachaf_ntk.py);
* error: 0-1 error of sign(x^T w) on the target test set, averaged over ``samples`` draws of the n points;
* predictors, with Delta = theta_T - theta_S and g = c lambda_1 max{sqrt(r/n), r/n, sqrt(delta/n), delta/n},
  r = sum_i lambda_i / lambda_1 (Theorem 4.2):
    - ``norm``:     ||Delta||^2;
    - ``bartlett``: the first (bias) term of Theorem 4 of Bartlett et al. [25] with theta* -> Delta,
                    c ||Delta||^2 ||Sigma|| max{sqrt(r_0/n), r_0/n, sqrt(log(1/delta')/n)}, r_0 = tr Sigma/||Sigma||,
                    delta' = e^{-delta} (the same confidence as (3)): = ||Delta||^2 g (noiseless teachers, so the
                    variance term is 0);
    - ``ours``:     (3) at m = 2, 2 g^3 ||P_{<=2} Delta||^2 / lambda_2^2 + 2 g ||P_{>2} Delta||^2;
* R^2 of each predictor: the squared Pearson correlation between the K pairs' mean errors and the predictor
  (the R^2 of a least-squares line), one value per repetition.
"""
from __future__ import annotations

import math
from functools import lru_cache

import torch
from torch import Tensor

from numerics.least_squares import intra_op_threads

PREDICTORS = ("norm", "bartlett", "ours")


def have_sklearn() -> bool:
    try:
        import sklearn  # noqa: F401
    except ImportError:
        return False
    return True


@lru_cache(maxsize=1)
def _digits():
    from sklearn.datasets import load_digits

    data = load_digits()
    X = torch.tensor(data.data, dtype=torch.float64)  # device: cpu (the data set; load_digits_unit moves it)
    X = X / X.norm(dim=1, keepdim=True)
    return X, torch.tensor(data.target, dtype=torch.long)  # device: cpu (as above)


def load_digits_unit(*, device=None, dtype=torch.float64) -> tuple[Tensor, Tensor]:
    """(X (1797, 64) with unit-norm rows, labels (1797,) in 0..9).  Raises ImportError without scikit-learn."""
    X, y = _digits()
    return X.to(device=device, dtype=dtype), y.to(device=device)


def _split(labels: Tensor, gen: torch.Generator) -> Tensor:
    """A boolean mask of the training pool: half of each class (rounded down), chosen at random."""
    train = torch.zeros(labels.numel(), dtype=torch.bool)  # device: cpu (built on the host, moved below)
    lab = labels.cpu()
    for c in range(10):
        idx = torch.nonzero(lab == c).flatten()
        perm = idx[torch.randperm(idx.numel(), generator=gen, device=gen.device).cpu()]
        train[perm[: idx.numel() // 2]] = True
    return train.to(labels.device)


def _task(X: Tensor, labels: Tensor, mask: Tensor, a: int, b: int) -> tuple[Tensor, Tensor]:
    sel = mask & ((labels == a) | (labels == b))
    return X[sel], torch.where(labels[sel] == a, 1.0, -1.0).to(X.dtype)


def min_norm_fit(X: Tensor, y: Tensor) -> Tensor:
    """X^+ y (minimum-norm least squares)."""
    return torch.linalg.pinv(X) @ y


def g_value(lam: Tensor, n: int, *, c: float = 1.0, delta: float = 1.0) -> Tensor:
    """g(lambda, delta, n) of Theorem 4.2 for eigenvalues ``lam`` (descending, (..., d))."""
    l1 = lam[..., 0]
    r = lam.sum(-1) / l1
    vals = torch.stack([torch.sqrt(r / n), r / n, torch.full_like(r, math.sqrt(delta / n)),
                        torch.full_like(r, delta / n)], -1)
    return c * l1 * vals.amax(-1)


def predictors(delta_theta: Tensor, Sigma: Tensor, n: int, *, m: int = 2, c: float = 1.0,
               delta: float = 1.0, eig=None) -> dict:
    """The three predictors of Table 1 for teacher differences (K, d) and target second moments (K, d, d)
    (``eig``: torch.linalg.eigh(Sigma) if already computed)."""
    lam, V = torch.linalg.eigh(Sigma) if eig is None else eig
    lam, V = lam.flip(-1).clamp_min(0.0), V.flip(-1)
    g = g_value(lam, n, c=c, delta=delta)
    coef = (V.transpose(-1, -2) @ delta_theta.unsqueeze(-1)).squeeze(-1)       # coordinates in the eigenbasis
    top, bottom = (coef[..., :m] ** 2).sum(-1), (coef[..., m:] ** 2).sum(-1)
    norm2 = (delta_theta ** 2).sum(-1)
    return {"norm": norm2, "bartlett": norm2 * g,
            "ours": 2 * g ** 3 * top / lam[..., m - 1] ** 2 + 2 * g * bottom}


def r_squared(err: Tensor, pred: Tensor) -> float:
    """Squared Pearson correlation between the K errors and the K predictor values."""
    e, p = err - err.mean(), pred - pred.mean()
    return float((e * p).sum() ** 2 / ((e * e).sum() * (p * p).sum()))


def finetune_min_distance(theta_S: Tensor, X: Tensor, y: Tensor) -> Tensor:
    """End state of GD from theta_S on (1/n)||X w - y||^2: theta_S + X^+ (y - X theta_S); batched (..., n, d)."""
    r = y - (X @ theta_S.unsqueeze(-1)).squeeze(-1)
    if X.shape[-2] <= X.shape[-1]:                        # wide: X^+ = X^T (X X^T)^{-1} when X X^T is invertible
        L, info = torch.linalg.cholesky_ex(X @ X.transpose(-1, -2))
        if not bool((info != 0).any()):
            return theta_S + (X.transpose(-1, -2) @ torch.cholesky_solve(r.unsqueeze(-1), L)).squeeze(-1)
    return theta_S + (torch.linalg.pinv(X) @ r.unsqueeze(-1)).squeeze(-1)


def ridge_fit(X: Tensor, y: Tensor, lam: float) -> Tensor:
    """(X^T X / N + lam I)^{-1} X^T y / N: a ridge teacher (a sensitivity variant, not the main reading)."""
    N, d = X.shape
    return torch.linalg.solve(X.T @ X / N + lam * torch.eye(d, dtype=X.dtype, device=X.device), X.T @ y / N)


def _table1_repetition(ns, gen: torch.Generator, *, K: int = 20, samples: int = 25, m: int = 2, c: float = 1.0,
                      delta: float = 1.0, ridge: float | None = None, device=None, dtype=torch.float64) -> dict:
    """One repetition of Table 1's computation: a fresh train/test split, K random source-target pairs of
    disjoint binary tasks, ``samples`` fine-tuning draws of each n per pair.

    ``ridge``: teachers by ridge regression with this lambda instead of minimum-norm least squares.
    Returns {predictor: [R^2 at each n]} plus "error": the K mean errors at each n (K x len(ns))."""
    X, labels = load_digits_unit(device=device, dtype=dtype)
    train = _split(labels, gen)
    test = ~train
    errs = torch.empty(K, len(ns), dtype=dtype, device=X.device)
    fits: dict = {}

    def fit(a_, b_):
        if (a_, b_) not in fits:
            Xa, ya = _task(X, labels, train, a_, b_)
            fits[(a_, b_)] = min_norm_fit(Xa, ya) if ridge is None else ridge_fit(Xa, ya, ridge)
        return fits[(a_, b_)]
    preds = {k: torch.empty(K, len(ns), dtype=dtype, device=X.device) for k in PREDICTORS}
    for k in range(K):
        perm = torch.randperm(10, generator=gen, device=gen.device).tolist()
        a, b, cc, dd = perm[:4]                           # source a vs b, target cc vs dd (four distinct digits)
        XT, yT = _task(X, labels, train, cc, dd)
        Xte, yte = _task(X, labels, test, cc, dd)
        thS, thT = fit(a, b), fit(cc, dd)
        Sigma = XT.T @ XT / XT.shape[0]
        lam_V = torch.linalg.eigh(Sigma)
        # nested fine-tuning sets: the first n of one random order per draw (common draws across n)
        order = torch.rand(samples, XT.shape[0], generator=gen, device=gen.device).argsort(-1)[:, : max(ns)].to(X.device)
        dth = (thT - thS).unsqueeze(0)
        for j, n in enumerate(ns):
            idx = order[:, :n]
            w = finetune_min_distance(thS, XT[idx], yT[idx])                    # (samples, d)
            pred = torch.sign(Xte @ w.T)                                         # (N_test, samples)
            errs[k, j] = (pred != yte.unsqueeze(-1)).to(dtype).mean()
            pv = predictors(dth, Sigma.unsqueeze(0), n, m=m, c=c, delta=delta, eig=lam_V)
            for key in PREDICTORS:
                preds[key][k, j] = pv[key][0]
    out = {key: [r_squared(errs[:, j], preds[key][:, j]) for j in range(len(ns))] for key in PREDICTORS}
    out["error"] = errs
    return out


def table1_repetition(*args, **kwargs) -> dict:
    with intra_op_threads(1):
        return _table1_repetition(*args, **kwargs)


table1_repetition.__doc__ = (_table1_repetition.__doc__ + "\n\n    On one intra-op thread: hundreds of tiny "
                             "factorisations; two threads on the shared cores cost 20x the CPU time (6.2 s vs 0.28 s "
                             "per repetition, measured under a load average of 14).")
