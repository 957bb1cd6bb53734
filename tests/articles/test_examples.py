"""The articles' worked examples, to the digits the articles printed, and their data file."""

from __future__ import annotations

import re

import pytest

from mapteach import EXAMPLES, examples_table, get_example, precision_at_k
from mapteach.articles.examples import (
    ARTICLES,
    REPORTED,
    MapExample,
    RankingExample,
    parse_examples,
    parse_reported,
)
from mapteach.articles.loader import TRANSLATED_KEYS, read_data
from mapteach.exercises.mistakes_ranking import final_hits_in_every_numerator
from mapteach.i18n import language, tr
from tests.reference import reference_ap


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


def test_a_table_of_examples_names_them_by_label_outside_english():
    """The ids stay the keys; a Chinese reader sees each example's short label instead."""
    labels = {node["id"]: node["label"] for node in read_data("examples.json")["examples"]}
    per_query, table = get_example("000_two_queries").per_query(), examples_table()
    assert per_query["query"].tolist() == ["000_five_docs", "000_second_query"]
    with language("zh"):
        shown_queries = per_query.display()[tr("query")].tolist()
        shown_examples = table.display()[tr("example")].tolist()
        expected = [tr(labels[name]) for name in ("000_five_docs", "000_second_query")]
        every = [tr(labels[name]) for name in table["example"]]
    assert shown_queries == expected and shown_examples == every
    assert all(re.search("[\u4e00-\u9fff]", name) for name in every)
    assert not any("_" in name for name in every)
    assert "000_five_docs" in str(per_query)  # English shows the keys, as it always has


def test_an_example_without_a_label_is_refused_by_name():
    document = read_data("examples.json")
    del document["examples"][10]["label"]
    with pytest.raises(ValueError, match=r"examples\[10\]: missing field 'label'"):
        parse_examples(document)


# --- the data file -----------------------------------------------------------------


def _decimals(printed: str) -> int:
    return len(printed.partition(".")[2])


def test_the_data_gives_each_ap_and_map_the_article_printed_but_its_erratum():
    """Recomputed from the file's labels by the reference AP, independently of the package."""
    checked = set()
    for name, example in EXAMPLES.items():
        if isinstance(example, RankingExample):
            aps = [reference_ap(list(example.labels), example.n_relevant)]
            assert example.ap == pytest.approx(aps[0], abs=1e-12)
        else:
            aps = [reference_ap(list(q.labels), q.n_relevant) for q in example.queries]
            assert example.map == pytest.approx(sum(aps) / len(aps), abs=1e-12)
        measure = "AP" if isinstance(example, RankingExample) else "MAP"
        if measure in example.printed:
            printed = example.printed[measure]
            value = round(sum(aps) / len(aps), _decimals(printed))
            assert (value == float(printed)) == (name != "001_legal_late"), name
            checked.add(name)
    assert len(checked) == 13 and "001_legal_late" in checked


def test_the_module_holds_what_the_data_file_gives():
    assert parse_examples(read_data("examples.json")) == dict(EXAMPLES)
    assert parse_reported(read_data("reported.json")) == dict(REPORTED)
    assert list(REPORTED) == ["001_kappa", "001_map_std", "001_ap_swing", "000_incomplete"]
    assert REPORTED["001_kappa"][3:] == ("0.62", "0.89") and REPORTED["001_ap_swing"][4] == ""


def _strings(value, key=None):
    if isinstance(value, dict):
        for inner_key, inner in value.items():
            yield from _strings(inner, inner_key)
    elif isinstance(value, list):
        for inner in value:
            yield from _strings(inner, key)
    elif isinstance(value, str):
        yield key, value


@pytest.mark.parametrize("name", ["examples.json", "reported.json", "slips.json"])
def test_the_data_files_learner_texts_are_in_the_catalogue(name):
    found = list(_strings(read_data(name)))
    translated = {text for key, text in found if key in TRANSLATED_KEYS}
    assert len(translated) >= 4
    untranslated = [text for text in translated if tr(text, lang="zh") == text]
    assert not untranslated, untranslated
    kept = [text for key, text in found if key in {"id", "quote", "article", "notebook", "docs"}]
    assert kept and all(tr(text, lang="zh") == text for text in kept)


#: Put in place of a field to delete it.
DELETE = object()


def _changed(document, path, value):
    """The document, with the value at ``path`` (keys and indices) replaced or deleted."""
    *parents, last = path
    node = document
    for step in parents:
        node = node[step]
    if value is DELETE:
        del node[last]
    else:
        node[last] = value
    return document


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ((3, "labels", 2), 2, "examples[3].labels[2]: expected 0 or 1, got 2."),
        ((3, "labels", 0), True, "examples[3].labels[0]: expected 0 or 1, got true."),
        ((0, "labels"), [], "examples[0].labels: is empty."),
        ((0, "labels"), "11000", "examples[0].labels: expected array, got string."),
        ((0, "n_relevant"), 1, "examples[0].n_relevant: R = 1 is fewer than the 2 relevant"),
        ((0, "n_relevant"), 2.0, "examples[0].n_relevant: expected integer, got number."),
        ((0, "n_relevant"), -1, "examples[0].n_relevant: expected a count >= 0, got -1."),
        ((2, "title"), DELETE, "examples[2]: missing field 'title'."),
        ((2, "note"), "", "examples[2].note: is empty."),
        ((2, "lables"), [1], "examples[2]: unknown field 'lables'; the fields are: id, title"),
        ((1, "id"), "000_system_a_5", "examples[1].id: '000_system_a_5' is used twice."),
        ((1, "article"), "002", "examples[1].article: '002' is not one of: 000, 001, 003."),
        ((4, "printed", "AP"), 0.583, "examples[4].printed.AP: expected a number written as"),
        ((4, "printed", "AP"), ".583", "examples[4].printed.AP: expected a number written as"),
        ((4, "printed", "P@x"), "0.5", "examples[4].printed.P@x: "),
        ((4, "docs"), ["doc2", "doc5"], "examples[4].docs: 2 names for 5 labels."),
        ((4, "docs", 1), "", 'examples[4].docs[1]: expected a non-empty string, got "".'),
        ((5, "invented"), "yes", "examples[5].invented: expected boolean, got string."),
        ((16, "queries", 1), "003_d", 'examples[16].queries[1]: "003_d" is not the id of a'),
        ((15, "queries", 0), "003_abc", 'examples[15].queries[0]: "003_abc" is not the id of a'),
        ((16, "queries"), [], "examples[16].queries: is empty."),
        ((16, "printed", "AP"), "0.5", "examples[16].printed.AP: an example of MAP prints"),
        ((16, "labels"), [1], "examples[16]: unknown field 'labels'"),
        ((0,), [], "examples[0]: expected an object, got array."),
    ],
)
def test_a_broken_example_names_the_file_and_the_json_path(path, value, message):
    document = _changed(read_data("examples.json"), ("examples", *path), value)
    with pytest.raises(ValueError, match="^" + re.escape("examples.json: " + message)):
        parse_examples(document)


def test_a_broken_document_or_figure_is_named():
    with pytest.raises(ValueError, match=re.escape("mine.json: unknown field 'example'")):
        parse_examples({"example": []}, source="mine.json")
    with pytest.raises(ValueError, match=re.escape("examples.json: missing field 'examples'.")):
        parse_examples({})
    figures = read_data("reported.json")
    del figures["reported"][2]["after"]
    with pytest.raises(ValueError, match=re.escape("reported.json: reported[2]: missing field")):
        parse_reported(figures)
    figures = read_data("reported.json")
    figures["reported"][0]["before"] = " "
    with pytest.raises(ValueError, match=re.escape("reported.json: reported[0].before: is empty.")):
        parse_reported(figures)
