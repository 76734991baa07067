"""Safe with other people's files (issue 34): every probe of the report writer, as a test.

A results document is built once per module by running one tiny built-in claim (``hermite.orthonormal`` at quick,
seconds); each test copies it into a folder of its own and edits the JSON.  What is checked: nothing of the user's
is removed or replaced, nothing outside ``--out`` is created or removed, ``--out /`` and other shared folders are
refused, a second writer into the same folder is refused before it simulates, a killed run's scratch folders are
swept, and hostile text (LaTeX primitives, HTML, links, ``|``, control characters) renders inert in report.md and
report.tex, and in the PDF when pdflatex is installed.
"""
from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st

from verify.cli import main
from verify.report import LOCK, MANIFEST, MARKER, compile_pdf, load_results, pdflatex
from verify.report.latex import esc, render_paper as render_tex
from verify.report.markdown import render_paper as render_md
from verify.report.untrusted import MATH_WORDS, inside, math_ok, md_cell, md_text

CLAIM = "hermite.orthonormal"


def _cli(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_error(code: int, err: str, needle: str) -> None:
    lines = [l for l in err.splitlines() if l.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], err
    assert "Traceback" not in err


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """One finished quick run of a tiny claim: results.json, index.md, hermite/ and the manifest."""
    out = tmp_path_factory.mktemp("base") / "out"
    assert main(["run", CLAIM, "--profile", "quick", "--out", str(out), "--no-progress"]) == 0
    return out


@pytest.fixture
def doc(base) -> dict:
    return json.loads((base / "results.json").read_text())


def _folder(tmp_path: Path, doc: dict, manifest: bool = False) -> Path:
    """A folder holding ``doc`` as results.json (without a manifest: as a colleague's or an older run's)."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.json").write_text(json.dumps(doc))
    if manifest:
        (out / MANIFEST).write_text(json.dumps({"tool": "ftverify", "written": ["results.json"]}))
    return out


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# ----------------------------------------------------------------------------------------- the user's files

def test_user_files_beside_a_results_json_are_kept(capsys, tmp_path, doc):
    """The probe: a folder holding results.json, the user's report.md, report.tex and figures/mine.png; `run` into
    it wrote its reports and removed those (the clean-up of the one-report layout).  Now they stay, byte for byte."""
    out = _folder(tmp_path, doc)
    (out / "report.md").write_text("my own notes\n")
    (out / "report.tex").write_text("\\documentclass{article}\n")
    (out / "figures").mkdir()
    (out / "figures" / "mine.png").write_bytes(b"\x89PNG mine")
    before = {k: v for k, v in _tree(out).items() if k != "results.json"}
    code, _, err = _cli(capsys, "run", CLAIM, "--profile", "quick", "--out", str(out), "--no-progress")
    assert code == 0, err
    after = _tree(out)
    assert all(after.get(k) == v for k, v in before.items()), "a file of the user's was removed or changed"
    assert (out / "hermite" / "report.md").exists()
    assert set(json.loads((out / MANIFEST).read_text())["written"]) >= {"results.json", "index.md", "hermite"}


@pytest.mark.parametrize("mine", ["hermite/notes.txt", "index.md", "results.json", ".cache/x"])
def test_a_file_of_someone_elses_where_a_report_goes_is_refused(capsys, tmp_path, mine):
    """A folder without a manifest or a results document of this tool: a report name that is taken is refused
    with one line before anything is simulated, and the file is untouched."""
    out = tmp_path / "out"
    (out / mine).parent.mkdir(parents=True, exist_ok=True)
    (out / mine).write_text("mine\n")
    code, _, err = _cli(capsys, "run", CLAIM, "--profile", "quick", "--out", str(out), "--no-progress")
    _one_line_error(code, err, "was not written by ftverify")
    assert (out / mine).read_text() == "mine\n"
    assert not (out / "summary.tex").exists() and not (out / "hermite" / "report.md").exists()


def test_a_file_the_user_put_into_a_source_folder_of_ours_is_kept(capsys, tmp_path, base):
    """A folder the manifest lists (``hermite/``, replaced whole by each run) into which the user has put a file of
    their own: re-running or re-rendering that source is refused with one line naming the file, and a run of
    another source keeps the folder (it no longer claims it).  Was: the file was deleted, exit 0."""
    out = tmp_path / "out"
    shutil.copytree(base, out)
    (out / "hermite" / "mine.txt").write_text("mine\n")
    (out / "hermite" / "figures").mkdir(exist_ok=True)
    (out / "hermite" / "figures" / "plot.png").write_bytes(b"\x89PNG mine")
    before = _tree(out / "hermite")
    for argv in (["run", CLAIM, "--profile", "quick", "--no-progress"], ["report"]):
        code, _, err = _cli(capsys, *argv, "--out", str(out))
        _one_line_error(code, err, "was not written by ftverify")
        assert "figures/plot.png" in err
        assert _tree(out / "hermite") == before
    (out / "hermite" / "figures" / "plot.png").unlink()
    doc = json.loads((out / "results.json").read_text())
    for c in doc["claims"]:
        c["source"]["paper"] = "other"
    (out / "results.json").write_text(json.dumps(doc))
    code, _, err = _cli(capsys, "report", "--out", str(out))   # renders 'other'; hermite/ is not removed
    assert code == 0, err
    assert (out / "hermite" / "mine.txt").read_text() == "mine\n" and (out / "other" / "report.md").exists()
    assert "hermite" not in json.loads((out / MANIFEST).read_text())["written"]


def test_report_rerenders_an_older_folder_without_a_manifest(capsys, tmp_path, base):
    """A folder of a run before manifests (no manifest, a results document of this tool): `report` adopts what
    that document says it wrote and re-renders it; a folder beside it that is not a source's stays."""
    out = tmp_path / "out"
    shutil.copytree(base, out)
    (out / MANIFEST).unlink()
    (out / "full").mkdir()
    (out / "full" / "README.md").write_text("another run\n")
    code, _, err = _cli(capsys, "report", "--out", str(out))
    assert code == 0, err
    assert (out / "full" / "README.md").read_text() == "another run\n"
    assert "full" not in json.loads((out / MANIFEST).read_text())["written"]


# ------------------------------------------------------------------------------------- names from a file

@pytest.mark.parametrize("key", ["ABS", "../x", ".", "a/b", "x\x00y", ""])
def test_a_paper_key_that_is_not_plain_is_refused(capsys, tmp_path, doc, key):
    """The probe: source.paper set to an absolute path VICTIM made `run` delete VICTIM and `report` write outside
    OUT (with ../x).  Now load_results refuses it in one line; nothing inside or outside OUT is created or removed."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep\n")
    doc["claims"][0]["source"]["paper"] = str(victim) if key == "ABS" else key
    out = _folder(tmp_path, doc)
    before = _tree(tmp_path)
    code, _, err = _cli(capsys, "report", "--out", str(out))
    _one_line_error(code, err, "not a plain key")
    assert _tree(tmp_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "victim"]


def test_a_run_into_a_folder_whose_results_json_was_edited_stays_inside(capsys, tmp_path, base):
    """The probe's second half: the same run again after the edit.  The earlier manifest says what the suite wrote;
    the edited key is never used as a path, VICTIM stays."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep\n")
    out = tmp_path / "out"
    shutil.copytree(base, out)
    d = json.loads((out / "results.json").read_text())
    d["claims"][0]["source"]["paper"] = str(victim)
    (out / "results.json").write_text(json.dumps(d))
    code, _, err = _cli(capsys, "run", CLAIM, "--profile", "quick", "--out", str(out), "--no-progress", "--resume")
    assert code == 0, err
    assert (victim / "precious.txt").read_text() == "keep\n"
    assert load_results(out)["claims"][0]["source"]["paper"] == "hermite"


def test_a_claim_id_that_is_not_plain_is_refused(tmp_path, doc):
    doc["claims"][0]["id"] = "hermite/../../x"
    out = _folder(tmp_path, doc)
    with pytest.raises(ValueError, match="not a plain claim id"):
        load_results(out)


def test_a_paper_declaration_with_a_path_key_is_one_line(capsys, tmp_path, monkeypatch):
    from verify.run import registry
    monkeypatch.setattr(registry, "_EXTRA", [])   # the --claims source is forgotten after the test
    pkg = tmp_path / "evil_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from verify.kit import Paper\nPAPER = Paper('../evil', 'x', 'y')\nCLAIMS = []\n")
    code, _, err = _cli(capsys, "list", "--claims", str(pkg))
    _one_line_error(code, err, "must be a plain key")


def test_inside(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "link").symlink_to(tmp_path)
    out = Path("out")   # relative, as --out usually is
    assert inside(out, out / "a" / "b") == (tmp_path / "out" / "a" / "b").resolve()
    for bad in (out / ".." / "x", Path("/etc/passwd"), out, out / ".", out / "link" / "x", Path("x")):
        with pytest.raises(ValueError, match="not inside the output folder"):
            inside(out, bad)


def test_a_relative_out_works(capsys, tmp_path, monkeypatch, base):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(base, tmp_path / "out")
    assert _cli(capsys, "report", "--out", "out")[0] == 0
    assert (tmp_path / "out" / "hermite" / "report.md").exists()


# ---------------------------------------------------------------------------------- shared folders, lock

@pytest.mark.parametrize("where", ["root", "home", "repo"])
def test_an_out_that_is_not_a_folder_of_its_own_is_refused(capsys, tmp_path, monkeypatch, where):
    """The probe: `--out /` (as root) wrote /results.json, /index.md, /hermite/, /.cache/.  Now it, the home
    folder and the repository root are refused in one line, before simulating; nothing is written there."""
    monkeypatch.setenv("HOME", str(tmp_path))
    out = {"root": Path("/"), "home": tmp_path, "repo": Path(__file__).resolve().parents[1]}[where]
    before = sorted(p.name for p in out.iterdir())
    for argv in (["run", CLAIM, "--profile", "quick", "--no-progress"], ["report"]):
        code, _, err = _cli(capsys, *argv, "--out", str(out))
        _one_line_error(code, err, "give a folder of its own")
    assert sorted(p.name for p in out.iterdir()) == before


def test_a_second_writer_into_the_same_folder_is_refused(capsys, tmp_path, base):
    """The probe: two runs into one --out at once, last writer wins.  Now the second gets one line, exit 2, before
    it simulates (the lock is held here through another open file, as another process would hold it)."""
    out = tmp_path / "out"
    shutil.copytree(base, out)
    before = _tree(out)
    with open(out / LOCK, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        for argv in (["run", CLAIM, "--profile", "quick", "--no-progress"], ["report"]):
            code, _, err = _cli(capsys, *argv, "--out", str(out))
            _one_line_error(code, err, "another ftverify run is writing into")
    assert _tree(out) == before
    assert _cli(capsys, "report", "--out", str(out))[0] == 0   # released: the next one goes ahead


def test_a_killed_runs_scratch_folders_are_swept_and_nothing_else(capsys, tmp_path, base):
    out = tmp_path / "out"
    shutil.copytree(base, out)
    for name in (".partial-abc", ".old-def"):
        (out / name / "hermite").mkdir(parents=True)
        (out / name / MARKER).write_text("")
    (out / ".partial-mine").mkdir()                 # the user's, no marker
    (out / ".partial-mine" / "x").write_text("x")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / MARKER).write_text("")
    (out / ".old-link").symlink_to(elsewhere)       # a symlink to a marked folder: not followed
    assert _cli(capsys, "report", "--out", str(out))[0] == 0
    assert not (out / ".partial-abc").exists() and not (out / ".old-def").exists()
    assert (out / ".partial-mine" / "x").exists() and (elsewhere / MARKER).exists()


# ------------------------------------------------------------------------------------------ hostile text

HOSTILE = {
    "statement": r"\input{/etc/hostname}\immediate\openout5=pwned.txt\immediate\write5{x}\closeout5",
    "corrected": r"x^^5cinput{/etc/hostname} \csname input\endcsname{/etc/hostname}",
    "notes": r"\input{/etc/hostname} \openout1=pwned.txt <script>alert(1)</script> | a | b |",
    "reason": "<img src=x onerror=alert(1)> [click](javascript:alert(1)) <javascript:alert(1)> a|b \\| c \x1b[31m",
    "assumptions": "<!-- comment --> <?php x ?> </details> & &lt; \u202eevil",
    "domain": "line one\n# a heading\n| x | y |\n<div>",
}


def _hostile(doc: dict) -> dict:
    c = doc["claims"][0]
    c.update(HOSTILE)
    c["source"]["where"] = "Thm 1 | <b>bold</b> \\input{x}"
    c["source"]["title"] = "Title <script>x</script> \\write18{touch pwned}"
    c["evidence"]["checks"].append({"name": "a|b<script>", "passed": True, "refutes": False,
                                    "detail": "javascript:alert(1) \\catcode`\\@=11"})
    return doc


_OURS = re.compile(r'</?(details|summary)>|<a id="c-[a-z0-9-]+"></a>')
_OUR_LINKS = re.compile(r"\]\((#c-[a-z0-9-]+|figures/[\w.]+|\.\./index\.md|[a-z0-9_]+/report\.(md|tex|pdf)|"
                        r"summary\.(tex|pdf))\)")
_CODE = re.compile(r"(`+) .*? \1(?!`)")   # a verbatim code span (md_code): its text is shown as it is
DANGEROUS = {"input", "include", "openout", "openin", "write", "read", "catcode", "csname", "immediate", "special",
             "def", "let", "usepackage", "newcommand", "renewcommand", "closeout", "IfFileExists", "InputIfFileExists",
             "expandafter", "endcsname"}


def _md_is_inert(md: str) -> None:
    text = _CODE.sub("", md)
    assert not re.search(r"<(?=[A-Za-z/!?])", _OURS.sub("", text)), "a raw tag, comment or autolink"
    assert "](" not in _OUR_LINKS.sub("", text), "a link or image from the document"
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", md)
    lines = md.splitlines()
    for i, line in enumerate(lines):   # every row of a table has as many cells as its header
        if line.startswith("|") and i + 1 < len(lines) and re.fullmatch(r"(\|---)+\|", lines[i + 1]):
            n = lines[i + 1].count("|")
            k = i + 2
            while k < len(lines) and lines[k].startswith("|"):
                assert len(re.findall(r"(?<!\\)(?:\\\\)*\|", lines[k])) == n, lines[k]
                k += 1


def _tex_is_inert(tex: str) -> None:
    """No file, shell or catcode primitive in the document body (the preamble is the suite's own)."""
    body = tex.split("\\begin{document}", 1)[1]
    words = set(re.findall(r"\\([A-Za-z]+)", body))
    assert not words & DANGEROUS, words & DANGEROUS
    assert "^^" not in tex and not re.search("[\x00-\x08\x0b-\x1f\x7f]", tex)


def test_hostile_text_renders_inert_in_markdown_and_latex(capsys, tmp_path, doc):
    out = _folder(tmp_path, _hostile(doc))
    pdf = pdflatex() is not None
    code, _, err = _cli(capsys, "report", "--out", str(out), *(["--pdf"] if pdf else []))
    assert code == 0, err
    md = (out / "hermite" / "report.md").read_text()
    _md_is_inert(md)
    assert "&lt;script>alert(1)&lt;/script>" in md and r"a\|b" in md   # shown, as text
    assert r"` \input{/etc/hostname}\immediate\openout5=pwned.txt" in md   # a refused statement: verbatim code
    tex = (out / "hermite" / "report.tex").read_text()
    _tex_is_inert(tex)
    assert r"\textbackslash{}input\{/\allowbreak{}etc/\allowbreak{}hostname\}" in tex
    _tex_is_inert((out / "summary.tex").read_text())
    _md_is_inert((out / "index.md").read_text())
    if pdf:   # compiled, and no file written by the document
        assert (out / "hermite" / "report.pdf").read_bytes()[:4] == b"%PDF"
        assert not list(tmp_path.rglob("pwned*"))


@pytest.mark.skipif(pdflatex() is None, reason="no pdflatex (apt-get install texlive-latex-base)")
def test_compile_pdf_cannot_read_or_write_outside_or_run_a_command(tmp_path):
    """Even a .tex that asks for it (not one the suite writes): no shell escape, no absolute or ../ paths."""
    d = tmp_path / "d"
    d.mkdir()
    (d / "report.tex").write_text("\\documentclass{article}\\begin{document}\n\\immediate\\write18{touch shell}\n"
                                  "\\immediate\\openout5=../outside.txt\\immediate\\write5{x}\\immediate\\closeout5\n"
                                  "x\\end{document}\n")
    compile_pdf(d)
    assert not (d / "shell").exists() and not (tmp_path / "outside.txt").exists()
    (d / "report.tex").write_text("\\documentclass{article}\\begin{document}\\input{/etc/hostname}\\end{document}\n")
    ok, log = compile_pdf(d)
    assert not ok and ("not allowed" in log or "not found" in log)


# -------------------------------------------------------------------- properties over hostile strings

_PIECES = [r"\input{/etc/passwd}", r"\openout", r"\write18{id}", r"\catcode", r"\csname", "^^5c", "#1", "%", "$",
           "&", "_", "{", "}", "~", "\\", "<script>", "</a>", "<!--", "<img onerror=x>", "javascript:", "JaVaScRiPt:",
           "[a](b)", "![i](j)", "](", "|", "\\|", "\\\\|", "`", "*", "\n", "\r\n", "\t", "\x00", "\x1b[2J", "\x7f",
           "\u202e", "../", "/", "..\\", "&lt;", "&#60;", "α", "≤", " "]
hostile = st.lists(st.one_of(st.sampled_from(_PIECES), st.text(max_size=4)), max_size=12).map("".join)
ordinary = st.text(alphabet=st.sampled_from(list("abcxyzABC0123456789 .,;:()-+'!?")), max_size=40)


@given(hostile)
@settings(max_examples=300, deadline=None)
def test_md_text_and_cells_are_inert(s):
    t = md_text(s)
    assert not re.search(r"<(?=[A-Za-z/!?])", t) and "](" not in t and "javascript:" not in t.lower()
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\n]", t)
    cell = md_cell(t)
    assert all(len(m[1]) % 2 == 1 for m in re.finditer(r"(\\*)\|", cell)), "a | that is not escaped"


@given(hostile)
@example("..\\\u00c0")   # a backslash before a non-ASCII letter: TeX reads a control symbol of its first byte
@settings(max_examples=300, deadline=None)
def test_math_ok_never_accepts_a_dangerous_word(s):
    if math_ok(s):   # control words as TeX reads them: in a double backslash then "input", no \\input is formed
        words = {w for w in re.findall(r"\\([A-Za-z]+|.)", s, re.S) if w.isalpha()}
        assert not words - MATH_WORDS and "^^" not in s


@given(ordinary)
@settings(max_examples=200, deadline=None)
@example("---")
def test_escapers_round_trip_ordinary_text(s):
    assert md_text(s) == s
    # '-{}-': two hyphens kept apart so TeX sets '--' as typed, not as an en dash
    assert re.sub(r"-\{\}(?=-)", "-", esc(s).replace(r"\allowbreak{}", "")) == s


@given(hostile, st.sampled_from(["statement", "notes", "reason", "assumptions", "corrected", "where", "title",
                                 "detail"]))
@settings(max_examples=60, deadline=None)
def test_renderers_keep_any_string_inert(base, s, field):
    doc = json.loads((base / "results.json").read_text())
    c = doc["claims"][0]
    if field in ("where", "title"):
        c["source"][field] = s
    elif field == "detail":
        c["evidence"]["checks"].append({"name": s, "passed": True, "refutes": False, "detail": s})
    else:
        c[field] = s
    _md_is_inert(render_md(doc, "hermite", {}))
    _tex_is_inert(render_tex(doc, "hermite", {}))
