"""Runs: TREC qrels and run files read and written, ``evaluate`` for whole runs and
``evaluate_scores`` for a score matrix.

Every public name of the package, imported on first use from the module that defines it.
"""

from __future__ import annotations

from typing import Any

from mapteach._lazy import load

#: Each public name and the module of this package that defines it.
EXPORTS = {
    "as_qrels": "frames",
    "as_run": "frames",
    "evaluate": "evaluation",
    "evaluate_scores": "score_matrix",
    "invalid_numbers": "numbers",
    "read_qrels": "trec",
    "read_run": "trec",
    "same_class_task": "retrieval",
    "similarity_matrix": "retrieval",
    "summarize": "evaluation",
    "write_trec": "trec",
}
__all__ = sorted(EXPORTS)


def __getattr__(name: str) -> Any:
    return load(__name__, EXPORTS, name)


def __dir__() -> list[str]:
    return __all__
