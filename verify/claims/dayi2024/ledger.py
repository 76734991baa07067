"""Coverage ledger of 003_83d15a9763fa9a30.txt (Dayi, Chen, "Gradient dynamics for low-rank fine-tuning beyond
kernels"): every labelled item of the text, with the claims that test it, or why none does (``verify.audit.coverage``;
``python -m verify coverage dayi2024``). Started from ``python -m verify coverage --init dayi2024``; entries marked
``manual=True`` are the surviving words of the abstract, introduction, §4 (setup and the figure captions, which
survive only as §4's running text) and the outlook.

Most of the mathematics of this text was lost in extraction: a numbered display survives as "| (n) |", a statement
as its header and the words around its formulas. Every covered entry whose formula is lost is covered *on our
reconstruction* (the claim's notes say how it was read); the entry's note says so. An item whose statement is
lost and which no claim reconstructs is "lost in extraction" if nothing checkable survives, "uncovered" if the
surrounding words or the proof let one reconstruct it.
"""
from verify.kit import Ledger, LedgerEntry as E

_T = "dayi2024."
_REC = "on our reconstruction: the formula is lost; the claim's notes give the reading"
_LOST_STEP = ("a step of the finite-sample proof of Theorem 7 (App. B): header and a few words survive, the bound "
              "does not")

LEDGER = Ledger("dayi2024", "003_83d15a9763fa9a30.txt", [
    # ---------------------------------------------------------------- abstract
    E("abstract: online SGD reaches the teacher in d k^O(1) iterations (the d-dependence)", 5, 5, _T + "thm1",
      _T + "thm5", note=_REC, manual=True),
    E("abstract: d k^O(1) iterations (the k-dependence)", 5, 5, _T + "abstract.k", note=_REC, manual=True),
    E("abstract: the complexity does not depend on the activation's Hermite expansion", 5, 5, _T + "thm1",
      _T + "fig3", manual=True),
    E("abstract: learning from scratch can require significantly more iterations", 5, 5, _T + "thm3", _T + "thm8",
      manual=True),
    # ---------------------------------------------------------------- §1 introduction
    E("intro: LoRA works with rank-1 perturbations, four orders of magnitude fewer parameters", 23, 23,
      reason="cited", note="an empirical observation about LoRA ([21]), not a result of this paper", manual=True),
    E("eq. (1)", 31, 31, reason="definition", note="the teacher model (formula lost)"),
    E("eq. (2)", 38, 38, reason="definition", note="the two-layer base model (formula lost)"),
    E("eq. (3)", 41, 41, reason="definition", note="the rank-1 perturbation xi c u^T (formula lost)"),
    E("§1.1: the GLM special case (trivial base model)", 44, 44, _T + "remark3", note=_REC, manual=True),
    E("§1.1: small perturbation scale: the teacher is close to its linearization (lazy regime)", 46, 46,
      _T + "lazy", manual=True),
    E("Assumption 1", 51, 52, reason="assumption", note="normalized pre-trained features (formula lost)"),
    E("Assumption 2", 53, 54, reason="assumption", note="u orthogonal to the span of the pre-trained features"),
    E("Assumption 3", 55, 60, reason="assumption", note="c quantized and random (formula lost)"),
    E("§1.2.1: Assumption 1 is without loss of generality for positively homogeneous sigma", 57, 57,
      _T + "assumption1", note="the two identities behind the sentence; whether the norm can be absorbed depends on "
      "eq. (2)'s output layer, which is lost (the claim's notes)", manual=True),
    E("§1.2.1: without Assumption 2 there can be several global optima (App. C.1)", 58, 58, _T + "example1",
      manual=True),
    E("eq. (4)", 66, 66, reason="definition", note="the online spherical SGD update (formula lost); the claims run it "
      "as reconstructed"),
    E("Theorem 1", 73, 77, _T + "thm1", note=_REC),
    E("Assumption 4", 78, 79, reason="assumption", note="angular separation of the features (formula lost)"),
    E("Theorem 2", 80, 81, _T + "thm6", _T + "fig2", note=_REC),
    E("Remark 1", 82, 86, _T + "remark1", note=_REC),
    E("Theorem 3", 87, 89, _T + "thm3", note=_REC),
    # ---------------------------------------------------------------- §2 main results
    E("Assumption 5", 113, 123, reason="assumption", note="conditions on the activation (growth, Hermite decay, a "
      "moment condition whose formula is lost)"),
    E("Remark 2", 124, 127, reason="lost in extraction", note="the moment condition of Assumption 5.3 and the "
      "Cauchy-Schwarz steps for polynomial activations are lost"),
    E("Theorem 4", 132, 135, _T + "thm4", note=_REC),
    E("Theorem 5", 136, 140, _T + "thm5", note=_REC),
    E("§2.2.1: the initialization condition holds with constant probability (correlation ~ 1/sqrt(d))", 140, 140,
      _T + "init", note=_REC, manual=True),
    E("Theorem 6", 143, 146, _T + "thm6", note=_REC),
    # ---------------------------------------------------------------- §3 technical overview
    E("eq. (5)", 152, 152, reason="lost in extraction", note="the approximate update of the overlap (intuition for "
      "Theorem 7)"),
    E("Proposition 1", 155, 159, _T + "prop1", _T + "prop1.relu", note=_REC),
    E("Remark 3", 160, 173, _T + "remark3", note=_REC),
    E("eq. (6)", 171, 171, reason="lost in extraction",
      note="the unrolled overlap recursion (intuition for Theorem 7)"),
    E("Condition 1", 174, 177, _T + "prop1", note=_REC),
    E("Condition 2", 178, 188, _T + "cond2", _T + "prop6",
      note=_REC + " (variance bound: the growth in d of the gradient's moments; population-gradient bound: prop6)"),
    E("Condition 3", 189, 193, _T + "lemma1", _T + "lemma2", _T + "thm7", note=_REC),
    E("Theorem 7", 194, 201, _T + "thm7", note=_REC),
    E("Theorem 7: strong recovery: the eps-dependence of the time to m >= 1 - eps", 201, 201, _T + "thm7.eps",
      note=_REC, manual=True),
    E("§3.2: odd powers of m have non-negative coefficients, even ones share a sign", 203, 205,
      _T + "prop1.series", note=_REC, manual=True),
    E("Claim 1", 206, 218, _T + "lemma1", note=_REC),
    E("eq. (7)", 209, 209, reason="lost in extraction", note="a step of the sign argument of §3.2"),
    E("eq. (8)", 210, 210, reason="lost in extraction", note="a step of the sign argument of §3.2"),
    E("eq. (9)", 211, 211, reason="lost in extraction", note="a step of the sign argument of §3.2"),
    E("Lemma 1", 219, 221, _T + "lemma1", note=_REC),
    E("Proposition 2", 227, 229, reason="lost in extraction",
      note="what survives is 'Suppose Assumptions 1 to 5 hold. Then, with probability at least [..] over the randomness "
           "of [c], for [..] we have [..]' (L228): the bounded quantity, the range of its index and the bound are "
           "lost, and the proof (L452-487) survives as words around lost displays ((12), (13)), so no inequality can "
           "be read off; its use, the lower bound of Lemma 2 on phi under angular separation, is tested by "
           "dayi2024.lemma2"),
    E("Lemma 2", 230, 231, _T + "lemma2", note=_REC),
    E("Lemma 3", 234, 242, _T + "prop6", note="part 2 (population gradient upper bound), " + _REC),
    E("Lemma 3, part 1: variance upper bound", 238, 238, _T + "cond2", note=_REC, manual=True),
    E("Claim 2", 257, 258, _T + "claim2", note=_REC),
    E("Proposition 3", 262, 264, _T + "prop3", note=_REC),
    E("Theorem 8", 273, 274, _T + "thm8", note=_REC),
    # ---------------------------------------------------------------- §4 simulations and §5 outlook
    E("§4 settings: ReLU, sigma(r .) scaling, the values of d, k, xi and the sampling of c, u", 280, 280,
      reason="lost in extraction", note="the values are lost ('we set , , and sample the and uniformly at "
      "random'); the figure claims state their own settings in their notes", manual=True),
    E("§4: Figure 1(a)/(b): joint vs frozen c^, the same qualitative behaviour", 281, 281, _T + "fig1", manual=True),
    E("§4: Figure 2(a): linearized dynamics do not explain fine-tuning at xi = 1", 282, 282, _T + "fig2",
      manual=True),
    E("§4: Figure 2(b): joint training: an initial phase of high loss in which the overlap stays low", 282, 282,
      _T + "fig2b", manual=True),
    E("§4: Figure 3: no saddle at initialization for several activations", 283, 283, _T + "fig3", manual=True),
    E("§4: Figure 4: non-orthogonal u, the overlap's evolution the same across the parallel component", 284, 285,
      _T + "fig4", manual=True),
    E("§4: Figure 5: h_3 activation, the weak-recovery plateau grows with the scale xi", 286, 287, _T + "fig5",
      manual=True),
    E("Outlook: joint training is 'roughly twice as efficient' as freezing c^ (Figure 1)", 292, 292,
      _T + "fig1.ratio", manual=True),
    # ---------------------------------------------------------------- App. A
    E("eq. (10)", 328, 328, reason="definition", note="the target model written out for App. A.1 (formula lost)"),
    E("Remark 4", 339, 343, reason="cited", note="networks whose moment tensors vanish are those of [12, 20]"),
    E("Proposition 4", 344, 345, _T + "prop4", note=_REC + " (the d-dependence; the bound's form is lost)"),
    E("Proposition 5", 353, 354, _T + "cond2", note=_REC + " (the d-dependence of both cases, L356-360)"),
    E("Proposition 6", 361, 362, _T + "prop6", note=_REC),
    E("Definition 1", 372, 375, reason="definition", note="normalized multilinear polynomials"),
    E("Lemma 4", 376, 378, reason="cited", note="Carbery-Wright inequality [9]"),
    E("Lemma 5", 379, 381, reason="cited", note="invariance principle [25, Thm 2.1]"),
    E("Claim 3", 382, 383, _T + "claim3", note=_REC),
    E("Corollary 1", 389, 390, _T + "claim3", note=_REC),
    E("Lemma 6", 395, 397, _T + "lemma6", note=_REC),
    E("eq. (11)", 404, 404, _T + "claim4", note=_REC),
    E("Claim 4", 406, 407, _T + "claim4", note=_REC),
    E("Proposition 7", 413, 415, _T + "lemma6", note=_REC + " (Eq. (11)'s M for orthonormal rows, ReLU, xi = 1)"),
    E("Proposition 8", 420, 422, _T + "prop8", _T + "lemma6", note=_REC),
    E("eq. (12)", 467, 467, reason="lost in extraction", note="a step of the proof of Proposition 2"),
    E("eq. (13)", 477, 477, reason="lost in extraction", note="a step of the proof of Proposition 2"),
    # ---------------------------------------------------------------- App. B: proof of Theorem 7
    E("Claim 5", 501, 501, reason="lost in extraction", note=_LOST_STEP),
    E("Claim 6", 507, 509, reason="lost in extraction", note=_LOST_STEP),
    E("Lemma 7", 517, 519, reason="cited", note="Freedman's inequality"),
    E("Claim 7", 520, 521, reason="lost in extraction", note=_LOST_STEP),
    E("Claim 8", 540, 541, reason="lost in extraction", note=_LOST_STEP),
    E("Claim 9", 545, 547, reason="lost in extraction", note=_LOST_STEP + " (the martingale part follows from "
      "Condition 1, covered by dayi2024.prop1)"),
    E("eq. (14)", 555, 555, reason="definition", note="the good event for the initial correlation (formula lost)"),
    E("eq. (15)", 557, 557, reason="definition", note="the event of the error bounds (formula lost)"),
    E("Proposition 9", 558, 559, reason="lost in extraction", note=_LOST_STEP),
    E("Lemma 8", 566, 568, reason="lost in extraction", note=_LOST_STEP),
    E("Lemma 9", 573, 575, reason="lost in extraction", note=_LOST_STEP),
    # ---------------------------------------------------------------- App. C
    E("Example 1", 595, 597, _T + "example1", note="on a substitute instance: the paper's instance is lost"),
    E("Definition 2", 600, 603, reason="definition", note="the linear model family on learned features; used by "
      "dayi2024.thm9"),
    E("eq. (16)", 602, 602, reason="definition", note="the model family of Definition 2 (formula lost)"),
    E("Theorem 9", 604, 605, _T + "thm9", note="first half (a good second layer exists), " + _REC),
    E("Theorem 9, second half: second-layer training on the family reaches the teacher", 605, 605,
      _T + "thm9.fit", note=_REC + " (the sentence is cut after 'we')", manual=True),
    E("Remark 5", 613, 614, _T + "remark5", note=_REC),
])
