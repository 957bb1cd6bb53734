"""PR curves, their area, and the pictures drawn from them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach import average_precision, pr_curve
from mapteach.analysis.averaged_curve import mean_interpolated_precision
from mapteach.board.board_plots import BoardFigure
from mapteach.explain.plots import plot_ap_bars, plot_pr_curve
from mapteach.metrics.curves import (
    ELEVEN_LEVELS,
    eleven_point_average_precision,
    eleven_point_precisions,
    hits_at_levels,
    hits_needed,
    interpolated_precision,
    precisions_at_levels,
)
from mapteach.plots import ap_area_outline


def polygon_area(points: np.ndarray) -> float:
    x, y = points[:, 0], points[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))


@given(st.lists(st.integers(0, 1), max_size=40), st.integers(0, 4))
def test_shaded_area_under_the_step_curve_is_ap(labels, missed):
    r = sum(labels) + missed
    curve = pr_curve(labels, n_relevant=r)
    hits = curve[curve["relevant"]]
    area = polygon_area(ap_area_outline(hits["recall"].to_numpy(), hits["precision"].to_numpy()))
    assert area == pytest.approx(average_precision(labels, n_relevant=r), abs=1e-12)


def test_pr_curve_of_article_003_query_b():
    curve = pr_curve([1, 0, 1, 0, 0, 0, 0, 0], n_relevant=3)
    assert curve["recall"].round(4).tolist() == [0.3333] * 2 + [0.6667] * 6
    precision = curve["precision"].round(4).tolist()
    assert precision == [1.0, 0.5, 0.6667, 0.5, 0.4, 0.3333, 0.2857, 0.25]
    # by recall (IIR ch. 8, trec_eval): rank 2 is at recall 1/3, where P was 1/1;
    # ranks 3-8 are all at recall 2/3, whose best precision is 2/3
    assert curve["interpolated"].round(4).tolist() == [1.0, 1.0] + [0.6667] * 6
    assert pr_curve([0, 0])["interpolated"].tolist() == [0.0, 0.0]  # R = 0


def test_interpolated_precision_by_recall():
    recall = [0.25, 0.25, 0.5, 0.5, 0.75]
    values = interpolated_precision(recall, [1.0, 0.5, 0.667, 0.5, 0.6])
    assert values.tolist() == [1.0, 1.0, 0.667, 0.667, 0.6]
    # points in any order: each takes the best precision at its recall or higher
    assert interpolated_precision([0.5, 0.25, 0.5], [0.2, 0.1, 0.3]).tolist() == [0.3, 0.3, 0.3]
    assert interpolated_precision([], []).size == 0
    with pytest.raises(ValueError, match=r"1-D of one length; got shapes \(2,\) and \(1,\)"):
        interpolated_precision([0.5, 1.0], [1.0])


@given(st.lists(st.integers(0, 1), max_size=40), st.integers(0, 4))
def test_interpolated_precision_is_the_best_precision_at_recall_or_higher(labels, missed):
    curve = pr_curve(labels, n_relevant=sum(labels) + missed)
    recall, precision = curve["recall"].to_numpy(), curve["precision"].to_numpy()
    expected = [precision[recall >= r].max() for r in recall]
    values = curve["interpolated"].to_numpy()
    assert values.tolist() == expected
    assert (values >= precision).all()
    assert (np.diff(values) <= 0).all()  # a staircase that never rises
    for r in np.unique(recall):  # one value per recall
        assert np.unique(values[recall == r]).size == 1


def test_eleven_point_average_precision_by_hand():
    # IIR ch. 8: relevant at ranks 1 and 3 of R = 2 -> recall 0.5 at P 1.0, recall 1 at P 2/3
    assert eleven_point_average_precision([1, 0, 1]) == pytest.approx((6 * 1.0 + 5 * 2 / 3) / 11)
    # R = 4: recall 0.25 at P 1.0 (levels 0-0.2), 0.5 at P 2/3 (0.3-0.5), never more
    assert eleven_point_average_precision([1, 0, 1], n_relevant=4) == pytest.approx(
        (3 * 1.0 + 3 * 2 / 3) / 11
    )
    assert eleven_point_average_precision([0, 0]) == 0.0


def test_plots_draw_the_interpolated_curve_by_recall():
    labels = [1, 0, 1, 0, 0, 0, 0, 0]  # article 003, query B
    ax = plot_pr_curve(labels, n_relevant=3)
    drawn = ax.get_lines()[1]
    assert drawn.get_label() == "interpolated precision"
    # the first point repeats rank 1's value at recall 0
    assert np.round(drawn.get_ydata(), 4).tolist() == [1.0, 1.0, 1.0] + [0.6667] * 6
    figure = BoardFigure()
    figure.update(labels, n_relevant=3, k=4, interpolated=True)
    x, y = figure.interpolated.get_data()
    assert np.round(x, 4).tolist() == [0.0, 0.3333, 0.3333, 0.6667, 0.6667]
    assert np.round(y, 4).tolist() == [1.0, 1.0, 1.0, 0.6667, 0.6667]


def test_plot_pr_curve_and_ap_bars_draw():
    ax = plot_pr_curve([1, 0, 1], n_relevant=3, interpolated=False)
    assert ax.get_legend_handles_labels()[1] == [
        "precision after each rank",
        "AP = 0.5556 (shaded area)",
    ]
    with pytest.raises(ValueError, match=r"same, non-zero length; got 2 APs and 1 names"):
        plot_ap_bars([0.5, 0.2], ["A"])
    with pytest.raises(ValueError, match=r"aps\[1\] is 1.5; an AP lies in \[0, 1\]"):
        plot_ap_bars([0.5, 1.5], ["A", "B"])


def test_board_figure_shows_the_state():
    figure = BoardFigure()
    figure.update([1, 0, 1, 1], n_relevant=4, k=2, interpolated=True)
    heights = [path.vertices[1, 1] for path in figure.bars.get_paths()]
    assert heights == pytest.approx([1.0, 0.5, 2 / 3, 0.75])
    assert figure.cutoff.get_xdata()[0] == 2.5
    assert figure.interpolated.get_visible()
    assert polygon_area(figure.area.get_xy()) == pytest.approx(
        average_precision([1, 0, 1, 1], n_relevant=4, k=2)
    )
    figure.update([0, 0, 0], n_relevant=0)  # a list with nothing relevant still draws
    assert figure.cutoff.get_xdata()[0] != figure.cutoff.get_xdata()[0]  # NaN: no cutoff


@given(
    st.lists(
        st.lists(st.integers(0, 1), min_size=8, max_size=8).filter(any), min_size=1, max_size=5
    )
)
def test_mean_interpolated_precision_interpolates_by_recall_as_iir(rows):
    relevance = np.array(rows)
    scores = np.tile(np.arange(8.0, 0.0, -1.0), (len(rows), 1))  # columns already ranked
    curve = mean_interpolated_precision(scores, relevance)
    expected = np.mean([eleven_point_precisions(row) for row in rows], axis=0)
    assert curve.to_numpy() == pytest.approx(expected, abs=1e-12)


def test_mean_interpolated_precision_with_no_relevant_row_says_why():
    with pytest.raises(ValueError, match="none of the 2 rows has a relevant candidate"):
        mean_interpolated_precision(np.ones((2, 3)), np.zeros((2, 3), int))


@given(
    st.lists(st.integers(0, 1), max_size=30),
    st.integers(0, 6),
    st.sampled_from(["trec_eval_9", "trec_eval_10"]),
)
def test_precisions_at_the_eleven_levels_are_the_eleven_points(labels, extra, convention):
    r = sum(labels) + extra
    at_levels = precisions_at_levels(labels, ELEVEN_LEVELS, n_relevant=r, convention=convention)
    points = eleven_point_precisions(labels, n_relevant=r, convention=convention)
    assert at_levels.tolist() == points.tolist()
    assert (
        hits_at_levels(ELEVEN_LEVELS, r, convention=convention).tolist()
        == hits_needed(r, convention=convention).tolist()
    )


def test_hits_at_levels_by_hand():
    # C's lround rounds halves up; (long)(x + 0.9) truncates; iir takes the ceiling
    assert hits_at_levels([0.25, 0.5, 0.75], 2).tolist() == [1, 1, 2]  # 0.5, 1.0, 1.5
    assert hits_at_levels(0.7, 3, convention="trec_eval_9").tolist() == 2  # 2.9999999999999996
    assert hits_at_levels([0.25, 0.5], 3, convention="iir").tolist() == [1, 2]
