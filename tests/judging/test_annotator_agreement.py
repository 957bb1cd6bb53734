"""Agreement between annotators (kappa, Fleiss, Krippendorff)."""

from __future__ import annotations

import json
import re
from pathlib import Path

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
from mapteach.judging.guideline import RELEVANCE_THRESHOLD
from tests.analysis.display_checks import english_headers, same_values

ROOT = Path(__file__).parents[2]


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


def test_agreement_counts_grade_two_and_up_as_relevant_by_default():
    a, b = _random_annotators(4, 2)
    kappa, table = agreement(a, b, {q: sorted(docs) for q, docs in a.items()})
    relevant = [[int(g >= 2) for g in _flat(judged)] for judged in (a, b)]
    assert RELEVANCE_THRESHOLD == 2 and kappa == pytest.approx(cohen_kappa_score(*relevant))
    lenient = [[int(g >= 1) for g in _flat(judged)] for judged in (a, b)]
    assert kappa != pytest.approx(cohen_kappa_score(*lenient))
    labels = [int(a["q0"][d] >= 2) for d in sorted(a["q0"])]
    r = sum(g >= 2 for g in a["q0"].values())
    assert table.loc["q0", "ap_a"] == pytest.approx(average_precision(labels, n_relevant=r))


THRESHOLD_USERS = [
    ROOT / "notebooks" / "12_judging_relevance.ipynb",
    ROOT / "notebooks" / "zh" / "12_judging_relevance.ipynb",
    ROOT / "instructor" / "README.md",
    ROOT / "instructor" / "README.zh.md",
]
TYPED_THRESHOLD = re.compile(r"relevance_threshold\s*=\s*\d|grade\w*\s*>=\s*\d")


def _code(path):
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return "\n".join(re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S))


@pytest.mark.parametrize("path", THRESHOLD_USERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_relevance_threshold_is_one_setting(path):
    code = _code(path)
    assert "RELEVANCE_THRESHOLD" in code
    assert not TYPED_THRESHOLD.findall(code), f"{path.name}: use RELEVANCE_THRESHOLD"


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
        (0.08, "dubious"),  # the notebook's Hao, plain kappa: 30% exact is barely above chance
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
