"""Closed forms as sympy expressions, organised by mathematical object.

- :mod:`derivations.wishart`      inverse-Wishart moments, Marchenko-Pastur Stieltjes transform, scratch (min-norm) risk
- :mod:`derivations.transfer`     linear transfer, ridge transfer and transferability of deep linear networks
- :mod:`derivations.deep_linear`  end states of gradient flow on deep linear networks (balanced, rank one)
- :mod:`derivations.kernels`      ReLU arc-cosine kernel and RKHS projections
- :mod:`derivations.divergences`  KL divergence and Dudley metric between label distributions

Each module gives the form *as stated* by a source (docstring cites file and equation)
next to the form *as derived* here, so the two can be compared.
"""
