"""Pools, pooled judgments and pool bias, each checked on examples small enough to do by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mapteach.analysis.pooling import (
    judge_pool,
    judged_fraction,
    pool,
    pool_bias,
    run_from_scores,
    sample_pool,
)
from mapteach.runs.evaluation import evaluate
from mapteach.runs.frames import as_run
from tests.analysis.display_checks import english_headers, same_values

# Two queries. q1 has a tie (d2 and d10 at 0.5): trec_eval puts d2 first (ids descending as
# strings, "d2" > "d10"). q2 is answered by run A only.
RUN_A = {
    "q1": {"d1": 0.9, "d10": 0.5, "d2": 0.5, "d3": 0.1},
    "q2": {"e1": 2.0, "e2": 1.0},
}
RUN_B = {"q1": {"d3": 3.0, "d4": 2.0, "d1": 1.0}}


def _pairs(frame: pd.DataFrame) -> list[tuple[str, str]]:
    return list(zip(frame["query_id"], frame["doc_id"], strict=True))


def test_a_pool_is_the_union_of_each_runs_top_depth_in_trec_eval_order():
    pooled = pool({"A": RUN_A, "B": RUN_B}, depth=2)
    # A's top 2: q1 d1, d2 (d2 beats d10 in the tie); q2 e1, e2. B's top 2: q1 d3, d4.
    assert _pairs(pooled) == [
        ("q1", "d1"),
        ("q1", "d2"),
        ("q1", "d3"),
        ("q1", "d4"),
        ("q2", "e1"),
        ("q2", "e2"),
    ]
    assert pooled["runs"].tolist() == [1, 1, 1, 1, 1, 1]
    deeper = pool([RUN_A, RUN_B], depth=3)  # any iterable of runs; B's d1 now counted twice
    assert deeper.set_index(["query_id", "doc_id"])["runs"].to_dict() == {
        ("q1", "d1"): 2,
        ("q1", "d10"): 1,
        ("q1", "d2"): 1,
        ("q1", "d3"): 1,
        ("q1", "d4"): 1,
        ("q2", "e1"): 1,
        ("q2", "e2"): 1,
    }


def test_the_pool_ignores_the_input_order_of_a_run():
    shuffled = as_run(RUN_A).sample(frac=1, random_state=3)
    pd.testing.assert_frame_equal(pool([shuffled], depth=2), pool([RUN_A], depth=2))


def test_a_pool_deeper_than_every_list_holds_every_result():
    pooled = pool({"A": RUN_A, "B": RUN_B}, depth=100)
    everything = pd.concat([as_run(RUN_A), as_run(RUN_B)])[["query_id", "doc_id"]]
    assert set(_pairs(pooled)) == set(_pairs(everything))


def test_pool_checks_its_arguments():
    with pytest.raises(ValueError, match="depth must be >= 1"):
        pool([RUN_A], depth=0)
    with pytest.raises(TypeError, match="depth must be a positive integer"):
        pool([RUN_A], depth=2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one run"):
        pool({}, depth=3)


def test_judge_pool_keeps_the_pooled_judgments_and_judges_the_rest_of_the_pool_0():
    full = {"q1": {"d1": 1, "d2": 2, "d9": 1}, "q2": {"e2": 1}}
    judged = judge_pool(pool({"A": RUN_A}, depth=2), full)
    assert judged.columns.tolist() == ["query_id", "doc_id", "relevance"]
    assert list(judged.itertuples(index=False, name=None)) == [
        ("q1", "d1", 1),
        ("q1", "d2", 2),
        ("q2", "e1", 0),  # pooled, and the full qrels leave it out: judged not relevant
        ("q2", "e2", 1),
    ]
    assert judged["relevance"].dtype == np.int64
    # d9 is relevant but no run pooled it: it is absent, unjudged


def test_judged_fraction_is_the_share_of_the_top_k_that_is_judged():
    qrels = {"q1": {"d1": 1, "d3": 0}, "q2": {"e2": 1}, "q3": {"x": 1}}
    shares = judged_fraction(RUN_A, qrels, 2)
    # q1's top 2: d1 (judged), d2 (not); q2's: e1 (not), e2 (judged); q3 unanswered
    assert shares.to_dict() == {"q1": 0.5, "q2": 0.5, "q3": 0.0}
    assert shares.name == "Judged@2"
    assert judged_fraction(RUN_A, qrels, 4)["q1"] == 0.5  # d1 and d3 of 4
    assert judged_fraction(RUN_A, qrels, 10)["q2"] == 0.5  # a list of 2: over 2, not 10
    table = evaluate(qrels, RUN_A, ["Judged@2"], missing="zero")
    pd.testing.assert_series_equal(shares, table["Judged@2"])


# A constructed pool bias. One query, relevant documents r1..r4. The pooled runs P and Q
# find r1 and r2 at the top and r3, r4 only deep down; the outsider O finds r3 and r4 at
# the top. A pool of depth 2 from P and Q never sees r3 or r4.
QRELS = {"q": {"r1": 1, "r2": 1, "r3": 1, "r4": 1}}
RUN_P = {"q": {"r1": 6.0, "r2": 5.0, "n1": 4.0, "n2": 3.0, "r3": 2.0, "r4": 1.0}}
RUN_Q = {"q": {"r2": 6.0, "n1": 5.0, "r1": 4.0, "n3": 3.0, "n2": 2.0, "r3": 1.0}}
RUN_O = {"q": {"r3": 6.0, "r4": 5.0, "r1": 4.0, "n4": 3.0, "r2": 2.0, "n5": 1.0}}
RUNS = {"P": RUN_P, "Q": RUN_Q, "O": RUN_O}


def test_the_outsiders_ap_falls_with_pooled_judgments():
    table = pool_bias(QRELS, RUNS, outsider="O", depth=2)
    # The pool is r1, r2, n1: R becomes 2, and O's r3 and r4 count as not relevant.
    full_o = (1 / 1 + 2 / 2 + 3 / 3 + 4 / 5) / 4
    pooled_o = (1 / 3 + 2 / 5) / 2
    full_p = (1 / 1 + 2 / 2 + 3 / 5 + 4 / 6) / 4
    full_q = (1 / 1 + 2 / 3 + 3 / 6) / 4
    assert table.loc["O", "full"] == pytest.approx(full_o)
    assert table.loc["O", "pooled"] == pytest.approx(pooled_o)
    assert table.loc["O", "change"] == pytest.approx(pooled_o - full_o) and pooled_o < full_o
    assert table.loc["P", ["full", "pooled"]].tolist() == pytest.approx([full_p, 1.0])
    assert table.loc["Q", ["full", "pooled"]].tolist() == pytest.approx([full_q, (1 + 2 / 3) / 2])
    # O was the best run; with pooled judgments it is the worst
    assert table["rank_full"].to_dict() == {"P": 2, "Q": 3, "O": 1}
    assert table["rank_pooled"].to_dict() == {"P": 1, "Q": 2, "O": 3}
    assert table["in_pool"].to_dict() == {"P": True, "Q": True, "O": False}
    assert table.loc["O", "judged"] == 0.0 and table.loc["P", "judged"] == 1.0
    assert table.attrs == {"measure": "AP", "depth": 2, "outsider": "O", "pool_size": 3.0}


POOL_BIAS_KEYS = ["in_pool", "full", "pooled", "change", "rank_full", "rank_pooled", "judged"]


def test_the_pool_bias_table_has_exactly_its_keys():
    table = pool_bias(QRELS, RUNS, outsider="O", depth=2)
    assert list(table.columns) == POOL_BIAS_KEYS
    assert table.index.name == "run" and list(table.index) == ["P", "Q", "O"]
    judged = evaluate(judge_pool(pool({"P": RUN_P, "Q": RUN_Q}, 2), QRELS), RUN_O, ["Judged@2"])
    assert table.loc["O", "judged"] == judged["Judged@2"].mean()


def test_the_pool_bias_table_is_shown_in_chinese_with_the_same_values():
    table = pool_bias(QRELS, RUNS, outsider="O", depth=3)
    shown = table.display(lang="zh")
    assert not english_headers(shown)
    assert shown.columns[-1] == "Judged@3"  # the measure it holds, named as evaluate() names it
    assert list(shown.index) == ["P", "Q", "O"] and shown.attrs == table.attrs
    same_values(shown, table.round(4))
    same_values(table.display(digits=None), table)
    assert table.display().columns[0] == "in pool"


def test_pool_bias_passes_options_and_measures_to_evaluate():
    condensed = pool_bias(QRELS, RUNS, outsider="O", depth=2, judged_only=True)
    # Judged-only: O's list becomes r1, r2 (its unjudged r3, r4, n4, n5 are removed)
    assert condensed.loc["O", "pooled"] == pytest.approx(1.0)
    bpref = pool_bias(QRELS, RUNS, outsider="O", depth=2, measure="Bpref")
    assert bpref.loc["O", "pooled"] == pytest.approx(1.0)  # no judged non-relevant above r1, r2
    assert bpref.attrs["measure"] == "Bpref"


def test_a_deep_enough_pool_has_no_bias():
    table = pool_bias(QRELS, RUNS, outsider="O", depth=6)
    np.testing.assert_allclose(table["change"], 0.0, atol=1e-12)


def test_pool_bias_checks_the_outsider():
    with pytest.raises(ValueError, match="not one of the runs"):
        pool_bias(QRELS, RUNS, outsider="X", depth=2)
    with pytest.raises(ValueError, match="the only run"):
        pool_bias(QRELS, {"O": RUN_O}, outsider="O", depth=2)


def test_run_from_scores_leaves_nan_out_and_ranks_as_trec_eval():
    scores = np.array([[np.nan, 0.2, 0.9, 0.2], [0.5, np.nan, 0.5, 0.1]])
    run = run_from_scores(scores, ["a", "b", "c", "d"], ["a", "b"])
    assert list(run.itertuples(index=False, name=None)) == [
        ("a", "c", 0.9),
        ("a", "d", 0.2),  # tied with b: ids descending
        ("a", "b", 0.2),
        ("b", "c", 0.5),
        ("b", "a", 0.5),
        ("b", "d", 0.1),
    ]
    top = run_from_scores(scores, ["a", "b", "c", "d"], ["a", "b"], depth=1)
    assert _pairs(top) == [("a", "c"), ("b", "c")]
    assert evaluate({"a": {"b": 1}, "b": {"a": 1}}, run, ["AP"])["AP"].tolist() == [1 / 3, 1 / 2]
    with pytest.raises(ValueError, match="one row per query"):
        run_from_scores(scores, ["a", "b", "c"], ["a", "b"])
    with pytest.raises(ValueError, match="finite"):
        run_from_scores(np.array([[np.inf]]), ["a"], ["q"])


POOLED = pd.DataFrame(
    {
        "query_id": ["q1"] * 5 + ["q2"] * 3,
        "doc_id": ["d1", "d2", "d3", "d4", "d5", "e1", "e2", "e3"],
        "relevance": [2, 0, 1, 0, 1, 0, 3, 0],
    }
)


def _sampled_by_hand(rows: pd.DataFrame, share: float, seed: int) -> list[tuple[str, str, int]]:
    """The sample the cell of notebook 14 drew: one uniform number per row, kept below share."""
    draws = iter(np.random.default_rng(seed).random(len(rows)).tolist())
    return [
        (query, doc, grade if next(draws) < share else -1)
        for query, doc, grade in rows[["query_id", "doc_id", "relevance"]].itertuples(index=False)
    ]


@pytest.mark.parametrize(("share", "seed"), [(0.5, 2006), (0.3, 1), (0.9, 14)])
def test_a_sample_keeps_each_judgment_whose_draw_is_below_share(share, seed):
    sampled = sample_pool(POOLED, share, np.random.default_rng(seed))
    got = list(sampled[["query_id", "doc_id", "relevance"]].itertuples(index=False, name=None))
    assert got == _sampled_by_hand(POOLED, share, seed)
    assert sampled["relevance"].dtype == np.int64


def test_repeated_samples_advance_the_generator_as_the_notebook_did():
    rng, reference = np.random.default_rng(2006), np.random.default_rng(2006)
    for _ in range(3):
        kept = reference.random(len(POOLED)) < 0.5
        sampled = sample_pool(POOLED, 0.5, rng)
        assert (sampled["relevance"] >= 0).tolist() == kept.tolist()
    assert rng.random() == reference.random()


def test_share_one_keeps_every_judgment_and_a_large_pool_keeps_about_share():
    whole = sample_pool(POOLED, 1, np.random.default_rng(0))
    assert whole["relevance"].tolist() == POOLED["relevance"].tolist()
    big = pd.DataFrame({"query_id": "q", "doc_id": [f"d{i}" for i in range(4000)], "relevance": 1})
    kept = (sample_pool(big, 0.25, np.random.default_rng(3))["relevance"] >= 0).mean()
    assert abs(kept - 0.25) < 4 * (0.25 * 0.75 / 4000) ** 0.5  # four standard errors


@pytest.mark.parametrize(
    ("share", "error", "says"),
    [
        (0, ValueError, "share is 0"),
        (1.5, ValueError, "share is 1.5"),
        (float("nan"), ValueError, "share is nan"),
        (True, TypeError, "share must be a number"),
        ("0.5", TypeError, "share must be a number"),
    ],
)
def test_a_share_outside_zero_to_one_is_refused(share, error, says):
    with pytest.raises(error, match=says):
        sample_pool(POOLED, share, np.random.default_rng(0))


def test_the_generator_and_the_qrels_are_checked():
    with pytest.raises(TypeError, match=r"rng must be a numpy\.random\.Generator.*RandomState"):
        sample_pool(POOLED, 0.5, np.random.RandomState(0))
    with pytest.raises(ValueError, match="relevance"):
        sample_pool(POOLED.drop(columns="relevance"), 0.5, np.random.default_rng(0))
    sampled = sample_pool(POOLED, 0.5, np.random.default_rng(8))
    with pytest.raises(ValueError, match=r"row \d+: grade -1 of query 'q\d', document 'd?e?\d'"):
        sample_pool(sampled, 0.5, np.random.default_rng(0))
