"""The pictures of one ranking: the PR curve's legend never covers a curve or a label."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from mapteach import get_example, tr
from mapteach.explain.plots import plot_pr_curve
from tests.budget import examples
from tests.explain.legend_checks import lines_under, overlaps, renderer_of


def assert_legend_clear(ax) -> None:
    """No line under the legend, the legend clear of the x axis' labels and inside the figure."""
    figure = ax.get_figure(root=True)
    renderer = renderer_of(figure)
    legend = ax.get_legend()
    assert lines_under(legend, ax.get_lines(), renderer) == []
    box = legend.get_window_extent(renderer)
    assert not overlaps(box, ax.xaxis.get_tightbbox(renderer))
    whole = figure.bbox
    assert whole.x0 <= box.x0 and box.x1 <= whole.x1 and whole.y0 <= box.y0 and box.y1 <= whole.y1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_notebook_07s_three_curves_keep_their_legends_clear(lang):
    """Notebook 07's figure, cell for cell: queries A, B and C side by side."""
    fig = Figure(figsize=(12, 3.2))
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, 3, sharey=True)
    for ax, name in zip(axes, ["003_a", "003_b", "003_c"], strict=True):
        example = get_example(name)
        plot_pr_curve(example.labels, n_relevant=example.n_relevant, ax=ax, lang=lang)
        ax.set_title(tr("Query {letter}", letter=name[-1].upper(), lang=lang), loc="left")
    fig.tight_layout()
    for ax in axes:
        assert_legend_clear(ax)


@settings(max_examples=examples(25), deadline=None)
@given(
    labels=st.lists(st.integers(0, 1), min_size=1, max_size=30),
    unretrieved=st.integers(0, 4),
    interpolated=st.booleans(),
)
def test_the_legend_covers_no_curve_on_any_list(labels, unretrieved, interpolated):
    n_relevant = sum(labels) + unretrieved
    if n_relevant == 0:
        labels, n_relevant = [*labels, 1], 1
    ax = plot_pr_curve(labels, n_relevant=n_relevant, interpolated=interpolated)
    assert_legend_clear(ax)
