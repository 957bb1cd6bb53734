"""Every pair of systems: each p-value checked against an independent computation.

The paired tests against scipy's, Holm and Benjamini–Hochberg against their step
procedures written out by hand, the one-way Tukey HSD against scipy's
``tukey_hsd``, and the two-way one against the residual mean square of
statsmodels' ANOVA of an ordinary least squares fit.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf
from scipy import stats
from statsmodels.stats.anova import anova_lm

from mapteach.analysis import compare_all_pairs, residual_variance
from tests.analysis.display_checks import english_headers, same_values


@pytest.fixture(scope="module")
def scores() -> pd.DataFrame:
    """Five systems on 30 queries: easy and hard queries, systems a little apart."""
    rng = np.random.default_rng(7)
    level = rng.random((30, 1))
    noise = rng.normal(0, 0.05, (30, 5))
    return pd.DataFrame(
        (level + noise + [0.0, 0.01, 0.03, 0.06, 0.061]).clip(0, 1), columns=list("vwxyz")
    )


@pytest.fixture(scope="module")
def pairs(scores: pd.DataFrame) -> pd.DataFrame:
    """The five systems' ten pairs, by the paired t-test."""
    return compare_all_pairs(scores)


def _holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values, written out."""
    order, m = np.argsort(p), len(p)
    adjusted, running = np.empty(m), 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[index]))
        adjusted[index] = running
    return adjusted


def _benjamini_hochberg(p: np.ndarray) -> np.ndarray:
    """Benjamini–Hochberg's step-up adjusted p-values, written out."""
    order, m = np.argsort(p), len(p)
    adjusted, running = np.empty(m), 1.0
    for rank in range(m - 1, -1, -1):
        index = order[rank]
        running = min(running, m / (rank + 1) * p[index])
        adjusted[index] = running
    return adjusted


def _anova_residual_mean_square(scores: pd.DataFrame) -> tuple[float, float]:
    """statsmodels' two-way ANOVA (system + topic, no interaction): residual MS and its df."""
    long = scores.rename_axis("topic").reset_index().melt(id_vars="topic", var_name="system")
    fit = smf.ols("value ~ C(system) + C(topic)", data=long).fit()
    table = anova_lm(fit)
    return float(table.loc["Residual", "mean_sq"]), float(table.loc["Residual", "df"])


def test_every_pair_once_in_column_order_with_b_minus_a(scores, pairs):
    assert pairs.index.tolist() == list(itertools.combinations("vwxyz", 2))
    for (a, b), delta in pairs["mean_delta"].items():
        assert delta == pytest.approx(scores[b].mean() - scores[a].mean())
        assert pairs.loc[(a, b), "sd_delta"] == pytest.approx((scores[b] - scores[a]).std())
    assert pairs.attrs == {"test": "t-test", "systems": 5, "queries": 30, "pairs": 10}


@pytest.mark.parametrize(
    ("test", "column", "reference"),
    [
        ("t-test", "p_ttest", lambda a, b: stats.ttest_rel(b, a).pvalue),
        ("wilcoxon", "p_wilcoxon", lambda a, b: stats.wilcoxon(b - a).pvalue),
        (
            "sign",
            "p_sign",
            lambda a, b: stats.binomtest(int((b > a).sum()), int((b != a).sum())).pvalue,
        ),
    ],
)
def test_the_raw_p_values_are_scipys_paired_tests(scores, test, column, reference):
    pairs = compare_all_pairs(scores, test=test)
    for (a, b), p in pairs[column].items():
        assert p == pytest.approx(reference(scores[a].to_numpy(), scores[b].to_numpy()))


def test_holm_and_benjamini_hochberg_are_their_step_procedures(scores, pairs):
    raw = pairs["p_ttest"].to_numpy()
    np.testing.assert_allclose(pairs["p_holm"], _holm(raw))
    np.testing.assert_allclose(pairs["p_bh"], _benjamini_hochberg(raw))
    assert (pairs["p_bh"] <= pairs["p_holm"] + 1e-12).all()  # the FDR promises less


def test_one_way_tukey_is_scipys_tukey_hsd(scores, pairs):
    matrix = stats.tukey_hsd(*(scores[name] for name in scores.columns)).pvalue
    for (a, b), p in pairs["p_tukey"].items():
        i, j = scores.columns.get_loc(a), scores.columns.get_loc(b)
        assert p == pytest.approx(matrix[i, j], abs=1e-6)


def test_tukey_with_topics_reads_the_two_way_anova_residual(scores, pairs):
    error, df = _anova_residual_mean_square(scores)
    assert residual_variance(scores) == pytest.approx(error)
    for (a, b), p in pairs["p_tukey_topics"].items():
        q = abs(scores[b].mean() - scores[a].mean()) / np.sqrt(error / len(scores))
        assert p == pytest.approx(stats.studentized_range.sf(q, scores.shape[1], df))
    # Removing each topic's level leaves less error: the two-way test sees more.
    assert (pairs["p_tukey_topics"] <= pairs["p_tukey"] + 1e-9).all()
    assert (pairs["p_tukey_topics"] < pairs["p_tukey"]).any()


def test_a_constant_gap_on_every_query_has_no_residual_error():
    scores = pd.DataFrame({"a": [0.1, 0.5, 0.9], "b": [0.2, 0.6, 1.0], "c": [0.1, 0.5, 0.9]})
    pairs = compare_all_pairs(scores)
    assert residual_variance(scores) == pytest.approx(0.0, abs=1e-15)
    assert pairs.loc[("a", "b"), "p_tukey_topics"] < 1e-6
    assert pairs.loc[("a", "c"), "p_tukey_topics"] == 1.0


def test_randomization_is_the_packages_exact_sign_flip_test():
    scores = pd.DataFrame({"a": [0.2, 0.4, 0.5, 0.3], "b": [0.3, 0.6, 0.6, 0.4]})
    pairs = compare_all_pairs(scores, test="randomization")
    # 4 deltas 0.1, 0.2, 0.1, 0.1: only the all-plus and all-minus patterns reach the mean.
    assert pairs.loc[("a", "b"), "p_randomization"] == pytest.approx(2 / 16)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (pd.DataFrame({"a": [0.1, 0.2]}), "at least 2 of each"),
        (pd.DataFrame({"a": [0.1], "b": [0.2]}), "at least 2 of each"),
        (pd.DataFrame({"a": [0.1, np.nan], "b": [0.2, 0.3]}), "'a' on query 1 is nan"),
        (pd.DataFrame([[0.1, 0.2], [0.3, 0.4]], columns=["a", "a"]), "distinct strings"),
        (pd.DataFrame([[0.1, 0.2], [0.3, 0.4]]), "distinct strings"),
    ],
)
def test_a_bad_table_is_named(table, message):
    with pytest.raises(ValueError, match=message):
        compare_all_pairs(table)


def test_an_unknown_test_and_a_non_frame_are_refused(scores):
    with pytest.raises(ValueError, match="test must be one of"):
        compare_all_pairs(scores, test="anova")
    with pytest.raises(TypeError, match="pandas DataFrame"):
        compare_all_pairs(scores.to_numpy())


def test_the_display_form_is_translated_and_keeps_the_values(scores, pairs):
    shown = pairs.display(lang="zh", digits=None)
    assert english_headers(shown) == []
    same_values(shown, pairs)
