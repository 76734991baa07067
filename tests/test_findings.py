"""No finding in notes only (issue 37): a claim's notes may mention a discrepancy of its source only by naming the
claim that reports it.

A sentence of a claim's notes that describes a discrepancy (a typo, a misprint, "should read", "for ... read", a
slip, an erratum, an inconsistency, something wrong, a step that does not follow) must name a claim of the registry in that same
sentence, unless the claim itself reports it (its verdict is refuted or does not extend, in the quick pins
``tests/expected_verdicts.json`` or the committed standard run ``reports/results.json``).  Every discrepancy the
suite establishes is a claim with a verdict (most typos: an exact sympy identity of the printed step against the
correct one); a sentence in a note is a finding lost to the report.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: words that describe a discrepancy of the source ("for X read Y" as an erratum writes it, not "we read X as Y")
DISCREPANCY = re.compile(r"\btypos?\b|\binconsisten(?:t|cy)\b|\bshould read\b|\bmisprint|\bwrong\b|\bdoes not follow\b|\bdo not follow\b|"
                         r"\bslips?\b|\berrat(?:um|a)\b|\bfor\b[^.;:]{1,60}(?<!we )(?<!is )(?<!are )(?<!be )\bread\b(?! as)",
                         re.I)
#: a match that says there is none ("not an erratum", "never read as an erratum", "neither case is an erratum")
_NEGATED = re.compile(r"\b(?:not|never|neither|nor|no)\b(?:\W+\w+){0,3}\W*$", re.I)
#: a sentence about a hypothetical wrong version: a power witness or a mutant
_HYPOTHETICAL = re.compile(r"^power\b|\bwitness|\bmutant", re.I)
#: ... or one match: "a wrong projector would show"
_WOULD = re.compile(r"[^;]{0,80}\bwould\b")


def _dismissed(s: str, m: re.Match) -> bool:
    """A match that says there is no discrepancy, or names a hypothetical one."""
    before = s[:m.start()]
    return bool(_NEGATED.search(before)) or (m.group(0).lower() == "wrong" and re.search(r"\ban? $", before, re.I)
                                             is not None and _WOULD.match(s[m.end():]) is not None)


#: a discrepancy the note itself says it leaves unchecked: lost whatever the claim's own verdict
NOTED_ONLY = re.compile(r"\balso noted\b|\bnoted(?: here)?,? (?:but )?not (?:tested|encoded)\b|^not encoded\b", re.I)
_SENTENCE = re.compile(r"(?<=[.;!?])\s+(?=[A-Z(\"'])|\n\s*\n")
_ID = re.compile(r"\b[a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+")   # a claim id, or one short of its paper key

# Claims allowed a discrepancy written in a note that no claim names (none: each became a claim with a verdict, or its
# note names the claim that reports it); a fixed entry fails test_the_allow_list_holds_only_current_offenders.
ALLOW: set[str] = set()


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text or "") if s.strip()]


def unreported(notes: str, own_id: str, ids: set[str], reports_itself: bool) -> list[str]:
    """The sentences of ``notes`` that describe a discrepancy without naming another claim of ``ids`` in the same
    sentence (by its id, or by the id without its paper key, "thm3.proof.chain" in a note of linearization2025).
    A claim that reports a discrepancy itself (refuted or does not extend) may describe it; a sentence that says a
    discrepancy is "noted, not tested" is flagged whatever the claim's verdict."""
    paper = own_id.split(".", 1)[0]
    out = []
    for s in sentences(notes):
        noted_only = bool(NOTED_ONLY.search(s))
        if reports_itself and not noted_only:
            continue
        if not noted_only and (_HYPOTHETICAL.search(s) or all(_dismissed(s, m) for m in DISCREPANCY.finditer(s))):
            continue
        named = {m.group(0).rstrip(".") for m in _ID.finditer(s)}
        named = {n for n in named | {f"{paper}.{n}" for n in named} if n in ids and n != own_id}
        if not named:
            out.append(s)
    return out


def _verdicts() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for cid, v in json.loads((ROOT / "tests" / "expected_verdicts.json").read_text()).items():
        out.setdefault(cid, set()).add(v)
    results = ROOT / "reports" / "results.json"
    if results.exists():
        for c in json.loads(results.read_text())["claims"]:
            out.setdefault(c["id"], set()).add(c["verdict"])
    return out


@pytest.fixture(scope="module")
def flagged() -> dict[str, list[str]]:
    from verify.run.registry import all_claims

    claims = all_claims()
    ids = {c.id for c in claims}
    verdicts = _verdicts()
    out = {}
    for c in claims:
        itself = bool(verdicts.get(c.id, set()) & {"refuted", "does not extend"})
        found = unreported(c.notes, c.id, ids, itself)
        if found:
            out[c.id] = found
    return out


def test_no_discrepancy_lives_only_in_a_note(flagged):
    new = {k: v for k, v in flagged.items() if k not in ALLOW}
    assert not new, ("discrepancies written in notes that no claim reports (make each a claim with a verdict, or "
                     "name the claim that reports it in the same sentence):\n"
                     + "\n".join(f"  {k}: {s[:200]}" for k, v in sorted(new.items()) for s in v))


def test_the_allow_list_holds_only_current_offenders(flagged):
    fixed = sorted(ALLOW - set(flagged))
    assert not fixed, f"fixed, delete from ALLOW in tests/test_findings.py: {fixed}"


@pytest.mark.parametrize("note, flagged_", [
    ("Eq. (117) has e^{r^2/2}; it should read e^{-r^2/2}.", True),
    ("The printed n - d is a typo for d - n (reported by src2001.eq143_sign).", False),
    ("For lambda_l read lambda_l^2 in (150).", True),
    ("The step after (93) does not follow as printed.", True),
    ("A misprint of (12), src2001.eq12 reports it.", False),
    ("The bound is tested at n = 4, 8, 16.", False),
    ("The measured slope is 4: the bound holds but is not tight; this is not an erratum.", False),
    ("For sigma > 0 we read P theta as X^+ y (extension).", False),
    ("Power: a witness with a wrong exponent is rejected.", False),
    ("A wrong projector would show in the gradient.", False),
    ("y_P: a notation inconsistency, not a wrong step (with y_Q the line would not type-check).", True),
    ("The second slide repeats Theorem 2 under Lemma 1's title (a labelling slip).", True),
    ("The slip of src2001.other is named elsewhere; this sentence names only itself: src2001.me", False),
])
def test_the_detector(note, flagged_):
    ids = {"src2001.eq143_sign", "src2001.eq12", "src2001.other", "src2001.me"}
    assert bool(unreported(note, "src2001.me", ids, reports_itself=False)) is flagged_
    assert unreported(note, "src2001.me", ids, reports_itself=True) == []


def test_a_short_id_of_the_same_paper_names_a_claim_and_noted_only_is_flagged_even_when_refuted():
    ids = {"src2001.me", "src2001.thm3.chain"}
    assert unreported("The other sign slips are thm3.chain.", "src2001.me", ids, False) == []
    assert unreported("L499 also writes m_Q for n_Q^2: a symbol slip, noted here, not tested.", "src2001.me", ids,
                      True)


def test_a_claim_naming_only_itself_is_flagged():
    assert unreported("A typo in (3): src2001.me.", "src2001.me", {"src2001.me"}, False)
