"""A glossary term: its English and Chinese names, formula, defining notebook and a note.

>>> from mapteach.explain.glossary_entry import Term
>>> term = Term("cutoff", "截断", (), ("截止",), "M@k", "02", "", r"cut-?offs?")
>>> term.zh_names, term.named_in("a cut-off at 10")
(('截断',), True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Term"]


@dataclass(frozen=True)
class Term:
    """A term of the glossary.

    Attributes
    ----------
    english : str
        Its English name (a catalogue message).
    zh : str
        The preferred Chinese name, used throughout the Chinese edition.
    zh_also : tuple of str
        Other Chinese names a reader meets and the workbook accepts.
    zh_avoid : tuple of str
        Names the workbook never uses for this term (each is wrong or ambiguous).
    formula : str
        Its definition as LaTeX (IIR ch. 8, trec_eval, or the paper that defines it).
    notebook : str
        The notebook that defines it; an earlier notebook may only name it with a
        forward link ("see notebook NN").
    note : str
        What it means or why the names are what they are (a catalogue message).
    english_pattern : str
        A regular expression finding the term in an English message.
    formula_zh : str
        The formula as the Chinese edition shows it, its words in Chinese; empty when
        the formula has no words to translate (the same LaTeX serves both editions).
    """

    english: str
    zh: str
    zh_also: tuple[str, ...]
    zh_avoid: tuple[str, ...]
    formula: str
    notebook: str
    note: str
    english_pattern: str
    formula_zh: str = ""

    def formula_in(self, lang: str) -> str:
        """The formula as the edition in ``lang`` ("en" or "zh") shows it.

        >>> term = Term("cutoff", "截断", (), (), "M(1..k)", "02", "", "", "M(第 1 至 k 位)")
        >>> term.formula_in("en"), term.formula_in("zh")
        ('M(1..k)', 'M(第 1 至 k 位)')
        >>> Term("AP", "平均精度", (), (), "AP", "03", "", "").formula_in("zh")
        'AP'
        """
        return self.formula_zh if lang == "zh" and self.formula_zh else self.formula

    @property
    def zh_names(self) -> tuple[str, ...]:
        """The preferred name, then the accepted ones."""
        return (self.zh, *self.zh_also)

    def named_in(self, english: str) -> bool:
        """Whether an English text names the term (whole words, any case)."""
        return re.search(self.english_pattern, english, flags=re.IGNORECASE) is not None
