"""sorted_ids: codes and distinct ids in strcmp order, against Python's own sort of the bytes."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mapteach.runs.lines import gather_fields, sorted_ids

ID = st.binary(min_size=1, max_size=40).filter(lambda b: b"\0" not in b)


def fields(ids: list[bytes]) -> np.ndarray:
    """The ids as gather_fields gives them from a line of space-separated fields."""
    data = b" ".join(ids)
    lengths = np.array([len(i) for i in ids])
    starts = np.concatenate(([0], np.cumsum(lengths + 1)[:-1]))
    return gather_fields(data, starts.astype(np.int32), np.minimum(lengths, 255).astype(np.uint8))


@settings(max_examples=200, deadline=None)
@given(st.lists(ID, min_size=1, max_size=60), st.integers(1, 20))
def test_sorted_ids_match_pythons_sort_of_the_bytes(ids, repeat):
    ids = [i for i in ids for _ in range(repeat)]  # runs of equal ids, as a run's queries
    found = sorted_ids(fields(ids))
    distinct = sorted(set(ids))
    assert [bytes(label) for label in found.labels.tolist()] == distinct
    assert found.codes.tolist() == [distinct.index(i) for i in ids]
