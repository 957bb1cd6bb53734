"""11-point interpolated precision under IIR's, trec_eval 9's and trec_eval 10's conventions.

trec_eval 9 (and pytrec_eval, which embeds it) reaches recall level L with
``(long)(L * R + 0.9)`` relevant documents, trec_eval 10 with ``lround(L * R)``,
and IIR (Manning et al., ch. 8) with recall >= L, ceil(L x R). The trec_eval 10
values were measured with the real binary; trec_eval 9 is checked against
pytrec_eval on random queries.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach import get_example
from mapteach.metrics.curves import (
    ELEVEN_LEVELS,
    eleven_point_average_precision,
    eleven_point_precisions,
)
from mapteach.metrics.options import ELEVEN_POINT

pytrec_eval = pytest.importorskip("pytrec_eval")

N_QUERIES = 2000
IPREC_KEYS = [f"iprec_at_recall_{level:.2f}" for level in ELEVEN_LEVELS]


def test_levels_are_trec_evals_literals():
    assert ELEVEN_LEVELS.tolist() == [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # measured: trec_eval 9 (pytrec_eval) 0.8409, trec_eval 10 0.8636
        ("003_a", {"iir": 0.8409, "trec_eval_9": 0.8409, "trec_eval_10": 0.8636}),
        # measured: trec_eval 10 0.6970; three conventions, three values
        ("003_b", {"iir": 0.5455, "trec_eval_9": 0.6061, "trec_eval_10": 0.6970}),
        # measured: trec_eval 10 0.6717
        ("001_legal", {"iir": 0.6212, "trec_eval_9": 0.6212, "trec_eval_10": 0.6717}),
    ],
)
def test_article_examples(name, expected):
    example = get_example(name)
    for convention, value in expected.items():
        computed = eleven_point_average_precision(
            example.labels, n_relevant=example.n_relevant, convention=convention
        )
        assert round(computed, 4) == value, convention


def test_article_003_query_b_gives_three_values_by_hand():
    b = get_example("003_b")
    points = {
        convention: eleven_point_precisions(b.labels, n_relevant=3, convention=convention)
        for convention in ELEVEN_POINT
    }
    third = 2 / 3  # P at rank 3, the second relevant result (recall 2/3)
    # IIR: recall 2/3 reaches 0.0-0.6, never 0.7
    assert points["iir"].tolist() == [1.0] * 4 + [third] * 3 + [0.0] * 4
    # trec_eval 9: 0.7 * 3 + 0.9 = 2.9999999999999996 in doubles, so 2 relevant reach 0.7
    assert points["trec_eval_9"].tolist() == [1.0] * 4 + [third] * 4 + [0.0] * 3
    # trec_eval 10: lround(0.4 * 3) = 1, lround(0.8 * 3) = 2
    assert points["trec_eval_10"].tolist() == [1.0] * 5 + [third] * 4 + [0.0] * 2
    assert eleven_point_average_precision(b.labels, n_relevant=3) == pytest.approx(
        (4 * 1.0 + 3 * third) / 11
    )
    assert eleven_point_average_precision(
        b.labels, n_relevant=3, convention="trec_eval_10"
    ) == pytest.approx((5 * 1.0 + 4 * third) / 11)


def test_legal_search_by_hand_under_trec_eval_10():
    legal = get_example("001_legal")  # relevant at ranks 1, 4, 6, 9; P = 1, 2/4, 3/6, 4/9
    points = eleven_point_precisions(legal.labels, n_relevant=4, convention="trec_eval_10")
    # lround(L x 4) = 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4 relevant documents
    assert points.tolist() == [1.0] * 4 + [0.5] * 5 + [4 / 9] * 2
    assert eleven_point_average_precision(
        legal.labels, n_relevant=4, convention="trec_eval_10"
    ) == pytest.approx((4 * 1.0 + 5 * 0.5 + 2 * 4 / 9) / 11)


def needed_relevant(r: int, convention: str) -> list[int]:
    """Read back how many relevant documents each level needs, from a list built to show it.

    Relevant at ranks 1, 4, 9, ..., r^2: precision at the h-th relevant one is 1/h and
    falls with every one after it, so the interpolated precision of a level is 1/needed.
    Needing 0 or 1 is the same (the best precision of the list), read back as 1.
    """
    labels = np.zeros(r * r, int)
    labels[np.arange(1, r + 1) ** 2 - 1] = 1
    return [round(1 / p) for p in eleven_point_precisions(labels, convention=convention)]


#: The (level, R) pairs, R <= 100, where trec_eval 9's doubles fall short of ceil(L x R).
TREC_EVAL_9_SHORT = {
    (0.7, 3),
    (0.7, 23),
    (0.7, 33),
    (0.7, 43),
    (0.7, 53),
    (0.3, 57),
    (0.7, 63),
    (0.3, 67),
    (0.7, 73),
    (0.3, 77),
    (0.7, 83),
    (0.3, 87),
    (0.3, 97),
}
#: The same for trec_eval 10: 0.7 x 45 = 31.499999999999996 in doubles, which rounds to 31.
TREC_EVAL_10_SHORT = {(0.7, 45), (0.7, 85)}


def test_needed_relevant_documents_per_convention():
    exactly = {
        "iir": math.ceil,  # recall >= L
        "trec_eval_9": math.ceil,  # floor(x + 0.9) is the ceiling of a multiple of 0.1
        "trec_eval_10": lambda x: math.floor(x + Fraction(1, 2)),  # lround: halves go up
    }
    short: dict[str, set[tuple[float, int]]] = {convention: set() for convention in exactly}
    for r in range(1, 101):
        for convention, rounded in exactly.items():
            expected = [max(1, rounded(Fraction(i * r, 10))) for i in range(11)]
            for i, (got, want) in enumerate(
                zip(needed_relevant(r, convention), expected, strict=True)
            ):
                if got != want:
                    assert got == want - 1, (convention, i, r)
                    short[convention].add((i / 10, r))
    assert short == {
        "iir": set(),  # whole numbers: exact
        "trec_eval_9": TREC_EVAL_9_SHORT,
        "trec_eval_10": TREC_EVAL_10_SHORT,
    }


@given(st.lists(st.integers(0, 1), max_size=60), st.integers(0, 5))
def test_iir_equals_trec_eval_9_unless_the_doubles_fall_short(labels, missed):
    r = sum(labels) + missed
    iir = eleven_point_precisions(labels, n_relevant=r)
    nine = eleven_point_precisions(labels, n_relevant=r, convention="trec_eval_9")
    for i, (a, b) in enumerate(zip(iir, nine, strict=True)):
        if (i / 10, r) in TREC_EVAL_9_SHORT:
            assert b >= a  # one relevant document fewer: a rank at least as good
        else:
            assert a == b


@given(st.lists(st.integers(0, 1), max_size=60), st.integers(0, 5))
def test_iir_points_are_the_best_precision_at_recall_at_least_the_level(labels, missed):
    r = sum(labels) + missed
    hits = np.cumsum(labels)
    precision = hits / np.arange(1, len(labels) + 1)
    expected = [
        max([p for h, p in zip(hits, precision, strict=True) if h * 10 >= i * r], default=0.0)
        if r
        else 0.0
        for i in range(11)
    ]
    assert eleven_point_precisions(labels, n_relevant=r).tolist() == expected


def test_unknown_convention_names_the_choices():
    with pytest.raises(ValueError, match="convention must be one of 'iir', 'trec_eval_9'"):
        eleven_point_precisions([1, 0], convention="trec_eval")


def test_empty_and_unreached_lists_score_zero():
    for convention in ELEVEN_POINT:
        assert eleven_point_precisions([], convention=convention).tolist() == [0.0] * 11
        assert eleven_point_average_precision([0, 0], n_relevant=2, convention=convention) == 0.0


def random_queries(rng: np.random.Generator, n: int):
    """Queries with 1-60 results, graded and unjudged documents, relevant ones never retrieved."""
    qrels, run, cases = {}, {}, {}
    for q in range(n):
        qid = f"q{q}"
        length = int(rng.integers(1, 61))
        labels = (rng.random(length) < rng.random()).astype(int)
        docs = [f"d{j}" for j in rng.permutation(length)]
        judged = {}
        for doc, label in zip(docs, labels, strict=True):
            if label:
                judged[doc] = int(rng.integers(1, 4))
            elif rng.random() < 0.5:  # else unjudged: not relevant
                judged[doc] = 0
        missed = int(rng.integers(0, 6))
        judged.update({f"m{j}": 1 for j in range(missed)})
        qrels[qid] = judged or {"m_nonrelevant": 0}
        # distinct whole numbers: exact in trec_eval's float32, so no ties to break
        run[qid] = {doc: float(length - rank) for rank, doc in enumerate(docs)}
        cases[qid] = (labels, int(labels.sum()) + missed)
    return qrels, run, cases


def test_trec_eval_9_is_pytrec_evals_11pt_avg_and_iprec_at_recall():
    qrels, run, cases = random_queries(np.random.default_rng(20240612), N_QUERIES)
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"11pt_avg", "iprec_at_recall"}).evaluate(run)
    assert expected.keys() == cases.keys()
    compared = 0
    for qid, (labels, r) in cases.items():
        points = eleven_point_precisions(labels, n_relevant=r, convention="trec_eval_9")
        average = eleven_point_average_precision(labels, n_relevant=r, convention="trec_eval_9")
        trec = expected[qid]
        assert points == pytest.approx([trec[key] for key in IPREC_KEYS], abs=1e-9), qid
        assert average == pytest.approx(trec["11pt_avg"], abs=1e-9), qid
        compared += 12
    assert compared == 12 * N_QUERIES
    # the sample covers what tells the conventions apart
    conventions_differ = sum(
        len(
            {
                eleven_point_average_precision(labels, n_relevant=r, convention=convention)
                for convention in ELEVEN_POINT
            }
        )
        == 3
        for labels, r in cases.values()
    )
    assert conventions_differ > 0
    assert sum(r > labels.sum() for labels, r in cases.values()) > N_QUERIES // 2
