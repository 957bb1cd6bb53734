"""Evaluate whole runs: TREC qrels and runs, or a (queries x candidates) score matrix.

Both paths end in one vectorised kernel over rows sorted by (query, rank): no
Python loop per query. Defaults follow trec_eval: rank by score descending,
ties broken by document id descending (as strings), the run's rank column
ignored, queries only in the run ignored, grade >= 1 relevant. Introduced in
``11_evaluate_your_own_run``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from mapteach.metrics._validation import check_choice
from mapteach.metrics.average_precision import DENOMINATORS
from mapteach.metrics.names import Measure, parse_measure
from mapteach.metrics.ndcg import ideal_dcg
from mapteach.metrics.ties import expected_scores
from mapteach.runs.trec import as_qrels, as_run

__all__ = ["DEFAULT_MEASURES", "MISSING", "TIES", "evaluate", "evaluate_scores"]

DEFAULT_MEASURES: tuple[str, ...] = ("AP", "AP@10", "P@10", "R@100", "RR", "nDCG@10")

#: How tied scores are ordered. ``"trec_eval"``: document id descending, as
#: strings. ``"input"``: the order of the input (a stable sort). ``"optimistic"``
#: and ``"pessimistic"``: higher (lower) grades first within a tie. ``"expected"``:
#: the mean over every order of each tied group (McSherry and Najork 2008), exact.
TIES: tuple[str, ...] = ("trec_eval", "input", "optimistic", "pessimistic", "expected")

#: What happens to a query judged in the qrels but absent from the run:
#: ``"ignore"`` (trec_eval's default) or ``"zero"`` (trec_eval ``-c``, ir_measures).
MISSING: tuple[str, ...] = ("ignore", "zero")

NoRelevant = Literal["zero", "skip", "one", "error"]


def _kernel(
    entry_query: np.ndarray,
    entry_rank: np.ndarray,
    entry_grade: np.ndarray,
    n_queries: int,
    r: np.ndarray,
    ideal_query: np.ndarray,
    ideal_gain: np.ndarray,
    measures: Sequence[Measure],
    threshold: int,
    denominator: str = "relevant",
) -> dict[str, np.ndarray]:
    """Score every query from its retrieved documents with a positive grade.

    Entries are sorted by (query, rank); ``rank`` is 1-based. Every measure here
    depends only on where the positively graded documents sit, R, and the ideal
    gains, so the cost grows with the judged hits, not with the run's length.
    """
    relevant = entry_grade >= threshold
    query, rank = entry_query[relevant], entry_rank[relevant]
    counts = np.bincount(query, minlength=n_queries)
    hits = np.arange(1, query.size + 1) - np.repeat(np.cumsum(counts) - counts, counts)
    has_r = r > 0
    out: dict[str, np.ndarray] = {}

    def per_query(where: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        return np.bincount(query[where], weights=weights, minlength=n_queries)

    def over_r(values: np.ndarray) -> np.ndarray:
        return np.divide(values, r, out=np.zeros(n_queries), where=has_r)

    for measure in measures:
        k = measure.k
        within = np.ones(query.size, bool) if k is None else rank <= k
        if measure.family == "AP":
            total = per_query(within, hits[within] / rank[within])
            if denominator == "relevant":
                out[measure.name] = over_r(total)
            else:
                divisor = per_query(within) if denominator == "retrieved" else np.minimum(r, k or r)
                out[measure.name] = np.divide(
                    total, divisor, out=np.zeros(n_queries), where=divisor > 0
                )
        elif measure.family == "P":
            out[measure.name] = per_query(within) / k
        elif measure.family == "R":
            out[measure.name] = over_r(per_query(within).astype(float))
        elif measure.family == "Success":
            out[measure.name] = (per_query(within) > 0).astype(float)
        elif measure.family == "RR":
            first = within & (hits == 1)
            rr = np.zeros(n_queries)
            rr[query[first]] = 1.0 / rank[first]
            out[measure.name] = rr
        else:  # nDCG: linear gains, log2(rank + 1) discount, as trec_eval
            positive = entry_grade > 0
            cut = positive if k is None else positive & (entry_rank <= k)
            dcg = np.bincount(
                entry_query[cut],
                weights=entry_grade[cut] / np.log2(entry_rank[cut] + 1.0),
                minlength=n_queries,
            )
            idcg = ideal_dcg(ideal_query, ideal_gain, n_queries, k)
            out[measure.name] = np.divide(dcg, idcg, out=np.zeros(n_queries), where=idcg > 0)
    return out


def _entries(sorted_grade: np.ndarray, sorted_query: np.ndarray, n_queries: int):
    """(query, rank, grade) of the positively graded rows of a (query, rank)-sorted run."""
    counts = np.bincount(sorted_query, minlength=n_queries)
    position = np.flatnonzero(sorted_grade > 0)
    query = sorted_query[position]
    rank = position - (np.cumsum(counts) - counts)[query] + 1
    return query, rank, sorted_grade[position].astype(float)


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
    table: pd.DataFrame, measures: Sequence[Measure], no_relevant: str
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


def _check_options(
    ties: str, no_relevant: str, missing: str, threshold: Any, denominator: str = "relevant"
) -> None:
    check_choice(ties, TIES, name="ties")
    check_choice(denominator, DENOMINATORS, name="denominator")
    if ties == "expected" and denominator == "retrieved":
        raise ValueError(
            "ties='expected' needs a fixed denominator: with denominator='retrieved' the "
            "number of hits within the cutoff itself depends on the order of the ties."
        )
    check_choice(no_relevant, ("zero", "skip", "one", "error"), name="no_relevant")
    check_choice(missing, MISSING, name="missing")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, np.integer)):
        raise TypeError(f"relevance_threshold must be an integer grade; got {threshold!r}.")
    if threshold < 1:
        raise ValueError(
            f"relevance_threshold must be >= 1 (unjudged documents count as grade 0, so they "
            f"would become relevant); got {threshold}."
        )


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
    ties: str = "trec_eval",
    no_relevant: NoRelevant = "zero",
    missing: str = "ignore",
    relevance_threshold: int = 1,
    denominator: str = "relevant",
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
        torchmetrics ``top_k``), as :func:`mapteach.average_precision`.

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
    _check_options(ties, no_relevant, missing, relevance_threshold, denominator)
    judged, ranked = as_qrels(qrels), as_run(run)
    run_query_codes, run_queries = _codes(ranked["query_id"])
    judged_query_codes, judged_queries = _codes(judged["query_id"])
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
            stacklevel=2,
        )
    absent = judged_queries.difference(run_queries)
    if len(absent) and missing == "ignore":
        warnings.warn(
            f"{len(absent)} judged queries are missing from the run and are ignored, as "
            f"trec_eval does without -c (first: {absent[0]!r}); missing='zero' scores them 0.",
            UserWarning,
            stacklevel=2,
        )
    queries = (common if missing == "ignore" else judged_queries).sort_values()
    n_queries = len(queries)

    run_query = queries.get_indexer(run_queries)[run_query_codes]
    keep = run_query >= 0
    run_query = run_query[keep]
    score = ranked["score"].to_numpy()[keep]
    judged_query = queries.get_indexer(judged_queries)[judged_query_codes]
    in_scope = judged_query >= 0
    judged_query = judged_query[in_scope]
    grade_judged = judged["relevance"].to_numpy()[in_scope]

    doc_codes, doc_names = _codes(ranked["doc_id"])  # doc_names sorted: code order = docno order
    doc_codes = doc_codes[keep]
    n_docs = len(doc_names)
    judged_docs = doc_names.get_indexer(_values(judged["doc_id"])[in_scope])
    retrieved_judgment = judged_docs >= 0  # judged documents the run never retrieved match nothing
    judged_key = (judged_query * n_docs + judged_docs)[retrieved_judgment]
    order = np.argsort(judged_key)
    judged_key, grade_sorted = judged_key[order], grade_judged[retrieved_judgment][order]
    run_key = run_query * n_docs + doc_codes
    grade = np.zeros(run_key.size)
    if judged_key.size:
        position = np.minimum(np.searchsorted(judged_key, run_key), judged_key.size - 1)
        found = judged_key[position] == run_key
        grade[found] = grade_sorted[position[found]]

    doc_rank = doc_codes
    if ties in ("input", "expected"):
        tie, span = np.arange(score.size), score.size
    else:
        tie, span = n_docs - 1 - doc_rank, n_docs
        if ties != "trec_eval":
            levels, level = np.unique(grade, return_inverse=True)
            better = level if ties == "pessimistic" else levels.size - 1 - level
            tie, span = better * n_docs + tie, levels.size * n_docs
    order = _rank_order(run_query, score, tie, span, n_queries)
    r = np.bincount(judged_query, weights=grade_judged >= relevance_threshold, minlength=n_queries)
    ideal_order = np.lexsort([-grade_judged, judged_query])
    ideal = (judged_query[ideal_order], np.maximum(grade_judged[ideal_order], 0).astype(float))
    if ties == "expected":
        scores = expected_scores(
            run_query[order],
            score[order],
            grade[order],
            n_queries,
            r,
            *ideal,
            parsed,
            relevance_threshold,
        )
    else:
        scores = _kernel(
            *_entries(grade[order], run_query[order], n_queries),
            n_queries,
            r,
            *ideal,
            parsed,
            relevance_threshold,
            denominator,
        )
    retrieved = np.bincount(run_query, minlength=n_queries)
    table = _frame(pd.Index(queries, name="query_id"), scores, r.astype(np.int64), retrieved, names)
    return _conventions(table, parsed, no_relevant)


def _matrix(values: Any, name: str) -> np.ndarray:
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


def _totals(n_relevant: Any, hits: np.ndarray) -> np.ndarray:
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


def evaluate_scores(
    scores: Any,
    relevance: Any,
    measures: Sequence[str] = DEFAULT_MEASURES,
    *,
    ties: str = "input",
    no_relevant: NoRelevant = "zero",
    relevance_threshold: int = 1,
    doc_ids: Sequence[str] | None = None,
    n_relevant: Any = None,
    denominator: str = "relevant",
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
    _check_options(ties, no_relevant, "ignore", relevance_threshold, denominator)
    score = _matrix(scores, "scores").astype(np.float64, copy=False)
    grade = _matrix(relevance, "relevance")
    if score.shape != grade.shape:
        raise ValueError(
            f"scores has shape {score.shape} but relevance has shape {grade.shape}; "
            "they must match, one row per query and one column per candidate."
        )
    n_queries, n_candidates = score.shape
    if doc_ids is None:
        doc_ids = [str(column) for column in range(n_candidates)]
    if len(doc_ids) != n_candidates:
        raise ValueError(f"doc_ids has {len(doc_ids)} names for {n_candidates} candidates.")
    if ties in ("input", "expected"):
        order = np.argsort(-score, axis=1, kind="stable")
    elif ties == "trec_eval":  # columns in docno-descending order, then a stable sort
        by_doc = np.argsort(np.asarray(doc_ids, dtype=object))[::-1]
        order = by_doc[np.argsort(-score[:, by_doc], axis=1, kind="stable")]
    else:
        doc_rank = np.argsort(np.argsort(np.asarray(doc_ids, dtype=object)))
        docs = np.broadcast_to(-doc_rank, score.shape)
        level = grade.astype(np.float64)
        order = np.lexsort((docs, -level if ties == "optimistic" else level, -score), axis=1)
    ranked = np.take_along_axis(grade, order, axis=1)
    rows, columns = np.nonzero(ranked > 0)
    hits = (grade >= relevance_threshold).sum(axis=1)
    r = hits if n_relevant is None else _totals(n_relevant, hits)
    ideal_query, ideal_column = np.nonzero(grade > 0)
    ideal_gain = grade[ideal_query, ideal_column].astype(float)
    if n_relevant is not None:  # relevant documents outside the matrix: gain 1 each
        extra = np.repeat(np.arange(n_queries), r - hits)
        ideal_query = np.concatenate([ideal_query, extra])
        ideal_gain = np.concatenate([ideal_gain, np.ones(extra.size)])
    ideal_order = np.lexsort([-ideal_gain, ideal_query])
    ideal = (ideal_query[ideal_order], ideal_gain[ideal_order])
    if ties == "expected":
        result = expected_scores(
            np.repeat(np.arange(n_queries), n_candidates),
            np.take_along_axis(score, order, axis=1).ravel(),
            ranked.ravel().astype(float),
            n_queries,
            r,
            *ideal,
            parsed,
            relevance_threshold,
        )
    else:
        result = _kernel(
            rows,
            columns + 1,
            ranked[rows, columns].astype(float),
            n_queries,
            r,
            *ideal,
            parsed,
            relevance_threshold,
            denominator,
        )
    table = _frame(
        pd.RangeIndex(n_queries, name="query"), result, r, np.full(n_queries, n_candidates), names
    )
    return _conventions(table, parsed, no_relevant)
