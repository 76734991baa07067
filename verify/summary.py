"""The terminal summary table printed at the end of a run."""
from __future__ import annotations

from .report.tables import ORDER, summary_rows

_MARK = {"confirmed": "✔ confirmed", "refuted": "✘ refuted", "does not extend": "↛ not extended", "inconclusive": "? inconclusive"}


def print_summary(doc: dict) -> None:
    rows = summary_rows(doc)
    w = max([len(r["id"]) for r in rows] + [5])
    print(f"\n{'claim':{w}s}  {'verdict':15s} {'kind':30s} reason")
    print("-" * (w + 90))
    for r in rows:
        reason = r["reason"] if len(r["reason"]) < 110 else r["reason"][:107] + "..."
        print(f"{r['id']:{w}s}  {_MARK[r['verdict']]:15s} {r['kind']:30s} {reason}")
    counts = doc["meta"].get("counts", {})
    print("-" * (w + 90))
    print(", ".join(f"{counts.get(k, 0)} {k}" for k in ORDER) + f"  ({doc.get('timing', {}).get('seconds', '?')} s, "
          f"profile {doc['meta'].get('profile')}, seed {doc['meta'].get('seed')})")
