"""GMBpref (trec_eval's gm_bpref): bpref per query, the geometric mean over queries."""

from __future__ import annotations

import math

from mapteach.metrics.bpref import BPREF, bpref
from mapteach.metrics.gm_bpref import GM_BPREF
from mapteach.metrics.names import parse_measure
from mapteach.runs import evaluate, summarize


def test_per_query_it_is_bpref_over_queries_the_floored_geometric_mean():
    qrels = {"q1": {"a": 1, "b": 0, "c": 1}, "q2": {"d": 1, "e": 0}, "q3": {"f": 1}}
    run = {
        "q1": {"a": 3.0, "b": 2.0, "c": 1.0},  # bpref (1 + 0) / 2 = 0.5
        "q2": {"e": 2.0, "d": 1.0},  # (1 - 1/1) / 1 = 0
        "q3": {"f": 1.0},  # 1
    }
    table = evaluate(qrels, run, ["gm_bpref", "bpref"], missing="ignore")
    assert table["gm_bpref"].tolist() == table["bpref"].tolist() == [0.5, 0.0, 1.0]
    assert bpref([1, 0, 1]) == 0.5
    expected = math.exp((math.log(0.5) + math.log(1e-5) + math.log(1.0)) / 3)
    assert summarize(table)["gm_bpref"] == expected


def test_declaration():
    measure = parse_measure("gm_bpref")
    assert measure.declaration is GM_BPREF and measure.name == "GMBpref"
    assert GM_BPREF.combine == "gm" and GM_BPREF.reads_judged
    assert GM_BPREF.kernel is BPREF.kernel and GM_BPREF.score is BPREF.score
