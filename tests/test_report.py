"""Reports: one per source and an index, errata first by severity and grouped by root cause, one-line cells, the
LaTeX compiles without overfull boxes, PDFs with --pdf, the progress lines of a run without a terminal.

Built on a synthetic results document (no simulation) that carries the awkward cases: a root cause shared across
sources, long reasons with lists of numbers, unicode and TeX specials, long ids and formulas, a NaN margin."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from verify import report as R
from verify.report import load_results, write_reports
from verify.report.tables import errata_groups, one_line
from verify.report.referee import CONSEQUENCE_WORDS
from verify.judge.severity import CLASSES

SRC = {"tahir2024": ("001_759117b8232d72ac.txt", "Tahir, Ganguli, Rotskoff, Features are fate (2024)"),
       "shachaf2021": ("000_efaf07e323d59f0e.txt", "Shachaf, Brutzkus, Globerson, Fine-tuning with linear teachers"),
       "dayi2024": ("003_83d15a9763fa9a30.txt", "Dayi, Chen, Gradient dynamics for low-rank fine-tuning"),
       "hermite": ("derivations/hermite.py", "General identities: Hermite expansions")}
LONG = "first: " + ", ".join(f"{0.1 * k:.3f}" for k in range(200))   # a 32 x 6 list in a reason cell, say
RC = {"key": "tahir2024.eq142", "paper": "tahir2024",
      "summary": "eq. (142) omits the rescaling s^{L-1} of the frozen component (I - P) beta_s",
      "corrected": r"\mathbb E\mathcal R_{ft}\to(1-\gamma)\,(1+k^2-2k\cos\theta)+\frac{\gamma\sigma^2}{1-\gamma}\ "
                   r"(\gamma<1),\quad k=s^{L-1},\ s^{2L}-(1-\gamma)s^{2L-2}=\gamma+\frac{\gamma\sigma^2}{1-\gamma};\ "
                   r"\text{eq. (16) is the case } k=1 \iff \sigma=0"}


def _sev(cls, fraction=None, witness=None, minimal=None, holds_by=None):
    m = {"method": "uniform draw of 200 points over the stated domain (seed 1, check 'x')", "fraction": fraction,
         "ci95": [0.3, 0.5] if fraction else [0.0, 0.018], "n": 200, "failed": int(200 * (fraction or 0)),
         "of": "the domain", "minimal": minimal or {"gamma": 0.5, "theta": 1.5707963267948966}, "depth": 0.0}
    if witness:
        m["witness"] = witness
        m["largest_gap"] = witness.get("margin", float("nan"))
    out = {"role": "statement", "measured": m, "class": cls, "why": f"{cls}: measured"}
    if holds_by:
        out["holds_by"] = holds_by
    return out


def _claim(cid, verdict, paper=None, cls=None, rc=None, role="statement", corrected=None, reason="ok", sev=None,
           basis="simulation", tests=0):
    paper = paper or cid.split(".")[0]
    f, title = SRC[paper]
    ev = {"tests": [{"label": f"gamma={0.1 * k:.1f}, sigma=1, theta=pi/3", "target": "stated", "predicted": 0.5,
                     "estimate": 0.5 + 1e-4 * k, "ci": [0.49, 0.51], "tol": 0.01, "trials": 2000,
                     "p_adjusted": 1.0, "status": "equivalent", "sided": None} for k in range(tests)],
          "checks": [{"name": "search ∀γ: T ≥ 0 & {x}_1 ~ 50%", "passed": verdict not in ("refuted", "does not extend"),
                      "refutes": True, "detail": "counterexample " + LONG, "counterexample": {"gamma": 2.0}}],
          "figures": [], "details": {}, "seeds": {}}
    return {"id": cid, "kind": "inequality / bound", "source": {"paper": paper, "file": f, "where": "Theorem 3.9, "
                                                                 "eq. (16) & App. B.8: 'for θ < π/3 ... 100% ≥ σ²'",
                                                                 "title": title},
            "statement": r"\mathcal T(\gamma,\theta,\sigma)=\frac{1-\gamma}{\gamma}\left(\cos^2\theta-\gamma\right)"
                         r"+\sigma^2\,\frac{\gamma}{1-\gamma}\quad\forall\gamma\neq1",
            "assumptions": "x ~ N(0, I_d), ‖β‖ = 1, 50% & $5 #3 _x ^y {z}", "domain": "gamma in (0, inf)",
            "stated": None, "derived": None, "corrected": corrected,
            "corrected_verdict": "confirmed" if corrected else None, "corrected_reason": "3 checks passed",
            "notes": "read as the authors: 'quoted' text with ∑ and ∫ and χ² — and a_b^c", "tags": [],
            "extension": verdict == "does not extend", "role": role, "holds_by": [], "root_cause": rc,
            "severity": sev if sev is not None else (_sev(cls) if verdict in ("refuted", "does not extend") else None),
            "verdict": verdict, "reason": reason if verdict == "confirmed" else "search: " + LONG,
            "rules_out": "at each of its 4 points the 95 % CI excludes a value farther than 0.01" if verdict ==
            "confirmed" else "", "basis": basis, "evidence": ev}


def _doc():
    W = {"point": {"gamma": 0.5, "sigma": 1.0, "theta": 0.95, "T_lt": -0.044, "W1_upper_bound": 1.14,
                   "dR/dgamma at 0+": 3.0}, "margin": 0.53, "depth": 0.4, "how": "largest margin"}
    claims = [
        _claim("tahir2024.thm3.9.transferability.a_very_long_identifier_of_a_claim", "refuted", rc=RC,
               sev=_sev("substantive", 0.35, W), corrected=r"\mathcal T = " + r" + ".join(f"a_{{{k}}}\\gamma^{{{k}}}"
                                                                                            for k in range(40))),
        _claim("tahir2024.eq13.angle", "refuted", cls="boundary",
               rc={"key": "closed", "paper": "tahir2024", "summary": "open interval must be closed at pi/2",
                   "corrected": r"\theta\in(\arccos(1-\sigma),\pi/2]"}),
        _claim("tahir2024.eq13.noiseless", "refuted", cls="boundary",
               rc={"key": "closed", "paper": "tahir2024", "summary": "open interval must be closed at pi/2",
                   "corrected": r"\theta\in(\arccos(1-\sigma),\pi/2]"}),
        _claim("tahir2024.thm2.2.eq28", "refuted", role="proof step",
               sev=_sev("proof step", holds_by=[{"id": "tahir2024.thm2.2", "verdict": "confirmed"}])),
        _claim("tahir2024.text.caption", "refuted", role="caption", cls="remark",
               sev={**_sev("remark"), "measured": {"method": "none recorded", "fraction": None}}),
        _claim("tahir2024.eq13.all_sigma", "does not extend", cls=None),
        _claim("tahir2024.thm3.6.finite", "confirmed", tests=45),
        _claim("tahir2024.thm3.6.stieltjes", "confirmed", basis="derivation only"),
        _claim("tahir2024.thm3.7", "inconclusive"),
        _claim("shachaf2021.eq5.end_state_142", "refuted", rc=RC, cls="substantive"),
        _claim("shachaf2021.thm4.1", "confirmed"),
        _claim("dayi2024.prop1", "confirmed"),
        _claim("hermite.dual", "confirmed"),
    ]
    counts = {v: sum(c["verdict"] == v for c in claims) for v in ("confirmed", "refuted", "does not extend",
                                                                 "inconclusive")}
    return {"meta": {"profile": "quick", "seed": 0, "device": "cpu", "n_tests": 45, "alpha_familywise": 0.05,
                     "multiple_testing": "Holm", "counts": counts, "versions": {"python": "3.11"}},
            "claims": claims, "timing": {"started": "2026-11-28T08:00:00+00:00", "seconds": 1.0, "claims": {}}}


@pytest.fixture
def written(tmp_path):
    doc = _doc()
    res = write_reports(doc, tmp_path)
    return doc, tmp_path, res


def test_one_report_per_source_and_an_index(written):
    doc, out, res = written
    assert res["papers"] == ["shachaf2021", "tahir2024", "dayi2024", "hermite"]   # file order, identities last
    for p in res["papers"]:
        assert (out / p / "report.md").exists() and (out / p / "report.tex").exists()
    index = (out / "index.md").read_text()
    rows = [l for l in index.splitlines() if l.startswith("| **")]
    assert len(rows) == 5   # four sources and the total
    # independent errata: one per root cause (the shared (142) and the closed interval count once each)
    assert "| 4 errata (1 substantive, 1 boundary, 1 proof step, 1 remark; 6 refuted claims) |" in index
    assert json.loads((out / "results.json").read_text()) == json.loads(json.dumps(doc))
    assert not list(out.glob(".partial-*")) and not list(out.glob(".old-*"))


def test_first_page_order_and_severity(written):
    """A referee's order: the summary, major errata, minor errata (typos would follow), then the rest, what was
    checked, the appendix; one erratum per root cause, each with its corrected form, counterexample and command."""
    _, out, _ = written
    md = (out / "tahir2024" / "report.md").read_text()
    heads = ["## Summary", "## Major errata", "## Minor errata", "## The rest", "### Readings that do not extend",
             "### Inconclusive", "### Confirmed", "## What was checked", "## Appendix: every claim"]
    assert [md.index(h) for h in heads] == sorted(md.index(h) for h in heads)
    major = md[md.index("## Major errata"):md.index("## Minor errata")]
    minor = md[md.index("## Minor errata"):md.index("## The rest")]
    # the root cause of 001's (142) is one erratum with 000's claim as a second witness, reproduced together
    assert major.count("Reproduce:") == 1 and "shachaf2021.eq5.end_state_142" in major
    assert ("'tahir2024.thm3.9.transferability.a_very_long_identifier_of_a_claim' "
            "'shachaf2021.eq5.end_state_142' --profile quick") in major
    assert "Corrected form (confirmed)" in major and "Counterexample:" in major
    # the two boundary claims of one root cause are one minor erratum; boundary before the proof step and remark
    assert minor.count("Reproduce:") == 3
    assert minor.index("(boundary)") < minor.index("(proof step)") < minor.index("(remark)")
    sh = (out / "shachaf2021" / "report.md").read_text()
    assert "root cause in another source" in sh and "shachaf2021.eq5.end_state_142" in sh
    assert "## Major errata" not in sh   # counted for the source whose statement fails
    summary = md[md.index("## Summary"):md.index("## Major errata")]
    assert "We find 4 independent errata" in summary and "What to change:" in summary
    assert "tahir2024.eq13.all_sigma" not in major + minor   # a reading that does not extend is not an erratum


def test_nothing_is_cut(written):
    """No "…" in a report's body: long reasons and number lists are written out in full, outside tables."""
    _, out, _ = written
    md = (out / "tahir2024" / "report.md").read_text()
    body = md[:md.index("## Appendix: every claim")]
    assert "…" not in body
    assert LONG.split(", ")[-1] in body   # the last number of the long list in the reading that does not extend
    tex = (out / "tahir2024" / "report.tex").read_text()
    assert r"\dots{}" not in tex[:tex.index(r"\appendix")]
    assert "<details>" in md   # per-point tables collapsed in the appendix
    assert one_line("a " * 200).endswith("…") and "[…]" in one_line(LONG)   # one_line itself still cuts (index)


def test_reconstruction_note_on_003s_first_page(written):
    _, out, _ = written
    md = (out / "dayi2024" / "report.md").read_text()
    assert md.index("reconstruction") < md.index("## Summary")
    tex = (out / "dayi2024" / "report.tex").read_text()
    assert tex.index("reconstruction") < tex.index("Summary")


def test_groups_ordered_by_class(written):
    doc = written[0]
    groups = errata_groups(doc, "tahir2024")
    assert [g["class"] for g in groups] == sorted((g["class"] for g in groups), key=CLASSES.index)
    assert [len(g["members"]) for g in groups if g["key"] == "tahir2024.eq142"] == [2]
    assert errata_groups(doc, "shachaf2021") == []


def test_stale_sources_are_removed_and_other_files_kept(tmp_path):
    """A source folder an earlier run wrote and this one does not cover goes; files the suite did not write (the
    one-report layout of before issue 26 included: it may be a user's own report.md) stay (issue 34)."""
    doc = _doc()
    write_reports(doc, tmp_path)
    (tmp_path / "report.md").write_text("old")
    (tmp_path / "figures").mkdir()
    small = {**doc, "claims": [c for c in doc["claims"] if c["source"]["paper"] == "hermite"]}
    write_reports(small, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == \
        ["figures", "hermite", "index.md", "report.md", "results.json", "summary.tex"]
    assert (tmp_path / "report.md").read_text() == "old"


def test_load_results_accepts_new_verdicts_and_rejects_bad_severity(tmp_path):
    doc = _doc()
    (tmp_path / "results.json").write_text(json.dumps(doc))
    assert load_results(tmp_path)["claims"][5]["verdict"] == "does not extend"
    doc["claims"][0]["severity"] = 5
    (tmp_path / "results.json").write_text(json.dumps(doc))
    with pytest.raises(ValueError, match="malformed 'severity'"):
        load_results(tmp_path)


def test_pdf_without_pdflatex_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setattr(R, "pdflatex", lambda: None)
    said = []
    res = write_reports(_doc(), tmp_path, pdf=True, notify=said.append)
    assert res["pdf"] == "missing" and len(said) == 1 and "apt-get install texlive-latex-base" in said[0]
    assert (tmp_path / "tahir2024" / "report.tex").exists() and not (tmp_path / "tahir2024" / "report.pdf").exists()


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no TeX toolchain (apt-get install texlive-latex-base)")
def test_latex_compiles_without_overfull_boxes(tmp_path):
    write_reports(_doc(), tmp_path)
    d = tmp_path / "tahir2024"
    for _ in range(2):
        p = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "report.tex"], cwd=d,
                           capture_output=True, timeout=300)
        # pdflatex's log is not UTF-8 (it prints some glyphs as raw 8-bit bytes): decode leniently
        assert p.returncode == 0, p.stdout.decode("utf-8", errors="replace")[-3000:]
    log = (d / "report.log").read_bytes().decode("utf-8", errors="replace")
    over = [float(x) for x in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide", log)]
    assert max(over, default=0) <= 3.0, f"overfull boxes: {sorted(over)[-5:]}"


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no TeX toolchain (apt-get install texlive-latex-base)")
def test_pdf_written_for_every_source(tmp_path):
    res = write_reports(_doc(), tmp_path, pdf=True, notify=lambda s: None)
    assert res["pdf"] == "ok"
    for p in res["papers"]:
        pdf = tmp_path / p / "report.pdf"
        assert pdf.exists() and pdf.read_bytes()[:4] == b"%PDF"
        assert not (tmp_path / p / "report.aux").exists()
    assert "[pdf](tahir2024/report.pdf)" in (tmp_path / "index.md").read_text()
    assert res["summary_pdf"] and (tmp_path / "summary.pdf").read_bytes()[:4] == b"%PDF"
    assert "[summary.pdf](summary.pdf)" in (tmp_path / "index.md").read_text()
    write_reports(_doc(), tmp_path)   # without --pdf: no stale summary.pdf next to a new summary.tex
    assert not (tmp_path / "summary.pdf").exists() and (tmp_path / "summary.tex").exists()


def test_default_out_is_ignored_by_git():
    root = Path(__file__).parents[1]
    assert R.DEFAULT_OUT + "/" in (root / ".gitignore").read_text().split()


def test_a_reconstructed_source_says_so_in_each_verdict_line():
    """003's formulas were lost in extraction: its verdicts are on our reconstruction, and the reports say so in the
    verdict itself (issue 27), not only on the first page; other sources' verdicts are printed as they are."""
    from verify.report.tables import verdict_text

    c = {"id": "dayi2024.thm9", "verdict": "confirmed", "source": {"paper": "dayi2024"}}
    assert verdict_text(c) == "confirmed on our reconstruction"
    assert verdict_text(dict(c, verdict="inconclusive")) == "inconclusive"
    assert verdict_text({"id": "tahir2024.x", "verdict": "confirmed", "source": {"paper": "tahir2024"}}) == "confirmed"


def test_typos_say_what_differs_and_proof_steps_are_ranked_by_consequence(tmp_path):
    """A typo's line says what differs ("-2 where -1", from ``severity.change``); a proof step whose repaired proof
    gives a weaker rate comes before one the O(.) absorbs, and says so."""
    doc = _doc()
    hb = [{"id": "tahir2024.thm2.2", "verdict": "confirmed"}]
    typo = _claim("tahir2024.eq7", "refuted", corrected=r"n-p-1", sev={
        **_sev("typo"), "change": {"kind": "an off-by-one in a constant", "differs": "-2 where -1",
                                   "value_level": True}})
    absorbed = _claim("tahir2024.eq30", "refuted", role="proof step", corrected=r"x\le1", sev={
        **_sev("proof step", holds_by=hb), "proof": {"consequence": "absorbed", "why": "a constant", "rank": 3}})
    weaker = _claim("tahir2024.eq31", "refuted", role="proof step", corrected=r"x\le n", sev={
        **_sev("proof step", holds_by=hb), "proof": {"consequence": "weaker rate", "why": "a power", "rank": 1}})
    doc["claims"] += [typo, absorbed, weaker]
    write_reports(doc, tmp_path)
    md = (tmp_path / "tahir2024" / "report.md").read_text()
    typos = md[md.index("## Typos and slips"):md.index("## The rest")]
    assert "what differs: -2 where -1" in typos and "tahir2024.eq7" in typos
    minor = md[md.index("## Minor errata"):md.index("## Typos and slips")]
    assert minor.index("eq31") < minor.index("eq30")
    assert CONSEQUENCE_WORDS["weaker rate"] in minor and CONSEQUENCE_WORDS["absorbed"] in minor
    summary = md[md.index("## Summary"):md.index("## Major errata")]
    assert "1 of them giving less than printed once repaired: a weaker bound)" in summary and "correct the misprint listed" in summary
    tex = (tmp_path / "tahir2024" / "report.tex").read_text()
    assert r"\textit{What differs:} -2 where -1" in tex
