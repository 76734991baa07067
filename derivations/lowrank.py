"""Population loss and population spherical gradient of rank-1 fine-tuning
(003_83d15a9763fa9a30.txt, Dayi & Chen, Prop. 1, App. A.1, A.4; Remark 3; Claim 2 / Prop. 3).

Almost all mathematics of the source was lost in extraction; the forms here are *derived* by us from
the surviving definitions (the reading is in ``verify/claims/dayi2024/common.py``).  No torch here.

Model (normalization choices are parameters, see below)::

    f_v(x) = a sum_i sigma(<w_i + xi v_i z, x>),   ||w_i|| = 1,   z perp span(W),  ||z|| = 1
    teacher v = c, z = u;  student v = c^ (frozen), z = u^;  c, c^ in {+-1/sqrt k}^k.

Every neuron then has norm r = sqrt(1 + xi^2/k) (c_i^2 = 1/k and z perp w_i), so
E[sigma(<a, x>) sigma(<b, x>)] = sum_p beta_p^2 rho^p with rho = <a, b>/r^2 and beta_p the Hermite
coefficients of sigma(r .) (``derivations.hermite.coefficient(act, p, scale=r)``).  With
m = <u^, u> and G = W W^T,

    rho_ij(m) = (G_ij + xi^2 c^_i c_j m) / r^2                                         (cross overlaps)
    L(m)      = const - 2 a^2 sum_ij sum_p beta_p^2 rho_ij(m)^p                          (loss of squared error)
    grad^S L  = -phi(m) (u - m u^),   phi(m) = -L'(m)
              = (2 a^2 xi^2 / r^2) sum_ij c^_i c_j K'(rho_ij(m)),  K'(rho) = sum_{p>=1} p beta_p^2 rho^{p-1}.   (Prop. 1)

K'(rho) is the dual kernel of sigma' (``hermite.dual_series`` of the coefficients sqrt(q+1) beta_{q+1}),
r^2 E[sigma'(r g1) sigma'(r g2)] for corr(g1, g2) = rho.  Closed forms: ReLU r^2 (pi - arccos rho)/(2 pi);
erf r^2 (4/pi) / sqrt((1 + 2 r^2)^2 - 4 r^4 rho^2).

Normalizations (each a keyword): output scale ``a`` (default 1), ``half`` (loss (1/2)(f - f*)^2 halves phi),
and the activation's inner scale: sigma(z) = base(z / inner); inner = r is the normalized-neuron model
sigma(<a, x>/||a||), whose beta_p are those of base itself.  beta_p are always those of
z -> sigma(r z) = base((r/inner) z): ``scale = r / inner``.

Orthonormal rows (G = I), t = xi^2/k, A = <c^, c>, B = (1^T c^)(1^T c) (App. A.4; derived here)::

    phi(m) = (2 a^2 xi^2/r^2) sum_p p beta_p^2 r^{-2(p-1)} [ A sum_{q even < p-1} C(p-1, q) (t m)^q
              + sum_{q odd < p-1} C(p-1, q)(t m)^q + (t m)^{p-1} (B if p-1 even else k) ]

so odd powers of m have non-negative coefficients and even powers are non-negative combinations of A and B.

>>> import sympy as sp
>>> float(relu_kprime(sp.Rational(1, 2), 1))   # (pi - arccos(1/2)) / (2 pi) = 1/3
0.3333333333333333
>>> phi_orthonormal_series([0, 0, 0, 1], 3, 1, A, B, m)   # beta_3 = 1 only, k = 3, xi = 1
81*A/32 + 9*B*m**2/32 + 27*m/16
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable, Sequence

import mpmath
import numpy as np
import sympy as sp

from derivations import hermite as H

m = sp.Symbol("m", real=True)
rho = sp.Symbol("rho", real=True)
A, B = sp.symbols("A B", real=True)       # <c^, c> and (1^T c^)(1^T c)
t = sp.Symbol("t", positive=True)          # xi^2 / k

# ----------------------------------------------------------------------------- activations
#: polynomial activations as sympy expressions in hermite.x (normalized Hermite sums)
POLY: dict[str, sp.Expr] = {
    "h2": H.he(2), "h3": H.he(3), "h4": H.he(4), "h5": H.he(5), "h6": H.he(6),
    "h2+h3": H.he(2) + H.he(3), "h1+h3": H.he(1) + H.he(3),
}
#: activations whose K' has a closed form here
CLOSED = ("relu", "erf")


def activation_expr(name: str, inner=1) -> sp.Expr:
    """sympy expression of sigma(z) = base(z / inner) in hermite.x."""
    base = POLY[name] if name in POLY else H.ACTIVATIONS[name]
    return base.subs(H.x, H.x / sp.sympify(inner))


def radius(k, xi):
    """r = sqrt(1 + xi^2/k): the norm of every student and teacher neuron."""
    return sp.sqrt(1 + sp.sympify(xi) ** 2 / k)


@lru_cache(maxsize=None)
def betas_exact(name: str, scale, K: int | None = None) -> tuple:
    """Exact Hermite coefficients beta_0..beta_K of z -> base(scale z) (sympy; polynomials: all of them)."""
    expr = POLY.get(name)
    if expr is not None:
        deg = sp.degree(expr, H.x)
        return tuple(sp.nsimplify(H.coefficient(expr, p, scale=scale)) for p in range(deg + 1))
    return tuple(H.coefficient(name, p, scale=scale) for p in range(K + 1))


@lru_cache(maxsize=None)
def betas_mp(name: str, scale: float, K: int = 40, dps: int = 30) -> tuple:
    """beta_0..beta_K of base(scale .) by mpmath (``hermite.coefficients_mp``)."""
    if name in POLY:
        ex = betas_exact(name, sp.nsimplify(scale) if isinstance(scale, float) else scale)
        return tuple(mpmath.mpf(sp.N(b, dps)) for b in ex) + (mpmath.mpf(0),) * max(0, K + 1 - len(ex))
    return tuple(H.coefficients_mp(name, K, scale=scale, dps=dps))


def kprime_series(betas: Sequence, rho_):
    """K'(rho) = sum_{p>=1} p beta_p^2 rho^{p-1}, as the dual series of sigma'
    (``hermite.dual_series`` of the coefficients sqrt(q+1) beta_{q+1})."""
    sq = sp.sqrt if any(isinstance(b, sp.Basic) for b in betas) else (
        mpmath.sqrt if any(isinstance(b, mpmath.mpf) for b in betas) else math.sqrt)
    d = [sq(q + 1) * betas[q + 1] for q in range(len(betas) - 1)]
    return H.dual_series(d, d, rho_)


def relu_kprime(rho_, r):
    """K' of ReLU at radius r: r^2 (pi - arccos rho)/(2 pi) (sympy or float)."""
    if isinstance(rho_, sp.Basic) or isinstance(r, sp.Basic):
        return sp.sympify(r) ** 2 * (sp.pi - sp.acos(rho_)) / (2 * sp.pi)
    return r * r * (np.pi - np.arccos(np.clip(rho_, -1.0, 1.0))) / (2 * np.pi)


def erf_kprime(rho_, r):
    """K' of erf at radius r: r^2 E[erf'(r g1) erf'(r g2)] = r^2 (4/pi)/sqrt((1+2r^2)^2 - 4 r^4 rho^2)."""
    if isinstance(rho_, sp.Basic) or isinstance(r, sp.Basic):
        r = sp.sympify(r)
        return r ** 2 * 4 / sp.pi / sp.sqrt((1 + 2 * r ** 2) ** 2 - 4 * r ** 4 * rho_ ** 2)
    return r * r * (4 / np.pi) / np.sqrt((1 + 2 * r * r) ** 2 - 4 * r ** 4 * rho_ * rho_)


@lru_cache(maxsize=None)
def _kprime_coeffs(name: str, scale: float, K: int, rtol: float, K_max: int) -> tuple:
    """(a_0..a_{K'-1} as floats, K', T_K', S) of :func:`kprime_function`'s series (cached per activation and scale)."""
    S = H.derivative_second_moment_mp(name, scale=scale)
    if not mpmath.isfinite(S):
        raise ValueError(f"K' of {name!r} has no bounded Hermite series: E[sigma'(g)^2] is infinite")
    terms = K
    while True:
        bet = betas_mp(name, scale, terms)
        a = [(q + 1) * bet[q + 1] ** 2 for q in range(terms)]
        T = max(S - mpmath.fsum(a), mpmath.mpf(0))
        if T <= rtol * S or terms >= K_max:
            break
        terms = min(2 * terms, K_max)
    return tuple(float(v) for v in a), terms, float(T), float(S)


def kprime_function(name: str, r: float, inner: float = 1.0, *, K: int = 60, rtol: float = 1e-10,
                    K_max: int = 240) -> Callable:
    """A float function rho -> K'(rho) (numpy-vectorized) for activation ``name`` of inner scale ``inner``
    on neurons of norm r: closed form for relu/erf, exact polynomial for Hermite sums, else the
    Hermite series with a bounded tail.

    Series: K'(rho) = sum_{q>=0} a_q rho^q with a_q = (q+1) beta_{q+1}^2 >= 0 (mpmath coefficients), so on
    [-1, 1] the tail after K terms is at most |rho|^K T_K with T_K = sum_{q>=K} a_q = E[sigma'(g)^2] - sum_{q<K} a_q
    (:func:`derivations.hermite.derivative_second_moment_mp`), and |K'| <= K'(1) = E[sigma'(g)^2] = S.  K doubles
    from ``K`` up to ``K_max`` until T_K <= rtol S (then the bound holds on all of [-1, 1]); if it never does
    (|z| has T_240 = 0.03), the function still evaluates where |rho|^K T_K <= rtol S and raises ValueError where it
    cannot bound the tail (|rho| near 1).  An activation whose derivative is not square-integrable (step) has no
    such bound: ValueError.  The returned function carries ``.terms`` (K), ``.tail`` (T_K) and ``.scale_bound`` (S)."""
    scale = r / inner
    if name == "relu":
        return lambda x: relu_kprime(x, 1.0) * scale * scale
    if name == "erf":
        return lambda x: erf_kprime(x, scale)
    if name in POLY:
        bet = tuple(mpmath.mpf(sp.N(b, 30)) for b in betas_exact(name, sp.nsimplify(scale)))
        coeffs = np.array([float((q + 1) * bet[q + 1] ** 2) for q in range(len(bet) - 1)])
        return lambda x: np.polynomial.polynomial.polyval(x, coeffs)
    a, terms, T_f, S_f = _kprime_coeffs(name, float(scale), K, float(rtol), K_max)
    coeffs = np.array(a)

    def kprime(x):
        bound = np.abs(np.asarray(x, dtype=float)) ** terms * T_f
        if np.any(bound > rtol * S_f):
            worst = float(np.max(np.abs(np.asarray(x, dtype=float))))
            raise ValueError(f"K' of {name!r} at scale {float(scale):.6g}: the {terms}-term Hermite series cannot be "
                             f"bounded to rtol {rtol:g} at |rho| = {worst:.6g} (tail bound {float(np.max(bound)):.3g}, "
                             f"|K'| <= {S_f:.6g})")
        return np.polynomial.polynomial.polyval(x, coeffs)

    kprime.terms, kprime.tail, kprime.scale_bound = terms, T_f, S_f
    return kprime


# ----------------------------------------------------------------------------- Prop. 1
def cross_overlaps(mv, G, c, c_hat, xi, k):
    """rho_ij(m) = (G_ij + xi^2 c^_i c_j m)/r^2 (numpy, float): returns (k, k) or (..., k, k)."""
    G = np.asarray(G, dtype=float)
    r2 = G[0, 0] + xi * xi / k                 # = 1 + xi^2/k under Assumption 1; xi^2 in the GLM limit W = 0
    mv = np.asarray(mv, dtype=float)[..., None, None]
    return (G + xi * xi * np.outer(c_hat, c) * mv) / r2


def phi_value(mv, G, c, c_hat, xi, kprime: Callable, *, out_scale: float = 1.0, half: bool = False):
    """phi(m) of Prop. 1 (float, numpy-vectorized in m): (2 a^2 xi^2/r^2) sum_ij c^_i c_j K'(rho_ij(m))."""
    c, c_hat = np.asarray(c, float), np.asarray(c_hat, float)
    k = len(c)
    r2 = float(np.asarray(G, dtype=float)[0, 0]) + xi * xi / k
    R = cross_overlaps(mv, G, c, c_hat, xi, k)
    tot = (np.outer(c_hat, c) * kprime(R)).sum(axis=(-1, -2))
    return (1.0 if half else 2.0) * out_scale ** 2 * xi * xi / r2 * tot


def cross_overlaps_sympy(G, c, c_hat, xi) -> tuple:
    """(r^2, [(i, j, rho_ij(m))] row by row): the sympy twin of :func:`cross_overlaps`, r^2 = G_11 + xi^2/k.

    >>> cross_overlaps_sympy(sp.eye(2), [1, 1], [1, -1], 1)
    (3/2, [(0, 0, 2*m/3 + 2/3), (0, 1, 2*m/3), (1, 0, -2*m/3), (1, 1, 2/3 - 2*m/3)])
    """
    G = sp.Matrix(G)
    k = len(c)
    xi = sp.sympify(xi)
    r2 = G[0, 0] + xi ** 2 / k
    return r2, [(i, j, (G[i, j] + xi ** 2 * c_hat[i] * c[j] * m) / r2) for i in range(k) for j in range(k)]


def phi_stated(G, c, c_hat, xi, betas, *, out_scale=1, half=False) -> sp.Expr:
    """Prop. 1's phi as an exact sympy expression in m (betas: sympy list, finite for polynomial sigma;
    or the string "relu" for the closed form)."""
    r2, overlaps = cross_overlaps_sympy(G, c, c_hat, xi)
    tot = 0
    for i, j, rij in overlaps:
        kp = relu_kprime(rij, sp.sqrt(r2)) if betas == "relu" else kprime_series(betas, rij)
        tot += c_hat[i] * c[j] * kp
    return (sp.Integer(1) if half else sp.Integer(2)) * sp.sympify(out_scale) ** 2 * sp.sympify(xi) ** 2 / r2 * tot


def loss_stated(G, c, c_hat, xi, betas, *, out_scale=1) -> sp.Expr:
    """The m-dependent part of the population loss, -2 a^2 sum_ij sum_p beta_p^2 rho_ij^p (sympy);
    Prop. 1 says phi = -dL/dm (checked symbolically in the claims)."""
    _, overlaps = cross_overlaps_sympy(G, c, c_hat, xi)
    tot = 0
    for _, _, rij in overlaps:
        tot += H.dual_series(betas, betas, rij)
    return -2 * sp.sympify(out_scale) ** 2 * tot


# ----------------------------------------------------------------------------- orthonormal expansion (App. A.4)
def phi_orthonormal_series(betas: Sequence, k: int, xi, A_=A, B_=B, m_=m, *, out_scale=1, half=False) -> sp.Expr:
    """phi(m) for orthonormal rows in terms of A = <c^, c> and B = (1^T c^)(1^T c) (derived; see module doc)."""
    xi = sp.sympify(xi)
    tt = xi ** 2 / k
    r2 = 1 + tt
    tot = 0
    for p in range(1, len(betas)):
        if betas[p] == 0:
            continue
        inner = 0
        for q in range(p):
            term = sp.binomial(p - 1, q) * (tt * m_) ** q
            if q == p - 1:
                inner += term * (B_ if q % 2 == 0 else k)
            elif q % 2 == 0:
                inner += term * A_
            else:
                inner += term
        tot += p * betas[p] ** 2 * r2 ** (-(p - 1)) * inner
    return sp.expand((sp.Integer(1) if half else 2) * sp.sympify(out_scale) ** 2 * xi ** 2 / r2 * tot)


def power_coefficients_orthonormal(betas: Sequence, k: int, xi, *, out_scale=1, half=False) -> list:
    """Coefficients [a_0, a_1, ...] of phi(m) = sum_q a_q m^q (orthonormal rows), each linear in A, B."""
    expr = sp.expand(phi_orthonormal_series(betas, k, xi, out_scale=out_scale, half=half))
    P = sp.Poly(expr, m)
    deg = P.degree()
    return [sp.expand(P.coeff_monomial(m ** q)) for q in range(deg + 1)]


# ----------------------------------------------------------------------------- GLM limit (Remark 3)
def phi_glm(betas: Sequence, m_=m):
    """k = 1, W = 0, c = c^ = 1, r = xi: phi(m) = 2 sum_p p beta_p^2 m^{p-1} with beta of sigma(xi .)."""
    return 2 * kprime_series(betas, m_)


# ----------------------------------------------------------------------------- Claim 2 construction
def claim2_features(k: int, c: Sequence[float], d: int | None = None) -> tuple[np.ndarray, np.ndarray, float]:
    """Claim 2 (§3.5): unit rows w_i in R^d, d >= k(k-1)/2 + 1, and u = e_d perp W with
    <w_i + xi c_i u, w_j + xi c_j u> = 0 for i != j at xi = sqrt(k/(k-1)): each pair {i, j} gets its own
    coordinate carrying +-1/sqrt(k-1) with <w_i, w_j> = -xi^2 c_i c_j.  Returns (W (k, d), u (d,), xi)."""
    n_pairs = k * (k - 1) // 2
    d = n_pairs + 1 if d is None else d
    if d < n_pairs + 1:
        raise ValueError(f"Claim 2 needs d >= k(k-1)/2 + 1 = {n_pairs + 1}, got d={d}")
    W = np.zeros((k, d))
    col = 0
    v = 1 / math.sqrt(k - 1)
    for i in range(k):
        for j in range(i + 1, k):
            sgn = -np.sign(c[i] * c[j])          # <w_i, w_j> = W[i,col] W[j,col] = -sign(c_i c_j)/(k-1)
            W[i, col] = v
            W[j, col] = v * sgn
            col += 1
    u = np.zeros(d)
    u[-1] = 1.0
    return W, u, math.sqrt(k / (k - 1))


def phi_prop3(mv, c, c_hat, p: int):
    """Prop. 3 (derived): on the Claim-2 instance with sigma(r .) = h_p (beta_q = delta_qp, r = xi),
    phi(m) = 2p sum_ij c^_i c_j rho_ij^{p-1}, rho_ii = (k-1)/k + c^_i c_i m, rho_ij = c_j (c^_i m - c_i)."""
    c, c_hat = np.asarray(c, float), np.asarray(c_hat, float)
    k = len(c)
    mv = np.asarray(mv, float)[..., None, None]
    R = np.outer(c_hat, c) * mv - np.outer(c, c) * (1 - np.eye(k))
    R = R + np.eye(k) * (k - 1) / k
    return 2 * p * (np.outer(c_hat, c) * R ** (p - 1)).sum(axis=(-1, -2))


# ----------------------------------------------------------------------------- Eq. (11), Thm 9
def moment_matrix(G, kprime: Callable, r2: float):
    """M_ij = K'(G_ij / r^2) = sum_p p beta_p^2 (G_ij/r^2)^{p-1} (Eq. (11) as reconstructed); phi(0) = (2 xi^2/r^2) c^T M c."""
    return kprime(np.asarray(G, float) / r2)


def relu_kernel(rho_, r):
    """K(rho) = sum_p beta_p^2 rho^p for ReLU at radius r: r^2 (sqrt(1 - rho^2) + rho (pi - arccos rho))/(2 pi)."""
    rho_ = np.clip(rho_, -1.0, 1.0)
    return r * r * (np.sqrt(1 - rho_ * rho_) + rho_ * (np.pi - np.arccos(rho_))) / (2 * np.pi)


def thm9_error_relu(G, c, xi, mv):
    """E (f_cand - f*)^2 for the candidate of Thm 9 (a_{i,s} = 1{s = sqrt(k) c_i}, i.e. the student with c^ = c)
    at overlap m, ReLU, exactly: 2 sum_ij [K((G_ij + xi^2 c_i c_j)/r^2) - K((G_ij + xi^2 c_i c_j m)/r^2)]."""
    c = np.asarray(c, float)
    k = len(c)
    G = np.asarray(G, float)
    r2 = G[0, 0] + xi * xi / k
    r = math.sqrt(r2)
    cc = np.outer(c, c)
    return float(2 * (relu_kernel((G + xi * xi * cc) / r2, r) - relu_kernel((G + xi * xi * cc * mv) / r2, r)).sum())


def thm9_bound_relu(k, xi, mv):
    """The bound of Thm 9's proof: 2 k xi^2 (1 - m) E[sigma'(r Z)^2] = k xi^2 (1 - m) for ReLU (E[step^2] = 1/2)."""
    return 2 * k * xi * xi * (1 - mv) * 0.5


# ----------------------------------------------------------------------------- stated forms (sympy, for the claims' checks)
# Each is the form a dayi2024 claim states (as reconstructed, see verify/claims/dayi2024/common.py), as a sympy
# expression whose free symbols are named like the keys of the check's parameter points.  Where the form involves a
# random instance (c, c^, W), the instance enters through named scalars the check adds to the point (documented per
# form); everything else is written out, so ``python -m verify mutants`` perturbs it.
xi_ = sp.Symbol("xi", positive=True)
k_ = sp.Symbol("k", positive=True)
p_ = sp.Symbol("p", positive=True)
#: sum_ij c^_i c_j K'(rho_ij(m)) of an instance (Prop. 1's double sum)
K_sum = sp.Symbol("K_sum", real=True)
#: the first Hermite coefficient beta_1 of sigma(r .) and 1^T c of an instance (Remark 1)
beta_1 = sp.Symbol("beta_1", real=True)
sum_c = sp.Symbol("sum_c", real=True)
#: ||M||_F of the moment matrix of Eq. (11) (Claim 4)
M_F = sp.Symbol("M_F", positive=True)
#: symbolic Hermite coefficients beta_1..beta_4 (Remark 3)
betas_sym = sp.symbols("beta_1:5", real=True)


def prop1_gradient_e_stated() -> sp.Expr:
    """Prop. 1 along e = (u - m u^)/||u - m u^||: <grad^S L(u^), e> = -phi(m) sqrt(1 - m^2) with
    phi(m) = (2 xi^2/r^2) K_sum, r^2 = 1 + xi^2/k, K_sum = sum_ij c^_i c_j sum_p p beta_p^2 rho_ij(m)^{p-1}.

    >>> float(prop1_gradient_e_stated().subs({xi_: 1, k_: 1, K_sum: 1, m: 0}))
    -1.0
    """
    return -2 * xi_ ** 2 / (1 + xi_ ** 2 / k_) * K_sum * sp.sqrt(1 - m ** 2)


def phi_kernel_sum(mv, G, c, c_hat, xi, kprime: Callable):
    """K_sum = sum_ij c^_i c_j K'(rho_ij(m)) (float, numpy-vectorized in m): phi = (2 xi^2/r^2) K_sum (Prop. 1)."""
    c, c_hat = np.asarray(c, float), np.asarray(c_hat, float)
    R = cross_overlaps(mv, G, c, c_hat, xi, len(c))
    return (np.outer(c_hat, c) * kprime(R)).sum(axis=(-1, -2))


def remark1_first_moment_stated() -> sp.Expr:
    """Remark 1: <P_perp E[f*(x) x], u> = beta_1 xi (1^T c)/r, r = sqrt(1 + xi^2/k) (Stein's lemma)."""
    return beta_1 * xi_ * sum_c / sp.sqrt(1 + xi_ ** 2 / k_)


def claim4_variance_stated() -> sp.Expr:
    """Claim 4: E[(c^T M c)^2] = ||M||_F^2 / k^2 (c, c^ independent uniform on {+-1/sqrt k}^k)."""
    return M_F ** 2 / k_ ** 2


def glm_phi_stated() -> sp.Expr:
    """Remark 3: phi(m) = 2 sum_{p>=1} p beta_p^2 m^{p-1}, written out to p = 4 (activations of degree <= 4)."""
    return 2 * sum(q * betas_sym[q - 1] ** 2 * m ** (q - 1) for q in range(1, 5))


def glm_phi_from_prop1() -> sp.Expr:
    """Prop. 1's phi at k = 1, W = 0, c = c^ = 1 with symbolic beta_1..beta_4 and a symbolic scale xi (r = xi):
    our derivation, which Remark 3 states as :func:`glm_phi_stated`."""
    return phi_stated(sp.zeros(1, 1), [1], [1], xi_, [0, *betas_sym])


def claim2_xi_stated() -> sp.Expr:
    """Claim 2: the perturbation scale of the orthogonal-teacher construction, xi = sqrt(k/(k-1))."""
    return sp.sqrt(k_ / (k_ - 1))


#: Prop. 3's instance counts: with s_i = k c^_i c_i and e_i = sqrt(k) c_i (both +-1), n_plus = #{i: s_i = +1},
#: a_plus = sum_{s_i = +1} e_i^p, a_minus = sum_{s_i = -1} e_i^p
n_plus, a_plus, a_minus = sp.symbols("n_plus a_plus a_minus", real=True)


def prop3_phi_stated() -> sp.Expr:
    """Prop. 3's phi(m) = 2p sum_ij c^_i c_j rho_ij^{p-1} (rho_ii = (k-1)/k + c^_i c_i m, rho_ij = c_j(c^_i m - c_i))
    with the double sum carried out (exact, ours): c^_i = s_i c_i, so the diagonal gives
    (n_plus/k)((k-1)/k + m/k)^{p-1} - ((k - n_plus)/k)((k-1)/k - m/k)^{p-1} and, with rho_ij = c_i c_j (s_i m - 1)
    and sum_{j != i} e_j^p = E - e_i^p (E = a_plus + a_minus), the off-diagonal
    k^{-p} [(m - 1)^{p-1} (a_plus E - n_plus) - (-m - 1)^{p-1} (a_minus E - (k - n_plus))].  The instance enters only
    through the counts of :func:`prop3_counts`.

    >>> c, ch = [1, -1, 1], [1, 1, -1]
    >>> cs = [v / math.sqrt(3) for v in c]; chs = [v / math.sqrt(3) for v in ch]
    >>> f = sp.lambdify((k_, p_, m, n_plus, a_plus, a_minus), prop3_phi_stated())
    >>> round(float(f(3, 4, 0.3, **{str(s): v for s, v in prop3_counts(cs, chs, 4).items()})), 12) == round(float(phi_prop3(0.3, cs, chs, 4)), 12)
    True
    """
    E = a_plus + a_minus
    n_minus = k_ - n_plus
    diag = n_plus / k_ * ((k_ - 1) / k_ + m / k_) ** (p_ - 1) - n_minus / k_ * ((k_ - 1) / k_ - m / k_) ** (p_ - 1)
    off = k_ ** (-p_) * ((m - 1) ** (p_ - 1) * (a_plus * E - n_plus) - (-m - 1) ** (p_ - 1) * (a_minus * E - n_minus))
    return 2 * p_ * (diag + off)


def prop3_counts(c, c_hat, p: int) -> dict:
    """The instance counts of :func:`prop3_phi_stated` for c, c^ in {+-1/sqrt k}^k: {n_plus, a_plus, a_minus} (floats)."""
    c, c_hat = np.asarray(c, float), np.asarray(c_hat, float)
    s = np.sign(c_hat * c)
    e = np.sign(c) ** int(p)
    return {"n_plus": float((s > 0).sum()), "a_plus": float(e[s > 0].sum()), "a_minus": float(e[s < 0].sum())}


# ----------------------------------------------------------------------------- stated forms added for issue 13 (coverage)
d_ = sp.Symbol("d", positive=True)


def sgd_iterations_stated() -> sp.Expr:
    """Thms 1, 4-7: the iteration count of online SGD to weak/strong recovery is O~(d) at fixed k -- the order in d
    the surviving prose states ('sample complexity scaling linearly in d as we show online SGD does', L84; 'achieve
    linear dependence in d', L98; every displayed rate is lost).  An order (``stated_order=("d",)``) and an upper
    bound; the logarithmic factors O~ hides are the check's allowance (dayi2024.common.LOG_READING), not part of it.

    >>> sgd_iterations_stated()
    d
    """
    return d_


def relu_kprime_stated() -> sp.Expr:
    """Prop. 1 for ReLU (ours, dayi2024.prop1.relu): sum_{p>=1} p c_p^2 rho^{p-1} = (pi - arccos rho)/(2 pi)
    (= relu_kprime(rho, 1)).

    >>> relu_kprime_stated().subs(rho, 1)
    1/2
    """
    return (sp.pi - sp.acos(rho)) / (2 * sp.pi)


def prop6_bound_stated() -> sp.Expr:
    """Prop. 6 (reconstructed; the displayed bound is lost): |phi(m)| <= 2 xi^2 k E[sigma'(r Z)^2], for ReLU
    (E[step(rZ)^2] = 1/2) xi^2 k.  An upper bound (``stated_bound="upper"``)."""
    return 2 * xi_ ** 2 * k_ * sp.Rational(1, 2)


def thm9_bound_stated() -> sp.Expr:
    """Thm 9's proof (reconstructed; the displayed bound is lost): E(f_cand - f*)^2 <= 2 k xi^2 (1 - m) E[sigma'(r Z)^2],
    for ReLU k xi^2 (1 - m) (= thm9_bound_relu).  An upper bound (``stated_bound="upper"``)."""
    return 2 * k_ * xi_ ** 2 * (1 - m) * sp.Rational(1, 2)
