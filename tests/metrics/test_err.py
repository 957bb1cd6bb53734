"""ERR@k: the scalar against the formula written out, and the batch kernel bit for bit."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach.metrics.batch import RankedEntries, batch_scores
from mapteach.metrics.err import batch_err, expected_reciprocal_rank
from mapteach.metrics.names import parse_measure
from mapteach.metrics.ties import expected_scores

grades_st = st.lists(st.integers(0, 4), max_size=25)


def reference_err(grades, k=None):
    """Chapelle et al.'s cascade, in exact fractions: stop at rank i with chance R_i."""
    reach, total = Fraction(1), Fraction(0)
    for rank, grade in enumerate(grades[:k] if k else grades, start=1):
        stop = Fraction(2**grade - 1, 16)
        total += reach * stop / rank
        reach *= 1 - stop
    return total


@given(grades_st, st.none() | st.integers(1, 30))
def test_the_scalar_is_the_cascade(grades, k):
    assert expected_reciprocal_rank(grades, k) == pytest.approx(
        float(reference_err(grades, k)), abs=1e-15
    )


@given(st.lists(grades_st, min_size=1, max_size=6), st.none() | st.integers(1, 30), st.booleans())
def test_the_batch_kernel_equals_the_scalar_bit_for_bit(lists, k, sparse):
    entries = RankedEntries.from_lists(lists)
    entries = entries.sparse() if sparse else entries
    scalar = [expected_reciprocal_rank(grades, k) for grades in lists]
    np.testing.assert_array_equal(batch_err(entries, k=k), np.array(scalar), strict=True)


def test_the_declared_measure_reads_grades_and_a_cutoff():
    entries = RankedEntries.from_lists([[1, 4, 0, 3], [0, 0]])
    scores = batch_scores(entries, [parse_measure("ERR@2"), parse_measure("ERR")])
    assert scores["ERR@2"].tolist() == [
        expected_reciprocal_rank([1, 4], 2),
        0.0,
    ]
    assert scores["ERR"][0] == expected_reciprocal_rank([1, 4, 0, 3])
    assert parse_measure("ERR@2").score([1, 1, 1]) == float(reference_err([1, 1], 2))


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: expected_reciprocal_rank([1, 5]), r"ERR reads grades up to 4 .* grade of 5"),
        (lambda: expected_reciprocal_rank([1, -1]), r"grades\[1\]"),
        (lambda: expected_reciprocal_rank([1], 0), r"k must be >= 1"),
        (
            lambda: expected_scores(
                RankedEntries.from_lists([[1, 0]]), np.ones(2), [parse_measure("ERR")]
            ),
            r"ERR has no tie-aware expectation",
        ),
    ],
)
def test_errors_say_what_is_wrong(call, fragment):
    with pytest.raises(ValueError, match=fragment):
        call()
