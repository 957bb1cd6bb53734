"""The statistics of a comparison, each checked against scipy, statsmodels or a brute force.

Every p-value must be what scipy gives when called directly on the same deltas B - A;
the bootstrap interval what a plain loop over the same seeded resamples gives; the
adjusted p-values what statsmodels gives; the queries needed what statsmodels'
power analysis gives.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests  # type: ignore[import-untyped]
from statsmodels.stats.power import TTestPower  # type: ignore[import-untyped]

from mapteach.analysis.compare import (
    compare_many,
    compare_runs,
    compare_scores,
    compare_systems,
    queries_needed,
)
from mapteach.analysis.paired_tests import TESTS, paired_randomization_test
from tests.analysis.display_checks import english_header, english_headers, same_values


def _scores(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-query scores of two systems, rounded so that some deltas are 0 and some tie."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(0, 1, n).round(2)
    b = np.clip(a + rng.normal(0.03, 0.1, n), 0, 1).round(2)
    b[:3] = a[:3]  # three ties
    return a, b


@pytest.mark.parametrize(("n", "seed"), [(12, 0), (40, 1), (300, 2)])
def test_every_p_value_is_scipys_on_the_same_deltas(n, seed):
    a, b = _scores(n, seed)
    result = compare_scores(a, b, n_permutations=5_000, seed=seed)
    deltas = b - a
    np.testing.assert_array_equal(result.per_query["delta"], deltas)
    assert result.p_ttest == stats.ttest_rel(b, a).pvalue
    assert result.p_ttest == pytest.approx(stats.ttest_1samp(deltas, 0).pvalue, rel=1e-9)
    assert result.p_wilcoxon == stats.wilcoxon(deltas).pvalue
    wins, losses = int((deltas > 0).sum()), int((deltas < 0).sum())
    assert result.p_sign == stats.binomtest(wins, wins + losses, 0.5).pvalue
    assert result.p_randomization == paired_randomization_test(
        deltas, n_permutations=5_000, seed=seed
    )
    assert not result.notes


SUMMARY_KEYS = [
    "mean_a",
    "mean_b",
    "mean_delta",
    "sd_delta",
    "ci_low",
    "ci_high",
    "queries",
    "b_better",
    "b_worse",
    "same",
    "p_randomization",
    "p_ttest",
    "p_wilcoxon",
    "p_sign",
]


def test_the_summary_has_exactly_its_keys_and_carries_every_statistic():
    a, b = _scores(30, 3)
    result = compare_scores(a, b, measure="nDCG@10")
    summary = result.summary
    assert list(summary.index) == SUMMARY_KEYS
    assert summary.attrs == {"measure": "nDCG@10", "confidence": 0.95}
    assert summary["mean_a"] == pytest.approx(a.mean()) and summary["mean_b"] == b.mean()
    assert summary["mean_delta"] == pytest.approx((b - a).mean())
    assert summary[TESTS["randomization"]] == summary["p_randomization"] == result.p_randomization
    assert summary[TESTS["t-test"]] == summary["p_ttest"] == result.p_ttest
    assert summary[TESTS["wilcoxon"]] == summary["p_wilcoxon"] == result.p_wilcoxon
    assert summary[TESTS["sign"]] == summary["p_sign"] == result.p_sign
    assert (summary["ci_low"], summary["ci_high"]) == (result.ci_low, result.ci_high)
    assert summary["sd_delta"] == pytest.approx(np.std(b - a, ddof=1))
    assert summary["b_better"] == int((b > a).sum()) and summary["b_worse"] == int((b < a).sum())
    assert summary["b_better"] + summary["b_worse"] + summary["same"] == summary["queries"] == 30


def test_tests_names_the_summary_key_of_each_p_value():
    assert dict(TESTS) == {
        "randomization": "p_randomization",
        "t-test": "p_ttest",
        "wilcoxon": "p_wilcoxon",
        "sign": "p_sign",
    }


def test_the_header_check_sees_english():
    assert english_header("mean delta (B - A)") and english_header("sd")
    assert not english_header("平均差值（B - A）") and not english_header("MAP")
    assert not english_header("p") and not english_header("AP q1")


def test_the_summary_is_shown_in_chinese_with_the_same_values():
    result = compare_scores(*_scores(30, 3), measure="nDCG@10")
    shown = result.display(lang="zh")
    assert type(shown) is pd.Series and len(shown) == len(SUMMARY_KEYS)
    assert not english_headers(shown)
    same_values(shown, result.summary.round(4))
    exact = result.display(lang="zh", digits=None)
    same_values(exact, result.summary)
    assert exact.attrs == result.summary.attrs
    english = result.display()
    assert english.index[3] == "sd of deltas" and english.index[-1] == "p (sign test)"
    assert list(result.summary.index) == SUMMARY_KEYS  # the machine form is untouched
    counts = [english[key] for key in ("number of queries", "B better", "B worse", "same")]
    assert all(type(count) is int for count in counts)
    assert sum(counts[1:]) == counts[0] == 30


def test_a_comparison_of_systems_is_shown_in_chinese_with_the_same_values():
    systems = pd.DataFrame(
        {
            name: np.clip(np.linspace(0.2, 0.8, 12) + shift, 0, 1)
            for name, shift in (("base", 0.0), ("up", 0.05), ("down", -0.02))
        }
    )
    table = compare_systems(systems, baseline="base", n_permutations=500, n_resamples=200)
    assert list(table.columns) == [*SUMMARY_KEYS, "p_adjusted", "significant"]
    assert table.index.name == "system"
    shown = table.display(lang="zh")
    assert not english_headers(shown)
    assert list(shown.index) == ["up", "down"]  # the systems' names are data
    same_values(shown, table.round(4))
    same_values(table.display(digits=None), table)


def _brute_force_percentile_interval(
    deltas: np.ndarray, n_resamples: int, seed: int, confidence: float
) -> tuple[float, float]:
    """Draw the same resamples one by one, average each by hand, interpolate the percentiles."""
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, deltas.size, (n_resamples, deltas.size))
    means = sorted(sum(float(deltas[i]) for i in row) / deltas.size for row in picks)

    def percentile(q: float) -> float:  # numpy's default, "linear": position q * (B - 1)
        position = q * (len(means) - 1)
        below = math.floor(position)
        above = min(below + 1, len(means) - 1)
        return means[below] + (position - below) * (means[above] - means[below])

    tail = (1 - confidence) / 2
    return percentile(tail), percentile(1 - tail)


@pytest.mark.parametrize(
    ("deltas", "n_resamples", "confidence"),
    [
        ([0.1, 0.2, 0.0, 0.1], 2_000, 0.95),
        ([0.3, -0.1, 0.05, 0.0, -0.2, 0.4, 0.1], 999, 0.9),
        ([-0.5, 0.25], 500, 0.8),
    ],
)
def test_the_bootstrap_interval_is_the_brute_force_one(deltas, n_resamples, confidence):
    b = np.array(deltas)
    result = compare_scores(
        np.zeros(b.size), b, n_resamples=n_resamples, confidence=confidence, seed=7
    )
    low, high = _brute_force_percentile_interval(b, n_resamples, 7, confidence)
    assert result.ci_low == pytest.approx(low, abs=1e-12)
    assert result.ci_high == pytest.approx(high, abs=1e-12)
    assert result.confidence == confidence


def test_the_bootstrap_interval_is_seeded_and_holds_the_mean():
    a, b = _scores(500, 4)
    first, again = compare_scores(a, b, seed=1), compare_scores(a, b, seed=1)
    assert (first.ci_low, first.ci_high) == (again.ci_low, again.ci_high)
    assert first.ci_low < (b - a).mean() < first.ci_high
    narrower = compare_scores(a, b, seed=1, confidence=0.5)
    assert first.ci_low < narrower.ci_low < narrower.ci_high < first.ci_high


def test_degenerate_cases_give_nan_and_say_why():
    one = compare_scores([0.5], [0.7])
    assert math.isnan(one.p_ttest) and math.isnan(one.ci_low) and math.isnan(one.ci_high)
    assert one.p_wilcoxon == stats.wilcoxon([0.2]).pvalue
    assert one.p_sign == 1.0
    assert any("at least 2 queries" in note for note in one.notes)
    assert any("bootstrap interval is NaN" in note for note in one.notes)

    same = compare_scores([0.2, 0.5, 0.9], [0.2, 0.5, 0.9])
    assert math.isnan(same.p_ttest) and math.isnan(same.p_wilcoxon) and math.isnan(same.p_sign)
    assert same.p_randomization == 1.0
    assert (same.ci_low, same.ci_high) == (0.0, 0.0)
    assert [note.split(" is NaN")[0] for note in same.notes] == [
        "p (paired t-test)",
        "p (Wilcoxon)",
        "p (sign test)",
    ]
    assert "drops zero deltas" in str(same)


def test_compare_scores_aligns_series_by_query_and_checks_its_input():
    a = pd.Series([0.1, 0.5, 0.3], index=["q1", "q2", "q3"])
    b = pd.Series([0.6, 0.2, 0.4], index=["q2", "q1", "q3"])
    result = compare_scores(a, b)
    assert result.per_query["delta"].round(4).to_dict() == {"q1": 0.1, "q2": 0.1, "q3": 0.1}
    with pytest.raises(ValueError, match="same queries"):
        compare_scores(a, b.rename({"q3": "q4"}))
    with pytest.raises(ValueError, match="same length"):
        compare_scores([0.1, 0.2], [0.1])
    with pytest.raises(ValueError, match="finite"):
        compare_scores([0.1, np.nan], [0.1, 0.2])
    with pytest.raises(ValueError, match="confidence"):
        compare_scores([0.1, 0.2], [0.2, 0.3], confidence=95)


def _holm_by_hand(p: list[float]) -> list[float]:
    """Holm's step-down adjustment: sort, multiply the i-th smallest by m - i, keep it rising."""
    order = np.argsort(p)
    adjusted, running = np.empty(len(p)), 0.0
    for i, index in enumerate(order):
        running = max(running, min(1.0, (len(p) - i) * p[index]))
        adjusted[index] = running
    return adjusted.tolist()


def _systems(n_queries: int = 25) -> pd.DataFrame:
    rng = np.random.default_rng(11)
    base = rng.uniform(0.2, 0.8, n_queries)
    table = {"base": base}
    for i, shift in enumerate([0.0, 0.02, 0.05, 0.1, -0.04]):
        table[f"s{i}"] = np.clip(base + shift + rng.normal(0, 0.08, n_queries), 0, 1)
    return pd.DataFrame(table, index=[f"q{i:02d}" for i in range(n_queries)])


@pytest.mark.parametrize("test", list(TESTS))
@pytest.mark.parametrize("correction", ["holm", "bonferroni"])
def test_adjusted_p_values_are_statsmodels(test, correction):
    table = compare_systems(
        _systems(), baseline="base", test=test, correction=correction, n_permutations=2_000
    )
    raw = table[TESTS[test]].to_numpy(dtype=float)
    expected = multipletests(raw, alpha=0.05, method=correction)
    np.testing.assert_allclose(table["p_adjusted"].to_numpy(dtype=float), expected[1])
    assert table["significant"].tolist() == expected[0].tolist()
    if correction == "holm":
        np.testing.assert_allclose(table["p_adjusted"].astype(float), _holm_by_hand(list(raw)))
    assert table.attrs == {
        "baseline": "base",
        "test": test,
        "correction": correction,
        "alpha": 0.05,
    }


def test_each_row_of_compare_systems_is_a_pairwise_comparison():
    systems = _systems()
    table = compare_systems(systems, baseline="base", correction="none", n_permutations=2_000)
    assert table.index.tolist() == ["s0", "s1", "s2", "s3", "s4"]
    pair = compare_scores(systems["base"], systems["s3"], n_permutations=2_000).summary
    pd.testing.assert_series_equal(
        table.loc["s3"][pair.index].astype(float),
        pair.astype(float),
        check_names=False,
        check_series_type=False,
    )
    assert table.loc["s3", "p_adjusted"] == pair["p_randomization"]


def test_an_undefined_p_value_is_not_counted_among_the_tests():
    systems = _systems(10)
    systems["copy"] = systems["base"]  # every delta 0: no t-test
    table = compare_systems(systems, baseline="base", test="t-test")
    assert table["p_adjusted"].isna()["copy"] and not table["significant"]["copy"]
    finite = table.drop(index="copy")
    np.testing.assert_allclose(
        finite["p_adjusted"].astype(float),
        multipletests(finite["p_ttest"].astype(float), method="holm")[1],
    )


def test_compare_systems_and_compare_many_check_their_arguments():
    systems = _systems(5)
    with pytest.raises(ValueError, match="correction must be one of"):
        compare_systems(systems, baseline="base", correction="fdr")
    with pytest.raises(ValueError, match="test must be one of"):
        compare_systems(systems, baseline="base", test="anova")
    with pytest.raises(ValueError, match="not a column"):
        compare_systems(systems, baseline="nobody")
    with pytest.raises(ValueError, match="no system to compare"):
        compare_systems(systems[["base"]], baseline="base")
    with pytest.raises(ValueError, match="missing score"):
        compare_systems(systems.assign(s0=np.nan), baseline="base")
    with pytest.raises(ValueError, match="not one of the runs"):
        compare_many({"q": {"a": 1}}, {"x": {"q": {"a": 1.0}}}, baseline="base")
    with pytest.raises(ValueError, match="only the baseline"):
        compare_many({"q": {"a": 1}}, {"base": {"q": {"a": 1.0}}}, baseline="base")


def test_compare_many_is_compare_runs_per_pair_with_adjusted_p_values():
    rng = np.random.default_rng(5)
    qrels = {f"q{i}": {f"d{j}": int(rng.random() < 0.3) for j in range(12)} for i in range(20)}
    runs = {
        name: {q: {f"d{j}": float(rng.random()) for j in range(12)} for q in qrels}
        for name in ["base", "x", "y", "z"]
    }
    runs["x"].pop("q3")  # a query x lacks scores 0 for x
    table = compare_many(qrels, runs, baseline="base", measure="P@5", test="sign")
    for name in ["x", "y", "z"]:
        pair = compare_runs(qrels, runs["base"], runs[name], measure="P@5").summary
        pd.testing.assert_series_equal(
            table.loc[name][pair.index].astype(float),
            pair.astype(float),
            check_names=False,
            check_series_type=False,
        )
    np.testing.assert_allclose(
        table["p_adjusted"].astype(float),
        multipletests(table["p_sign"].astype(float), method="holm")[1],
    )


@pytest.mark.parametrize("sd", [0.05, 0.1, 0.2, 0.35])
@pytest.mark.parametrize("effect", [0.01, 0.02, 0.05, 0.1])
@pytest.mark.parametrize(("power", "alpha"), [(0.8, 0.05), (0.9, 0.01)])
def test_queries_needed_is_statsmodels_solve_power_rounded_up(sd, effect, power, alpha):
    exact = TTestPower().solve_power(
        effect_size=effect / sd, nobs=None, alpha=alpha, power=power, alternative="two-sided"
    )
    assert queries_needed(sd, effect, power=power, alpha=alpha) == max(2, math.ceil(exact))


def test_queries_needed_is_monotone():
    effects = [0.005, 0.01, 0.02, 0.04, 0.08]
    needed = [queries_needed(0.15, effect) for effect in effects]
    assert needed == sorted(needed, reverse=True) and len(set(needed)) == len(needed)
    by_spread = [queries_needed(sd, 0.02) for sd in (0.05, 0.1, 0.2, 0.4)]
    assert by_spread == sorted(by_spread) and len(set(by_spread)) == len(by_spread)
    by_power = [queries_needed(0.15, 0.02, power=p) for p in (0.5, 0.7, 0.8, 0.9, 0.95)]
    assert by_power == sorted(by_power) and len(set(by_power)) == len(by_power)
    by_alpha = [queries_needed(0.15, 0.02, alpha=a) for a in (0.001, 0.01, 0.05, 0.1)]
    assert by_alpha == sorted(by_alpha, reverse=True) and len(set(by_alpha)) == len(by_alpha)
    assert queries_needed(0.01, 1.0) == 2  # the fewest a t-test can use


@pytest.mark.parametrize("d", [0.3, 1.0, 2.5, 6.0, 8.0, 15.0])
def test_queries_needed_is_the_fewest_queries_with_enough_power(d):
    """Also where statsmodels' solver fails to converge (d above about 5)."""
    n = queries_needed(1.0, d)

    def reached(nobs: int) -> bool:
        value = TTestPower().power(effect_size=d, nobs=nobs, alpha=0.05, alternative="two-sided")
        if np.isnan(value):  # statsmodels' lower tail is NaN when negligible: the upper tail
            value = stats.nct.sf(stats.t.isf(0.025, nobs - 1), nobs - 1, d * math.sqrt(nobs))
        return bool(value >= 0.8)

    assert reached(n) and (n == 2 or not reached(n - 1))
    if d > 5:
        assert n <= 3


def test_queries_needed_reads_a_comparison_and_checks_its_input():
    a, b = _scores(40, 6)
    comparison = compare_scores(a, b)
    assert queries_needed(comparison, 0.02) == queries_needed(float(np.std(b - a, ddof=1)), 0.02)
    with pytest.raises(ValueError, match="no spread"):
        queries_needed(0.0, 0.02)
    with pytest.raises(ValueError, match="effect must be"):
        queries_needed(0.1, -0.02)
    with pytest.raises(ValueError, match="power must be"):
        queries_needed(0.1, 0.02, power=80)
    with pytest.raises(ValueError, match="alpha must be"):
        queries_needed(0.1, 0.02, alpha=0)


def test_a_query_answered_only_with_unjudged_documents_is_still_compared():
    from mapteach import compare_runs

    qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}}
    run_a = {"q1": {"u": 1.0}, "q2": {"d2": 1.0}, "q3": {"d3": 1.0}}
    run_b = {"q1": {"d1": 1.0}, "q2": {"d2": 1.0}, "q3": {"x": 1.0, "d3": 0.5}}
    result = compare_runs(qrels, run_a, run_b, missing="ignore", judged_only=True)
    assert result.per_query.index.tolist() == ["q1", "q2", "q3"]
    assert result.per_query.loc["q1", "delta"] == 1.0


def test_compare_scores_names_queries_scored_twice():
    import pandas as pd

    from mapteach.analysis.compare import compare_scores

    a = pd.Series([0.1, 0.2], index=["q1", "q2"])
    b = pd.Series([0.1, 0.2, 0.3], index=["q1", "q2", "q2"])
    with pytest.raises(ValueError, match=r"b scores some queries more than once: \['q2'\]"):
        compare_scores(a, b)


def test_a_comparison_prints_in_chinese_with_full_width_colons():
    from mapteach.i18n import language

    scores = pd.Series([0.1, 0.5, 0.7], index=["q1", "q2", "q3"])
    comparison = compare_scores(scores, scores + 0.1)
    with language("zh"):
        printed = str(comparison).splitlines()
    shown = comparison.display(lang="zh", digits=None)
    assert printed[: len(shown)] == [f"{key}：{value:.4g}" for key, value in shown.items()]
