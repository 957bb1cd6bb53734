"""Runs: TREC qrels and run files read and written, ``score_run`` (numpy only) and its
DataFrame view ``evaluate`` for whole runs, and ``evaluate_scores`` for a score matrix.

Every public name of the package, imported on first use from the module that defines it.
"""

from mapteach._lazy import public_path

#: Each public name and the module of this package that defines it.
EXPORTS = {
    "RunScores": "scoring",
    "as_qrels": "frames",
    "as_run": "frames",
    "evaluate": "evaluation",
    "evaluate_scores": "score_matrix",
    "format_trec": "trec_output",
    "invalid_numbers": "numbers",
    "read_qrels": "trec",
    "read_run": "trec",
    "relevance_in_order": "ranked_lists",
    "run_from_lists": "ranked_lists",
    "runs_from_relevant_ranks": "ranked_lists",
    "same_class_task": "retrieval",
    "score_run": "scoring",
    "similarity_matrix": "retrieval",
    "summarize": "evaluation",
    "write_trec": "trec",
}
__getattr__, __dir__, __all__ = public_path(__name__, EXPORTS)
