"""Shared pieces of the text and rate claims of 001 (no claims here).

* exact trigonometry at the closed endpoints theta = 0, pi/2 of Assumption 3.2;
* the closed forms (10), (13), (15), (17) in mpmath from their derivations modules;
* the per-point Monte Carlo ordering check :func:`mc_ordering` (E[diff] > 0 with verify.kit.ordering_test:
  confirmed only when the whole 95% CI lies above 0, refuted when the mean is significantly below 0);
  the log-log slope tests of stated orders are verify.kit's slope_test_paired / slope_test_means /
  slope_bound_test.
"""
from __future__ import annotations

import math

import mpmath

from derivations import transfer as T
from numerics.teacher_transfer import pretrain_with_init
from derivations import wishart as W
from verify.kit import Constraint, Evidence, Param, Source, label_of, ordering_test, pick

HALF_PI = math.pi / 2
PI = math.pi


def prec(*xs, base: int = 50):
    """An mpmath working-precision context that resolves every given float next to 1: 50 digits plus
    the decimal exponent of the smallest nonzero |x| (gamma = 5e-324 next to 1 - gamma needs 374)."""
    small = [abs(float(x)) for x in xs if x and abs(float(x)) < 1]
    extra = int(-math.log10(min(small))) + 5 if small else 0
    return mpmath.workdps(base + extra)


def trig(theta):
    """(cos theta, sin theta) in mpmath, exact at the float endpoints 0 and pi/2."""
    if theta == HALF_PI:
        return mpmath.mpf(0), mpmath.mpf(1)
    if theta == 0:
        return mpmath.mpf(1), mpmath.mpf(0)
    th = mpmath.mpf(theta)
    return mpmath.cos(th), mpmath.sin(th)


def T_lt(gamma, theta, sigma):
    """Eq. (13) in mpmath (derivations.transfer.transferability_mp), exact trig at the endpoints."""
    c, s = trig(theta)
    return T.transferability_mp(gamma, c, s, sigma)


def R_sc(gamma, sigma):
    """Eq. (10) in mpmath (same branches as derivations.wishart.scratch_risk_stated)."""
    g, s = mpmath.mpf(gamma), mpmath.mpf(sigma)
    if g < 1:
        return ((1 - g) ** 2 + g * s ** 2) / (1 - g)
    if g > 1:
        return s ** 2 / (g - 1)
    raise ValueError("eq. (10) diverges at gamma = 1")


def R_ridge_limit(lam, theta):
    """Eq. (15) in mpmath, exact trig at the endpoints."""
    c, _ = trig(theta)
    lam = mpmath.mpf(lam)
    return 1 - c ** 2 * (1 + 2 * lam) / (1 + lam) ** 2


def T_ft_stated(gamma, theta):
    """Eq. (17): (gamma - 1)(1 - 2 cos theta) for gamma <= 1, 0 for gamma > 1."""
    c, _ = trig(theta)
    g = mpmath.mpf(gamma)
    return (g - 1) * (1 - 2 * c) if g <= 1 else mpmath.mpf(0)


def check_forms_pinned() -> bool:
    """R_sc here equals derivations.wishart.scratch_risk_stated_value (spot check, used by tests)."""
    return all(abs(float(R_sc(g, s)) - W.scratch_risk_stated_value(g, s)) < 1e-12
               for g in (0.3, 0.7, 1.5, 3.0) for s in (0.0, 0.4, 2.0))


# ----------------------------------------------------------------------------- shared pretraining

_PRETRAINED: dict = {}

#: the alpha grid, sizes and depths of the pretraining shared by the rate claims and the order-of-limits
#: claims (one pretraining per (d, L, B, alpha) and run seed, drawn from keys that do not name a claim,
#: so every claim that uses it sees the same networks whichever claims are selected)
PRE_ALPHAS = {"quick": (1e-1, 10 ** -1.5, 1e-2), "standard": (1e-1, 10 ** -1.5, 1e-2, 10 ** -2.5),
              "full": (1e-1, 10 ** -1.5, 1e-2, 10 ** -2.5, 1e-3)}
PRE_DEPTHS = {"quick": (2,), "standard": (2, 3), "full": (2, 3, 4)}
PRE_TRIALS = {"quick": 6, "standard": 12, "full": 32}
PRE_D = 10


def pretrained(ctx, d: int, L: int, alpha: float, B: int):
    """(beta_s, Wbar, TrainResult, seed) of the shared pretraining at (d, L, alpha, B).

    The generator is seeded from ("tahir2024.pretrain", d, L, B) only, so every alpha starts from the
    same beta_s and Wbar (common random numbers for slopes in alpha)."""
    key_label = f"d={d}, L={L}, B={B}"
    seed = ctx.seed_for("tahir2024.pretrain", key_label)
    key = (seed, d, L, B, float(alpha), str(ctx.device), str(ctx.dtype))
    if key not in _PRETRAINED:
        gen, _ = ctx.generator("tahir2024.pretrain", key_label)
        _PRETRAINED[key] = pretrain_with_init(B, d, L, alpha, gen, dtype=ctx.dtype) + (seed,)
    return _PRETRAINED[key]


# ----------------------------------------------------------------------------- shared declarations of the text claims

INF = math.inf
DPS = 50
ASSUME = ("Assumption 3.1 (x ~ N(0, I_d), n i.i.d. target samples, Gaussian label noise sigma >= 0), Assumption 3.2 "
          "(unit teachers at angle theta in [0, pi/2]); pretraining with alpha -> 0 (Thm 3.4); transferability (7) "
          "in the limit n, d -> oo at gamma = n/d, eq. (13) (linear transfer) and (17) (fine-tuning).")


def src(where: str) -> Source:
    return Source("tahir2024", where)


P_GAMMA = Param("gamma", 0, INF, lower_open=True, doc="gamma = n/d > 0")
P_SIGMA = Param("sigma", 0, INF, doc="label-noise standard deviation, sigma >= 0")
P_THETA = Param("theta", 0, HALF_PI, doc="source-target angle, Assumption 3.2")
NOT_ONE = Constraint(lambda p: p["gamma"] != 1, "gamma = 1: the scratch risk (10) diverges")
EX = {"quick": 60, "standard": 500, "full": 5000}          # hypothesis examples per search
EX_SLOW = {"quick": 20, "standard": 150, "full": 1000}        # searches whose every example costs more
MC_TRIALS = {"quick": 1000, "standard": 4000, "full": 20000}


#: what an ordering test of the text claims states: E[diff] > 0, tested as E[0 - diff] < 0
#: (``ordering_test(label, params, 0.0, diff, ...)``: the estimate shown is E[-diff], ``mean_b`` is E[diff])
DIFF_POSITIVE = "E[diff] > 0 (diff as in the label; the estimate shown is E[0 - diff] < 0, mean_b = E[diff])"


#: the reversed ordering of a power witness: E[diff] < 0
DIFF_NEGATIVE = "E[diff] < 0, the ordering reversed (a power witness; the estimate shown is E[diff])"


def mc_ordering(rows, trials, sampler_label, reverse: bool = False):
    """Custom(fn, points=...) checking, per point, an ordering E[diff] > 0 from ``rows(point, B, gen)``.
    ``reverse=True`` (a power witness: the ordering reversed) tests E[diff] < 0 on the same draws."""
    def fn(claim, ctx, points):
        ev = Evidence()
        B = pick(ctx.profile, trials)
        for p in points:
            gen, seed = ctx.generator(claim.id, sampler_label, label_of(p))
            diff, what = rows(p, B, gen, ctx)
            x = diff.detach().cpu().numpy()
            ev.tests.append(ordering_test(f"{what}, reversed (< 0): {label_of(p)}", p, x, 0.0, seed, what=DIFF_NEGATIVE)
                            if reverse else
                            ordering_test(f"{what}: {label_of(p)}", p, 0.0, x, seed, what=DIFF_POSITIVE))
            ev.seeds.append(seed)
        return ev
    return fn

#: claims reading the same cached runs (pretrained (the pretrained deep linear networks per d, L, alpha)): a --jobs run gives them to one worker
RUN_TOGETHER = ((
    "tahir2024.rate.lemma3_3.balance",
    "tahir2024.rate.lemmaB1.eq50",
    "tahir2024.rate.lemmaB1.eq60",
    "tahir2024.rate.lemmaB1.eq69",
    "tahir2024.proof.thm3_4.eq73_76",
    "tahir2024.text.sec3_3.order_of_limits",
    "tahir2024.text.sec3_3.order_of_limits.finite_alpha",
    "tahir2024.text.sec3_3_1.order_of_limits",
    "tahir2024.text.sec3_4.gamma_gt1_forgets",
    "tahir2024.text.sec3_4.bias_away_from_min_norm",
),)
