"""The classroom: who is learning, and every checked answer kept in a progress file.

Every public name of the package, imported on first use from the module that defines it.
"""

from mapteach._lazy import public_path

#: Each public name and the module of this package that defines it.
EXPORTS = {
    "CorruptLineWarning": "progress_log",
    "FIELDS": "progress_log",
    "RETIRED_VERDICTS": "progress_log",
    "TruncatedLineWarning": "progress_log",
    "VERDICTS": "progress_log",
    "current_group": "identity",
    "forget_learner": "identity",
    "learner": "identity",
    "merge_progress": "progress_log",
    "progress": "progress_log",
    "progress_file": "progress_log",
    "read_progress": "progress_log",
    "record_check": "progress_log",
    "set_progress_file": "progress_log",
}
__getattr__, __dir__, __all__ = public_path(__name__, EXPORTS)
