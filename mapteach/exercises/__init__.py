"""Exercises: the answer rule, the mistakes it names, the widgets, the factories per
topic, learner variants and the collector the answer key uses.

Every public name of the package, imported on first use from the module that defines it.
"""

from mapteach._lazy import public_path

#: Each public name and the module of this package that defines it.
EXPORTS = {
    "AP_MISCONCEPTIONS": "misconceptions",
    "ArrangeExercise": "widgets",
    "ChoiceExercise": "widgets",
    "Feedback": "answers",
    "GMAP_MISCONCEPTIONS": "misconceptions_beyond",
    "MAP_MISCONCEPTIONS": "misconceptions",
    "Misconception": "misconceptions",
    "NumberExercise": "widgets",
    "PRECISION_MISCONCEPTIONS": "misconceptions",
    "RPREC_MISCONCEPTIONS": "misconceptions_beyond",
    "STATUSES": "answers",
    "Status": "answers",
    "WrongAnswer": "answers",
    "agrees_at": "answers",
    "ap_exercise": "factories_ap",
    "arithmetic_mean_for_gmap": "misconceptions_beyond",
    "asked_precision": "answers",
    "check_number": "answers",
    "collect_exercises": "registry",
    "final_hits_in_every_numerator": "misconceptions",
    "geometric_mean_without_floor": "misconceptions_beyond",
    "gmap_exercise": "factories_beyond",
    "interpolated_precision_exercise": "factories_curves",
    "map_exercise": "factories_ap",
    "mean_log_without_exp": "misconceptions_beyond",
    "mean_precision_over_all_ranks": "misconceptions",
    "parse_answer": "answers",
    "pool_exercise": "factories_pooling",
    "pooled_ap_exercise": "factories_pooling",
    "precision_at_10_for_r_precision": "misconceptions_beyond",
    "precision_at_hits_found": "misconceptions_beyond",
    "precision_at_last_relevant": "misconceptions_beyond",
    "precision_exercise": "factories_ap",
    "r_precision_exercise": "factories_beyond",
    "variant_labels": "variants",
    "variant_rng": "variants",
    "wrong_answers": "misconceptions_beyond",
}
__getattr__, __dir__, __all__ = public_path(__name__, EXPORTS)
