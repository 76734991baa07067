"""Coverage ledgers (issue 27): each committed ledger against a fresh parse of its source and against the registered
claims. Fails on a parsed item missing from a ledger, an entry whose line range no longer matches the source, an
entry that is neither parsed nor marked manual, or a claim id that does not exist. Uncovered items are reported
(printed), not failed: closing them is the work the ledgers are there to show."""
from __future__ import annotations

import pytest

from verify.audit import coverage as cov
from verify.cli import main
from verify.run.registry import all_claims

PAPERS = list(cov.PAPERS)
HAVE = [p for p in PAPERS if (cov.SEEDS / cov.PAPERS[p]).exists()]


@pytest.fixture(scope="module")
def known_ids():
    return {c.id for c in all_claims()}


def _ledger(paper):
    try:
        return cov.load_ledger(paper)
    except ValueError:
        pytest.skip(f"{paper} has no ledger yet")


@pytest.mark.parametrize("paper", PAPERS)
def test_ledger_names_only_existing_claims(paper, known_ids):
    led = _ledger(paper)
    assert led.paper == paper and led.source == cov.PAPERS[paper]
    assert cov.dangling(led, known_ids) == []
    orphans = cov.orphan_claims(led, known_ids)  # reported, not failed: claims are being added in parallel
    if orphans:
        print(f"\n{paper}: {len(orphans)} claims named by no ledger entry: {sorted(orphans)}")


@pytest.mark.parametrize("paper", HAVE)
def test_ledger_holds_every_parsed_item(paper, capsys):
    led = _ledger(paper)
    items = cov.parse(cov.read_source(cov.source_path(paper)))
    diff = cov.compare(led, items)
    assert [str(i) for i in diff["missing"]] == [], "parsed items missing from the ledger"
    assert [(e.key, (e.start, e.end), (i.start, i.end)) for e, i in diff["moved"]] == [], "line ranges moved"
    assert [e.key for e in diff["stale"]] == [], "ledger entries the parser does not find (mark them manual=True)"
    n_lines = len(cov.read_source(cov.source_path(paper)).splitlines())
    assert all(e.end <= n_lines for e in led.entries), "an entry's lines run past the end of the source"
    s = cov.summary(led)
    assert s["items"] == s["covered"] + s["not checkable"] + s["uncovered"]
    with capsys.disabled():
        print(f"\n{paper}: {s['items']} items, {s['covered']} covered, {s['not checkable']} not checkable, "
              f"{s['uncovered']} uncovered")


def test_entry_needs_exactly_one_status():
    with pytest.raises(ValueError, match="exactly one"):
        cov.E("Theorem 1", 1, 2)
    with pytest.raises(ValueError, match="exactly one"):
        cov.E("Theorem 1", 1, 2, "x.y", todo="z")
    with pytest.raises(ValueError, match="unknown reason"):
        cov.E("Theorem 1", 1, 2, reason="too hard")
    with pytest.raises(ValueError, match="line range"):
        cov.E("Theorem 1", 5, 2, todo="z")
    with pytest.raises(ValueError, match="duplicate"):
        cov.Ledger("p", "s", [cov.E("a", 1, 1, todo=""), cov.E("a", 2, 2, todo="")])


SAMPLE = r"""A title

Abstract

We prove things.

1 Introduction

Theorem 1.2 (Main). For all x,
$$f(x) = g(x), \tag{3}$$
where g is nice.

Some prose that cites Theorem 1.2 and ends with a reference (3)

Lemma B.1. A lemma.

$$a = b$$

$$c = d$$
(4)

Figure 2: A caption.

Table 1: A table.

Theorem3.5((Yun et al., 2021)). Glued text.
y =f(x)+e (5)
"""


def test_parse_recognises_the_labelled_items():
    items = {i.key: i for i in cov.parse(SAMPLE)}
    assert set(items) == {"Theorem 1.2", "eq. (3)", "Lemma B.1", "display L17", "eq. (4)", "Figure 2", "Table 1",
                          "Theorem 3.5", "eq. (5)"}
    assert (items["Theorem 1.2"].start, items["Theorem 1.2"].end) == (9, 11)
    assert (items["eq. (4)"].start, items["eq. (4)"].end) == (19, 20)
    assert items["eq. (3)"].kind == "equation" and items["display L17"].kind == "display"


def test_parse_repeats_and_slides():
    # a deck: a footer on every slide, titles that recur less often than it, bullets
    slide = lambda k: ["FOOTER", "", f"Section {k} : Part", "", "Results" if k % 2 else "Method", "",
                       f"- bullet {k}", "", "Theorem 1. Claim", "", "- it holds", ""]
    deck = "\n".join(["Talk", ""] + [line for k in range(10) for line in slide(k)])
    keys = [i.key for i in cov.parse(deck)]
    assert keys.count("Theorem 1") == 1 and "Theorem 1 #10" in keys
    assert "slide: Results" in keys and "slide: Results #5" and "slide: Method #5" in keys


def test_stub_round_trips():
    items = cov.parse(SAMPLE)
    ns: dict = {}
    exec(cov.stub(items, "sample", "sample.txt"), ns)
    led = ns["LEDGER"]
    assert cov.compare(led, items) == {"missing": [], "moved": [], "stale": []}
    assert cov.summary(led)["uncovered"] == len(items)


@pytest.mark.parametrize("argv", [["coverage", "--init", "no/such/file.txt"], ["coverage", "nopaper"],
                                  ["coverage", "--write", "x.py"], ["coverage", "--init", "liu2019", "dayi2024"]])
def test_cli_bad_input(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1


def test_cli_init_write(tmp_path, capsys):
    src = tmp_path / "paper.md"
    src.write_text(SAMPLE, encoding="utf-8")
    out = tmp_path / "ledger.py"
    assert main(["coverage", "--init", str(src), "--write", str(out)]) == 0
    assert "E('Theorem 1.2', 9, 11, todo=\"\")" in out.read_text()
    assert main(["coverage", "--init", str(src), "--write", str(out)]) == 2  # never written over


def test_cli_report(capsys):
    """The table reads the ledgers only (not the source texts): it runs in a fresh clone."""
    assert main(["coverage"]) == 0
    out = capsys.readouterr().out
    assert "not checkable, by reason:" in out
    for p in PAPERS:
        try:
            cov.load_ledger(p)
        except ValueError:
            continue
        assert p in out


def test_parse_latex_environments():
    tex = "\n".join([r"\begin{theorem}[Main]\label{thm:main}", "Let $x$.", r"\begin{align}", r"a &= b \label{eq:ab}",
                     r"\end{align}", r"\end{theorem}", "", r"\begin{equation*}", "c = d", r"\end{equation*}", "",
                     r"\begin{figure}", r"\caption{A plot.}", r"\end{figure}"])
    items = {i.key: (i.kind, i.start, i.end) for i in cov.parse(tex)}
    assert items == {"Theorem thm:main": ("statement", 1, 6), "eq. eq:ab": ("equation", 3, 5),
                     "display L8": ("display", 8, 10), "Figure L12": ("figure", 12, 14)}
