"""Checks of a table's display form, shared by the analysis and judging tests.

The display form (``table.display(lang=...)``) must show no English header in
Chinese, and hold the machine form's values, only rounded.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from mapteach.explain.glossary import GLOSSARY

CJK = re.compile(r"[\u4e00-\u9fff]")
#: The glossary's preferred Chinese names written in Latin letters (``Cohen kappa``,
#: ``Fleiss kappa``, ``Tukey HSD``): a Chinese table shows them as they are.
LATIN_TERMS = frozenset(term.zh for term in GLOSSARY.values() if not CJK.search(term.zh))


def english_header(header: object) -> bool:
    """A header in English: no CJK, and a Latin word of two or more letters with a lowercase
    one (``mean``, ``delta``); acronyms (``MAP``, ``CI``), letters (``p``, ``B``), measure
    names (``AP q1``, ``Judged@2``) and the glossary's Latin names (:data:`LATIN_TERMS`) pass."""
    text = str(header)
    if CJK.search(text) or text in LATIN_TERMS or re.fullmatch(r"(AP|Judged@)\s?\w+", text):
        return False
    return any(
        len(word) > 1 and any(c.islower() for c in word) for word in re.findall(r"[A-Za-z]+", text)
    )


def headers(shown: pd.DataFrame | pd.Series, *, index_labels: bool = False) -> list[object]:
    """Every header of a display form: column labels and axis names; a series' name and
    index labels (its keys); a frame's index labels too with ``index_labels``."""
    if isinstance(shown, pd.Series):
        return [shown.name, *shown.index, *shown.index.names]
    labels = list(shown.index) if index_labels else []
    return [*shown.columns, *shown.index.names, *labels]


def english_headers(shown: pd.DataFrame | pd.Series, *, index_labels: bool = False) -> list:
    """The headers of ``shown`` still in English."""
    found = headers(shown, index_labels=index_labels)
    return [header for header in found if header is not None and english_header(header)]


#: The words a Chinese display form shows for the booleans True and False.
BOOLEAN_WORDS = {True: "是", False: "否"}


#: The mark a rounded display form shows for a missing number (NaN).
MISSING_MARK = "—"


def same_values(shown: pd.DataFrame | pd.Series, machine: pd.DataFrame | pd.Series) -> None:
    """The display form holds the machine form's values, position by position (NaN = NaN,
    or NaN shown as :data:`MISSING_MARK`); a boolean may read as its Chinese word
    (:data:`BOOLEAN_WORDS`)."""
    cells = np.asarray(shown, dtype=object)
    values = np.asarray(machine, dtype=object)
    for at, value in np.ndenumerate(values):
        word = isinstance(value, (bool, np.bool_)) and cells[at] == BOOLEAN_WORDS[bool(value)]
        mark = isinstance(value, float) and np.isnan(value) and cells[at] == MISSING_MARK
        if word or mark:
            cells[at] = value
    pd.testing.assert_frame_equal(pd.DataFrame(cells), pd.DataFrame(values))
