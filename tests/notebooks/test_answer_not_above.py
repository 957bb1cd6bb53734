"""No answer above its exercise: nothing shown before a numeric exercise gives its answer away.

For every keyed numeric exercise of both editions, the exercise's truth comes from
running the notebook's code (``exercise_runs``); the cells between the last markdown
heading and the exercise's cell are read as they are committed: markdown text, and
each code cell's outputs as the notebook shows them (HTML with its tags stripped, else
Markdown, else plain text; streams). None may show the truth at the exercise's
precision: written with ``decimals`` digits (``0.3250``), with more digits that round
to it (``0.325000``), with fewer where they are exact (``0.325``), or as a fraction
with a small denominator (``13/40``). Folded content (``<details>``, as an
exercise's solution) and MathML annotations are not on screen and are skipped. A
whole-number answer (a pool size) is not searched: every rank and count would match.
An exercise about what is on screen says so (``about_shown=True``) and is skipped.

A keyed choice exercise's reply-defining fact is its correct option's text: where it is
a phrase of at least three words (a name such as ``P@1`` or ``Yes`` is printed
everywhere), no cell since the last heading, markdown or output, may show it whole, in
the edition's language.

The outputs read are the committed ones: re-execute the notebooks before the final
run, or the test judges stale outputs.
"""

from __future__ import annotations

import ast
import builtins
import html
import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from mapteach.i18n import tr
from tests.notebooks.exercise_runs import NO_LEARNER, run_exercises

pytestmark = pytest.mark.slow  # runs every notebook's code: not in make test-fast
ROOT = Path(__file__).parents[2]
NOTEBOOKS = sorted(path.name for path in (ROOT / "notebooks").glob("*.ipynb"))
EDITIONS = {"en": ROOT / "notebooks", "zh": ROOT / "notebooks" / "zh"}
HEADING = re.compile(r"^#{1,6} ", re.MULTILINE)
HIDDEN = re.compile(r"<(details|annotation|style|script)\b.*?</\1>", re.DOTALL | re.IGNORECASE)
NUMBER = re.compile(r"(?<![\w.])\d+\.\d+(?![\w])")
FRACTION = re.compile(r"(?<![\w./])(\d+)\s*/\s*(\d+)(?![\w./])")
#: The largest denominator of a fraction read as an answer.
SMALL_DENOMINATOR = 200
#: The fewest words of a correct option that make it a fact, not a name any output prints.
DISTINCTIVE_WORDS = 3


def shown_text(cell: dict[str, Any]) -> str:
    """What a cell shows a learner: its markdown, or its outputs in their richest form."""
    if cell["cell_type"] == "markdown":
        return "".join(cell["source"])
    shown = []
    for output in cell.get("outputs", []):
        if "text" in output:
            shown.append("".join(output["text"]))
        data = output.get("data", {})
        for kind in ("text/html", "text/markdown", "text/plain"):
            if kind in data:
                shown.append("".join(data[kind]))
                break
    return "\n".join(shown)


def visible(text: str) -> str:
    """``text`` without folded or hidden elements and without tags, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", " ", HIDDEN.sub(" ", text)))


def shows_answer(text: str, truth: float, decimals: int, fractions: bool = True) -> str | None:
    """The first number in ``text`` that gives away ``truth`` at ``decimals``, or None.

    With ``fractions`` false a fraction is not read as an answer (prose writes "a
    fraction such as 1/2" to show how to type one).
    """
    target = f"{truth:.{decimals}f}"
    for written in NUMBER.findall(text):
        digits = len(written.split(".")[1])
        if digits >= decimals and f"{float(written):.{decimals}f}" == target:
            return written
        if digits < decimals and float(written) == float(target):
            return written
    exact = Fraction(truth).limit_denominator(SMALL_DENOMINATOR)
    if fractions and exact.denominator > 1 and abs(float(exact) - truth) < 1e-12:
        for top, bottom in FRACTION.findall(text):
            if int(bottom) and Fraction(int(top), int(bottom)) == exact:
                return f"{top}/{bottom}"
    return None


def _names(source: str) -> tuple[set[str], set[str], set[str]]:
    """The names a cell's code reads, binds, and binds by importing."""
    code = "\n".join(
        line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))
    )
    read, bound, imported = set(), set(), set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            imported.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return read, bound, imported


def above(cells: list[dict[str, Any]], index: int) -> list[int]:
    """The cells a learner reads before cell ``index`` as part of its exercise.

    Those since the last markdown heading, and every earlier code cell that works on
    the exercise's data: for each name the exercise's cell reads and does not bind
    itself (an import is not data), the cell that last bound it before the exercise
    and the cells after that one that read it.
    """
    start = index - 1
    while start > 0 and not (
        cells[start]["cell_type"] == "markdown" and HEADING.search("".join(cells[start]["source"]))
    ):
        start -= 1
    names = [
        _names("".join(cell["source"])) if cell["cell_type"] == "code" else (set(), set(), set())
        for cell in cells[: index + 1]
    ]
    imported = set().union(*(found[2] for found in names)) | set(dir(builtins))
    read, bound, _ = names[index]
    related = set()
    for name in read - bound - imported:
        binding = max((i for i in range(index) if name in names[i][1]), default=None)
        if binding is not None:
            related |= {binding} | {i for i in range(binding, index) if name in names[i][0]}
    return sorted(related - set(range(start, index))) + list(range(max(start, 0), index))


@pytest.fixture(scope="module")
def keyed(tmp_path_factory) -> Any:
    """Each notebook's keyed exercises of one kind (made once, for both editions)."""
    made: dict[str, list[dict[str, Any]]] = {}

    def exercises(name: str, kind: str) -> list[dict[str, Any]]:
        if name not in made:
            scratch = tmp_path_factory.mktemp(name.split("_")[0])
            (run,) = run_exercises(EDITIONS["en"] / name, [NO_LEARNER], scratch)
            made[name] = [item for item in run if item["key"]]
        return [item for item in made[name] if item["kind"] == kind]

    return exercises


def _words(text: str) -> str:
    return " ".join(visible(text).split()).casefold()


def shows_option(text: str, option: str) -> bool:
    """Whether ``text`` shows the whole of a distinctive option (tags and spacing aside)."""
    english_words = len(option.split())
    chinese = sum("\u4e00" <= char <= "\u9fff" for char in option)
    if english_words < DISTINCTIVE_WORDS and chinese < 2 * DISTINCTIVE_WORDS:
        return False
    return _words(option) in _words(text)


def choice_violations(
    cells: list[dict[str, Any]], exercise: dict[str, Any], lang: str
) -> list[str]:
    """Where the cells since the heading above a choice exercise show its correct option."""
    english = exercise["correct"]
    if len(english.split()) < DISTINCTIVE_WORDS:
        return []
    option = tr(english, lang=lang)
    start = next(
        i
        for i in range(exercise["cell"] - 1, -1, -1)
        if i == 0
        or (cells[i]["cell_type"] == "markdown" and HEADING.search("".join(cells[i]["source"])))
    )
    return [
        f"{exercise['key']}: cell {index} shows its correct option {option!r}"
        for index in range(start, exercise["cell"])
        if shows_option(shown_text(cells[index]), option)
    ]


def violations(cells: list[dict[str, Any]], exercise: dict[str, Any]) -> list[str]:
    """Where the cells above ``exercise`` (a harvested number exercise) show its answer."""
    found = []
    for index in above(cells, exercise["cell"]):
        cell = cells[index]
        shown = shows_answer(
            visible(shown_text(cell)),
            exercise["truth"],
            exercise["decimals"],
            fractions=cell["cell_type"] == "code",
        )
        if shown is not None:
            found.append(f"{exercise['key']}: cell {index} shows {shown}")
    return found


@pytest.mark.parametrize("edition", sorted(EDITIONS))
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_output_above_an_exercise_shows_its_answer(keyed, name, edition):
    cells = json.loads((EDITIONS[edition] / name).read_text(encoding="utf-8"))["cells"]
    english = json.loads((EDITIONS["en"] / name).read_text(encoding="utf-8"))["cells"]
    assert [c["cell_type"] for c in cells] == [c["cell_type"] for c in english], name
    found = []
    for exercise in keyed(name, "number"):
        if exercise["about_shown"] or float(exercise["truth"]).is_integer():
            continue
        found.extend(violations(cells, exercise))
    for exercise in keyed(name, "choice"):
        if not exercise["about_shown"]:
            found.extend(choice_violations(cells, exercise, edition))
    assert not found, f"{edition}/{name}: " + "; ".join(found)


@pytest.mark.parametrize(
    ("text", "truth", "decimals", "shown"),
    [
        ("AP = (1/4 + 2/5) / 2 = 0.3250", 0.325, 4, "0.3250"),
        ("B  0.325", 0.325, 4, "0.325"),
        ("0.441667", 0.44166666, 4, "0.441667"),
        ("AP is 13/40 here", 0.325, 4, "13/40"),
        ("0.3251 and 0.33 and 1/4 + 2/5", 0.325, 4, None),
        ("0.4417 at rank 10.5", 0.6, 4, None),
        ("P@3 = 2/3", 2 / 3, 4, "2/3"),
    ],
)
def test_the_answer_is_found_in_each_form_it_can_take(text, truth, decimals, shown):
    assert shows_answer(text, truth, decimals) == shown


def test_prose_showing_how_to_type_a_fraction_gives_nothing_away():
    assert shows_answer("Type a fraction such as 1/2.", 0.5, 4, fractions=False) is None


def test_an_earlier_section_counts_where_it_works_on_the_exercise_data():
    def code(source):
        return {"cell_type": "code", "source": [source], "outputs": []}

    cells = [
        code("from mapteach import get_example"),
        code("system_b = [0, 0, 0, 1, 1]"),
        code("system_b = get_example('000_system_b_5')"),
        code("show_trace(system_b.labels)"),
        code("other = [1, 0]"),
        {"cell_type": "markdown", "source": ["## Exercises"]},
        code("print(1)"),
        code("ap_exercise(system_b.labels, key='01.2')"),
    ]
    assert above(cells, 7) == [2, 3, 5, 6]


def test_folded_and_hidden_content_is_not_on_screen():
    text = visible(
        "<p>Exercise.</p><details><summary>Show solution</summary>0.3250</details>"
        '<math><mn>0.5</mn><annotation encoding="application/x-tex">0.3250</annotation></math>'
    )
    assert shows_answer(text, 0.325, 4) is None and "0.5" in text


def test_a_choice_gives_itself_away_only_with_its_whole_distinctive_option():
    def cell(kind, text):
        if kind == "markdown":
            return {"cell_type": "markdown", "source": [text]}
        return {"cell_type": "code", "source": [""], "outputs": [{"text": [text]}]}

    option = "It divides by the hits found, so missed relevant documents cost nothing"
    cells = [
        cell("markdown", "## Why the MAPs disagree"),
        cell("code", "It divides by the hits found,\nso missed relevant documents cost nothing."),
        cell("markdown", "It <b>divides by the hits found</b>, and more."),
        {"cell_type": "code", "source": ["ChoiceExercise(...)"], "outputs": []},
    ]
    exercise = {"key": "09.1", "correct": option, "cell": 3}
    assert choice_violations(cells, exercise, "en") == [
        f"09.1: cell 1 shows its correct option {option!r}"
    ]
    assert choice_violations(cells[2:], {**exercise, "cell": 1}, "en") == []
    assert choice_violations(cells, {**exercise, "correct": "P@1"}, "en") == []
    assert not shows_option("Query C is low", "Query C")  # a name, not a fact
