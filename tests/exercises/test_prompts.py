"""Prompt templates: the facts of a list in words, in both languages, and a template filled
from the data with its errors named."""

from __future__ import annotations

import pytest

from mapteach.exercises.mistakes import spoken_list, spoken_ranks
from mapteach.exercises.prompts import fill_prompt, ranking_fields, relevant_ranks_text
from mapteach.i18n import language


@pytest.mark.parametrize(
    ("labels", "english", "chinese"),
    [
        ([0, 1], "one relevant result, at rank 2", "1 个相关文档，位于第 2 位"),
        (
            [1, 0, 0, 1, 0, 1],
            "3 relevant results, at ranks 1, 4 and 6",
            "3 个相关文档，位于第 1、4、6 位",
        ),
        ([1, 0, 1], "2 relevant results, at ranks 1 and 3", "2 个相关文档，位于第 1、3 位"),
        ([0, 0], "no relevant result", "没有相关文档"),
    ],
)
def test_relevant_ranks_in_words(labels, english, chinese):
    assert relevant_ranks_text(labels) == english
    with language("zh"):
        assert relevant_ranks_text(labels) == chinese


def test_spoken_ranks_are_listed_with_the_chinese_enumeration_comma():
    cases = ([], [7], [1, 2], [1, 2, 3])
    assert [spoken_ranks(ranks) for ranks in cases] == ["", "7", "1 and 2", "1, 2 and 3"]
    with language("zh"):
        assert [spoken_ranks(ranks) for ranks in cases] == ["", "7", "1、2", "1、2、3"]


def test_spoken_list():
    assert [spoken_list(items) for items in ([], [7], [1, 2], [1, 2, 3])] == [
        "",
        "7",
        "1 and 2",
        "1, 2 and 3",
    ]


def test_ranking_fields_are_the_datas_own():
    fields = ranking_fields([0, 1, 1], r=4, k=2, measure="AP@2", decimals=3)
    assert fields == {
        "labels": [0, 1, 1],
        "r": 4,
        "k": 2,
        "relevant_ranks": "2 relevant results, at ranks 2 and 3",
        "measure": "AP@2",
        "decimals": 3,
        "n": 3,
        "missed": 2,
    }


def test_fill_prompt_names_what_is_wrong():
    assert fill_prompt("{labels} has {n}", {"labels": [1], "n": 1}) == "[1] has 1"
    assert fill_prompt("no placeholder", {"labels": [1]}) == "no placeholder"
    with pytest.raises(ValueError, match=r"names \{lst\}, which this exercise does not fill; use"):
        fill_prompt("{lst}", {"labels": [1]})
    with pytest.raises(ValueError, match="not a valid template"):
        fill_prompt("{labels", {"labels": [1]})
    with pytest.raises(ValueError, match="must show its data through a placeholder"):
        fill_prompt("R = {r}", {"r": 1, "labels": [1]}, vary=True)
    assert fill_prompt("{relevant_ranks}", {"relevant_ranks": "x"}, vary=True) == "x"
