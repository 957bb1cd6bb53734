"""Tables a learner reads: English keys for code, headers in the current language for people.

A teaching function's table is indexed by its English column keys
(``table["running_ap"]``) in every language, so the same code works in the English
and the Chinese workbook. Only *showing* a table translates it:

- :func:`display_table` returns a copy whose headers are in the current language
  (English headers in English: ``running AP``), for code that renders a table
  itself (an HTML view, a Styler, a widget);
- a :class:`ShownTable` does that by itself when it is printed, rendered in a
  notebook or exported (``to_string``, ``to_html``), in any language but English;
  in English it shows its keys, as the workbook always has, so English output
  does not change.

Its data, keys and ``attrs`` never change.

Each table kind is a subclass of :class:`ShownTable` whose ``headers`` map its
column keys to their headers (messages marked with :func:`~mapteach.i18n.N_`);
:data:`HEADERS` is the union of them all, for tables a notebook builds itself
from teaching results (``pd.Series(report.row())``).

Examples
--------
>>> from mapteach import trace_ap
>>> table = trace_ap([0, 1])
>>> table.columns[-1], display_table(table).columns[-1]
('running_ap', 'running AP')
>>> print(table.iloc[:, :4].to_string(index=False))  # English: the keys, as always
 rank  relevant  hits fraction
    1     False     0      0/1
    2      True     1      1/2
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

import pandas as pd

from mapteach.i18n import get_language, tr

__all__ = ["HEADERS", "ShownSeries", "ShownTable", "display_table", "shown_label"]

#: Every header of every :class:`ShownTable` kind: column key -> message (English).
#: A key that two kinds show differently (``precision``: ``P@rank`` in a trace,
#: ``precision`` in a PR table) is left out: only its own table knows its header.
HEADERS: dict[str, str] = {}
_AMBIGUOUS: set[str] = set()


def _register(headers: Mapping[str, str]) -> None:
    for key, message in headers.items():
        if key in _AMBIGUOUS:
            continue
        if HEADERS.setdefault(key, message) != message:
            del HEADERS[key]
            _AMBIGUOUS.add(key)


Frame = TypeVar("Frame", pd.DataFrame, pd.Series)


def shown_label(label: object, headers: Mapping[str, str] | None = None) -> Any:
    """A column key (or index label) as it is shown: its header in the current language.

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


def display_table(table: Frame, headers: Mapping[str, str] | None = None) -> Frame:
    """A copy of ``table`` to show: headers in the current language, data unchanged.

    Column labels, index labels and axis names that are keys of ``headers`` are
    replaced by their translation; everything else (values, ``attrs``) is kept.

    Parameters
    ----------
    table : pandas.DataFrame or pandas.Series
        A teaching table (or one a notebook built from teaching results).
    headers : mapping of str to str, optional
        Key -> message. Default: the table's own (a :class:`ShownTable`), else
        :data:`HEADERS`.

    Returns
    -------
    pandas.DataFrame or pandas.Series
        A plain pandas object (not a :class:`ShownTable`), for any renderer.

    Examples
    --------
    >>> import pandas as pd
    >>> from mapteach.i18n import N_
    >>> table = pd.DataFrame({"score": [1.0]}, index=pd.Index(["x"], name="system"))
    >>> display_table(table, {"score": N_("score"), "system": N_("system")}).columns.tolist()
    ['score']
    """
    if headers is None:
        headers = table.headers if isinstance(table, (ShownTable, ShownSeries)) else HEADERS
    if isinstance(table, pd.DataFrame):
        frame = pd.DataFrame(table.copy(deep=False))
        frame.columns = _relabel(frame.columns, headers)
        frame.index = _relabel(frame.index, headers)
        frame.attrs = dict(table.attrs)
        return frame
    series = pd.Series(table.copy(deep=False))
    series.index = _relabel(series.index, headers)
    series.name = shown_label(series.name, headers)
    series.attrs = dict(table.attrs)
    return series


class ShownTable(pd.DataFrame):
    """A DataFrame keyed in English and shown with headers in the current language.

    Subclasses set :attr:`headers`. Indexing, arithmetic and every other pandas
    operation work on the English keys and keep the subclass; printing,
    ``_repr_html_``, ``to_string`` and ``to_html`` show :meth:`shown`.
    """

    #: Each column key (or index label, or axis name) and its header, a message in English.
    headers: ClassVar[Mapping[str, str]] = MappingProxyType({})

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _register(cls.headers)

    @property
    def _constructor(self) -> Any:
        return type(self)

    def shown(self) -> pd.DataFrame:
        """This table as it is shown: a plain DataFrame, headers in the current language.

        In English, the keys themselves (what the workbook has always shown).
        """
        if get_language() == "en":
            return display_table(self, {})
        return display_table(self, self.headers)

    def __repr__(self) -> str:
        return repr(self.shown())

    def _repr_html_(self) -> str | None:
        shown: Any = self.shown()
        return shown._repr_html_()

    def to_string(self, *args: Any, **kwargs: Any) -> Any:
        """As :meth:`pandas.DataFrame.to_string`, headers in the current language."""
        return self.shown().to_string(*args, **kwargs)

    def to_html(self, *args: Any, **kwargs: Any) -> Any:
        """As :meth:`pandas.DataFrame.to_html`, headers in the current language."""
        return self.shown().to_html(*args, **kwargs)


class ShownSeries(pd.Series):
    """A Series keyed in English (its index labels) and shown in the current language.

    ``to_frame`` gives the matching :attr:`frame` kind, shown the same way.
    """

    headers: ClassVar[Mapping[str, str]] = MappingProxyType({})
    #: The ShownTable kind that ``to_frame`` and other 2-D results become.
    frame: ClassVar[type[ShownTable]] = ShownTable

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _register(cls.headers)

    @property
    def _constructor(self) -> Any:
        return type(self)

    @property
    def _constructor_expanddim(self) -> Any:
        return self.frame

    def shown(self) -> pd.Series:
        """This series as it is shown: a plain Series, labels in the current language.

        In English, the keys themselves.
        """
        if get_language() == "en":
            return display_table(self, {})
        return display_table(self, self.headers)

    def __repr__(self) -> str:
        return repr(self.shown())

    def to_string(self, *args: Any, **kwargs: Any) -> Any:
        """As :meth:`pandas.Series.to_string`, labels in the current language."""
        return self.shown().to_string(*args, **kwargs)
