"""PNG figures from the figure data of each claim's evidence (theory curves, MC points with CI bars)."""
from __future__ import annotations

import math
import re
import textwrap
from pathlib import Path


def slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_")


def render_figures(doc: dict, folder: Path) -> dict[str, list[str]]:
    """Draw every figure of the run; return {claim id: [relative paths]}."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

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
                if s["kind"] == "line" and s.get("markers"):   # theory at a discrete x: a bar at each value
                    ax.plot(xs, ys, linestyle="none", marker="_", ms=16, mew=1.6, color=col, label=s["label"])
                elif s["kind"] == "line":
                    ax.plot(xs, ys, "--" if s.get("dash") else "-", color=col, lw=1.4, label=s["label"])
                else:
                    yerr = [0 if isinstance(v, str) else float(v) for v in s.get("yerr", [0] * len(xs))]
                    ax.errorbar(xs, ys, yerr=yerr, fmt=s.get("marker", "o"), ms=4, capsize=2.5, color=col,
                                mfc="white" if s.get("marker") == "s" else col, label=s["label"])
            if any(s.get("markers") for s in fig["series"]):   # a discrete x: integer ticks
                ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
            ax.set_xlabel(fig.get("xlabel", fig.get("x", "")))
            ax.set_ylabel(fig.get("ylabel", ""))
            if fig.get("logy"):
                ax.set_yscale("log")
            if fig.get("ylim"):
                ax.set_ylim(*fig["ylim"])
            if fig.get("logx"):
                ax.set_xscale("log")
            for axis, on, lim in ((ax.xaxis, fig.get("logx"), ax.get_xlim()), (ax.yaxis, fig.get("logy"), ax.get_ylim())):
                if on and lim[0] > 0:   # every minor label (2x10^2, 3x10^2, ...) collides on a short log axis
                    short = math.log10(lim[1]) - math.log10(lim[0]) <= 2.5
                    axis.set_major_locator(matplotlib.ticker.LogLocator(10, subs=(1, 2, 5) if short else (1,)))
                    axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
                    axis.set_minor_formatter(matplotlib.ticker.NullFormatter())
            ax.set_title(textwrap.fill(fig.get("title") or c["id"], 80), fontsize=9)
            ax.grid(alpha=0.3)
            longest = max((len(s["label"]) for s in fig["series"]), default=0)
            ax.legend(fontsize=5.5, ncol=1 if longest > 45 else 2 if longest > 25 else 3, loc="upper center",
                      bbox_to_anchor=(0.5, -0.16), frameon=False)
            f.tight_layout()
            f.savefig(folder / name, bbox_inches="tight")   # long legends below the axes are never cut off
            plt.close(f)
            out.setdefault(c["id"], []).append(f"figures/{name}")
    return out
