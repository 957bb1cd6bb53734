"""Why two MAPs disagree: the same run scored under every convention, and by real peers.

``compare_conventions`` scores one qrels/run pair with each named convention
switch of :func:`mapteach.runs.evaluation.evaluate`, then with every peer library that
is installed (run live, never faked), and says which convention explains each
number. ``audit_setups`` turns article 003's checklist into a diff of two
evaluation set-ups. Introduced in ``09_why_maps_disagree``.
"""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, TypedDict

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from mapteach.analysis.convention_names import CHECKLIST_NAMES, choice_name
from mapteach.explain.display import ShownSeries, ShownTable
from mapteach.i18n import N_, tr
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
from mapteach.metrics.validation import check_choice
from mapteach.runs.evaluation import evaluate
from mapteach.runs.frames import as_qrels, as_run

__all__ = [
    "AUDIT_HEADERS",
    "CHECKLIST",
    "CONVENTION_HEADERS",
    "SETTINGS",
    "AuditTable",
    "ConventionSeries",
    "ConventionTable",
    "audit_setups",
    "compare_conventions",
    "sklearn_average_modes",
]


class _Switches(TypedDict, total=False):
    """Convention options of :func:`~mapteach.runs.evaluation.evaluate`, each from its list."""

    ties: Ties
    denominator: Denominator
    no_relevant: NoRelevant
    missing: Missing


def _setting(switches: _Switches, explains: str) -> tuple[Mapping[str, Any], str]:
    return MappingProxyType(dict(switches)), explains


#: Named settings of evaluate(), read-only, by key: (options, what they do, an English
#: message); the first is trec_eval's behaviour. CONVENTION_HEADERS names each one.
SETTINGS: Mapping[str, tuple[Mapping[str, Any], str]] = MappingProxyType(
    {
        "trec_eval_default": _setting(
            {}, N_("denominator R; ties by docno descending; empty query 0; missing query ignored")
        ),
        "ties_input": _setting(
            {"ties": "input"},
            N_("a stable sort keeps tied documents in input order (article 003's advice; ranx)"),
        ),
        "ties_optimistic": _setting(
            {"ties": "optimistic"}, N_("relevant documents first within a tie: an upper bound")
        ),
        "ties_pessimistic": _setting(
            {"ties": "pessimistic"}, N_("relevant documents last within a tie: a lower bound")
        ),
        "ties_expected": _setting(
            {"ties": "expected"},
            N_("mean over every order of each tie, exact (McSherry and Najork 2008)"),
        ),
        "denominator_retrieved": _setting(
            {"denominator": "retrieved"},
            N_(
                "divide by the relevant documents retrieved, as sklearn and torchmetrics can "
                "only do"
            ),
        ),
        "empty_skipped": _setting(
            {"no_relevant": "skip"},
            N_(
                "queries with R = 0 left out of the mean (article 003; torchmetrics with "
                'empty_target_action="skip": its default, "neg", scores them 0)'
            ),
        ),
        "empty_one": _setting(
            {"no_relevant": "one"},
            N_('queries with R = 0 score AP 1 (torchmetrics with empty_target_action="pos")'),
        ),
        "missing_zero": _setting(
            {"missing": "zero"},
            N_("judged queries absent from the run count 0 (trec_eval -c; ir_measures)"),
        ),
    }
)

#: Article 003 §4's checklist, read-only: the evaluate() option behind each item, and its
#: question (an English message).
CHECKLIST: Mapping[str, str] = MappingProxyType(
    {
        "relevance_threshold": N_("which grade counts as relevant (binary vs graded labels)"),
        "ties": N_("how tied scores are ordered (stable sort?)"),
        "cutoff": N_("MAP@k or MAP over the whole list"),
        "denominator": N_("denominator R or r (retrieved relevant)"),
        "no_relevant": N_("queries with no relevant item: skip or 0"),
        "missing": N_("judged queries the run lacks: ignore or 0"),
    }
)

#: The header that shows each key of this module's tables: column keys, axis names,
#: the settings (index of compare_conventions), sklearn's modes and audit_setups' start.
CONVENTION_HEADERS: dict[str, str] = {
    "setting": N_("setting"),
    "trec_eval_default": N_("trec_eval (default)"),
    "ties_input": N_("ties: input order"),
    "ties_optimistic": N_("ties: optimistic"),
    "ties_pessimistic": N_("ties: pessimistic"),
    "ties_expected": N_("ties: expected"),
    "denominator_retrieved": N_("denominator: retrieved hits"),
    "empty_skipped": N_("empty queries skipped"),
    "empty_one": N_("empty queries score 1"),
    "missing_zero": N_("missing queries score 0"),
    "sklearn_per_query": N_("sklearn average_precision_score, per query"),
    "map": N_("MAP"),
    "source": N_("source"),
    "explains": N_("explains"),
    "item": N_("item"),
    "question": N_("question"),
    "setup_a": N_("set-up A"),
    "setup_b": N_("set-up B"),
    "start": N_("(set-up A)"),
    "average": N_("average"),
    "average_precision": N_("average precision"),
    "macro": N_("macro (default)"),
    "map_over_rows": N_("MAP over rows (mapteach)"),
}


class ConventionTable(ShownTable):
    """A conventions table: stable keys, shown with :data:`CONVENTION_HEADERS`.

    A per-query column ``ap_<query>`` is shown as ``AP <query>``.
    """

    headers = CONVENTION_HEADERS
    label_columns = frozenset({"item"})
    text_columns = frozenset({"explains", "question"})

    def header_map(self) -> Mapping[str, str]:
        """:data:`CONVENTION_HEADERS` and each per-query column's ``AP <query>``."""
        per_query = {
            key: "AP " + key.removeprefix("ap_")
            for key in self.columns
            if isinstance(key, str) and key.startswith("ap_")
        }
        return {**self.headers, **per_query}


#: The header that shows each key of an audit (:func:`audit_setups`,
#: :func:`mapteach.analysis.audit_costs`): the conventions' headers and the costs'.
AUDIT_HEADERS: dict[str, str] = {
    **CONVENTION_HEADERS,
    "map_in_turn": N_("MAP after switching in turn"),
    "cost_in_turn": N_("cost in turn"),
    "map_alone": N_("MAP with this item alone switched"),
    "cost_alone": N_("cost alone"),
}


class AuditTable(ConventionTable):
    """An audit of two set-ups: stable keys, shown with :data:`AUDIT_HEADERS`, each item by
    its :data:`CHECKLIST_NAMES` name and each set-up's choice by :func:`choice_name`.
    """

    headers = AUDIT_HEADERS

    def header_map(self) -> Mapping[str, str]:
        """:data:`AUDIT_HEADERS` and each checklist item's name."""
        return {**super().header_map(), **CHECKLIST_NAMES}

    def display(self, *, lang: str | None = None, digits: int | None = 4) -> Any:
        """This audit's display form: items named, choices in words, headers translated."""
        named = self.copy()
        for column in ("setup_a", "setup_b"):
            named[column] = [
                choice_name(item, choice, lang=lang) if item in CHECKLIST else choice
                for item, choice in zip(self["item"], self[column], strict=True)
            ]
        return super(AuditTable, named).display(lang=lang, digits=digits)


class ConventionSeries(ShownSeries):
    """:func:`sklearn_average_modes`' numbers: stable keys, shown with
    :data:`CONVENTION_HEADERS`."""

    headers = CONVENTION_HEADERS
    frame = ConventionTable


#: What the settings and audit_setups start from, besides evaluate()'s defaults: judged
#: queries the run lacks left out, as trec_eval 9 and pytrec_eval do (trec_eval 10, and
#: evaluate() by default, stop with an error instead), so that every setting has a MAP.
_TREC_EVAL_9: Mapping[str, Any] = MappingProxyType({"missing": "ignore"})

#: Where audit_setups starts: evaluate()'s defaults, with trec_eval 9's missing queries.
_DEFAULT_SETUP: Mapping[str, Any] = MappingProxyType(
    {
        "relevance_threshold": 1,
        "ties": "trec_eval",
        "cutoff": None,
        "denominator": "relevant",
        "no_relevant": "zero",
        **_TREC_EVAL_9,
    }
)

#: The vocabulary of each checklist item that takes a named choice.
_VOCABULARIES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"ties": TIES, "denominator": DENOMINATORS, "no_relevant": NO_RELEVANT, "missing": MISSING}
)

#: A peer library's row: its key (its name: a row of compare_conventions), {query: AP}
#: (None when not installed), and why it differs (an English message).
_Peer = tuple[str, dict[str, float] | None, str]

#: What a peer library's row says when it is not installed (an English message).
NOT_INSTALLED = N_("not installed")


def _dicts(qrels: pd.DataFrame, run: pd.DataFrame) -> tuple[dict, dict]:
    judged = {
        q: dict(zip(g["doc_id"].astype(str), g["relevance"].astype(int), strict=True))
        for q, g in qrels.groupby("query_id", observed=True)
    }
    ranked = {
        q: dict(zip(g["doc_id"].astype(str), g["score"].astype(float), strict=True))
        for q, g in run.groupby("query_id", observed=True)
    }
    return judged, ranked


def _row(per_query: Mapping[Any, float], mean: float, source: str, explains: str) -> dict:
    return {
        **{f"ap_{q}": v for q, v in per_query.items()},
        "map": mean,
        "source": source,
        "explains": explains,
    }


def installed(module: str) -> bool:
    """Whether ``module`` can be imported here (found, not imported).

    >>> from mapteach.analysis.conventions import installed
    >>> installed("numpy"), installed("no_such_module_here")
    (True, False)
    """
    return importlib.util.find_spec(module) is not None


def _pytrec_eval(judged: dict, ranked: dict, common: list[str]) -> _Peer:
    if not installed("pytrec_eval"):
        return "pytrec_eval", None, NOT_INSTALLED
    import pytrec_eval

    result = pytrec_eval.RelevanceEvaluator(judged, {"map"}).evaluate(ranked)
    return (
        "pytrec_eval",
        {q: result[q]["map"] for q in result},
        N_("trec_eval itself: R, docno-descending ties, missing queries ignored"),
    )


def _ir_measures(judged: dict, ranked: dict, common: list[str]) -> _Peer:
    if not installed("ir_measures"):
        return "ir_measures", None, NOT_INSTALLED
    import ir_measures

    values = {m.query_id: m.value for m in ir_measures.iter_calc([ir_measures.AP], judged, ranked)}
    return (
        "ir_measures",
        values,
        N_("trec_eval's AP per query; its mean counts missing queries as 0"),
    )


def _ranx(judged: dict, ranked: dict, common: list[str]) -> _Peer:
    """ranx on the whole input; where it refuses it, with the option its error names."""
    if not installed("ranx"):
        return "ranx", None, NOT_INSTALLED
    from ranx import Qrels, Run
    from ranx import evaluate as ranx_evaluate

    ranx_qrels, ranx_run = Qrels(judged), Run(ranked)
    try:
        scores = ranx_evaluate(ranx_qrels, ranx_run, "map", return_mean=False)
        explains = N_("R; tied documents keep input order")
    except AssertionError:  # the run and the qrels hold different queries
        scores = ranx_evaluate(ranx_qrels, ranx_run, "map", return_mean=False, make_comparable=True)
        explains = N_(
            "stops with an error when the run lacks a judged query; with "
            "make_comparable=True (shown) it scores that query 0; R; tied documents keep "
            "input order"
        )
    return (
        "ranx",  # ranx returns scores in its own query order: align by its keys
        dict(zip(ranx_qrels.keys(), map(float, scores), strict=True)),
        explains,
    )


def _sklearn(judged: dict, ranked: dict, common: list[str]) -> _Peer:
    name = "sklearn_per_query"
    if not installed("sklearn"):
        return name, None, NOT_INSTALLED
    from sklearn.metrics import average_precision_score

    per_query = {}
    for q in common:
        docs = list(ranked[q])
        truth = [judged[q].get(d, 0) >= 1 for d in docs]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            per_query[q] = (
                float(average_precision_score(truth, [ranked[q][d] for d in docs]))
                if any(truth)
                else 0.0
            )
    return (
        name,
        per_query,
        N_(
            "only the retrieved list: divides by the hits retrieved; a tied group shares one "
            "precision"
        ),
    )


def _torchmetrics(judged: dict, ranked: dict, common: list[str]) -> _Peer:
    if not installed("torchmetrics"):
        return "torchmetrics", None, NOT_INSTALLED
    import torch
    from torchmetrics.functional.retrieval import retrieval_average_precision

    values = {
        q: float(
            retrieval_average_precision(
                torch.tensor([ranked[q][d] for d in ranked[q]]),
                torch.tensor([judged[q].get(d, 0) >= 1 for d in ranked[q]]),
            )
        )
        for q in common
    }
    return (
        "torchmetrics",
        values,
        N_(
            "only the retrieved list: divides by the hits retrieved; a query with no relevant "
            "document scores 0"
        ),
    )


#: The peer libraries, in the order of compare_conventions' rows.
_PEERS: tuple[Callable[[dict, dict, list[str]], _Peer], ...] = (
    _pytrec_eval,
    _ir_measures,
    _ranx,
    _sklearn,
    _torchmetrics,
)


def _peers(judged: dict, ranked: dict, queries: list[str]) -> list[_Peer]:
    """(key, {query: AP} or None when not installed, explanation) of every peer library."""
    common = [q for q in queries if q in ranked]
    return [peer(judged, ranked, common) for peer in _PEERS]


def compare_conventions(qrels: Any, run: Any) -> ConventionTable:
    """Score one run under every convention and by every installed peer library.

    Parameters
    ----------
    qrels, run
        As :func:`mapteach.runs.evaluation.evaluate` (paths, DataFrames or dicts).

    Returns
    -------
    ConventionTable
        A DataFrame keyed for code (``.display()`` shows it to people). One row per
        convention setting (the keys of :data:`SETTINGS`: ``trec_eval_default``,
        ``ties_input``, ``ties_optimistic``, ``ties_pessimistic``, ``ties_expected``,
        ``denominator_retrieved``, ``empty_skipped``, ``empty_one``,
        ``missing_zero``), then one per peer library, run live (``pytrec_eval``,
        ``ir_measures``, ``ranx``, ``sklearn_per_query``, ``torchmetrics``; one that
        is not installed has a row saying so and no numbers); the index is named
        ``setting``. Columns:

        - ``ap_<query>``: the AP of each judged query (its id as given);
        - ``map``: their mean, as that setting or library averages;
        - ``source``: who computed it (``mapteach`` or the library's name);
        - ``explains``: the convention behind the number (an English message,
          translated by ``display()``).

    Examples
    --------
    >>> from mapteach.analysis import compare_conventions
    >>> qrels = {"q1": {"a": 1, "b": 1, "c": 0, "d": 0}}
    >>> run = {"q1": dict.fromkeys("abcd", 1.0)}  # four tied documents
    >>> table = compare_conventions(qrels, run)
    >>> table.loc[["trec_eval_default", "ties_expected"], "map"].round(4).tolist()
    [0.4167, 0.6806]
    >>> table.display(lang="zh").columns.tolist()
    ['AP q1', 'MAP', '来源', '说明']
    """
    judged_frame, run_frame = as_qrels(qrels), as_run(run)
    judged, ranked = _dicts(judged_frame, run_frame)
    queries = sorted(judged)
    rows = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for name, (options, explains) in SETTINGS.items():  # each switch from trec_eval 9's
            table = evaluate(judged_frame, run_frame, ["AP"], **{**_TREC_EVAL_9, **options})
            rows[name] = _row(table["AP"].to_dict(), table["AP"].mean(), "mapteach", explains)
    with warnings.catch_warnings():  # the peers' own warnings (numba compiling, sklearn)
        warnings.simplefilter("ignore")
        peers = _peers(judged, ranked, queries)
    for name, values, explains in peers:
        source = name.removesuffix("_per_query")
        if values is None:
            rows[name] = _row({}, np.nan, source, explains)
        else:
            mean = (
                float(np.mean([values.get(q, 0.0) for q in queries]))
                if name == "ir_measures"
                else float(np.mean(list(values.values())))
            )
            rows[name] = _row(values, mean, source, explains)
    columns = [f"ap_{q}" for q in queries] + ["map", "source", "explains"]
    table = ConventionTable.from_dict(rows, orient="index").reindex(columns=columns)
    table.index.name = "setting"
    return table


def _full_setup(setup: Mapping[str, Any], name: str) -> dict[str, Any]:
    """The set-up with evaluate()'s defaults filled in, each named choice checked."""
    full = {**_DEFAULT_SETUP, **setup}
    for item, choices in _VOCABULARIES.items():
        check_choice(full[item], choices, name=f"{name}[{item!r}]")
    return full


def audit_setups(
    qrels: Any, run: Any, setup_a: Mapping[str, Any], setup_b: Mapping[str, Any]
) -> AuditTable:
    """Article 003's checklist as a diff: where two evaluation set-ups differ, and what it costs.

    Each set-up is a dict of :data:`CHECKLIST` keys (``cutoff`` is k or None;
    the others are :func:`evaluate` options). Starting from set-up A, the
    differing items are switched to B's value one at a time, in checklist
    order, and MAP is recomputed after each switch: the last row is B's MAP.

    Returns
    -------
    AuditTable
        A DataFrame keyed for code (``.display()`` shows it to people, each item and
        choice in words): a first row for set-up A (item ``start``), then one per
        differing item. Columns:

        - ``item``: the checklist item (a :data:`CHECKLIST` key, an option's name),
          or ``start``;
        - ``question``: what the item asks (an English message; empty for ``start``);
        - ``setup_a``, ``setup_b``: the item's value in A and in B, as text (``-``
          for ``start``);
        - ``map``: MAP once this item is switched too (set-up A's MAP for ``start``).

    Examples
    --------
    >>> from mapteach.analysis import audit_setups
    >>> qrels = {"q1": {"a": 1, "m": 1}, "q2": {"x": 0}}
    >>> run = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"x": 1.0}}
    >>> audit = audit_setups(qrels, run, {}, {"no_relevant": "skip", "denominator": "retrieved"})
    >>> print(audit[["item", "setup_a", "setup_b", "map"]].round(4).to_string(index=False))
           item  setup_a   setup_b    map
          start        -         - 0.2500
    denominator relevant retrieved 0.5000
    no_relevant     zero      skip 1.0000
    """
    unknown = (set(setup_a) | set(setup_b)) - set(CHECKLIST)
    if unknown:
        raise ValueError(
            tr(
                "unknown checklist items {unknown}; use {items}.",
                unknown=sorted(unknown),
                items=list(CHECKLIST),
            )
        )
    current = _full_setup(setup_a, "setup_a")
    target = _full_setup(setup_b, "setup_b")

    def score(setup: Mapping[str, Any]) -> float:
        options = {key: value for key, value in setup.items() if key != "cutoff"}
        name = "AP" if setup["cutoff"] is None else f"AP@{setup['cutoff']}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return float(evaluate(qrels, run, [name], **options)[name].mean())

    rows = [
        {"item": "start", "question": "", "setup_a": "-", "setup_b": "-", "map": score(current)}
    ]
    for item, question in CHECKLIST.items():
        if current[item] != target[item]:
            rows.append(
                {
                    "item": item,
                    "question": question,
                    "setup_a": str(current[item]),
                    "setup_b": str(target[item]),
                    "map": score({**current, item: target[item]}),
                }
            )
            current[item] = target[item]
    return AuditTable(rows)


def sklearn_average_modes(relevance: ArrayLike, scores: ArrayLike) -> ConventionSeries:
    """sklearn's ``average_precision_score`` on a (queries x documents) matrix, every mode.

    Queries are rows. sklearn reads rows as samples and columns as labels, so its
    default ``average="macro"`` averages over **columns** (documents), not
    queries; ``"samples"`` averages over rows, which is MAP over queries when
    every relevant document is in the matrix. Article 001 says the default is
    micro; it is macro. Warnings about columns with no relevant document are
    silenced. Introduced in ``09_why_maps_disagree``.

    Returns
    -------
    ConventionSeries
        A pandas Series named ``average_precision``, keyed for code (``.display()``
        shows it to people), its index named ``average``: sklearn's ``average=``
        modes ``macro`` (its default), ``samples``, ``micro`` and ``weighted``, then
        ``map_over_rows``, mapteach's MAP over the rows (queries).

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.analysis import sklearn_average_modes
    >>> y = np.array([[1, 0, 1, 1], [1, 0, 1, 0], [0, 0, 0, 1]])
    >>> s = np.tile([4.0, 3.0, 2.0, 1.0], (3, 1))
    >>> print(sklearn_average_modes(y, s).round(4).to_string())
    average
    macro            0.5000
    samples          0.6296
    micro            0.5370
    weighted         0.6667
    map_over_rows    0.6296
    >>> print(sklearn_average_modes(y, s).display().to_string())
    average
    macro (default)             0.5000
    samples                     0.6296
    micro                       0.5370
    weighted                    0.6667
    MAP over rows (mapteach)    0.6296
    """
    from sklearn.metrics import average_precision_score

    from mapteach.runs.score_matrix import evaluate_scores

    y, s = np.asarray(relevance), np.asarray(scores, dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        modes = {
            mode: float(average_precision_score(y, s, average=mode))
            for mode in ("macro", "samples", "micro", "weighted")
        }
    modes["map_over_rows"] = float(evaluate_scores(s, y, ["AP"])["AP"].mean())
    table = ConventionSeries(modes, name="average_precision")
    table.index.name = "average"
    return table
