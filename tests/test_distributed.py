"""Claims on Dask workers (``--workers N``, :mod:`verify.run.distributed`): the serial run's results.json, a lost
worker's claim inconclusive with the error recorded, and a one-line error without the optional dependency."""
from __future__ import annotations

import json
import os
import sys

import pytest

from verify import cli
from verify.run import runner as api
from verify.judge.per_group import PerGroup
from verify.judge.per_point import PerPoint

# cheap at quick, one of each strategy: Identity + Custom, PropertySearch, Expectation, Monte Carlo with figures
PATS = ["tahir2024.thm3.6.stieltjes", "tahir2024.thm3.8.monotone", "hermite.parseval.relu",
        "tahir2024.rate.lemmaB1.eq50", "shachaf2021.fig1.large_n"]


@pytest.fixture(scope="module")
def cluster():
    pytest.importorskip("distributed")
    from verify.run.distributed import Cluster

    with Cluster(workers=2) as cl:
        yield cl


def _doc(**kw) -> str:
    doc = api.run(PATS, profile="quick", seed=5, progress=False, **kw).to_json()
    doc.pop("timing")
    return json.dumps(doc, sort_keys=True)


def test_two_workers_give_the_serial_document(cluster):
    """Every draw is seeded from (run seed, claim, point) and each task runs with the serial run's torch thread
    count: the document is the serial one byte for byte, claims in the selection's order."""
    assert _doc(cluster=cluster) == _doc()
    assert len(cluster.client.scheduler_info()["workers"]) == 2


def test_an_existing_scheduler(cluster):
    """``--scheduler ADDRESS``: connect to a running scheduler (here the fixture's), check its workers, same document."""
    from verify.run.distributed import Cluster

    pats = PATS[:2]
    with Cluster(scheduler=cluster.client.scheduler_info()["address"]) as remote:
        got = api.run(pats, profile="quick", seed=5, progress=False, cluster=remote).to_json()
    want = api.run(pats, profile="quick", seed=5, progress=False).to_json()
    got.pop("timing"), want.pop("timing")
    assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)


@pytest.mark.parametrize("pats, split_id, tasks, strategy", [
    # PerPoint: liu2019.thm2's three independent task points at quick, one task each
    (["liu2019.thm2", "hermite.parseval.relu"], "liu2019.thm2", 3, PerPoint),
    # PerGroup: tahir2024.thm3.9's 2 gamma x 2 sigma groups at quick, the three angles of each sharing their draws
    (["tahir2024.thm3.[9]"], "tahir2024.thm3.9", 4, PerGroup),
], ids=["per point", "per group"])
def test_a_split_claim_gives_one_task_per_unit_and_the_serial_document(cluster, monkeypatch, pats, split_id, tasks,
                                                                       strategy):
    """A PerPoint claim becomes one task per grid point, a PerGroup claim one per group of points sharing their
    draws; the units' evidence joined here is the serial run's (whose check joins its units the same way)."""
    (c,) = [c for c in api.select(pats) if c.id == split_id]
    assert type(c.check) is strategy
    items = []
    each = cluster.each

    def recording(fn, its, *args):
        items.extend(its)
        return each(fn, its, *args)
    monkeypatch.setattr(cluster, "each", recording)
    got = api.run(pats, profile="quick", seed=5, progress=False, cluster=cluster).to_json()
    want = api.run(pats, profile="quick", seed=5, progress=False).to_json()
    others = [c.id for c in api.select(pats) if c.id != split_id]
    assert sorted(items) == sorted([f"{split_id}\0{i}" for i in range(tasks)] + others)
    got.pop("timing"), want.pop("timing")
    assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)


def _raises(claim_id, i, profile, seed, device):  # a grid point whose check raises
    return None, 0, 0.0, _key(claim_id, profile, seed, device)


def _key(claim_id, profile, seed, device):
    from verify.run.cache import key

    c = api.select([claim_id])[0]
    return key(c, api.make_context(profile, seed, device, None, progress=False), api.versions())


def test_a_point_that_raises_gives_the_serial_error_record(cluster):
    """If a grid point's check raises on a worker, the claim is recomputed by the caller: its evidence is the
    serial run's (here the check succeeds when recomputed, so it is the serial document)."""
    import cloudpickle

    from verify.run import distributed as distributed_mod
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    cluster.point_task = _raises
    try:
        got = api.run(["liu2019.thm2"], profile="quick", seed=5, progress=False, cluster=cluster).to_json()
    finally:
        cluster.point_task = distributed_mod._point_task
    want = api.run(["liu2019.thm2"], profile="quick", seed=5, progress=False).to_json()
    got.pop("timing"), want.pop("timing")
    assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)


def test_an_unreachable_scheduler_is_a_one_line_error(capsys, tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("verify.run.distributed.CONNECT_TIMEOUT", "1s")
    argv = ["run", "tahir2024.thm3.6.stieltjes", "--scheduler", "tcp://127.0.0.1:9", "--out", str(tmp_path)]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "cannot reach the Dask scheduler" in err, err


def _dies(claim_id, profile, seed, device, at):  # a task that kills its worker every time
    os._exit(3)


def test_a_task_lost_twice_makes_its_claim_inconclusive(cluster):
    import cloudpickle

    from verify.run import distributed as distributed_mod
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    cluster.task = _dies
    try:
        res = api.run(["tahir2024.thm3.6.stieltjes"], profile="quick", seed=5, progress=False, cluster=cluster)
    finally:
        cluster.task = distributed_mod._claim_task
    (r,) = res.claims
    assert r.verdict == api.Verdict.INCONCLUSIVE
    why = r.evidence.checks[0].detail
    assert "failed twice" in why and "KilledWorker" in why


def test_without_distributed_the_flag_is_a_one_line_error(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    assert cli.main(["run", "tahir2024.thm3.6.stieltjes", "--workers", "2", "--out", "/tmp/never"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "pip install 'ftverify[dask]'" in err


@pytest.mark.parametrize("argv,msg", [
    (["run", "x", "--workers", "0"], "--workers must be at least 1"),
    (["run", "x", "--workers", "2", "--scheduler", "tcp://h:1"], "not allowed with argument"),
    (["run", "x", "--worker-threads", "2"], "--worker-threads needs --workers or --scheduler"),
    (["calibrate", "--workers", "2"], "scratch-risk slice"),
    (["run", "x", "--workers", "2", "--jobs", "2"], "give one of them"),
])
def test_bad_dask_flags(argv, msg, capsys, tmp_path):
    pytest.importorskip("distributed")
    assert cli.main(argv + ["--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and msg in err, err
