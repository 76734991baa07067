"""Proposition 1 (population spherical gradient, L155-158, proof App. A.1 L330-338) of
003_83d15a9763fa9a30.txt and the statements read directly off it: the power-series structure of phi
(L335-337, App. A.4 L426-430), Remark 1 (first-moment recovery, L82-84) and Remark 3 (the GLM limit,
L160-163).

- ``dayi2024.prop1``            E_x[g(x)] = -phi(m)(u - m u^): Monte Carlo of the literal per-sample spherical
                                gradient against phi from the Hermite coefficients (closed forms for ReLU, erf,
                                exact for polynomials, the Hermite series for tanh), both normalizations; for
                                polynomial activations the same expectation by exact Gauss-Hermite quadrature;
                                plus phi = -dL/dm symbolically;
- ``dayi2024.prop1.relu``       the ReLU closed form of the Hermite series K'(rho) = r^2 (pi - arccos rho)/(2 pi);
- ``dayi2024.prop1.series``     orthonormal rows: phi as a power series in m with odd coefficients >= 0 and even
                                ones non-negative combinations of <c^, c> and (1^T c^)(1^T c);
- ``dayi2024.remark1``          P_perp E[f*(x) x] = (beta_1 xi (1^T c)/r) u (Monte Carlo in antithetic pairs x, -x);
- ``dayi2024.remark3``          k = 1, W = 0: phi(m) = 2 sum_p p beta_p^2 m^{p-1}, ~ 2 p* beta_{p*}^2 m^{p*-1} near 0.
"""
from __future__ import annotations

import dataclasses
import math
import random

import numpy as np
import sympy as sp
import torch

from derivations import hermite as H
from derivations import lowrank as LR
from numerics import spherical_sgd as S
from verify.kit import (AllOf, Alternative, Check, Claim, Custom, Domain, Evidence, Expectation, Identity, Kind, Param,
                        label_of, per_profile, pick, stated_value)

from .common import (ACT_DOC, NORMALIZATION, PROP1_READING, SETTING, activation, gram_separated, mark_reconstructed,
                     src)

# ------------------------------------------------------------------ Prop. 1 by Monte Carlo
# points: act code (common.ACTS), k, xi, m, sep (0 orthonormal rows, 1 separated), norm (0 raw neurons,
# 1 normalized neurons sigma(<a, x>/r)), d
_Q = [
    {"act": 0, "k": 3, "xi": 1.5, "m": 0.5, "sep": 0, "norm": 0, "d": 12},
    {"act": 0, "k": 2, "xi": 1.5, "m": -0.4, "sep": 0, "norm": 1, "d": 12},
    {"act": 0, "k": 4, "xi": 1.0, "m": 0.3, "sep": 1, "norm": 0, "d": 12},
    {"act": 1, "k": 3, "xi": 2.0, "m": 0.6, "sep": 0, "norm": 0, "d": 12},
]
_S = _Q + [
    {"act": 4, "k": 3, "xi": 1.5, "m": 0.5, "sep": 0, "norm": 0, "d": 16},
    {"act": 3, "k": 3, "xi": 1.0, "m": 0.4, "sep": 0, "norm": 0, "d": 16},
    {"act": 5, "k": 3, "xi": 1.2, "m": 0.7, "sep": 1, "norm": 0, "d": 16},
    {"act": 2, "k": 3, "xi": 1.2, "m": -0.5, "sep": 0, "norm": 1, "d": 16},
    {"act": 1, "k": 5, "xi": 2.2, "m": 0.2, "sep": 1, "norm": 1, "d": 16},
    {"act": 0, "k": 6, "xi": 2.45, "m": 0.8, "sep": 0, "norm": 0, "d": 16},
]
POINTS = per_profile(_Q, _S)
#: polynomial activations: E<g, e> is computed exactly by Gauss-Hermite quadrature (:func:`_quadrature`); their
#: per-sample gradients are so heavy-tailed that a Monte Carlo needed up to ~1e9 trials per point to decide
_POLY_ACTS = (2, 3, 5)


def _trials(profile, p, inst=None):
    """Monte Carlo trials per (non-polynomial) point: at least the profile's count, and at standard and full as many
    as put the 2 % tolerance 5 standard errors from the prediction on the drawn instance (a two-stage design: the
    per-sample standard deviation comes from a pilot of :data:`_PILOT` draws taken apart from the trials, in
    :func:`_instance`; the mean and its interval are those of a fixed count), capped.

    At quick (fixed 7e6): at the worst (c, c^) draws of the grid (ReLU, k = 3, prediction 0.67, per-sample sd ~ 520
    tol; 2 of 20 seeds) about 4.1e6 trials give the 95 % CI inside the 2 % tolerance with probability 0.95, so
    1.2e6 (the former quick count) left the claim undecided at some seeds (issue 13), and 5e6 still at 1 of 20 (a
    2.4-standard-error low mean: these per-sample gradients are skewed and heavy-tailed).  7e6 puts the tolerance
    5.1 standard errors from the prediction there (the other points and draws: >= 6).  At standard a fixed 8e6 left
    the point (ReLU, k = 6, xi = 2.45, m = 0.8) undecided at 2 of 20 seeds (3011, 3019): their (c, c^) draw has
    prediction -0.543 (tolerance 0.011) and per-sample sd 18-22, so the tolerance was 1.4-1.7 standard errors away;
    the pilot sizes it to ~0.8-1.0e8 trials (about 0.8 s per 1e6 on one thread); every other standard draw of
    seeds 3000-3019 needs at most 4.1e6."""
    base = pick(profile, _BASE_TRIALS)
    sd = None if inst is None else inst.get("pilot_sd")
    if sd is None:
        return base
    tol = _MC.tol.of(_predicted(p, inst))
    return int(min(pick(profile, _TRIALS_CAP), max(base, math.ceil((_SIZE_Z * sd / tol) ** 2))))


#: trials per point at least
_BASE_TRIALS = per_profile(7_000_000, 8_000_000)
#: the tolerance this many standard errors from the prediction: a true claim is decided unless the mean lands more
#: than 5 - 1.96 = 3.04 standard errors off (probability ~ 0.002), as the quick count does at its worst draw
_SIZE_Z = 5.0
#: trials never exceed this (quick: the fixed count, no pilot)
_TRIALS_CAP = per_profile(7_000_000, 120_000_000)
#: pilot draws for the per-sample standard deviation (kurtosis ~ 20-50 here: relative SE of the sd ~ 1.5 %)
_PILOT = 200_000


def _model(p):
    k, xi = int(p["k"]), float(p["xi"])
    r = math.sqrt(1 + xi * xi / k)
    name, inner = activation(int(p["act"]), r)
    if int(p["norm"]):
        inner = r
    return name, inner, r


#: instances whose predicted |<E g, e>| is below this are redrawn (before any Monte Carlo): the 2% tolerance is not
#: resolvable on a near-zero prediction at these trial counts (the selection uses the prediction only, never the
#: simulation)
_MIN_PRED = 0.3


def _instance(p, gen, ctx):
    k = int(p["k"])
    gram = torch.as_tensor(gram_separated(k), device=ctx.device) if int(p["sep"]) else None
    name, inner, r = _model(p)
    kp = LR.kprime_function(name, r, inner)
    m = float(p["m"])
    for _ in range(50):
        inst = S.instance(k, int(p["d"]), gen, gram=gram, m=m, device=ctx.device, dtype=ctx.dtype)
        G = (inst["W"][0] @ inst["W"][0].T).cpu().numpy()
        inst["phi"] = float(LR.phi_value(m, G, inst["c"][0].cpu().numpy(), inst["c_hat"][0].cpu().numpy(),
                                         float(p["xi"]), kp))
        # the instance's double sum sum_ij c^_i c_j K'(rho_ij(m)), which the stated form multiplies by 2 xi^2/r^2
        inst["K_sum"] = float(LR.phi_kernel_sum(m, G, inst["c"][0].cpu().numpy(), inst["c_hat"][0].cpu().numpy(),
                                                float(p["xi"]), kp))
        if abs(inst["phi"]) * math.sqrt(1 - m * m) >= _MIN_PRED:
            break
    inst["act"] = S.Activation(name, inner)
    if pick(ctx.profile, _TRIALS_CAP) > pick(ctx.profile, _BASE_TRIALS) and int(p["act"]) not in _POLY_ACTS:
        # the pilot for _trials (Monte Carlo points only; polynomial activations are integrated exactly, and their
        # quadrature draws its off-V check from this generator next): from the instance's generator, after the
        # instance, apart from the trials
        inst["pilot_sd"] = float(_sampler(p, _PILOT, gen, ctx, inst).std())
    return inst


def _sampler(p, trials, gen, ctx, inst):
    return S.gradient_projection_trials(trials, inst["W"], inst["c"], inst["u"], inst["c_hat"], inst["u_hat"],
                                        float(p["xi"]), inst["act"], inst["e"], gen)


def _predicted(p, inst):
    """Numeric copy of the prediction (tests; the check reads the claim's stated form, :func:`_predicted_of`)."""
    m = float(p["m"])
    return -inst["phi"] * math.sqrt(1 - m * m)   # <-phi (u - m u^), e> = -phi sqrt(1 - m^2)


def _predicted_of(claim):
    """The prediction from the claim's stated form (derivations.lowrank.prop1_gradient_e_stated: -phi(m) sqrt(1 - m^2),
    phi = (2 xi^2/r^2) K_sum), at the point plus the instance's double sum K_sum."""
    f = stated_value(claim)
    return lambda p, inst: f({**p, "K_sum": inst["K_sum"]})


def _gradient_e(x, p, inst):
    """<g(x), e> of the literal per-sample spherical gradient (numerics.spherical_sgd.spherical_gradients) for
    inputs x (B, 1, d) -> (B,): the quantity the Monte Carlo averages."""
    g = S.spherical_gradients(x, inst["W"], inst["c"], inst["u"], inst["c_hat"], inst["u_hat"], float(p["xi"]),
                              inst["act"])
    return (g * inst["e"]).sum(-1)[:, 0]


_MC_NAME = "E<g, e> = -phi(m) sqrt(1-m^2)"
_MC = Expectation(points=POINTS, predicted=_predicted, sampler=_sampler, instance=_instance, trials=_trials,
                  chunk=100_000, name=_MC_NAME)


def _quadrature(claim, ctx, points) -> Evidence:
    """E<g, e> exactly for a polynomial activation, on the same instance the Monte Carlo would draw (same seed
    keys).  <g, e> = coef(x) <x, e> (e is perpendicular to span(W) and to u^) depends on x only through its
    projection on V = span(rows of W, u, u^), so E over x ~ N(0, I_d) equals E over z ~ N(0, I_n) of the literal
    integrand at x = Q z (Q an orthonormal basis of V, n = k + 2); it is a polynomial of degree 2 deg(sigma) in z,
    integrated exactly by the tensor Gauss-Hermite rule with deg(sigma) + 2 nodes per axis (exact to degree
    2 deg(sigma) + 3).  That the integrand ignores V^perp is checked, not assumed: it is evaluated again at
    x = Q z + y with a random y perpendicular to V.  Judged with the Monte Carlo's tolerance (Tol of the
    Expectation): the only change is that the expectation has no sampling error."""
    from numpy.polynomial import hermite_e as He
    checks, det = [], {}
    predicted = _predicted_of(claim)
    for p in points:
        gen, seed = ctx.generator(claim.id, _MC_NAME, "instance", label_of(p))
        inst = _instance(p, gen, ctx)
        deg = max(S._parse_hermite(inst["act"].name))
        V = torch.cat([inst["W"][0], inst["u"], inst["u_hat"]], 0)                 # (k + 2, d)
        U, sv, _ = torch.linalg.svd(V.T, full_matrices=False)
        Q = U[:, sv > 1e-10 * sv[0]]                                                # (d, n)
        n, q = Q.shape[1], deg + 2
        z1, w1 = He.hermegauss(q)
        w1 = w1 / w1.sum()
        Z = np.stack(np.meshgrid(*([z1] * n), indexing="ij"), -1).reshape(-1, n)
        Wt = np.prod(np.stack(np.meshgrid(*([w1] * n), indexing="ij"), -1).reshape(-1, n), 1)
        x = (torch.as_tensor(Z, dtype=ctx.dtype, device=ctx.device) @ Q.T)[:, None, :]
        vals = _gradient_e(x, p, inst)
        val = float((torch.as_tensor(Wt, dtype=ctx.dtype, device=ctx.device) * vals).sum())
        y = torch.randn(x.shape, generator=gen, device=ctx.device, dtype=ctx.dtype)
        y = y - (y @ Q) @ Q.T
        off_v = float((_gradient_e(x + y, p, inst) - vals).abs().max() / (1 + vals.abs().max()))
        pred = predicted(p, inst)
        tol = _MC.tol.of(pred)
        rel = abs(val - pred) / (1 + abs(pred))
        lab = f"{_MC_NAME}: {label_of(p)} (exact Gauss-Hermite, {q}^{n} nodes)"
        if off_v > 1e-9:
            checks.append(Check(lab, None, f"the integrand depends on x beyond V (relative change {off_v:.1e}): "
                                           "the quadrature does not apply", refutes=False))
            continue
        checks.append(Check(lab, abs(val - pred) <= tol,
                            f"quadrature {val:.12g}, Prop. 1 {pred:.12g}, |difference| {abs(val - pred):.2e} "
                            f"(tolerance {tol:.3g}; relative difference {rel:.1e})"))
        det[label_of(p)] = {"quadrature": val, "predicted": pred, "tol": tol, "relative difference": rel,
                            "nodes": q ** n, "integrand change off V": off_v, "seed": seed,
                            "c": inst["c"].tolist(), "c_hat": inst["c_hat"].tolist()}
    return Evidence(checks=checks, details={"E<g, e> by exact quadrature (polynomial activations)": det})


def _gradient_mean(claim, ctx, points) -> Evidence:
    """Monte Carlo (:data:`_MC`) at the points with a non-polynomial activation, exact quadrature at the others."""
    ev = Evidence()
    mc = [p for p in points if int(p["act"]) not in _POLY_ACTS]
    poly = [p for p in points if int(p["act"]) in _POLY_ACTS]
    if mc:
        sub = dataclasses.replace(ctx, at=None)     # the points are resolved (and validated) already
        ev.extend(dataclasses.replace(_MC, points=mc, predicted=_predicted_of(claim)).run(claim, sub))
        ctx.draws = sub.draws                       # (it started from ctx.draws)
    if poly:
        ev.extend(_quadrature(claim, ctx, poly))
    return ev


# symbolic: phi = -dL/dm for an exact polynomial activation with concrete c, c^ (k = 3, xi = 1)
def _sym_instance():
    k, xi = 3, sp.Integer(1)
    c = [sp.Integer(1) / sp.sqrt(3), -sp.Integer(1) / sp.sqrt(3), sp.Integer(1) / sp.sqrt(3)]
    ch = [sp.Integer(1) / sp.sqrt(3), sp.Integer(1) / sp.sqrt(3), -sp.Integer(1) / sp.sqrt(3)]
    G = sp.Matrix([[1, sp.Rational(1, 4), 0], [sp.Rational(1, 4), 1, -sp.Rational(1, 5)], [0, -sp.Rational(1, 5), 1]])
    betas = list(LR.betas_exact("h2+h3", sp.sqrt(1 + xi ** 2 / k)))
    return G, c, ch, xi, betas


def _lhs():
    G, c, ch, xi, betas = _sym_instance()
    return LR.phi_stated(G, c, ch, xi, betas)


def _rhs():
    G, c, ch, xi, betas = _sym_instance()
    return -sp.diff(LR.loss_stated(G, c, ch, xi, betas), LR.m)


DOMAIN = Domain((Param("act", 0, 6, integer=True, doc=ACT_DOC), Param("k", 2, 12, integer=True),
                 Param("xi", 0, 10, lower_open=True), Param("m", -0.99, 0.99), Param("sep", 0, 1, integer=True),
                 Param("norm", 0, 1, integer=True), Param("d", 8, 200, integer=True)))

# ------------------------------------------------------------------ ReLU closed form
def _relu_closed_vs_series(claim, ctx) -> Evidence:
    """(pi - arccos rho)/(2 pi) against sum_p p c_p^2 rho^{p-1} with exact ReLU coefficients (hermite), p <= 400,
    plus the truncation bound from the tail sum_{p>K} p c_p^2 |rho|^{p-1}."""
    K = 100
    cf = [float(H.coefficient_closed_form_value("relu", p)) if p >= 2 else float(H.coefficient("relu", p))
          for p in range(K + 1)]
    rng = random.Random(ctx.seed_for(claim.id, "rho"))
    closed = stated_value(claim)    # the claim's stated form (derivations.lowrank.relu_kprime_stated) = relu_kprime(rho, 1)
    worst, worst_rho = 0.0, None
    for _ in range(40):
        r_ = rng.uniform(-0.7, 0.7)
        ser = sum(p * cf[p] ** 2 * r_ ** (p - 1) for p in range(1, K + 1))
        err = abs(ser - closed({"rho": r_}))
        if err > worst:
            worst, worst_rho = err, r_
    ok = worst < 1e-10          # truncation: sum_{p > 100} p c_p^2 0.7^{p-1} < 1e-15
    # at rho = 1 the series is sum_p p c_p^2 = E[relu'(g)^2] = 1/2 (Parseval for relu' = step)
    s1 = float(sum(p * cf[p] ** 2 for p in range(1, K + 1)))
    return Evidence(checks=[
        Check("ReLU: Hermite series of K'(rho) equals (pi - arccos rho)/(2 pi) on [-0.7, 0.7]", ok,
              f"max |series_100 - closed form| = {worst:.2e} at rho = {worst_rho:.3f} (40 random rho)", refutes=False),
        Check("ReLU: K'(1) = sum_p p c_p^2 -> E[relu'(g)^2] = 1/2 (series converges slowly, partial sum <= 1/2)",
              0.44 < s1 <= 0.5, f"partial sum to p = {K}: {s1:.5f}", refutes=False)])


# ------------------------------------------------------------------ orthonormal power series
# k a perfect square keeps c = +-1/sqrt(k) rational, so sympy compares rational polynomials exactly
_SERIES_CASES = [("h3", 4, sp.Integer(1)), ("h2+h3", 4, sp.Integer(2)), ("h4", 9, sp.Rational(3, 2)),
                 ("h1+h3", 9, sp.Integer(1))]


def _series_structure(claim, ctx) -> Evidence:
    """Orthonormal rows: (i) the general phi of Prop. 1 with explicit c, c^ equals the (A, B) series exactly
    (sympy, random sign patterns); (ii) odd-power coefficients are >= 0 and contain neither A nor B; even-power
    coefficients are alpha A + gamma B with alpha, gamma >= 0 (exact, polynomial activations; ReLU and tanh by
    the Hermite series truncated at p = 24)."""
    checks = []
    rng = random.Random(ctx.seed_for(claim.id, "signs"))
    for name, k, xi in _SERIES_CASES:
        betas = list(LR.betas_exact(name, sp.sqrt(1 + xi ** 2 / k)))
        ok_id, worst = True, ""
        betas = [sp.expand(b) for b in betas]
        for _ in range(2):
            c = [sp.Integer(rng.choice([-1, 1])) / sp.sqrt(k) for _ in range(k)]
            ch = [sp.Integer(rng.choice([-1, 1])) / sp.sqrt(k) for _ in range(k)]
            gen_ = LR.phi_stated(sp.eye(k), c, ch, xi, betas)
            Av = sum(a * b for a, b in zip(c, ch))
            Bv = sum(c) * sum(ch)
            ser = LR.phi_orthonormal_series(betas, k, xi).subs({LR.A: Av, LR.B: Bv})
            diff = sp.expand(gen_ - ser)
            if diff != 0:
                ok_id, worst = False, f"{name}, k={k}, xi={xi}: difference {sp.sstr(diff)[:60]}"
        checks.append(Check(f"{name}, k={k}, xi={xi}: general Prop. 1 form = orthonormal (A, B) series (2 sign patterns)",
                            ok_id, worst or "sympy: identical polynomials in m", refutes=False))
        coefs = LR.power_coefficients_orthonormal(betas, k, xi)
        bad = []
        for q, a in enumerate(coefs):
            pa, pb = sp.Poly(a, LR.A, LR.B), None
            cA, cB = a.coeff(LR.A), a.coeff(LR.B)
            const = sp.simplify(a - cA * LR.A - cB * LR.B)
            if q % 2 == 1 and not (cA == 0 and cB == 0 and const >= 0):
                bad.append(f"m^{q}: {a}")
            if q % 2 == 0 and not (const == 0 and cA >= 0 and cB >= 0):
                bad.append(f"m^{q}: {a}")
        checks.append(Check(f"{name}, k={k}, xi={xi}: odd coefficients >= 0 (deterministic), even ones "
                            f"alpha A + gamma B with alpha, gamma >= 0", not bad,
                            "; ".join(bad) if bad else "coefficients: " + ", ".join(sp.sstr(sp.nsimplify(a))[:40] for a in coefs)))
    # non-polynomial activations: truncated series, numerically
    for name, k, xi in [("relu", 5, 1.0), ("tanh", 5, 2.0), ("relu", 9, 1.5)]:
        r = math.sqrt(1 + xi * xi / k)
        bet = LR.betas_mp(name, r, 24, 20)
        betas = [sp.Float(float(b), 20) for b in bet]
        coefs = LR.power_coefficients_orthonormal(betas, k, sp.Float(xi, 20))
        bad = []
        for q, a in enumerate(coefs):
            cA, cB = a.coeff(LR.A), a.coeff(LR.B)
            const = sp.expand(a - cA * LR.A - cB * LR.B)
            if q % 2 == 1 and (abs(float(cA)) > 1e-12 or abs(float(cB)) > 1e-12 or float(const) < -1e-12):
                bad.append(f"m^{q}")
            if q % 2 == 0 and (abs(float(const)) > 1e-12 or float(cA) < -1e-12 or float(cB) < -1e-12):
                bad.append(f"m^{q}")
        checks.append(Check(f"{name}, k={k}, xi={xi}: same sign structure of the Hermite series truncated at p = 24",
                            not bad, ", ".join(bad) if bad else f"{len(coefs)} coefficients checked"))
    return Evidence(checks=checks)


# ------------------------------------------------------------------ Remark 1
_R1 = per_profile([{"act": 0, "k": 3, "xi": 1.0}, {"act": 1, "k": 5, "xi": 1.5}, {"act": 4, "k": 5, "xi": 2.0}],
                  [{"act": 0, "k": 3, "xi": 1.0}, {"act": 1, "k": 5, "xi": 1.5}, {"act": 4, "k": 5, "xi": 2.0},
                   {"act": 0, "k": 7, "xi": 1.5}, {"act": 0, "k": 9, "xi": 2.1}])


def _r1_instance(p, gen, ctx):
    k, xi = int(p["k"]), float(p["xi"])
    inst = S.instance(k, 12, gen, device=ctx.device, dtype=ctx.dtype)
    # Remark 1 needs 1^T c != 0; odd k guarantees it
    r = math.sqrt(1 + xi * xi / k)
    name, inner = activation(int(p["act"]), r)
    inst["act"] = S.Activation(name, inner)
    b1 = float(LR.betas_mp(name, r / inner, 1)[1])
    inst["beta_1"], inst["sum_c"] = b1, float(inst["c"].sum())
    inst["pred"] = b1 * xi * float(inst["c"].sum()) / r      # numeric copy (tests); the check reads the stated form
    return inst


def _r1_check(claim, ctx, points) -> Evidence:
    """The Monte Carlo of :data:`_R1_MC`, its prediction read from the claim's stated form
    (derivations.lowrank.remark1_first_moment_stated: beta_1 xi (1^T c)/sqrt(1 + xi^2/k)) at the point plus the
    instance's beta_1 (first Hermite coefficient of sigma(r .)) and 1^T c."""
    f = stated_value(claim)
    sub = dataclasses.replace(ctx, at=None)         # the points are resolved (and validated) already
    ev = dataclasses.replace(_R1_MC, points=points, predicted=lambda p, inst: f(
        {**p, "beta_1": inst["beta_1"], "sum_c": inst["sum_c"]})).run(claim, sub)
    ctx.draws = sub.draws
    return ev


def _r1_sampler(p, B, gen, ctx, inst):
    """Antithetic pairs: (y(x) + y(-x))/2 for B fresh inputs x, y(x) = f*(x) <x, u> the literal sample
    (numerics.spherical_sgd.first_moment_trials' quantity).  x and -x have the same law, so each pair's mean has
    exactly the expectation of y; the even part of f* (half of a ReLU's output: relu(z) = z/2 + |z|/2), whose
    product with <x, u> has mean zero but a large spread, cancels within the pair.  For the ReLU points this cut the
    variance per draw 5-16 fold (k = 3 to 9), 2.5-8 fold per network evaluation; for odd sigma (erf, tanh) the pair
    equals y(x)."""
    x = torch.randn(B, 1, inst["W"].shape[-1], generator=gen, device=inst["W"].device, dtype=inst["W"].dtype)
    xi = float(p["xi"])

    def y(x):
        f_star, _ = S.network(x, inst["W"], inst["c"], inst["u"], xi, inst["act"])
        return (f_star * torch.einsum("brd,rd->br", x, inst["u"]))[:, 0]
    return 0.5 * (y(x) + y(-x))


_R1_MC = Expectation(points=_R1, predicted=lambda p, inst: inst["pred"], instance=_r1_instance, sampler=_r1_sampler,
                     trials=per_profile(1_000_000, 2_000_000), chunk=100_000)


# ------------------------------------------------------------------ Remark 3
def _glm_lhs():
    betas = list(LR.betas_exact("h2+h3", sp.Symbol("s", positive=True)))
    xi = sp.Symbol("s", positive=True)
    return LR.phi_stated(sp.zeros(1, 1), [1], [1], xi, betas)


def _glm_rhs():
    s_ = sp.Symbol("s", positive=True)
    betas = list(LR.betas_exact("h2+h3", s_))
    return 2 * sum(p * betas[p] ** 2 * LR.m ** (p - 1) for p in range(1, len(betas)))


def _glm_leading(claim, ctx) -> Evidence:
    """GLM limit near m = 0: phi(m) = 2 p* beta_{p*}^2 m^{p*-1} (1 + O(m)); at m ~ d^{-1/2}, phi ~ d^{-(p*-1)/2}."""
    checks = []
    for name, pstar in [("h3", 3), ("h2+h3", 2), ("h4", 4)]:
        s_ = sp.Integer(1)
        betas = list(LR.betas_exact(name, s_))
        phi = sp.expand(LR.phi_stated(sp.zeros(1, 1), [1], [1], sp.Integer(1), betas))
        ie = H.information_exponent(betas)
        lead = sp.Poly(phi, LR.m).monoms()[-1][0]   # lowest power of m
        ok = ie == pstar and lead == pstar - 1
        ratios = [float(phi.subs(LR.m, d ** -0.5) / d ** (-(pstar - 1) / 2)) for d in (100, 10_000, 1_000_000)]
        checks.append(Check(f"{name}: information exponent {pstar}, lowest power of m in phi is m^{pstar - 1}", ok,
                            f"phi = {sp.sstr(phi)}; phi(d^-1/2) d^((p*-1)/2) at d = 1e2, 1e4, 1e6: "
                            + ", ".join(f"{v:.4g}" for v in ratios)))
    return Evidence(checks=checks)


CLAIMS = [
    Claim(
        id="dayi2024.prop1", kind=Kind.EXACT,
        source=src("Proposition 1 (L155-158), proof App. A.1 (L330-338); Condition 1 (L174-176)"),
        statement=r"\nabla^S L(\hat u) = -\phi(m)\,(u - m\hat u),\quad \phi(m)=\frac{2\xi^2}{r^2}\sum_{i,j}\hat c_i c_j"
                  r"\sum_{p\ge1}p\,\beta_p^2\,\rho_{ij}(m)^{p-1},\ \rho_{ij}=\frac{\langle w_i,w_j\rangle+\xi^2\hat c_i c_j m}{r^2}",
        assumptions=SETTING + " " + NORMALIZATION,
        domain=DOMAIN,
        stated=LR.prop1_gradient_e_stated(),
        notes=PROP1_READING + " The Monte Carlo averages the literal per-sample spherical gradient "
              "(I - u^u^T) P_perp grad l over fresh x at a fixed u^ with <u^, u> = m, projected on "
              "e = (u - m u^)/||u - m u^|| (the only direction in which E g is not zero by symmetry); prediction "
              "-phi(m) sqrt(1 - m^2); (c, c^) draws with |prediction| < 0.3 are redrawn before simulating (resolution).  "
              "phi uses exact/closed-form K' (ReLU, erf, polynomials) or the Hermite series "
              "of hermite.coefficients_mp truncated at p = 60 (tanh).  'norm = 1' points use the normalized-neuron "
              "model (beta_p -> coefficients of sigma itself): Prop. 1 holds in both readings with its own beta_p.  "
              "Points cover orthonormal and angularly separated rows (Prop. 1 needs neither), both signs of m and "
              "phi, and activations of information exponent 1 to 3.  For the polynomial activations (h3 raw and "
              "normalized, h2+h3; standard grid) the same expectation of the same literal per-sample gradient, on the "
              "same instance, is computed exactly instead (tensor Gauss-Hermite on the (k+2)-dimensional span of W, u, "
              "u^, where the integrand lives; the integrand is a polynomial) and judged with the same tolerance: "
              "their per-sample gradients are so heavy-tailed that a Monte Carlo needed up to ~1e9 trials to decide "
              "them (issue 13; Prop. 3 uses the same quadrature).  Since the proposition is our "
              "reconstruction, the Monte Carlo tests it as stated-by-us (target 'stated').  The number each test "
              "compares with is read from the stated form (derivations.lowrank.prop1_gradient_e_stated, "
              "-(2 xi^2/r^2) K_sum sqrt(1 - m^2)), with the instance's double sum K_sum = sum_ij c^_i c_j K'(rho_ij(m)) "
              "added to the point: mutants of the prefactor, of r^2 = 1 + xi^2/k and of the projection sqrt(1 - m^2) are "
              "judged by the Monte Carlo; the double sum itself is an evaluated instance quantity.",
        check=AllOf([
            Custom(_gradient_mean, points=POINTS),
            Identity("phi = -dL/dm (h2+h3, k = 3, xi = 1, separated rows, sympy)", _lhs, _rhs, {LR.m: (-1, 1)},
                     refutes=False),
        ])),
    Claim(
        id="dayi2024.prop1.relu", kind=Kind.SYMBOLIC,
        source=src("Proposition 1 specialised to ReLU (the activation of §4, L280)"),
        statement=r"\sum_{p\ge1}p\,\hat\sigma_p^2\rho^{p-1}=\frac{\pi-\arccos\rho}{2\pi}\ \ (\sigma=\mathrm{ReLU})",
        assumptions="sigma = ReLU; sigma^_p its normalized Hermite coefficients (derivations.hermite)",
        domain=Domain((Param("rho", -1, 1),)),
        notes="Not a sentence of the source: the closed form we use for ReLU in Prop. 1 (ours), checked against the "
              "Hermite series with exact coefficients.  A check of our derivation (refutes=False).",
        tags=("derived",),
        stated=LR.relu_kprime_stated(),
        check=Custom(_relu_closed_vs_series)),
    Claim(
        id="dayi2024.prop1.series", kind=Kind.SYMBOLIC,
        source=src("Proof of Prop. 1 (L335-337: 'for odd .., we have .. For even .., we have ..'), §3.2 (L203-205), "
                   "App. A.4 (L426-430: 'for all odd .., the power series coefficients are always non-negative. And for "
                   "all even .., all the power series coefficients have the same sign')"),
        statement=r"\phi(m)=\sum_q a_q m^q,\ a_{2j+1}\ge0,\ a_{2j}=\alpha_{2j}\langle\hat c,c\rangle+\gamma_{2j}"
                  r"(\mathbf 1^T\hat c)(\mathbf 1^T c),\ \alpha,\gamma\ge0\ \ (\text{orthonormal } w_i)",
        assumptions="orthonormal rows; " + SETTING,
        domain=Domain((Param("k", 2, 50, integer=True), Param("xi", 0, 10, lower_open=True))),
        notes="Reading: with t = xi^2/k, (c^_i c_j)^{q} is c^_i c_j/k^{q-1}... so every odd power of m has a deterministic "
              "non-negative coefficient and every even one is a non-negative combination of A = <c^, c> and "
              "B = (1^T c^)(1^T c) (the two quadratics of Prop. 8).  The sentence 'for all even .., all the power series "
              "coefficients have the same sign' is read as: within the even powers, the A-terms all carry the sign of A "
              "(and the B-terms that of B); read literally across A and B it would need sign(A) = sign(B).  Checked "
              "exactly (sympy) for polynomial activations and on the Hermite series truncated at p = 24 for ReLU and tanh.",
        check=Custom(_series_structure)),
    Claim(
        id="dayi2024.remark1", kind=Kind.EXACT,
        source=src("Remark 1 (L82-84)"),
        statement=r"P_\perp\,\mathbb E[f^*(x)\,x]=\frac{\beta_1\,\xi\,(\mathbf 1^Tc)}{r}\,u\quad(\text{ReLU: }\tfrac{\xi}{2}(\mathbf 1^Tc)\,u)",
        assumptions=SETTING + " " + NORMALIZATION,
        domain=Domain((Param("act", 0, 6, integer=True, doc=ACT_DOC), Param("k", 1, 50, integer=True),
                       Param("xi", 0, 10, lower_open=True))),
        notes="Reconstructed from the surviving words 'where .. denotes the first normalized Hermite coefficient of the "
              "ReLU activation .. the ground truth vector could be recovered when .. and .. do not vanish' (Stein's "
              "lemma: E[sigma(<b, x>) x] = E[sigma'(<b, x>)] b and E[sigma'(r g)] = beta_1/r).  Monte Carlo of "
              "f*(x)<x, u> (u perp W so <P_perp x, u> = <x, u>) on random instances with odd k (1^T c != 0), in "
              "antithetic pairs (x, -x) (same expectation; the even part of f*, which only adds noise, cancels): "
              "plain draws needed ~2.1e6 (quick, ReLU k = 3) to ~1.3e7 (standard, ReLU k = 9) trials to decide at "
              "the worst instances, the pairs ~0.4e6-0.9e6 (issue 13).  The prediction is read from the stated form "
              "(derivations.lowrank.remark1_first_moment_stated) with the instance's beta_1 and 1^T c added to the point.",
        stated=LR.remark1_first_moment_stated(),
        check=Custom(_r1_check, points=_R1)),
    Claim(
        id="dayi2024.remark3", kind=Kind.SYMBOLIC,
        source=src("Remark 3 (L160-163) and the GLM reduction of §1.1 (L44)"),
        statement=r"k=1,\ W=0,\ \hat c=c=1:\ \phi(m)=2\sum_{p\ge1}p\,\beta_p^2m^{p-1}\approx2p^*\beta_{p^*}^2m^{p^*-1}",
        assumptions="GLM limit: k = 1, W = 0, c = c^ = 1, teacher sigma(xi <u, x>) (L44); beta_p of sigma(xi .)",
        domain=Domain((Param("xi", 0, 100, lower_open=True),)),
        notes="'if we let .. and send .. the term in Eq. (1) will vanish .. Then, around .. reduces to ..': read as the "
              "k = 1, W = 0 specialization of Prop. 1 and its expansion around m = 0, where the lowest power is "
              "m^{p*-1} (p* the information exponent), so phi(m_0) ~ d^{-(p*-1)/2} at m_0 ~ d^{-1/2}.  Checked "
              "symbolically in xi (sigma = h2+h3) and for h2+h3, h3, h4, and for symbolic beta_1..beta_4 against the "
              "stated form (derivations.lowrank.glm_phi_stated, the sum written out to p = 4).",
        stated=LR.glm_phi_stated(),
        check=AllOf([
            Identity("Prop. 1 at k = 1, W = 0 equals 2 sum_p p beta_p^2 m^(p-1) (sigma = h2+h3, symbolic xi)",
                     _glm_lhs, _glm_rhs, {LR.m: (-1, 1), sp.Symbol("s", positive=True): (0.2, 5)}),
            Identity("Prop. 1 at k = 1, W = 0 equals 2 sum_p p beta_p^2 m^(p-1) (symbolic beta_1..beta_4 and xi)",
                     LR.glm_phi_from_prop1, LR.glm_phi_stated(),
                     {LR.m: (-1, 1), LR.xi_: (0.2, 5), **{b: (-2, 2) for b in LR.betas_sym}}),
            Custom(_glm_leading),
        ])),
]

CLAIMS = mark_reconstructed(CLAIMS)   # issue 22: every form of 003 tested here is ours

def _series_witness(rule: str):
    """A power witness of dayi2024.prop1.series: the same exact coefficients (polynomial activations, orthonormal
    rows, sympy) at sign patterns of (c, c^) drawn as the claim's check draws them, judged against a wrong sign
    structure.  ``rule`` "all": every coefficient >= 0 (L430's 'always non-negative' read for every power);
    "swapped": the parities exchanged (even coefficients deterministic and >= 0, odd ones carrying A and B)."""
    def check(claim, ctx):
        rng = random.Random(ctx.seed_for(claim.id, "signs"))
        checks = []
        for name, k, xi in _SERIES_CASES:
            betas = [sp.expand(b) for b in LR.betas_exact(name, sp.sqrt(1 + xi ** 2 / k))]
            coefs = LR.power_coefficients_orthonormal(betas, k, xi)
            bad = []
            if rule == "all":
                for _ in range(8):
                    c = [rng.choice([-1, 1]) for _ in range(k)]
                    ch = [rng.choice([-1, 1]) for _ in range(k)]
                    Av = sp.Rational(sum(a * b for a, b in zip(c, ch)), k)
                    Bv = sp.Rational(sum(c) * sum(ch), k)
                    for q, a in enumerate(coefs):
                        v = sp.nsimplify(a.subs({LR.A: Av, LR.B: Bv}))
                        if v < 0:
                            bad.append(f"m^{q} = {sp.sstr(v)[:30]} at <c^,c> = {Av}, (1^T c^)(1^T c) = {Bv}")
                what = "every power-series coefficient >= 0 (8 sign patterns of c, c^)"
            else:
                for q, a in enumerate(coefs):
                    cA, cB = a.coeff(LR.A), a.coeff(LR.B)
                    const = sp.simplify(a - cA * LR.A - cB * LR.B)
                    if q % 2 == 0 and not (cA == 0 and cB == 0 and const >= 0):
                        bad.append(f"m^{q}: {sp.sstr(a)[:40]}")
                    if q % 2 == 1 and not (const == 0 and cA >= 0 and cB >= 0):
                        bad.append(f"m^{q}: {sp.sstr(a)[:40]}")
                what = "even coefficients deterministic >= 0, odd ones alpha A + gamma B (parities swapped)"
            checks.append(Check(f"{name}, k={k}, xi={xi}: {what}", not bad,
                                "; ".join(bad[:3]) if bad else "holds on these patterns"))
        return Evidence(checks=checks)
    return check


#: issue 24: kept outside the claim's notes text (another branch edits it)
_SERIES_POWER_NOTE = (
    "  Power (issue 24): two witnesses on the same exact coefficients: 'every coefficient >= 0' (L430's 'always "
    "non-negative' read for every power of m, i.e. no sign carried by <c^, c> or (1^T c^)(1^T c)) and 'parities "
    "swapped' (even powers deterministic, odd ones random); the exact sign structure rejects both.")
_SERIES_POWER = (
    Alternative("every coefficient non-negative", Custom(_series_witness("all")),
                "the sentence 'the power series coefficients are always non-negative' (L430) read for every power, "
                "not only the odd ones"),
    Alternative("parities swapped", Custom(_series_witness("swapped")),
                "odd and even powers exchanged (the random factors on the odd powers)"))
CLAIMS = [dataclasses.replace(c, notes=c.notes + _SERIES_POWER_NOTE, power=_SERIES_POWER)
          if c.id == "dayi2024.prop1.series" else c for c in CLAIMS]
