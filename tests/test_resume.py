"""run --resume: an interrupted run's finished claims are reused; a kill leaves reports and cache whole."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from verify import api
from verify.run.cache import Cache, key
from verify.model.evidence import Check, Evidence
from verify.run.registry import select

FAST, SLOW = "tahir2024.thm3.6.stieltjes", "tahir2024.thm3.6.finite"
ROOT = Path(__file__).resolve().parents[1]


def _cli(out, *extra):
    return [sys.executable, "-m", "verify", "run", FAST, SLOW, "--profile", "quick", "--seed", "5",
            "--out", str(out), "--no-progress", *extra]


def _strip(doc):
    doc = dict(doc)
    doc.pop("timing")
    return json.dumps(doc, sort_keys=True)


def test_kill_then_resume(tmp_path):
    out = tmp_path / "r"
    # an earlier report in the folder, which a killed run must leave byte-identical
    subprocess.run([sys.executable, "-m", "verify", "run", FAST, "--profile", "quick", "--out", str(out),
                    "--no-progress"], cwd=ROOT, check=True, capture_output=True)
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    old = set((out / ".cache").glob("*.json"))
    proc = subprocess.Popen(_cli(out), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 600
    while time.time() < deadline and proc.poll() is None:  # wait for the fast claim's new entry
        if any(p.name.startswith(FAST + ".") for p in set((out / ".cache").glob("*.json")) - old):
            break
        time.sleep(0.1)
    assert proc.poll() is None, "the run finished before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before, "a kill damaged the reports"
    for p in (out / ".cache").glob("*.json"):
        json.loads(p.read_text())  # every cache entry is whole
    assert not list((out / ".cache").glob(".partial-*"))
    # resume: the finished claim is read back, the other simulated; the result is what a fresh run gives
    res = subprocess.run(_cli(out, "--resume"), cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    resumed = json.loads((out / "results.json").read_text())
    assert resumed["timing"]["resumed_from_cache"] == [FAST]
    fresh = api.run([FAST, SLOW], profile="quick", seed=5, progress=False).to_json()
    assert _strip(resumed) == _strip(json.loads(json.dumps(fresh)))


def test_changed_code_or_seed_is_recomputed(tmp_path):
    c = select([FAST])[0]
    ctx = api.make_context("quick", 1, progress=False)
    v = api.versions()
    k = key(c, ctx, v)
    assert key(c, api.make_context("quick", 2, progress=False), v) != k
    assert key(c, api.make_context("standard", 1, progress=False), v) != k
    store = Cache(tmp_path)
    assert store.get(c, k) is None
    ev = c.check.run(c, ctx)
    store.put(c, k, ev, 1.0)
    assert store.get(c, k)[0].to_json() == ev.to_json()
    assert store.get(c, "other-code-hash") is None


def _children(pid):
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _alive(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists(),
                    reason="needs Linux /proc/<pid>/task/<tid>/children")
def test_killed_parallel_run_leaves_no_workers(tmp_path):
    """A run with --jobs 2 killed with SIGKILL takes its worker processes with it (none left computing)."""
    proc = subprocess.Popen(_cli(tmp_path / "r", "--jobs", "2"), cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline, workers = time.time() + 120, []
    while time.time() < deadline and proc.poll() is None:
        # the pool's workers (plus the resource tracker): wait until at least two are up
        workers = _children(proc.pid)
        if len(workers) >= 3:
            break
        time.sleep(0.1)
    assert proc.poll() is None and len(workers) >= 2, "the workers never started"
    time.sleep(1.0)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.time() + 30
    while time.time() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.2)
    assert not any(_alive(w) for w in workers), "worker processes outlived the killed run"


def test_an_entry_is_read_only_for_its_own_claim_and_key(tmp_path):
    """The entry holds its claim's id and key: another claim's entry copied under this claim's file name is
    refused, with its id as written or edited to this claim's."""
    a, b = select([FAST])[0], select([SLOW])[0]
    store = Cache(tmp_path)
    store.put(a, "ka", Evidence(checks=[Check("c", True)]), 1.0)
    assert store.get(a, "ka") is not None
    doc = json.loads((tmp_path / f"{a.id}.ka.json").read_text())
    assert (doc["id"], doc["key"]) == (a.id, "ka")
    (tmp_path / f"{b.id}.kb.json").write_text(json.dumps(doc))
    assert store.get(b, "kb") is None                 # a's id
    (tmp_path / f"{b.id}.kb.json").write_text(json.dumps({**doc, "id": b.id}))
    assert store.get(b, "kb") is None                 # the id edited: the key is still a's
    (tmp_path / f"{b.id}.kb.json").write_text(json.dumps({**doc, "id": b.id, "key": "kb"}))
    assert store.get(b, "kb") is not None             # control: an entry consistent with its file is read


def test_a_failed_write_leaves_no_partial_file_and_keeps_earlier_entries(tmp_path, monkeypatch):
    import verify.run.cache as cache_mod

    c = select([FAST])[0]
    ev = Evidence(checks=[Check("c", True)])
    store = Cache(tmp_path)
    store.put(c, "old", ev, 1.0)

    def full(*a, **k):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(cache_mod.os, "replace", full)
    with pytest.raises(OSError):
        store.put(c, "new", ev, 1.0)
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{c.id}.old.json"]
    assert store.get(c, "old") is not None
