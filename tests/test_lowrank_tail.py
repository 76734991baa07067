"""derivations.lowrank.kprime_function: the Hermite series of K' has a bounded tail, or refuses (issue 24).

K'(rho) = sum_q (q+1) beta_{q+1}^2 rho^q has non-negative coefficients summing to E[sigma'(g)^2], so K'(1) equals
that moment exactly; the previous 60-term cut gave |z| a K'(1) 6.6 % low and tanh at scale 1.2 one ~1e-7 low, silently.
"""
import math

import mpmath
import numpy as np
import pytest

from derivations import hermite as H
from derivations import lowrank as LR


def test_derivative_moment_is_the_coefficient_sum():
    c = H.coefficients_mp("tanh", 80, scale=0.8)
    s = mpmath.fsum(k * c[k] ** 2 for k in range(len(c)))
    gap = H.derivative_second_moment_mp("tanh", scale=0.8) - s     # the tail after 80 terms: positive, small
    assert 0 <= gap < 1e-11
    assert H.derivative_second_moment_mp("step") == mpmath.inf


def test_kprime_at_one_is_exact_for_a_slowly_decaying_series():
    f = LR.kprime_function("tanh", 1.2)
    assert f.tail <= 1e-10 * f.scale_bound
    assert abs(f(np.array(1.0)) - f.scale_bound) <= 2e-10 * f.scale_bound


def test_abs_refuses_where_the_tail_cannot_be_bounded_and_is_exact_inside():
    f = LR.kprime_function("abs", 1.0, K_max=120)
    with pytest.raises(ValueError, match="cannot be bounded"):
        f(np.array([0.2, 1.0]))
    rho = np.array([-0.5, 0.0, 0.5])            # K' of |z| = E[sign u sign v] = (2/pi) arcsin(rho)
    assert np.allclose(f(rho), 2 / math.pi * np.arcsin(rho), rtol=0, atol=1e-12)


def test_step_has_no_series_bound():
    with pytest.raises(ValueError, match="infinite"):
        LR.kprime_function("step", 1.0)
