"""ReLU arc-cosine overlap and RKHS projections of App. C of 001_759117b8232d72ac.txt.

Source: Tahir, Ganguli, Rotskoff, App. C, eqs. (145)-(159); Sec. 4, eqs. (18)-(20).

- (152)-(153): <relu(w_i^T x), relu(w_j^T x)>_{L2(N(0,I))} = (1/2pi)(sqrt(1-u^2) + u(pi - arccos u)),
  u = w_i^T w_j / (|w_i| |w_j|).  Derived here by a polar-coordinate integral
  (:func:`overlap_derived`); for weights off the sphere the derivation carries the factor
  |w_i| |w_j| that (153) drops (:func:`overlap_general`).
- (154)-(156): K = G/m, K* = G*/m*, K~ = G~/sqrt(m m*), G the Gram matrices of (152).
- (157): Mercer eigenfunctions psi_l = (m lambda_l^2)^{-1/2} sum_i (z_l)_i relu(w_i^T x) of
  T_k f(x) = int p(x') k(x, x') f(x') dx', k(x, x') = (1/m) sum_i relu(w_i^T x) relu(w_i^T x')
  (the model kernel of Sec. 4), with (z_l, lambda_l^2) the eigenpairs of K.
- (158)-(159): ||P f_*||^2 = (1/m*) c*^T K~^T K^{-1} K~ c*,
  ||P_perp f_*||^2 = (1/m*) c*^T K* c* - ||P f_*||^2, f_* = (1/m*) sum_j c*_j relu(w*_j^T x).
  Derived (:func:`projection_identity`): the population least-squares projection onto
  span{relu(w_i^T x)} has ||P f||^2 = b^T G^{-1} b with b_i = <relu(w_i^T x), f_*>.

Symbolic forms are sympy; the numeric forms act on torch tensors (float64, any device).
"""
from __future__ import annotations

import math
from functools import lru_cache

import sympy as sp
import torch

u = sp.Symbol("u", real=True)
theta = sp.Symbol("theta", real=True)
r_i, r_j = sp.symbols("r_i r_j", positive=True)

# ----------------------------------------------------------------------------- (152)-(153)
OVERLAP_STATED = (sp.sqrt(1 - u ** 2) + u * (sp.pi - sp.acos(u))) / (2 * sp.pi)
"""(153) as stated, a function of u = w_i^T w_j / (|w_i| |w_j|) in [-1, 1]."""


@lru_cache(maxsize=None)
def overlap_derived_theta():
    """E_{x~N(0,I)} relu(w_i^T x) relu(w_j^T x) for unit w_i, w_j at angle theta in [0, pi].

    Rotate so that w_i = e_1, w_j = cos(theta) e_1 + sin(theta) e_2; only (x_1, x_2) matter.
    In polar coordinates x = rho (cos phi, sin phi): the product is rho^2 cos(phi) cos(phi - theta)
    on theta - pi/2 < phi < pi/2, and the radial integral is
    int_0^oo rho^2 rho e^{-rho^2/2} drho / (2 pi) = 1/pi.
    """
    rho, phi = sp.symbols("rho phi", positive=True)
    radial = sp.integrate(rho ** 3 * sp.exp(-rho ** 2 / 2), (rho, 0, sp.oo)) / (2 * sp.pi)
    angular = sp.integrate(sp.expand_trig(sp.cos(phi) * sp.cos(phi - theta)), (phi, theta - sp.pi / 2, sp.pi / 2))
    return sp.simplify(radial * angular)


def overlap_derived():
    """:func:`overlap_derived_theta` with theta = arccos(u), as a function of u."""
    return sp.simplify(overlap_derived_theta().subs(theta, sp.acos(u)))


OVERLAP_THETA_FORM = (sp.sin(theta) + (sp.pi - theta) * sp.cos(theta)) / (2 * sp.pi)
"""The closed form that :func:`overlap_derived_theta` produces (kept as a constant so that importing
is cheap; tests/test_kernels_divergences.py checks that the integral still gives it)."""

OVERLAP_GENERAL = r_i * r_j * OVERLAP_THETA_FORM.subs(theta, sp.acos(u))
"""Derived for weights of norms r_i, r_j (positive homogeneity of relu): r_i r_j times the unit overlap."""


def arccos_overlap(U: torch.Tensor) -> torch.Tensor:
    """(153) elementwise on a tensor of cosines (clamped to [-1, 1] against rounding): the arc-cosine
    kernel of degree 1, :func:`arccos_kernel_value` (1, U) (the single implementation)."""
    return arccos_kernel_value(1, U)


def gram(A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """G_ij = <relu(a_i^T x), relu(b_j^T x)>_{L2(N(0,I))} by (152)-(153), for rows a_i, b_j
    (any leading batch dims).  Includes |a_i| |b_j| (= 1 on the sphere, as in Sec. 4)."""
    na = A.norm(dim=-1)
    nb = B.norm(dim=-1)
    U = (A @ B.mT) / (na.unsqueeze(-1) * nb.unsqueeze(-2))
    return na.unsqueeze(-1) * nb.unsqueeze(-2) * arccos_overlap(U)


# ----------------------------------------------------------------------------- (154)-(156), (158)-(159)
def kernel_matrices(W: torch.Tensor, Ws: torch.Tensor):
    """(154)-(156): K = G(W,W)/m, K* = G(W*,W*)/m*, K~ = G(W,W*)/sqrt(m m*)."""
    m, ms = W.shape[-2], Ws.shape[-2]
    return gram(W, W) / m, gram(Ws, Ws) / ms, gram(W, Ws) / math.sqrt(m * ms)


def projection_norms_stated(W: torch.Tensor, Ws: torch.Tensor, cs: torch.Tensor):
    """(158)-(159) as stated: returns (||f_*||^2, ||P f_*||^2, ||P_perp f_*||^2).

    W (m, d) model features, Ws (m*, d) teacher features, cs (m*,) teacher output weights.
    K^{-1} K~ is computed by a solve (K is symmetric positive definite for distinct generic w_i).
    """
    K, Ks, Kt = kernel_matrices(W, Ws)
    ms = Ws.shape[-2]
    f2 = cs @ Ks @ cs / ms
    p2 = (Kt @ cs) @ torch.linalg.solve(K, Kt @ cs) / ms
    return f2, p2, f2 - p2


#: the symbols of the stated values below: the instance's quadratic form Q = c*^T K~^T K^{-1} K~ c* and m*; the l-th
#: eigenvalue lambda_l^2 of K (154) through lambda_l, and the stated eigenfunction's value psi_l(x)
Q_PROJ, M_STAR = sp.Symbol("Q", positive=True), sp.Symbol("m_star", positive=True, integer=True)
LAMBDA_L, PSI_L = sp.symbols("lambda_l psi_l", real=True)


def projection_158_stated() -> sp.Expr:
    """(158) as a value: ||P f_*||^2 = (1/m*) c*^T K~^T K^{-1} K~ c* = Q/m*, with the instance's quadratic form Q
    (the point key ``Q``; :func:`projection_norms_stated` computes the same number from the matrices)."""
    return Q_PROJ / M_STAR


def mercer_157_stated() -> sp.Expr:
    """(157) as a value: (T_k psi_l)(x) = lambda_l^2 psi_l(x), at the instance's lambda_l and psi_l(x)."""
    return LAMBDA_L ** 2 * PSI_L


def mercer_150_printed() -> sp.Expr:
    """(150) as printed, as a value: (T_k psi_l)(x) = lambda_l psi_l(x).  The decomposition above it is
    {lambda_l^2, psi_l} and (157) gives psi_l the eigenvalue lambda_l^2 (:func:`mercer_157_stated`): the two differ by
    the factor lambda_l, so (150) holds only where lambda_l is 0 or 1."""
    return LAMBDA_L * PSI_L


def projection_identity():
    """The finite-form argument behind (158), for every m, m* (sympy matrix symbols).

    The population projection of f_* = (1/m*) c*^T relu(W* x) onto span{relu(w_i^T x)} has
    coefficients G^{-1} b (normal equations), b = G~ c*/m* with G, G~ the Gram matrices of (152),
    so ||P f_*||^2 = b^T G^{-1} b.  Returns (that, the stated (1/m*) c*^T K~^T K^{-1} K~ c* with
    K = G/m and K~ = G~/sqrt(m m*) of (154), (156)) as 1 x 1 matrix expressions; the same
    holds for ||f_*||^2 = (1/m*^2) c*^T G* c* = (1/m*) c*^T K* c* (:func:`target_norm_identity`).
    """
    m, ms = sp.symbols("m m_star", positive=True, integer=True)
    G = sp.MatrixSymbol("G", m, m)
    Gt = sp.MatrixSymbol("Gtilde", m, ms)
    cs = sp.MatrixSymbol("c_star", ms, 1)
    b = Gt * cs / ms
    derived = b.T * G.inv() * b
    K, Kt = G / m, Gt / sp.sqrt(m * ms)
    stated = cs.T * Kt.T * K.inv() * Kt * cs / ms
    return derived, stated


def target_norm_identity():
    """||f_*||^2 = (1/m*^2) c*^T G* c* (derived) against (1/m*) c*^T K* c* (first term of (159))."""
    ms = sp.Symbol("m_star", positive=True, integer=True)
    Gs = sp.MatrixSymbol("G_star", ms, ms)
    cs = sp.MatrixSymbol("c_star", ms, 1)
    return cs.T * Gs * cs / ms ** 2, cs.T * (Gs / ms) * cs / ms


def matrix_expressions_equal(a, b) -> bool:
    """True when sympy simplifies a - b (matrix expressions) to a zero matrix."""
    diff = sp.simplify(a - b)
    return isinstance(diff, sp.ZeroMatrix) or diff == 0 or getattr(diff, "is_ZeroMatrix", False)


# ----------------------------------------------------------------------------- (157)
def mercer_stated(W: torch.Tensor):
    """(157): eigenpairs (lambda_l^2, z_l) of K = G/m (ascending) and the coefficient matrix
    A (m x m) with psi_l(x) = sum_i A[l, i] relu(w_i^T x), A[l] = z_l / sqrt(m lambda_l^2)."""
    m = W.shape[-2]
    K = gram(W, W) / m
    lam2, Z = torch.linalg.eigh(K)
    A = Z.mT / torch.sqrt(m * lam2).unsqueeze(-1)
    return lam2, A


def mercer_coefficient_residuals(G, lam2, Z):
    """Derived check of (157) in coefficient space (any numeric backend with matrix ops):
    T_k maps sum_i a_i relu(w_i^T x) to sum_i ((1/m) G a)_i relu(w_i^T x), and <psi_l, psi_k> =
    a_l^T G a_k.  Returns (max |T_k psi_l - lambda_l^2 psi_l| coefficients, max |<psi_l, psi_k> - delta_lk|)."""
    m = G.rows if hasattr(G, "rows") else G.shape[0]
    worst_eig, worst_orth = 0, 0
    import mpmath

    for l in range(m):
        a_l = Z[:, l] / mpmath.sqrt(m * lam2[l])
        Ta = G * a_l / m
        worst_eig = max(worst_eig, max(abs(Ta[i] - lam2[l] * a_l[i]) for i in range(m)))
        for k in range(m):
            a_k = Z[:, k] / mpmath.sqrt(m * lam2[k])
            ip = (a_l.T * G * a_k)[0, 0]
            worst_orth = max(worst_orth, abs(ip - (1 if l == k else 0)))
    return worst_eig, worst_orth


# ----------------------------------------------------------------------------- (152)-(153) in high precision
overlap_stated_mp = sp.lambdify(u, OVERLAP_STATED, "mpmath")
"""(153) as an mpmath function of u (lambdified :data:`OVERLAP_STATED`)."""

overlap_general_mp = sp.lambdify((u, r_i, r_j), OVERLAP_GENERAL, "mpmath")
"""The derived overlap for weights of norms r_i, r_j as an mpmath function of (u, r_i, r_j)
(lambdified :data:`OVERLAP_GENERAL`)."""


def gram_mp(rows):
    """G_ij = |w_i| |w_j| (153)(u_ij) of (152) in mpmath (precision of the caller), for the rows w_i of
    ``rows`` (a nested list or anything with ``.tolist()``): the high-precision counterpart of
    :func:`gram` (cosines clamped to [-1, 1] against rounding).

    >>> import mpmath
    >>> G = gram_mp([[1, 0], [0, 2]])
    >>> [float(G[0, 0]), float(G[0, 1] * mpmath.pi), float(G[1, 1])]
    [0.5, 1.0, 2.0]
    """
    import mpmath

    W = mpmath.matrix(rows.tolist() if hasattr(rows, "tolist") else rows)
    m, d = W.rows, W.cols
    G = mpmath.matrix(m, m)
    for i in range(m):
        for j in range(m):
            ui = sum(W[i, k] * W[j, k] for k in range(d))
            ni = mpmath.sqrt(sum(W[i, k] ** 2 for k in range(d)))
            nj = mpmath.sqrt(sum(W[j, k] ** 2 for k in range(d)))
            G[i, j] = ni * nj * overlap_stated_mp(max(-1, min(1, ui / (ni * nj))))
    return G


# ============================================================================= arc-cosine kernels and the NTK
# (issue 10; one implementation of each infinite-width kernel, used by 000 §6, 001 App. C, 002 §6)
#
# Normalization: for unit x, y at angle theta and w ~ N(0, I_d),
#     k_n(x, y) = E_w[ sigma_n(w.x) sigma_n(w.y) ],  sigma_n(t) = t^n 1{t > 0},
# i.e. half of Cho & Saul's (2009) k_n = 2 E[...] = (1/pi) J_n(theta).  For general x, y the kernel is
# |x|^n |y|^n k_n(cos theta).  Degree 1 is 001's overlap (152)-(153) (OVERLAP_STATED / OVERLAP_THETA_FORM);
# degree 0 gives the NTK of a two-layer ReLU net with fixed second layer (002 §6.1, Du et al. 2019):
#     H^inf_ij = E_w[x_i.x_j 1{w.x_i >= 0, w.x_j >= 0}] = x_i.x_j k_0(u_ij) = x_i.x_j (pi - arccos u_ij) / (2 pi),
# u_ij = x_i.x_j / (|x_i||x_j|) (= x_i.x_j on the unit sphere, where 002 writes arccos(x_i.x_j)).
def arccos_j(n_: int) -> sp.Expr:
    """Cho & Saul's angular function J_n(theta) = (-1)^n (sin theta)^{2n+1} ((1/sin theta) d/dtheta)^n
    ((pi - theta)/sin theta), derived with sympy (J_0 = pi - theta, J_1 = sin theta + (pi - theta) cos theta).

    >>> arccos_j(0)
    pi - theta
    """
    g = (sp.pi - theta) / sp.sin(theta)
    for _ in range(int(n_)):
        g = sp.diff(g, theta) / sp.sin(theta)
    return sp.simplify(sp.Integer(-1) ** int(n_) * sp.sin(theta) ** (2 * int(n_) + 1) * g)


@lru_cache(maxsize=None)
def arccos_kernel_theta(n_: int) -> sp.Expr:
    """k_n at angle theta for unit inputs: J_n(theta) / (2 pi) (= E_w[sigma_n(w.x) sigma_n(w.y)])."""
    return sp.simplify(arccos_j(n_) / (2 * sp.pi))


@lru_cache(maxsize=None)
def arccos_kernel(n_: int) -> sp.Expr:
    """k_n as a function of the cosine u in [-1, 1] (theta = arccos u).

    >>> arccos_kernel(0)
    (pi - acos(u))/(2*pi)
    """
    return sp.simplify(arccos_kernel_theta(n_).subs(theta, sp.acos(u)))


@lru_cache(maxsize=None)
def arccos_kernel_derived_theta(n_: int) -> sp.Expr:
    """k_n(theta) by direct integration (our derivation, as for :func:`overlap_derived_theta`): in the plane of
    x = e_1 and y = cos(theta) e_1 + sin(theta) e_2, with w = rho (cos phi, sin phi):
    sigma_n(w.x) sigma_n(w.y) = rho^{2n} cos^n(phi) cos^n(phi - theta) on theta - pi/2 < phi < pi/2, and the
    radial integral int_0^oo rho^{2n+1} e^{-rho^2/2} drho / (2 pi) = 2^n n! / (2 pi)."""
    rho, phi = sp.symbols("rho phi", positive=True)
    radial = sp.integrate(rho ** (2 * n_ + 1) * sp.exp(-rho ** 2 / 2), (rho, 0, sp.oo)) / (2 * sp.pi)
    integrand = sp.expand_trig(sp.cos(phi) ** n_ * sp.cos(phi - theta) ** n_)
    angular = sp.integrate(integrand, (phi, theta - sp.pi / 2, sp.pi / 2))
    return sp.simplify(radial * angular)


def arccos_kernel_mp(n_: int):
    """An mpmath function u -> k_n(u) (lambdified from :func:`arccos_kernel`)."""
    return sp.lambdify(u, arccos_kernel(n_), modules="mpmath")


def arccos_kernel_value(n_: int, U: torch.Tensor) -> torch.Tensor:
    """k_n(u) elementwise on a tensor of cosines (clamped to [-1, 1]); degrees 0 and 1 written by hand
    (pinned to :func:`arccos_kernel` by tests/test_hermite.py), other degrees through lambdify."""
    U = U.clamp(-1.0, 1.0)
    if n_ == 0:
        return (math.pi - torch.arccos(U)) / (2 * math.pi)
    if n_ == 1:
        return (torch.sqrt(1 - U * U) + U * (math.pi - torch.arccos(U))) / (2 * math.pi)
    f = sp.lambdify(u, arccos_kernel(n_), modules="numpy")
    return torch.as_tensor(f(U.cpu().numpy()), dtype=U.dtype, device=U.device)


def _cosines(X: torch.Tensor, Y: torch.Tensor):
    nx, ny = X.norm(dim=-1), Y.norm(dim=-1)
    G = X @ Y.mT
    N = nx.unsqueeze(-1) * ny.unsqueeze(-2)
    return G, N, G / N


#: |u| above which the angle is recomputed from the unit vectors' difference (arccos loses digits there)
NEAR_PARALLEL = 1 - 1e-4


def _angles(X: torch.Tensor, Y: torch.Tensor):
    """(G, N, U, theta): the Gram matrix, the norms' products, the cosines and the angles theta_ij in [0, pi].

    arccos(u) is ill-conditioned near u = +-1 (d theta = du / sin theta): a cosine rounded to 1e-16 gives an angle off
    by 1e-8, so k_0 and H^inf lose 8 digits there (H^inf of [[2, 0], [1, 1]] had H_22 = 0.99999999329).  For the pairs
    with |u| > NEAR_PARALLEL the angle is recomputed by Kahan's well-conditioned form theta = 2 atan2(|a - b|, |a + b|)
    of the unit vectors a, b (exact to rounding at every angle); the other pairs keep arccos, accurate there."""
    G, N, U = _cosines(X, Y)
    U = U.clamp(-1.0, 1.0)
    theta = torch.arccos(U)
    near = U.abs() > NEAR_PARALLEL
    if bool(near.any()):
        idx = near.nonzero(as_tuple=True)
        bs = near.shape[:-2]   # the batch shape of the pairs (X and Y may be batched differently)
        a = X / X.norm(dim=-1, keepdim=True)
        b = Y / Y.norm(dim=-1, keepdim=True)
        a, b = a.expand(*bs, *a.shape[-2:]), b.expand(*bs, *b.shape[-2:])
        ai, bj = a[idx[:-2] + (idx[-2],)], b[idx[:-2] + (idx[-1],)]
        theta = theta.clone()
        theta[idx] = 2 * torch.atan2((ai - bj).norm(dim=-1), (ai + bj).norm(dim=-1))
    return G, N, U, theta


def arccos_kernel_of_angle(n_: int, theta: torch.Tensor, U: torch.Tensor | None = None) -> torch.Tensor:
    """k_n at the angle theta (the well-conditioned evaluation used by the Gram matrices): degrees 0 and 1 by hand,
    others through :func:`arccos_kernel_value` at cos theta."""
    if n_ == 0:
        return (math.pi - theta) / (2 * math.pi)
    if n_ == 1:
        c = torch.cos(theta) if U is None else U
        return (torch.sin(theta) + c * (math.pi - theta)) / (2 * math.pi)
    return arccos_kernel_value(n_, torch.cos(theta) if U is None else U)


def arccos_kernel_gram(n_: int, X: torch.Tensor, Y: torch.Tensor | None = None) -> torch.Tensor:
    """K_ij = E_w[sigma_n(w.x_i) sigma_n(w.y_j)] = |x_i|^n |y_j|^n k_n(u_ij), w ~ N(0, I_d):
    X (..., n, d), Y (..., m, d) (default X) -> (..., n, m)."""
    Y = X if Y is None else Y
    _, N, U, theta = _angles(X, Y)
    return N ** n_ * arccos_kernel_of_angle(n_, theta, U)


NTK_RELU_STATED = u * (sp.pi - sp.acos(u)) / (2 * sp.pi)
"""H^inf_ij on the unit sphere as 002 §6.1 states it (and Du et al. 2019, whose H^inf 000 §6 uses through
[31]), u = x_i.x_j: x_i.x_j (pi - arccos(x_i.x_j)) / (2 pi)."""


def ntk_relu_derived() -> sp.Expr:
    """u k_0(u) from :func:`arccos_kernel`: the expectation definition of H^inf on the sphere."""
    return sp.simplify(u * arccos_kernel(0))


def ntk_relu_gram(X: torch.Tensor, Y: torch.Tensor | None = None) -> torch.Tensor:
    """Infinite-width NTK Gram matrix of f(x) = (1/sqrt m) sum_r a_r relu(w_r.x), a_r = +-1 fixed,
    w_r ~ N(0, kappa^2 I) (any kappa: the indicators are scale invariant), gradient taken in W only:

        H^inf_ij = E_{w ~ N(0, I)}[x_i.y_j 1{w.x_i >= 0, w.y_j >= 0}] = x_i.y_j (pi - arccos u_ij) / (2 pi),

    u_ij = x_i.y_j / (|x_i||y_j|).  X (..., n, d), Y (..., m, d) (default X) -> (..., n, m).  This is the
    definition of 002 §6.1 (H^inf_P, H^inf_Q and, with Y = X_Q, the cross matrix H^inf_PQ) and of Du et al.
    (2019) used by 000 §6; on unit-norm inputs it equals :data:`NTK_RELU_STATED`.  It is the m -> oo limit of
    the finite-width Gram H(0)_ij = <df(x_i)/dW, df(y_j)/dW> = (1/m) sum_r x_i.y_j 1{w_r.x_i >= 0} 1{w_r.y_j >= 0}
    (numerics.two_layer.ntk_gram_mc).
    """
    Y = X if Y is None else Y
    G, _, U, theta = _angles(X, Y)
    return G * arccos_kernel_of_angle(0, theta)


def cosine_form_gram(f, X: torch.Tensor, Y: torch.Tensor | None = None) -> torch.Tensor:
    """The Gram matrix [f(u_ij)] of a kernel given as a function of the cosine u_ij = x_i.y_j/(|x_i||y_j|) (clamped to
    [-1, 1]), evaluated entry by entry as ``f({"u": u_ij})``: e.g. a claim's stated form of H^inf(u) read through
    :func:`verify.judge.stated.stated_value`, so that a check compares its Monte Carlo Gram with the stated closed form
    itself.  On unit inputs with f = :data:`NTK_RELU_STATED` it equals :func:`ntk_relu_gram` to rounding.
    X (n, d), Y (m, d) (default X) -> (n, m)."""
    Y = X if Y is None else Y
    _, _, U = _cosines(X, Y)
    U = U.clamp(-1.0, 1.0)
    vals = [float(f({"u": float(v)})) for v in U.reshape(-1).tolist()]
    return torch.tensor(vals, dtype=U.dtype).reshape(U.shape)
