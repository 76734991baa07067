"""Hermite expansions of activations and the dual-activation (infinite-width kernel) identity.

General identities several sources rest on (000 §6, 001 App. C, 002 §6, 003 Prop. 1); claims under
the key ``hermite`` (verify/claims/hermite/).  No torch here.

Conventions
-----------
* h_k = He_k / sqrt(k!) with He_k the probabilists' Hermite polynomials
  (He_0 = 1, He_1 = x, He_{k+1} = x He_k - k He_{k-1}); {h_k} is orthonormal in L2(N(0, 1)).
* c_k(sigma; s) = E[sigma(s g) h_k(g)], g ~ N(0, 1) (``coefficient(act, k, scale=s)``), so that
  sigma(s g) = sum_k c_k h_k(g) in L2, and Parseval: sum_k c_k^2 = E[sigma(s g)^2].
* Dual activation: for unit u, v and x ~ N(0, I_d), E[sigma(<u,x>) tau(<v,x>)] = sum_k c_k(sigma) c_k(tau) <u,v>^k
  (``dual_series``), because (<u,x>, <v,x>) is a standard bivariate normal pair with correlation rho = <u,v>
  and E[h_j(g1) h_k(g2)] = delta_jk rho^k (Mehler).

Exact coefficients
------------------
:func:`coefficient` integrates sigma(s x) h_k(x) phi(x) with sympy (piecewise activations split at their kinks,
erf by Gaussian integration by parts).  :func:`coefficient_closed_form` derives a closed form in a
symbolic degree k by Stein's lemma, E[f(g) He_k(g)] = E[f^{(k)}(g)]:

* relu (k >= 2): relu'' = delta_0, so c_k = He_{k-2}(0) phi(0) / sqrt(k!),
* |x| (k >= 2):  |x|'' = 2 delta_0, so c_k = 2 He_{k-2}(0) phi(0) / sqrt(k!),
* step 1{x > 0} (k >= 1): step' = delta_0, so c_k = He_{k-1}(0) phi(0) / sqrt(k!),
* erf(s x) (k >= 1): erf' = (2/sqrt(pi)) e^{-x^2}, and the Gaussian moment of He_{k-1} gives the series.

with He_n(0) = (-1)^{n/2} (n-1)!! for even n and 0 for odd n.

>>> [coefficient("relu", k) for k in range(4)]
[sqrt(2)/(2*sqrt(pi)), 1/2, 1/(2*sqrt(pi)), 0]
>>> information_exponent("abs")
2
>>> float(dual_series([0, 1], [0, 1], 0.5))
0.5
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import mpmath
import sympy as sp

x = sp.Symbol("x", real=True)
k = sp.Symbol("k", integer=True, nonnegative=True)
s = sp.Symbol("s", positive=True)          # scale of the argument: sigma(s g)
rho = sp.Symbol("rho", real=True)

PHI0 = 1 / sp.sqrt(2 * sp.pi)              # standard normal density at 0


#: the indices of E[h_i(g) h_j(g)] = delta_ij (point keys "i", "j")
i_, j_ = sp.symbols("i j", integer=True, nonnegative=True)


def orthonormality_stated() -> sp.Expr:
    """E[h_i(g) h_j(g)] = delta_ij, h_k = He_k/sqrt(k!) (the stated orthonormality, as a sympy form in i, j)."""
    return sp.KroneckerDelta(i_, j_)


#: the truncation degree of a Parseval tail sum_{k > K} c_k^2 (point key "K")
K_tail = sp.Symbol("K", positive=True)


def parseval_tail_stated(name: str) -> sp.Expr:
    """The stated order of the Parseval tail, sum_{k > K} c_k^2 ~ K^p: K^(-3/2) for relu and |x| (c_k^2 ~ k^(-5/2)
    over even k), K^(-1/2) for the step (c_k^2 ~ k^(-3/2) over odd k)."""
    return K_tail ** {"relu": sp.Rational(-3, 2), "abs": sp.Rational(-3, 2), "step": sp.Rational(-1, 2)}[name]


def he(k_: int, x_=x) -> sp.Expr:
    """Normalized probabilists' Hermite polynomial h_k = He_k / sqrt(k!) (sympy).

    >>> he(3)
    sqrt(6)*(x**3 - 3*x)/6
    """
    if int(k_) != k_ or k_ < 0:
        raise ValueError(f"k={k_!r} must be a nonnegative integer")
    return sp.hermite_prob(int(k_), x_) / sp.sqrt(sp.factorial(int(k_)))


def he_zero(n_: int) -> sp.Integer:
    """He_n(0): (-1)^{n/2} (n-1)!! for even n, 0 for odd n (from the recurrence He_{n+1}(0) = -n He_{n-1}(0))."""
    return sp.hermite_prob(int(n_), 0)


# ----------------------------------------------------------------------------- activations
ACTIVATIONS: dict[str, sp.Expr] = {
    "relu": sp.Piecewise((x, x > 0), (0, True)),
    "abs": sp.Abs(x),
    "step": sp.Piecewise((1, x > 0), (0, True)),
    "erf": sp.erf(x),
    "tanh": sp.tanh(x),
    "sigmoid": 1 / (1 + sp.exp(-x)),
    "gelu": x * (1 + sp.erf(x / sp.sqrt(2))) / 2,
    "softplus": sp.log(1 + sp.exp(x)),
}
"""Activations by name, sympy expressions in :data:`x`.  "gelu" is the exact x Phi(x)."""

#: activations whose coefficients sympy integrates exactly (others: :func:`coefficients_mp`)
EXACT = ("relu", "abs", "step", "erf")


def _act(act) -> sp.Expr:
    if isinstance(act, str):
        if act not in ACTIVATIONS:
            raise ValueError(f"unknown activation {act!r}; known: {', '.join(ACTIVATIONS)}")
        return ACTIVATIONS[act]
    expr = sp.sympify(act)
    free = expr.free_symbols
    if len(free) > 1:
        raise ValueError(f"an activation is a function of one symbol; {expr} has {sorted(map(str, free))}")
    if free:
        (sym,) = free
        expr = expr.subs(sym, x)
    return expr


def _gauss_integral(f: sp.Expr) -> sp.Expr:
    """E[f(g)], g ~ N(0, 1), for f a sympy expression in x (pieces split at 0 where f is piecewise;
    polynomials by the moments E[g^n] = (n-1)!! for even n, 0 for odd n)."""
    if f.is_polynomial(x):
        p = sp.Poly(sp.expand(f), x)
        return sp.simplify(sum(c * (sp.factorial2(n - 1) if n % 2 == 0 else 0) for (n,), c in p.terms()))
    w = sp.exp(-x ** 2 / 2) / sp.sqrt(2 * sp.pi)
    f = sp.piecewise_fold(f.rewrite(sp.Piecewise) if f.has(sp.Abs) else f)
    if f.has(sp.Piecewise):
        # evaluate the branches on each half line explicitly
        xp = sp.Symbol("xp", positive=True)
        fpos = sp.piecewise_fold(f.subs(x, xp)).subs(xp, x)
        fneg = sp.piecewise_fold(f.subs(x, -xp)).subs(xp, -x)
        return sp.simplify(sp.integrate(sp.expand(fpos * w), (x, 0, sp.oo))
                           + sp.integrate(sp.expand(fneg * w), (x, -sp.oo, 0)))
    return sp.simplify(sp.integrate(sp.expand(f * w), (x, -sp.oo, sp.oo)))


@lru_cache(maxsize=None)
def _coefficient_cached(expr: sp.Expr, k_: int, scale) -> sp.Expr:
    f = expr.subs(x, scale * x)
    if f.has(sp.erf):
        # Stein: E[f(g) He_k(g)] = E[f^{(k)}(g)] (f smooth with Gaussian-integrable derivatives)
        return sp.simplify(_gauss_integral(sp.diff(f, x, k_)) / sp.sqrt(sp.factorial(k_)))
    return _gauss_integral(f * he(k_))


def coefficient(act, k_: int, *, scale=1) -> sp.Expr:
    """Exact c_k = E[act(scale g) h_k(g)], g ~ N(0, 1), as a sympy number (or expression in scale).

    ``act``: a name in :data:`ACTIVATIONS` with an exact integral ("relu", "abs", "step", "erf")
    or a sympy expression in one symbol (polynomials, piecewise-polynomials, ...); ``scale`` a number
    or a positive sympy symbol.

    >>> coefficient(x**3, 3)
    sqrt(6)
    >>> coefficient("step", 1)
    sqrt(2)/(2*sqrt(pi))
    """
    if int(k_) != k_ or k_ < 0:
        raise ValueError(f"k={k_!r} must be a nonnegative integer")
    return _coefficient_cached(_act(act), int(k_), sp.sympify(scale))


def coefficient_closed_form(name: str) -> sp.Piecewise:
    """Closed form of c_k(name; scale=s) for a symbolic degree k, derived by Stein's lemma
    (see the module docstring); an expression in :data:`k` and :data:`s` valid for every k >= 0.

    Derivation: relu, |x| and the step function are positively homogeneous, so c_k(s) = s^p c_k(1)
    (p = 1, 1, 0); their k-th distributional derivative (k past the kink order) is a multiple of
    delta_0^{(k - j)}, and E[delta_0^{(n)}(g)] = (-1)^n phi^{(n)}(0) = He_n(0) phi(0).  For erf(s x),
    the derivative (2 s / sqrt(pi)) e^{-s^2 x^2} times He_{k-1}: E[e^{-s^2 g^2} He_n(g)] is evaluated by
    sympy's Gaussian integral as a function of n through Mehler's generating function:
    sum_n t^n/n! He_n(x) = exp(t x - t^2/2), whose Gaussian-weighted integral is
    exp(-t^2 s^2/(1 + 2 s^2)) / sqrt(1 + 2 s^2), so E[e^{-s^2 g^2} He_n(g)] = He_n(0) (1 + 2 s^2)^{-(n+1)/2}
    rescaled: = (-1)^{n/2} (n-1)!! (2 s^2)^{n/2} / (1 + 2 s^2)^{(n+1)/2} for even n, 0 for odd n.
    """
    n = sp.Symbol("n", integer=True, nonnegative=True)
    he0 = lambda m: sp.Piecewise((sp.Integer(-1) ** (m / 2) * sp.factorial2(m - 1), sp.Eq(m % 2, 0)), (0, True))
    fk = sp.sqrt(sp.factorial(k))
    if name == "relu":
        return sp.Piecewise((s * PHI0, sp.Eq(k, 0)), (s / 2, sp.Eq(k, 1)), (s * he0(k - 2) * PHI0 / fk, True))
    if name == "abs":
        return sp.Piecewise((2 * s * PHI0, sp.Eq(k, 0)), (0, sp.Eq(k, 1)), (2 * s * he0(k - 2) * PHI0 / fk, True))
    if name == "step":
        return sp.Piecewise((sp.Rational(1, 2), sp.Eq(k, 0)), (he0(k - 1) * PHI0 / fk, True))
    if name == "erf":
        m = k - 1
        moment = sp.Piecewise((sp.Integer(-1) ** (m / 2) * sp.factorial2(m - 1) * (2 * s ** 2) ** (m / 2)
                               / (1 + 2 * s ** 2) ** ((m + 1) / 2), sp.Eq(m % 2, 0)), (0, True))
        return sp.Piecewise((0, sp.Eq(k, 0)), (2 * s / sp.sqrt(sp.pi) * moment / fk, True))
    raise ValueError(f"no closed form for {name!r}; closed forms exist for {', '.join(EXACT)}")


def coefficient_closed_form_value(name: str, k_: int, scale=1) -> sp.Expr:
    """:func:`coefficient_closed_form` at an integer k (exact sympy number)."""
    return sp.simplify(coefficient_closed_form(name).subs({k: int(k_), s: sp.sympify(scale)}))


# ----------------------------------------------------------------------------- mpmath quadrature
@lru_cache(maxsize=None)
def _mp_function(name: str):
    return sp.lambdify(x, ACTIVATIONS[name], modules="mpmath")


def _pair_relu(t):
    return (t, mpmath.mpf(0)) if t > 0 else (mpmath.mpf(0), -t)


def _pair_gelu(t):
    p = (1 + mpmath.erf(t / mpmath.sqrt(2))) / 2          # Phi(t); Phi(-t) = 1 - Phi(t)
    return t * p, -t * (1 - p)


def _pair_softplus(t):
    v = mpmath.log1p(mpmath.exp(-abs(t))) + max(t, 0)     # softplus(-t) = softplus(t) - t
    return v, v - t


def _pair_sigmoid(t):
    v = 1 / (1 + mpmath.exp(-t))                          # sigmoid(-t) = 1 - sigmoid(t)
    return v, 1 - v


_PAIRS = {
    "relu": _pair_relu,
    "abs": lambda t: (abs(t), abs(t)),
    "step": lambda t: (mpmath.mpf(1), mpmath.mpf(0)) if t > 0 else (mpmath.mpf(0), mpmath.mpf(1)),
    "erf": lambda t: (lambda v: (v, -v))(mpmath.erf(t)),
    "tanh": lambda t: (lambda v: (v, -v))(mpmath.tanh(t)),
    "sigmoid": _pair_sigmoid,
    "gelu": _pair_gelu,
    "softplus": _pair_softplus,
}
"""(act(t), act(-t)) for t > 0 with one special-function evaluation each, by the symmetries of each
activation; tests/test_hermite.py pins each to the sympy expression in :data:`ACTIVATIONS`."""


def _hermite_values(t, K: int, r=None):
    """[h_0(t), ..., h_K(t)] by the normalized recurrence h_{k+1} = (t h_k - sqrt(k) h_{k-1}) / sqrt(k+1);
    ``r`` = [(sqrt(k), 1/sqrt(k+1)) for k < K] may be passed precomputed."""
    if r is None:
        r = [(mpmath.sqrt(j), 1 / mpmath.sqrt(j + 1)) for j in range(K)]
    out = [mpmath.mpf(1)]
    if K >= 1:
        out.append(t)
    for j in range(1, K):
        out.append((t * out[j] - r[j][0] * out[j - 1]) * r[j][1])
    return out


def coefficients_mp(name, K: int, *, scale=1.0, dps: int = 30) -> list:
    """c_0 .. c_K of ``name`` (a key of :data:`ACTIVATIONS` or a sympy expression) at ``scale``,
    by tanh-sinh quadrature in mpmath at ``dps`` + 10 working digits, returned as mpf values accurate
    to about ``dps`` digits (checked against sympy's exact values and against mpmath.quad in
    tests/test_hermite.py).

    Parity halves the work: h_k(-t) = (-1)^k h_k(t), so c_k = int_0^T (f(t) + (-1)^k f(-t)) h_k(t) phi(t) dt
    with f(t) = act(scale t); the even and odd parts of f are integrated on [0, T] (T from
    :func:`_cutoff`), all K + 1 integrals on one set of nodes; the kink of relu, |x|, step sits at the end
    point 0, where tanh-sinh converges exponentially.

    >>> c = coefficients_mp("relu", 3)
    >>> with mpmath.workdps(40):
    ...     print(abs(c[2] - 1 / mpmath.sqrt(4 * mpmath.pi)) < mpmath.mpf(10) ** -30)
    True
    """
    K = int(K)
    if K < 0:
        raise ValueError(f"K={K} must be >= 0")
    if isinstance(name, str) and name in _PAIRS:
        pair = _PAIRS[name]
    else:
        f = _mp_function(name) if isinstance(name, str) else sp.lambdify(x, _act(name), modules="mpmath")
        pair = lambda t: (f(t), f(-t))
    with mpmath.workdps(dps + 10):
        sc = mpmath.mpf(scale)
        norm = 1 / mpmath.sqrt(2 * mpmath.pi)
        r = [(mpmath.sqrt(j), 1 / mpmath.sqrt(j + 1)) for j in range(K)]

        def vec(t):
            w = mpmath.exp(-t * t / 2) * norm
            fp, fm = pair(sc * t)
            ev, od = (fp + fm) * w, (fp - fm) * w
            hv = _hermite_values(t, K, r)
            return [(ev if j % 2 == 0 else od) * hv[j] for j in range(K + 1)]

        out = _quad_vector(vec, K + 1, _cutoff(K, dps + 10), mpmath.mpf(10) ** (-(dps + 3)))
        return [+v for v in out]          # rounded at the working precision (dps + 10 digits kept in each mpf)


def _cutoff(K: int, digits: int) -> float:
    """T with e^{-T^2/2} T^{K+2} < 10^{-digits}: beyond |t| = T the Gaussian-weighted integrands of
    degree <= K + 1 (activations grow at most linearly) contribute below the working precision."""
    import math
    T = 10.0
    while T * T / 2 - (K + 2) * math.log(T) < (digits + 5) * math.log(10):
        T += 1.0
    return T


@lru_cache(maxsize=1)
def _rule():
    """One tanh-sinh rule for the module: it caches its nodes per (interval, degree, precision)."""
    return mpmath.calculus.quadrature.TanhSinh(mpmath.mp)


def _quad_vector(vec, n: int, T: float, tol):
    """Integrate a vector-valued function over [0, T] with mpmath's tanh-sinh rule (one set of nodes
    for all n components; the levels nest as in ``TanhSinh.sum_next``), raising the level until two
    successive levels agree to ``tol`` (relative to 1 + max |component|) in every component."""
    rule = _rule()
    prec = mpmath.mp.prec
    a, b = mpmath.mpf(0), mpmath.mpf(T)
    prev = None
    for degree in range(1, 2 * rule.guess_degree(prec) + 4):
        h = mpmath.mpf(2) ** (-degree)
        acc = [v / (2 * h) for v in prev] if prev is not None else [mpmath.mpf(0)] * n
        for t, w in rule.get_nodes(a, b, degree, prec):
            vals = vec(t)
            for i in range(n):
                acc[i] += w * vals[i]
        acc = [h * v for v in acc]
        if prev is not None and degree > 2 and \
                max(abs(acc[i] - prev[i]) for i in range(n)) <= tol * (1 + max(abs(v) for v in acc)):
            return acc
        prev = acc
    raise ArithmeticError(f"tanh-sinh quadrature on [0, {T}] did not converge to {tol}")


def coefficient_mp(name, k_: int, *, scale=1.0, dps: int = 30):
    """One coefficient c_k by mpmath.quad (independent of :func:`coefficients_mp`'s shared-node rule)."""
    f = _mp_function(name) if isinstance(name, str) else sp.lambdify(x, _act(name), modules="mpmath")
    hk = sp.lambdify(x, he(k_), modules="mpmath")
    with mpmath.workdps(dps + 15):
        sc = mpmath.mpf(scale)
        g = lambda t: f(sc * t) * hk(t) * mpmath.exp(-t * t / 2) / mpmath.sqrt(2 * mpmath.pi)
        v = mpmath.quad(g, [mpmath.ninf, 0, mpmath.inf])
        return +v


def second_moment_mp(name, *, scale=1.0, dps: int = 30):
    """E[act(scale g)^2] by mpmath quadrature (the Parseval total)."""
    f = _mp_function(name) if isinstance(name, str) else sp.lambdify(x, _act(name), modules="mpmath")
    with mpmath.workdps(dps + 15):
        sc = mpmath.mpf(scale)
        v = mpmath.quad(lambda t: f(sc * t) ** 2 * mpmath.exp(-t * t / 2) / mpmath.sqrt(2 * mpmath.pi),
                        [mpmath.ninf, 0, mpmath.inf])
        return +v


def derivative_second_moment_mp(name, *, scale=1.0, dps: int = 30):
    """E[sigma'(g)^2] for sigma(z) = act(scale z), i.e. scale^2 E[act'(scale g)^2], by mpmath quadrature: the sum
    sum_k k c_k^2 of the Hermite coefficients of sigma (Gaussian integration by parts), which bounds the tails of
    the series of K'(rho) = sum_k k c_k^2 rho^(k-1) on [-1, 1].  ``mpmath.inf`` when act' is not a function
    (step: a Dirac mass) -- then no tail bound follows from it.

    >>> float(derivative_second_moment_mp("abs"))
    1.0
    """
    expr = _act(name)
    if isinstance(expr, sp.Piecewise):          # a jump (step) has a Dirac mass for derivative; sympy's diff says 0
        cuts = {b for _, cond in expr.args for rel in cond.atoms(sp.Rel) for b in sp.solve(sp.Eq(rel.lhs, rel.rhs), x)}
        h = sp.Rational(1, 10 ** 30)            # sympy's one-sided limit of a Piecewise misses the jump: compare values
        if any(abs(float(expr.subs(x, b + h) - expr.subs(x, b - h))) > 1e-20 for b in cuts):
            return mpmath.inf
    der = sp.diff(expr, x)
    if der.has(sp.DiracDelta):
        return mpmath.inf
    f = sp.lambdify(x, der, modules="mpmath")
    with mpmath.workdps(dps + 15):
        sc = mpmath.mpf(scale)
        v = sc * sc * mpmath.quad(lambda t: f(sc * t) ** 2 * mpmath.exp(-t * t / 2) / mpmath.sqrt(2 * mpmath.pi),
                                  [mpmath.ninf, 0, mpmath.inf])
        return +v


def second_moment(act, *, scale=1) -> sp.Expr:
    """Exact E[act(scale g)^2] (sympy) for activations sympy integrates (not erf)."""
    return _gauss_integral(_act(act).subs(x, sp.sympify(scale) * x) ** 2)


# ----------------------------------------------------------------------------- information exponent, dual series
def information_exponent(name_or_coeffs, *, K: int = 20, dps: int = 30):
    """First k >= 1 with c_k != 0 (None if c_1 .. c_K all vanish).

    ``name_or_coeffs``: a sequence of coefficients c_0, c_1, ... (sympy, mpmath or float; a float or mpf
    counts as zero below 10^{-(dps - 5)}), a name (exact coefficients for the :data:`EXACT` names,
    mpmath quadrature otherwise) or a sympy expression.

    >>> information_exponent("relu"), information_exponent("step"), information_exponent(x**3 - 3*x)
    (1, 1, 3)
    >>> information_exponent([1, 0, 0, 2])
    3
    """
    if isinstance(name_or_coeffs, (list, tuple)):
        coeffs = list(name_or_coeffs)
    elif isinstance(name_or_coeffs, str) and name_or_coeffs not in EXACT:
        coeffs = coefficients_mp(name_or_coeffs, K, dps=dps)
    else:
        coeffs = None
    tol = mpmath.mpf(10) ** (-(dps - 5))
    if coeffs is not None:
        for j in range(1, len(coeffs)):
            c = coeffs[j]
            if isinstance(c, sp.Basic):
                if sp.simplify(c) != 0:
                    return j
            elif abs(c) > tol:
                return j
        return None
    for j in range(1, K + 1):
        if sp.simplify(coefficient(name_or_coeffs, j)) != 0:
            return j
    return None


def dual_series(coeffs_a: Sequence, coeffs_b: Sequence, rho_):
    """sum_k a_k b_k rho^k over the common length of the two coefficient lists.

    Works for sympy, mpmath, float or torch ``rho_`` (elementwise on a tensor).
    """
    n = min(len(coeffs_a), len(coeffs_b))
    total = 0
    power = 1
    for j in range(n):
        if j:
            power = power * rho_
        a, b = coeffs_a[j], coeffs_b[j]
        if (isinstance(a, sp.Basic) and a == 0) or (not isinstance(a, sp.Basic) and a == 0):
            continue
        total = total + a * b * power
    return total


def dual_tail_bound(coeffs_a: Sequence, coeffs_b: Sequence, second_a, second_b, rho_):
    """Bound on the truncation error |sum_{k > K} a_k b_k rho^k| of :func:`dual_series` truncated at
    K = len - 1, by Cauchy-Schwarz and Parseval:
    |...| <= |rho|^{K+1} sqrt(E[sigma^2] - sum_{k<=K} a_k^2) sqrt(E[tau^2] - sum_{k<=K} b_k^2)."""
    K = min(len(coeffs_a), len(coeffs_b)) - 1
    ra = second_a - sum(c * c for c in coeffs_a[:K + 1])
    rb = second_b - sum(c * c for c in coeffs_b[:K + 1])
    ra = ra if ra > 0 else 0
    rb = rb if rb > 0 else 0
    return abs(rho_) ** (K + 1) * mpmath.sqrt(ra) * mpmath.sqrt(rb)


#: the Parseval remainder E[sigma^2] - sum_{k<=K} c_k^2 of an activation at truncation degree K (point key "R")
R_rem = sp.Symbol("R", nonnegative=True)


def dual_truncation_bound_stated() -> sp.Expr:
    """The stated bound on the truncation error of the dual series of sigma with itself (hermite.dual.truncation):
    |k(rho) - sum_{k<=K} c_k^2 rho^k| <= |rho|^(K+1) (E[sigma^2] - sum_{k<=K} c_k^2), the remainder R an instance
    quantity of the activation the check adds to the point (the same as :func:`dual_tail_bound` with a = b).

    >>> dual_truncation_bound_stated().subs({rho: sp.Rational(1, 2), K_tail: 2, R_rem: 8})
    1
    """
    return sp.Abs(rho) ** (K_tail + 1) * R_rem
