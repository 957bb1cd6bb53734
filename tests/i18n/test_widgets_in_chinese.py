"""Widgets speak their own language: ``lang=`` at construction, kept through every callback.

Every text a widget's browser view shows comes from its ``texts`` trait (filled from the
message catalogue), never from a literal in ``static/*.js``; the kernel-side texts (the
heading, verdicts, errors, static fallbacks) follow the widget's language too, whatever
the current language is when a change arrives.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mapteach.analysis.convention_widgets import ConventionSwitches
from mapteach.board.list_widget import RankingError, RankingList
from mapteach.board.ranking_board import MultiQueryBoard, RankingBoard
from mapteach.exercises import ArrangeExercise, ChoiceExercise
from mapteach.exercises.factories_ap import ap_exercise, map_exercise, precision_exercise
from mapteach.explain.trace_display import show_trace, trace_html
from mapteach.i18n import get_language, language, tr, widget_language
from mapteach.judging.judging_board import GradeError, JudgingBoard

PACKAGE = Path(__file__).resolve().parents[2] / "mapteach"
HAN = re.compile(r"[\u4e00-\u9fff]")
CJK_PUNCTUATION = re.compile(r"[\u3000-\u303f\uff00-\uffef]")


def chinese(text: str) -> bool:
    return bool(HAN.search(text))


def english(texts: dict[str, str]) -> dict[str, str]:
    """The texts, less the HTML language code, all without a Chinese character."""
    shown = {key: value for key, value in texts.items() if key != "lang"}
    assert not any(chinese(value) for value in shown.values()), shown
    return shown


#: A word of English: two letters or more, other than a measure's name (AP, MAP, P@k),
#: which both editions write alike; placeholders are removed first.
ENGLISH_WORD = re.compile(r"\b(?!(?:AP|MAP)\b)[A-Za-z]{2,}\b")
PLACEHOLDER = re.compile(r"\{\w+\}")
#: ASCII punctuation right after a Han character, where Chinese writes ，；：
ASCII_AFTER_HAN = re.compile(r"[\u4e00-\u9fff][,;:]")


def reads_as_chinese(text: str) -> bool:
    """A Han character, or Chinese punctuation and no English word (the list separator
    ``、``, ``{name}：AP = {value}``); and no ASCII comma, semicolon or colon after a Han
    character ("（召回率, 精确率）" is "（召回率，精确率）")."""
    if ASCII_AFTER_HAN.search(text):
        return False
    bare = PLACEHOLDER.sub("", text)
    return chinese(text) or bool(CJK_PUNCTUATION.search(bare) and not ENGLISH_WORD.search(bare))


def all_chinese(texts: dict[str, str]) -> None:
    """Every text but the language code reads as Chinese (:func:`reads_as_chinese`)."""
    shown = {key: value for key, value in texts.items() if key != "lang"}
    assert shown and all(map(reads_as_chinese, shown.values())), {
        key: value for key, value in shown.items() if not reads_as_chinese(value)
    }
    assert texts["lang"] == "zh-Hans"


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("、", True),
        ("{name}：AP = {value}", True),
        ("面板上的标签：{labels}", True),
        ("Moved {title} to rank {rank}。", False),
        ("Rank {rank}：{title}, relevant", False),
        ("{name}: AP = {value}", False),
        ("逐个排名的点（召回率, 精确率）", False),
        ("逐个排名的点（召回率，精确率）", True),
    ],
)
def test_what_reads_as_chinese(text, verdict):
    assert reads_as_chinese(text) is verdict


# ------------------------------------------------------------------ the texts sent to JS


def test_a_chinese_widget_under_an_english_session():
    assert get_language() == "en"
    ranking = RankingList.from_example("003_b", lang="zh")
    all_chinese(ranking.texts)
    assert ranking.texts["reset_done"] == tr("Reset to the example's ranking.", lang="zh")
    assert ranking.texts["moved"].count("{title}") == 1  # the view fills the placeholders
    assert ranking.presets[0] == ["", tr("— custom ranking —", lang="zh")]
    all_chinese(ap_exercise([0, 1], lang="zh").texts)
    all_chinese(JudgingBoard(lang="zh").widget.texts)
    assert get_language() == "en"


def test_an_english_widget_under_a_chinese_session():
    with language("zh"):
        ranking = RankingList([1, 0, 1], lang="en")
        exercise = ap_exercise([0, 1], lang="en")
        board = JudgingBoard(lang="en")
        default = RankingList([1, 0, 1])  # no lang: the language current at construction
    assert english(ranking.texts)["reset"] == "Reset"
    assert english(exercise.texts)["check"] == "Check"
    assert english(board.widget.texts)["next"] == "Next query"
    all_chinese(default.texts)
    assert default.lang == "zh" and ranking.lang == "en"


def test_the_same_widget_speaks_english_by_default():
    ranking = RankingList([1, 0, 1])
    assert ranking.lang == "en"
    assert ranking.texts["help"].startswith("Drag a result")
    assert ranking.items[0]["title"] == "doc 1"


def test_a_bad_language_is_refused_by_every_widget():
    for make in (
        lambda: RankingList([1], lang="fr"),
        lambda: RankingBoard([1], lang="fr"),
        lambda: MultiQueryBoard(lang="fr"),
        lambda: ap_exercise([1], lang="fr"),
        lambda: JudgingBoard(lang="fr"),
        lambda: ConventionSwitches({"q": {"a": 1}}, {"q": {"a": 1.0}}, lang="fr"),
        lambda: show_trace([1], lang="fr"),
    ):
        with pytest.raises(ValueError, match=r"lang must be one of 'en', 'zh'; got 'fr'"):
            make()
    with language("zh"), pytest.raises(ValueError) as caught:
        widget_language("fr")
    assert chinese(str(caught.value)) and "'fr'" in str(caught.value)


# ------------------------------------------------------------------ callbacks keep the language


def test_a_drag_from_the_browser_keeps_the_boards_language():
    board = RankingBoard(example="003_b", lang="zh")
    ranking = board.ranking
    title = ranking.query_name
    assert chinese(title) and "003" in title
    items = list(ranking.items)
    ranking.set_state({"items": [items[2], *items[:2], *items[3:]]})  # as a drag arrives
    assert ranking.heading == tr("{name} (edited)", lang="zh", name=title)
    assert ranking.heading != f"{title} (edited)"
    assert f">{tr('rank', lang='zh')}</th>" in board.static_html()
    with pytest.raises(RankingError) as caught:
        ranking.set_state({"k": -1})
    assert chinese(str(caught.value))
    ranking.reset_request += 1  # the Reset button: the example comes back, still in Chinese
    assert ranking.heading == title and ranking.query_name == title


def test_a_chinese_board_keeps_its_language_under_an_english_session_and_back():
    with language("zh"):
        board = RankingBoard([1, 0, 1])
    board.ranking.move("d3", 1)  # now in an English session
    assert f">{tr('rank', lang='zh')}</th>" in board.static_html()
    assert board.ranking.trace_texts["headers"]["rank"] == tr("rank", lang="zh")
    all_chinese(board.ranking.texts)
    with language("zh"):
        english_board = RankingBoard([1, 0, 1], lang="en")
        english_board.ranking.move("d3", 1)
    assert ">rank</th>" in english_board.static_html()
    assert not chinese(english_board.static_html())
    english(english_board.ranking.texts)


def test_a_multi_query_board_in_chinese():
    board = MultiQueryBoard("003_abc", lang="zh")
    assert all(ranking.lang == "zh" for ranking in board.rankings)
    all_chinese(board.texts)
    assert all(chinese(label) for label in board.bar_labels)
    board.rankings[0].toggle("d2")
    assert 'lang="zh-Hans"' in board.static_html()


def test_the_judging_board_keeps_its_language_through_changes():
    board = JudgingBoard(lang="zh")
    assert chinese(repr(board))
    grades = list(board.widget.grades)
    with pytest.raises(GradeError) as caught:
        board.widget.set_state({"grades": [9, *grades[1:]]})  # as the browser sends it
    assert chinese(str(caught.value))
    with pytest.raises(ValueError) as missing:
        board.set_grade("r99", 1)
    assert chinese(str(missing.value))
    board.widget.set_state({"position": 1})  # Next query, from the browser
    assert board.widget.position == 1 and chinese(repr(board))
    html = board._repr_mimebundle_()[0]["text/html"]
    assert html.startswith('<div lang="zh-Hans"><p>') and chinese(html.split("</p>")[0])


def test_an_exercises_verdict_follows_its_language():
    with language("zh"):
        choice = ChoiceExercise("?", {"a": "对。", "b": "不对。"}, correct="a", solution_html="")
    choice.check_request += 1  # no answer yet, checked in an English session
    assert choice.status == "empty"
    assert choice.feedback == tr("Choose one of the options.", lang="zh")
    arrange = ArrangeExercise("AP = 1", {"AP": 1.0}, 3, 1, lang="zh")
    assert arrange.board.lang == "zh" and chinese(arrange.board.query_name)
    arrange.check_request += 1
    assert arrange.status == "incorrect" and chinese(arrange.feedback)
    assert chinese(arrange.solution)
    number = ap_exercise([0, 1], lang="zh")
    assert chinese(number.prompt) and "<code>[0, 1]</code>" in number.prompt
    number.answer = "0.5"
    number.check_request += 1
    assert number.status == "correct"


# ------------------------------------------------------------------ static fallbacks


def test_an_exercises_static_fallback_in_chinese():
    exercise = ap_exercise([0, 1], lang="zh")
    html = exercise._repr_mimebundle_()[0]["text/html"]
    static = html.split('<div class="mapteach-offline-static">', 1)[1]  # beside the live state
    assert static.startswith('<div class="mapteach-exercise-static" lang="zh-Hans">')
    assert (
        f"<p><b>{tr('Exercise.', lang='zh')}</b>{exercise.prompt}</p>" in html
    )  # no space after ：
    assert f"<details><summary>{tr('Show solution', lang='zh')}</summary>" in html
    assert "<code>exercise.submit(你的答案)</code>" in html  # code stays code
    assert tr("Show solution", lang="zh") != "Show solution"
    assert chinese(repr(exercise))
    english_html = ap_exercise([0, 1])._repr_mimebundle_()[0]["text/html"]
    assert "<details><summary>Show solution</summary>" in english_html


def test_every_exercise_factory_speaks_chinese():
    for exercise in (
        ap_exercise([0, 1, 1], k=2, lang="zh"),
        precision_exercise([1, 0, 1], 2, lang="zh"),
        precision_exercise([1, 0, 1], 2, n_relevant=4, lang="zh"),
        map_exercise([[1, 0], [0, 1]], lang="zh"),
    ):
        assert chinese(exercise.prompt) and chinese(exercise.solution)
        assert exercise.lang == "zh"
        assert chinese(exercise.placeholder) or exercise.placeholder == tr(
            "{n} decimals or a fraction such as 2/3", lang="zh", n=4
        )


def test_trace_tables_and_switches_in_chinese():
    view = show_trace([1, 0, 1], k=2, lang="zh")
    html = view._repr_html_()
    assert f">{tr('rank', lang='zh')}</th>" in html
    assert tr("R = {r}, cutoff k = {k}", lang="zh", r=2, k=2) in html
    assert ">rank</th>" in trace_html(view.table)  # the current language: English
    switches = ConventionSwitches({"q": {"a": 1}}, {"q": {"a": 1.0, "b": 2.0}}, lang="zh")
    assert switches.controls["ties"].description == tr("ties", lang="zh")
    switches.controls["cutoff"].value = "3"  # a change in an English session
    assert chinese(switches.output.value)
    labels, values = zip(*switches.controls["ties"].options, strict=True)
    assert values == switches.OPTIONS["ties"]  # values stay ids
    assert all(chinese(label) for label in labels)  # what the learner reads is Chinese


# ------------------------------------------------------------------ no text left in JS


def _literals(source: str) -> list[str]:
    """The string literals of a JS module, comments removed."""
    source = re.sub(r"//[^\n]*", "", source)
    literals = re.findall(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'', source)
    templates = re.findall(r"`([^`]*)`", source)
    parts = [a or b for a, b in literals]
    for template in templates:
        parts += re.split(r"\$\{[^}]*\}", template)
    return parts


#: Where a message only a developer reads begins: an error being made (a programming
#: error, as ``throw new RangeError(...)``), or a line written to the browser's console.
DEVELOPER_CALL = re.compile(r"\bnew\s+\w*Error\(|\bconsole\.\w+\(")


def _string_end(source: str, start: int) -> int:
    """The index just past the string or template literal opening at ``start``."""
    at = start + 1
    while source[at] != source[start]:
        at += 2 if source[at] == "\\" else 1
    return at + 1


def _call_end(source: str, start: int) -> int:
    """The index of the ``)`` closing the arguments that begin at ``start``."""
    depth, at = 1, start
    while depth:
        if at >= len(source):
            raise ValueError(f"no ')' closes the call at {source[start - 20 : start]!r}")
        if source[at] in "\"'`":
            at = _string_end(source, at)
            continue
        depth += {"(": 1, ")": -1}.get(source[at], 0)
        at += 1
    return at - 1


def _without_developer_messages(source: str) -> str:
    """``source`` less the arguments of every ``new ...Error(...)`` and ``console.*(...)``
    (comments removed first): only those may stay English."""
    source = re.sub(r"//[^\n]*", "", source)
    kept, end = [], 0
    for call in DEVELOPER_CALL.finditer(source):
        if call.start() < end:
            continue  # inside the arguments already left out
        kept.append(source[end : call.end()])
        end = _call_end(source, call.end())
    return "".join(kept) + source[end:]


#: Markup and style, not prose: an HTML tag or attribute being written, or CSS declarations
#: (the boards write the trace table's HTML as mapteach.explain.trace_html does).
MARKUP = re.compile(r'<|="|^\s*([\w-]+:[^;]+;\s*)+$')


def _prose(source: str) -> list[str]:
    """The English sentences and capitalised words a learner could see in a JS module."""
    code = re.compile(r"^(change:\w+|mt-[\w-]+|mapteach-[\w-]+)$")
    keys = {"Enter", "Home", "End"}  # KeyboardEvent.key values, not text
    return [
        text
        for text in _literals(_without_developer_messages(source))
        if (
            not MARKUP.search(text)
            and (
                len([word for word in text.split() if re.search(r"[A-Za-z]{2,}", word)]) >= 2
                and not all(code.match(word) for word in text.split())
            )
        )
        or (re.fullmatch(r"[A-Z][a-z]+\.?", text.strip()) and text.strip() not in keys)
    ]


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*/static/*.js")), ids=lambda p: p.name)
def test_no_prose_is_left_in_the_javascript(path):
    assert _prose(path.read_text(encoding="utf-8")) == []


def test_only_a_developers_message_may_stay_english():
    source = """
    // a comment's apostrophe, and "prose in a comment"
    if (k < 1) throw new RangeError(`k must be an integer >= 1; got ${f(k)} (see "x")`);
    console.error("mapteach: a widget could not run here:", error, g("still the console"));
    line.textContent = texts.widget_failed ?? "This widget could not run here.";
    report(new Error("no state in this widget's fallback"), "Shown to the learner now");
    const ok = new TypeError(x), label = `Saved for ${name} in this browser`;
    button.title = "Reset";
    """
    assert _prose(source) == [
        "This widget could not run here.",
        "Shown to the learner now",
        "Reset",
        "Saved for ",  # a template's parts come after the plain literals
        " in this browser",
    ]
