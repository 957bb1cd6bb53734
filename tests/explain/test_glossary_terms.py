"""The glossary's terms: each finds its own name, longer names first, Chinese names unshared."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from mapteach.explain.glossary_terms import TERMS, ruled_out_variants
from mapteach.i18n import tr


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


def test_every_ruled_out_name_is_found_with_its_preferred_term_outside_quotes_only():
    accepted = {name for term in TERMS.values() for name in term.zh_names}
    for term in TERMS.values():
        for name in set(term.zh_avoid) - accepted:
            assert (name, term.zh) in ruled_out_variants(f"这里写了{name}。"), name
            assert ruled_out_variants(f"「{name}」") == [], name


def _names(text: str) -> list[str]:
    return [name for name, _preferred in ruled_out_variants(text)]


def test_a_ruled_out_name_inside_an_accepted_one_or_accepted_elsewhere_is_not_found():
    assert _names("这里的精度很高") == ["精度"]
    assert _names("平均精度与「精度」") == []
    assert _names("平均准确率") == ["平均准确率"]
    assert _names("新的运行结果与「指导案例」") == ["运行结果"]
    assert _names("运行这个单元格") == [] and _names("这个单元") == ["单元"]
    assert _names("Cohen kappa 与逐位计算表") == ["逐位计算表", "逐位"]


def test_a_text_that_is_not_a_str_is_named_in_the_error():
    with pytest.raises(TypeError, match="must be a str, not list"):
        ruled_out_variants(["精度"])


def test_a_measure_is_a_noun_named_zhibiao_never_duliang():
    measure = TERMS["measure"]
    assert measure.zh == "指标" and _names("这个度量只看前 10 位") == ["度量"]
    assert measure.named_in("score_table needs one measure") and measure.named_in("two measures")
    assert not measure.named_in("P@k measures the share of relevant results")
    assert not measure.named_in("a p-value measures size") and not measure.named_in("ir_measures")


def test_a_correction_is_named_as_a_correction_not_as_the_rate_it_controls():
    for key in ("Holm", "Benjamini-Hochberg"):
        assert TERMS[key].zh.endswith(" 校正"), key
    bh = TERMS["Benjamini-Hochberg"]
    assert "错误发现率" not in bh.zh_names and bh.named_in("Benjamini–Hochberg at level 0.05")
    assert not bh.named_in("FDR: the share of false alarms among the significant pairs")


def test_bpref_names_what_it_counts_above_each_relevant_document_in_both_editions():
    bpref = next(term for term in TERMS.values() if term.english.startswith("bpref"))
    assert "judged non-relevant above } r" in bpref.formula
    assert "排在 } r \\text{ 之前的已标注不相关文档数" in bpref.formula_zh


def test_hit_at_k_s_other_name_is_the_same_measure_in_its_note():
    hit = TERMS["Hit@k"]
    assert hit.zh_also == ("命中率",) and "the hit rate is the same measure" in hit.note
    assert "命中率是同一个指标" in tr(hit.note, lang="zh")
