"""What a run prints at its end: the summary table (the per-claim progress lines are :mod:`verify.run.progress`)."""
from __future__ import annotations

import copy
import sys
import time

from verify.report.tables import ORDER, counts, errata_text, one_line, papers, summary_rows

_MARK = {"confirmed": "✔ confirmed", "refuted": "✘ refuted", "does not extend": "↛ not extended", "inconclusive": "? inconclusive",
         "error": "! error"}


def print_summary(doc: dict) -> None:
    rows = summary_rows(doc)
    w = max([len(r["id"]) for r in rows] + [5])
    print(f"\n{'claim':{w}s}  {'verdict':15s} {'kind':30s} reason")
    print("-" * (w + 90))
    for r in rows:
        cls = f" [{r['class']}]" if r.get("class") else ""
        print(f"{r['id']:{w}s}  {_MARK[r['verdict']]:15s} {r['kind']:30s} {one_line(r['reason'], 100)}{cls}")
    total = doc["meta"].get("counts", {})
    print("-" * (w + 90))
    for p in papers(doc):
        n = counts(doc, p)
        bv = n["by_verdict"]
        print(f"{p:18s} {n['claims']:3d} claims: {bv['confirmed']} confirmed, {errata_text(n)}"
              + f", {bv['does not extend']} do not extend, {bv['inconclusive']} inconclusive"
              + (f", {bv['error']} error(s)" if bv.get("error") else ""))
    print(", ".join(f"{total.get(k, 0)} {k}" for k in ORDER if k != "error" or total.get(k)) + f"  ({doc.get('timing', {}).get('seconds', '?')} s, "
          f"profile {doc['meta'].get('profile')}, seed {doc['meta'].get('seed')})")
