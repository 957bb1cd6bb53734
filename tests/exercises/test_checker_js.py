"""The browser's checker (``static/checker.js``) judges every exercise of both editions as
Python's ``check`` does: the same status, the same mistakes named, the same message.

Each notebook's code runs once in a fresh Python process (as the answer key runs it:
every code cell, in order, inside :func:`~mapteach.exercises.collect_exercises`, the
notebook's folder as the working directory); that process stays up as the *oracle*: it
hands over every exercise's answer table, then judges the answers it is sent with the
exercise's own ``check``. The same answers go through the checker in headless Chromium
(the module as the static site loads it, a classic script), in batches, and every
verdict must be the one Python gave: status, mistakes, message, and the message's HTML
(except where a learner's unreadable answer holds a ``$``: Python typesets what looks
like TeX in it, the browser shows it as typed). The value and decimals an answer is
read as must be Python's too, to the last bit.

Number exercises get hypothesis-generated answers: the truth and every mistake's value
written at 0 to 6 decimals (rounded, cut off, as a percentage, with a comma, as a
fraction, in scientific notation), dressed as people type them (full-width, labelled
``AP =``, with spaces or a Chinese full stop), Chinese fractions and numerals, junk,
empty, and long. A choice is given every option and junk; an arrangement every
arrangement of its list, and a few lists of the wrong size.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from decimal import ROUND_DOWN, Decimal
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mapteach.offline import as_classic, bundle_imports

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "mapteach" / "exercises" / "static" / "checker.js"
NOTEBOOKS = [
    *sorted((ROOT / "notebooks").glob("*.ipynb")),
    *sorted((ROOT / "notebooks" / "zh").glob("*.ipynb")),
]
#: Batches of answers per number exercise (each up to 40 answers): a quarter of the
#: hypothesis profile's examples.
BATCHES = max(5, settings().max_examples // 4)

#: The oracle: runs a notebook, prints its exercises' answer tables, then judges answers.
_ORACLE = r"""
import io, json, sys
from mapteach.exercises import collect_exercises, parse_answer
from mapteach.exercises.answer_table import answer_table
from mapteach.exercises.widgets import feedback_html

path, replies = sys.argv[1], sys.stdout
sys.stdout = io.StringIO()  # what the notebook prints stays out of the replies
namespace = {"__name__": "__main__"}
with collect_exercises() as made:
    for cell in json.load(open(path, encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), path, "exec"), namespace)


def reply(payload):
    replies.write(json.dumps(payload, ensure_ascii=False) + "\n")
    replies.flush()


def read(answer):
    try:
        value, given = parse_answer(answer)
    except ValueError as error:
        return {"unreadable": str(error)}
    return {"value": value, "given": given}


def judged(exercise, answer):
    feedback = exercise.check(answer)
    verdict = {"status": feedback.status, "message": feedback.message,
               "html": feedback_html(feedback.message), "mistakes": list(feedback.mistakes)}
    if exercise.kind == "number":
        verdict["read"] = read(answer)
    return verdict


reply([answer_table(exercise) for exercise in made])
for line in sys.stdin:
    index, answers = json.loads(line)
    reply([judged(made[index], answer) for answer in answers])
"""

#: Judges a batch of answers in the page, as the exercise's kind asks.
_JUDGE = """([table, answers]) => {
  const checker = window.mapteachModules.checker;
  const check = { number: checker.checkNumber, choice: checker.checkChoice,
                  arrange: checker.checkArrange }[table.kind];
  return answers.map((answer) => {
    const verdict = check(table, answer);
    if (table.kind === "number") {
      const read = checker.parseAnswer(answer, table.reading);
      // the value as its shortest round-trip decimal: Playwright would turn a large
      // whole double into an integer of other digits
      verdict.read = read.unreadable
        ? { unreadable: read.unreadable.text }
        : { value: String(read.value), given: read.given };
    }
    return verdict;
  });
}"""


class Oracle:
    """One notebook's exercises in a Python process of their own, judging what it is sent."""

    def __init__(self, path: Path, scratch: Path) -> None:
        env = {
            **os.environ,
            "MPLBACKEND": "Agg",
            "PYTHONHASHSEED": "0",
            "MAPTEACH_PROGRESS": str(scratch / "progress.jsonl"),
            "MAPTEACH_JUDGMENTS": str(scratch / "judgments"),
        }
        env.pop("MAPTEACH_LEARNER", None)
        self.process = subprocess.Popen(
            [sys.executable, "-c", _ORACLE, str(path)],
            cwd=path.parent,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self.tables: list[dict[str, Any]] = self._answer()

    def _answer(self) -> Any:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            assert self.process.stderr is not None
            raise RuntimeError(f"the oracle stopped:\n{self.process.stderr.read()[-3000:]}")
        return json.loads(line)

    def judge(self, index: int, answers: list[Any]) -> list[dict[str, Any]]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps([index, answers], ensure_ascii=False) + "\n")
        self.process.stdin.flush()
        verdicts: list[dict[str, Any]] = self._answer()
        return verdicts

    def close(self) -> None:
        """End the process (its input closed, it returns) and close its pipes."""
        self.process.communicate(timeout=60)  # closes its input: the oracle returns


@pytest.fixture(scope="module")
def page(chromium):
    page = chromium.new_page()
    script = as_classic(bundle_imports(CHECKER), "checker")
    page.set_content(f"<!doctype html><meta charset='utf-8'><script>{script}</script>")
    yield page
    page.close()


def assert_same(table: dict[str, Any], answers: list[Any], python: list, browser: list) -> None:
    where = f"{table['key']} ({table['kind']})"
    for answer, want, got in zip(answers, python, browser, strict=True):
        if "value" in got.get("read", {}):
            got["read"]["value"] = float(got["read"]["value"])  # the same double, to the bit
        if want["status"] == "unreadable" and "$" in str(answer):
            want, got = {**want, "html": None}, {**got, "html": None}
        assert got == want, f"{where}: {answer!r}"


# ------------------------------------------------------------------ typed numbers

FULL_WIDTH = str.maketrans("0123456789./%,=-+ ", "０１２３４５６７８９．／％，＝－＋\u3000")


def written(value: float, places: int, form: str) -> str:
    """``value`` written as a learner might, at ``places`` decimals where that means something."""
    if form == "cut":
        return str(Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_DOWN))
    if form in ("fraction", "chinese fraction", "spaced fraction"):
        exact = Fraction(value).limit_denominator(1000)
        top, bottom = exact.numerator, exact.denominator
        return {
            "fraction": f"{top}/{bottom}",
            "chinese fraction": f"{bottom}分之{top}",
            "spaced fraction": f"{top} ÷ {bottom}",
        }[form]
    forms = {
        "rounded": f"{value:.{places}f}",
        "percent": f"{value * 100:.{places}f}%",
        "chinese percent": f"百分之{value * 100:.{places}f}",
        "comma": f"{value:.{places}f}".replace(".", ","),
        "exponent": f"{value:.{places}e}",
        "exact": repr(value),
        "negated": f"−{value:.{places}f}",
        "nudged": f"{value + 0.6 * 10.0**-places:.{places}f}",
    }
    return forms[form]


FORMS = [
    "rounded",
    "rounded",
    "cut",
    "fraction",
    "chinese fraction",
    "spaced fraction",
    "percent",
    "chinese percent",
    "comma",
    "exponent",
    "exact",
    "negated",
    "nudged",
]
DRESSES = [
    "{}",
    "{}",
    " {} ",
    "AP = {}",
    "P@3={}",
    "={}",
    "{}=",
    "{}。",
    "\u3000{}\u3000",
    "MAP ≈ {}",
]
#: What people type that is no number, or hardly one.
ODDITIES = [
    "",
    " ",
    "\u3000",
    "三分之二",
    "零点五",
    "1,234",
    "0,25",
    "0.5,0",
    "1/0",
    "0/0",
    "½",
    "0 5",
    "0。5",
    "5.",
    ".5",
    "1e-201",
    "1e200",
    "9" * 150 + "e200",
    "1" * 201,
    "0." + "3" * 198,
    "$x$",
    "$\\frac{1}{2}$",
    "{answer}",
    "abc",
    "AP =",
    "=",
    "%",
    "50%%",
    "１，２３４",
    "١٢٣",
    "1,٢٣٤",
    "inf",
    "nan",
    "9007199254740993/1",
    "1/9007199254740993",
    "12345678901234567890123456789/98765432109876543210%",
]
#: Fractions and percentages of them beyond what a double holds exactly.
BIG = st.builds(
    "{}/{}{}".format,
    st.integers(-(10**60), 10**60),
    st.integers(1, 10**60),
    st.sampled_from(["", "%"]),
)
JUNK = st.text(
    alphabet="0123456789.,/%=+-e ０１２３４５６７８９．，／％分之百一二三$\\½…\t\u3000aAP@",
    max_size=14,
)


def typed_answers(table: dict[str, Any]) -> st.SearchStrategy[str]:
    """What a learner might type for a number exercise: its values, dressed, and junk."""
    values = [table["truth"], *(wrong["value"] for wrong in table["mistakes"])]
    number = st.builds(written, st.sampled_from(values), st.integers(0, 6), st.sampled_from(FORMS))
    dressed = st.builds(
        lambda text, dress, wide: dress.format(text.translate(FULL_WIDTH) if wide else text),
        number,
        st.sampled_from(DRESSES),
        st.booleans(),
    )
    long = st.text(alphabet="0123456789", min_size=195, max_size=205)
    return st.one_of(dressed, dressed, dressed, st.sampled_from(ODDITIES), JUNK, long, BIG)


def check_numbers(oracle: Oracle, page, index: int, table: dict[str, Any]) -> None:
    @settings(
        max_examples=BATCHES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(typed_answers(table), min_size=1, max_size=40))
    def batch(answers: list[str]) -> None:
        python = oracle.judge(index, answers)
        assert_same(table, answers, python, page.evaluate(_JUDGE, [table, answers]))

    every_value = [
        written(value, places, form)
        for value in [table["truth"], *(wrong["value"] for wrong in table["mistakes"])]
        for places, form in product(range(7), ["rounded", "cut", "percent", "fraction"])
    ]
    for answers in (every_value, ODDITIES):
        python = oracle.judge(index, answers)
        assert_same(table, answers, python, page.evaluate(_JUDGE, [table, answers]))
    batch()


def check_choices(oracle: Oracle, page, index: int, table: dict[str, Any]) -> None:
    @settings(max_examples=10, deadline=None, database=None)
    @given(st.lists(st.text(max_size=8), max_size=10))
    def batch(junk: list[str]) -> None:
        answers = [*table["options"], "", *junk]
        python = oracle.judge(index, answers)
        assert_same(table, answers, python, page.evaluate(_JUDGE, [table, answers]))

    batch()


def check_arrangements(oracle: Oracle, page, index: int, table: dict[str, Any]) -> None:
    answers = [[int(label) for label in key] for key in table["arrangements"]]
    n = table["n_results"]
    answers += [[1] * n, [0] * n, [1, 0] * n, [0] * (n - 1)]
    python = oracle.judge(index, answers)
    assert_same(table, answers, python, page.evaluate(_JUDGE, [table, answers]))


CHECKS = {"number": check_numbers, "choice": check_choices, "arrange": check_arrangements}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_the_browser_judges_every_exercise_as_python_does(path, page, tmp_path):
    oracle = Oracle(path, tmp_path)
    try:
        for index, table in enumerate(oracle.tables):
            CHECKS[table["kind"]](oracle, page, index, table)
    finally:
        oracle.close()


def test_the_oracle_and_the_page_are_what_the_comparison_needs(page, tmp_path):
    notebook = tmp_path / "one.ipynb"
    code = (
        "from mapteach.exercises import NumberExercise\n"
        "exercise = NumberExercise('1/2?', 0.5, [('halved', 0.25, 'You halved it.')], '1/2')\n"
        "print('the notebook may print')"
    )
    cell = {"cell_type": "code", "source": [code], "metadata": {}, "outputs": []}
    notebook.write_text(json.dumps({"cells": [cell]}), encoding="utf-8")
    oracle = Oracle(notebook, tmp_path)
    try:
        (table,) = oracle.tables
        answers = ["0.25", "0,5", "abc"]
        python = oracle.judge(0, answers)
        assert [verdict["status"] for verdict in python] == ["incorrect", "correct", "unreadable"]
        assert python[0]["mistakes"] == ["halved"] and python[1]["read"]["value"] == 0.5
        assert_same(table, answers, python, page.evaluate(_JUDGE, [table, answers]))
    finally:
        oracle.close()
