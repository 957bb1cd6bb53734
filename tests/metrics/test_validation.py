"""Bad input is a clear TypeError / ValueError naming the rule, the value and where."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mapteach import (
    average_precision,
    explain_ap,
    get_example,
    hit_at_k,
    mean_average_precision,
    mean_reciprocal_rank,
    ndcg_at_k,
    parse_measure,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
    trace_ap,
)

LABEL_FUNCTIONS = [
    lambda y: average_precision(y),
    lambda y: precision_at_k(y, 3),
    lambda y: recall_at_k(y, 3),
    lambda y: reciprocal_rank(y),
    lambda y: hit_at_k(y, 3),
    lambda y: trace_ap(y),
    lambda y: explain_ap(y),
]


@pytest.mark.parametrize("function", LABEL_FUNCTIONS)
@pytest.mark.parametrize(
    ("labels", "error", "fragment"),
    [
        ([1, 0, 2], ValueError, r"labels\[2\] \(rank 3\) is 2; labels must be 0 or 1"),
        ([1, -1], ValueError, r"labels\[1\] \(rank 2\) is -1"),
        ([0, 0.5], ValueError, r"labels\[1\] \(rank 2\) is 0.5"),
        ([1, math.nan], ValueError, r"labels\[1\] \(rank 2\) is NaN"),
        (np.array([1.0, np.nan]), ValueError, r"labels\[1\] \(rank 2\) is NaN"),
        ([1, "1"], TypeError, r"labels\[1\] \(rank 2\) is '1' \(str\)"),
        ([None], TypeError, r"labels\[0\] \(rank 1\) is None"),
        ("1011", TypeError, r"labels must be a sequence .* got str"),
        (3, TypeError, r"labels must be a sequence .* got int"),
        ({1, 0}, TypeError, r"got set"),
        ((x for x in [1, 0]), TypeError, r"got generator"),
        (np.array([[1, 0], [0, 1]]), ValueError, r"one-dimensional .* shape \(2, 2\)"),
        (np.array(["1", "0"]), TypeError, r"labels\[0\] \(rank 1\) is '1'"),
        ([[1, 0]], TypeError, r"labels\[0\] \(rank 1\) is \[1, 0\] \(list\)"),
    ],
)
def test_bad_labels(function, labels, error, fragment):
    with pytest.raises(error, match=fragment):
        function(labels)


@pytest.mark.parametrize(
    ("k", "error", "fragment"),
    [
        (0, ValueError, r"k must be >= 1.*got 0"),
        (-2, ValueError, r"got -2"),
        (2.5, TypeError, r"k must be a positive integer.*2.5 \(float\)"),
        (3.0, TypeError, r"3.0 \(float\)"),
        (True, TypeError, r"True \(bool\)"),
        ("3", TypeError, r"'3' \(str\)"),
    ],
)
@pytest.mark.parametrize(
    "function",
    [
        lambda k: precision_at_k([1, 0], k),
        lambda k: recall_at_k([1], k),
        lambda k: hit_at_k([1], k),
        lambda k: average_precision([1], k=k),
        lambda k: reciprocal_rank([1], k=k),
        lambda k: ndcg_at_k([1], k),
        lambda k: trace_ap([1], k=k),
        lambda k: mean_average_precision([[1]], k=k),
    ],
)
def test_bad_k(function, k, error, fragment):
    with pytest.raises(error, match=fragment):
        function(k)


def test_numpy_integer_k_is_fine():
    assert precision_at_k([1, 0], np.int64(2)) == 0.5


@pytest.mark.parametrize(
    ("n_relevant", "error", "fragment"),
    [
        (-1, ValueError, r"n_relevant must be >= 0; got -1"),
        (1, ValueError, r"n_relevant=1 is smaller than the 2 relevant items"),
        (2.0, TypeError, r"n_relevant must be a whole number.*2.0 \(float\)"),
        ("3", TypeError, r"'3' \(str\)"),
    ],
)
@pytest.mark.parametrize(
    "function",
    [
        lambda r: average_precision([1, 1, 0], n_relevant=r),
        lambda r: recall_at_k([1, 1, 0], 2, n_relevant=r),
        lambda r: trace_ap([1, 1, 0], n_relevant=r),
        lambda r: parse_measure("AP").score([1, 1, 0], n_relevant=r),
    ],
)
def test_bad_n_relevant(function, n_relevant, error, fragment):
    with pytest.raises(error, match=fragment):
        function(n_relevant)


def test_n_relevant_smaller_than_hits_counts_hits_beyond_the_cutoff():
    with pytest.raises(ValueError, match="smaller than the 2 relevant"):
        average_precision([1, 0, 1], n_relevant=1, k=1)


def test_map_bad_input_names_the_query():
    with pytest.raises(ValueError, match=r"rankings is empty"):
        mean_average_precision([])
    with pytest.raises(TypeError, match=r"rankings must be a sequence of ranked label lists"):
        mean_average_precision(5)
    with pytest.raises(ValueError, match=r"rankings\[1\]: labels\[0\] \(rank 1\) is 3"):
        mean_average_precision([[1], [3]])
    with pytest.raises(ValueError, match=r"n_relevant has 1 entries but rankings has 2"):
        mean_average_precision([[1], [0]], n_relevant=[1])
    with pytest.raises(ValueError, match=r"rankings\[0\]: n_relevant\[0\]=0 is smaller"):
        mean_average_precision([[1], [0]], n_relevant=[0, 1])
    with pytest.raises(ValueError, match=r"nothing to average"):
        mean_average_precision([[0], [0, 0]], no_relevant="skip")
    with pytest.raises(ValueError, match=r"rankings\[2\]: labels\[0\] \(rank 1\) is NaN"):
        mean_reciprocal_rank([[1], [0], [math.nan]])


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (
            lambda: average_precision([1], denominator="hits"),
            r"denominator must be one of 'relevant'",
        ),
        (
            lambda: mean_average_precision([[1]], no_relevant="ignore"),
            r"no_relevant must be one of",
        ),
        (lambda: explain_ap([1], decimals=-1), r"decimals must be an integer >= 0"),
        (lambda: get_example("003_z"), r"no worked example named '003_z'; choose one of: .*003_a"),
    ],
)
def test_bad_options(call, fragment):
    with pytest.raises(ValueError, match=fragment):
        call()


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        average_precision([1, 0], 2)  # type: ignore[misc]
    with pytest.raises(TypeError):
        recall_at_k([1, 0], 2, 2)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("call", "error", "fragment"),
    [
        (
            lambda: ndcg_at_k([1, -1], 2),
            ValueError,
            r"gains\[1\] \(rank 2\) is -1; gains must be finite and >= 0",
        ),
        (lambda: ndcg_at_k([1, math.inf], 2), ValueError, r"gains\[1\] \(rank 2\) is inf"),
        (
            lambda: ndcg_at_k([2, 1], 2, ideal=[1, 1]),
            ValueError,
            r"1 more document\(s\) with gain 2",
        ),
        (lambda: ndcg_at_k([1], 2, ideal="3"), TypeError, r"ideal must be a sequence"),
    ],
)
def test_bad_gains(call, error, fragment):
    with pytest.raises(error, match=fragment):
        call()


@pytest.mark.parametrize(
    ("name", "error", "fragment"),
    [
        ("MAP@x", ValueError, r"unknown measure 'MAP@x'"),
        ("XRR@10", ValueError, "unknown measure"),
        ("P", ValueError, r"P needs a cutoff, such as 'P@10'"),
        ("AP@0", ValueError, r"must be >= 1"),
        (10, TypeError, r"a measure name must be a string"),
    ],
)
def test_bad_measure_names(name, error, fragment):
    with pytest.raises(error, match=fragment):
        parse_measure(name)
