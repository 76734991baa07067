"""General identities (not a paper): Hermite expansions of activations and the infinite-width kernels they give,
each object computed exactly (sympy), in high precision (mpmath) and by Monte Carlo (torch).  Used by
000 §6, 001 App. C, 002 §6 and 003 (derivations/hermite.py, derivations/kernels.py)."""

from verify.kit import Paper

# not a paper: standard identities several sources rest on, checked once (derivations/hermite.py)
PAPER = Paper("hermite", "derivations/hermite.py",
              ("General identities: Hermite expansions and infinite-width kernels"
               " (used by Shachaf et al. 2021 §6, Tahir et al. 2024 App. C, Liu et al. 2019 §6 and Dayi et al. 2024)"))
