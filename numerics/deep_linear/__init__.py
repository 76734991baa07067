"""Deep linear networks of 001_759117b8232d72ac.txt §3, simulated literally, batched over trials.

The network is eq. (9), f(x) = x^T W_1 W_2 ... W_L with W_l in R^{d x d} for l < L and
W_L in R^{d x 1}; its end-to-end vector is beta = W_1 ... W_L (§3.1).  Every weight carries
a leading trial dimension B (W_l: (B, d, d), W_L: (B, d, 1)); every function works on any
device and keeps the dtype it is given (float64 by default).

Losses (both are quadratic in beta, so all layer gradients are rank one):

* population (4) with x ~ N(0, I_d):  1/2 ||beta - beta_s||^2 (+ sigma^2/2, a constant that
  does not change the gradients; we report the *excess* loss, without it);
* empirical (5):  1/(2n) ||X W_1 ... W_L - y||^2.

With g = dLoss/dbeta (g = beta - beta_s, resp. X^T (X beta - y)/n), the gradient for layer l is
the outer product (W_{l-1}^T ... W_1^T g)(W_{l+1} ... W_L)^T; it is computed analytically in
O(L d^2) per step, without forming the gradients (autograd gives the same numbers to 1e-16, see
``tests/test_deep_linear.py``, and measured 2.4-3.8x slower per step for B in {1, 20},
d in {100, 500}, L in {2, 3}).

Pipelines: :func:`pretrain` (population GD on the source, Lemma 3.3 / Thm 3.4),
:func:`scratch` (empirical GD from a fresh small init, Thm 3.5), :func:`finetune` (all layers,
Thm 3.9), :func:`linear_transfer` (GD on W_L only, eq. (11)), :func:`linear_transfer_rank_one`
(the alpha -> 0 limit of (11)), :func:`linear_transfer_exact` (min-norm solve of (11) on the
finite-alpha features), :func:`ridge_transfer` (eq. (14)/(121)).

Modules, by procedure: :mod:`.network` (the network, initialisations, forward pieces, diagnostics),
:mod:`.training` (gradient descent and :class:`TrainResult`), :mod:`.pipelines` (the procedures above),
:mod:`.end_states` (closed-form end states).  Every name is re-exported here, so ``numerics.deep_linear.train`` etc.
keep working; so are the batched primitives ``_mv``, ``_mtv`` and ``_haar_orthogonal`` other modules build on.
"""
from __future__ import annotations

from .network import (Weights, _haar_orthogonal, balanced_margin_scales, init_weights, _mv, _mtv, end_to_end, features,
                      risk, empirical_loss, least_squares_floor, invariants, min_invariant_eigenvalue,
                      rank_one_distance, feature_alignment, init_balanced_rank_one, balancedness_error)
from .training import (TrainResult, train, loss_and_grads)
from .pipelines import (pretrain, scratch, finetune, linear_transfer, linear_transfer_rank_one, linear_transfer_exact,
                        ridge_transfer, pretrain_from, finetune_frozen)
from .end_states import (row_space_split, finetune_end_state_stated, finetune_end_state_balanced, end_state_eq5,
                         end_state_eq6, end_state_eq142)
