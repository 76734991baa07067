"""The Python API: run claims, get verdicts with their evidence (the public surface of :mod:`verify.run.runner`).

>>> from verify import api
>>> result = api.run(["tahir2024.thm3.6*"], profile="quick", seed=0)   # doctest: +SKIP
>>> [(c.id, c.verdict.value) for c in result.claims]                    # doctest: +SKIP
"""
from verify.run.runner import (ALPHA, ClaimResult, RunResult, check_cost, check_grids, judge_alone, make_context, run,
                               verdict_of, versions)

__all__ = ["ALPHA", "ClaimResult", "RunResult", "check_cost", "check_grids", "judge_alone", "make_context", "run",
           "verdict_of", "versions"]
