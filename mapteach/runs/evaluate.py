"""Evaluate whole runs: TREC qrels and runs, or a (queries x candidates) score matrix.

Both paths end in the batch kernels of :mod:`mapteach.metrics.batch` (or, with
``ties="expected"``, :mod:`mapteach.metrics.ties`) over rows sorted by (query,
rank): no Python loop per query. Defaults follow trec_eval: rank by score
descending, ties broken by document id descending (as strings), the run's rank
column ignored, queries only in the run ignored, grade >= 1 relevant. Introduced
in ``11_evaluate_your_own_run``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from mapteach.metrics._validation import check_choice
from mapteach.metrics.batch import RankedEntries, batch_scores, ideal_ranking
from mapteach.metrics.names import Measure, parse_measure
from mapteach.metrics.options import (
    DENOMINATORS,
    MISSING,
    NO_RELEVANT,
    TIES,
    Denominator,
    Missing,
    NoRelevant,
    Ties,
)
from mapteach.metrics.ties import expected_scores
from mapteach.runs.trec import as_qrels, as_run

__all__ = ["DEFAULT_MEASURES", "evaluate", "evaluate_scores"]

DEFAULT_MEASURES: tuple[str, ...] = ("AP", "AP@10", "P@10", "R@100", "RR", "nDCG@10")


@dataclass(frozen=True)
class _Options:
    """The convention switches of one evaluation, checked when it is made."""

    ties: Ties
    no_relevant: NoRelevant
    missing: Missing
    threshold: int
    denominator: Denominator

    def __post_init__(self) -> None:
        check_choice(self.ties, TIES, name="ties")
        check_choice(self.denominator, DENOMINATORS, name="denominator")
        if self.ties == "expected" and self.denominator == "retrieved":
            raise ValueError(
                "ties='expected' needs a fixed denominator: with denominator='retrieved' the "
                "number of hits within the cutoff itself depends on the order of the ties."
            )
        check_choice(self.no_relevant, NO_RELEVANT, name="no_relevant")
        check_choice(self.missing, MISSING, name="missing")
        threshold = self.threshold
        if isinstance(threshold, bool) or not isinstance(threshold, (int, np.integer)):
            raise TypeError(f"relevance_threshold must be an integer grade; got {threshold!r}.")
        if threshold < 1:
            raise ValueError(
                f"relevance_threshold must be >= 1 (unjudged documents count as grade 0, so "
                f"they would become relevant); got {threshold}."
            )

    def expected(
        self, entries: RankedEntries, sorted_score: np.ndarray, measures: Sequence[Measure]
    ) -> dict[str, np.ndarray]:
        """Tie-aware scores of every row of a run sorted by (query, score descending)."""
        return expected_scores(
            entries, sorted_score, measures, threshold=self.threshold, denominator=self.denominator
        )

    def batch(self, entries: RankedEntries, measures: Sequence[Measure]) -> dict[str, np.ndarray]:
        """Scores of a run sorted by (query, rank), from its positively graded entries."""
        return batch_scores(
            entries.positive(), measures, threshold=self.threshold, denominator=self.denominator
        )


@dataclass(frozen=True)
class _RunRows:
    """The run's rows of the scored queries: query code, score, and document code.

    Document codes follow ``doc_names``, which is sorted: code order is docno order.
    """

    query: np.ndarray
    score: np.ndarray
    doc: np.ndarray
    doc_names: pd.Index

    @classmethod
    def of(cls, ranked: pd.DataFrame, query: np.ndarray) -> _RunRows:
        """``query`` holds each row's scored-query code, -1 for a query not scored."""
        keep = query >= 0
        doc, doc_names = _codes(ranked["doc_id"])
        return cls(query[keep], ranked["score"].to_numpy()[keep], doc[keep], doc_names)


@dataclass(frozen=True)
class _Judgments:
    """The judgments of the scored queries: query code, run document code and grade.

    The document code is -1 for a document the run never retrieved.
    """

    query: np.ndarray
    doc: np.ndarray
    grade: np.ndarray

    @classmethod
    def of(cls, judged: pd.DataFrame, query: np.ndarray, doc_names: pd.Index) -> _Judgments:
        """``query`` holds each judgment's scored-query code, -1 for a query not scored."""
        in_scope = query >= 0
        doc = doc_names.get_indexer(pd.Index(_values(judged["doc_id"])[in_scope]))
        return cls(query[in_scope], doc, judged["relevance"].to_numpy()[in_scope])


def _scored_queries(run_queries: pd.Index, judged_queries: pd.Index, missing: Missing) -> pd.Index:
    """The queries to score, sorted, with a warning for each kind of query left out."""
    common = run_queries.intersection(judged_queries)
    if common.empty:
        raise ValueError(
            f"the run and the qrels have no query in common (run: {list(run_queries[:3])}..., "
            f"qrels: {list(judged_queries[:3])}...); check that both use the same query ids."
        )
    unjudged = run_queries.difference(judged_queries)
    if len(unjudged):
        warnings.warn(
            f"{len(unjudged)} queries of the run have no judgments and are ignored, as "
            f"trec_eval does (first: {unjudged[0]!r}).",
            UserWarning,
            stacklevel=3,
        )
    absent = judged_queries.difference(run_queries)
    if len(absent) and missing == "ignore":
        warnings.warn(
            f"{len(absent)} judged queries are missing from the run and are ignored, as "
            f"trec_eval does without -c (first: {absent[0]!r}); missing='zero' scores them 0.",
            UserWarning,
            stacklevel=3,
        )
    return (common if missing == "ignore" else judged_queries).sort_values()


def _grades(rows: _RunRows, judgments: _Judgments) -> np.ndarray:
    """The judged grade of each run row; 0 for unjudged documents."""
    n_docs = len(rows.doc_names)
    retrieved = judgments.doc >= 0  # judged documents the run never retrieved match nothing
    judged_key = (judgments.query * n_docs + judgments.doc)[retrieved]
    order = np.argsort(judged_key)
    judged_key, grade_sorted = judged_key[order], judgments.grade[retrieved][order]
    run_key = rows.query * n_docs + rows.doc
    grade = np.zeros(run_key.size)
    if judged_key.size:
        position = np.minimum(np.searchsorted(judged_key, run_key), judged_key.size - 1)
        found = judged_key[position] == run_key
        grade[found] = grade_sorted[position[found]]
    return grade


def _tie_keys(rows: _RunRows, grade: np.ndarray, ties: Ties) -> tuple[np.ndarray, int]:
    """The key that orders tied rows (ascending, unique per query) and its span."""
    if ties in ("input", "expected"):
        return np.arange(rows.score.size), rows.score.size
    n_docs = len(rows.doc_names)
    tie = n_docs - 1 - rows.doc
    if ties == "trec_eval":
        return tie, n_docs
    levels, level = np.unique(grade, return_inverse=True)
    better = level if ties == "pessimistic" else levels.size - 1 - level
    return better * n_docs + tie, levels.size * n_docs


def _rank_order(
    query: np.ndarray, score: np.ndarray, tie: np.ndarray, span: int, n_queries: int
) -> np.ndarray:
    """Row order by (query, score descending, tie ascending); ``tie`` is unique per query.

    Rows are grouped with one quicksort on a packed (query, tie) key, then each
    query's scores are sorted at once in a padded matrix with a stable argsort,
    which keeps the tie order. Far faster than a three-key lexsort.
    """
    if n_queries * span >= 2**62:
        return np.lexsort([tie, -score, query])
    grouped = np.argsort(query.astype(np.int64) * span + tie)
    counts = np.bincount(query, minlength=n_queries)
    width = int(counts.max()) if counts.size else 0
    if n_queries * width > 3 * query.size + 1024:  # very uneven lists: padding would not pay
        return np.lexsort([tie, -score, query])
    position = np.arange(query.size) - np.repeat(np.cumsum(counts) - counts, counts)
    padded = np.full((n_queries, width), np.inf)
    padded[query[grouped], position] = -score[grouped]
    rows = np.full((n_queries, width), -1, dtype=np.int64)
    rows[query[grouped], position] = grouped
    order = np.take_along_axis(rows, np.argsort(padded, axis=1, kind="stable"), axis=1).ravel()
    return order[order >= 0]


def _conventions(
    table: pd.DataFrame, measures: Sequence[Measure], no_relevant: NoRelevant
) -> pd.DataFrame:
    """Apply the choice for queries with no relevant document (R = 0)."""
    empty = table["R"] == 0
    if not empty.any() or no_relevant == "zero":
        return table
    if no_relevant == "error":
        raise ValueError(
            f"{int(empty.sum())} queries have no relevant document (R = 0), first "
            f"{table.index[empty][0]!r}, and no_relevant='error'; choose 'zero', 'skip' or "
            "'one' and write the choice down."
        )
    if no_relevant == "skip":
        return table[~empty]
    ap_columns = [m.name for m in measures if m.family == "AP"]
    table.loc[empty, ap_columns] = 1.0
    return table


def _values(column: pd.Series) -> np.ndarray:
    """The column as an array of str (categoricals expanded)."""
    return np.asarray(column.astype(str) if column.dtype == object else column.to_numpy(str))


def _codes(column: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """Integer codes and their sorted labels: code order is string order."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        categories = column.cat.categories.astype(str)
        order = np.argsort(categories.to_numpy(dtype=object))
        relabel = np.empty(order.size, dtype=np.int64)
        relabel[order] = np.arange(order.size)
        return relabel[column.cat.codes.to_numpy()], pd.Index(categories[order])
    codes, labels = pd.factorize(column.astype(str), sort=True)
    return codes.astype(np.int64), pd.Index(labels)


def _frame(
    index: pd.Index,
    scores: dict[str, np.ndarray],
    r: np.ndarray,
    retrieved: np.ndarray,
    names: Sequence[str],
) -> pd.DataFrame:
    table = pd.DataFrame({name: scores[parse_measure(name).name] for name in names}, index=index)
    table["R"] = r
    table["retrieved"] = retrieved
    return table


def evaluate(
    qrels: Any,
    run: Any,
    measures: Sequence[str] = DEFAULT_MEASURES,
    *,
    ties: Ties = "trec_eval",
    no_relevant: NoRelevant = "zero",
    missing: Missing = "ignore",
    relevance_threshold: int = 1,
    denominator: Denominator = "relevant",
) -> pd.DataFrame:
    """Evaluate a run against qrels, query by query, as trec_eval does.

    Parameters
    ----------
    qrels : path, file, DataFrame or dict
        Judgments: TREC ``qid 0 docid rel`` lines, a DataFrame with columns
        ``query_id, doc_id, relevance``, or ``{qid: {docid: rel}}``.
    run : path, file, DataFrame or dict
        Results: TREC ``qid Q0 docid rank score tag`` lines, a DataFrame with
        columns ``query_id, doc_id, score``, or ``{qid: {docid: score}}``.
    measures : sequence of str
        Measure names as ir_measures spells them: ``AP``, ``AP@10``, ``P@10``,
        ``R@100``, ``RR``, ``nDCG@10``, ``Success@1`` ...
    ties : {"trec_eval", "input", "optimistic", "pessimistic", "expected"}
        How tied scores are ordered (trec_eval: document id descending), or
        ``"expected"``: the exact mean over every order of each tied group.
    no_relevant : {"zero", "skip", "one", "error"}
        A query with no relevant judgment: all measures 0 (trec_eval), left out,
        AP-type measures 1 (ml_metrics), or an error.
    missing : {"ignore", "zero"}
        A judged query the run lacks: left out (trec_eval) or scored 0
        (trec_eval ``-c``, ir_measures).
    relevance_threshold : int, default 1
        The lowest grade that counts as relevant (trec_eval ``-l``).
    denominator : {"relevant", "min_relevant_k", "retrieved"}, default "relevant"
        What AP-type measures divide by: R (trec_eval), min(R, k) (Kaggle
        ``apk``) or the relevant documents retrieved within the cutoff (sklearn,
        torchmetrics ``top_k``), as :func:`mapteach.average_precision`. With
        ``ties="expected"`` only R and min(R, k), which no order of a tie changes.

    Returns
    -------
    pandas.DataFrame
        Indexed by query id (sorted), one column per measure named exactly as
        passed, plus ``R`` (relevant judged) and ``retrieved`` (list length).
        ``table.mean()`` gives the means (MAP for ``AP``).

    Raises
    ------
    ValueError
        On malformed input (the message names the file and line, or the query
        and document), unknown measures or options, or a run with no query in
        common with the qrels.
    TypeError
        If ``relevance_threshold`` is not an integer, or the inputs have the wrong type.

    Warns
    -----
    UserWarning
        With a count, for queries of the run that the qrels do not judge (and,
        with ``missing="ignore"``, judged queries the run lacks): trec_eval
        ignores both.

    Examples
    --------
    >>> from mapteach.runs.evaluate import evaluate
    >>> qrels = {"q1": {"d1": 1, "d2": 0, "d3": 1}}
    >>> run = {"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}}
    >>> evaluate(qrels, run, ["AP", "P@2"])  # AP = (1/1 + 2/3) / 2
                AP  P@2  R  retrieved
    query_id
    q1        0.833333  0.5  2          3
    """
    names = list(measures)
    parsed = [parse_measure(name) for name in names]
    options = _Options(ties, no_relevant, missing, relevance_threshold, denominator)
    judged, ranked = as_qrels(qrels), as_run(run)
    run_query, run_queries = _codes(ranked["query_id"])
    judged_query, judged_queries = _codes(judged["query_id"])
    queries = _scored_queries(run_queries, judged_queries, options.missing)
    n_queries = len(queries)
    rows = _RunRows.of(ranked, queries.get_indexer(run_queries)[run_query])
    judgments = _Judgments.of(
        judged, queries.get_indexer(judged_queries)[judged_query], rows.doc_names
    )
    grade = _grades(rows, judgments)
    order = _rank_order(rows.query, rows.score, *_tie_keys(rows, grade, options.ties), n_queries)
    relevant = judgments.grade >= options.threshold
    r = np.bincount(judgments.query, weights=relevant, minlength=n_queries)
    entries = RankedEntries.from_sorted_rows(
        rows.query[order], grade[order], r, judgments.query, np.maximum(judgments.grade, 0)
    )
    scores = (
        options.expected(entries, rows.score[order], parsed)
        if options.ties == "expected"
        else options.batch(entries, parsed)
    )
    retrieved = np.bincount(rows.query, minlength=n_queries)
    table = _frame(pd.Index(queries, name="query_id"), scores, r.astype(np.int64), retrieved, names)
    return _conventions(table, parsed, options.no_relevant)


def _matrix(values: ArrayLike, name: str) -> np.ndarray:
    array = np.asarray(values)
    if array.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-D (queries x candidates) array; got shape {array.shape}."
        )
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numeric or boolean; got dtype {array.dtype}.")
    bad = ~np.isfinite(array) if array.dtype.kind == "f" else np.zeros(array.shape, bool)
    if bad.any():
        row, column = np.argwhere(bad)[0]
        raise ValueError(
            f"{name}[{row}, {column}] is {array[row, column]}; every {name} value must be finite."
        )
    return array


def _totals(n_relevant: ArrayLike, hits: np.ndarray) -> np.ndarray:
    totals = np.asarray(n_relevant)
    if totals.shape != hits.shape or totals.dtype.kind not in "iu":
        raise ValueError(
            f"n_relevant must hold one whole number per query ({hits.size}); got "
            f"shape {totals.shape} and dtype {totals.dtype}."
        )
    short = np.flatnonzero(totals < hits)
    if short.size:
        row = short[0]
        raise ValueError(
            f"n_relevant[{row}]={totals[row]} is smaller than the {hits[row]} relevant "
            "candidates in that row; R counts every relevant document, retrieved or not."
        )
    return totals


def _matrices(scores: ArrayLike, relevance: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Scores as float64 and relevance as given, both checked and of the same shape."""
    score = _matrix(scores, "scores").astype(np.float64, copy=False)
    grade = _matrix(relevance, "relevance")
    if score.shape != grade.shape:
        raise ValueError(
            f"scores has shape {score.shape} but relevance has shape {grade.shape}; "
            "they must match, one row per query and one column per candidate."
        )
    return score, grade


def _matrix_order(
    score: np.ndarray, grade: np.ndarray, ties: Ties, doc_ids: Sequence[str] | None
) -> np.ndarray:
    """Each row's candidate columns, best first, ties ordered as ``ties`` says."""
    n_candidates = score.shape[1]
    if doc_ids is None:
        doc_ids = [str(column) for column in range(n_candidates)]
    if len(doc_ids) != n_candidates:
        raise ValueError(f"doc_ids has {len(doc_ids)} names for {n_candidates} candidates.")
    if ties in ("input", "expected"):
        return np.argsort(-score, axis=1, kind="stable")
    if ties == "trec_eval":  # columns in docno-descending order, then a stable sort
        by_doc = np.argsort(np.asarray(doc_ids, dtype=object))[::-1]
        return by_doc[np.argsort(-score[:, by_doc], axis=1, kind="stable")]
    doc_rank = np.argsort(np.argsort(np.asarray(doc_ids, dtype=object)))
    docs = np.broadcast_to(-doc_rank, score.shape)
    level = grade.astype(np.float64)
    return np.lexsort((docs, -level if ties == "optimistic" else level, -score), axis=1)


def _matrix_judgments(
    grade: np.ndarray, threshold: int, n_relevant: ArrayLike | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """R of each row, and every judged (row, gain) for the ideal ranking.

    Relevant documents outside the matrix (``n_relevant`` above the row's
    relevant entries) enter the ideal ranking with gain 1 each.
    """
    hits = (grade >= threshold).sum(axis=1)
    r = hits if n_relevant is None else _totals(n_relevant, hits)
    judged_query, judged_column = np.nonzero(grade > 0)
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
) -> RankedEntries:
    """Entries of a matrix of grades in rank order: every cell, or only the positive ones."""
    if every_row:
        n_queries, n_candidates = ranked.shape
        query = np.repeat(np.arange(n_queries), n_candidates)
        return RankedEntries.from_sorted_rows(query, ranked.ravel(), r, judged_query, judged_gain)
    rows, columns = np.nonzero(ranked > 0)
    ideal_query, ideal_gain = ideal_ranking(judged_query, judged_gain)
    return RankedEntries(
        query=rows,
        rank=columns + 1,
        grade=ranked[rows, columns].astype(float),
        n_queries=ranked.shape[0],
        n_relevant=r,
        ideal_query=ideal_query,
        ideal_gain=ideal_gain,
    )


def evaluate_scores(
    scores: ArrayLike,
    relevance: ArrayLike,
    measures: Sequence[str] = DEFAULT_MEASURES,
    *,
    ties: Ties = "input",
    no_relevant: NoRelevant = "zero",
    relevance_threshold: int = 1,
    doc_ids: Sequence[str] | None = None,
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
        Similarities, higher is better; finite.
    relevance : array of the same shape
        Boolean or integer grades; every candidate is judged.
    measures : sequence of str
        As :func:`evaluate`.
    ties : {"input", "trec_eval", "optimistic", "pessimistic", "expected"}, default "input"
        Tied scores keep the candidates' column order (a stable sort, as
        article 003 advises); ``"trec_eval"`` orders them by ``doc_ids``
        (default the column numbers as strings) descending.
    no_relevant, relevance_threshold, denominator
        As :func:`evaluate`.
    doc_ids : sequence of str, optional
        Candidate names, used only by ``ties="trec_eval"``.
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

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.runs.evaluate import evaluate_scores
    >>> scores = np.array([[0.9, 0.2, 0.5], [0.1, 0.3, 0.8]])
    >>> relevance = np.array([[1, 0, 1], [1, 0, 0]])
    >>> evaluate_scores(scores, relevance, ["AP", "RR"])  # row 1: the relevant one is ranked 3rd
                 AP        RR  R  retrieved
    query
    0      1.000000  1.000000  2          3
    1      0.333333  0.333333  1          3
    """
    names = list(measures)
    parsed = [parse_measure(name) for name in names]
    options = _Options(ties, no_relevant, "ignore", relevance_threshold, denominator)
    score, grade = _matrices(scores, relevance)
    n_queries, n_candidates = score.shape
    order = _matrix_order(score, grade, options.ties, doc_ids)
    ranked = np.take_along_axis(grade, order, axis=1)
    r, judged_query, judged_gain = _matrix_judgments(grade, options.threshold, n_relevant)
    expected = options.ties == "expected"
    entries = _matrix_entries(ranked, r, judged_query, judged_gain, every_row=expected)
    result = (
        options.expected(entries, np.take_along_axis(score, order, axis=1).ravel(), parsed)
        if expected
        else options.batch(entries, parsed)
    )
    table = _frame(
        pd.RangeIndex(n_queries, name="query"), result, r, np.full(n_queries, n_candidates), names
    )
    return _conventions(table, parsed, options.no_relevant)
