"""mapteach: learn ranking evaluation, centred on Mean Average Precision (MAP).

The helper package behind the workbook's notebooks, one folder per feature. At the
bottom, ``mapteach.i18n`` (standard library only) and ``mapteach.metrics`` (numpy
only); above them ``runs`` (TREC files, ``evaluate``), ``analysis`` (comparisons,
pooling, conventions), ``explain`` (traces and display tables), ``articles``,
``exercises``, ``board``, ``judging`` and ``classroom``. Each package's ``__init__`` is
its public path; the dependency graph is written once, in ``tests/test_layering.py``.

The names below are re-exported lazily, so ``import mapteach`` loads nothing heavy
until a name is used.

>>> import mapteach
>>> print(mapteach.explain_ap([1, 0, 1, 1, 0, 0, 0, 0]))
AP = (1/1 + 2/3 + 3/4) / 3 = 0.8056
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

#: Each re-exported name and the public path (a package's ``__init__``) it comes from.
_EXPORTS: dict[str, str] = {
    "average_precision": "mapteach.metrics",
    "bpref": "mapteach.metrics",
    "geometric_mean": "mapteach.metrics",
    "judged_at_k": "mapteach.metrics",
    "r_precision": "mapteach.metrics",
    "hit_at_k": "mapteach.metrics",
    "mean_average_precision": "mapteach.metrics",
    "mean_reciprocal_rank": "mapteach.metrics",
    "ndcg_at_k": "mapteach.metrics",
    "precision_at_k": "mapteach.metrics",
    "recall_at_k": "mapteach.metrics",
    "reciprocal_rank": "mapteach.metrics",
    "eleven_point_average_precision": "mapteach.metrics.curves",
    "eleven_point_precisions": "mapteach.metrics.curves",
    "parse_measure": "mapteach.metrics.names",
    "read_qrels": "mapteach.runs",
    "read_run": "mapteach.runs",
    "evaluate": "mapteach.runs",
    "evaluate_scores": "mapteach.runs",
    "summarize": "mapteach.runs",
    "compare_runs": "mapteach.analysis",
    "EXAMPLES": "mapteach.articles",
    "examples_table": "mapteach.articles",
    "get_example": "mapteach.articles",
    "explain_ap": "mapteach.explain",
    "explain_ndcg": "mapteach.explain",
    "explain_rr": "mapteach.explain",
    "trace_ap": "mapteach.explain",
    "trace_ndcg": "mapteach.explain",
    "trace_rr": "mapteach.explain",
    "pr_curve": "mapteach.explain",
    "score_table": "mapteach.explain",
    "learner": "mapteach.classroom",
    "progress": "mapteach.classroom",
    "show_trace": "mapteach.explain",
    "get_language": "mapteach.i18n",
    "tr": "mapteach.i18n",
}

__all__ = [
    "EXAMPLES",
    "average_precision",
    "bpref",
    "compare_runs",
    "eleven_point_average_precision",
    "eleven_point_precisions",
    "evaluate",
    "evaluate_scores",
    "examples_table",
    "explain_ap",
    "explain_ndcg",
    "explain_rr",
    "geometric_mean",
    "get_example",
    "get_language",
    "hit_at_k",
    "judged_at_k",
    "learner",
    "mean_average_precision",
    "mean_reciprocal_rank",
    "ndcg_at_k",
    "parse_measure",
    "pr_curve",
    "precision_at_k",
    "progress",
    "r_precision",
    "read_qrels",
    "read_run",
    "recall_at_k",
    "reciprocal_rank",
    "score_table",
    "set_language",
    "show_trace",
    "summarize",
    "tr",
    "trace_ap",
    "trace_ndcg",
    "trace_rr",
]
__version__ = "0.1.0"

if TYPE_CHECKING:
    from mapteach.analysis.compare import compare_runs
    from mapteach.articles.examples import EXAMPLES, examples_table, get_example
    from mapteach.classroom.identity import learner
    from mapteach.classroom.progress_log import progress
    from mapteach.explain.ap_trace import explain_ap, trace_ap
    from mapteach.explain.ndcg_trace import explain_ndcg, trace_ndcg
    from mapteach.explain.pr_table import pr_curve
    from mapteach.explain.rr_trace import explain_rr, trace_rr
    from mapteach.explain.scores import score_table
    from mapteach.explain.trace_display import show_trace
    from mapteach.i18n import get_language, tr
    from mapteach.metrics import (
        average_precision,
        bpref,
        geometric_mean,
        hit_at_k,
        judged_at_k,
        mean_average_precision,
        mean_reciprocal_rank,
        ndcg_at_k,
        precision_at_k,
        r_precision,
        recall_at_k,
        reciprocal_rank,
    )
    from mapteach.metrics.curves import eleven_point_average_precision, eleven_point_precisions
    from mapteach.metrics.names import parse_measure
    from mapteach.runs.evaluation import evaluate, summarize
    from mapteach.runs.score_matrix import evaluate_scores
    from mapteach.runs.trec import read_qrels, read_run


def set_language(lang: str) -> None:
    """Speak ``lang`` ("en" or "zh") from now on: prose, tables, widgets and plots.

    :func:`mapteach.i18n.set_language` chooses the catalogue; this also lets
    matplotlib draw Chinese (it registers the CJK font that the Chinese plots use,
    :func:`mapteach.fonts.use_cjk_font`), so that a notebook's own figures
    with Chinese labels draw glyphs, not boxes. A widget built with ``lang=``
    keeps its own language.

    >>> import mapteach
    >>> mapteach.set_language("zh"); mapteach.tr("relevant")
    '相关'
    >>> mapteach.set_language("en"); mapteach.tr("relevant")
    'relevant'
    """
    from mapteach import i18n

    i18n.set_language(lang)
    if lang == "zh" and importlib.util.find_spec("matplotlib") is not None:
        from mapteach.fonts import use_cjk_font

        use_cjk_font()


def __getattr__(name: str) -> Any:
    """Import a re-exported name from its module the first time it is used (PEP 562)."""
    if name not in _EXPORTS:
        raise AttributeError(f"module 'mapteach' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
