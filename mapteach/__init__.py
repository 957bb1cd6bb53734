"""mapteach: learn ranking evaluation, centred on Mean Average Precision (MAP).

The helper package behind the workbook's notebooks: metrics that agree with
trec_eval to the last digit, the source articles' worked examples, and
step-by-step traces of average precision.

>>> import mapteach
>>> print(mapteach.explain_ap([1, 0, 1, 1, 0, 0, 0, 0]))
AP = (1/1 + 2/3 + 3/4) / 3 = 0.8056
"""

from mapteach.curves import eleven_point_average_precision, pr_curve
from mapteach.examples import EXAMPLES, examples_table, get_example
from mapteach.measures import parse_measure, score_table
from mapteach.metrics import (
    average_precision,
    hit_at_k,
    mean_average_precision,
    mean_reciprocal_rank,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)
from mapteach.render import show_trace
from mapteach.trace import explain_ap, trace_ap

__all__ = [
    "EXAMPLES",
    "average_precision",
    "eleven_point_average_precision",
    "examples_table",
    "explain_ap",
    "get_example",
    "hit_at_k",
    "mean_average_precision",
    "mean_reciprocal_rank",
    "ndcg_at_k",
    "parse_measure",
    "pr_curve",
    "precision_at_k",
    "recall_at_k",
    "reciprocal_rank",
    "score_table",
    "show_trace",
    "trace_ap",
]

__version__ = "0.1.0"
