"""The board's still picture (its fallback without scripts): the legend covers no curve."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mapteach import get_example
from mapteach.board.board_plots import BoardFigure
from mapteach.board.list_widget import PRESETS
from tests.budget import examples
from tests.explain.legend_checks import lines_under, renderer_of


def drawn_lines(figure: BoardFigure) -> list:
    return [figure.sawtooth, figure.interpolated, figure.cutoff]


def assert_legend_clear(figure: BoardFigure) -> None:
    """No curve, marker or cutoff line under the legend, and the legend whole in the figure."""
    renderer = renderer_of(figure.figure)
    assert lines_under(figure.legend, drawn_lines(figure), renderer) == []
    box = figure.legend.get_window_extent(renderer)
    whole = figure.figure.bbox
    assert whole.x0 <= box.x0 and box.x1 <= whole.x1 and whole.y0 <= box.y0 and box.y1 <= whole.y1


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", [name for name, _ in PRESETS])
def test_the_legend_covers_no_curve_at_k_20_interpolated(name, lang):
    example = get_example(name)
    figure = BoardFigure(lang=lang)
    figure.update(example.labels, n_relevant=example.n_relevant, k=20, interpolated=True)
    assert_legend_clear(figure)


@settings(max_examples=examples(25), deadline=None)
@given(
    labels=st.lists(st.integers(0, 1), min_size=1, max_size=30),
    unretrieved=st.integers(0, 4),
    k=st.none() | st.integers(1, 32),
    interpolated=st.booleans(),
)
def test_the_legend_covers_no_curve_on_any_list(labels, unretrieved, k, interpolated):
    figure = BoardFigure()
    figure.update(labels, n_relevant=sum(labels) + unretrieved, k=k, interpolated=interpolated)
    assert_legend_clear(figure)
