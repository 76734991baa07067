"""Claims of Hastie, Montanari, Rosset, Tibshirani, "Surprises in high-dimensional ridgeless least squares
interpolation" (arXiv 1903.08560, 2019; Annals of Statistics 50(2), 2022): a worked example of a claims package
outside the suite, encoded as a user would (see docs/tutorial.md).

Why this paper: its Theorem 1 (isotropic features, the minimum-norm interpolator) is a closed form everybody in
the field knows, double descent in two lines, and the suite already has the literal procedure (minimum-norm least
squares on Gaussian designs, ``numerics.scratch.min_norm_risk``) and our exact finite-size risk
(``derivations.wishart.scratch_risk_finite``): a user reuses both.
"""
from verify.kit import Paper

PAPER = Paper("hastie2019", "arXiv:1903.08560",
              "Hastie, Montanari, Rosset, Tibshirani, Surprises in high-dimensional ridgeless least squares "
              "interpolation (arXiv 1903.08560, 2019; Ann. Statist. 2022)")
