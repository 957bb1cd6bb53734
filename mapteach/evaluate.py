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

from mapteach._validation import check_choice
from mapteach.measures import Measure, parse_measure
from mapteach.trec import as_qrels, as_run

__all__ = ["DEFAULT_MEASURES", "MISSING", "TIES", "evaluate", "evaluate_scores"]

DEFAULT_MEASURES: tuple[str, ...] = ("AP", "AP@10", "P@10", "R@100", "RR", "nDCG@10")

#: How tied scores are ordered. ``"trec_eval"``: document id descending, as
#: strings. ``"input"``: the order of the input (a stable sort). ``"optimistic"``
#: and ``"pessimistic"``: higher (lower) grades first within a tie.
TIES: tuple[str, ...] = ("trec_eval", "input", "optimistic", "pessimistic")

#: What happens to a query judged in the qrels but absent from the run:
#: ``"ignore"`` (trec_eval's default) or ``"zero"`` (trec_eval ``-c``, ir_measures).
MISSING: tuple[str, ...] = ("ignore", "zero")

NoRelevant = Literal["zero", "skip", "one", "error"]


def _kernel(
    query: np.ndarray,
    grade: np.ndarray,
    n_queries: int,
    r: np.ndarray,
    ideal_query: np.ndarray,
    ideal_gain: np.ndarray,
    measures: Sequence[Measure],
    threshold: float,
) -> dict[str, np.ndarray]:
    """Score rows sorted by (query, rank). ``query`` holds codes 0..n_queries-1."""
    counts = np.bincount(query, minlength=n_queries)
    starts = np.cumsum(counts) - counts
    rank = (np.arange(query.size) - np.repeat(starts, counts) + 1).astype(np.int32)
    relevant = grade >= threshold
    running = np.cumsum(relevant, dtype=np.int64)
    before = np.r_[0, running][starts]
    hits = running - np.repeat(before, counts)
    has_r = r > 0
    out: dict[str, np.ndarray] = {}

    def per_query(weights: np.ndarray) -> np.ndarray:
        return np.bincount(query, weights=weights, minlength=n_queries)

    def over_r(values: np.ndarray) -> np.ndarray:
        return np.divide(values, r, out=np.zeros(n_queries), where=has_r)

    for measure in measures:
        k = measure.k
        within = relevant if k is None else relevant & (rank <= k)
        if measure.family == "AP":
            out[measure.name] = over_r(per_query(np.where(within, hits / rank, 0.0)))
        elif measure.family == "P":
            out[measure.name] = per_query(within) / k
        elif measure.family == "R":
            out[measure.name] = over_r(per_query(within))
        elif measure.family == "Success":
            out[measure.name] = (per_query(within) > 0).astype(float)
        elif measure.family == "RR":
            first_query = query[within]
            first = np.ones(first_query.size, bool)
            first[1:] = first_query[1:] != first_query[:-1]
            rr = np.zeros(n_queries)
            rr[first_query[first]] = 1.0 / rank[within][first]
            out[measure.name] = rr
        else:  # nDCG with linear gains and a log2(rank + 1) discount, as trec_eval
            gain = np.maximum(grade, 0.0)
            cut = np.ones(rank.size, bool) if k is None else rank <= k
            dcg = per_query(np.where(cut, gain / np.log2(rank + 1.0), 0.0))
            ideal_counts = np.bincount(ideal_query, minlength=n_queries)
            ideal_rank = (
                np.arange(ideal_query.size)
                - np.repeat(np.cumsum(ideal_counts) - ideal_counts, ideal_counts)
                + 1
            )
            ideal_cut = np.ones(ideal_rank.size, bool) if k is None else ideal_rank <= k
            idcg = np.bincount(
                ideal_query,
                weights=np.where(ideal_cut, ideal_gain / np.log2(ideal_rank + 1.0), 0.0),
                minlength=n_queries,
            )
            out[measure.name] = np.divide(dcg, idcg, out=np.zeros(n_queries), where=idcg > 0)
    return out


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


def _check_options(ties: str, no_relevant: str, missing: str, threshold: Any) -> None:
    check_choice(ties, TIES, name="ties")
    check_choice(no_relevant, ("zero", "skip", "one", "error"), name="no_relevant")
    check_choice(missing, MISSING, name="missing")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, np.integer)):
        raise TypeError(f"relevance_threshold must be an integer grade; got {threshold!r}.")


def _sort_keys(ties: str, score: np.ndarray, grade: np.ndarray, doc_rank: np.ndarray) -> list:
    """lexsort keys within a query, least significant first."""
    by_doc = -doc_rank
    if ties == "trec_eval":
        return [by_doc, -score]
    if ties == "input":
        return [np.arange(score.size), -score]
    return [by_doc, -grade if ties == "optimistic" else grade, -score]


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
    ties : {"trec_eval", "input", "optimistic", "pessimistic"}
        How tied scores are ordered (trec_eval: document id descending).
    no_relevant : {"zero", "skip", "one", "error"}
        A query with no relevant judgment: all measures 0 (trec_eval), left out,
        AP-type measures 1 (ml_metrics), or an error.
    missing : {"ignore", "zero"}
        A judged query the run lacks: left out (trec_eval) or scored 0
        (trec_eval ``-c``, ir_measures).
    relevance_threshold : int, default 1
        The lowest grade that counts as relevant (trec_eval ``-l``).

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
    >>> from mapteach.evaluate import evaluate
    >>> qrels = {"q1": {"d1": 1, "d2": 0, "d3": 1}}
    >>> run = {"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}}
    >>> evaluate(qrels, run, ["AP", "P@2"])  # AP = (1/1 + 2/3) / 2
                AP  P@2  R  retrieved
    query_id
    q1        0.833333  0.5  2          3
    """
    names = list(measures)
    parsed = [parse_measure(name) for name in names]
    _check_options(ties, no_relevant, missing, relevance_threshold)
    judged, ranked = as_qrels(qrels), as_run(run)
    judged_queries = pd.Index(judged["query_id"].unique())
    run_queries = pd.Index(ranked["query_id"].unique())
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

    run_query = queries.get_indexer(ranked["query_id"])
    keep = run_query >= 0
    run_query = run_query[keep].astype(np.int64)
    run_docs = ranked["doc_id"].to_numpy()[keep]
    score = ranked["score"].to_numpy()[keep]
    judged_query = queries.get_indexer(judged["query_id"]).astype(np.int64)
    in_scope = judged_query >= 0
    judged_query = judged_query[in_scope]
    grade_judged = judged["relevance"].to_numpy()[in_scope]

    doc_codes, doc_names = pd.factorize(
        np.concatenate([run_docs, judged["doc_id"].to_numpy()[in_scope]]), sort=True
    )
    n_docs = len(doc_names)
    run_key = run_query * n_docs + doc_codes[: run_docs.size]
    judged_key = judged_query * n_docs + doc_codes[run_docs.size :]
    order = np.argsort(judged_key)
    judged_key, grade_sorted = judged_key[order], grade_judged[order]
    position = np.searchsorted(judged_key, run_key)
    position[position == judged_key.size] = 0
    found = judged_key[position] == run_key if judged_key.size else np.zeros(run_key.size, bool)
    grade = np.where(found, grade_sorted[position] if judged_key.size else 0, 0).astype(float)

    keys = _sort_keys(ties, score, grade, doc_codes[: run_docs.size])
    order = np.lexsort([*keys, run_query])
    r = np.bincount(judged_query, weights=grade_judged >= relevance_threshold, minlength=n_queries)
    ideal_order = np.lexsort([-grade_judged, judged_query])
    ideal_gain = np.maximum(grade_judged[ideal_order], 0).astype(float)
    scores = _kernel(
        run_query[order],
        grade[order],
        n_queries,
        r,
        judged_query[ideal_order],
        ideal_gain,
        parsed,
        relevance_threshold,
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


def evaluate_scores(
    scores: Any,
    relevance: Any,
    measures: Sequence[str] = DEFAULT_MEASURES,
    *,
    ties: str = "input",
    no_relevant: NoRelevant = "zero",
    relevance_threshold: int = 1,
    doc_ids: Sequence[str] | None = None,
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
    ties : {"input", "trec_eval", "optimistic", "pessimistic"}, default "input"
        Tied scores keep the candidates' column order (a stable sort, as
        article 003 advises); ``"trec_eval"`` orders them by ``doc_ids``
        (default the column numbers as strings) descending.
    no_relevant, relevance_threshold
        As :func:`evaluate`.
    doc_ids : sequence of str, optional
        Candidate names, used only by ``ties="trec_eval"``.

    Returns
    -------
    pandas.DataFrame
        One row per matrix row (index ``query``), one column per measure, plus
        ``R`` and ``retrieved`` (the number of candidates).

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.evaluate import evaluate_scores
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
    _check_options(ties, no_relevant, "ignore", relevance_threshold)
    score = _matrix(scores, "scores").astype(np.float64, copy=False)
    grade = _matrix(relevance, "relevance").astype(np.float64, copy=False)
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
    doc_rank = np.argsort(np.argsort(np.asarray(doc_ids, dtype=object)))
    if ties == "input":
        order = np.argsort(-score, axis=1, kind="stable")
    else:
        tie_key = {"trec_eval": None, "optimistic": -grade, "pessimistic": grade}[ties]
        docs = np.broadcast_to(-doc_rank, score.shape)
        keys = (docs, -score) if tie_key is None else (docs, tie_key, -score)
        order = np.lexsort(keys, axis=1)
    ranked = np.take_along_axis(grade, order, axis=1)
    r = (grade >= relevance_threshold).sum(axis=1)
    query = np.repeat(np.arange(n_queries), n_candidates)
    ideal = -np.sort(-np.maximum(grade, 0), axis=1)
    result = _kernel(
        query, ranked.ravel(), n_queries, r, query, ideal.ravel(), parsed, relevance_threshold
    )
    table = _frame(
        pd.RangeIndex(n_queries, name="query"), result, r, np.full(n_queries, n_candidates), names
    )
    return _conventions(table, parsed, no_relevant)
