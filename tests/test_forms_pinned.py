"""Every hand-written numeric version of a closed form, pinned to its sympy form (the one place the form is
written) at several points, endpoints of the domains included.

A ``*_value`` (float) or hand-written ``*_mp`` function exists for speed or for exact endpoints; the sympy
form in the same module is the reference.  ``test_every_value_function_is_pinned`` fails when a module gains a
``*_value`` function that is not in ``VALUE_FORMS``: add a row for it.  (derivations/transfer.py and
derivations/wishart.py so far; the other derivations modules are to be added the same way.)
"""
from __future__ import annotations

import inspect
import math

import mpmath
import pytest
import sympy as sp

from derivations import transfer as T
from derivations import wishart as W

HALF_PI = math.pi / 2
MODULES = (T, W)

#: function -> (sympy form, its symbols in the function's argument order, points)
VALUE_FORMS = {
    T.linear_transfer_risk_value: (T.linear_transfer_risk_stated, (W.n, T.theta, W.sigma),
                                   [(3, 0.0, 0.0), (3, HALF_PI, 1.0), (5, math.pi / 8, 0.2), (200, 1.0, 2.5)]),
    T.transferability_stated_value: (T.transferability_stated, (T.gamma, T.theta, W.sigma),
                                     [(0.5, HALF_PI, 0.2), (0.3125, math.pi / 8, 1.0), (0.999, 0.0, 0.0),
                                      (1.5, 0.0, 1.0), (40.0, math.pi / 4, 3.0)]),
    T.transferability_finite_value: (T.transferability_finite, (W.n, W.d, T.theta, W.sigma),
                                     [(10, 32, math.pi / 8, 1.0), (3, 40, HALF_PI, 0.0), (48, 32, 0.0, 1.0),
                                      (64, 32, math.pi / 4, 0.5)]),
    W.scratch_risk_finite_value: (W.scratch_risk_finite, (W.n, W.d, W.sigma),
                                  [(5, 20, 1.0), (1, 3, 0.0), (26, 20, 0.5), (120, 60, 2.0)]),
    W.scratch_risk_variance_value: (W.scratch_risk_variance, (W.n, W.d, W.sigma),
                                    [(5, 20, 1.0), (10, 20, 0.0), (26, 20, 0.5), (120, 60, 2.0)]),
    W.scratch_risk_stated_value: (W.scratch_risk_stated, (W.gamma, W.sigma),
                                  [(0.25, 0.0), (0.75, 1.0), (1.5, 0.5), (3.0, 2.0)]),
}


def _sympy_at(form, symbols, point) -> float:
    subs = {s: (sp.Integer(v) if isinstance(v, int) else sp.Float(v, 30)) for s, v in zip(symbols, point)}
    return float(sp.sympify(form()).subs(subs).evalf(30))


@pytest.mark.parametrize("fn", list(VALUE_FORMS), ids=lambda f: f"{f.__module__}.{f.__name__}")
def test_value_function_is_its_sympy_form(fn):
    form, symbols, points = VALUE_FORMS[fn]
    for point in points:
        want = _sympy_at(form, symbols, point)
        got = fn(*point)
        assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-14), (fn.__name__, point, got, want)


def test_every_value_function_is_pinned():
    found = {f for m in MODULES for name, f in inspect.getmembers(m, inspect.isfunction)
             if name.endswith("_value") and f.__module__ == m.__name__}
    missing = sorted(f"{f.__module__}.{f.__name__}" for f in found - set(VALUE_FORMS))
    assert not missing, f"hand-written *_value functions without a pinning row in VALUE_FORMS: {missing}"


# ----------------------------------------------------------------------------- hand-written mpmath forms
# (exact at the endpoints theta = 0, pi/2; pinned where the float and the exact endpoint agree)

@pytest.mark.parametrize("gamma,theta,sigma", [(0.5, 0.3, 0.2), (0.2, HALF_PI, 0.0), (2.0, 1.0, 1.5), (1.01, 0.0, 0.1)])
def test_transferability_mp_is_eq13(gamma, theta, sigma):
    want = _sympy_at(T.transferability_stated, (T.gamma, T.theta, W.sigma), (gamma, theta, sigma))
    with mpmath.workdps(30):
        got = T.transferability_theta_mp(gamma, theta, sigma)
    assert math.isclose(float(got), want, rel_tol=1e-12, abs_tol=1e-14)


@pytest.mark.parametrize("theta,sigma", [(1.2, 0.3), (HALF_PI, 0.5), (HALF_PI, 0.0), (0.7, 0.01), (0.3, 2.5),
                                         (1.0, 0.0)])
def test_gamma_pm_mp_is_the_stated_roots(theta, sigma):
    gp, gm = (_sympy_at(lambda e=e: e, (T.theta, W.sigma), (theta, sigma)) for e in T.gamma_pm_stated())
    with mpmath.workdps(40):
        got = T.gamma_pm_mp(theta, sigma)
    assert got is not None
    assert math.isclose(float(got[0]), gm, rel_tol=1e-12, abs_tol=1e-14)
    assert math.isclose(float(got[1]), gp, rel_tol=1e-12, abs_tol=1e-14)


def test_gamma_pm_mp_is_none_exactly_when_the_stated_discriminant_is_negative():
    for theta, sigma in [(0.5, 0.5), (1.0, 1.2), (0.2, 1.9)]:
        disc = _sympy_at(T.gamma_pm_discriminant, (T.theta, W.sigma), (theta, sigma))
        assert disc < 0 and T.gamma_pm_mp(theta, sigma) is None


@pytest.mark.parametrize("lam,theta", [(0.0, 0.0), (0.3, 1.0), (2.0, HALF_PI), (50.0, 0.4)])
def test_ridge_limit_mp_forms_are_eq15(lam, theta):
    want = _sympy_at(T.ridge_risk_limit_stated, (T.lam, T.theta), (lam, theta))
    cs, _ = T.trig_mp(theta)
    assert math.isclose(float(T.ridge_risk_limit_mp(lam, theta)), want, rel_tol=1e-12, abs_tol=1e-14)
    assert math.isclose(float(T.ridge_risk_limit_cos_mp(lam, cs)), want, rel_tol=1e-12, abs_tol=1e-14)


@pytest.mark.parametrize("n,lam,theta,sigma", [(5, 0.3, 0.7, 1.0), (40, 0.0, 0.2, 0.5)])
def test_ridge_finite_mp_is_the_expectation_of_its_stated_integrand(n, lam, theta, sigma):
    """(128) by quadrature against sympy's own integral of the stated integrand over the chi^2_n law."""
    x = sp.Symbol("x", positive=True)
    integrand = T.ridge_conditional_risk_stated().subs({T.u: x, W.n: n, T.lam: sp.nsimplify(lam),
                                                        T.theta: sp.Float(theta, 30), W.sigma: sp.nsimplify(sigma)})
    f = sp.lambdify(x, integrand * T.chi2_density(x, sp.Integer(n)), modules="mpmath")
    with mpmath.workdps(25):
        want = mpmath.quad(f, [0, n, 4 * n, mpmath.inf])
    assert abs(T.ridge_risk_finite_mp(n, lam, theta, sigma, dps=25) - want) < 1e-15


# ----------------------------------------------------------------------------- derivations/deep_linear.py
from derivations import deep_linear as DL  # noqa: E402

_R_SC = W.scratch_risk_stated()  # eq. (10), the E R_sc inside eqs. (16)-(17)

VALUE_FORMS.update({
    DL.finetune_risk_stated_value: (lambda: DL.finetune_risk_stated().subs(DL.R_sc, _R_SC.args[0][0]),
                                    (DL.gamma, DL.sigma, DL.theta),
                                    [(0.25, 0.0, 0.0), (0.5, 1.0, math.pi / 3), (0.75, 0.5, HALF_PI)]),
    DL.finetune_transfer_stated_value: (DL.finetune_transfer_stated, (DL.gamma, DL.theta),
                                        [(0.25, 0.0), (0.5, math.pi / 3), (1.0, HALF_PI)]),
})


def _root_s(gamma, sigma, L):
    """The positive root of derivations.deep_linear.finetune_scale_limit_polynomial by sympy's nsolve
    (independent of the bisection in finetune_scale_mp)."""
    poly = DL.finetune_scale_limit_polynomial().subs({DL.gamma: sp.Rational(str(gamma)), DL.sigma: sp.Rational(str(sigma)),
                                                    DL.L: L})
    return sp.nsolve(poly, DL.s, 1.2, prec=30)


@pytest.mark.parametrize("gamma,sigma,theta,L", [(0.25, 0.0, 0.3, 2), (0.5, 1.0, math.pi / 3, 2), (0.75, 0.5, 0.0, 3),
                                                 (0.3, 2.0, HALF_PI, 4)])
def test_deep_linear_derived_values_are_their_sympy_forms(gamma, sigma, theta, L):
    s_ = _root_s(gamma, sigma, L)
    sub = {DL.gamma: gamma, DL.sigma: sigma, DL.theta: theta, DL.L: L, DL.s: s_,
           DL.R_sc: W.scratch_risk_stated_value(gamma, sigma)}
    assert math.isclose(DL.finetune_risk_derived_value(gamma, sigma, theta, L),
                        float(DL.finetune_risk_limit_derived().subs(sub).evalf(30)), rel_tol=1e-12, abs_tol=1e-14)
    assert math.isclose(DL.finetune_transfer_derived_value(gamma, sigma, theta, L),
                        float(DL.finetune_transfer_limit_derived().subs(sub).evalf(30)), rel_tol=1e-12, abs_tol=1e-14)
    assert math.isclose(float(DL.finetune_limit_k_mp(gamma, sigma, L)), float(s_ ** (L - 1)), rel_tol=1e-20)


# the derived *_value functions of deep_linear need the root s, so they are pinned by the test above
PINNED_ELSEWHERE = {DL.finetune_risk_derived_value, DL.finetune_transfer_derived_value}


def test_every_deep_linear_value_function_is_pinned():
    found = {f for name, f in inspect.getmembers(DL, inspect.isfunction)
             if name.endswith("_value") and f.__module__ == DL.__name__}
    missing = sorted(f.__name__ for f in found - set(VALUE_FORMS) - PINNED_ELSEWHERE)
    assert not missing, f"deep_linear *_value functions without a pin: {missing}"
