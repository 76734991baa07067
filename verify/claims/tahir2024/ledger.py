"""Coverage ledger of 001_759117b8232d72ac.txt (Tahir, Ganguli, Rotskoff, "Features are fate", 2024): every
labelled item of the text, with the claims that test it, or why none does (``verify.coverage``; ``python -m verify
coverage tahir2024``). Started from ``python -m verify coverage --init tahir2024``; entries marked ``manual=True`` are
result sentences of the running text and the settings of App. D.

The text's formulas survive in part (symbols and spaces were lost in extraction). A numbered display of the proofs
in App. B is "lost in extraction" only when almost nothing of it survives; otherwise it is "uncovered" with the
surviving characters quoted, until a claim re-derives the step (the theorem each proof serves is covered by its own
claim, named at its header).
"""
from verify.kit import Ledger, LedgerEntry as E

_T = "tahir2024."

LEDGER = Ledger("tahir2024", "001_759117b8232d72ac.txt", [
    # ---------------------------------------------------------------- abstract (by hand)
    E("abstract: phi-divergences and IPMs between source and target need not predict transfer", 9, 11,
      _T + "thm2.2.kl", _T + "thm2.2.dudley", _T + "thm2.2.w1", _T + "text.sec2_1.far_apart.kl",
      _T + "text.sec2_1.far_apart.w1", manual=True),
    E("abstract: a target well represented by the pretrained features: transfer beats scratch", 12, 14,
      _T + "text.abstract.well_represented", manual=True),
    E("abstract: strong feature overlap: linear transfer and fine-tuning help, especially at low data", 16, 19,
      _T + "text.abstract.strong_overlap", _T + "text.abstract.strong_overlap.largest_at_low_data", manual=True),
    E("abstract: the linear results also apply to nonlinear networks (numerically)", 19, 21,
      todo="the sign of the ReLU student-teacher transferability (Fig. 4(e)) against the kernel prediction "
           "R_sc(n) - ||P_perp f*||^2: needs the scratch runs of relu.fig4c.exponent and the transfer runs of "
           "relu.eq21 on common data; relu.eq21 covers the transfer side (21) and text.sec4.mu_monotone the "
           "monotonicity in mu", manual=True),
    E('eq. (1)', 100, 100, reason='definition', note='source data model y = f*_s(x) + eps'),
    E('eq. (2)', 102, 102, reason='definition', note='target data model'),
    E('eq. (3)', 109, 109, reason='definition', note='the network f(x; Theta) = sum c phi(x; theta)'),
    E('eq. (4)', 121, 121, reason='definition', note='population risk'),
    E('eq. (5)', 124, 124, reason='definition', note='empirical risk'),
    E('eq. (6)', 133, 133, reason='definition', note='gradient flow'),
    E('eq. (7)', 139, 139, reason='definition', note='transferability T = E R_sc - E R_tr'),
    E('eq. (8)', 147, 147, reason='definition', note='generalization error'),
    E('Assumption 2.1', 176, 185, reason='assumption', note='f in L2(R^d, p) and the label noise model of §2.1'),
    E('Theorem 2.2', 186, 203, _T + "thm2.2.dudley", _T + "thm2.2.kl", _T + "thm2.2.w1", _T + "thm2.2.kl_witness"),
    E("§2.1: positive transfer with source and target arbitrarily far apart (KL, W1)", 169, 169,
      _T + "text.sec2_1.far_apart.kl", _T + "text.sec2_1.far_apart.w1", _T + "text.sec2_1.far_apart.w1.unit_teachers",
      manual=True),
    E('eq. (9)', 217, 217, reason='definition', note='the deep linear network'),
    E("footnote 4: Theorem 2.2 also holds for the W1 metric", 201, 201, _T + "thm2.2.w1", manual=True),
    E('Assumption 3.1', 233, 236, reason='assumption', note='Gaussian inputs, datasets drawn independently'),
    E('Assumption 3.2', 237, 248, reason='assumption', note='linear source and target functions of unit norm with '
      'overlap cos(theta)'),
    E('Lemma 3.3', 256, 263, _T + "lemma3.3"),
    E('Theorem 3.4', 264, 277, _T + "thm3.4"),
    E('Theorem 3.5', 283, 292, _T + "thm3.5"),
    E('Theorem 3.6', 293, 296, _T + "thm3.6.asymptotic", _T + "thm3.6.finite"),
    E('eq. (10)', 297, 297, _T + "thm3.6.asymptotic", _T + "thm3.6.finite"),
    E('eq. (11)', 316, 316, _T + "text.sec3_3.order_of_limits"),
    E("§3.2: double descent of (10): over- and underparameterized regimes", 302, 306,
      _T + "text.sec3_2.double_descent.over", _T + "text.sec3_2.double_descent.under", manual=True),
    E("§3.3: linear transfer retrains W_L on Phi = X W_1 ... W_{L-1}", 309, 313, _T + "text.sec3_3.order_of_limits",
      manual=True),
    E('Figure 1', 339, 349, _T + "eq13", _T + "eq13.anomalous", _T + "eq13.under", _T + "eq13.roots"),
    E('Theorem 3.7', 353, 356, _T + "thm3.7"),
    E('eq. (12)', 357, 357, _T + "thm3.7"),
    E('eq. (13)', 383, 383, _T + "eq13"),
    E("§3.3: sin^2 theta is the irreducible error of linear transfer", 360, 370, _T + "text.sec3_3.irreducible_sin2",
      manual=True),
    E("§3.3: the finite-sample and noise term decays as 1/n", 371, 372, _T + "rate.sec3_3.one_over_n", manual=True),
    E("§3.3: gamma > 1: negative transfer region; the out-of-subspace component degrades transfer", 386, 390,
      _T + "eq13.under", _T + "text.sec3_3.out_of_subspace_degrades", manual=True),
    E("§3.3: gamma < 1: negative transfer only for sigma < 1; SNR < 1 always benefits; the roots gamma_+-", 391, 400,
      _T + "eq13.sigma_lt_1", _T + "text.sec3_3.snr_below_one", _T + "text.sec3_3.snr_below_one.all_gamma",
      _T + "eq13.roots", _T + "eq13.angle", _T + "eq13.noiseless", manual=True),
    E("§3.3: the region of negative transfer shrinks as sigma grows", 403, 404,
      _T + "text.sec3_3.noise_shrinks_negative_region", manual=True),
    E("§3.3: anomalous positive transfer at theta = pi/2", 404, 408, _T + "eq13.anomalous",
      _T + "eq13.anomalous.all_sigma", manual=True),
    E("§3.3: D_KL and W1 are not negatively correlated with transferability (Fig. 5)", 409, 412,
      _T + "text.sec3_3.kl_not_negatively_correlated", manual=True),
    E('eq. (14)', 419, 419, _T + "text.sec3_3_1.order_of_limits"),
    E("§3.3.1: the ridge error is strictly increasing in lambda: a larger negative region", 422, 424,
      _T + "text.sec3_3_1.larger_negative_region", _T + "thm3.8.monotone", manual=True),
    E('Theorem 3.8', 425, 427, _T + "thm3.8"),
    E('eq. (15)', 428, 428, _T + "thm3.8"),
    E('Figure 2', 441, 450, _T + "thm3.8.finite", _T + "thm3.8.monotone", _T + "text.sec3_3_1.larger_negative_region"),
    E('Theorem 3.9', 456, 459, _T + "thm3.9"),
    E('eq. (16)', 460, 460, _T + "thm3.9"),
    E('eq. (17)', 471, 471, _T + "thm3.9.transferability", _T + "thm3.9.boundary"),
    E('Figure 3', 488, 495, _T + "thm3.9.transferability", _T + "text.sec3_4.gamma_gt1_forgets"),
    E("§3.4: gamma > 1: fine-tuning forgets the pretraining (zero transferability)", 499, 504,
      _T + "text.sec3_4.gamma_gt1_forgets", manual=True),
    E("§3.4: gamma < 1: an implicit bias away from the minimum-norm solution; theta < pi/3 positive", 504, 508,
      _T + "text.sec3_4.bias_away_from_min_norm", _T + "thm3.9.boundary", manual=True),
    E('eq. (18)', 515, 515, reason='definition', note='the two-layer ReLU network of §4'),
    E('Figure 4', 541, 563, _T + "text.sec4.mu_monotone", _T + "relu.fig4ab.kernel", _T + "relu.fig4c.exponent",
      note='panels (a)-(b) (relu.fig4ab.kernel), (c) (relu.fig4c.exponent), (d) (text.sec4.mu_monotone); panel (e) '
      'is the uncovered Fig. 4(e) entry below'),
    E('eq. (19)', 564, 564, reason='definition', note='the ablated source teacher f*_s (sum over A^c)'),
    E('eq. (20)', 570, 570, reason='definition', note='the target teacher f*_t (all m* neurons)'),
    E("§4: Fig. 4(a)-(b): the pretrained kernel matches the teacher's on the shared features", 593, 596,
      _T + "relu.fig4ab.kernel", manual=True),
    E('Theorem 3.4 #2', 597, 603, reason='restatement', note="§4's one-line restatement of Theorem 3.4"),
    E('eq. (21)', 604, 604, _T + "relu.eq21"),
    E("§4: ||P_perp f*|| increases with mu (Fig. 4(d)); deep linear: sin^2 theta and C(n) ~ 1/n", 606, 609,
      _T + "text.sec4.mu_monotone", _T + "rate.sec3_3.one_over_n", manual=True),
    E("§4: Fig. 4(c): the scratch-trained ReLU error follows A n^-nu with nu = 1.18", 616, 617,
      _T + "relu.fig4c.exponent", manual=True),
    E("§4: Fig. 4(e): the boundary heuristic ||P_perp f*||^2 = A n^-nu grows more accurate with n", 620, 626,
      todo="the predicted negative-transfer point in n for each mu against simulated transferability (its stated "
           "reason, C(n) -> 0, is relu.eq21)", manual=True),
    E('eq. (22)', 728, 728, reason='assumption', note='the initialization assumption (Yun et al.)'),
    E('eq. (23)', 736, 736, reason='definition', note='the Dudley metric'),
    E('eq. (24)', 740, 740, reason='definition', note='the bounded-Lipschitz norm'),
    E('eq. (25)', 746, 746, todo="a step of the proof of Theorem 2.2 (App. B.1) (surviving: 'γ β(p f,p g)= sup "
      "(cid:12) h(x,y)e 2σ2 h(x,y)e 2σ2 p(x)dxdy(cid:12)'): re-derive it from the lines around it "
      '(symbolically, or on simulated runs)'),
    E('eq. (26)', 749, 749, todo="a step of the proof of Theorem 2.2 (App. B.1) (surviving: '(cid:12) e 2σ2 e 2σ2 "
      "p(x)dxdy(cid:12)'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (27)', 753, 753, _T + "thm2.2.eq28"),
    E('eq. (28)', 757, 757, _T + "thm2.2.eq28"),
    E('eq. (29)', 759, 759, reason='lost in extraction', note="a step of the proof of Theorem 2.2 (App. B.1); only ''"
      ' survives of the line'),
    E('eq. (30)', 775, 775, todo="a step of the proof of Theorem 2.2 (App. B.1) (surviving: 'f(x)2p(x)dx= α α p(x)ϕ "
      "(x)ϕ (x)dx= α2'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (31)', 801, 801, _T + "thm2.2.kl_form"),
    E('eq. (32)', 802, 802, _T + "thm2.2.kl_form"),
    E('eq. (33)', 804, 804, _T + "thm2.2.kl_form"),
    E('eq. (34)', 807, 807, _T + "thm2.2.kl_form"),
    E('eq. (35)', 815, 815, _T + "rate.lemma3_3.balance"),
    E('eq. (36)', 824, 824, reason='lost in extraction', note="a step of the proof of Lemma 3.3 (App. B.2); only '˙ "
      "=(cid:88) ,W˙' survives of the line"),
    E('eq. (37)', 830, 830, reason='lost in extraction', note="a step of the proof of Lemma 3.3 (App. B.2); only '= "
      "2' survives of the line"),
    E('eq. (38)', 833, 833, reason='lost in extraction', note="a step of the proof of Lemma 3.3 (App. B.2); only '2' "
      'survives of the line'),
    E('eq. (39)', 835, 835, todo="a step of the proof of Lemma 3.3 (App. B.2) (surviving: '= WT ...WTr 2'): re-derive"
      ' it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (40)', 837, 837, todo="a step of the proof of Lemma 3.3 (App. B.2) (surviving: '2σ2 (WT ...WT)'): re-"
      'derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (41)', 839, 839, reason='lost in extraction', note="a step of the proof of Lemma 3.3 (App. B.2); only '' "
      'survives of the line'),
    E('eq. (42)', 844, 844, todo="a step of the proof of Lemma 3.3 (App. B.2) (surviving: 'WT ...WTW ...W =WT ...WT(W"
      " WT +D )W ...W'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (43)', 846, 846, todo="a step of the proof of Lemma 3.3 (App. B.2) (surviving: '≽WT ...WT(WTW )2W ...W'): "
      're-derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (44)', 851, 851, todo="a step of the proof of Lemma 3.3 (App. B.2) (surviving: '≽(WT W )L−1'): re-derive "
      'it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (45)', 853, 853, todo="a step of the proof of Lemma 3.3 (App. B.2) (surviving: '=(W WT +D )L−1'): re-"
      'derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (46)', 855, 855, todo="a step of the proof of Lemma 3.3 (App. B.2) (surviving: '≽(α2λ)L−1'): re-derive it "
      'from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (47)', 857, 857, todo="a step of the proof of Lemma 3.3 (App. B.2) (surviving: '˙ 2(α2λ)L−1'): re-derive "
      'it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (48)', 861, 861, reason='lost in extraction', note="a step of the proof of Lemma 3.3 (App. B.2); only '' "
      'survives of the line'),
    E('eq. (49)', 863, 863, todo="a step of the proof of Lemma 3.3 (App. B.2) (surviving: '= lim (t)=0'): re-derive "
      'it from the lines around it (symbolically, or on simulated runs)'),
    E('Lemma B.1', 871, 871, _T + "rate.lemmaB1.eq50", _T + "rate.lemmaB1.eq69"),
    E('eq. (50)', 872, 872, _T + "rate.lemmaB1.eq50"),
    E('eq. (51)', 876, 876, _T + "rate.lemmaB1.eq69"),
    E('eq. (52)', 884, 884, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: 'W 2 W 2 =α2("
      " W¯ 2 W¯ 2)'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (53)', 887, 887, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: '(cid:88) W 2"
      " W 2 =α2(cid:88) ( W¯ 2 W¯ 2)'): re-derive it from the lines around it (symbolically, or on simulated "
      'runs)'),
    E('eq. (54)', 890, 890, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: 'W 2 W 2 =α2("
      " W¯ 2 W¯ 2)'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (55)', 895, 895, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: 'W 2 =vTWTW v"
      " uT WTW u'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (56)', 897, 897, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: '=uT (D +WT W"
      " )u'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (57)', 899, 899, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: '= W 2 +α2uT "
      "(W¯ TW¯ W¯ W¯ T )u'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (58)', 901, 901, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: 'W 2 +α2( W¯ "
      "2 W¯ 2 )'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (59)', 905, 905, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: 'W 2 W¯ 2 "
      "+α2( W¯ 2 W¯ 2 )'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (60)', 908, 908, _T + "rate.lemmaB1.eq60"),
    E('eq. (61)', 914, 914, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: 'vTW WT v "
      "=vTWTW v vTD v'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (62)', 916, 916, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: 's2 α2 W¯ TW¯"
      " W¯ W¯ T 2'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (63)', 919, 919, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: 'vTW WT v "
      "=vT(s2 u u W WT s2 u u )v'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (64)', 921, 921, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: 's2 (vTu )2+ "
      "W 2 W 2'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (65)', 924, 924, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: 's2 s2 (vTu "
      ")2+α2 W¯ TW¯ W¯ W¯ T 2 + W 2 W 2'): re-derive it from the lines around it (symbolically, or on simulated"
      ' runs)'),
    E('eq. (66)', 928, 928, reason='lost in extraction', note='a step of the proof of Theorem 3.4 / Lemma B.1 (App. '
      "B.3); only '' survives of the line"),
    E('eq. (67)', 931, 931, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: 's2 uT WTW "
      "u'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (68)', 933, 933, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: 's2 α2 W¯ TW¯"
      " W¯ W¯ T 2'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (69)', 938, 938, _T + "rate.lemmaB1.eq69"),
    E('eq. (70)', 941, 941, _T + "rate.lemmaB1.eq69"),
    E('eq. (71)', 949, 949, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: '∥yˆ ∥2 lim W"
      " W ...W lim (cid:89) s2'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (72)', 960, 960, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: 'lim s2 >0'):"
      ' re-derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (73)', 968, 968, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: 'W W ...W =cu"
      " vT'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (74)', 972, 972, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: 'W ...W W "
      "=β'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (75)', 974, 974, todo="a step of the proof of Theorem 3.4 / Lemma B.1 (App. B.3) (surviving: '=cu (vT W "
      ")'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (76)', 976, 976, reason='lost in extraction', note='a step of the proof of Theorem 3.4 / Lemma B.1 (App. '
      "B.3); only '=cu' survives of the line"),
    E('eq. (77)', 982, 982, _T + "thm3.4"),
    E('eq. (78)', 995, 995, todo="a step of the proof of Theorem 3.5 (App. B.4) (surviving: '= r 2 = ( r 2+ r 2)'): "
      're-derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (79)', 1009, 1009, reason='lost in extraction', note='a step of the proof of Theorem 3.5 (App. B.4); only '
      "'˙ =(cid:88) ,W˙' survives of the line"),
    E('eq. (80)', 1015, 1015, reason='lost in extraction', note='a step of the proof of Theorem 3.5 (App. B.4); only '
      "'= ,' survives of the line"),
    E('eq. (81)', 1021, 1021, todo="a step of the proof of Theorem 3.5 (App. B.4) (surviving: '= ( 2 + , )'): re-"
      'derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (82)', 1027, 1027, todo="a step of the proof of Theorem 3.5 (App. B.4) (surviving: '=WT ...WTXTP rWT ...WT"
      " =0'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (83)', 1031, 1031, reason='lost in extraction', note='a step of the proof of Theorem 3.5 (App. B.4); only '
      "'˙ = (cid:88) 2' survives of the line"),
    E('eq. (84)', 1034, 1034, reason='lost in extraction', note='a step of the proof of Theorem 3.5 (App. B.4); only '
      "'2' survives of the line"),
    E('eq. (85)', 1036, 1036, todo="a step of the proof of Theorem 3.5 (App. B.4) (surviving: '= WT ...WTXTP r 2'): "
      're-derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (86)', 1038, 1038, todo="a step of the proof of Theorem 3.5 (App. B.4) (surviving: 'σ2 (WT ...WT) XTP r "
      "2'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (87)', 1043, 1043, todo="a step of the proof of Theorem 3.5 (App. B.4) (surviving: '˙ (α2λ)L−1 XTP r 2'): "
      're-derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (88)', 1045, 1045, todo="a step of the proof of Theorem 3.5 (App. B.4) (surviving: '2(α2λ)L−1λ'): re-"
      'derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (89)', 1067, 1067, _T + "thm3.5"),
    E('eq. (90)', 1077, 1077, todo="a step of the proof of Theorem 3.5 (App. B.4) (surviving: 'W⊥(t) = W⊥(0) α W¯'): "
      're-derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (91)', 1088, 1088, todo="a step of the proof of Theorem 3.6 (App. B.5) (surviving: 'E =E β βˆ 2'): re-"
      'derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (92)', 1090, 1090, todo="a step of the proof of Theorem 3.6 (App. B.5) (surviving: '=1+E βˆ 2 2E βˆ,β'): "
      're-derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (93)', 1092, 1092, todo="a step of the proof of Theorem 3.6 (App. B.5) (surviving: '=1+E βT(X+X)T(X+X)β +E"
      " ϵT(X+)TX+ϵ+2E ϵT(X+X)β'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (94)', 1094, 1094, todo="a step of the proof of Theorem 3.6 (App. B.5) (surviving: '2(E βT(X+X)β +E "
      "βTX+ϵ)'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (95)', 1096, 1096, _T + "thm3.6.finite"),
    E('eq. (96)', 1105, 1105, _T + "thm3.6.finite"),
    E('eq. (97)', 1114, 1114, _T + "thm3.6.finite"),
    E('eq. (98)', 1121, 1121, todo="a step of the proof of Theorem 3.6 (App. B.5) (surviving: 'E tr((X+)TX+)= E "
      "tr(C−1)'): re-derive it from the lines around it (symbolically, or on simulated runs)"),
    E('eq. (99)', 1124, 1124, _T + "thm3.6.stieltjes"),
    E('eq. (100)', 1126, 1126, _T + "thm3.6.stieltjes"),
    E('eq. (101)', 1137, 1137, _T + "thm3.6.stieltjes"),
    E('eq. (102)', 1140, 1140, _T + "thm3.6.stieltjes"),
    E('eq. (103)', 1152, 1152, _T + "thm3.6.asymptotic"),
    E('eq. (104)', 1160, 1160, todo="a step of the proof of Theorem 3.7 (App. B.6) (surviving: 'Φ+ = v (Xβ )T'): re-"
      'derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (105)', 1164, 1164, todo="a step of the proof of Theorem 3.7 (App. B.6) (surviving: 'βˆ=W ...W Wˆ'): re-"
      'derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (106)', 1166, 1166, todo="a step of the proof of Theorem 3.7 (App. B.6) (surviving: '=W ...W Φ+y'): re-"
      'derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (107)', 1168, 1168, reason='lost in extraction', note='a step of the proof of Theorem 3.7 (App. B.6); only'
      " '=bβ' survives of the line"),
    E('eq. (108)', 1172, 1172, todo="a step of the proof of Theorem 3.7 (App. B.6) (surviving: 'b= src t'): re-derive"
      ' it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (109)', 1176, 1176, todo="a step of the proof of Theorem 3.7 (App. B.6) (surviving: '= src t + src'): re-"
      'derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (110)', 1180, 1180, todo="a step of the proof of Theorem 3.7 (App. B.6) (surviving: 'E = βˆ β 2'): re-"
      'derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (111)', 1182, 1182, todo="a step of the proof of Theorem 3.7 (App. B.6) (surviving: '=1+E b2 2cosθE b'): "
      're-derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (112)', 1192, 1192, reason='lost in extraction', note='a step of the proof of Theorem 3.7 (App. B.6); only'
      " 'E b=E b' survives of the line"),
    E('eq. (113)', 1194, 1194, reason='lost in extraction', note='a step of the proof of Theorem 3.7 (App. B.6); only'
      " '=cosθ' survives of the line"),
    E('eq. (114)', 1195, 1195, todo="a step of the proof of Theorem 3.7 (App. B.6) (surviving: 'E b2 =E b2'): re-"
      'derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (115)', 1198, 1198, todo="a step of the proof of Theorem 3.7 (App. B.6) (surviving: '=cos2θ+(sin2θ+σ2)E'):"
      ' re-derive it from the lines around it (symbolically, or on simulated runs)'),
    E('eq. (116)', 1208, 1208, _T + "thm3.7.chi2"),
    E('eq. (117)', 1212, 1212, _T + "thm3.7.chi2"),
    E('eq. (118)', 1216, 1216, _T + "thm3.7.chi2"),
    E('eq. (119)', 1220, 1220, _T + "thm3.7.chi2"),
    E('eq. (120)', 1223, 1223, _T + "thm3.7.chi2"),
    E('eq. (121)', 1229, 1229, _T + "text.sec3_3_1.order_of_limits"),
    E('eq. (122)', 1232, 1232, _T + "text.sec3_3_1.order_of_limits"),
    E('eq. (123)', 1234, 1234, _T + "text.sec3_3_1.order_of_limits"),
    E('eq. (124)', 1238, 1238, _T + "text.sec3_3_1.order_of_limits"),
    E('eq. (125)', 1240, 1240, _T + "text.sec3_3_1.order_of_limits"),
    E('eq. (126)', 1243, 1243, _T + "text.sec3_3_1.order_of_limits"),
    E('eq. (127)', 1253, 1253, _T + "thm3.8.finite"),
    E('eq. (128)', 1255, 1255, _T + "thm3.8.finite"),
    E('eq. (129)', 1260, 1260, _T + "thm3.8.finite"),
    E('eq. (130)', 1264, 1264, _T + "thm3.8.finite"),
    E('eq. (131)', 1272, 1272, _T + "thm3.8.saddle"),
    E('eq. (132)', 1275, 1275, _T + "thm3.8.saddle"),
    E('eq. (133)', 1278, 1278, _T + "thm3.8.saddle"),
    E('eq. (134)', 1281, 1281, _T + "thm3.8.saddle"),
    E('eq. (135)', 1293, 1293, _T + "thm3.8.saddle"),
    E('eq. (136)', 1297, 1297, _T + "thm3.8.saddle"),
    E('eq. (137)', 1300, 1300, _T + "thm3.8.saddle"),
    E('eq. (138)', 1303, 1303, _T + "thm3.8.saddle"),
    E('eq. (139)', 1311, 1311, _T + "thm3.8.saddle"),
    E('eq. (140)', 1314, 1314, _T + "thm3.8.saddle"),
    E('eq. (141)', 1318, 1318, _T + "thm3.8"),
    E('eq. (142)', 1337, 1337, _T + "thm3.9.end_state"),
    E('eq. (143)', 1375, 1375, _T + "thm3.9.eq143",
      note="its sum runs to n - d where the projector I - P_row(X) has d - n dimensions (the text says so)"),
    E('eq. (144)', 1379, 1379, _T + "thm3.9.eq143"),
    E('eq. (145)', 1387, 1387, reason='definition', note='the ReLU model of App. C'),
    E('eq. (146)', 1392, 1392, reason='definition', note='the ReLU teacher of App. C'),
    E('eq. (147)', 1406, 1406, reason='definition', note='the RKHS of the kernel'),
    E('eq. (148)', 1415, 1415, reason='definition', note='the RKHS norm of a finite expansion'),
    E('eq. (149)', 1422, 1422, _T + "appC.mercer"),
    E('eq. (150)', 1428, 1428, _T + "appC.mercer"),
    E('eq. (151)', 1438, 1438, _T + "appC.mercer"),
    E('eq. (152)', 1449, 1449, _T + "appC.overlap"),
    E('eq. (153)', 1452, 1452, _T + "appC.overlap"),
    E('eq. (154)', 1460, 1460, _T + "appC.mercer", _T + "appC.projection"),
    E('eq. (155)', 1463, 1463, _T + "appC.projection"),
    E('eq. (156)', 1467, 1467, _T + "appC.projection"),
    E('eq. (157)', 1475, 1475, _T + "appC.mercer"),
    E('eq. (158)', 1485, 1485, _T + "appC.projection"),
    E('eq. (159)', 1489, 1489, _T + "appC.projection"),
    E('Figure 5', 1518, 1541, _T + "text.fig5.w1_axis", _T + "text.sec3_3.kl_not_negatively_correlated"),
    E("App. D.1 settings: L = 2, d = 500, alpha = 1e-5, eta = 1e-3, 1e5 steps or loss 1e-6, 20 draws", 1493, 1498,
      _T + "text.sec3_3.order_of_limits", manual=True),
    E("App. D.2 settings: d = 100, m = 1000, m* = 100, output weights 1e-7, lr 0.01 m, 100 data draws", 1499, 1504,
      _T + "relu.fig4ab.kernel", _T + "relu.eq21", _T + "relu.fig4c.exponent",
      note="the settings of every relu.* claim (numerics.meanfield); App. D.2's sizes at the full profile only, "
           "reduced sizes and steps at quick and standard (relu.py's docstring)", manual=True),
    E('Figure 6', 1542, 1550, _T + "text.fig6.always_negative_gamma_gt1", _T + "eq13.noiseless",
      note="its caption calls the surface '(7)' (the definition of transferability); Fig. 1 names (13)"),
    E('Figure 7', 1570, 1572, _T + "eq13.noiseless"),
])
