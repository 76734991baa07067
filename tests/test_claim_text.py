"""A claim's prose fields hold no control character: "\\frac" in a string that is not raw is a form feed then
"rac", which the reports would print as "rac" (found in three built-in claims; now refused at declaration)."""
from dataclasses import replace

import pytest

from verify.run.registry import all_claims


def test_every_claim_text_is_free_of_control_characters():
    for c in all_claims():
        for name in ("statement", "assumptions", "notes", "corrected"):
            text = getattr(c, name) or ""
            assert not any(ord(ch) < 32 and ch != "\n" for ch in text), (c.id, name)


@pytest.mark.parametrize("text", ["\frac{1}{2}", "x\text{ if } y", "\theta"])
def test_a_non_raw_latex_string_is_refused_with_a_hint(text):
    c = all_claims()[0]
    with pytest.raises(ValueError, match="not raw"):
        replace(c, statement=text)
