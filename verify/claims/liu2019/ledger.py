"""Coverage ledger of 002_040fb3cd502e6250.txt (Liu, Long, Wang, Jordan, "Towards Understanding the Transferability
of Deep Representations", review copy): every labelled item of the text, with the claims that test it, or why none
does (``verify.coverage``; ``python -m verify coverage liu2019``). Started from ``python -m verify coverage --init
liu2019``; entries marked ``manual=True`` are result sentences and settings of the running text.

§§3-5 and App. B are experiments on ImageNet-scale data (ResNet-50, Caltech-101, CUB-200, Stanford Cars, Food-101,
Places, ...): their figures need data and compute that cannot be had offline, except where a claim reads the
published numbers of Tables 1-2. The proofs of App. C are ledgered step by step; an order-bookkeeping step
(a product of the orders of the lines before it) is "uncovered" until a claim multiplies them out.
"""
from verify.kit import Ledger, LedgerEntry as E

_T = "liu2019."
_DATA = "ImageNet-scale experiment (ResNet-50 / LeNet on the named datasets); its curves cannot be rerun offline"
_ORD = "order bookkeeping of the proof of Theorem 1: the product of the orders of the factors it names"

LEDGER = Ledger("liu2019", "002_040fb3cd502e6250.txt", [
    # ---------------------------------------------------------------- abstract and introduction
    E("abstract: flatter minima, improved Lipschitzness, feasibility depends on input and label similarity", 11, 11,
      reason="needs data", note="the abstract's three findings are read off the ImageNet experiments; their "
      "theoretical counterparts are Theorems 1-2 (covered below)", manual=True),
    # ---------------------------------------------------------------- §§2-5 experiments
    E("Figure 1", 26, 28, reason="no result", note="example images of the datasets"),
    E("Table 1", 54, 54, _T + "sec3.proportional"),
    E("Figure 2", 73, 73, _T + "sec3.proportional"),
    E("Figure 3", 80, 80, reason="needs data", note=_DATA),
    E("Figure 4", 87, 87, reason="needs data", note=_DATA),
    E("Figure 5", 98, 98, reason="needs data", note=_DATA),
    E("Figure 6", 105, 105, reason="needs data", note=_DATA),
    E("Figure 7", 112, 114, reason="needs data", note=_DATA),
    E("Figure 8", 127, 127, reason="needs data", note=_DATA),
    E("Figure 9", 138, 138, reason="needs data", note=_DATA),
    # ---------------------------------------------------------------- §6 theory
    E("§6.1 setup: two-layer ReLU net, w_r(0) ~ N(0, kappa^2 I), a_r ~ unif{-1,1}, ||x|| = 1, |y| <= 1", 150, 152,
      reason="definition", note="the model, initialization and squared loss the claims simulate", manual=True),
    E("display L156", 156, 156, _T + "gram", "hermite.kernel.ntk_gram"),
    E("display L158", 158, 158, _T + "gram", "hermite.kernel.ntk_gram"),
    E("display L162", 162, 162, _T + "gram", "hermite.kernel.ntk_gram"),
    E("§6.1: H_P^inf, H_Q^inf invertible (lambda_P, lambda_Q > 0); y_{P->Q} = H_PQ^T H_P^-1 y_P", 164, 164,
      "hermite.kernel.lambda0", manual=True),
    E("Theorem 1", 170, 172, _T + "thm1"),
    E("eq. (1)", 172, 172, _T + "thm1"),
    E("§6.2: small ||y_Q - y_{P->Q}|| improves the Lipschitzness", 174, 174, _T + "thm1", manual=True),
    E("Theorem 2", 180, 182, _T + "thm2"),
    E("eq. (2)", 182, 182, _T + "thm2"),
    E("§6.3: from scratch the bound is y_Q^T H_Q^-1 y_Q", 184, 184, _T + "sec6_3.scratch", manual=True),
    E("§6.3: fine-grained target: H_Q^inf more singular, larger deviation", 184, 184, _T + "sec6_3.fine_grained",
      manual=True),
    # ---------------------------------------------------------------- App. A-B
    E("App. A: fine-tuning improvement = error of fine-tuning / error from scratch", 238, 238,
      _T + "appA.improvement_ratio", manual=True),
    E("Figure 10", 255, 255, reason="needs data", note=_DATA),
    E("Figure 11", 262, 262, reason="needs data", note=_DATA),
    E("App. B.3: decreased percentage = error reduced by fine-tuning / error from scratch", 266, 266,
      _T + "table2.improvement", manual=True),
    E("Table 2", 270, 270, _T + "table2.improvement"),
    E("Figure 12", 285, 285, reason="needs data", note=_DATA),
    E("Figure 13", 290, 290, reason="needs data", note=_DATA),
    # ---------------------------------------------------------------- App. C.1: pretraining, Lemmas 1-3
    E("eq. (3)", 298, 298, reason="definition", note="Z_P, the md x n_P matrix of active-unit indicators"),
    E("eq. (4)", 302, 302, _T + "eq4_13_14"),
    E("eq. (5)", 306, 306, todo="the decomposition of vec(W(P)) - vec(W(0)): telescoping, then "
      "u_P(k) - y_P = -(I - eta H_P^inf)^k y_P + e_P(k); its last line writes y where the lines before have y_P"),
    E("eq. (6)", 310, 310, _T + "eq6"),
    E("Lemma 1", 314, 316, _T + "lemma1"),
    E("eq. (7)", 316, 316, _T + "lemma1"),
    E("Lemma 2", 318, 322, _T + "lemma2"),
    E("display L320", 320, 320, _T + "lemma2"),
    E("Lemma 3", 330, 338, _T + "lemma3"),
    E("eq. (8)", 332, 332, _T + "lemma3"),
    E("eq. (9)", 334, 334, _T + "eq9", note="the second line indexes I^Q_ri where the first has I^Q_rj"),
    E("eq. (10)", 338, 338, _T + "eq10"),
    E("eq. (11)", 342, 342, _T + "eq11", _T + "lemma3"),
    E("eq. (12)", 346, 346, _T + "eq12"),
    E("display L350", 350, 350, reason="restatement", note="eq. (8) again, closing the proof of Lemma 3"),
    # ---------------------------------------------------------------- App. C.1: proof of Theorem 1
    E("eq. (13)", 354, 354, _T + "eq4_13_14"),
    E("eq. (14)", 356, 356, _T + "eq4_13_14", _T + "eq21"),
    E("eq. (15)", 360, 360, reason="definition", note="u_Q(P) - u_Q(0) written out"),
    E("eq. (16)", 364, 364, reason="definition", note="the sets S_i, bar S_i of units near their kink"),
    E("eq. (17)", 368, 368, _T + "eq17", _T + "eq10"),
    E("eq. (18)", 372, 372, todo="the split of u_Q,i(P) - u_Q,i(0) into the linear part and the bar S_i corrections "
      "(an identity: check it numerically on a drawn network)"),
    E("eq. (19)", 376, 376, todo="u_Q(P) - u_Q(0) = Z_Q(0)^T (Z_P(0) H_P^-1 y_P + eps) + eps_1 + eps_2 "
      "(the linearization, against a trained wide network)"),
    E("eq. (20)", 380, 380, _T + "eq20"),
    E("eq. (21)", 384, 392, _T + "eq21"),
    E("eq. (22)", 396, 396, _T + "eq20"),
    E("eq. (23)", 398, 398, _T + "eq23"),
    E("eq. (24)", 400, 400, _T + "eq24"),
    E("eq. (25)", 402, 402, _T + "eq25_31"),
    E("eq. (26)", 404, 404, _T + "eq25_31"),
    E("eq. (27)", 406, 406, _T + "eq25_31"),
    E("eq. (28)", 408, 408, _T + "eq25_31"),
    E("eq. (29)", 410, 410, _T + "eq29", _T + "eq25_31"),
    E("eq. (30)", 412, 412, _T + "eq25_31"),
    E("eq. (31)", 414, 414, _T + "eq25_31"),
    E("Theorem 3", 426, 428, _T + "thm3"),
    E("eq. (32)", 428, 428, _T + "thm3"),
    E("Lemma 4", 432, 434, _T + "lemma4"),
    E("eq. (33)", 434, 434, _T + "lemma4"),
    E("display L438", 438, 438, _T + "lemma4_proof.sum"),
    E("proof of Lemma 4: ||y_Q - u_Q(0)|| = O(kappa sqrt(n_Q)/sqrt(delta)); u_Q(P) - u_Q(0) via (19)", 440, 440,
      _T + "lemma4_proof.u0", manual=True),
    E("Condition 1", 444, 444, _T + "thm3"),
    E("Corollary 1", 448, 450, _T + "lemma4"),
    E("display L450", 450, 450, _T + "lemma4"),
    E("Lemma 5", 456, 456, _T + "lemma5"),
    E("display L460", 460, 460, todo="proof of Theorem 3: the one-step change u_Q,i(k+1) - u_Q,i(k) (identity, "
      "checkable on a drawn network)"),
    E("display L464", 464, 464, reason="definition", note="I_1^i, the sum over S_i"),
    E("display L466", 466, 466, reason="definition", note="I_2^i, the sum over bar S_i"),
    E("display L470", 470, 470, todo="proof of Theorem 3: |I_2^i| <= (eta/sqrt(m)) |bar S_i| ... (a bound on a "
      "drawn network)"),
    E("display L474", 474, 474, todo="proof of Theorem 3: I_1^i as -eta (H(k)(u - y))_i + a bar S_i correction "
      "(identity)"),
    E("display L476", 476, 476, todo="proof of Theorem 3: continuation of L474 (identity)"),
    E("display L478", 478, 478, todo="proof of Theorem 3: continuation of L474 (identity)"),
    E("display L482", 482, 482, todo="proof of Theorem 3: the bar S_i correction bounded by (eta/m)|bar S_i| ..."),
    E("display L484", 484, 484, todo="proof of Theorem 3: continuation of L482 (Cauchy-Schwarz)"),
    E("display L488", 488, 488, todo="proof of Theorem 3: ||u(k+1) - u(k)||^2 <= eta^2 n_Q ||u - y||^2 (bound)"),
    E("display L492", 492, 501, todo="proof of Theorem 3: the one-step contraction ||u(k+1) - y||^2 <= "
      "(1 - eta lambda_Q/2)||u(k) - y||^2 (measured on GD runs: the per-step ratio)"),
    # ---------------------------------------------------------------- App. C.2.2: proof of Theorem 2
    E("Lemma 6", 507, 512, _T + "lemma6"),
    E("display L509", 509, 512, _T + "lemma6"),
    E("eq. (34)", 516, 516, todo="proof of Theorem 2: u_Q(k+1) - u_Q(k) = -eta H_Q(k)(u_Q(k) - y_Q) + eps_3(k) "
      "(identity, measured on GD runs)"),
    E("display L518", 518, 521, todo="proof of Theorem 2: ||eps_3(k)|| <= sum_i (2 eta sqrt(n_Q)/m)|bar S_i| "
      "||u - y|| (bound)"),
    E("eq. (35)", 525, 525, todo="proof of Theorem 2: H_Q(k) replaced by H_Q^inf with the remainder zeta(k)"),
    E("eq. (36)", 527, 530, _T + "eq36"),
    E("eq. (37)", 534, 534, _T + "eq37"),
    E("eq. (38)", 536, 539, _T + "eq38_41", _T + "eq37"),
    E("eq. (39)", 543, 550, todo="proof of Theorem 2: the decomposition of vec(W_Q(K)) - vec(W(P)) (as (5))"),
    E("eq. (40)", 554, 554, _T + "eq40"),
    E("App. C.2.2, after (40): 'the maximum eigenvalue of H_Q^inf is lambda_Q^-1'", 556, 556,
      _T + "sec_c2.max_eigenvalue", manual=True),
    E("eq. (41)", 558, 563, _T + "eq38_41", _T + "eq37"),
    E("eq. (42)", 567, 573, todo="proof of Theorem 2: ||W_Q(K) - W(P)||_F^2 = (y - u)^T H_Q^-1 (y - u) + O(m^(-1/4)) "
      "(the Du et al. geometric-sum identity plus remainders)"),
    E("display L577", 577, 581, todo="proof of Theorem 2: y_Q - u_Q(P) rewritten with (19) (identity)"),
    E("eq. (43)", 585, 585, _T + "eq43_44"),
    E("eq. (44)", 589, 593, _T + "eq43_44"),
    E("eq. (45)", 597, 603, _T + "eq45"),
])
