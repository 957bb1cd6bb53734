"""What one drag can do: AP after every single move of one result to another rank.

The playground's question "which single drag raises MAP the most?" has an answer
that code can find by trying every move. Introduced in ``06_playground``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from mapteach.explain.display import ShownTable
from mapteach.i18n import N_, tr
from mapteach.metrics import average_precision
from mapteach.metrics.validation import as_labels, as_n_relevant

__all__ = ["MOVE_HEADERS", "MoveTable", "best_single_moves", "single_moves"]

#: The header that shows each column key of :func:`single_moves` and :func:`best_single_moves`.
MOVE_HEADERS: dict[str, str] = {
    "from_rank": N_("from rank"),
    "to_rank": N_("to rank"),
    "ap": N_("AP"),
    "gain": N_("AP gain"),
    "best_ap": N_("best AP"),
    "map_gain": N_("MAP gain"),
}


class MoveTable(ShownTable):
    """A table of drags: English column keys, shown in the current language."""

    headers = MOVE_HEADERS


def single_moves(labels: ArrayLike, *, n_relevant: int | None = None) -> pd.DataFrame:
    """AP after moving the result at each rank to each other rank (one drag).

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    n_relevant : int, optional
        R, including relevant results never retrieved. Default: the hits.

    Returns
    -------
    pandas.DataFrame
        One row per move: ``from_rank``, ``to_rank`` (1-based), ``ap`` after the
        move and ``gain`` (``ap`` minus the AP before), best gain first; ties keep
        the order of (from_rank, to_rank).

    Examples
    --------
    >>> from mapteach.board import single_moves
    >>> print(single_moves([0, 1]).to_string(index=False))  # gain: 1/1 - 1/2
     from_rank  to_rank     ap   gain
             1        2 1.0000 0.5000
             2        1 1.0000 0.5000
    """
    y = as_labels(labels)
    r = as_n_relevant(n_relevant, int(y.sum()))
    before = average_precision(y, n_relevant=r)
    rows = []
    for source in range(y.size):
        rest = np.delete(y, source)
        for target in range(y.size):
            if target != source:
                ap = average_precision(np.insert(rest, target, y[source]), n_relevant=r)
                rows.append((source + 1, target + 1, ap, ap - before))
    table = MoveTable(rows, columns=["from_rank", "to_rank", "ap", "gain"])
    return table.sort_values("gain", ascending=False, kind="stable").reset_index(drop=True)


def best_single_moves(
    rankings: Sequence[ArrayLike],
    *,
    names: Sequence[str],
    n_relevant: Sequence[int | None] | None = None,
) -> pd.DataFrame:
    """For each query, its AP and the best one drag: the move, the new AP, and MAP's gain.

    MAP is the mean of AP over queries, so a drag in one query raises MAP by its
    AP gain divided by the number of queries. Where no drag raises AP, the move
    columns are empty and ``best_ap`` is the AP as it is.

    Examples
    --------
    >>> from mapteach.board import best_single_moves
    >>> best_single_moves([[1, 0], [0, 1]], names=["easy", "hard"]).round(4)
             ap  from_rank  to_rank  best_ap  map_gain
    easy 1.0000       <NA>     <NA>   1.0000    0.0000
    hard 0.5000          1        2   1.0000    0.2500
    """
    totals = list(n_relevant) if n_relevant is not None else [None] * len(rankings)
    if not len(rankings) == len(names) == len(totals):
        raise ValueError(
            tr(
                "rankings, names and n_relevant must have one entry per query; got "
                "{rankings}, {names} and {totals}.",
                rankings=len(rankings),
                names=len(names),
                totals=len(totals),
            )
        )
    rows = {}
    for name, labels, r in zip(names, rankings, totals, strict=True):
        ap = average_precision(labels, n_relevant=r)
        moves = single_moves(labels, n_relevant=r)
        best = moves.iloc[0] if len(moves) and moves["gain"].iloc[0] > 0 else None
        rows[name] = {
            "ap": ap,
            "from_rank": None if best is None else best["from_rank"],
            "to_rank": None if best is None else best["to_rank"],
            "best_ap": ap if best is None else best["ap"],
            "map_gain": 0.0 if best is None else best["gain"] / len(names),
        }
    table = MoveTable.from_dict(rows, orient="index")
    return table.astype({"from_rank": "Int64", "to_rank": "Int64"})
