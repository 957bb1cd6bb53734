"""NumQ (trec_eval's num_q): 1 per scored query, summed; the other counts are checked in
test_batch.py and the cross-checks."""

from __future__ import annotations

import numpy as np
import pytest

from mapteach.metrics.batch import RankedEntries
from mapteach.metrics.counts import NUM_Q, batch_num_queries
from mapteach.metrics.names import parse_measure
from mapteach.metrics.ties import expected_scores
from mapteach.runs import evaluate, summarize

QRELS = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 0}}
RUN = {"q1": {"a": 1.0}, "q2": {"x": 1.0, "b": 0.5}, "q9": {"a": 1.0}}


def test_one_per_query_even_with_no_entries():
    entries = RankedEntries.from_lists([[1], [], [0, 0]])
    assert batch_num_queries(entries).tolist() == [1.0, 1.0, 1.0]
    assert expected_scores(entries, np.ones(3), [parse_measure("NumQ")])["NumQ"].tolist() == [
        1.0,
        1.0,
        1.0,
    ]


def test_the_sum_counts_the_queries_averaged_over():
    with pytest.warns(UserWarning) as caught:  # q9 only in the run, q3 only in the qrels
        scored = evaluate(QRELS, RUN, ["num_q"], missing="ignore")  # q1, q2: in both
        complete = evaluate(QRELS, RUN, ["num_q"], missing="zero")  # trec_eval -c: every judged
    assert any("no judgments" in str(warning.message) for warning in caught)
    assert summarize(scored)["num_q"] == 2.0 == len(scored)
    assert summarize(complete)["num_q"] == 3.0


def test_declaration():
    measure = parse_measure("num_q")
    assert measure.declaration is NUM_Q and measure.name == "NumQ"
    assert NUM_Q.combine == "sum"
