"""Two runs' verdicts side by side: ``python -m verify compare A B`` (each a ``results.json`` or a folder holding
one), e.g. the ``full`` profile against ``standard``, two seeds, or two commits.

For the claims both runs hold: how many keep their verdict, the table of verdict transitions (rows: A's verdict,
columns: B's), and every claim whose verdict or erratum class differs, with each run's reason.  Claims that only one
run holds are listed by id.  Nothing is simulated; the two documents are read as written.
"""
from __future__ import annotations

import json
from pathlib import Path

from verify.model.claim import DomainError

VERDICTS = ("confirmed", "refuted", "does not extend", "inconclusive", "error")


def load(path: str | Path) -> dict:
    """A results document from a results.json file or a folder holding one (a one-line DomainError otherwise)."""
    p = Path(path)
    if p.is_dir():
        p = p / "results.json"
    if not p.is_file():
        raise DomainError(f"no results.json at {path}")
    try:
        doc = json.loads(p.read_text())
        doc["claims"], doc["meta"]["profile"]  # noqa: B018  (the two parts every results document has)
    except (ValueError, KeyError, TypeError):
        raise DomainError(f"{p} is not a results document of this tool") from None
    doc["_path"] = str(p)
    return doc


def _class(c: dict) -> str | None:
    sev = c.get("severity") or {}
    return sev.get("class") if isinstance(sev, dict) else None


def _tests(c: dict) -> int:
    return len((c.get("evidence") or {}).get("tests") or [])


def _label(c: dict) -> str:
    v = c.get("verdict", "?")
    k = _class(c)
    return f"{v} ({k})" if k and v == "refuted" else v


def compare(a: dict, b: dict) -> dict:
    """The comparison of two results documents (see the module docstring), as a JSON-able dict."""
    ca = {c["id"]: c for c in a["claims"]}
    cb = {c["id"]: c for c in b["claims"]}
    common = [i for i in ca if i in cb]
    trans: dict[str, dict[str, int]] = {}
    changed = []
    for i in common:
        x, y = ca[i], cb[i]
        trans.setdefault(x["verdict"], {}).setdefault(y["verdict"], 0)
        trans[x["verdict"]][y["verdict"]] += 1
        if x["verdict"] != y["verdict"] or _class(x) != _class(y):
            changed.append({"id": i, "a": _label(x), "b": _label(y), "tests_a": _tests(x), "tests_b": _tests(y),
                            "reason_a": x.get("reason", ""), "reason_b": y.get("reason", "")})

    def meta(d):
        m = d["meta"]
        return {"path": d["_path"], "profile": m.get("profile"), "seed": m.get("seed"), "claims": len(d["claims"]),
                "tests": m.get("n_tests"),
                "counts": {v: sum(c["verdict"] == v for c in d["claims"]) for v in VERDICTS}}
    return {"a": meta(a), "b": meta(b), "common": len(common),
            "same": len(common) - sum(r["a"].split(" (")[0] != r["b"].split(" (")[0] for r in changed),
            "transitions": trans, "changed": changed,
            "only_a": sorted(set(ca) - set(cb)), "only_b": sorted(set(cb) - set(ca))}


def _cut(s: str, n: int = 240) -> str:
    s = " ".join(str(s).split()).replace("|", "\\|")
    return s if len(s) <= n else s[: n - 1] + "…"


def markdown(cmp: dict, names: tuple[str, str] = ("A", "B")) -> str:
    """The comparison as a markdown section (what ``python -m verify compare`` prints)."""
    na, nb = names
    lines = ["| run | results | profile | seed | claims | Monte Carlo tests | "
             + " | ".join(VERDICTS) + " |", "|---|---|---|---|---|---|" + "---|" * len(VERDICTS)]
    for n, m in ((na, cmp["a"]), (nb, cmp["b"])):
        lines.append(f"| {n} | `{m['path']}` | {m['profile']} | {m['seed']} | {m['claims']} | {m['tests']} | "
                     + " | ".join(str(m["counts"][v]) for v in VERDICTS) + " |")
    lines += ["", f"**{cmp['same']} of the {cmp['common']} claims both runs hold have the same verdict** "
              f"({len(cmp['changed'])} differ in verdict or erratum class).", "",
              f"| {na} \\ {nb} | " + " | ".join(VERDICTS) + " |", "|---|" + "---|" * len(VERDICTS)]
    for v in VERDICTS:
        row = cmp["transitions"].get(v, {})
        lines.append(f"| {v} | " + " | ".join(str(row.get(w, 0)) for w in VERDICTS) + " |")
    if cmp["changed"]:
        lines += ["", f"| claim | {na} | {nb} | tests {na} / {nb} | reason in {na} | reason in {nb} |",
                  "|---|---|---|---|---|---|"]
        for r in cmp["changed"]:
            lines.append(f"| `{r['id']}` | {r['a']} | {r['b']} | {r['tests_a']} / {r['tests_b']} | "
                         f"{_cut(r['reason_a'])} | {_cut(r['reason_b'])} |")
    for side, n in (("only_a", na), ("only_b", nb)):
        ids = cmp[side]
        if len(ids) > 30:  # a run of a few sources against the whole suite: by source, not one id at a time
            by: dict[str, int] = {}
            for i in ids:
                by[i.split(".")[0]] = by.get(i.split(".")[0], 0) + 1
            lines += ["", f"Only in {n} ({len(ids)}): " + ", ".join(f"{k} ({v})" for k, v in by.items())]
        elif ids:
            lines += ["", f"Only in {n} ({len(ids)}): " + ", ".join(f"`{i}`" for i in ids)]
    return "\n".join(lines) + "\n"
