"""Exercises: the answer rule, the mistakes it names, the widgets, the factories per
topic, learner variants and the collector the answer key uses.

Every public name of the package, imported on first use from the module that defines it.
"""

from mapteach._lazy import public_path

#: Each public name and the module of this package that defines it.
EXPORTS = {
    "ArrangeExercise": "arrange_widget",
    "ChoiceExercise": "choice_widget",
    "Feedback": "answers",
    "IndexedExercise": "notebook_index",
    "KINDS": "mistakes",
    "Mistake": "mistakes",
    "NumberExercise": "widgets",
    "STATUSES": "answers",
    "Status": "answers",
    "WrongAnswer": "mistakes",
    "agrees_at": "answers",
    "ap_exercise": "factories_ap",
    "asked_precision": "answers",
    "bpref_exercise": "factories_pooling",
    "check_number": "answers",
    "collect_exercises": "registry",
    "exercise_index": "notebook_index",
    "fill_prompt": "prompts",
    "final_hits_in_every_numerator": "mistakes_ranking",
    "gmap_exercise": "factories_beyond",
    "interpolated_precision_exercise": "factories_curves",
    "kappa_exercise": "factories_agreement",
    "map_exercise": "factories_ap",
    "micro_recall_exercise": "factories_averaging",
    "mistakes_for": "mistakes",
    "mrr_exercise": "factories_rank",
    "ndcg_exercise": "factories_graded",
    "parse_answer": "reading",
    "pool_exercise": "factories_pooling",
    "pooled_ap_exercise": "factories_pooling",
    "precision_exercise": "factories_ap",
    "r_precision_exercise": "factories_beyond",
    "recall_exercise": "factories_ap",
    "register": "mistakes",
    "relevant_ranks_text": "prompts",
    "rr_exercise": "factories_rank",
    "variant_data": "variants",
    "variant_rng": "variants",
    "wrong_answers": "mistakes",
}
__getattr__, __dir__, __all__ = public_path(__name__, EXPORTS)
