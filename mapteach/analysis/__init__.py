"""Analysis of runs: comparing two systems or many with paired tests, pooling and its
bias, conventions and live peers, averaged curves, and honest reporting.

Every public name of the package, imported on first use from the module that defines it.
"""

from __future__ import annotations

from typing import Any

from mapteach._lazy import load

#: Each public name and the module of this package that defines it.
EXPORTS = {
    "CHECKLIST": "conventions",
    "CORRECTIONS": "paired_tests",
    "ConventionSwitches": "convention_widgets",
    "Effect": "reporting",
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
__all__ = sorted(EXPORTS)


def __getattr__(name: str) -> Any:
    return load(__name__, EXPORTS, name)


def __dir__() -> list[str]:
    return __all__
