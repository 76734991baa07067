"""``python -m verify new <paper-key> [--dir DIR]``: a claims package for one's own paper, green as written.

Writes, under DIR (default: the current folder)::

    <key>/__init__.py            PAPER = Paper(...): the paper's key, file or citation, title (edit them)
    <key>/claims.py              CLAIMS: one commented example claim of each common kind (exact expectation,
                                 asymptotic limit, bound searched by hypothesis, probability bound), all true
                                 textbook facts, to be replaced by the paper's own statements
    <key>/ledger.py              the coverage ledger stub: which numbered statement each claim checks (TODO), and
                                 where the paper's text is (a path relative to the package; ``coverage --check``)
    tests/test_<key>.py          one pytest item per claim (verify.plugin.ClaimSet)
    tests/expected_verdicts.json the reviewed verdicts of the four examples at the quick profile

Nothing is overwritten: an existing file is an error (exit 2), except expected_verdicts.json, which only gains the
examples' entries it lacks.
"""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

INIT = '''"""Claims of {key}: TODO the paper's authors, title, venue and year.

Every module of this package that defines ``CLAIMS`` is loaded by ``python -m verify ... --claims {key}`` and by
the pytest file tests/test_{key}.py (docs/tutorial.md in ftverify).
"""
from verify.kit import Paper

# the paper's key (the prefix of every claim id), its file or citation (a path, "arXiv:...", a DOI) and its title
PAPER = Paper("{key}", "TODO arXiv:0000.00000", "TODO Authors, Title (Venue Year)")
'''

CLAIMS = '''"""Claims of {key}, one per statement.  Four examples, one of each common kind, all textbook facts that hold:
replace them with the paper's own statements, one at a time, and keep each one's reviewed verdict in
tests/expected_verdicts.json.

A claim is a declaration: the statement as the paper writes it (LaTeX), its assumptions and the parameter domain
they allow, the stated closed form (sympy), and a check (a judge strategy from verify.kit) wired to a sampler of the
literal random experiment (torch, batched: one value per trial).  The judge gives every claim a verdict
(confirmed / refuted / inconclusive) with its evidence.
"""
from __future__ import annotations

import math

import mpmath as mp
import sympy as sp
import torch

from verify.kit import (STATED, Asymptotic, Check, Claim, Domain, Expectation, Kind, Param, ProbabilityBound,
                        PropertySearch, Source, per_profile)

sigma, n, t, x = sp.symbols("sigma n t x", positive=True)
SIGMA = Param("sigma", 0, math.inf, lower_open=True, doc="standard deviation of the data, sigma > 0")
N = Param("n", 2, math.inf, integer=True, doc="sample size, n >= 2")


# --- 1. an exact finite-size expectation: E[sampler] = stated form at every grid point (Monte Carlo mean, t-test,
#        95 % CI inside the tolerance max(0.002, 2 %) to confirm).  Here: the sample variance is unbiased.
def _sample_variance(p, trials, gen, ctx):
    """Per trial: the unbiased sample variance of n draws of N(0, sigma^2) -> (trials,)."""
    z = torch.randn(trials, int(p["n"]), generator=gen, dtype=ctx.dtype) * p["sigma"]
    return z.var(dim=1, unbiased=True)


EXACT = Claim(
    id="{key}.example.exact", kind=Kind.EXACT,
    source=Source("{key}", "TODO e.g. Lemma 1, eq. (3)"),              # where the statement stands in the paper
    statement=r"\\mathbb E\\,\\frac{{1}}{{n-1}}\\sum_i (z_i-\\bar z)^2=\\sigma^2",   # as the paper writes it
    assumptions="z_1, ..., z_n i.i.d. N(0, sigma^2), n >= 2",
    domain=Domain((N, SIGMA)),                                         # what the assumptions allow
    stated=sigma**2,                                                   # the stated form, symbols named like the point
    check=Expectation(
        points=per_profile(quick=[{{"n": 5, "sigma": 1.0}}, {{"n": 20, "sigma": 2.0}}],
                           standard=[{{"n": k, "sigma": s}} for k in (2, 5, 20, 100) for s in (0.5, 1.0, 2.0)]),
        predicted=STATED,                                              # the number tested IS the stated form
        sampler=_sample_variance,
        trials=per_profile(quick=40000, standard=200000)))             # trials per point (default: the profile's)


# --- 2. an asymptotic limit (n -> oo): never one size against the limit.  Monte Carlo against our exact
#        finite-size form at >= 3 sizes, plus sympy's limit of that form, which must equal the stated limit.
#        Here: the maximum-likelihood variance (1/n) tends to sigma^2.
def _ml_variance(p, trials, gen, ctx):
    """Per trial: the maximum-likelihood (1/n) variance of n draws of N(0, sigma^2) -> (trials,)."""
    z = torch.randn(trials, int(p["n"]), generator=gen, dtype=ctx.dtype) * p["sigma"]
    return z.var(dim=1, unbiased=False)


FINITE_ML = sigma**2 * (n - 1) / n                                     # our exact E at finite n


def _ml_limit_checks():
    lim = sp.limit(FINITE_ML, n, sp.oo)
    return [Check("lim_(n->oo) of the finite form = stated limit", sp.simplify(lim - sigma**2) == 0,
                  f"sympy: {{sp.sstr(lim)}}")]


ASYMPTOTIC = Claim(
    id="{key}.example.asymptotic", kind=Kind.ASYMPTOTIC,
    source=Source("{key}", "TODO e.g. Theorem 2"),
    statement=r"\\frac1n\\sum_i (z_i-\\bar z)^2\\to\\sigma^2\\quad(n\\to\\infty)",
    assumptions="z_1, ..., z_n i.i.d. N(0, sigma^2); the limit n -> infinity",
    domain=Domain((SIGMA,)),
    stated=sigma**2, derived=FINITE_ML,
    check=Asymptotic(
        points=[{{"sigma": 1.0}}],
        sizes=per_profile(quick=(8, 16, 32), standard=(16, 32, 64, 128)),   # the size parameter's sequence
        finite_params=lambda p, size: {{"n": size, "sigma": p["sigma"]}},     # the finite-size point at one size
        stated=STATED, finite=lambda p: p["sigma"] ** 2 * (p["n"] - 1) / p["n"],
        limit_checks=_ml_limit_checks, sampler=_ml_variance, size_name="n",
        trials=per_profile(quick=20000, standard=100000)))


# --- 3. an inequality over the whole stated domain: hypothesis searches for a violation (evaluate in high
#        precision, mpmath) and shrinks it to a minimal counterexample.  Here: log(1 + x) <= x for x > -1.
def _log_bound_holds(p):
    with mp.workdps(50):   # log1p, not log(1 + x): at x = -4e-165, 1 + x rounds to 1 even at 50 digits
        return mp.log1p(mp.mpf(p["x"])) <= mp.mpf(p["x"])


BOUND = Claim(
    id="{key}.example.bound", kind=Kind.BOUND,
    source=Source("{key}", "TODO e.g. eq. (7)"),
    statement=r"\\log(1+x)\\le x\\quad(x>-1)",
    assumptions="x > -1",
    domain=Domain((Param("x", -1, math.inf, lower_open=True, doc="x > -1"),)),
    stated=sp.log(1 + x), stated_bound="lower",                       # the stated side; say which way it bounds
    check=PropertySearch("log(1 + x) <= x", holds=_log_bound_holds,
                         bounds={{"x": (-1, 1e6)}}))                     # a finite search box for an infinite end


# --- 4. a bound holding with probability >= 1 - delta: the literal experiment repeated; the sampler returns
#        1.0 where the bound fails on a trial, the exact binomial test compares the violation rate with delta.
#        Here: the Gaussian tail bound P(|mean| >= t) <= 2 exp(-n t^2 / (2 sigma^2)).
def _tail_violations(p, trials, gen, ctx):
    z = torch.randn(trials, int(p["n"]), generator=gen, dtype=ctx.dtype) * p["sigma"]
    return (z.mean(dim=1).abs() >= p["t"]).to(ctx.dtype)


PROB_BOUND = Claim(
    id="{key}.example.prob_bound", kind=Kind.PROB_BOUND,
    source=Source("{key}", "TODO e.g. Lemma 3"),
    statement=r"\\Pr\\big(|\\bar z|\\ge t\\big)\\le 2e^{{-nt^2/(2\\sigma^2)}}",
    assumptions="z_1, ..., z_n i.i.d. N(0, sigma^2), t > 0",
    domain=Domain((N, SIGMA, Param("t", 0, math.inf, lower_open=True, doc="deviation t > 0"))),
    stated=2 * sp.exp(-n * t**2 / (2 * sigma**2)), stated_bound="upper",
    check=ProbabilityBound(
        points=per_profile(quick=[{{"n": 10, "sigma": 1.0, "t": 0.5}}],
                           standard=[{{"n": k, "sigma": 1.0, "t": u}} for k in (10, 50) for u in (0.3, 0.5)]),
        delta=lambda p: 2 * math.exp(-p["n"] * p["t"] ** 2 / (2 * p["sigma"] ** 2)),   # the stated delta
        sampler=_tail_violations))


CLAIMS = [EXACT, ASYMPTOTIC, BOUND, PROB_BOUND]
'''

LEDGER = '''"""Coverage ledger of {key}: every labelled item of the paper and the claims that check it, or why none.

TODO: one entry per theorem, lemma, proposition, corollary and numbered equation of the paper (the suite's own
papers keep theirs in verify/claims/<paper>/ledger.py, in this format): the item, its first and last line in the
source text, the ids of the claims that test it, or a reason (e.g. "definition") when none does.
`python -m verify coverage --claims {key} --init PAPER_TEXT --write NEW_FILE` lists the labelled items of the text;
`python -m verify coverage --claims {key}` tabulates this ledger, `--check` compares it with the text.
"""
from verify.kit import Ledger, LedgerEntry as E

# the paper's key, then its text (markdown, LaTeX, or plain text extracted from the PDF): a path relative to this
# folder, or absolute
LEDGER = Ledger("{key}", "paper.txt", [
    # E("Theorem 1", 10, 20, "{key}.thm1"),
    # E("eq. (2)", 25, 25, reason="definition", note="the model"),
])
'''

TEST = '''"""Every claim of {key} is a pytest item (the ftverify plugin): its verdict at the quick profile must equal
the verdict pinned in expected_verdicts.json.  `python -m pytest tests/` runs them; `-k asymptotic` selects one;
`--ftverify-write-expected` pins the verdicts of new claims (review them, then commit the file)."""
from verify.plugin import ClaimSet

test_claim = ClaimSet("../{key}", expected="expected_verdicts.json", profile="quick")
'''

#: the reviewed quick verdicts of the four example claims (checked by tests/test_plugin.py, which runs them)
EXAMPLE_VERDICTS = {"example.exact": "confirmed", "example.asymptotic": "confirmed", "example.bound": "confirmed",
                    "example.prob_bound": "confirmed"}


def scaffold(key: str, folder: Path) -> list[Path]:
    """Write the claims package of ``key`` under ``folder``; return the files written.  ValueError (one line) on a
    bad key or an existing file."""
    if not (key.isidentifier() and key.isascii() and key == key.lower()):
        raise ValueError(f"the paper key {key!r} must be a lower-case identifier such as mypaper2026 "
                         "(it is the package name and the prefix of every claim id)")
    if importlib.util.find_spec(f"verify.claims.{key}") is not None:
        raise ValueError(f"{key!r} is a built-in source of the suite (verify/claims/{key}); choose another key")
    try:
        taken = importlib.util.find_spec(key) is not None and not (folder / key).exists()
    except (ImportError, ValueError):
        taken = False
    if taken:
        raise ValueError(f"a module named {key!r} is already importable here; choose another paper key")
    files = {folder / key / "__init__.py": INIT, folder / key / "claims.py": CLAIMS,
             folder / key / "ledger.py": LEDGER, folder / "tests" / f"test_{key}.py": TEST}
    existing = [str(f) for f in files if f.exists()]
    if existing:
        raise ValueError(f"{existing[0]} exists already: nothing was written (choose another --dir or key)")
    written = []
    for f, text in files.items():
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text.format(key=key))
        written.append(f)
    expected = folder / "tests" / "expected_verdicts.json"
    try:
        pinned = json.loads(expected.read_text()) if expected.exists() else {}
    except ValueError:
        raise ValueError(f"{expected} is not a JSON object of pinned verdicts; nothing more was written") from None
    for label, verdict in EXAMPLE_VERDICTS.items():
        pinned.setdefault(f"{key}.{label}", verdict)
    expected.write_text(json.dumps(dict(sorted(pinned.items())), indent=1) + "\n")
    written.append(expected)
    return written
