"""The glossary's terms: each finds its own name, longer names first, Chinese names unshared."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from mapteach.explain.glossary_terms import TERMS


@pytest.mark.parametrize("key", list(TERMS))
def test_every_term_is_found_in_its_own_name_before_any_other(key):
    """A text is searched in the glossary's order, so a longer phrase must come first."""
    name = TERMS[key].english
    first = next(other for other, term in TERMS.items() if term.named_in(name))
    assert first == key, f"{name!r} is read as {first!r}: list {key!r} before it"


def test_the_order_check_can_fail():
    names = {"precision": r"\bprecision\b", "R-precision": r"\bR-precision\b"}
    first = next(key for key, pattern in names.items() if re.search(pattern, "R-precision"))
    assert first == "precision"  # the wrong order: the shorter name wins


def test_no_chinese_name_belongs_to_two_terms():
    counts = Counter(name for term in TERMS.values() for name in term.zh_names)
    assert [name for name, count in counts.items() if count > 1] == []


def test_a_pool_of_documents_is_pooling_and_a_merged_list_is_not():
    pooling = TERMS["pooling"]
    assert pooling.named_in("a pool of depth 10") and pooling.named_in("the pooled judgments")
    assert pooling.named_in("MAP, pooled")
    assert not pooling.named_in("a pooled list is not MAP")
    assert not pooling.named_in("the two judges' pooled frequencies")
