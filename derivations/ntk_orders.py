"""Orders of the two-layer NTK bounds: each displayed order of 002 App. C.1 against what it is derived from.

Order bookkeeping of 002 App. C.1 (Liu, Long, Wang, Jordan), in sympy: each displayed order against the
expression the text derives it from, with the ingredients the text names.

A stated order "A = O(B)" hides constants that do not depend on the problem variables n_P, n_Q, m, kappa, delta,
lambda_P (the theorems' poly(n_P, n_Q, 1/delta, 1/lambda_P, 1/kappa) treats all of them as variables).  A step
"X <= ... = O(B)" follows when X/B is bounded in the regime m, n_P, n_Q -> oo and kappa, delta, lambda_P -> 0 (or
fixed): for a monomial ratio prod v^e, when every e of m, n_P, n_Q is <= 0 and every e of kappa, delta, lambda_P is
>= 0.  :func:`order_gap` returns the offending exponents (empty: the step follows).

| eq. | stated | from (as the text derives it) | X / stated |
|---|---|---|---|
| (11) | n_P^2 n_Q/(sqrt m lambda_P kappa delta^(3/2)) | (n_P n_Q/delta) 2R/sqrt(2 pi kappa), R of (9), ||y_P - u(0)|| = O(n_P/delta) | ~ sqrt(n_P/(delta kappa)) |
| (17) | 8 sqrt(m n_P) Y/(sqrt(2 pi kappa lambda_P) delta) | 2 m n_P R/(sqrt(2 pi kappa) delta), R of (16) | n_P (an equality) |
| (20) | n_P^2 n_Q^(1/2)/sqrt(m lambda_P^2 delta^2 kappa) | (sqrt n_Q/sqrt m) |S_i| ||w_r(P) - w_r(0)||, (17), Lemma 1 | ~ n_P/(delta^2 sqrt lambda_P) |
| (22) | n_P^4 n_Q/(m lambda_P^4 delta^4 kappa^2) | the square of the same | ~ n_P^2 kappa lambda_P/delta^2 |

Lemma 5 (App. C.2.1): sum_i |S-bar_i| <= C m n_Q R/delta, R = c lambda_Q/n_Q^2, "for some positive constant C".  The
exact mean of the left side is m n_Q erf(R/(sqrt 2 kappa)) (:data:`LEMMA5_MEAN`, unit inputs), so the C one draw needs
concentrates at delta erf(R/(sqrt 2 kappa))/R (:data:`LEMMA5_C_NEEDED`), which tends to delta/R = delta n_Q^2/(c lambda_Q)
as kappa -> 0: no C free of n_Q and kappa exists; Markov gives C = 2/(sqrt(2 pi) kappa) (:data:`LEMMA5_MARKOV`).
"""
from __future__ import annotations

import sympy as sp

n_P, n_Q, m, kappa, delta, lam_P, c = sp.symbols("n_P n_Q m kappa delta lambda_P c", positive=True)
#: Y = ||y_P - u_P(0)||_2
Y = sp.Symbol("Y", positive=True)
GROWING = (m, n_P, n_Q)          # -> oo
SHRINKING = (kappa, delta, lam_P)  # -> 0 (or fixed)

#: ||y_P - u_P(0)||_2 as the text states it before (11), and as Du et al.'s Markov bound gives it
Y_TEXT = n_P / delta
Y_DU = sp.sqrt(n_P / delta)

R_EQ9 = c * sp.sqrt(n_P) * Y / (sp.sqrt(m) * lam_P * kappa)        # (9): lambda_{P kappa} read as lambda_P kappa
R_EQ16 = 4 * sp.sqrt(n_P) * Y / sp.sqrt(m * lam_P)                  # (16), as printed: sqrt(m lambda_P)
R_LEMMA1 = 4 * sp.sqrt(n_P) * Y / (sp.sqrt(m) * lam_P)              # (7)
BALL_STATED = lambda R: 2 * R / sp.sqrt(2 * sp.pi * kappa)          # noqa: E731  (10), (17) as printed
BALL_CORRECT = lambda R: 2 * R / (sp.sqrt(2 * sp.pi) * kappa)       # noqa: E731  density of N(0, kappa^2) at 0


def eq11_middle(Yv=Y_TEXT, R=R_EQ9, ball=BALL_STATED):
    """(n_P n_Q/delta)(2R/sqrt(2 pi kappa) + delta/m) of (11), with ||y_P - u(0)|| = Yv."""
    return (n_P * n_Q / delta) * (ball(R) + delta / m).subs(Y, Yv)


EQ11_STATED = n_P**2 * n_Q / (sp.sqrt(m) * lam_P * kappa * delta**sp.Rational(3, 2))

EQ17_LEFT = 2 * m * n_P * R_EQ16 / (sp.sqrt(2 * sp.pi * kappa) * delta)
EQ17_RIGHT = 8 * sp.sqrt(m * n_P) * Y / (sp.sqrt(2 * sp.pi * kappa * lam_P) * delta)
#: Markov on one |S_i| = #{r : |w_r(0).x_i| <= R}, E|S_i| = m P(|N(0, kappa^2)| <= R) <= m 2R/sqrt(2 pi kappa)
EQ17_MARKOV = m * BALL_STATED(R_EQ16) / delta


def eq20_derived(Yv=Y_TEXT):
    """(sqrt n_Q/sqrt m) |S_i| max_r ||w_r(P) - w_r(0)|| with |S_i| of (17) (its right side) and Lemma 1's radius."""
    return (sp.sqrt(n_Q) / sp.sqrt(m) * EQ17_RIGHT * R_LEMMA1).subs(Y, Yv)


EQ20_STATED = n_P**2 * sp.sqrt(n_Q) / sp.sqrt(m * lam_P**2 * delta**2 * kappa)
EQ22_STATED = n_P**4 * n_Q / (m * lam_P**4 * delta**4 * kappa**2)


# ----------------------------------------------------------------------------- Lemma 5
lam_Q, C = sp.symbols("lambda_Q C", positive=True)
R_LEMMA5 = c * lam_Q / n_Q**2
LEMMA5_STATED = C * m * n_Q * R_LEMMA5 / delta
#: E sum_i |S-bar_i| = m n_Q P(|N(0, kappa^2)| <= R) for unit x_{Q,i} (w_r(0).x ~ N(0, kappa^2))
LEMMA5_MEAN = m * n_Q * sp.erf(R_LEMMA5 / (sp.sqrt(2) * kappa))
#: the constant C at which the stated bound equals the mean: delta erf(R/(sqrt 2 kappa))/R
LEMMA5_C_NEEDED = sp.simplify(LEMMA5_MEAN / (LEMMA5_STATED / C))
#: Markov's constant with the N(0, kappa^2) density at 0 (P(|N(0, kappa^2)| <= R) <= 2R/(sqrt(2 pi) kappa))
LEMMA5_MARKOV = 2 / (sp.sqrt(2 * sp.pi) * kappa)


def order_gap(derived, stated) -> dict:
    """Exponents of the monomial derived/stated that make it unbounded in the regime (empty: derived = O(stated));
    the dominant monomial is taken for a sum (largest exponents in m^-1 ... : the caller passes single terms)."""
    ratio = sp.powsimp(sp.simplify(derived / stated), force=True)
    bad = {}
    for v in GROWING:
        e = sp.simplify(sp.diff(sp.log(ratio), v) * v)
        if e.free_symbols or e > 0:
            bad[str(v)] = e
    for v in SHRINKING:
        e = sp.simplify(sp.diff(sp.log(ratio), v) * v)
        if e.free_symbols or e < 0:
            bad[str(v)] = e
    return bad


def ratio(derived, stated):
    return sp.simplify(derived / stated)


# ----------------------------------------------------------------------------- Lemmas 1 and 4 (the stated radii)
#: Y_Q = ||y_Q - u_Q(P)||_2 (the fine-tuning residual at the start of fine-tuning)
Y_Q = sp.Symbol("Y_Q", positive=True)


def lemma1_stated() -> sp.Expr:
    """Lemma 1, eq. (7): max_{r,k} ||w_{P,r}(k) - w_r(0)||_2 <= 4 sqrt(n_P) ||y_P - u_P(0)||_2/(sqrt(m) lambda_P)
    (Y = ||y_P - u_P(0)||_2; the same as :data:`R_LEMMA1`)."""
    return R_LEMMA1


def lemma4_stated() -> sp.Expr:
    """Lemma 4, eq. (33): max_{r,k} ||w_{Q,r}(k) - w_r(0)||_2 <= 4 sqrt(n_P)||y_P - u_P(0)||_2/(sqrt(m) lambda_P)
    + 4 sqrt(n_Q)||y_Q - u_Q(P)||_2/(sqrt(m) lambda_Q) (Y, Y_Q the two residual norms)."""
    return R_LEMMA1 + 4 * sp.sqrt(n_Q) * Y_Q / (sp.sqrt(m) * lam_Q)


# ----------------------------------------------------------------------------- Theorem 3
eta, k_step = sp.symbols("eta k", positive=True)


def thm3_stated() -> sp.Expr:
    """Theorem 3, eq. (32): ||u_Q(k) - y_Q||_2^2 <= (1 - eta lambda_Q/2)^k ||u_Q(P) - y_Q||_2^2, k = 0, 1, 2, ...
    (Y_Q = ||y_Q - u_Q(P)||_2)."""
    return (1 - eta * lam_Q / 2) ** k_step * Y_Q ** 2


# ----------------------------------------------------------------------------- Lemma 3 (8) and eq. (6): stated orders
def lemma3_stated() -> sp.Expr:
    """Lemma 3, eq. (8): ||H_PQ(P) - H^inf_PQ||_F <= O(n_P^2 n_Q/(sqrt m lambda_P kappa delta^(3/2))) (the order of
    (11), :data:`EQ11_STATED`)."""
    return EQ11_STATED


def eq6_second_term() -> sp.Expr:
    """The second term of eq. (6), n_P^2/(m^(1/4) lambda_P^(3/2) kappa^(1/2) delta)."""
    return n_P**2 / (m**sp.Rational(1, 4) * lam_P**sp.Rational(3, 2) * sp.sqrt(kappa) * delta)


def eq6_stated() -> sp.Expr:
    """Eq. (6): ||epsilon||_2 = O(n_P kappa/(lambda_P delta)) + O(n_P^2/(m^(1/4) lambda_P^(3/2) kappa^(1/2) delta))."""
    return n_P * kappa / (lam_P * delta) + eq6_second_term()


# ----------------------------------------------------------------------------- Lemma 6
#: which of Lemma 6's two norms a value is for (0: ||Z_Q(0) - Z_Q(k)||_F, 1: ||H_Q(0) - H_Q(k)||_F)
which = sp.Symbol("which", integer=True, nonnegative=True)
LEMMA6_Z = n_P**sp.Rational(3, 2) * n_Q**sp.Rational(5, 4) / sp.sqrt(
    sp.sqrt(m) * lam_P**2 * lam_Q * kappa**2 * delta**sp.Rational(3, 2))
LEMMA6_H = n_P**3 * n_Q**sp.Rational(7, 2) / (sp.sqrt(m) * lam_P**2 * lam_Q * kappa**2 * delta**sp.Rational(3, 2))


def lemma6_stated() -> sp.Expr:
    """Lemma 6: ||Z_Q(0) - Z_Q(k)||_F = O(n_P^(3/2) n_Q^(5/4)/sqrt(m^(1/2) lambda_P^2 lambda_Q kappa^2 delta^(3/2)))
    (which = 0) and ||H_Q(0) - H_Q(k)||_F = O(n_P^3 n_Q^(7/2)/(sqrt m lambda_P^2 lambda_Q kappa^2 delta^(3/2)))
    (which = 1): the two stated orders in one form, selected by ``which``."""
    return sp.Piecewise((LEMMA6_Z, sp.Eq(which, 0)), (LEMMA6_H, True))


# ----------------------------------------------------------------------------- Theorems 1 and 2 (the limit forms)
#: G_0 = ||dL(W(0))/dX^1||^2; yTy = y_Q^T y_Q; rTr = (y_Q - y_{P->Q})^T (y_Q - y_{P->Q});
#: rHr = (y_Q - y_{P->Q})^T H_Q^{inf -1} (y_Q - y_{P->Q})
G_0, yTy, rTr, rHr = sp.symbols("G_0 yTy rTr rHr", positive=True)


def thm1_stated() -> sp.Expr:
    """Theorem 1, eq. (1), without its vanishing remainders (poly(...)/m^(1/4) + O(kappa)):
    ||dL(W(P))/dX^1||^2 = ||dL(W(0))/dX^1||^2 - y_Q^T y_Q + (y_Q - y_{P->Q})^T (y_Q - y_{P->Q})."""
    return G_0 - yTy + rTr


def thm2_stated() -> sp.Expr:
    """Theorem 2, eq. (2), without its vanishing remainders: ||W(Q) - W(P)||_F <=
    sqrt((y_Q - y_{P->Q})^T H_Q^{inf -1} (y_Q - y_{P->Q}))."""
    return sp.sqrt(rHr)


# ----------------------------------------------------------------------------- App. A / App. B.3: the improvement column
#: test errors of training from scratch (Table 2) and of fine-tuning (Table 1)
e_scratch, e_finetuned = sp.symbols("e_scratch e_finetuned", positive=True)


def table2_improvement_stated() -> sp.Expr:
    """App. B.3: 'the decreased percentage is calculated by dividing the error reduced in fine-tuning with the error
    of training from scratch' (as a fraction; Table 2 prints it in percent)."""
    return (e_scratch - e_finetuned) / e_scratch


def appA_improvement_stated() -> sp.Expr:
    """App. A: 'the improvement of fine-tuning is calculated with the generalization error of fine-tuning divided by
    the generalization error of training from scratch' (as a fraction)."""
    return e_finetuned / e_scratch


# ----------------------------------------------------------------------------- §6.3: training from scratch
#: yHy = y^T H^{inf -1} y (the data set's labels and its NTK Gram)
yHy = sp.Symbol("yHy", positive=True)


def scratch_stated() -> sp.Expr:
    """§6.3: 'when training on the target dataset from scratch, the upper bound of ||W(Q) - W(0)||_F is
    y_Q^T H_Q^-1 y_Q' (as printed: no square root)."""
    return yHy


# ----------------------------------------------------------------------------- eq. (12): Hoeffding for H_PQ(0)
def eq12_stated() -> sp.Expr:
    """Eq. (12): with probability >= 1 - delta, ||H^inf_PQ - H_PQ(0)||_F <= n_P n_Q log(2 n_P n_Q/delta)/(2m)
    (as printed: no square root)."""
    return n_P * n_Q * sp.log(2 * n_P * n_Q / delta) / (2 * m)


# ----------------------------------------------------------------------------- proof of Lemma 4: the outputs at W(0)
def u0_stated() -> sp.Expr:
    """Proof of Lemma 4: ||y_Q - u_Q(0)||_2 = O(kappa sqrt(n_Q)/sqrt(delta))."""
    return kappa * sp.sqrt(n_Q) / sp.sqrt(delta)


# ----------------------------------------------------------------------------- eq. (10): the small-ball bound
R_ball = sp.Symbol("R", positive=True)


def eq10_stated() -> sp.Expr:
    """The bound of eqs. (10)/(17) on P(|N(0, kappa^2)| <= R), as printed: 2R/sqrt(2 pi kappa)."""
    return BALL_STATED(R_ball)


def eq10_derived() -> sp.Expr:
    """The same bound with the density of N(0, kappa^2) at 0, 1/(sqrt(2 pi) kappa): 2R/(sqrt(2 pi) kappa) (ours)."""
    return BALL_CORRECT(R_ball)


# ----------------------------------------------------------------------------- corrected forms (ours, issue 22)
def eq12_derived() -> sp.Expr:
    """Eq. (12) with Hoeffding's square root: per entry (range |x^T y| <= 1) sqrt(log(2 n_P n_Q/delta)/(2m)) with a
    union bound over the n_P n_Q entries, so ||H^inf_PQ - H_PQ(0)||_F <= sqrt(n_P n_Q log(2 n_P n_Q/delta)/(2m))."""
    return sp.sqrt(eq12_stated())


def scratch_derived() -> sp.Expr:
    """§6.3's from-scratch bound with the square root of Theorem 2 (and Du et al. / Arora et al.): sqrt(y^T H^-1 y)."""
    return sp.sqrt(scratch_stated())


# ----------------------------------------------------------------------------- eqs. (23)-(31): the perturbation terms of (21)
# (issue 27) each term of (21) bounded by the product of the norms of its factors, with the bounds the text names
# before (22): ||Z_P(0)||_F <= sqrt(n_P), ||Z_Q(P)||_F <= sqrt(n_Q), ||H_P^inf^-1||_2 <= 1/lambda_P, ||y_P|| <= sqrt(n_P)
# (|y| <= 1), ||u_Q(0)|| = O(kappa sqrt(n_Q/delta)) (proof of Lemma 4, read as ||u_Q(0)||; liu2019.lemma4_proof.u0).
ZP_NORM, ZQ_NORM, HINV_NORM, YP_NORM = sp.sqrt(n_P), sp.sqrt(n_Q), 1 / lam_P, sp.sqrt(n_P)
#: ||eps'|| as (22) gives it: the square root of (22)
EPS_PRIME_22 = sp.sqrt(EQ22_STATED)
#: ||eps'|| as written inside (23): n_P^2 n_Q^(1/2)/(sqrt m lambda_P^2 delta kappa)
EPS_PRIME_23 = n_P**2 * sp.sqrt(n_Q) / (sp.sqrt(m) * lam_P**2 * delta * kappa)
U0_NORM = kappa * sp.sqrt(n_Q / delta)
#: the two terms of ||eps|| in (6)
EPS_6 = (n_P * kappa / (lam_P * delta), eq6_second_term())

EQ23_STATED = n_P**3 * n_Q / (sp.sqrt(m) * lam_P**2 * delta**2 * kappa)
#: eps'^T Z_Q(P)^T Z_P(0) H_P^-1 y_P <= ||eps'|| ||Z_Q|| ||Z_P|| ||H_P^-1|| ||y_P|| (the factors (23) writes)
EQ23_FACTORS = ZQ_NORM * ZP_NORM * HINV_NORM * YP_NORM
EQ23_CORRECTED = n_P**3 * n_Q / (sp.sqrt(m) * lam_P**3 * delta**2 * kappa)
EQ24_STATED = (n_P**3 * n_Q / (sp.sqrt(m) * lam_P**3 * delta**3),
               n_P**3 * n_Q / (m**sp.Rational(3, 4) * lam_P**sp.Rational(7, 2) * delta**3 * kappa**sp.Rational(3, 2)))
#: eps'^T Z_Q(P)^T eps <= ||eps'|| ||Z_Q|| ||eps||, term by term of (6)
EQ24_DERIVED = tuple(EPS_PRIME_22 * ZQ_NORM * e for e in EPS_6)
EQ24_CORRECTED_2 = n_P**4 * n_Q / (m**sp.Rational(3, 4) * lam_P**sp.Rational(7, 2) * delta**3 * kappa**sp.Rational(3, 2))
EQ25_STATED = n_P**5 * n_Q**2 / (m * lam_P**4 * kappa**2 * delta**3)
EQ25_DERIVED = (sp.sqrt(n_P) / lam_P * EQ11_STATED) ** 2
EQ26_STATED = (n_P**2 * kappa**2 / (lam_P**2 * delta**2), n_P**4 / (sp.sqrt(m) * lam_P**3 * kappa * delta**2))
EQ26_DERIVED = tuple(e**2 for e in EPS_6)
EQ27_STATED = (n_P**2 * sp.sqrt(n_Q) * kappa / (lam_P**2 * delta),
               n_P**3 * sp.sqrt(n_Q) / (m**sp.Rational(1, 4) * lam_P**sp.Rational(5, 2) * sp.sqrt(kappa) * delta))
EQ27_DERIVED = tuple(e * ZQ_NORM * ZP_NORM * HINV_NORM * YP_NORM for e in EPS_6)
EQ28_STATED = n_P * n_Q * kappa / (lam_P * sp.sqrt(delta))
EQ28_DERIVED = U0_NORM * ZQ_NORM * ZP_NORM * HINV_NORM * YP_NORM
EQ29_STATED = (n_P * n_Q * kappa**2 / (lam_P * delta**sp.Rational(3, 2)),
               n_P**2 * n_Q / (m**sp.Rational(1, 4) * lam_P**sp.Rational(3, 2) * sp.sqrt(kappa) * delta**sp.Rational(3, 2)))
EQ29_DERIVED = tuple(U0_NORM * ZQ_NORM * e for e in EPS_6)
EQ30_STATED = n_P**2 * n_Q / (sp.sqrt(m) * lam_P**2 * delta**sp.Rational(5, 2))
EQ30_DERIVED = U0_NORM * EPS_PRIME_22
EQ31_STATED = n_P**sp.Rational(5, 2) * n_Q**sp.Rational(3, 2) / (sp.sqrt(m) * lam_P**2 * kappa * delta**sp.Rational(3, 2))
#: y_Q^T (Z_Q^T Z_P - H_PQ^T) H_P^-1 y_P <= ||y_Q|| ||.||_F (Lemma 3) ||H_P^-1|| ||y_P||
EQ31_DERIVED = sp.sqrt(n_Q) * EQ11_STATED * HINV_NORM * YP_NORM


# ----------------------------------------------------------------------------- eq. (45) -> Theorem 2 (2): the square root
#: A = (y_Q - y_{P->Q})^T H_Q^-1 (y_Q - y_{P->Q}) >= 0; b = the kappa term and c = the m term of (45) (c = p m^(-1/4)
#: with p the poly(...) coefficient)
A_q = sp.Symbol("A", nonnegative=True)
p_poly = sp.Symbol("p", positive=True)
EQ45_KAPPA = n_P**2 * n_Q * kappa / (lam_P**2 * lam_Q**2 * delta)
THM2_KAPPA = n_P * sp.sqrt(n_Q) * sp.sqrt(kappa) / (lam_P * lam_Q * sp.sqrt(delta))


def eq45_sqrt_excess(a=A_q):
    """sqrt(A + p m^(-1/4)) - sqrt(A): what the m-term of (45) adds to ||W_Q(K) - W(P)||_F (the kappa term aside)."""
    return sp.sqrt(a + p_poly * m**sp.Rational(-1, 4)) - sp.sqrt(a)


# ----------------------------------------------------------------------------- eqs. (38), (41): the recursion's remainders
#: (36)'s orders: eta ||H_Q(0) - H_Q(k)||_F (Lemma 6) times ||u_Q(P) - y_Q|| = O(n_P sqrt(n_Q)/lambda_P)
ZETA_ORDER = eta * LEMMA6_H * n_P * sp.sqrt(n_Q) / lam_P
#: (38): max_k k (1 - eta lambda_Q/4)^(k-1) = O(1/(eta lambda_Q)) times (36)'s orders
EQ38_DERIVED = ZETA_ORDER / (eta * lam_Q)
EQ38_STATED = n_P**4 * n_Q**4 / (sp.sqrt(m) * lam_P**3 * lam_Q**2 * kappa**2 * delta**sp.Rational(3, 2))
#: (41): eta sqrt(n_Q) (||Z_Q(k)|| <= sqrt(n_Q)) times sum_k k (1 - eta lambda_Q/4)^(k-1) = O(1/(eta lambda_Q)^2)
#: times (36)'s orders
EQ41_DERIVED = eta * sp.sqrt(n_Q) * ZETA_ORDER / (eta * lam_Q) ** 2
EQ41_STATED = n_P**4 * n_Q**sp.Rational(9, 2) / (sp.sqrt(m) * lam_P**3 * lam_Q**3 * kappa**2 * delta**sp.Rational(3, 2))


# ----------------------------------------------------------------------------- eqs. (43), (44): ||eps_4||
#: (43): Lemma 3's order times ||H_P^-1 y_P|| <= sqrt(n_P)/lambda_P
EQ43_DERIVED = EQ11_STATED * sp.sqrt(n_P) / lam_P
EQ43_STATED = n_P**sp.Rational(5, 2) * n_Q / (sp.sqrt(m) * lam_P**2 * kappa * delta**sp.Rational(3, 2))
#: (44), its five terms as printed and as multiplied out: (43); ||Z_Q(0)^T eps|| <= sqrt(n_Q) ||eps|| with (6) (two
#: terms); ||eps'|| = O(sqrt((22))); ||u_Q(0)|| = O(kappa sqrt(n_Q/delta))
EQ44_TERMS_STATED = (EQ43_STATED, n_P * sp.sqrt(n_Q) * kappa / (lam_P * delta),
                     n_P**2 * sp.sqrt(n_Q) / (m**sp.Rational(1, 4) * lam_P**sp.Rational(3, 2) * sp.sqrt(kappa) * delta),
                     n_P**2 * sp.sqrt(n_Q) / (sp.sqrt(m) * lam_P**2 * kappa * delta**2),
                     sp.sqrt(n_Q) * kappa / sp.sqrt(delta))
EQ44_TERMS_DERIVED = (EQ43_DERIVED, ZQ_NORM * EPS_6[0], ZQ_NORM * EPS_6[1], EPS_PRIME_22, U0_NORM)
#: (44)'s last line: the m-term and the kappa-term it keeps
EQ44_FINAL = (n_P**2 * n_Q / (m**sp.Rational(1, 4) * lam_P**sp.Rational(3, 2) * sp.sqrt(kappa) * delta),
              n_P * sp.sqrt(n_Q * kappa) / (lam_P * delta))


# ----------------------------------------------------------------------------- eq. (40)
#: (40) as printed
EQ40_STATED = n_P**sp.Rational(5, 2) * n_Q**sp.Rational(3, 4) / sp.sqrt(
    sp.sqrt(m) * lam_P**4 * lam_Q**3 * kappa**2 * delta**sp.Rational(3, 2))
#: eta sum_k (1 - eta lambda_Q)^k <= 1/lambda_Q, times Lemma 6's ||Z_Q(k) - Z_Q(0)||_F, times ||y_Q - u_Q(P)|| =
#: O(n_P sqrt(n_Q)/lambda_P) (the residual order (36) uses)
EQ40_DERIVED = LEMMA6_Z / lam_Q * n_P * sp.sqrt(n_Q) / lam_P
EQ40_CORRECTED = n_P**sp.Rational(5, 2) * n_Q**sp.Rational(7, 4) / (
    m**sp.Rational(1, 4) * lam_P**2 * lam_Q**sp.Rational(3, 2) * kappa * delta**sp.Rational(3, 4))
