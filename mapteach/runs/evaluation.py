"""Evaluate whole runs as DataFrames: :func:`evaluate` (per query) and :func:`summarize`.

:func:`evaluate` is the DataFrame view of :func:`mapteach.runs.scoring.score_run`, which
does the work with numpy alone (its module's docstring gives trec_eval's rules, the
defaults); :func:`summarize` gives the all-queries line. Measures are named as
ir_measures (``AP@10``) or trec_eval (``map_cut.10``) names them. Introduced in
``11_evaluate_your_own_run``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from mapteach.i18n import tr
from mapteach.metrics.names import DEFAULT_MEASURES, Measure, parse_measures
from mapteach.metrics.options import Aggregate, Denominator, Missing, NoRelevant, Ties
from mapteach.runs.scoring import no_relevant_rule, score_run

__all__ = ["evaluate", "summarize"]


def apply_no_relevant(
    table: pd.DataFrame, measures: dict[str, Measure], no_relevant: NoRelevant
) -> pd.DataFrame:
    """Apply the choice for queries with no relevant document (R = 0) to a table."""
    values = {name: table[name].to_numpy() for name in measures}
    keep, values = no_relevant_rule(
        table.index.tolist(), values, table["R"].to_numpy(), measures, no_relevant
    )
    for name, value in values.items():
        table[name] = value
    return table if keep.all() else table[keep]


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
    missing: Missing = "error",
    relevance_threshold: int = 1,
    denominator: Denominator = "relevant",
    max_results: int | None = None,
    judged_only: bool = False,
) -> pd.DataFrame:
    """Evaluate a run against qrels, query by query, as trec_eval does.

    Parameters
    ----------
    qrels : path, file, DataFrame, dict, ranx Qrels or iterable of namedtuples
        Judgments: TREC ``qid 0 docid rel`` lines, a DataFrame with columns
        ``query_id, doc_id, relevance`` (or PyTerrier's ``qid, docno, label``),
        ``{qid: {docid: rel}}`` (pytrec_eval), a ranx ``Qrels``, or ir_datasets'
        ``qrels_iter()`` (items with ``query_id, doc_id, relevance``).
    run : path, file, DataFrame, dict, ranx Run or iterable of namedtuples
        Results: TREC ``qid Q0 docid rank score tag`` lines, a DataFrame with
        columns ``query_id, doc_id, score`` (or PyTerrier's ``qid, docno, score``;
        a ``rank`` column is ignored), ``{qid: {docid: score}}``, a ranx ``Run``, or
        ir_datasets' ``scoreddocs_iter()`` (items with ``query_id, doc_id, score``).
    measures : str or sequence of str
        Measure names as ir_measures spells them (``AP``, ``AP@10``, ``P@10``,
        ``R@100``, ``RR``, ``nDCG@10``, ``Success@1``, ``Rprec``, ``Bpref``,
        ``Judged@10``, ``NumRet``, ``NumRel``, ``NumRelRet``, ``GMAP``) or as
        trec_eval does (``map``, ``P.10``, ``ndcg_cut.10``, ``bpref``, ``gm_map``
        ...), each once; one string is one measure.
    ties : {"trec_eval", "input", "optimistic", "pessimistic", "expected", "ir_measures"}
        How tied scores are ordered (trec_eval: document id descending;
        ir_measures: ascending), or ``"expected"``: the exact mean over every
        order of each tied group (not for Bpref, nor with ``max_results``).
    no_relevant : {"zero", "skip", "one", "error"}
        A query with no relevant judgment: all measures 0 (trec_eval), left out,
        AP-type measures 1 (torchmetrics ``empty_target_action="pos"``), or an error.
    missing : {"error", "zero", "ignore"}, default "error"
        A judged query the run lacks: an error naming the queries (trec_eval 10
        without ``-c``), scored 0 on every measure (trec_eval ``-c``, ir_measures),
        or left out of the table and its means, with a warning.
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
        On malformed input (the message names the file and line, or the row, or
        the query and document), unknown or repeated measures, unknown options, a
        run with no query in common with the qrels, or, with ``missing="error"``,
        judged queries the run lacks (the first 10 named, sorted, and the count).
    TypeError
        If ``relevance_threshold`` or ``max_results`` is not an integer, or the
        inputs have the wrong type.

    Warns
    -----
    UserWarning
        With a count, for queries of the run that the qrels do not judge (left
        out, as trec_eval does) and, with ``missing="ignore"``, for judged
        queries the run lacks.

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
    scores = score_run(
        qrels,
        run,
        measures,
        ties=ties,
        no_relevant=no_relevant,
        missing=missing,
        relevance_threshold=relevance_threshold,
        denominator=denominator,
        max_results=max_results,
        judged_only=judged_only,
    )
    table = pd.DataFrame(scores.values, index=pd.Index(scores.queries, name="query_id"))
    table["R"] = scores.n_relevant
    table["retrieved"] = scores.n_retrieved
    return table


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
            tr(
                "the table has no column {column!r}; its measure columns are {columns}.",
                column=absent[0],
                columns=columns,
            )
        )
    return pd.Series(
        {
            name: measure.over_queries(table[name].to_numpy(dtype=float), aggregate=aggregate)
            for name, measure in parsed.items()
        },
        name="all",
        dtype=float,
    )
