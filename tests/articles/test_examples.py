"""The articles' worked examples, to the digits the articles printed."""

from __future__ import annotations

import pytest

from mapteach import EXAMPLES, examples_table, get_example, precision_at_k
from mapteach.articles.examples import ARTICLES, MapExample, RankingExample
from mapteach.exercises.misconceptions import final_hits_in_every_numerator


@pytest.mark.parametrize(
    ("name", "ap"),
    [
        ("003_a", 0.8056),
        ("003_b", 0.5556),
        ("003_c", 0.3194),
        ("003_single_rank_5", 0.2),
        ("003_single_rank_1", 1.0),
        ("000_five_docs", 0.5833),
        ("000_second_query", 0.75),
        ("001_legal", 0.6111),
        ("001_model_a", 0.7095),
        ("001_model_b", 0.775),
    ],
)
def test_ap_to_four_decimals(name, ap):
    assert round(get_example(name).ap, 4) == ap


def test_late_relevant_variant_is_0_2815_not_the_printed_0_48():
    example = get_example("001_legal_late")
    assert round(example.ap, 4) == 0.2815
    assert example.printed["AP"] == "0.48"
    check = example.check()
    assert not check["agrees"].item()
    # the article's slip, reproduced from the example's own labels: the final hit
    # count in every numerator gives the printed value at its printed precision
    slip = final_hits_in_every_numerator(example.labels, n_relevant=example.n_relevant)
    assert round(slip, 2) == float(example.printed["AP"])
    assert round(example.ap, 2) != float(example.printed["AP"])


@pytest.mark.parametrize(("name", "value"), [("003_abc", 0.5602), ("000_two_queries", 0.6667)])
def test_map_examples(name, value):
    assert round(get_example(name).map, 4) == value


def test_legal_walkthrough_precision_at_every_k():
    labels = get_example("001_legal").labels
    expected = [1.0, 0.5, 0.3333, 0.5, 0.4, 0.5, 0.4286, 0.375, 0.4444, 0.4]
    assert [round(precision_at_k(labels, k), 4) for k in range(1, 11)] == expected


def test_five_document_example_precisions():
    labels = get_example("000_five_docs").labels
    assert [round(precision_at_k(labels, k), 3) for k in (1, 2, 3, 5)] == [0, 0.5, 0.667, 0.4]


def test_system_a_and_b_share_precision_and_recall_but_not_ap():
    for a, b in [("000_system_a_5", "000_system_b_5"), ("000_model_a_6", "000_model_b_6")]:
        ea, eb = get_example(a), get_example(b)
        n = len(ea.labels)
        assert ea.score(f"P@{n}") == eb.score(f"P@{n}")
        assert ea.score(f"R@{n}") == eb.score(f"R@{n}") == 1.0
        assert ea.ap == 1.0
        assert eb.ap < 0.5


def test_every_printed_value_but_the_erratum_agrees():
    table = examples_table()
    assert len(table) >= 25
    assert table.loc[~table["agrees"], "example"].tolist() == ["001_legal_late"]


def test_every_example_is_well_formed():
    for name, example in EXAMPLES.items():
        assert example.name == name
        assert example.article in ARTICLES
        assert example.title
        if isinstance(example, RankingExample):
            assert example.n_relevant >= sum(example.labels)
            assert example.trace().attrs["ap"] == example.ap
            assert str(round(example.ap, 4)) in example.explain() or example.ap == 0
        else:
            assert isinstance(example, MapExample)
            assert len(example.per_query()) == len(example.queries)


def test_an_invented_ranking_is_marked_and_shown_as_invented():
    invented = [name for name, e in EXAMPLES.items() if getattr(e, "invented", False)]
    assert invented == ["000_second_query"]  # article 000 gives only its AP, 0.75
    example = get_example("000_second_query")
    assert "invented" in example.title and "INVENTED" in example.note
    per_query = get_example("000_two_queries").per_query()
    assert per_query["labels from"].tolist() == [
        "article",
        "invented (the article gives only the values)",
    ]
    assert (get_example("003_abc").per_query()["labels from"] == "article").all()
