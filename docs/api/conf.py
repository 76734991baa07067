"""Sphinx configuration of the API reference of :mod:`verify.kit`, the claim author's kit, built from its docstrings.

    pip install -e ".[docs]"                      # or .[test], which includes it
    python -m sphinx -W -b html docs/api docs/api/_build   # warnings are errors (tests/test_api_docs.py runs this)

Every public name of ``verify.kit.__all__`` is documented (``index.rst`` lists them by group, as the kit groups
them); a name that is a constant takes its text from ``verify.kit.CONSTANTS`` (it has no docstring of its own).
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))   # this checkout's verify, derivations and numerics, installed or not

project = "ftverify: verify.kit"
author = "ftverify"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon"]
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_ivar = True
autodoc_member_order = "bysource"
autodoc_typehints = "none"          # the signatures carry the defaults; the docstrings say what each parameter is
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_static_path: list[str] = []
suppress_warnings: list[str] = []


def _constants(app, what, name, obj, options, lines):
    """A kit constant (STATED, DERIVED, ROLES, EVERY_VALUE) has no docstring: its line in ``verify.kit.CONSTANTS``."""
    import verify.kit as kit

    short = name.rsplit(".", 1)[-1]
    if what == "data" and name.startswith("verify.kit.") and short in kit.CONSTANTS:
        lines[:] = [kit.CONSTANTS[short]]


def setup(app):
    app.connect("autodoc-process-docstring", _constants)
