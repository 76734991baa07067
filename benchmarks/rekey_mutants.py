"""One-off: re-key the stored mutants results from the whole-file keys to the reached-code keys (issue 35).

Until issue 35, ``benchmarks/results/mutants_P.json`` stored per claim ``key``: the resume cache's key of that
time, a hash of the text of the claim's module, of every module it imports (transitively) and of seven judge
modules, with the exact library versions.  Power is now keyed by :func:`verify.mutants.power_key` (the code the
claim reaches and the code that judges its mutants, without layout).  Recomputing the mutants takes about 70
minutes; instead, a stored record whose OLD key equals the key the old scheme computes for the present code
(proof that the record was measured on this code, with these versions) gets its NEW key.  A record whose old key
does not match stays as it is (stale: a run shows it as "not measured") and is listed.

The old scheme reads the files as they are at ``--old-rev`` (the commit before the key change, whose claim, judge
and numerics code is the present code: only the key functions changed since), so that the key change itself does
not count as a code change.

    PYTHONPATH=$PWD python benchmarks/rekey_mutants.py [--old-rev cb43862] [--dry-run] [FILE ...]
    PYTHONPATH=$PWD python benchmarks/rekey_mutants.py --check   # power_of now vs the committed reports
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import json
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the old scheme's packages and judge modules (verify/cache.py before issue 35)
OLD_PACKAGES = ("derivations", "numerics", "verify")
OLD_CORE = ("verify/judge.py", "verify/evidence.py", "verify/stats.py", "verify/context.py", "verify/claim.py",
            "verify/budget.py", "verify/kit.py")


@lru_cache(maxsize=None)
def _text(rev: str, rel: str) -> bytes | None:
    r = subprocess.run(["git", "show", f"{rev}:{rel}"], cwd=ROOT, capture_output=True)
    return r.stdout if r.returncode == 0 else None


def _module_file(rev: str, name: str) -> str | None:
    if name.split(".")[0] not in OLD_PACKAGES:
        return None
    base = "/".join(name.split("."))
    for rel in (base + ".py", base + "/__init__.py"):
        if _text(rev, rel) is not None:
            return rel
    return None


def _imports(text: bytes, package: str) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(parts + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.add(mod)
            out |= {f"{mod}.{a.name}" for a in node.names}
    return out


@lru_cache(maxsize=None)
def old_code_hash(rev: str, module: str) -> str:
    """``verify.cache.code_hash`` before issue 35, on the files at ``rev``."""
    seen: dict[str, str] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        rel = _module_file(rev, name)
        if rel is None or name in seen:
            continue
        seen[name] = rel
        pkg = name if rel.endswith("__init__.py") else name.rsplit(".", 1)[0]
        todo += sorted(_imports(_text(rev, rel), pkg))
    h = hashlib.sha256()
    for rel in sorted(set(seen.values()) | set(OLD_CORE)):
        h.update(rel.encode() + b"\0" + _text(rev, rel) + b"\0")
    return h.hexdigest()


def old_key(claim, ctx, versions: dict, rev: str) -> str:
    """``verify.cache.key`` before issue 35."""
    from verify.run.registry import module_of

    parts = {"id": claim.id, "profile": ctx.profile.name, "seed": ctx.seed, "at": ctx.at, "device": str(ctx.device),
             "dtype": str(ctx.dtype), "versions": {k: v for k, v in versions.items() if k != "platform"},
             "code": old_code_hash(rev, module_of(claim.id))}
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:32]


def rekey(path: Path, rev: str, dry_run: bool = False) -> tuple[list[str], list[str]]:
    """Re-key one mutants file in place; (re-keyed ids, stale ids)."""
    from verify import api
    from verify.audit.mutants import power_key
    from verify.run.registry import all_claims

    doc = json.loads(path.read_text())
    here = {k: v for k, v in api.versions().items() if k != "platform"}
    then = {k: v for k, v in (doc.get("versions") or {}).items() if k != "platform"}
    if here != then:
        raise SystemExit(f"error: {path.name} was measured with {then}, this environment has {here}: the old keys "
                         "hold the exact versions, so re-key in the environment of the run")
    ctx = api.make_context(doc["profile"], doc.get("seed", 0), progress=False)
    claims = {c.id: c for c in all_claims()}
    done, stale = [], []
    for cid, r in doc["claims"].items():
        if "key" not in r:
            continue
        c = claims.get(cid)
        if c is not None and r["key"] == old_key(c, ctx, api.versions(), rev):
            r["key"] = power_key(c, ctx)
            done.append(cid)
        else:
            stale.append(cid)
    if not dry_run and done:
        path.write_text(json.dumps(doc, indent=1, default=str))
    return done, stale


def check(profile: str = "standard") -> int:
    """Compare :func:`verify.power.power_of` now with ``claims[].power.status`` of the committed
    ``reports/results.json``; print the counts and every claim that differs; 1 if any does."""
    from collections import Counter

    from verify.run.power import power_of, versions_line
    from verify.run.registry import all_claims

    committed = {c["id"]: (c.get("power") or {}).get("status") for c in
                 json.loads((ROOT / "reports" / "results.json").read_text())["claims"]}
    now = {c.id: power_of(c, profile) for c in all_claims()}
    differ = sorted(k for k in committed if now.get(k, {}).get("status") != committed[k])
    print(f"committed: {dict(Counter(committed.values()))}; now: {dict(Counter(r['status'] for r in now.values()))}; "
          f"{len(committed) - len(differ)} of {len(committed)} the same" + (f"; differ: {', '.join(differ)}" if differ else ""))
    if line := versions_line(list(now.values())):
        print(line)
    return 1 if differ else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path,
                    default=sorted((ROOT / "benchmarks" / "results").glob("mutants_*.json")))
    ap.add_argument("--old-rev", default="cb43862", help="the commit whose files the old keys were computed on")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--check", action="store_true", help="compare power_of with the committed reports, change nothing")
    a = ap.parse_args(argv)
    if a.check:
        return check()
    for f in a.files:
        done, stale = rekey(f, a.old_rev, a.dry_run)
        print(f"{f.name}: {len(done)} re-keyed, {len(stale)} stale" + (f": {', '.join(stale)}" if stale else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
