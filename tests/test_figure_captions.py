"""Figure captions a referee can read (issue 37): each says what the figure shows, even untitled (its axes), what
it draws (the roles of its series) and the verdict; in the PDF its axis labels are math, not escaped dollars."""
from __future__ import annotations

from verify.report.latex import caption_tex
from verify.report.referee import figure_caption


def _claim(fig):
    return {"id": "demo.thm2_2.w1", "verdict": "refuted", "evidence": {"figures": [fig]},
            "source": {"paper": "demo2024", "where": "Theorem 2.2"}}


def _fig(title=""):
    xs = [0.0, 1.0, 2.0]
    return {"x": "s_g", "xlabel": r"$\|g\|_{L_2(p)}$", "ylabel": r"$E_{p_g}|y|\leq W_1$", "title": title,
            "series": [{"kind": "points", "label": "Monte Carlo d=1", "group": "d=1", "x": xs, "y": xs},
                       {"kind": "line", "label": "derived bound d=1", "group": "d=1", "x": xs, "y": xs},
                       {"kind": "points", "label": "extrapolated d->inf d=1", "group": "d=1", "x": xs, "y": xs}]}


def test_an_untitled_figure_is_captioned_by_its_axes_and_series():
    cap = figure_caption(_claim(_fig()), 0)
    assert cap.startswith(r"Figure 1 of demo.thm2_2.w1: $E_{p_g}|y|\leq W_1$ against $\|g\|_{L_2(p)}$")
    assert "drawn: Monte Carlo, derived bound, extrapolated d → ∞" in cap and "->" not in cap
    assert cap.endswith("Verdict: refuted.")


def test_caption_in_latex_keeps_math_spaces_and_the_claim_id():
    tex = caption_tex(_claim(_fig()), 0)
    assert r"\$" not in tex   # the axis labels are typeset, not printed with their dollars
    assert r": $E_{p_g}|y|\leq W_1$ against $\|g\|_{L_2(p)}$;" in tex
    assert tex.startswith(r"Figure 1 of demo.\allowbreak{}thm2\_\allowbreak{}2.\allowbreak{}w1")


def test_unsafe_math_in_a_caption_stays_escaped():
    tex = caption_tex(_claim(dict(_fig(), ylabel=r"$\input{/etc/passwd}$")), 0)
    assert r"\input" not in tex.replace(r"\textbackslash{}input", "")


def test_small_multiples_are_set_at_the_page_width():
    """A figure of three or more panels is set at the full text width (and may take most of a page's height): at
    0.72 of the width its tick labels print at 3-4 pt."""
    from verify.report.figures import panel_count
    from verify.report.latex import _claim as claim_tex
    xs = [0.1, 0.2]
    series = [{"kind": "points", "label": f"MC d={d}, L={L}", "group": f"d={d}, L={L}", "x": xs, "y": xs}
              for d in (5, 10, 20) for L in (2, 3)]
    fig = {"x": "alpha", "xlabel": "alpha", "ylabel": "y", "title": "t", "series": series, "panels": ["d"]}
    assert panel_count(fig) == 3 and panel_count(_fig()) == 1
    import json
    from pathlib import Path

    report = Path(__file__).resolve().parent.parent / "reports" / "results.json"
    if not report.exists():
        return
    doc = json.loads(report.read_text())
    c = next((c for c in doc["claims"] if c["evidence"].get("figures")), None)
    if c is None:
        return
    c = dict(c, evidence=dict(c["evidence"], figures=[fig, _fig()]))
    tex = "\n".join(claim_tex(c, ["figures/a.png", "figures/b.png"]))
    assert r"includegraphics[width=\linewidth,height=0.9\textheight,keepaspectratio]{figures/a.png}" in tex
    assert r"includegraphics[width=0.72\linewidth,height=0.42\textheight,keepaspectratio]{figures/b.png}" in tex
