"""Judge strategies: how each kind of claim is checked.

Every strategy has ``run(claim, ctx) -> Evidence``; the run-wide Holm correction and
the verdict rule live in :mod:`verify.model.evidence`.

=====================  ===============================================================
strategy               used for
=====================  ===============================================================
:class:`Expectation`   an expectation exact at finite size: Monte Carlo mean and CI at
                       every grid point against the predicted value
:class:`Asymptotic`    an n, d -> infinity expectation: never one finite size against
                       the limit.  With an exact finite-size form: Monte Carlo against
                       that form at several sizes plus a symbolic limit check; without
                       one: >= 3 sizes extrapolated in 1/N, with the fit's uncertainty
:class:`ProbabilityBound` a bound that holds with a stated probability: the observed
                       violation frequency against the stated failure probability
                       (exact binomial test, Clopper-Pearson interval)
:class:`PropertySearch` inequalities, bounds, sign and ordering statements on closed
                       forms: hypothesis searches the domain for a violation and
                       shrinks it to a minimal counterexample
:class:`Identity`      symbolic identities and limits: sympy, then mpmath at random
                       high-precision points
:class:`AllOf`         several of the above for one claim
:class:`Custom`        a function returning :class:`Evidence` (limits in a sequence)
=====================  ===============================================================
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import mpmath
import numpy as np
import sympy as sp
import torch

from numerics import NotConverged

from verify.model.claim import DomainError
from verify.model.context import Context, pick
from verify.model.evidence import Check, Evidence, StatTest
from verify.judge.stated import STATED, reads, resolve
from verify.model.stats import extrapolate_inverse_size, mean_estimate, student_q, two_sided_p

Point = dict
Sampler = Callable[[Point, int, torch.Generator, Context], torch.Tensor]


@dataclass(frozen=True)
class Tol:
    """Practical tolerance: |E - predicted| <= max(abs, rel * |predicted|) counts as agreement."""

    rel: float = 0.02
    abs: float = 0.002
    #: floating-point resolution of one simulated value relative to 1 + |predicted|:
    #: added in quadrature to the standard error, so that a zero-variance quantity
    #: computed in float64 (e.g. a noiseless risk that is exactly 0) is not "rejected"
    #: for a rounding error of 1e-15.
    resolution: float = 1e-9

    def of(self, predicted: float) -> float:
        return max(self.abs, self.rel * abs(predicted))


@dataclass(frozen=True)
class Figure:
    """How to draw a check's numbers: x parameter, one curve per group of the others."""

    x: str
    xlabel: str
    ylabel: str
    title: str = ""
    group: tuple[str, ...] = ()
    curve: Callable[[Point], float] | None = None  # theory, evaluated on a fine x grid (STATED: the stated form)
    curve_label: str = "stated"
    extra_curves: tuple[tuple[str, Callable[[Point], float]], ...] = ()
    logy: bool = False
    fine: Sequence[float] | None = None  # x grid of the theory curves
    ylim: tuple[float, float] | None = None
    #: x is discrete (an index k): the theory is evaluated at the simulated x only and drawn as markers
    discrete: bool = False
    #: small multiples: one panel per value of these group parameters (None: the renderer splits a figure
    #: with more than six series on the parameter giving the fewest panels; () keeps one axis)
    panels: tuple[str, ...] | None = None
    #: the source's symbol of a parameter, mathtext without dollars ({"lam": r"\lambda"}); Greek names
    #: (theta, sigma, gamma, ...) need no entry
    symbols: Mapping[str, str] = field(default_factory=dict)
    #: names of a flag's values ({"scaled": {"0": "target norm scaled", "1": "source norm scaled"}})
    values: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: a regeneration of one of the source's figures: keep its layout (up to 3 groups x 3 roles on one axis)
    like_source: bool = False


def label_of(p: Mapping[str, Any]) -> str:
    """A parameter point as the label of its test in the reports, e.g. ``n=5, d=20, sigma=1``."""
    return ", ".join(f"{k}={_fmt(v)}" for k, v in p.items())


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def _points(grid, ctx: Context, claim) -> list[Point]:
    """The grid of a profile, or the user's points validated against the claim's domain."""
    if ctx.at is not None:
        return [claim.domain.validate(p) for p in ctx.at]
    pts = grid(ctx.profile) if callable(grid) else pick(ctx.profile, grid) if isinstance(grid, Mapping) else grid
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
    """
    est = mean_estimate(samples)
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


def _chunk(chunk, params) -> int:
    return int(chunk(params)) if callable(chunk) else int(chunk)


def _progress(total: int, desc: str, ctx: Context):
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, leave=False, disable=not ctx.progress, dynamic_ncols=True)


@dataclass
class Expectation:
    """E[sample] equals ``predicted(point)`` at every point, exactly at finite size."""

    points: Any
    predicted: Callable[[Point], float]
    sampler: Sampler
    tol: Tol = Tol()
    trials: Any = None  # per-profile dict, or f(profile, point[, inst]) -> int; default profile.trials
    target: str = "stated"
    chunk: Any = 2048
    figure: Figure | None = None
    name: str = ""
    vector: str | None = None  # a parameter simulated on shared draws (see simulate_points)
    #: exact variance of one sample, f(point), where our derivations have it (see stat_test)
    variance: Callable[[Point], float] | None = None
    #: optional random instance of a point, ``instance(point, gen, ctx)`` (teachers, inputs, a
    #: pretrained network...), drawn once per point from that point's own seed, as
    #: neural-tangents separates ``init_fn`` from ``kernel_fn``.  With it, the sampler is called
    #: as ``sampler(point, trials, gen, ctx, inst)``, ``predicted(point, inst)`` and
    #: ``variance(point, inst)``, all on the same instance.
    instance: Callable[[Point, torch.Generator, Context], Any] | None = None
    #: nearby alternative forms, name -> f(point[, inst]): the report says at which points the
    #: evidence excludes each (e.g. the stated form without its finite-n term)
    alternatives: Mapping[str, Callable[..., float]] | None = None

    takes_points = True  # the profile's grid, or the user's --at points

    def run(self, claim, ctx: Context) -> Evidence:
        predicted = resolve(self.predicted, claim)   # STATED: the claim's stated sympy form

        def test_of(lab, p, x, seed, *inst):
            t = stat_test(lab, p, predicted(p, *inst), x, self.tol, self.target, seed,
                          variance=None if self.variance is None else self.variance(p, *inst))
            t.alternatives = alternative_values(self.alternatives, p, *inst)
            return t
        return point_tests(self, claim, ctx, test_of, self.vector)


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
    turn each point's samples into a test with ``test_of(label, point, samples, seed)``; a
    training run that did not converge makes its point undecided, never evidence."""
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
                ev.tests.append(test_of(lab, p, x, seed, *inst))
                ev.seeds.append(seed)
            bar.update()
    if strategy.figure is not None:
        ev.figures.append(figure_data(strategy.figure, ev.tests, ctx, claim))
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


@dataclass
class ProbabilityBound:
    """A bound stated to hold with probability at least 1 - delta(point), tested as such.

    ``sampler`` returns, per trial, 1.0 where the bound is violated on that trial's draw
    and 0.0 where it holds (e.g. ``(lhs > rhs).double()``).  At each point the number of
    violations k in N trials is compared with the stated failure probability delta:

    * p-value of H0 "P(violation) <= delta": P(Bin(N, delta) >= k), exact; it enters the
      run-wide Holm correction like every other Monte Carlo test, so a rejection refutes;
    * the 95% Clopper-Pearson interval of P(violation) is reported; the point agrees when
      its upper end is <= delta + tol (one-sided: a bound far from tight is confirmed, a
      tight one needs enough trials to pin its failure rate down).
    """

    points: Any
    delta: Callable[[Point], float]
    sampler: Sampler
    tol: Tol = Tol(rel=0.02, abs=0.002, resolution=0.0)
    trials: Any = None
    target: str = "stated"
    chunk: Any = 2048
    figure: Figure | None = None
    name: str = ""
    #: optional random instance per point, as in :class:`Expectation` (``delta(point, inst)``)
    instance: Callable[[Point, torch.Generator, Context], Any] | None = None

    takes_points = True  # the profile's grid, or the user's --at points

    def run(self, claim, ctx: Context) -> Evidence:
        return point_tests(self, claim, ctx, lambda lab, p, x, seed, *inst: binomial_test(
            lab, p, float(self.delta(p, *inst)), x, self.tol, self.target, seed))


def binomial_test(label, params, delta: float, violations, tol: Tol, target, seed) -> StatTest:
    """Violation indicators (0/1 per trial) against a stated failure probability ``delta``."""
    from scipy import stats as sps

    v = np.asarray(violations, dtype=np.float64)
    if v.size == 0 or not np.all((v == 0) | (v == 1)):
        raise ValueError(f"{label}: a probability-bound sampler must return 0/1 violation indicators")
    if not 0.0 <= delta <= 1.0:
        raise ValueError(f"{label}: the stated failure probability {delta} is not in [0, 1]")
    n, k = int(v.size), int(v.sum())
    phat = k / n
    pvalue = float(sps.binom.sf(k - 1, n, delta)) if k > 0 else 1.0
    ci = sps.binomtest(k, n).proportion_ci(0.95, method="exact")
    return StatTest(label=label, params=dict(params), predicted=delta, estimate=phat,
                    stderr=math.sqrt(max(phat * (1 - phat), 1.0 / n) / n), trials=n, tol=tol.of(delta),
                    pvalue=min(1.0, pvalue), target=target, seed=seed, ci=(float(ci.low), float(ci.high)),
                    sided="upper", extra={"violations": k, "test": "exact binomial, H0: P(violation) <= delta"})


@dataclass
class Asymptotic:
    """A limit n, d -> infinity at fixed ratios, judged without finite-size bias.

    ``points`` are points of the limit parameters, ``sizes`` the sequence of the size
    parameter N, ``finite_params(point, N)`` the finite-size parameters passed to the
    sampler.  If ``finite`` (our exact finite-size form) is given, each size is tested
    against it (target 'derived') and ``limit_checks`` must show symbolically that its
    limit equals the stated form; otherwise the Monte Carlo means are extrapolated in
    1/N and the intercept is tested against the stated limit.
    """

    points: Any
    sizes: Mapping[str, Sequence[int]]
    finite_params: Callable[[Point, int], Point]
    stated: Callable[[Point], float]
    sampler: Sampler
    finite: Callable[[Point], float] | None = None
    limit_checks: Callable[[], list[Check]] | None = None
    tol: Tol = Tol()
    trials: Any = None
    chunk: Any = 2048
    size_name: str = "d"
    figure: Figure | None = None
    name: str = ""
    vector: str | None = None
    #: our own derived limit, tested from the same extrapolation (target 'derived'), when the
    #: claim comes with a corrected form and no exact finite-size form
    derived_limit: Callable[[Point], float] | None = None
    #: nearby alternative limits, name -> f(point), reported as excluded or not (see Expectation)
    alternatives: Mapping[str, Callable[[Point], float]] | None = None

    takes_points = True  # the profile's grid, or the user's --at points

    def run(self, claim, ctx: Context) -> Evidence:
        ev = Evidence()
        pts = _points(self.points, ctx, claim)
        sizes = list(pick(ctx.profile, self.sizes))
        pairs = [(i, N) for i in range(len(pts)) for N in sizes]
        fps = [self.finite_params(pts[i], N) for i, N in pairs]
        rows: dict[int, list[dict]] = {i: [] for i in range(len(pts))}
        failed: set[int] = set()
        with _progress(len(fps), claim.id, ctx) as bar:
            for k, x, seed in simulate_points(self.sampler, fps, ctx, (claim.id, self.name), self.trials,
                                              self.chunk, self.vector):
                i, N = pairs[k]
                fp = fps[k]
                lab = (self.name + ": " if self.name else "") + label_of(fp)
                bar.update()
                if isinstance(x, NotConverged):
                    ev.checks.append(Check(lab, None, f"not converged: {x}", refutes=False))
                    failed.add(i)
                    continue
                est = mean_estimate(x)
                ev.seeds.append(seed)
                rows[i].append({"N": N, "params": fp, "mean": est.mean, "stderr": est.stderr, "trials": est.n})
                if self.finite is not None:
                    ev.tests.append(stat_test(lab, fp, self.finite(fp), x, self.tol, "derived", seed, {"size": N}))
        limits = []
        stated = resolve(self.stated, claim)   # STATED: the claim's stated sympy form
        for i, p in enumerate(pts):
            if i in failed:
                continue
            r = sorted(rows[i], key=lambda row: row["N"])
            limits.append(self._limit(p, r, sizes, ev, stated))
        if self.finite is not None:
            ev.checks += self.limit_checks() if self.limit_checks else [
                Check("limit of the finite-size form", None, "no symbolic limit check was given", refutes=False)]
        ev.details[f"limits{':' + self.name if self.name else ''}"] = limits
        if self.figure is not None:
            ev.figures.append(asymptotic_figure(self.figure, limits, sizes, ctx, self.size_name))
        return ev

    def _limit(self, p: Point, rows: list[dict], sizes, ev: Evidence, stated_fn) -> dict:
        """Extrapolate one point's means in 1/N; test the intercept when no finite form exists."""
        stated = float(stated_fn(p))
        ex = (extrapolate_inverse_size([r["N"] for r in rows], [r["mean"] for r in rows],
                                       [r["stderr"] for r in rows]) if len(rows) >= 3 else None)
        out = {"point": p, "stated": stated, "sizes": rows}
        if ex is not None:
            out.update(extrapolated=ex.intercept, extrapolated_stderr=ex.stderr, gof_p=ex.gof_p)
        if self.finite is not None:
            return out
        lab = (self.name + ": " if self.name else "") + label_of(p) + f", {self.size_name}->inf"
        if ex is None:
            ev.checks.append(Check(lab, None, "fewer than three sizes: cannot extrapolate", refutes=False))
        elif ex.gof_p < 0.01:
            ev.checks.append(Check(lab, None, f"1/N extrapolation model rejected (chi2 p={ex.gof_p:.2g}); "
                                   "larger sizes are needed", refutes=False))
        else:
            q = student_q(0.95, None)
            targets = [("stated", stated)]
            if self.derived_limit is not None:
                out["derived"] = float(self.derived_limit(p))
                targets.append(("derived", out["derived"]))
            for target, value in targets:
                alts = alternative_values(self.alternatives, p) if target == "stated" else {}
                ev.tests.append(StatTest(
                    label=lab + (" (derived)" if target == "derived" else ""), params=dict(p), predicted=value,
                    estimate=ex.intercept, stderr=ex.stderr, trials=sum(r["trials"] for r in rows),
                    tol=self.tol.of(value), pvalue=two_sided_p(ex.intercept, ex.stderr, value), target=target,
                    ci=(ex.intercept - q * ex.stderr, ex.intercept + q * ex.stderr),
                    extra={"sizes": sizes, "gof_p": ex.gof_p, "coeffs": ex.coeffs}, alternatives=alts))
        return out


@dataclass
class PropertySearch:
    """A statement 'for all points of the domain, holds(point)': hypothesis looks for a
    point where it fails and shrinks it to a minimal counterexample.

    By default the points come from the claim's own :class:`~verify.model.claim.Domain`
    (``claim.domain.strategy(bounds)``: closed endpoints tried, open ones excluded, constraints
    as filters), so the search covers exactly the stated domain; ``bounds`` gives a finite search
    range to parameters with an infinite end.  An explicit ``strategy`` (a function returning a
    hypothesis strategy of dicts) is for searches that deliberately go inside or beyond the
    domain.  ``holds`` should evaluate in high precision (mpmath) so that a counterexample is not
    rounding.

    When a counterexample is found, the search also measures how much of the domain fails: ``sweep``
    points drawn uniformly from the domain (:meth:`~verify.model.claim.Domain.uniform`, the same ``bounds`` box;
    per profile by default 200 / 1000 / 4000; 0 turns it off for an expensive predicate) are evaluated, and
    the fraction that fails is recorded with its Clopper-Pearson interval (``extra['domain_draw']``).  Beside
    the shrunk (minimal, often degenerate) counterexample, the *strongest witness* is recorded
    (``extra['witness']``): the failing draw with the largest ``margin`` (a function of the point giving the
    size of the violation in units of the stated value, > 0 where it fails) or, without one, the failing draw
    deepest inside the domain (:meth:`~verify.model.claim.Domain.depth`).  A failure found only at an endpoint or
    an exact tie shows as a zero fraction: a boundary erratum (:mod:`verify.judge.severity`).
    """

    name: str
    strategy: Callable[[], Any] | None = None
    holds: Callable[[Point], bool] | None = None
    show: Callable[[Point], dict] | None = None
    refutes: bool = True
    examples: Mapping[str, int] | None = None
    bounds: Mapping[str, tuple[float, float]] | None = None
    margin: Callable[[Point], float] | None = None
    sweep: Any = None   # points of the uniform draw: an int, a per-profile dict, or None for the default

    SWEEP = {"quick": 200, "standard": 1000, "full": 4000}

    def __post_init__(self) -> None:
        if self.holds is None:
            raise TypeError(f"PropertySearch {self.name!r} needs holds=")

    def run(self, claim, ctx: Context) -> Evidence:
        from hypothesis import HealthCheck, Phase, find, settings
        from hypothesis.errors import NoSuchExample

        n = pick(ctx.profile, self.examples) if self.examples else ctx.profile.examples
        seed = ctx.seed_for(claim.id, self.name)
        st = settings(max_examples=n, database=None, deadline=None, suppress_health_check=list(HealthCheck),
                      phases=tuple(p for p in Phase if p is not Phase.explain))  # explain costs ~4 s, adds nothing here
        points = self.strategy() if self.strategy is not None else claim.domain.strategy(self.bounds)
        try:
            cx = find(points, lambda p: not self.holds(p), settings=st, random=random.Random(seed))
        except NoSuchExample:
            return Evidence(checks=[Check(self.name, True, f"no counterexample in {n} hypothesis examples "
                                          f"over the stated domain", refutes=self.refutes)], seeds=[seed])
        shown = dict(cx)
        if self.show:
            shown.update(self.show(cx))
        extra = {"minimal_depth": claim.domain.depth(cx)} if self.strategy is None else {}
        if self.margin is not None:
            extra["minimal_margin"] = _margin_of(self.margin, cx)
        extra.update(self.domain_draw(claim, ctx))
        return Evidence(checks=[Check(self.name, False, "counterexample " + label_of(shown), refutes=self.refutes,
                                      counterexample={k: _num(v) for k, v in shown.items()}, extra=extra)],
                        seeds=[seed])

    def domain_draw(self, claim, ctx: Context) -> dict:
        """The fraction of a uniform draw over the stated domain that fails, and the strongest witness."""
        from verify.model.stats import clopper_pearson

        if self.strategy is not None:
            return {"domain_draw": {"skipped": "the search uses its own strategy (not the stated domain)"}}
        n = self.sweep if isinstance(self.sweep, int) else pick(ctx.profile, self.sweep or self.SWEEP)
        if not n:
            return {"domain_draw": {"skipped": "turned off by the claim (an expensive predicate)"}}
        seed = ctx.seed_for(claim.id, self.name, "domain draw")
        pts, info = claim.domain.uniform(random.Random(seed), n, self.bounds)
        failed, errors = [], 0
        for p in pts:
            try:
                ok = bool(self.holds(p))
            except Exception:   # a point the predicate cannot evaluate is not counted either way
                errors += 1
                continue
            if not ok:
                failed.append(p)
        m = len(pts) - errors
        lo, hi = clopper_pearson(len(failed), m) if m else (math.nan, math.nan)
        draw = {"n": m, "failed": len(failed), "fraction": len(failed) / m if m else math.nan,
                "ci95": [lo, hi], "box": info["box"], "acceptance": info["acceptance"], "seed": seed,
                "not_evaluable": errors}
        out = {"domain_draw": draw}
        if failed:
            if self.margin is not None:
                scored = [(_margin_of(self.margin, p), claim.domain.depth(p, info["box"]), p) for p in failed]
                best = max(scored, key=lambda r: (r[0] if math.isfinite(r[0]) else -math.inf, r[1]))
            else:
                scored = [(math.nan, claim.domain.depth(p, info["box"]), p) for p in failed]
                best = max(scored, key=lambda r: r[1])
            w = dict(best[2])
            if self.show:
                try:
                    w.update(self.show(best[2]))
                except Exception:
                    pass
            out["witness"] = {"point": {k: _num(v) for k, v in w.items()}, "margin": best[0], "depth": best[1],
                              "how": "largest margin among the failing draws" if self.margin is not None
                              else "the failing draw deepest inside the domain"}
            margins = [r[0] for r in scored if math.isfinite(r[0])]
            if margins:
                draw["largest_margin"] = max(margins)
        return out


def _margin_of(margin, p) -> float:
    try:
        v = float(margin(p))
    except Exception:
        return math.nan
    return v


def _num(v):
    if isinstance(v, (mpmath.mpf, sp.Basic)):
        return float(v)
    return v


def _real_or_str(x):
    """A float for a real mpmath value, its string for a complex one (a side can leave the reals)."""
    return float(x) if not isinstance(x, mpmath.mpc) else mpmath.nstr(x, 12)


@dataclass
class Identity:
    """``lhs == rhs`` as functions of ``variables``: sympy first, then mpmath at random
    points drawn from the given ranges (50 digits)."""

    name: str
    lhs: Any
    rhs: Any
    variables: Mapping[Any, tuple[float, float]]
    refutes: bool = True
    points: int = 24
    dps: int = 50
    rel: float = 1e-25

    def run(self, claim, ctx: Context) -> Evidence:
        lhs = self.lhs() if callable(self.lhs) else self.lhs
        rhs = self.rhs() if callable(self.rhs) else self.rhs
        diff = sp.simplify(sp.sympify(lhs) - sp.sympify(rhs))
        if diff == 0:
            return Evidence(checks=[Check(self.name, True, "sympy simplifies lhs - rhs to 0", refutes=self.refutes,
                                          extra={"lhs": sp.latex(lhs), "rhs": sp.latex(rhs)})])
        syms = list(self.variables)
        f_l = sp.lambdify(syms, lhs, modules="mpmath")
        f_r = sp.lambdify(syms, rhs, modules="mpmath")
        rng = random.Random(ctx.seed_for(claim.id, self.name))
        worst, worst_pt = 0.0, None
        with mpmath.workdps(self.dps):
            for _ in range(self.points):
                pt = {s: mpmath.mpf(rng.uniform(*self.variables[s])) for s in syms}
                a, b = f_l(*pt.values()), f_r(*pt.values())
                err = abs(a - b) / (1 + abs(a))
                if err > worst:
                    worst, worst_pt = err, {str(s): float(v) for s, v in pt.items()} | {"lhs": _real_or_str(a),
                                                                                          "rhs": _real_or_str(b)}
        ok = worst < self.rel
        det = (f"sympy leaves {sp.sstr(diff)[:80]}; mpmath at {self.points} random {self.dps}-digit points: "
               f"max relative difference {float(worst):.3g}")
        return Evidence(checks=[Check(self.name, ok, det, refutes=self.refutes,
                                      counterexample=None if ok else worst_pt,
                                      extra={"lhs": sp.latex(lhs), "rhs": sp.latex(rhs)})])


@dataclass
class FigureSweep:
    """Monte Carlo at a figure's settings, drawn against the theory curves, *not* judged.

    For regenerating a paper's figure at one finite size: comparing that size with an
    asymptotic form would mistake finite-size bias for an erratum, so this produces a
    figure and a table (``details``) but no test.  The verdict comes from the claim's other
    checks.
    """

    points: Any
    sampler: Sampler
    figure: Figure
    trials: Any = None
    chunk: Any = 2048
    name: str = "figure"

    def run(self, claim, ctx: Context) -> Evidence:
        pts = [dict(p) for p in (pick(ctx.profile, self.points) if isinstance(self.points, Mapping) else self.points)]
        rows = []
        with _progress(len(pts), claim.id + " (figure)", ctx) as bar:
            for i, x, seed in simulate_points(self.sampler, pts, ctx, (claim.id, self.name), self.trials,
                                              self.chunk, None):
                bar.update()
                if isinstance(x, NotConverged):
                    continue
                est = mean_estimate(x)
                q = student_q(0.95, est.n - 1)
                rows.append(StatTest(label_of(pts[i]), pts[i], math.nan, est.mean, est.stderr, est.n, 0.0, 1.0,
                                     seed=seed, ci=(est.mean - q * est.stderr, est.mean + q * est.stderr)))
        ev = Evidence(figures=[figure_data(self.figure, rows, ctx)])
        ev.details[self.name] = [{"point": r.params, "mean": r.estimate, "ci": r.ci, "trials": r.trials,
                                  "seed": r.seed} for r in rows]
        ev.seeds += [r.seed for r in rows]
        return ev


@dataclass
class AllOf:
    """Several strategies judging one claim together."""

    parts: Sequence[Any]

    @property
    def takes_points(self) -> bool:
        return any(takes_points(p) for p in self.parts)

    def run(self, claim, ctx: Context) -> Evidence:
        """Under ``--at`` only the parts that take a parameter point run; the point-free ones
        (symbolic checks, fixed constructions) are listed in ``details['not run at --at']``."""
        ev = Evidence()
        skipped = []
        for part in self.parts:
            if ctx.at is not None and not takes_points(part):
                skipped.append(getattr(part, "name", "") or type(part).__name__)
                continue
            ev.extend(part.run(claim, ctx))
        if skipped:
            ev.details["not run at --at"] = skipped
        return ev


def takes_points(check) -> bool:
    """Whether a check evaluates parameter points (the profile's grid or the user's ``--at``)."""
    return bool(getattr(check, "takes_points", False))


@dataclass
class Custom:
    """A function for checks no generic strategy covers (the escape hatch: prefer the others).

    * ``Custom(fn)``: ``fn(claim, ctx) -> Evidence`` for a check that takes no parameter point
      (a symbolic computation, a fixed construction).  Under ``--at`` it raises a one-line
      :class:`DomainError` saying so, instead of silently running its own grid.
    * ``Custom(fn, points=grid)``: the judge resolves the points (the profile's grid, or the
      user's ``--at`` points validated against the claim's domain) and calls
      ``fn(claim, ctx, points) -> Evidence``.
    ``why_no_points`` completes the error message of a point-free check under ``--at``.
    """

    fn: Callable[..., Evidence]
    points: Any = None
    why_no_points: str = ""

    @property
    def takes_points(self) -> bool:
        return self.points is not None

    def run(self, claim, ctx: Context) -> Evidence:
        if self.points is not None:
            return self.fn(claim, ctx, _points(self.points, ctx, claim))
        if ctx.at is not None:
            raise DomainError(f"{claim.id} cannot be evaluated at a user point (--at): "
                              + (self.why_no_points or "its check runs a fixed construction, not a parameter point"))
        return self.fn(claim, ctx)


# --------------------------------------------------------------------------- figures
def _groups(spec: Figure, params_list):
    keys = []
    for p in params_list:
        k = tuple((g, p.get(g)) for g in spec.group)
        if k not in keys:
            keys.append(k)
    return keys


def _figure_dict(spec: Figure, series: list[dict]) -> dict:
    """The figure-level fields of a figure dict (what the renderer of verify.report.figures reads)."""
    out = {"x": spec.x, "xlabel": spec.xlabel, "ylabel": spec.ylabel, "title": spec.title,
           "logy": spec.logy, "ylim": spec.ylim, "series": series}
    if spec.panels is not None:
        out["panels"] = list(spec.panels)
    if spec.symbols:
        out["symbols"] = dict(spec.symbols)
    if spec.values:
        out["values"] = {k: {str(a): b for a, b in v.items()} for k, v in spec.values.items()}
    if spec.like_source:
        out["like_source"] = True
    return out


def _params_json(key) -> dict:
    return {g: (v if isinstance(v, (int, float, str, bool)) or v is None else
                float(v) if isinstance(v, (np.floating, np.integer)) else str(v)) for g, v in key}


def figure_data(spec: Figure, tests: list[StatTest], ctx: Context, claim=None) -> dict:
    """Monte Carlo points with 95% CI bars and theory curves, one per group.  Each series carries its
    ``role`` (what it is: "Monte Carlo", the curve's name) and ``params`` (its group's values), so that the
    renderer can draw small multiples and a legend in the source's notation."""
    series = []
    for key in _groups(spec, [t.params for t in tests]):
        sel = [t for t in tests if all(t.params.get(g) == v for g, v in key)]
        sel.sort(key=lambda t: t.params[spec.x])
        glab = label_of(dict(key))
        series.append({"kind": "points", "label": f"Monte Carlo {glab}".strip(), "group": glab,
                       "role": "Monte Carlo", "params": _params_json(key),
                       "x": [t.params[spec.x] for t in sel], "y": [t.estimate for t in sel],
                       "yerr": [(t.ci[1] - t.ci[0]) / 2 for t in sel]})
        series += _curves(spec, sel[0].params, [t.params[spec.x] for t in sel], glab, claim, key,
                          span=[t.params[spec.x] for t in tests])
    return _figure_dict(spec, series)


def _curves(spec: Figure, base: Point, xs, glab: str, claim=None, key=(), span=None) -> list[dict]:
    """Theory curves of one group on a fine grid: ``spec.fine``, else 200 points over the x range of the whole
    figure (``span``: a group simulated at one x still gets a curve to compare with)."""
    out = []
    lo, hi = (min(span), max(span)) if span and max(span) > min(span) else (min(xs), max(xs))
    grid = (list(xs) if spec.discrete else list(spec.fine) if spec.fine is not None
            else list(np.linspace(lo, hi, 200)))
    curves = ([(spec.curve_label, spec.curve)] if spec.curve else []) + list(spec.extra_curves)
    for k, (name, fn) in enumerate(curves):
        if fn is STATED and claim is None:
            continue
        fn = resolve(fn, claim)
        ys = []
        for x in grid:
            try:
                ys.append(float(fn({**base, spec.x: x})))
            except (ZeroDivisionError, ValueError, OverflowError, DomainError):
                ys.append(math.nan)
            except Exception:   # noqa: BLE001 - beyond the group's own x range a curve may not be defined
                if min(xs) <= x <= max(xs):
                    raise
                ys.append(math.nan)
        out.append({"kind": "line", "label": f"{name} {glab}".strip(), "group": glab, "role": name,
                    "params": _params_json(key), "x": grid, "y": ys,
                    "dash": k > 0, **({"markers": True} if spec.discrete else {})})
    return out


def asymptotic_figure(spec: Figure, limits: list[dict], sizes, ctx: Context, size_name: str) -> dict:
    """Largest-size Monte Carlo means and the 1/N extrapolation against the stated limit."""
    series = []
    for key in _groups(spec, [r["point"] for r in limits]):
        sel = [r for r in limits if all(r["point"].get(g) == v for g, v in key)]
        sel.sort(key=lambda r: r["point"][spec.x])
        glab = label_of(dict(key))
        xs = [r["point"][spec.x] for r in sel]
        big = [r["sizes"][-1] for r in sel]
        mc = f"Monte Carlo {size_name}={sizes[-1]}"
        series.append({"kind": "points", "label": f"{mc} {glab}".strip(), "group": glab, "role": mc,
                       "params": _params_json(key),
                       "x": xs, "y": [b["mean"] for b in big], "yerr": [1.96 * b["stderr"] for b in big]})
        if all("extrapolated" in r for r in sel):
            ex = f"extrapolated {size_name}->inf"
            series.append({"kind": "points", "label": f"{ex} {glab}".strip(), "group": glab, "role": ex,
                           "params": _params_json(key), "marker": "s", "x": xs, "y": [r["extrapolated"] for r in sel],
                           "yerr": [1.96 * r["extrapolated_stderr"] for r in sel]})
        series += _curves(spec, sel[0]["point"], xs, glab, key=key)
    return _figure_dict(spec, series)
