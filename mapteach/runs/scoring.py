"""Score a whole run against qrels as trec_eval does, with numpy alone: :func:`score_run`.

The evaluation's core. Every input becomes arrays (:mod:`mapteach.runs.inputs`; a TREC
file, a path or standard input imports no pandas), the run's rows are sorted by
(query, score descending, tie order) once, and each measure's batch kernel
(:func:`mapteach.metrics.batch.batch_scores`, or with ``ties="expected"`` its tie-aware
expectation, :func:`mapteach.metrics.ties.expected_scores`) scores every query at once:
no Python loop per query. :func:`mapteach.runs.evaluate` is its DataFrame view.

trec_eval 10's rules are the defaults: rank by score descending, ties broken by
document id descending (as strings), the run's rank column ignored, queries only in the
run ignored (with a warning), a judged query the run lacks an error (``missing``), grade
>= 1 relevant, queries in ``strcmp`` order.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mapteach.i18n import ngettext, tr
from mapteach.metrics.batch import RankedEntries
from mapteach.metrics.names import DEFAULT_MEASURES, Measure, parse_measures
from mapteach.metrics.options import (
    Aggregate,
    Denominator,
    Missing,
    NoRelevant,
    Ties,
)
from mapteach.runs.evaluation_options import EvaluationOptions
from mapteach.runs.inputs import qrels_rows, run_rows
from mapteach.runs.lines import Ids
from mapteach.runs.trec import TrecRows

__all__ = ["EvaluationOptions", "RunScores", "no_relevant_rule", "score_run"]

#: How many missing queries the error names.
_NAMED_QUERIES = 10


@dataclass(frozen=True)
class _RunRows:
    """The run's rows of the scored queries: query code, score, and document code.

    Document codes follow ``doc_names``, which is sorted: code order is docno order.
    """

    query: np.ndarray
    score: np.ndarray
    doc: np.ndarray
    doc_names: np.ndarray

    @classmethod
    def of(cls, run: TrecRows, query: np.ndarray) -> _RunRows:
        """``query`` holds each row's scored-query code, -1 for a query not scored."""
        doc, score = run.doc.codes, run.values
        if (query >= 0).all():  # every query scored: no copies
            return cls(query, score, doc, run.doc.labels)
        keep = query >= 0
        return cls(query[keep], score[keep], doc[keep], run.doc.labels)


@dataclass(frozen=True)
class _Judgments:
    """The judgments of the scored queries: query code, run document code and grade.

    The document code is -1 for a document the run never retrieved.
    """

    query: np.ndarray
    doc: np.ndarray
    grade: np.ndarray

    @classmethod
    def of(cls, qrels: TrecRows, query: np.ndarray, doc_names: np.ndarray) -> _Judgments:
        """``query`` holds each judgment's scored-query code, -1 for a query not scored."""
        in_scope = query >= 0
        doc = _positions(doc_names, qrels.doc.labels)[qrels.doc.codes[in_scope]]
        return cls(query[in_scope], doc, qrels.values[in_scope])


def _positions(sorted_labels: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Where each label is in ``sorted_labels`` (distinct, sorted), -1 where it is not."""
    if not sorted_labels.size:
        return np.full(labels.size, -1, np.int64)
    at = np.minimum(np.searchsorted(sorted_labels, labels), sorted_labels.size - 1)
    return np.where(sorted_labels[at] == labels, at, -1)


def _texts(labels: np.ndarray) -> list[str]:
    return [label.decode() for label in labels.tolist()]


def _missing_error(absent: np.ndarray) -> ValueError:
    """The error for judged queries the run lacks: the first ones, sorted, and the count."""
    named = ", ".join(repr(query) for query in _texts(absent[:_NAMED_QUERIES]))
    head = (
        ngettext(
            "{n} judged query is missing from the run: {queries}.",
            "{n} judged queries are missing from the run: {queries}.",
            int(absent.size),
            queries=named,
        )
        if absent.size <= _NAMED_QUERIES
        else tr(
            "{count} judged queries are missing from the run; the first 10: {queries}.",
            count=absent.size,
            queries=named,
        )
    )
    return ValueError(
        head
        + " "
        + tr(
            "trec_eval 10 stops here too. Score them 0 with missing='zero' (trec_eval -c; "
            "--missing zero on the command line), or leave them out with missing='ignore' "
            "(--missing ignore)."
        )
    )


def _scored_queries(run_queries: np.ndarray, judged_queries: np.ndarray, missing: Missing):
    """The queries to score, sorted; warnings (or the error) for the queries left out."""
    common = np.intersect1d(run_queries, judged_queries, assume_unique=True)
    if not common.size:
        raise ValueError(
            tr(
                "the run and the qrels have no query in common (run: {run}..., qrels: "
                "{qrels}...); check that both use the same query ids.",
                run=_texts(run_queries[:3]),
                qrels=_texts(judged_queries[:3]),
            )
        )
    unjudged = np.setdiff1d(run_queries, judged_queries, assume_unique=True)
    if unjudged.size:
        warnings.warn(
            ngettext(
                "{n} query of the run has no judgments and is ignored, as trec_eval does "
                "(first: {first!r}).",
                "{n} queries of the run have no judgments and are ignored, as trec_eval does "
                "(first: {first!r}).",
                int(unjudged.size),
                first=_texts(unjudged[:1])[0],
            ),
            UserWarning,
            stacklevel=4,
        )
    absent = np.setdiff1d(judged_queries, run_queries, assume_unique=True)
    if absent.size and missing == "error":
        raise _missing_error(absent)
    if absent.size and missing == "ignore":
        warnings.warn(
            ngettext(
                "{n} judged query is missing from the run and is left out of every mean "
                "(first: {first!r}); missing='zero' scores it 0, as trec_eval -c does.",
                "{n} judged queries are missing from the run and are left out of every mean "
                "(first: {first!r}); missing='zero' scores them 0, as trec_eval -c does.",
                int(absent.size),
                first=_texts(absent[:1])[0],
            ),
            UserWarning,
            stacklevel=4,
        )
    return common if missing == "ignore" else judged_queries


def _codes_in(queries: np.ndarray, ids: Ids) -> np.ndarray:
    """Each row's code among the scored ``queries``, -1 for a query not scored."""
    return _positions(queries, ids.labels)[ids.codes]


def _grades(rows: _RunRows, judgments: _Judgments) -> tuple[np.ndarray, np.ndarray]:
    """The judged grade of each run row (0 for unjudged documents), and whether it is judged."""
    n_docs = len(rows.doc_names)
    retrieved = judgments.doc >= 0  # judged documents the run never retrieved match nothing
    judged_key = (judgments.query * n_docs + judgments.doc)[retrieved]
    order = np.argsort(judged_key)
    judged_key, grade_sorted = judged_key[order], judgments.grade[retrieved][order]
    run_key = rows.query * n_docs
    run_key += rows.doc
    grade = np.zeros(run_key.size)
    found = np.zeros(run_key.size, bool)
    if judged_key.size:  # in place where it can be: the temporaries bound the peak memory
        position = np.searchsorted(judged_key, run_key)
        np.minimum(position, judged_key.size - 1, out=position)
        np.equal(judged_key[position], run_key, out=found)
        del run_key
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
    if ties == "ir_measures":  # document id ascending: code order is id order
        return rows.doc, n_docs
    tie = n_docs - 1 - rows.doc
    if ties == "trec_eval":
        return tie, n_docs
    levels, level = np.unique(grade, return_inverse=True)
    better = level if ties == "pessimistic" else levels.size - 1 - level
    return better * n_docs + tie, levels.size * n_docs


def _in_rank_order(query: np.ndarray, score: np.ndarray, tie: np.ndarray) -> bool:
    """Whether the rows are by (query, score descending, tie ascending) already."""
    same = query[1:] == query[:-1]
    tied = score[1:] == score[:-1]
    in_order = (score[1:] < score[:-1]) | (tied & (tie[1:] > tie[:-1]))
    in_order &= same
    in_order |= query[1:] > query[:-1]
    return bool(in_order.all())


def _rank_order(
    query: np.ndarray, score: np.ndarray, tie: np.ndarray, span: int, n_queries: int
) -> np.ndarray | slice:
    """Row order by (query, score descending, tie ascending); ``tie`` is unique per query.

    Rows already in that order (a run file written query by query, best first, as
    many are) need no sort, nor copies: their order is ``slice(None)``. Otherwise they
    are grouped with one quicksort on a packed (query, tie) key, then each query's
    scores are sorted at once in a padded matrix with a stable argsort, which keeps
    the tie order. Far faster than a three-key lexsort.
    """
    if _in_rank_order(query, score, tie):
        return slice(None)
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


def _ranked_entries(
    rows: _RunRows,
    judgments: _Judgments,
    options: EvaluationOptions,
    measures: dict[str, Measure],
    n_queries: int,
) -> tuple[RankedEntries, np.ndarray, np.ndarray | slice]:
    """The entries the kernels read, R per query, and the order of the run's rows."""
    grade, has_judgment = _grades(rows, judgments)
    order = _rank_order(rows.query, rows.score, *_tie_keys(rows, grade, options.ties), n_queries)
    order = options.cut(order, rows.query, grade, has_judgment, n_queries)
    relevant = judgments.grade >= options.threshold
    r = np.bincount(judgments.query, weights=relevant, minlength=n_queries).astype(np.int64)
    reads_judged = any(measure.reads_judged for measure in measures.values())
    entries = RankedEntries.from_sorted_rows(
        rows.query[order],
        grade[order],
        r.astype(float),
        judgments.query[judgments.grade >= 0],  # a negative grade: judged, but not ranked
        judgments.grade[judgments.grade >= 0],
        judged=has_judgment[order] if reads_judged else None,
        n_nonrelevant=(
            _n_nonrelevant(judgments, options.threshold, n_queries) if reads_judged else None
        ),
    )
    return entries, r, order


def no_relevant_rule(
    queries: Sequence[Any],
    values: dict[str, np.ndarray],
    r: np.ndarray,
    measures: dict[str, Measure],
    no_relevant: NoRelevant,
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Apply the choice for queries with no relevant document (R = 0).

    Returns which queries are kept (all but, with ``"skip"``, those with R = 0) and the
    values (with ``"one"``, 1 for the AP-type measures of those queries).

    >>> from mapteach.metrics.names import parse_measures
    >>> measures = parse_measures(["AP", "P@5"])
    >>> values = {"AP": np.array([0.5, 0.0]), "P@5": np.array([0.2, 0.0])}
    >>> keep, ones = no_relevant_rule(["q1", "q2"], values, np.array([3, 0]), measures, "one")
    >>> keep.tolist(), ones["AP"].tolist(), ones["P@5"].tolist()
    ([True, True], [0.5, 1.0], [0.2, 0.0])
    """
    empty = r == 0
    keep = np.ones(r.size, bool)
    if not empty.any() or no_relevant == "zero":
        return keep, values
    if no_relevant == "error":
        raise ValueError(
            tr(
                "{n} queries have no relevant document (R = 0), first {first!r}, and "
                "no_relevant='error'; choose 'zero', 'skip' or 'one' and write the choice down.",
                n=int(empty.sum()),
                first=queries[int(np.argmax(empty))],
            )
        )
    if no_relevant == "skip":
        return ~empty, values
    ones = {
        name: np.where(empty, 1.0, values[name]) if measure.declaration.ap_type else values[name]
        for name, measure in measures.items()
    }
    return keep, ones


@dataclass(frozen=True, eq=False)
class RunScores:
    """A run's scores, query by query, as :func:`score_run` gives them (numpy only).

    Attributes
    ----------
    queries : tuple of str
        The scored queries, in trec_eval's order (``strcmp``'s, by bytes).
    measures : dict of str to Measure
        Each measure by its key: the name as the caller gave it (as
        :func:`mapteach.metrics.names.parse_measures` keys it).
    values : dict of str to numpy.ndarray
        Per key, the value of each query, aligned with ``queries``.
    n_relevant : numpy.ndarray
        R of each query: its judged documents at or above the relevance threshold.
    n_retrieved : numpy.ndarray
        The results scored per query (after ``max_results`` and ``judged_only``).
    run_tag : str or None
        The run's tag (its 6th column, on its last line): trec_eval's ``runid``.
    """

    queries: tuple[str, ...]
    measures: dict[str, Measure]
    values: dict[str, np.ndarray]
    n_relevant: np.ndarray
    n_retrieved: np.ndarray
    run_tag: str | None = None

    def summary(self, key: str, aggregate: Aggregate = "mean") -> float:
        """The value over all queries of one measure: trec_eval's ``all`` line.

        Counts are summed, GMAP takes the geometric mean, the rest the mean (or, with
        ``aggregate="gm"``, the geometric mean, each value floored at 1e-5).

        >>> scores = score_run({"q1": {"a": 1}, "q2": {"b": 1}},
        ...                    {"q1": {"a": 1.0}, "q2": {"c": 2.0, "b": 1.0}}, ["AP", "num_ret"])
        >>> scores.summary("AP"), round(scores.summary("AP", "gm"), 4), scores.summary("num_ret")
        (0.75, 0.7071, 3.0)
        """
        if key not in self.measures:
            raise KeyError(
                tr(
                    "no measure {key!r}; the measures are {keys}.",
                    key=key,
                    keys=list(self.measures),
                )
            )
        return self.measures[key].over_queries(self.values[key], aggregate=aggregate)


def score_run(
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
) -> RunScores:
    """Score a run against qrels, query by query, as trec_eval does: arrays, no pandas.

    The parameters, the rules and the errors are :func:`mapteach.runs.evaluate`'s,
    which is this function's DataFrame view; the inputs are those of
    :func:`mapteach.runs.as_qrels` and :func:`mapteach.runs.as_run`: TREC files (a
    path, an open file, standard input), DataFrames (PyTerrier's too), pytrec_eval
    dicts, ranx ``Qrels``/``Run`` and iterables of ir_datasets namedtuples.

    Parameters
    ----------
    qrels : path, file, DataFrame, dict, ranx Qrels or iterable of namedtuples
        Judgments: TREC ``qid 0 docid rel`` lines, a DataFrame (``query_id, doc_id,
        relevance`` or PyTerrier's ``qid, docno, label``), ``{qid: {docid: rel}}``, a
        ranx ``Qrels``, or items with ``query_id, doc_id, relevance``.
    run : path, file, DataFrame, dict, ranx Run or iterable of namedtuples
        Results: TREC ``qid Q0 docid rank score tag`` lines, a DataFrame (``query_id,
        doc_id, score`` or PyTerrier's ``qid, docno, score``; ``rank`` is ignored),
        ``{qid: {docid: score}}``, a ranx ``Run``, or items with ``query_id, doc_id,
        score``.
    measures : str or sequence of str, default DEFAULT_MEASURES
        ir_measures names (``AP@10``, ``P(rel=2)@10``) or trec_eval's (``map``,
        ``P.5,10``, ``ndcg_cut.10``), each once; one string is one measure. The
        keys of the result are these names (a spec of several measures adds one key
        per measure, the name trec_eval prints: ``P_5``, ``P_10``).
    ties : {"trec_eval", "input", "optimistic", "pessimistic", "expected", "ir_measures"}
        How tied scores are ordered (default trec_eval: document id descending), or
        ``"expected"``: the exact mean over every order of each tied group.
    no_relevant : {"zero", "skip", "one", "error"}, default "zero"
        What a query with no relevant judgment scores: 0 (trec_eval), left out, 1 on
        AP-type measures, or an error.
    missing : {"error", "zero", "ignore"}, default "error"
        A judged query the run lacks: an error naming the queries (trec_eval 10),
        scored 0 (trec_eval ``-c``), or left out with a warning.
    relevance_threshold : int, default 1
        The lowest grade that counts as relevant (trec_eval ``-l``).
    denominator : {"relevant", "min_relevant_k", "retrieved"}, default "relevant"
        What AP-type measures divide by: R (trec_eval), min(R, k), or the relevant
        documents retrieved within the cutoff.
    max_results : int, optional
        Score only each query's first ``max_results`` results in the order ``ties``
        gives (trec_eval ``-M``).
    judged_only : bool, default False
        Drop unjudged documents and negative grades from each ranking (trec_eval
        ``-J``, after ``max_results``).

    Returns
    -------
    RunScores
        The scored queries in trec_eval's order, each measure's values, R and the
        results scored per query, and the run's tag.

    Raises
    ------
    ValueError
        As :func:`mapteach.runs.evaluate`; with ``missing="error"`` (the default, as
        trec_eval 10 without ``-c``), for judged queries the run lacks: the message
        names them (the first 10, sorted) and their count.

    Examples
    --------
    >>> from mapteach.runs import score_run
    >>> qrels = {"q1": {"d1": 1, "d2": 0, "d3": 1}, "q2": {"d1": 1}}
    >>> run = {"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}}
    >>> score_run(qrels, run, ["AP"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: 1 judged query is missing from the run: 'q2'. trec_eval 10 stops here too. ...
    >>> scores = score_run(qrels, run, ["AP", "P@2"], missing="zero")  # trec_eval -c
    >>> scores.queries, scores.values["AP"].round(4).tolist(), scores.n_relevant.tolist()
    (('q1', 'q2'), [0.8333, 0.0], [2, 1])
    >>> round(scores.summary("AP"), 4)
    0.4167
    """
    parsed = parse_measures(measures)
    options = EvaluationOptions(
        ties, no_relevant, missing, relevance_threshold, denominator, max_results, judged_only
    )
    judged, ranked = qrels_rows(qrels), run_rows(run)
    queries = _scored_queries(ranked.query.labels, judged.query.labels, options.missing)
    rows = _RunRows.of(ranked, _codes_in(queries, ranked.query))
    judgments = _Judgments.of(judged, _codes_in(queries, judged.query), rows.doc_names)
    entries, r, order = _ranked_entries(rows, judgments, options, parsed, queries.size)
    wanted = list(parsed.values())
    scores = (
        options.expected(entries, rows.score[order], wanted)
        if options.ties == "expected"
        else options.batch(entries, wanted)
    )
    names = _texts(queries)
    values = {name: scores[measure.name] for name, measure in parsed.items()}
    keep, values = no_relevant_rule(names, values, r, parsed, options.no_relevant)
    return RunScores(
        queries=tuple(np.array(names, dtype=object)[keep].tolist()),
        measures=parsed,
        values={name: value[keep] for name, value in values.items()},
        n_relevant=r[keep],
        n_retrieved=np.asarray(entries.n_retrieved)[keep],
        run_tag=ranked.tag,
    )
