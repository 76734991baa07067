"""PNG figures from the figure data of each claim's evidence, drawn for a referee.

One figure dict (``claims[].evidence.figures[i]`` of ``results.json``) becomes one PNG
``<claim_slug>_<i>.png``.  The layout rules:

* **small multiples**: a figure whose series would put more than :data:`MAX_SERIES` on one axis is split
  into panels, one per value of a grouping parameter (``fig["panels"]`` names it; otherwise the parameter
  that gives the fewest panels within the limit is chosen), sharing one legend;
* **one legend, outside the data**: to the right of the panels, never over an axis label; when several
  groups carry the same roles (stated, derived, Monte Carlo) the legend is factorised: a colour per
  group value, a line style or marker per role;
* **theory as lines, Monte Carlo as points** with their 95 % error bars (a long, error-free "points"
  series such as an empirical quantile function is drawn as a line);
* **the source's notation**: parameter names and values in mathtext (``theta=0.3927`` -> θ = π/8), flags
  named by ``fig["values"]`` (``scaled=0`` -> "target norm scaled"), and the source's location (theorem,
  figure) above the title;
* **rates**: ``fig["slopes"]`` (fitted exponent, its interval, the stated one) is printed beside the data;
* **nothing hidden** (:func:`_overlaps`): a theory role that is one and the same constant in every group (a
  threshold such as the stated delta) is drawn once, in dark grey; curves that coincide on the axis alternate
  their colours in dashes; points that would sit on points of another colour or marker (and the theory bars of
  a discrete x) are moved sideways by a few typographic points, one step per colour and marker, and the legend
  says so.

Everything here reads only the JSON document, so ``python -m verify report`` re-renders without simulating.
"""
from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

from .untrusted import inside
from .notation import GREEK, _ok, _visible, _wrap, math_runs, panel_title, strip_claim_id  # noqa: F401
from .scales import _decades, _floats, level, log_axes, padded_ylim, symlog_axes  # noqa: F401
from .overlap import DODGE_PT, LINE_CLOSE, POINT_CLOSE, _interp, _overlaps, _reference_roles, curve  # noqa: F401

#: at most this many series (group x role) share one axis; more are split into panels
MAX_SERIES = 6
#: a regenerated paper figure (``fig["like_source"]``) may keep the source's layout up to this many series,
#: provided the legend is factorised (at most 3 colours x 3 styles)
MAX_SERIES_LIKE_SOURCE = 9

#: parameter names whose symbol is not just the name
SYMBOLS = {"lam": r"\lambda", "cos_theta": r"\cos\theta", "s_f": "s_f", "s_g": "s_g", "n_P": "n_P", "n_Q": "n_Q",
           "n_S": "n_S", "sep": r"\mathrm{separated}", "act": r"\sigma", "|dtheta|": r"\|\theta_T-\theta_S\|",
           "frac": "n/d", "L": "L", "d": "d", "n": "n", "k": "k", "m": "m", "p": "p", "c": "c", "s": "s",
           "u": "u", "t": "t"}
#: parameters that are angles: values printed as rational multiples of pi when they are one
ANGLES = ("theta", "phi", "angle")


def slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_")


# ----------------------------------------------------------------------------- notation
def _num(v) -> float | None:
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def _pi_multiple(x: float) -> str | None:
    """``x`` as a multiple of pi with a denominator <= 12, in mathtext, or None."""
    if x == 0:
        return "0"
    f = Fraction(x / math.pi).limit_denominator(12)
    if abs(float(f) * math.pi - x) > 5e-4 * max(1.0, abs(x)):
        return None
    num = {1: "", -1: "-"}.get(f.numerator, str(f.numerator))
    return rf"{num}\pi" + (f"/{f.denominator}" if f.denominator != 1 else "")


def tex_name(key: str, fig: dict | None = None) -> str:
    """A parameter's symbol in mathtext (without dollars)."""
    sym = (fig or {}).get("symbols", {}) or {}
    if key in sym:
        return sym[key].strip("$")
    if key in SYMBOLS:
        return SYMBOLS[key]
    if key in GREEK:
        return "\\" + key
    m = re.fullmatch(r"([A-Za-z]+)_([A-Za-z0-9]+)", key)
    if m:
        base = "\\" + m[1] if m[1] in GREEK else m[1]
        return f"{base}_{{{m[2]}}}"
    if re.fullmatch(r"[A-Za-z]", key):
        return key
    return r"\mathrm{" + key.replace("_", r"\_") + "}"


def tex_value(key: str, v, fig: dict | None = None) -> tuple[str, bool]:
    """(text, is_math) for a parameter's value; named flags come from ``fig["values"]``."""
    names = ((fig or {}).get("values", {}) or {}).get(key)
    if names:
        for cand in (v, str(v), _fmt_plain(v)):
            if isinstance(cand, str) and cand in names:
                return names[cand], False
    x = _num(v)
    if x is None:
        return str(v), False
    if key in ANGLES or key.endswith("theta") and key != "cos_theta":
        p = _pi_multiple(x)
        if p is not None:
            return p, True
    return _fmt_plain(x), True


def _fmt_plain(v) -> str:
    x = _num(v)
    if x is None:
        return str(v)
    if x == int(x) and abs(x) < 1e6:
        return str(int(x))
    return f"{x:.4g}"


def tex_param(key: str, v, fig: dict | None = None) -> str:
    """``key = v`` for a title or legend ('' where the series has no value of ``key``: a panel of series that do not
    vary it)."""
    if v is None:
        return ""
    val, is_math = tex_value(key, v, fig)
    if is_math:
        return f"${tex_name(key, fig)}={val}$"
    if key in ((fig or {}).get("values") or {}) and not _NUMBER.fullmatch(str(val).strip()):
        return _safe(tex_text(val))   # a named value says it all (a bare number does not: it keeps its name)
    return f"${tex_name(key, fig)}$ = {tex_text(val)}"


_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def tex_text(s: str) -> str:
    """Plain text in the source's notation: Greek names and simple sub/superscripts become mathtext.

    Text that already holds ``$...$`` is left alone.  ``beta_s`` -> β_s, ``lambda_0`` -> λ_0,
    ``d->inf`` -> d → ∞; anything mathtext would reject is returned unchanged.
    """
    if not s or "$" in s:
        return s or ""
    out = re.sub(r" ?-> ?inf(inity)?\b", lambda m: (" " if m[0].startswith(" ") else "") + "→∞", s)
    out = out.replace("->", "→")
    for a, b in ((">=", "≥"), ("<=", "≤"), ("||", "‖"), ("+-", "±"), ("sqrt(", "√("), ("O~(", "Õ(")):
        out = out.replace(a, b)
    out = re.sub(r"\^inf\b", "^∞", out)
    # an angle's decimal value that is a simple multiple of pi (phi=1.047 -> phi=π/3), as tex_param prints it
    out = re.sub(rf"\b({'|'.join(ANGLES)})(\s*=\s*)(-?\d+\.\d+)\b",
                 lambda m: m[1] + m[2] + (_pi_multiple(float(m[3])) or m[3]).replace("\\pi", "pi"), out)
    out = re.sub(r"(?<![A-Za-z\\])eps(?![A-Za-z])", "epsilon", out)
    out = math_runs(out)   # formulas among the words as mathtext: ||W_l||_op^2, d=100, X^+ y
    greek = "|".join(sorted(GREEK, key=len, reverse=True))

    def sub(m):
        base = "\\" + m[1]
        tail = m[2] or ""
        if tail:
            op, rest = tail[0], tail[1:]
            rest = rest.strip("{}()")
            tail = f"{op}{{{rest}}}"
        return f"${base}{tail}$"

    pat = rf"(?<![A-Za-z\\])({greek})((?:_|\^)(?:\{{[^}}]*\}}|\([^)]*\)|[A-Za-z0-9]+))?(?![A-Za-z])"
    out = "".join(seg if seg.startswith("$") else re.sub(pat, sub, seg) for seg in re.split(r"(\$[^$]*\$)", out))
    # outside the math just written: a letter with a tilde or scripts (y~, X^T, H^-1, x_1^T) as math
    out = "$".join(seg if k % 2 else _LATIN.sub(_latin, seg) for k, seg in enumerate(out.split("$")))
    return out if _mathtext_ok(out) else s


_ARG = r"(?:\{[^{}]*\}|\([^()]*\)|-?\d+(?:\.\d+)?(?![A-Za-z])|-?[A-Za-z0-9]+|∞)"
_LATIN = re.compile(r"(?<![A-Za-z0-9\\.])([A-Za-z])(~?)((?:[_^]" + _ARG + r")*)(?![A-Za-z0-9(~]|\.\d)")


def _latin(m: re.Match) -> str:
    base, tilde, scripts = m[1], m[2], m[3]
    if not tilde and not scripts:
        return m[0]
    parts = re.findall(r"([_^])(" + _ARG + ")", scripts)
    if len({op for op, _ in parts}) < len(parts):   # two subscripts on one base: leave it as typed
        return m[0]
    body = (r"\tilde{" + base + "}" if tilde else base) + "".join(
        f"{op}{{{arg.strip('{}()') if arg[0] in '{(' else arg}}}" for op, arg in parts)
    return f"${body}$"


def _mathtext_ok(s: str) -> bool:
    """Whether every ``$...$`` of ``s`` parses as mathtext (an odd number of dollars never does)."""
    return s.count("$") % 2 == 0 and all(_ok(seg) for seg in re.findall(r"\$([^$]*)\$", s))


def _safe(s: str) -> str:
    """Text matplotlib can draw: mathtext if it parses, else with its dollars escaped."""
    return s if _mathtext_ok(s) else s.replace("$", r"\$")


# ----------------------------------------------------------------------------- structure of a figure
def _parse_group(g: str) -> dict | None:
    """'theta=0.3927, sigma=0' -> {'theta': '0.3927', 'sigma': '0'}; None if it is not of that form."""
    if not g or "=" not in g:
        return None
    parts = [p.strip() for p in g.split(", ")]
    out = {}
    for p in parts:
        if "=" not in p:
            return None
        k, v = p.split("=", 1)
        if not k or " " in k.strip() or not v:
            return None
        out[k.strip()] = v.strip()
    return out


def _structure(fig: dict) -> list[dict]:
    """Each series with ``params`` (its group's parameter values, or None) and ``role`` (what it is: the
    label without its group, e.g. 'eq. (17)', 'Monte Carlo'), whether stored by the judge or parsed."""
    out = []
    for s in fig["series"]:
        s = dict(s)
        g = s.get("group", "") or ""
        if "params" not in s:
            s["params"] = _parse_group(g)
        if "role" not in s:
            lab = s.get("label", "")
            if g and lab == g and s["params"] is not None:   # 'd=10, L=2': the measurement itself
                s["role"] = ""
            elif g and lab.endswith(g):
                s["role"] = lab[: -len(g)].strip()
            elif g and lab.startswith(g) and lab != g:
                s["role"] = lab[len(g):].strip(" ,:")
            else:
                s["role"] = None
        out.append(s)
    return out


def _factorised(series: list[dict]) -> bool:
    """Whether groups share roles, so that a legend of colours (groups) and styles (roles) says it all."""
    groups = {}
    for s in series:
        if s["role"] is None:
            return False
        groups.setdefault(s.get("group", ""), set()).add(s["role"])
    roles = set().union(*groups.values())
    if len(roles) < 2 or not all(len(r) >= 2 for r in groups.values()):
        return False
    if len(groups) == 1:   # one group: the legend lists the roles alone
        return True
    shared = sum(sum(r in g for g in groups.values()) >= 2 for r in roles)
    return 2 * shared >= len(roles)


def _varying(series: list[dict]) -> list[str]:
    keys: list[str] = []
    for s in series:
        for k in (s["params"] or {}):
            if k not in keys:
                keys.append(k)
    return [k for k in keys if len({_key((s["params"] or {}).get(k)) for s in series}) > 1]


def _key(v):
    x = _num(v)
    return round(x, 9) if x is not None else str(v)


def _panel_keys(fig: dict, series: list[dict]) -> list[str]:
    """The parameters splitting the figure into panels ([] = one axis).  A claim's own ``panels`` are kept, plus,
    where they leave too many series on a panel, the varying parameter that fits the limit in the fewest panels."""
    limit = MAX_SERIES_LIKE_SOURCE if fig.get("like_source") and _factorised(series) else MAX_SERIES

    def worst(ks):
        cells: dict = {}
        for s in series:
            cells.setdefault(tuple(_key((s["params"] or {}).get(k)) for k in ks), []).append(s)
        return max(len(v) for v in cells.values()), len(cells)

    if fig.get("panels") is not None:
        given = [k for k in fig["panels"] if k in _varying(series)]
        if worst(given)[0] <= limit or any(s["params"] is None for s in series):
            return given
        more = [(worst(given + [k]), k) for k in _varying(series) if k not in given]
        fits = [(npan, k) for (w, npan), k in more if w <= limit]
        return given + [min(fits)[1]] if fits else given + [k for _, k in more]
    if len(series) <= limit or any(s["params"] is None for s in series):
        return []
    keys = _varying(series)

    best = None
    for n in (1, 2):
        cands = [[a] for a in keys] if n == 1 else [[a, b] for i, a in enumerate(keys) for b in keys[i + 1:]]
        for ks in cands:
            w, npan = worst(ks)
            if w <= MAX_SERIES and npan <= 12 and (best is None or npan < best[1]):
                best = (ks, npan)
        if best:
            return best[0]
    return keys  # every group its own panel


# ----------------------------------------------------------------------------- drawing
LINESTYLES = ("-", "--", ":", "-.")
MARKERS = ("o", "s", "^", "D", "v", "P")


def _title(fig: dict, claim: dict) -> str:
    src = claim.get("source") or {}
    where = str(src.get("where", ""))
    loc = re.split(r" \((?!\d{1,3}[a-z]?\)|[a-z]\))|: |; |'", where, maxsplit=1)[0].strip(" ,")
    paper = str(src.get("paper", ""))
    m = re.fullmatch(r"([a-z]+)(\d{4})", paper)
    who = f"{m[1].capitalize()} {m[2]}" if m else "General identity"   # not one of the five sources
    head = f"{who}, {loc}" if loc and len(loc) <= 60 else who
    title = fig.get("title") or ""
    title = strip_claim_id(title, str(claim.get("id", "")))
    m = re.match(r"(?:Thm|Theorem|Lemma|Prop\.|Proposition|Cor\.|Corollary)\s+([A-Z]?[\d.]*\d)\s*:\s*", title)
    if m and re.search(rf"\b(?:Theorem|Lemma|Proposition|Corollary)\s+{re.escape(m[1])}\b", head):
        title = title[m.end():]   # "Theorem 3.4" above says it: not "Thm 3.4:" again
    return _safe(tex_text(head)), _safe(tex_text(title))


def draw_figure(fig: dict, claim: dict):
    """One figure dict -> a matplotlib Figure (Agg), not yet saved."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.transforms import offset_copy

    series = _structure(fig)
    pkeys = _panel_keys(fig, series)
    panels: dict = {}
    for s in series:
        pk = tuple(_key((s["params"] or {}).get(k)) for k in pkeys)
        panels.setdefault(pk, {"params": {k: (s["params"] or {}).get(k) for k in pkeys}, "series": []})
        panels[pk]["series"].append(s)
    plist = list(panels.values())
    n = len(plist)
    ncols = 1 if n == 1 else 2 if n in (2, 4) else 3
    nrows = math.ceil(n / ncols)
    w, h = (6.0, 4.2) if n == 1 else (3.8 * ncols, 2.9 * nrows + 0.6)
    f, axes = plt.subplots(nrows, ncols, figsize=(w, h), dpi=110, squeeze=False, sharex=True, layout="constrained")

    fact = _factorised(series)
    groups = list(dict.fromkeys(s.get("group", "") for s in series))
    hue_of = {}
    for s in series:   # a colour per group value, the panel parameter left out
        hk = tuple((k, _key(v)) for k, v in (s["params"] or {}).items() if k not in pkeys) if s["params"] is not None \
            else s.get("group", "")
        if not fact and s["params"] is None and len(groups) == 1:
            hk = s.get("label", "")   # one group, several series: a colour per series
        hue_of.setdefault(hk, s.get("color") or f"C{len(hue_of) % 10}")
        s["_color"] = hue_of[hk]
        s["_hue"] = hk
    if not fact:   # several lines of one colour: solid, dashed, dotted, ...
        count: dict = {}
        for s in series:
            if s["kind"] == "line" and not s.get("markers"):
                k = count[s["_color"]] = count.get(s["_color"], -1) + 1
                s["_ls"] = s.get("linestyle") or ("--" if s.get("dash") and k == 0 else LINESTYLES[k % 4])
        lone = [s for s in series if level(s)]
        if len(lone) == 1 and len(series) > 1 and not lone[0].get("color"):   # one reference level among data
            lone[0]["_color"], lone[0]["_ls"] = "0.3", lone[0].get("linestyle") or "--"
    roles = list(dict.fromkeys(s["role"] for s in series if fact))
    line_roles = [r for r in roles if any(s["role"] == r and s["kind"] == "line" for s in series)]
    point_roles = [r for r in roles if r not in line_roles]

    logx, logy = log_axes(fig, series)   # one decision for every panel: they compare on one scale
    symx, symy = symlog_axes(fig, series, logx, logy)
    fig = {**fig, "logx": logx, "logy": logy, "symx": symx, "symy": symy}
    zeros_note = False
    refs = _reference_roles(series) if fact else set()
    moved = dashed = False
    for ax, pan in zip(axes.flat, plist):
        drawn_refs = set()
        offsets, dashes = _overlaps([s for s in pan["series"] if s["role"] not in refs], logx, logy)
        moved = moved or bool(offsets)
        for s in pan["series"]:   # a curve on one of its own colour: alternating dashes would not show it
            under = s.pop("_under", None)
            if id(s) in dashes and under is not None and under["_color"] == s["_color"]:
                del dashes[id(s)]
                s["_on"] = under
        dashed = dashed or bool(dashes)
        for s in pan["series"]:
            xs, ys = _floats(s["x"]), _floats(s["y"])
            col = s["_color"]
            dx, moved_i = offsets.get(id(s), (None, set()))
            if s["kind"] == "line" and not s.get("markers"):
                ls = LINESTYLES[line_roles.index(s["role"]) % 4] if fact else s.get("_ls", "-")
                if s["role"] in refs:   # one constant threshold of every group: once, in dark grey
                    if s["role"] not in drawn_refs:
                        drawn_refs.add(s["role"])
                        xs, ys = _bridge(xs, ys)
                        ax.plot(xs, ys, linestyle=ls, color="0.2", lw=1.5, zorder=1, gid="series")
                    continue
                xs, ys = _bridge(xs, ys)
                if id(s) in dashes:   # over a curve it coincides with: the one under shows in the gaps
                    ls = dashes[id(s)]
                ax.plot(xs, ys, linestyle=ls, color=col, lw=1.5, zorder=2, gid="series")
                continue
            yerr_all = _floats(s.get("yerr", [0] * len(xs)))
            yerr_all = [0.0 if not math.isfinite(e) else e for e in yerr_all]
            if curve(s):   # an empirical curve: a line, dashed over a curve it coincides with
                ax.plot(xs, ys, linestyle=dashes.get(id(s), "-"), color=col, lw=1.3, zorder=3, gid="series")
                continue
            # the points that would sit on another colour's are drawn a few pt aside, the rest where they are
            gid = "series"   # one series, one "series" artist, even when drawn in two parts
            for idx, shift in (([i for i in range(len(xs)) if i not in moved_i], None),
                               (sorted(i for i in moved_i if i < len(xs)), dx)):
                if not idx:
                    continue
                px, py = [xs[i] for i in idx], [ys[i] for i in idx]
                pe = [yerr_all[i] if i < len(yerr_all) else 0.0 for i in idx]
                trans = {"transform": offset_copy(ax.transData, f, x=shift, units="points")} if shift else {}
                if shift:   # a moved artist does not enter the data limits: its unmoved extent does, unseen
                    ax.plot(px + px, [y - e for y, e in zip(py, pe)] + [y + e for y, e in zip(py, pe)], ls="none",
                            marker="none")
                if s["kind"] == "line":   # theory at a discrete x: a bar at each value
                    ax.plot(px, py, linestyle="none", marker="_", ms=14, mew=1.8, color=col, gid=gid, **trans)
                    gid = "series part"
                    continue
                mk = MARKERS[point_roles.index(s["role"]) % len(MARKERS)] if fact else s.get("marker", "o")
                hollow = fact and point_roles.index(s["role"]) % 2 == 1 or s.get("marker") == "s"
                if fig.get("logy"):
                    keep = [i for i, y in enumerate(py) if math.isfinite(y) and y > 1e-250]
                    if len(keep) < len(py):
                        zeros_note = True
                        s.setdefault("_zeros", []).extend(px[i] for i, y in enumerate(py)
                                                          if math.isfinite(y) and y <= 1e-250)
                    px, py, pe = [px[i] for i in keep], [py[i] for i in keep], [pe[i] for i in keep]
                    lo = [min(e, 0.999 * y) for e, y in zip(pe, py)]
                    err = [lo, pe]
                else:
                    err = pe
                eb = ax.errorbar(px, py, yerr=err, fmt=mk, ms=4.5, capsize=2.5, elinewidth=1.1, color=col,
                                 mfc="white" if hollow else col, zorder=4, lw=0, **trans)
                eb.lines[0].set_gid(gid)
                gid = "series part"
        if offsets:   # the points moved sideways stay inside the frame: the x margin grows by the largest move
            ax.margins(x=0.05 + max(abs(d) for d, _ in offsets.values()) / 72 / (0.6 * w / ncols))
        _axes_style(ax, fig, pan["series"])
        if pkeys:
            ax.set_title(panel_title([tex_param(k, pan["params"][k], fig) for k in pkeys], 60 if ncols == 1 else 34),
                         fontsize=9.5)
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    if zeros_note:   # at the bottom; the zeros of several series at one x side by side, none under another
        for ax, pan in zip(axes.flat, plist):
            lo = ax.get_ylim()[0]
            at: dict = {}
            for s in pan["series"]:
                for x in dict.fromkeys(s.get("_zeros") or []):
                    at.setdefault(_key(x), []).append(s)
            if at:   # a moved artist does not enter the data limits: its unmoved place does, unseen
                ax.plot(list(at), [lo] * len(at), ls="none", marker="none")
            for x_, ss in at.items():
                for k, s in enumerate(ss):
                    dx = (k - (len(ss) - 1) / 2) * DODGE_PT * 1.4
                    moved = moved or bool(dx)
                    trans = offset_copy(ax.transData, f, x=dx, units="points") if dx else ax.transData
                    ax.plot([x_], [lo], "v", color=s["_color"], ms=6, clip_on=False, zorder=5, transform=trans)
            ax.set_ylim(bottom=lo)
    # axis labels: x on the bottom row, y on the left column
    xl = _safe(tex_text(fig.get("xlabel", fig.get("x", "")) or fig.get("x", "")))
    yl = _safe(tex_text(fig.get("ylabel", "")))
    for i, ax in enumerate(axes.flat):
        if i >= n:
            continue
        r, c = divmod(i, ncols)
        if r == nrows - 1 or i + ncols >= n:
            ax.set_xlabel(xl, fontsize=9.5)
            ax.tick_params(labelbottom=True)
        if c == 0:
            ax.set_ylabel(yl, fontsize=9.5)

    handles, labels = _legend(series, fact, line_roles, point_roles, fig, pkeys, Line2D)
    _note_coinciding(series, fact, labels, fig)
    if zeros_note:
        handles.append(Line2D([], [], ls="none", marker="v", color="0.3"))
        labels.append("exactly 0 in float64\n(drawn at the bottom)")
    if dashed:
        handles.append(Line2D([], [], color="0.2", lw=1.5, ls=(0, (6.0, 6.0))))
        labels.append("curves that coincide:\ntheir colours alternate")
    if moved:
        handles.append(Line2D([], [], ls="none", marker="<", color="0.3", ms=4))
        labels.append("points that would coincide:\nmoved a few pt sideways")
    head, title = _title(fig, claim)
    f.suptitle("\n".join([head] + _wrap(title, 30 * ncols + 40)), fontsize=10)
    extra = []
    if handles:   # beside the top-right panel: constrained layout keeps it clear of the axes and the title
        extra.append(axes[0, min(ncols, n) - 1].legend(handles, labels, loc="upper left", bbox_to_anchor=(1.03, 1.0),
                                                        borderaxespad=0.0, frameon=False, fontsize=8.5,
                                                        handlelength=2.4))
    if fig.get("slopes"):   # below the panels, in as many columns as there are panel columns (a short block)
        head, *body = _slopes_text(fig["slopes"]).split("\n")
        k = min(ncols, n) if len(body) > 4 else 1
        # as many columns as fit: a column's longest line (about 0.55 em a character) within its share of the width
        while k > 1 and max(_visible(t) for t in body) * 8.5 * 0.55 / 72 > 0.95 * f.get_figwidth() / k:
            k -= 1
        per = math.ceil(len(body) / k)
        extra.append(f.text(0.5, -0.01, head, fontsize=8.5, va="top", ha="center", transform=f.transFigure,
                            gid="slopes", fontweight="bold"))
        dy = 8.5 * 1.6 / 72 / f.get_figheight()
        for i in range(k):
            col = body[i * per:(i + 1) * per]
            if col:
                extra.append(f.text((i + 0.5) / k, -0.01 - dy, "\n".join(col), fontsize=8.5, va="top",
                                    ha="center", transform=f.transFigure, gid="slopes part"))
    f._ftverify_extra = extra
    return f


def _bridge(xs, ys):
    """Drop the NaNs of a line whose finite values are isolated (a curve sampled on a coarser grid than
    its x): otherwise nothing would be drawn.  NaNs between runs of values (a pole) are kept."""
    fin = [math.isfinite(y) for y in ys]
    if sum(fin) < 2:
        return xs, ys
    adjacent = sum(1 for i, ok in enumerate(fin)
                   if ok and ((i > 0 and fin[i - 1]) or (i + 1 < len(fin) and fin[i + 1])))
    if adjacent >= 0.5 * sum(fin):
        return xs, ys
    return [x for x, ok in zip(xs, fin) if ok], [y for y, ok in zip(ys, fin) if ok]


def _axes_style(ax, fig, series):
    import matplotlib.ticker

    if fig.get("logy"):
        ax.set_yscale("log")
    if fig.get("logx"):
        ax.set_xscale("log")
    if fig.get("ylim"):
        ax.set_ylim(*padded_ylim(fig["ylim"], series, bool(fig.get("logy"))))
    for axis, sym, setter in ((ax.xaxis, fig.get("symx"), ax.set_xscale), (ax.yaxis, fig.get("symy"), ax.set_yscale)):
        if sym:   # values at and below 0 and decades above: linear up to sym, logarithmic beyond
            setter("symlog", linthresh=sym, linscale=0.6)
            axis.set_major_formatter(matplotlib.ticker.FuncFormatter(_tick))
    if any(s.get("markers") for s in series):   # a discrete x: integer ticks
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    xs = sorted({float(v) for s in series if s["kind"] == "points" for v in s["x"] if not isinstance(v, str)})
    if fig.get("logx") and 2 <= len(xs) <= 8 and xs[0] > 0:   # a short grid (d, m): tick every simulated value
        ax.xaxis.set_major_locator(matplotlib.ticker.FixedLocator(xs))
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(_tick))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    for axis, on, lim in ((ax.xaxis, fig.get("logx") and not (2 <= len(xs) <= 8), ax.get_xlim()),
                          (ax.yaxis, fig.get("logy"), ax.get_ylim())):
        if on and lim[0] > 0:   # every minor label (2x10^2, 3x10^2, ...) collides on a short log axis
            span = math.log10(lim[1]) - math.log10(lim[0])
            axis.set_major_locator(matplotlib.ticker.LogLocator(10, subs=(1, 2, 5) if span <= 2.5 else (1,),
                                                                numticks=8))
            if span <= 6:
                axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
            axis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.tick_params(labelsize=8.5)
    ax.grid(alpha=0.3)


def _tick(v, _=None) -> str:
    """A tick label of a simulated grid value: 1024, 0.0316, 1e+05 (never 1.02e+03)."""
    if v >= 1 and abs(v - round(v)) < 1e-9 and v < 1e6:
        return str(int(round(v)))
    return f"{v:.3g}"


def _hue_label(hk, series, fig) -> str:
    if isinstance(hk, tuple):
        s = next(s for s in series if s["_hue"] == hk)
        return ", ".join(tex_param(k, s["params"][k], fig) for k, _ in hk) or " "
    return _safe(tex_text(str(hk)))


def _legend(series, fact, line_roles, point_roles, fig, pkeys, Line2D):
    handles, labels = [], []
    wrap = wrap_legend
    if fact:
        hues = list(dict.fromkeys(s["_hue"] for s in series))
        if len(hues) > 1:
            for hk in hues:
                col = next(s["_color"] for s in series if s["_hue"] == hk)
                handles.append(Line2D([], [], color=col, lw=6, alpha=0.85))
                labels.append(_hue_label(hk, series, fig))
        for r in line_roles:
            if any(s.get("markers") for s in series if s["role"] == r):   # theory at a discrete x: bars
                handles.append(Line2D([], [], color="0.2", ls="none", marker="_", ms=12, mew=1.8))
            else:
                handles.append(Line2D([], [], color="0.2", lw=1.5, ls=LINESTYLES[line_roles.index(r) % 4]))
            labels.append(wrap(_safe(tex_text(r or "theory"))))
        for i, r in enumerate(point_roles):
            handles.append(Line2D([], [], color="0.2", ls="none", marker=MARKERS[i % len(MARKERS)], ms=5,
                                  mfc="white" if i % 2 else "0.2"))
            bars = any(any(_floats(s.get("yerr", [0]))) for s in series if s["role"] == r)
            labels.append(wrap(_safe(tex_text(r or "simulated"))) + (" (95% CI)" if bars else ""))
        return handles, labels
    seen = set()
    for s in series:
        lab = s.get("label", "")
        if s["params"] is not None and pkeys:   # the panel's parameter is in the panel title
            rest = {k: v for k, v in s["params"].items() if k not in pkeys}
            lab = " ".join(t for t in [_safe(tex_text(s["role"] or "")),
                                       ", ".join(tex_param(k, v, fig) for k, v in rest.items())] if t)
        elif s["params"] is not None:
            lab = " ".join(t for t in [_safe(tex_text(s["role"] or "")),
                                       ", ".join(tex_param(k, v, fig) for k, v in s["params"].items())] if t)
        else:
            lab = _safe(tex_text(lab))
        key = (lab, s["_color"], s["kind"])
        if key in seen:
            continue
        seen.add(key)
        if s["kind"] == "line":
            ls = "none" if s.get("markers") else s.get("_ls", "-")
            handles.append(Line2D([], [], color=s["_color"], lw=1.5, ls=ls, marker="_" if s.get("markers") else None,
                                  ms=10))
        elif len(s["x"]) > 60 and not any(_floats(s.get("yerr", [0]))):
            handles.append(Line2D([], [], color=s["_color"], lw=1.3))
        else:
            mk = s.get("marker", "o")
            handles.append(Line2D([], [], color=s["_color"], ls="none", marker=mk, ms=5,
                                  mfc="white" if mk == "s" else s["_color"]))
            lab += " (95% CI)" if any(_floats(s.get("yerr", [0]))) else ""
        labels.append(wrap(lab))
    return handles, labels


def _note_coinciding(series, fact, labels, fig) -> None:
    """A curve drawn on another of its colour (``s["_on"]``) says so in its legend entry: "(on closed form)"."""
    for s in series:
        under = s.get("_on")
        if under is None or fact and not all(t.get("_on") for t in series if t["role"] == s["role"]):
            continue   # a role noted only where every curve of it lies on another
        lab = _safe(tex_text((under["role"] if fact else under.get("label")) or "another curve"))
        own = wrap_legend(_safe(tex_text((s["role"] if fact else s.get("label")) or "")))
        for i, t in enumerate(labels):
            if t.split("\n")[0] == own.split("\n")[0] and "(on " not in t:
                labels[i] = t + "\n" + f"(on the {lab} curve)"


def wrap_legend(t: str) -> str:
    return "\n".join(_wrap(t, 34)) or " "


def panel_count(fig: dict) -> int:
    """How many panels the figure is drawn in (a report sets a figure of three or more at the full text width)."""
    series = _structure(fig)
    keys = _panel_keys(fig, series)
    return len({tuple(_key((s["params"] or {}).get(k)) for k in keys) for s in series}) or 1


def _slopes_text(slopes: list[dict]) -> str:
    """The fitted exponents beside the stated ones, one line each."""
    # a fit the source states no exponent for (a measured trend) is printed without a "vs"
    any_stated = any(s.get("stated_text") or s.get("stated") is not None for s in slopes)
    lines = ["fitted slope [95% CI]  vs  stated (with the test's tolerance)" if any_stated
             else "fitted slope [95% CI] (no stated slope to compare with)"]
    for s in slopes:
        lo, hi = s.get("ci", (math.nan, math.nan))
        lab = s.get("label", "")
        stated = s.get("stated_text") or (f"{s['stated']:g}" if s.get("stated") is not None else None)
        # a censored fit gives its estimate as text, not a number
        f2 = lambda v: f"{v:.2f}" if isinstance(v, (int, float)) else tex_text(str(v))  # noqa: E731
        grp = _parse_group(lab)   # d=5, L=2: each parameter in the source's notation
        lab = ", ".join(tex_param(k, v) for k, v in grp.items()) if grp else tex_text(lab)
        lines.append(f"{lab}: {f2(s['fitted'])} [{f2(lo)}, {f2(hi)}]"
                     + (f"  vs  {tex_text(stated)}" if stated else ("  (none stated)" if any_stated else "")))
    return _safe("\n".join(lines))


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
            f = draw_figure(fig, c)
            f.savefig(inside(folder, folder / name), bbox_inches="tight",   # slug(): a plain name, checked anyway
                      metadata={"Software": None})
            plt.close(f)
            out.setdefault(c["id"], []).append(f"figures/{name}")
    return out
