"""Command line: ``python -m verify {list,run,report,compare,calibrate,stability,mutants,coverage,new}``.

Exit status: 0 when the run completes; 1 with ``--fail-on-refuted`` when a claim is
refuted; 2 with a one-line message on bad input (unknown id or pattern, invalid
parameter, a grid point outside its claim's domain, a ``--at`` point too large for this
machine's memory, unwritable folder, an --out that is not a folder of its own or holds someone else's file
where a report goes, another run writing into the same --out); 3 when ``run`` completed but a claim's check did not
finish (it raised, its predicate was NaN, or it ran over ``--claim-timeout``): its verdict is
"error", the console names the claim and the file:line, the reports are written (whatever
``--fail-on-refuted`` says); 130 when interrupted, 143 on SIGTERM (nothing half-written is
left; the claims finished so far are kept in OUT/.cache and ``--resume`` reuses them).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from verify.model.claim import DomainError

EXIT_OK, EXIT_REFUTED, EXIT_USAGE, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_TERMINATED = 0, 1, 2, 3, 130, 143


class Terminated(KeyboardInterrupt):
    """SIGTERM (a cluster's job limit, ``kill``): unwinds as an interrupt does (workers stopped, nothing
    half-written), then exit status 143 with one line saying what was kept."""


def _on_sigterm(signum, frame):
    raise Terminated()


def _cap_jobs(args) -> None:
    """``--jobs N`` above the core count is capped at it (one warning line): more processes than cores only
    share them, at the cost of each process's memory."""
    import os

    cores = os.cpu_count() or 1
    if getattr(args, "jobs", 1) > cores:
        print(f"warning: --jobs {args.jobs} is more than the {cores} cores of this machine; using --jobs {cores}",
              file=sys.stderr)
        args.jobs = cores


class _Finished:
    """Counts the claims a run finished (for the line printed when it is stopped), passing each on to ``inner``."""

    def __init__(self, inner=None):
        self.inner, self.n = inner, 0

    def begin(self, total, profile="standard"):
        if self.inner is not None and hasattr(self.inner, "begin"):
            self.inner.begin(total, profile)

    def __call__(self, result):
        self.n += 1
        if self.inner is not None:
            self.inner(result)


class UsageError(Exception):
    """Bad input: reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not a usage dump
        raise UsageError(message)


_NUM = re.compile(r"^[0-9eE+\-*/(). pi]+$")


def _arith(node) -> float:
    """Evaluate a parsed arithmetic expression: numbers, pi, + - * / and parentheses (no powers, so
    that e.g. 9**9**9 cannot stall the command line), in floating point."""
    import ast
    import math
    import operator

    ops = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
    if isinstance(node, ast.Expression):
        return _arith(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Name) and node.id == "pi":
        return math.pi
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        v = _arith(node.operand)
        return v if isinstance(node.op, ast.UAdd) else -v
    if isinstance(node, ast.BinOp) and type(node.op) in ops:
        return ops[type(node.op)](_arith(node.left), _arith(node.right))
    raise ValueError("not an arithmetic expression")


def parse_point(text: str) -> dict:
    """``'n=5,theta=pi/4,sigma=0.2'`` -> {'n': 5.0, 'theta': 0.785..., 'sigma': 0.2}."""
    import ast

    out = {}
    for part in filter(None, (s.strip() for s in text.split(","))):
        if "=" not in part:
            raise UsageError(f"--at expects name=value pairs separated by commas, got {part!r}")
        k, v = (s.strip() for s in part.split("=", 1))
        if not k.isidentifier() or not v or not _NUM.match(v):
            raise UsageError(f"cannot read the parameter {part!r} (numbers, pi, + - * / and parentheses only)")
        if k in out:
            raise UsageError(f"the parameter {k} is given twice in {text!r}")
        try:
            out[k] = _arith(ast.parse(v, mode="eval"))
        except (SyntaxError, ValueError, ZeroDivisionError, OverflowError, RecursionError, MemoryError):
            raise UsageError(f"cannot evaluate {v!r} for {k} (numbers, pi, + - * / and parentheses only)") from None
    return out


def _dask_flags(p) -> None:
    """--workers / --scheduler / --worker-threads (verify.run.distributed; the optional extra ftverify[dask])."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("--workers", type=int, metavar="N", help="spread the claims over a local Dask cluster of N "
                   "worker processes (needs pip install 'ftverify[dask]'); results.json is the serial run's")
    g.add_argument("--scheduler", metavar="ADDRESS", help="spread the claims over the workers of an existing Dask "
                   "scheduler, e.g. tcp://head:8786 (workers need this ftverify and the same library versions)")
    p.add_argument("--worker-threads", type=int, metavar="N", help="torch threads per Dask task (default: this "
                   "process's count, as in a serial run; another count can change last digits of some estimates)")


def _cluster(args):
    """The Dask cluster the flags ask for (a context manager), or a null context."""
    import contextlib

    from verify.run.distributed import connect

    if getattr(args, "jobs", 1) != 1 and (args.workers is not None or args.scheduler is not None):
        raise UsageError("--jobs runs local processes, --workers/--scheduler Dask workers: give one of them")
    return connect(args.workers, args.scheduler, args.worker_threads) or contextlib.nullcontext()


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m verify", description="Verify published closed forms and bounds of "
                "fine-tuning / transfer-learning theory against derivations and literal simulation.")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    ls = sub.add_parser("list", help="list registered claims: id, kind, source")
    ls.add_argument("patterns", nargs="*", help="glob over claim ids, e.g. 'tahir2024.*'")
    r = sub.add_parser("run", help="run claims and write results.json, report.md, report.tex and figures")
    r.add_argument("patterns", nargs="*", help="glob over claim ids (default: all)")
    r.add_argument("--profile", default="standard", choices=["quick", "standard", "full"])
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--device", default="cpu", help="torch device, e.g. cpu or cuda")
    r.add_argument("--out", default=None, metavar="DIR",
                   help="output folder (default: ftverify-out/, which git ignores; the committed reference "
                        "reports are written only by an explicit --out reports)")
    r.add_argument("--pdf", action="store_true",
                   help="also compile each source's report.pdf with pdflatex (when installed)")
    r.add_argument("--at", action="append", metavar="NAME=VALUE,...",
                   help="evaluate at this parameter point instead of the claim's grid (repeatable)")
    r.add_argument("--fail-on-refuted", action="store_true", help="exit 1 if a claim is refuted")
    r.add_argument("--no-progress", action="store_true",
                   help="neither progress bars (on a terminal) nor one line per finished claim (without one)")
    r.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="run claims in N worker processes (each with cores/N torch threads); verdicts do not "
                        "depend on N, a few estimates may differ in the last digits between different N "
                        "(torch reductions over a different thread count); the same command is reproducible")
    r.add_argument("--resume", action="store_true",
                   help="reuse the claims an earlier or interrupted run finished (cache in OUT/.cache), "
                        "unless their code, profile, seed, points or library versions changed")
    r.add_argument("--claim-timeout", type=float, default=None, metavar="SECONDS",
                   help="stop a claim's check after SECONDS of wall time (its verdict: error, 'timed out'); the run "
                        "goes on. Default per profile: quick 900, standard 3600, full none; 0: no limit. Not "
                        "enforced on Dask workers")
    _dask_flags(r)
    rp = sub.add_parser("report", help="re-render the reports from a saved results.json (no simulation)")
    rp.add_argument("--out", default=None, metavar="DIR",
                    help="folder holding results.json (default: ftverify-out/)")
    rp.add_argument("--pdf", action="store_true", help="also compile each source's report.pdf with pdflatex")
    cp = sub.add_parser("compare", help="two runs' verdicts side by side (e.g. full against standard): transitions "
                        "and every claim whose verdict differs, with both reasons (no simulation)")
    cp.add_argument("a", metavar="A", help="a results.json, or a folder holding one")
    cp.add_argument("b", metavar="B", help="the other run's results.json or folder")
    cp.add_argument("--names", nargs=2, default=("A", "B"), metavar=("NAME_A", "NAME_B"),
                    help="what to call the two runs in the table (default: A B)")
    cp.add_argument("--out", default=None, metavar="FILE", help="also write the markdown (and FILE's .json twin)")
    cal = sub.add_parser("calibrate", help="false-refutation rate of true forms and refutation rate of mutants")
    cal.add_argument("patterns", nargs="*",
                     help="claims to calibrate (glob over ids): false-refutation rate per judge strategy over SEEDS "
                          "seeds SEED+1000...; without patterns, the scratch-risk slice with its mutants")
    cal.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes per run (as for run)")
    cal.add_argument("--profile", default="standard", choices=["quick", "standard", "full"])
    cal.add_argument("--seeds", type=int, default=30, help="independent runs of the true forms")
    cal.add_argument("--seed", type=int, default=0, help="the true form runs with seeds SEED+1000 ... SEED+1000+SEEDS-1")
    cal.add_argument("--skip-mutants", action="store_true", help="only the false-refutation rate")
    _dask_flags(cal)
    cal.add_argument("--out", default="benchmarks/local", help="folder for calibration_<profile>.json (default benchmarks/local/, "
                     "git-ignored; --out benchmarks/results to commit)")
    mu = sub.add_parser("mutants", help="mutation power: perturbed stated sympy forms judged on each claim's "
                                         "Monte Carlo evidence; per claim, the fraction refuted and the survivors")
    mu.add_argument("patterns", nargs="*", help="glob over claim ids (default: all)")
    mu.add_argument("--profile", default="quick", choices=["quick", "standard", "full"])
    mu.add_argument("--seed", type=int, default=0)
    mu.add_argument("--out", default=None, help="folder for mutants_<profile>.json (default: with --claims PKG, "
                    "PKG/power/, where runs of PKG read its power; else benchmarks/local/, git-ignored; --out "
                    "benchmarks/results to commit the built-in sources' power)")
    mu.add_argument("--no-progress", action="store_true", help="no line per judged claim (the table and totals stay)")
    mu.add_argument("--jobs", type=int, default=1, metavar="N", help="judge claims in N local processes (as for run)")
    mu.add_argument("--resume", action="store_true", help="read back the claims already judged into OUT/.mutants_cache "
                    "by an earlier or interrupted run of the same code, profile and seed")
    mu.add_argument("--merge", action="store_true", help="fold the selected claims into OUT's existing "
                    "mutants_<profile>.json (same profile and seed): the other claims keep their entries, the totals "
                    "are recomputed (re-measure the claims a change touched without judging every claim again)")
    _dask_flags(mu)
    st = sub.add_parser("stability", help="run a profile over many seeds: how often each claim's verdict came out")
    st.add_argument("patterns", nargs="*", help="glob over claim ids (default: all)")
    st.add_argument("--profile", default="quick", choices=["quick", "standard", "full"])
    st.add_argument("--seeds", type=int, default=20, help="number of seeds (SEED ... SEED+SEEDS-1)")
    st.add_argument("--seed", type=int, default=0, help="first seed")
    st.add_argument("--out", default="benchmarks/local", help="folder for stability_<profile>.json (default benchmarks/local/, "
                     "git-ignored; --out benchmarks/results to commit)")
    st.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes per run (as for run)")
    st.add_argument("--merge", nargs="+", metavar="FILE", help="pool the seeds of earlier stability_<profile>.json "
                    "files of one profile into one document in --out (no simulation)")
    _dask_flags(st)
    cv = sub.add_parser("coverage", help="coverage ledgers: per source, items covered by claims, not checkable "
                                         "(by reason) and uncovered; --init lists a source's labelled items")
    cv.add_argument("papers", nargs="*", help="paper keys, e.g. dayi2024 or your package's (default: with --claims, "
                    "its papers; else the five built-in sources and installed claims packages)")
    cv.add_argument("--init", metavar="SOURCE", help="parse SOURCE (a paper key, a file in ../shared/seeds or a path) "
                    "and print a ledger stub of its labelled items with their line ranges")
    cv.add_argument("--write", metavar="FILE", help="with --init: write the stub to FILE (which must not exist)")
    cv.add_argument("--show", action="append", choices=["uncovered", "not checkable", "covered"], default=[],
                    help="also list the entries of this status (repeatable)")
    cv.add_argument("--check", action="store_true", help="also compare each ledger with a fresh parse of its "
                    "source and with the registered claims; exit 1 on a missing, moved or dangling entry")
    claims_help = ("also load the claims (CLAIMS, and the paper's PAPER) of a .py file, a folder of them or a dotted "
                   "module, besides the built-in sources and the installed ftverify.claims entry points (repeatable)")
    claims_help += ("; with no pattern (or paper key), a command selects only these sources' claims ('*' selects "
                    "every claim)")
    for sp_ in (ls, r, mu, st, cal, cv):
        sp_.add_argument("--claims", action="append", metavar="PATH", help=claims_help)
    nw = sub.add_parser("new", help="write a claims package for your own paper: PAPER, an example claim of each "
                                    "common kind, a ledger stub and a pytest file that runs green as written")
    nw.add_argument("key", help="the paper key, an identifier such as mypaper2026 (the prefix of its claim ids)")
    nw.add_argument("--dir", default=".", help="folder to write into (default: the current folder)")
    return p


def _cmd_new(args) -> int:
    from verify.scaffold import scaffold

    for f in scaffold(args.key, Path(args.dir)):
        print(f"wrote {f}")
    print(f"\nnext: python -m verify run --claims {Path(args.dir) / args.key} --profile quick "
          f"--out /tmp/{args.key}-report\n      python -m pytest {Path(args.dir) / 'tests'}")
    return EXIT_OK


def _scaffold_stub(path: Path, paper: str) -> bool:
    """Whether ``path`` is the ledger ``python -m verify new`` wrote for ``paper``, untouched: ``coverage --init
    --write`` replaces it (any other existing file is never written over)."""
    from verify.scaffold import LEDGER

    try:
        return path.read_text(encoding="utf-8") == LEDGER.format(key=paper)
    except (OSError, UnicodeDecodeError):
        return False


def _cmd_coverage(args) -> int:
    import os

    from verify.audit import coverage as cov
    from verify.run.registry import all_claims, entry_points, package_papers

    if args.init:
        if args.papers:
            raise UsageError("--init takes one SOURCE and no paper keys")
        path = cov.source_path(args.init)
        items = cov.parse(cov.read_source(path))
        paper = next((k for k, v in cov.PAPERS.items() if v == path.name), None)
        own = package_papers() if args.claims else []
        paper = paper or (own[0] if len(own) == 1 else path.stem)
        out = Path(args.write) if args.write else None
        # a built-in source is named by its file in SEEDS; a text of one's own by its path from the ledger's folder
        name = path.name if paper in cov.PAPERS or out is None else os.path.relpath(path.resolve(),
                                                                                     out.resolve().parent)
        text = cov.stub(items, paper, name)
        if out is not None:
            if out.exists() and not _scaffold_stub(out, paper):
                raise UsageError(f"{out} exists; the stub is not written over a ledger (remove it first)")
            out.write_text(text, encoding="utf-8")
            print(f"wrote {out}: {len(items)} items of {path.name}")
        else:
            print(text, end="")
        return EXIT_OK
    if args.write:
        raise UsageError("--write needs --init SOURCE")
    papers = args.papers or package_papers()
    if papers:
        ledgers = [cov.load_ledger(p) for p in papers]
    else:  # every paper that has a ledger: the built-in sources, then the installed claims packages
        ledgers = []
        installed = sorted({c.source.paper for c in all_claims()} - set(cov.PAPERS)) if entry_points() else []
        for p in [*cov.PAPERS, *installed]:
            try:
                ledgers.append(cov.load_ledger(p))
            except ValueError as e:
                print(f"note: {e}", file=sys.stderr)
    known = None
    bad = 0
    if args.check:
        known = {c.id for c in all_claims()}
        for led in ledgers:
            diff = cov.compare(led, cov.parse(cov.read_source(cov.ledger_source(led))))
            for it in diff["missing"]:
                print(f"{led.paper}: parsed item missing from the ledger: {it}")
            for e, it in diff["moved"]:
                print(f"{led.paper}: {e.key} is at {it.start}-{it.end} in the source, {e.start}-{e.end} in the ledger")
            for e in diff["stale"]:
                print(f"{led.paper}: ledger entry {e.key} is not found in the source (mark it manual=True if added "
                      f"by hand)")
            bad += len(diff["missing"]) + len(diff["moved"]) + len(diff["stale"]) + len(cov.dangling(led, known))
    print(cov.render(ledgers, show=tuple(args.show), known_ids=known))
    return EXIT_REFUTED if bad else EXIT_OK


def _cmd_stability(args) -> int:
    from verify.audit.calibration import merge_stability, verdict_stability
    from verify.run.registry import default_patterns, select
    from verify.report import check_writable

    if args.merge:
        if args.patterns:
            raise UsageError("--merge pools finished runs: give no claim patterns with it")
        check_writable(Path(args.out))
        try:
            merge_stability(args.merge, Path(args.out))
        except ValueError as e:
            raise UsageError(str(e)) from None
        return EXIT_OK
    if args.seeds < 1:
        raise UsageError(f"--seeds must be at least 1, not {args.seeds}")
    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    _cap_jobs(args)
    patterns = default_patterns(args.patterns)
    select(patterns)  # an unknown pattern fails before any simulation
    check_writable(Path(args.out))
    with _cluster(args) as cluster:
        verdict_stability(patterns, args.profile, args.seeds, args.seed, Path(args.out), jobs=args.jobs,
                          cluster=cluster)
    return EXIT_OK


def _mutants_outs(args, patterns) -> list[tuple[list[str] | None, Path]]:
    """Where ``mutants`` writes: ``--out`` when given (one document); else, with ``--claims``, each package's
    ``power/`` folder, for the claims of its papers (where :func:`verify.run.power.power_of` reads a package's
    power); else benchmarks/local/."""
    from verify.run.registry import home, is_builtin, select

    if args.out is not None or not args.claims:
        return [(patterns, Path(args.out if args.out is not None else "benchmarks/local"))]
    by_folder: dict[Path, list[str]] = {}
    for c in select(patterns):
        h = home(c.source.paper)
        folder = Path("benchmarks/local") if h is None or is_builtin(c.source.paper) else h[1] / "power"
        by_folder.setdefault(folder, []).append(c.id)
    return [(ids, folder) for folder, ids in by_folder.items()]


def _cmd_mutants(args) -> int:
    from verify.audit.mutants import merge_base, mutation_power
    from verify.run.registry import default_patterns, select
    from verify.report import check_writable

    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    _cap_jobs(args)
    patterns = default_patterns(args.patterns)
    select(patterns)  # an unknown pattern fails before any simulation
    outs = _mutants_outs(args, patterns)
    for _, out in outs:
        check_writable(out)
        if args.merge:   # the document merged into is checked before any claim is judged
            try:
                merge_base(Path(out) / f"mutants_{args.profile}.json", args.profile, args.seed)
            except ValueError as e:
                raise UsageError(str(e)) from None
    with _cluster(args) as cluster:
        for sel, out in outs:
            mutation_power(sel, args.profile, args.seed, out, cluster=cluster, jobs=args.jobs, resume=args.resume,
                           progress=not args.no_progress, merge=args.merge)
    return EXIT_OK


def _cmd_list(args) -> int:
    from verify.run.registry import default_patterns, select

    for c in select(default_patterns(args.patterns)):
        print(f"{c.id:40s} {c.kind.value:30s} {c.source.file}: {c.source.where}")
    return EXIT_OK


#: the committed reference run of a source checkout (absent from an installed wheel): its per-claim seconds order a
#: ``--jobs`` run into a folder with no earlier run of its own
REFERENCE_RESULTS = Path(__file__).resolve().parents[1] / "reports" / "results.json"


def _earlier_seconds(out: Path) -> dict:
    """Claim id -> seconds, from the timing of the ``results.json`` an earlier run wrote in ``out``, else from the
    committed reference run (:data:`REFERENCE_RESULTS`), else empty (none can be read).  It only orders the work of a
    ``--jobs`` run, longest first: in the registry's order a standard run into a new folder ends with tahir2024's
    heaviest claims on two workers (not finished at 30 minutes, against 28 with the order)."""
    for path in (out / "results.json", REFERENCE_RESULTS):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            secs = doc["timing"]["claims"]
            found = {str(k): float(v) for k, v in secs.items() if isinstance(v, (int, float))}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
        if found:
            return found
    return {}


def _out(args) -> Path:
    from verify.report import DEFAULT_OUT

    return Path(args.out if args.out is not None else DEFAULT_OUT)


def _wrote(out: Path, res: dict) -> None:
    pdf = res["pdf"]
    per = "report.md, report.tex" + (", report.pdf" if pdf == "ok" else
                                     ", report.pdf where it compiled (see the warnings)" if isinstance(pdf, list) else "")
    top = "results.json, index.md, summary.tex" + (", summary.pdf" if res.get("summary_pdf") else "")
    figs = res.get("figures", res["papers"])
    print(f"\nwrote {out}/: {top}; per source {out}/<source>/ ({', '.join(res['papers'])}): {per}"
          + (f"; figures/ for {', '.join(figs)}" if figs else "; no figures"))


def _cmd_run(args) -> int:
    from verify.run import runner as api
    from verify.run.registry import default_patterns, select
    from verify.report import check_writable, locked, prepare, write_reports
    from verify.report.console import print_summary
    from verify.run.progress import ClaimLines

    out = _out(args)
    check_writable(out)  # fail before simulating: a folder of its own, writable
    _cap_jobs(args)
    at = [parse_point(a) for a in args.at] if args.at else None
    bars = not args.no_progress and sys.stderr.isatty()
    # without a terminal (a log, CI, a cluster job): one line per finished claim instead of bars
    lines = _Finished(ClaimLines() if not args.no_progress and not sys.stdout.isatty() else None)
    # the Dask flags are checked (and a cluster started) first; then one run at a time into a folder, from before
    # simulating until the reports are written
    patterns = default_patterns(args.patterns)   # --claims PKG alone: PKG's claims, not the built-in suite
    with _cluster(args) as cluster, locked(out):
        expected = _earlier_seconds(out)    # read before prepare() replaces the folder's reports
        prepare(out, sorted({c.source.paper for c in select(patterns)}), pdf=args.pdf)
        try:
            result = api.run(patterns, profile=args.profile, seed=args.seed, device=args.device,
                             at=at, progress=bars, cache_dir=out / ".cache", resume=args.resume, jobs=args.jobs,
                             on_claim=lines, cluster=cluster, claim_timeout=args.claim_timeout, expected=expected)
        except KeyboardInterrupt as e:
            e.kept = (f"{lines.n} finished claim(s) are kept in {out / '.cache'}; the same command with --resume "
                      "reuses them")
            raise
        doc = result.to_json()
        res = write_reports(doc, out, pdf=args.pdf)
    print_summary(doc)
    if doc["timing"].get("resumed_from_cache"):
        print(f"\nresumed {len(doc['timing']['resumed_from_cache'])} claim(s) from {out / '.cache'}")
    _wrote(out, res)
    errors = [c for c in doc["claims"] if c["verdict"] == "error"]
    for c in errors:  # after the table, so that the last lines of a log say it
        print(f"error: {c['id']}: {c['reason']}", file=sys.stderr)
    if errors:
        print(f"error: {len(errors)} claim(s) did not finish (verdict 'error'; the traceback is in "
              f"{out / 'results.json'}); exit status {EXIT_ERROR}", file=sys.stderr)
        return EXIT_ERROR
    refuted = doc["meta"]["counts"]["refuted"]
    return EXIT_REFUTED if (args.fail_on_refuted and refuted) else EXIT_OK


def _cmd_report(args) -> int:
    from verify.report import check_out, load_results, locked, write_reports
    from verify.report.console import print_summary

    out = _out(args)
    check_out(out)
    load_results(out)   # a missing or malformed results.json: one line before anything else
    with locked(out):
        doc = load_results(out)   # read again under the lock: another run may have rewritten it meanwhile
        try:
            res = write_reports(doc, out, pdf=args.pdf)
            print_summary(doc)
        except (KeyError, TypeError, AttributeError, IndexError) as e:  # a hand-edited or foreign results.json
            raise UsageError(f"{out / 'results.json'} is not a results document of this tool "
                             f"({type(e).__name__}: {e}); nothing was rewritten") from None
    _wrote(out, res)
    return EXIT_OK


def _cmd_compare(args) -> int:
    import json

    from verify.report.compare import compare, load, markdown

    cmp = compare(load(args.a), load(args.b))
    text = markdown(cmp, tuple(args.names))
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
        out.with_suffix(".json").write_text(json.dumps(cmp, indent=1) + "\n")
    print(text, end="")
    return EXIT_OK


def _cmd_calibrate(args) -> int:
    from verify.audit.calibration import calibrate, verdict_stability
    from verify.run.registry import default_patterns, select
    from verify.report import check_writable

    if args.seeds < 1:
        raise UsageError(f"--seeds must be at least 1, not {args.seeds}")
    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    _cap_jobs(args)
    patterns = default_patterns(args.patterns)   # --claims PKG alone: PKG's claims
    if patterns:
        select(patterns)  # an unknown pattern fails before any simulation
    check_writable(Path(args.out))  # fail before an hour of simulation
    if patterns:
        with _cluster(args) as cluster:
            verdict_stability(patterns, args.profile, args.seeds, args.seed + 1000, Path(args.out),
                              jobs=args.jobs, name="calibration_suite", cluster=cluster)
        return EXIT_OK
    if args.workers is not None or args.scheduler is not None:
        raise UsageError("calibrate without claim patterns (the scratch-risk slice) runs in this process; "
                         "--workers/--scheduler apply to calibrate PATTERN ...")
    return calibrate(profile=args.profile, n_seeds=args.seeds, seed=args.seed, out=Path(args.out),
                     run_mutants=not args.skip_mutants)


def main(argv=None) -> int:
    import signal
    import threading

    from verify.run.registry import UnknownClaim

    old_term = None
    if threading.current_thread() is threading.main_thread():
        old_term = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        args = build_parser().parse_args(argv)
        if getattr(args, "claims", None):
            from verify.run.registry import use

            use(args.claims)
        return {"list": _cmd_list, "run": _cmd_run, "report": _cmd_report, "compare": _cmd_compare, "calibrate": _cmd_calibrate,
                "stability": _cmd_stability, "mutants": _cmd_mutants,
                "coverage": _cmd_coverage, "new": _cmd_new}[args.cmd](args)
    except (UsageError, DomainError, UnknownClaim, FileNotFoundError, OSError, ValueError) as e:
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        print(f"error: {msg}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as e:
        kept = getattr(e, "kept", "")
        what = "terminated (SIGTERM)" if isinstance(e, Terminated) else "interrupted"
        print(f"{what}: no report was written; earlier reports are untouched" + (f"; {kept}" if kept else ""),
              file=sys.stderr)
        return EXIT_TERMINATED if isinstance(e, Terminated) else EXIT_INTERRUPTED
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
