"""The reporting tables: their exact keys, and their display form in Chinese.

The numbers themselves are checked with the articles' slips (tests/articles/test_slips.py);
here each table's keys are pinned and its display form is checked to translate every
header while keeping the values.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mapteach.analysis.conventions import audit_setups
from mapteach.analysis.reporting import audit_costs, best_by_measure, paired_effect
from mapteach.i18n import tr
from tests.analysis.display_checks import english_headers, same_values

A = [0.5, 0.4, 0.6, 0.2]
B = [0.6, 0.4, 0.5, 0.5]
QRELS = {"q1": {"a": 1, "m": 1}, "q2": {"x": 0}, "q3": {"b": 1, "c": 1}}
RUN = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"x": 1.0}, "q3": {"c": 1.0, "b": 1.0, "z": 3.0}}
PAPER = {"cutoff": 1, "ties": "input", "no_relevant": "skip", "denominator": "retrieved"}


def test_paired_effect_has_exactly_its_keys():
    effect = paired_effect(A, B)
    deltas = np.array(B) - np.array(A)
    assert effect.to_dict() == pytest.approx(
        {
            "mean_a": np.mean(A),
            "mean_b": np.mean(B),
            "mean_delta": deltas.mean(),
            "relative_change": deltas.mean() / np.mean(A),
            "median_delta": np.median(deltas),
            "standardized_effect": deltas.mean() / deltas.std(ddof=1),
            "b_better": 2,
            "b_worse": 1,
            "same": 1,
        }
    )
    assert list(effect.index)[:3] == ["mean_a", "mean_b", "mean_delta"]


def test_paired_effect_is_shown_in_chinese_with_the_same_values():
    effect = paired_effect(A, B)
    shown = effect.display(lang="zh")
    assert type(shown) is pd.Series and not english_headers(shown)
    same_values(shown, effect.round(4))
    assert effect.display().index[5] == "standardized effect (mean / sd of deltas)"


def test_paired_effect_shows_its_counts_as_whole_numbers():
    shown = paired_effect(A, B).display(lang="zh")
    counts = shown.iloc[-3:].tolist()
    assert counts == [2, 1, 1] and all(type(count) is int for count in counts)
    assert "2.0" not in shown.to_string()
    assert shown.iloc[0] == round(np.mean(A), 4)  # the other numbers stay rounded floats


def test_best_by_measure_has_exactly_its_keys_and_is_shown_in_chinese():
    table = pd.DataFrame({"R@10": [1.0, 1.0, 0.5], "RR": [1 / 3, 0.5, 0.25]}, index=list("xyz"))
    best = best_by_measure(table)
    assert list(best.columns) == ["best", "tie", "score"] and best.index.name == "measure"
    assert list(best.index) == ["R@10", "RR"]  # the measures are data
    assert best.loc["RR", "score"] == table["RR"].max()
    shown = best.display(lang="zh")
    assert not english_headers(shown) and list(shown.index) == ["R@10", "RR"]
    same_values(shown, best.round(4))
    assert shown.loc["R@10"].iloc[0] == "x = y"  # system names are data


def test_audit_costs_has_exactly_its_keys_and_is_shown_in_chinese():
    costs = audit_costs(QRELS, RUN, {}, PAPER)
    assert list(costs.columns) == [
        "item",
        "setup_a",
        "setup_b",
        "map_in_turn",
        "cost_in_turn",
        "map_alone",
        "cost_alone",
    ]
    cumulative = audit_setups(QRELS, RUN, {}, PAPER)
    assert costs["map_in_turn"].tolist() == cumulative["map"].iloc[1:].tolist()
    assert costs["setup_b"].tolist() == cumulative["setup_b"].iloc[1:].tolist()
    shown = costs.display(lang="zh")
    assert not english_headers(shown)
    assert shown.columns[1] == tr("set-up A", lang="zh")
    names = ["并列", "截断", "分母", "空查询"]  # the checklist items, named
    assert costs["item"].tolist() == ["ties", "cutoff", "denominator", "no_relevant"]
    assert shown.iloc[:, 0].tolist() == names
    assert shown.iloc[:, 1:3].to_numpy().tolist() == [
        ["按文档编号降序（trec_eval）", "输入顺序"],
        ["不截断（整个列表）", "k = 1"],
        ["R（全部相关文档数）", "检索到的命中数"],
        ["记 0", "跳过"],
    ]
    numbers = costs.columns[3:]
    same_values(shown.iloc[:, 3:], costs[numbers].round(4))
    same_values(costs.display(digits=None).iloc[:, 3:], costs[numbers])
