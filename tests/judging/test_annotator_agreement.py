"""Agreement between annotators (kappa, Fleiss, Krippendorff), and the guideline as data."""

from __future__ import annotations

import json

import krippendorff
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

from mapteach import average_precision
from mapteach.explain.display import display_table
from mapteach.i18n import language, tr
from mapteach.judging.annotator_agreement import (
    KAPPA_SCALE,
    agreement,
    agreement_many,
    interpret_kappa,
    kappa_reading,
)
from mapteach.judging.guideline import HARD_CASES, load_guideline, load_judging_set
from tests.analysis.display_checks import english_headers, same_values


def _random_annotators(seed: int, n: int) -> list[dict[str, dict[str, int]]]:
    rng = np.random.default_rng(seed)
    first = {f"q{q}": {f"d{d}": int(rng.integers(0, 4)) for d in range(15)} for q in range(4)}
    others = [
        {
            q: {d: g if rng.random() < 0.6 else int(rng.integers(0, 4)) for d, g in docs.items()}
            for q, docs in first.items()
        }
        for _ in range(n - 1)
    ]
    return [first, *others]


def _flat(judged: dict[str, dict[str, int]]) -> list[int]:
    return [judged[q][d] for q in sorted(judged) for d in sorted(judged[q])]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_weighted_kappa_equals_sklearn(seed, weights):
    a, b = _random_annotators(seed, 2)
    kappa, _ = agreement(a, b, weights=weights)
    assert kappa == pytest.approx(cohen_kappa_score(_flat(a), _flat(b), weights=weights))
    binary, _ = agreement(a, b, relevance_threshold=2)  # without weights: as before, binary
    expected = cohen_kappa_score([int(g >= 2) for g in _flat(a)], [int(g >= 2) for g in _flat(b)])
    assert binary == pytest.approx(expected)
    with pytest.raises(ValueError, match="weights must be None, 'linear' or 'quadratic'"):
        agreement(a, b, weights="cubic")  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("raters", [2, 3, 5])
def test_fleiss_and_krippendorff_equal_the_libraries(seed, raters):
    annotators = _random_annotators(seed, raters)
    data = np.array([_flat(judged) for judged in annotators])
    result = agreement_many(annotators)
    table, _ = aggregate_raters(data.T)
    assert result["fleiss_kappa"] == pytest.approx(fleiss_kappa(table, method="fleiss"))
    assert result["krippendorff_alpha"] == pytest.approx(
        krippendorff.alpha(reliability_data=data, level_of_measurement="ordinal")
    )
    assert (result["annotators"], result["documents"]) == (raters, 60)


def test_agreement_many_needs_the_same_documents_and_two_annotators():
    a, b = _random_annotators(0, 2)
    with pytest.raises(ValueError, match="two or more annotators; got 1"):
        agreement_many([a])
    b["q1"].pop("d3")
    with pytest.raises(ValueError, match=r"query 'q1', document 'd3' is judged in one set"):
        agreement_many([a, a, b])


@pytest.mark.parametrize(
    ("kappa", "words"),
    [
        (0.95, "good"),
        (0.81, "good"),
        (0.8, "fair"),
        (0.67, "fair"),
        (0.669, "dubious"),
        (-1, "dubious"),
    ],
)
def test_interpret_kappa_follows_iir(kappa, words):
    assert interpret_kappa(kappa).startswith(words)


def test_interpret_kappa_refuses_nan():
    with pytest.raises(ValueError, match="kappa must be a number"):
        interpret_kappa(float("nan"))


def test_kappa_reading_is_the_english_message_interpret_kappa_translates():
    for kappa in (0.95, 0.7, 0.1):
        assert kappa_reading(kappa) in {words for _, words in KAPPA_SCALE}
        assert tr(kappa_reading(kappa), lang="zh") == _in_chinese(interpret_kappa, kappa)
        assert kappa_reading(kappa) == _in_chinese(kappa_reading, kappa)  # the same in zh
    with pytest.raises(ValueError, match="kappa must be a number"):
        kappa_reading(float("nan"))


def _in_chinese(function, *args):
    with language("zh"):
        return function(*args)


def test_agreement_per_query_has_exactly_its_keys_and_is_shown_in_chinese():
    a, b = _random_annotators(3, 2)
    run = {q: sorted(docs) for q, docs in a.items()}
    _, table = agreement(a, b, run, relevance_threshold=2)
    assert list(table.columns) == ["ap_a", "ap_b", "difference"]
    assert table.index.name == "query" and list(table.index) == list(run)
    for query, ranking in run.items():
        r_a = sum(g >= 2 for g in a[query].values())
        labels = [int(a[query][d] >= 2) for d in ranking]
        assert table.loc[query, "ap_a"] == pytest.approx(average_precision(labels, n_relevant=r_a))
    shown = table.display(lang="zh")
    assert not english_headers(shown)
    same_values(shown, table.round(4))
    assert table.display().columns.tolist() == ["AP (A)", "AP (B)", "difference"]


def test_agreement_many_has_exactly_its_keys_and_is_shown_in_chinese():
    result = agreement_many(_random_annotators(2, 3))
    assert list(result) == ["fleiss_kappa", "krippendorff_alpha", "annotators", "documents"]
    shown = display_table(pd.Series(result), lang="zh", digits=4)
    assert not english_headers(shown)
    same_values(shown, pd.Series(result).round(4))


# --- the guideline and the judging set --------------------------------------------------


def test_the_guideline_loads_and_covers_every_hard_case():
    guideline = load_guideline()
    assert [g.grade for g in guideline.scale] == [0, 1, 2, 3]
    assert all(len(g.anchors) >= 2 for g in guideline.scale)
    assert {rule.case for rule in guideline.rules} >= set(HARD_CASES)
    assert guideline.version
    assert list(guideline.rules_table().index) == [rule.id for rule in guideline.rules]


def test_the_set_cites_existing_rules_and_uses_every_rule():
    guideline = load_guideline()
    judging_set = load_judging_set()
    ids = {rule.id for rule in guideline.rules}
    assert len(judging_set.queries) >= 5
    assert all(len(q.results) >= 10 for q in judging_set.queries)
    cited = set()
    for query in judging_set.queries:
        for result in query.results:
            named = {rule_id for rule_id in ids if rule_id in result.reason}
            assert named == {result.rule}, (query.query, result.doc)
            assert guideline.rule(result.rule).allows(result.grade)
            cited.add(result.rule)
    assert cited == ids


def _edited(tmp_path, name, edit):
    from mapteach.judging import guideline as module

    document = json.loads((module._DATA / name).read_text(encoding="utf-8"))
    edit(document)
    path = tmp_path / name
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda d: d["scale"][1]["anchors"].pop() and d["scale"][1]["anchors"].pop(),
            r"scale\[1\]\.anchors: needs at least two",
        ),
        (
            lambda d: d["rules"][3].update(case="copies"),
            r"rules: no rule for the hard case\(s\): duplicate",
        ),
        (lambda d: d["rules"][1].update(id="R-AUTH"), r"rules\[1\]\.id: 'R-AUTH' is used twice"),
        (lambda d: d["rules"][0].update(grade=4), r"rules\[0\]\.grade: 4 is not on the scale 0-3"),
        (lambda d: d["rules"][0].update(effect="maybe"), r"rules\[0\]\.effect: 'maybe'"),
        (lambda d: d["scale"][0].pop("definition"), r"scale\[0\]: missing field 'definition'"),
        (lambda d: d.update(version=2), r"guideline\.version: expected str, got int"),
    ],
)
def test_a_bad_guideline_names_the_file_and_place(tmp_path, edit, message):
    with pytest.raises(ValueError, match=rf"guideline\.json: {message}"):
        load_guideline(_edited(tmp_path, "guideline.json", edit))


def test_a_guideline_that_is_not_json_names_the_line(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text('{\n  "name": "x",\n  oops\n}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"mine\.json, line 3: not JSON"):
        load_guideline(path)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda d: d["queries"][1]["results"][0].update(rule="R-NONE"),
            r"queries\[1\]\.results\[0\]\.rule: query '竞业限制补偿金标准', document 'j1': "
            r"guideline '2026\.1' has no rule 'R-NONE'",
        ),
        (
            lambda d: d["queries"][0]["results"][2].update(grade=3),
            r"queries\[0\]\.results\[2\]\.grade: query '劳动仲裁赔偿标准', document 'r3': "
            r"grade 3 breaks R-OLD",
        ),
        (
            lambda d: d["queries"][0]["results"][2].update(reason="old"),
            r"queries\[0\]\.results\[2\]\.reason: query '劳动仲裁赔偿标准', document 'r3': "
            r"does not cite its rule 'R-OLD'",
        ),
        (
            lambda d: d["queries"][2]["results"][1].update(doc="r1"),
            r"queries\[2\]\.results\[1\]\.doc: query '试用期辞退赔偿': document 'r1' is repeated",
        ),
        (
            lambda d: d.update(guideline="1.0"),
            r"set\.guideline: made under guideline '1\.0', not '2026\.1'",
        ),
    ],
)
def test_a_bad_judging_set_names_the_file_and_document(tmp_path, edit, message):
    with pytest.raises(ValueError, match=rf"/legal_set\.json: {message}"):
        load_judging_set(_edited(tmp_path, "legal_set.json", edit))
