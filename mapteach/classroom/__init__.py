"""The classroom: who is learning, and every checked answer kept in a progress file.

Every public name of the package, imported on first use from the module that defines it.
"""

from __future__ import annotations

from typing import Any

from mapteach._lazy import load

#: Each public name and the module of this package that defines it.
EXPORTS = {
    "CorruptLineWarning": "progress_log",
    "FIELDS": "progress_log",
    "TruncatedLineWarning": "progress_log",
    "VERDICTS": "progress_log",
    "forget_learner": "identity",
    "learner": "identity",
    "merge_progress": "progress_log",
    "progress": "progress_log",
    "progress_file": "progress_log",
    "read_progress": "progress_log",
    "record_check": "progress_log",
    "set_progress_file": "progress_log",
}
__all__ = sorted(EXPORTS)


def __getattr__(name: str) -> Any:
    return load(__name__, EXPORTS, name)


def __dir__() -> list[str]:
    return __all__
