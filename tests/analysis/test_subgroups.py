"""Article 001's length buckets, and a comparison read group by group."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from mapteach.analysis import LENGTH_BUCKETS, compare_by_group, compare_scores, length_buckets
from mapteach.i18n import language

#: Article 001 §4.3, as quoted in notebook 11 (zh).
ARTICLE_001 = "最常用的是按“查询长度”分桶1-2词短尾、3-5词中尾、6词以上长尾。"
#: The article's words for its buckets, in English.
BUCKET_WORDS = {"短": "short", "中": "medium", "长": "long"}


def _article_buckets() -> dict[str, tuple[int, int | None]]:
    """The article's buckets read from its sentence: name -> (fewest, most) words."""
    found = {}
    for low, high, more, word in re.findall(r"(\d+)(?:-(\d+))?词(以上)?(.)尾", ARTICLE_001):
        found[BUCKET_WORDS[word]] = (int(low), None if more else int(high))
    return found


def test_the_buckets_are_the_articles():
    article = _article_buckets()
    assert len(article) == len(LENGTH_BUCKETS) == 3
    for label, fewest, most in LENGTH_BUCKETS:
        name = label.split(" ")[0]
        assert article[name] == (fewest, most), label


@pytest.mark.parametrize("words", range(1, 12))
def test_each_length_falls_in_the_articles_bucket(words):
    (name,) = [
        name for name, (low, high) in _article_buckets().items() if low <= words <= (high or 99)
    ]
    assert length_buckets({"q": words}).iloc[0].startswith(name)


def test_buckets_are_ordered_categories_even_when_empty_and_speak_chinese():
    buckets = length_buckets(pd.Series({"a": 4, "b": 1}))
    assert list(buckets.cat.categories) == [label for label, _, _ in LENGTH_BUCKETS]
    assert buckets.cat.ordered and buckets.tolist() == ["medium (3-5 words)", "short (1-2 words)"]
    with language("zh"):
        chinese = length_buckets({"a": 4})
    assert chinese.iloc[0] != "medium (3-5 words)" and "3～5" in chinese.iloc[0]


@pytest.mark.parametrize(
    ("words", "error", "message"),
    [
        ({"q7": 0}, ValueError, "query 'q7' must be at least 1 word; got 0"),
        ({"q7": 2.5}, TypeError, "query 'q7' must be a whole number of words; got 2.5"),
        ({"q7": True}, TypeError, "got True"),
    ],
)
def test_a_bad_length_is_named(words, error, message):
    with pytest.raises(error, match=message):
        length_buckets(words)


def test_each_group_gets_its_own_paired_tests():
    rng = np.random.default_rng(4)
    queries = [f"q{i:02d}" for i in range(20)]
    a = pd.Series(rng.uniform(0.2, 0.8, 20), index=queries)
    b = a + rng.normal(0.02, 0.05, 20)
    groups = pd.Series(["x" if i % 3 else "y" for i in range(20)], index=queries[::-1])
    table = compare_by_group(compare_scores(a, b), groups, n_resamples=200)
    assert list(table.index) == ["y", "x"]  # the order groups first appear, as given
    for name in table.index:
        inside = groups[groups == name].index
        assert table.loc[name, "queries"] == len(inside)
        assert table.loc[name, "mean_delta"] == pytest.approx((b[inside] - a[inside]).mean())
        assert table.loc[name, "p_ttest"] == pytest.approx(
            stats.ttest_rel(b[inside], a[inside]).pvalue
        )
        assert table.loc[name, "p_wilcoxon"] == pytest.approx(
            stats.wilcoxon(b[inside] - a[inside]).pvalue
        )


def test_a_categorical_keeps_its_order_and_drops_empty_groups():
    a = pd.Series({"q1": 0.2, "q2": 0.4, "q3": 0.5})
    b = pd.Series({"q1": 0.3, "q2": 0.6, "q3": 0.4})
    groups = length_buckets({"q1": 4, "q2": 1, "q3": 1})
    table = compare_by_group(compare_scores(a, b), groups, n_resamples=100)
    assert list(table.index) == ["short (1-2 words)", "medium (3-5 words)"]
    assert table.index.name == "query length" and table.attrs["measure"] == "AP"
    assert np.isnan(table.loc["medium (3-5 words)", "p_ttest"])  # one query: no t-test


def test_a_query_without_a_group_is_named():
    comparison = compare_scores(
        pd.Series({"q1": 0.2, "q2": 0.3}), pd.Series({"q1": 0.1, "q2": 0.5})
    )
    with pytest.raises(ValueError, match="query 'q2' of the comparison has no group"):
        compare_by_group(comparison, pd.Series({"q1": "short"}))
