"""Displayed lines of the proofs in App. B of 001_759117b8232d72ac.txt whose symbols contradict the lines around them
(issue 37: findings that lived only in the notes of confirmed claims).  Each is checked on a concrete instance: the
printed line against the one the lines around it give (the corrected line is checked too, ``refutes=False``).

- ``proof.thm3_7.eq117``   (117): e^{r^2/2} for e^{-r^2/2} (the integral diverges as printed)
- ``proof.thm3_9.eq143``   (143): the sum runs to n - d where I - P_row(X) has d - n dimensions (the text says d - n)
- ``proof.thm3_6.eq93``    (93): the cross term eps^T (X^+X) beta_t, a defined product only for n = d
- ``proof.thm3_5.ker``     the sentence before (90): the columns of W_1^perp (in R^d) 'are in ker(X^T)' (a subspace of
                           R^n); the complement of row(X) in R^d is ker(X)

The results these lines serve hold (their own claims, named in ``holds_by``): each is a proof-step slip.  The two
notation slips of App. C ((150)'s eigenvalue, (157)'s summation index) are in :mod:`verify.claims.tahir2024.appC`.
"""
from __future__ import annotations

import sympy as sp
import torch

from derivations import transfer as T
from numerics.sampling import gaussian_design
from verify.kit import Check, Claim, Constraint, Custom, Domain, Evidence, Kind, label_of, per_profile

from ..common import D, N, SIGMA, src
from .common import T_


# ============================================================================ (117)
_N117 = per_profile([{"n": m} for m in (3, 4, 5, 6)], [{"n": m} for m in range(3, 11)])


def _eq117(claim, ctx, points) -> Evidence:
    """sympy's exact integral of (117) at each integer n, with the printed weight e^{+r^2/2} and with e^{-r^2/2}, against
    (116)'s value 1/(n - 2) (the chain's own end, (120))."""
    printed, corrected = [], []
    for p in points:
        m = int(p["n"])
        printed.append((m, T.eq117_as_printed(+1, m)))
        corrected.append((m, T.eq117_as_printed(-1, m)))
    bad_p = [(m, str(v)) for m, v in printed if sp.simplify(v - sp.Rational(1, m - 2)) != 0]
    bad_c = [(m, str(v)) for m, v in corrected if sp.simplify(v - sp.Rational(1, m - 2)) != 0]
    ns = ", ".join(str(m) for m, _ in printed)
    return Evidence(checks=[
        Check("(117) as printed: S_{n-1}/(2 pi)^{n/2} int_0^oo r^{n-3} e^{+r^2/2} dr = E 1/||z||^2 = 1/(n-2)", not bad_p,
              f"the exact integral (computer algebra) at n = {ns}: " + ("all 1/(n-2)" if not bad_p else
                                                         f"{bad_p[0][1]} at n = {bad_p[0][0]} (the integrand grows "
                                                         "without bound)"),
              counterexample=None if not bad_p else {"n": bad_p[0][0], "printed (117)": bad_p[0][1],
                                                     "(116)": f"1/{bad_p[0][0] - 2}"}),
        Check("corrected (117): with the Gaussian weight e^{-r^2/2} of (116) the integral is 1/(n-2) (and (118) follows "
              "by t = r^2/2)", not bad_c, f"the exact integral at n = {ns}: " + ("all 1/(n-2)" if not bad_c else f"{bad_c[:2]}"),
              refutes=False)])


EQ117 = Claim(
    id=T_ + "proof.thm3_7.eq117", role="proof step", holds_by=(T_ + "thm3.7.chi2", T_ + "thm3.7"), repair="absorbed", kind=Kind.SYMBOLIC,
    source=src("Theorem 3.7 proof, App. B.6, eq. (117)"),
    statement=r"\mathbb{E}_z\frac{1}{\|z\|_2^2}=\frac{S_{n-1}}{(2\pi)^{n/2}}\int_0^\infty r^{n-3}e^{r^2/2}\,dr",
    assumptions="z ~ N(0, I_n), n > 2; (116) in polar coordinates, S_{n-1} = 2 pi^{n/2}/Gamma(n/2).",
    domain=Domain((N,), (Constraint(lambda p: p["n"] > 2, "n must exceed 2: E[1/chi^2_n] = 1/(n-2) diverges for n <= 2"),)),
    check=Custom(_eq117, points=_N117),
    corrected=r"\frac{S_{n-1}}{(2\pi)^{n/2}}\int_0^\infty r^{n-3}e^{-r^2/2}\,dr=\frac{1}{n-2}",
    notes=("The text prints (117) as 'S_{n-1}/(2 pi)^{n/2} int_0^oo r^{n-3} e^{r^2/2} dr' (the exponent has no minus "
           "sign; (116) above it has e^{-sum z_i^2/2}). As printed the integral diverges at every n; with e^{-r^2/2} "
           "it is 1/(n-2), and the substitution t = r^2/2 gives (118) only with the minus sign. A sign typo: the "
           "chain (116), (118)-(120) and E 1/||z||^2 = 1/(n-2) hold (tahir2024.thm3.7.chi2, tahir2024.thm3.7)."),
)


# ============================================================================ (143)
_POINTS_ND = per_profile([dict(n=5, d=12), dict(n=12, d=5), dict(n=8, d=8), dict(n=3, d=30)],
                         [dict(n=5, d=12), dict(n=12, d=5), dict(n=8, d=8), dict(n=3, d=30), dict(n=40, d=60),
                          dict(n=60, d=40)])


def _design(claim, ctx, p):
    gen, seed = ctx.generator(claim.id, label_of(p))
    return gaussian_design(1, int(p["n"]), int(p["d"]), gen, dtype=torch.float64)[0], seed


def _eq143(claim, ctx, points) -> Evidence:
    """The number of coordinates the sum of (143) must run over, the dimension of the range of I - P_row(X) (its trace,
    on a drawn Gaussian design), against the printed upper limit n - d and the text's d - n (0 when n >= d)."""
    ev, bad, rows = Evidence(), [], []
    for p in points:
        X, seed = _design(claim, ctx, p)
        ev.seeds.append(seed)
        n, d = int(p["n"]), int(p["d"])
        dim = round(float(torch.trace(torch.eye(d, dtype=X.dtype, device=X.device) - torch.linalg.pinv(X) @ X)))
        rows.append({"n": n, "d": d, "dim range(I - P_row(X))": dim, "printed n - d": n - d})
        if dim != max(n - d, 0):
            bad.append(rows[-1])
    ok_c = all(r["dim range(I - P_row(X))"] == max(r["d"] - r["n"], 0) for r in rows)
    ev.checks += [
        Check("(143) as printed: the sum over the coordinates of (I - P_row(X)) beta_s runs over k = 1..n - d", not bad,
              "dimension of the range of I - P_row(X) on a drawn design: "
              + "; ".join(f"n = {r['n']}, d = {r['d']}: {r['dim range(I - P_row(X))']} (printed {r['printed n - d']})"
                          for r in rows),
              counterexample=bad[0] if bad else None),
        Check("corrected (143): k = 1..d - n (the text's 'the first d - n coordinates'; no term when n >= d)", ok_c,
              "the dimension is max(d - n, 0) at every point" if ok_c else "it is not", refutes=False)]
    ev.details["dimensions"] = rows
    return ev


EQ143 = Claim(
    id=T_ + "proof.thm3_9.eq143", role="proof step", holds_by=(T_ + "thm3.9.eq143",), repair="absorbed", kind=Kind.EXACT,
    source=src("Theorem 3.9 proof, App. B.8, eq. (143)"),
    statement=r"\mathbb E\langle\nu,(I-P_{row(X)})\beta_s\rangle=\sum_{k=1}^{n-d}\nu_k\,\mathbb E(\beta_s)_k",
    assumptions="X (n x d) with i.i.d. N(0, 1) entries (rank min(n, d) almost surely); the basis is rotated so that "
                "the range of I - P_row(X) is spanned by the first coordinates (the text: 'the projection to be along "
                "the first d - n coordinates of beta_s').",
    domain=Domain((N, D)),
    check=Custom(_eq143, points=_POINTS_ND),
    corrected=r"\sum_{k=1}^{d-n}\nu_k\,\mathbb E(\beta_s)_k\quad(n<d;\ \text{no term for }n\ge d)",
    notes=("The sentence before (143) takes 'the projection to be along the first d - n coordinates of beta_s', and "
           "the range of I - P_row(X) has dimension d - n for n < d (0 for n >= d); (143)'s sum is printed "
           "'sum_{k=1}^{n-d}', an empty range for n < d. The value (144), 0, is unaffected (every term has "
           "E(beta_s)_k = 0), so this is a transposed difference in an index bound: tahir2024.thm3.9.eq143 "
           "confirms (143)-(144)'s value."),
)


# ============================================================================ (93)
def _eq93(claim, ctx, points) -> Evidence:
    """The cross term of (93): eps (n entries) against X^+X (d x d) is a defined product only for n = d; the corrected
    term 2 eps^T (X^+)^T (X^+X) beta_t completes the per-draw expansion of ||beta_hat||^2."""
    ev, bad, worst = Evidence(), [], 0.0
    for p in points:
        n, d, s = int(p["n"]), int(p["d"]), float(p["sigma"])
        gen, seed = ctx.generator(claim.id, label_of(p))
        ev.seeds.append(seed)
        X = gaussian_design(1, n, d, gen, dtype=torch.float64)[0]
        bt = torch.randn(d, generator=gen, dtype=torch.float64, device=gen.device)
        bt = bt / bt.norm()
        eps = s * torch.randn(n, generator=gen, dtype=torch.float64, device=gen.device)
        Xp = torch.linalg.pinv(X)
        P = Xp @ X
        if eps.shape[0] != P.shape[0]:          # eps^T (X^+X): (n) x (d x d)
            bad.append({"n": n, "d": d, "eps": f"R^{n}", "X^+X": f"{d} x {d}"})
        bh = Xp @ (X @ bt + eps)
        full = (P @ bt).square().sum() + (Xp @ eps).square().sum() + 2 * (Xp @ eps) @ (P @ bt)
        worst = max(worst, float((bh.square().sum() - full).abs() / (bh.square().sum() + full + 1e-300)))
    ev.checks += [
        Check("(93) as printed: the cross term 2 E eps^T (X^+X) beta_t is a defined product (eps in R^n, X^+X is d×d)",
              not bad, ("defined at every point (n = d)" if not bad else
                        f"undefined at {len(bad)} of {len(points)} points (n != d), e.g. n = {bad[0]['n']}, "
                        f"d = {bad[0]['d']}"), counterexample=bad[0] if bad else None),
        Check("corrected (93): ||beta_hat||^2 = b^T (X^+X)^T (X^+X) b + e^T (X^+)^T X^+ e + 2 e^T (X^+)^T (X^+X) b per "
              "draw", worst < 1e-9, f"largest relative difference {worst:.3g} over {len(points)} drawn instances",
              refutes=False)]
    return ev


EQ93 = Claim(
    id=T_ + "proof.thm3_6.eq93", role="proof step", holds_by=(T_ + "thm3.6.finite", T_ + "thm3.6.asymptotic"), repair="absorbed",
    kind=Kind.EXACT,
    source=src("Theorem 3.6 proof, App. B.5, eq. (93)"),
    statement=(r"\mathbb E\|\hat\beta\|^2=\mathbb E\beta_t^T(X^+X)^T(X^+X)\beta_t+\mathbb E\epsilon^T(X^+)^TX^+\epsilon"
               r"+2\,\mathbb E\epsilon^T(X^+X)\beta_t"),
    assumptions="Assumption 3.1; beta_hat = X^+ y = X^+ X beta_t + X^+ eps (Theorem 3.5); eps in R^n, X in R^{n x d}.",
    domain=Domain((N, D, SIGMA)),
    check=Custom(_eq93, points={k: [dict(p, sigma=s) for p in v for s in (0.0, 0.5, 2.0)] for k, v in _POINTS_ND.items()}),
    corrected=r"2\,\mathbb E\epsilon^T(X^+)^T(X^+X)\beta_t",
    notes=("The cross term of (93) is printed '2 E eps^T (X^+X) beta_t': eps has n entries and X^+X is d x d, so the "
           "product is defined only when n = d (the theorem is about every n, d). Expanding ||X^+X beta_t + X^+ eps||^2 "
           "gives 2 eps^T (X^+)^T (X^+X) beta_t (= 2 eps^T (X^+)^T beta_t), checked per draw. A missing (X^+)^T: its "
           "expectation is 0 either way (eps is independent of X with mean 0), so (95) and Theorem 3.6 are unaffected "
           "(tahir2024.thm3.6.finite, tahir2024.thm3.6.asymptotic); tahir2024.proof.thm3_6.eq91_98 checks the rest of "
           "the chain with the corrected term."),
)


# ============================================================================ the line before (90)
def _ker(claim, ctx, points) -> Evidence:
    """The columns of W_1^perp = (I - X^+X) W_1 live in R^d: membership in ker(X^T) (a subspace of R^n) is defined only
    for n = d; they lie in ker(X) (X c = 0), checked on a drawn design and a drawn W_1."""
    ev, bad, worst = Evidence(), [], 0.0
    for p in points:
        X, seed = _design(claim, ctx, p)
        ev.seeds.append(seed)
        n, d = X.shape
        gen, _ = ctx.generator(claim.id, "W1", label_of(p))
        W1 = torch.randn(d, d, generator=gen, dtype=torch.float64, device=gen.device)
        Wp = (torch.eye(d, dtype=X.dtype, device=X.device) - torch.linalg.pinv(X) @ X) @ W1
        if Wp.shape[0] != X.shape[0]:           # X^T c needs c in R^n; the columns c of W_1^perp are in R^d
            bad.append({"n": n, "d": d, "columns of W_1^perp": f"R^{d}", "ker(X^T)": f"subspace of R^{n}"})
        worst = max(worst, float((X @ Wp).norm() / (W1.norm() * X.norm())))
    ev.checks += [
        Check("as printed: the columns of W_1^perp (in R^d) are in ker(X^T) (a subspace of R^n)", not bad,
              ("defined at every point (n = d)" if not bad else
               f"undefined at {len(bad)} of {len(points)} points (n != d), e.g. n = {bad[0]['n']}, d = {bad[0]['d']}"),
              counterexample=bad[0] if bad else None),
        Check("corrected: the columns of W_1^perp = (I - X^+X) W_1 are in ker(X) (X W_1^perp = 0)", worst < 1e-12,
              f"largest ||X W_1^perp|| / (||X|| ||W_1||) = {worst:.3g}", refutes=False)]
    return ev


KER = Claim(
    id=T_ + "proof.thm3_5.ker", role="proof step", holds_by=(T_ + "thm3.5",), repair="absorbed", kind=Kind.EXACT,
    source=src("Theorem 3.5 proof, App. B.4, the sentence before eq. (90)"),
    statement=(r"W_1=W_1^\parallel+W_1^\perp,\ \text{columns of }W_1^\parallel\in row(X),\ \text{columns of }W_1^\perp"
               r"\in\ker(X^T)"),
    assumptions="X in R^{n x d} (rank min(n, d)), W_1 in R^{d x d}; row(X) is a subspace of R^d.",
    domain=Domain((N, D)),
    check=Custom(_ker, points=_POINTS_ND),
    corrected=r"\text{columns of }W_1^\perp\in\ker(X)=row(X)^\perp\subset\mathbb R^d",
    notes=("The text: 'We can break W_1 into two components W_1^par and W_1^perp where the columns of W_1^par are in "
           "row(X) and the columns of W_1^perp are in ker(X^T)'. The columns of W_1 are in R^d, where the complement "
           "of row(X) is ker(X); ker(X^T) is a subspace of R^n (used correctly for the residual r earlier in the same "
           "proof). A transposed symbol: the argument of (90) (the gradient of (5) in W_1 has its columns in row(X), "
           "so W_1^perp does not move) holds with ker(X), tahir2024.proof.thm3_5.eq90."),
)


CLAIMS = [EQ117, EQ143, EQ93, KER]
