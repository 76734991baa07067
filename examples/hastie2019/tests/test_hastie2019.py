"""Every claim of hastie2019 is a pytest item (the ftverify plugin): its verdict at the quick profile must equal
the one pinned in expected_verdicts.json.  `python -m pytest` here; `-k misprint` selects one claim."""
from verify.plugin import ClaimSet

test_claim = ClaimSet("../hastie2019", expected="expected_verdicts.json", profile="quick")


def test_installed_package_is_found_with_no_flag():
    """Once installed (pip install -e examples/hastie2019), `python -m verify list` finds these claims through the
    entry point ftverify.claims, with no --claims flag."""
    import importlib.metadata

    import pytest

    from verify.run.registry import all_claims

    try:
        importlib.metadata.distribution("ftverify-hastie2019")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("not installed: run from the source tree (the ClaimSet above loads it by path)")
    assert {"hastie2019.thm1", "hastie2019.thm1.misprint"} <= {c.id for c in all_claims()}
