"""§6 of 000_efaf07e323d59f0e.txt (Shachaf, Brutzkus, Globerson, NeurIPS 2021): fine-tuning a two-layer ReLU
network in the NTK regime — Theorem 6.1 (eq. (11)), Corollaries 6.2 and 6.3, and the checkable sentences
around them.

- ``cor6.2``        sqrt(y~^T (H^inf)^{-1} y~) <= 3 ||theta_T - theta_S|| for y~ = X (theta_T - theta_S): hypothesis
                    search over inputs (nearly parallel, nearly antipodal, Gaussian), n <= d and teachers, in
                    50-digit mpmath where float64 could decide; our derivation gives the sharp constant 2;
- ``thm6.1``        (11) on literal wide networks (pretraining then fine-tuning by GD) and on its kernel limit;
                    the O(.) term has no constant, so only its first term can be compared with the risk;
- ``cor6.3``        R <= 6 ||theta_T - theta_S|| / sqrt(n) + O(.): the composition 2 x 3 (sympy), the first term
                    against the risk under Assumption 3.2 (kernel limit, many draws) and on literal networks;
- ``sec6.distance`` "fine-tuning is improved as the distance between source and target decreases";
- ``sec6.gram``     the proof approach: ||H(t) - H^inf|| decreasing in m, through pretraining and fine-tuning;
                    the weights move less as m grows.

The literal runs (numerics/ntk_finetune.py) are shared by thm6.1, cor6.3, sec6.distance and sec6.gram: one
simulation per width m and run seed, seeded by ``ctx.generator("shachaf2021.sec6", "literal", "m=...")``
(independent of which claims are selected), cached for the run.
"""
from __future__ import annotations

import math
import random as _random

import mpmath
import numpy as np
import sympy as sp
import torch

from derivations import ntk_bounds as NB
from numerics import NotConverged
from numerics.ntk_finetune import finetune_trials, kernel_finetune_trials
from verify.kit import (AllOf, Alternative, Check, Claim, Constraint, Custom, Domain, Evidence, Identity, Kind, Param,
                        PropertySearch, Source, StatedSearch, StatTest, Tol, label_of, ordering_test, per_profile, pick)
from verify.kit import over_open_setting

PAPER = "shachaf2021"
SETTING = ("Two-layer ReLU network f(x) = m^{-1/2} sum_r a_r relu(w_r^T x), a_r uniform in {-1, 1} and fixed, "
           "first layer N(0, kappa^2 I) before pretraining, ||x|| = 1 (inputs uniform on S^{d-1} here); "
           "pretraining by GD on n_S points labelled by theta_S, fine-tuning by GD from the pretrained weights "
           "on n points labelled by theta_T, loss L = (1/n)||f(X) - y||^2; |y_i| <= 1; Assumption 3.1 (n <= d).")

# ----------------------------------------------------------------------------- the literal runs
D, N_S, KAPPA = 6, 36, 0.05
NS, DISTS = (1, 3, 6), (0.1, 0.25, 0.5)
THETA_S_NORM = 0.5            # ||theta_T|| <= 0.5 + 0.5 = 1, so |y_i| <= 1 as the theorem assumes
#: widths and independent networks per width (one decade of m at quick, more than one at standard).  At the
#: largest width thm6.1 tests literal / kernel-limit risk = 1 within 5%: the per-network spread of that ratio is
#: ~0.066 at m = 2048 (quick, seed 0), so deciding an estimate within 0.015 of 1 needs t_0.975 x 0.066 / sqrt(N) <=
#: 0.035, N >= 16 networks (6 left it undecided at quick; +1.5 s CPU)
WIDTHS = per_profile(quick=((128, 16), (512, 8), (2048, 16)),
                     standard=((256, 24), (1024, 12), (4096, 8)),
                     full=((256, 48), (1024, 24), (4096, 16), (16384, 8)))
N_TEST = per_profile(500, 1000, 4000)
_CACHE: dict = {}


def _trials_for(ctx, m: int) -> int:
    for mm, b in pick(ctx.profile, WIDTHS):
        if mm == m:
            return b
    return max(4, min(32, 16384 // m))


def _width_points(profile):
    return [{"m": m} for m, _ in pick(profile, WIDTHS)]


WIDTH_DOMAIN = Domain((Param("m", 1, math.inf, integer=True, doc="hidden width"),))


def _literal(ctx, m: int, kappa: float = KAPPA):
    """(FinetuneRun | NotConverged, seed) of the literal runs at width m (cached for the run); another ``kappa`` (the
    init scale, issue 24: sec6.distance) draws its own stream."""
    key = (ctx.seed, ctx.profile.name, str(ctx.device), str(ctx.dtype), int(m), float(kappa))
    if key not in _CACHE:
        gen, seed = ctx.generator(PAPER + ".sec6", "literal",
                                  f"m={int(m)}" + ("" if kappa == KAPPA else f", kappa={kappa:g}"))
        try:
            run = finetune_trials(_trials_for(ctx, m), int(m), D, N_S, NS, DISTS, gen, kappa=kappa,
                                  theta_S_norm=THETA_S_NORM, n_test=pick(ctx.profile, N_TEST),
                                  device=ctx.device, dtype=ctx.dtype)
        except NotConverged as e:
            run = e
        _CACHE[key] = (run, seed)
    return _CACHE[key]


def _literal_runs(ctx, points, ev: Evidence):
    """Yield (m, run, seed) of the literal runs at the points' widths, in order; a run that did not converge is an
    undecided check of ``ev`` (never evidence), the seed of every other is recorded in ``ev``."""
    for p in points:
        m = int(p["m"])
        run, seed = _literal(ctx, m)
        if isinstance(run, NotConverged):
            ev.checks.append(Check(f"literal networks m={m}", None, f"not converged: {run}", refutes=False))
            continue
        ev.seeds.append(seed)
        yield m, run, seed


def _first_term(q, n):
    return 2.0 * torch.sqrt(q / n)


def _ns_tensor(run):
    return torch.tensor(run.ns, dtype=run.q.dtype, device=run.q.device).view(1, -1, 1)


# ----------------------------------------------------------------------------- test helpers
def _cp(k: int, N: int) -> tuple[float, float]:
    from scipy import stats as sps

    ci = sps.binomtest(k, N).proportion_ci(0.95, method="exact")
    return float(ci.low), float(ci.high)


def _frequency_check(name: str, viol: np.ndarray, delta: float, extra: dict) -> Check:
    """A violation frequency of a bound whose O(.) term was dropped: True when the 95% Clopper-Pearson upper end
    is <= delta (the stated bound then holds for any O-constant >= 0), otherwise undecided (never refutes)."""
    k, N = int(viol.sum()), int(viol.size)
    lo, hi = _cp(k, N)
    ok = hi <= delta
    det = (f"{k}/{N} draws exceed the first term alone (95% CI of P: [{lo:.3g}, {hi:.3g}], delta = {delta:g})"
           + ("" if ok else "; the O(.) term, whose constant is not given, must carry the bound here: undecidable"))
    return Check(name, True if ok else None, det, refutes=False, extra=dict(extra, violations=k, trials=N, ci=(lo, hi)))


# ============================================================================= Corollary 6.2
def _unit_rows(Z):
    """Rows normalised; a zero row (hypothesis draws them) gives non-finite entries, which the search's filter
    rejects, without a division warning in the run's output."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return Z / np.linalg.norm(Z, axis=1, keepdims=True)


def _cor62_instance(p):
    """Inputs and teacher difference of a search point: rows x_i = normalise(s_i e_1 + eps z_i) ('clustered':
    nearly parallel or nearly antipodal for small eps) or normalise(z_i) ('gaussian')."""
    n, d = p["n"], p["d"]
    Z = np.array(p["z"], dtype=float).reshape(n, d)
    if p["mode"] == "clustered":
        E = np.zeros((n, d))
        E[:, 0] = np.array(p["signs"][:n], dtype=float)
        Z = E + p["eps"] * Z
    X = _unit_rows(Z)
    return X, p.get("scale", 1.0) * np.array(p["delta"], dtype=float)


def _cor62_points():
    from hypothesis import strategies as st

    def build(t):
        n, extra = t
        d = n + extra
        f = st.floats(-1.0, 1.0, allow_nan=False)
        return st.fixed_dictionaries({
            "n": st.just(n), "d": st.just(d), "mode": st.sampled_from(["clustered", "gaussian"]),
            "eps": st.one_of(st.just(1e-6), st.floats(1e-7, 2.0)),
            "signs": st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n),
            "z": st.lists(f, min_size=n * d, max_size=n * d),
            "delta": st.lists(f, min_size=d, max_size=d),
            # ||theta_T - theta_S|| over decades (the statement is for any teacher difference; the ratio is
            # scale-free, a bound that mistakes how it scales with ||Delta|| is not)
            "scale": st.sampled_from([1.0, 0.01, 100.0])})

    def ok(p):
        X, dl = _cor62_instance(p)
        if not np.all(np.isfinite(X)) or np.linalg.norm(dl) < 1e-6:
            return False
        s = np.linalg.svd(X, compute_uv=False)
        return s[-1] > 1e-7 * s[0]          # Assumption 3.1: X X^T non-singular
    return st.tuples(st.integers(1, 6), st.integers(0, 3)).flatmap(build).filter(ok)


def _ratio(p, projected=False, limit=3.0):
    """sqrt(y~^T H^-1 y~)/||Delta|| (or /||P_par Delta||): float64, recomputed in 50-digit mpmath when it is
    within 0.1 of the constant ``limit`` or the float64 solves are ill-conditioned (condition number > 1e10,
    where float64 could misjudge the comparison)."""
    X, dl = _cor62_instance(p)
    G = X @ X.T
    H = G * (math.pi - np.arccos(np.clip(G, -1, 1))) / (2 * math.pi)
    y = X @ dl
    try:
        qf = float(y @ np.linalg.solve(H, y))
        den = float(y @ np.linalg.solve(G, y)) if projected else float(dl @ dl)
        if den <= 1e-300:            # y~ = 0 (Delta orthogonal to every x_i): both sides are 0
            return 0.0
        r = math.sqrt(max(qf, 0.0) / den)
        cond = np.linalg.cond(H) * (np.linalg.cond(G) if projected else 1.0)
    except np.linalg.LinAlgError:
        r, cond = math.inf, math.inf
    if r > limit - 0.1 or not cond < 1e10 or not math.isfinite(r):
        with mpmath.workdps(50):
            f = NB.cor62_projected_ratio_mp if projected else NB.cor62_ratio_mp
            r = f(X.tolist(), dl.tolist())
    return r


def _adversarial(claim, ctx) -> Evidence:
    """Maximise the ratio by local search (Nelder-Mead on the inputs and the teacher difference, n = 2..4) from
    random starts; report the largest value and check it against 3 (stated) and 2 (derived), in mpmath."""
    from scipy.optimize import minimize

    rng = np.random.default_rng(ctx.seed_for(claim.id, "adversarial"))
    starts = pick(ctx.profile, per_profile(2, 6, 30))
    best, best_pt = 0.0, None
    for k in range(starts):
        n = 2 + k % 3
        d = n + int(rng.integers(0, 2))

        def neg(v):
            X = _unit_rows(v[:n * d].reshape(n, d))
            dl = v[n * d:]
            G = X @ X.T
            if np.linalg.svd(X, compute_uv=False)[-1] < 1e-9:
                return 0.0
            H = G * (math.pi - np.arccos(np.clip(G, -1, 1))) / (2 * math.pi)
            y = X @ dl
            try:
                return -math.sqrt(max(float(y @ np.linalg.solve(H, y)), 0.0) / float(dl @ dl))
            except np.linalg.LinAlgError:
                return 0.0
        v0 = rng.standard_normal(n * d + d)
        res = minimize(neg, v0, method="Nelder-Mead", options={"maxfev": 1500 * (n * d + d), "xatol": 1e-9,
                                                                "fatol": 1e-12})
        X = _unit_rows(res.x[:n * d].reshape(n, d))
        with mpmath.workdps(50):
            r = NB.cor62_ratio_mp(X.tolist(), res.x[n * d:].tolist())
        if r > best:
            best, best_pt = r, {"n": n, "d": d, "min |1 + x_i^T x_j|": float(np.min(1 + (X @ X.T)[np.triu_indices(n, 1)]))}
    b = float(best)
    return Evidence(checks=[
        Check(f"local search from {starts} random starts (Nelder-Mead, 50-digit re-evaluation): max ratio <= 3",
              b <= 3, f"largest sqrt(y~^T H^-1 y~)/||Delta|| found: {b:.6f} at {label_of(best_pt)}",
              counterexample=None if b <= 3 else best_pt),
        Check("the same maximum <= 2 (our constant)", b <= 2, f"largest ratio found {b:.6f}", refutes=False)],
        details={"adversarial max ratio": b, "at": best_pt})


def _constant_two(claim, ctx) -> Evidence:
    """Our derivation: Taylor coefficients of h (sympy) and the n = 2 supremum."""
    ok_series = NB.series_matches(8)
    lim = NB.pair_ratio_limit()
    return Evidence(checks=[
        Check("h(u) = u/4 + (1/2pi) sum_k c_k u^{2k+2}, c_k = (2k)!/(4^k k!^2 (2k+1)) > 0 (sympy, 16 orders)",
              bool(ok_series), "Taylor coefficients of u(pi - arccos u)/(2pi) at 0 match; each Hadamard power of "
              "X X^T is PSD (Schur), so H^inf >= X X^T / 4", refutes=False),
        Check("n = 2, u -> -1: sqrt((1-u)/(1/2 - h(u))) -> 2 (sympy limit): the constant 2 is the supremum",
              bool(sp.simplify(lim - 2) == 0), f"limit = {lim}", refutes=False)],
        figures=[_pair_figure()])


def _pair_figure() -> dict:
    """n = 2: the largest ratio over Delta as a function of u = x_1^T x_2 (both eigen-directions), with 2 and 3."""
    f_minus = sp.lambdify(NB.u, sp.sqrt(NB.pair_ratio_sq()), modules="mpmath")
    f_plus = sp.lambdify(NB.u, sp.sqrt((1 + NB.u) / (sp.Rational(1, 2) + NB.H_OF_U)), modules="mpmath")
    us = [float(v) for v in np.linspace(-0.9999, 0.9999, 400)]
    best = [float(max(f_minus(mpmath.mpf(v)), f_plus(mpmath.mpf(v)))) for v in us]
    return {"x": "u", "xlabel": "u = x_1^T x_2 (n = 2)", "ylabel": "max over Delta of sqrt(y~^T H^-1 y~)/||Delta||",
            "title": "cor6.2: the n = 2 ratio; supremum 2 as u -> -1 (stated constant 3)",
            "series": [{"kind": "line", "label": "largest generalised eigenvalue, sqrt", "group": "r", "x": us, "y": best},
                       {"kind": "line", "label": "our constant 2", "group": "2", "x": [-1, 1], "y": [2, 2], "dash": True},
                       {"kind": "line", "label": "stated constant 3", "group": "3", "x": [-1, 1], "y": [3, 3], "dash": True}]}


def _cor62_holds(bound_of, p) -> bool:
    """sqrt(y~^T (H^inf)^{-1} y~) <= the claim's stated bound (``bound_of``, a function of Delta = ||theta_T - theta_S||:
    3 Delta as stated) at the search point ``p``."""
    dn = float(np.linalg.norm(_cor62_instance(p)[1]))     # ||theta_T - theta_S|| (scaled)
    bound = bound_of({"Delta": dn})
    return _ratio(p, limit=bound / dn) * dn <= bound


def _u_mp():
    return {NB.u: (-0.999, 0.999)}


COR62 = Claim(
    id=f"{PAPER}.cor6.2", kind=Kind.BOUND,
    source=Source(PAPER, "§6, Corollary 6.2 (from Arora et al. [31], Theorem 6.1, p = 1)"),
    statement=(r"g_S(X)=X\theta_S,\ g_T(X)=X\theta_T,\ \text{Assumption 3.2}\ \Rightarrow\ "
               r"\sqrt{\tilde y^\top (H^\infty)^{-1}\tilde y}\le 3\|\theta_T-\theta_S\|_2"),
    assumptions=("Unit-norm inputs x_1..x_n with X X^T non-singular (Assumption 3.1, n <= d); perfect pretraining "
                 "(Assumption 3.2) so y~ = y - f(X, Theta(0)) = X (theta_T - theta_S); H^inf_ij = x_i^T x_j "
                 "(pi - arccos x_i^T x_j)/(2 pi)."),
    domain=Domain((Param("n", 1, math.inf, integer=True, doc="target samples"),
                   Param("d", 1, math.inf, integer=True, doc="input dimension")),
                  (Constraint(lambda p: p["n"] <= p["d"], "Assumption 3.1 (X X^T non-singular) needs n <= d"),)),
    stated=NB.cor62_stated(), derived=NB.cor62_derived(), stated_bound="upper",
    notes=("y~ read as y - f(X, Theta(0)) = X theta_T - X theta_S under Assumption 3.2 (the statement's "
           "'g_S(X) = X^T theta_S' is X theta_S for row-sample X).  Searched: n in 1..6, d in n..n+3, inputs "
           "Gaussian or clustered around +-e_1 at scale eps down to 1e-7 (nearly parallel and nearly antipodal "
           "pairs), any teacher difference; float64, re-evaluated in 50-digit mpmath when the ratio is within 0.1 of "
           "the constant or the solves are ill-conditioned (condition number > 1e10).  Our derivation (derivations/ntk_bounds.py): pi - arccos u = pi/2 + "
           "arcsin u gives H^inf = X X^T/4 + (1/2pi) sum_k c_k (X X^T)^{o(2k+2)} with c_k > 0, so H^inf >= X X^T/4 "
           "and sqrt(y~^T H^-1 y~) <= 2 ||P_par (theta_T - theta_S)|| <= 2 ||theta_T - theta_S||.  The constant 2 "
           "is sharp (approached, never reached, by two nearly antipodal inputs with theta_T - theta_S along "
           "them); the stated 3 is valid but not tight.  With the literal pretrained network instead of "
           "Assumption 3.2, y~ carries the pretraining error and the ratio is unbounded as ||theta_T - theta_S|| "
           "-> 0 (see thm6.1's details): the corollary needs the assumption."),
    check=AllOf([
        StatedSearch("sqrt(y~^T (H^inf)^{-1} y~) <= 3 ||theta_T - theta_S||", strategy=_cor62_points,
                     holds=_cor62_holds, show=lambda f, p: {"ratio": float(_ratio(p))},
                     examples=per_profile(200, 1000, 5000), precise=False),
        PropertySearch("derived: sqrt(y~^T (H^inf)^{-1} y~) <= 2 ||P_par (theta_T - theta_S)||",
                       strategy=_cor62_points, holds=lambda p: _ratio(p, projected=True, limit=2.0) <= 2,
                       show=lambda p: {"ratio": float(_ratio(p, projected=True))}, refutes=False,
                       examples=per_profile(100, 500, 2500)),
        Identity("h(u) = u/4 + u arcsin(u)/(2 pi)", NB.H_OF_U, NB.h_decomposed(), _u_mp(), refutes=False),
        Custom(_constant_two),
        Custom(_adversarial),
    ]),
)


# ============================================================================= Theorem 6.1
def _kernel_block(ctx, claim_id, name, d, ns, exact, B):
    gen, seed = ctx.generator(claim_id, name, f"d={d}")
    r = kernel_finetune_trials(B, d, N_S if d == D else 6 * d, ns, (0.5,), gen, theta_S_norm=THETA_S_NORM,
                               n_test=pick(ctx.profile, per_profile(500, 1000, 2000)), exact_pretraining=exact,
                               device=ctx.device, dtype=ctx.dtype)
    return r, seed


KERNEL_TRIALS = per_profile(300, 1500, 6000)
DELTA = 0.1                  # the failure probability delta of (11) used in the frequency checks


def _log_term(n, lam0, delta):
    return math.sqrt(math.log(n / (lam0 * delta)) / n)


def _thm61(claim, ctx, points) -> Evidence:
    ev = Evidence()
    # (a) kernel limit, many draws: how often the first term of (11) alone is exceeded
    ns = (1, 2, 3, 6)
    r, seed = _kernel_block(ctx, claim.id, "kernel", D, ns, False, pick(ctx.profile, KERNEL_TRIALS))
    ev.seeds.append(seed)
    nt = torch.tensor(ns, dtype=r["q"].dtype, device=r["q"].device).view(1, -1, 1)
    first = _first_term(r["q"], nt)
    ratio = (r["risk"] / first)[:, :, 0].cpu().numpy()
    rows = []
    for i, n in enumerate(ns):
        viol = (ratio[:, i] > 1).astype(float)
        q90 = float(np.quantile(ratio[:, i], 1 - DELTA))
        ev.checks.append(_frequency_check(
            f"kernel limit (m -> inf), n={n}, d={D}, ||theta_T - theta_S||=0.5: R <= 2 sqrt(y~^T H^-1 y~/n) "
            f"(O-term dropped)", viol, DELTA, {"n": n, "ratio quantile 1-delta": q90}))
        rows.append({"n": n, "violation rate": float(viol.mean()), "max ratio R/first": float(ratio[:, i].max()),
                     "ratio quantile 0.9": q90})
    ev.details["kernel limit: R / first term of (11)"] = rows
    ev.figures.append({"x": "quantile", "xlabel": "empirical quantile over draws", "ylabel": "R / (2 sqrt(y~^T H^-1 y~ / n))",
                       "title": "thm6.1: risk over the first term of (11), kernel limit, d=6", "logy": True,
                       "series": [{"kind": "points", "label": f"n={n}", "group": f"n={n}",
                                   "x": list(np.linspace(0, 1, ratio.shape[0])), "y": sorted(ratio[:, i].tolist()),
                                   "yerr": [0] * ratio.shape[0]} for i, n in enumerate(ns)]
                       + [{"kind": "line", "label": "ratio 1", "group": "bound", "x": [0, 1], "y": [1, 1]}]})
    # (b) literal networks at growing width
    lit = []
    for m, run, seed in _literal_runs(ctx, points, ev):
        first_l = _first_term(run.q, _ns_tensor(run))
        viol = (run.risk > first_l).any(-1).any(-1).double().cpu().numpy()
        ev.checks.append(_frequency_check(f"literal networks m={m} ({viol.size} nets, any n in {run.ns}, any "
                                          f"||theta_T-theta_S|| in {run.dists}): R <= first term of (11)", viol,
                                          DELTA, {"m": m}))
        lit.append((m, run, seed))
        ev.details.setdefault("literal", []).append({
            "m": m, "trials": int(run.risk.shape[0]), "steps": {str(k): v for k, v in run.steps.items()},
            "max final fine-tuning loss": float(run.ft_loss.max()), "max final pretraining loss": float(run.pre_loss.max()),
            "mean ramp risk of the pretrained net against theta_S (Assumption 3.2 holds up to this)":
                float(run.pre_risk.mean()),
            "mean risk": run.risk.mean(0).tolist(), "mean kernel-path risk": run.risk_kernel.mean(0).tolist(),
            "mean first term": first_l.mean(0).tolist(),
            "max sqrt(y~^T H^-1 y~)/(3||Delta||) with the literal pretrained y~": float((run.q.sqrt() / (3 * run.delta)).max())})
    # (c) the reduced path checked draw by draw against the literal networks at the largest width
    if lit:
        m, run, seed = lit[-1]
        rel = (run.risk / run.risk_kernel).mean((-1, -2)).cpu().numpy()
        from verify.kit import stat_test
        ev.tests.append(stat_test(f"literal / kernel-limit risk at the largest width m={m} (mean over n, distance)",
                                  {"m": m}, 1.0, rel, Tol(rel=0.05, abs=0.0), "derived", seed))
        ev.figures.append(_risk_vs_m(lit, "thm6.1"))
    return ev


def _risk_vs_m(lit, title):
    """Risk of the fine-tuned network against m (log-log), with the kernel limit and the first term of (11)."""
    series = []
    for (n_i, s_i) in ((0, 2), (2, 2), (2, 0)):
        n, s = lit[0][1].ns[n_i], lit[0][1].dists[s_i]
        g = f"n={n}, |dtheta|={s}"
        xs = [m for m, _, _ in lit]
        rk = [float(run.risk[:, n_i, s_i].mean()) for _, run, _ in lit]
        er = [1.96 * float(run.risk[:, n_i, s_i].std() / math.sqrt(run.risk.shape[0])) for _, run, _ in lit]
        kl = float(np.mean([float(run.risk_kernel[:, n_i, s_i].mean()) for _, run, _ in lit]))
        ft = [float(_first_term(run.q, _ns_tensor(run))[:, n_i, s_i].mean()) for _, run, _ in lit]
        series += [{"kind": "points", "label": f"network {g}", "group": g, "x": xs, "y": rk, "yerr": er},
                   {"kind": "line", "label": f"kernel limit {g}", "group": g, "x": xs, "y": [kl] * len(xs), "dash": True},
                   {"kind": "line", "label": f"first term of (11) {g}", "group": g, "x": xs, "y": ft}]
    return {"x": "m", "xlabel": "width m", "ylabel": "ramp-loss risk R", "logy": True, "logx": True,
            "title": f"{title}: fine-tuned risk vs width (d={D}, n_S={N_S}, kappa={KAPPA})", "series": series}


THM61 = Claim(
    id=f"{PAPER}.thm6.1", kind=Kind.PROB_BOUND,
    source=Source(PAPER, "§6, Theorem 6.1, eq. (11)"),
    statement=(r"\kappa=O(\lambda_0\delta/n),\ m\ge\kappa^{-2}\mathrm{poly}(n,n_S,\lambda_0^{-1},\delta^{-1}):\ "
               r"\text{w.p.}\ge1-\delta,\ R(\Theta(t))\le 2\sqrt{\tilde y^\top(H^\infty)^{-1}\tilde y/n}"
               r"+O\Big(\sqrt{\log\tfrac{n}{\lambda_0\delta}/n}\Big),\ \tilde y=y-f(X,\Theta(0))"),
    assumptions=SETTING + (" Loss l: R x R -> [0, 1], 1-Lipschitz in its first argument, l(y, y) = 0 (measured with "
                           "the ramp loss min(1, |f - y|), the largest such loss, so a bound shown for it holds for "
                           "all); GD for t >= Omega(log(1/||y~||)/(eta lambda_0)) iterations (run to training loss "
                           "<= 1e-6 x mean label^2)."),
    domain=WIDTH_DOMAIN,
    stated=NB.thm61_first_term_stated(),
    notes=("What can be judged: the O(.) term has no constant, so (11) can be neither confirmed nor refuted; we "
           "compare its first term alone with the measured risk (a violation is not a refutation), (a) in the "
           "kernel limit m -> inf, kappa -> 0 (NTK interpolation for pretraining and for fine-tuning, many draws) "
           "and (b) on literal networks trained by GD at widths spanning a decade or more, (c) checking the kernel "
           "limit against the literal networks at the largest width (risk ratio within 5%).  Finding: in the kernel "
           "limit the first term alone is exceeded with probability about 0.2 at n = 1 (313/1500 draws at standard), "
           "0.05 at n = 2, 0.01 at n = 3 and never at n = 6 (0/1500; d = 6, ||theta_T - theta_S|| = 0.5): y~ is "
           "random and small when the few inputs are nearly orthogonal to theta_T - theta_S, so at small n the "
           "unspecified O(.) term is what carries the bound (its first term alone fails at n = 1 with probability "
           "above any delta < 0.19).  The literal networks agree with the kernel limit at the largest width "
           "(mean risk ratio 1.005, 95% CI [0.989, 1.021] at m = 4096, standard; 0.982-0.996 over quick seeds 0-2 "
           "at m = 2048 with 16 networks).  So the verdict is inconclusive at every profile, by construction: the "
           "one Monte Carlo test (the kernel limit against the literal networks) is decided, while the first term "
           "alone is exceeded at n = 1 more often than delta, which only the unspecified O(.) term can settle.  The "
           "stated kappa = "
           "O(lambda_0 delta/n) and m >= kappa^{-2} poly(n, n_S, 1/lambda_0, 1/delta) have no constants and are far "
           "beyond reach; we use kappa = 0.05 (about 15 x lambda_0 delta/n at n = 6, delta = 0.1) and m up to 4096 "
           "(standard), and show convergence to the kernel limit instead.  The O(.) term itself cannot be confirmed "
           "or refuted by any finite simulation.  Pretraining: n_S = 36 points, d = 6, "
           "||theta_S|| = 0.5, ||theta_T - theta_S|| in {0.1, 0.25, 0.5} (|y| <= 1).  Non-converged runs "
           "are undecided checks."),
    check=Custom(_thm61, points=_width_points),
)


# ============================================================================= Corollary 6.3
def _cor63_kernel(claim, ctx, points) -> Evidence:
    """Kernel limit under Assumption 3.2, many draws per (d, n): how often R exceeds 6||dtheta||/sqrt(n)."""
    ev = Evidence()
    for p in points:
        d, n = int(p["d"]), int(p["n"])
        gen, seed = ctx.generator(claim.id, "kernel", label_of({"d": d, "n": n}))
        r = kernel_finetune_trials(pick(ctx.profile, KERNEL_TRIALS), d, N_S, (n,), (0.5,), gen,
                                   theta_S_norm=THETA_S_NORM, n_test=pick(ctx.profile, per_profile(500, 1000, 2000)),
                                   exact_pretraining=True, device=ctx.device, dtype=ctx.dtype)
        ev.seeds.append(seed)
        ratio = (r["risk"] / (6 * r["delta"] / math.sqrt(n)))[:, 0, 0].cpu().numpy()
        ev.checks.append(_frequency_check(
            f"kernel limit, Assumption 3.2, d={d}, n={n}: R <= 6||theta_T - theta_S||/sqrt(n) (O-term dropped)",
            (ratio > 1).astype(float), DELTA, {"d": d, "n": n, "max ratio": float(ratio.max())}))
        ev.details.setdefault("kernel limit: largest R / (6||dtheta||/sqrt n)", {})[f"d={d}, n={n}"] = float(ratio.max())
    return ev


def _cor63_points(profile):
    return [{"d": 20, "n": 20}, {"d": 40, "n": 20}, {"d": 40, "n": 40}]


def _cor63_literal(claim, ctx, points) -> Evidence:
    """Literal networks (shared with thm6.1): violations of the O-dropped bound among all draws and widths."""
    ev = Evidence()
    lit, k, N, worst = [], 0, 0, 0.0
    for m, run, seed in _literal_runs(ctx, points, ev):
        ratio = run.risk / (6 * run.delta / torch.sqrt(_ns_tensor(run)))
        k += int((ratio > 1).any(-1).any(-1).sum())
        N += int(ratio.shape[0])
        worst = max(worst, float(ratio.max()))
        ev.details.setdefault("literal: R / (6||dtheta||/sqrt(n)), mean over nets [n][dist]", []).append(
            {"m": m, "mean": ratio.mean(0).tolist(), "max": float(ratio.max()),
             "literal / kernel-limit risk": float((run.risk / run.risk_kernel).mean())})
        lit.append((m, run, seed))
    if N:
        ev.checks.append(Check(f"literal networks, all widths ({N} nets x n in {NS} x distances {DISTS}): "
                               "R <= 6||theta_T - theta_S||/sqrt(n), O-term dropped", True if k == 0 else None,
                               f"{k}/{N} networks exceed it somewhere; largest R / (6||dtheta||/sqrt n) = {worst:.3g}",
                               refutes=False))
    if lit:
        ev.figures.append(_risk_vs_m(lit, "cor6.3"))
    return ev


def _cor63_n_dependence(claim, ctx) -> Evidence:
    """Not judged: E[R] / ||theta_T - theta_S|| against n in the kernel limit under Assumption 3.2 (d = 20), drawn
    with the stated first term 6/sqrt(n) and ours 4/sqrt(n)."""
    ns = (1, 2, 5, 10, 20)
    gen, seed = ctx.generator(claim.id, "n-dependence")
    r = kernel_finetune_trials(pick(ctx.profile, per_profile(200, 500, 2000)), 20, N_S, ns, (0.5,), gen,
                               theta_S_norm=THETA_S_NORM, n_test=pick(ctx.profile, per_profile(500, 1000, 2000)),
                               exact_pretraining=True, device=ctx.device, dtype=ctx.dtype)
    x = (r["risk"] / r["delta"])[:, :, 0].cpu().numpy()
    mean, se = x.mean(0), x.std(0, ddof=1) / math.sqrt(x.shape[0])
    slope = float(np.polyfit(np.log(ns), np.log(mean), 1)[0])
    fine = list(np.geomspace(1, 20, 50))
    return Evidence(seeds=[seed], details={"kernel limit, d=20: E[R]/||dtheta|| per n": dict(zip(map(str, ns), mean.tolist())),
                                           "log-log slope in n (the bound's: -1/2)": slope},
                    figures=[{"x": "n", "xlabel": "target samples n", "ylabel": "E[R] / ||theta_T - theta_S||",
                              "logx": True, "logy": True,
                              "title": f"cor6.3: risk per unit distance vs n, kernel limit, d=20 (slope {slope:.2f})",
                              "series": [{"kind": "points", "label": "kernel limit (Assumption 3.2)", "group": "mc",
                                          "x": list(ns), "y": mean.tolist(), "yerr": (1.96 * se).tolist()},
                                         {"kind": "line", "label": "stated first term 6/sqrt(n)", "group": "b",
                                          "x": fine, "y": [6 / math.sqrt(v) for v in fine]},
                                         {"kind": "line", "label": "with our constant 4/sqrt(n)", "group": "b",
                                          "x": fine, "y": [4 / math.sqrt(v) for v in fine], "dash": True}]}])


COR63 = Claim(
    id=f"{PAPER}.cor6.3", kind=Kind.PROB_BOUND,
    source=Source(PAPER, "§6, Corollary 6.3 (Theorem 6.1 with Corollary 6.2)"),
    statement=(r"R(\Theta(t))\le\frac{6\|\theta_T-\theta_S\|_2}{\sqrt n}"
               r"+O\Big(\sqrt{\log\tfrac{n}{\lambda_0\delta}/n}\Big)"),
    assumptions=SETTING + " Conditions of Theorem 6.1 and Corollary 6.2 (Assumption 3.2: perfect pretraining).",
    domain=Domain((Param("d", 1, math.inf, integer=True), Param("n", 1, math.inf, integer=True),
                   Param("m", 1, math.inf, integer=True)),
                  (Constraint(lambda p: p.get("n", 1) <= p.get("d", math.inf), "Assumption 3.1 needs n <= d"),)),
    stated=NB.cor63_stated(), derived=NB.cor63_derived(),
    notes=("The O(.) term has no constant: only the first term is compared with the measured risk (ramp loss), "
           "which makes a strengthened statement; a violation would not refute.  (i) 6 = 2 x 3: (11)'s first term "
           "with Corollary 6.2 substituted gives the stated first term (sympy); with our constant 2 it would be "
           "4||theta_T - theta_S||/sqrt(n).  (ii) Under Assumption 3.2 in the kernel limit (pretrained function "
           "exactly x^T theta_S, fine-tuning = NTK interpolation of X(theta_T - theta_S)), many draws at "
           "d = 20 and d = 40 with n up to d, violation frequency of the first term alone against delta = 0.1.  In this "
           "limit the risk scales exactly with ||theta_T - theta_S||, so one distance (0.5) covers all.  For n <= 6 "
           "the O-dropped bound holds deterministically (R <= E|x^T dtheta| + sqrt(k(x,x)) sqrt(y~^T H^-1 y~) <= "
           "(1/sqrt d + sqrt 2)||dtheta|| <= 6||dtheta||/sqrt n by Cauchy-Schwarz in the RKHS and our constant 2), "
           "so such points could not fail and are not tested; (d, n) = (20, 20), (40, 20), (40, 40) can.  "
           "(iii) Literal networks (shared with thm6.1) at growing m, "
           "where pretraining is only approximately perfect (ramp risk of the pretrained net against x^T theta_S about "
           "0.013-0.023 with n_S = 36, d = 6, against E|x^T theta_S| = 0.16).  The dependence on n and on ||theta_T - theta_S||: "
           "see sec6.distance (ordering in the distance) and the details (risk over the first term).  Measured: "
           "R / (6||dtheta||/sqrt n) <= 0.12 in the kernel limit at (d, n) = (20, 20), (40, 40), at most 0.16 on "
           "the literal networks; the kernel-limit risk per unit distance at d = 20 falls only like n^{-0.12} for "
           "n = 1..20 (the figure), far below the bound but not at its 1/sqrt(n) rate."),
    check=AllOf([
        Identity("(11) first term with Cor. 6.2 substituted = 6||theta_T - theta_S||/sqrt(n)", NB.cor63_composed(),
                 NB.cor63_stated(), {NB.dist: (0, 3), NB.n: (1, 100)}),
        Custom(_cor63_kernel, points=_cor63_points),
        Custom(_cor63_literal, points=_width_points),
        Custom(_cor63_n_dependence, why_no_points="its n-dependence figure runs a fixed grid of n at d = 20"),
    ]),
)


# ============================================================================= checkable sentences
#: other initialization scales of the first layer (issue 24: the source asks kappa = O(lambda_0 delta / n), no value),
#: run at one width: kappa x2 at the middle width at quick (m = 512: +1.5 s CPU; the largest, m = 2048, cost +5.7 s),
#: kappa / 2 and x2 at the largest width at standard and full
DIST_KAPPAS = per_profile((2 * KAPPA,), (KAPPA / 2, 2 * KAPPA), (KAPPA / 2, 2 * KAPPA))
DIST_KAPPA_WIDTH = per_profile(1, -1, -1)   # index into the sorted widths of the check's points


def _distance_runs(ctx, points, ev):
    """(kappa, m, run, seed): the shared literal runs at KAPPA, then one width (DIST_KAPPA_WIDTH) at the other
    scales."""
    for m, run, seed in _literal_runs(ctx, points, ev):
        yield KAPPA, m, run, seed
    if not points:
        return
    ms = sorted(int(p["m"]) for p in points)
    m = ms[min(pick(ctx.profile, DIST_KAPPA_WIDTH), len(ms) - 1)]
    for k in pick(ctx.profile, DIST_KAPPAS):
        run, seed = _literal(ctx, m, k)
        if isinstance(run, NotConverged):
            ev.checks.append(Check(f"literal networks m={m}, kappa={k:g}", None, f"not converged: {run}", refutes=False))
            continue
        ev.seeds.append(seed)
        yield k, m, run, seed


def _distance(claim, ctx, points, reverse: bool = False) -> Evidence:
    """``reverse``: the power witness, the risk decreasing with the distance (the ordering reversed).  Run over the
    widths of the literal runs and, at one width, over the init scales of DIST_KAPPAS (issue 24)."""
    ev = Evidence()
    by_value: dict = {}
    for kappa, m, run, seed in _distance_runs(ctx, points, ev):
        tests = by_value.setdefault(f"kappa={kappa:g}", [])
        lab = f"m={m}" + ("" if kappa == KAPPA else f", kappa={kappa:g}")
        R = run.risk.mean(1).cpu().numpy()          # (B, len(dists)), mean over n
        for j in range(len(run.dists) - 1):
            pp = {"m": m, "kappa": kappa}
            if reverse:
                tests.append(ordering_test(f"{lab}: R(|dtheta|={run.dists[j + 1]}) - R(|dtheta|={run.dists[j]}) < 0",
                                           {**pp, "dist_a": run.dists[j + 1], "dist_b": run.dists[j]}, R[:, j + 1],
                                           R[:, j], seed, paired=True, what="risk decreases with the distance"))
                continue
            tests.append(ordering_test(f"{lab}: R(|dtheta|={run.dists[j]}) - R(|dtheta|={run.dists[j + 1]}) < 0",
                                       {**pp, "dist_a": run.dists[j], "dist_b": run.dists[j + 1]}, R[:, j],
                                       R[:, j + 1], seed, paired=True,
                                       what="risk increases with the source-target distance"))
    tests, checks = over_open_setting("the first layer's initialization scale kappa", by_value)
    ev.tests += tests
    ev.checks += checks
    return ev


DISTANCE = Claim(
    id=f"{PAPER}.sec6.distance", kind=Kind.ORDERING,
    source=Source(PAPER, "§6, sentence after Corollary 6.3"),
    statement=r"\text{fine-tuning is improved as the distance between source and target decreases}",
    assumptions=SETTING + " theta_T = theta_S + s u (u a uniform unit vector), s in {0.1, 0.25, 0.5}.",
    domain=WIDTH_DOMAIN,
    notes=("Read as: the expected risk of the fine-tuned network increases with ||theta_T - theta_S|| (same "
           "networks, inputs and directions; only the distance s changes: paired differences, mean over n in "
           "{1, 3, 6}).  Tested at every width of the literal runs.  With isotropic inputs the expected risk "
           "depends on theta_T - theta_S only through its norm in the kernel limit.  Settings the source leaves open "
           "(issue 24): the width m (the theorem asks m >= kappa^-2 poly(...)), the init scale kappa (kappa = "
           "O(lambda_0 delta / n), no value), the step eta and the number of iterations ('sufficiently many'), d, n_S "
           "and n. The widths are a range already (128/512/2048 at quick), and so are n (the risk is averaged over n "
           "in {1, 3, 6}) and the distances; pretraining and fine-tuning run GD to convergence (tolerance 1e-6, step "
           "0.8 n / lambda_max(H^inf)), so the step and the budget do not enter. kappa was one value (0.05): now also "
           "2 kappa = 0.1 at the middle width at quick (the largest width cost +5.7 s), kappa / 2 and 2 kappa at the "
           "largest width at standard and full; the verdict is the one that holds at every kappa "
           "(verify.judge.open_settings.over_open_setting). d = 6 and n_S = 36 are not varied."),
    check=Custom(_distance, points=_width_points),
    power=(Alternative("fine-tuning is improved as the distance increases",
                       Custom(lambda claim, ctx, points: _distance(claim, ctx, points, reverse=True), points=_width_points),
                       "the ordering reversed"),),
)


def _gram(claim, ctx, points, reverse: bool = False) -> Evidence:
    """``reverse``: the power witness, the Gram deviation and the weight movement increasing in m."""
    ev = Evidence()
    rows = []
    for m, run, seed in _literal_runs(ctx, points, ev):
        rows.append((m, run.gram_end.mean((-1, -2)).cpu().numpy(), run.move.mean((-1, -2)).cpu().numpy(),
                     run.gram_init.cpu().numpy(), seed))
    # consecutive widths; at quick (few networks per width) only the extreme widths, a decade apart
    pairs = list(zip(rows, rows[1:])) if ctx.profile.name != "quick" or len(rows) < 3 else [(rows[0], rows[-1])]
    for (m1, g1, mv1, _, s1), (m2, g2, mv2, _, s2) in pairs:
        if reverse:
            ev.tests.append(ordering_test(f"||H(t) - H^inf||_op: (m={m1}) - (m={m2}) < 0", {"m_small": m1, "m_large": m2},
                                          g1, g2, s2, paired=False, what="Gram deviation increasing in m"))
            ev.tests.append(ordering_test(f"max_r ||w_r(t) - w_r(init)||: (m={m1}) - (m={m2}) < 0",
                                          {"m_small": m1, "m_large": m2}, mv1, mv2, s2, paired=False,
                                          what="weight movement increasing in m"))
            continue
        ev.tests.append(ordering_test(f"||H(t) - H^inf||_op: (m={m2}) - (m={m1}) < 0", {"m_small": m1, "m_large": m2},
                                      g2, g1, s2, paired=False, what="Gram deviation decreasing in m"))
        ev.tests.append(ordering_test(f"max_r ||w_r(t) - w_r(init)||: (m={m2}) - (m={m1}) < 0",
                                      {"m_small": m1, "m_large": m2}, mv2, mv1, s2, paired=False,
                                      what="weight movement decreasing in m"))
    if len(rows) >= 2:
        lm = np.log([r[0] for r in rows])
        slope_g = float(np.polyfit(lm, np.log([r[1].mean() for r in rows]), 1)[0])
        slope_w = float(np.polyfit(lm, np.log([r[2].mean() for r in rows]), 1)[0])
        ev.details["log-log slopes in m"] = {"||H(t)-H^inf||": slope_g, "weight movement": slope_w,
                                             "||H(init)-H^inf||": float(np.polyfit(lm, np.log([r[3].mean() for r in rows]), 1)[0])}
        ev.figures.append({"x": "m", "xlabel": "width m", "ylabel": "operator norm / distance", "logy": True,
                           "logx": True, "title": f"sec6.gram: ||H(t)-H^inf|| and weight movement (slopes {slope_g:.2f}, "
                                                  f"{slope_w:.2f})",
                           "series": [{"kind": "points", "label": lab, "group": lab, "x": [r[0] for r in rows],
                                       "y": [float(r[k].mean()) for r in rows],
                                       "yerr": [1.96 * float(r[k].std() / math.sqrt(r[k].size)) for r in rows]}
                                      for k, lab in ((1, "||H(end)-H^inf||, fine-tuned"), (3, "||H(init)-H^inf||"),
                                                     (2, "max_r ||w_r(end)-w_r(init)||"))]})
    return ev


GRAM = Claim(
    id=f"{PAPER}.sec6.gram", kind=Kind.LIMIT,
    source=Source(PAPER, "§6, paragraph after Theorem 6.1 (proof approach)"),
    statement=(r"\|H(t)-H^\infty\|\ \text{is bounded by a decreasing function of } m\text{, through pretraining and "
               r"fine-tuning; the weights do not move far from initialisation}"),
    assumptions=SETTING,
    domain=WIDTH_DOMAIN,
    notes=("Read as: the mean operator-norm distance between the empirical tangent Gram matrix on the fine-tuning "
           "inputs after pretraining and fine-tuning, H(t)_ij = x_i^T x_j (1/m) sum_r 1{w_r^T x_i > 0}1{w_r^T x_j > "
           "0}, and H^inf decreases as m grows, and so does max_r ||w_r(t) - w_r(init)||.  Ordering tests between "
           "consecutive widths (independent networks, Welch; at quick, with 3-8 networks per width, only the "
           "smallest against the largest width, a decade apart); the log-log slopes are reported (about -1/2 expected "
           "from the 1/sqrt(m) Monte Carlo error of H(init) and the O(1/sqrt m) movement; not stated, not judged)."),
    check=Custom(_gram, points=_width_points),
    power=(Alternative("H(t) moves away from H^inf and the weights move more as m grows",
                       Custom(lambda claim, ctx, points: _gram(claim, ctx, points, reverse=True), points=_width_points),
                       "the ordering reversed"),),
)

def _corr_test(label, params, x, y, seed) -> StatTest:
    """The claim 'Spearman correlation of x and y > 0' as a one-sided test on -rho (Fisher z, se 1.06/sqrt(N-3)):
    rejected when rho is significantly < 0, agreement when the 95% interval of rho lies above 0."""
    from scipy import stats as sps

    N = len(x)
    rho = float(sps.spearmanr(x, y)[0])
    se = 1.06 / math.sqrt(N - 3)
    z = math.atanh(max(min(rho, 1 - 1e-12), -1 + 1e-12))
    lo, hi = math.tanh(z - 1.96 * se), math.tanh(z + 1.96 * se)
    return StatTest(label=label, params=dict(params), predicted=0.0, estimate=-rho, stderr=se, trials=N, tol=0.0,
                    pvalue=float(sps.norm.sf(-z / se)), target="stated", seed=seed, ci=(-hi, -lo), sided="upper",
                    extra={"spearman rho": rho, "rho 95% CI": (lo, hi), "test": "Fisher z, one-sided"})


def _residual(claim, ctx, points) -> Evidence:
    ev = Evidence()
    ns = tuple(sorted({int(p["n"]) for p in points}))
    gen, seed = ctx.generator(claim.id, "kernel", label_of({"d": D, "n": ns}))
    r = kernel_finetune_trials(pick(ctx.profile, per_profile(200, 600, 3000)), D, N_S, ns, (0.5,), gen,
                               theta_S_norm=THETA_S_NORM, n_test=pick(ctx.profile, per_profile(500, 1000, 2000)),
                               device=ctx.device, dtype=ctx.dtype)
    ev.seeds.append(seed)
    for i, n in enumerate(ns):
        ev.tests.append(_corr_test(f"kernel limit, d={D}, n={n}, ||theta_T - theta_S|| = 0.5: -Spearman(R, "
                                   f"y~^T H^-1 y~) < 0", {"n": n}, r["risk"][:, i, 0].cpu().numpy(),
                                   r["q"][:, i, 0].cpu().numpy(), seed))
    rows = []
    for m, _ in pick(ctx.profile, WIDTHS):          # the literal runs, for comparison (not judged)
        run, _s = _literal(ctx, m)
        if isinstance(run, NotConverged):
            continue
        from scipy import stats as sps
        rows.append({"m": m, "spearman per n at |dtheta|=0.5": [
            float(sps.spearmanr(run.risk[:, i, -1].cpu().numpy(), run.q[:, i, -1].cpu().numpy())[0])
            for i in range(len(run.ns))], "n": list(run.ns), "networks": int(run.risk.shape[0])})
    ev.details["literal networks (not judged)"] = rows
    return ev


RESIDUAL = Claim(
    id=f"{PAPER}.sec6.residual", kind=Kind.ORDERING,
    source=Source(PAPER, "§6, sentence after Theorem 6.1"),
    statement=(r"\text{the true risk of the fine-tuned model is related to the distance of the learned outputs }y"
               r"\text{ from the outputs after pretraining }f(X,\Theta(0))"),
    assumptions=SETTING + " Fixed ||theta_T - theta_S|| = 0.5; the randomness is in the inputs, teachers' directions.",
    domain=Domain((Param("n", 1, math.inf, integer=True),),
                  (Constraint(lambda p: p["n"] <= D, f"Assumption 3.1 at d = {D} needs n <= {D}"),)),
    tags=("extension",), role="remark",
    notes=("Extension: the sentence paraphrases (11), whose first term grows with y~^T (H^inf)^{-1} y~.  We read it "
           "beyond its context as a predictive relation: across random draws of the inputs at a fixed source-target "
           "distance, does a larger residual norm y~^T H^-1 y~ go with a larger risk?  It does not: in the kernel "
           "limit the Spearman correlation is strongly negative (about -0.7 at n = 1 to -0.85 at n = 6, d = 6): "
           "when the few inputs see more of theta_T - theta_S, y~ is larger and more of the difference is learned, "
           "so the risk is smaller.  The positive relation of (11) holds only through the distance itself (see "
           "sec6.distance), and the data-dependent first term is a bound, not a predictor.  A refutation here is a "
           "finding about the reading, not an erratum of the source."),
    check=Custom(_residual, points=lambda profile: [{"n": n} for n in (1, 3, 6)]),
)

CLAIMS = [COR62, THM61, COR63, DISTANCE, GRAM, RESIDUAL]
