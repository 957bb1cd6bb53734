"""The classroom: who is learning, and every checked answer kept in a progress file (or a
progress folder, one file per learner).

Every public name of the package, imported on first use from the module that defines it.
"""

from mapteach._lazy import public_path

#: Each public name and the module of this package that defines it.
EXPORTS = {
    "ANONYMOUS": "room_progress",
    "CorruptLineWarning": "progress_log",
    "Room": "room_progress",
    "RoomDashboard": "dashboard_widgets",
    "STUCK_AFTER": "room_progress",
    "common_mistakes": "room_progress",
    "exercise_summary": "room_progress",
    "learner_summary": "room_progress",
    "FIELDS": "progress_log",
    "FOLDER_VARIABLE": "progress_folder",
    "LearnerName": "name_widget",
    "OPTIONAL_FIELDS": "progress_log",
    "RETIRED_VERDICTS": "progress_log",
    "TruncatedLineWarning": "progress_log",
    "VERDICTS": "progress_log",
    "current_group": "identity",
    "forget_learner": "identity",
    "learner": "identity",
    "merge_progress": "progress_log",
    "name_bar": "name_widget",
    "progress": "progress_log",
    "progress_file": "progress_folder",
    "progress_path_for": "progress_folder",
    "read_progress": "progress_log",
    "read_room": "room_progress",
    "record_check": "progress_log",
    "set_progress_file": "progress_folder",
    "waiting_checks": "progress_folder",
    "waiting_for_names": "room_progress",
    "waits_for_name": "progress_folder",
}
__getattr__, __dir__, __all__ = public_path(__name__, EXPORTS)
