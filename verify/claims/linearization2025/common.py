"""Paper-level pieces of 004_04c86723a9734555.txt shared by every linearization2025 claim module: the source
helper, the assumption texts, the random PSD matrices of the property searches, and the slides' readings."""
from __future__ import annotations

import math
from typing import Any, Callable

import mpmath
import numpy as np
import sympy as sp  # noqa: F401 - used by the doctest of stated_mp

from verify.kit import Param, RootCause, Source, stated_value

PAPER = "linearization2025"
INF = math.inf
DPS = 50  # digits of every matrix property search


def src(where: str) -> Source:
    """``Source('linearization2025', where)``: where = slide title / theorem, as the slides name it."""
    return Source(PAPER, where)


# ------------------------------------------------------------------ the stated form as a number (verify.judge.stated)
def stated_mp(claim) -> Callable[[dict], Any]:
    """The claim's stated sympy form as ``f(point) -> mpmath number`` at the working precision, for the 50-digit
    searches (a search that compares at 1e-35 cannot use a double: at an equality case, e.g. K = c I in Theorem 5,
    the rounding of the bound would be a false counterexample): :func:`verify.kit.stated_value` with
    ``precise=True`` (which records the read, and the points, for ``verify mutants``).

    >>> import types
    >>> x = sp.Symbol("x")
    >>> with mpmath.workdps(30):
    ...     str(stated_mp(types.SimpleNamespace(id="demo", stated=x / 3))({"x": 1}))
    '0.333333333333333333333333333333'
    """
    return stated_value(claim, precise=True)


def _real(v) -> float:
    z = complex(v)
    return z.real if abs(z.imag) <= 1e-12 * (1 + abs(z.real)) else math.nan


def _device(values):
    """The device of the first tensor among ``values`` (the CPU when none is a tensor)."""
    import torch

    return next((v.device for v in values.values() if isinstance(v, torch.Tensor)), torch.device("cpu"))


def stated_tensor(claim, **values):
    """The claim's stated form evaluated elementwise over the broadcast torch tensors / numbers ``values``
    (keyword = symbol name; ``**{"lambda": lam}`` for lambda): a float64 tensor of their shape.  Through
    :func:`stated_mp` (so ``verify mutants`` sees the read and every point), at 30 digits and then rounded, so a
    form like t - (1 - e^{-lambda t})/lambda at small t is as exact as the float64 expression it replaces."""
    import torch

    f = stated_mp(claim)
    keys = list(values)
    ts = torch.broadcast_tensors(*[torch.as_tensor(v, dtype=torch.float64).cpu() for v in values.values()])  # device: cpu (mpmath)
    flat = [t.reshape(-1).tolist() for t in ts]
    with mpmath.workdps(30):
        out = [_real(f(dict(zip(keys, vals)))) for vals in zip(*flat)]
    return torch.tensor(out, dtype=torch.float64, device=_device(values)).reshape(ts[0].shape)


# ------------------------------------------------------------------ root causes (one per reason; verify.judge.severity)
#: Section 4 and Theorem 5 average over the n samples where the Problem Formulation's R~ sums: kernel_ridge,
#: kernel_ridge.finetune, thm5, thm5.proof
ROOT_N = RootCause(
    "linearization2025.normalization", "linearization2025",
    "Section 4 writes the kernel-ridge objective and Theorem 5's R(theta) with a 1/n, while the solution alpha* = "
    "(K + sigma I)^{-1} y* and Theorem 5's bounds are those of the sum R~ of the Problem Formulation (the 1/n is "
    "dropped between the proof's last equality and its conclusion)",
    corrected=r"\alpha^*=(K+n\sigma I)^{-1}\tilde y\ \text{and}\ \frac{\sigma^2\|y^*\|^2}{n(\sigma+\lambda_{max})^2}"
              r"\le R\le\frac{\sigma^2\|y^*\|^2}{n(\sigma+\lambda_{min})^2}\ \text{for the displayed }1/n"
              r"\text{ (or drop the }1/n)")
#: Theorem 2's statement slides write the residual at time t where the proof (and Theorem 4's use of it) has time 0
ROOT_RESIDUAL_T = RootCause(
    "linearization2025.thm2_residual_time", "linearization2025",
    "Theorem 2's statement (and its Case 1/Case 2 lines) bound ||theta_t - theta_0|| with the residual "
    "||f_theta_t(x*) - y*|| at time t, where its proof's last line has ||y(0) - y*||, the residual at time 0",
    corrected=r"\|\theta_t-\theta_0\|\le2\,Lip(f)\|f_{\theta_0}(x^*)-y^*\|\int_0^te^{-(\Lambda_t-\Lambda_s)}ds")
#: Theorem 4's simplified bound writes R~(theta_0) (a squared norm, Problem Formulation) for ||f_theta0(x*) - y*||
ROOT_LEMMA1_LABEL = RootCause(
    "linearization2025.lemma1_slide_label", "linearization2025",
    "the appendix slide titled 'Lemma 1. Norm Bounds and Lipschitzness' shows Theorem 2's statement and the first steps "
    "of its proof, not Lemma 1.",
    r"\text{retitle the slide: Theorem 2 (and its proof)}")
ROOT_RTILDE = RootCause(
    "linearization2025.thm4_rtilde", "linearization2025",
    "Theorem 4's simplified bound has R~(theta_0) = ||f_theta0(x*) - y*||^2 where its proof's last line has "
    "||y(0) - y*|| (the square is extra)",
    corrected=r"2Lip(f)\|f_{\theta_0}(x^*)-y^*\|(2rLip(\nabla f)+Lip(f))t")
#: the proof of Lemma 3: two algebra slips in the displayed steps (the lemma's limit is right)
ROOT_LEMMA3_ALGEBRA = RootCause(
    "linearization2025.lemma3_proof_algebra", "linearization2025",
    "the proof of Lemma 3 writes theta~_{t+1} - theta_0 = lambda eta/(1 - lambda eta)(theta_{t+1} - theta_0) (for "
    "1/(1 - lambda eta)) and keeps lambda eta theta_0 after dividing by eta (for lambda theta_0)",
    corrected=r"\tilde\theta_{t+1}-\theta_0=\frac{\theta_{t+1}-\theta_0}{1-\lambda\eta};\ "
              r"\frac{\theta_{t+1}-\theta_t}{\eta}=-\lambda(\theta_t-\theta_0)-(1-\lambda\eta)\nabla\tilde R^\top")
#: the proof of Theorem 1: a reversed sign and 'necessary' for 'sufficient'
ROOT_THM1_SIGN = RootCause(
    "linearization2025.thm1_proof_sign", "linearization2025",
    "the proof of Theorem 1 writes '>= 0 (k_t is semidefinite)' for -2<k_t r, r> <= 0, and ends with 'lambda = 0 is "
    "necessary' where the theorem (rightly) says sufficient",
    corrected=r"-2\langle k_tr,r\rangle\le0;\ \lambda\le4r^\top k_tr/|\nabla\tilde R(\theta_t)(\theta_t-\theta_0)|"
              r"\ \text{suffices}")
#: the discrete selective scheme of 'What does this imply?': switching the regularization step on at a converged
#: iterate pulls it back towards theta_0 and raises the loss
ROOT_SELECTIVE = RootCause(
    "linearization2025.selective_scheme", "linearization2025",
    "the slide after Theorem 1 says the discrete selective scheme guarantees a non-increasing ||f_theta_t(x*) - y*||^2 "
    "at every step, with no condition on the step; near convergence the switch turns the regularization step on "
    "(grad R~(theta_t)(theta_t - theta_0) >= 0) and its pull towards theta_0 raises the loss by O(eta^2) while the "
    "loss itself is far smaller, so the scheme raises the loss at some steps for every step size, where plain "
    "gradient descent and regularization at every step, at the same step, do not; Theorem 1 guarantees it for the "
    "gradient flow only",
    corrected=r"\text{for the gradient flow of Lemma 3 (Theorem 1): }\tfrac{d}{dt}\|f_{\theta_t}(x^*)-y^*\|^2\le0"
              r"\text{; the discrete scheme at step }\eta\text{ is not monotone}")
#: the proof of Theorem 2: the function value for the Jacobian's norm
ROOT_THM2_STEP = RootCause(
    "linearization2025.thm2_proof_jacobian", "linearization2025",
    "the proof of Theorem 2 writes ||f_theta_t(x*)|| <= Lip(f) (the function value) where the operator norm of the "
    "Jacobian grad f_theta_t(x*) is meant",
    corrected=r"\|\nabla f_{\theta_t}(x^*)\|_{op}\le Lip(f)")
#: the proof of Theorem 3: the linearized model's derivative written at theta_t and without its own regularization
ROOT_THM3_STEP = RootCause(
    "linearization2025.thm3_proof_linearized_derivative", "linearization2025",
    "the proof of Theorem 3 writes the linearized model's derivative with the regularization term lambda grad "
    "f(theta_t - theta_0) of the non-linear run instead of its own lambda J_0 (thetabar_t - theta_0), and its line "
    "applying Lemma 1 keeps minus signs on both sides, which reverses the inequality",
    corrected=r"\frac{d}{dt}\bar y(t)=-2k_0(\bar y(t)-y^*)-\lambda\nabla f_{\theta_0}(x^*)(\bar\theta_t-\theta_0)")


# ------------------------------------------------------------------ assumptions (in words)
SQUARED = ("squared loss R~(theta) = sum_i (f_theta(x_i) - y_i)^2 = ||f_theta(x*) - y*||^2 (Problem Formulation; "
           "a sum over the n samples)")
SPLIT = ("split update: theta~_t = theta_{t-1} - eta grad R~(theta_{t-1})^T, then theta_t = theta~_t - lambda eta "
         "(theta~_t - theta_0) (Problem Formulation); gradient-flow limit eta -> 0 (Lemma 3)")
SELECTIVE = ("selective regularization: the regularization step is applied only where grad R~(theta)(theta - theta_0) "
             ">= 0, i.e. lambda_t in {0, lambda} (Theorem 1 / Lemma 3 proof)")
LIP_BALL = ("f_theta(x*) is Lip(f)-Lipschitz and grad f_theta(x*) is Lip(grad f)-Lipschitz in theta on an l2-ball of "
            "radius tau (or r) around theta_0")
KRR = ("linearized model fbar_theta(x) = f_theta0(x) + <grad f_theta0(x), theta - theta0>; K = K(x*, x*) the empirical "
       "NTK Gram matrix at theta0 (PSD), sigma > 0, y* the targets")

MODELS = ("models simulated: linear f = theta^T x (Lip(f) = ||X||_op exact, Lip(grad f) = 0), data-free quadratic "
          "f_i = b_i^T theta + theta^T A_i theta/2 (rigorous constants), two-layer tanh MLP a^T tanh(Wx)/sqrt(m) and "
          "two-layer ReLU net, from a random 'pretrained' theta0 with targets y* = f_theta0(x*) + residual * z")

# ------------------------------------------------------------------ parameters of the matrix searches
N = Param("n", 1, 6, integer=True, doc="number of fine-tuning samples (size of K)")
SIGMA = Param("sigma", 0, INF, lower_open=True, doc="ridge parameter sigma > 0")
LOGK = Param("log10_kappa", 0, 12, doc="log10 of the condition number of K's nonzero spectrum")
SCALE = Param("log10_scale", -4, 4, doc="log10 of lambda_max(K)")
SEED = Param("seed", 0, 10**6, integer=True, doc="seed of the random eigenvectors and y*")


def _rng(seed: int, tag: str):
    return np.random.default_rng([int(seed), sum(map(ord, tag))])


def orthogonal_mp(n: int, seed: int, tag: str):
    """A random n x n orthogonal matrix, orthogonal to DPS digits (mpmath QR of a Gaussian draw)."""
    with mpmath.workdps(DPS):
        A = mpmath.matrix(_rng(seed, tag).standard_normal((n, n)).tolist())
        Q, _ = mpmath.qr(A)
        return Q


def spectrum(n: int, rank: int, log10_kappa: float, log10_scale: float):
    """The nonzero eigenvalues 10^log10_scale * 10^(-log10_kappa * i/(rank - 1)), i < rank, then n - rank zeros."""
    top = mpmath.mpf(10) ** mpmath.mpf(log10_scale)
    d = [top * mpmath.mpf(10) ** (-mpmath.mpf(log10_kappa) * (mpmath.mpf(i) / (rank - 1) if rank > 1 else 0))
         for i in range(rank)]
    return d + [mpmath.mpf(0)] * (n - rank)


def psd(n: int, rank: int, log10_kappa: float, log10_scale: float, seed: int, tag: str = "K"):
    """(K, eigenvalues ascending): an n x n PSD mpmath matrix U diag(d) U^T with U orthogonal to DPS digits and d
    from :func:`spectrum` (geometric from 10^log10_scale down over log10_kappa decades; exactly rank-deficient
    when rank < n), so K's eigenvalues are known to DPS digits without an eigensolver."""
    with mpmath.workdps(DPS):
        U = orthogonal_mp(n, seed, tag)
        d = spectrum(n, rank, log10_kappa, log10_scale)
        K = U * mpmath.diag(d) * U.T
        K = (K + K.T) / 2
        return K, sorted(d)


def points(domain, bounds=None):
    """A hypothesis strategy of points over ``domain`` that shrinks towards each interval's lower end (integers
    towards their minimum, so a counterexample is shown at the smallest failing size).  Unlike
    Domain.strategy it does not put the endpoints first; hypothesis still tries boundary values."""
    from hypothesis import strategies as st

    bounds = dict(bounds or {})
    fields = {}
    for p in domain.params:
        lo, hi = bounds.get(p.name, (p.lower, p.upper))
        lo, hi = max(lo, p.lower), min(hi, p.upper)
        if p.integer:
            fields[p.name] = st.integers(int(lo) + (1 if p.lower_open and lo == p.lower else 0), int(hi))
        else:
            fields[p.name] = st.floats(lo, hi, exclude_min=p.lower_open and lo == p.lower,
                                       exclude_max=p.upper_open and hi == p.upper, allow_nan=False)
    pts = st.fixed_dictionaries(fields)
    if domain.constraints:
        pts = pts.filter(lambda q: all(c.test(q) for c in domain.constraints))
    return pts


def eigvals_sym(A):
    """Eigenvalues (ascending) of a symmetric mpmath matrix: numpy first; mpmath's eigsy only when asked."""
    return sorted(mpmath.eigsy((A + A.T) / 2)[0])


def vector(n: int, seed: int, tag: str = "y"):
    return mpmath.matrix([mpmath.mpf(float(v)) for v in _rng(seed, tag).standard_normal(n)])


def as_list(A):
    """A matrix as nested floats (for a counterexample's display)."""
    return [[float(A[i, j]) for j in range(A.cols)] for i in range(A.rows)] if A.cols > 1 else \
        [float(A[i]) for i in range(A.rows)]


# ------------------------------------------------------------------ fine-tuning problems of the dynamics claims
#: sizes of the simulated problems: n training points, input dimension d, hidden width m
SIZES = {"linear": (4, 6, 0), "quadratic": (3, 5, 0), "tanh": (4, 3, 6), "relu": (4, 3, 6), "quadratic1d": (1, 1, 0),
         "linear1": (1, 6, 0)}
MODEL_CODES = ("linear", "quadratic", "tanh", "relu", "quadratic1d", "linear1")
MODEL = Param("model", 0, 5, integer=True, doc="0 linear, 1 quadratic, 2 tanh MLP, 3 ReLU net, 4 scalar quadratic "
              "f = b theta + a theta^2/2 (Lip(f) = |b| + |a| r and Lip(grad f) = |a| exactly), 5 linear with one "
              "sample f = x^T theta (n = 1: J^T r = r x, so ||J^T r|| = Lip(f)|r| and Theorem 2's bounds are tight)")


def problem(kind: str, B: int, gen, ctx, residual: float = 1.0):
    """B random fine-tuning problems of one model kind (numerics.proximal.make_problem, the sizes of SIZES)."""
    from numerics.proximal import make_problem

    n, d, m = SIZES[kind]
    base = {"quadratic1d": "quadratic", "linear1": "linear"}.get(kind, kind)
    return make_problem(B, base, n, d, max(m, 1), gen, residual=residual, device=ctx.device, dtype=ctx.dtype)


def kind_of(p) -> str:
    v = p["model"]
    return v if isinstance(v, str) else MODEL_CODES[int(v)]


def point_problem(claim, ctx, ev, p, B):
    """The random problems of a (model, lam) point: (kind, lam, label, gen, prob).  The generator is seeded from
    the run seed, the claim id and the point's label (its seed appended to ``ev.seeds``); ``B`` is the per-profile
    number of problems; the generator is returned after drawing them, for the point's further draws."""
    from verify.kit import label_of, pick

    kind, lam = kind_of(p), float(p["lam"])
    lab = label_of({"model": kind, "lam": lam})
    gen, seed = ctx.generator(claim.id, lab)
    ev.seeds.append(seed)
    return kind, lam, lab, gen, problem(kind, pick(ctx.profile, B), gen, ctx)


#: step of the fine split update that stands in for the flow on ReLU problems: solve_ivp stalls there (the
#: vector field -grad R~ is discontinuous where a pre-activation crosses 0 and trajectories chatter along such
#: kinks, a Filippov sliding motion), so for ReLU 'the flow' is the split update at this step, stated in notes
ETA_FINE_RELU = 5e-3


STIFF_HORIZON = 100.0   # beyond this end time the smooth flows are integrated with LSODA (see resolved_flow)


def resolved_flow(prob, lam, times, *, linear_too=False, rtol=1e-9, atol=1e-11):
    """Lemma 3's flow at ``times``: solve_ivp for smooth models, the split update at ETA_FINE_RELU for ReLU.

    The integrator is DOP853 up to an end time of STIFF_HORIZON and LSODA (stiffness-switching) beyond: over long
    horizons (Theorem 4 at small lambda, T ~ 1e4) the flow is stiff (fast directions of R~ next to a slow
    lambda-direction) and DOP853's step is held by stability, not accuracy (237 s against LSODA's 0.8 s on one
    quadratic problem at T ~ 2e4, the two agreeing to ~1e-11); tests/test_linearization.py cross-checks the two
    integrators on a long horizon."""
    from numerics.proximal import flow, split_gd

    if prob.name.startswith("relu"):
        return split_gd(prob, lam, ETA_FINE_RELU, float(times[-1]), record=times, linear_too=linear_too)
    method = "LSODA" if float(times[-1]) > STIFF_HORIZON else "DOP853"
    return flow(prob, lam, times, linear_too=linear_too, rtol=rtol, atol=atol, method=method)


def lip_constants(prob, tau, gen, traj=None):
    """(L_low, L_up, Lg_low, Lg_up), each (B,): lower estimates (sampled sup over the tau-ball and the trajectory
    ``traj``; err low) and rigorous upper bounds (numerics.proximal.lip_upper; err high; exact for linear models)
    of Lip(f) and Lip(grad f) over the l2-ball of radius ``tau`` (B,) around theta0."""
    from numerics.proximal import lip_f_lower, lip_gradf_lower, lip_upper

    L_low = lip_f_lower(prob, tau, gen, extra=traj)
    Lg_low = lip_gradf_lower(prob, tau, gen, extra=traj)
    L_up, Lg_up = lip_upper(prob, tau)
    if prob.name == "linear":   # exact
        L_low, Lg_low = L_up, Lg_up
    return L_low, torch_max(L_up, L_low), Lg_low, torch_max(Lg_up, Lg_low)


def torch_max(a, b):
    import torch

    return torch.maximum(a, b)


def judge_bound(name, lhs, rhs_low, rhs_up, rel_tol, detail="", extra=None):
    """A deterministic Check of lhs <= rhs along trajectories (tensors of one shape) where the bound is known only
    between rhs_low (computed with lower estimates of the constants) and rhs_up (rigorous upper constants):
    passed if lhs <= rhs_low (1 + rel_tol) everywhere (rigorous: the true bound is >= rhs_low); failed if
    lhs > rhs_up (1 + rel_tol) somewhere (rigorous: the true bound is <= rhs_up); undecided otherwise."""
    from verify.kit import EVERY_VALUE, Check

    slack = 1 + rel_tol
    viol_up = lhs > rhs_up * slack + 1e-12
    viol_low = lhs > rhs_low * slack + 1e-12
    worst = float((lhs / rhs_up.clamp_min(1e-300)).max())
    worst_low = float((lhs / rhs_low.clamp_min(1e-300)).max())
    info = f"{detail}; max lhs/rhs = {worst:.4g} (rigorous upper constants), {worst_low:.4g} (lower estimates)"
    if bool(viol_up.any()):
        idx = [int(i) for i in (viol_up.nonzero()[0])]
        return Check(name, False, info + f"; violated at {int(viol_up.sum())} recorded states",
                     counterexample={**(extra or {}), "index": idx, "lhs": float(lhs[tuple(idx)]),
                                     "rhs_upper_constants": float(rhs_up[tuple(idx)])})
    if not bool(viol_low.any()):
        return Check(name, True, info, extra={EVERY_VALUE: True})
    return Check(name, None, info + "; violated only with the lower estimates of the constants: undecided",
                 refutes=True)
#: the proof of Theorem 3, the chain bounding d/dt Delta (L234) and the next slide (L240): signs
ROOT_THM3_CHAIN = RootCause(
    "linearization2025.thm3_proof_chain_signs", "linearization2025",
    "the proof of Theorem 3 bounds d/dt Delta with a 'triangle inequality' that subtracts lambda ||grad f_theta_t "
    "(theta_t - theta_0)|| (the triangle inequality adds it; the next line adds it again), and the next slide writes "
    "d/dt Delta <= -2Lip(f)||y(0) - y*||(2/lambda Lip(k)||y(0) - y*|| + Lip(f))(1 - e^{-lambda t}), a bound <= 0 "
    "that would keep Delta at Delta(0) = 0 (a minus sign carried over from the display's last line)",
    corrected=r"\frac{d}{dt}\Delta\le\|(k_0-k_t)2(y-y^*)\|+\lambda\|\nabla f_{\theta_t}(\theta_t-\theta_0)\|\le"
              r"2Lip(f)\|y(0)-y^*\|\big(\tfrac2\lambda Lip(k)\|y(0)-y^*\|+Lip(f)\big)(1-e^{-\lambda t})")
#: the proof of Theorem 3: the PSD reason with a transpose too many
ROOT_THM3_PSD = RootCause(
    "linearization2025.thm3_proof_psd_transpose", "linearization2025",
    "the proof of Theorem 3 justifies -2(y - ybar)^T k_0 (y - ybar) <= 0 by 'grad f_theta0(x*)^T grad f_theta0(x*)^T is "
    "positive semidefinite', a product that is not defined for an n x p Jacobian with n != p and not PSD for a "
    "square one; k_0 = grad f_theta0(x*) grad f_theta0(x*)^T is meant",
    corrected=r"k_0=\nabla f_{\theta_0}(x^*)\nabla f_{\theta_0}(x^*)^\top\succeq0")
#: 'Proof: skip' slide: Theorem 6 restated as an absolute interval
ROOT_THM6_INTERVAL = RootCause(
    "linearization2025.thm6_absolute_interval", "linearization2025",
    "the slide after Theorem 6 says each eigenvalue of K + S is 'bounded at most [1 - eta, 1 + eta]', an absolute "
    "interval, where Theorem 6 bounds it relative to lambda_i(K)",
    corrected=r"\lambda_i(K+S)\in[(1-\eta)\lambda_i(K),(1+\eta)\lambda_i(K)]")
#: proof of Theorem 7: L454's upper end with lambda_min(K + sigma I) where the line before (L450) gives lambda_max
ROOT_THM7_L454 = RootCause(
    "linearization2025.thm7_proof_lambda_min", "linearization2025",
    "the proof of Theorem 7 writes R(theta u theta^)^{1/2} <= sigma||y*|| kappa/((1 - eta) lambda_min(K + sigma I)) "
    "where its previous line gives lambda_max(K + sigma I); combined with L440 as the next slide says, the printed "
    "line gives kappa^2, not the kappa of L464",
    corrected=r"\mathcal R(\theta\cup\hat\theta)^{1/2}\le\frac{\sigma\|y^*\|\kappa(K+\sigma I)}{(1-\eta)"
              r"\lambda_{max}(K+\sigma I)}")
