"""Orders and rates along every parameter they name (issue 36): :class:`Rate`.

A claim "Q = O(d k^2)" or "T = Theta~(d)" names several parameters; checking the exponent of one of them (the
others held at one value) cannot see a wrong exponent of the rest.  :class:`Rate` takes the stated expression's
exponents per parameter (a dict ``{"d": 1, "k": 2}`` or a sympy monomial ``d*k**2*log(d)**2``, whose logarithms
become an allowance: ``d log^j d`` has the log-log slope ``1 + j s`` over a finite range, :func:`log_allowance`),
sweeps EACH named parameter over its range with the others held at several values, and estimates its exponent with
a bootstrap interval (the slope tests of :mod:`verify.judge.orders`, never a copy of them):

* ``bound="upper"`` (an O(.) statement): :func:`~verify.judge.orders.slope_upper_test`, the claim 'slope <=
  stated exponent + allowance + tol';
* ``bound="theta"`` (a Theta(.) statement): :func:`~verify.judge.orders.slope_band_test`, 'slope within stated
  +- tol'.

A parameter the expression names but the claim cannot vary must be declared with its reason in ``fixed``
(``fixed={"k": "the theorem fixes k"}``); tests/test_rates.py fails for any registered claim whose Rate leaves a
named parameter neither swept nor declared.  The sampler returns one value per trial and sweep point; a value that
is not finite (a run censored at its budget, outside the regime the statement is about) leaves that sweep
undecided, with ``regime`` saying what would reach it, never a confirmation (its check carries the sweep's point in
``extra['params']``, as a test would, so :class:`~verify.judge.open_settings.OverOpenSetting` counts that value of an
open setting as run and not decided).  The evidence's
``details['exponents']`` lists, per parameter and held point, the estimated exponent, its interval and the stated
one, which the report prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np
import sympy as sp

from verify.model.context import Context, pick
from verify.model.evidence import Check, Evidence, StatTest
from verify.judge.base import label_of
from verify.judge.orders import slope_band_test, slope_upper_test

__all__ = ["Rate", "log_allowance", "stated_exponents", "unswept"]

#: ``sampler(points, trials, gen, ctx) -> array (trials, len(points))``: one row per trial over the sweep's points
#: (common random numbers across the row where the sampler can; the bootstrap resamples whole rows, valid for paired
#: and for independent columns alike); a non-finite entry marks a trial that did not reach the regime (censored)
SweepSampler = Callable[[list, int, Any, Context], Any]


def log_allowance(xs, power: int) -> float:
    """The extra log-log slope a factor log(x)^power adds to x^p over the values ``xs`` (least squares, the fit the
    slope tests use): power * slope of log log x on log x.  x in [32, 128]: 0.243 per power; [64, 256]: 0.208."""
    if not power:
        return 0.0
    x = np.log(np.asarray(xs, float))
    return float(power * np.polyfit(x, np.log(x), 1)[0])


def stated_exponents(expr) -> tuple[dict, dict]:
    """(exponent per parameter, power of its logarithm per parameter) of a stated order: a dict name -> exponent,
    or a sympy monomial such as ``d*k**2*log(d)**2`` (constants ignored: an order has no constant).  Anything else
    (a sum, a log of a product) is not one order and is refused with the term that is not."""
    if isinstance(expr, Mapping):
        return {str(k): float(v) for k, v in expr.items()}, {}
    exps, logs = {}, {}
    for base, power in sp.sympify(expr).as_powers_dict().items():
        if base.is_number:
            continue
        if base.is_Symbol and power.is_number:
            exps[str(base)] = float(power)
        elif base.func == sp.log and base.args[0].is_Symbol and power.is_Integer:
            logs[str(base.args[0])] = int(power)
        else:
            raise ValueError(f"stated order {expr}: the factor {base}**{power} is not a power of one parameter or of "
                             f"its logarithm (a Rate needs a monomial)")
    for name in logs:
        exps.setdefault(name, 0.0)
    return exps, logs


def _pick(profile, value):
    """A per-profile setting ({'quick': .., 'standard': ..}) or one value for every profile."""
    return pick(profile, value) if isinstance(value, Mapping) else value


def unswept(rate: "Rate") -> list[str]:
    """The parameters the stated expression names that the rate neither sweeps nor declares fixed with a reason."""
    exps, _ = stated_exponents(rate.exponents)
    return sorted(n for n in exps if n not in rate.sweeps and not str(rate.fixed.get(n, "")).strip())


@dataclass
class Rate:
    """The stated order's exponent of every parameter it names, each swept with the others held at several values.

    ``sweeps``: parameter -> its values (a list, or per profile); ``held``: parameter -> the points (dicts of the
    other parameters) at which its sweep is run, several where the statement is uniform in them; ``fixed``:
    parameter -> why it is not swept.  ``logs`` adds powers of log (O~) to the expression's own.

    Parameters
    ----------
    exponents
        the stated exponents: a dict (``{"d": 1, "k": 2}``) or a sympy monomial (``d*k**2*log(d)**2``).
    sweeps
        parameter -> its values (a list, or per profile).
    held
        parameter -> the points (dicts of the other parameters) at which its sweep is run.
    sampler
        ``sampler(points, trials, gen, ctx) -> array (trials, len(points))``: one row per trial over a sweep.
    fixed
        parameter -> why it is not swept.
    logs
        parameter -> powers of log added to the expression's own (an O~ statement).
    bound
        ``'upper'`` (an O(.) statement: slope at most the stated exponent) or ``'theta'`` (a Theta(.) statement).
    tol
        the slope tolerance, one for every parameter or per parameter (``{"d": 0.0, "k": 0.25}``).
    trials
        trials (rows) per sweep point, a number or per profile.
    target
        ``'stated'`` (a rejection refutes) or ``'derived'``.
    regime
        what would bring an undecided sweep into its regime (the inconclusive note).
    name
        prefix of the test labels (and of the seeds' keys).
    quantity
        the quantity measured, for labels.
    label
        what this Rate's sweeps are of, where a claim joins several Rates (:class:`verify.kit.AllOf` keeps one value
        per ``details`` key): its rows go to ``details['exponents: <label>']`` instead of ``details['exponents']``.
    """

    exponents: Any
    sweeps: Mapping[str, Any]
    held: Mapping[str, Any]
    sampler: SweepSampler
    fixed: Mapping[str, str] = field(default_factory=dict)
    logs: Mapping[str, int] = field(default_factory=dict)
    bound: str = "upper"
    #: the slope tolerance, one for every parameter or per parameter ({"d": 0.0, "k": 0.25})
    tol: Any = 0.25
    trials: Any = 32
    target: str = "stated"
    #: what would bring an undecided sweep into the regime (a larger budget, larger sizes): the inconclusive note
    regime: str = ""
    name: str = "rate"
    #: the quantity measured, for labels ("iterations to m >= 1/2 in units of C/lambda^2")
    quantity: str = "Q"
    #: the details key's suffix where a claim joins several Rates ('exponents: <label>'; '' : 'exponents')
    label: str = ""

    def __post_init__(self):
        if self.bound not in ("upper", "theta"):
            raise ValueError(f"Rate.bound={self.bound!r}: 'upper' (an O(.) statement) or 'theta' (Theta(.))")

    def run(self, claim, ctx: Context) -> Evidence:
        exps, logs = stated_exponents(self.exponents)
        logs = {**logs, **dict(self.logs)}
        ev = Evidence()
        rows = []
        for name in sorted(exps):
            if name not in self.sweeps:
                why = str(self.fixed.get(name, "")).strip()
                rows.append({"parameter": name, "stated": exps[name], "swept": False, "why not": why or None})
                if not why:
                    ev.checks.append(Check(f"exponent of {name}", None, f"{name} is named by the stated order but "
                                           f"neither swept nor declared fixed with a reason", refutes=False))
                continue
            xs = [float(x) for x in _pick(ctx.profile, self.sweeps[name])]
            trials = int(_pick(ctx.profile, self.trials))
            for h in _pick(ctx.profile, self.held.get(name, [{}])):
                t = self._sweep(claim, ctx, name, xs, dict(h), exps[name], logs.get(name, 0), trials)
                (ev.checks if isinstance(t, Check) else ev.tests).append(t)
                ev.seeds.append(t.extra["seed"] if isinstance(t, Check) else t.seed)
                rows.append({"parameter": name, "held": dict(h), "values": xs, "estimated": t.extra["exponent"],
                             "ci": list(t.extra["exponent_ci"]), "stated": exps[name], "bound": t.extra["tested"],
                             "reached the regime": not isinstance(t, Check)})
        ev.details[f"exponents: {self.label}" if self.label else "exponents"] = rows
        return ev

    def _sweep(self, claim, ctx, name, xs, held, stated, log_power, trials) -> StatTest | Check:
        """One parameter's sweep at one held point: its slope test, or (some run not in the regime) an undecided
        check saying what would reach it, so the verdict's reason is that sentence."""
        pts = [dict(held, **{name: x}) for x in xs]
        gen, seed = ctx.generator(claim.id, self.name, name, label_of(held))
        Y = np.asarray(self.sampler(pts, trials, gen, ctx), dtype=np.float64)
        if Y.shape != (trials, len(xs)):
            raise ValueError(f"{claim.id}: the sampler of {name} returned shape {Y.shape}, not {(trials, len(xs))}")
        allow = log_allowance(xs, log_power)
        tol = float(self.tol.get(name, 0.25) if isinstance(self.tol, Mapping) else self.tol)
        bound = stated + allow
        lab = (f"exponent of {name} of {self.quantity} over {name} in [{xs[0]:g}, {xs[-1]:g}]"
               + (f" at {label_of(held)}" if held else ""))
        params = dict(held, **{name: f"{xs[0]:g}..{xs[-1]:g}"})
        info = {"parameter": name, "stated_exponent": stated, "log_power": log_power, "log_allowance": allow}
        reached = np.isfinite(Y) & (Y > 0)
        if not reached.all():
            frac = {f"{x:g}": float(1 - reached[:, j].mean()) for j, x in enumerate(xs)}
            why = (f"{1 - reached.mean():.0%} of the runs did not reach the regime (per {name}: {frac})"
                   + (f"; {self.regime}" if self.regime else ""))
            # the sweep's point (params, as its slope test would carry it): a check over an open setting
            # (verify.kit.OverOpenSetting) counts this value as run and not decided
            return Check(lab, None, why, refutes=False,
                         extra=dict(info, seed=seed, exponent=math.nan, exponent_ci=(-math.inf, math.inf), tested=bound,
                                    params=params))
        if self.bound == "upper":
            t = slope_upper_test(lab + f": <= {stated:g}" + (f" + {allow:.3f} (log^{log_power})" if allow else ""),
                                 params, xs, Y, bound, seed, tol=tol, target=self.target, extra=info)
            t.alternatives = {f"order {stated + 1:g}": stated + 1.0 + allow}
        else:
            t = slope_band_test(lab + f": {stated:g} +- {tol:g}", params, xs, Y, bound, seed, tol=tol,
                                target=self.target, extra=info)
            t.alternatives = {f"order {stated - 1:g}": stated - 1.0, f"order {stated + 1:g}": stated + 1.0}
        t.extra.update(test=t.extra["test"].replace("in m, bootstrap over networks", f"in {name}, bootstrap over "
                                                    f"trials").replace("widths", name),
                       exponent=float(t.estimate), exponent_ci=tuple(map(float, t.ci)), tested=bound,
                       **{name: xs})
        t.extra.pop("widths", None)
        return t
