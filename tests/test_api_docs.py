"""The API reference of the claim author's kit (docs/api, Sphinx autodoc), built from the docstrings.

Every public name of ``verify.kit`` says what each of its parameters is (``help(Expectation)`` explains them), the
reference lists every name of ``verify.kit.__all__``, and ``sphinx-build -W`` (warnings are errors) builds it.
"""
from __future__ import annotations

import enum
import importlib.util
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import verify.kit as kit

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "docs" / "api"

def _documented_parameters(obj) -> list[str]:
    """The parameters of ``obj``'s signature that its docstring does not name (as a whole word)."""
    doc = inspect.getdoc(obj) or ""
    names = [p for p in inspect.signature(obj).parameters if p not in ("self", "args", "kwargs")]
    return [p for p in names if not re.search(rf"(?<![A-Za-z0-9_]){re.escape(p)}(?![A-Za-z0-9_])", doc)]


CALLABLES = [n for n in kit.__all__ if n not in kit.CONSTANTS
             and not (inspect.isclass(getattr(kit, n)) and issubclass(getattr(kit, n), (enum.Enum, BaseException)))]


@pytest.mark.parametrize("name", CALLABLES)
def test_every_kit_name_documents_its_parameters(name):
    missing = _documented_parameters(getattr(kit, name))
    assert not missing, f"verify.kit.{name}: its docstring does not say what {missing} are (help({name}))"


def test_help_of_expectation_explains_its_parameters():
    doc = inspect.getdoc(kit.Expectation)
    for p in ("points", "predicted", "sampler", "tol", "trials", "corrected"):
        assert re.search(rf"^{p}\n\s+\S", doc, re.M), f"Expectation's docstring has no entry for {p}"


def test_the_reference_lists_every_kit_name():
    text = (API / "index.rst").read_text()
    listed = set(re.findall(r"^\.\. auto(?:class|function|data|exception):: (\w+)", text, re.M))
    assert listed == set(kit.__all__), (f"docs/api/index.rst misses {sorted(set(kit.__all__) - listed)}, "
                                        f"lists unknown {sorted(listed - set(kit.__all__))}")


@pytest.mark.skipif(importlib.util.find_spec("sphinx") is None,
                    reason="sphinx is not installed: pip install -e '.[docs]' (or '.[test]') to build the API reference")
def test_the_api_reference_builds_with_warnings_as_errors(tmp_path):
    r = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(API),
                        str(tmp_path / "html")], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"sphinx-build -W failed:\n{r.stderr[-4000:]}"
    page = (tmp_path / "html" / "index.html").read_text()
    assert 'id="verify.kit.Expectation"' in page and 'id="verify.kit.Divergence"' in page
