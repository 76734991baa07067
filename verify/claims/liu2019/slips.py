"""002 App. C, displayed steps whose symbols contradict the lines before them (issue 27): the index of the flipped
indicator in (9), the geometric sum of the proof of Lemma 4 (L438), and the power of (I - eta H_Q^inf) in the unrolled
recursion (37) (also written in (38) and (41)).  Each is checked on a concrete instance: the printed line against the
one the previous line gives."""
from __future__ import annotations

import math

import mpmath
import torch

from derivations import kernels as kn
import sympy as sp

from verify.kit import AllOf, Alternative, Check, Claim, Custom, Domain, Evidence, Identity, Kind

from .common import ROOT_EQ21, src


# ============================================================================ (9): the index of the flipped indicator
def _eq9(claim, ctx):
    # one unit (m = 1), d = 2: x_P,1 = (1, 0); x_Q,1 = (1, 0), x_Q,2 = (0.6, 0.8); w(0) = (1, 0), w(P) = (1, -1):
    # the unit flips on x_Q,2 (0.6 -> -0.2) and not on x_Q,1 (1 -> 1)
    # device: cpu (a fixed two-point construction read on the host)
    xP = torch.tensor([[1.0, 0.0]], dtype=torch.float64)  # device: cpu (fixed construction)
    xQ = torch.tensor([[1.0, 0.0], [0.6, 0.8]], dtype=torch.float64)  # device: cpu (fixed construction)
    w0, wP = torch.tensor([1.0, 0.0], dtype=torch.float64), torch.tensor([1.0, -1.0], dtype=torch.float64)  # device: cpu
    IP0 = (xP @ w0 >= 0).double()
    IQ0, IQP = (xQ @ w0 >= 0).double(), (xQ @ wP >= 0).double()
    i, j = 0, 1                                                     # H_PQ,ij with i = 1 (P), j = 2 (Q)
    left = float(abs(xP[i] @ xQ[j] * (IP0[i] * IQP[j] - IP0[i] * IQ0[j])))
    printed = float(IQP[i] != IQ0[i])                               # (1/m) sum_r I(I^Q_ri(P) != I^Q_ri(0)), m = 1
    corrected = float(IQP[j] != IQ0[j])
    return Evidence(checks=[
        Check("(9), second line: |H_PQ,ij(P) - H_PQ,ij(0)| <= (1/m) sum_r I(I^Q_ri(P) != I^Q_ri(0)) (index i, as printed)",
              left <= printed, f"m = 1, x_P,1 = (1, 0), x_Q,1 = (1, 0), x_Q,2 = (0.6, 0.8), w(0) = (1, 0), w(P) = (1, -1), "
              f"(i, j) = (1, 2): left {left:g}, printed right side {printed:g} (the unit flips on x_Q,2 only)",
              counterexample=None if left <= printed else {"left": left, "printed bound": printed, "i": 1, "j": 2}),
        Check("corrected: with the index j of the line before, I(I^Q_rj(P) != I^Q_rj(0))", left <= corrected,
              f"left {left:g} <= {corrected:g}", refutes=False)])


# ============================================================================ L438: the proof of Lemma 4
def _l438(claim, ctx):
    # eta sum_{k' >= 0} (1 - eta lambda_Q/2)^(k'/2) = eta/(1 - sqrt(1 - x)), x = eta lambda_Q/2, against 4/lambda_Q
    with mpmath.workdps(50):
        xs = [mpmath.mpf(k) / 64 for k in range(1, 129)]             # eta lambda_Q in (0, 2]
        ratio = [x / (4 * (1 - mpmath.sqrt(1 - x / 2))) for x in xs]  # (sum)/(4/lambda_Q)
        worst = max(ratio)
        eq = all(abs(r - 1) < mpmath.mpf(10) ** -30 for r in ratio)
        le = all(r <= 1 for r in ratio)
    # the third line: ||y_Q - u_Q(k')|| <= (1 - eta lambda_Q/2)^(k'/2) ||y_Q - u_Q(k')|| fails for k' >= 1 and a
    # nonzero residual (the factor is < 1); with ||y_Q - u_Q(P)|| it is Theorem 3
    q = 0.9
    return Evidence(checks=[
        Check("L438, last line: eta sum_{k'>=0} (1 - eta lambda_Q/2)^(k'/2) = 4/lambda_Q (the '=' as printed)", eq,
              f"(sum)/(4/lambda_Q) = eta lambda_Q/(4(1 - sqrt(1 - eta lambda_Q/2))) < 1 on eta lambda_Q in (0, 2] "
              f"(largest {float(worst):.6f}, -> 1 as eta lambda_Q -> 0): '<=', not '='",
              counterexample=None if eq else {"eta lambda_Q": 1, "ratio": float(ratio[63])}),
        Check("L438, third line: the residual under the decay factor is ||y_Q - u_Q(k')||, so the line reads "
              "||y_Q - u_Q(k')|| <= (1 - eta lambda_Q/2)^(k'/2) ||y_Q - u_Q(k')||", q ** 0.5 >= 1,
              f"for k' = 1 and eta lambda_Q/2 = 0.1 the factor is {q ** 0.5:.4f} < 1: false for every nonzero residual",
              counterexample={"k'": 1, "factor": q ** 0.5}),
        Check("corrected: with ||y_Q - u_Q(P)|| under the factor (Theorem 3) and '<=', eta sum (1 - eta lambda_Q/2)^(k'/2) "
              "<= 4/lambda_Q on (0, 2]", le, f"largest ratio {float(worst):.6f} <= 1 (mpmath, 128 points)",
              refutes=False)])


# ============================================================================ (37): the unrolled recursion
def _eq37(claim, ctx):
    gen, seed = ctx.generator(claim.id, "instance")
    n, K = 5, 12
    X = torch.randn(n, 8, generator=gen, dtype=torch.float64, device=gen.device)
    X = X / X.norm(dim=-1, keepdim=True)
    H = kn.ntk_relu_gram(X)
    eta = 1 / float(torch.linalg.eigvalsh(H)[-1])
    M = torch.eye(n, dtype=torch.float64, device=H.device) - eta * H
    r0 = torch.randn(n, generator=gen, dtype=torch.float64, device=gen.device)
    e = torch.randn(K, n, generator=gen, dtype=torch.float64, device=gen.device) * 0.1   # e(k) = zeta(k) + eps_3(k)
    r = r0.clone()
    for k in range(K):                                                # (35): r(k+1) = (I - eta H) r(k) + e(k)
        r = M @ r + e[k]
    Mp = torch.linalg.matrix_power
    printed = Mp(M, K) @ r0 + sum(Mp(M, K) @ e[K - 1 - t] for t in range(K))
    corrected = Mp(M, K) @ r0 + sum(Mp(M, t) @ e[K - 1 - t] for t in range(K))
    gp, gc = float((printed - r).norm() / r.norm()), float((corrected - r).norm() / r.norm())
    return Evidence(checks=[
        Check("(37): u_Q(k) - y_Q = (I - eta H)^k (u_Q(P) - y_Q) + sum_{t<k} (I - eta H)^k e(k-1-t) (power k inside the "
              "sum, as printed)", gp < 1e-10, f"unrolling (35) on H^inf of 5 drawn unit inputs in d = 8, eta = "
              f"1/lambda_max, k = {K}, Gaussian e(t): relative gap {gp:.3g}", counterexample=None if gp < 1e-10 else
              {"k": K, "relative gap": gp}),
        Check("corrected: power t inside the sum", gc < 1e-10, f"relative gap {gc:.3g}", refutes=False)],
        seeds=[seed])


# ============================================================================ (21): the expansion of ||dL/dX^1||^2
def _eq21(claim, ctx):
    gen, seed = ctx.generator(claim.id, "instance")
    g = lambda *shape: torch.randn(*shape, generator=gen, dtype=torch.float64, device=gen.device)   # noqa: E731
    nP, nQ, md = 3, 4, 12
    ZP, ZQ = g(md, nP) / 2, g(md, nQ) / 2                     # Z_P(0), Z_Q(P)
    M = g(nP, nP)
    HP = M @ M.T / nP + 0.5 * torch.eye(nP, dtype=torch.float64, device=M.device)
    HPQ = ZP.T @ ZQ + 0.1 * g(nP, nQ)                         # H_PQ^inf, near Z_P(0)^T Z_Q(P)
    yP, yQ, u0, eps, epsp = g(nP), g(nQ), 0.3 * g(nQ), 0.2 * g(md), 0.2 * g(nQ)
    hy = torch.linalg.solve(HP, yP)                          # H_P^-1 y_P
    A0, D, Bv = HPQ.T @ hy, (ZQ.T @ ZP - HPQ.T) @ hy, ZQ.T @ eps
    v = ZQ.T @ (ZP @ hy + eps) + epsp                        # (19) with Z_Q(P): u_Q(P) - u_Q(0)
    lhs = float((u0 + v - yQ).square().sum())                # ||u_Q(P) - y_Q||^2 (a^T a/m = 1)
    G0 = float((u0 - yQ).square().sum())
    printed = (G0 + float(A0 @ A0) - 2 * float(yQ @ A0) + float(epsp @ epsp) + 2 * float(epsp @ (ZQ.T @ ZP @ hy))
               + 2 * float(epsp @ Bv) + float(D @ D) + float(eps @ eps) + 2 * float(Bv @ (ZQ.T @ ZP @ hy))
               + float(u0 @ (ZQ.T @ ZP @ hy)) + float(u0 @ Bv) + float(u0 @ epsp) + 2 * float(yQ @ D))
    full = (G0 + float(A0 @ A0) - 2 * float(yQ @ A0) + float(epsp @ epsp) + 2 * float(epsp @ (ZQ.T @ ZP @ hy))
            + 2 * float(epsp @ Bv) + float(D @ D) + float(Bv @ Bv) + 2 * float(Bv @ (ZQ.T @ ZP @ hy))
            + 2 * float(u0 @ (ZQ.T @ ZP @ hy)) + 2 * float(u0 @ Bv) + 2 * float(u0 @ epsp) - 2 * float(yQ @ D)
            + 2 * float(A0 @ D) - 2 * float(yQ @ Bv) - 2 * float(yQ @ epsp))
    rel_p, rel_f = abs(printed - lhs) / abs(lhs), abs(full - lhs) / abs(lhs)
    return Evidence(checks=[
        Check("(21): ||u_Q(P) - y_Q||^2 equals the printed expansion (the 13 terms on its right side)", rel_p < 1e-10,
              f"one drawn instance (n_P = 3, n_Q = 4, md = 12; u_Q(P) - u_Q(0) from (19)): left {lhs:.6g}, printed "
              f"right side {printed:.6g} (relative gap {rel_p:.3g})",
              counterexample=None if rel_p < 1e-10 else {"left": lhs, "printed": printed}),
        Check("corrected: the full expansion (factor 2 on the u_Q(0) cross terms, ||Z_Q(P)^T eps||^2 for ||eps||^2, "
              "-2 y_Q^T(Z_Q^T Z_P - H_PQ^T)H_P^-1 y_P, and the missing 2 (H_PQ^T H_P^-1 y_P)^T D, -2 y_Q^T Z_Q(P)^T eps, "
              "-2 y_Q^T eps')", rel_f < 1e-10, f"relative gap {rel_f:.3g}", refutes=False)], seeds=[seed])


# ============================================================================ (4), (13), (14): the gradients
def _grads(claim, ctx):
    from numerics import two_layer as TL
    gen, seed = ctx.generator(claim.id, "network")
    m, d, n = 64, 5, 4
    W, a = TL.init(1, m, d, gen, kappa=0.5)
    W, a = W[0], a[0]
    X = torch.randn(n, d, generator=gen, dtype=torch.float64, device=gen.device)
    X = X / X.norm(dim=-1, keepdim=True)
    y = torch.rand(n, generator=gen, dtype=torch.float64, device=gen.device) * 2 - 1
    # (4): d L/d vec(W) = Z(k)(u - y), Z (md x n) with blocks I{w_r.x_j >= 0} a_r x_j/sqrt(m)   ((3))
    Wv = W.clone().requires_grad_(True)
    u = TL.forward(Wv[None], a[None], X)[0]
    L = 0.5 * (u - y).square().sum()
    (g,) = torch.autograd.grad(L, Wv)
    ind = (X @ W.T >= 0).double()                                      # (n, m)
    Z = (ind.T[:, None, :] * a[:, None, None] * X.T[None]).reshape(m * d, n) / math.sqrt(m)
    u0 = u.detach()
    gap4 = float((g.reshape(-1) - Z @ (u0 - y)).norm() / g.norm())
    # (13): dL/dX^1 = a (u - y)^T/sqrt(m), X^1 = relu(W X^T) the hidden activations (m x n); (14): its squared norm
    # = ||u - y||^2 (a^T a/m = 1)
    X1 = torch.relu(W @ X.T).requires_grad_(True)
    L1 = 0.5 * ((a @ X1) / math.sqrt(m) - y).square().sum()
    (g1,) = torch.autograd.grad(L1, X1)
    gap13 = float((g1 - torch.outer(a, u0 - y) / math.sqrt(m)).norm() / g1.norm())
    gap14 = abs(float(g1.square().sum()) - float((u0 - y).square().sum())) / float((u0 - y).square().sum())
    ok = max(gap4, gap13, gap14) < 1e-12
    return Evidence(checks=[
        Check("(4): dL/dvec(W) = Z(u - y) with Z of (3); (13): dL/dX^1 = a(u - y)^T/sqrt(m); (14): ||dL/dX^1||^2 = "
              "||u - y||^2", ok, f"autograd on a drawn network (m = 64, d = 5, n = 4, kappa = 0.5): relative gaps "
              f"{gap4:.2g}, {gap13:.2g}, {gap14:.2g}",
              counterexample=None if ok else {"gaps": [gap4, gap13, gap14]})], seeds=[seed])


def _grads_scaled(claim, ctx):
    """Power witness: (13) read without the 1/sqrt(m) (dL/dX^1 = a(u - y)^T)."""
    from numerics import two_layer as TL
    gen, seed = ctx.generator(claim.id, "network")
    m, d, n = 64, 5, 4
    W, a = TL.init(1, m, d, gen, kappa=0.5)
    W, a = W[0], a[0]
    X = torch.randn(n, d, generator=gen, dtype=torch.float64, device=gen.device)
    X = X / X.norm(dim=-1, keepdim=True)
    y = torch.rand(n, generator=gen, dtype=torch.float64, device=gen.device) * 2 - 1
    X1 = torch.relu(W @ X.T).requires_grad_(True)
    u = (a @ X1) / math.sqrt(m)
    (g1,) = torch.autograd.grad(0.5 * (u - y).square().sum(), X1)
    gap = float((g1 - torch.outer(a, u.detach() - y)).norm() / g1.norm())
    return Evidence(checks=[Check("(13) without 1/sqrt(m): dL/dX^1 = a(u - y)^T", gap < 1e-12, f"relative gap {gap:.3g}",
                                  counterexample=None if gap < 1e-12 else {"relative gap": gap})], seeds=[seed])


CLAIMS = [
    Claim(
        id="liu2019.eq4_13_14",
        kind=Kind.SYMBOLIC,
        source=src("eqs. (4), (13), (14) (App. C.1): the gradient step in vec form, the gradient w.r.t. the activations "
                   "and its squared norm"),
        statement=r"\mathrm{vec}(W(k+1))=\mathrm{vec}(W(k))-\eta Z(k)(u(k)-y),\ \ \frac{\partial L}{\partial X^1}="
                  r"\frac{a(u_Q-y_Q)}{\sqrt m},\ \ \Big\|\frac{\partial L}{\partial X^1}\Big\|^2=\|u_Q-y_Q\|^2",
        assumptions="L = (1/2)||u - y||^2, f(x) = (1/sqrt m) a^T relu(W^T x), a_r = +-1; Z as in (3); X^1 the hidden "
                    "activations on the target inputs",
        domain=Domain(()), role="proof step", holds_by=("liu2019.thm1",),
        notes="Autograd on one drawn network: the three identities hold to rounding.  (14)'s second line, the "
              "expansion of ||u_Q(0) - y_Q + (u_Q(P) - u_Q(0))||^2, is elementary; (21) repeats it (liu2019.eq21).",
        check=Custom(_grads),
        power=(Alternative("(13) without the 1/sqrt(m)",
                           Custom(lambda claim, ctx: _grads_scaled(claim, ctx)),
                           "a constant off (the NTK scaling dropped)"),),
    ),
    Claim(
        id="liu2019.eq21",
        kind=Kind.SYMBOLIC,
        source=src("eq. (21) (App. C.1, proof of Theorem 1, L384-L392): the expansion of ||dL/dX^1||^2"),
        statement=r"\Big\|\frac{\partial L}{\partial X^1}\Big\|^2=\Big\|\frac{\partial L_0}{\partial X^1}\Big\|^2+y_P^\top H_P^{-1}"
                  r"H_{PQ}H_{PQ}^\top H_P^{-1}y_P-2y_Q^\top H_{PQ}^\top H_P^{-1}y_P+\dots\ \text{(the 13 terms of (21))}",
        assumptions="(14) with a^T a/m = 1; u_Q(P) - u_Q(0) = Z_Q(P)^T(Z_P(0) H_P^-1 y_P + eps) + eps' ((19), with the "
                    "Z_Q(P) that (21) writes); 'eps^T Z_Q(P)^T' read as (Z_Q(P)^T eps)^T where the dimensions require it",
        domain=Domain(()), role="proof step", holds_by=("liu2019.thm1",), repair="weaker rate", root_cause=ROOT_EQ21,
        corrected=r"\text{the full expansion of }\|u_Q(0)-y_Q+v\|^2,\ v=H_{PQ}^\top H_P^{-1}y_P+D+Z_Q(P)^\top\epsilon+\epsilon'",
        notes="Expanding ||u_Q(0) - y_Q + v||^2 with v = H_PQ^T H_P^-1 y_P + D + Z_Q(P)^T eps + eps' (D = (Z_Q(P)^T Z_P(0) "
              "- H_PQ^T) H_P^-1 y_P) gives 16 terms; as printed (21) (i) has the three u_Q(0) cross terms without the "
              "factor 2 that the y_Q ones carry, (ii) writes ||eps||^2 where ||Z_Q(P)^T eps||^2 is meant, (iii) has "
              "+2 y_Q^T D where 2<v, u_Q(0) - y_Q> gives -2 y_Q^T D, and (iv) lacks 2 (H_PQ^T H_P^-1 y_P)^T D, "
              "-2 y_Q^T Z_Q(P)^T eps and -2 y_Q^T eps'.  Checked on one drawn instance of all the vectors and matrices: "
              "the printed sum differs from the left side, the full expansion equals it.  Orders of the missing terms "
              "with the bounds the proof uses next: 2 (H_PQ^T H_P^-1 y_P)^T D and -2 y_Q^T eps' are poly/sqrt(m) "
              "(Lemma 3, (22)); but -2 y_Q^T Z_Q(P)^T eps <= ||y_Q|| ||Z_Q(P)||_F ||eps|| = O(n_P n_Q kappa/(lambda_P "
              "delta)) + poly/m^(1/4) by (6), whose kappa part exceeds Theorem 1's kappa remainder O(n_P^2 n_Q^(1/2) "
              "kappa/(lambda_P^2 delta)) by n_Q^(1/2) lambda_P/n_P, unbounded as n_Q grows: with the full expansion "
              "the kappa remainder of (1) carries n_P n_Q kappa/(lambda_P delta) too (liu2019.eq21.kappa_term), so the "
              "repaired proof gives a weaker dependence on n_Q than (1) states.  "
              "Theorem 1 is confirmed on the literal networks (liu2019.thm1), which do not resolve its kappa remainder.",
        check=Custom(_eq21),
    ),
    Claim(
        id="liu2019.eq9",
        kind=Kind.SYMBOLIC,
        source=src("eq. (9) (App. C.1, proof of Lemma 3, L334), second line"),
        statement=r"|H_{PQ,ij}(P)-H_{PQ,ij}(0)|\le\frac1m\sum_{r=1}^m\mathbb I\big(\mathbb I^Q_{ri}(P)\ne\mathbb I^Q_{ri}(0)\big)",
        assumptions="the first line of (9): the difference is (x_P,i^T x_Q,j/m) sum_r I^P_ri(0)(I^Q_rj(P) - I^Q_rj(0))",
        domain=Domain(()), role="proof step", holds_by=("liu2019.lemma3",), repair="absorbed",
        corrected=r"\le\frac1m\sum_{r=1}^m\mathbb I\big(\mathbb I^Q_{rj}(P)\ne\mathbb I^Q_{rj}(0)\big)",
        notes="The first line of (9) differs in the indicator of x_Q,j; the second line bounds it by the flips of x_Q,i "
              "(and the third by |w_r(0)^T x_Q,i| <= R), a different target input.  One unit that flips on x_Q,2 and not "
              "on x_Q,1 gives a positive left side and a zero printed bound.  A slip of index: with j the line holds, "
              "and Lemma 3 (whose Frobenius norm sums over all (i, j)) is confirmed (liu2019.lemma3).",
        check=Custom(_eq9),
    ),
    Claim(
        id="liu2019.lemma4_proof.sum",
        kind=Kind.SYMBOLIC,
        source=src("proof of Lemma 4 (App. C.2.1, display L438)"),
        statement=r"\eta\sum_{k'=0}^\infty\frac{\sqrt{n_Q}(1-\frac{\eta\lambda_Q}2)^{k'/2}}{\sqrt m}\|y_Q-u_Q(k')\|_2"
                  r"=\frac{4\sqrt{n_Q}\|y_Q-u_Q(P)\|_2}{\sqrt m\lambda_Q}",
        assumptions="Theorem 3 (32): ||y_Q - u_Q(k)|| <= (1 - eta lambda_Q/2)^(k/2)||y_Q - u_Q(P)||; eta lambda_Q <= 2",
        domain=Domain(()), role="proof step", holds_by=("liu2019.lemma4",), repair="absorbed",
        corrected=r"\le\eta\sum_{k'\ge0}\frac{\sqrt{n_Q}(1-\frac{\eta\lambda_Q}2)^{k'/2}}{\sqrt m}\|y_Q-u_Q(P)\|_2\le"
                  r"\frac{4\sqrt{n_Q}\|y_Q-u_Q(P)\|_2}{\sqrt m\lambda_Q}",
        notes="Three slips in one display: its third line keeps ||y_Q - u_Q(k')|| where Theorem 3's decay factor "
              "already stands for it (read literally, x <= q x with q < 1), so ||y_Q - u_Q(P)|| is meant; its last "
              "'=' is '<=' (eta/(1 - sqrt(1 - eta lambda_Q/2)) < 4/lambda_Q, since 1 - sqrt(1 - x) > x/2); and its first "
              "line writes '=' where the triangle inequality over the steps gives '<='.  The first is checked as "
              "printed; the conclusion, Lemma 4's radius, holds with the corrected lines and is confirmed on literal "
              "networks (liu2019.lemma4).",
        check=Custom(_l438),
    ),
    Claim(
        id="liu2019.eq37",
        kind=Kind.SYMBOLIC,
        source=src("eq. (37) (App. C.2.2, proof of Theorem 2, L534); the same sum in (38) and (41)"),
        statement=r"u_Q(k)-y_Q=(I-\eta H_Q^\infty)^k(u_Q(P)-y_Q)+\sum_{t=0}^{k-1}(I-\eta H_Q^\infty)^k"
                  r"\big(\zeta(k-1-t)+\epsilon_3(k-1-t)\big)",
        assumptions="(35): u_Q(k+1) - u_Q(k) = -eta H_Q^inf (u_Q(k) - y_Q) + eps_3(k) + zeta(k)",
        domain=Domain(()), role="proof step", holds_by=("liu2019.thm2",), repair="absorbed",
        corrected=r"u_Q(k)-y_Q=(I-\eta H_Q^\infty)^k(u_Q(P)-y_Q)+\sum_{t=0}^{k-1}(I-\eta H_Q^\infty)^t"
                  r"\big(\zeta(k-1-t)+\epsilon_3(k-1-t)\big)",
        notes="'Taking sum over each iteration' of (35) gives the power t of (I - eta H_Q^inf) on the perturbation of "
              "step k - 1 - t; the printed power k applies the full decay to every term.  Checked by unrolling (35) on a "
              "drawn H^inf with Gaussian perturbations.  The bound (38) that follows, k (1 - eta lambda_Q/4)^(k-1) "
              "times the per-step orders, still holds with the power t up to one factor (1 - eta lambda_Q/4) (term t is "
              "at most (1 - eta lambda_Q)^t (1 - eta lambda_Q/4)^(k-2-t) times the orders of (36), for eta <= "
              "1/lambda_max; not checked here); (38) and (41) repeat the printed sum.  Theorem 2 "
              "is confirmed on literal networks as a limit statement (liu2019.thm2).",
        check=Custom(_eq37),
    ),
]


# ============================================================================ (5), last line: y for y_P
# the 1 x 1 case of (5) over K = 2 steps (Z_P(k) = z_k, H_P^inf = h, e_P(k) = e_k): the last line against the line
# before it, with the label vector as printed (y) and as the line before has it (y_P)
_z0, _z1, _h, _eta, _e0, _e1 = sp.symbols("z_0 z_1 h eta e_0 e_1", real=True)
_y, _yP = sp.symbols("y y_P", real=True)


def _eq5_last(y):
    q = [(1 - _eta * _h) ** k for k in range(2)]
    return (sum(_eta * _z0 * q[k] * y for k in range(2)) + sum(_eta * (z - _z0) * q[k] * y for k, z in enumerate((_z0, _z1)))
            - _eta * (_z0 * _e0 + _z1 * _e1))


EQ5_BEFORE = _eta * _z0 * _yP + _eta * _z1 * (1 - _eta * _h) * _yP - _eta * (_z0 * _e0 + _z1 * _e1)
EQ5_PRINTED, EQ5_CORRECT = _eq5_last(_y), _eq5_last(_yP)
_EQ5_RANGES = {v: (-2.0, 2.0) for v in (_z0, _z1, _h, _eta, _e0, _e1, _y, _yP)}


# ============================================================================ L499: m_Q for n_Q^2 and n_Q^(3/2)
_C, _R, _dl, _mQ = sp.symbols("C R delta m_Q", positive=True)
_nQ, _lQ, _et = sp.symbols("n_Q lambda_Q eta", positive=True)
L499_PRINTED = 1 - _et * _lQ + 2 * _C * _et * _mQ * _R / _dl + 2 * _C * _et * _mQ ** sp.Rational(3, 2) * _R / _dl + _et ** 2 * _nQ ** 2
#: the coefficient the two bounds before it give: 2 C eta n_Q^2 R/delta (||H^perp||_2 <= C n_Q^2 R/delta, L486) and
#: 2 C eta n_Q^(3/2) R/delta (|I_2^i| of L470 with Lemma 5's sum_i |bar S_i| <= C m n_Q R/delta)
L499_CORRECT = 1 - _et * _lQ + 2 * _C * _et * _nQ ** 2 * _R / _dl + 2 * _C * _et * _nQ ** sp.Rational(3, 2) * _R / _dl + _et ** 2 * _nQ ** 2


def _l499_terms(radius):
    """The two corrected middle terms of L499 (from H^perp and from I_2), each over eta lambda_Q, at ``radius``."""
    c = sp.Symbol("c", positive=True)
    terms = (2 * _C * _et * _nQ ** 2 * _R / _dl, 2 * _C * _et * _nQ ** sp.Rational(3, 2) * _R / _dl)
    return c, tuple(sp.simplify(t.subs(_R, radius(c)) / (_et * _lQ)) for t in terms)


def _l499_repair(claim, ctx):
    """With Lemma 2's radius R = c delta lambda_Q/n_Q^2 the two corrected terms are 2 C c eta lambda_Q and
    2 C c eta lambda_Q/sqrt(n_Q), together below eta lambda_Q/4 for c <= 1/(16 C), as the last inequality needs."""
    c, r = _l499_terms(lambda c: c * _dl * _lQ / _nQ ** 2)
    ok = sp.simplify(r[0] - 2 * _C * c) == 0 and sp.simplify(r[1] - 2 * _C * c / sp.sqrt(_nQ)) == 0
    return Evidence(checks=[Check("repair: with R = c delta lambda_Q/n_Q^2 (Lemma 2) the corrected terms are "
                                  "2 C c eta lambda_Q and 2 C c eta lambda_Q/sqrt(n_Q)", ok,
                                  f"(terms)/(eta lambda_Q) = {', '.join(sp.sstr(x) for x in r)} (sympy)", refutes=False)])


def _l458_radius(claim, ctx):
    """L458's R = c lambda_Q/n_Q^2 in the corrected L499 terms: each over eta lambda_Q must stay below a constant
    (1/8) for the last inequality; with c a constant it grows like 1/delta (the order-bookkeeping rule of the notes, per term)."""
    from derivations import ntk_orders as A
    c, r = _l499_terms(lambda c: c * _lQ / _nQ ** 2)
    c2, r2 = _l499_terms(lambda c: c * _dl * _lQ / _nQ ** 2)
    to_A = {_C: 1, c: 1, c2: 1, _nQ: A.n_Q, _dl: A.delta}
    gaps = [A.order_gap(x.subs(to_A), sp.Integer(1)) for x in r]
    gaps2 = [A.order_gap(x.subs(to_A), sp.Integer(1)) for x in r2]
    bad = {k: str(v) for g in gaps for k, v in g.items()}
    # R' < R: m > (R' sqrt(m))^2/R^2 with R' of Lemma 4's O-form (33) and R = c delta lambda_Q/n_Q^2
    from .orders import LEMMA4_ORDER
    need = sp.simplify((LEMMA4_ORDER * sp.sqrt(A.m)) ** 2 / (c * A.delta * A.lam_Q / A.n_Q ** 2) ** 2)
    e_needed = sp.simplify(sp.diff(sp.log(need), A.delta) * A.delta)
    return Evidence(checks=[
        Check("L458/L500: with R = c lambda_Q/n_Q^2 (c a constant) the L499 terms 2 C eta n_Q^2 R/delta and "
              "2 C eta n_Q^(3/2) R/delta are O(eta lambda_Q), as '<= (1 - eta lambda_Q/2)' needs", not bad,
              f"(terms)/(eta lambda_Q) = {', '.join(sp.sstr(x) for x in r)}"
              + (": unbounded through the exponents " + ", ".join(f"{k}^({v})" for k, v in bad.items()) if bad else ""),
              counterexample=None if not bad else {"ratios": [sp.sstr(x) for x in r], "exponents": bad}),
        Check("corrected: with Lemma 2's radius R = c delta lambda_Q/n_Q^2 (Du et al.'s) they are", not any(gaps2),
              f"(terms)/(eta lambda_Q) = {', '.join(sp.sstr(x) for x in r2)}", refutes=False),
        Check("repair: the premise R' < R with R = c delta lambda_Q/n_Q^2 and Lemma 4's R' needs m of order delta^(-5) "
              "in delta, within Theorem 3's m = Omega(.../delta^10)", e_needed >= -10,
              f"delta exponent of the width R' < R needs: {sp.sstr(e_needed)} (Theorem 3 states -10)", refutes=False)])


CLAIMS += [
    Claim(
        id="liu2019.eq5.label",
        kind=Kind.SYMBOLIC,
        source=src("eq. (5) (App. C.1, L306), last line: the label vector of its first two sums"),
        statement=r"\sum_k\eta Z_P(k)(I-\eta H_P^\infty)^k y_P-\sum_k\eta Z_P(k)e_P(k)=\sum_k\eta Z_P(0)(I-\eta H_P^\infty)^k"
                  r"\mathbf y+\sum_k\eta(Z_P(k)-Z_P(0))(I-\eta H_P^\infty)^k\mathbf y-\sum_k\eta Z_P(k)e_P(k)",
        assumptions="y read as a symbol of its own (§6.1 writes the loss of either phase with a generic y); checked in "
                    "the 1 x 1 case over K = 2 steps, where the line is an identity in y, y_P, Z_P(k), H_P^inf, eta, e_P(k)",
        domain=Domain(()), role="proof step", holds_by=("liu2019.thm1",), repair="absorbed", tags=("extension",),
        stated=EQ5_PRINTED, derived=EQ5_CORRECT,
        corrected=r"\dots=\sum_k\eta Z_P(0)(I-\eta H_P^\infty)^k y_P+\sum_k\eta(Z_P(k)-Z_P(0))(I-\eta H_P^\infty)^k y_P"
                  r"-\sum_k\eta Z_P(k)e_P(k)",
        notes="The line before has y_P; the last line (and eq. (6) after it) writes y.  Read as its own symbol, the "
              "printed line equals the one before only at y = y_P (sympy on the 1 x 1 case); with y_P it is an identity "
              "(the corrected form), and that is how liu2019.eq5 reads it on the drawn network.  One symbol of "
              "notation: the result of the proof is unchanged.  An extension, not an erratum: §6.1 writes the loss "
              "of either phase with a generic y, which in the pretraining display is y_P (as liu2019.eq5 reads it); "
              "only read as a symbol of its own is the line not an identity.",
        check=AllOf([Identity("(5): the last line, with y as printed, equals the line before", EQ5_PRINTED, EQ5_BEFORE,
                              _EQ5_RANGES),
                     Identity("corrected: with y_P", EQ5_CORRECT, EQ5_BEFORE, _EQ5_RANGES, refutes=False)]),
    ),
    Claim(
        id="liu2019.thm3_proof.m_q",
        kind=Kind.SYMBOLIC,
        source=src("proof of Theorem 3 (App. C.2.1, L499): the coefficient after the first inequality"),
        statement=r"1-\eta\lambda_Q+\frac{2C\eta m_QR}{\delta}+\frac{2C\eta m_Q^{3/2}R}{\delta}+\eta^2n_Q^2",
        assumptions="the bounds the text names for that inequality: ||H_Q(k)^perp||_2 <= C n_Q^2 R/delta (L486), "
                    "|I_2^i| <= eta |bar S_i| sqrt(n_Q)||u - y||/m (L470) with Lemma 5, eta^2 n_Q^2 (L488); m_Q is not "
                    "defined anywhere in the text",
        domain=Domain(()), role="proof step", holds_by=("liu2019.thm3",), repair="absorbed",
        stated=L499_PRINTED, derived=L499_CORRECT,
        corrected=r"1-\eta\lambda_Q+\frac{2C\eta n_Q^2R}{\delta}+\frac{2C\eta n_Q^{3/2}R}{\delta}+\eta^2n_Q^2",
        notes="The two middle terms come from 2 eta r^T H^perp r <= 2 eta (C n_Q^2 R/delta)||r||^2 and from "
              "2|r^T I_2| <= 2 ||r|| sum_i |I_2^i| <= 2 eta sqrt(n_Q)(C m n_Q R/delta)||r||^2/m; the printed m_Q, a symbol "
              "the text never defines, stands where n_Q^2 and n_Q^(3/2) are meant (sympy: the printed coefficient is "
              "not the one the bounds give).  With R = c lambda_Q/n_Q^2 the corrected terms are 2 C c eta lambda_Q "
              "(1 + n_Q^(-1/2))/delta with L458's R = c lambda_Q/n_Q^2, and 2 C c eta lambda_Q (1 + n_Q^(-1/2)) with "
              "Lemma 2's R = c delta lambda_Q/n_Q^2 (checked), below eta lambda_Q/4 for a small c; the delta that L458's "
              "R lacks is liu2019.thm3_proof.radius, and the eta^2 n_Q^2 term is liu2019.thm3_proof.step_size.",
        check=AllOf([Identity("L499: the printed coefficient equals the one the bounds before it give", L499_PRINTED,
                              L499_CORRECT, {v: (0.1, 4.0) for v in (_C, _R, _dl, _mQ, _nQ, _lQ, _et)}),
                     Custom(_l499_repair)]),
    ),
    Claim(
        id="liu2019.thm3_proof.radius",
        kind=Kind.SYMBOLIC,
        source=src("proof of Theorem 3 (App. C.2.1, L458 and L499-L503): 'R = c lambda_Q/n_Q^2 for some small positive "
                   "constant c'; 'The last inequality we used the bound of the step size and the bound of R'"),
        statement=r"R=\frac{c\lambda_Q}{n_Q^2}\ (c\ \text{a constant})\Rightarrow\frac{2C\eta n_Q^2R}{\delta}+"
                  r"\frac{2C\eta n_Q^{3/2}R}{\delta}=O(\eta\lambda_Q)",
        assumptions="the corrected L499 coefficient (liu2019.thm3_proof.m_q): 2 C eta (n_Q^2 + n_Q^(3/2)) R/delta, with "
                    "Lemma 5's C; a constant is free of n_Q, delta, lambda_Q (the order-bookkeeping rule of the notes, delta -> 0)",
        domain=Domain(()), role="proof step", holds_by=("liu2019.thm3",), repair="absorbed",
        corrected=r"R=\frac{c\,\delta\lambda_Q}{n_Q^2}\ \text{(Lemma 2's radius, Du et al.)}",
        notes="Lemma 2, which the proof uses for lambda_min(H_Q(k)) > lambda_Q/2, has the radius c delta lambda_0/n^2, and "
              "Du et al.'s proof this one follows takes R = c delta lambda_0/n^2; L458 drops the delta.  With R = c "
              "lambda_Q/n_Q^2 the H^perp and I_2 terms are 2 C c eta lambda_Q (1 + n_Q^(-1/2))/delta, which a constant c "
              "keeps below eta lambda_Q/4 only for delta bounded below (sympy); with delta in R they are 2 C c eta "
              "lambda_Q (1 + n_Q^(-1/2)).  The repair asks R' < R for a radius smaller by delta, i.e. a width of "
              "order delta^(-5) in delta (checked), which Theorem 3's m = Omega(.../delta^10) already covers: absorbed.  "
              "Theorem 3 is confirmed on the literal networks (liu2019.thm3).",
        check=Custom(_l458_radius),
    ),
]
