"""Statistics of the judge: confidence intervals, two-sided tests, Holm's step-down
procedure, weighted extrapolation to infinite size, and trial-count planning.

Everything here is pure (numpy / scipy), so it can be unit-tested and calibrated
independently of any claim.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps


@dataclass(frozen=True)
class MeanEstimate:
    """Monte Carlo mean of per-trial samples with its standard error."""

    mean: float
    stderr: float
    n: int
    std: float

    def ci(self, level: float = 0.95) -> tuple[float, float]:
        q = student_q(level, self.n - 1)
        return (self.mean - q * self.stderr, self.mean + q * self.stderr)


def student_q(level: float, df: float) -> float:
    """Two-sided quantile of Student's t (normal for large df)."""
    if df is None or df > 1e6:
        return float(sps.norm.ppf(0.5 + level / 2))
    return float(sps.t.ppf(0.5 + level / 2, df))


def mean_estimate(samples: np.ndarray) -> MeanEstimate:
    x = np.asarray(samples, dtype=np.float64).ravel()
    n = x.size
    if n < 2:
        raise ValueError("need at least two trials for a confidence interval")
    if not np.all(np.isfinite(x)):
        bad = int(np.sum(~np.isfinite(x)))
        raise FloatingPointError(f"{bad} of {n} Monte Carlo trials are not finite")
    sd = float(np.std(x, ddof=1))
    return MeanEstimate(float(np.mean(x)), sd / math.sqrt(n), n, sd)


def two_sided_p(estimate: float, stderr: float, predicted: float, df: float | None = None) -> float:
    """p-value of H0: E = predicted, from a t (or z) statistic."""
    if stderr == 0:
        return 0.0 if estimate != predicted else 1.0
    t = (estimate - predicted) / stderr
    if df is None or df > 1e6:
        return float(2 * sps.norm.sf(abs(t)))
    return float(2 * sps.t.sf(abs(t), df))


def clopper_pearson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Exact two-sided interval of a binomial proportion k/n (Clopper-Pearson).

    >>> [round(x, 4) for x in clopper_pearson(0, 20)]
    [0.0, 0.1684]
    >>> [round(x, 4) for x in clopper_pearson(1, 30)]
    [0.0008, 0.1722]
    """
    from scipy.stats import beta

    if n <= 0:
        return (0.0, 1.0)
    a = 1 - level
    lo = 0.0 if k == 0 else float(beta.ppf(a / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(1 - a / 2, k + 1, n - k))
    return lo, hi


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error control, any dependence)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adj = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adj[i] = running
    return adj


def trials_to_decide(n: int, halfwidth: float, distance: float, tol: float) -> int | None:
    """Trials needed for the CI to fit inside the tolerance, if the estimate stays put.

    ``distance`` is how far the estimate lies beyond the prediction: |estimate - predicted| for an equality,
    estimate - predicted for a bound or an ordering (negative on the side the claim asserts, so a zero tolerance
    still leaves room).  Returns None when no number of trials can confirm (the estimate itself is outside the
    tolerance).
    """
    room = tol - distance
    if not (room > 0 and math.isfinite(halfwidth)):
        return None
    return int(math.ceil(n * (halfwidth / room) ** 2))


def trials_to_reject(n: int, detectable: float, distance: float) -> int | None:
    """Trials at which a test would reject with 80 % power, if the estimate stays put ``distance`` away from the
    prediction on the wrong side and ``detectable`` is the deviation the present ``n`` trials detect with that
    power (it shrinks like 1/sqrt(n)).  None when the estimate equals the prediction or the spread is unknown."""
    if not (distance > 0 and math.isfinite(detectable) and detectable > 0):
        return None
    return int(math.ceil(n * (detectable / distance) ** 2))


@dataclass(frozen=True)
class Extrapolation:
    """Weighted least-squares fit of m(N) = a + b/N (+ c/N^2) over sizes N."""

    intercept: float
    stderr: float
    dof: int
    chi2: float
    gof_p: float  # goodness of fit; small means the 1/N model is rejected
    coeffs: tuple[float, ...]


def extrapolate_inverse_size(sizes, means, stderrs, order: int | None = None,
                             resolution: float = 1e-9) -> Extrapolation:
    """Extrapolate Monte Carlo means to N -> infinity in powers of 1/N.

    With k sizes the model has ``order + 1`` coefficients (default: 1/N only for three
    sizes, 1/N and 1/N^2 for four or more, so that one degree of freedom is left to test
    the model).
    """
    N = np.asarray(sizes, dtype=float)
    y = np.asarray(means, dtype=float)
    # floating-point resolution in quadrature, so that exactly reproducible means (zero variance)
    # do not get infinite weight
    s = np.hypot(np.asarray(stderrs, dtype=float), resolution * (1 + np.abs(y)))
    k = len(N)
    if k < 3:
        raise ValueError("extrapolation needs at least three sizes")
    if order is None:
        order = 1 if k == 3 else 2
    A = np.vander(1.0 / N, order + 1, increasing=True)  # columns 1, 1/N, 1/N^2
    w = 1.0 / s
    Aw, yw = A * w[:, None], y * w
    coef, *_ = np.linalg.lstsq(Aw, yw, rcond=None)
    cov = np.linalg.inv(Aw.T @ Aw)
    resid = yw - Aw @ coef
    chi2 = float(resid @ resid)
    dof = k - (order + 1)
    gof = float(sps.chi2.sf(chi2, dof)) if dof > 0 else 1.0
    return Extrapolation(float(coef[0]), float(math.sqrt(cov[0, 0])), dof, chi2, gof, tuple(map(float, coef)))


@dataclass(frozen=True)
class TailIndex:
    """Hill's estimate of the tail index alpha of |X| (P(|X| > x) ~ x^-alpha): E|X|^p is infinite for p >= alpha,
    so alpha < 1 means an infinite mean and alpha < 2 an infinite variance.  ``k`` upper order statistics were used;
    ``ci`` is the 95 % interval exact for a Pareto tail (k * alpha / alpha_hat ~ Gamma(k, 1))."""

    alpha: float
    k: int
    ci: tuple[float, float]
    #: k * gamma_hat, gamma_hat = 1 / alpha_hat: the sum of the k log-spacings (the Gamma statistic of the p-values)
    spacings: float

    def pvalue_at_most(self, a0: float) -> float:
        """One-sided p-value of H0 "alpha <= a0" (the moment of order a0 is infinite), small when the tail is
        lighter: under a Pareto tail of index a0 the statistic k * a0 / alpha_hat is Gamma(k, 1)."""
        return float(sps.gamma.cdf(self.spacings * a0, self.k))


def hill_k(n: int, fraction: float = 0.02, least: int = 20) -> int:
    """The number of upper order statistics Hill's estimator uses out of ``n``: a fixed fraction (so that the
    interval shrinks like 1/sqrt(n) and :func:`trials_to_decide` applies), at least ``least``, at most n // 4.

    >>> hill_k(100_000), hill_k(500), hill_k(40)
    (2000, 20, 10)
    """
    return max(2, min(n // 4, max(least, int(math.ceil(fraction * n)))))


def hill_tail_index(samples, k: int | None = None) -> TailIndex | None:
    """Hill's estimator of the tail index of |samples| from its ``k`` largest values (default :func:`hill_k`);
    None when the (k+1)-th largest |value| is 0 (too few nonzero values to see a tail).

    >>> x = (1 - np.random.default_rng(0).random(20_000)) ** -1.0     # Pareto, alpha = 1: an infinite mean
    >>> t = hill_tail_index(x); t.k, round(t.alpha, 2), t.ci[0] < 1 < t.ci[1]
    (400, 0.98, True)
    """
    a = np.abs(np.asarray(samples, dtype=np.float64).ravel())
    a = a[np.isfinite(a)]
    n = a.size
    k = hill_k(n) if k is None else int(k)
    if n < 3 or not 1 <= k < n:
        return None
    top = np.partition(a, n - k - 1)[n - k - 1:]          # the (k+1)-th largest, then the k largest
    threshold = top[0]
    if threshold <= 0:
        return None
    s = float(np.sum(np.log(top[1:] / threshold)))
    if s <= 0:                                              # k ties at the top: no tail at all
        return TailIndex(math.inf, k, (math.inf, math.inf), 0.0)
    lo, hi = sps.gamma.ppf([0.025, 0.975], k)
    return TailIndex(k / s, k, (float(lo / s), float(hi / s)), s)
