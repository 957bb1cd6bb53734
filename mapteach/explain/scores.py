"""Several named rankings scored on several measures: one table, one row per ranking."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mapteach.explain.display import ShownTable
from mapteach.i18n import tr
from mapteach.metrics.names import Labels, parse_measure

__all__ = ["ScoreTable", "score_table"]


class ScoreTable(ShownTable):
    """Rankings scored on measures: measure names are names, shown as they are."""


def score_table(
    rankings: Mapping[str, Labels],
    measures: Sequence[str],
    *,
    n_relevant: int | Mapping[str, int] | None = None,
) -> ScoreTable:
    """Score several named rankings on several measures, one row per ranking.

    Introduced in ``01_why_order_matters``.

    Parameters
    ----------
    rankings : mapping of str to label sequence
        Named ranked lists of 0/1 labels, best first.
    measures : sequence of str
        Measure names such as ``"P@5"``, ``"AP"``, ``"nDCG@10"``.
    n_relevant : int or mapping of str to int, optional
        R for every ranking, or per ranking name. Default: the hits in each list.

    Returns
    -------
    ScoreTable
        A DataFrame indexed by ranking name, one column per measure, named as given,
        printed with every score at four decimals.

    Raises
    ------
    ValueError
        If ``rankings`` or ``measures`` is empty, a measure name is unknown, or a
        ranking is invalid (the message names it).

    Examples
    --------
    >>> from mapteach import score_table
    >>> table = score_table({"A": [1, 1, 0, 0, 0], "B": [0, 0, 0, 1, 1]}, ["P@5", "R@5", "AP"])
    >>> print(table.round(4).to_string())
          P@5     R@5      AP
    A  0.4000  1.0000  1.0000
    B  0.4000  1.0000  0.3250
    """
    if not rankings or not measures:
        raise ValueError(tr("score_table needs at least one ranking and one measure."))
    parsed = [parse_measure(name) for name in measures]
    rows = {}
    for name, labels in rankings.items():
        r = n_relevant.get(name) if isinstance(n_relevant, Mapping) else n_relevant
        try:
            rows[name] = [measure.score(labels, n_relevant=r) for measure in parsed]
        except (TypeError, ValueError) as error:
            raise type(error)(tr("ranking {name!r}: {error}", name=name, error=error)) from None
    return ScoreTable.from_dict(rows, orient="index", columns=list(measures))
