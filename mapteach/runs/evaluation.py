"""Evaluate whole runs: TREC qrels and runs, or a (queries x candidates) score matrix.

Both paths end in each measure's batch kernel, through
:func:`mapteach.metrics.batch.batch_scores` (or, with ``ties="expected"``, its
tie-aware expectation, through :func:`mapteach.metrics.ties.expected_scores`), over
rows sorted by (query, rank): no Python loop per query. Defaults follow trec_eval:
rank by score descending, ties broken by document id descending (as strings), the
run's rank column ignored, queries only in the run ignored, grade >= 1 relevant. Measures
are named as ir_measures (``AP@10``) or trec_eval (``map_cut.10``) names them;
:func:`summarize` gives the all-queries line. Introduced in
``11_evaluate_your_own_run``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from mapteach.i18n import tr
from mapteach.metrics.batch import RankedEntries, batch_scores, ranks_within
from mapteach.metrics.names import DEFAULT_MEASURES, Measure, parse_measures
from mapteach.metrics.options import (
    DENOMINATORS,
    MISSING,
    NO_RELEVANT,
    TIES,
    Aggregate,
    Denominator,
    Missing,
    NoRelevant,
    Ties,
)
from mapteach.metrics.ties import expected_scores
from mapteach.metrics.validation import check_choice
from mapteach.runs.frames import as_qrels, as_run

__all__ = ["evaluate", "summarize"]


@dataclass(frozen=True)
class EvaluationOptions:
    """The convention switches of one evaluation, checked when it is made."""

    ties: Ties
    no_relevant: NoRelevant
    missing: Missing
    threshold: int
    denominator: Denominator
    max_results: int | None = None
    judged_only: bool = False

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
        self._check_cut()

    def _check_cut(self) -> None:
        """Check ``max_results`` (trec_eval -M) and ``judged_only`` (trec_eval -J)."""
        depth = self.max_results
        if depth is not None:
            if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)):
                raise TypeError(
                    "max_results must be a whole number of results per query (trec_eval -M) "
                    f"or None; got {depth!r}."
                )
            if depth < 1:
                raise ValueError(f"max_results must be >= 1; got {depth}.")
            if self.ties == "expected":
                raise ValueError(
                    "max_results cuts each ranking at a fixed depth, which can split a group "
                    "of tied scores, so ties='expected' cannot average over their orders; "
                    "choose another ties option."
                )
        if not isinstance(self.judged_only, (bool, np.bool_)):
            raise TypeError(f"judged_only must be True or False; got {self.judged_only!r}.")

    def cut(
        self,
        order: np.ndarray,
        query: np.ndarray,
        grade: np.ndarray,
        judged: np.ndarray,
        n_queries: int,
    ) -> np.ndarray:
        """The rows of ``order`` (rank order) left after -M, then -J, as trec_eval applies them.

        -M keeps each query's first ``max_results`` rows; -J drops unjudged rows,
        and rows with a negative grade (trec_eval's "judged, but ignore").
        """
        if self.max_results is None and not self.judged_only:
            return order
        keep = np.ones(order.size, bool)
        if self.max_results is not None:
            keep &= ranks_within(query[order], n_queries) <= self.max_results
        if self.judged_only:
            keep &= judged[order] & (grade[order] >= 0)
        return order[keep]

    def expected(
        self, entries: RankedEntries, sorted_score: np.ndarray, measures: Sequence[Measure]
    ) -> dict[str, np.ndarray]:
        """Tie-aware scores of every row of a run sorted by (query, score descending)."""
        return expected_scores(
            entries, sorted_score, measures, threshold=self.threshold, denominator=self.denominator
        )

    def batch(self, entries: RankedEntries, measures: Sequence[Measure]) -> dict[str, np.ndarray]:
        """Scores of a run sorted by (query, rank), from the entries the measures read."""
        return batch_scores(
            entries.sparse(), measures, threshold=self.threshold, denominator=self.denominator
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
        doc, doc_names = _codes(ranked["doc_id"])
        score = ranked["score"].to_numpy()
        if (query >= 0).all():  # every query scored: no copies
            return cls(query, score, doc, doc_names)
        keep = query >= 0
        return cls(query[keep], score[keep], doc[keep], doc_names)


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
            tr(
                "the run and the qrels have no query in common (run: {run}..., qrels: "
                "{qrels}...); check that both use the same query ids.",
                run=list(run_queries[:3]),
                qrels=list(judged_queries[:3]),
            )
        )
    unjudged = run_queries.difference(judged_queries)
    if len(unjudged):
        warnings.warn(
            tr(
                "{n} queries of the run have no judgments and are ignored, as trec_eval does "
                "(first: {first!r}).",
                n=len(unjudged),
                first=unjudged[0],
            ),
            UserWarning,
            stacklevel=3,
        )
    absent = judged_queries.difference(run_queries)
    if len(absent) and missing == "ignore":
        warnings.warn(
            tr(
                "{n} judged queries are missing from the run and are ignored, as trec_eval "
                "does without -c (first: {first!r}); missing='zero' scores them 0.",
                n=len(absent),
                first=absent[0],
            ),
            UserWarning,
            stacklevel=3,
        )
    return (common if missing == "ignore" else judged_queries).sort_values()


def _grades(rows: _RunRows, judgments: _Judgments) -> tuple[np.ndarray, np.ndarray]:
    """The judged grade of each run row (0 for unjudged documents), and whether it is judged."""
    n_docs = len(rows.doc_names)
    retrieved = judgments.doc >= 0  # judged documents the run never retrieved match nothing
    judged_key = (judgments.query * n_docs + judgments.doc)[retrieved]
    order = np.argsort(judged_key)
    judged_key, grade_sorted = judged_key[order], judgments.grade[retrieved][order]
    run_key = rows.query * n_docs + rows.doc
    grade = np.zeros(run_key.size)
    found = np.zeros(run_key.size, bool)
    if judged_key.size:
        position = np.minimum(np.searchsorted(judged_key, run_key), judged_key.size - 1)
        found = judged_key[position] == run_key
        grade[found] = grade_sorted[position[found]]
    return grade, found


def _n_nonrelevant(judgments: _Judgments, threshold: int, n_queries: int) -> np.ndarray:
    """N of each query for Bpref: judged grades from 0 up to the threshold, retrieved or not."""
    nonrelevant = (judgments.grade >= 0) & (judgments.grade < threshold)
    return np.bincount(judgments.query, weights=nonrelevant, minlength=n_queries).astype(np.int64)


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
    counts = np.bincount(query, minlength=n_queries)
    width = int(counts.max()) if counts.size else 0
    if n_queries * width > 3 * query.size + 1024:  # very uneven lists: padding would not pay
        return np.lexsort([tie, -score, query])
    key = query.astype(np.int64) * span
    key += tie
    grouped = np.argsort(key)
    del key  # the temporaries are freed as soon as they are used: this bounds the peak memory
    # each row's cell of a (query, position) matrix, row-major: position counts within a query
    cell = np.arange(query.size)
    cell -= np.repeat(np.cumsum(counts) - counts, counts)
    cell += query[grouped].astype(np.int64, copy=False) * width
    padded = np.full(n_queries * width, np.inf)
    padded[cell] = -score[grouped]
    rows = np.full(n_queries * width, -1, dtype=np.int64)
    rows[cell] = grouped
    del cell, grouped
    within = np.argsort(padded.reshape(n_queries, width), axis=1, kind="stable")
    del padded
    within += np.arange(0, n_queries * width, width)[:, None]  # flat cells, row by row
    order = rows[within.ravel()]
    del rows, within
    return order[order >= 0]


def apply_no_relevant(
    table: pd.DataFrame, measures: dict[str, Measure], no_relevant: NoRelevant
) -> pd.DataFrame:
    """Apply the choice for queries with no relevant document (R = 0)."""
    empty = table["R"] == 0
    if not empty.any() or no_relevant == "zero":
        return table
    if no_relevant == "error":
        raise ValueError(
            tr(
                "{n} queries have no relevant document (R = 0), first {first!r}, and "
                "no_relevant='error'; choose 'zero', 'skip' or 'one' and write the choice down.",
                n=int(empty.sum()),
                first=table.index[empty][0],
            )
        )
    if no_relevant == "skip":
        return table[~empty]
    ap_columns = [name for name, m in measures.items() if m.declaration.ap_type]
    table.loc[empty, ap_columns] = 1.0
    return table


def _values(column: pd.Series) -> np.ndarray:
    """The column as an array of str (categoricals expanded)."""
    return np.asarray(column.astype(str) if column.dtype == object else column.to_numpy(str))


def _codes(column: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """Integer codes and their sorted labels: code order is string order."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        categories = column.cat.categories.astype(str)
        codes = column.cat.codes.to_numpy().astype(np.int64)
        if categories.is_monotonic_increasing:  # the readers already give strcmp order
            return codes, pd.Index(categories)
        order = np.argsort(categories.to_numpy(dtype=object))
        relabel = np.empty(order.size, dtype=np.int64)
        relabel[order] = np.arange(order.size)
        return relabel[codes], pd.Index(categories[order])
    codes, labels = pd.factorize(column.astype(str), sort=True)
    return codes.astype(np.int64), pd.Index(labels)


def scores_frame(
    index: pd.Index,
    scores: dict[str, np.ndarray],
    r: np.ndarray,
    retrieved: np.ndarray,
    measures: dict[str, Measure],
) -> pd.DataFrame:
    """One column per measure, named as the caller named it, then ``R`` and ``retrieved``."""
    table = pd.DataFrame({name: scores[m.name] for name, m in measures.items()}, index=index)
    table["R"] = r
    table["retrieved"] = retrieved
    return table


def evaluate(
    qrels: Any,
    run: Any,
    measures: str | Sequence[str] = DEFAULT_MEASURES,
    *,
    ties: Ties = "trec_eval",
    no_relevant: NoRelevant = "zero",
    missing: Missing = "ignore",
    relevance_threshold: int = 1,
    denominator: Denominator = "relevant",
    max_results: int | None = None,
    judged_only: bool = False,
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
    measures : str or sequence of str
        Measure names as ir_measures spells them (``AP``, ``AP@10``, ``P@10``,
        ``R@100``, ``RR``, ``nDCG@10``, ``Success@1``, ``Rprec``, ``Bpref``,
        ``Judged@10``, ``NumRet``, ``NumRel``, ``NumRelRet``, ``GMAP``) or as
        trec_eval does (``map``, ``P.10``, ``ndcg_cut.10``, ``bpref``, ``gm_map``
        ...), each once; one string is one measure.
    ties : {"trec_eval", "input", "optimistic", "pessimistic", "expected"}
        How tied scores are ordered (trec_eval: document id descending), or
        ``"expected"``: the exact mean over every order of each tied group
        (not for Bpref, nor with ``max_results``).
    no_relevant : {"zero", "skip", "one", "error"}
        A query with no relevant judgment: all measures 0 (trec_eval), left out,
        AP-type measures 1 (torchmetrics ``empty_target_action="pos"``), or an error.
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
    max_results : int, optional
        Score only the first ``max_results`` results of each query, in the order
        ``ties`` gives (trec_eval ``-M``).
    judged_only : bool, default False
        Remove unjudged documents from each ranking before scoring, and those
        with a negative grade, which trec_eval reads as "judged, but ignore"
        (trec_eval ``-J``; after ``max_results``, as trec_eval applies them).

    Returns
    -------
    pandas.DataFrame
        Indexed by query id (sorted), one column per measure named exactly as
        passed, plus ``R`` (relevant judged) and ``retrieved`` (results scored,
        after ``max_results`` and ``judged_only``). ``table.mean()`` gives the
        means (MAP for ``AP``); :func:`summarize` gives trec_eval's all-queries
        line (sums for the counts, the geometric mean for ``GMAP``).

    Raises
    ------
    ValueError
        On malformed input (the message names the file and line, or the query
        and document), unknown or repeated measures, unknown options, or a run
        with no query in common with the qrels.
    TypeError
        If ``relevance_threshold`` or ``max_results`` is not an integer, or the
        inputs have the wrong type.

    Warns
    -----
    UserWarning
        With a count, for queries of the run that the qrels do not judge (and,
        with ``missing="ignore"``, judged queries the run lacks): trec_eval
        ignores both.

    Examples
    --------
    >>> from mapteach.runs import evaluate
    >>> qrels = {"q1": {"d1": 1, "d2": 0, "d3": 1}}
    >>> run = {"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1, "d4": 0.05}}
    >>> evaluate(qrels, run, ["AP", "P@2"])  # AP = (1/1 + 2/3) / 2
                    AP  P@2  R  retrieved
    query_id
    q1        0.833333  0.5  2          4

    trec_eval's names work too, and the columns keep them; ``-M 2`` and ``-J``:

    >>> evaluate(qrels, run, ["map", "bpref"], max_results=2)  # d3 is cut
              map  bpref  R  retrieved
    query_id
    q1        0.5    0.5  2          2
    >>> evaluate(qrels, run, "num_ret", judged_only=True)  # d4 is unjudged
              num_ret  R  retrieved
    query_id
    q1            3.0  2          3
    """
    parsed = parse_measures(measures)
    options = EvaluationOptions(
        ties, no_relevant, missing, relevance_threshold, denominator, max_results, judged_only
    )
    judged, ranked = as_qrels(qrels), as_run(run)
    run_query, run_queries = _codes(ranked["query_id"])
    judged_query, judged_queries = _codes(judged["query_id"])
    queries = _scored_queries(run_queries, judged_queries, options.missing)
    n_queries = len(queries)
    rows = _RunRows.of(ranked, queries.get_indexer(run_queries)[run_query])
    judgments = _Judgments.of(
        judged, queries.get_indexer(judged_queries)[judged_query], rows.doc_names
    )
    grade, has_judgment = _grades(rows, judgments)
    order = _rank_order(rows.query, rows.score, *_tie_keys(rows, grade, options.ties), n_queries)
    order = options.cut(order, rows.query, grade, has_judgment, n_queries)
    relevant = judgments.grade >= options.threshold
    r = np.bincount(judgments.query, weights=relevant, minlength=n_queries)
    reads_judged = any(measure.reads_judged for measure in parsed.values())
    entries = RankedEntries.from_sorted_rows(
        rows.query[order],
        grade[order],
        r,
        judgments.query,
        np.maximum(judgments.grade, 0),
        judged=has_judgment[order] if reads_judged else None,
        n_nonrelevant=(
            _n_nonrelevant(judgments, options.threshold, n_queries) if reads_judged else None
        ),
    )
    wanted = list(parsed.values())
    scores = (
        options.expected(entries, rows.score[order], wanted)
        if options.ties == "expected"
        else options.batch(entries, wanted)
    )
    index = pd.Index(queries, name="query_id")
    table = scores_frame(index, scores, r.astype(np.int64), entries.n_retrieved, parsed)
    return apply_no_relevant(table, parsed, options.no_relevant)


def summarize(
    table: pd.DataFrame,
    measures: str | Sequence[str] | None = None,
    *,
    aggregate: Aggregate = "mean",
) -> pd.Series:
    """The value over all queries of each measure column: trec_eval's ``all`` line.

    The arithmetic mean (MAP for ``AP``), or with ``aggregate="gm"`` the
    geometric mean, each value floored at 1e-5 (trec_eval's ``gm_map`` for
    ``AP``). ``GMAP`` columns always take the geometric mean; the counts
    (``NumRet``, ``NumRel``, ``NumRelRet``) are summed, as trec_eval prints them.

    Parameters
    ----------
    table : pandas.DataFrame
        As :func:`evaluate` or :func:`evaluate_scores` return it.
    measures : str or sequence of str, optional
        The measure columns to summarise. Default: every column but ``R`` and
        ``retrieved``.
    aggregate : {"mean", "gm"}, default "mean"
        How the per-query values of the measures that are not counts combine.

    Returns
    -------
    pandas.Series
        One value per measure, named ``all``; NaN for a table with no query.

    Raises
    ------
    ValueError
        If a measure has no column in ``table``, or a name or ``aggregate`` is unknown.

    Examples
    --------
    >>> from mapteach.runs import evaluate, summarize
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> run = {"q1": {"a": 1.0}, "q2": {"c": 2.0, "b": 1.0}}  # AP 1 and 1/2
    >>> table = evaluate(qrels, run, ["AP", "gm_map", "num_ret"])
    >>> summarize(table).round(4).to_dict()  # gm_map = sqrt(1 * 1/2)
    {'AP': 0.75, 'gm_map': 0.7071, 'num_ret': 3.0}
    >>> summarize(table, "AP", aggregate="gm").round(4).to_dict()
    {'AP': 0.7071}
    """
    columns = [column for column in table.columns if column not in ("R", "retrieved")]
    parsed = parse_measures(columns if measures is None else measures)
    absent = [name for name in parsed if name not in columns]
    if absent:
        raise ValueError(
            f"the table has no column {absent[0]!r}; its measure columns are {columns}."
        )
    return pd.Series(
        {
            name: measure.over_queries(table[name].to_numpy(dtype=float), aggregate=aggregate)
            for name, measure in parsed.items()
        },
        name="all",
        dtype=float,
    )
