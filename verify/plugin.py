"""The pytest plugin: every claim of a claims package is a pytest item that asserts its verdict.

Registered through the ``pytest11`` entry point (``verify.plugin``), so installing ftverify makes it available
in any repository.  A test module declares which claims it verifies and where their pinned verdicts live::

    # tests/test_mypaper2026.py
    from verify.plugin import ClaimSet

    test_claim = ClaimSet("../mypaper2026", expected="expected_verdicts.json")

Every claim of the source (a ``.py`` file, a folder or a package, a path relative to the test file, or a dotted
module name, as for ``python -m verify run --claims``) becomes one item, ``test_claim[mypaper2026.thm1]``,
marked ``ftverify`` (plus ``marks=``), so ``-k`` and ``-m`` select claims as usual.  The selected claims pinned in
one expected-verdicts file are judged in **one run** (the first item to need it starts it: Holm's correction and the
replication of rejections span exactly that family, as in ``python -m verify run PATTERN``); a claim that ``-k``,
``-m`` or the node ids deselect is not simulated.  Each item then compares its claim's verdict with the pinned one
and fails with the claim's reason and evidence when they differ.  A session fixture made by
:meth:`ClaimSet.run_fixture` (or :meth:`ClaimSet.result`) gets the run of every claim of the set: when a selected
test uses that fixture, the items share that one full run.

Pins of claims that no longer exist (an id in the expected file, of a paper whose claims are collected, that no
collected claim has) give one warning naming them (:class:`StalePins`): delete them from the file.

Options: ``--ftverify-profile quick|standard|full`` (default: the ClaimSet's, ``quick``), ``--ftverify-seed``,
``--ftverify-jobs``, and ``--ftverify-write-expected``: write the verdicts of claims that have none pinned into the
expected file (the first time; review them in the failure-free output and commit the file).  A pinned verdict that
differs is never overwritten: it fails.  A claim whose check did not finish (verdict ``error``: it raised, its
predicate was NaN, it timed out) always fails, with the file:line and traceback, and is never pinned.
"""
from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import pytest

PROFILES = ("quick", "standard", "full")


class ClaimSet:
    """Declare, in a test module, the claims whose verdicts the module checks: one pytest item per claim.

    sources:  ``.py`` files, folders or packages (paths relative to the test file) or dotted module names;
              ``"verify.claims"`` are the built-in sources.
    expected: the JSON file of pinned verdicts, ``{"<claim id>": "confirmed" | "refuted" | ...}`` (relative to the
              test file).  The claims of every ClaimSet pinned in one file are judged in one run.
    profile, seed, jobs: how that run is made (the command line's ``--ftverify-*`` options override them).
    marks:    extra pytest marks for every item (each is also marked ``ftverify``).
    """

    def __init__(self, *sources: str, expected: str | os.PathLike = "expected_verdicts.json",
                 profile: str = "quick", seed: int = 0, jobs: int = 1, marks=()):
        if not sources:
            raise ValueError("ClaimSet needs at least one claims source (a .py file, folder or module name)")
        if profile not in PROFILES:
            raise ValueError(f"ClaimSet profile {profile!r}: choose one of {', '.join(PROFILES)}")
        self.sources, self.expected, self.profile, self.seed, self.jobs = sources, expected, profile, seed, jobs
        self.marks = tuple(marks)
        self.fixtures: set[str] = set()   # the fixtures made by run_fixture (they need every claim's run)

    def run_fixture(self, name: str):
        """A session fixture ``name`` whose value is the run of every claim of this set (``conftest.py``:
        ``quick_run = SUITE.run_fixture("quick_run")``).  A selected test that uses it makes the items share
        that full run instead of simulating only the selected claims first."""
        self.fixtures.add(name)

        @pytest.fixture(scope="session", name=name)
        def _run(request):
            return self.result(request.config)

        return _run

    def _resolve(self, base: Path) -> tuple[list[str], Path]:
        srcs = []
        for s in self.sources:
            s = str(s)
            path_like = s.endswith(".py") or "/" in s or s.startswith(".") or (base / s).exists()
            srcs.append(str((base / s).resolve()) if path_like else s)
        return srcs, (base / self.expected).resolve()

    def load(self, config, base: Path) -> tuple["_Group", tuple]:
        """(the run group these claims join, one per expected-verdicts file and created on first use; the claims)."""
        from verify.run.registry import BUILTIN, claims_from, use

        srcs, expected = self._resolve(base)
        use([s for s in srcs if s != BUILTIN])   # a worker process (--jobs) must find external claims too
        claims = claims_from(srcs)
        groups = config.stash.setdefault(_GROUPS, {})
        g = groups.get(expected)
        if g is None:
            opt = config.getoption
            g = groups[expected] = _Group(
                expected, opt("ftverify_profile") or self.profile,
                self.seed if opt("ftverify_seed") is None else opt("ftverify_seed"),
                opt("ftverify_jobs") or self.jobs)
        g.add(claims)
        g.fixtures |= self.fixtures
        return g, claims

    def result(self, config, base: Path | str | None = None):
        """The :class:`verify.run.runner.RunResult` of this set's group (one run per session), e.g. for a fixture that
        checks more than verdicts.  ``base``: the folder relative paths are read from (default: the rootdir)."""
        return self.load(config, Path(base) if base is not None else Path(config.rootpath))[0].result()


@dataclass
class _Group:
    expected: Path
    profile: str
    seed: int
    jobs: int
    claims: list = field(default_factory=list)
    _run: object = None
    pinned: dict | None = None
    new: dict = field(default_factory=dict)
    selected: set | None = None    # the claims of the selected items (pytest_collection_finish); None: every claim
    fixtures: set = field(default_factory=set)

    def add(self, claims) -> None:
        have = {c.id for c in self.claims}
        self.claims += [c for c in claims if c.id not in have]

    def result(self, ids: set | None = None):
        """The run of the claims ``ids`` (default: every claim of the group), made once: a run that already
        covers them is reused, else a run of exactly them is made (its own Holm family, as ``verify run``
        with those ids)."""
        want = {c.id for c in self.claims} if ids is None else set(ids)
        if self._run is None or not want <= set(self._by_id):
            from verify import api

            self._run = api.run(claims=sorted((c for c in self.claims if c.id in want), key=lambda c: c.id),
                                profile=self.profile, seed=self.seed, progress=False,
                                jobs=max(1, min(self.jobs, os.cpu_count() or 1)))
            self._by_id = {r.claim.id: r for r in self._run.claims}
        return self._run

    def of(self, claim_id: str):
        self.result(self.selected)
        return self._by_id[claim_id]

    def stale(self) -> list[str]:
        """Pinned ids of this group's papers that no claim of the group has (a claim deleted or renamed)."""
        papers = {c.source.paper for c in self.claims}
        have = {c.id for c in self.claims}
        return sorted(k for k in self.pinned_verdicts() if k.split(".", 1)[0] in papers and k not in have)

    def pinned_verdicts(self) -> dict:
        if self.pinned is None:
            try:
                self.pinned = json.loads(self.expected.read_text())
            except FileNotFoundError:
                self.pinned = {}
            except ValueError as e:
                raise pytest.UsageError(f"{self.expected} is not a JSON object of pinned verdicts: {e}") from None
        return self.pinned


_GROUPS = pytest.StashKey[dict]()


class StalePins(pytest.PytestWarning):
    """An expected-verdicts file pins claims that no longer exist."""


class VerdictMismatch(AssertionError):
    """A claim's verdict differs from the verdict pinned for it (or none is pinned)."""


def evidence_lines(r, limit: int = 8) -> list[str]:
    """The evidence of one claim result, a line per Monte Carlo test or deterministic check (failures first)."""
    ev = r.evidence
    rank = {"rejected": 0, "not replicated": 1, "undecided": 2}
    lines = []
    for t in sorted(ev.tests, key=lambda t: rank.get(t.status, 3)):
        lines.append(f"[{t.status}] {t.label}: estimate {t.estimate:.6g}, 95% CI [{t.ci[0]:.6g}, {t.ci[1]:.6g}], "
                     f"{t.target} {t.predicted:.6g}, p={t.pvalue:.3g} (Holm {t.p_adjusted:.3g}), {t.trials} trials")
    for c in sorted(ev.checks, key=lambda c: c.passed is not False):
        state = {True: "passed", False: "FAILED", None: "undecided"}[c.passed]
        cx = f"; counterexample {c.counterexample}" if c.counterexample else ""
        lines.append(f"[{state}] {c.name}: {c.detail}{cx}")
    more = len(lines) - limit
    return lines[:limit] + ([f"... and {more} more"] if more > 0 else [])


def _traceback(r, limit: int = 30) -> str:
    """The last lines of the traceback of a check that raised (empty for a timeout without one)."""
    tb = (r.evidence.details.get("error") or {}).get("traceback") or ""
    return "\n".join("    " + s for s in tb.rstrip().splitlines()[-limit:])


class ClaimItem(pytest.Item):
    """One claim: passes when its verdict in the group's run equals the pinned verdict."""

    def __init__(self, *, claim, group: _Group, **kw):
        super().__init__(**kw)
        self.claim, self.group = claim, group
        self.extra_keyword_matches.update({claim.paper, claim.kind.name.lower(), *claim.tags})

    def runtest(self) -> None:
        r = self.group.of(self.claim.id)
        got = r.verdict.value
        pinned = self.group.pinned_verdicts().get(self.claim.id)
        if got == "error":   # a check that did not finish: never pinned, never accepted (even if "error" is pinned)
            raise VerdictMismatch(self._message(r, got, pinned) + "\n  the check did not finish: an error is no "
                                  "verdict, it is never pinned (fix the check; its traceback is below)\n"
                                  + _traceback(r))
        if pinned is None and self.config.getoption("ftverify_write_expected"):
            self.group.new[self.claim.id] = got
            return
        if pinned != got:
            raise VerdictMismatch(self._message(r, got, pinned))

    def _message(self, r, got: str, pinned) -> str:
        c = self.claim
        head = (f"{c.id}: verdict {got!r} at {self.group.profile} (seed {self.group.seed}), pinned {pinned!r} "
                f"in {self.group.expected}" if pinned is not None else
                f"{c.id}: verdict {got!r} at {self.group.profile}, but no verdict is pinned in {self.group.expected}; "
                "review it and pin it (pytest --ftverify-write-expected writes the missing ones)")
        lines = [head, f"  source:    {c.source.cite()}", f"  statement: {c.statement}", f"  reason:    {r.reason}"]
        if r.corrected_verdict is not None:
            lines.append(f"  corrected form ({c.corrected}): {r.corrected_verdict.value}")
        lines.append("  evidence:")
        lines += [f"    {s}" for s in evidence_lines(r)]
        return "\n".join(lines)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, VerdictMismatch):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"{self.name}: {self.claim.source.cite()}"


def pytest_addoption(parser) -> None:
    g = parser.getgroup("ftverify", "ftverify claims (verify.plugin)")
    g.addoption("--ftverify-profile", choices=PROFILES, default=None,
                help="profile of the claims run (default: each ClaimSet's, quick)")
    g.addoption("--ftverify-seed", type=int, default=None, help="seed of the claims run (default: each ClaimSet's, 0)")
    g.addoption("--ftverify-jobs", type=int, default=None, help="worker processes of the claims run")
    g.addoption("--ftverify-write-expected", action="store_true",
                help="pin the verdicts of claims that have none in their expected-verdicts file (never overwrites "
                     "a pinned verdict); review the file, then commit it")


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "ftverify: a claim judged by ftverify (one item per claim, verify.plugin)")


def pytest_pycollect_makeitem(collector, name, obj):
    if not isinstance(obj, ClaimSet) or not collector.funcnamefilter(name):   # test_* names only (not an import)
        return None
    from verify.run.registry import ClaimsError

    base = Path(collector.path).parent
    try:
        group, claims = obj.load(collector.config, base)
    except ClaimsError as e:
        raise collector.CollectError(f"{name}: {e}") from None
    items = []
    for c in claims:
        item = ClaimItem.from_parent(collector, name=f"{name}[{c.id}]", claim=c, group=group)
        item.add_marker(pytest.mark.ftverify)
        for m in obj.marks:
            item.add_marker(m)
        items.append(item)
    return items


def pytest_collection_finish(session) -> None:
    """After ``-k``, ``-m`` and node ids have deselected: each group simulates only its selected claims (all of them
    when a selected test uses one of its run fixtures); stale pins are warned about, naming them."""
    groups = session.config.stash.get(_GROUPS, {})
    for g in groups.values():
        mine = [it for it in session.items if isinstance(it, ClaimItem) and it.group is g]
        full = any(g.fixtures & set(getattr(it, "fixturenames", ())) for it in session.items
                   if not isinstance(it, ClaimItem))
        g.selected = None if full else {it.claim.id for it in mine}
        if stale := g.stale():
            shown = ", ".join(stale[:10]) + (f" and {len(stale) - 10} more" if len(stale) > 10 else "")
            warnings.warn(StalePins(f"{g.expected} pins {len(stale)} claim(s) that no longer exist: {shown} "
                                    "(delete them from the file)"), stacklevel=1)


def pytest_sessionfinish(session) -> None:
    """With --ftverify-write-expected: add the verdicts of claims that had none to their expected files."""
    if not session.config.getoption("ftverify_write_expected"):
        return
    for g in session.config.stash.get(_GROUPS, {}).values():
        if not g.new:
            continue
        doc = {**g.pinned_verdicts(), **g.new}
        g.expected.parent.mkdir(parents=True, exist_ok=True)
        g.expected.write_text(json.dumps(dict(sorted(doc.items())), indent=1) + "\n")
        tr = session.config.pluginmanager.get_plugin("terminalreporter")
        if tr is not None:
            tr.ensure_newline()
            tr.write_line(f"ftverify: pinned {len(g.new)} verdict(s) in {g.expected}; review them, then commit it")
