"""Stored results keyed on the code a claim reaches (verify/run/reach.py, verify/run/cache.py; issue 35): a move, a module
rename, a docstring or an edit of code the claim does not use keeps the key; an edit of code it uses changes it."""
from __future__ import annotations

import importlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from verify.run import reach
from verify.run.cache import claim_code

ROOT = Path(__file__).resolve().parents[1]

FORMS = '''
"""Closed forms of the tiny package."""
SCALE = 3


def double(x, k=2):
    """Twice x, scaled."""
    return k * x * SCALE


def unused(x):
    return x + 1


def make(c):
    def inner(x):
        return x + c
    return inner
'''

CLAIMS = '''
from verify.kit import Check, Claim, Custom, Domain, Evidence, Kind, Source
from .{forms} import double, make

SHIFT = make({shift})


def _check(claim, ctx):
    return Evidence(checks=[Check("double", double(1.0) + SHIFT(0.0) == 11.0)])


CLAIM = Claim(id="tiny.c", kind=Kind.SYMBOLIC, source=Source("tiny", "eq. (1)"), statement="2x",
              assumptions="none", domain=Domain(()), check=Custom(_check), notes="{notes}")
'''

_COUNT = [0]


def _key(tmp_path: Path, files: dict[str, str], forms: str = "forms", shift: int = 5, notes: str = "n") -> str:
    """Write a package (a fresh top-level name each time: no stale bytecode, no sys.modules reuse), import its
    claim, return its code hash."""
    _COUNT[0] += 1
    pkg = tmp_path / f"tinykeys{_COUNT[0]}"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, text in files.items():
        (pkg / f"{name}.py").write_text(textwrap.dedent(text))
    (pkg / "claims.py").write_text(CLAIMS.format(forms=forms, shift=shift, notes=notes))
    sys.path.insert(0, str(tmp_path))
    try:
        return claim_code(importlib.import_module(f"{pkg.name}.claims").CLAIM)
    finally:
        sys.path.remove(str(tmp_path))


def test_layout_docs_and_unused_code_keep_the_key(tmp_path):
    base = _key(tmp_path, {"forms": FORMS})
    assert _key(tmp_path, {"forms": FORMS}) == base                           # another package name
    assert _key(tmp_path, {"shapes": FORMS}, forms="shapes") == base          # the module renamed
    moved = FORMS.replace('def double(x, k=2):\n    """Twice x, scaled."""\n    return k * x * SCALE\n', "")
    assert moved != FORMS
    more = 'from .forms import SCALE\n\n\ndef double(x, k=2):\n    return k * x * SCALE\n'
    claims_more = {"forms": moved, "more": more, "both": "from .forms import make\nfrom .more import double\n"}
    assert _key(tmp_path, claims_more, forms="both") == base                  # moved to another module
    assert _key(tmp_path, {"forms": FORMS.replace("x + 1", "x + 2")}) == base  # a function it does not use
    shifted = "\n\n# a comment\n\n" + FORMS.replace("Twice x, scaled.", "Two times x.")
    assert _key(tmp_path, {"forms": shifted}) == base                         # docstring, comments, line numbers
    assert _key(tmp_path, {"forms": FORMS}, notes="other prose") == base      # the claim's prose


@pytest.mark.parametrize("edit", ["body", "constant", "default", "closure"])
def test_an_edit_of_code_the_claim_reaches_changes_the_key(tmp_path, edit):
    base = _key(tmp_path, {"forms": FORMS})
    if edit == "closure":
        assert _key(tmp_path, {"forms": FORMS}, shift=6) != base
        return
    new = {"body": FORMS.replace("k * x * SCALE", "k * SCALE * x"), "constant": FORMS.replace("SCALE = 3", "SCALE = 4"),
           "default": FORMS.replace("k=2", "k=3")}[edit]
    assert new != FORMS and _key(tmp_path, {"forms": new}) != base


def test_a_function_imported_inside_a_function_is_reached(tmp_path):
    lazy = FORMS + '\n\ndef lazy(x):\n    from .forms import double\n    return double(x)\n'
    files = {"forms": lazy, "use": "from .forms import make\n\n\ndef double(x):\n    from .forms import lazy\n"
                                    "    return lazy(x)\n"}
    base = _key(tmp_path, files, forms="use")
    files["forms"] = lazy.replace("SCALE = 3", "SCALE = 4")
    assert _key(tmp_path, files, forms="use") != base


def test_a_memo_or_a_lazy_global_its_module_writes_is_state_not_code(tmp_path):
    memo = FORMS + '\n\n_MEMO: dict = {}\n_POOL = None\n\n\ndef cached(x):\n    global _POOL\n    _POOL = _POOL or [1]\n' \
                   '    if x not in _MEMO:\n        _MEMO[x] = double(x)\n    return _MEMO[x]\n'
    files = {"forms": memo, "use": "from .forms import make\nfrom .forms import cached as double\n"}
    before = _key(tmp_path, files, forms="use")
    mod = importlib.import_module(f"tinykeys{_COUNT[0]}.forms")
    mod.cached(1.0)   # the memo fills, as a run fills it
    reach._LOCAL.clear()   # as in a fresh process
    assert mod._MEMO and mod._POOL and claim_code(importlib.import_module(f"tinykeys{_COUNT[0]}.claims").CLAIM) == before



def test_a_copy_or_pickle_of_an_instance_keeps_its_class_key():
    """copyreg caches ``__slotnames__`` on a class at the first copy or pickle of an instance (every ``--jobs``
    or Dask run pickles evidence): bookkeeping, not code, so the key is the one a fresh process computes."""
    import copy

    class Record:
        def __init__(self, x):
            self.x = x

    before = reach.reached_key(Record)
    assert "__slotnames__" not in vars(Record)
    copy.deepcopy(Record(1))   # copyreg's __reduce_ex__, as pickle's
    assert "__slotnames__" in vars(Record)
    reach._LOCAL.clear()   # as in a fresh process
    assert reach.reached_key(Record) == before

_ALL_KEYS = """
import json, sys
from verify.run.cache import claim_code
from verify.run.registry import all_claims
json.dump({c.id: claim_code(c) for c in all_claims()}, sys.stdout)
"""


def test_every_claim_has_a_key_the_same_in_every_process():
    """All built-in claims hash without error, to distinct keys, identical under two PYTHONHASHSEEDs."""
    def keys(seed: str) -> dict:
        r = subprocess.run([sys.executable, "-c", _ALL_KEYS], cwd=ROOT, capture_output=True, text=True,
                           env={"PYTHONPATH": str(ROOT), "PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"})
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    a, b = keys("1"), keys("2")
    assert len(a) >= 277 and a == b
    assert len(set(a.values())) == len(a)


def test_a_closure_memo_is_state_and_a_closure_constant_is_code():
    def make(scale):
        memo = {}

        def f(x):
            if x not in memo:
                memo[x] = scale * x
            return memo[x]
        return f

    f = make(2)
    before = reach.reached_key(f)
    f(1.0)
    reach._LOCAL.clear()
    assert reach.reached_key(f) == before and reach.reached_key(make(3)) != before
