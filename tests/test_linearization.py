"""Tests of numerics/proximal.py and derivations/kernel_ridge.py (linearization2025): hand-written Jacobians vs
torch.func, the flow vs its closed form for linear models, the split update's exact Lambda_t / integral, the
regularized GD end point vs the ridge solution, sympy vs mpmath forms, and the 50-digit matrix constructions."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp
import torch
from hypothesis import given, settings, strategies as st

from derivations import kernel_ridge as KR
from numerics import proximal as P

SLOW = settings(max_examples=10, deadline=None)


def _gen(seed=0):
    return torch.Generator().manual_seed(seed)


@pytest.mark.parametrize("kind", ["linear", "quadratic", "tanh", "relu"])
def test_jacobian_matches_torch_func(kind):
    from torch.func import jacrev

    prob = P.make_problem(3, kind, 4, 3, 5, _gen(1))
    th = prob.theta0 + 0.3 * torch.randn(prob.theta0.shape, generator=_gen(2), dtype=torch.float64)
    J = prob.jac(th)
    for b in range(3):
        Jb = jacrev(lambda t: prob.f_single(t, b))(th[b])
        assert torch.allclose(J[b], Jb, atol=1e-12)
        assert torch.allclose(prob.f(th)[b], prob.f_single(th[b], b), atol=1e-12)
    K = P.empirical_ntk(prob, th)
    assert torch.allclose(K, J @ J.transpose(1, 2), atol=1e-12)


def _linear_flow_closed_form(prob, lam, t):
    """u(t) = (H + lam)^{-1} (I - e^{-(H + lam) t}) b, H = 2 J^T J, b = 2 J^T (y - f0)."""
    J = prob.jac(prob.theta0)
    H = 2 * J.transpose(1, 2) @ J
    b = 2 * torch.einsum("bnp,bn->bp", J, prob.y - prob.f(prob.theta0))
    A = H + lam * torch.eye(H.shape[-1], dtype=H.dtype)
    E = torch.linalg.matrix_exp(-A * t)
    return torch.linalg.solve(A, ((torch.eye(H.shape[-1], dtype=H.dtype) - E) @ b[..., None])[..., 0])


@pytest.mark.parametrize("lam", [0.7, 2.0])
def test_flow_matches_linear_closed_form(lam):
    prob = P.make_problem(2, "linear", 4, 6, 1, _gen(3))
    tr = P.flow(prob, lam, np.array([0.0, 0.5, 1.5]))
    for k, t in enumerate(tr.t):
        u = _linear_flow_closed_form(prob, lam, float(t))
        assert torch.allclose(tr.theta[:, k] - prob.theta0, u, atol=1e-8)
    # the linearized model of a linear model is itself: identical flows
    tr2 = P.flow(prob, lam, np.array([0.0, 1.0]), linear_too=True)
    assert torch.allclose(tr2.theta, tr2.theta_bar, atol=1e-9)


def test_long_horizon_integrator_matches_closed_form_and_dop853():
    """resolved_flow switches to LSODA beyond STIFF_HORIZON: exact on a linear model over a long, stiff horizon,
    and the same end state as DOP853 on a nonlinear one."""
    from verify.claims.linearization2025.common import STIFF_HORIZON, resolved_flow

    prob = P.make_problem(2, "linear", 4, 6, 1, _gen(5))
    lam, T = 1e-3, 20 * STIFF_HORIZON
    tr = resolved_flow(prob, lam, np.array([0.0, 0.1 * T, T]))
    for k, t in enumerate(tr.t):
        u = _linear_flow_closed_form(prob, lam, float(t))
        assert torch.allclose(tr.theta[:, k] - prob.theta0, u, rtol=1e-6, atol=1e-7)
    prob = P.make_problem(2, "tanh", 4, 3, 5, _gen(6))
    times = np.array([0.0, 1.5 * STIFF_HORIZON])
    a = resolved_flow(prob, 0.05, times, linear_too=True)
    b = P.flow(prob, 0.05, times, linear_too=True, rtol=1e-9, atol=1e-11, method="DOP853")
    assert torch.allclose(a.theta, b.theta, rtol=1e-6, atol=1e-8)
    assert torch.allclose(a.theta_bar, b.theta_bar, rtol=1e-6, atol=1e-8)


def test_split_update_first_order_and_integral():
    prob = P.make_problem(2, "tanh", 4, 3, 5, _gen(4))
    lam = 0.8
    ref = P.flow(prob, lam, np.array([0.0, 1.0]))
    errs = []
    for N in (100, 200, 400):
        tr = P.split_gd(prob, lam, 1.0 / N, 1.0, record=[0.0, 1.0])
        errs.append(float((tr.theta[:, -1] - ref.theta[:, -1]).norm()))
        # Lambda_t and int_0^t e^{-(Lambda_t - Lambda_s)} ds exact for constant lambda
        assert abs(float(tr.Lam[0, -1]) - lam) < 1e-12
        assert abs(float(tr.I[0, -1]) - (1 - math.exp(-lam)) / lam) < 1e-12
    slope = np.polyfit(np.log([1 / 100, 1 / 200, 1 / 400]), np.log(errs), 1)[0]
    assert 0.9 < slope < 1.1


def test_one_split_step_matches_slides():
    """theta_1 = theta~ - lam eta (theta~ - theta0), theta~ = theta0 - eta grad R~(theta0)^T."""
    prob = P.make_problem(2, "quadratic", 3, 4, 1, _gen(5))
    th1 = prob.theta0 + 0.1
    prob2 = P.Problem(prob.name, th1.clone(), prob.y, prob.f, prob.jac, prob.f_single, prob.data)
    lam, eta = 0.5, 0.01
    tr = P.split_gd(prob2, lam, eta, eta, record=[0.0, eta])
    tt = th1 - eta * P.grad_R(prob2, th1)
    expected = tt - lam * eta * (tt - th1)
    assert torch.allclose(tr.theta[:, 1], expected, atol=1e-14)


@pytest.mark.parametrize("norm", ["sum", "mean"])
def test_regularized_gd_reaches_ridge_solution(norm):
    prob = P.make_problem(3, "linear", 4, 6, 1, _gen(6))
    lam = 0.6
    th, _ = P.regularized_gd(prob, lam, normalization=norm)
    J = prob.jac(prob.theta0)
    K = J @ J.transpose(1, 2)
    m = 1 if norm == "sum" else 4
    alpha = torch.linalg.solve(K + m * lam / 2 * torch.eye(4, dtype=K.dtype), prob.y - prob.f(prob.theta0))
    assert torch.allclose(th - prob.theta0, torch.einsum("bnp,bn->bp", J, alpha), atol=1e-8)


@pytest.mark.parametrize("kind", ["linear", "quadratic", "tanh", "relu"])
def test_lipschitz_upper_bounds_dominate_samples(kind):
    prob = P.make_problem(3, kind, 4, 3, 5, _gen(7))
    r = torch.full((3,), 0.7, dtype=torch.float64)
    Lu, Lgu = P.lip_upper(prob, r)
    Ll = P.lip_f_lower(prob, r, _gen(8))
    assert bool((Ll <= Lu * (1 + 1e-12)).all())
    if kind != "relu":
        Lgl = P.lip_gradf_lower(prob, r, _gen(9))
        assert bool((Lgl <= Lgu * (1 + 1e-6) + 1e-12).all())


def test_thm5_forms_sympy_vs_mpmath():
    f_lo = sp.lambdify((KR.sigma, KR.lmax, KR.ynorm), KR.thm5_lower_stated(), modules="mpmath")
    f_hi = sp.lambdify((KR.sigma, KR.lmin, KR.ynorm), KR.thm5_upper_stated(), modules="mpmath")
    for s, l, y in [(0.3, 2.0, 1.5), (2.0, 0.0, 0.7)]:
        assert abs(f_lo(s, l, y) - KR.thm5_lower_value(s, l, y)) < 1e-25
        assert abs(f_hi(s, l, y) - KR.thm5_upper_value(s, l, y)) < 1e-25


@SLOW
@given(n=st.integers(1, 5), rank=st.integers(0, 5), k=st.floats(0, 8), seed=st.integers(0, 1000))
def test_psd_construction_has_its_spectrum(n, rank, k, seed):
    from verify.claims.linearization2025.common import psd

    rank = min(rank, n)
    K, E = psd(n, rank, k, 0.0, seed)
    with mpmath.workdps(50):
        ev = sorted(mpmath.eigsy(K)[0])
        assert all(abs(a - b) <= mpmath.mpf("1e-40") * max(1, abs(b)) for a, b in zip(ev, E))


@SLOW
@given(n=st.integers(1, 5), seed=st.integers(0, 1000), s=st.floats(0.01, 10))
def test_krr_risk_forms_agree_and_sum_bounds_hold(n, seed, s):
    from verify.claims.linearization2025.common import orthogonal_mp, psd, spectrum, vector

    K, E = psd(n, n, 3.0, 0.0, seed)
    y = vector(n, seed)
    with mpmath.workdps(50):
        U = orthogonal_mp(n, seed, "K")
        d = spectrum(n, n, 3.0, 0.0)
        a = KR.krr_risk_mp(K, y, mpmath.mpf(s), "sum")
        b = KR.krr_risk_eig_mp(K, y, mpmath.mpf(s), "sum", eig=(d, U))
        assert abs(a - b) < mpmath.mpf("1e-35") * (1 + a)
        yn = mpmath.norm(y)
        assert KR.thm5_lower_value(s, E[-1], yn) <= a * (1 + mpmath.mpf("1e-35"))
        assert a <= KR.thm5_upper_value(s, E[0], yn) * (1 + mpmath.mpf("1e-35"))


@pytest.mark.parametrize("kind", ["linear", "quadratic", "tanh", "relu"])
def test_magnitudes_bound_the_terms_and_the_identity_rounding(kind):
    """magnitudes: rho >= |f|, Jabs >= |J|; and thm1's rounding bound holds the float64 difference of the two sides of
    the proof's identity at random states, including a near-stationary one, while a relative error of 1e-10 in the
    identity (a wrong formula) exceeds it at a generic state: the check can fail."""
    from verify.claims.linearization2025.monotone import _jvp_dloss, _quantities, _rounding_bound

    prob = P.make_problem(3, kind, 4, 3, 5, _gen(3))
    th = prob.theta0 + 0.3 * torch.randn(prob.theta0.shape, generator=_gen(4), dtype=torch.float64)
    rho, Jabs, kink = P.magnitudes(prob, th)
    assert bool((rho >= prob.f(th).abs() * (1 - 1e-12)).all()) and bool((Jabs >= prob.jac(th).abs() * (1 - 1e-12)).all())
    assert not bool(kink.any())
    lam = 0.7
    for state in (th, P.split_gd(prob, 0.0, 2e-3, 40.0, record=[40.0]).theta[:, -1]):   # generic; near J^T r = 0
        r, s, rKr, u, g = _quantities(prob, state, lam)
        lam_used = torch.full_like(s, lam)
        D = _jvp_dloss(prob, state, -g - lam * u)
        formula = 2 * (-2 * rKr - lam_used / 2 * s)
        bound, _ = _rounding_bound(prob, state, u, lam_used)
        assert bool(((D - formula).abs() <= bound).all())
    r, s, rKr, u, g = _quantities(prob, th, lam)
    D = _jvp_dloss(prob, th, -g - lam * u)
    bound, _ = _rounding_bound(prob, th, u, torch.full_like(s, lam))
    assert bool(((D - 2 * (-2 * rKr * (1 + 1e-10) - lam / 2 * s)).abs() > bound).all())


def test_linearization_gap_matches_per_time_loop():
    prob = P.make_problem(3, "tanh", 4, 3, 5, _gen(5))
    tr = P.flow(prob, 0.5, np.linspace(0, 2, 7), linear_too=True)
    gap = P.linearization_gap(prob, tr.theta, tr.theta_bar)
    lin = P.linearized(prob)
    ref = torch.stack([(prob.f(tr.theta[:, k]) - lin.f(tr.theta_bar[:, k])).norm(dim=1) for k in range(7)], 1)
    assert torch.allclose(gap, ref, rtol=1e-12, atol=1e-14)


# ------------------------------------------------------------------ the stated forms read by the checks (issue 13)
def test_stated_tensor_matches_the_float_formula_it_replaced():
    """linearity.THM3_STATED through common.stated_tensor (30 digits, rounded) against a 50-digit evaluation of
    b (t - (1 - e^{-lambda t})/lambda) (to 1e-14), and against the float64 expression the check used before,
    b (t + expm1(-lambda t)/lambda), at the lambdas of the grids that had it (to 1e-12; that expression loses
    ~eps/(lambda t) to cancellation, 1e-9 at lambda t = 1e-7)."""
    from verify.claims.linearization2025 import linearity as LIN
    from verify.claims.linearization2025.common import stated_tensor

    claim = next(c for c in LIN.CLAIMS if c.id == "linearization2025.thm3")
    g = torch.Generator().manual_seed(5)
    L, Lg, r0 = (torch.rand(3, 1, generator=g, dtype=torch.float64) * 3 + 0.1 for _ in range(3))
    t = torch.as_tensor(np.concatenate([[0.0], np.geomspace(1e-3, 20, 9)]), dtype=torch.float64)[None]
    for lam in (1e-4, 0.1, 0.3, 3.0, 10.0):
        new = stated_tensor(claim, Lip_f=L, Lip_grad_f=Lg, R0=r0, t=t, **{"lambda": lam})
        with mpmath.workdps(50):
            ref = torch.tensor([[float(2 * mpmath.mpf(a) ** 2 * mpmath.mpf(c) * (4 / mpmath.mpf(lam) * mpmath.mpf(b)
                                                                               * mpmath.mpf(c) + 1)
                                      * (mpmath.mpf(s) - (1 - mpmath.exp(-mpmath.mpf(lam) * mpmath.mpf(s)))
                                         / mpmath.mpf(lam)))
                                 for s in t[0].tolist()] for a, b, c in zip(L[:, 0].tolist(), Lg[:, 0].tolist(),
                                                                            r0[:, 0].tolist())], dtype=torch.float64)
        assert torch.allclose(new, ref, rtol=1e-14, atol=0)
        if lam >= 0.1:
            old = 2 * L ** 2 * r0 * (4 / lam * Lg * r0 + 1) * (t + torch.expm1(-lam * t) / lam)
            assert torch.allclose(new, old, rtol=1e-12, atol=0)


def test_stated_search_reads_the_stated_form_in_50_digits():
    """common.stated_mp records the read (verify.judge.stated.reads) and evaluates at the working precision; the Theorem 5
    equality case K = c I meets the stated upper bound exactly, which a double-precision bound could miss."""
    from verify.claims.linearization2025 import kernel as KER
    from verify.claims.linearization2025.common import stated_mp
    from verify.judge.stated import reads

    claim = next(c for c in KER.CLAIMS if c.id == "linearization2025.thm5.sum")
    with reads() as rec:
        f = stated_mp(claim)
        with mpmath.workdps(50):
            s, c, y = mpmath.mpf(1) / 3, mpmath.mpf(2) / 7, [mpmath.mpf(1) / 3, mpmath.mpf(2)]
            K = c * mpmath.eye(2)
            yv = mpmath.matrix(y)
            R = KR.krr_risk_mp(K, yv, s, "sum")
            bound = f({"sigma": s, "Y": mpmath.norm(yv), "lambda_min": c})
            assert abs(R - bound) <= mpmath.mpf("1e-45") * R
    assert claim.id in rec.ids and rec.points and set(rec.points[0]) == {"sigma", "Y", "lambda_min"}


def test_thm7_every_target_range_and_the_bound_without_1_over_kappa():
    """spectral._ratio_range: sqrt(R'/R) over targets y* ranges over the singular values of (K + S + sigma I)^{-1}
    (K + sigma I): random targets fall inside, the extreme ones (y* = (K + sigma I) v, v a singular vector) attain
    the ends, float64 and 50 digits agree.  The proof's combined bounds hold for every y*; the lower one without
    its 1/kappa (a surviving mutant before the every-target search) fails at an ill-conditioned K with small sigma."""
    from verify.claims.linearization2025 import spectral as SP

    p = {"n": 2, "log10_kappa": 2.0, "log10_scale": 0.0, "sigma": 1e-6, "log10_kappa_M": 0.0, "eta": 0.5,
         "log10_c_over_kappa": 0.0, "seed": 0, "rank_S": 1}
    with mpmath.workdps(50):
        K, d, S, eta = SP._instance(p)
        s = mpmath.mpf(p["sigma"])
        A, Ap = K + s * mpmath.eye(2), K + S + s * mpmath.eye(2)
        lo, hi = SP._ratio_range(A, Ap, True)
        flo, fhi = SP._ratio_range(A, Ap, False)
        assert abs(flo - lo) <= 1e-9 * hi and abs(fhi - hi) <= 1e-9 * hi
        rng = np.random.default_rng(3)
        for _ in range(20):
            y = mpmath.matrix(rng.standard_normal(2).tolist())
            r = mpmath.sqrt(SP._risk_sum(K + S, y, s) / SP._risk_sum(K, y, s))
            assert lo * (1 - mpmath.mpf("1e-30")) <= r <= hi * (1 + mpmath.mpf("1e-30"))
        U, sv, V = mpmath.svd_r(mpmath.inverse(Ap) * A)
        for j in range(2):
            y = A * V.T[:, j]
            r = mpmath.sqrt(SP._risk_sum(K + S, y, s) / SP._risk_sum(K, y, s))
            assert abs(r - sv[j]) <= mpmath.mpf("1e-40")
        assert SP._decide(SP._thm7_pairs, p, form="every_y")
        without = SP._decide(SP._thm7_pairs, p, form="every_y", lower_of=lambda k, e, lp, l0: lp / ((1 + e) ** 2 * l0))
        assert not without
        assert SP._decide(SP._thm7_pairs, p, form="proof", lower_of=lambda k, e, lp, l0: lp / ((1 + e) ** 2 * l0))


def test_thm4_ball_reads_lambda_0_from_its_stated_form():
    """thm4.ball's stated form is lambda_o = 2 ||f_theta0(x*) - y*|| Lip(f)/r, an upper bound (a larger lambda_o
    weakens the statement); through stated_tensor it equals the float64 value the check computed before."""
    from verify.claims.linearization2025 import distance as DI
    from verify.claims.linearization2025.common import stated_tensor

    claim = next(c for c in DI.CLAIMS if c.id == "linearization2025.thm4.ball")
    assert claim.stated == DI.THM4_LAMBDA0_STATED and claim.stated_bound == "upper"
    g = torch.Generator().manual_seed(2)
    r0, L, r = (torch.rand(5, generator=g, dtype=torch.float64) * 3 + 0.01 for _ in range(3))
    assert torch.allclose(stated_tensor(claim, R0=r0, Lip_f=L, r=r), 2 * r0 * L / r, rtol=1e-15, atol=0)


# ------------------------------------------------------------------ issue 27: proof steps and remarks (proof_steps.py)
def test_small_eta_rate_holds_and_the_uniform_reading_fails():
    """Our rate |sqrt(R'/R) - 1| <= sqrt(eta lambda_max(K)/sigma) at random points; the uniform reading [1/(1 + eta), 1]
    fails at an ill-conditioned point with a small eta (the risk can move by a large factor, in both directions)."""
    import numpy as np

    from verify.claims.linearization2025 import proof_steps as P

    rng = np.random.default_rng(1)
    for _ in range(12):
        n = int(rng.integers(2, 6))
        p = {"n": n, "log10_kappa": float(rng.uniform(0, 8)), "log10_scale": float(rng.uniform(-2, 3)),
             "sigma": float(10 ** rng.uniform(-4, 2)), "rank_S": int(rng.integers(1, n + 1)),
             "log10_kappa_M": float(rng.uniform(0, 4)), "eta": float(rng.uniform(0, 0.1)), "seed": int(rng.integers(0, 1000))}
        assert P._small_eta(p)
    bad = {"n": 2, "log10_kappa": 1.0, "log10_scale": 0.0, "sigma": 1.0, "rank_S": 1, "log10_kappa_M": 0.0,
           "eta": 0.0625, "seed": 0}
    assert P._small_eta(bad) and not P._small_eta(bad, uniform=True)
    assert P._show_small(bad)["max_y sqrt(R'/R)"] > 1      # adding the layer raises the risk for some y*


def test_l454_as_printed_gives_kappa_squared_and_the_corrected_line_gives_l464():
    import sympy as sp

    from verify.claims.linearization2025 import proof_steps as P

    assert sp.simplify(P.L440_UP * P.L454_UP_PRINTED / P.L464_UP - P.KAP) == 0
    assert sp.simplify(P.L440_UP * P.L454_UP_CORRECTED - P.L464_UP) == 0
    assert sp.simplify(P.L440_LO * P.L454_LO - P.L460_LO) == 0


def test_absolute_interval_fails_off_the_unit_scale_and_theorem_6_holds_there():
    from verify.claims.linearization2025 import proof_steps as P
    from verify.claims.linearization2025 import spectral as S

    p = {"n": 2, "log10_kappa": 0.5, "log10_scale": 1.0, "rank_S": 1, "log10_kappa_M": 0.0, "eta": 0.2, "seed": 3}
    assert not S._decide(P._interval_pairs, p) and P._interval_margin(p) > 0
    assert S._decide(S._thm6_pairs, p)


def test_table_trend_check_fails_on_the_reversed_ordering():
    """exp.table_linearity's trend check passes for the gap decreasing with lambda and fails (not merely undecided)
    for the reversed ordering, its power witness (issue 24)."""
    from verify.run.runner import make_context
    from verify.claims.linearization2025 import experiments as X

    ctx = make_context("quick", 0, progress=False)
    assert all(c.passed is True for c in X._table_checks("gap", False)(None, ctx).checks)
    assert all(c.passed is False for c in X._table_checks("gap", False, reverse=True)(None, ctx).checks)
    assert any(c.passed is False for c in X._table_checks("kl", True)(None, ctx).checks)


def test_thm4_proof_bound_is_loose_by_more_than_ten_on_the_scalar_family():
    """thm4.proof's notes: on scalar quadratics f = b theta + a theta^2/2 (theta_0 = 0, exact constants Lip(f) = |b| +
    |a| r, Lip(grad f) = |a|) at lambda = lambda_o, max_t Delta(t) / (2 Lip(f) ||r_0|| (2 r Lip(grad f) + Lip(f)) t)
    peaks near a r/b = 0.3 at about 0.040, so a bound ten times smaller is not a wrong statement there."""
    import numpy as np
    from scipy.integrate import solve_ivp

    def ratio(a, r, r0, b=1.0):
        L, Lg = abs(b) + abs(a) * r, abs(a)
        lam = 2 * r0 * L / r
        T = 40 / (lam + 2 * b * b)
        ts = np.geomspace(1e-6 * T, T, 400)
        s = solve_ivp(lambda t, z: [-2 * (b + a * z[0]) * (b * z[0] + a * z[0] ** 2 / 2 + r0) - lam * z[0],
                                    -2 * b * (b * z[1] + r0) - lam * z[1]],
                      (0, T), [0.0, 0.0], t_eval=ts, rtol=1e-11, atol=1e-14, method="LSODA")
        th, thb = s.y
        assert np.abs(th).max() <= r * (1 + 1e-6)          # Theorem 4: the run stays in the r-ball
        D = np.abs(b * th + a * th ** 2 / 2 - b * thb)
        return float((D / (2 * L * r0 * (2 * r * Lg + L) * ts)).max())

    peak = ratio(30.0, 0.01, 10.0)
    assert 0.035 < peak < 0.045
    assert max(ratio(a, r, r0) for a, r, r0 in ((3.0, 0.1, 1.0), (100.0, 0.003, 10.0), (30.0, 0.01, 0.1))) < 0.1
