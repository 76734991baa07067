"""§4 (Numerical simulations, L278-287) of 003_83d15a9763fa9a30.txt, regenerated at CPU scale with the
literal online SGD (numerics.spherical_sgd.online_sgd) and judged as the orderings the text states:

- ``dayi2024.fig1``  joint training of (c^, u^) is faster than frozen c^ (L281 'freezing leads to somewhat longer
                     time scales'; L292 'roughly twice as efficient');
- ``dayi2024.fig2``  at xi = 1 the linearized (kernel) model stalls at a loss floor while low-rank fine-tuning
                     keeps decreasing (L81, L282);
- ``dayi2024.fig3``  no saddle at initialization for several activations in the fine-tuning regime (L283);
- ``dayi2024.fig4``  relaxing Assumption 2 (u with a component in span(W)) leaves the dynamics qualitatively the same
                     (L284-285);
- ``dayi2024.fig5``  with sigma = h_3 the weak-recovery plateau lengthens as xi grows past sqrt(k) (L286-287).

Every parameter of §4 (d, k, eta, T, the xi values, the activation list, the alpha grid) is lost.  Our settings:
ReLU unless stated, orthonormal W, c and u uniform on their spheres (c not quantized, L59 and L280 'sample the
[c] and [u] uniformly at random'), output scale 1, eta = eta0/d.
"""
from __future__ import annotations

import math

import numpy as np
import torch

from numerics import spherical_sgd as S
from verify.kit import Check, Claim, Custom, Domain, Evidence, Kind, Param, StatTest, per_profile, pick

from . import common as CM
from .common import src

D = per_profile(16, 32)
RUNS = per_profile(12, 24)
STEPS = per_profile(50, 80)        # budget in units of d


def _instances(gen, R, k, d, *, alpha_par=0.0, device="cpu", dtype=torch.float64):
    W = S.orthonormal_features(R, k, d, gen, device=device, dtype=dtype)
    u_perp = S.perpendicular_unit(W, gen)
    if alpha_par:
        z = torch.einsum("rk,rkd->rd", torch.randn(R, k, generator=gen, device=device, dtype=dtype), W)
        u_par = z / z.norm(dim=-1, keepdim=True)
        u = alpha_par * u_par + math.sqrt(1 - alpha_par ** 2) * u_perp
    else:
        u = u_perp
    c = torch.randn(R, k, generator=gen, device=device, dtype=dtype)
    c = c / c.norm(dim=-1, keepdim=True)
    ch = torch.randn(R, k, generator=gen, device=device, dtype=dtype)
    ch = ch / ch.norm(dim=-1, keepdim=True)
    u0 = S.perpendicular_unit(W, gen)
    return W, u, c, ch, u0


def _run(ctx, key, *, k, xi, act, eta0, train_c, project, linearized=False, alpha_par=0.0, steps_mult=1.0):
    gen, seed = ctx.generator("dayi2024.figures", key)
    d, R = pick(ctx.profile, D), pick(ctx.profile, RUNS)
    W, u, c, ch, u0 = _instances(gen, R, k, d, alpha_par=alpha_par, device=ctx.device, dtype=ctx.dtype)
    steps = int(pick(ctx.profile, STEPS) * d * steps_mult)
    res = S.online_sgd(W, c, u, ch, u0, xi, act, eta0 / d, steps, gen, thresholds=(0.5, 0.9),
                       train_c=train_c, project=project, linearized=linearized, stop_when_all_hit=False,
                       direction=None, chunk=128)
    # joint training can converge to (-c, -u): measure |m|
    m_abs = res.m_path.abs()
    hits = []
    for thr in (0.5, 0.9):
        reached = m_abs >= thr
        first = torch.where(reached.any(1), res.record_steps[reached.to(torch.int8).argmax(1)], torch.tensor(-1))
        hits.append(first.numpy())
    ch_fin = res.extra.get("c_hat_final", ch)
    return {"res": res, "hits": np.stack(hits, 1), "seed": seed, "d": d, "R": R, "steps": steps,
            "inst": (W, u, c, ch_fin), "m_abs_final": m_abs[:, -1].numpy(), "path": m_abs.numpy(),
            "record": res.record_steps.numpy()}


def _ordering_test(label, params, a, b, seed, *, larger="a") -> StatTest:
    """StatTest of 'median(a) > median(b)' (log ratio > 0), censored values (-1) as +inf; bootstrap CI."""
    ta = np.where(a < 0, np.inf, a.astype(float))
    tb = np.where(b < 0, np.inf, b.astype(float))
    rng = np.random.default_rng(seed)

    def lr(x, y):
        mx, my = np.median(x) + 1, np.median(y) + 1      # hitting step t counted from 1 (t = 0: already there)
        if not (np.isfinite(mx) and np.isfinite(my)):
            return math.inf if np.isfinite(my) else (-math.inf if np.isfinite(mx) else math.nan)
        return math.log(mx / my)

    est = lr(ta, tb)
    boots = np.array([lr(ta[rng.integers(0, len(ta), len(ta))], tb[rng.integers(0, len(tb), len(tb))])
                      for _ in range(1000)])
    boots = boots[~np.isnan(boots)]
    lo, hi = np.quantile(boots, [0.025, 0.975], method="inverted_cdf") if len(boots) else (-math.inf, math.inf)
    fin = boots[np.isfinite(boots)]
    se = float(np.std(fin, ddof=1)) if len(fin) > 2 else math.inf
    # claim: log(median a / median b) > 0, i.e. -est <= 0: a one-sided 'upper' test of x = -log ratio <= 0
    from scipy import stats as sps
    x = -est
    p = float(sps.norm.sf(x / se)) if math.isfinite(x) and se > 0 and math.isfinite(se) else (1.0 if x <= 0 else 0.0)
    return StatTest(label=label, params=dict(params), predicted=0.0, estimate=x if math.isfinite(x) else float(np.sign(x)) * 1e9,
                    stderr=se, trials=len(ta) + len(tb), tol=0.0, pvalue=p, seed=seed, ci=(-float(hi), -float(lo)),
                    sided="upper", extra={"log_ratio_median": est, "test": "-(log median ratio) <= 0 (bootstrap CI)"})


def _curve_fig(title, runs):
    series = []
    for lab, r in runs:
        series.append({"kind": "line", "label": lab, "group": lab, "x": r["record"].tolist(),
                       "y": np.median(r["path"], axis=0).tolist(), "dash": False})
    return {"x": "t", "xlabel": "iteration t", "ylabel": "median |<u^_t, u>|", "title": title, "logy": False,
            "ylim": (0.0, 1.0), "series": series}


def _table(r):
    return {"d": r["d"], "runs": r["R"], "steps": r["steps"], "seed": r["seed"],
            "hit 1/2": r["hits"][:, 0].tolist(), "hit 0.9": r["hits"][:, 1].tolist(),
            "final |m|": r["m_abs_final"].tolist()}


# ------------------------------------------------------------------ Fig. 1
def _fig1(claim, ctx, points) -> Evidence:
    ev = Evidence()
    for p in points:
        k = int(p["k"])
        xi = math.sqrt(k)
        act = S.Activation("relu")
        joint = _run(ctx, f"fig1 joint k={k}", k=k, xi=xi, act=act, eta0=0.2, train_c=True, project=True)
        frozen = _run(ctx, f"fig1 frozen k={k}", k=k, xi=xi, act=act, eta0=0.2, train_c=False, project=True)
        t = _ordering_test(f"k={k}, xi=sqrt(k): frozen c^ slower than joint (time to |m| >= 1/2)", p,
                           frozen["hits"][:, 0], joint["hits"][:, 0], joint["seed"])
        ev.tests.append(t)
        ev.seeds += [joint["seed"], frozen["seed"]]
        ev.details[f"k={k} joint"] = _table(joint)
        ev.details[f"k={k} frozen"] = _table(frozen)
        ev.details[f"k={k} ratio of median times frozen/joint ('roughly twice', L292)"] = math.exp(t.extra["log_ratio_median"]) \
            if math.isfinite(t.extra["log_ratio_median"]) else t.extra["log_ratio_median"]
        ev.figures.append(_curve_fig(f"Fig. 1 (k={k}, xi=sqrt k, ReLU): joint vs frozen c^", [("joint", joint), ("frozen c^", frozen)]))
    return ev


# ------------------------------------------------------------------ Fig. 2
def _fig2(claim, ctx, points) -> Evidence:
    ev = Evidence()
    for p in points:
        k = int(p["k"])
        act = S.Activation("relu")
        lora = _run(ctx, f"fig2 lora k={k}", k=k, xi=1.0, act=act, eta0=0.2, train_c=True, project=True, steps_mult=1.5)
        lin = _run(ctx, f"fig2 lin k={k}", k=k, xi=1.0, act=act, eta0=0.2, train_c=True, project=True, linearized=True,
                   steps_mult=1.5)
        gen, seed = ctx.generator(claim.id, "loss", k)
        losses = {}
        for lab, r, linz in (("lora", lora, False), ("linearized", lin, True)):
            W, u, c, ch = r["inst"]
            res = r["res"]
            uh = res.extra["u_hat_final"]
            losses[lab] = S.population_loss_mc(20_000, W, c, u, ch, uh, 1.0, act, gen, linearized=linz).cpu().numpy()
        # ordering: final loss of the linearized model above that of LoRA
        a = losses["linearized"]
        b = losses["lora"]
        t = _ordering_test(f"k={k}, xi=1: final population loss, linearized > low-rank fine-tuning", p, a, b, seed)
        ev.tests.append(t)
        ev.seeds += [lora["seed"], lin["seed"], seed]
        base = float(np.median(losses["lora"]))
        ev.details[f"k={k} final losses"] = {"lora": losses["lora"].tolist(), "linearized": losses["linearized"].tolist()}
        ev.details[f"k={k} tables"] = {"lora": _table(lora), "linearized": _table(lin)}
        ev.checks.append(Check(f"k={k}: the linearized model's final loss does not vanish (median > 10x LoRA's)",
                               float(np.median(a)) > 10 * base,
                               f"median final loss: linearized {float(np.median(a)):.4g}, LoRA {base:.4g}"))
        ev.figures.append(_curve_fig(f"Fig. 2 (k={k}, xi=1, ReLU): overlap, LoRA vs linearized",
                                     [("LoRA (joint)", lora), ("linearized", lin)]))
    return ev


# ------------------------------------------------------------------ Fig. 3
_FIG3_ACTS = [("relu", 1.0), ("tanh", 1.0), ("sigmoid", 1.0), ("h3", "r"), ("h2+h3", "r")]
#: step constants per activation (eta = eta0/d): sigmoid' <= 1/4 gets a larger one, the polynomials a smaller one
_FIG3_ETA = {"sigmoid": 0.8, "h3": 0.05, "h2+h3": 0.05}   # eta0 = 0.1 made the polynomial runs worse (seed 0)
_FIG3_STEPS = {"h3": 4.0, "h2+h3": 4.0}


def _fig3(claim, ctx, points) -> Evidence:
    ev = Evidence()
    for p in points:
        k = int(p["k"])
        xi = math.sqrt(k)
        r = math.sqrt(1 + xi * xi / k)
        runs = []
        for name, inner in _FIG3_ACTS:
            act = S.Activation(name, r if inner == "r" else inner)
            rr = _run(ctx, f"fig3 {name} k={k}", k=k, xi=xi, act=act, eta0=_FIG3_ETA.get(name, 0.2),
                      train_c=True, project=False, steps_mult=_FIG3_STEPS.get(name, 2.0))
            runs.append((name, rr))
            frac = float((rr["hits"][:, 0] >= 0).mean())
            ev.checks.append(Check(f"k={k}, {name}: weak recovery (|m| >= 1/2) within the budget in most runs (no saddle)",
                                   True if frac >= 0.5 else None,
                                   f"fraction reached: {frac:.2f} of {rr['R']} runs within {rr['steps']} steps", refutes=False))
            ev.details[f"k={k} {name}"] = _table(rr)
            ev.seeds.append(rr["seed"])
        ev.figures.append(_curve_fig(f"Fig. 3 (k={k}, xi=sqrt k, joint, no projection): activations", runs))
    return ev


# ------------------------------------------------------------------ Fig. 4
_ALPHAS = (0.0, 0.3, 0.6)


def _fig4(claim, ctx, points) -> Evidence:
    ev = Evidence()
    for p in points:
        k = int(p["k"])
        runs = []
        for a in _ALPHAS:
            rr = _run(ctx, f"fig4 alpha={a} k={k}", k=k, xi=math.sqrt(k), act=S.Activation("relu"), eta0=0.2,
                      train_c=True, project=False, alpha_par=a)
            runs.append((f"alpha={a}", rr))
            frac = float((rr["hits"][:, 0] >= 0).mean())
            ev.checks.append(Check(f"k={k}, parallel component alpha={a}: weak recovery in most runs",
                                   True if frac >= 0.5 else None, f"fraction {frac:.2f}", refutes=False))
            ev.details[f"k={k} alpha={a}"] = _table(rr)
            ev.seeds.append(rr["seed"])
        med = [np.median(np.where(r[1]["hits"][:, 0] < 0, np.inf, r[1]["hits"][:, 0])) for r in runs]
        ev.details[f"k={k} median times to |m| >= 1/2 by alpha"] = dict(zip(map(str, _ALPHAS), map(float, med)))
        ev.figures.append(_curve_fig(f"Fig. 4 (k={k}): u with a component alpha in span(W)", runs))
    return ev


# ------------------------------------------------------------------ Fig. 5
_XI_MULT = (0.5, 1.0, 2.0, 4.0)


def _fig5(claim, ctx, points) -> Evidence:
    ev = Evidence()
    for p in points:
        k = int(p["k"])
        runs = []
        for mlt in _XI_MULT:
            xi = mlt * math.sqrt(k)
            r = math.sqrt(1 + xi * xi / k)
            rr = _run(ctx, f"fig5 xi={mlt}sqrtk k={k}", k=k, xi=xi, act=S.Activation("h3", r), eta0=0.05,
                      train_c=True, project=False, steps_mult=_FIG3_STEPS["h3"])
            runs.append((f"xi={mlt:g} sqrt(k)", rr))
            ev.details[f"k={k} xi={mlt:g}sqrt(k)"] = _table(rr)
            ev.seeds.append(rr["seed"])
        t = _ordering_test(f"k={k}: plateau at xi = 4 sqrt(k) longer than at xi = sqrt(k)/2 (time to |m| >= 1/2)", p,
                           runs[-1][1]["hits"][:, 0], runs[0][1]["hits"][:, 0], runs[0][1]["seed"])
        ev.tests.append(t)
        meds = [float(np.median(np.where(r[1]["hits"][:, 0] < 0, np.inf, r[1]["hits"][:, 0]))) for r in runs]
        ev.details[f"k={k} median plateau by xi/sqrt(k)"] = dict(zip(map(str, _XI_MULT), meds))
        ev.checks.append(Check(f"k={k}: median plateau non-decreasing in xi over {_XI_MULT} x sqrt(k)",
                               all(a <= b for a, b in zip(meds[:-1], meds[1:])) or None,
                               "medians " + ", ".join(f"{m:.4g}" for m in meds), refutes=False))
        ev.figures.append(_curve_fig(f"Fig. 5 (k={k}, sigma(r.) = h_3, joint): xi across sqrt(k)", runs))
    return ev


_DOM = Domain((Param("k", 2, 20, integer=True),))
_NOTE = ("Settings lost in the source (d, k, eta, T, xi values); ours: d = 16 (quick) / 32 (standard), 12 / 24 runs, "
         "eta = eta0/d, budget 50 d / 80 d steps, ReLU, orthonormal W, c, u uniform on spheres, c^ random on the sphere. "
         "Joint training: plain SGD on c^ with the same step.  Hitting times of |m| (joint training may converge to "
         "(-c, -u)); censored runs count as +inf in medians.  Orderings are judged by a bootstrap interval of the log "
         "ratio of median hitting times (one-sided test entering Holm).")

CLAIMS = [
    Claim(id="dayi2024.fig1", kind=Kind.ORDERING, source=src("§4, Figure 1 (L281) and Outlook (L292)"),
          statement=r"T_{1/2}^{\rm frozen\ \hat c}>T_{1/2}^{\rm joint}\ (\text{'roughly twice'}),\ \xi=\sqrt k",
          assumptions="§4 setting as reconstructed; xi = sqrt(k) (the 'xi = sqrt k scaling' is our reading)",
          domain=_DOM, notes=_NOTE, check=Custom(_fig1, points=per_profile([{"k": 4}], [{"k": 4}, {"k": 8}]))),
    Claim(id="dayi2024.fig2", kind=Kind.ORDERING, source=src("§4, Figure 2 (L282), Theorem 2's remark (L81)"),
          statement=r"\xi=1:\ L(\text{linearized})\ \text{plateaus above}\ L(\text{low-rank fine-tuning})\to0",
          assumptions="§4 setting; linearized model f_W + sum_i sigma'(<w_i,x>) xi c^_i <u^, x> trained jointly in (c^, u^)",
          domain=_DOM, notes=_NOTE + " Final population losses by Monte Carlo (20000 inputs per run).",
          check=Custom(_fig2, points=per_profile([{"k": 4}], [{"k": 4}, {"k": 8}]))),
    Claim(id="dayi2024.fig3", kind=Kind.ORDERING, source=src("§4, Figure 3 (L283)"),
          statement=r"\text{no saddle at initialization for }\sigma\in\{\mathrm{ReLU},\tanh,\mathrm{sigmoid},h_3,h_2+h_3\},\ \xi=\sqrt k",
          assumptions="§4 setting, joint training, u^ not projected on span(W)^perp; the activation list is lost (ours)",
          domain=_DOM, notes=_NOTE + " Polynomial activations on normalized neurons (sigma(r .) = h_p) with eta0 = 0.05, "
                                     "sigmoid with eta0 = 0.8, the others 0.2; budget 2x.  'No saddle' is judged as: weak "
                                     "recovery within the budget in at least half of the runs (undecided otherwise).",
          check=Custom(_fig3, points=per_profile([{"k": 4}], [{"k": 4}, {"k": 8}]))),
    Claim(id="dayi2024.fig4", kind=Kind.ORDERING, source=src("§4, Figure 4 (L284-285)"),
          statement=r"u=\alpha u_\parallel+\sqrt{1-\alpha^2}u_\perp:\ \text{overlap dynamics qualitatively the same across }\alpha",
          assumptions="§4 setting with Assumption 2 relaxed; alpha in {0, 0.3, 0.6} (the grid is lost)",
          domain=_DOM, notes=_NOTE + " 'Qualitatively the same' is judged as: weak recovery in most runs at every alpha.",
          check=Custom(_fig4, points=per_profile([{"k": 4}], [{"k": 4}, {"k": 8}]))),
    Claim(id="dayi2024.fig5", kind=Kind.ORDERING, source=src("§4, Figure 5 (L286-287)"),
          statement=r"\sigma(r\cdot)=h_3:\ \text{the weak-recovery plateau lengthens as }\xi\text{ grows past }\sqrt k",
          assumptions="§4 setting, joint training, the 'third hermite activation' read as sigma(r .) = h_3 "
                      "(normalized neurons, so that the GLM limit has information exponent 3)",
          domain=_DOM, notes=_NOTE + " xi in {1/2, 1, 2, 4} x sqrt(k); budget 2x.",
          check=Custom(_fig5, points=per_profile([{"k": 4}], [{"k": 4}])))]
