"""Progress of a run for a log (no terminal): one line per finished claim with its preliminary verdict."""
from __future__ import annotations

import copy
import sys
import time


class ClaimLines:
    """Progress for a log (stdout not a terminal: a pipe, CI, a cluster job): one flushed line per finished claim,
    ``[k/n] claim-id  verdict  seconds``.  The verdict is *preliminary*: the claim's own tests Holm-adjusted among
    themselves, before the run's Holm correction over every test and the replication of rejections (the summary
    table at the end has the final verdicts).  ``prefix`` tags the lines (``seed 3``) when a command runs many."""

    def __init__(self, prefix: str = "", stream=None):
        self.prefix, self.stream = prefix, stream
        self.k, self.n, self.profile, self.t0 = 0, 0, "standard", time.time()

    def begin(self, total: int, profile: str = "standard") -> None:
        self.k, self.n, self.profile, self.t0 = 0, total, profile, time.time()

    def __call__(self, result) -> None:
        self.k += 1
        v = preliminary_verdict(result, self.profile)
        head = f"{self.prefix} " if self.prefix else ""
        print(f"{head}[{self.k}/{self.n}] {result.claim.id}  {v}  {result.seconds:.1f} s  "
              f"(elapsed {time.time() - self.t0:.0f} s)", file=self.stream or sys.stdout, flush=True)


def preliminary_verdict(result, profile: str) -> str:
    """The claim's verdict on its own evidence (Holm among its own tests, no replication): what the final verdict
    will be unless the run's correction over every test or the replication overturns a rejection."""
    from verify.run.runner import ALPHA, verdict_of
    from verify.model.evidence import finalize

    try:
        ev = copy.deepcopy(result.evidence)
        finalize([ev], ALPHA)
        v, _ = verdict_of(result.claim, ev, profile)
        v = v.value
    except Exception as e:  # noqa: BLE001 - a progress line never stops a run
        return f"(no preliminary verdict: {type(e).__name__})"
    if v in ("refuted", "does not extend"):
        return v + " (preliminary: before replication)"
    return v + " (preliminary)"
