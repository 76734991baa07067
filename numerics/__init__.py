"""Literal simulations of the procedures the theorems are about, in torch, batched over trials.

Modules are organised by simulated procedure:

- :mod:`numerics.sampling`       Gaussian designs, teacher pairs at a given angle, noisy labels
- :mod:`numerics.least_squares`  minimum-norm and ridge least squares, gradient descent on linear regression
- :mod:`numerics.deep_linear`    deep linear networks: population pretraining, empirical training,
                                 last-layer transfer and fine-tuning by gradient descent

Every function takes a ``torch.Generator`` (reproducible for a seed) and works on any device.
Tensors carry a leading trial dimension ``B``.
"""


class NotConverged(RuntimeError):
    """Raised by a simulation whose runs did not reach their stopping criterion.

    The judge turns it into an undecided check: a run that did not converge is never
    evidence for or against a claim.
    """
