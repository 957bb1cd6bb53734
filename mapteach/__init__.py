"""mapteach: learn ranking evaluation, centred on Mean Average Precision (MAP).

The helper package behind the workbook's notebooks. Its folders are its floors,
and each imports only from the floors below it:

- ``mapteach.metrics``: pure measures (numbers in, floats out; numpy only);
- ``mapteach.runs``: TREC files, ``evaluate``, run comparison, conventions;
- ``mapteach.teaching``: traces, the articles' examples, exercise checking, judging analysis;
- ``mapteach.views``: plots, HTML and widgets.

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

#: Each re-exported name and the module that defines it.
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
    "read_qrels": "mapteach.runs.trec",
    "read_run": "mapteach.runs.trec",
    "evaluate": "mapteach.runs.evaluate",
    "evaluate_scores": "mapteach.runs.evaluate",
    "summarize": "mapteach.runs.evaluate",
    "compare_runs": "mapteach.runs.compare",
    "EXAMPLES": "mapteach.teaching.examples",
    "examples_table": "mapteach.teaching.examples",
    "get_example": "mapteach.teaching.examples",
    "explain_ap": "mapteach.teaching.trace",
    "explain_ndcg": "mapteach.teaching.trace",
    "explain_rr": "mapteach.teaching.trace",
    "trace_ap": "mapteach.teaching.trace",
    "trace_ndcg": "mapteach.teaching.trace",
    "trace_rr": "mapteach.teaching.trace",
    "pr_curve": "mapteach.teaching.pr_curve",
    "score_table": "mapteach.teaching.score_table",
    "learner": "mapteach.teaching.progress",
    "progress": "mapteach.teaching.progress",
    "show_trace": "mapteach.views.render",
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
    from mapteach.runs.compare import compare_runs
    from mapteach.runs.evaluate import evaluate, evaluate_scores, summarize
    from mapteach.runs.trec import read_qrels, read_run
    from mapteach.teaching.examples import EXAMPLES, examples_table, get_example
    from mapteach.teaching.pr_curve import pr_curve
    from mapteach.teaching.progress import learner, progress
    from mapteach.teaching.score_table import score_table
    from mapteach.teaching.trace import (
        explain_ap,
        explain_ndcg,
        explain_rr,
        trace_ap,
        trace_ndcg,
        trace_rr,
    )
    from mapteach.views.render import show_trace


def set_language(lang: str) -> None:
    """Speak ``lang`` ("en" or "zh") from now on: prose, tables, widgets and plots.

    :func:`mapteach.i18n.set_language` chooses the catalogue; this also lets
    matplotlib draw Chinese (it registers the CJK font that the Chinese plots use,
    :func:`mapteach.views.fonts.use_cjk_font`), so that a notebook's own figures
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
        from mapteach.views.fonts import use_cjk_font

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
