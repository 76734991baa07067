"""Python API: run claims, get verdicts with evidence.

>>> from verify import api
>>> result = api.run(["tahir2024.thm3.6*"], profile="quick", seed=0)   # doctest: +SKIP
>>> [(c.id, c.verdict.value) for c in result.claims]                    # doctest: +SKIP
"""
from __future__ import annotations

import dataclasses
import math
import os
import platform
import signal
import sys
import sysconfig
import threading
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone

import sympy as sp
import torch

from verify.model.claim import Claim, DomainError, Verdict
from verify.model.context import PROFILES, Context
from verify.model.evidence import Check, Evidence, decide, decide_corrected, error_text, finalize, rules_out
from verify.model.stats import holm
from verify.run.environment import make_context, versions
from verify.run.registry import select

ALPHA = 0.05  # family-wise error rate of a run (Holm over every Monte Carlo test)
#: the ``meta.counts`` key of the confirmed claims whose check is of our own construction (a part of "confirmed")
OWN_CONSTRUCTION = "confirmed (own construction)"


@dataclass
class ClaimResult:
    claim: Claim
    evidence: Evidence
    verdict: Verdict = Verdict.INCONCLUSIVE
    reason: str = ""
    seconds: float = 0.0
    corrected_verdict: Verdict | None = None  # our corrected form's own verdict (None: no corrected form)
    corrected_reason: str = ""
    severity: dict | None = None   # verify.judge.severity.assess: the class of a refutation and its measured support
    power: dict | None = None      # verify.run.power.power_of: could the confirmation have failed (measured by mutants)

    def to_json(self) -> dict:
        c = self.claim
        return {
            "id": c.id,
            "kind": c.kind.value,
            "source": {"paper": c.paper, "file": c.source.file, "where": c.source.where, "title": c.source.title},
            "statement": c.statement,
            "assumptions": c.assumptions,
            "domain": c.domain.describe(),
            "stated": _latex(c.stated),
            "derived": _latex(c.derived),
            "corrected": c.corrected,
            "corrected_verdict": None if self.corrected_verdict is None else self.corrected_verdict.value,
            "corrected_reason": self.corrected_reason,
            "notes": c.notes,
            "tags": list(c.tags),
            "extension": c.extension,
            "construction": c.construction,
            "role": c.reads,
            "role_declared": c.role is not None,
            "holds_by": list(c.holds_by),
            "root_cause": None if c.root_cause is None else c.root_cause.to_json(),
            "severity": self.severity,
            "power": self.power if self.power is not None else _power_declared(c),
            "verdict": self.verdict.value,
            "reason": self.reason,
            # a check that did not finish: what happened and where (verdict "error"); None otherwise
            "error": _error_record(self.evidence),
            "rules_out": rules_out(self.evidence),
            "basis": self.evidence.details.get("basis"),
            "evidence": self.evidence.to_json(),
        }


def _error_record(ev: Evidence) -> dict | None:
    err = ev.details.get("error")
    if not err:
        return None
    return {k: err.get(k) for k in ("type", "message", "where", "timed_out")}


def _power_declared(c: Claim) -> dict:
    """How the claim's power to fail can be measured (``verify mutants``): sympy mutants of its stated form, declared
    power witnesses, or neither ('untested': a confirmation that no alternative was shown able to refute)."""
    from verify.run.power import untested_note

    sympy_form = isinstance(c.stated, sp.Expr)
    witnesses = [a.name for a in c.power]
    untested = not sympy_form and not witnesses
    return {"sympy_form": sympy_form, "witnesses": witnesses, "measured": None,
            "status": "untested" if untested else "not measured",
            "why": (untested_note(c) or "no stated sympy form to mutate and no declared power witness") if untested
            else "not measured: a run at user points (--at)"}


def _latex(x) -> str | None:
    if x is None:
        return None
    if isinstance(x, str):
        return x
    return sp.latex(x)


@dataclass
class RunResult:
    claims: list[ClaimResult]
    meta: dict = field(default_factory=dict)

    timing: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """The results document.  Everything but the ``timing`` block (start time, wall times) is
        a function of the claims' code, the profile, the seed and the library versions: the same
        command gives byte-identical JSON apart from that block (tested).

        ``meta.counts`` has one entry per verdict (they add up to the number of claims) and
        :data:`OWN_CONSTRUCTION`, the confirmed claims whose check is of our own construction
        (``Claim.construction``): a part of "confirmed", so the confirmations of the source are
        ``counts["confirmed"] - counts[OWN_CONSTRUCTION]``."""
        counts = {v.value: sum(r.verdict == v for r in self.claims) for v in Verdict}
        counts[OWN_CONSTRUCTION] = sum(r.verdict is Verdict.CONFIRMED and r.claim.own_construction for r in self.claims)
        timing = {**self.timing, "claims": {r.claim.id: round(r.seconds, 3) for r in self.claims}}
        return {"meta": {**self.meta, "counts": counts}, "claims": [r.to_json() for r in self.claims],
                "timing": timing}


def verdict_of(claim: Claim, ev: Evidence, profile: str) -> tuple[Verdict, str]:
    """:func:`verify.model.evidence.decide`; a refuted extension (a reading beyond the source) 'does not extend'; then the
    claim's ``decided_at``: below that profile a confirmation
    becomes 'inconclusive' (the profile's grid does not decide the claim at nearly every seed); refutations
    and undecided verdicts are kept."""
    v, why = decide(ev)
    if v is Verdict.REFUTED and claim.extension:
        return Verdict.DOES_NOT_EXTEND, why
    order = list(PROFILES)
    if v is Verdict.CONFIRMED and order.index(profile) < order.index(claim.decided_at):
        return Verdict.INCONCLUSIVE, (f"not decided at {profile}: its tests agree at this seed ({why}), but the "
                                      f"{profile} grid decides this claim at too few seeds; run --profile "
                                      f"{claim.decided_at} to decide it")
    return v, why


def replicate_rejections(results: list[ClaimResult], ctx: Context, alpha: float, family: int | None = None,
                         jobs: int = 1) -> dict:
    """Refute only what replicates.

    Every Monte Carlo rejection of a stated value is re-tested on fresh draws: the claim's check is
    run again with a seed derived for the replication (``derive_seed(run seed, 'replication')``),
    at the rejected points when the check takes points (same trials per point), else whole.  The
    replication p-values are Holm-adjusted among themselves; a rejection stands only if its
    replication is rejected too, otherwise the test's status becomes 'not replicated' (the claim is
    then inconclusive) and both results are kept in the evidence (``extra['replication']``).  Real
    errata reject by many standard errors and lose nothing; a true claim is refuted only if two
    independent runs both reject it, about alpha^2 of the time.  ``jobs`` > 1: the claims' checks are run
    again in that many worker processes (as the run's own ``--jobs``), the longest claims first; the
    replications are the same draws either way (seeded by the run seed and the claim).  Returns claim id -> the
    seconds its replication took (the run's timing block).
    """
    from verify.model.context import derive_seed
    from verify.judge import takes_points

    todo = []  # (result, its rejected tests, the points to run again or None)
    for r in results:
        rejected = [t for t in r.evidence.tests if t.status == "rejected"]  # stated, and our own forms
        if not rejected:
            continue
        pts = None
        if takes_points(r.claim.check):
            names = set(r.claim.domain.names)
            try:
                pts = [r.claim.domain.validate({k: v for k, v in t.params.items() if k in names}) for t in rejected]
                pts = [dict(p) for p in {tuple(sorted(p.items())): p for p in pts}.values()]
            except DomainError:
                pts = None
        todo.append((r, rejected, pts))
    rseed = derive_seed(ctx.seed, "replication")
    secs: dict[str, float] = {}
    if jobs > 1 and len(todo) > 1:
        again_of = _replicate_parallel(todo, ctx, rseed, jobs, secs)
    else:
        again_of = {}
        for r, _, pts in todo:
            t0 = time.monotonic()
            again_of[r.claim.id] = _replicate_one(r.claim, dataclasses.replace(ctx, seed=rseed, at=pts, progress=False))
            secs[r.claim.id] = round(time.monotonic() - t0, 3)
    pending = []  # (test, replication test or None)
    for r, rejected, _ in todo:
        again = again_of.get(r.claim.id) or {}
        pending += [(t, again.get(t.label)) for t in rejected]
    reps = [rep for _, rep in pending if rep is not None]
    pad = [1.0] * max(0, (family or 0) - len(reps))   # family: as in finalize
    adj = dict(zip(map(id, reps), holm([rep.pvalue for rep in reps] + pad))) if reps else {}
    for t, rep in pending:
        if rep is None:
            t.status = "not replicated"
            t.extra["replication"] = {"done": False, "why": "the check did not produce this test again"}
            continue
        pa = adj[id(rep)]
        t.extra["replication"] = {"done": True, "estimate": rep.estimate, "ci": list(rep.ci), "trials": rep.trials,
                                  "seed": rep.seed, "pvalue": rep.pvalue, "p_adjusted": pa, "rejected": pa < alpha}
        if pa >= alpha:
            t.status = "not replicated"
    return secs


def _replicate_one(claim, rctx) -> dict:
    """The tests of ``claim``'s check run again in the replication context, by label ({} if the check fails)."""
    try:
        return {t.label: t for t in claim.check.run(claim, rctx).tests}
    except (KeyboardInterrupt, DomainError):
        raise
    except Exception:
        return {}


def _replicate_worker(claim_id: str, profile: str, seed: int, device: str, at) -> tuple[dict, float]:
    """:func:`_replicate_one` in a worker process; the evidence travels back as JSON (exact for floats), with the
    seconds it took."""
    from verify.model.evidence import Evidence
    from verify.run.registry import all_claims

    t0 = time.monotonic()
    c = next(c for c in all_claims() if c.id == claim_id)
    tests = list(_replicate_one(c, make_context(profile, seed, device, at, progress=False)).values())
    return Evidence(tests=tests).to_json(), round(time.monotonic() - t0, 3)


def _replicate_parallel(todo, ctx, rseed: int, jobs: int, secs: dict) -> dict:
    """The replications of ``todo`` in ``jobs`` worker processes (as :func:`_compute_parallel`), longest first (by
    the first run's seconds): claim id -> its tests again, by label (``secs`` gets each one's seconds)."""
    from verify.run.cache import evidence_from_json

    order = sorted(todo, key=lambda x: -(x[0].seconds or 0.0))
    with _worker_pool(min(jobs, len(todo))) as ex:
        futs = {r.claim.id: ex.submit(_replicate_worker, r.claim.id, ctx.profile.name, rseed, str(ctx.device), pts)
                for r, _, pts in order}
        again = {}
        for cid, f in futs.items():
            doc, secs[cid] = f.result()
            again[cid] = {t.label: t for t in evidence_from_json(doc).tests}
        return again


@contextmanager
def _worker_pool(jobs: int):
    """``jobs`` spawned worker processes (no forked torch threads), each with ``cores // jobs`` torch threads and the
    run's ``--claims`` sources; on an error or an interrupt the queued work is cancelled."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    from verify.run.registry import sources

    threads = max(1, (os.cpu_count() or 1) // jobs)
    ex = ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("spawn"), initializer=_worker_init,
                             initargs=(threads, os.getpid(), sources()))
    try:
        yield ex
    except BaseException:
        ex.shutdown(wait=False, cancel_futures=True)
        raise
    ex.shutdown(wait=True)


class ClaimTimeout(BaseException):
    """Raised into a check by the per-claim wall-clock limit (:func:`_time_limit`).  A BaseException, like
    KeyboardInterrupt, so that a check's own ``except Exception`` (e.g. a predicate's point it cannot evaluate)
    does not swallow it."""


@contextmanager
def _time_limit(seconds: float | None):
    """Raise :class:`ClaimTimeout` in this thread after ``seconds`` of wall time (SIGALRM).  Only possible in
    the main thread of a process with SIGALRM (the serial run, each ``--jobs`` worker process); elsewhere (a Dask
    worker thread, Windows) no limit is set.  A real-time timer already set by the caller (e.g. pytest-timeout) is
    restored afterwards with its remaining time.  Python signal handlers run between bytecodes: a single long
    torch or BLAS call is interrupted only when it returns."""
    if not seconds or not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_alarm(signum, frame):
        raise ClaimTimeout(seconds)

    t0 = time.monotonic()
    outer = signal.getitimer(signal.ITIMER_REAL)
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, float(seconds))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if outer[0] > 0:
            signal.setitimer(signal.ITIMER_REAL, max(outer[0] - (time.monotonic() - t0), 1e-3), outer[1])


_LIBRARY_DIRS = tuple({os.path.realpath(sysconfig.get_paths()[k]) for k in ("stdlib", "platstdlib", "purelib",
                                                                            "platlib")})


def _claim_root(claim: Claim) -> str | None:
    """The folder of the top-level package (or module) that declares the claim, if the registry knows it."""
    from verify.run.registry import module_of

    try:
        top = sys.modules.get(module_of(claim.id).split(".")[0])
    except (KeyError, LookupError):
        return None
    f = getattr(top, "__file__", None)
    return os.path.realpath(os.path.dirname(f)) if f else None


def error_site(exc: BaseException, claim: Claim) -> str:
    """``file:line`` of the innermost frame of the raising traceback that is the claim's or the project's code
    (the claim's package, or any file outside the standard library and site-packages); the innermost frame of
    all when there is none.  ``exc.where`` (set by a raiser that knows better, e.g. a NaN predicate's own
    definition) wins."""
    if getattr(exc, "where", None):
        return exc.where
    frames = traceback.extract_tb(exc.__traceback__)
    if isinstance(exc, ClaimTimeout):
        frames = frames[:-1]   # the alarm handler's own frame: where the check was is the one before
    if not frames:
        return ""
    root = _claim_root(claim)

    def ours(fs) -> bool:
        f = os.path.realpath(fs.filename)
        if root and f.startswith(root + os.sep):
            return True
        return not f.startswith(_LIBRARY_DIRS) and "site-packages" not in f and not fs.filename.startswith("<")
    best = next((fs for fs in reversed(frames) if ours(fs)), frames[-1])
    return f"{best.filename}:{best.lineno}"


def _compute(c, ctx, timeout: float | None = None) -> tuple[Evidence, bool, float]:
    """Run one claim's check: (raw evidence, whether it finished without error, seconds).

    A check that raises, or runs over ``timeout`` seconds of wall time (:func:`_time_limit`), leaves evidence
    whose ``details['error']`` says what happened and where (:func:`error_site`); its verdict is
    :attr:`Verdict.ERROR` (:func:`verify.model.evidence.decide`), never a verdict on evidence it did not finish."""
    t = time.time()
    ctx.draws = 0
    try:
        with _time_limit(timeout):
            ev = c.check.run(c, ctx)
        # the basis of the verdict: Monte Carlo tests or any random draw (a simulation, a random instance), a check
        # that declares it runs the procedure deterministically (details['basis'] = 'simulation': a fixed, constructed
        # instance simulated without random draws), or none at all (our derivation only: symbolic identities,
        # searches over closed forms)
        declared = ev.details.get("basis") == "simulation"
        ev.details["basis"] = "simulation" if (ev.tests or ctx.draws or declared) else "derivation only"
        return ev, True, time.time() - t
    except ClaimTimeout as e:
        err = {"type": "timeout", "timed_out": True, "where": error_site(e, c),
               "message": f"timed out after {timeout:g} s (the per-claim limit, --claim-timeout)"}
        exc = e
    except (KeyboardInterrupt, DomainError):
        raise
    except Exception as e:  # a broken check is reported as an error, never silently passed
        msg = str(e).splitlines()[0] if str(e) else ""
        err = {"type": type(e).__name__, "message": msg, "where": error_site(e, c), "timed_out": False}
        exc = e
    # formatted from the exception itself: out here, after its except block, format_exc() has nothing to format
    # (it gave "NoneType: None", and results.json and the plugin's failure lost the traceback they promise)
    err["traceback"] = "".join(traceback.format_exception(exc))
    ev = Evidence(checks=[Check("check raised an error", None, error_text(err), refutes=False,
                                extra={"traceback": err["traceback"]})], details={"error": err})
    return ev, False, time.time() - t


def judge_alone(claim: Claim, ctx: Context, alpha: float = ALPHA, family: int | None = None,
                evidence: list | None = None) -> tuple[Verdict, str, bool]:
    """One claim judged on its own as :func:`run` judges it (Holm, replication of every rejection, the claim's
    ``decided_at``): (verdict, reason, whether its check finished without error).  ``family``: Holm as if the claim
    were inside a run of that many tests (:func:`verify.model.evidence.finalize`).  The evidence is appended to
    ``evidence`` when a list is given."""
    ev, ok, _ = _compute(claim, ctx)
    finalize([ev], alpha, family)
    replicate_rejections([ClaimResult(claim, ev)], ctx, alpha, family)
    v, why = verdict_of(claim, ev, ctx.profile.name)
    if evidence is not None:
        evidence.append(ev)
    return v, why, ok


def _worker_init(threads: int, parent: int | None = None, sources: tuple[str, ...] = ()) -> None:
    """A worker process: its torch threads, its death with the run, and the run's ``--claims`` sources (so that
    :func:`verify.run.registry.all_claims` finds the same external claims here as in the parent)."""
    from verify.run.registry import use

    torch.set_num_threads(threads)
    _die_with_parent(parent)
    use(sources)


def _die_with_parent(parent: int | None) -> None:
    """A worker must not outlive a killed run (it would burn the cores for nothing): on Linux the kernel
    sends it SIGTERM when its parent dies (prctl PR_SET_PDEATHSIG); elsewhere a normal exit of the run
    shuts the pool down."""
    import signal

    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, int(signal.SIGTERM))  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if parent is not None and os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def _worker(claim_id: str, profile: str, seed: int, device: str, at,
            timeout: float | None = None) -> tuple[str, dict, bool, float]:
    """One claim in a worker process; evidence travels back as JSON (exact for floats).  ``timeout``: the
    per-claim limit (enforced in a worker process's main thread, not in a Dask worker's task thread)."""
    from verify.run.registry import all_claims

    c = next(c for c in all_claims() if c.id == claim_id)
    ctx = make_context(profile, seed, device, at, progress=False)
    ev, ok, secs = _compute(c, ctx, timeout)
    return claim_id, ev.to_json(), ok, secs


def _worker_group(claim_ids, profile: str, seed: int, device: str, at,
                  timeout: float | None = None) -> list[tuple[str, dict, bool, float]]:
    """Claims declared to run together (:func:`verify.run.registry.run_together`: they share an in-process cache of
    their runs), one after the other in one worker process."""
    return [_worker(cid, profile, seed, device, at, timeout) for cid in claim_ids]


def _longest_first(tasks: list, expected) -> list:
    """The tasks (tuples of claim ids) in decreasing order of their expected seconds (``expected``: claim id ->
    seconds of an earlier run), a task with a claim of unknown cost first; the given order among equals.  Starting
    the longest tasks first keeps a long claim from being the last one running while the other workers idle."""
    if not expected:
        return list(tasks)

    def cost(task):
        secs = [expected.get(cid) for cid in task]
        return math.inf if any(not isinstance(x, (int, float)) or not x >= 0 for x in secs) else float(sum(secs))
    return sorted(tasks, key=cost, reverse=True)


def _compute_parallel(todo, ctx, jobs: int, done, timeout: float | None = None, expected=None) -> None:
    """Run the claims ``todo`` in ``jobs`` worker processes (spawned: no forked torch threads), each with
    ``cores // jobs`` torch threads; ``done(claim, evidence, ok, seconds)`` is called as each finishes (the claims
    of a ``RUN_TOGETHER`` group, which share their runs, go to one worker and are reported when the group ends).
    ``expected`` (claim id -> seconds of an earlier run): the tasks are started longest first.
    A claim's numbers do not depend on which process ran it or in which order: every random draw is
    seeded from (run seed, claim id, ...). They can depend on the thread count in their last bits (torch
    splits some reductions over threads): of 193 claims at quick, two (tahir2024.thm3.6.finite and
    thm3.8.finite) differ in the 16th digit between jobs=1 and jobs=2, with identical verdicts."""
    from concurrent.futures import FIRST_COMPLETED, wait

    from verify.run.cache import evidence_from_json
    from verify.run.registry import run_together

    by_id = {c.id: c for c in todo}
    with _worker_pool(jobs) as ex:
        futs = {ex.submit(_worker_group, ids, ctx.profile.name, ctx.seed, str(ctx.device), ctx.at, timeout)
                for ids in _longest_first(run_together([c.id for c in todo]), expected)}
        while futs:
            fin, futs = wait(futs, return_when=FIRST_COMPLETED)
            for f in fin:
                for cid, evj, ok, secs in f.result():
                    done(by_id[cid], evidence_from_json(evj), ok, secs)


def warn(text: str) -> None:
    """One warning line on stderr (the run goes on)."""
    print(f"warning: {text}", file=sys.stderr, flush=True)


def check_grids(claims, profile: str) -> None:
    """Every grid point of every claim at ``profile`` lies in the claim's own domain, or a one-line
    :class:`DomainError` naming the claim and the point (before anything is simulated).

    A grid point gives values to the parameters its check varies: each is checked against its
    :class:`~verify.model.claim.Param` (bounds, openness, integrality); the joint constraints are checked on points that
    give every parameter of the domain (a check that fixes some parameters itself gives only the others; keys that
    are no parameter of the domain are settings of the check, e.g. a law's name).  A check whose grid deliberately
    reaches outside the domain says so (``Custom(..., outside_domain="why")``) and is not checked."""
    from verify.judge import grid_points, label_of

    prof = PROFILES[profile]
    for c in claims:
        params = {p.name: p for p in c.domain.params}
        for pt in grid_points(c.check, prof):
            try:
                vals = {k: params[k].validate(v) for k, v in pt.items() if k in params}
                if len(vals) == len(params):
                    for con in c.domain.constraints:
                        if not con.test(vals):
                            raise DomainError(con.message)
            except DomainError as e:
                raise DomainError(f"{c.id}: its {profile} grid point {label_of(pt)} is outside the claim's domain "
                                  f"({e})") from None


def check_cost(claims, at: list[dict], profile: str, memory: float | None = None, long: float = 600.0) -> None:
    """Refuse a user point (``--at``) whose simulation cannot fit in this machine's memory, with the estimate; warn,
    with the estimate, of one that will take longer than ``long`` seconds (:func:`verify.judge.point_cost`)."""
    from verify.judge import label_of, point_cost

    total = memory if memory is not None else _physical_memory()
    for c in claims:
        for p in at:
            est = point_cost(c, c.domain.validate(p), PROFILES[profile])
            if total and est["bytes"] > total:
                raise DomainError(f"{c.id} at {label_of(p)} needs at least {_size(est['bytes'])} of memory "
                                  f"({est['how']}); this machine has {_size(total)}: refused before simulating")
            if est["seconds"] > long:
                warn(f"{c.id} at {label_of(p)} will take about {_duration(est['seconds'])} ({est['how']}; "
                     f"at least {_size(est['bytes'])} of memory)")


def _physical_memory() -> float | None:
    try:
        return float(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return None


def _size(b: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if b < 1024 or unit == "PiB":
            return f"{b:.3g} {unit}"
        b /= 1024
    return f"{b:.3g} PiB"


def _duration(s: float) -> str:
    return f"{s:.0f} s" if s < 120 else f"{s / 60:.0f} min" if s < 7200 else f"{s / 3600:.3g} h"


def run(patterns=None, profile: str = "standard", seed: int = 0, device: str = "cpu", at=None,
        progress: bool = True, alpha: float = ALPHA, on_claim=None, cache_dir=None, resume: bool = False,
        jobs: int = 1, claims=None, cluster=None, claim_timeout: float | None = None,
        expected=None) -> RunResult:
    """Run the selected claims and return verdicts with their evidence.

    ``at`` (a list of parameter dicts) replaces every selected claim's grid and is
    validated against each claim's domain first (DomainError on bad input, before any
    simulation), and its cost estimated (:func:`check_cost`: refused if it cannot fit in memory).
    Without ``at``, every grid point of the profile is validated against its claim's domain
    (:func:`check_grids`).  Holm's correction is applied across every Monte Carlo test of the run.

    ``cache_dir``: each finished claim's raw evidence is stored there (:mod:`verify.run.cache`);
    with ``resume=True`` a claim whose entry matches (same id, code, profile, seed, points and
    versions) is read back instead of simulated.  Holm, replication and verdicts are redone.
    A cache entry that cannot be written (a full disk, a folder made read-only) is one warning
    line; the run goes on.

    ``claim_timeout``: each claim's check is stopped after this many seconds of wall time and its verdict is
    :attr:`Verdict.ERROR` ("timed out after N s"); None: the profile's default (:class:`verify.model.context.Profile`),
    0: no limit.  Enforced in the serial run and in ``--jobs`` worker processes; not in Dask tasks (they run in a
    worker's thread, where no alarm can interrupt them).

    ``on_claim(result)`` is called as each claim finishes (its evidence before the run's Holm correction and
    replication, ``verdict`` not yet set); if it has a ``begin(total, profile)`` method, that is called first
    with the number of selected claims (:class:`verify.run.progress.ClaimLines` prints one line per claim).

    ``claims``: run exactly these claims (e.g. those a pytest session collected) instead of ``patterns``.

    ``cluster``: a :class:`verify.run.distributed.Cluster` (Dask workers) that computes the claims' checks instead
    of this process (``jobs`` is then ignored); everything else is done here, as in a serial run.

    ``expected``: claim id -> seconds an earlier run took (its ``results.json`` timing): a ``--jobs`` run starts the
    longest claims first.  Only the order of the work changes, never a number.
    """
    # ``claims``: exactly these Claim objects instead of a selection by pattern (the pytest plugin runs the claims
    # it collected); claims from outside verify/claims must be loadable by a worker (verify.run.registry.use)
    claims = list(claims) if claims is not None else select(patterns, exact=at is not None)
    ctx = make_context(profile, seed, device, at, progress)
    if claim_timeout is not None and not (claim_timeout >= 0):
        raise DomainError(f"--claim-timeout must be a number of seconds >= 0 (0: no limit), not {claim_timeout}")
    timeout = ctx.profile.claim_timeout if claim_timeout is None else (float(claim_timeout) or None)
    if at is not None:
        from verify.judge import takes_points

        for c in claims:
            if not takes_points(c.check):
                raise DomainError(f"{c.id} cannot be evaluated at a user point (--at): its checks are symbolic "
                                  "or run a fixed construction; run it without --at")
            for p in at:
                try:
                    c.domain.validate(p)
                except DomainError as e:
                    raise DomainError(f"{c.id}: {e}") from None
        check_cost(claims, at, profile)
    else:
        check_grids(claims, profile)
    t0, started = time.time(), datetime.now(timezone.utc).isoformat()
    results, resumed = [], []
    store = None
    if jobs < 1:
        raise DomainError(f"--jobs must be at least 1, not {jobs}")
    if cache_dir is not None:
        from verify.run.cache import Cache, key as cache_key

        store, vers = Cache(cache_dir), versions()
    if on_claim is not None and hasattr(on_claim, "begin"):
        on_claim.begin(len(claims), profile)
    slots: dict[str, ClaimResult] = {}
    keys = {c.id: (cache_key(c, ctx, vers) if store is not None else None) for c in claims}
    todo = []
    for c in claims:
        hit = store.get(c, keys[c.id]) if (store is not None and resume) else None
        if hit is None:
            todo.append(c)
            continue
        ev, secs = hit
        resumed.append(c.id)
        slots[c.id] = ClaimResult(c, ev, seconds=secs)
        if on_claim:
            on_claim(slots[c.id])

    def done(c, ev, ok, secs):
        if store is not None and ok:
            try:
                store.put(c, keys[c.id], ev, secs)
            except OSError as e:  # a full disk, a folder made read-only: the finished claim is kept in this run
                warn(f"{c.id}: could not write its resume-cache entry ({e.strerror or e}); the run goes on "
                     "(a --resume would compute this claim again)")
        slots[c.id] = ClaimResult(c, ev, seconds=secs)
        if on_claim:
            on_claim(slots[c.id])

    if cluster is not None and todo:
        cluster.compute(todo, ctx, done)
    elif jobs > 1 and len(todo) > 1:
        _compute_parallel(todo, ctx, min(jobs, len(todo)), done, timeout, expected)
    else:
        for c in todo:
            done(c, *_compute(c, ctx, timeout))
    results = [slots[c.id] for c in claims]  # the selection's order, whatever order they finished in
    first_stage = time.time() - t0
    finalize([r.evidence for r in results], alpha)
    t1 = time.time()
    replicated = replicate_rejections(results, ctx, alpha, jobs=jobs if cluster is None else 1)
    replication = time.time() - t1
    for r in results:
        r.verdict, r.reason = verdict_of(r.claim, r.evidence, profile)
        if r.claim.corrected:
            r.corrected_verdict, r.corrected_reason = decide_corrected(r.evidence)
    from verify.judge.severity import assess

    from verify.run.power import power_of, versions_line

    by_id = {r.claim.id: r for r in results}
    for r in results:
        r.severity = assess(r, by_id, ctx)
        r.power = power_of(r.claim, profile) if at is None else None
    if line := versions_line([r.power for r in results if r.power]):
        warn(line)   # the power column is still given, measured with other library versions: said once
    meta = {"profile": profile, "seed": seed, "device": str(ctx.device), "dtype": str(ctx.dtype),
            "alpha_familywise": alpha, "multiple_testing": "Holm over all Monte Carlo tests of the run",
            "patterns": list(patterns or []), "at": at, "versions": versions(),
            "n_tests": sum(len(r.evidence.tests) for r in results)}
    timing = {"started": started, "seconds": round(time.time() - t0, 2), "resumed_from_cache": resumed,
              "claim_timeout": timeout, "first_stage_seconds": round(first_stage, 2),
              "replication_seconds": round(replication, 2), "replications": replicated}
    return RunResult(results, meta, timing)
