"""What a cutoff does to AP: the three denominators of AP@k, and the depth of a run.

AP@k adds P@i at the relevant ranks i <= k; what it divides that sum by is a
convention. ``"relevant"`` divides by R, every relevant document of the query
(trec_eval's ``map_cut``, ir_measures' ``AP@k``, ranx's ``map@k``);
``"min_relevant_k"`` by min(k, R) (ml_metrics' ``apk``, used for Kaggle's MAP@k);
``"retrieved"`` by the relevant documents in the top k (torchmetrics'
``retrieval_average_precision(top_k=k)``, many cross-modal and hashing papers).
Only with R can a cutoff never raise AP. :func:`ap_at_k_by_library` calls every
installed library on one list, :func:`map_at_k_by_denominator` scores a run under
each denominator, and :func:`map_by_run_depth` shows that a deeper run never scores
lower. Introduced in ``10_from_scores_to_map``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

import numpy as np
from numpy.typing import ArrayLike

from mapteach.analysis.conventions import NOT_INSTALLED, installed
from mapteach.explain.display import ShownTable
from mapteach.i18n import N_, tr
from mapteach.metrics.average_precision import average_precision
from mapteach.metrics.options import DENOMINATORS, Denominator
from mapteach.metrics.validation import as_k, as_labels, as_n_relevant
from mapteach.runs.ranked_lists import run_from_lists
from mapteach.runs.score_matrix import evaluate_scores

__all__ = [
    "CUTOFF_HEADERS",
    "DENOMINATOR_USERS",
    "CutoffTable",
    "ap_at_k_by_library",
    "map_at_k_by_denominator",
    "map_by_run_depth",
]

#: The header that shows each key of this module's tables (columns and axis names).
CUTOFF_HEADERS: Mapping[str, str] = MappingProxyType(
    {
        "library": N_("library"),
        "denominator": N_("denominator"),
        "call": N_("call"),
        "printed": N_("the library prints"),
        "mapteach": N_("mapteach, same denominator"),
        "explains": N_("explains"),
        "map": N_("MAP"),
        "raised": N_("queries whose AP the cutoff raised"),
        "used_by": N_("used by"),
        "depth": N_("run depth"),
        "lower": N_("queries lower than at the first depth"),
        "higher": N_("queries higher than at the first depth"),
    }
)

#: How each denominator is shown: a label of this module's tables only.
_DENOMINATOR_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "relevant": N_("÷ R"),
        "min_relevant_k": N_("÷ min(k, R)"),
        "retrieved": N_("÷ the hits in the top k"),
    }
)

#: Who divides AP@k by each denominator (an English message), by denominator.
DENOMINATOR_USERS: Mapping[str, str] = MappingProxyType(
    {
        "relevant": N_("trec_eval's map_cut, ir_measures, ranx"),
        "min_relevant_k": N_("ml_metrics' apk, Kaggle's MAP@k"),
        "retrieved": N_("torchmetrics' top_k, many cross-modal and hashing papers"),
    }
)


class CutoffTable(ShownTable):
    """A table of this module: stable keys, shown with :data:`CUTOFF_HEADERS`; the
    denominators (``relevant``, ``min_relevant_k``, ``retrieved``) are shown as
    ``÷ R``, ``÷ min(k, R)`` and ``÷ the hits in the top k``."""

    headers = CUTOFF_HEADERS
    label_columns = frozenset({"denominator"})
    text_columns = frozenset({"explains", "used_by"})

    def header_map(self) -> Mapping[str, str]:
        """:data:`CUTOFF_HEADERS` and the denominators' labels."""
        return {**self.headers, **_DENOMINATOR_LABELS}


#: One list as the libraries take it: doc ids best first, their labels, every relevant id.
_List = tuple[list[str], list[int], list[str]]

_LIVE = N_("run live")


def _trec_input(ranked: _List) -> tuple[dict, dict]:
    docs, labels, relevant = ranked
    judged = {"q": {**dict.fromkeys(relevant, 1), **dict(zip(docs, labels, strict=True))}}
    return judged, run_from_lists({"q": docs})


def _pytrec_eval(ranked: _List, k: int) -> float:
    import pytrec_eval

    judged, run = _trec_input(ranked)
    return pytrec_eval.RelevanceEvaluator(judged, {f"map_cut.{k}"}).evaluate(run)["q"][
        f"map_cut_{k}"
    ]


def _ir_measures(ranked: _List, k: int) -> float:
    import ir_measures

    judged, run = _trec_input(ranked)
    return next(iter(ir_measures.iter_calc([ir_measures.AP @ k], judged, run))).value


def _ranx(ranked: _List, k: int) -> float:
    from ranx import Qrels, Run, evaluate

    judged, run = _trec_input(ranked)
    return float(evaluate(Qrels(judged), Run(run), f"map@{k}"))


def _ml_metrics(ranked: _List, k: int) -> float:
    from ml_metrics import apk

    docs, _, relevant = ranked
    return float(apk(relevant, docs, k))


def _torchmetrics(ranked: _List, k: int) -> float:
    import torch
    from torchmetrics.functional.retrieval import retrieval_average_precision

    docs, labels, _ = ranked
    scores = torch.tensor([float(len(docs) - i) for i in range(len(docs))])
    return float(retrieval_average_precision(scores, torch.tensor(labels) > 0, top_k=k))


#: Each library: (module to find, its denominator, the call, the live call, what its
#: source says when it is not installed).
_LIBRARIES: Mapping[str, tuple[str, Denominator, str, Callable[[_List, int], float], str]] = (
    MappingProxyType(
        {
            "pytrec_eval": ("pytrec_eval", "relevant", "map_cut.{k}", _pytrec_eval, ""),
            "ir_measures": ("ir_measures", "relevant", "AP@{k}", _ir_measures, ""),
            "ranx": ("ranx", "relevant", "map@{k}", _ranx, ""),
            "ml_metrics": (
                "ml_metrics",
                "min_relevant_k",
                "apk(actual, predicted, k={k})",
                _ml_metrics,
                N_("not installed; its source divides by min(len(actual), k)"),
            ),
            "torchmetrics": (
                "torchmetrics",
                "retrieved",
                "retrieval_average_precision(preds, target, top_k={k})",
                _torchmetrics,
                N_("not installed; its source takes the mean over the hits in the top k"),
            ),
        }
    )
)


def ap_at_k_by_library(labels: ArrayLike, *, n_relevant: int, k: int) -> CutoffTable:
    """AP@k of one ranked list as each library computes it, beside mapteach's.

    Every library that is installed is called live on the list (documents
    ``d0, d1, ...`` best first, plus the relevant documents never retrieved);
    one that is not installed has no number, and its row says what its source
    divides by.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    n_relevant : int
        R, the query's relevant documents, retrieved or not.
    k : int
        The cutoff.

    Returns
    -------
    CutoffTable
        One row per library (index ``library``: ``pytrec_eval``, ``ir_measures``,
        ``ranx``, ``ml_metrics``, ``torchmetrics``). Columns: ``denominator``
        (the library's, as :func:`~mapteach.metrics.average_precision` names it),
        ``call`` (what was asked of the library), ``printed`` (what it returns;
        NaN when not installed), ``mapteach`` (:func:`average_precision` with that
        denominator) and ``explains`` (an English message).

    Raises
    ------
    TypeError, ValueError
        As :func:`~mapteach.metrics.average_precision` for bad labels, R or k.

    Examples
    --------
    >>> from mapteach.analysis import ap_at_k_by_library
    >>> table = ap_at_k_by_library([1, 0, 0, 1, 0, 1], n_relevant=6, k=5)
    >>> table["mapteach"].round(4).tolist()  # (1/1 + 2/4) / 6, / min(5, 6), / 2
    [0.25, 0.25, 0.25, 0.3, 0.75]
    >>> table.loc["pytrec_eval", "printed"] == table.loc["pytrec_eval", "mapteach"]
    np.True_
    >>> table.display(lang="zh").loc["torchmetrics", "分母"]
    '÷ 前 k 位中的命中数'
    """
    y = as_labels(labels)
    r = as_n_relevant(n_relevant, int(y.sum()))
    k = as_k(k)
    docs = [f"d{i}" for i in range(y.size)]
    missed = [f"missed{j}" for j in range(r - int(y.sum()))]
    ranked = (docs, [int(v) for v in y], [d for d, v in zip(docs, y, strict=True) if v] + missed)
    rows = {}
    for name, (module, denominator, call, live, source) in _LIBRARIES.items():
        if installed(module):
            with warnings.catch_warnings():  # numba compiling, torch's notices
                warnings.simplefilter("ignore")
                printed, explains = float(live(ranked, k)), _LIVE
        else:
            printed, explains = np.nan, source or NOT_INSTALLED
        rows[name] = {
            "denominator": denominator,
            "call": call.format(k=k),
            "printed": printed,
            "mapteach": average_precision(y, n_relevant=r, k=k, denominator=denominator),
            "explains": explains,
        }
    table = CutoffTable.from_dict(rows, orient="index")
    table.index.name = "library"
    return table


def map_at_k_by_denominator(scores: ArrayLike, relevance: ArrayLike, k: int) -> CutoffTable:
    """MAP@k of one run (a similarity matrix) under each denominator of AP@k.

    Parameters
    ----------
    scores, relevance
        As :func:`mapteach.runs.evaluate_scores`: queries are rows, candidates columns.
    k : int
        The cutoff.

    Returns
    -------
    CutoffTable
        One row per denominator (index ``denominator``: ``relevant``,
        ``min_relevant_k``, ``retrieved``). Columns: ``map`` (MAP@k),
        ``raised`` (how many queries score higher at k than over the whole
        ranking, whose AP divides by R) and ``used_by`` (an English message).

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.analysis import map_at_k_by_denominator
    >>> relevance = np.array([[1, 0, 0, 1, 0, 1]])
    >>> scores = np.array([[6.0, 5.0, 4.0, 3.0, 2.0, 1.0]])
    >>> table = map_at_k_by_denominator(scores, relevance, k=2)
    >>> table["map"].round(4).tolist(), table["raised"].tolist()
    ([0.3333, 0.5, 1.0], [0, 0, 1])
    """
    k = as_k(k)
    measure = f"AP@{k}"
    whole = evaluate_scores(scores, relevance, ["AP"])["AP"]
    rows = {}
    for denominator in DENOMINATORS:
        at_k = evaluate_scores(scores, relevance, [measure], denominator=denominator)[measure]
        rows[denominator] = {
            "map": float(at_k.mean()),
            "raised": int((at_k.to_numpy() > whole.to_numpy() + 1e-12).sum()),
            "used_by": DENOMINATOR_USERS[denominator],
        }
    table = CutoffTable.from_dict(rows, orient="index")
    table.index.name = "denominator"
    return table


def map_by_run_depth(scores: ArrayLike, relevance: ArrayLike, depths: Iterable[int]) -> CutoffTable:
    """MAP of one run cut at each depth: the top d candidates of every query, R unchanged.

    A run cut at depth d is what a system that returns only d documents per query
    submits; its relevant documents below d count in R but were not retrieved.
    trec_eval's AP (÷ R) of a deeper run is never lower: every document appended
    adds P@i >= 0 if relevant and nothing if not. Ties keep the column order.

    Parameters
    ----------
    scores, relevance
        As :func:`mapteach.runs.evaluate_scores`: queries are rows, candidates columns.
    depths : iterable of int
        The depths, each >= 1 (a depth beyond the candidates keeps them all).

    Returns
    -------
    CutoffTable
        One row per depth, ascending (index ``depth``). Columns: ``map``, and
        ``lower`` and ``higher``: how many queries score lower (higher) than at
        the first depth.

    Raises
    ------
    ValueError
        If a depth is below 1, no depth is given, or the two matrices differ in shape.

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.analysis import map_by_run_depth
    >>> relevance = np.array([[1, 0, 0, 1, 0, 1], [0, 1, 0, 0, 0, 0]])
    >>> scores = np.tile([6.0, 5.0, 4.0, 3.0, 2.0, 1.0], (2, 1))
    >>> depths = map_by_run_depth(scores, relevance, [6, 1, 3])
    >>> print(depths.round(4))  # doctest: +NORMALIZE_WHITESPACE
              map  lower  higher
    depth
    1      0.1667      0       0
    3      0.4167      0       1
    6      0.5833      0       2
    """
    ordered = sorted({as_k(depth, name="depth") for depth in depths})
    if not ordered:
        raise ValueError(tr("depths is empty: give at least one depth, such as [100, 1000]."))
    s, y = np.asarray(scores, dtype=float), np.asarray(relevance)
    if s.ndim != 2 or s.shape != y.shape:
        raise ValueError(
            tr(
                "scores and relevance must be matrices of one shape; got {scores} and {relevance}.",
                scores=s.shape,
                relevance=y.shape,
            )
        )
    order = np.argsort(-s, axis=1, kind="stable")
    n_relevant = (y >= 1).sum(axis=1)
    per_depth = {}
    for depth in ordered:
        top = order[:, :depth]
        per_depth[depth] = evaluate_scores(
            np.take_along_axis(s, top, axis=1),
            np.take_along_axis(y, top, axis=1),
            ["AP"],
            n_relevant=n_relevant,
        )["AP"].to_numpy()
    first = per_depth[ordered[0]]
    rows = {
        depth: {
            "map": float(ap.mean()),
            "lower": int((ap < first - 1e-12).sum()),
            "higher": int((ap > first + 1e-12).sum()),
        }
        for depth, ap in per_depth.items()
    }
    table = CutoffTable.from_dict(rows, orient="index")
    table.index.name = "depth"
    return table
