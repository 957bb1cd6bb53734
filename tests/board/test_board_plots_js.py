"""board_plots.js in Chromium: its colours are the still picture's, and every plot's text
alternative has an id of its own on the page, even when each board brings its own copy
of the module (anywidget imports a widget's module once per model)."""

from __future__ import annotations

import pytest
from matplotlib.colors import to_hex

from mapteach.board import BoardFigure, RankingBoard, RankingList
from mapteach.offline import as_classic
from mapteach.plots import ACCENT, IRRELEVANT, RELEVANT
from tests.board.js_page import synced_state

pytestmark = pytest.mark.browser


def test_the_colours_are_the_still_pictures(page):
    colors = page.evaluate("() => window.mapteachModules.ranking_list.PLOT_COLORS")
    figure = BoardFigure()
    assert {key: colors[key] for key in ("relevant", "irrelevant", "accent", "line")} == {
        "relevant": RELEVANT,
        "irrelevant": IRRELEVANT,
        "accent": ACCENT,
        "line": to_hex(figure.sawtooth.get_color()),
    }
    assert to_hex(figure.interpolated.get_color()) == ACCENT


#: Each board rendered by a module of its own; for every plot, its id and whether the
#: element its SVG names is its own board's.
SHOW_APART = """([first, second]) => {
  showModel(fakeModel("ranking_list", first));
  showModel(fakeModel("ranking_list_copy", second));
  return [...document.querySelectorAll("svg[role=img]")].map((svg) => {
    const named = document.getElementById(svg.getAttribute("aria-labelledby"));
    return { id: named.id, own: svg.closest("figure").contains(named) };
  });
}"""


def test_every_plot_on_the_page_names_its_own_text(page):
    page.add_script_tag(content=as_classic(str(RankingList._esm), "ranking_list_copy"))
    first = synced_state(RankingBoard(example="003_a").ranking)
    second = synced_state(RankingBoard(example="003_b").ranking)
    plots = page.evaluate(SHOW_APART, [first, second])
    assert len(plots) == 4 and all(plot["own"] for plot in plots), plots
    assert len({plot["id"] for plot in plots}) == 4, plots
