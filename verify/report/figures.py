"""PNG figures from the figure data of each claim's evidence (theory curves, MC points with CI bars)."""
from __future__ import annotations

import math
import re
from pathlib import Path


def slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_")


def render_figures(doc: dict, folder: Path) -> dict[str, list[str]]:
    """Draw every figure of the run; return {claim id: [relative paths]}."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out: dict[str, list[str]] = {}
    for c in doc["claims"]:
        for k, fig in enumerate(c["evidence"].get("figures", [])):
            folder.mkdir(parents=True, exist_ok=True)
            name = f"{slug(c['id'])}_{k}.png"
            f, ax = plt.subplots(figsize=(6.4, 4.6), dpi=110)
            colors = {}
            for s in fig["series"]:
                col = colors.setdefault(s.get("group", ""), f"C{len(colors) % 10}")
                xs = [float(v) for v in s["x"]]
                ys = [math.nan if isinstance(v, str) else float(v) for v in s["y"]]
                if s["kind"] == "line":
                    ax.plot(xs, ys, "--" if s.get("dash") else "-", color=col, lw=1.4, label=s["label"])
                else:
                    yerr = [0 if isinstance(v, str) else float(v) for v in s.get("yerr", [0] * len(xs))]
                    ax.errorbar(xs, ys, yerr=yerr, fmt=s.get("marker", "o"), ms=4, capsize=2.5, color=col,
                                mfc="white" if s.get("marker") == "s" else col, label=s["label"])
            ax.set_xlabel(fig.get("xlabel", fig.get("x", "")))
            ax.set_ylabel(fig.get("ylabel", ""))
            if fig.get("logy"):
                ax.set_yscale("log")
            if fig.get("ylim"):
                ax.set_ylim(*fig["ylim"])
            if fig.get("logx"):
                ax.set_xscale("log")
            ax.set_title(fig.get("title") or c["id"], fontsize=9)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=5.5, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False)
            f.tight_layout()
            f.savefig(folder / name)
            plt.close(f)
            out.setdefault(c["id"], []).append(f"figures/{name}")
    return out
