"""The convention switches as shown: whole captions, and a per-query table with one header row."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from mapteach import average_precision
from mapteach.analysis.convention_widgets import ConventionSwitches
from mapteach.i18n import tr

QRELS = {"A": {"a": 1, "b": 1}, "B": {"c": 1}}
RUN = {"A": {"a": 1.0, "x": 2.0}, "B": {"c": 1.0}}


class _Table(HTMLParser):
    """The rows of an HTML table's head and body, each a list of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.head: list[list[str]] = []
        self.body: list[list[str]] = []
        self._rows = self.head

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in ("thead", "tbody"):
            self._rows = self.head if tag == "thead" else self.body
        elif tag == "tr":
            self._rows.append([])
        elif tag in ("th", "td"):
            self._rows[-1].append("")

    def handle_data(self, data: str) -> None:
        if self._rows and self._rows[-1] and data.strip():
            self._rows[-1][-1] += data.strip()


def table_of(switches: ConventionSwitches) -> _Table:
    parsed = _Table()
    parsed.feed(switches.output.value)
    return parsed


def test_every_caption_is_shown_whole():
    switches = ConventionSwitches(QRELS, RUN)
    # the default width (ipywidgets' inline label width) cuts "denominator" to "denomina…"
    assert {
        name: c.style.description_width for name, c in switches.controls.items()
    } == dict.fromkeys(switches.controls, "initial")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_table_has_one_header_row_and_the_query_column(lang):
    table = table_of(ConventionSwitches(QRELS, RUN, lang=lang))
    headers = [tr(h, lang=lang) for h in ("query", "AP", "R", "retrieved")]
    assert table.head == [headers]
    ap_a = average_precision([0, 1], n_relevant=2)  # x first, then a; b never retrieved
    assert table.body == [["A", f"{ap_a:.4f}", "2", "2"], ["B", "1.0000", "1", "1"]]
