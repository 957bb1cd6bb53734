"""The ranking board's kernel side: every action updates the model and the readout; the
static fallback shows the state as it stands."""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from mapteach import average_precision, get_example, mean_average_precision, trace_ap
from mapteach.board.board_plots import BoardFigure
from mapteach.board.list_widget import PRESETS, RankingError, RankingList
from mapteach.board.ranking_board import MultiQueryBoard, RankingBoard
from mapteach.board.view_texts import list_texts
from tests.budget import examples


def shown_ap(ranking: RankingList) -> float:
    return average_precision(ranking.labels, n_relevant=ranking.n_relevant, k=ranking.cutoff)


def test_reorder_toggle_r_and_k_update_the_readout():
    board = RankingBoard(example="003_a")
    ranking = board.ranking
    assert ranking.ap == get_example("003_a").ap
    ranking.move("d4", 1)
    assert ranking.labels == [1, 1, 0, 1, 0, 0, 0, 0]
    assert ranking.ap == shown_ap(ranking) == pytest.approx((1 + 1 + 3 / 4) / 3)
    ranking.toggle("d2")
    assert ranking.labels[2] == 1
    assert ranking.ap == shown_ap(ranking)
    ranking.n_unretrieved = 2
    assert ranking.n_relevant == 6
    assert ranking.ap == shown_ap(ranking)
    ranking.k = 2
    assert ranking.ap_label == "AP@2"
    assert ranking.ap == shown_ap(ranking) == pytest.approx(2 / 6)
    assert "AP@2 = (1/1 + 2/2) / 6 = 0.3333" in board.static_html()


def test_the_static_trace_table_follows_the_list():
    board = RankingBoard([0, 1, 0])
    assert board.static_html().count('data-contributes="true"') == 1
    board.ranking.move("d2", 1)
    assert board.static_html().count('data-contributes="true"') == 1
    assert "AP = (1/1) / 1 = 1.0000" in board.static_html()


def observers(ranking: RankingList) -> dict[str, int]:
    """How many observers watch each trait of ``ranking``."""
    notifiers = ranking._trait_notifiers.items()
    return {name: sum(map(len, kinds.values())) for name, kinds in notifiers}


def test_the_board_is_its_list_in_the_board_view():
    board = RankingBoard(example="003_a")
    assert board.ranking.view == "board"
    assert RankingList([1]).view == "list"
    assert not hasattr(board, "plot") and not hasattr(board, "trace")
    # nothing in the kernel redraws or traces on a drag: the board adds no observer to its list
    assert observers(board.ranking) == observers(RankingList([1]))
    with pytest.raises(RankingError, match=r"view must be 'list' or 'board'; got 'plot'"):
        board.ranking.view = "plot"


def test_every_preset_loads_with_its_ap():
    ranking = RankingList([1])
    for name, _ in PRESETS:
        ranking.preset = name
        example = get_example(name)
        assert ranking.labels == list(example.labels)
        assert ranking.n_relevant == example.n_relevant
        assert ranking.ap == example.ap


def test_presets_are_read_only():
    with pytest.raises(TypeError):
        PRESETS[0] = ("mine", "my own example")
    with pytest.raises(TypeError):
        PRESETS[0][1] = "renamed"
    with pytest.raises(AttributeError):
        PRESETS.append(("mine", "my own example"))
    menu = RankingList([1]).presets
    menu[1][1] = "renamed"  # one board's menu is its own copy
    assert RankingList([1]).presets[1:] == [list(preset) for preset in PRESETS]


def test_preset_load_resets_the_cutoff():
    ranking = RankingList.from_example("003_a")
    ranking.k = 3
    ranking.preset = "001_legal_late"  # no relevant result in its top 3
    assert ranking.cutoff is None
    assert round(ranking.ap, 4) == 0.2815


def test_an_edited_preset_says_so_and_the_menu_shows_custom():
    ranking = RankingBoard(example="003_a").ranking
    title = "Article 003 · Query A: relevant near the top"
    assert (ranking.heading, ranking.preset, ranking.edited) == (title, "003_a", False)
    ranking.move("d4", 1)
    assert (ranking.heading, ranking.preset, ranking.edited) == (f"{title} (edited)", "", True)
    assert ranking.query_name == title  # the hook data-query keeps the plain title
    ranking.move("d4", 4)  # dragged back: the list is the preset again
    assert (ranking.heading, ranking.preset) == (title, "003_a")
    ranking.n_unretrieved = 1  # R is part of the query
    assert (ranking.heading, ranking.preset) == (f"{title} (edited)", "")
    ranking.n_unretrieved = 0
    ranking.k, ranking.interpolated = 3, True  # settings, not edits
    assert (ranking.heading, ranking.preset) == (title, "003_a")


def test_a_list_not_from_a_preset_is_never_marked_edited():
    ranking = RankingList([1, 0, 1], query_name="Drag the results, then Check", compact=True)
    ranking.move("d3", 1)
    assert (ranking.heading, ranking.preset) == ("Drag the results, then Check", "")


def test_choosing_custom_in_the_menu_shows_the_preset_again_while_unedited():
    ranking = RankingList.from_example("003_b")
    ranking.set_state({"preset": ""})  # as the browser's menu sends it
    assert ranking.preset == "003_b"


def edit_everything(ranking: RankingList) -> None:
    ranking.move("d1", len(ranking.items))
    ranking.toggle("d2")
    ranking.n_unretrieved += 2
    ranking.k = 3
    ranking.interpolated = not ranking.interpolated


def snapshot(board: RankingBoard) -> tuple:
    r = board.ranking
    return (r.items, r.n_unretrieved, r.k, r.interpolated, r.ap, r.ap_label, r.heading, r.preset)


def test_reset_restores_the_preset_chosen_last():
    board = RankingBoard(example="003_a")
    board.ranking.interpolated = True  # as it was when the preset was chosen: restored so
    board.ranking.preset = "001_legal"
    chosen = snapshot(board)
    edit_everything(board.ranking)
    assert snapshot(board) != chosen
    board.ranking.reset_request += 1  # as the Reset button does
    assert snapshot(board) == chosen
    assert board.ranking.ap == get_example("001_legal").ap


def test_reset_restores_a_list_as_created():
    board = RankingBoard([1, 0, 1, 0], n_relevant=3, k=2)
    created = snapshot(board)
    edit_everything(board.ranking)
    board.ranking.reset()
    assert snapshot(board) == created
    assert board.ranking.labels == [1, 0, 1, 0]
    assert (board.ranking.n_relevant, board.ranking.cutoff) == (3, 2)


def test_choosing_the_same_preset_again_resets_to_it():
    board = RankingBoard(example="003_c")
    chosen = snapshot(board)
    board.ranking.move("d8", 1)
    board.ranking.toggle("d1")
    assert board.ranking.preset == ""
    board.ranking.set_state({"preset": "003_c"})  # as the browser's menu sends it
    assert snapshot(board) == chosen


def shown_in_legend(figure: BoardFigure) -> list[str]:
    """The legend's entries, each with its handle."""
    handles, texts = figure.legend.legend_handles, figure.legend.get_texts()
    assert len(handles) == len(texts) and None not in handles
    return [text.get_text() for text in texts]


def test_the_still_pictures_legend_lists_only_what_is_drawn():
    labels = get_example("003_a").labels
    figure = BoardFigure()
    plain = ["precision after each rank", "shaded area = AP"]
    figure.update(labels, n_relevant=3)
    assert shown_in_legend(figure) == plain
    assert not figure.interpolated.get_visible()
    figure.update(labels, n_relevant=3, k=3)
    assert shown_in_legend(figure) == [*plain, "cutoff k"]
    figure.update(labels, n_relevant=3, k=3, interpolated=True)
    assert shown_in_legend(figure) == [plain[0], "interpolated", plain[1], "cutoff k"]
    figure.update(labels, n_relevant=3, k=9, interpolated=True)  # past the last of 8 ranks
    assert shown_in_legend(figure) == [plain[0], "interpolated", plain[1]]
    figure.update(labels, n_relevant=3)
    assert shown_in_legend(figure) == plain


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_refused_count_has_its_message(lang):
    """The browser names a refused count's message by its trait (``k_rejected``)."""
    texts = list_texts(lang)
    for trait in ("k", "n_unretrieved"):
        assert "{value}" in texts[f"{trait}_rejected"]
        assert (
            texts[f"{trait}_rejected"]
            != list_texts("en" if lang == "zh" else "zh")[f"{trait}_rejected"]
        )


def test_article_000_document_names():
    assert [item["doc"] for item in RankingList.from_example("000_five_docs").items] == [
        "doc2",
        "doc5",
        "doc3",
        "doc1",
        "doc4",
    ]


@pytest.mark.parametrize(
    ("change", "error", "fragment"),
    [
        (
            lambda r: setattr(r, "items", [*r.items, dict(r.items[0])]),
            ValueError,
            r"items\[3\] has doc 'd1', which items\[0\] already has",
        ),
        (
            lambda r: setattr(r, "items", [{"doc": "d1", "title": "x"}]),
            ValueError,
            r"items\[0\] must be a dict with keys 'doc', 'title' and 'relevant'",
        ),
        (
            lambda r: setattr(r, "items", [{"doc": "", "title": "x", "relevant": True}]),
            ValueError,
            r"items\[0\]\['doc'\] must be a non-empty string",
        ),
        (
            lambda r: setattr(r, "items", [{"doc": "a", "title": "x", "relevant": 1}]),
            ValueError,
            r"items\[0\]\['relevant'\] must be True or False; got 1",
        ),
        (lambda r: setattr(r, "n_unretrieved", -1), ValueError, r"n_unretrieved .* must be >= 0"),
        (lambda r: setattr(r, "k", -3), ValueError, r"k is the cutoff \(0 for none\) .* got -3"),
        (lambda r: r.move("d1", 4), ValueError, r"to_rank must be between 1 and 3 .* got 4"),
        (lambda r: r.move("d1", 0), ValueError, r"to_rank must be between 1 and 3"),
        (lambda r: r.move("d1", 1.5), TypeError, r"to_rank must be an integer rank"),
        (lambda r: r.move("d9", 1), ValueError, r"no result with doc 'd9'; the list holds 'd1'"),
        (lambda r: r.toggle("zz"), ValueError, r"no result with doc 'zz'"),
        (
            lambda r: r.load("003_abc"),
            ValueError,
            r"has several queries; show it with MultiQueryBoard",
        ),
        (lambda r: r.load("nope"), ValueError, r"no worked example named 'nope'"),
    ],
)
def test_invalid_changes_are_rejected_and_leave_the_state_unchanged(change, error, fragment):
    board = RankingBoard([1, 0, 1])
    ranking = board.ranking
    before = (snapshot(board), board.static_html())
    with pytest.raises(error, match=fragment):
        change(ranking)
    assert (snapshot(board), board.static_html()) == before


@pytest.mark.parametrize(
    ("message", "fragment"),
    [
        ({"k": -1}, r"k is the cutoff \(0 for none\) and must be >= 0; got -1"),
        ({"n_unretrieved": -2}, r"n_unretrieved .* must be >= 0; got -2"),
        ({"k": 2, "n_unretrieved": -1}, r"n_unretrieved .* got -1"),  # k is rolled back too
        ({"items": [{"doc": "d1", "title": "x"}]}, r"items\[0\] must be a dict with keys"),
        (
            {"items": [{"doc": "d1", "title": "x", "relevant": True}] * 2},
            r"items\[1\] has doc 'd1', which items\[0\] already has",
        ),
        ({"items": [{"doc": "d1", "title": "x", "relevant": 1}]}, r"must be True or False"),
        ({"preset": "003_abc"}, r"preset '003_abc' is not a single-query worked example"),
    ],
)
def test_a_rejected_message_from_the_browser_leaves_the_board_unchanged(message, fragment):
    board = RankingBoard(example="003_a")
    board.ranking.move("d4", 1)
    seen = []
    board.ranking.observe(seen.append, names=["items", "n_unretrieved", "k", "preset", "ap"])
    before = snapshot(board)
    with pytest.raises(RankingError, match=fragment) as caught:
        board.ranking.set_state(message)
    assert isinstance(caught.value, ValueError)
    assert snapshot(board) == before
    assert seen == []  # no observer saw the bad value
    board.ranking.move("d1", 1)  # the board still works
    assert board.ranking.ap == shown_ap(board.ranking)


def test_constructor_validates_its_arguments():
    with pytest.raises(ValueError, match=r"labels\[1\] \(rank 2\) is 2"):
        RankingBoard([1, 2])
    with pytest.raises(ValueError, match=r"one entry per result; got 2 labels, 1 titles"):
        RankingList([1, 0], titles=["only one"])
    with pytest.raises(ValueError, match=r"n_relevant=1 is smaller than the 2 relevant"):
        RankingList([1, 1], n_relevant=1)
    with pytest.raises(ValueError, match=r"is a single query; show it with RankingBoard"):
        MultiQueryBoard("003_a")


def test_multi_query_board_shows_the_queries_titles():
    board = MultiQueryBoard("003_abc")
    titles = [query.title for query in get_example("003_abc").queries]
    assert titles[0] == "Query A: relevant near the top"
    assert [ranking.query_name for ranking in board.rankings] == titles
    assert [ranking.heading for ranking in board.rankings] == titles
    assert board.bar_labels == ["Query A", "Query B", "Query C"]
    assert "<li>Query B: one of the 3 relevant items never retrieved — [1, 0, 1" in (
        board.static_html()
    )
    other = MultiQueryBoard("000_two_queries")
    assert other.bar_labels == ["Five documents", "A second query with AP 0.75…"]


def test_multi_query_board_keeps_map_equal_to_the_mean():
    board = MultiQueryBoard("003_abc")
    assert round(board.map_value, 4) == 0.5602
    board.rankings[1].n_unretrieved = 0
    board.rankings[0].toggle("d2")
    expected = mean_average_precision(
        [r.labels for r in board.rankings], n_relevant=[r.n_relevant for r in board.rankings]
    )
    assert board.map_value == expected
    assert board.aps == [shown_ap(r) for r in board.rankings]


def test_static_fallback_for_viewers_without_a_kernel():
    board = RankingBoard(example="003_b")
    bundle, _ = board._repr_mimebundle_()
    view = bundle["application/vnd.jupyter.widget-view+json"]
    assert view["model_id"] == board.ranking.model_id  # the board is its list, shown
    html = bundle["text/html"]
    assert html.startswith('<div class="mapteach-offline" data-module="ranking_list"')
    assert html.count("data:image/png;base64,") == 1
    assert 'data-testid="trace-table"' in html
    assert "AP = (1/1 + 2/3) / 3 = 0.5556" in html
    assert bundle["text/plain"] == repr(board)
    multi, _ = MultiQueryBoard("003_abc")._repr_mimebundle_()
    assert multi["text/html"].startswith('<div class="mapteach-offline" data-module="map_board"')
    assert "MAP = 0.5602" in multi["text/html"]


def test_static_picture_matches_the_state_shown():
    board = RankingBoard([1, 0, 1])
    before = board.static_html()
    board.ranking.move("d3", 1)
    assert board.static_html() != before
    assert trace_ap([1, 1, 0]).attrs["ap"] == board.ranking.ap


class BoardEvents(RuleBasedStateMachine):
    """Random sequences of drags, toggles, R and k changes and presets."""

    def __init__(self) -> None:
        super().__init__()
        self.board = RankingBoard(example="003_a")
        self.ranking = self.board.ranking

    @precondition(lambda self: self.ranking.items)
    @rule(data=st.data())
    def drag(self, data):
        docs = [item["doc"] for item in self.ranking.items]
        doc = data.draw(st.sampled_from(docs))
        self.ranking.move(doc, data.draw(st.integers(1, len(docs))))

    @precondition(lambda self: self.ranking.items)
    @rule(data=st.data())
    def toggle(self, data):
        self.ranking.toggle(data.draw(st.sampled_from([i["doc"] for i in self.ranking.items])))

    @rule(missed=st.integers(0, 5))
    def set_missed(self, missed):
        self.ranking.n_unretrieved = missed

    @rule(k=st.integers(0, 12))
    def set_cutoff(self, k):
        self.ranking.k = k

    @rule(name=st.sampled_from([name for name, _ in PRESETS]))
    def load_preset(self, name):
        self.ranking.preset = name

    @rule()
    def reset(self):
        self.ranking.reset_request += 1
        assert not self.ranking.edited

    @rule(bad_rank=st.sampled_from([0, -1, 99]))
    def rejected_move(self, bad_rank):
        before = list(self.ranking.items)
        with pytest.raises(ValueError):
            self.ranking.move(self.ranking.items[0]["doc"], bad_rank)
        assert self.ranking.items == before

    @invariant()
    def readout_equals_recomputed_ap(self):
        assert self.ranking.ap == shown_ap(self.ranking)
        assert self.ranking.ap_label == (
            "AP" if self.ranking.cutoff is None else f"AP@{self.ranking.k}"
        )

    @invariant()
    def menu_and_heading_tell_an_edit(self):
        r = self.ranking
        assert r.heading == (f"{r.query_name} (edited)" if r.edited else r.query_name)
        assert (r.preset == "") == r.edited


TestBoardEvents = BoardEvents.TestCase
TestBoardEvents.settings = settings(
    max_examples=examples(40), stateful_step_count=25, deadline=None
)
