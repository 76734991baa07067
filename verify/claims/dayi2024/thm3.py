"""Fine-tuning versus learning from scratch (§3.5 of 003_83d15a9763fa9a30.txt): Claim 2 (the
orthogonal-teacher construction), Proposition 3 (phi on that instance) and Theorems 3/8 (fine-tuning needs
O~(d) online-SGD iterations where learning from scratch needs d^{Omega(p)}).

- ``dayi2024.claim2``  the construction (L257-261), exactly: unit rows, u perp W, teacher neurons orthogonal
                       with norm xi = sqrt(k/(k-1)), for every sign pattern of c;
- ``dayi2024.prop3``   phi on the instance (sigma(r .) = h_p) equals Prop. 1's phi, for every c^ (exhaustive);
                       the expectation of the literal per-sample gradient on the construction, by exact
                       Gauss-Hermite quadrature (the integrand is a polynomial);
- ``dayi2024.thm8``    (and the informal ``dayi2024.thm3``): online SGD fine-tuning on the instance with p = 3 needs a
                       number of iterations O~(d), measured at the best step of a grid fixed for all d (issue 24).
                       The from-scratch CSQ lower bound is cited ([1, Prop. 6]) and not simulable; the GLM
                       illustration that built its exponent in was removed (see the claim's notes).
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import torch

from derivations import lowrank as LR
from numerics import spherical_sgd as S
from verify.kit import (AllOf, Alternative, Check, Claim, Custom, Domain, Evidence, Kind, Param, per_profile, pick,
                        stated_value)

from . import common as CM
from . import prescribed as PR
from .common import CHAIN, HITTING, SETTING, mark_reconstructed, src

# ------------------------------------------------------------------ Claim 2
_C2_CASES = [3, 4, 5, 7]


def _claim2(claim, ctx) -> Evidence:
    """The construction (derivations.lowrank.claim2_features: each pair {i, j} its own coordinate carrying
    +-1/sqrt(k-1), u = e_d) with the perturbation scale xi read from the claim's stated form (sqrt(k/(k-1)))."""
    checks = []
    xi_of = stated_value(claim)
    for k in _C2_CASES:
        worst = 0.0
        xi = xi_of({"k": k})
        for signs in itertools.product([-1, 1], repeat=k):
            c = np.array(signs) / math.sqrt(k)
            W, u, _ = LR.claim2_features(k, c)
            T = W + xi * np.outer(c, u)                       # teacher neurons
            worst = max(worst, np.abs(np.linalg.norm(W, axis=1) - 1).max(), np.abs(W @ u).max(),
                        np.abs(T @ T.T - xi * xi * np.eye(k)).max())
        checks.append(Check(f"k={k}: unit rows, u perp W, <w_i + xi c_i u, w_j + xi c_j u> = xi^2 delta_ij "
                            f"at xi = sqrt(k/(k-1)) = {xi:.6g}, d = k(k-1)/2 + 1, all {2 ** k} sign patterns of c",
                            bool(worst < 1e-12), f"max deviation {worst:.2e}"))
    return Evidence(checks=checks)


# ------------------------------------------------------------------ Prop. 3
def _prop3_stated(claim):
    """Prop. 3's phi from the claim's stated form (derivations.lowrank.prop3_phi_stated: 2p sum c^_i c_j rho_ij^{p-1}
    with the double sum carried out), as f(ms, c, c^, p) -> array over ms: the instance enters through its counts."""
    f = stated_value(claim)
    memo: dict = {}     # many c^ share their counts (k = 7: 128 sign patterns, 8-20 distinct counts)

    def at(k, p, cnt, mv):
        key = (k, p, tuple(cnt.values()), mv)
        if key not in memo:
            memo[key] = f({"k": k, "p": p, "m": mv, **cnt})
        return memo[key]

    def phi(ms, c, ch, p):
        cnt = LR.prop3_counts(c, ch, p)
        return np.array([at(len(c), p, cnt, float(mv)) for mv in np.atleast_1d(ms)])
    return phi


def _prop3_exact(claim, ctx) -> Evidence:
    """Prop. 3's phi (derived: 2p sum c^_i c_j rho_ij^{p-1} with rho_ii = (k-1)/k + c^_i c_i m,
    rho_ij = c_j(c^_i m - c_i); read from the claim's stated form) against Prop. 1's general phi on the literal
    construction, every c^ (exhaustive), and the fraction of c^ for which Condition 3 holds with
    lambda >= |phi(0)|/2 (reported)."""
    checks, det = [], {}
    phi3 = _prop3_stated(claim)
    ms = np.linspace(-1, 1, 41)
    for k, p in [(5, 3), (5, 4), (7, 3), (7, 4)]:
        rng = np.random.default_rng(ctx.seed_for(claim.id, k, p))
        c = rng.choice([-1.0, 1.0], k) / math.sqrt(k)
        W, u, xi = LR.claim2_features(k, c)
        G = W @ W.T
        name = f"h{p}"
        kp = LR.kprime_function(name, math.sqrt(1 + xi * xi / k), math.sqrt(1 + xi * xi / k))  # sigma(r .) = h_p
        worst, good, n = 0.0, 0, 0
        for signs in itertools.product([-1, 1], repeat=k):
            ch = np.array(signs) / math.sqrt(k)
            a = phi3(ms, c, ch, p)
            b = LR.phi_value(ms, G, c, ch, xi, kp)
            worst = max(worst, float(np.abs(a - b).max() / (1 + np.abs(b).max())))
            p0, lam = CM.phi_grid(G, c[None], ch[None], xi, kp)
            n += 1
            good += int(p0[0] != 0 and lam[0] >= abs(p0[0]) / 2)
        checks.append(Check(f"k={k}, p={p}: Prop. 3 form = Prop. 1 on the Claim-2 instance, all {2 ** k} c^",
                            worst < 1e-10, f"max relative difference {worst:.2e} on m in [-1, 1]"))
        det[f"k={k}, p={p}"] = {"c": c.tolist(), "fraction of c^ with lambda >= |phi(0)|/2 > 0": good / n}
    return Evidence(checks=checks, details={"Condition 3 on the instance (exhaustive over c^)": det})


def _prop3_instance(p, gen, ctx, phi3=None):
    """The Claim-2 network for (k, p) with random signs c, c^ and u^ at overlap m (R = 1)."""
    k, pp, m = int(p["k"]), int(p["p"]), float(p["m"])
    rng_bits = torch.randint(0, 2, (2, k), generator=gen, device=gen.device)
    c = (2 * rng_bits[0].double() - 1).cpu().numpy() / math.sqrt(k)
    ch = (2 * rng_bits[1].double() - 1).cpu().numpy() / math.sqrt(k)
    W, u, xi = LR.claim2_features(k, c)
    d = W.shape[1]
    Wt = torch.as_tensor(W, dtype=ctx.dtype, device=ctx.device)[None]
    ut = torch.as_tensor(u, dtype=ctx.dtype, device=ctx.device)[None]
    # u^ at overlap m: u^ = m u + sqrt(1-m^2) v, v perp W, u: use the literal helper with an extra free coordinate
    Wpad = torch.cat([Wt, torch.zeros(1, k, 2, dtype=ctx.dtype, device=ctx.device)], dim=-1)
    upad = torch.cat([ut, torch.zeros(1, 2, dtype=ctx.dtype, device=ctx.device)], dim=-1)
    # span(W) is (k-1)-dimensional here (the rows are dependent), so project with a pseudo-inverse frame
    Q, _ = torch.linalg.qr(Wpad[0].T)
    z = torch.randn(1, d + 2, generator=gen, device=ctx.device, dtype=ctx.dtype)
    z = z - (z @ Q) @ Q.T
    z = z - (z * upad).sum(-1, keepdim=True) * upad
    v = z / z.norm()
    uh = m * upad + math.sqrt(1 - m * m) * v
    e = upad - m * uh
    e = e / e.norm()
    r = xi
    return {"W": Wpad, "u": upad, "c": torch.as_tensor(c, device=ctx.device)[None].to(ctx.device, ctx.dtype),
            "c_hat": torch.as_tensor(ch, device=ctx.device)[None].to(ctx.device, ctx.dtype), "u_hat": uh, "e": e,
            "act": S.Activation(f"h{pp}", r), "xi": xi,
            "phi": float(LR.phi_prop3(m, c, ch, pp) if phi3 is None else phi3(m, c, ch, pp)[0])}


def _prop3_integrand(x, inst):
    """<g, e> of the literal per-sample spherical gradient g = coef (P_perp x - <u^, x> u^) on the Claim-2 network
    for inputs x (B, 1, d + 2) (two zero coordinates appended so that u^ can leave span(W, u)); e perp span(W) and
    e perp u^, so <g, e> = coef <x, e> exactly (the rows of W are dependent, rank k - 1, so no (WW^T)^{-1} is
    formed)."""
    W = inst["W"]
    f_star, _ = S.network(x, W, inst["c"], inst["u"], inst["xi"], inst["act"])
    f_hat, z = S.network(x, W, inst["c_hat"], inst["u_hat"], inst["xi"], inst["act"])
    coef = 2 * (f_hat - f_star) * (inst["act"].df(z) * (inst["xi"] * inst["c_hat"])).sum(-1)
    # <g, e> = coef (<P_perp x, e> - <u^, x><u^, e>) = coef <x, e>  (e perp W and e perp u^)
    return (coef * torch.einsum("brd,rd->br", x, inst["e"]))[:, 0]


def _prop3_quadrature(claim, ctx, points) -> Evidence:
    """E<g, e> of the literal per-sample gradient (:func:`_prop3_integrand`, the same code a Monte Carlo would
    average) computed exactly: the integrand depends on x only through its projection on V = span(rows of W,
    u, u^) (e is in span(u, u^)), so E over x ~ N(0, I) is E over z ~ N(0, I_n), x = Q z, Q an orthonormal basis
    of V (n = rank W + 2); for sigma(r .) = h_p the integrand is a polynomial of degree 2p in z, integrated
    exactly by the tensor Gauss-Hermite rule with p + 2 nodes per axis (exact to degree 2p + 3).  Compared with
    -phi(m) sqrt(1 - m^2) (Prop. 3's phi) to 1e-9 relative: float64 rounding of a sum of ~1e4 terms of size
    <= 1e3 is ~1e-12, so a miss is a wrong formula, not noise.  This replaces a Monte Carlo mean whose heavy
    polynomial tails needed ~1.1e6 trials per point to decide (quick seed 0, 600000 trials: undecided)."""
    from numpy.polynomial import hermite_e as He
    checks, det = [], {}
    phi3 = _prop3_stated(claim)
    for p in points:
        gen, seed = ctx.generator(claim.id, "quadrature", str(sorted(p.items())))
        inst = _prop3_instance(p, gen, ctx, phi3)
        V = torch.cat([inst["W"][0], inst["u"], inst["u_hat"]], 0)                 # (k + 2, d + 2)
        U, S_, _ = torch.linalg.svd(V.T, full_matrices=False)
        Q = U[:, S_ > 1e-10 * S_[0]]                                                # (d + 2, n)
        n, q = Q.shape[1], int(p["p"]) + 2
        z1, w1 = He.hermegauss(q)
        w1 = w1 / w1.sum()
        Z = np.stack(np.meshgrid(*([z1] * n), indexing="ij"), -1).reshape(-1, n)
        Wt = np.prod(np.stack(np.meshgrid(*([w1] * n), indexing="ij"), -1).reshape(-1, n), 1)
        x = torch.as_tensor(Z, dtype=ctx.dtype, device=ctx.device) @ Q.T
        val = float((torch.as_tensor(Wt, dtype=ctx.dtype, device=ctx.device) * _prop3_integrand(x[:, None, :], inst)).sum())
        pred = -inst["phi"] * math.sqrt(1 - float(p["m"]) ** 2)
        rel = abs(val - pred) / (1 + abs(pred))
        checks.append(Check(f"k={int(p['k'])}, p={int(p['p'])}, m={float(p['m']):g}: E<g, e> of the literal per-sample "
                            f"gradient (exact Gauss-Hermite, {q}^{n} nodes) = -phi(m) sqrt(1-m^2) with Prop. 3's phi",
                            rel < 1e-9, f"quadrature {val:.12g}, Prop. 3 {pred:.12g}, relative difference {rel:.1e}"))
        det[f"k={int(p['k'])}, p={int(p['p'])}, m={float(p['m']):g}"] = {"quadrature": val, "predicted": pred,
                                                                        "c": inst["c"].tolist(), "c_hat": inst["c_hat"].tolist(),
                                                                        "seed": seed, "nodes": q ** n}
    return Evidence(checks=checks, details={"E<g, e> by exact quadrature": det})


# ------------------------------------------------------------------ Theorems 3 / 8: SGD, fine-tuning vs scratch
DS_FT = per_profile([32, 64, 128], [32, 64, 128])
#: instances per d (each at every d and every step of the grid; the cost is linear in them)
RUNS = per_profile(32, 40)
#: the step grid (eta = nu lambda_i/C_i, one grid for every d) and the common budget, as dayi2024.sgd
#: (the Claim-2 instance wants larger steps at small d than the ReLU settings: at quick seed 0 the best nu d was
#: 11.3-22.6 at d = 32, 64 with a grid topped at 8 sqrt 2/d_min; its T* at d_max was ~ 0.05 of the budget unit)
GRID_HI, GRID_LO, TAU = 32.0 * math.sqrt(2.0), 2.0, 0.25
_CACHE: dict = {}


def _thm8_runs(ctx, p):
    k, pp = int(p["k"]), int(p["p"])
    key = (ctx.seed, ctx.profile.name, k, pp)
    if key in _CACHE:
        return _CACHE[key]
    R = pick(ctx.profile, RUNS)
    ds = pick(ctx.profile, DS_FT)
    gen, seed = ctx.generator("dayi2024.thm8.tuned", f"k={k}", f"p={pp}")
    rng = np.random.default_rng(seed % (2 ** 32))
    c = rng.choice([-1.0, 1.0], k) / math.sqrt(k)
    W, u, xi = LR.claim2_features(k, c)
    G = W @ W.T
    ft = CM.run_tuned(gen, k=k, arms=[(xi, G)], act_name=f"h{pp}", inner="r", ds=ds, R=R,
                      grid=CM.step_grid(GRID_LO / max(ds), GRID_HI / min(ds)), budget_units=TAU * max(ds),
                      c_fixed=c, rank_w=k - 1, device=ctx.device, dtype=ctx.dtype)[0]
    fits = {w: CM.fit_tuned(ft, w, seed + w) for w in (0, 1)}
    _CACHE[key] = (ft, fits, seed, c)
    return _CACHE[key]


def _thm8_evidence(claim, ctx, points, *, bound_of, upper: bool, name: str = "", target: str = "derived") -> Evidence:
    ev = Evidence()
    series = []
    for p in points:
        ft, fits, seed, c = _thm8_runs(ctx, p)
        pp = int(p["p"])
        bound = bound_of(ft.ds)
        for w in (0, 1):
            what = "weak (m >= 1/2)" if w == 0 else "strong (m >= 3/4)"
            rel = "<=" if upper else ">="
            ev.tests.append(CM.tuned_test(f"k={int(p['k'])}, p={pp}: fine-tuning (Claim-2 instance): exponent of d of "
                                          f"the step-tuned iterations to {what} {rel} {bound:.3f}{name} over d in "
                                          f"{ft.ds}", dict(p, recovery=what), fits[w], ft.ds, bound=bound,
                                          upper=upper, trials=len(ft.scale), seed=seed,
                                          extra={"glm_rate_exponent (AGJ, cited)": float(pp - 1)}, target=target))
            ev.seeds.append(seed)
            ev.details[f"k={int(p['k'])}, p={pp} | fine-tuning | {what}"] = dict(fits[w], c=list(map(float, c)))
            series.append((f"fine-tuning, {what}", ft.ds, fits[w]["tstar"], fits[w]))
    return ev


def _thm8(claim, ctx, points) -> Evidence:
    return _thm8_evidence(claim, ctx, points, upper=True,
                          bound_of=lambda ds: 1.0 + CM.log_allowance(ds, CM.LOG_POWER),
                          name=f" = 1 + {CM.LOG_POWER} s (O~(d))")


_THM8_POINTS = per_profile([{"k": 5, "p": 3}], [{"k": 5, "p": 3}])


#: issue 36: Thm 8 at the prescribed step (dayi2024.prescribed), the Claim-2 instance (sep = 2) with sigma = h_3 in
#: both readings of the source (normalized neurons sigma(r .) = h_3, act 2, the one the CSQ argument needs; raw
#: h_3, act 5), d over a factor 4 (Thm 7's unit C/lambda^2 is ~ 10^3 steps here)
_THM8_DS = per_profile([16, 32, 64], [32, 64, 128])
_THM8_HELD = [{"k": 5, "xi": 1.0, "sep": 2, "act": a, "recovery": w, "kappa": CM.KAPPA} for a in (2, 5) for w in (0, 1)]
#: issue 37: the d sweeps at every kappa of the open step constant (PR.KAPPA_SETTING; kappa = 1/2 at quick)
_THM8_HELD_KAPPA = PR.held_over_kappa([{k: v for k, v in h.items() if k != "kappa"} for h in _THM8_HELD])
_THM8_RATE = PR.rate(ds=_THM8_DS, held_d=_THM8_HELD_KAPPA,
                     fixed={"k": "one Claim-2 instance (k = 5) is simulated: Thm 7's unit of h_3 is ~ 10^3 steps (cost)",
                            "xi": "Claim 2 fixes xi = sqrt(k/(k-1))"})
_ACT_NAME = {2: "sigma(r.) = h_3", 5: "raw h_3"}
_WHAT = {0: "weak (m >= 1/2)", 1: "strong (m >= 3/4)"}


def _thm8_figure(theorem: str):
    """The figure of Thm 3 / Thm 8 (``theorem`` names the claim's own statement in its title): the quantity the
    verdict judges, the mean over instances of T/u at the theorem's step eta = kappa lambda/(C d) (the Rate's own
    runs: dayi2024.prescribed, cached, so nothing is simulated again), beside the step-tuned best-of-grid median T*
    of the extra check, both in Thm 7's time unit u = C/(kappa lambda^2) (T*/median u of its own instances).  u is
    free of d, so each slope is the slope of the raw iteration count."""
    from verify.kit import label_of
    from verify.kit import slope_of_means

    def check(claim, ctx, points) -> Evidence:
        xs = [float(x) for x in pick(ctx.profile, _THM8_DS)]
        trials = int(pick(ctx.profile, PR.RUNS))
        series, judged = [], {}
        for h in pick(ctx.profile, _THM8_HELD_KAPPA):
            Y = np.asarray(PR.sample([dict(h, d=x) for x in xs], trials, None, ctx), dtype=np.float64)
            if not np.isfinite(Y).all():
                continue                       # the Rate reports the censored runs; nothing to draw
            seed = ctx.seed_for(claim.id, "prescribed", "d", label_of(h))       # the Rate's bootstrap seed
            est, _, ci, means = slope_of_means(xs, Y, seed)
            act, w, kappa = int(h["act"]), int(h["recovery"]), float(h["kappa"])
            arm = f"theorem's step, {_ACT_NAME[act]} (judged)"       # one panel an arm, one colour a kappa
            series.append({"label": f"{arm}, kappa = {kappa:g}, {_WHAT[w]}",
                           "short": f"{arm}, kappa = {kappa:g}, {_WHAT[w]}", "params": {"arm": arm, "kappa": f"{kappa:g}"},
                           "role": _WHAT[w], "ds": [int(x) for x in xs],
                           "fit": (est, tuple(ci), None, list(map(float, means)), None), "stated": 1.0,
                           "stated_text": "1 (O~(d))"})
            if act == 2 and kappa == CM.KAPPA:
                judged[w] = dict(zip([int(x) for x in xs], map(float, means)))
        ratio = {}
        for p in points:
            ft, fits, _, _ = _thm8_runs(ctx, p)
            unit = float(np.median(1.0 / (CM.KAPPA * np.maximum(ft.scale, 1e-300) * np.maximum(ft.lam, 1e-12))))
            arm = f"best grid step, {_ACT_NAME[2]} (extra)"
            for w in (0, 1):
                f = fits[w]
                ts = [float(t) / unit for t in f["tstar"]]
                series.append({"label": f"{arm}, {_WHAT[w]}", "short": f"{arm}, {_WHAT[w]}", "params": {"arm": arm},
                               "role": _WHAT[w], "ds": list(ft.ds),
                               "fit": (f["exponent"], tuple(f["ci"]), None, ts, None), "stated": None,
                               "stated_text": None})
                common = [d for d in ft.ds if d in judged.get(w, {})]
                if common:
                    ratio[w] = [(d, t / judged[w][d]) for d, t in zip(ft.ds, ts) if d in common]
        shown = "; ".join(f"{_WHAT[w].split()[0]} " + ", ".join(f"{r:.2g}" for _, r in v) for w, v in ratio.items())
        at = ", ".join(str(d) for d, _ in next(iter(ratio.values()))) if ratio else ""
        # the title says what is drawn (about two lines); what is judged, why the extra arm is steeper and the
        # ratios of the two arms go to the details (a figure dict has no caption field: the caption is the title)
        title = (f"{theorem}: iterations to recovery vs d, Claim-2 instance (k = 5), in Thm 7's d-free unit "
                 "C/(kappa lambda^2)")
        ev = Evidence()
        ev.figures.append(CM.loglog_figure(title, series, ylabel=r"iterations / $(C/(\kappa\lambda^2))$",
                                           panels=("arm",)))   # one panel an arm
        ev.details["figure: what is judged and what is not"] = (
            "The unit C/(kappa lambda^2) is free of d, so each slope is that of the raw iteration count.  Judged: the "
            "theorem's step eta = kappa lambda/(C d).  Not judged: the best step of a fixed grid, steeper over this "
            "window because at small d a large step's noise reaches the threshold by chance"
            + (f"; best-grid count over the count at the theorem's step at d = {at}: {shown}" if shown else "") + ".")
        ev.details["figure: best-step count over the count at the theorem's step (sigma(r.) = h_3)"] = {
            _WHAT[w]: {str(d): r for d, r in v} for w, v in ratio.items()}
        return ev
    return check


def _thm8_check(theorem: str):
    return PR.over_kappa(AllOf([_THM8_RATE,
                                Custom(PR.as_extra("step-tuned design (issue 24): exponent of d of the best-step "
                                                   "iterations")(_thm8), points=_THM8_POINTS),
                                Custom(_thm8_figure(theorem), points=_THM8_POINTS)]))


def _thm8_witness(name: str, why: str, exponent: float, tol: float) -> Alternative:
    """A power witness judged on the verdict's own runs (the prescribed step, dayi2024.prescribed, cached): the
    exponent of d of T/u stated as Theta(d^exponent) within +- ``tol`` (no log allowance)."""
    from verify.kit import Rate
    r = Rate(exponents={"d": exponent, "k": 0.0, "xi": 0.0}, sweeps={"d": _THM8_DS}, held={"d": _THM8_HELD},
             sampler=PR.sample, fixed={"k": "a witness of the exponent of d only", "xi": "a witness of d only"},
             bound="theta", tol=tol, trials=PR.RUNS, name="prescribed", quantity="T/(C/(kappa lambda^2))")
    return Alternative(name, r, why)


_THM8_POWER = (
    _thm8_witness("Theta(d^2): fine-tuning as slow as online SGD from scratch (d^{p-1} at p = 3)",
                  "the reverse of the separation: fine-tuning no easier than the GLM of information exponent p = 3, "
                  "at the theorem's own step", 2.0, 0.25),
    _thm8_witness("Theta(d^{3/2}): exponent 1/2 above linear",
                  "a rate half a power above linear at the theorem's step (exponent exactly 3/2: the band has no "
                  "width, so any slope whose interval excludes 3/2 rejects it)", 1.5, 0.0))
_THM8_READING = (
    "Referee reading of what Thms 3 and 8 state about the iteration count.  Thm 8: 'fine-tuning with "
    "online SGD learns the teacher network perturbation in [a lost count of] samples'; its proof: 'The first part "
    "follows directly from the fact that [phi] satisfies the gradient lower bound in Condition 3 with a [lost] lower "
    "bound, and Theorem 7'.  So the count is Thm 7's, at Thm 7's step ('set the learning rate with scaling [lost], for "
    "total time with time scaling [lost]'; reconstructed: eta = kappa lambda/(C d) and T = O(C d/lambda^2) up "
    "to logs and the eps, delta dependence), with k and p fixed.  Thm 3 is its informal statement on the "
    "same instance ('only requires [lost] online SGD iterations').  Read plainly: at the theorem's own step the "
    "number of iterations grows at most like d times logs, with a factor C/lambda^2 that depends on k and p but not "
    "on d.  The verdict tests exactly that: the exponent of d of T/u, u = C/(kappa lambda^2) the instance's time unit "
    "(lambda the exact Condition-3 constant of the instance, C its gradient variance per dimension).  u does not "
    "depend on d, so this exponent is the exponent of the raw iteration count at the theorem's step; dividing by u "
    "only removes the spread of lambda over the random c^.  The step-tuned design kept as an extra measures another "
    "quantity: the fewest iterations any step of one fixed grid needs at each d.  Its raw slope over d = 32-128 "
    "(standard, seed 0: 2.05 [1.76, 2.40] to weak and 1.67 [1.48, 2.11] to strong recovery) is steeper because at "
    "d = 32 the best step is 10-30 times the 1/d scaling, and there the step's noise carries m over the threshold by "
    "chance (a walk on the sphere of dimension d reaches |m| = 1/2 with probability ~ exp(-d/8)).  So T*(32) is "
    "small; T*(128) is not large: at every d the best-step count lies below the count at the theorem's step (ratio of "
    "the drawn values, standard, seed 0: 0.03, 0.06, 0.08 to weak and 0.08, 0.13, 0.16 to strong recovery at "
    "d = 32, 64, 128, rising towards it; also in the figure's title), and the best step moves towards the 1/d "
    "scaling as d grows (nu d = 32, 22.6, 11.3 at d = 32, 64, 128; quick, seed 0).  A count below an O~(d) count cannot contradict an O~(d) upper bound.  The "
    "figure's raw slope is therefore a finite-size effect of the tuning, not evidence against the statement; d up "
    "to ~ 1024 (cost ~ 8x) would show it settle.  Power: the confirmation can fail, since a slope significantly "
    "above 1 + 2 s refutes it.  The two witnesses are judged on the verdict's own runs at the theorem's step: "
    "Theta(d^2), fine-tuning as slow as from scratch (band +- 0.25), and Theta(d^{3/2}) (exponent exactly 3/2).  "
    "They are rejected where the interval of the slope excludes their exponent.  Before this, they were judged on "
    "the step-tuned extra, whose window slope could not exclude them (detected, never rejected).")
_THM8_DOMAIN = Domain((Param("k", 3, 9, integer=True), Param("p", 3, 6, integer=True, doc="Hermite degree p >= 3")))
_THM8_NOTES = (
    "Fine-tuning side, judged: the Claim-2 instance (a fixed random c, c^ random per run), sigma(r .) = h_p (r = xi = "
    "sqrt(k/(k-1)); with sigma = h_p on raw neurons the teacher would have lower-degree Hermite components and the "
    "CSQ argument would not apply, so the normalized reading is the one Thm 8 needs); the exponent of d of the "
    "iterations to weak and strong recovery at the best step of one grid fixed for all d is at most 1 + 2 s "
    "(O~(d) read as d log^2 d over the d grid).  " + CM.TUNED_DESIGN + "  " + CM.TUNED_TARGET + "  "
    "From-scratch side: the CSQ lower bound d^{Omega(p)} is cited ([1, Prop. 6]) and not simulable, so it is not "
    "judged.  Issue 24: the earlier illustration (online SGD on the GLM limit of Remark 3, learning h_3(<u, x>)) ran "
    "at eta ~ d^{-3/2} for ~ d^2 steps, which built its exponent ~ 2 in; under the step-tuned design at the d we can "
    "afford it does not bracket an optimum (measured at seed 2, d in {8, 16, 32}, 48 runs, 15 steps sqrt(2)-spaced "
    "from 4/(C d_max^2) to 4/(C d_min): medians T* = 232, 733, 2191 with the best step the grid's largest at d = 8 "
    "and 32: at such d a noise-driven walk reaches m >= 1/2 by chance, P ~ exp(-d/8) per direction), so it was "
    "removed rather than kept as evidence.  The separation is therefore tested on its simulable half only.  Measured (quick, seed 0, d 32-128, 32 instances, 14 steps from 45/d_min to 2/d_max): T* to weak "
    "recovery 107, 783, 3632 steps (exponent 2.54 [1.97, 2.74]; the best step's nu d 32, 22.6, 11.3) and to strong "
    "recovery 853, 3946, 8471 (1.66 [1.39, 1.93]) against the bound 1.485; the run's verdict is inconclusive (the "
    "replication on fresh draws did not reproduce a rejection).  At the theorem's step ~ 1/d (the earlier design, "
    "kappa = 1) the same instance gave ~ 1.2-1.4.  So on this instance the measured exponent depends on the step "
    "rule at the d we can afford: the best step at d = 32 is ~ 10x the 1/d scaling (a large step's noise reaches "
    "m >= 1/2 at small d), which makes T*(32) small and the tuned slope steep.  Inconclusive, with that dependence "
    "shown; what would decide it is d up to ~ 1024 (cost ~ 8x) or the source's step schedule (lost).  "
    + CM.LOG_READING + "  " + HITTING + " " + CHAIN)

CLAIMS = [
    Claim(id="dayi2024.claim2", kind=Kind.EXACT, source=src("Claim 2 (L257-261) and its k = 3 example (L255)"),
          statement=r"d\ge\binom k2+1,\ \xi=\sqrt{k/(k-1)}:\ \exists\ \|w_i\|=1,\ u\perp W:\ "
                    r"\langle w_i+\xi c_iu,\,w_j+\xi c_ju\rangle=0\ (i\ne j)",
          assumptions="c in {+-1/sqrt k}^k arbitrary (Claim 2 does not need Assumption 3)",
          domain=Domain((Param("k", 2, 12, integer=True),)),
          stated=LR.claim2_xi_stated(),
          notes="The hypothesis (d >= k(k-1)/2 + 1, xi = sqrt(k/(k-1))) is reconstructed from the proof: 'each pair gets "
                "its own coordinate .. we will have at least 1 coordinate left .. We choose the magnitude of this entry to "
                "be [1/sqrt(k-1)]'.  The rows built this way are linearly dependent (span(W) has dimension k - 1).  The check "
                "builds the teacher with xi read from the stated form (derivations.lowrank.claim2_xi_stated).",
          check=Custom(_claim2)),
    Claim(id="dayi2024.prop3", kind=Kind.EXACT, source=src("Proposition 3 (L262-272)"),
          statement=r"\phi(m)=2p\sum_{i,j}\hat c_ic_j\rho_{ij}^{p-1},\ \rho_{ii}=\tfrac{k-1}k+\hat c_ic_im,\ "
                    r"\rho_{ij}=c_j(\hat c_im-c_i)",
          assumptions="the Claim-2 instance with sigma(r .) = h_p, r = xi = sqrt(k/(k-1)); " + SETTING,
          domain=Domain((Param("k", 3, 9, integer=True), Param("p", 2, 6, integer=True), Param("m", -0.99, 0.99))),
          stated=LR.prop3_phi_stated(),
          notes="Derived (the displayed formulas are lost): the general Prop. 1 with beta_q = delta_qp and the "
                "construction's Gram matrix.  The stated form the checks read (derivations.lowrank.prop3_phi_stated) is "
                "the displayed double sum carried out exactly (c^_i = s_i c_i, s_i = +-1): the instance enters through "
                "n_plus = #{i: c^_i = c_i} and a_plus/a_minus = sum of (sqrt(k) c_i)^p over i with c^_i = +-c_i; that "
                "it equals the double sum (derivations.lowrank.phi_prop3) is a doctest and a test.  Its 'with high probability over c^' statement (Condition 3) is reported as "
                "the exact fraction over all c^ (details), not judged: 'w.h.p.' is a statement as k grows.",
          check=AllOf([Custom(_prop3_exact),
                       Custom(_prop3_quadrature, points=per_profile(
                           [{"k": 4, "p": 3, "m": 0.3}, {"k": 5, "p": 4, "m": -0.4}],
                           [{"k": 4, "p": 3, "m": 0.3}, {"k": 5, "p": 4, "m": -0.4}, {"k": 5, "p": 3, "m": 0.7},
                            {"k": 6, "p": 3, "m": -0.8}]))])),
    Claim(id="dayi2024.thm8", kind=Kind.ORDERING, source=src("Theorem 8 (L273-277)"),
          statement=r"\text{fine-tuning: }\tilde O(d\,\mathrm{poly}\,k)\text{ online-SGD samples; from scratch: }"
                    r"d^{\Omega(p)}\text{ CSQ queries}",
          assumptions="the teacher and base networks of Claim 2 with sigma(r .) = h_p; " + SETTING,
          domain=_THM8_DOMAIN, notes=_THM8_READING + " " + CM.PRESCRIBED_DESIGN + " " + _THM8_NOTES,
          check=_thm8_check("Thm 8"), power=_THM8_POWER),
    Claim(id="dayi2024.thm3", kind=Kind.ORDERING, source=src("Theorem 3 (informal, L87-89)"),
          statement=r"\exists\text{ base, perturbation: scratch needs }d^{\Omega(p)}\text{ queries; fine-tuning }"
                    r"\tilde O(d\,\mathrm{poly}\,k)\text{ iterations}",
          assumptions="as Theorem 8", domain=_THM8_DOMAIN,
          notes="The informal statement of Thm 8; the same evidence (shared runs: the instance, the step and the "
                "draws are Thm 8's, so the two figures show the same data, each titled with its own theorem). "
                + _THM8_READING + " " + _THM8_NOTES + "  " + CM.KAPPA_OPEN,
          check=_thm8_check("Thm 3 (informal statement of Thm 8: the same instance and runs)"), power=_THM8_POWER),
]

CLAIMS = mark_reconstructed(CLAIMS)   # issue 22: every form of 003 tested here is ours

#: claims reading the same cached runs (prescribed._runs (the Claim-2 instance's sweeps) and _thm8_runs): a --jobs run gives them to one worker
RUN_TOGETHER = ((
    "dayi2024.thm3",
    "dayi2024.thm8",
),)
