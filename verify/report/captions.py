"""LaTeX for a figure's caption and for the notes that quote a command (:mod:`verify.report.latex`): the claim id
as it is, axis labels as whitelisted math, ASCII formulas as prose math, commands in typewriter with straight
quotes."""
from __future__ import annotations

import re

from .referee import figure_caption
from .untrusted import math_ok


def caption_tex(c: dict, k: int) -> str:
    """A figure's caption: the claim id as it is, the rest as prose whose ``$...$`` (axis labels) is math when the
    whitelist admits it (:func:`prose`, :func:`math_ok`)."""
    from .latex import _safe_math, esc, prose
    cap, head = figure_caption(c, k), f"Figure {k + 1} of {c['id']}"
    rest = cap[len(head):] if cap.startswith(head) else cap
    out = []
    for seg in re.split(r"(\$[^$]+\$)", rest):
        if seg.startswith("$") and seg.endswith("$") and len(seg) > 1 and math_ok(seg[1:-1]):
            out.append("$" + _safe_math(seg[1:-1]) + "$")
        else:
            lead, tail = seg[: len(seg) - len(seg.lstrip())], seg[len(seg.rstrip()):]
            out.append(lead + prose(seg) + tail if seg.strip() else esc(seg))   # prose() trims: keep the spaces
    return esc(head if cap.startswith(head) else "") + "".join(out)


def note_tex(note: str) -> str:
    """A markdown note in LaTeX: `code` as a command (its -- kept, not an en dash), "quoted" text with opening and
    closing quotes, *emphasis* dropped."""
    from .latex import _cmd, esc
    parts = note.replace("*", "").split("`")
    return "".join(_cmd(p) if i % 2 else re.sub(r'"([^"]*)"', r"``\1''", esc(p)) for i, p in enumerate(parts))
