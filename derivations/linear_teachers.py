"""Pairs of linear teachers: W1 between their joint laws, the Gaussian KL for unit teachers at an angle, and the
transferability of a target scaled inside the pretrained span.

Closed forms behind the running text, abstract and captions of 001_759117b8232d72ac.txt
(Tahir, Ganguli, Rotskoff) that the other derivations modules do not already hold.

Every other form the text claims use comes from its own module (one closed form, once):
eq. (10) from :mod:`derivations.wishart`, eqs. (12), (13), (15) from :mod:`derivations.transfer`,
eq. (16)-(17) and the balanced fine-tuning end state from :mod:`derivations.deep_linear`, the
Gaussian KL divergence (34) from :mod:`derivations.divergences`.

What is new here (all derived by us, not stated in the source):

* W1 between the joint laws p_s(x, y), p_t(x, y) of Assumptions 3.1-3.2 (used by §2.1 and
  Fig. 5(b)).  Upper bound by the coupling that shares x and the noise eps:
  W1 <= E|x^T (beta_s - beta_t)| = sqrt(2/pi) ||beta_s - beta_t|| = 2 sqrt(2/pi) sin(theta/2)
  for unit teachers, whatever sigma and d; lower bound by the 1-Lipschitz test function
  h(x, y) = |y - x^T beta_s| / sqrt(2) (its Lipschitz constant is ||(beta_s, -1)|| / sqrt 2 = 1):
  W1 >= (sqrt(sigma^2 + D^2) - sigma) / sqrt(pi), D = ||beta_s - beta_t||
  (under p_s, y - x^T beta_s ~ N(0, sigma^2); under p_t, ~ N(0, sigma^2 + D^2); E|N(0, v)| = sqrt(2 v / pi)).
* The D_KL of (34) for two unit teachers at angle theta: (1 - cos theta)/sigma^2.
* The transferability for a target *inside* the pretrained feature space but of another norm,
  beta_t = c beta_s (outside Assumption 3.2, the setting of Theorem 2.2's witnesses g = c f):
  the rank-one transfer fits b = c + z^T eps/||z||^2, so E R_lt = sigma^2/(n - 2) -> 0, while
  E R_sc -> (1 - gamma) c^2 + gamma sigma^2/(1 - gamma) (gamma < 1), sigma^2/(gamma - 1) (gamma > 1)
  (eq. (95)-(103) with ||beta_t||^2 = c^2).

>>> round(float(w1_upper_value(math.pi / 2)), 6)
1.128379
>>> round(float(w1_lower_value(math.pi / 2, 0.0)), 6)
0.797885
"""
from __future__ import annotations

import math
from functools import lru_cache

import mpmath
import sympy as sp

from . import divergences as dv
from .wishart import gamma, sigma

theta = sp.Symbol("theta", nonnegative=True)
cscale = sp.Symbol("c", real=True)  # beta_t = c beta_s

__all__ = ["theta", "cscale", "teacher_distance", "w1_upper", "w1_lower", "kl_unit_teachers",
           "transferability_in_span", "w1_lower_distance", "Dist", "w1_upper_value", "w1_lower_value",
           "w1_lower_distance_value", "kl_unit_teachers_value",
           "transferability_in_span_value"]


def teacher_distance() -> sp.Expr:
    """||beta_s - beta_t|| for unit teachers at angle theta: sqrt(2 - 2 cos theta) = 2 sin(theta/2)."""
    return 2 * sp.sin(theta / 2)


@lru_cache(maxsize=None)
def w1_upper() -> sp.Expr:
    """Coupling bound W1(p_s, p_t) <= sqrt(2/pi) ||beta_s - beta_t|| (shared x and eps)."""
    return sp.sqrt(2 / sp.pi) * teacher_distance()


Dist = sp.Symbol("D", nonnegative=True)  # ||beta_s - beta_t|| for teachers of any norms


@lru_cache(maxsize=None)
def w1_lower_distance() -> sp.Expr:
    """W1(p_s, p_t) >= (sqrt(sigma^2 + D^2) - sigma)/sqrt(pi), D = ||beta_s - beta_t||, for any unit beta_s
    and any beta_t (test function h = |y - x.beta_s|/sqrt 2)."""
    return (sp.sqrt(sigma ** 2 + Dist ** 2) - sigma) / sp.sqrt(sp.pi)


@lru_cache(maxsize=None)
def w1_lower() -> sp.Expr:
    """:func:`w1_lower_distance` for unit teachers at angle theta (D = 2 sin(theta/2))."""
    return w1_lower_distance().subs(Dist, teacher_distance())


@lru_cache(maxsize=None)
def kl_unit_teachers() -> sp.Expr:
    """D_KL(p_s || p_t) of (34) for ||beta_s|| = ||beta_t|| = 1 at angle theta: (1 - cos theta)/sigma^2."""
    return sp.simplify(dv.KL_LINEAR.subs({dv.s_f: 1, dv.s_g: 1, dv.cos_theta: sp.cos(theta), dv.sigma: sigma}))


@lru_cache(maxsize=None)
def transferability_in_span() -> sp.Expr:
    """lim E R_sc - lim E R_lt for beta_t = c beta_s (unit beta_s), derived (see the module docstring)."""
    return sp.Piecewise(((1 - gamma) * cscale ** 2 + gamma * sigma ** 2 / (1 - gamma), gamma < 1),
                        (sigma ** 2 / (gamma - 1), gamma > 1))


def w1_upper_value(theta_) -> mpmath.mpf:
    """:func:`w1_upper` in mpmath."""
    return mpmath.sqrt(2 / mpmath.pi) * 2 * mpmath.sin(mpmath.mpf(theta_) / 2)


def w1_lower_distance_value(D_, sigma_) -> mpmath.mpf:
    """:func:`w1_lower_distance` in mpmath."""
    D, s = mpmath.mpf(D_), mpmath.mpf(sigma_)
    return (mpmath.sqrt(s ** 2 + D ** 2) - s) / mpmath.sqrt(mpmath.pi)


def w1_lower_value(theta_, sigma_) -> mpmath.mpf:
    """:func:`w1_lower` in mpmath."""
    return w1_lower_distance_value(2 * mpmath.sin(mpmath.mpf(theta_) / 2), sigma_)


def kl_unit_teachers_value(theta_, sigma_) -> mpmath.mpf:
    """:func:`kl_unit_teachers` in mpmath (1 - cos written as 2 sin^2(theta/2): no cancellation)."""
    return 2 * mpmath.sin(mpmath.mpf(theta_) / 2) ** 2 / mpmath.mpf(sigma_) ** 2


def transferability_in_span_value(gamma_, c_, sigma_) -> mpmath.mpf:
    """:func:`transferability_in_span` in mpmath."""
    g, c, s = mpmath.mpf(gamma_), mpmath.mpf(c_), mpmath.mpf(sigma_)
    if g < 1:
        return (1 - g) * c ** 2 + g * s ** 2 / (1 - g)
    if g > 1:
        return s ** 2 / (g - 1)
    raise ValueError("gamma = 1: the scratch risk diverges")
