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


# ------------------------------------------------------------------ step budgets
import contextlib as _contextlib
import threading as _threading

_CAP = _threading.local()


def step_budget(max_steps: int | None, default: int) -> int:
    """The number of steps a training procedure may take: its own ``max_steps`` (or ``default``),
    lowered to the cap of an enclosing :func:`capped_steps` block.  Every iterative trainer in
    :mod:`numerics` asks this, so that a test can force non-convergence everywhere at once."""
    n = default if max_steps is None else int(max_steps)
    cap = getattr(_CAP, "value", None)
    return n if cap is None else min(n, cap)


@_contextlib.contextmanager
def capped_steps(cap: int):
    """Within this block every trainer stops after at most ``cap`` steps (``cap=1``: a forced
    non-convergence, which must make a claim inconclusive, never confirmed or refuted)."""
    old = getattr(_CAP, "value", None)
    _CAP.value = int(cap)
    try:
        yield
    finally:
        _CAP.value = old
