"""Asymptotic expectations (n, d -> infinity): never one finite size against the limit.

With an exact finite-size form: Monte Carlo against that form at several sizes plus a symbolic limit check;
without one: >= 3 sizes extrapolated in 1/N, with the fit's uncertainty and a goodness-of-fit check.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence
from numerics import NotConverged
from verify.model.context import Context, pick
from verify.model.evidence import Check, Evidence, StatTest
from verify.judge.stated import STATED, resolve
from verify.model.stats import extrapolate_inverse_size, mean_estimate, student_q, two_sided_p
from verify.judge.base import Point, Sampler, Tol, label_of, takes_points
from verify.judge.expectation import Expectation
from verify.judge.figures import Figure, asymptotic_figure
from verify.judge.points import _points, _progress, alternative_values, simulate_points, stat_test

@dataclass
class Asymptotic:
    """A limit n, d -> infinity at fixed ratios, judged without finite-size bias.

    ``points`` are points of the limit parameters, ``sizes`` the sequence of the size
    parameter N, ``finite_params(point, N)`` the finite-size parameters passed to the
    sampler.  If ``finite`` (our exact finite-size form) is given, each size is tested
    against it (target 'derived') and ``limit_checks`` must show symbolically that its
    limit equals the stated form; otherwise the Monte Carlo means are extrapolated in
    1/N and the intercept is tested against the stated limit.

    Parameters
    ----------
    points
        points of the limit parameters (fixed ratios), a grid as for :class:`Expectation`.
    sizes
        the size parameter's values N, per profile (``{"quick": [...], ...}``).
    finite_params
        ``finite_params(point, N) -> point``: the finite-size parameters the sampler is called with.
    stated
        the stated limit, ``f(point)`` or :data:`STATED`.
    sampler
        ``sampler(finite_point, trials, gen, ctx) -> tensor (trials,)``, drawn from the seeded ``gen``.
    finite
        our exact finite-size form ``f(finite_point)``, tested at each size (target 'derived'); None: extrapolate.
    limit_checks
        ``limit_checks() -> list[Check]``: the symbolic checks that ``finite`` tends to the stated limit.
    tol
        the practical tolerance (:class:`Tol`).
    trials
        trials per point and size (None: the profile's; a number, a per-profile dict or a function).
    chunk
        trials per sampler call, a number or ``f(point)``.
    size_name
        the name of the size parameter in labels (``"d"``).
    figure
        an optional :class:`Figure`.
    name
        prefix of the test labels (and of the seeds' keys).
    vector
        a parameter simulated on shared draws, as for :class:`Expectation`.
    derived_limit
        our own derived limit ``f(point)``, tested from the same extrapolation (target 'derived').
    alternatives
        nearby alternative limits, name -> ``f(point)``, reported as excluded or not.
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
