"""The displayed steps of the proofs in App. B of 001_759117b8232d72ac.txt (issue 27), re-derived one link at a time.

Each claim reads a chain of consecutive displays (role "proof step", ``holds_by`` = the claim of the result the proof
serves) and checks every link of it separately, so a failing check names the display that fails.  The text lost most
symbols of these displays in extraction; every claim's notes say what survives and how the step was reconstructed.

How the links are checked:

- symbolic steps (B.1): sympy, reading the claim's stated form (so ``verify mutants`` can perturb it);
- steps of the gradient-flow proofs (B.2-B.4) that follow from the invariants (35) and the assumption (22) only: on
  random instances that satisfy them *exactly*, W_l = Q_l (W_{l+1} W_{l+1}^T + alpha^2 Dbar_l)^{1/2} built from the
  last layer down (Q_l Haar orthogonal, Dbar_l = G G^T / d + I with G Gaussian times ``spread``, so (22) holds with
  lambda = 1, and with the tight lambda = min_l lambda_min(Dbar_l) used in every bound), and on the initial point
  W(0) = alpha Wbar of the flow itself (half the trials of every point).  A step that holds only along the flow
  and not on every point of the invariant set would be flagged by the second half only: every failing check says
  how many of its failing trials are initial points alpha Wbar (the flow's own starting point) and how many are
  other points of the invariant set (at quick, seed 0, every failing link below fails at initial points too);
- steps about the end of training (B.3-B.4): on the literal gradient-descent runs of :mod:`numerics.deep_linear`
  (pretraining on the population loss (4), scratch training on the empirical loss (5));
- algebra of the risk computations (B.5-B.6): per draw, on the data of :mod:`numerics.transfer`; the expectations
  (112)-(115) by Monte Carlo.

A relation is taken as holding when it holds to round-off: an equality to 1e-9 relative, an inequality
a >= b when (a - b) / (1 + |a| + |b|) >= -1e-9 on every trial.

Findings (proof-step errata; the results the proofs serve are judged by their own claims):

- ``proof.lemma3_3.eq42_46``: the elided links between (43) and (44) use (A + D)^k >= A^k for PSD A, D, which fails
  for k >= 2 (x^k is not operator monotone): P_k >= P_{k+1} fails on instances of depth L >= 4, and so does the
  displayed (44) itself at L = 5 (measured at quick, on initial points alpha Wbar too).  The conclusion holds
  (sigma_min^2(W_1...W_{L-1}) >= prod_l lambda_min(W_l^T W_l) >= (alpha^2 lambda)^{L-1} is a correct proof).
- ``proof.lemmaB1.eq59``: (59) has Wbar_L (the initialization) where the sum of (58) gives W_L.
- ``proof.lemmaB1.eq64_65``: (64)-(65) print ||W_{l+1}||_F^2 - ||W_{l+1}||_F^2 (= 0) for ||W_{l+1}||_F^2 -
  ||W_{l+1}||_op^2.
- ``proof.thm3_5.eq81_88``: the factor 1/(2n) of the loss (78) is dropped from (81) on, and the gradient's factor
  2 in (85): the printed rate (88), dL_par/dt <= -2 (alpha^2 lambda)^{L-1} lambda_min L_par, fails at the initial
  point of the flow; the rate is (2/n) (alpha^2 lambda)^{L-1} lambda_min (convergence itself is unaffected).

- ``proof.thm3_7.eq117``, ``proof.thm3_9.eq143``, ``proof.thm3_6.eq93``, ``proof.thm3_5.ker``: a sign (117), a
  transposed index bound (143), a missing (X^+)^T (93) and ker(X^T) for ker(X) (before (90)); every result they serve
  holds.

Modules, one per section of App. B (the claims of each live in its ``CLAIMS``; this package declares none):
:mod:`.thm2_2` (B.1), :mod:`.lemma3_3` (B.2), :mod:`.thm3_4` (B.3: Lemma B.1 and (73)-(76)), :mod:`.thm3_5` (B.4),
:mod:`.thm3_6` (B.5), :mod:`.thm3_7` (B.6); :mod:`.slips` (symbols of single displayed lines that contradict the lines
around them: (90)'s ker(X^T), (93)'s cross term, (117)'s sign, (143)'s index bound); :mod:`.common` holds what several sections share (the link
bookkeeping, the invariant-set instances, the literal scratch runs, the power-witness wrappers).
"""
