"""Table 1 of 000_efaf07e323d59f0e.txt (§4.2): the R^2 between the fine-tuning error and three risk predictors,
its methodology replicated on scikit-learn's bundled 8x8 digits (MNIST cannot be downloaded here).

The claim is the ordering of Table 1's three rows at every number of samples n in {10, 15, 20, 25, 30}:
R^2(||theta_T - theta_S||^2) < R^2(bound adapted from [25]) < R^2(ours, (3) at m = 2).  The procedure is in
numerics/digits.py; it needs scikit-learn (optional extra) and is inconclusive without it.
"""
from __future__ import annotations

import math

import numpy as np

from numerics import digits as DG
from verify.kit import Check, Claim, Custom, Domain, Evidence, Kind, Param, Source, ordering_test, per_profile, pick

PAPER = "shachaf2021"
NS = (10, 15, 20, 25, 30)
#: the source's Table 1 (MNIST), for the figure: mean R^2 per row and n
SOURCE_TABLE = {"norm": (0.69, 0.68, 0.66, 0.64, 0.62), "bartlett": (0.73, 0.75, 0.74, 0.71, 0.67),
                "ours": (0.86, 0.89, 0.84, 0.75, 0.69)}
LABELS = {"norm": "||theta_T - theta_S||^2", "bartlett": "bound adapted from [25]", "ours": "ours, (3) at m=2"}
REPS = per_profile(10, 40, 200)       # repetitions of the R^2 computation (the source: 10)
RIDGE_REPS = per_profile(0, 10, 40)  # repetitions of the ridge-teacher sensitivity variant (details only)
K, SAMPLES = 20, 25                  # pairs per R^2, fine-tuning draws per pair (as in the source)


#: CPU seconds of one repetition (all n together), measured at standard: 50 repetitions (40 + 10 ridge) in ~14 s
SECONDS_PER_REP = 0.3


def _what_would_decide(ns, A, reps) -> Check:
    """Issue 36: where the first inequality (||theta_T - theta_S||^2 against the bound from [25]) is not decided,
    what would decide it: per n, the repetitions at which the one-sided 95% interval of the paired difference would
    clear 0 if its mean and spread stayed put (none where the mean is >= 0: no number of repetitions confirms the
    stated order there), against what a run can afford.  Undecided (refutes=False): it reports, it does not judge."""
    from scipy import stats as sps
    diff = A["norm"] - A["bartlett"]                       # (reps, len(ns)): the stated order is diff < 0
    rows, need = [], []
    for j, n in enumerate(ns):
        m, sd = float(diff[:, j].mean()), float(diff[:, j].std(ddof=1))
        q = float(sps.t.ppf(0.95, reps - 1))
        hi = m + q * sd / math.sqrt(reps)
        if hi < 0:
            continue                                        # decided at this n
        if m < 0:
            N = int(math.ceil((1.645 * sd / -m) ** 2))
            need.append(N)
            cpu = N * SECONDS_PER_REP
            rows.append(f"n={n}: mean {m:+.2g} (sd {sd:.2g}) -> ~{N:,} repetitions (~"
                        + (f"{cpu / 60:.0f} CPU min)" if cpu >= 120 else f"{cpu:.0f} CPU s)"))
        else:
            rows.append(f"n={n}: mean {m:+.2g} >= 0 (sd {sd:.2g}) -> no number of repetitions")
    if not rows:
        return Check("what would decide the first inequality", True, "decided at every n", refutes=False)
    return Check("what would decide the first inequality (||theta_T - theta_S||^2 against the bound from [25])", None,
                 "a near tie on sklearn digits (the ratio of the two predictors, sqrt(lambda_1(Sigma_T)/n), varies by "
                 "~2% between target tasks): " + "; ".join(rows) + f" (at {reps} repetitions now, ~{SECONDS_PER_REP} s "
                 "each, the one-sided interval clearing 0 if the mean stayed put, before Holm); what decides Table 1 "
                 "itself is its own data, MNIST (not on this machine), on which the source reports 0.69-0.62 against "
                 "0.73-0.67", refutes=False,
                 extra={"repetitions needed (if the mean stays put)": need})


def _points(profile):
    return [{"n": n} for n in NS]


def _table1(claim, ctx, points) -> Evidence:
    if not DG.have_sklearn():
        return Evidence(checks=[Check("Table 1 on sklearn digits", None,
                                      "scikit-learn not installed (pip install 'ftverify[data]' or scikit-learn): "
                                      "the replication needs its bundled digits data", refutes=False)])
    import torch

    ns = tuple(sorted({int(p["n"]) for p in points}))
    gen, seed = ctx.generator(claim.id, "repetitions")
    reps = pick(ctx.profile, REPS)
    res = [DG.table1_repetition(ns, gen, K=K, samples=SAMPLES, device=ctx.device, dtype=ctx.dtype)
           for _ in range(reps)]
    A = {k: np.array([r[k] for r in res]) for k in DG.PREDICTORS}       # (reps, len(ns))
    ev = Evidence(seeds=[seed])
    for j, n in enumerate(ns):
        ev.tests.append(ordering_test(f"n={n}: R^2(||theta_T - theta_S||^2) - R^2(bound from [25]) < 0", {"n": n},
                                      A["norm"][:, j], A["bartlett"][:, j], seed, paired=True, what="row 1 < row 2"))
        ev.tests.append(ordering_test(f"n={n}: R^2(bound from [25]) - R^2(ours, m=2) < 0", {"n": n}, A["bartlett"][:, j],
                                      A["ours"][:, j], seed, paired=True, what="row 2 < row 3"))
    se = {k: A[k].std(0, ddof=1) / math.sqrt(reps) for k in A}
    ev.checks.append(_what_would_decide(ns, A, reps))
    ev.details["R^2 on digits (mean over repetitions, standard error)"] = {
        LABELS[k]: {str(n): (float(A[k][:, j].mean()), float(se[k][j])) for j, n in enumerate(ns)} for k in A}
    ev.details["source Table 1 (MNIST)"] = {LABELS[k]: dict(zip(map(str, NS), v)) for k, v in SOURCE_TABLE.items()}
    ev.details["repetitions"] = reps
    # sensitivity to the unspecified teacher estimate (reported, not judged): ridge teachers, lambda = 1e-3
    rr = pick(ctx.profile, RIDGE_REPS)
    if rr:
        rgen, rseed = ctx.generator(claim.id, "ridge variant")
        rres = [DG.table1_repetition(ns, rgen, K=K, samples=SAMPLES, ridge=1e-3, device=ctx.device, dtype=ctx.dtype)
                for _ in range(rr)]
        ev.seeds.append(rseed)
        ev.details["sensitivity (not judged): mean R^2 with ridge teachers, lambda = 1e-3"] = {
            LABELS[k]: dict(zip(map(str, ns), np.array([r[k] for r in rres]).mean(0).tolist())) for k in DG.PREDICTORS}
    err = torch.stack([r["error"] for r in res]).mean(0)
    ev.details["mean 0-1 fine-tuning error per n (mean over pairs and repetitions)"] = dict(
        zip(map(str, ns), err.mean(0).tolist()))
    series = []
    for k in DG.PREDICTORS:
        series.append({"kind": "points", "label": f"digits: {LABELS[k]}", "group": k, "role": "sklearn digits (ours)",
                       "params": {"predictor": LABELS[k]}, "x": list(ns),
                       "y": A[k].mean(0).tolist(), "yerr": (1.96 * se[k]).tolist()})
        # the source's Table 1 values are measurements too: points (hollow), not a theory line
        series.append({"kind": "points", "label": f"source (MNIST): {LABELS[k]}", "group": k,
                       "role": "the source's Table 1 (MNIST)", "params": {"predictor": LABELS[k]}, "x": list(NS),
                       "y": list(SOURCE_TABLE[k]), "yerr": [0.0] * len(NS)})
    ev.figures.append({"x": "n", "xlabel": "number of target samples $n$", "ylabel": "$R^2$ (error vs predictor)",
                       "title": "Table 1 methodology on sklearn digits vs the source's MNIST values",
                       "ylim": (0, 1), "series": series,
                       "values": {"predictor": {LABELS[k]: LABELS[k] for k in DG.PREDICTORS}}})
    return ev


TABLE1 = Claim(
    id=f"{PAPER}.table1", kind=Kind.ORDERING,
    source=Source(PAPER, "§4.2, Table 1 and its caption; footnote 1"),
    statement=(r"R^2\big(\|\theta_T-\theta_S\|^2\big)<R^2(\text{bound from [25]})<R^2(\text{ours},\ m=2)"
               r"\quad\text{at } n\in\{10,15,20,25,30\}"),
    assumptions=("Binary source/target tasks (a vs b, c vs d: four distinct digits) as regression to {-1, +1}; "
                 "linear fine-tuning by GD from theta_S (end state theta_S + X^+(y - X theta_S), Thm 4.1); "
                 "0-1 error on an independent test set; K = 20 pairs per R^2, each error a mean over 25 draws of "
                 "the n training points; R^2 repeated and averaged.  Replicated on sklearn's 8x8 digits (d = 64, "
                 "unit-norm rows), needs scikit-learn."),
    domain=Domain((Param("n", 1, 63, integer=True, doc="target samples (n < d = 64)"),)),
    tags=("extension",), role="table",
    notes=("A replication of Table 1's methodology on another dataset (sklearn digits, as MNIST cannot be "
           "downloaded here): a different ordering means 'does not replicate on digits', not an erratum of the "
           "source.  Readings (the text does not fix them): theta_S, theta_T = minimum-norm least squares on the "
           "source / target task's training half (the linear teachers); Sigma = E[x x^T] of the target task (the "
           "matrix of risk (2)); g of Theorem 4.2 with c = 1 and delta = 1; the bound from [25] = its bias term "
           "c ||Sigma|| ||theta_T - theta_S||^2 max{sqrt(r_0/n), r_0/n, sqrt(log(1/delta')/n)} with delta' = "
           "e^{-1} (the same confidence as (3); noiseless teachers, so no variance term) = g ||theta_T - "
           "theta_S||^2; R^2 = squared Pearson correlation over the K = 20 pairs; 'different initialization' read "
           "as a fresh train/test split, fresh pairs and fresh samples per repetition.  Ordering tests: paired "
           "differences of R^2 over repetitions, one-sided.  Found (standard, 40 repetitions): on digits the R^2 "
           "are far lower than the source's MNIST values (about 0.08-0.14 against 0.62-0.89); the bound from [25] "
           "is indistinguishable from ||theta_T - theta_S||^2 (paired difference within +-0.0015, 95% intervals "
           "straddling 0: their ratio g depends only on the target covariance, which varies little between digit "
           "pairs), so the first inequality is undecided and the claim inconclusive; 'ours' exceeds the bound "
           "from [25] by 0.004-0.010, significantly at every n.  Why the first inequality cannot be decided: on "
           "unit-norm rows tr Sigma = 1, so r_0 = 1/lambda_1 <= n and g = sqrt(lambda_1/n); the bound from [25] is "
           "||theta_T - theta_S||^2 times sqrt(lambda_1(Sigma_T)/n), and sqrt(lambda_1) varies by only 1.7% (coefficient "
           "of variation) over the 45 digit-pair target tasks (3% on raw pixels), so the two R^2 differ by O(1e-3) "
           "and their paired difference changes sign between seeds (quick seeds 0-2: -0.0019 to +0.0010, standard: "
           "-0.0011 to +0.0001, standard errors 5e-4 to 1e-3); resolving it would take thousands of repetitions "
           "(one costs ~0.3 s CPU), far beyond the budget, and no number of them makes a tie an ordering.  The "
           "text's 'strong correlation between our bound "
           "and the actual error' does not carry over to digits (R^2 about 0.1).  Sensitivity (details, not "
           "judged): with ridge teachers (lambda = 1e-3) ||theta_T - theta_S||^2 and the bound from [25] reach R^2 "
           "of about 0.39 at n = 10 and (3) only 0.21: the row ordering depends on the unspecified teacher "
           "estimate.  At quick (10 repetitions) nearly every test is undecided; the second inequality needs the 40 "
           "repetitions of standard (same verdict at both profiles).  Issue 36: an undecided check ('what would "
           "decide the first inequality') now says, per n where it is not decided, how many repetitions would clear "
           "0 if the paired mean and spread stayed put (standard, seed 0: ~50 and ~150 at n = 30 and 25, ~1,500 "
           "and ~3,100 at n = 10 and 20, none at n = 15 where the mean is > 0), so no affordable run decides the "
           "claim on digits; what decides Table 1 is MNIST, its own data, which is not on this machine."),
    check=Custom(_table1, points=_points),
)

CLAIMS = [TABLE1]
