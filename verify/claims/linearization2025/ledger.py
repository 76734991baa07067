"""Coverage ledger of 004_04c86723a9734555.txt (a slide deck presenting "Linearization Explains Fine-Tuning in Large
Language Models", NeurIPS 2025): every slide, theorem slide and displayed equation of the deck, with the claims that
test it, or why none does (``verify.audit.coverage``; ``python -m verify coverage linearization2025``). Started from
``python -m verify coverage --init linearization2025``; a slide's key is its title (repeated titles get #2, #3:
a theorem restated on each of its proof slides); entries marked ``manual=True`` are result sentences on the slides.
"""
from verify.kit import Ledger, LedgerEntry as E

_T = "linearization2025."

LEDGER = Ledger("linearization2025", "004_04c86723a9734555.txt", [
    # ---------------------------------------------------------------- §§1-3: setting, Lemma 3, Theorems 1-4
    E("slide: Motivation", 15, 26, reason="no result",
      note="the paper's aims and ideas, restated by the results below"),
    E("slide: Problem Formulation", 33, 52, reason="definition", note="the regularized objective and the split "
      "update; 'theta* = min_theta' is meant as argmin, R~ is a sum (not a mean) of the losses"),
    E("Problem Formulation: 'theta* = min_theta [R~(theta) + lambda/2 ||theta - theta_0||^2]' (argmin written min)", 46, 46,
      reason="definition", note="notational slip: theta* is a parameter, so argmin is meant (Section 4 writes "
      "'minimize'); nothing to compute", manual=True),
    E("Problem Formulation: the split optimization step (GD on R~, then on the proximal term)", 48, 50,
      _T + "lemma3", manual=True),
    E("slide: Proximity to the Pretrained Model Promotes Linearity", 62, 76, reason="restatement",
      note="the linearized model (a definition) and the claim that staying near theta_0 keeps f close to it: "
      "Theorems 3-4"),
    E("slide: Proximity : Additional Slide", 80, 80, reason="no result", note="a title without content"),
    E("Lemma 3", 84, 88, _T + "lemma3"),
    E("display L88", 88, 88, _T + "lemma3"),
    E("Theorem 1", 90, 105, _T + "thm1", _T + "thm1.proof"),
    E("Theorem 1 #2", 107, 127, _T + "thm1.proof"),
    E("Theorem 1 #3", 129, 146, _T + "thm1.selective", _T + "thm1.selective.relu", _T + "thm1.selective.long"),
    E("Lemma 1", 148, 151, _T + "lemma1"),
    E("display L151", 151, 151, _T + "lemma1"),
    E("Theorem 2", 153, 163, _T + "thm2", _T + "thm2.proof"),
    E("Theorems 2-3 put the Lipschitz constants on a ball of radius tau, Theorem 4 and the appendix on one of radius r",
      155, 155, reason="definition", note="notational: the same ball; Theorem 4 fixes its radius r through lambda_o, "
      "and thm4 / thm4.ball use r, thm2 / thm3 the radius tau = max_t ||theta_t - theta_0|| of the run", manual=True),
    E("proof of Theorem 2, L163: '(u_t^T/||u_t||) u_t = (||u_t||^2/||u_t||) u_t = ||u_t||' (a stray u_t)", 163, 163,
      reason="definition", note="notational slip: the middle term is a vector where the scalar ||u_t|| is meant; the "
      "derivative w'(t) = u_t^T u_t'/||u_t|| it justifies is right (thm2.proof)", manual=True),
    E("Theorem 2 #2", 165, 174, _T + "thm2.proof_steps"),
    E("Theorem 2 #3", 176, 186, _T + "thm2.proof"),
    E("Theorem 2 #4", 188, 202, _T + "thm2", _T + "thm2.limsup"),
    E("Theorem 3", 204, 216, _T + "thm3", _T + "thm3.proof", _T + "thm3.proof.psd"),
    E("Theorem 3 #2", 218, 227, _T + "thm3.proof.psd"),
    E("Theorem 3 #3", 229, 234, _T + "thm3", _T + "thm3.proof.chain"),
    E("display L234", 234, 234, _T + "thm3.proof.chain",
      note="its first line, '-d/dt Delta(t) = ||(k_0 - k_t)2(y(t) - y*) - lambda grad f(theta_t - theta_0), y(t) - "
           "ybar(t)||', writes an inner product as the norm of a pair: notational (nothing to compute as printed); "
           "thm3.proof.chain checks its Cauchy-Schwarz reading, the 'triangle inequality' line and the last lines"),
    E("Theorem 3 #4", 236, 244, _T + "thm3.proof", _T + "thm3", _T + "thm3.proof.chain"),
    E("Theorem 4", 248, 260, _T + "thm4", _T + "thm4.ball"),
    # ---------------------------------------------------------------- §4: kernel ridge form, Theorem 5
    E("slide: Fine-tuning can be defined as RKHS", 266, 279, _T + "kernel_ridge", _T + "kernel_ridge.finetune_sum"),
    E("display L271", 271, 271, _T + "kernel_ridge.finetune_sum"),
    E("display L275", 275, 275, reason="definition", note="R~(theta) = sum_i L(f_theta(x_i), y_i)"),
    E("display L277", 277, 277, _T + "kernel_ridge", _T + "kernel_ridge.sum"),
    E("slide: Fine-tuning can be defined as RKHS #2", 281, 311, _T + "kernel_ridge.finetune"),
    E("display L288", 288, 288, _T + "kernel_ridge.finetune"),
    E("display L290", 290, 290, reason="definition", note="the first-order Taylor model f_theta0 + phi^T w"),
    E("display L294", 294, 294, _T + "kernel_ridge.finetune"),
    E("display L302", 302, 302, reason="restatement", note="display L294 again"),
    E("display L306", 306, 306, _T + "kernel_ridge.finetune"),
    E("slide: Fine-tuning can be defined as RKHS #3", 313, 333, _T + "kernel_ridge.finetune"),
    E("display L317", 317, 317, reason="restatement", note="display L306 with f = phi^T w"),
    E("display L321", 321, 321, _T + "kernel_ridge.finetune"),
    E("display L327", 327, 327, reason="restatement", note="display L271 again"),
    E("display L329", 329, 329, reason="restatement", note="display L275 again"),
    E("display L333", 333, 333, reason="restatement", note="display L277 again"),
    E("slide: Fine-tuning can be defined as RKHS #4", 335, 349, _T + "kernel_ridge", _T + "kernel_ridge.sum"),
    E("display L339", 339, 339, _T + "kernel_ridge", _T + "kernel_ridge.sum"),
    E("display L345", 345, 345, _T + "kernel_ridge", _T + "kernel_ridge.sum"),
    E("slide: NTK directly affects the empirical risk", 351, 351, reason="no result",
      note="a title; Theorem 5 follows"),
    E("Theorem 5", 353, 381, _T + "thm5", _T + "thm5.sum"),
    E("display L355", 355, 355, _T + "thm5", _T + "thm5.sum"),
    E("Theorem 5: kappa(K + sigma I) as a guide to which parameters to tune", 359, 363, _T + "thm5.kappa",
      manual=True),
    E("display L369", 369, 369, _T + "thm5.proof"),
    E("display L373", 373, 373, _T + "thm5.proof"),
    E("display L377", 377, 377, _T + "thm5.proof"),
    E("display L381", 381, 381, _T + "thm5", _T + "thm5.proof"),
    E("slide: So far... (Section 5 opening: KRR, eigenvalue bounds, condition number, which layer to tune)", 387, 395,
      reason="restatement", note="a summary of Theorems 3-5 (thm3, kernel_ridge, thm5, thm5.kappa) and the question "
      "Theorems 6-7 answer", manual=True),
    # ---------------------------------------------------------------- §5: Theorems 6-7
    E("slide: NTK Eigenvalue Stability under Layer Addition", 397, 397, reason="no result",
      note="a title; Theorem 6 follows"),
    E("Theorem 6", 399, 403, _T + "thm6"),
    E("display L401", 401, 401, _T + "thm6", _T + "thm6.derived"),
    E("slide: Proof: skip", 405, 410, _T + "thm6", _T + "thm6.interval", note="its first bullet restates Theorem 6 "
      "as eigenvalues 'bounded at most [1 - eta, 1 + eta]', an absolute interval where the theorem has factors of "
      "lambda_i(K) (thm6.interval)"),
    E("Proof: skip: small eta, the layer does not change the empirical risk much", 408, 409,
      _T + "thm7.small_eta", _T + "thm7.small_eta.uniform", manual=True),
    E("Proof: skip: large eta that does not 'mass up' the condition number is worth tuning", 410, 410,
      reason="no result", note="advice without a criterion for 'large enough' or for the condition number; its "
      "quantitative basis is Theorem 7 (thm7.eta_le_1)", manual=True),
    E("slide: Predictive Risk Bound for Layer-wise Fine-tuning", 412, 412, reason="no result",
      note="a title; Theorem 7 follows"),
    E("Theorem 7", 414, 422, _T + "thm7", _T + "thm7.eta_le_1"),
    E("display L416", 416, 416, _T + "thm7", _T + "thm7.eta_le_1"),
    E("slide: Proof of theorem 7", 424, 440, _T + "thm7.proof"),
    E("display L428", 428, 428, _T + "thm5", note="Theorem 5 inverted"),
    E("display L432", 432, 432, _T + "thm7.proof.eigen"),
    E("display L436", 436, 436, _T + "thm7.proof.eigen"),
    E("display L440", 440, 440, _T + "thm7.proof.combine"),
    E("slide: Proof of theorem 7 #2", 442, 454, _T + "thm7.proof"),
    E("display L446", 446, 446, _T + "thm5", note="Theorem 5 for K + S"),
    E("display L450", 450, 450, _T + "thm7.proof.eigen"),
    E("display L454", 454, 454, _T + "thm7.proof", _T + "thm7.proof.combine",
      note="its upper end has lambda_min(K + sigma I) where L450 gives lambda_max: true but weaker (thm7.proof), and "
           "L464 does not follow from it (thm7.proof.combine)"),
    E("slide: Proof of theorem 7 #3", 456, 470, _T + "thm7.proof"),
    E("display L460", 460, 460, _T + "thm7.proof", _T + "thm7.proof.combine"),
    E("display L464", 464, 464, _T + "thm7.proof", _T + "thm7.proof.combine"),
    E("Theorem 7 defines S as 'the kernel induced by theta' with gradients in theta^", 418, 418, reason="definition",
      note="notational: S is the kernel of the candidate parameters theta^ (Theorem 6's S_l); as used in thm7", manual=True),
    E("display L470", 470, 470, _T + "thm7", note="Theorem 7's statement again"),
    # ---------------------------------------------------------------- §6: experiments
    E("slide: Experiments", 476, 492, _T + "exp.unrunnable"),
    E("Experiments setup: RoBERTa-base with LoRA on SST-2, CoLA, IMDb, Yelp; cross-entropy and AdamW", 486, 492,
      reason="needs data", note="pretrained RoBERTa weights and the GLUE/IMDb/Yelp data cannot be had offline",
      manual=True),
    E("slide: Does the regularizer in fact make the model linear?", 494, 507, _T + "exp.table_linearity",
      _T + "exp.table_distance", _T + "exp.table_linearity.monotone", _T + "exp.simulated"),
    E("table L497", 497, 505, _T + "exp.table_distance", _T + "exp.table_linearity",
      _T + "exp.table_linearity.monotone"),
    E("Experiments: as lambda increases the model behaves more like a linear model", 507, 507,
      _T + "exp.table_linearity", _T + "exp.table_linearity.monotone", _T + "exp.simulated", manual=True),
    E("slide: Does the condition number on matrix K really bound the empi…", 510, 524, _T + "exp.unrunnable",
      _T + "thm5.kappa"),
    E("slide: Limitation", 528, 528, reason="no result", note="a title"),
    E("slide: Limitation #2", 530, 534, reason="no result", note="the presenters' critique of the paper"),
    # ---------------------------------------------------------------- appendix slides
    E("Lemma 3 #2", 540, 552, _T + "lemma3.proof"),
    E("display L544", 544, 544, _T + "lemma3"),
    E("Lemma 1 #2", 554, 561, _T + "thm2", _T + "thm2.proof", _T + "lemma1.label", note="titled 'Lemma 1. Norm Bounds and Lipschitzness' "
      "but it shows Theorem 2's statement and the first steps of its proof"),
    E("Theorem 4 #2", 563, 573, _T + "thm4.ball"),
    E("Theorem 4 #3", 575, 586, _T + "thm4.proof", _T + "thm4"),
])
