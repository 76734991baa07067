"""Paper-level pieces of 003_83d15a9763fa9a30.txt (Dayi & Chen, *Gradient dynamics for low-rank
fine-tuning beyond kernels*) shared by every dayi2024 claim module: the reconstruction of the lost
mathematics we encode, the assumption texts, and the glue of the online-SGD scaling experiments
(instances, step size, hitting times, censored medians, exponent fits with bootstrap intervals).

Almost every formula of the source was lost in extraction.  The reading below is ours, built from the
surviving prose (line numbers L.. of the seed) and re-derived in ``derivations/lowrank.py``; every claim
that rests on it says so in its notes.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np
import torch

from derivations import lowrank as LR
from numerics import spherical_sgd as S
from verify.kit import Source, StatTest

PAPER = "dayi2024"


def src(where: str) -> Source:
    return Source(PAPER, where)


# ------------------------------------------------------------------ the reading (texts used in notes)
SETTING = (
    "Setting as reconstructed (L37-42, L51-66): x ~ N(0, I_d); base f(x) = a sum_{i<=k} sigma(<w_i, x>) with unit "
    "rows w_i (Assumption 1); teacher weights w_i + xi c_i u with u perp span{w_i} (Assumption 2), ||u|| = 1, "
    "c uniform on {+-1/sqrt k}^k (Assumption 3); student weights w_i + xi c^_i u^ with c^ drawn independently "
    "of c and frozen (L62), u^ trained by online spherical SGD, eq. (4): u^_{t+1} = (u^_t - eta g_t)/||.||, "
    "g_t = (I - u^ u^T) P_perp grad l(u^; x_t), fresh x_t, started uniformly on the unit sphere of "
    "span(W)^perp (L63-64); squared loss (L34).")
NORMALIZATION = (
    "Normalizations chosen (lost in the source): output scale a = 1, loss (f - f*)^2 without 1/2, raw "
    "pre-activations, so beta_p are the Hermite coefficients of sigma(r .) with r = sqrt(1 + xi^2/k) (every "
    "neuron has norm r).  The alternative 'normalized neuron' model sigma(<a, x>/r) (beta_p = coefficients of "
    "sigma itself) is the same formula with beta_p -> sigma^_p; a = 1/sqrt k multiplies phi by 1/k and the "
    "1/2 halves it (the step size absorbs both).")
PROP1_READING = (
    "Prop. 1 (L155-158, proof L330-338) as reconstructed: grad^S L(u^) = -phi(m)(u - m u^) with m = <u^, u> and "
    "phi(m) = (2 a^2 xi^2/r^2) sum_{i,j} c^_i c_j sum_{p>=1} p beta_p^2 rho_ij(m)^{p-1}, "
    "rho_ij(m) = (<w_i, w_j> + xi^2 c^_i c_j m)/r^2.  The text keeps 'Given .., define .. Define .. by .. Then at "
    "any .., the population spherical gradient is given by'; the symbols are lost.")
STEP_SIZE = (
    "Step size and horizon (Thm 7, L195: 'set the learning rate with scaling .., for total time with time scaling ..'; "
    "the rates are lost): we use the structure eta = kappa lambda/(C d) with lambda = min over the good half "
    "{m: sign(m) = sign(phi(0))} of sign(phi(0)) phi(m) (Condition 3, exact from phi), C = E[coef^2] the gradient "
    "variance per dimension (Condition 2, Monte Carlo at m = 0, shared by every d) and kappa a small constant; "
    "runs start from u^_0 uniform on the sphere of span(W)^perp, flipped to -u^_0 when sign(m_0) != sign(phi(0)) "
    "(L140: 'we can simply re-run the algorithm initialized at -u^_0').")
HITTING = (
    "Weak recovery: first t with sign(phi(0)) m_t >= 1/2; strong recovery: first t with sign(phi(0)) m_t >= 1 - eps, "
    "eps = 1/4 (both thresholds are our choice; the text's are lost).  The step constant kappa = 1/2 is chosen so that "
    "the normalization equilibrium of eq. (4) (1 - m^2 ~ kappa lambda m/(2 phi(m)), since c^ != c keeps the gradient "
    "variance non-zero at m = 1) lies above 1 - eps; the theorem's eta carries this eps-dependence.  A run that has not "
    "hit within its budget is censored, not dropped.  The exponent of d: every instance (c, c^ and the Gaussian "
    "coordinate g_1 of its start along u, common random numbers) is run at every d; its times are measured in its own "
    "unit C/(kappa lambda^2) (Thm 7's time scale; d-independent), so the budget tau median(unit) d^q censors it at "
    "the same level tau median(unit)/unit in every d; per d the Kaplan-Meier (product-limit) median of T/unit is "
    "taken, and the exponent is the least-squares slope of its log on log d with a 95% percentile bootstrap interval "
    "over instances (resampled jointly across d).  A median undefined at some d (more than half censored) leaves the "
    "test undecided.  KM assumes the censoring level (set by the instance's unit) independent of T/unit; since the "
    "level is the same at every d, a dependence would shift all medians alike and leave the slope unchanged to first "
    "order.")
CHAIN = (
    "The SGD is simulated exactly in law through m_t (numerics.spherical_sgd.overlap_chain): x's law is invariant "
    "under rotations fixing span(W) and u, so m_t is a Markov chain driven by (W x, <u, x>, <e, x>, ||y||^2) "
    "~ N(0, WW^T) x N(0,1)^2 x chi^2_{d-k-2}; the chain is checked draw by draw against the literal d-dimensional "
    "eq. (4) (tests/test_dayi2024.py).")

ASSUME_ORTHO = ("Assumptions 1-3 and 5, orthonormal rows w_i (Thm 1/4/5), " + SETTING)
ASSUME_SEP = ("Assumptions 1-5 with angularly separated rows (Assumption 4, L78: the threshold is lost; we use "
              "fixed Gram matrices with max off-diagonal |<w_i, w_j>| <= 0.45), " + SETTING)

# ------------------------------------------------------------------ activations (index <-> name)
#: activation codes used in the claims' parameter points (a Param must be numeric)
ACTS = {0: ("relu", 1.0), 1: ("erf", 1.0), 2: ("h3", "r"), 3: ("h2+h3", 1.0), 4: ("tanh", 1.0), 5: ("h3", 1.0),
        6: ("h4", "r")}
ACT_DOC = ("activation code: 0 relu, 1 erf, 2 h3 on normalized neurons (sigma(r .) = h_3, information exponent 3), "
           "3 h2+h3, 4 tanh, 5 raw h3 (beta_p of h_3(r .)), 6 h4 on normalized neurons")


def activation(code: int, r: float) -> tuple[str, float]:
    name, inner = ACTS[int(code)]
    return name, (r if inner == "r" else float(inner))


# ------------------------------------------------------------------ instances and phi
def gram_separated(k: int, seed: int = 12345) -> np.ndarray:
    """A fixed Gram matrix of k unit vectors in R^{k+2} with random (not small) correlations:
    Assumption 4 (angular separation) holds with max |<w_i, w_j>| <= 0.45 (fixed draw, d-independent)."""
    rng = np.random.default_rng(seed + k)
    while True:
        V = rng.standard_normal((k, k + 2))
        V /= np.linalg.norm(V, axis=1, keepdims=True)
        G = V @ V.T
        off = np.abs(G - np.eye(k)).max()
        if 0.2 <= off <= 0.45:
            return G


def gram_correlated(k: int, seed: int = 54321, band=(0.7, 0.8)) -> np.ndarray:
    """Issue 37: a fixed Gram matrix of k unit vectors in R^{k+2} sharing a common direction, with max |<w_i, w_j>|
    in ``band``: angular separation at a stronger correlation than gram_separated's (Assumption 4's threshold is
    lost, L79; L69 calls the separation 'very mild').  A draw v_i = g_i + s sqrt(k+2) e (g_i Gaussian, e a unit
    vector, s random) normalised, kept when its largest off-diagonal entry falls in the band (fixed draw)."""
    rng = np.random.default_rng(seed + k)
    while True:
        e = rng.standard_normal(k + 2)
        e /= np.linalg.norm(e)
        V = rng.standard_normal((k, k + 2)) + rng.uniform(0.5, 2.5) * math.sqrt(k + 2) * e
        V /= np.linalg.norm(V, axis=1, keepdims=True)
        G = V @ V.T
        off = np.abs(G - np.eye(k)).max()
        if band[0] <= off <= band[1]:
            return G


def phi_grid(G, c, c_hat, xi, kp, n: int = 201):
    """phi(0) and lambda = min_{m in sign(phi(0)) [0, 1]} sign(phi(0)) phi(m) for each instance (rows of c, c^)."""
    c, c_hat = np.asarray(c), np.asarray(c_hat)
    ms = np.linspace(0.0, 1.0, n)
    phi0 = np.empty(len(c))
    lam = np.empty(len(c))
    for i in range(len(c)):
        Gi = G[i] if np.ndim(G) == 3 else G
        p0 = float(LR.phi_value(0.0, Gi, c[i], c_hat[i], xi, kp))
        sg = 1.0 if p0 >= 0 else -1.0
        phi0[i] = p0
        lam[i] = float((sg * LR.phi_value(sg * ms, Gi, c[i], c_hat[i], xi, kp)).min())
    return phi0, lam


def km_quantile(y, cens, q: float = 0.5) -> float:
    """Kaplan-Meier (product-limit) q-quantile of times ``y`` (inf = not observed) censored at per-item
    levels ``cens``: an item is an event at y_i if y_i <= c_i, else censored at c_i; the quantile is the
    smallest event time t with S(t) <= 1 - q, +inf when the curve never gets there (too much censoring).
    Ties: events before censorings.  With one common censoring level and no censoring below the quantile
    this is the lower empirical quantile."""
    y, c = np.asarray(y, float), np.broadcast_to(np.asarray(cens, float), np.shape(y))
    obs = np.isfinite(y) & (y <= c)
    t = np.where(obs, y, c)
    order = np.lexsort((~obs, t))
    t, e = t[order], obs[order]
    at_risk = len(t) - np.arange(len(t))
    S = np.cumprod(np.where(e, 1.0 - 1.0 / at_risk, 1.0))
    idx = np.nonzero(e & (S <= 1.0 - q + 1e-12))[0]
    return float(t[idx[0]]) if len(idx) else math.inf


def km_median(times: np.ndarray, budget: int) -> float:
    """Kaplan-Meier median of hitting times censored at one common ``budget`` (-1 = censored)."""
    t = np.where(np.asarray(times) < 0, np.inf, np.asarray(times, float))
    return km_quantile(t, float(budget))


def log_allowance(ds, power: int) -> float:
    """The extra log-log slope that a factor log(d)^power adds to d over the grid ``ds`` (least squares, the same
    fit as the hitting times): power * slope of log log d on log d.  d in [32, 128]: 0.243 per power of the log;
    [64, 256]: 0.208; [24, 96]: 0.261; [8, 32]: 0.369."""
    x = np.log(np.asarray(ds, float))
    return float(power * np.polyfit(x, np.log(x), 1)[0])


#: the largest power of log d we let O~(d) hide (see LOG_READING)
LOG_POWER = 2
LOG_READING = (
    "O~(d): the text omits logarithmic factors without saying which (L106: 'We write [O~] to omit logarithmic "
    "factors'; every displayed rate is lost), so 'linear in d' cannot be judged against exponent exactly 1 on a "
    "finite d-range: d log^j d has a log-log slope 1 + j s over the grid (s = slope of log log d on log d: 0.243 on "
    "d in [32, 128], 0.208 on [64, 256]).  We read O~(d) as at most d log^2 d (one log from a step size "
    "eta ~ 1/(d log d) and one from a union bound over the O(d) steps, the usual sources in online-SGD proofs; a "
    "larger power would be our guess, not the text's), so the claim tested is: the exponent of d over the grid is "
    "<= 1 + 2 s (one-sided: confirmed when the 95% CI lies below it, refuted when the slope is significantly "
    "above it, e.g. the GLM's d^{p*-1} = d^2).  Finite-size corrections are positive here (T = a d - b sqrt d from "
    "the initial overlap ~ 1/sqrt d, and the chi^2_{d-k-2} normalization): measured at seed 7 on d = 32 .. 1024 "
    "(k = 5, xi = 1, ReLU, 24 instances) the median of T/(C d/(kappa lambda^2)) to weak recovery was 0.29, 0.32, "
    "0.41, 0.43, 0.43, 0.46, i.e. local slopes 1.16, 1.36, 1.05, 1.02, 1.10, settling to ~1 beyond d = 128; "
    "whether the CI contains 1 (no log at all) and lies below 1 + s (d log d) is reported in each test's extra.")


def loglog_figure(title: str, series: list[dict], ylabel: str = r"median of $T/u$",
                  panels: tuple[str, ...] | None = None) -> dict:
    """A figure dict in the judge's format: log-log points of the fitted medians against d, the least-squares
    fit through them and a line of the stated slope, with every fitted exponent [95% CI] beside the stated one.

    ``series``: dicts with ``label``, ``params`` (the arm: xi, W, activation; one colour each), ``role``
    (what is measured: 'weak recovery (m >= 1/2)'), ``ds``, ``fit`` (the tuple of :func:`fit_order`: the points
    drawn are its medians of T/u, the quantity whose slope is the exponent), ``stated`` (the stated slope) and
    ``stated_text`` (the stated order with its allowance, as the test reads it)."""
    out, slopes = [], []
    series = [_as_series(s) for s in series]
    for s in series:
        est, (lo, hi), _, meds, _ = s["fit"]
        ds = list(s["ds"])
        pts = [(d, m) for d, m in zip(ds, meds) if math.isfinite(m) and m > 0]
        lx = [math.log10(d) for d, _ in pts]
        ly = [math.log10(m) for _, m in pts]
        arm = ", ".join(f"{k}={v}" for k, v in (s.get("params") or {}).items()) or s["label"]
        base = {"group": arm, "params": s.get("params"), "x": [d for d, _ in pts]}   # one colour per arm
        out.append(dict(base, kind="points", label=s["label"], role=s["role"], y=[m for _, m in pts],
                        yerr=[0.0] * len(pts)))
        if len(pts) >= 2 and math.isfinite(est):
            cx, cy = sum(lx) / len(lx), sum(ly) / len(ly)
            out.append(dict(base, kind="line", label=f"fit {s['label']}", role="least-squares fit (slope = exponent)",
                            y=[10 ** (cy + est * (v - cx)) for v in lx]))
            if s.get("stated") is not None:
                out.append(dict(base, kind="line", label=f"stated slope {s['label']}",
                                role=f"stated slope {s['stated']:g} (through the same centre)",
                                y=[10 ** (cy + s["stated"] * (v - cx)) for v in lx]))
        slopes.append({"label": s.get("short", s["label"]), "fitted": float(est), "ci": [float(lo), float(hi)],
                       "stated": s.get("stated"), "stated_text": s.get("stated_text")})
    fig = {"x": "d", "xlabel": "dimension $d$", "ylabel": ylabel + " (log scale)", "title": title, "logx": True,
           "logy": True, "ylim": None, "series": out, "slopes": slopes, "rate": True,
           # text-valued parameters (W, activation, training) are shown by their value alone
           "values": {k: {v: v for v in {str(x["params"][k]) for x in series if k in (x.get("params") or {})}}
                      for k in {k for x in series for k, v in (x.get("params") or {}).items() if isinstance(v, str)}}}
    if panels is not None:
        fig["panels"] = list(panels)
    return fig


def _as_series(s) -> dict:
    """A series of :func:`loglog_figure` from the step-tuned design's ``(label, ds, T*(d), fit)`` (fit of
    :func:`fit_tuned`): the points drawn are T*(d), the quantity whose slope is the exponent, with the fitted
    exponent [bootstrap CI] beside the stated slope 1 of O~(d)."""
    if isinstance(s, dict):
        return s
    lab, ds, tstar, fit = s
    arm, _, what = lab.rpartition(", ")      # "k=5, xi=1.12, orthonormal, relu" and "weak (m >= 1/2)": one colour per arm
    return {"label": lab, "short": lab, "params": {"arm": arm or lab}, "role": what or lab,
            "ds": ds, "fit": (fit["exponent"], tuple(fit["ci"]), None, list(tstar), None), "stated": 1.0,
            "stated_text": "1 (O~(d))"}


def label_of_point(p: dict) -> str:
    """A readable label of a scaling point (k, xi, sep, act)."""
    name, inner = ACTS[int(p["act"])]
    act = name + ("(r.)-normalized" if inner == "r" else "")
    return f"k={int(p['k'])}, xi={float(p['xi']):.3g}, {'separated' if int(p['sep']) else 'orthonormal'}, {act}"


# ------------------------------------------------------------------ issue 22: say where a form is ours
RECONSTRUCTION_NOTE = (
    "Reading (issue 22): the seed keeps the prose of 003 but its formulas were lost in extraction (e.g. Prop. 1: "
    "'Given , define'; Thm 1: 'Let , and let for sufficiently small absolute constant factor'); every form tested here is our "
    "reconstruction from the surviving prose (dayi2024/common.py, derivations/lowrank.py), so a confirmation "
    "confirms that reconstruction, not a printed formula of the source.")


def mark_reconstructed(claims: list) -> list:
    """The claims with the reconstruction note appended where their notes do not already say that the form is ours."""
    import dataclasses

    return [c if "reconstruct" in c.notes.lower() else dataclasses.replace(c, notes=(c.notes + " " + RECONSTRUCTION_NOTE).strip())
            for c in claims]


# ------------------------------------------------------------------ issue 24: a step tuned per d by a rule free of the exponent
TUNED_DESIGN = (
    "Design (issue 24: a design must not build the exponent in).  The step is not scaled by a power of d: every "
    "instance i runs at every d with each step eta = nu_j lambda_i/C_i of one fixed geometric grid nu_j (spacing "
    "sqrt 2, the same grid at every d; lambda_i/C_i is Thm 7's d-free step constant of the instance, Condition 3 "
    "over Condition 2), for one common budget of B steps at every d (a single number, not a power of d).  At each d "
    "the iteration count is the best over the grid: T*(d) = min_j of the Kaplan-Meier median over instances of the "
    "hitting time at step nu_j (a run not hitting within B is censored at B); the exponent is the least-squares slope "
    "of log T*(d) on log d, its 95% interval a percentile bootstrap over instances (resampled jointly across d and "
    "the grid).  So a truth of d^{3/2} or d^2 would show as such (the from-scratch GLM, tuned by the same rule, "
    "does show ~ d^2), and a minimum at an edge of the grid (the optimum not bracketed) leaves the test undecided.  "
    "Censoring is evidence, not dropped: where T*(d) is censored at the largest d's only (every median beyond B), "
    "B is a lower bound of T*(d) there and the slope with T* capped at B is a lower bound of the exponent; it is "
    "used to refute an upper bound (or to confirm a lower bound), never to confirm an upper bound.")


TUNED_TARGET = (
    "A claim's own exponent tests are judged against our reading (target 'derived'): a slope significantly above "
    "1 + 2 s over the d window makes the claim inconclusive, with the rejection shown, and does not refute it, "
    "because at the smallest d's the best step is far above the 1/d scaling (nu d ~ 10-30 at d = 32: a large step's "
    "noise reaches the thresholds by chance there), so T*(d_min) is pre-asymptotic and a steep window slope does "
    "not show that no step achieves O~(d) (measured: thm8 at standard, seed 0, exponent to weak recovery ~ 2.5 over "
    "d 32-128, rejected and replicated -- a refutation in the first version of this design).  The power "
    "witnesses are judged as stated alternatives: their rejection shows the data exclude them.")


@dataclass
class Tuned:
    """Hitting times of one setting over several d and a fixed step grid (same instances everywhere)."""

    ds: list
    grid: list            # nu_j: eta = nu_j * scale_i (the same at every d)
    hits: dict            # d -> (J, R, n_thresholds) int array, -1 censored at budget
    budget: int           # common to every d
    phi0: np.ndarray
    lam: np.ndarray
    scale: np.ndarray     # (R,) lambda_i/C_i (or 1/median C in the GLM limit)
    m_final: dict         # d -> (J, R)


def step_grid(lo: float, hi: float) -> list:
    """The geometric grid nu = hi 2^{-j/2}, j = 0, 1, .. down to lo (inclusive within rounding)."""
    out, v = [], float(hi)
    while v >= lo * (1 - 1e-9):
        out.append(v)
        v /= math.sqrt(2.0)
    return out


def run_tuned(gen: torch.Generator, *, k: int, arms, act_name: str, inner, ds, R: int, grid, budget_units: float,
              rank_w=None, thresholds=(0.5, 0.75), c_hat_equals_c: bool = False, c_fixed=None, glm: bool = False,
              budget_steps: int | None = None, per_d: bool = False, run_horizon: float | None = None,
              dtype=torch.float64, device="cpu") -> list:
    """Online SGD (eq. (4), exact chain) for R instances at every d in ``ds``, every step eta = nu scale_i of the
    d-free ``grid`` (nu) and every arm (xi, gram), in one tensor, for one common budget of
    ``budget_units`` * median(C_i/lambda_i^2) steps (``glm``: lambda = 0, scale = 1/median(C) and the budget
    ``budget_units`` * median(C) steps).  Instance i starts at every d and every step from the same Gaussian
    coordinate g_1 (common random numbers; u^_0 uniform on the sphere of span(W)^perp, flipped to the sign of
    phi(0)).  ``budget_steps``: one budget in steps for every arm instead (a sweep over k or eps compares
    hitting times censored at one common level).  ``per_d``: the step at dimension d is eta = nu scale_i / d (the
    theorems' prescribed step ~ lambda/(C d), :func:`run_prescribed`) instead of nu scale_i.  ``run_horizon``: every
    run is simulated for at least ``run_horizon``/(eta_i lambda_i) steps, its own horizon in its drift time (Thm 7's
    T = O(C d/lambda^2) at eta = kappa lambda/(C d)), not only for the common budget (set by the median instance):
    a run that has not hit every threshold within the common budget is continued (the same chain from its state,
    the same generator, so every run finished within the budget is unchanged) up to its own horizon, and its hits
    count up to max(budget, own horizon).  Returns one :class:`Tuned` per arm."""
    nd, J = len(ds), len(grid)
    per_arm = []
    for xi, gram in arms:
        G = np.asarray(gram, dtype=float)
        r = math.sqrt(float(G[0, 0]) + xi * xi / k)
        inn = r if inner == "r" else float(inner)
        act = S.Activation(act_name, inn)
        if c_fixed is not None:
            c = torch.as_tensor(np.tile(np.asarray(c_fixed, float), (R, 1)), dtype=dtype, device=device)
        else:
            c = S.rademacher_c(R, k, gen, device=device, dtype=dtype)
        c_hat = c.clone() if c_hat_equals_c else S.rademacher_c(R, k, gen, device=device, dtype=dtype)
        kp = LR.kprime_function(act_name, r, inn)
        phi0, lam = phi_grid(G, c.cpu().numpy(), c_hat.cpu().numpy(), xi, kp)
        Gt = torch.as_tensor(G, dtype=dtype, device=device)
        C = S.coef_second_moment(4096, Gt, c, c_hat, xi, act, gen).cpu().numpy()
        if glm:
            scale = np.full_like(C, 1.0 / float(np.median(C)))
            budget = int(math.ceil(budget_units * float(np.median(C))))
        else:
            lam_pos = np.maximum(lam, 1e-12)
            scale = lam_pos / C
            budget = int(math.ceil(budget_units * float(np.median(C / lam_pos ** 2))))
        if budget_steps is not None:
            budget = int(budget_steps)
        per_arm.append(dict(xi=xi, G=G, act=act, c=c, c_hat=c_hat, phi0=phi0, lam=lam, scale=scale, budget=budget))
    if len({a["act"] for a in per_arm}) != 1:
        raise ValueError("arms of one run must share the activation (one tensor)")
    act = per_arm[0]["act"]
    n = nd * J * R                                               # runs per arm, ordered (d, j, i)
    dd = torch.tensor([d for _ in per_arm for d in ds for _ in range(J * R)], dtype=dtype, device=device)
    rep = lambda t: t.repeat(nd * J, 1)                          # noqa: E731
    cc = torch.cat([rep(a["c"]) for a in per_arm])
    chh = torch.cat([rep(a["c_hat"]) for a in per_arm])
    xis = torch.tensor([a["xi"] for a in per_arm for _ in range(n)], dtype=dtype, device=device)
    Gs = torch.as_tensor(np.stack([a["G"] for a in per_arm]), dtype=dtype, device=device)
    Gs = Gs.repeat_interleave(n, 0)
    nu = np.asarray(grid, float)
    per = [1.0 / d if per_d else 1.0 for d in ds]
    eta = torch.as_tensor(np.concatenate([(nu[:, None] * a["scale"][None, :]).ravel() * f for a in per_arm for f in per]),
                          dtype=dtype, device=device)
    sgn1 = [np.where(a["phi0"] >= 0, 1.0, -1.0) for a in per_arm]
    sgn = torch.as_tensor(np.concatenate([np.tile(s, nd * J) for s in sgn1]), dtype=dtype, device=device)
    g1 = torch.randn(len(per_arm), 1, R, generator=gen, device=device, dtype=dtype).expand(-1, nd * J, -1).reshape(-1)
    rw = k if rank_w is None else rank_w
    m0 = S.initial_overlaps(len(dd), dd, rw, gen, g1=g1, device=device, dtype=dtype)
    m0 = torch.where(torch.sign(m0) == sgn, m0, -m0)
    steps = max(a["budget"] for a in per_arm)
    res = S.overlap_chain(m0, Gs, cc, chh, xis, act, eta, dd, steps, gen, thresholds=thresholds, direction=sgn,
                          rank_w=rank_w, n_record=2)
    own = None
    if run_horizon is not None:
        lam_run = torch.as_tensor(np.concatenate([np.tile(np.maximum(a["lam"], 1e-12), nd * J) for a in per_arm]),
                                  dtype=dtype, device=device)
        own = torch.ceil(float(run_horizon) / (eta * lam_run)).to(torch.int64).cpu()          # (runs,)
        hits0, mfin = res.hits.clone(), res.m_final.clone()
        need = ((hits0 < 0).any(1) & (own > int(res.steps))).nonzero().flatten()
        if len(need):
            idx = need.to(device)
            more = int(own[need].max()) - int(res.steps)
            res2 = S.overlap_chain(res.m_final[need].to(device, dtype), Gs[idx], cc[idx], chh[idx], xis[idx], act,
                                   eta[idx], dd[idx], more, gen, thresholds=thresholds, direction=sgn[idx],
                                   rank_w=rank_w, n_record=2)
            h2 = torch.where(res2.hits >= 0, res2.hits + int(res.steps), res2.hits)
            hits0[need] = torch.where(hits0[need] >= 0, hits0[need], h2)
            mfin[need] = res2.m_final.to(mfin.dtype)
        res = dataclasses.replace(res, hits=hits0, m_final=mfin)
    out = []
    for ia, a in enumerate(per_arm):
        hits, mf = {}, {}
        for jd, d in enumerate(ds):
            sl = slice(ia * n + jd * J * R, ia * n + (jd + 1) * J * R)
            h = res.hits[sl].cpu().numpy().copy().reshape(J, R, -1)
            lim = a["budget"] if own is None else np.maximum(a["budget"], own[sl].cpu().numpy().reshape(J, R, 1))
            h[h > lim] = -1
            hits[d] = h
            mf[d] = res.m_final[sl].cpu().numpy().reshape(J, R)
        out.append(Tuned(list(ds), list(map(float, grid)), hits, a["budget"], a["phi0"], a["lam"], a["scale"], mf))
    return out


def _lower_median(Y: np.ndarray, budget: float) -> np.ndarray:
    """Kaplan-Meier median over the last axis of times censored at one common level (inf = censored): with a
    common level it is the ceil(n/2)-th smallest time when that is <= budget, else +inf (km_quantile's rule)."""
    n = Y.shape[-1]
    v = np.sort(Y, axis=-1)[..., (n + 1) // 2 - 1]
    return np.where(v <= budget, v, np.inf)


def fit_tuned(sc: Tuned, which: int, seed: int, n_boot: int = 1000, x=None) -> dict:
    """The exponent of d of T*(d) = min over the step grid of the KM median hitting time (see TUNED_DESIGN).
    Returns estimate (inf if T* is censored at some d), its bootstrap interval and se, the censoring-aware lower
    bound (T* capped at the budget, valid when the censored d's are the largest ones), the argmin per d and
    whether it lies on the grid's edge.  ``x``: the regressor per entry of ``sc.ds`` (default log d; a sweep over
    k passes k itself for the rate of an exponential)."""
    ds, B = list(sc.ds), float(sc.budget)
    x = np.log(np.asarray(ds, float)) if x is None else np.asarray(x, float)
    Y = np.stack([np.where(sc.hits[d][..., which] < 0, np.inf, sc.hits[d][..., which].astype(float)) for d in ds])
    R = Y.shape[-1]                                              # Y: (nd, J, R)

    def one(idx):
        med = _lower_median(Y[..., idx], B)                      # (nd, J)
        tstar = med.min(1)
        fin = np.isfinite(tstar)
        est = float(np.polyfit(x, np.log(tstar), 1)[0]) if fin.all() else math.inf
        nf = int(fin.sum())
        prefix = nf >= 2 and bool(fin[:nf].all())                # censored only at the largest d's
        low = float(np.polyfit(x, np.log(np.minimum(tstar, B)), 1)[0]) if prefix else math.nan
        return est, low, tstar, med.argmin(1)

    est, low, tstar, arg = one(np.arange(R))
    rng = np.random.default_rng(seed)
    boots = [one(rng.integers(0, R, R))[:2] for _ in range(n_boot)]
    be = np.array([b[0] for b in boots])
    bl = np.array([b[1] for b in boots])
    med = _lower_median(Y, B)
    edge = [bool(np.isfinite(tstar[i]) and arg[i] in (0, Y.shape[1] - 1)) for i in range(len(ds))]

    def ci(v):
        v = v[~np.isnan(v)]
        if len(v) < 10:
            return (-math.inf, math.inf), math.inf
        lo, hi = np.quantile(v, [0.025, 0.975], method="inverted_cdf")
        f = v[np.isfinite(v)]
        return (float(lo), float(hi)), (float(np.std(f, ddof=1)) if len(f) > 2 else math.inf)

    (lo, hi), se = ci(be)
    (llo, lhi), lse = ci(bl)
    return {"exponent": est, "ci": (lo, hi), "se": se, "lower_bound": low, "lower_bound_ci": (llo, lhi),
            "lower_bound_se": lse, "tstar": list(map(float, tstar)), "argmin_nu": [sc.grid[int(a)] for a in arg],
            "edge": edge, "medians": {int(d): list(map(float, med[i])) for i, d in enumerate(ds)},
            "censored": {int(d): float(np.mean(~np.isfinite(Y[i]))) for i, d in enumerate(ds)}, "budget": int(B)}


def tuned_test(label: str, params: dict, fit: dict, ds, *, bound: float, upper: bool, trials: int, seed: int,
               extra: dict | None = None, target: str = "stated") -> StatTest:
    """One-sided test of the tuned exponent (:func:`fit_tuned`).  ``upper``: the claim 'exponent <= bound'; else
    'exponent >= bound' (shown negated).  A minimum on the grid's edge leaves it undecided; a censored T* uses the
    lower bound of the exponent, which can only reject an upper bound or agree with a lower one.  ``target``
    "derived": a rejection makes the claim inconclusive instead of refuting it (see TUNED_TARGET)."""
    from scipy import stats as sps
    sg = 1.0 if upper else -1.0
    info = dict(extra or {}, bound=bound, ds=list(ds), **{k: v for k, v in fit.items() if k != "medians"},
                medians_per_nu=fit["medians"], design="TUNED_DESIGN (dayi2024.common)",
                test=("H0: exponent <= bound" if upper else "H0: exponent >= bound (shown as -exponent <= -bound)"))
    undecided = dict(label=label, params=dict(params), predicted=sg * bound, stderr=math.inf, trials=trials, tol=0.0,
                     pvalue=1.0, seed=seed, ci=(-math.inf, math.inf), sided="upper", target=target)
    if any(fit["edge"]):
        return StatTest(estimate=sg * fit["exponent"] if math.isfinite(fit["exponent"]) else 0.0,
                        extra=dict(info, note="the best step lies on an edge of the grid at some d: not bracketed"),
                        **undecided)
    est, se, (lo, hi) = fit["exponent"], fit["se"], fit["ci"]
    if math.isfinite(est) and math.isfinite(se) and se > 0 and math.isfinite(lo) and math.isfinite(hi):
        lo, hi = min(lo, est), max(hi, est)
        p = float(sps.norm.sf((sg * est - sg * bound) / se))
        return StatTest(label=label, params=dict(params), predicted=sg * bound, estimate=sg * est, stderr=se,
                        trials=trials, tol=0.0, pvalue=p, seed=seed, ci=(lo, hi) if upper else (-hi, -lo),
                        sided="upper", extra=info, target=target)
    low, lse, (llo, lhi) = fit["lower_bound"], fit["lower_bound_se"], fit["lower_bound_ci"]
    if (math.isfinite(low) and math.isfinite(lse) and lse > 0 and math.isfinite(llo) and math.isfinite(lhi)
            and (lhi > bound if upper else llo >= bound)):
        # censored at the largest d: only a lower bound of the exponent is known; its interval can show an upper
        # bound false (lhi > bound, then the p-value decides) or a lower bound true (llo >= bound), nothing else
        llo, lhi = min(llo, low), max(lhi, low)
        p = float(sps.norm.sf((low - bound) / lse)) if upper else 1.0
        return StatTest(label=label, params=dict(params), predicted=sg * bound, estimate=sg * low, stderr=lse,
                        trials=trials, tol=0.0, pvalue=p, seed=seed, ci=(llo, lhi) if upper else (-lhi, -llo),
                        sided="upper", target=target, extra=dict(info, note="T* censored at the largest d: the estimate is the "
                                                             "lower bound of the exponent (T* capped at the budget)"))
    return StatTest(estimate=0.0, extra=dict(info, note="T* censored at some d and its lower bound decides nothing "
                                                        "here (or censored below the largest d)"), **undecided)


# ------------------------------------------------------------------ issue 36: the step and budget the theorems prescribe
#: Thm 7's step eta = kappa lambda/(C d) (L195: 'set the learning rate with scaling ..'; kappa ours, see STEP_SIZE)
KAPPA = 0.5
#: the budget: TAU_PRESCRIBED times Thm 7's horizon C d/(kappa lambda^2) of each instance (T = O(C d/lambda^2))
TAU_PRESCRIBED = 4.0
#: issue 37: kappa is a setting the theorems leave open ('for a sufficiently small kappa'): the d sweeps run at each
#: of these values and the claims are judged over them by verify.kit.OverOpenSetting (KAPPA_SETTING)
KAPPAS = (0.25, 0.5)
#: issue 37: the constant alpha of the Frobenius scale xi = alpha sqrt(k) (Thms 1/5, Lemma 1: 'sufficiently small'):
#: 1/2 before, now open over ALPHAS (prescribed.ALPHA_SETTING, conditions.LEMMA1_ALPHA; 1/2 only at quick)
ALPHA = 0.5
ALPHAS = (0.25, 0.5)
KAPPA_OPEN = (
    "Open setting (issue 37): the step constant kappa in eta = kappa lambda/(C d) (Thm 4: 'For a sufficiently small "
    "[kappa], set' L133; Thm 5: the same words, L137; Thm 6: 'online SGD run with step size for time where' L145; "
    "Thm 7: 'set the learning rate with scaling ,' L195; L274 for Thm 8: as extracted, the value is missing).  The "
    "theorems quantify kappa as 'sufficiently small', so every smaller kappa is admissible: the d sweeps run at "
    "kappa = 1/4 and 1/2 (the same instances and noise streams at both: common random numbers), and the claim is "
    "judged over kappa with verify.kit.OverOpenSetting: refuted only if it fails at both, confirmed only if it holds "
    "at both.  At kappa = 1/4 the horizon 4 C d/(kappa lambda^2) doubles in steps, so only the sweeps of d (the "
    "rate the theorems state) run there; the sweeps of k and xi run at kappa = 1/2 (cost).  The quick profile runs "
    "kappa = 1/2 only (no setting open there).  Smaller kappa (1/8) is not run: each halving doubles the cost again.  "
    "The thresholds 1/2 and 3/4 (the theorem's epsilon, lost) and the budget multiple 4 (the horizon's constant, "
    "lost) are ours too; censoring at the budget leaves a sweep undecided, never confirmed.  Measured (standard, "
    "seed 0): every d sweep reaches its thresholds at both kappa, and the exponents of d at kappa = 1/4 lie within "
    "0.05 of those at 1/2 (Thm 4, weak recovery: 1.10 [1.04, 1.18] against 1.13 [1.08, 1.21]; Thm 8's Claim-2 "
    "instance, sigma(r .) = h_3, weak: 1.25 [1.17, 1.35] against 1.25 [1.18, 1.35]), all below the tested bound "
    "1 + the log allowance (1.42 for d in [32, 512], 1.49 for [32, 128]): the verdict does not depend on kappa over "
    "the declared range.")
#: issue 37: the Frobenius-scale constant alpha (xi = alpha sqrt(k)) of Thms 1/5, open (prescribed.ALPHA_SETTING)
ALPHA_OPEN = (
    "  Open setting (issue 37): alpha in xi = alpha sqrt(k) (Thm 1: 'let [xi = alpha sqrt(k)] for sufficiently small "
    "absolute constant factor' L74; Thm 5: 'for some small [alpha]' L137).  A smaller alpha is always admissible: the "
    "d sweeps run at alpha = 1/4 and 1/2, crossed with kappa (every (kappa, alpha) in {1/4, 1/2} x {1/4, 1/2} at "
    "standard), and the claim is judged over both settings (verify.kit.OverOpenSetting over prescribed.KAPPA_SETTING "
    "x ALPHA_SETTING: refuted only if it fails at every combination, confirmed only if it holds at every one); the k "
    "sweep stays at alpha = kappa = 1/2, the quick profile runs alpha = 1/2 only (nothing open there), and the power "
    "witnesses run at alpha = kappa = 1/2.  Crossed rather than alpha = 1/4 at kappa = 1/2 only, because it is "
    "affordable: CPU seconds of the d-sweep runs (k = 5, 16 instances, one thread, standard seed 0, alpha = 1/2 -> "
    "1/4): ReLU, d in {32, 128, 512}: 8.6 -> 12.0 (kappa = 1/2), 17.2 -> 24.6 (kappa = 1/4); h_3 (normalized / raw), "
    "d in {32, 64, 128}: 11.1 -> 9.6 and 21.9 -> 13.5 (kappa = 1/2), 21.4 -> 18.8 and 38.9 -> 29.2 (kappa = 1/4): "
    "alpha = 1/4 adds ~108 s CPU over Thms 1 and 5 together (they share the ReLU runs; at most 1.4x the alpha = 1/2 "
    "runs, not the growth like 1/alpha^4 of the unit C/(kappa lambda^2) one might fear), and no run was censored.  "
    "Smaller alpha (1/8) is not run (each halving adds about as much again).  Measured (standard, seed 0): every d "
    "sweep at alpha = 1/4 reaches its thresholds, and the exponents of d stay below the tested bound (1.42 for d in "
    "[32, 512], 1.49 for [32, 128]) at both kappa: ReLU weak / strong 1.11 [1.05, 1.18] / 1.08 [1.05, 1.12] "
    "(kappa = 1/2), 1.13 [1.08, 1.21] / 1.08 [1.05, 1.12] (kappa = 1/4); normalized h_3 1.19 [1.08, 1.35] / 1.12 "
    "[1.05, 1.20] and 1.20 [1.10, 1.32] / 1.09 [1.03, 1.16]; raw h_3 1.24 [1.12, 1.38] / 1.14 [1.06, 1.21] and 1.24 "
    "[1.14, 1.34] / 1.08 [1.04, 1.14] (at alpha = 1/2: ReLU 1.08 / 1.05, h_3 1.16 / 1.12 at kappa = 1/2): Thms 1 and "
    "5 confirmed at every (kappa, alpha), as before at alpha = 1/2.")
#: issue 37: the Gram of the separated rows of Thms 6/7, open (prescribed.SEP_SETTING), as for Lemma 2
GRAM_OPEN = (
    "  Open setting (issue 37): the angular separation of the rows (Assumption 4's threshold is missing from the "
    "extracted text, L79; 'very mild angular separation', L69), as for Lemma 2: the separated-rows d sweeps (Thm 6; "
    "Thm 7's separated arm) run at two Gram matrices, sep = 1 (max |<w_i, w_j>| in [0.2, 0.45], gram_separated, the "
    "one used before) and sep = 3 (in [0.7, 0.8], gram_correlated), crossed with kappa (every (kappa, sep) in "
    "{1/4, 1/2} x {1, 3} at standard), and are judged over both (verify.kit.OverOpenSetting over "
    "prescribed.KAPPA_SETTING x SEP_SETTING: refuted only if the rate fails at every combination, confirmed only if "
    "it holds at every one; Thm 7's orthonormal arms, which do not run a Gram, are judged over kappa apart).  The "
    "k sweep of Thm 6 stays at sep = 1 (96 instances), the quick profile runs sep = 1 only (nothing open there), and "
    "the power witnesses run at sep = 1.  Cost (CPU seconds of the d-sweep runs, k = 5, 16 instances, one thread, "
    "standard seed 0, sep = 1 -> 3): 17.7 -> 26.9 (kappa = 1/2), 29.4 -> 44.2 (kappa = 1/4): sep = 3 adds ~71 s, "
    "shared by Thms 6 and 7; no run was censored.  Measured (standard, seed 0): at sep = 3 the exponents of d (d in "
    "[32, 512], bound 1.42) are 1.10 [1.06, 1.15] weak / 1.05 [1.02, 1.08] strong at kappa = 1/2 and 1.09 [1.06, "
    "1.13] / 1.05 [1.03, 1.06] at kappa = 1/4: Thms 6 and 7 confirmed at both Grams, as before at sep = 1.")
PRESCRIBED_DESIGN = (
    "Design (issue 36: the hyper-parameters the theorem prescribes).  Every instance i runs at Thm 7's step "
    "eta_i = kappa lambda_i/(C_i d) (kappa = 1/2, and 1/4 for the d sweeps at standard: KAPPA_OPEN) at every d of the sweep (the same c, c^ and initial "
    "coordinate g_1 along u at every d: common random numbers), within Thm 7's budget: a run not at the threshold "
    f"after {TAU_PRESCRIBED:g} C_i d/(kappa lambda_i^2) steps is censored, which leaves the sweep undecided (the "
    "theorem's horizon was not enough), never dropped.  Each run is simulated up to that horizon of its own (run_tuned's "
    "run_horizon), not one common budget set by the median instance: under such a budget an instance with a small lambda (a unit C/(kappa lambda^2) ~ 600 steps against a median ~ 40 at k = 3, "
    "xi = sqrt(3)/2) is censored long before its own horizon (measured: hit at step 25305 of its horizon 301000, "
    "the common budget being 23913), which alone would make thm1/5/6 (k = 3) and thm7 (xi = 2) inconclusive; runs "
    "that finish within such a budget are the same either way (the continuation draws after them).  The quantity whose exponents are fitted is T_i/u_i, the "
    "hitting time in the instance's own unit u_i = C_i/(kappa lambda_i^2) (Thm 7's time scale); Thm 7 states "
    "T = O(C d/lambda^2), so its exponent of d is 1 (plus the logs O~ hides) and of every other parameter (k, xi) "
    "0 once the time scale is divided out: each is swept with the others held (verify.judge.rates.Rate), the "
    "exponent being the log-log slope of the mean of T/u with a bootstrap over instances.  The step-tuned design "
    "of issue 24 is kept only as an extra, labelled check: its tests are listed in the details under 'extra check, "
    "not in the verdict' and its figure is kept; the text below that describes it (TUNED_DESIGN, MEASURED) is about "
    "that extra check.  " + KAPPA_OPEN + "  Referee measurements at this step (T/(unit d) flat, every run at its threshold): Thm 4 "
    "0.25 -> 0.31 for d = 64 -> 4096, Thm 8 0.34 -> 0.48 for d = 32 -> 2048, Thm 1 (normalized h_3) 0.23 -> 0.35 "
    "for d = 32 -> 2048.")


def run_prescribed(gen: torch.Generator, *, k: int, xi: float, gram, act_name: str, inner, ds, R: int,
                   thresholds=(0.5, 0.75), c_fixed=None, rank_w=None, kappa: float = KAPPA, dtype=torch.float64,
                   device="cpu") -> np.ndarray:
    """T_i/u_i (R, len(ds), len(thresholds)) at Thm 7's prescribed step eta = kappa lambda/(C d) and budget (see
    PRESCRIBED_DESIGN): the hitting time of each instance at each d in its own unit u_i = C_i/(kappa lambda_i^2);
    inf where the run did not reach the threshold within TAU_PRESCRIBED d u_i steps."""
    probe = run_tuned(gen, k=k, arms=[(xi, gram)], act_name=act_name, inner=inner, ds=ds, R=R, grid=[kappa],
                      budget_units=TAU_PRESCRIBED * max(ds) / kappa, thresholds=thresholds, c_fixed=c_fixed,
                      rank_w=rank_w, per_d=True, run_horizon=TAU_PRESCRIBED, dtype=dtype, device=device)[0]
    unit = 1.0 / (kappa * np.maximum(probe.scale, 1e-300) * np.maximum(probe.lam, 1e-12))   # C/(kappa lambda^2)
    out = np.full((R, len(ds), len(thresholds)), np.inf)
    for j, d in enumerate(ds):
        h = probe.hits[d][0].astype(float)                                        # (R, thresholds)
        ok = (h >= 0) & (h <= TAU_PRESCRIBED * d * unit[:, None])
        out[:, j] = np.where(ok, h / unit[:, None], np.inf)
    return out


# ------------------------------------------------------------------ the figures' ordering test (figures.py)
def gehan_ordering_test(label, params, slow, fast, budget, seed, *, paired: bool, cens=None) -> StatTest:
    """StatTest of 'T_slow is stochastically larger than T_fast' from hitting times censored at one common
    ``budget`` (-1 = censored): theta = P(T_slow > T_fast) + P(tie)/2 over all pairs (Gehan's generalized
    Wilcoxon, which with a common censoring time is the Mann-Whitney statistic of min(T, budget + 1): a censored
    run is slower than every observed one and ties with every censored one, so censoring is used, not dropped).
    The claim is theta > 1/2; shown as x = 1/2 - theta <= 0 (one-sided, entering Holm: only theta significantly
    below 1/2, the reverse ordering, rejects; agreement needs the 95% bootstrap interval of x below 0).
    ``paired``: the two arms share instances and data streams (common random numbers): run indices are
    resampled jointly; otherwise independently.  ``cens``: (slow, fast) per-run censoring steps (a run that broke
    down before the threshold is censored at its breakdown, T > that step): a pair is ordered when the earlier time
    is observed and the other time (observed or censored) exceeds it, else it counts as a tie (Gehan); with one
    common ``budget`` this is the statistic above."""
    from scipy import stats as sps
    cs, cf = cens if cens is not None else (budget, budget)
    a = np.stack([np.where(slow < 0, cs, slow), slow >= 0], 1).astype(float)    # (time or censoring, observed)
    b = np.stack([np.where(fast < 0, cf, fast), fast >= 0], 1).astype(float)

    def theta(x, y):
        (tx, ox), (ty, oy) = (x[:, None, 0], x[:, None, 1] > 0), (y[None, :, 0], y[None, :, 1] > 0)
        gt = oy & ((tx > ty) | (~ox & (tx >= ty)))
        lt = ox & ((ty > tx) | (~oy & (ty >= tx)))
        return float((gt + 0.5 * ~(gt | lt)).mean())

    est = theta(a, b)
    rng = np.random.default_rng(seed)
    n, m = len(a), len(b)
    boots = np.asarray([theta(a[i := rng.integers(0, n, n)], b[i if paired else rng.integers(0, m, m)])
                        for _ in range(1000)])      # the arms' indices drawn in turn (jointly when paired)
    se = float(np.std(boots, ddof=1))
    lo, hi = np.quantile(boots, [0.025, 0.975])
    x = 0.5 - est
    p = float(sps.norm.sf(x / se)) if se > 0 else (1.0 if x <= 0 else 0.0)
    med = [km_quantile(np.where(v < 0, np.inf, v), c) for v, c in ((slow, cs), (fast, cf))]
    return StatTest(label=label, params=dict(params), predicted=0.0, estimate=x, stderr=se, trials=n + m, tol=0.0,
                    pvalue=p, seed=seed, ci=(0.5 - float(hi), 0.5 - float(lo)), sided="upper",
                    extra={"theta = P(T_slow > T_fast) + ties/2": est, "km_median_slow": med[0], "km_median_fast": med[1],
                           "censored_slow": float(np.mean(slow < 0)), "censored_fast": float(np.mean(fast < 0)),
                           "paired": paired, "test": "1/2 - theta <= 0 (Gehan-Wilcoxon, common censoring; bootstrap CI)"})
