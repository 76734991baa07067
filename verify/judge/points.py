"""Monte Carlo at grid points: what every simulating strategy shares.

A claim's grid (or the user's ``--at`` points) resolved for the profile, the literal procedure sampled in chunks
on the point's own seeded stream, and one :class:`~verify.model.evidence.StatTest` per point (mean, CI, p-value)
against the predicted value with a practical tolerance (:class:`Tol`).
"""
from __future__ import annotations

import math
import random
from typing import Mapping
import numpy as np
import torch
from numerics import NotConverged
from verify.model.claim import DomainError
from verify.model.context import Context, pick
from verify.model.evidence import CORRECTED, INFINITE_VARIANCE, Check, Evidence, StatTest
from verify.judge.stated import reads
from verify.model.stats import hill_tail_index, mean_estimate, student_q, two_sided_p
from verify.judge.base import Point, Sampler, Tol, label_of
from verify.judge.figures import figure_data

def _points(grid, ctx: Context, claim) -> list[Point]:
    """The grid of a profile, or the user's points validated against the claim's domain."""
    if ctx.at is not None:
        return [claim.domain.validate(p) for p in ctx.at]
    return _grid(grid, ctx.profile)


def _grid(grid, profile) -> list[Point]:
    """A grid declaration (a list of points, a per-profile dict of lists, or ``f(profile)``) at one profile."""
    pts = grid(profile) if callable(grid) else pick(profile, grid) if isinstance(grid, Mapping) else grid
    return [dict(p) for p in pts]


def monte_carlo(sampler: Sampler, params: Point, trials: int, ctx: Context, keys: tuple, chunk: int) -> tuple[np.ndarray, int]:
    """Per-trial samples from ``sampler`` in chunks, from one seeded generator (memoised when ``ctx.memo`` is set:
    the same keys, trials, chunk, sampler code and point give the same draws, so they are reused)."""
    base = getattr(sampler, "__wrapped__", sampler)   # the strategy's own sampler inside a per-instance wrapper
    if ctx.memo is not None and not _keeps_state(base):
        code = getattr(base, "__code__", None) or type(base)
        mkey = (ctx.seed, keys, trials, chunk, code, repr(sorted(params.items(), key=lambda kv: kv[0])))
        if mkey in ctx.memo:
            ctx.draws += 1
            hit = ctx.memo[mkey]
            if isinstance(hit, NotConverged):
                raise hit
            return hit
        with reads() as rec:   # draws that read the stated form depend on it: never memoised
            try:
                val = _monte_carlo(sampler, params, trials, ctx, keys, chunk)
            except NotConverged as e:
                if not rec.ids:
                    ctx.memo[mkey] = e
                raise
        if not rec.ids:
            ctx.memo[mkey] = val
        return val
    return _monte_carlo(sampler, params, trials, ctx, keys, chunk)


def _keeps_state(sampler) -> bool:
    """Whether a sampler closes over a mutable container (it records something as it draws, e.g. the steps a
    training run took): its draws are then never memoised, so the record is made on every run."""
    cells = getattr(sampler, "__closure__", None) or ()
    return any(isinstance(c.cell_contents, (dict, list, set)) for c in cells if c.cell_contents is not None)


def _monte_carlo(sampler, params, trials, ctx, keys, chunk):
    gen, seed = ctx.generator(*keys)
    out, done = [], 0
    while done < trials:
        m = min(chunk, trials - done)
        out.append(sampler(params, m, gen, ctx).detach().to("cpu", torch.float64).numpy())
        done += m
    return np.concatenate(out), seed


def _trials(spec, profile, point, inst: tuple = ()) -> int:
    """Trials for a point: the profile default, a number, a per-profile dict, or a function
    ``f(profile, point)``; a check with an ``instance`` may give ``f(profile, point, inst)``, which sizes the
    trials from the drawn instance (its prediction, or a pilot's variance drawn apart from the trials: a
    two-stage design, whose sample mean and interval stay those of a fixed count)."""
    if spec is None:
        return profile.trials
    if isinstance(spec, (int, float)):
        return int(spec)
    if callable(spec):
        return int(spec(profile, point, *inst) if inst and _takes_instance(spec) else spec(profile, point))
    return int(pick(profile, spec))


def _takes_instance(f) -> bool:
    """Whether a trials function accepts a third argument (the point's instance)."""
    import inspect

    try:
        inspect.signature(f).bind(None, None, None)
        return True
    except TypeError:
        return False
    except ValueError:     # no signature (a builtin): the two-argument form
        return False


def simulate_points(sampler: Sampler, fps: list[Point], ctx: Context, keys: tuple, trials, chunk,
                    vector: str | None):
    """Monte Carlo samples for each finite point.

    Points that differ only in the parameter ``vector`` are simulated on the same draws
    (common random numbers): the sampler then receives that parameter as a list and
    returns one column per value.  Yields ``(index, samples | NotConverged, seed)``.
    """
    groups: dict[tuple, list[int]] = {}
    for i, fp in enumerate(fps):
        groups.setdefault(tuple((k, v) for k, v in fp.items() if k != vector), []).append(i)
    for key, idxs in groups.items():
        base = dict(key)
        if vector is not None:
            base[vector] = [fps[i][vector] for i in idxs]
        try:
            x, seed = monte_carlo(sampler, base, _trials(trials, ctx.profile, dict(key)), ctx,
                                  keys + (label_of(dict(key)),), _chunk(chunk, dict(key)))
        except NotConverged as e:
            for i in idxs:
                yield i, e, None
            continue
        for j, i in enumerate(idxs):
            yield i, (x[:, j] if vector is not None else x), seed


def stat_test(label, params, predicted, samples, tol: Tol, target, seed, extra=None,
              margin: bool = False, variance: float | None = None) -> StatTest:
    """A Monte Carlo test of ``predicted`` from per-trial samples (95% CI, t-test).

    ``variance`` (optional) is the exact variance of one sample from our derivations.  The
    standard error is then the larger of the sample one and the exact one: where the samples
    are heavy-tailed (infinite fourth moment), the sample standard deviation is usually an
    underestimate, low precisely when the mean is low, and the t-test is anti-conservative in
    its far tail.  The larger of the two can only make the test more cautious.

    ``margin=True`` is for limits reached only approximately by a finite simulation (e.g. an
    alpha -> 0 end state simulated at alpha = 1e-3): the null hypothesis is then
    E <= predicted + tol (one-sided), so only a value significantly beyond the tolerance
    rejects, never an O(alpha^2) remainder.

    Without an exact ``variance``, the tail of the samples is checked (:func:`variance_tail`): where it looks
    too heavy for a finite variance, ``extra`` says so, and the run leaves the test undecided (its interval and
    p-value assume a finite variance: :func:`verify.model.evidence.finalize`) with no number of trials advised.

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
    predicted
        the predicted value of E[sample].
    samples
        the per-trial values (a 1-D array).
    tol
        the practical tolerance (:class:`Tol`).
    margin
        True: a one-sided test of E <= predicted + tol (a limit reached only approximately).
    variance
        the exact variance of one sample, where known.
    """
    est = mean_estimate(samples)
    if variance is None and (tail := variance_tail(samples)) is not None:
        extra = dict(extra or {}, **{INFINITE_VARIANCE: tail})
    se_sample = est.stderr
    if variance is not None:
        se_exact = math.sqrt(variance / est.n)
        extra = dict(extra or {}, se_sample=se_sample, se_exact=se_exact)
        se_sample = max(se_sample, se_exact)
    se = math.hypot(se_sample, tol.resolution * (1 + abs(predicted)))
    if margin:
        from scipy import stats as sps

        extra = dict(extra or {}, one_sided=True)
        p = float(sps.t.sf((est.mean - predicted - tol.of(predicted)) / se, est.n - 1))
    else:
        p = two_sided_p(est.mean, se, predicted, df=est.n - 1)
    q = student_q(0.95, est.n - 1)
    return StatTest(label=label, params=dict(params), predicted=float(predicted), estimate=est.mean,
                    stderr=se, trials=est.n, tol=tol.of(predicted), pvalue=p, target=target,
                    seed=seed, df=est.n - 1, ci=(est.mean - q * se, est.mean + q * se),
                    extra=dict(extra or {}, std=est.std))


def variance_tail(samples, least: int = 200) -> dict | None:
    """Hill's tail index of |samples|, when its 95 % upper end is below 2 (the per-trial variance looks infinite:
    the sample variance does not settle, and a standard error from it does not shrink as 1/sqrt(N)); None
    otherwise, or with fewer than ``least`` samples.  Conservative: a light tail (normal, exponential, chi-square)
    gives an index far above 2, a constant offset makes the index look larger (lighter), and only the upper end of
    the interval is compared."""
    x = np.asarray(samples, dtype=np.float64).ravel()
    if x.size < least:
        return None
    t = hill_tail_index(x)
    if t is None or not t.ci[1] < 2.0:
        return None
    return {"alpha": round(t.alpha, 4), "upper": round(t.ci[1], 4), "k": t.k}


def _chunk(chunk, params) -> int:
    return int(chunk(params)) if callable(chunk) else int(chunk)


def _progress(total: int, desc: str, ctx: Context):
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, leave=False, disable=not ctx.progress, dynamic_ncols=True)


def alternative_values(alternatives, p: Point, *inst) -> dict:
    """Values of a check's declared alternative forms at one point (None where undefined)."""
    out = {}
    for name, f in (alternatives or {}).items():
        try:
            out[name] = float(f(p, *inst))
        except (ZeroDivisionError, ValueError, OverflowError, DomainError):
            out[name] = None
    return out


def point_tests(strategy, claim, ctx: Context, test_of, vector: str | None = None) -> Evidence:
    """Simulate every point of ``strategy`` (points, sampler, trials, chunk, name, figure) and
    turn each point's samples into a test (or a list of tests on the same samples) with
    ``test_of(label, point, samples, seed)``; a
    training run that did not converge makes its point undecided, never evidence.

    Parameters
    ----------
    strategy
        the strategy whose points, sampler, trials, chunk, name, figure (and optional instance) are used.
    claim
        the claim being judged (its id keys the seeds; its domain validates ``--at`` points).
    ctx
        the run's :class:`Context` (profile, seeds, device, user points).
    test_of
        ``test_of(label, point, samples, seed[, inst]) -> StatTest`` (or a list of tests on the same samples).
    vector
        a parameter simulated on shared draws (the sampler gets its values as a list).
    """
    ev = Evidence()
    pts = _points(strategy.points, ctx, claim)
    make = getattr(strategy, "instance", None)
    if make is not None and vector is not None:
        raise ValueError(f"{claim.id}: an Expectation with instance= cannot also share draws over vector=")
    with _progress(len(pts), claim.id, ctx) as bar:
        if make is None:
            runs = simulate_points(strategy.sampler, pts, ctx, (claim.id, strategy.name), strategy.trials,
                                   strategy.chunk, vector)
            runs = ((i, x, seed, ()) for i, x, seed in runs)
        else:
            runs = _instance_runs(strategy, make, pts, ctx, claim)
        for i, x, seed, inst in runs:
            p = pts[i]
            lab = (strategy.name + ": " if strategy.name else "") + label_of(p)
            if isinstance(x, NotConverged):
                ev.checks.append(Check(lab, None, f"not converged: {x}", refutes=False))
            else:
                made = test_of(lab, p, x, seed, *inst)   # one test, or a list (the stated and a corrected form)
                ev.tests += made if isinstance(made, list) else [made]
                ev.seeds.append(seed)
            bar.update()
    if strategy.figure is not None:
        ev.figures.append(figure_data(strategy.figure, [t for t in ev.tests if t.target != CORRECTED], ctx, claim))
    return ev


def _instance_runs(strategy, make, pts: list[Point], ctx: Context, claim):
    """Per point: draw the instance from the point's own seed, then the trials from another."""
    for i, p in enumerate(pts):
        gen_i, _ = ctx.generator(claim.id, strategy.name, "instance", label_of(p))
        inst = make(p, gen_i, ctx)
        sampler = lambda q, m, g, c, _inst=inst: strategy.sampler(q, m, g, c, _inst)  # noqa: E731
        sampler.__wrapped__ = strategy.sampler   # what the memo of Monte Carlo draws keys on (monte_carlo)
        try:
            x, seed = monte_carlo(sampler, p, _trials(strategy.trials, ctx.profile, p, (inst,)), ctx,
                                  (claim.id, strategy.name, label_of(p)), _chunk(strategy.chunk, p))
        except NotConverged as e:
            yield i, e, None, (inst,)
            continue
        yield i, x, seed, (inst,)
