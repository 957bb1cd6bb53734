"""Runs written by hand: each query's results in order, or only where its relevant ones are.

A notebook states a small run the way a learner reads it: each query's documents, best
first, or the ranks at which its relevant documents were found. These helpers turn such
a run into the qrels and run dictionaries that :func:`~mapteach.runs.evaluate` reads, and
read a ranked list back as the grades of its documents. Introduced in
``13_r_precision_and_other_numbers``.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence

from mapteach.i18n import tr
from mapteach.metrics.validation import as_k

__all__ = ["relevance_in_order", "run_from_lists", "runs_from_relevant_ranks"]

Qrels = dict[str, dict[str, int]]
Run = dict[str, dict[str, float]]


def _checked_list(query: str, docs: Sequence[str]) -> list[str]:
    """One query's documents, checked: a sequence of distinct ids, not one string."""
    if isinstance(docs, str) or not isinstance(docs, Sequence):
        raise TypeError(
            tr(
                "the results of query {query!r} must be a list of document ids; got {docs!r}.",
                query=query,
                docs=docs,
            )
        )
    seen: set[str] = set()
    for doc in docs:
        if doc in seen:
            raise ValueError(
                tr("query {query!r} lists document {doc!r} twice.", query=query, doc=doc)
            )
        seen.add(doc)
    return list(docs)


def run_from_lists(lists: Mapping[str, Sequence[str]]) -> Run:
    """A run whose ranking is each query's list as given: the first document scores highest.

    The scores count down from the list's length (n, n - 1, ..., 1), so that
    trec_eval, which ranks by score, keeps the list's order.

    Parameters
    ----------
    lists : mapping of str to sequence of str
        Each query's document ids, best first; each id at most once per query.

    Returns
    -------
    dict
        ``{query: {doc: score}}``, as :func:`~mapteach.runs.evaluate` reads a run.

    Raises
    ------
    TypeError
        If a query's results are not a list of ids (a single string, for instance).
    ValueError
        If a query lists a document twice (the message names both).

    Examples
    --------
    >>> from mapteach.runs import evaluate, run_from_lists
    >>> run = run_from_lists({"q1": ["d3", "d1", "d2"]})
    >>> run
    {'q1': {'d3': 3.0, 'd1': 2.0, 'd2': 1.0}}
    >>> float(evaluate({"q1": {"d1": 1}}, run, ["AP"]).loc["q1", "AP"])  # d1 at rank 2: 1/2
    0.5
    """
    run: Run = {}
    for query, docs in lists.items():
        ranked = _checked_list(query, docs)
        run[query] = {doc: float(len(ranked) - i) for i, doc in enumerate(ranked)}
    return run


def _placed(query: str, ranks: Sequence[int], depth: int, n_relevant: int) -> list[int]:
    """A query's relevant ranks, checked against the list's depth and R, in order."""
    whole = all(isinstance(r, numbers.Integral) and not isinstance(r, bool) for r in ranks)
    placed = sorted(int(rank) for rank in ranks) if whole else []
    if not whole or len(set(placed)) < len(placed) or not all(1 <= r <= depth for r in placed):
        raise ValueError(
            tr(
                "the relevant ranks of query {query!r} must be distinct ranks from 1 to "
                "{depth}; got {ranks}.",
                query=query,
                depth=depth,
                ranks=list(ranks),
            )
        )
    if len(placed) > n_relevant:
        raise ValueError(
            tr(
                "query {query!r} has {count} relevant ranks, more than its "
                "n_relevant = {n_relevant} relevant documents.",
                query=query,
                count=len(placed),
                n_relevant=n_relevant,
            )
        )
    return placed


def runs_from_relevant_ranks(
    relevant_ranks: Mapping[str, Mapping[str, Sequence[int]]],
    *,
    depth: int,
    n_relevant: int,
) -> tuple[Qrels, dict[str, Run]]:
    """Qrels and one run per system, from the ranks at which each found the relevant documents.

    Every query has ``n_relevant`` relevant documents, ``{query}-rel1``,
    ``{query}-rel2``, ...; a system's list for a query holds ``depth`` results, its
    relevant documents at the ranks given (in that order) and non-relevant ones,
    ``{query}-other{rank}``, everywhere else. A relevant document placed nowhere was
    never retrieved: it counts in R, as in trec_eval.

    Parameters
    ----------
    relevant_ranks : mapping of str to mapping of str to sequence of int
        ``{system: {query: [ranks of its relevant results]}}``; ranks from 1 to ``depth``.
    depth : int
        Results in every list.
    n_relevant : int
        R, the relevant documents of every query; at least the ranks given for any query.

    Returns
    -------
    tuple of (dict, dict)
        The qrels ``{query: {doc: 1}}`` of every query named, and ``{system: run}``,
        each run as :func:`run_from_lists` makes it.

    Raises
    ------
    TypeError, ValueError
        If ``depth`` or ``n_relevant`` is not a whole number >= 1, or a query's ranks
        are not distinct ranks from 1 to ``depth`` or outnumber ``n_relevant`` (the
        message names the query).

    Examples
    --------
    >>> from mapteach.runs import evaluate, runs_from_relevant_ranks
    >>> qrels, runs = runs_from_relevant_ranks({"A": {"q1": [1, 3]}}, depth=4, n_relevant=3)
    >>> qrels
    {'q1': {'q1-rel1': 1, 'q1-rel2': 1, 'q1-rel3': 1}}
    >>> list(runs["A"]["q1"])
    ['q1-rel1', 'q1-other2', 'q1-rel2', 'q1-other4']
    >>> round(float(evaluate(qrels, runs["A"], ["AP"]).loc["q1", "AP"]), 4)  # (1/1 + 2/3) / 3
    0.5556
    """
    depth = as_k(depth, name="depth")
    n_relevant = as_k(n_relevant, name="n_relevant")
    queries = list(dict.fromkeys(q for by_query in relevant_ranks.values() for q in by_query))
    qrels = {q: {f"{q}-rel{i}": 1 for i in range(1, n_relevant + 1)} for q in queries}
    runs = {}
    for system, by_query in relevant_ranks.items():
        lists = {}
        for query, ranks in by_query.items():
            docs = [f"{query}-other{rank}" for rank in range(1, depth + 1)]
            for number, rank in enumerate(_placed(query, ranks, depth, n_relevant), start=1):
                docs[rank - 1] = f"{query}-rel{number}"
            lists[query] = docs
        runs[system] = run_from_lists(lists)
    return qrels, runs


def relevance_in_order(
    qrels: Mapping[str, Mapping[str, int]],
    lists: Mapping[str, Sequence[str]],
    *,
    relevance_threshold: int | None = None,
) -> dict[str, list[int]]:
    """Each query's ranked list as the grades of its documents, in the list's order.

    An unjudged document has grade 0, as in trec_eval. With ``relevance_threshold``
    the grades become relevant (1) / not relevant (0) labels: 1 where the grade is
    at least the threshold (trec_eval's ``-l``).

    Parameters
    ----------
    qrels : mapping of str to mapping of str to int
        ``{query: {doc: grade}}``.
    lists : mapping of str to sequence of str
        Each query's document ids, best first.
    relevance_threshold : int, optional
        The lowest grade that counts as relevant. Default: keep the grades.

    Returns
    -------
    dict
        ``{query: [grade or label of each result, best first]}``.

    Raises
    ------
    TypeError, ValueError
        As :func:`run_from_lists`; also a ``ValueError`` if a query of ``lists`` has
        no judgments in ``qrels`` (the message names it).

    Examples
    --------
    >>> from mapteach.runs import relevance_in_order
    >>> qrels = {"q1": {"a": 2, "b": 1}}
    >>> relevance_in_order(qrels, {"q1": ["x", "b", "a"]})
    {'q1': [0, 1, 2]}
    >>> relevance_in_order(qrels, {"q1": ["x", "b", "a"]}, relevance_threshold=2)
    {'q1': [0, 0, 1]}
    """
    shown = {}
    for query, docs in lists.items():
        if query not in qrels:
            raise ValueError(tr("query {query!r} has no judgments in qrels.", query=query))
        grades = [int(qrels[query].get(doc, 0)) for doc in _checked_list(query, docs)]
        if relevance_threshold is not None:
            grades = [int(grade >= relevance_threshold) for grade in grades]
        shown[query] = grades
    return shown
