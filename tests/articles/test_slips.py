"""The articles' slips: quoted verbatim, checked by computation, taught where they belong.

Also the reporting helpers the notebooks show beside them (p-values, effect size,
winners with ties, audit costs). The quotes are checked against the articles' text only
where ``MAPTEACH_SEEDS`` names its folder (``.ci/run`` sets it when ``../shared/seeds`` is
beside the checkout); without it those tests skip.
"""

from __future__ import annotations

import json
import math
import os
import re
import unicodedata
from pathlib import Path

import IPython.lib.pretty
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score

from mapteach import average_precision, get_example, ndcg_at_k, precision_at_k
from mapteach.analysis.conventions import audit_setups
from mapteach.analysis.paired_tests import paired_randomization_test
from mapteach.analysis.reporting import (
    audit_costs,
    best_by_measure,
    format_p_value,
    paired_effect,
)
from mapteach.articles import slips
from mapteach.articles.loader import read_data
from mapteach.articles.slips import (
    SLIPS,
    Slip,
    get_slip,
    head_blind_spot_pair,
    parse_slips,
    slips_table,
)
from mapteach.i18n import language, tr

NOTEBOOKS = Path(__file__).parents[2] / "notebooks"


def _seed_texts() -> dict[str, str]:
    """The articles' text by number ("000"), from the folder MAPTEACH_SEEDS names."""
    folder = os.environ.get("MAPTEACH_SEEDS")
    if not folder:
        pytest.skip("MAPTEACH_SEEDS is not set: name the folder of the articles' *.txt to check")
    texts = {path.name[:3]: path.read_text(encoding="utf-8") for path in Path(folder).glob("*.txt")}
    if not texts:
        pytest.fail(f"MAPTEACH_SEEDS={folder}: no article text (*.txt) in that folder")
    return texts


#: What a quote may restore that an article's text lost: punctuation (``(0, 1]`` keeps its
#: brackets), spaces, a table's column bars, and the ``@`` of AP@10.
RESTORED = re.compile(r"[\s|｜@]")


def words_only(text: str) -> str:
    """``text`` without punctuation, spaces, column bars and ``@``: the words a quote keeps."""
    return "".join(
        char for char in RESTORED.sub("", text) if not unicodedata.category(char).startswith("P")
    )


def test_words_only_ignores_what_a_quote_restores_and_keeps_every_word():
    assert words_only("AP@10，评估（0, 1]｜“好”") == "AP10评估01好"
    assert words_only("此时AP的分母很小，一个小波动") == words_only("此时AP的分母很小一个小波动")
    assert words_only("分母很大") != words_only("分母很小")


@pytest.mark.parametrize("name", list(SLIPS))
def test_every_quote_is_verbatim_in_its_article(name):
    """The quote's words are the article's, in order; only punctuation may be restored."""
    slip = SLIPS[name]
    texts = _seed_texts()
    assert slip.article in texts, f"no text for article {slip.article}"
    assert words_only(slip.quote) in words_only(texts[slip.article]), (
        f"{name}: quote not found in {slip.article} (compared without punctuation)"
    )


@pytest.mark.parametrize("name", list(SLIPS))
def test_every_slip_is_complete_and_computed(name):
    slip = SLIPS[name]
    assert isinstance(slip, Slip) and slip.name == name
    assert slip.article in {"000", "001", "003"}
    assert slip.section and slip.quote and slip.gloss and slip.printed and slip.verdict
    values = slip.values()
    assert values and all(math.isfinite(value) for value in values.values())
    assert "nan" not in slip.finding.lower()
    assert slip.quote in str(slip) and slip.quote in slip._repr_markdown_()


@pytest.mark.parametrize("name", list(SLIPS))
def test_a_slip_is_glossed_only_for_a_reader_of_another_language(name):
    slip = SLIPS[name]
    with language("en"):
        gloss = tr(slip.gloss)
        assert gloss in str(slip) and gloss in slip._repr_markdown_()
    with language("zh"):
        gloss = tr(slip.gloss)
        shown = [str(slip), slip._repr_markdown_(), IPython.lib.pretty.pretty(slip)]
        assert all(slip.quote in text and gloss not in text for text in shown)
        assert tr(slip.verdict) in IPython.lib.pretty.pretty(slip)


@pytest.mark.parametrize("name", list(SLIPS))
def test_every_slip_is_shown_in_its_notebook(name):
    slip = SLIPS[name]
    (path,) = NOTEBOOKS.glob(f"{slip.notebook}_*.ipynb")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "code")
    assert f'SLIPS["{name}"]' in code, f"{name} is not shown in {path.name}"


def test_slips_are_read_only_and_named():
    with pytest.raises(TypeError):
        SLIPS["new"] = SLIPS["001_gap"]  # type: ignore[index]
    with pytest.raises(ValueError, match="001_gap"):
        get_slip("nope")
    table = slips_table()
    assert list(table.index) == list(SLIPS)
    assert list(table.columns) == [
        "article",
        "section",
        "quote",
        "gloss",
        "printed",
        "verdict",
        "finding",
        "notebook",
    ]
    assert list(slips_table("001_gap", "003_p_at_5").index) == ["001_gap", "003_p_at_5"]
    assert set(slips_table(notebook="08").index) == {
        "000_mrr_range",
        "000_ndcg_range",
        "001_ndcg_sensitive",
    }


def test_001_gap_is_0_3296_and_the_printed_gap_comes_from_the_wrong_0_48():
    values = SLIPS["001_gap"].values()
    assert round(values["gap"], 4) == 0.3296
    assert round(values["legal_ap"] - values["late_ap"], 4) == 0.3296
    assert round(values["printed_gap"], 2) == float(SLIPS["001_gap"].printed)
    late = SLIPS["001_late_ap"].values()
    assert round(late["slip"], 2) == float(SLIPS["001_late_ap"].printed)
    assert round(late["ap"], 4) == 0.2815


def test_003_p_at_5_is_0_6_and_r_at_5_is_1():
    values = SLIPS["003_p_at_5"].values()
    assert values == {"hits_in_top_5": 3.0, "P@5": 0.6, "R@5": 1.0}


@pytest.mark.parametrize("name", ["000_mrr_range", "000_ndcg_range"])
def test_ranges_are_closed_at_0(name):
    values = SLIPS[name].values()
    assert values["no_relevant_result"] == 0.0
    assert values["best"] == 1.0


def test_ndcg_moves_less_than_ap_on_001s_binary_lists():
    values = SLIPS["001_ndcg_sensitive"].values()
    assert round(values["ndcg_gap"], 4) == 0.0441
    assert round(values["ap_gap"], 4) == 0.0655
    a, b = get_example("001_model_a"), get_example("001_model_b")
    assert values["ndcg_gap"] == pytest.approx(ndcg_at_k(b.labels, 10) - ndcg_at_k(a.labels, 10))


def test_head_blind_spot_ap_is_top_heavy_yet_two_moves_can_cancel():
    values = SLIPS["003_head_blind_spot"].values()
    assert round(values["deep_ap"], 3) == 0.051
    assert values["top_ap"] == 1.0
    pair = head_blind_spot_pair()
    assert {len(labels) for labels in pair.values()} == {100}
    assert sum(pair["before"]) == sum(pair["after"]) == 5
    change = average_precision(pair["after"]) - average_precision(pair["before"])
    assert abs(change) < 0.001 and change == pytest.approx(values["pair_ap_change"])
    assert precision_at_k(pair["after"], 3) < precision_at_k(pair["before"], 3)
    assert ndcg_at_k(pair["after"], 10) < ndcg_at_k(pair["before"], 10)


def test_head_blind_spot_finding_says_which_way_each_measure_moves():
    """AP rises (both ends shown, as a table shows them) and P@3 falls (by a size, no minus)."""
    pair = head_blind_spot_pair()
    before, after = average_precision(pair["before"]), average_precision(pair["after"])
    p3_loss = precision_at_k(pair["before"], 3) - precision_at_k(pair["after"], 3)
    assert after > before and p3_loss > 0
    finding = SLIPS["003_head_blind_spot"].finding
    rise = f"AP rises only from {before:.4f} to {after:.4f} while P@3 falls by {p3_loss:.4f}."
    assert rise in finding
    with language("zh"):
        chinese = SLIPS["003_head_blind_spot"].finding
    assert all(f"{value:.4f}" in chinese for value in (before, after, p3_loss))
    assert not re.search(r"-[0-9]", chinese)


@pytest.mark.parametrize("name", ["001_calculate_map", "000_hit_count"])
def test_hits_equal_r_only_when_every_relevant_document_was_retrieved(name):
    values = SLIPS[name].values()
    assert values["A_hits"] == pytest.approx(values["A_R"])
    assert round(values["B_hits"], 4) == 0.8333
    assert round(values["B_R"], 4) == round(get_example("003_b").ap, 4) == 0.5556


def test_sklearn_pools_a_flat_list_whatever_average_says():
    labels = np.array([get_example(name).labels for name in ("003_a", "003_b", "003_c")])
    scores = np.tile(np.arange(8, 0, -1, dtype=float), (3, 1))
    pooled = average_precision_score(labels.ravel(), scores.ravel())
    values = SLIPS["001_sklearn_micro"].values()
    for mode in ("macro", "micro", "samples", "weighted"):
        assert values[f"flat list, average={mode!r}"] == pytest.approx(pooled)
    assert round(pooled, 4) == 0.4931
    assert round(values["MAP"], 4) == 0.5602
    assert round(values["2-D default (macro)"], 4) == 0.3333


# --- the data file -----------------------------------------------------------------


def test_the_module_holds_what_the_data_file_gives():
    loaded = parse_slips(read_data("slips.json"))
    assert loaded == dict(SLIPS)  # every field but the check
    for name, slip in loaded.items():
        assert slip.values() == SLIPS[name].values() and slip.finding == SLIPS[name].finding
    # a figure or code is kept as printed; words are a message, shown translated
    assert SLIPS["001_calculate_map"].printed == "num_rel = sum(true_rels)"
    assert SLIPS["003_p_at_5"].printed == "100分 (full marks)"


def _slips_with(index, change):
    document = read_data("slips.json")
    change(document["slips"][index])
    return document


@pytest.mark.parametrize(
    ("index", "change", "message"),
    [
        (1, lambda s: s.update(printed_words="a gap"), "slips[1]: needs exactly one of 'printed'"),
        (1, lambda s: s.pop("printed"), "slips[1]: needs exactly one of 'printed'"),
        (1, lambda s: s.update(quote=" "), "slips[1].quote: is empty."),
        (1, lambda s: s.update(notebook="5"), "slips[1].notebook: '5' is not a notebook's two"),
        (1, lambda s: s.update(article=1), "slips[1].article: expected string, got integer."),
        (1, lambda s: s.pop("check"), "slips[1]: missing field 'check'."),
        (1, lambda s: s.update(check="gap"), "slips[1].check: expected object, got string."),
        (1, lambda s: s.update(check={"kind": "guess"}), "slips[1].check.kind: 'guess' is not"),
        (1, lambda s: s["check"].update(k=5), "slips[1].check: unknown field 'k'; the fields"),
        (3, lambda s: s["check"].update(measure="MRR@x"), "slips[3].check.measure: "),
        (3, lambda s: s["check"].pop("measure"), "slips[3].check: missing field 'measure'."),
        (7, lambda s: s["check"].pop("label"), "slips[7].check: missing field 'label'."),
        (
            7,
            lambda s: s["check"].update(function="article_003_map"),
            "slips[7].check.function: 'article_003_map' is not one of: article_000_map, ",
        ),
    ],
)
def test_a_broken_slip_names_the_file_and_the_json_path(index, change, message):
    with pytest.raises(ValueError, match="^" + re.escape("slips.json: " + message)):
        parse_slips(_slips_with(index, change))


def test_a_check_is_the_one_its_kind_names(monkeypatch):
    document = read_data("slips.json")
    document["slips"][3]["check"]["measure"] = "P@10"  # the range of P@10 instead of RR's
    values = parse_slips(document)["000_mrr_range"].values()
    assert values == {"no_relevant_result": 0.0, "best": 1 / 10}  # one relevant in ten
    # a hits_as_r check calls the function it names (000's and 001's agree on A and B)
    monkeypatch.setitem(slips._ARTICLE_FUNCTIONS, "article_000_map", lambda *_: 0.125)
    document["slips"][7]["check"]["function"] = "article_000_map"
    swapped = parse_slips(document)["001_calculate_map"].values()
    assert swapped["A_hits"] == swapped["B_hits"] == 0.125
    assert swapped["B_R"] == SLIPS["001_calculate_map"].values()["B_R"]  # trec_eval's, kept


# --- reporting helpers ------------------------------------------------------------


def test_format_p_value_reports_a_bound_when_no_sample_was_as_extreme():
    rng = np.random.default_rng(1)
    deltas = rng.normal(0.05, 0.01, size=200)  # every query better: nothing is as extreme
    p = paired_randomization_test(deltas, n_permutations=2_000)
    assert format_p_value(p, 2_000) == "p < 1/2,000"
    assert format_p_value(3 / 2_001, 2_000) == "p = 0.0015"
    assert format_p_value(0.041) == "p = 0.041"
    assert format_p_value(0.25, 2_000) == "p = 0.25"  # not of the form (x + 1) / (N + 1) = 1/..
    for bad in (0, -0.1, 1.5, float("nan")):
        with pytest.raises(ValueError):
            format_p_value(bad)
    with pytest.raises(ValueError):
        format_p_value(0.5, 0)


def test_paired_effect_separates_size_from_count():
    effect = paired_effect([0.5, 0.5, 0.6, 0.4], [0.51, 0.5, 0.61, 0.38])
    assert effect["mean_delta"] == pytest.approx(0.0)
    assert (effect["b_better"], effect["b_worse"], effect["same"]) == (2, 1, 1)
    assert effect["relative_change"] == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(ValueError):
        paired_effect([0.1, 0.2], [0.1])


def test_best_by_measure_names_ties():
    table = pd.DataFrame(
        {"R@10": [1.0, 1.0, 0.25], "RR": [1.0, 0.5, 0.3], "AP": [0.5, 0.6, 0.1]},
        index=["first", "steady", "one"],
    )
    best = best_by_measure(table)
    assert best.loc["R@10", "best"] == "first = steady" and best.loc["R@10", "tie"]
    assert best.loc["RR", "best"] == "first" and not best.loc["RR", "tie"]
    assert best.loc["AP", "best"] == "steady"
    assert table.idxmax()["R@10"] == "first"  # what the notebook used to show


def test_audit_costs_in_turn_add_up_and_alone_can_differ():
    qrels = {
        "A": {"d1": 1, "d3": 1, "d4": 1},
        "B": {"d1": 1, "d3": 1, "missed": 1},
        "ties": {"t1": 1, "t2": 1, "t3": 0, "t4": 0},
        "empty": {"e1": 0},
    }
    run = {
        "A": {f"d{i}": 9.0 - i for i in range(1, 9)},
        "B": {f"d{i}": 9.0 - i for i in range(1, 9)},
        "ties": {f"t{i}": 1.0 for i in range(1, 5)},
        "empty": {"e1": 1.0, "e2": 0.5},
    }
    paper = {"cutoff": 5, "ties": "input", "no_relevant": "skip", "denominator": "retrieved"}
    costs = audit_costs(qrels, run, {}, paper)
    cumulative = audit_setups(qrels, run, {}, paper)
    total = cumulative["map"].iloc[-1] - cumulative["map"].iloc[0]
    assert costs["cost_in_turn"].sum() == pytest.approx(total)
    assert list(costs["item"]) == list(cumulative["item"].iloc[1:])
    alone = costs.set_index("item")["cost_alone"]
    in_turn = costs.set_index("item")["cost_in_turn"]
    assert alone["no_relevant"] != pytest.approx(in_turn["no_relevant"])  # order matters
    # an item switched alone: the same as auditing A against A-plus-that-item
    single = audit_setups(qrels, run, {}, {"no_relevant": "skip"})
    assert alone["no_relevant"] == pytest.approx(single["map"].iloc[-1] - single["map"].iloc[0])
    # B may leave an item at its default while A sets it
    back = audit_costs(qrels, run, {"cutoff": 5}, {})
    assert list(back["item"]) == ["cutoff"]
    assert back["cost_alone"].iloc[0] == pytest.approx(back["cost_in_turn"].iloc[0])
