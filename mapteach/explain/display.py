"""Tables a learner reads: stable keys for code, a display step for people.

Every teaching table has two forms:

- its **machine form**, what a teaching function returns: a :class:`ShownTable`
  (or :class:`ShownSeries`) indexed by stable keys (``table["running_ap"]``,
  ``comparison.summary["p_ttest"]``, index values such as ``"ties_expected"``),
  the same in the English and the Chinese workbook, so the same code works in both;
- its **display form**, for people: ``table.display(lang=None, digits=4)``, a plain
  pandas copy whose headers (column keys, index labels, axis names) and label
  values are in the current language (or ``lang``), whose text cells (English
  messages) are translated, and whose numbers are rounded (a missing number, NaN: not
  computed or left out, shown as :data:`MISSING`, "—"). A table a notebook
  builds itself from teaching results (``pd.DataFrame({name: r.row() ...})``) is
  shown the same way with :func:`display_table`, which finds its keys in
  :data:`HEADERS`.

The display step changes nothing but presentation: the data are those of the
machine form (rounded), and the machine form itself never changes.

A :class:`ShownTable` also shows itself in the current language when it is
printed, rendered in a notebook or exported (``to_string``, ``to_html``), in any
language but English; in English it shows its keys, as the workbook always has.

Each table kind is a subclass of :class:`ShownTable` whose ``headers`` map its
keys to their headers (messages marked with :func:`~mapteach.i18n.N_`);
``label_columns`` names its columns whose values are keys of ``headers`` too,
``text_columns`` its columns of English messages. :data:`HEADERS` is the union of
every kind's headers.

Examples
--------
>>> from mapteach import trace_ap
>>> table = trace_ap([0, 1])
>>> table.columns[-1], table.display().columns[-1], table.display(lang="zh").columns[-1]
('running_ap', 'running AP', '累计 AP')
>>> print(table.iloc[:, :4].to_string(index=False))  # English: the keys, as always
 rank  relevant  hits fraction
    1     False     0      0/1
    2      True     1      1/2
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

import numpy as np
import pandas as pd

from mapteach.i18n import N_, get_language, language, tr
from mapteach.i18n.spacing import MINUS

__all__ = [
    "HEADERS",
    "MISSING",
    "PRINTED_DIGITS",
    "ShownSeries",
    "ShownTable",
    "display_table",
    "shown_label",
]

#: Every header of every :class:`ShownTable` kind, and of the tables that are no kind
#: (``evaluate``'s, ``pool``'s, a notebook's own): key -> message (English).
#: A key that two kinds show differently (``precision``: ``P@k`` in a trace,
#: ``precision`` in a PR table) is left out: only its own table knows its header.
HEADERS: dict[str, str] = {}
_AMBIGUOUS: set[str] = set()
#: How a boolean cell reads in a language other than English; English shows the machine
#: values, True and False, as it always has.
BOOLEAN_WORDS = {True: N_("yes"), False: N_("no")}
_BOOLEANS = (bool, np.bool_)
#: How a rounded display form shows a number that is missing (NaN in the machine form: a
#: query left out, a measure not computed, a library not installed). A notebook says
#: what it means above its table.
MISSING = N_("—")
#: Every kind's label columns and text columns, for tables a notebook builds itself.
_LABEL_COLUMNS: set[str] = set()
_TEXT_COLUMNS: set[str] = set()
#: How many decimals a printed table shows of a number it was not told to round: every
#: score at the same precision, whatever its value (0.5000 beside 0.6667, never 0.5).
PRINTED_DIGITS = 4
#: The keys whose values are whole numbers (counts, grades and their gains): shown as
#: whole numbers (50, not 50.0 or 50.0000) when every value of theirs is whole.
_WHOLE_KEYS = frozenset(
    {"count", "R", "retrieved", "rank", "hits", "queries", "documents", "gain", "ideal_gain"}
)


#: The keys of the tables that are no kind (``evaluate``, ``summarize``, ``pool``, a
#: notebook's own) and their headers, known whatever else is imported. Measure names
#: (``AP``, ``P@10``) are names, not words: they are shown as they are.
_COMMON_HEADERS: Mapping[str, str] = MappingProxyType(
    {
        "query_id": N_("query"),
        "query": N_("query"),
        "doc_id": N_("doc"),
        "R": N_("R"),
        "retrieved": N_("retrieved"),
        "run": N_("run"),
        "runs": N_("runs"),
        "system": N_("system"),
        "kappa": N_("Cohen's kappa"),
        "count": N_("count"),  # the statistics of pandas' describe()
        "mean": N_("mean"),
        "std": N_("standard deviation"),
        "min": N_("minimum"),
        "max": N_("maximum"),
    }
)


def _register_headers(headers: Mapping[str, str]) -> None:
    for key, message in headers.items():
        if key in _AMBIGUOUS:
            continue
        if HEADERS.setdefault(key, message) != message:
            del HEADERS[key]
            _AMBIGUOUS.add(key)


def _register(kind: Any) -> None:
    _register_headers(kind.headers)
    _LABEL_COLUMNS.update(kind.label_columns)
    _TEXT_COLUMNS.update(kind.text_columns)


_register_headers(_COMMON_HEADERS)

Frame = TypeVar("Frame", pd.DataFrame, pd.Series)


def shown_label(label: object, headers: Mapping[str, str] | None = None) -> Any:
    """A key (column key, index label or label value) as it is shown, in the current language.

    A label that is not a key of ``headers`` (default: :data:`HEADERS`) is shown as it is.

    >>> shown_label("running_ap"), shown_label("P@10")
    ('running AP', 'P@10')
    """
    headers = HEADERS if headers is None else headers
    if isinstance(label, str) and label in headers:
        return tr(headers[label])
    return label


def _relabel(index: pd.Index, headers: Mapping[str, str]) -> pd.Index:
    if isinstance(index, pd.MultiIndex):
        return index.set_names([shown_label(name, headers) for name in index.names])
    name = shown_label(index.name, headers)
    labels = list(index)
    if not any(isinstance(label, str) and label in headers for label in labels):
        return index.rename(name)
    return pd.Index([shown_label(label, headers) for label in labels], name=name)


def _rounded(values: pd.Series, digits: int) -> pd.Series:
    """Floats rounded to ``digits`` (and no ``-0.0``); booleans, integers and text as they are."""
    if pd.api.types.is_bool_dtype(values) or pd.api.types.is_integer_dtype(values):
        return values
    if pd.api.types.is_float_dtype(values):
        return values.round(digits) + 0.0

    def rounded(value: Any) -> Any:
        return round(value, digits) + 0.0 if isinstance(value, float) else value

    if values.dtype == object:  # mixed cells, kept as they are: a count 3 stays 3, not 3.0
        cells = [rounded(value) for value in values]
        return pd.Series(cells, index=values.index, dtype=object, name=values.name)
    return values.map(rounded)


def _marked(values: pd.Series) -> pd.Series:
    """Missing numbers (float NaN) shown as :data:`MISSING`; every other cell as it is."""
    missing = values.map(lambda value: isinstance(value, float) and np.isnan(value))
    if not missing.any():
        return values
    return values.astype(object).where(~missing, tr(MISSING))


def _cells(values: pd.Series, show: Callable[[str], Any]) -> pd.Series:
    return values.map(lambda value: show(value) if isinstance(value, str) else value)


def _words_for_booleans(values: pd.Series) -> pd.Series:
    """A column's booleans as 是/否 (:data:`BOOLEAN_WORDS`) outside English; else unchanged.

    Also the boolean cells of a mixed column, such as a transposed table's (a column per
    rank, holding one rank's ``relevant`` flag beside its ``precision``).
    """
    if get_language() == "en":
        return values
    if pd.api.types.is_bool_dtype(values):
        return values.map(lambda value: tr(BOOLEAN_WORDS[bool(value)]))
    if pd.api.types.is_object_dtype(values):
        return values.map(
            lambda value: tr(BOOLEAN_WORDS[bool(value)]) if isinstance(value, _BOOLEANS) else value
        )
    return values


def _shown_frame(
    table: pd.DataFrame, headers: Mapping[str, str], labels: Collection, texts: Collection
) -> pd.DataFrame:
    frame = pd.DataFrame(table.copy(deep=False))
    for position, key in enumerate(table.columns):
        if key in labels:
            frame.isetitem(
                position, _cells(frame.iloc[:, position], lambda v: shown_label(v, headers))
            )
        elif key in texts:
            frame.isetitem(position, _cells(frame.iloc[:, position], tr))
        else:
            frame.isetitem(position, _words_for_booleans(frame.iloc[:, position]))
    frame.columns = _relabel(frame.columns, headers)
    frame.index = _relabel(frame.index, headers)
    return frame


def _shown_series(
    table: pd.Series, headers: Mapping[str, str], labels: Collection, texts: Collection
) -> pd.Series:
    values = [
        shown_label(value, headers)
        if key in labels
        else (tr(value) if key in texts and isinstance(value, str) else value)
        for key, value in table.items()
    ]
    series = pd.Series(values, index=_relabel(table.index, headers), dtype=table.dtype)
    series.name = shown_label(table.name, headers)
    return series


def _printed_number(value: float, digits: int) -> str:
    """A number at ``digits`` decimals; outside English, its minus sign is "−" (U+2212)."""
    text = f"{value:.{digits}f}"
    return text if get_language() == "en" else text.replace("-", MINUS)


def _printed_cell(value: Any, digits: int) -> Any:
    if isinstance(value, (float, np.floating)) and not np.isnan(value):
        return _printed_number(float(value), digits)
    return value


def _printable(shown: Any, digits: int) -> Any:
    """A copy of ``shown`` whose mixed cells' numbers are text at ``digits``, for printing."""
    if isinstance(shown, pd.Series):
        if not pd.api.types.is_object_dtype(shown):
            return pd.Series(shown)
        cells = [_printed_cell(value, digits) for value in shown]
        return pd.Series(cells, index=shown.index, name=shown.name, dtype=object)
    frame = pd.DataFrame(shown.copy(deep=False))
    for position in range(frame.shape[1]):
        column = frame.iloc[:, position]
        if pd.api.types.is_object_dtype(column):
            frame.isetitem(position, column.map(lambda value: _printed_cell(value, digits)))
    return frame


@contextmanager
def _printing(digits: int) -> Iterator[None]:
    """Every float at ``digits`` decimals; a CJK character counted as two columns of text."""
    with pd.option_context(
        "display.float_format",
        lambda value: _printed_number(value, digits),
        "display.unicode.east_asian_width",
        True,
    ):
        yield


def _trimmed(text: str) -> str:
    """Text without the blanks that wide-character alignment leaves at the ends of lines."""
    return "\n".join(line.rstrip() for line in text.split("\n"))


class _Printed:
    """What a display form does when it is printed: its numbers at one precision per table.

    ``digits`` is the precision it was rounded to (None: :data:`PRINTED_DIGITS`).
    """

    _metadata: ClassVar[list[str]] = ["digits"]
    digits: int | None = None

    @property
    def _decimals(self) -> int:
        return PRINTED_DIGITS if self.digits is None else self.digits

    def _printable(self) -> Any:
        return _printable(self, self._decimals)

    def __repr__(self) -> str:
        with _printing(self._decimals):
            return _trimmed(repr(self._printable()))

    def _repr_html_(self) -> str | None:
        with _printing(self._decimals):
            printable: Any = self._printable()
            if isinstance(printable, pd.Series):
                printable = printable.to_frame()
            return printable._repr_html_()

    def to_string(self, *args: Any, **kwargs: Any) -> Any:
        """As pandas' ``to_string``, numbers at one precision, aligned for Chinese."""
        with _printing(self._decimals):
            text = self._printable().to_string(*args, **kwargs)
        return _trimmed(text) if isinstance(text, str) else text


class ShownFrame(_Printed, pd.DataFrame):
    """A display form (a DataFrame) printed with its numbers at one precision.

    Any pandas operation on it gives a plain DataFrame.
    """

    @property
    def _constructor(self) -> Any:
        return pd.DataFrame

    def to_html(self, *args: Any, **kwargs: Any) -> Any:
        """As :meth:`pandas.DataFrame.to_html`, numbers at one precision."""
        with _printing(self._decimals):
            return self._printable().to_html(*args, **kwargs)

    def rename(self, *args: Any, **kwargs: Any) -> Any:
        """As :meth:`pandas.DataFrame.rename`; the renamed copy is printed the same way.

        A notebook names the columns the display step does not know; the table it shows
        still prints its numbers at one precision, with "−" outside English.
        """
        if kwargs.get("inplace"):
            return super().rename(*args, **kwargs)
        renamed = _as_printed(pd.DataFrame(self).rename(*args, **kwargs), self.digits)
        renamed.attrs = dict(self.attrs)
        return renamed


class ShownValues(_Printed, pd.Series):
    """A display form (a Series) printed with its numbers at one precision."""

    @property
    def _constructor(self) -> Any:
        return pd.Series

    @property
    def _constructor_expanddim(self) -> Any:
        return pd.DataFrame


def _counts_whole(shown: Any, keys: list[Any]) -> None:
    """The whole-number floats of the count columns (:data:`_WHOLE_KEYS`) as integers."""
    for position, key in enumerate(keys):
        if key not in _WHOLE_KEYS:
            continue
        column = shown.iloc[:, position]
        if pd.api.types.is_float_dtype(column) and column.dropna().map(float.is_integer).all():
            cells = [value if np.isnan(value) else int(value) for value in column]
            shown.isetitem(position, pd.Series(cells, index=column.index, dtype=object))


def _whole_counts_of_series(shown: pd.Series, keys: list[Any]) -> pd.Series:
    """A series' counts (``keys`` in :data:`_WHOLE_KEYS`), when whole, as integers."""
    counts = [
        isinstance(value, float) and value.is_integer() and key in _WHOLE_KEYS
        for key, value in zip(keys, shown, strict=True)
    ]
    if not any(counts):
        return shown
    cells = [int(value) if count else value for value, count in zip(shown, counts, strict=True)]
    return pd.Series(cells, index=shown.index, name=shown.name, dtype=object)


def _as_printed(shown: Any, digits: int | None) -> Any:
    printed: Any = ShownFrame(shown) if isinstance(shown, pd.DataFrame) else ShownValues(shown)
    object.__setattr__(printed, "digits", digits)
    return printed


def display_table(
    table: Frame,
    headers: Mapping[str, str] | None = None,
    *,
    lang: str | None = None,
    digits: int | None = None,
) -> Frame:
    """The display form of ``table``: headers, labels and text in the current language.

    Column labels, index labels and axis names that are keys of ``headers`` are
    replaced by their translation; so are the values of a kind's label columns,
    and the English messages of its text columns. Numbers are rounded to
    ``digits``; everything else (other values, ``attrs``) is kept.

    Parameters
    ----------
    table : pandas.DataFrame or pandas.Series
        A teaching table (or one a notebook built from teaching results).
    headers : mapping of str to str, optional
        Key -> message. Default: the table's own (a :class:`ShownTable`), else
        :data:`HEADERS`.
    lang : {"en", "zh"}, optional
        Show it in this language instead of the current one.
    digits : int, optional
        Round floats to this many decimals (``-0.0`` shown as ``0.0``) and show a missing
        one (NaN) as :data:`MISSING`, "—". Default: as they are, NaN included.

    Returns
    -------
    pandas.DataFrame or pandas.Series
        A pandas object (not a :class:`ShownTable`: any operation on it gives a plain
        one) that prints every number at one precision, ``digits`` (default
        :data:`PRINTED_DIGITS`), and aligns its plain text for Chinese.

    Examples
    --------
    >>> import pandas as pd
    >>> from mapteach.i18n import N_
    >>> table = pd.DataFrame({"score": [1 / 3]}, index=pd.Index(["x"], name="system"))
    >>> shown = display_table(table, {"score": N_("score")}, lang="zh", digits=2)
    >>> shown.columns.tolist(), float(shown.iloc[0, 0])
    (['分数'], 0.33)
    >>> per_query = pd.DataFrame(  # as evaluate returns it
    ...     {"AP": [0.5], "R": [2], "retrieved": [10]}, index=pd.Index(["q1"], name="query_id")
    ... )
    >>> shown = display_table(per_query, lang="zh")
    >>> shown.index.name, shown.columns.tolist()
    ('查询', ['AP', '相关文档数 R', '检索到的文档数'])
    >>> display_table(pd.Series({"AP": float("nan"), "R": 0.0}), digits=4).tolist()
    ['—', 0]
    >>> print(display_table(pd.DataFrame({"P@3": [0.5, 2 / 3], "R": [2.0, 3.0]}), digits=4))
          P@3  R
    0  0.5000  2
    1  0.6667  3
    """
    kind: Any = table if isinstance(table, (ShownTable, ShownSeries)) else None
    if headers is None:
        headers = HEADERS if kind is None else kind.header_map()
    labels = _LABEL_COLUMNS if kind is None else kind.label_columns
    texts = _TEXT_COLUMNS if kind is None else kind.text_columns
    with language(lang):
        if isinstance(table, pd.DataFrame):
            shown: Any = _shown_frame(table, headers, labels, texts)
            _counts_whole(shown, list(table.columns))
        else:
            shown = _whole_counts_of_series(
                _shown_series(table, headers, labels, texts), list(table.index)
            )
    if digits is not None:
        with language(lang):
            if isinstance(shown, pd.DataFrame):
                for position in range(shown.shape[1]):
                    column = _marked(_rounded(shown.iloc[:, position], digits))
                    shown.isetitem(position, column.to_numpy())
            else:
                shown = _marked(_rounded(shown, digits))
    shown = _as_printed(shown, digits)
    shown.attrs = dict(table.attrs)
    return shown


class _Kind:
    """What every table kind has: its headers, label and text columns, and its display step."""

    #: Each key (column key, index label, axis name, label value) and its header, a message.
    headers: ClassVar[Mapping[str, str]] = MappingProxyType({})
    #: The columns (index labels, for a series) whose values are keys of :attr:`headers`.
    label_columns: ClassVar[frozenset[str]] = frozenset()
    #: The columns (index labels, for a series) whose values are English messages.
    text_columns: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _register(cls)

    def header_map(self) -> Mapping[str, str]:
        """Each key of this table and its header: :attr:`headers`, unless a kind adds its own."""
        return self.headers

    def display(self, *, lang: str | None = None, digits: int | None = 4) -> Any:
        """This table's display form: :func:`display_table` with its own headers.

        Headers, label values and text in the current language (or ``lang``),
        floats rounded to ``digits`` and NaN shown as :data:`MISSING` (None: as they
        are); a pandas object printed at one precision (see :func:`display_table`).
        """
        table: Any = self
        return display_table(table, lang=lang, digits=digits)

    def shown(self) -> Any:
        """This table as it is printed: headers in the current language, numbers as they are.

        In English, the keys themselves (what the workbook has always shown).
        """
        table: Any = self
        if get_language() == "en":
            return display_table(table, {})
        return display_table(table)

    def __repr__(self) -> str:
        return repr(self.shown())

    def to_string(self, *args: Any, **kwargs: Any) -> Any:
        """As pandas' ``to_string``, headers in the current language."""
        return self.shown().to_string(*args, **kwargs)


class ShownTable(_Kind, pd.DataFrame):
    """A DataFrame keyed by stable keys and shown with headers in the current language.

    Subclasses set :attr:`headers` (and :attr:`label_columns`, :attr:`text_columns`).
    Indexing, arithmetic and every other pandas operation work on the keys and keep
    the subclass; printing, ``_repr_html_``, ``to_string`` and ``to_html`` show
    :meth:`shown`, and :meth:`display` is the display step.
    """

    @property
    def _constructor(self) -> Any:
        return type(self)

    def _repr_html_(self) -> str | None:
        shown: Any = self.shown()
        return shown._repr_html_()

    def to_html(self, *args: Any, **kwargs: Any) -> Any:
        """As :meth:`pandas.DataFrame.to_html`, headers in the current language."""
        return self.shown().to_html(*args, **kwargs)


class ShownSeries(_Kind, pd.Series):
    """A Series keyed by stable keys (its index labels) and shown in the current language.

    ``to_frame`` gives the matching :attr:`frame` kind, shown the same way.
    """

    #: The ShownTable kind that ``to_frame`` and other 2-D results become.
    frame: ClassVar[type[ShownTable]] = ShownTable

    @property
    def _constructor(self) -> Any:
        return type(self)

    @property
    def _constructor_expanddim(self) -> Any:
        return self.frame
