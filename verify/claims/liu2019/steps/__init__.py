"""002 App. C, the displayed steps left uncovered after appendix.py, orders.py and slips.py (issue 27): the
decompositions (5) and (39), the split (18)-(19), the one-step analysis of the proof of Theorem 3 (L460-L501), the
replacement (34)-(36), the main term of (42), and the rewriting of y_Q - u_Q(P) (L440, L577).

Each is checked on one drawn network trained literally (numerics.two_layer): a two-layer ReLU net of width m = 1024
(d = 8, n_P = n_Q = 4, kappa = 1, a_r = +-1), pretrained on (X_P, y_P) from W(0) for K_P steps and fine-tuned on
(X_Q, y_Q) from W(P) for K_Q steps, eta = 1/lambda_max(H^inf) per phase, on the synthetic tasks of common.py (task
point phi = pi/3, c = 1).  The identities are the text's lines evaluated with the quantities they name (e_P(k), e(k),
eps, eps_1 + eps_2, zeta(k) defined by the line that introduces them); the bounds are the text's inequalities on the
same run.  Where the proof fixes S_i by a radius R with a premise ('R' < R', L472; Lemma 1's radius below (16)'s R),
R is the text's own where the drawn network satisfies the premise, else the smallest R that does (R = R', the largest
movement of any unit): the identities that need the premise are then exact, so a failing check is a wrong line, not
a width too small.

Modules, one per result the steps serve (the claims of each live in its ``CLAIMS``; this package declares none):
:mod:`.thm1` (App. C.1), :mod:`.thm2` (App. C.2.2), :mod:`.thm3` (App. C.2.1, with Lemma 4's L440); :mod:`.network`
holds the drawn network and what several of them use (the decompositions (5)/(39), the split (18)).
"""
