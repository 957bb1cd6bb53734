"""A comparison's per-query table: each query's scores for A and B and their delta B - A.

:attr:`~mapteach.analysis.compare.RunComparison.per_query`, and the queries that
``improved()`` and ``declined()`` pick from it, are a :class:`DeltaTable`: keyed for
code (columns ``A``, ``B``, ``delta``, index ``query_id``) and shown to people with
:data:`DELTA_HEADERS`, so that a Chinese page reads 差值（B − A） and 查询. ``A`` and
``B`` name the two systems and are shown as they are.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from mapteach.explain.display import ShownTable
from mapteach.i18n import N_, tr

__all__ = ["DELTA_HEADERS", "DeltaTable"]

#: The header that shows each key of a per-query comparison table.
DELTA_HEADERS: dict[str, str] = {
    "delta": N_("delta (B - A)"),
    "query_id": N_("query"),
}


class DeltaTable(ShownTable):
    """Per-query scores of A and B and their delta: stable keys, shown with
    :data:`DELTA_HEADERS`.

    Examples
    --------
    >>> import pandas as pd
    >>> from mapteach.analysis import DeltaTable
    >>> table = DeltaTable({"A": [0.5], "B": [0.75], "delta": [0.25]})
    >>> table.index = pd.Index(["q1"], name="query_id")
    >>> table.columns.tolist(), table.display(lang="zh").columns.tolist()
    (['A', 'B', 'delta'], ['A', 'B', '差值（B − A）'])
    >>> table.display(lang="zh").index.name
    '查询'
    """

    headers = DELTA_HEADERS

    @classmethod
    def from_scores(cls, a: ArrayLike, b: ArrayLike) -> DeltaTable:
        """Columns A, B and delta = B - A, one row per query, from two checked scorings.

        ``a`` and ``b`` are two Series keyed by query (the same queries, each once) or two
        sequences of one length, in the same query order.

        Examples
        --------
        >>> from mapteach.analysis import DeltaTable
        >>> DeltaTable.from_scores([0.5, 1.0], [0.75, 0.5])["delta"].tolist()
        [0.25, -0.5]
        >>> DeltaTable.from_scores([0.5], [float("nan")])
        Traceback (most recent call last):
        ...
        ValueError: a and b must hold at least one query's score, and only finite scores.
        """
        if isinstance(a, pd.Series) and isinstance(b, pd.Series):
            for name, scores in (("a", a), ("b", b)):
                if not scores.index.is_unique:
                    twice = scores.index[scores.index.duplicated()].unique().tolist()[:3]
                    raise ValueError(
                        tr(
                            "{name} scores some queries more than once: {twice}.",
                            name=name,
                            twice=twice,
                        )
                    )
            if set(a.index) != set(b.index):
                only = sorted(set(a.index) ^ set(b.index), key=str)[:3]
                raise ValueError(
                    tr(
                        "a and b must score the same queries; only one of them scores {only}.",
                        only=only,
                    )
                )
            frame = pd.DataFrame({"A": a.to_numpy(dtype=float), "B": b.reindex(a.index).to_numpy()})
            frame.index = a.index
        else:
            first, second = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
            if first.ndim != 1 or first.shape != second.shape:
                raise ValueError(
                    tr(
                        "a and b must be 1-D and of the same length (one score per query); got "
                        "shapes {first} and {second}.",
                        first=first.shape,
                        second=second.shape,
                    )
                )
            frame = pd.DataFrame({"A": first, "B": second})
        frame = frame.astype(float)
        if frame.empty or not np.isfinite(frame.to_numpy()).all():
            raise ValueError(
                tr("a and b must hold at least one query's score, and only finite scores.")
            )
        frame["delta"] = frame["B"] - frame["A"]
        return cls(frame)
