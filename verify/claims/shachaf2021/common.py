"""Paper-level pieces shared by the §4-5 claim modules of 000_efaf07e323d59f0e.txt (Shachaf, Brutzkus,
Globerson, NeurIPS 2021): assumption texts, the SOURCE helper and teacher draws (the one-sided ordering
tests are verify.kit.ordering_test).
"""
from __future__ import annotations

import math

import torch

from numerics.sampling import unit_vectors
from verify.kit import RootCause, Source

PAPER = "shachaf2021"


def src(where: str) -> Source:
    return Source(PAPER, where)


A31 = "Assumption 3.1: X X^T is non-singular (rows of X linearly independent; n < d)."
A32 = "Assumption 3.2 (perfect pretraining): f(x, Theta_S) = x^T theta_S."
A33 = "Assumption 3.3 (zero train loss): lim_t L(Theta(t)) = 0."
NOISELESS = "Labels y = X theta_T (noiseless linear teacher, §3)."
LIN_SETTING = (f"Linear regression f(x) = x^T w, fine-tuned by gradient descent on L(w) = (1/n)||X w - y||^2 from "
               f"w(0) = theta_S (§3-4). {NOISELESS} {A31} {A32} {A33}")
GAUSS_ANISO = ("Rows of X i.i.d. N(0, Sigma), Sigma = diag(lambda) (the eigenbasis V = I without loss of generality: a "
               "Gaussian design is rotation invariant).")
DEEP_SETTING = ("Deep linear network f(x) = x^T W_1 ... W_L (§5) with d_j = d (j < L), d_L = 1; weights 0-balanced "
                "before pretraining (Definition 5.1), or approximately balanced from a near-zero initialization; "
                "pretraining = gradient descent on the population loss 1/2||beta - theta_S||^2 (x ~ N(0, I)) to "
                "theta_S (Assumption 3.2); fine-tuning = gradient descent on (1/2n)||X beta - y||^2 over all layers "
                "(the paper's (1/n) is a time rescaling, same end state), adaptive steps approximating gradient "
                f"flow (numerics.deep_linear.train). {NOISELESS} {A31} {A33}")
LITERAL_GD_NOTE = ("Literal procedure: numerics.deep_linear (pretrain_from / finetune / finetune_frozen), batched over "
                   "draws; a draw whose pretraining or fine-tuning did not reach its stopping rule makes its point "
                   "undecided (never evidence).")


def unit(B: int, d: int, gen: torch.Generator, dtype=torch.float64) -> torch.Tensor:
    return unit_vectors(B, d, gen, dtype=dtype)


def pair_at_angle(B: int, d: int, cos_: float, gen: torch.Generator, dtype=torch.float64):
    """Unit vectors (u, w) with <u, w> = cos_, uniformly rotated: (B, d) each."""
    u = unit_vectors(B, d, gen, dtype=dtype)
    z = torch.randn(B, d, generator=gen, dtype=dtype, device=gen.device)
    z = z - (z * u).sum(-1, keepdim=True) * u
    z = z / z.norm(dim=-1, keepdim=True)
    return u, cos_ * u + math.sqrt(max(0.0, 1 - cos_**2)) * z


# ----------------------------------------------------------------------------- root causes (issue 22)
ROOT_REGIMES = RootCause(
    "shachaf2021.sec4_threshold", PAPER,
    "§4.1's regimes of bound (3) are split at g = 1, but the coefficients of ||P_<=m v||^2 (2 g^3/lambda_m^2) and "
    "||P_>m v||^2 (2 g) cross at g = lambda_m: the threshold 1 is right only for lambda_m = 1.",
    r"\tfrac{2g^3}{\lambda_m^2}\gtrless 2g\iff g\gtrless\lambda_m")
ROOT_FIG2B = RootCause(
    "shachaf2021.fig2b_small_n", PAPER,
    "§5.3's reading of Figure 2(b), 'increasing the norm of the target vector harms generalization much more than "
    "increasing the norm of the source vector ... even for a relatively shallow model', fails at depth 7 with "
    "n = d/10 samples (the sample size of Figure 2(a)), where the source scaling harms as much or more; it holds at "
    "n >= 0.3 d.",
    r"L=7,\ n\ge0.3d:\ \Delta R(\theta_T\to a\hat\theta_T)>\Delta R(\theta_S\to a\hat\theta_S)")


# ----------------------------------------------------------------------------- unspecified constants (issue 36)
def split_unspecified(claim, constant: str, decide: str, checkable_id: str, checkable_what: str, keep=None):
    """(the statement, what is checkable) for a statement whose constant the source leaves unspecified.

    'There exists c' (or an O(.) without its constant) cannot be refuted by a finite experiment, so the statement
    itself is judged inconclusive by one undecided check that names the constant and what would decide it; the
    checks of a concrete instance (ours: c = 1, the first term alone) move to a companion claim ``checkable_id``
    (tagged extension: it reads the statement beyond its words), which keeps the power witnesses.  ``keep``: a check
    of the source's own algebra that stays with the statement (e.g. a constant composed from two results)."""
    from dataclasses import replace

    from verify.kit import AllOf, Check, Custom, Evidence

    undecided = Custom(lambda cl, ctx: Evidence(checks=[Check(
        f"the statement as a whole ({constant} unspecified)", None,
        f"{constant} is not given by the source, so no finite experiment can refute the statement as a whole; what can "
        f"be checked is reported by {checkable_id} ({checkable_what}); what would decide it: {decide}",
        refutes=False)]))
    main = replace(claim, check=undecided if keep is None else AllOf([keep, undecided]), power=(),
                   notes=(f"Inconclusive by design: {constant} is unspecified, so the statement cannot fail as a whole; "
                          f"{checkable_id} reports what can be checked ({checkable_what}). " + claim.notes))
    part = replace(claim, id=checkable_id, tags=tuple(claim.tags) + ("extension",),
                   notes=(f"What can be checked of {claim.id} ({checkable_what}); an instance we chose, so a failure is "
                          f"'does not extend', never an erratum of the source. " + claim.notes))
    return main, part


# ----------------------------------------------------------------------------- probability bounds (issue 36)
def binomial_bound_test(label: str, params: dict, delta: float, violations, seed, *, target: str = "stated"):
    """0/1 violation indicators of a bound stated to hold with probability >= 1 - delta, against delta: the judge's
    own exact binomial test (``verify.kit.binomial_test``) at ProbabilityBound's tolerance, for the checks that
    evaluate the stated form per draw themselves."""
    from verify.kit import ProbabilityBound, binomial_test

    return binomial_test(label, params, delta, violations, ProbabilityBound.tol, target, seed)
