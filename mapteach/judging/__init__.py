"""Relevance judging: the guideline and judging set, judgments saved as they are made,
the judging board, label sensitivity and annotator agreement.

Every public name of the package, imported on first use from the module that defines it.
"""

from mapteach._lazy import public_path

#: Each public name and the module of this package that defines it.
EXPORTS = {
    "ALPHA_SCALE": "annotator_agreement",
    "BoardStateError": "judging_board",
    "CalibrationReport": "calibration",
    "Event": "judgments",
    "GUIDELINE_HEADERS": "guideline",
    "Grade": "guideline",
    "GradeError": "judging_board",
    "Guideline": "guideline",
    "GuidelineTable": "guideline",
    "HARD_CASES": "guideline",
    "JUDGING_HEADERS": "sensitivity",
    "JudgingBoard": "judging_board",
    "JudgingSeries": "sensitivity",
    "JudgingSet": "guideline",
    "JudgingTable": "sensitivity",
    "KAPPA_SCALE": "annotator_agreement",
    "LEGAL_RESULTS": "calibration",
    "Rule": "guideline",
    "SetQuery": "guideline",
    "SetResult": "guideline",
    "TRANSLATED_KEYS": "guideline",
    "TruncatedLineWarning": "judgments",
    "agreement": "annotator_agreement",
    "agreement_many": "annotator_agreement",
    "append_event": "judgments",
    "calibration_report": "calibration",
    "check_grades": "sensitivity",
    "flip_sensitivity": "sensitivity",
    "interpret_alpha": "annotator_agreement",
    "interpret_kappa": "annotator_agreement",
    "judged_only_ap": "sensitivity",
    "judging_summary": "calibration",
    "kappa_reading": "annotator_agreement",
    "load_guideline": "guideline",
    "load_judging_set": "guideline",
    "load_judgments": "judgments",
    "read_events": "judgments",
    "replay": "judgments",
    "simulate_annotator": "calibration",
    "to_qrels": "judgments",
}
__getattr__, __dir__, __all__ = public_path(__name__, EXPORTS)
