"""Evaluate a (queries x candidates) score matrix with its relevance matrix, cell by cell."""

from __future__ import annotations

import math
import numbers
import reprlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from mapteach.i18n import N_, tr
from mapteach.metrics.batch import RankedEntries, ideal_ranking
from mapteach.metrics.names import DEFAULT_MEASURES, parse_measures
from mapteach.metrics.options import (
    Denominator,
    NoRelevant,
    Ties,
)
from mapteach.runs.evaluation import apply_no_relevant, scores_frame
from mapteach.runs.evaluation_options import EvaluationOptions
from mapteach.runs.numbers import invalid_numbers

__all__ = ["evaluate_scores"]


def _matrix(values: ArrayLike, name: str) -> np.ndarray:
    """``values`` as a 2-D array of numbers, booleans or Python objects (checked later)."""
    array = np.asarray(values)
    if array.ndim != 2:
        raise ValueError(
            tr(
                "{name} must be a 2-D (queries x candidates) array; got shape {shape}.",
                name=name,
                shape=array.shape,
            )
        )
    if array.dtype.kind not in "biufO":
        raise TypeError(
            tr(
                "{name} must be numeric or boolean; got dtype {dtype}.",
                name=name,
                dtype=array.dtype,
            )
        )
    return array


def _missing_id(value: Any) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


def _ids(values: Any, size: int, name: str, what: str, axis: str) -> list[Any]:
    """One id per row (or column): present, a string or an integer, and each used once."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray, pd.Index)):
        raise TypeError(
            tr(
                "{name} must be a sequence of ids, one per {what}; got {values!r}.",
                name=name,
                what=tr(what),
                values=values,
            )
        )
    ids = list(values)
    if len(ids) != size:
        raise ValueError(
            tr(
                "{name} has {count} ids but the matrices have {size} {axis}; give one id per "
                "{what}.",
                name=name,
                count=len(ids),
                size=size,
                axis=tr(axis),
                what=tr(what),
            )
        )
    _check_each_id(ids, name, what)
    return ids


def _check_each_id(ids: list[Any], name: str, what: str) -> None:
    """Raise naming the first id that is missing, neither a string nor an integer, or used twice."""
    first: dict[Any, int] = {}
    for index, value in enumerate(ids):
        if _missing_id(value):
            raise ValueError(
                tr(
                    "{name}[{index}] is missing ({value!r}); every {what} needs an id.",
                    name=name,
                    index=index,
                    value=value,
                    what=tr(what),
                )
            )
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (str, numbers.Integral)):
            raise TypeError(
                tr(
                    "{name}[{index}] is {value!r} ({kind}); ids must be strings or integers.",
                    name=name,
                    index=index,
                    value=value,
                    kind=type(value).__name__,
                )
            )
        if value in first:
            raise ValueError(
                tr(
                    "{name}[{index}] repeats {value!r} from {name}[{first}]; each {what} needs "
                    "its own id.",
                    name=name,
                    index=index,
                    value=value,
                    first=first[value],
                    what=tr(what),
                )
            )
        first[value] = index


@dataclass(frozen=True)
class _Cells:
    """The ids of a matrix's rows and columns, to name a cell in a message."""

    query_ids: list[Any] | None
    doc_ids: list[Any] | None

    def name(self, matrix: str, row: int, column: int, value: Any) -> str:
        """Such as ``relevance[0, 2] is 0.5 (query 'q1', document 'd3')``."""
        query = row if self.query_ids is None else self.query_ids[row]
        doc = column if self.doc_ids is None else self.doc_ids[column]
        shown = reprlib.repr(int(value)) if isinstance(value, numbers.Integral) else str(value)
        return tr(
            "{matrix}[{row}, {column}] is {shown} (query {query!r}, document {doc!r})",
            matrix=matrix,
            row=row,
            column=column,
            shown=shown,
            query=query,
            doc=doc,
        )


def _first(bad: np.ndarray) -> tuple[int, int]:
    row, column = np.argwhere(bad)[0]
    return int(row), int(column)


def _objects(array: np.ndarray, matrix: str, cells: _Cells) -> None:
    """Raise a TypeError naming the first cell of an object array that is not a number."""
    for (row, column), value in np.ndenumerate(array):
        if isinstance(value, (str, bytes)) or not isinstance(value, numbers.Real):
            where = cells.name(matrix, row, column, repr(value))
            raise TypeError(
                tr("{where}; {matrix} must hold numbers or booleans.", where=where, matrix=matrix)
            )


def _to_float(value: Any) -> float:
    """``float(value)``, or inf for an integer too large for a 64-bit float."""
    try:
        return float(value)
    except OverflowError:
        return math.inf


def _score_matrix(array: np.ndarray, cells: _Cells) -> np.ndarray:
    """The scores as finite 64-bit floats; raise naming the first cell that is not one."""
    if array.dtype == object:
        _objects(array, "scores", cells)
        score = np.vectorize(_to_float, otypes=[np.float64])(array)
    else:
        with np.errstate(over="ignore"):
            score = array.astype(np.float64, copy=False)
    bad = ~np.isfinite(score)
    if bad.any():
        row, column = _first(bad)
        value = array[row, column]
        overflows = isinstance(value, numbers.Integral) or bool(np.isfinite(value))
        reason = N_("overflows a 64-bit float") if overflows else _NOT_FINITE
        raise ValueError(
            tr(
                "{where}; every score must be a finite number, and this one {reason}.",
                where=cells.name("scores", row, column, value),
                reason=tr(reason),
            )
        )
    return score


_INT64 = (-(2**63), 2**63 - 1)
_NOT_FINITE = N_("is not finite")
_OUTSIDE_INT64 = N_("is outside the int64 range")


def _grade_problem(value: Any) -> str | None:
    """Why ``value`` (a real number) cannot be a relevance grade (a message id), or None if it
    can."""
    if isinstance(value, numbers.Integral):
        return None if _INT64[0] <= int(value) <= _INT64[1] else _OUTSIDE_INT64
    number = _to_float(value)
    if not math.isfinite(number):
        return _NOT_FINITE
    if not number.is_integer():
        return N_("is not a whole number (it would silently count as a grade below 1)")
    return None if _INT64[0] <= number < 2.0**63 else _OUTSIDE_INT64


def _grade_matrix(array: np.ndarray, cells: _Cells) -> np.ndarray:
    """The grades, each a whole number within int64 (kept in their dtype, objects as int64);
    raise naming the first cell that is not."""
    if array.dtype == object:
        _objects(array, "relevance", cells)
        bad = np.vectorize(lambda value: _grade_problem(value) is not None, otypes=[bool])(array)
    else:
        bad = invalid_numbers(array, integer=True)
    if bad.any():
        row, column = _first(bad)
        value = array[row, column]
        raise ValueError(
            tr(
                "{where}, which {problem}; relevance grades must be whole numbers, such as 0 "
                "(non-relevant), 1 and 2.",
                where=cells.name("relevance", row, column, value),
                problem=tr(str(_grade_problem(value))),
            )
        )
    return array.astype(np.int64) if array.dtype == object else array


def _totals(n_relevant: ArrayLike, hits: np.ndarray) -> np.ndarray:
    totals = np.asarray(n_relevant)
    if totals.shape != hits.shape or totals.dtype.kind not in "iu":
        raise ValueError(
            tr(
                "n_relevant must hold one whole number per query ({n}); got shape {shape} and "
                "dtype {dtype}.",
                n=hits.size,
                shape=totals.shape,
                dtype=totals.dtype,
            )
        )
    short = np.flatnonzero(totals < hits)
    if short.size:
        row = short[0]
        raise ValueError(
            tr(
                "n_relevant[{row}]={total} is smaller than the {hits} relevant candidates in "
                "that row; R counts every relevant document, retrieved or not.",
                row=row,
                total=totals[row],
                hits=hits[row],
            )
        )
    return totals


def _matrices(
    scores: ArrayLike, relevance: ArrayLike, query_ids: Any, doc_ids: Any
) -> tuple[np.ndarray, np.ndarray, _Cells]:
    """Scores as finite float64 and whole-number grades, of the same shape, and the cells' ids."""
    score_array, grade_array = _matrix(scores, "scores"), _matrix(relevance, "relevance")
    if score_array.shape != grade_array.shape:
        raise ValueError(
            tr(
                "scores has shape {scores} but relevance has shape {relevance}; they must match, "
                "one row per query and one column per candidate.",
                scores=score_array.shape,
                relevance=grade_array.shape,
            )
        )
    n_queries, n_candidates = score_array.shape
    cells = _Cells(
        None
        if query_ids is None
        else _ids(query_ids, n_queries, "query_ids", N_("query"), N_("rows")),
        None
        if doc_ids is None
        else _ids(doc_ids, n_candidates, "doc_ids", N_("candidate"), N_("columns")),
    )
    return _score_matrix(score_array, cells), _grade_matrix(grade_array, cells), cells


def _matrix_order(
    score: np.ndarray, grade: np.ndarray, ties: Ties, doc_ids: list[Any] | None
) -> np.ndarray:
    """Each row's candidate columns, best first, ties ordered as ``ties`` says.

    Document ids are compared as strings, as trec_eval compares docnos; by
    default they are the column numbers.
    """
    if ties in ("input", "expected"):
        return np.argsort(-score, axis=1, kind="stable")
    ids = range(score.shape[1]) if doc_ids is None else doc_ids
    names = np.array([str(doc) for doc in ids], dtype=object)
    if ties in ("trec_eval", "ir_measures"):  # columns in docno order, then a stable sort
        by_doc = np.argsort(names)[:: -1 if ties == "trec_eval" else 1]
        return by_doc[np.argsort(-score[:, by_doc], axis=1, kind="stable")]
    doc_rank = np.argsort(np.argsort(names))
    docs = np.broadcast_to(-doc_rank, score.shape)
    level = grade.astype(np.float64)
    return np.lexsort((docs, -level if ties == "optimistic" else level, -score), axis=1)


def _matrix_judgments(
    grade: np.ndarray, threshold: int, n_relevant: ArrayLike | None, *, zeros: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """R of each row, and every judged (row, gain) for the ideal ranking.

    Relevant documents outside the matrix (``n_relevant`` above the row's
    relevant entries) enter the ideal ranking with gain 1 each. With ``zeros``
    the cells of grade 0 enter it too (a gain map may give grade 0 a gain).
    """
    hits = (grade >= threshold).sum(axis=1)
    r = hits if n_relevant is None else _totals(n_relevant, hits)
    judged_query, judged_column = np.nonzero(grade >= 0 if zeros else grade > 0)
    judged_gain = grade[judged_query, judged_column].astype(float)
    if n_relevant is not None:
        extra = np.repeat(np.arange(grade.shape[0]), r - hits)
        judged_query = np.concatenate([judged_query, extra])
        judged_gain = np.concatenate([judged_gain, np.ones(extra.size)])
    return r, judged_query, judged_gain


def _matrix_entries(
    ranked: np.ndarray,
    r: np.ndarray,
    judged_query: np.ndarray,
    judged_gain: np.ndarray,
    *,
    every_row: bool,
    n_nonrelevant: np.ndarray | None,
) -> RankedEntries:
    """Entries of a matrix of grades in rank order: every cell, or only the positive ones.

    With ``n_nonrelevant`` (for Bpref and Judged) every cell is an entry, and judged.
    """
    n_queries, n_candidates = ranked.shape
    if every_row or n_nonrelevant is not None:
        query = np.repeat(np.arange(n_queries), n_candidates)
        return RankedEntries.from_sorted_rows(
            query,
            ranked.ravel(),
            r,
            judged_query,
            judged_gain,
            judged=None if n_nonrelevant is None else np.ones(query.size, bool),
            n_nonrelevant=n_nonrelevant,
        )
    rows, columns = np.nonzero(ranked > 0)
    ideal_query, ideal_gain = ideal_ranking(judged_query, judged_gain)
    return RankedEntries(
        query=rows,
        rank=columns + 1,
        grade=ranked[rows, columns].astype(float),
        n_queries=n_queries,
        n_relevant=r,
        ideal_query=ideal_query,
        ideal_gain=ideal_gain,
        n_retrieved=np.full(n_queries, n_candidates),
    )


def evaluate_scores(
    scores: ArrayLike,
    relevance: ArrayLike,
    measures: str | Sequence[str] = DEFAULT_MEASURES,
    *,
    ties: Ties = "input",
    no_relevant: NoRelevant = "zero",
    relevance_threshold: int = 1,
    doc_ids: Sequence[str] | None = None,
    query_ids: Sequence[Any] | None = None,
    n_relevant: ArrayLike | None = None,
    denominator: Denominator = "relevant",
) -> pd.DataFrame:
    """Evaluate a (queries x candidates) similarity matrix against a relevance matrix.

    Article 003's pipeline: each row ranks every candidate by score; relevance
    says which candidates are relevant to that query (boolean, or graded for
    nDCG). Vectorised: no Python loop per query. Introduced in
    ``10_from_scores_to_map``.

    Parameters
    ----------
    scores : array of shape (n_queries, n_candidates)
        Similarities, higher is better; finite 64-bit floats.
    relevance : array of the same shape
        Boolean or whole-number grades (0.0, 1.0 are fine; 0.5 is not); every
        candidate is judged, so Judged@k is 1 and Bpref's N counts the row's
        grades from 0 up to the threshold.
    measures : str or sequence of str
        As :func:`evaluate`.
    ties : {"input", "trec_eval", "optimistic", "pessimistic", "expected"}, default "input"
        Tied scores keep the candidates' column order (a stable sort, as
        article 003 advises); ``"trec_eval"`` orders them by ``doc_ids``
        (default the column numbers) descending, as strings.
    no_relevant, relevance_threshold, denominator
        As :func:`evaluate`.
    doc_ids : sequence of str, optional
        Candidate names, one per column, each once: the order of ties under
        ``ties="trec_eval"``, and the names in error messages.
    query_ids : sequence of str or int, optional
        Query names, one per row, each once: the index of the result. Default:
        the row numbers.
    n_relevant : array of int, optional
        R per query when some relevant documents are not among the candidates
        (never retrieved). They count in R, and with gain 1 in nDCG's ideal
        ranking (exact for binary judgments). Default: the relevant entries of
        each row.

    Returns
    -------
    pandas.DataFrame
        One row per matrix row (index ``query``), one column per measure, plus
        ``R`` and ``retrieved`` (the number of candidates).

    Raises
    ------
    ValueError
        If a score is not finite (or overflows a 64-bit float), a grade is not
        a whole number within int64, an id is missing or repeated, or the shapes
        disagree; the message names the cell's row and column, and their ids.
    TypeError
        If a matrix holds something other than numbers, or an id is neither a
        string nor an integer.

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.runs import evaluate_scores
    >>> scores = np.array([[0.9, 0.2, 0.5], [0.1, 0.3, 0.8]])
    >>> relevance = np.array([[1, 0, 1], [1, 0, 0]])
    >>> evaluate_scores(scores, relevance, ["AP", "RR"])  # row 1: the relevant one is ranked 3rd
                 AP        RR  R  retrieved
    query
    0      1.000000  1.000000  2          3
    1      0.333333  0.333333  1          3
    >>> evaluate_scores(scores, [[1, 0, 0.5], [1, 0, 0]], "AP")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: relevance[0, 2] is 0.5 (query 0, document 2), which is not a whole number ...
    """
    parsed = parse_measures(measures)
    options = EvaluationOptions(ties, no_relevant, "ignore", relevance_threshold, denominator)
    score, grade, cells = _matrices(scores, relevance, query_ids, doc_ids)
    n_queries, n_candidates = score.shape
    order = _matrix_order(score, grade, options.ties, cells.doc_ids)
    ranked = np.take_along_axis(grade, order, axis=1)
    reads_judged = any(measure.reads_judged for measure in parsed.values())
    r, judged_query, judged_gain = _matrix_judgments(
        grade, options.threshold, n_relevant, zeros=reads_judged
    )
    expected = options.ties == "expected"
    entries = _matrix_entries(
        ranked,
        r,
        judged_query,
        judged_gain,
        every_row=expected,
        n_nonrelevant=(
            ((grade >= 0) & (grade < options.threshold)).sum(axis=1) if reads_judged else None
        ),
    )
    wanted = list(parsed.values())
    result = (
        options.expected(entries, np.take_along_axis(score, order, axis=1).ravel(), wanted)
        if expected
        else options.batch(entries, wanted)
    )
    index = (
        pd.RangeIndex(n_queries, name="query")
        if cells.query_ids is None
        else pd.Index(cells.query_ids, name="query")
    )
    table = scores_frame(index, result, r, np.full(n_queries, n_candidates), parsed)
    return apply_no_relevant(table, parsed, options.no_relevant)
