"""Steps of the proof of Theorem 1 (App. C.1): the decomposition (5), the split (18)-(19) with the first inequality
of (20), and the norms of Z used after (21) (L394)."""
from __future__ import annotations

import math

from verify.kit import Alternative, Check, Claim, Custom, Domain, Evidence, Kind

from ..common import src
from .network import HOLDS1, M, NOTE_RUN, SETUP, _Z, _eq5, _gap_check, _rel, _split, run


# ============================================================================ (18), (19): the split of u_Q(P) - u_Q(0)
def _eq18(claim, ctx, drop_third=False):
    S = run(ctx)
    d = _split(S)
    rhs = d["first"] + d["second"] + (0 if drop_third else d["third"])
    eps_n = float((d["second"] + d["third"]).norm())
    bound = math.sqrt(len(d["lhs"])) / math.sqrt(M) * d["sbar"] * d["move"]
    prem = (f"R of (16) = {d['R16']:.4g}, largest movement max_r ||w_r(P) - w_r(0)|| = {d['move']:.4g}"
            + ("" if d["R"] == d["R16"] else " (above R of (16): R = the movement used)") + f"; largest |bar S_i| = "
            f"{d['sbar']:.0f} of {M}")
    return Evidence(checks=[
        _gap_check("(18): u_Q,i(P) - u_Q,i(0) = the linear part over [m] + the bar S_i terms (second minus third)"
                   + (" (without the third term)" if drop_third else ""), _rel(rhs, d["lhs"]), SETUP + "; " + prem),
        _gap_check("(19), second line: (1/sqrt m) a^T (I(0) o ((W(P) - W(0))^T X)) = Z_Q(0)^T vec(W(P) - W(0))",
                   _rel(d["lin"], d["first"]), "Z of (3) at W(0)"),
        Check("(20), first inequality: ||eps_1 + eps_2|| <= (sqrt(n_Q)/sqrt m) |bar S_i| ||w_r(P) - w_r(0)|| (largest "
              "|bar S_i| and largest movement)", eps_n <= bound * (1 + 1e-9),
              f"||eps_1 + eps_2|| = {eps_n:.4g} <= {bound:.4g}",
              counterexample=None if eps_n <= bound * (1 + 1e-9) else {"||eps'||": eps_n, "bound": bound})],
        seeds=[S["seed"]])


# ============================================================================ L394: the norms of Z
def _z_norms(claim, ctx, scale=1.0):
    """L394: ||Z_P(0)||_F <= sqrt(n_P), ||Z_Q(P)||_F <= sqrt(n_Q) (times ``scale``: a power witness passes 1/2), and
    ||Z_Q(P)^T Z_P(0) - H_PQ^T||_F = ||H_PQ(P) - H_PQ^inf||_F, on the drawn network (Z_Q(P): Z of X_Q at W(P))."""
    S = run(ctx)
    inst, a, W0 = S["inst"], S["a"], S["W0"]
    WP = S["WP_path"][-1]
    ZP0, ZQP = _Z(W0, a, inst["XP"]), _Z(WP, a, inst["XQ"])
    zp, zq = float(ZP0.norm()), float(ZQP.norm())
    nP, nQ = len(inst["yP"]), len(inst["yQ"])
    okP, okQ = zp <= scale * math.sqrt(nP), zq <= scale * math.sqrt(nQ)
    right = float((ZP0.T @ ZQP - inst["HPQ"]).norm())
    t = abs(float((ZQP.T @ ZP0 - inst["HPQ"].T).norm()) - right) / max(right, 1e-300)
    f = "" if scale == 1 else f"{scale:g} "
    return Evidence(checks=[
        Check(f"L394: ||Z_P(0)||_F <= {f}sqrt(n_P)", okP, SETUP + f": {zp:.4g} vs {scale * math.sqrt(nP):.4g}",
              counterexample=None if okP else {"||Z_P(0)||_F": zp, "bound": scale * math.sqrt(nP)}),
        Check(f"L394: ||Z_Q(P)||_F <= {f}sqrt(n_Q)", okQ, f"{zq:.4g} vs {scale * math.sqrt(nQ):.4g}",
              counterexample=None if okQ else {"||Z_Q(P)||_F": zq, "bound": scale * math.sqrt(nQ)}),
        _gap_check("L394: ||Z_Q(P)^T Z_P(0) - H_PQ^T||_F = ||H_PQ(P) - H_PQ^inf||_F", t, "a transpose")],
        seeds=[S["seed"]])


CLAIMS = [
    Claim(
        id="liu2019.eq5",
        kind=Kind.SYMBOLIC,
        source=src("eq. (5) (App. C.1, L304-L306): the decomposition of vec(W(P)) - vec(W(0))"),
        statement=r"\mathrm{vec}(W(P))-\mathrm{vec}(W(0))=-\eta\sum_k Z_P(k)(u_P(k)-y_P)=\sum_k\eta Z_P(0)(I-\eta H_P^\infty)^k y"
                  r"+\sum_k\eta(Z_P(k)-Z_P(0))(I-\eta H_P^\infty)^k y-\sum_k\eta Z_P(k)e_P(k)",
        assumptions="GD (4) from W(0) for K steps; e_P(k) defined by the third line, u_P(k) - y_P = -(I - eta H_P^inf)^k "
                    "y_P + e_P(k) (the text does not define it; Arora et al.'s u(0) = 0 convention); the last line's y "
                    "read as y_P",
        domain=Domain(()), role="proof step", holds_by=HOLDS1,
        notes=NOTE_RUN + "  Every line equals the left side.  The last line writes y where the lines before have y_P, a "
              "one-symbol slip reported by liu2019.eq5.label; §6.1 writes the loss of either phase with a generic y "
              "('For both pretraining and fine-tuning, the objective function of the model is the squared loss L(W) = "
              "(1/2)(y - f(X))^T(y - f(X))'), and (6) keeps y, so y is read here as the labels of the phase, y_P (with "
              "y_Q the line would not even have matching dimensions when n_P != n_Q).  e_P(k) is never defined in 002; "
              "the third line fixes it.",
        check=Custom(_eq5),
        construction="The text never defines e_P(k), so its third line defines it, the second line is the GD step (4) "
                     "the run performs, and the fourth regroups Z_P(k) = Z_P(0) + (Z_P(k) - Z_P(0)): with y read as y_P "
                     "every line equals the left side whatever the run, so the check records the decomposition rather "
                     "than testing it (the slip in its last line is liu2019.eq5.label; (4) is liu2019.eq4_13_14).",
        power=(Alternative("the third line with +sum_k eta Z_P(k) e_P(k)",
                           Custom(lambda claim, ctx: _eq5(claim, ctx, sign=-1)), "a sign slip on the remainder term"),),
    ),
    Claim(
        id="liu2019.eq18_19",
        kind=Kind.SYMBOLIC,
        source=src("eqs. (18) and (19), first two lines (App. C.1, L372-L376): u_Q(P) - u_Q(0) split over S_i and bar S_i; "
                   "the first inequality of (20)"),
        statement=r"u_{Q,i}(P)-u_{Q,i}(0)=\tfrac1{\sqrt m}\sum_{r\in[m]}a_r\mathbb I^Q_{r,i}(0)(w_{P,r}-w_r(0))^\top x_{Q,i}"
                  r"+\tfrac1{\sqrt m}\sum_{r\in\bar S_i}a_r(\sigma(w_{P,r}^\top x_{Q,i})-\sigma(w_r(0)^\top x_{Q,i}))"
                  r"-\tfrac1{\sqrt m}\sum_{r\in\bar S_i}a_r\mathbb I^Q_{r,i}(0)(w_{P,r}-w_r(0))^\top x_{Q,i},"
                  r"\quad\text{first term}=Z_Q(0)^\top\mathrm{vec}(W(P)-W(0))",
        assumptions="bar S_i = {r: |w_r(0)^T x_Q,i| <= R} with R of (16) (Lemma 1's radius is at most it, so units of S_i "
                    "keep their pattern: 'this part of activations is the same for W(0) and W(P)')",
        domain=Domain(()), role="proof step", holds_by=HOLDS1,
        notes=NOTE_RUN + "  (18) is an identity once no unit of S_i changes its pattern on x_Q,i, which the text takes "
              "from Lemma 1 (radius below (16)'s R); the record gives both radii on the draw.  (19)'s third line, "
              "vec(W(P) - W(0)) = Z_P(0) H_P^-1 y_P + eps, defines eps (measured in liu2019.eq6).  (20)'s first "
              "inequality (the second and third terms of (18) 'bounded with (1/sqrt m)|bar S_i| ||w_r(P) - w_r(0)||' per "
              "input, L374) holds: per unit |sigma(b) - sigma(a) - I(a >= 0)(b - a)| <= |b - a|, so the two terms "
              "together need no factor 2; its order is liu2019.eq20.",
        check=Custom(_eq18),
        power=(Alternative("(18) without its third term", Custom(lambda claim, ctx: _eq18(claim, ctx, drop_third=True)),
                           "a dropped term: the linear part of the bar S_i units counted twice"),),
    ),
    Claim(
        id="liu2019.sec_c1.z_norms",
        kind=Kind.SYMBOLIC,
        source=src("App. C.1 after (21) (L394): 'using ||Z_P(0)||_F <= sqrt(n_P) and ||Z_Q(P)||_F <= sqrt(n_Q)'"),
        statement=r"\|Z_P(0)\|_F\le\sqrt{n_P},\ \|Z_Q(P)\|_F\le\sqrt{n_Q},\ \|Z_Q(P)^\top Z_P(0)-H_{PQ}^{\infty\top}\|_F="
                  r"\|H_{PQ}(P)-H_{PQ}^\infty\|_F",
        assumptions="unit inputs, a_r = +-1: ||Z||_F^2 = (1/m) sum_r sum_j I_rj ||x_j||^2 <= n",
        domain=Domain(()), role="proof step", holds_by=HOLDS1,
        notes=NOTE_RUN + "  Both bounds hold for every W ((1/m) sum_r sum_j I_rj <= n); about half the units are active "
              "on each input, so ||Z||_F is near sqrt(n/2) and a bound sqrt(n)/2 fails (the power witness).  Found in "
              "the second reading (issue 27): the facts the orders (22)-(31) multiply.",
        check=Custom(_z_norms),
        construction="Both bounds hold for every W, since ||Z||_F^2 = (1/m) sum_r sum_j I_rj ||x_j||^2 <= n for unit "
                     "inputs and a_r = +-1 (a bound we proved), so no drawn network can violate them; the transpose "
                     "identity is exact algebra.",
        power=(Alternative("||Z||_F <= sqrt(n)/2", Custom(lambda claim, ctx: _z_norms(claim, ctx, scale=0.5)),
                           "a constant off by 2"),),
    ),
]
