"""Claims spread over Dask workers: ``--workers N`` (a local cluster of N processes) or ``--scheduler ADDRESS``
(an existing ``distributed`` scheduler, e.g. ``tcp://head:8786``).

The unit of work is one claim's check (its raw evidence, before the run-wide steps), or one grid point of a claim
whose check is a :class:`verify.judge.per_point.PerPoint` (its points are independent, and its serial run joins them as
the distributed one does), or one group of points sharing their draws of a :class:`verify.judge.per_group.PerGroup`
(a PerPoint whose grid is its groups), so that a claim of several heavy points does not hold the run's critical
path alone.
Everything that makes a run's numbers stays where it was: every random draw is seeded from (run seed, claim id,
point), so a claim's evidence does not depend on which worker computed it or when; Holm's correction over the whole
run, the replication of rejections, the verdicts, the resume cache and the reports are done by the calling process
exactly as in a serial run. A distributed run therefore writes the serial run's ``results.json`` apart from its
``timing`` block (tested on a local cluster of 2 workers in ``tests/test_distributed.py``).

Two things could still make the numbers differ, and both are handled:

* torch splits some reductions (and :func:`numerics.least_squares.map_batch` its batches) over its intra-op
  threads, so a few estimates depend on the thread count in their last digits (the ``--jobs`` path documents
  this).  Each task sets the worker's torch thread count to ``threads``, by default the calling process's
  own count, i.e. the serial run's: the same document, at the price of some oversubscription when several
  workers share a machine (``--worker-threads`` trades that identity for throughput).
* a worker on another machine could run other code or other library versions.  On connecting to an existing
  scheduler every worker is asked for its library versions and a hash of our sources (a mismatch is a one-line
  error before any work); then each task computes the claim's resume-cache key on the worker
  (:func:`verify.run.cache.key`: claim id, profile, seed, points, device, dtype, library versions and the hash of
  every source file the claim depends on) and the caller compares it with its own; a claim computed by
  different code (a worker that joined later) is made inconclusive with that recorded, never mixed in.

The run's ``--claims`` sources travel with every task and are loaded on the worker before the claim is looked up,
so a user's claims package gives the serial results here too (a path must be readable at the same place on the
workers: a shared file system, or the same checkout).  The per-claim time limit (``--claim-timeout``) is not
enforced on Dask workers: a task runs in a worker's thread, which no alarm can interrupt; a hung task holds its
worker until the run is stopped (the resume cache keeps what finished).

Failures: a worker that dies (killed, out of memory) loses its task, which the scheduler gives to another
worker; a task that fails twice (two lost workers, or an exception outside the check, which is retried once)
makes its claim inconclusive with the error recorded in its evidence, and the run goes on.  (A check that
raises is already recorded by :func:`verify.run.runner._compute` on the worker, as in a serial run.)  On a cluster of
our own the scheduler is told so (``distributed.scheduler.allowed-failures = 1``); an existing scheduler keeps
its own setting (Dask's default is 3 lost workers).

``distributed`` is an optional dependency (``pip install 'ftverify[dask]'``); the serial path needs nothing new.
"""
from __future__ import annotations

import time
import uuid
from typing import Callable

import torch

from verify.model.claim import DomainError

INSTALL = "pip install 'ftverify[dask]' (or: pip install 'dask[distributed]')"
#: a task's attempts: the first and one retry (exceptions), and the scheduler's allowed worker losses on our cluster
RETRIES, ALLOWED_FAILURES = 1, 1
CONNECT_TIMEOUT = "20s"  # to reach an existing scheduler


def _require():
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise DomainError(f"--workers/--scheduler need the optional dependency dask.distributed: {INSTALL}") from None
    return distributed


class Cluster:
    """A Dask client (and, for ``workers=N``, the local cluster it owns); use as a context manager.

    ``threads``: torch intra-op threads per task (default: this process's count, the serial run's).
    """

    def __init__(self, workers: int | None = None, scheduler: str | None = None, threads: int | None = None):
        if workers is not None and scheduler is not None:
            raise DomainError("give either --workers N (a local Dask cluster) or --scheduler ADDRESS, not both")
        if workers is None and scheduler is None:
            raise DomainError("a Dask cluster needs --workers N or --scheduler ADDRESS")
        if workers is not None and workers < 1:
            raise DomainError(f"--workers must be at least 1, not {workers}")
        if threads is not None and threads < 1:
            raise DomainError(f"--worker-threads must be at least 1, not {threads}")
        _require()
        self.workers, self.scheduler = workers, scheduler
        self.threads = int(threads or torch.get_num_threads())
        self.task = _claim_task  # what computes one claim on a worker (a test swaps in one that kills its worker)
        self.point_task = _point_task  # one grid point of a PerPoint claim
        self.cluster = self._client = None  # started on first use: bad input fails before a cluster starts

    @property
    def client(self):
        if self._client is None:
            self._start()
        return self._client

    def _start(self) -> None:
        import dask
        import distributed

        if self.workers is not None:
            # processes (no GIL sharing, no forked torch threads), one task at a time per worker
            # (worker-saturation 1.0): a lost worker takes only its running claim with it, so a claim
            # queued behind a crashing one is not blamed for the crash
            with dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
                                  "distributed.scheduler.worker-saturation": 1.0}):
                self.cluster = distributed.LocalCluster(n_workers=self.workers, threads_per_worker=1,
                                                        processes=True, dashboard_address=None, silence_logs=40)
            self._client = distributed.Client(self.cluster)
        else:
            try:
                self._client = distributed.Client(self.scheduler, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as e:
                raise DomainError(f"cannot reach the Dask scheduler {self.scheduler!r} "
                                  f"({str(e).splitlines()[0] if str(e) else type(e).__name__})") from None
            self._check_workers()

    def _check_workers(self) -> None:
        """Fail before any work when a worker of an existing scheduler cannot import this ftverify or runs other
        library versions (each claim's cache key is compared again when it comes back)."""
        mine = _probe()
        try:
            theirs = self._client.run(_probe)
        except Exception as e:  # noqa: BLE001 - e.g. ModuleNotFoundError on the worker
            self.close()
            raise DomainError(f"the workers of {self.scheduler} cannot run ftverify ({type(e).__name__}: "
                              f"{str(e).splitlines()[0] if str(e) else ''}); install it there") from None
        if not theirs:
            self.close()
            raise DomainError(f"the Dask scheduler {self.scheduler} has no workers")
        for addr, v in theirs.items():
            diff = sorted(k for k in mine if mine[k] != v.get(k))
            if diff:
                self.close()
                raise DomainError(f"the Dask worker {addr} runs other versions than this process ({', '.join(diff)}); "
                                  "its numbers could differ: use the same ftverify and libraries")

    def __enter__(self) -> "Cluster":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        if self.cluster is not None:
            self.cluster.close()
        self.cluster = self._client = None

    def each(self, fn: Callable, items: list, *args) -> "iter":
        """``fn(item, *args)`` for every item on the workers (torch threads set first); yields
        ``(item, result, error)`` as tasks finish, ``error`` a one-line text when a task failed twice."""
        from distributed import as_completed

        tag = uuid.uuid4().hex[:8]
        futs = {self.client.submit(_call, self.threads, fn, it, *args, key=f"ftverify-{tag}-{i}", retries=RETRIES,
                                   pure=False): it for i, it in enumerate(items)}
        try:
            for f in as_completed(futs):
                it = futs[f]
                try:
                    yield it, f.result(), None
                except Exception as e:  # noqa: BLE001 - lost twice or raised twice: reported, the run goes on
                    yield it, None, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}".rstrip(": ")
        finally:
            for f in futs:
                f.cancel()

    def compute(self, todo, ctx, done) -> None:
        """The claims ``todo`` judged on the workers; ``done(claim, evidence, ok, seconds)`` as each finishes
        (the evidence of a task that failed twice, or ran on other code, records why; ``ok`` is then False).

        Granularity: one task per claim, except a claim whose check is a :class:`verify.judge.per_point.PerPoint` of
        several grid points, which makes one task per point; its points' evidence is joined here in grid order
        (:func:`verify.judge.per_point.join`, what its serial run does).  If a point's check raised, the claim is
        recomputed here, serially, so that its error is recorded exactly as a serial run records it."""
        from verify.run.runner import _compute, versions
        from verify.run.cache import evidence_from_json, key
        from verify.judge.per_point import join, split
        from verify.run.registry import sources

        by_id = {c.id: c for c in todo}
        vers = versions()
        t0 = time.time()
        items, parts = [], {}
        for c in todo:
            n = split(c, ctx)
            if n:
                parts[c.id] = [None] * n
                items += [f"{c.id}{SEP}{i}" for i in range(n)]
            else:
                items.append(c.id)
        finished: set[str] = set()
        for it, res, err in self.each(_dispatch, items, self.task, self.point_task, ctx.profile.name, ctx.seed,
                                      str(ctx.device), ctx.at, sources()):
            cid, _, i = it.partition(SEP)
            c = by_id[cid]
            if cid in finished:  # another point of it failed already
                continue
            if err is not None:
                finished.add(cid)
                done(c, failed(f"the task failed twice on the Dask workers ({err})"), False, time.time() - t0)
                continue
            if not i:
                evj, ok, secs, k = res
            else:
                evj, draws, secs, k = res
            if k != key(c, ctx, vers):
                finished.add(cid)
                done(c, failed("a Dask worker ran other code or library versions than this process (its cache "
                               "key differs); the claim was not judged on its evidence"), False, secs)
                continue
            if not i:
                done(c, evidence_from_json(evj), ok, secs)
                continue
            parts[cid][int(i)] = (evj, draws, secs)
            if any(r is None for r in parts[cid]):
                continue
            finished.add(cid)
            if any(r[0] is None for r in parts[cid]):
                ev, ok, secs = _compute(c, ctx)  # a point raised: the serial run's error record
                done(c, ev, ok, secs)
                continue
            ev = join([evidence_from_json(r[0]) for r in parts[cid]], c.check.grid(c, ctx))
            declared = ev.details.get("basis") == "simulation"     # a deterministic simulation (runner._compute)
            ev.details["basis"] = ("simulation" if (ev.tests or sum(r[1] for r in parts[cid]) or declared)
                                   else "derivation only")
            done(c, ev, True, sum(r[2] for r in parts[cid]))


#: separates a claim id from its grid point's index in a task's item (claim ids have no NUL)
SEP = "\0"


def _dispatch(item: str, task: Callable, point_task: Callable, profile: str, seed: int, device: str, at,
              srcs: tuple[str, ...] = ()):
    """A claim's task, or one grid point's (``"<claim id>\\0<index>"``).  ``srcs``: the run's ``--claims`` sources
    (:func:`verify.run.registry.sources`), loaded on the worker first (:func:`verify.run.registry.use`, once per worker
    process) so that it finds the claims of a user's package as the calling process does."""
    from verify.run.registry import use

    use(srcs)
    cid, _, i = item.partition(SEP)
    return point_task(cid, int(i), profile, seed, device) if i else task(cid, profile, seed, device, at)


def failed(why: str):
    """Evidence of a claim that could not be computed: an error check that does not refute (-> inconclusive)."""
    from verify.model.evidence import Check, Evidence

    return Evidence(checks=[Check("check raised an error", None, why, refutes=False)])


def _probe() -> dict:
    """What must agree between the caller and a worker: library versions (platform aside) and our source code."""
    import hashlib

    from verify.run.runner import versions
    from verify.run.cache import PACKAGES, ROOT

    h = hashlib.sha256()
    for pkg in PACKAGES:
        for p in sorted((ROOT / pkg).rglob("*.py")):
            h.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes())
    return {**{k: v for k, v in versions().items() if k != "platform"}, "ftverify source": h.hexdigest()}


def _call(threads: int, fn: Callable, *args):
    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)
    return fn(*args)


def _claim_task(claim_id: str, profile: str, seed: int, device: str, at) -> tuple[dict, bool, float, str]:
    """One claim on a worker: (raw evidence as JSON, finished without error, seconds, the claim's cache key)."""
    from verify.run.runner import _worker, make_context, versions
    from verify.run.cache import key
    from verify.run.registry import all_claims

    _, evj, ok, secs = _worker(claim_id, profile, seed, device, at)
    c = next(c for c in all_claims() if c.id == claim_id)
    return evj, ok, secs, key(c, make_context(profile, seed, device, at, progress=False), versions())


def _point_task(claim_id: str, i: int, profile: str, seed: int, device: str) -> tuple[dict | None, int, float, str]:
    """Grid point ``i`` of a :class:`verify.judge.per_point.PerPoint` claim on a worker: (its evidence as JSON, or None
    if its check raised; the random draws it made; seconds; the claim's cache key)."""
    from verify.run.runner import make_context, versions
    from verify.run.cache import key
    from verify.run.registry import all_claims

    c = next(c for c in all_claims() if c.id == claim_id)
    ctx = make_context(profile, seed, device, None, progress=False)
    ctx.draws = 0
    t = time.time()
    try:
        evj = c.check.at(c, ctx, i).to_json()
    except Exception:  # noqa: BLE001 - the caller recomputes the claim serially and records the error as a run does
        evj = None
    return evj, ctx.draws, time.time() - t, key(c, ctx, versions())


def connect(workers: int | None = None, scheduler: str | None = None, threads: int | None = None) -> Cluster | None:
    """A :class:`Cluster` when either is given, else None (the serial or ``--jobs`` path)."""
    if workers is None and scheduler is None:
        if threads is not None:
            raise DomainError("--worker-threads needs --workers or --scheduler")
        return None
    return Cluster(workers, scheduler, threads)


__all__ = ["Cluster", "connect", "failed", "INSTALL"]
