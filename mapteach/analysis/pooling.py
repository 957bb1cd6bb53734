"""Pooling: judge only the top of some runs, and see what that does to a run left out of the pool.

No test collection judges every document for every query. TREC judges the *pool*:
the union of the top ``depth`` results of each pooled run (IIR §8.5; usually some of
the runs submitted, each group's priority runs), and every other document counts as
not relevant. A run that did not help build the pool is then blamed for the relevant
documents only it found: pool bias (Zobel, SIGIR 1998; Buckley and Voorhees, SIGIR
2004). Runs and qrels are DataFrames as
:func:`mapteach.runs.frames.as_run` and :func:`~mapteach.runs.frames.as_qrels` give
them (string ids), or anything those accept. Introduced in
``14_incomplete_judgments_and_pooling``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from numbers import Real
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from mapteach.explain.display import ShownTable
from mapteach.i18n import N_, tr
from mapteach.metrics.validation import as_k
from mapteach.runs.evaluation import evaluate, summarize
from mapteach.runs.frames import as_qrels, as_run

__all__ = [
    "POOL_HEADERS",
    "PoolTable",
    "judge_pool",
    "judged_fraction",
    "pool",
    "pool_bias",
    "run_from_scores",
    "sample_pool",
]

#: The header that shows each key of :func:`pool_bias`'s table.
POOL_HEADERS: dict[str, str] = {
    "run": N_("run"),
    "in_pool": N_("in pool"),
    "full": N_("score, full judgments"),
    "pooled": N_("score, pooled judgments"),
    "change": N_("change"),
    "rank_full": N_("rank, full"),
    "rank_pooled": N_("rank, pooled"),
}


class PoolTable(ShownTable):
    """:func:`pool_bias`'s table: stable keys, shown with :data:`POOL_HEADERS`.

    Its ``judged`` column is shown as ``Judged@<depth>``, the measure it holds.
    """

    headers = POOL_HEADERS

    def header_map(self) -> Mapping[str, str]:
        """:data:`POOL_HEADERS`, and ``judged`` as the measure ``Judged@<depth>``."""
        return {**self.headers, "judged": f"Judged@{self.attrs.get('depth', 'k')}"}


def _top(run: pd.DataFrame, depth: int | None) -> pd.DataFrame:
    """Each query's first ``depth`` results (all without it) in trec_eval's order.

    trec_eval ranks by score descending and breaks ties by document id descending.
    """
    ranked = run.sort_values(
        ["query_id", "score", "doc_id"], ascending=[True, False, False], kind="stable"
    )
    return (
        ranked
        if depth is None
        else ranked.groupby("query_id", sort=False, observed=True).head(depth)
    )


def pool(runs: Mapping[str, Any] | Iterable[Any], depth: int) -> pd.DataFrame:
    """The pool of some runs: for each query, the union of every run's top ``depth`` results.

    Each run's results are ranked as trec_eval ranks them (score descending, ties
    broken by document id descending, as strings), whatever their order in the input.

    Parameters
    ----------
    runs : mapping of name to run, or iterable of runs
        The runs that build the pool (paths, DataFrames or dicts, as :func:`as_run`).
    depth : int
        How many results of each run, per query, go into the pool (>= 1).

    Returns
    -------
    pandas.DataFrame
        Qrels-shaped, without grades: columns ``query_id``, ``doc_id`` and
        ``runs`` (how many of the runs put the document in their top ``depth``),
        sorted by query and document.

    Raises
    ------
    TypeError, ValueError
        If ``depth`` is not an integer >= 1, there is no run, or a run is malformed.

    Examples
    --------
    >>> from mapteach.analysis import pool
    >>> a = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
    >>> b = {"q1": {"d3": 3.0, "d1": 2.0, "d4": 1.0}}
    >>> pool({"A": a, "B": b}, depth=2)  # A's top 2: d1, d2; B's: d3, d1
      query_id doc_id  runs
    0       q1     d1     2
    1       q1     d2     1
    2       q1     d3     1
    """
    depth = as_k(depth, name="depth")
    tops = [
        _top(as_run(run), depth)[["query_id", "doc_id"]]
        for run in (runs.values() if isinstance(runs, Mapping) else runs)
    ]
    if not tops:
        raise ValueError(tr("runs is empty; a pool needs at least one run."))
    counted = pd.concat(tops).groupby(["query_id", "doc_id"], observed=True).size().rename("runs")
    return counted.reset_index().astype({"runs": np.int64})


def judge_pool(pooled: pd.DataFrame, full_qrels: Any) -> pd.DataFrame:
    """The judgments an assessor gives the pool: the full qrels restricted to it.

    Every pooled document gets a judgment: its grade in ``full_qrels``, or 0 (not
    relevant) when ``full_qrels`` does not list it, as trec_eval reads a missing
    document. Documents outside the pool are absent: unjudged.

    Parameters
    ----------
    pooled : pandas.DataFrame
        Columns ``query_id`` and ``doc_id``, as :func:`pool` returns.
    full_qrels : path, file, DataFrame or dict
        The complete judgments (as :func:`as_qrels`).

    Returns
    -------
    pandas.DataFrame
        Qrels: columns ``query_id``, ``doc_id``, ``relevance``, one row per
        pooled document, sorted by query and document.

    Examples
    --------
    >>> import pandas as pd
    >>> from mapteach.analysis import judge_pool
    >>> pooled = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d1", "d9"]})
    >>> judge_pool(pooled, {"q1": {"d1": 2, "d2": 1}})  # d2 is unjudged; d9 judged 0
      query_id doc_id  relevance
    0       q1     d1          2
    1       q1     d9          0
    """
    pairs = pooled[["query_id", "doc_id"]].astype(str).drop_duplicates()
    judged = pairs.merge(as_qrels(full_qrels), on=["query_id", "doc_id"], how="left")
    judged["relevance"] = judged["relevance"].fillna(0).astype(np.int64)
    return judged.sort_values(["query_id", "doc_id"], ignore_index=True)


def sample_pool(qrels: Any, share: float, rng: np.random.Generator) -> pd.DataFrame:
    """A random sample of a pool's judgments, the rest marked "pooled but unjudged" (−1).

    What infAP (Yilmaz and Aslam 2006) reads: the assessors judge each pooled document
    with probability ``share``, and trec_eval takes a grade of −1 for a pooled document
    left out of the sample (a document missing from the qrels is outside the pool). The
    draw is ``rng.random(len(qrels)) < share``, one number per row in the qrels' order:
    the same generator in the same state gives the same sample.

    Parameters
    ----------
    qrels : path, file, DataFrame or dict
        The pool's judgments (as :func:`judge_pool` returns, or anything :func:`as_qrels`
        accepts), every grade >= 0.
    share : float
        The chance that a judgment is kept, in (0, 1]; 1 keeps them all.
    rng : numpy.random.Generator
        The source of the draw, such as ``np.random.default_rng(seed)``; it advances.

    Returns
    -------
    pandas.DataFrame
        The qrels' rows in their order (columns ``query_id``, ``doc_id``, ``relevance``),
        with ``relevance`` −1 for each judgment left out of the sample.

    Raises
    ------
    TypeError
        If ``share`` is not a number or ``rng`` not a ``numpy.random.Generator``.
    ValueError
        If ``share`` is not in (0, 1], the qrels are malformed (:func:`as_qrels`) or a
        grade is below 0 (the qrels are a sample already).

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.analysis import sample_pool
    >>> judged = {"q1": {"d1": 1, "d2": 0, "d3": 2, "d4": 0}}
    >>> np.random.default_rng(8).random(4) < 0.5  # the draw sample_pool makes
    array([ True, False,  True, False])
    >>> sample_pool(judged, 0.5, np.random.default_rng(8))
      query_id doc_id  relevance
    0       q1     d1          1
    1       q1     d2         -1
    2       q1     d3          2
    3       q1     d4         -1
    """
    if isinstance(share, bool) or not isinstance(share, Real):
        raise TypeError(tr("share must be a number in (0, 1]; got {value!r}.", value=share))
    if not 0 < share <= 1:
        raise ValueError(
            tr(
                "share is {value}; it must be in (0, 1], the chance that a judgment is kept.",
                value=share,
            )
        )
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            tr(
                "rng must be a numpy.random.Generator, such as np.random.default_rng(seed); "
                "got {kind}.",
                kind=type(rng).__name__,
            )
        )
    judged = as_qrels(qrels)
    below = judged.index[judged["relevance"] < 0]
    if len(below):
        row = judged.loc[below[0]]
        raise ValueError(
            tr(
                "the qrels, row {row}: grade {grade} of query {query!r}, document {doc!r}; a "
                "pool's judgments are >= 0 (these qrels look like a sample already).",
                row=below[0],
                grade=row["relevance"],
                query=row["query_id"],
                doc=row["doc_id"],
            )
        )
    in_sample = rng.random(len(judged)) < share
    return judged.assign(relevance=judged["relevance"].where(in_sample, -1))


def judged_fraction(run: Any, qrels: Any, k: int) -> pd.Series:
    """The share of each query's top ``k`` results that the qrels judge (``Judged@k``).

    Not a measure of the run but of how far its score can be trusted: AP, P@k
    and nDCG read every unjudged document as not relevant. A list shorter than
    ``k`` is judged over its length, as ir_measures' ``Judged@k``.

    Parameters
    ----------
    run, qrels
        As :func:`evaluate`.
    k : int
        The depth, >= 1.

    Returns
    -------
    pandas.Series
        Named ``Judged@k``, indexed by query id; a judged query the run lacks
        scores 0.

    Examples
    --------
    >>> from mapteach.analysis import judged_fraction
    >>> run = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0, "d4": 0.5}}
    >>> judged_fraction(run, {"q1": {"d1": 1, "d3": 0}}, 4).tolist()  # d1 and d3 of 4
    [0.5]
    """
    name = f"Judged@{as_k(k)}"
    return evaluate(qrels, run, [name], missing="zero")[name]


def pool_bias(
    full_qrels: Any,
    runs: Mapping[str, Any],
    outsider: str,
    depth: int,
    measure: str = "AP",
    **options: Any,
) -> PoolTable:
    """Each run's score with the full judgments and with those of a pool built without one run.

    The pool is built from every run but ``outsider`` at ``depth`` and judged
    (:func:`judge_pool`); every run, the outsider too, is then scored with the
    full qrels and with the pooled ones. The outsider's relevant documents that
    no pooled run ranked in its top ``depth`` are unjudged, so they count as not
    relevant: its score falls (Zobel 1998's leave-one-out test).

    Parameters
    ----------
    full_qrels : path, file, DataFrame or dict
        The complete judgments.
    runs : mapping of name to run
        Every run, the outsider included.
    outsider : str
        The name of the run left out of the pool.
    depth : int
        The pool depth.
    measure : str, default "AP"
        The measure, averaged over queries as trec_eval's ``all`` line
        (:func:`summarize`: MAP for ``AP``, the geometric mean for ``GMAP``).
    **options
        For :func:`evaluate`, such as ``judged_only=True`` (condensed lists).
        Queries one run lacks score 0 (trec_eval ``-c``).

    Returns
    -------
    PoolTable
        A DataFrame keyed for code (``.display()`` shows it to people), one row per
        run (index ``run``: the runs' names). Columns:

        - ``in_pool``: whether the run helped build the pool (all but the outsider);
        - ``full``, ``pooled``: its score (``measure`` averaged over queries) with
          the full judgments and with the pooled ones;
        - ``change``: ``pooled`` minus ``full``;
        - ``rank_full``, ``rank_pooled``: its rank among the runs by each score
          (1 = best, ties share the best rank);
        - ``judged``: ``Judged@depth`` with the pooled judgments, averaged over queries.

        ``attrs`` holds ``measure``, ``depth``, ``outsider`` and ``pool_size``
        (pooled documents per query).

    Raises
    ------
    ValueError
        If ``outsider`` is not one of the runs, or it is the only run.

    Examples
    --------
    B found d3, which A ranked low; the pool is A's top 1, so d3 is never judged:

    >>> from mapteach.analysis import pool_bias
    >>> qrels = {"q1": {"d1": 1, "d3": 1}}
    >>> runs = {"A": {"q1": {"d1": 2.0, "d2": 1.5, "d3": 1.0}},
    ...         "B": {"q1": {"d3": 2.0, "d1": 1.5, "d2": 1.0}}}
    >>> table = pool_bias(qrels, runs, outsider="B", depth=1)
    >>> table[["in_pool", "full", "pooled", "change"]].round(4)
         in_pool   full  pooled  change
    run
    A       True 0.8333  1.0000  0.1667
    B      False 1.0000  0.5000 -0.5000
    >>> table.display().columns[-1]
    'Judged@1'

    """
    if outsider not in runs:
        raise ValueError(
            tr(
                "outsider {outsider!r} is not one of the runs: {runs}.",
                outsider=outsider,
                runs=list(runs),
            )
        )
    builders = {name: run for name, run in runs.items() if name != outsider}
    if not builders:
        raise ValueError(tr("the outsider is the only run; the pool needs at least one other."))
    depth = as_k(depth, name="depth")
    full_qrels = as_qrels(full_qrels)  # each input is read once
    read = {name: as_run(run) for name, run in runs.items()}
    pooled = pool({name: read[name] for name in builders}, depth)
    pooled_qrels = judge_pool(pooled, full_qrels)
    judged = f"Judged@{depth}"
    rows = {}
    for name, run in read.items():
        full = evaluate(full_qrels, run, [measure], missing="zero", **options)
        part = evaluate(pooled_qrels, run, [measure, judged], missing="zero", **options)
        rows[name] = {
            "in_pool": name != outsider,
            "full": summarize(full, measure)[measure],
            "pooled": summarize(part, measure)[measure],
            "judged": part[judged].mean(),
        }
    table = PoolTable.from_dict(rows, orient="index")
    table.index.name = "run"
    table["change"] = table["pooled"] - table["full"]
    for column in ("full", "pooled"):
        table[f"rank_{column}"] = table[column].rank(ascending=False, method="min").astype(int)
    table = table[["in_pool", "full", "pooled", "change", "rank_full", "rank_pooled", "judged"]]
    table.attrs.update(
        measure=measure,
        depth=depth,
        outsider=outsider,
        pool_size=len(pooled) / max(pooled["query_id"].nunique(), 1),
    )
    return table


def run_from_scores(
    scores: ArrayLike,
    doc_ids: ArrayLike,
    query_ids: ArrayLike,
    *,
    depth: int | None = None,
) -> pd.DataFrame:
    """A run from a (queries x documents) score matrix, such as a similarity matrix's rows.

    A NaN score leaves the document out of that query's results (a document not
    offered, such as the query image itself in a "find similar images" task).
    With ``depth``, each query keeps its first ``depth`` results in trec_eval's
    order, as a TREC submission keeps its top 1,000.

    Parameters
    ----------
    scores : array of shape (n_queries, n_docs)
        Higher is better; NaN for "not retrieved".
    doc_ids : sequence of str, length n_docs
        The documents, one per column.
    query_ids : sequence of str, length n_queries
        The queries, one per row.
    depth : int, optional
        Results kept per query.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id``, ``score``, as :func:`as_run` gives,
        ranked within each query.

    Raises
    ------
    ValueError
        If the shapes disagree or a score is infinite.

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.analysis import run_from_scores
    >>> scores = np.array([[np.nan, 0.2, 0.9], [0.5, np.nan, 0.5]])
    >>> run_from_scores(scores, ["a", "b", "c"], ["a", "b"], depth=2)
      query_id doc_id  score
    0        a      c    0.9
    1        a      b    0.2
    2        b      c    0.5
    3        b      a    0.5
    """
    matrix = np.asarray(scores, dtype=float)
    docs = np.asarray(doc_ids, dtype=str)
    queries = np.asarray(query_ids, dtype=str)
    if matrix.ndim != 2 or matrix.shape != (queries.size, docs.size):
        raise ValueError(
            tr(
                "scores must have one row per query and one column per document: {expected}; "
                "got shape {shape}.",
                expected=(queries.size, docs.size),
                shape=matrix.shape,
            )
        )
    if np.isinf(matrix).any():
        raise ValueError(tr("scores must be finite, or NaN for a document left out of a query."))
    row, column = np.nonzero(~np.isnan(matrix))
    run = as_run(
        pd.DataFrame(
            {"query_id": queries[row], "doc_id": docs[column], "score": matrix[row, column]}
        )
    )
    return _top(run, None if depth is None else as_k(depth, name="depth")).reset_index(drop=True)
