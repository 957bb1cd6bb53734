"""The words of the AP trace, for the board's JavaScript (``static/board_math.js``).

The browser writes the trace table, its caption and :func:`~mapteach.explain_ap`'s
note itself; this module hands it the templates Python fills, taken from the same
messages (:mod:`mapteach.explain.ap_trace`, :mod:`mapteach.explain.trace_display`), in
one language, with their ``{placeholders}`` left in.
"""

from __future__ import annotations

from typing import Any

from mapteach.explain.ap_trace import (
    NOTE_ALL_COUNTED,
    NOTE_NONE_COUNTED,
    NOTE_SOME_MISSED,
    TRACE_HEADERS,
    ZERO_NOTE,
    ZERO_TEXT,
)
from mapteach.explain.trace_display import FOOTER_WITH_CUTOFF, SHOWN_COLUMNS
from mapteach.i18n import check_language, plural_forms, tr

__all__ = ["trace_texts"]


def trace_texts(lang: str) -> dict[str, Any]:
    """Every template the board's JavaScript needs to write an AP trace, in ``lang``.

    Parameters
    ----------
    lang : {"en", "zh"}
        The language of the texts.

    Returns
    -------
    dict
        ``columns``: the trace columns the table shows, in order (as
        :func:`~mapteach.explain.trace_html`); ``headers``: each shown column's header;
        ``footer_cutoff``: the footer under a cutoff (``{r}``, ``{k}``); ``zero_text``
        and ``zero_note``: :func:`~mapteach.explain_ap`'s text (``{name}``) and note
        when R = 0; ``note_all_counted``, ``note_none_counted`` (``{n}`` = R) and
        ``note_some_missed`` (``{n}`` missed of ``{r}``): its note otherwise, each as
        ``{"one": ..., "other": ...}``, the form for a count of 1 and for any other.

    Raises
    ------
    ValueError
        If ``lang`` is not a language the workbook speaks.

    Examples
    --------
    >>> from mapteach.board.trace_texts import trace_texts
    >>> texts = trace_texts("en")
    >>> texts["headers"]["running_ap"], texts["note_all_counted"]["one"]
    ('running AP', 'R = {n} relevant document, in the ranks that count.')
    >>> trace_texts("zh")["headers"]["rank"]
    '排名'
    """
    lang = check_language(lang)
    return {
        "columns": list(SHOWN_COLUMNS),
        "headers": {key: tr(TRACE_HEADERS[key], lang=lang) for key in SHOWN_COLUMNS},
        "footer_cutoff": tr(FOOTER_WITH_CUTOFF, lang=lang),
        "zero_text": tr(ZERO_TEXT, lang=lang),
        "zero_note": tr(ZERO_NOTE, lang=lang),
        "note_all_counted": plural_forms(*NOTE_ALL_COUNTED, lang=lang),
        "note_none_counted": plural_forms(*NOTE_NONE_COUNTED, lang=lang),
        "note_some_missed": plural_forms(*NOTE_SOME_MISSED, lang=lang),
    }
