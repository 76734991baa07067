"""Tests of orderings and of orders (log-log slopes): the StatTest builders a custom check needs when a
claim says "A is smaller than B" or "Q = O(x^p)" / "Q ~ x^p".

Every builder returns one :class:`~verify.model.evidence.StatTest`; the run's Holm correction and the verdict
rule (:func:`verify.model.evidence.decide`) do the rest.  Which one to use:

``ordering_test``
    E[a] < E[b] (or E[a] < 0) from per-trial samples: paired t on a - b when a and b come from the same
    draws (common random numbers), Welch when they are independent samples.  One-sided: only a - b
    significantly > 0 rejects; agreement needs the whole 95% CI of E[a - b] below 0.  For a claim
    "E[diff] > 0", pass ``a=0.0, b=diff``.
``slope_test_paired``
    a stated order x^p against per-trial log-log slopes, when every trial has y at all xs on common
    random numbers (rows of ``ys``).  Two-sided band exponent +- tol.
``slope_test_means``
    the same band test from *independent* samples at each x: weighted least squares of log(mean) on
    log x (delta method).
``slope_bound_test``
    a stated *bound* O(x^p) read as slope >= p (small x), from per-trial slopes on common random numbers.
    One-sided.
``slope_upper_test`` / ``slope_band_test`` (on :func:`slope_of_means`)
    slope <= bound (one-sided) or slope in exponent +- tol, of the mean over networks ``Y[b, j]`` against
    widths ``ms[j]``, with a bootstrap over networks resampled jointly across widths: for nested widths
    (network b at width m_j shares its first neurons with width m_(j-1)), where the per-network values are
    paired over j but their log-log slope per network is too noisy (or undefined: a value may be 0).
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats as sps

from verify.model.evidence import StatTest
from verify.judge import Tol
from verify.model.stats import mean_estimate, student_q

__all__ = ["ordering_test", "per_trial_slopes", "slope_test_paired", "slope_test_means", "slope_bound_test",
           "slope_of_means", "slope_upper_test", "slope_band_test", "slope_annotation"]


# ----------------------------------------------------------------------------- orderings
def ordering_test(label: str, params: dict, a, b=None, seed=None, *, paired: bool = True, target: str = "stated",
                  what: str | None = None, extra: dict | None = None, resolution: float = Tol.resolution) -> StatTest:
    """The ordering E[a] < E[b] (``b`` None: E[a] < 0) from per-trial samples.

    ``paired=True``: a paired t-test on the per-trial differences a - b (a and b from the same draws; either
    may be a constant, e.g. ``a=0.0, b=diff`` for the claim E[diff] > 0).  ``paired=False``: Welch's t-test
    for independent samples a and b (Welch-Satterthwaite degrees of freedom).

    One-sided bound on E[a - b] (``sided='upper'``, predicted 0, tolerance 0): the p-value is that of
    H0 "E[a - b] <= 0" (the claim, weakly) against E[a - b] > 0, so only a difference significantly > 0
    rejects (refutes a stated ordering after Holm); the test agrees only when the upper end of the 95% CI
    of E[a - b] is below 0.  The estimate shown is E[a - b] (E[a] when b is None); ``extra`` says so and
    holds the two means.

    ``resolution`` (absolute, default :attr:`Tol.resolution`, as :func:`verify.judge.stat_test` with
    predicted 0) is added in quadrature to the standard error: an exact tie, or a difference that is a
    float rounding error, never counts as agreement.  The spread is reported as ``std_of_difference``
    (``std_of_a``, ``std_a``/``std_b``), not ``std``: a zero-spread tie is evidence against a strict
    ordering, never a 'degenerate' test set aside (:attr:`StatTest.degenerate`).  A tie of means is
    declared as the alternative "no difference (a tie)" (value 0), which a confirmation excludes.
    Needs at least two trials per sample, all finite (:func:`verify.model.stats.mean_estimate`).

    Parameters
    ----------
    label
        the test's label in the reports (usually :func:`label_of` of the point).
    params
        the parameter point the test is at (a dict).
    seed
        the seed its samples were drawn from (recorded in the evidence).
    target
        ``'stated'`` (a rejection refutes the claim) or ``'derived'`` (a check of our own form).
    extra
        further entries for the test's ``extra`` (shown in the evidence).
    a, b
        per-trial samples (or a constant) of the two sides; ``b`` None: the claim E[a] < 0.
    paired
        True: a paired t-test on a - b (same draws); False: Welch's test for independent samples.
    what
        the ordering in words, for the report (default: built from the label).
    resolution
        the absolute floating-point resolution added in quadrature to the standard error.
    """
    A = np.asarray(a, dtype=np.float64)
    if b is None:
        est = mean_estimate(A)
        mean, se, df, n = est.mean, est.stderr, est.n - 1, est.n
        info = {"claim": what or "E[a] < 0", "test": "one-sided t on the samples a", "estimate": "E[a]",
                "std_of_a": est.std}
    else:
        B = np.asarray(b, dtype=np.float64)
        if paired:
            est = mean_estimate(A - B)
            mean, se, df, n = est.mean, est.stderr, est.n - 1, est.n
            info = {"test": "one-sided paired t on a - b", "std_of_difference": est.std}
        else:
            ea, eb = mean_estimate(A), mean_estimate(B)
            va, vb = ea.stderr ** 2, eb.stderr ** 2
            mean, se = ea.mean - eb.mean, math.sqrt(va + vb)
            df = ((va + vb) ** 2 / (va ** 2 / (ea.n - 1) + vb ** 2 / (eb.n - 1)) if va + vb > 0
                  else float(ea.n + eb.n - 2))
            n = ea.n + eb.n
            info = {"test": "one-sided Welch t on independent a and b", "std_a": ea.std, "std_b": eb.std}
        info.update(claim=what or "E[a] < E[b]", estimate="E[a - b]", mean_a=float(A.mean()), mean_b=float(B.mean()))
    se = math.hypot(se, resolution)
    q = student_q(0.95, df)
    return StatTest(label=label, params=dict(params), predicted=0.0, estimate=float(mean), stderr=se, trials=int(n),
                    tol=0.0, pvalue=float(sps.t.sf(mean / se, df)), target=target, seed=seed, df=df,
                    ci=(mean - q * se, mean + q * se), sided="upper", extra=dict(extra or {}, **info),
                    alternatives={"no difference (a tie)": 0.0})


# ----------------------------------------------------------------------------- orders: per-trial log-log slopes
def per_trial_slopes(xs, ys) -> np.ndarray:
    """Least-squares slope of log y against log x for every row of ys (trials x len(xs))."""
    lx = np.log(np.asarray(xs, dtype=np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):   # a row with y = 0 gets a non-finite slope
        ly = np.log(np.asarray(ys, dtype=np.float64))
        lxc = lx - lx.mean()
        return (ly - ly.mean(-1, keepdims=True)) @ lxc / (lxc @ lxc)


def _defined_slopes(xs, ys) -> tuple[np.ndarray, int]:
    """The per-trial slopes of the rows whose y is positive at every x, and how many rows were left out: a y that
    rounds to exactly 0 (a difference below float resolution, e.g. two equal singular values) has no logarithm,
    and one such row would make the mean slope, and the claim, undefined.  The count goes into the test's extra."""
    slopes = per_trial_slopes(xs, ys)
    ok = np.isfinite(slopes)
    return slopes[ok], int((~ok).sum())


def _neighbours(exponent: float) -> dict:
    """The neighbouring orders a slope test must tell apart from the stated one."""
    return {f"order {exponent - 1:g}": exponent - 1.0, f"order {exponent + 1:g}": exponent + 1.0}


def _band_p(m: float, se: float, center: float, tol: float, df) -> float:
    """p-value of H0 'the mean lies in [center - tol, center + tol]': only an estimate significantly
    outside the band rejects (an order is a limit: a finite-range slope may differ from the stated
    exponent by a subleading correction smaller than tol, which must not count as a refutation)."""
    z = (abs(m - center) - tol) / se
    return float(sps.t.sf(z, df) if df else sps.norm.sf(z))


def slope_test_paired(label: str, params: dict, xs, ys, exponent: float, seed, *, tol: float = 0.25,
                      target: str = "stated", extra=None) -> StatTest:
    """The stated order ``exponent`` against the per-trial log-log slopes (common random numbers
    over xs: ``ys`` is trials x len(xs), every y > 0): mean and 95% t-interval of the slopes; agreement
    needs the CI inside exponent +- tol (tol < 1/2 excludes the neighbouring integer and half-integer
    exponents, declared as alternatives); rejection needs the mean significantly outside that band
    (:func:`_band_p`).  Use :func:`slope_test_means` when the samples at different x are independent.

    Parameters
    ----------
    label
        the test's label in the reports (usually :func:`label_of` of the point).
    params
        the parameter point the test is at (a dict).
    seed
        the seed its samples were drawn from (recorded in the evidence).
    target
        ``'stated'`` (a rejection refutes the claim) or ``'derived'`` (a check of our own form).
    extra
        further entries for the test's ``extra`` (shown in the evidence).
    xs
        the x values (> 0) of the sweep.
    ys
        per-trial values, trials x len(xs), every y > 0 (common random numbers over xs).
    exponent
        the stated order (log-log slope).
    tol
        the half-width of the band of agreement around ``exponent``.
    """
    slopes, dropped = _defined_slopes(xs, ys)
    n = slopes.size
    m, se = float(slopes.mean()), max(float(slopes.std(ddof=1) / math.sqrt(n)), 1e-12)
    q = float(sps.t.ppf(0.975, n - 1))
    return StatTest(label=label, params=dict(params), predicted=float(exponent), estimate=m, stderr=se, trials=n,
                    tol=tol, pvalue=_band_p(m, se, exponent, tol, n - 1), target=target, seed=seed, df=n - 1,
                    ci=(m - q * se, m + q * se), alternatives=_neighbours(exponent),
                    extra=dict(extra or {}, test=f"H0: |slope - {exponent}| <= {tol}", x=list(map(float, xs)),
                               mean_y=list(map(float, np.mean(ys, 0))),
                               **({"trials_with_y_0": dropped} if dropped else {})))


def slope_test_means(label: str, params: dict, xs, samples: list, exponent: float, seeds, *, tol: float = 0.25,
                     target: str = "stated", extra=None) -> StatTest:
    """The stated order ``exponent`` against the weighted least-squares slope of log(mean) on log x,
    from *independent* samples at each x (``samples[j]`` at ``xs[j]``; delta method: var log mean =
    (se/mean)^2; every mean must be > 0); normal CI; the same band test and alternatives as
    :func:`slope_test_paired`.  The fit's chi^2 (against len(xs) - 2 dof) is in ``extra``.

    Parameters
    ----------
    label
        the test's label in the reports (usually :func:`label_of` of the point).
    params
        the parameter point the test is at (a dict).
    seeds
        the seeds the samples were drawn from, one per x (recorded in the evidence).
    target
        ``'stated'`` (a rejection refutes the claim) or ``'derived'`` (a check of our own form).
    extra
        further entries for the test's ``extra`` (shown in the evidence).
    xs
        the x values (> 0).
    samples
        ``samples[j]``: the independent per-trial samples at ``xs[j]`` (every mean > 0).
    exponent
        the stated order (log-log slope).
    tol
        the half-width of the band of agreement around ``exponent``.
    """
    lx = np.log(np.asarray(xs, dtype=np.float64))
    means = np.array([np.mean(s) for s in samples])
    ses = np.array([np.std(s, ddof=1) / math.sqrt(len(s)) for s in samples])
    if np.any(means <= 0):
        raise ValueError(f"{label}: a mean is not positive, its logarithm is undefined: {means}")
    ly, w = np.log(means), (means / ses) ** 2
    A = np.stack([np.ones_like(lx), lx], 1)
    cov = np.linalg.inv(A.T @ (A * w[:, None]))
    coef = cov @ (A.T @ (w * ly))
    slope, se = float(coef[1]), float(math.sqrt(cov[1, 1]))
    chi2 = float(np.sum(w * (ly - A @ coef) ** 2))
    return StatTest(label=label, params=dict(params), predicted=float(exponent), estimate=slope, stderr=se,
                    trials=int(sum(len(s) for s in samples)), tol=tol, pvalue=_band_p(slope, se, exponent, tol, None),
                    target=target, seed=seeds[0] if seeds else None, ci=(slope - 1.96 * se, slope + 1.96 * se),
                    alternatives=_neighbours(exponent),
                    extra=dict(extra or {}, test=f"H0: |slope - {exponent}| <= {tol}", x=list(map(float, xs)),
                               means=list(map(float, means)),
                               stderrs=list(map(float, ses)), fit_chi2=chi2, fit_dof=len(xs) - 2, seeds=list(seeds)))


def slope_bound_test(label: str, params: dict, xs, ys, exponent: float, seed, *, tol: float = 0.25,
                     target: str = "stated", extra=None) -> StatTest:
    """A stated *bound* O(x^exponent) (x -> 0) against the per-trial log-log slopes (common random numbers over
    xs): the claim is slope >= exponent.  Built on -slope with ``sided='upper'`` (predicted -exponent): the
    p-value is that of H0 "slope >= exponent - tol" (only a slope significantly below exponent - tol
    rejects), agreement needs the lower end of the 95% CI of the slope >= exponent - tol.  The
    two-sided CI of the slope is in ``extra``.  No point alternative is declared: a bound's weaker
    neighbouring order is what a refutation finds, and a point value 'exactly p - 1' would be 'excluded'
    by a sharp CI even when the measured order is p - 1 up to a finite-range correction.

    Parameters
    ----------
    label
        the test's label in the reports (usually :func:`label_of` of the point).
    params
        the parameter point the test is at (a dict).
    seed
        the seed its samples were drawn from (recorded in the evidence).
    target
        ``'stated'`` (a rejection refutes the claim) or ``'derived'`` (a check of our own form).
    extra
        further entries for the test's ``extra`` (shown in the evidence).
    xs
        the x values (> 0), towards 0.
    ys
        per-trial values, trials x len(xs), every y > 0 (common random numbers over xs).
    exponent
        the stated order of the bound O(x^exponent).
    tol
        how far below ``exponent`` the slope may lie and still agree.
    """
    slopes, dropped = _defined_slopes(xs, ys)
    if dropped:
        extra = dict(extra or {}, trials_with_y_0=dropped)
    n = slopes.size
    m, se = float(slopes.mean()), max(float(slopes.std(ddof=1) / math.sqrt(n)), 1e-12)
    q = float(sps.t.ppf(0.975, n - 1))
    p = float(sps.t.sf((-m + exponent - tol) / se, n - 1))
    return StatTest(label=label, params=dict(params), predicted=-float(exponent), estimate=-m, stderr=se, trials=n,
                    tol=tol, pvalue=p, target=target, seed=seed, df=n - 1, ci=(-m - q * se, -m + q * se),
                    sided="upper",
                    extra=dict(extra or {}, slope=m, slope_ci=(m - q * se, m + q * se),
                                              claim=f"slope >= {exponent} (shown as -slope <= {-exponent})",
                                              x=list(map(float, xs)), mean_y=list(map(float, np.mean(ys, 0)))))


# ----------------------------------------------------------------------------- orders: slope of the means, bootstrap
def slope_of_means(ms, Y, gen_seed, n_boot=1000):
    """OLS slope of log(mean_b Y[b, j]) on log m_j, Y (B, J) >= 0 (paired over b: nested widths), with a bootstrap
    over networks b (resampled jointly across widths): (slope, se, (lo, hi) 95% percentile CI, means).
    Bootstrap replicates with a zero mean at some width are dropped; fewer than 3 left gives se = inf and an
    unbounded CI.

    Parameters
    ----------
    ms
        the widths (x values > 0), one per column of ``Y``.
    Y
        (B, J) values >= 0: network b at width ``ms[j]``.
    gen_seed
        the seed of the bootstrap's generator.
    n_boot
        the number of bootstrap replicates.
    """
    Y = np.asarray(Y, dtype=np.float64)
    lx = np.log(np.asarray(ms, dtype=np.float64))
    means = Y.mean(0)
    slope = float(np.polyfit(lx, np.log(means), 1)[0])
    rng = np.random.default_rng(gen_seed)
    B = Y.shape[0]
    boots = []
    for _ in range(n_boot):
        idx = rng.integers(0, B, B)
        mb = Y[idx].mean(0)
        if np.all(mb > 0):
            boots.append(np.polyfit(lx, np.log(mb), 1)[0])
    boots = np.asarray(boots)
    se = float(boots.std(ddof=1)) if boots.size > 2 else math.inf
    lo, hi = (float(np.quantile(boots, 0.025)), float(np.quantile(boots, 0.975))) if boots.size > 2 else (-math.inf, math.inf)
    return slope, se, (lo, hi), means


def slope_upper_test(label, params, ms, Y, bound, seed, *, tol=0.0, target="stated", extra=None) -> StatTest:
    """The claim 'slope <= bound' of the mean over networks (:func:`slope_of_means`; a quantity vanishing at least
    like m^bound; bound = 0: it vanishes at all along the sweep): one-sided, agreement when the upper end of the
    bootstrap CI is <= bound + tol; the p-value is that of H0 'slope <= bound + tol' (normal approximation with
    the bootstrap standard error), so only a slope significantly above bound + tol rejects.

    Parameters
    ----------
    label
        the test's label in the reports (usually :func:`label_of` of the point).
    params
        the parameter point the test is at (a dict).
    seed
        the seed its samples were drawn from (recorded in the evidence).
    target
        ``'stated'`` (a rejection refutes the claim) or ``'derived'`` (a check of our own form).
    extra
        further entries for the test's ``extra`` (shown in the evidence).
    ms, Y
        the widths and the (networks x widths) values, as for :func:`slope_of_means`.
    bound
        the stated bound on the slope.
    tol
        how far above ``bound`` the slope may lie and still agree.
    """
    slope, se, ci, means = slope_of_means(ms, Y, seed)
    p = float(sps.norm.sf((slope - bound - tol) / se)) if math.isfinite(se) and se > 0 else 1.0
    return StatTest(label=label, params=dict(params), predicted=float(bound), estimate=slope, stderr=se,
                    trials=int(np.asarray(Y).shape[0]), tol=tol, pvalue=p, target=target, seed=seed, ci=ci,
                    sided="upper",
                    extra=dict(extra or {}, test=f"H0: slope <= {bound} + {tol} (log-log in m, bootstrap over networks)",
                               widths=list(map(int, ms)), means=list(map(float, means)), std=float(np.std(Y))))


def slope_band_test(label, params, ms, Y, exponent, seed, *, tol=0.1, target="derived", extra=None) -> StatTest:
    """Two-sided: the slope of the mean over networks (:func:`slope_of_means`) lies within exponent +- tol
    (default target 'derived': our own derived rate); the p-value is that of H0 'within the band' (normal
    approximation with the bootstrap standard error), agreement needs the bootstrap CI inside the band.

    Parameters
    ----------
    label
        the test's label in the reports (usually :func:`label_of` of the point).
    params
        the parameter point the test is at (a dict).
    seed
        the seed its samples were drawn from (recorded in the evidence).
    target
        ``'stated'`` (a rejection refutes the claim) or ``'derived'`` (a check of our own form).
    extra
        further entries for the test's ``extra`` (shown in the evidence).
    ms, Y
        the widths and the (networks x widths) values, as for :func:`slope_of_means`.
    exponent
        the exponent the slope should equal.
    tol
        the half-width of the band around ``exponent``.
    """
    slope, se, ci, means = slope_of_means(ms, Y, seed)
    z = max(0.0, abs(slope - exponent) - tol) / se if math.isfinite(se) and se > 0 else 0.0
    p = float(2 * sps.norm.sf(z)) if z > 0 else 1.0
    return StatTest(label=label, params=dict(params), predicted=float(exponent), estimate=slope, stderr=se,
                    trials=int(np.asarray(Y).shape[0]), tol=tol, pvalue=min(1.0, p), target=target, seed=seed, ci=ci,
                    extra=dict(extra or {}, test=f"H0: |slope - {exponent}| <= {tol}", widths=list(map(int, ms)),
                               means=list(map(float, means)), std=float(np.std(Y))))


# ----------------------------------------------------------------------------- figures
def slope_annotation(test: StatTest, label: str) -> dict:
    """A figure's ``slopes`` entry from a slope test of this module: the fitted log-log slope with its 95% CI
    beside the stated exponent, as the test reads it (verify.report.figures prints it next to the data).
    :func:`slope_bound_test` stores -slope; it is turned back here.

    Parameters
    ----------
    test
        a slope test made by this module.
    label
        the name of the series the slope belongs to, in the figure.
    """
    if "slope_ci" in test.extra:   # slope_bound_test: the claim slope >= exponent, stored as -slope <= -exponent
        lo, hi = test.extra["slope_ci"]
        return {"label": label, "fitted": float(test.extra["slope"]), "ci": [float(lo), float(hi)],
                "stated": -float(test.predicted), "stated_text": f">= {-test.predicted:g} - {test.tol:g}"}
    lo, hi = test.ci
    text = (f"<= {test.predicted:g}" + (f" + {test.tol:g}" if test.tol else "") if test.sided == "upper"
            else f"{test.predicted:g} +- {test.tol:g}")
    return {"label": label, "fitted": float(test.estimate), "ci": [float(lo), float(hi)],
            "stated": float(test.predicted), "stated_text": text}
