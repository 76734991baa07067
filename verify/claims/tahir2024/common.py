"""Paper-level pieces of 001_759117b8232d72ac.txt shared by every tahir2024 claim module:
the source helper, the assumption texts, and the parameters of its domains, each written once.
"""
from __future__ import annotations

import math

from verify.kit import Param, Source

PAPER = "tahir2024"
HALF_PI = math.pi / 2
INF = math.inf


def src(where: str) -> Source:
    """``Source('tahir2024', where)``: where = theorem / equation / appendix, as the paper numbers it."""
    return Source(PAPER, where)


# ------------------------------------------------------------------ assumptions (in words)
DATA = ("Assumption 3.1: x ~ N(0, I_d), a target data set of n i.i.d. samples with Gaussian label noise of "
        "variance sigma^2 >= 0")
TEACHERS = ("Assumption 3.2: unit teachers beta_s, beta_t with beta_s^T beta_t = cos(theta), theta in [0, pi/2]")
DEEP_LINEAR = "deep linear network (9), d_l = d, depth L >= 2"
PRETRAINED = ("pretraining in the feature-learning limit alpha -> 0, so Phi = (X beta_s) v^T (Theorem 3.4)")
HIGH_DIM = "high-dimensional limit n, d -> infinity at gamma = n/d fixed"

# ------------------------------------------------------------------ parameters
N = Param("n", 1, INF, integer=True, doc="target sample size")
D = Param("d", 1, INF, integer=True, doc="input dimension")
SIGMA = Param("sigma", 0, INF, doc="label-noise standard deviation, sigma >= 0")
THETA = Param("theta", 0, HALF_PI, doc="angle between source and target teachers, theta in [0, pi/2]")
GAMMA = Param("gamma", 0, INF, lower_open=True, doc="gamma = n/d > 0")
DEPTH = Param("L", 2, INF, integer=True, doc="depth L >= 2")
