"""Every text the boards' browser views show, in one language, with ``{placeholders}`` kept.

The views (``static/*.js``) fill the placeholders themselves, as :func:`mapteach.i18n.tr`
would, so a board speaks the language it was made in whatever the kernel's language
is later, and a page without a kernel speaks it too. The arithmetic and the trace
table come from :func:`mapteach.board.trace_texts.trace_texts`.
"""

from __future__ import annotations

from mapteach.i18n import HTML_LANG, language, tr

__all__ = ["list_texts", "map_board_texts", "plot_texts", "readout_texts"]


def _list_controls() -> dict[str, str]:
    """The list's controls, labels and announcements, in the current language."""
    return {
        "help": tr(
            "Drag a result, or focus it and press Alt+Arrow Up/Down to move it. "
            "Click it or press Space to mark it relevant."
        ),
        "help_fixed": tr("Drag a result, or focus it and press ↑/↓, to move it."),
        "example": tr("Example"),
        "example_aria": tr("Load a worked example"),
        "reset": tr("Reset"),
        "reset_title": tr("Back to the example last chosen: its ranking, R, cutoff and curve"),
        "reset_done": tr("Reset to the example's ranking."),
        "missed": tr("Missed relevant"),
        "missed_aria": tr("Relevant documents the system never retrieved"),
        "cutoff": tr("Cutoff k"),
        "cutoff_aria": tr("Cutoff k (0 for the whole list)"),
        "interpolated": tr("Interpolated curve"),
        "list_aria": tr("Ranked results"),
        "item_relevant": tr("Rank {rank}: {title}, relevant"),
        "item_not_relevant": tr("Rank {rank}: {title}, not relevant"),
        "moved": tr("Moved {title} to rank {rank} of {n}."),
        "now_relevant": tr("{title} at rank {rank} is now relevant."),
        "now_not_relevant": tr("{title} at rank {rank} is now not relevant."),
        "r_missed": tr("R = {r} ({missed} relevant never retrieved)"),
        "k_rejected": tr(
            "Cutoff k must be a whole number, 0 or more (0 for the whole list); "
            "it stays at {value}."
        ),
        "n_unretrieved_rejected": tr(
            "Missed relevant must be a whole number, 0 or more; it stays at {value}."
        ),
        "edited": tr("{name} (edited)"),
    }


def plot_texts() -> dict[str, str]:
    """The board view's plots: titles, axis labels, legends, text alternatives (current language).

    >>> plot_texts()["pr_title"]
    'Precision-recall curve'
    """
    return {
        "pk_title": tr("P@k at every rank (green: relevant)"),
        "rank_axis": tr("rank k"),
        "pr_title": tr("Precision-recall curve"),
        "recall_axis": tr("recall"),
        "precision_axis": tr("precision"),
        "sawtooth": tr("precision after each rank"),
        "interpolated_line": tr("interpolated"),
        "area": tr("shaded area = AP"),
        "cutoff_line": tr("cutoff k"),
        "separator": tr(", "),
        "pk_alt": tr("Bar chart of P@k at every rank, R = {r}: {bars}."),
        "pk_alt_cutoff": tr("Only the top {k} ranks count (cutoff k = {k})."),
        "pk_bar_relevant": tr("P@{rank} = {value} (relevant)"),
        "pr_alt": tr(
            "Precision-recall curve, R = {r}, {name} = {ap} (the shaded area). "
            "Points (recall, precision), rank by rank: {points}."
        ),
        "pr_alt_interpolated": tr("Interpolated precision: {points}."),
    }


def list_texts(lang: str) -> dict[str, str]:
    """Every text the ranking list's browser view shows, in ``lang`` (``{names}`` kept).

    The list's controls and announcements, and the board view's plots.

    >>> list_texts("en")["moved"]
    'Moved {title} to rank {rank} of {n}.'
    >>> list_texts("zh")["recall_axis"]
    '召回率'
    """
    with language(lang):
        return {"lang": HTML_LANG[lang], **_list_controls(), **plot_texts()}


def map_board_texts(lang: str) -> dict[str, str]:
    """The multi-query board's texts in ``lang``: the AP bars and their text alternative.

    >>> map_board_texts("en")["ap_bar"]
    '{name}: AP = {value}'
    """
    with language(lang):
        return {
            "lang": HTML_LANG[lang],
            "ap_title": tr("AP per query; the line is MAP"),
            "query_axis": tr("query"),
            "separator": tr(", "),
            "ap_bar": tr("{name}: AP = {value}"),
            "ap_alt": tr("Bar chart of AP per query: {bars}; the line is MAP = {map}."),
        }


def readout_texts(lang: str) -> dict[str, str]:
    """The live printout's first line, in ``lang``: with a cutoff k, or ``k = all``.

    >>> readout_texts("zh")["head_all"]
    '面板上的标签：{labels}   R = {r}   k = 全部'
    """
    with language(lang):
        return {
            "lang": HTML_LANG[lang],
            "head_all": tr("labels on screen: {labels}   R = {r}   k = all"),
            "head_cutoff": tr("labels on screen: {labels}   R = {r}   k = {k}"),
        }
