"""Every claim of hastie2019 is a pytest item (the ftverify plugin): its verdict at the quick profile must equal
the one pinned in expected_verdicts.json.  `python -m pytest` here; `-k misprint` selects one claim."""
from verify.plugin import ClaimSet

test_claim = ClaimSet("../hastie2019", expected="expected_verdicts.json", profile="quick")
