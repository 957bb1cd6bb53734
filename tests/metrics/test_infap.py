"""infAP (trec_eval's infAP) against a transcription of m_infap.c's loop, by hand, and its
sampled-pool convention: -1 pooled but unjudged, no judgment outside the pool."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach.metrics.average_precision import average_precision
from mapteach.metrics.batch import RankedEntries, batch_scores
from mapteach.metrics.infap import (
    INFAP,
    batch_infap,
    inferred_average_precision,
)
from mapteach.metrics.names import parse_measure
from mapteach.metrics.ties import expected_scores

#: A retrieved document's judgment: None outside the pool, -1 pooled but unjudged.
pool_grades = st.lists(st.sampled_from([None, None, -1, 0, 0, 1, 2, 3]), max_size=40)


def trec_eval_infap(grades: list, r: int, threshold: int) -> float:
    """m_infap.c's loop, line by line (RELVALUE_NONPOOL: None; RELVALUE_UNJUDGED: < 0)."""
    eps = 0.00001
    nonrel_so_far = rel_so_far = pool_unjudged_so_far = 0
    inf_ap = 0.0
    for j, grade in enumerate(grades):
        if grade is None:
            continue
        if grade < 0:
            pool_unjudged_so_far += 1
            continue
        if grade < threshold:
            nonrel_so_far += 1
            continue
        rel_so_far += 1
        if j == 0:
            inf_ap += 1.0
        else:
            fj = float(j)
            inf_ap += 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * (
                (rel_so_far - 1 + nonrel_so_far + pool_unjudged_so_far) / fj
            ) * ((rel_so_far - 1 + eps) / (rel_so_far - 1 + nonrel_so_far + 2 * eps))
    return inf_ap / r if r else inf_ap


@given(
    st.lists(st.tuples(pool_grades, st.integers(0, 4)), min_size=1, max_size=6), st.integers(1, 2)
)
def test_equals_trec_evals_loop(queries, threshold):
    r = [sum(g is not None and g >= threshold for g in gs) + extra for gs, extra in queries]
    expected = [trec_eval_infap(gs, n, threshold) for (gs, _), n in zip(queries, r, strict=True)]
    scalar = [
        inferred_average_precision(gs, n_relevant=n, threshold=threshold)
        for (gs, _), n in zip(queries, r, strict=True)
    ]
    assert scalar == expected
    entries = RankedEntries.from_lists(
        [[0 if g is None else g for g in gs] for gs, _ in queries],  # outside the pool: grade 0
        n_relevant=r,
        judged=[[g is not None for g in gs] for gs, _ in queries],
        threshold=threshold,
    )
    assert batch_infap(entries, threshold=threshold).tolist() == expected
    assert batch_infap(entries.sparse(), threshold=threshold).tolist() == expected


def test_by_hand():
    # relevant at ranks 1 and 4; rank 2 pooled but unjudged, rank 3 outside the pool:
    # 1 + (1/4 + 3/4 x (1 + 0 + 1)/3 x (1 + eps)/(1 + 0 + 2 eps)), over R = 2
    eps = 1e-5
    expected = (1 + (1 / 4 + 3 / 4 * (2 / 3) * ((1 + eps) / (1 + 2 * eps)))) / 2
    assert inferred_average_precision([1, -1, None, 1]) == pytest.approx(expected, abs=1e-15)
    assert inferred_average_precision([0, 0]) == 0.0  # R = 0
    assert inferred_average_precision([None, 1], n_relevant=2) == pytest.approx(
        (1 / 2 + 1 / 2 * 0 / 1 * (eps / (2 * eps))) / 2
    )


def test_fully_judged_it_is_close_to_ap_but_not_equal():
    labels = [1, 0, 0, 1, 0, 1, 1, 0]
    infap = inferred_average_precision(labels, n_relevant=6)
    ap = average_precision(labels, n_relevant=6)
    assert infap != ap and math.isclose(infap, ap, abs_tol=1e-5)


def test_name_and_judgments_needed():
    measure = parse_measure("infAP")
    assert measure.declaration is INFAP and measure.reads_judged
    with pytest.raises(ValueError, match="infAP needs to know which entries are judged"):
        batch_scores(RankedEntries.from_lists([[1, 0]]), [measure])
    with pytest.raises(ValueError, match="infAP has no tie-aware expectation"):
        entries = RankedEntries.from_lists([[1, 0]], judged=[[1, 1]])
        expected_scores(entries, np.ones(2), [measure])


@pytest.mark.parametrize("grades", ["1,0", [1, "0"], [True, 0], 3])
def test_grades_are_checked(grades):
    with pytest.raises(TypeError, match="grade"):
        inferred_average_precision(grades)
