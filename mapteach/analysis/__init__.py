"""Analysis of runs: comparing two systems or many with paired tests, pooling and its
bias, conventions and live peers, averaged curves, and honest reporting.

Every public name of the package, imported on first use from the module that defines it.
"""

from mapteach._lazy import public_path

#: Each public name and the module of this package that defines it.
EXPORTS = {
    "CHECKLIST": "conventions",
    "COMPARISON_HEADERS": "paired_tests",
    "CONVENTION_HEADERS": "conventions",
    "CORRECTIONS": "paired_tests",
    "ComparisonSummary": "paired_tests",
    "ComparisonTable": "paired_tests",
    "ConventionSeries": "conventions",
    "ConventionSwitches": "convention_widgets",
    "ConventionTable": "conventions",
    "Effect": "reporting",
    "POOL_HEADERS": "pooling",
    "PoolTable": "pooling",
    "REPORT_HEADERS": "reporting",
    "ReportTable": "reporting",
    "RunComparison": "compare",
    "SETTINGS": "conventions",
    "TESTS": "paired_tests",
    "audit_costs": "reporting",
    "audit_setups": "conventions",
    "best_by_measure": "reporting",
    "compare_conventions": "conventions",
    "compare_many": "compare",
    "compare_runs": "compare",
    "compare_scores": "compare",
    "compare_systems": "compare",
    "format_p_value": "reporting",
    "judge_pool": "pooling",
    "judged_fraction": "pooling",
    "mean_interpolated_precision": "averaged_curve",
    "paired_effect": "reporting",
    "paired_randomization_test": "paired_tests",
    "plot_deltas": "plots",
    "pool": "pooling",
    "pool_bias": "pooling",
    "queries_needed": "compare",
    "run_from_scores": "pooling",
    "sklearn_average_modes": "conventions",
}
__getattr__, __dir__, __all__ = public_path(__name__, EXPORTS)
