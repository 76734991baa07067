"""Mutation power, generated automatically from each claim's stated sympy form.

A referee's question about a confirmation is "could this test have failed?".  The answer measured here:
perturb the stated closed form the way misprints and derivation slips perturb formulas (a constant changed by
+-10 % or by a factor 2, an exponent +-1, a term dropped, a term's sign flipped, an index shifted by one, two
symbols swapped), judge each perturbed form ("mutant") with the claim's own Monte Carlo evidence, and count how
many are refuted.

Which claims: those whose ``stated`` is a sympy expression and whose check judges that expression itself.

* **The whole check** (preferred), when the check reads the stated form through
  :func:`verify.judge.stated.stated_value` (``Expectation(predicted=STATED)``, ``Asymptotic(stated=STATED)``, or a
  custom check calling ``stated_value(claim)``), which the control run records: the claim's own check, whatever
  its strategies, is run once per mutant with the mutant as the claim's stated form, judged exactly as ``verify
  run`` judges it (Holm, replication of every rejection), and the mutant counts as refuted when the claim's
  verdict is.  The Monte Carlo draws are memoised (``Context.memo``), so every mutant meets the control's draws
  and the replication's; parts of the check that did not read the stated form (our derivation's identities, a
  literal cross-check) are not run again.  For a claim whose stated form is a bound (``stated_bound``), mutants
  that only weaken the bound at every evaluated point are set aside: no test can refute a true weaker bound.

  A mutant that is not refuted is told apart (each reason is in its row's ``status``, totalled in ``set_aside``):
  set aside, because it is true where the check looks or the same statement there: a tighter bound that the data
  themselves satisfy (a violation count of 0 or, for a probability bound, a violation frequency whose CI lies under
  delta, a passed ``Check`` with ``extra[EVERY_VALUE]``, or the control's
  estimate with its whole CI inside the mutant's bound), on a grid that varies every symbol it changes; a tighter
  bound implied by the claim's ``derived`` (our verified sharper) bound; for an order, a constant factor, or with
  ``stated_order=(limit variables)`` a factor free of them (or each term of a sum rescaled so), or a weaker
  O-statement (mutant / stated bounded away from 0 along every path into the limit); a change of a symbol
  the statement fixes (``stated_at``); for a limit statement, a mutant equal to the stated form where the symbols
  of ``stated_limit`` take their limits (the two differ by a term that vanishes there); a parity rewrite equal at
  every integer.  Otherwise it is a survivor, named
  "the grid holds X fixed" when every symbol it changes (found by moving one symbol at a time at the points the
  check read) has one value there, or "no test changes".  A claim whose check cannot refute (only our derivation's
  tests and ``refutes=False`` checks) is listed with what it caught and not counted in the totals.

Otherwise, a part of the check that judges the stated form itself:

* an ``Expectation`` whose prediction *is* the stated form at every grid point (checked numerically before any
  mutant is judged).  The samples do not depend on the form being judged, so each Expectation is simulated once,
  and once more for the replication of rejections (fresh draws from the replication seed, as ``verify run``
  does); every mutant is then judged on those samples with the same t-test and tolerance as the stated form;
* an ``Asymptotic`` whose stated limit is the stated form at every grid point: simulated and extrapolated in 1/N
  once (and once more at the rejected points for the replication); every mutant is judged on the extrapolated
  intercepts with the same test and tolerance as the stated limit.  Where the claim has an exact finite-size form
  (``finite``), its own check establishes the limit symbolically (which any wrong limit fails); judging the mutant
  on the extrapolation of the same simulations is weaker, so the power reported there is a lower bound;
* an ``Identity`` one of whose sides is the stated form (sympy): the mutant replaces that side and the identity
  is checked again (sympy, then 50-digit mpmath at random points).  A failing identity that refutes counts as
  refuted; one with ``refutes=False`` (our derivation against the stated form) makes the claim inconclusive,
  counted as "detected", not refuted.

A claim whose stated form is judged by none of these (another quantity, a random instance, a search over a
predicate, a custom check) is listed as not covered with the reason.

Multiple testing is made *stricter* than in a run: each mutant's tests are Holm-adjusted as if the family had
``family`` members (default: the size of a full quick run), the others taken as p = 1 (Bonferroni at the
smallest p-value).  A mutant counts as refuted only if some test rejects it and the replication also rejects
it.  A mutant that is symbolically equal to the stated form (sympy) is "equivalent" and not counted; one that
differs symbolically but agrees at every grid point to 1e-12 is a survivor flagged "equal on the grid" (the grid
cannot see that perturbation).

The code: :mod:`verify.audit.mutant_forms` generates the mutants, :mod:`verify.audit.mutant_judge` judges them with
the claim's check, :mod:`verify.audit.mutant_status` says why one that was not refuted is set aside; this module runs
the claims (locally, in processes or on Dask), stores each claim's result and writes ``mutants_<profile>.json``.
"""
from __future__ import annotations

import functools
import json
import time
from pathlib import Path
from verify.run import runner as api
from verify.judge.stated import reads
from verify.audit.mutant_forms import FAMILY, mutants
from verify.audit.mutant_judge import claim_mutation_power

def _reason(status: str) -> str:
    """The category of a mutant that was not judged (for the totals)."""
    for key in ("equivalent (sympy)", "equivalent on the integers", "equivalent as an order (a constant",
                "equivalent on the tested domain (declared by the claim",
                "equivalent as an order on the tested domain", "equivalent as an order on the tested grid",
                "equivalent on the claim's domain", "equivalent in the statement's limit", "weaker bound as an order",
                "weaker bound", "tighter bound implied by our derived",
                "tighter bound the data satisfy", "undefined", "check raised"):
        if status.startswith(key):
            return key.rstrip(" (")
    return status[:40]


def _short(status: str) -> str:
    """A survivor's reason, short, for the table."""
    return "no test changes" if "does not see" in status else status.removeprefix("survived: ")


def _claim_power_task(claim_id: str, profile: str, seed: int, family: int) -> dict:
    """One claim's mutation power, on a Dask worker (``mutants --workers``): as computed in :func:`mutation_power`."""
    from verify.run.registry import select

    c = select([claim_id], exact=True)[0]
    return _power_or_error(c, api.make_context(profile, seed, progress=False), family)


def _power_or_error(c, ctx, family: int) -> dict:
    t = time.time()
    try:
        r = claim_mutation_power(c, ctx, family=family)
    except Exception as e:  # noqa: BLE001 - one claim's failure is reported, the table goes on
        r = {"covered": False, "why": f"error while judging mutants: {type(e).__name__}: {e}"}
    r["seconds"] = round(time.time() - t, 1)
    return r


@functools.lru_cache(maxsize=None)
def judge_code() -> str:
    """The hash of the code that generates and judges a claim's mutants: everything :func:`claim_mutation_power`
    reaches (:mod:`verify.run.reach`), wherever it lives.  A change to it invalidates every stored result; a change
    to how results are stored or tabulated, a move of these functions to other modules, or a docstring does
    not."""
    from verify.run.reach import reached_key

    return reached_key(claim_mutation_power)


def power_key(claim, ctx) -> str:
    """The key a claim's measured power is stored under (``mutants_P.json`` ``claims[id].key``) and read back by
    :func:`verify.run.power.power_of`: the claim's own key without library versions
    (:func:`verify.run.cache.claim_key`: the code its check reaches).  The code that generates and judges mutants
    (:func:`judge_code`) is recorded beside it (``claims[id].judge``) and enters the resume key of ``mutants
    --resume``, so a changed judge of mutants is re-measured there; a run reads the power measured on the claim's
    present code.  Versions are recorded once per file and compared apart."""
    from verify.run.cache import claim_key

    return claim_key(claim, ctx)


def _store_key(claim, ctx, family: int = FAMILY) -> str:
    """The resume key of one claim's mutation power (``mutants --resume``): :func:`power_key`, :func:`judge_code`, the
    versions that change numbers and the size of the Holm family."""
    import hashlib

    from verify.run.cache import numeric_versions

    parts = json.dumps([power_key(claim, ctx), judge_code(), numeric_versions(api.versions()), family], sort_keys=True)
    return hashlib.sha256(parts.encode()).hexdigest()[:32]


def _store_get(folder: Path, claim, k: str) -> dict | None:
    from verify.run.cache import Cache

    doc = Cache(folder).get_doc(claim, k)
    return doc.get("power") if doc else None


def _store_put(folder: Path, claim, k: str, r: dict) -> None:
    """One claim's result, written whole (:meth:`verify.run.cache.Cache.put_doc`): a killed run loses at most the claims
    it was computing."""
    from verify.run.cache import Cache

    Cache(folder).put_doc(claim, k, {"id": claim.id, "power": r})


def _expected_seconds() -> dict[str, float]:
    """Each claim's time in the committed standard run (``reports/results.json``), to start the heaviest first."""
    try:
        from verify.run.cache import ROOT

        doc = json.loads((ROOT / "reports" / "results.json").read_text())
        return {k: float(v) for k, v in doc["timing"]["claims"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def _compute_local(todo, profile: str, seed: int, family: int, jobs: int):
    """Yield (claim id, result) as each claim's mutation power is finished by one of ``jobs`` spawned processes
    (each with cores // jobs torch threads, heaviest claims first)."""
    import multiprocessing as mp
    import os
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    from verify.run.registry import sources

    cost = _expected_seconds()
    order = sorted(todo, key=lambda c: -cost.get(c.id, 0.0))
    threads = max(1, (os.cpu_count() or 1) // jobs)
    ex = ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("spawn"), initializer=api._worker_init,
                             initargs=(threads, os.getpid(), sources()))
    try:
        futs = {ex.submit(_claim_power_task, c.id, profile, seed, family): c.id for c in order}
        pending = set(futs)
        while pending:
            fin, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in fin:
                yield futs[f], f.result()
    except BaseException:
        ex.shutdown(wait=False, cancel_futures=True)
        raise
    ex.shutdown(wait=True)


def mutation_power(patterns=None, profile: str = "quick", seed: int = 0, out: Path | None = None,
                   family: int = FAMILY, cluster=None, jobs: int = 1, resume: bool = False,
                   progress: bool = True, merge: bool = False) -> dict:
    """Mutation power of every selected claim (``python -m verify mutants``): a per-claim table and survivors.
    ``cluster`` (:class:`verify.run.distributed.Cluster`): the claims are judged on its workers (each claim's mutants
    in one task, on the same seeds as here), then tabulated in the selection's order. ``jobs``: that many local
    processes instead. Each finished claim is stored under ``out/.mutants_cache``; ``resume`` reads back the
    claims whose entry matches (same claim code, judge, profile, seed and versions) instead of judging them.
    ``progress=False`` (``--no-progress``): no line per judged claim; the table and the totals are printed.
    ``merge`` (``--merge``): the selected claims are judged and folded into ``out``'s existing
    ``mutants_<profile>.json`` of the same profile and seed; every other registered claim keeps its entry as written
    (a run reads an entry only while its key matches the claim's present code), and the totals are recomputed over
    the union."""
    from verify.run.registry import select

    ctx = api.make_context(profile, seed, progress=False)
    t0 = time.time()
    per = {}
    chosen = select(patterns)
    store = Path(out) / ".mutants_cache" if out is not None else None
    # the keys before anything is judged: a run's state (memos filled, workers started) never enters them
    pkeys = {c.id: power_key(c, ctx) for c in chosen}
    keys = {c.id: _store_key(c, ctx, family) for c in chosen} if store is not None else {}
    if resume and store is not None:
        for c in chosen:
            if (r := _store_get(store, c, keys[c.id])) is not None:
                per[c.id] = r
        if per:
            print(f"read back {len(per)} of {len(chosen)} claims from {store}", flush=True)
    todo = [c for c in chosen if c.id not in per]
    by_id = {c.id: c for c in chosen}
    if cluster is not None:
        results = ((cid, r if err is None else {"covered": False, "seconds": 0.0,
                                                "why": f"error while judging mutants: the task failed twice ({err})"})
                   for cid, r, err in cluster.each(_claim_power_task, [c.id for c in todo], profile, seed, family))
    elif jobs > 1 and len(todo) > 1:
        results = _compute_local(todo, profile, seed, family, jobs)
    else:
        results = ((c.id, _power_or_error(c, ctx, family)) for c in todo)
    for k, (cid, r) in enumerate(results, len(per) + 1):
        per[cid] = r
        if store is not None and not str(r.get("why", "")).startswith("error while judging"):
            _store_put(store, by_id[cid], keys[cid], r)
        if progress:
            print(f"[{k}/{len(chosen)}] {cid}: " + (f"{r['refuted']}/{r['judged']} mutants refuted"
                                                     + (" (the stated form itself was refuted too)"
                                                        if r["control_refuted"] else "")
                                                     if r["covered"] else
                                                     f"not covered ({r['why']})") + f"  {r['seconds']} s", flush=True)
    per = {c.id: per[c.id] for c in chosen}   # the selection's order, however they finished
    for c in chosen:   # a run reads this claim's power only while its code and the mutants' judge are the same
        per[c.id]["key"] = pkeys[c.id]
        per[c.id]["judge"] = judge_code()
    if merge and out is not None:
        chosen, per = _merged(Path(out) / f"mutants_{profile}.json", profile, seed, chosen, per)
    covered = {k: v for k, v in per.items() if v["covered"]}
    # a claim whose stated form is itself refuted (an erratum) says nothing about power: listed, not counted
    # nor does a claim refuted by another part of its check (its reviewed verdict, tests/expected_verdicts.json,
    # is 'refuted' although the part judging the stated form passes, e.g. a correct proof step of a wrong theorem)
    from verify.audit.calibration import reviewed_verdicts

    reviewed = {**_package_pins(chosen), **reviewed_verdicts()}
    for k, v in covered.items():
        v["claim_refuted"] = v["control_refuted"] or reviewed.get(k) == "refuted"
    # nor does a claim whose check cannot refute (our own derivation, refutes=False): listed with what it caught
    counted = {k: v for k, v in covered.items() if not v["claim_refuted"] and v.get("can_refute", True)}
    judged = sum(v["judged"] for v in counted.values())
    killed = sum(v["refuted"] for v in counted.values())
    caught = killed + sum(v.get("detected", 0) for v in counted.values())
    # the mutants not judged, by reason, over the counted claims: what the power figure leaves out, and why
    set_aside: dict[str, int] = {}
    for v in counted.values():
        for r in v["mutants"]:
            if r["status"] in ("refuted", "detected (inconclusive)") or r["status"].startswith("survived"):
                continue
            key = _reason(r["status"])
            set_aside[key] = set_aside.get(key, 0) + 1
    table = ["| claim | judged by | mutants judged | refuted | detected only | power | claim refuted | survivors |",
             "|---|---|---|---|---|---|---|---|"]
    for cid, v in covered.items():
        surv = "; ".join(f"{r['mutant']}" + (f" ({_short(r['status'])})" if r["status"] != "survived" else "")
                         for r in v["mutants"] if r["status"].startswith("survived")) or "-"
        pw = f"{v['power']:.0%}" if v["power"] is not None else "-"
        table.append(f"| `{cid}` | {', '.join(v.get('judged_by', []))} | {v['judged']} | {v['refuted']} "
                     f"| {v.get('detected', 0)} | {pw}{' ⚠' if cid in counted and (v['power'] or 0) < 0.8 else ''} "
                     f"| {'yes' if v['claim_refuted'] else 'no' if v.get('can_refute', True) else 'cannot (ours)'} "
                     f"| {surv} |")
    untested = _untested_power(chosen, per, reviewed)
    doc = {"profile": profile, "seed": seed, "family": family, "claims": per, "table": table,
           "untested_power": untested,
           "covered": len(covered), "counted": len(counted), "selected": len(per), "judged": judged,
           "refuted": killed, "caught": caught, "power": killed / judged if judged else None,
           "caught_fraction": caught / judged if judged else None, "set_aside": set_aside,
           "seconds": round(time.time() - t0, 1),
           "versions": api.versions()}
    print("\n".join(table))
    print("\nnot judged (counted claims): " + "; ".join(f"{k}: {n}" for k, n in sorted(set_aside.items())))
    print(f"\n{killed}/{judged} mutants refuted ({caught} refuted or detected) over {len(counted)} covered claims "
          f"that are not refuted (by their stated form or another part of the check) and can refute ({len(covered)} "
          f"covered, {len(per)} selected)")
    conf = {k: v for k, v in untested.items() if v["pinned"] == "confirmed"}
    print(f"\nconfirmed claims (pinned verdict) of untested power at {profile}: {len(conf)} of "
          f"{sum(1 for c in chosen if reviewed.get(c.id) == 'confirmed')}" + (":" if conf else ""))
    for k, v in conf.items():
        print(f"- {k}: {v['why']}")
    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
        path = Path(out) / f"mutants_{profile}.json"
        path.write_text(json.dumps(doc, indent=1, default=str))
        print(f"wrote {path}")
    return doc


def merge_base(path: Path, profile: str, seed: int) -> dict | None:
    """The earlier ``mutants_<profile>.json`` at ``path`` that ``--merge`` folds new entries into (None when there
    is none); ValueError (one line) when it is not a mutants document of this profile and seed."""
    if not path.exists():
        return None
    try:
        old = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise ValueError(f"--merge: {path} is not a mutants document ({e})") from None
    if not isinstance(old, dict) or (old.get("profile"), old.get("seed")) != (profile, seed) \
            or not isinstance(old.get("claims"), dict):
        raise ValueError(f"--merge: {path} is not a mutants document of --profile {profile} --seed {seed}")
    return old


def _merged(path: Path, profile: str, seed: int, chosen: list, per: dict) -> tuple[list, dict]:
    """``chosen`` and ``per`` with the entries of the other registered claims that ``path`` (:func:`merge_base`)
    holds, in the registry's order; unchanged when there is no such file."""
    from verify.run.registry import select

    old = merge_base(path, profile, seed)
    if old is None:
        return chosen, per
    every = select(None)
    kept = {c.id: old["claims"][c.id] for c in every if c.id not in per and isinstance(old["claims"].get(c.id), dict)}
    union = [c for c in every if c.id in per or c.id in kept]
    union += [c for c in chosen if c not in union]
    return union, {c.id: per.get(c.id, kept.get(c.id)) for c in union}


def _package_pins(chosen) -> dict[str, str]:
    """The pinned verdicts of the selected claims of packages of one's own (:func:`verify.run.registry.package_pins`),
    so that a package's refuted claim (an erratum) is listed, not counted, as a built-in one is."""
    from verify.run.registry import package_pins

    pins: dict[str, str] = {}
    for paper in sorted({c.source.paper for c in chosen}):
        pins.update(package_pins(paper))
    return pins


def _untested_power(chosen, per: dict, reviewed: dict) -> dict:
    """The selected claims no alternative was shown able to fail (not covered, or none of their mutants and
    witnesses refuted or detected), with their pinned verdict and what would give them power (their notes)."""
    from verify.run.power import untested_note

    out = {}
    for c in chosen:
        r = per[c.id]
        if r.get("covered") and (r.get("refuted") or 0) + (r.get("detected") or 0) > 0:
            continue
        why = untested_note(c) or (r.get("why") if not r.get("covered") else
                                   f"none of its {r.get('judged', 0)} alternatives was rejected or detected")
        out[c.id] = {"pinned": reviewed.get(c.id), "why": why}
    return out


__all__ = ["mutants", "claim_mutation_power", "mutation_power"]
