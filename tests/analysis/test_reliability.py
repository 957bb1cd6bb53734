"""Reliability across query sets: each number against a loop written out, and against what
must happen at the extremes (systems far apart always agree; exchangeable systems swap half
the time, and a test at level alpha calls about alpha of their pairs significant)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf
from scipy import stats
from statsmodels.stats.anova import anova_lm
from statsmodels.stats.power import TTestPower

from mapteach.analysis import (
    ranking_agreement,
    split_half_reliability,
    swap_rates,
    topic_set_size,
)
from tests.analysis.display_checks import english_headers, same_values


def _population(gaps: list[float], queries: int = 400, noise: float = 0.1, seed: int = 3):
    """Systems at fixed gaps, on easy and hard queries, with independent noise."""
    rng = np.random.default_rng(seed)
    level = rng.random((queries, 1))
    values = level + rng.normal(0, noise, (queries, len(gaps))) + np.array(gaps)
    return pd.DataFrame(values, columns=[f"s{i}" for i in range(len(gaps))])


def _draws(seed: int, queries: int, size: int, trials: int) -> list[tuple[np.ndarray, ...]]:
    """The two disjoint query sets of each draw, as the module documents them: the first
    2n positions of a random permutation, split in half."""
    rng = np.random.default_rng(seed)
    order = np.argsort(rng.random((trials, queries)), axis=1)
    return [(row[:size], row[size : 2 * size]) for row in order]


def test_ranking_agreement_counts_the_pairs_and_is_scipys_tau():
    first = {"A": 0.40, "B": 0.35, "C": 0.30, "D": 0.20, "E": 0.10}
    second = {"A": 0.33, "B": 0.36, "C": 0.25, "D": 0.28, "E": 0.01}
    agreement = ranking_agreement(first, second)
    same = sum(
        (first[x] - first[y]) * (second[x] - second[y]) > 0
        for x, y in itertools.combinations(first, 2)
    )
    assert agreement["pairs"] == 10
    assert agreement["same_order"] == same == 8
    assert agreement["swapped"] == 2
    assert agreement["tied"] == 0
    assert agreement["kendall_tau"] == pytest.approx((8 - 2) / 10)
    assert agreement["kendall_tau"] == pytest.approx(
        stats.kendalltau(list(first.values()), [second[name] for name in first]).statistic
    )


def test_ranking_agreement_aligns_by_name_and_counts_ties():
    agreement = ranking_agreement(
        pd.Series({"a": 0.1, "b": 0.2, "c": 0.3}), pd.Series({"c": 0.3, "b": 0.3, "a": 0.1})
    )
    assert agreement[["same_order", "swapped", "tied"]].tolist() == [2, 0, 1]
    assert agreement["kendall_tau"] == pytest.approx(
        stats.kendalltau([0.1, 0.2, 0.3], [0.1, 0.3, 0.3]).statistic
    )


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ({"a": 0.1, "b": 0.2}, {"a": 0.1, "c": 0.2}, "same systems"),
        ({"a": 0.1}, {"a": 0.2}, "at least 2 systems"),
        ({"a": 0.1, "b": np.nan}, {"a": 0.1, "b": 0.2}, "finite score"),
    ],
)
def test_ranking_agreement_refuses_rankings_that_do_not_match(a, b, message):
    with pytest.raises(ValueError, match=message):
        ranking_agreement(a, b)


def test_split_half_reliability_is_the_loop_written_out():
    scores = _population([0.0, 0.01, 0.02, 0.04], queries=120)
    table = split_half_reliability(scores, [10, 30], trials=40, alpha=0.05, seed=5)
    rng_draws = np.random.default_rng(5)
    for size in (10, 30):
        taus, swaps, significant, significant_swaps = [], [], [], []
        draws = np.argsort(rng_draws.random((40, len(scores))), axis=1)
        for row in draws:
            first, second = scores.iloc[row[:size]], scores.iloc[row[size : 2 * size]]
            taus.append(stats.kendalltau(first.mean(), second.mean()).statistic)
            for x, y in itertools.combinations(scores.columns, 2):
                swapped = (first[y].mean() - first[x].mean()) * (
                    second[y].mean() - second[x].mean()
                ) < 0
                called = stats.ttest_rel(first[y], first[x]).pvalue <= 0.05
                swaps.append(swapped)
                significant.append(called)
                if called:
                    significant_swaps.append(swapped)
        row = table.loc[size]
        assert row["kendall_tau"] == pytest.approx(np.mean(taus))
        assert row["swap_rate"] == pytest.approx(np.mean(swaps))
        assert row["discriminative_power"] == pytest.approx(np.mean(significant))
        assert row["significant_swapped"] == pytest.approx(np.mean(significant_swaps))
    assert table.attrs == {"trials": 40, "alpha": 0.05, "systems": 4, "pairs": 6}


def test_the_two_sets_of_a_draw_are_disjoint_and_of_the_asked_size():
    for first, second in _draws(seed=0, queries=50, size=25, trials=20):
        assert len(first) == len(second) == 25
        assert not set(first) & set(second)


def test_systems_far_apart_never_swap_and_are_always_told_apart():
    table = split_half_reliability(_population([0.0, 1.0, 2.0]), [10, 50], trials=30)
    assert (table["swap_rate"] == 0).all()
    assert (table["kendall_tau"] == 1).all()
    assert (table["discriminative_power"] == 1).all()
    assert (table["significant_swapped"] == 0).all()


def test_exchangeable_systems_swap_half_the_time_and_a_test_calls_about_alpha():
    scores = _population([0.0] * 6, queries=2_000, seed=11)
    row = split_half_reliability(scores, [100], trials=400, alpha=0.05, seed=1).loc[100]
    assert row["swap_rate"] == pytest.approx(0.5, abs=0.03)
    assert row["kendall_tau"] == pytest.approx(0.0, abs=0.03)
    assert row["discriminative_power"] == pytest.approx(0.05, abs=0.015)
    assert row["significant_swapped"] == pytest.approx(0.5, abs=0.1)


def test_more_queries_agree_more():
    table = split_half_reliability(_population([0.0, 0.01, 0.02, 0.03]), [5, 50, 200])
    assert table["swap_rate"].is_monotonic_decreasing
    assert table["kendall_tau"].is_monotonic_increasing
    assert table["discriminative_power"].is_monotonic_increasing


def test_swap_rates_bin_each_pair_by_its_first_difference():
    scores = _population([0.0, 0.005, 0.02, 0.08], queries=200)
    table = swap_rates(scores, 40, edges=(0.0, 0.01, 0.05), trials=60, seed=2)
    bins = {0.0: [0, 0], 0.01: [0, 0], 0.05: [0, 0]}
    for first, second in _draws(seed=2, queries=200, size=40, trials=60):
        a, b = scores.iloc[first].mean(), scores.iloc[second].mean()
        for x, y in itertools.combinations(scores.columns, 2):
            gap = a[y] - a[x]
            edge = max(edge for edge in bins if abs(gap) >= edge)
            bins[edge][0] += 1
            bins[edge][1] += gap * (b[y] - b[x]) < 0
    assert table["draws"].tolist() == [count for count, _ in bins.values()]
    assert table["swap_rate"].tolist() == pytest.approx(
        [swaps / count for count, swaps in bins.values()]
    )
    assert table.attrs == {"queries": 40, "trials": 60, "edges": (0.0, 0.01, 0.05)}


def test_an_empty_bin_has_no_swap_rate():
    table = swap_rates(_population([0.0, 5.0]), 20, edges=(0.0, 0.5, 10.0), trials=10)
    assert table["draws"].tolist() == [0, 10, 0]
    assert np.isnan(table.loc[0.0, "swap_rate"]) and table.loc[0.5, "swap_rate"] == 0


def test_topic_set_size_plans_from_twice_the_anova_residual_variance():
    scores = _population([0.0, 0.01, 0.03], queries=60)
    long = scores.rename_axis("topic").reset_index().melt(id_vars="topic", var_name="system")
    error = anova_lm(smf.ols("value ~ C(system) + C(topic)", data=long).fit()).loc[
        "Residual", "mean_sq"
    ]
    planned = TTestPower().solve_power(effect_size=0.02 / np.sqrt(2 * error), alpha=0.05, power=0.8)
    assert topic_set_size(scores, 0.02) == int(np.ceil(planned))


def test_no_residual_variance_has_no_topic_set_size():
    scores = pd.DataFrame({"a": [0.1, 0.5, 0.9], "b": [0.2, 0.6, 1.0]})
    with pytest.raises(ValueError, match="no residual variance"):
        topic_set_size(scores, 0.01)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda s: split_half_reliability(s, [1]), ValueError, "between 2 and 200"),
        (lambda s: split_half_reliability(s, [201]), ValueError, "between 2 and 200"),
        (lambda s: split_half_reliability(s, [2.5]), TypeError, "whole number of queries"),
        (lambda s: split_half_reliability(s, [10], trials=0), ValueError, "trials"),
        (lambda s: split_half_reliability(s, [10], alpha=1.5), ValueError, "alpha"),
        (lambda s: split_half_reliability(s[["s0"]], [10]), ValueError, "at least 2"),
        (lambda s: swap_rates(s, 10, edges=(0.01, 0.02)), ValueError, "start at 0"),
        (lambda s: swap_rates(s, 10, edges=(0.0, 0.02, 0.01)), ValueError, "increase"),
    ],
)
def test_bad_arguments_are_named(call, error, message):
    with pytest.raises(error, match=message):
        call(_population([0.0, 0.1]))


def test_the_display_forms_are_translated_and_keep_the_values():
    scores = _population([0.0, 0.02, 0.05])
    for table in (
        split_half_reliability(scores, [10], trials=10),
        swap_rates(scores, 10, trials=10),
        ranking_agreement(scores.iloc[:10].mean(), scores.iloc[10:20].mean()),
    ):
        shown = table.display(lang="zh", digits=None)
        assert english_headers(shown) == []
        same_values(shown, table)
