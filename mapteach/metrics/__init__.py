"""Ranking metrics, one measure per module, each reading like its formula.

Floor 1 of the package: numpy and the standard library only. Each measure module
holds the scalar measure, its whole-run batch kernel, its tie-aware expectation
and its declaration (:mod:`mapteach.metrics.declaration`), which the registry
(:mod:`mapteach.metrics.registry`) collects. Beside them: the machinery the
kernels share (:mod:`mapteach.metrics.batch`, :mod:`mapteach.metrics.ties`), the
measure names (:mod:`mapteach.metrics.names`), the geometric mean over queries
(:mod:`mapteach.metrics.gmap`) and the option vocabularies
(:mod:`mapteach.metrics.options`).
"""

from mapteach.metrics.average_precision import average_precision, mean_average_precision
from mapteach.metrics.bpref import bpref
from mapteach.metrics.counts import num_relevant, num_relevant_retrieved, num_retrieved
from mapteach.metrics.curves import (
    eleven_point_average_precision,
    eleven_point_precisions,
    hits_needed,
)
from mapteach.metrics.declaration import Declaration
from mapteach.metrics.err import expected_reciprocal_rank
from mapteach.metrics.gmap import GM_FLOOR, geometric_mean
from mapteach.metrics.hit import hit_at_k
from mapteach.metrics.judged import judged_at_k
from mapteach.metrics.micro_average import micro_precision_at_k, micro_recall_at_k
from mapteach.metrics.names import parse_measure, parse_trec_eval
from mapteach.metrics.ndcg import ndcg_at_k
from mapteach.metrics.options import DENOMINATORS, ELEVEN_POINT, GAINS, NO_RELEVANT
from mapteach.metrics.precision import precision_at_k
from mapteach.metrics.r_precision import r_precision
from mapteach.metrics.rbp import rank_biased_precision
from mapteach.metrics.recall import recall_at_k
from mapteach.metrics.reciprocal_rank import mean_reciprocal_rank, reciprocal_rank
from mapteach.metrics.registry import REGISTRY, measures_markdown

__all__ = [
    "DENOMINATORS",
    "ELEVEN_POINT",
    "GAINS",
    "GM_FLOOR",
    "NO_RELEVANT",
    "REGISTRY",
    "Declaration",
    "average_precision",
    "bpref",
    "eleven_point_average_precision",
    "eleven_point_precisions",
    "expected_reciprocal_rank",
    "geometric_mean",
    "hit_at_k",
    "hits_needed",
    "judged_at_k",
    "mean_average_precision",
    "mean_reciprocal_rank",
    "measures_markdown",
    "micro_precision_at_k",
    "micro_recall_at_k",
    "ndcg_at_k",
    "num_relevant",
    "num_relevant_retrieved",
    "num_retrieved",
    "parse_measure",
    "parse_trec_eval",
    "precision_at_k",
    "r_precision",
    "rank_biased_precision",
    "recall_at_k",
    "reciprocal_rank",
]
