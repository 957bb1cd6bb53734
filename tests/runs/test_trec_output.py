"""trec_eval's output layout: field widths, integers, query and measure order, ``all`` lines.

The expected lines are written out from trec_eval 10's printf formats
(``"%-22s\\t%s\\t%6.4f\\n"``, ``"%-22s\\t%s\\t%ld\\n"``) and from what its binary prints
for the same tiny runs; ``tests/crosscheck/test_trec_format.py`` diffs whole outputs
against the binary.
"""

from __future__ import annotations

import pytest

from mapteach.runs.scoring import score_run
from mapteach.runs.trec_output import format_trec

QRELS = {"q1": {"a": 1, "b": 1}, "q2": {"c": 2}}
RUN = {"q1": {"a": 3.0, "x": 2.0, "b": 1.0}, "q2": {"c": 1.0}}  # AP: (1 + 2/3) / 2, 1


def line(name: str, query: str, value: str) -> str:
    return name + " " * (22 - len(name)) + f"\t{query}\t{value}\n"


def test_values_have_4_decimals_and_counts_are_whole_numbers():
    scores = score_run(QRELS, RUN, ["map", "num_ret"])
    assert format_trec(scores, per_query=True) == "".join(
        [
            line("num_ret", "q1", "3"),
            line("map", "q1", "0.8333"),
            line("num_ret", "q2", "1"),
            line("map", "q2", "1.0000"),
            line("num_ret", "all", "4"),
            line("map", "all", "0.9167"),  # (5/6 + 1) / 2 = 0.91666...
        ]
    )


def test_without_per_query_only_the_all_lines():
    scores = score_run(QRELS, RUN, ["P.2"])
    # q1's top 2 are a (relevant) and x: 1/2; q2's, c and nothing: 1/2 (P@k divides by k)
    assert format_trec(scores) == line("P_2", "all", "0.5000")
    assert format_trec(score_run(QRELS, RUN, ["P.1"])) == line("P_1", "all", "1.0000")


def test_queries_are_sorted_as_c_strcmp_sorts_bytes():
    qrels = {query: {"d": 1} for query in ("9", "10", "a", "B")}
    run = {query: {"d": 1.0} for query in ("a", "9", "B", "10")}
    printed = format_trec(score_run(qrels, run, ["num_rel"]), per_query=True)
    assert [text.split("\t")[1] for text in printed.splitlines()] == ["10", "9", "B", "a", "all"]


def test_measures_print_in_trec_evals_order_with_cutoffs_from_the_smallest():
    scores = score_run(QRELS, RUN, ["P.10", "ndcg_cut.5", "P.2", "map", "num_rel"])
    names = [text.split()[0] for text in format_trec(scores).splitlines()]
    assert names == ["num_rel", "map", "P_2", "P_10", "ndcg_cut_5"]  # as trec_eval prints them


def test_runid_num_q_and_gm_map_print_only_in_the_all_block():
    scores = score_run(QRELS, RUN, ["gm_map", "num_q", "recip_rank"])
    printed = format_trec(scores, per_query=True, run_tag="bm25").splitlines(keepends=True)
    assert printed == [
        line("recip_rank", "q1", "1.0000"),
        line("recip_rank", "q2", "1.0000"),
        line("runid", "all", "bm25"),
        line("num_q", "all", "2"),
        line("gm_map", "all", "0.9129"),  # sqrt(5/6 * 1)
        line("recip_rank", "all", "1.0000"),
    ]


def test_a_mean_over_no_query_gets_no_line():
    qrels = {"q1": {"b": 0}}  # no relevant document: no_relevant="skip" leaves no query
    scores = score_run(qrels, {"q1": {"b": 1.0}}, ["map", "num_ret"], no_relevant="skip")
    assert format_trec(scores, per_query=True) == line("num_ret", "all", "0")


def test_a_geometric_mean_says_so_in_its_name():
    scores = score_run(QRELS, RUN, ["map", "num_ret"])
    assert format_trec(scores, aggregate="gm") == line("num_ret", "all", "4") + line(
        "gm_map", "all", "0.9129"
    )
    with pytest.raises(ValueError, match="aggregate"):
        format_trec(scores, aggregate="median")  # type: ignore[arg-type]


def test_measures_trec_eval_lacks_come_last_under_their_own_names():
    scores = score_run(QRELS, RUN, ["Judged@2", "map"])
    assert format_trec(scores) == line("map", "all", "0.9167") + line(
        "Judged@2",
        "all",
        "0.7500",  # q1: a and x, x unjudged: 1/2; q2: c alone: 1
    )
