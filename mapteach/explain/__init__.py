"""Explanations: the arithmetic of AP, nDCG and RR as trace tables and text, the
precision-recall table, the display step that translates tables, the glossary, plots.

Every public name of the package, imported on first use from the module that defines it.
"""

from mapteach._lazy import public_path

#: Each public name and the module of this package that defines it.
EXPORTS = {
    "AveragingTable": "averaging_trace",
    "Explanation": "ap_trace",
    "GLOSSARY": "glossary",
    "HEADERS": "display",
    "NDCG_TRACE_COLUMNS": "ndcg_trace",
    "PRTable": "pr_table",
    "PR_HEADERS": "pr_table",
    "RR_TRACE_COLUMNS": "rr_trace",
    "ShownSeries": "display",
    "ShownTable": "display",
    "TRACE_COLUMNS": "ap_trace",
    "TRACE_HEADERS": "ap_trace",
    "Term": "glossary_terms",
    "TraceTable": "ap_trace",
    "TraceView": "trace_display",
    "check_decimals": "ap_trace",
    "display_table": "display",
    "explain_ap": "ap_trace",
    "explain_ndcg": "ndcg_trace",
    "explain_rr": "rr_trace",
    "explain_table": "ap_trace",
    "glossary_markdown": "glossary",
    "glossary_table": "glossary",
    "plot_ap_bars": "plots",
    "plot_pr_curve": "plots",
    "plot_precision_at_k": "plots",
    "pr_curve": "pr_table",
    "ruled_out_variants": "glossary_terms",
    "score_table": "scores",
    "show_trace": "trace_display",
    "shown_label": "display",
    "trace_ap": "ap_trace",
    "trace_averaging": "averaging_trace",
    "trace_headers": "ap_trace",
    "trace_html": "trace_display",
    "trace_ndcg": "ndcg_trace",
    "trace_rr": "rr_trace",
}
__getattr__, __dir__, __all__ = public_path(__name__, EXPORTS)
