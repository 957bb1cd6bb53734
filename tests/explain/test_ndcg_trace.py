"""nDCG with linear and exponential gains, traced and written out like AP."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach import get_example, ndcg_at_k
from mapteach.explain.ndcg_trace import LINE_WIDTH, NDCG_TRACE_COLUMNS, explain_ndcg, trace_ndcg
from mapteach.i18n import language
from mapteach.metrics.options import GAINS

#: Article 001's models A and B with grades, as notebook 05 grades them for illustration
#: (the article gives none): ordinary cases grade 1, the guiding case grade 3.
GRADES_A = [1, 0, 1, 0, 1, 0, 3, 0, 0, 0]
GRADES_B = [1, 3, 0, 0, 1, 0, 0, 1, 0, 0]


def test_the_grades_keep_article_001s_relevant_ranks():
    for name, grades in [("001_model_a", GRADES_A), ("001_model_b", GRADES_B)]:
        assert get_example(name).labels == tuple(int(g > 0) for g in grades)


@pytest.mark.parametrize(
    ("gain", "a", "b"), [("linear", 0.6329, 0.7881), ("exponential", 0.4929, 0.7147)]
)
def test_article_001_models_with_grades(gain, a, b):
    assert round(ndcg_at_k(GRADES_A, 10, gain=gain), 4) == a
    assert round(ndcg_at_k(GRADES_B, 10, gain=gain), 4) == b


def test_exponential_gain_by_hand():
    dcg = (2**1 - 1) / np.log2(2) + (2**3 - 1) / np.log2(3) + (2**2 - 1) / np.log2(5)
    idcg = (2**3 - 1) / np.log2(2) + (2**2 - 1) / np.log2(3) + (2**1 - 1) / np.log2(4)
    assert ndcg_at_k([1, 3, 0, 2], 4, gain="exponential") == pytest.approx(dcg / idcg)
    # a grade-3 document judged, never retrieved, counts in the ideal with gain 7
    assert ndcg_at_k([1, 0], 2, ideal=[3, 1], gain="exponential") == pytest.approx(
        1 / (7 + 1 / np.log2(3))
    )


@given(st.lists(st.integers(0, 1), max_size=30), st.integers(1, 40))
def test_binary_labels_have_the_same_gain_either_way(labels, k):
    assert ndcg_at_k(labels, k, gain="exponential") == ndcg_at_k(labels, k)  # 2^1 - 1 = 1


def test_unknown_gain_names_the_choices():
    assert GAINS == ("linear", "exponential")
    with pytest.raises(ValueError, match="gain must be one of 'linear', 'exponential'; got 'log'"):
        ndcg_at_k([1, 0], 2, gain="log")
    with pytest.raises(ValueError, match="gain must be one of"):
        trace_ndcg([1, 0], gain="exp")


def test_trace_of_model_b():
    table = trace_ndcg(GRADES_B, k=10)
    assert tuple(table.columns) == NDCG_TRACE_COLUMNS
    assert table["rank"].tolist() == list(range(1, 11))
    assert table["discount"].tolist() == np.log2(np.arange(2, 12)).tolist()
    assert table["ideal_gain"].tolist() == [3, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    assert table["contribution"].round(4).tolist()[:2] == [1.0, round(3 / np.log2(3), 4)]
    assert table.attrs == {
        "k": 10,
        "gain": "linear",
        "dcg": table["running_dcg"].iloc[-1],
        "idcg": table["running_idcg"].iloc[-1],
        "ndcg": ndcg_at_k(GRADES_B, 10),
    }
    exponential = trace_ndcg(GRADES_B, k=10, gain="exponential")
    assert exponential["grade"].tolist() == table["grade"].tolist()
    assert exponential["gain"].tolist()[:2] == [1.0, 7.0]
    assert round(exponential.attrs["ndcg"], 4) == 0.7147


def test_trace_goes_on_to_the_ideal_rankings_last_relevant_document():
    table = trace_ndcg([1, 0], ideal=[3, 1, 1, 0, 0])  # two relevant never retrieved
    assert table["grade"].tolist() == [1, 0, 0]
    assert table["ideal_gain"].tolist() == [3, 1, 1]
    assert table["running_ndcg"].iloc[-1] == ndcg_at_k([1, 0], 5, ideal=[3, 1, 1, 0, 0])
    assert trace_ndcg([1, 0, 1], k=2)["rank"].tolist() == [1, 2]


def test_trace_of_empty_and_all_zero_lists():
    assert trace_ndcg([]).empty
    assert trace_ndcg([]).attrs["ndcg"] == 0.0
    assert trace_ndcg([0, 0])["running_ndcg"].tolist() == [0.0, 0.0]


@st.composite
def graded_query(draw):
    """Grades of a ranked list, and the judged grades of the query (unretrieved ones too)."""
    grades = draw(st.lists(st.integers(0, 4), max_size=30))
    unretrieved = draw(st.lists(st.integers(0, 4), max_size=5))
    return grades, (None if not unretrieved and draw(st.booleans()) else grades + unretrieved)


@given(graded_query(), st.none() | st.integers(1, 40), st.sampled_from(GAINS))
def test_trace_reproduces_ndcg_at_k_bit_for_bit(query, k, gain):
    grades, ideal = query
    table = trace_ndcg(grades, k=k, ideal=ideal, gain=gain)
    expected = ndcg_at_k(grades, k or 10_000, ideal=ideal, gain=gain)  # no cutoff: all ranks
    assert table.attrs["ndcg"] == expected
    if not table.empty:
        assert table["running_ndcg"].iloc[-1] == expected
        assert table["running_dcg"].iloc[-1] == table.attrs["dcg"]
    # each running value is nDCG at that rank
    for rank in table["rank"].iloc[:3]:
        assert table["running_ndcg"].iloc[rank - 1] == ndcg_at_k(
            grades, rank, ideal=ideal, gain=gain
        )
    assert explain_ndcg(grades, k=k, ideal=ideal, gain=gain).value == expected


def test_explanations_of_the_models():
    assert explain_ndcg(GRADES_A, k=10) == (
        "DCG@10  = 1/log2(2) + 1/log2(4) + 1/log2(6) + 3/log2(8) = 2.8869\n"
        "IDCG@10 = 3/log2(2) + 1/log2(3) + 1/log2(4) + 1/log2(5) = 4.5616\n"
        "nDCG@10 = DCG@10 / IDCG@10 = 2.8869 / 4.5616 = 0.6329"
    )
    assert explain_ndcg(GRADES_B, k=10, gain="exponential") == (
        "DCG@10  = 1/log2(2) + 7/log2(3) + 1/log2(6) + 1/log2(9) = 6.1188\n"
        "IDCG@10 = 7/log2(2) + 1/log2(3) + 1/log2(4) + 1/log2(5) = 8.5616\n"
        "nDCG@10 = DCG@10 / IDCG@10 = 6.1188 / 8.5616 = 0.7147"
    )
    assert explain_ndcg([1, 0, 1], ideal=[3, 1, 1]) == (
        "DCG  = 1/log2(2) + 1/log2(4) = 1.5000\n"
        "IDCG = 3/log2(2) + 1/log2(3) + 1/log2(4) = 4.1309\n"
        "nDCG = DCG / IDCG = 1.5000 / 4.1309 = 0.3631"
    )
    assert explain_ndcg([0, 1], ideal=[1], decimals=2) == (
        "DCG  = 1/log2(3) = 0.63\nIDCG = 1/log2(2) = 1.00\nnDCG = DCG / IDCG = 0.63 / 1.00 = 0.63"
    )
    assert explain_ndcg([0, 0], k=2) == (
        "nDCG@2 = 0 (no judged document of the query has a positive gain)"
    )
    assert explain_ndcg([0, 0], ideal=[2]) == (
        "DCG  = 0.0000\nIDCG = 2/log2(2) = 2.0000\nnDCG = DCG / IDCG = 0.0000 / 2.0000 = 0.0000"
    )


def test_a_long_sum_goes_on_under_its_equals_sign():
    lines = explain_ndcg([1] * 12, k=12).splitlines()
    assert lines[0].startswith("DCG@12  = 1/log2(2) + ") and lines[1].startswith(" " * 8 + "+ ")
    assert lines[2] == "        + 1/log2(13) = 5.0927"
    assert lines[3].startswith("IDCG@12 = ") and lines[-1].startswith("nDCG@12 = DCG@12 / ")


#: One term of a DCG as :func:`explain_ndcg` writes it: gain / log2(rank + 1).
TERM = re.compile(r"(\d+(?:\.\d+)?)/log2\((\d+)\)")


@given(
    st.lists(st.integers(0, 3), min_size=1, max_size=60),
    st.one_of(st.none(), st.integers(1, 60)),
    st.lists(st.integers(0, 3), max_size=60),
    st.sampled_from(GAINS),
)
def test_no_line_is_too_long_and_every_break_falls_between_terms(grades, k, extra, gain):
    ideal = [*grades, *extra]
    text = explain_ndcg(grades, k=k, ideal=ideal, gain=gain)
    lines = text.splitlines()
    assert all(len(line) <= LINE_WIDTH for line in lines), text
    if len(lines) == 1:  # nothing relevant judged
        assert text.value == 0.0
        return
    blocks: list[list[str]] = []
    for line in lines[:-1]:
        if line.startswith(" "):
            blocks[-1].append(line)
        else:
            blocks.append([line])
    sums = {}
    for first, *rest in blocks:
        name = first.partition(" = ")[0]
        for line in rest:  # a continuation starts under the "=", with "+" or "="
            assert line[: len(name) + 1].isspace() and line[len(name) + 1] in "+=", text
        whole = " ".join(line.strip() for line in [first, *rest]).partition(" = ")[2]
        *terms, total = whole.split(" = ")
        # a break inside a term would leave a space in it: every term must be whole
        assert all(TERM.fullmatch(term) for term in " + ".join(terms).split(" + ") if terms)
        sums[name.strip().split("@")[0]] = sum(
            float(g) / np.log2(int(d)) for g, d in TERM.findall(" ".join(terms))
        )
        assert float(total) == pytest.approx(sums[name.strip().split("@")[0]], abs=1e-4)
    dcg, idcg = sums["DCG"], sums["IDCG"]
    depth = k or 10_000
    assert dcg / idcg == pytest.approx(ndcg_at_k(grades, depth, ideal=ideal, gain=gain))


def test_explanation_forms():
    explanation = explain_ndcg([1, 0, 2], k=3)
    assert explanation.latex == (
        r"\mathrm{nDCG@3} = \frac{\mathrm{DCG}}{\mathrm{IDCG}} = "
        r"\frac{\frac{1}{\log_2 2} + \frac{2}{\log_2 4}}{\frac{2}{\log_2 2} + \frac{1}{\log_2 3}}"
        r" = \frac{2.0000}{2.6309} = 0.7602"
    )
    assert explanation.markdown.startswith("$$")
    assert explanation.note == (
        "Discount log2(rank + 1), linear gains (gain = grade, as trec_eval). IDCG is the DCG "
        "of the ideal ranking, the query's judged documents best first: gains 2, 1."
    )
    assert explanation.value == ndcg_at_k([1, 0, 2], 3)
    with pytest.raises(ValueError, match="decimals must be an integer >= 0; got -1"):
        explain_ndcg([1], decimals=-1)


def test_the_ideal_gains_in_chinese_are_listed_with_the_enumeration_comma():
    with language("zh"):
        note = explain_ndcg([0, 2, 3, 0, 1], k=3, ideal=[3, 2, 2, 1]).note
    assert note.endswith("增益为 3、2、2。"), note
