"""board_math.js equals mapteach.metrics and mapteach.explain to the last bit, in Chromium.

Hypothesis draws ranked lists (0..40 results, R from the hits up to 5 more, cutoffs
0..n+2, the interpolated curve on or off); each run of the property sends a batch of
them to the module in one ``page.evaluate``. Every number crosses as the hex of its 64
bits (``bits``), so equality is bit for bit; every text is compared whole, in English
and in Chinese. The reference is always the Python (metrics, explain, the figure's
primitives), never the JavaScript.
"""

from __future__ import annotations

import html
import re
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from matplotlib.colors import to_rgb

from mapteach import average_precision, mean_average_precision
from mapteach.board import BoardFigure, RankingList
from mapteach.board.trace_texts import trace_texts
from mapteach.explain import explain_table, trace_ap, trace_html
from mapteach.i18n import LANGUAGES, language
from mapteach.metrics.curves import curve_arrays, interpolated_precision
from mapteach.offline import TEXT_JS, as_classic, bundle
from mapteach.plots import RELEVANT, ap_area_outline

pytestmark = pytest.mark.browser

SOURCE = Path(__file__).resolve().parents[2] / "mapteach" / "board" / "static" / "board_math.js"
BATCH = 200


def batches(share: int) -> settings:
    """A property over batches: ``1/share`` of the profile's examples (at least 2), so the
    CI profile (300) runs 20 batches of 200 lists at ``share=15``, the fast one (20) 2.
    Not shrunk: a failure names the list and what differs, and shrinking a batch of
    200 would only take minutes."""
    return settings(
        max_examples=max(2, settings().max_examples // share),
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
    )


#: Every number of a value as the hex of its IEEE double, recursively (the JS twin is BITS).
BITS = """
const F64 = new DataView(new ArrayBuffer(8));
const bits = (v) => {
  if (typeof v === "number") {
    F64.setFloat64(0, v);
    return F64.getBigUint64(0).toString(16).padStart(16, "0");
  }
  if (Array.isArray(v)) return v.map(bits);
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([key, x]) => [key, bits(x)]));
  }
  return v;
};
const double = (hex) => { F64.setBigUint64(0, BigInt("0x" + hex)); return F64.getFloat64(0); };
"""

#: What the module computes for one case [labels, r (or null), k, interpolated].
EVALUATE_CASES = (
    "([cases, texts]) => {"
    + BITS
    + """
  const m = window.mapteachModules.board_math;
  return cases.map(([labels, r, k, interpolated]) => {
    const points = m.prPoints(labels, r);
    const words = Object.fromEntries(Object.entries(texts).map(([lang, t]) => [lang, {
      explain: m.explainAp(labels, r, k, t),
      table: m.traceTable(labels, r, k, t),
    }]));
    return bits({
      ap: m.averagePrecision(labels, r, k),
      points,
      interpolated: m.interpolatedPrecision(points.recall, points.precision),
      plot: m.boardPlot(labels, r, k, interpolated),
      trace: m.traceAp(labels, r, k),
      words,
    });
  });
}"""
)


def bits(value: Any) -> Any:
    """``value`` with every number as the hex of its IEEE double (bools and texts kept)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return struct.pack(">d", float(value)).hex()
    if isinstance(value, dict):
        return {key: bits(inner) for key, inner in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [bits(inner) for inner in value]
    return value


def double(hex_bits: str) -> float:
    return float(struct.unpack(">d", bytes.fromhex(hex_bits))[0])


@pytest.fixture(scope="module")
def page(chromium) -> Iterator[Any]:
    page = chromium.new_page()
    page.add_script_tag(content=as_classic(bundle(TEXT_JS, SOURCE), "board_math"))
    yield page
    page.close()


@st.composite
def ranked_lists(draw: st.DrawFn) -> list[bool]:
    """0..40 relevance labels, drawn as the bits of one integer (a batch of 200 lists
    stays within what Hypothesis draws for one example)."""
    length = draw(st.integers(0, 40))
    mask = draw(st.integers(0, 2**length - 1))
    return [bool(mask >> rank & 1) for rank in range(length)]


@st.composite
def cases(draw: st.DrawFn) -> tuple[list[bool], int | None, int, bool]:
    """A ranked list, its R (None: Python's default, the hits), a cutoff (0: none), and
    whether the interpolated curve is on."""
    labels = draw(ranked_lists())
    hits = sum(labels)
    r = draw(st.none() | st.integers(hits, hits + 5))
    return labels, r, draw(st.integers(0, len(labels) + 2)), draw(st.booleans())


def expected_plot(labels: list[bool], r: int, k: int | None, interpolated: bool) -> dict:
    """What BoardFigure.update draws, from the primitives it draws with."""
    y = np.asarray(labels, dtype=bool)
    recall, precision = curve_arrays(y, r)
    shown = y.size if k is None else min(k, y.size)
    rc, pc, yc = recall[:shown], precision[:shown], y[:shown]
    start = precision[:1] if shown else np.zeros(1)
    best = interpolated_precision(rc, pc)
    steps = np.column_stack([np.r_[0.0, rc], np.r_[best[:1] if shown else 0.0, best]])
    return {
        "bars": precision,
        "barRelevant": y,
        "shown": shown,
        "cutoff": k,
        "cutoffInside": k is not None and k <= y.size,
        "curve": np.column_stack([np.r_[0.0, rc], np.r_[start, pc]]),
        "interpolated": steps if interpolated else None,
        "area": ap_area_outline(rc[yc], pc[yc]),
        "ap": average_precision(y, n_relevant=r, k=k),
        "nRelevant": r,
    }


_CELL = re.compile(r"<t[hd][^>]*>(.*?)</t[hd]>")
_ROW = re.compile(r'<tr style="[^"]*" data-contributes="(true|false)">(.*?)</tr>')


def shown_table(table: Any, caption: str, lang: str) -> dict:
    """trace_html's caption, headers, rows and footer, as text."""
    page = trace_html(table, caption=caption, lang=lang)
    head = re.search(r"<thead>(.*?)</thead>", page).group(1)
    foot = re.search(r"<tfoot>(.*?)</tfoot>", page).group(1)
    return {
        "caption": html.unescape(re.search(r"<caption[^>]*>(.*?)</caption>", page).group(1)),
        "headers": [html.unescape(cell) for cell in _CELL.findall(head)],
        "rows": [
            {
                "contributes": contributes == "true",
                "cells": [html.unescape(cell) for cell in _CELL.findall(cells)],
            }
            for contributes, cells in _ROW.findall(page)
        ],
        "footer": html.unescape(_CELL.findall(foot)[0]),
    }


def expected_words(table: Any) -> dict:
    """explain_ap's text and note and the trace table, in every language, of a trace."""
    words = {}
    for lang in LANGUAGES:
        with language(lang):
            explanation = explain_table(table)
            words[lang] = {
                "explain": {"text": str(explanation), "note": explanation.note},
                "table": shown_table(table, str(explanation), lang),
            }
    return words


def expected(labels: list[bool], r: int | None, k: int, interpolated: bool) -> dict:
    """Everything EVALUATE_CASES computes, from the Python."""
    total = sum(labels) if r is None else r
    cutoff = k or None
    recall, precision = curve_arrays(np.asarray(labels, dtype=bool), total)
    table = trace_ap(labels, n_relevant=r, k=cutoff)
    attrs = {
        "n_relevant": table.attrs["n_relevant"],
        "k": table.attrs["k"],
        "ap": table.attrs["ap"],
    }
    columns = {key: table[key].tolist() for key in table.columns}
    rows = [dict(zip(columns, row, strict=True)) for row in zip(*columns.values(), strict=True)]
    return bits(
        {
            "ap": average_precision(labels, n_relevant=r, k=cutoff),
            "points": {"recall": recall, "precision": precision},
            "interpolated": interpolated_precision(recall, precision),
            "plot": expected_plot(labels, total, cutoff, interpolated),
            "trace": {"rows": rows, "attrs": attrs},
            "words": expected_words(table),
        }
    )


def differences(got: dict, wanted: dict, where: str = "") -> Iterator[str]:
    """The paths where two bit-encoded values differ, with both sides."""
    if isinstance(got, dict) and isinstance(wanted, dict) and got.keys() == wanted.keys():
        for key in wanted:
            yield from differences(got[key], wanted[key], f"{where}.{key}")
    elif isinstance(got, list) and isinstance(wanted, list) and len(got) == len(wanted):
        for index, (one, other) in enumerate(zip(got, wanted, strict=True)):
            yield from differences(one, other, f"{where}[{index}]")
    elif got != wanted:
        yield f"{where}: JS {got!r}, Python {wanted!r}"


@batches(15)
@given(st.lists(cases(), min_size=BATCH, max_size=BATCH))
def test_every_value_and_text_equals_pythons(page, batch):
    texts = {lang: trace_texts(lang) for lang in LANGUAGES}
    got = page.evaluate(EVALUATE_CASES, [batch, texts])
    for case, result in zip(batch, got, strict=True):
        wrong = list(differences(result, expected(*case)))
        assert not wrong, f"labels, R, k, interpolated = {case}: {wrong[:5]}"


EVALUATE_PLOTS = (
    "(cases) => {"
    + BITS
    + """
  const m = window.mapteachModules.board_math;
  return cases.map(([labels, r, k, interpolated]) => bits(m.boardPlot(labels, r, k, interpolated)));
}"""
)


def drawn(figure: BoardFigure) -> dict:
    """What a BoardFigure shows after an update, read back from its artists."""
    colors = figure.bars.get_facecolor()
    x, y = figure.sawtooth.get_data()
    steps = np.column_stack(figure.interpolated.get_data())
    legend = [text.get_text() for text in figure.legend.get_texts()]
    cutoff = figure.cutoff.get_xdata()[0]
    return {
        "bars": [path.vertices[1][1] for path in figure.bars.get_paths()],
        "barRelevant": [tuple(rgb) == to_rgb(RELEVANT) for rgb in colors[:, :3]],
        "shown": int((colors[:, 3] != 0.3).sum()),
        "cutoff": None if np.isnan(cutoff) else cutoff - 0.5,
        "cutoffInside": "cutoff k" in legend,
        "curve": np.column_stack([x, y]),
        "interpolated": steps if figure.interpolated.get_visible() else None,
        "area": figure.area.get_xy(),
    }


def closed(outline: list) -> list:
    """A polygon's outline as matplotlib keeps a closed one: ending where it starts."""
    return outline if outline[0] == outline[-1] else [*outline, outline[0]]


@batches(50)
@given(st.lists(cases(), min_size=50, max_size=50))
def test_the_plot_data_is_what_the_board_figure_draws(page, batch):
    figure = BoardFigure(lang="en")
    got = page.evaluate(EVALUATE_PLOTS, batch)
    for (labels, r, k, interpolated), plot in zip(batch, got, strict=True):
        total = sum(labels) if r is None else r
        figure.update(labels, n_relevant=total, k=k or None, interpolated=interpolated)
        shown = {key: plot[key] for key in ("ap", "nRelevant")}
        wanted = {**bits(drawn(figure)), **shown}
        plot["area"] = closed(plot["area"])
        assert plot == wanted, f"labels, R, k, interpolated = {labels, r, k, interpolated}"


EVALUATE_MAP = (
    "([batch, k]) => {"
    + BITS
    + """
  const m = window.mapteachModules.board_math;
  return batch.map((queries) => bits(
    m.meanAveragePrecision(queries.map(([labels, r]) => m.averagePrecision(labels, r, k)))
  ));
}"""
)


@st.composite
def queries(draw: st.DrawFn) -> tuple[list[bool], int]:
    labels = draw(ranked_lists())
    return labels, draw(st.integers(sum(labels), sum(labels) + 5))


@batches(10)
@given(
    st.lists(st.lists(queries(), min_size=1, max_size=12), min_size=50, max_size=50),
    st.integers(0, 12),
)
def test_map_over_1_to_12_queries_equals_mean_average_precision(page, batch, k):
    got = page.evaluate(EVALUATE_MAP, [batch, k])
    for board, result in zip(batch, got, strict=True):
        labels, totals = zip(*board, strict=True)
        wanted = mean_average_precision(list(labels), n_relevant=list(totals), k=k or None)
        assert result == bits(wanted), f"k = {k}, queries {board}: JS {double(result)}"


#: Lengths where numpy's pairwise sum changes how it adds, and any length up to 300.
LENGTHS = st.sampled_from([1, 7, 8, 9, 15, 16, 17, 127, 128, 129, 135, 136, 137, 256, 257])


@batches(10)
@given(st.lists(st.tuples(LENGTHS | st.integers(1, 300), st.integers(0, 2**32)), min_size=20))
def test_the_mean_adds_as_numpy_does_at_every_length(page, batch):
    """np.mean's pairwise sum: a running sum below 8 values, 8 lanes up to 128, halves
    (cut at a multiple of 8) above; the values are random APs in [0, 1) from a seed."""
    lists = [np.random.default_rng(seed).random(length).tolist() for length, seed in batch]
    got = page.evaluate(
        "(lists) => {" + BITS + "return lists.map((v) => bits("
        "window.mapteachModules.board_math.meanAveragePrecision(v.map(double))));}",
        bits(lists),
    )
    assert got == [bits(float(np.mean(values))) for values in lists]


@batches(10)
@given(
    st.lists(
        st.lists(st.tuples(st.sampled_from([0.0, 0.25, 0.5, 1.0]), st.floats(0, 1)), max_size=12),
        min_size=50,
        max_size=50,
    )
)
def test_interpolation_takes_any_order_of_points(page, batch):
    """Points out of recall order and sharing a recall: the best precision at r' >= r."""
    got = page.evaluate(
        "(batch) => {" + BITS + "const m = window.mapteachModules.board_math;"
        "return batch.map((points) => bits(m.interpolatedPrecision("
        "points.map(([r]) => double(r)), points.map(([, p]) => double(p)))));}",
        bits(batch),
    )
    wanted = [
        bits(interpolated_precision([r for r, _ in points], [p for _, p in points]))
        for points in batch
    ]
    assert got == wanted


#: A RankingList model's state and AP, as listState and listAp read them.
EVALUATE_LISTS = """(states) => {
  const m = window.mapteachModules.board_math;
  return states.map((state) => {
    const model = { get: (name) => state[name] };
    return { state: m.listState(model), ap: m.listAp(model) };
  });
}"""


def test_a_list_models_state_is_what_the_ranking_list_holds(page):
    rankings = [
        RankingList([1, 0, 1], n_relevant=5, k=2, interpolated=True),
        RankingList([0, 0], k=0),
        RankingList.from_example("003_b"),
    ]
    states = [
        {name: getattr(r, name) for name in ("items", "n_unretrieved", "k", "interpolated")}
        for r in rankings
    ]
    got = page.evaluate(EVALUATE_LISTS, states)
    wanted = [
        {
            "state": {
                "labels": r.labels,
                "nRelevant": r.n_relevant,
                "k": r.k,
                "interpolated": r.interpolated,
            },
            "ap": average_precision(r.labels, n_relevant=r.n_relevant, k=r.cutoff),
        }
        for r in rankings
    ]
    assert got == wanted
