"""§6 of 000_efaf07e323d59f0e.txt (Shachaf, Brutzkus, Globerson, NeurIPS 2021): fine-tuning a two-layer ReLU
network in the NTK regime — Theorem 6.1 (eq. (11)), Corollaries 6.2 and 6.3, and the checkable sentences
around them.

- ``cor6.2``        sqrt(y~^T (H^inf)^{-1} y~) <= 3 ||theta_T - theta_S|| for y~ = X (theta_T - theta_S): hypothesis
                    search over inputs (nearly parallel, nearly antipodal, Gaussian), n <= d and teachers, in
                    50-digit mpmath where float64 could decide; our derivation gives the sharp constant 2;
- ``thm6.1``        (11) on literal wide networks (pretraining then fine-tuning by GD) and on its kernel limit;
                    the O(.) term has no constant, so only its first term can be compared with the risk;
- ``cor6.3``        R <= 6 ||theta_T - theta_S|| / sqrt(n) + O(.): the composition 2 x 3 (sympy), the first term
                    against the risk under Assumption 3.2 (kernel limit, many draws) and on literal networks;
- ``sec6.distance`` "fine-tuning is improved as the distance between source and target decreases";
- ``sec6.gram``     the proof approach: ||H(t) - H^inf|| decreasing in m, through pretraining and fine-tuning;
                    the weights move less as m grows.

The literal runs (numerics/ntk_finetune.py) are shared by thm6.1, cor6.3, sec6.distance and sec6.gram: one
simulation per width m and run seed, seeded by ``ctx.generator("shachaf2021.sec6", "literal", "m=...")``
(independent of which claims are selected), cached for the run.

Modules, one per result (the claims of each live in its ``CLAIMS``; this package declares none): :mod:`.cor6_2`,
:mod:`.thm6_1`, :mod:`.cor6_3`, :mod:`.sentences` (sec6.distance, sec6.gram, sec6.residual); :mod:`.common` holds
the setting, the literal runs and the helpers several of them use.
"""
