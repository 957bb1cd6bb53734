"""The tutor in each notebook's numeric exercise, used as a learner uses it in JupyterLab.

Which exercise: every English notebook whose code cells make a keyed exercise that is
not a choice or an arrangement is run once in Python (:func:`harvest`, in a copy of
the notebooks of its own), which reads back each keyed number exercise it makes: its
prompt, truth, decimals and the mistakes it recognises. Of those, the first with the
most distinct wrong values (two is enough) is tried.

How: one JupyterLab, one page; each notebook opens once, runs all its cells, and the
learner types into that exercise's box (Enter, or the Check button) what learners
type: the truth, a rounded answer, the truth in full-width digits, with a comma
decimal, junk, and two of its mistakes at the asked decimals. The kernel judges each;
the test reads ``data-status`` and the text of ``[data-testid=feedback]``, and then the
progress file: every answer but the junk is recorded once, with its verdict. The
expected verdicts come from the answer rule, not from the exercise's own ``check``.
A Chinese notebook gets a full-width answer and junk, and must answer in Chinese.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.browser import harness

pytestmark = pytest.mark.browser

CJK = re.compile(r"[\u4e00-\u9fff]")
KEYED = re.compile(r'key="(\d\d\.\d+)"')
NOT_NUMBER = re.compile(r"\b(ChoiceExercise|ArrangeExercise)\(")
FULL_WIDTH = str.maketrans("0123456789.", "０１２３４５６７８９．")
JUNK = "abc"

#: Runs in a child process: run a notebook's code, print its keyed number exercises.
_HARVEST = r"""
import json, sys
from mapteach.exercises import NumberExercise, collect_exercises
from mapteach.i18n import tr

path = sys.argv[1]
namespace = {"__name__": "__main__"}
with collect_exercises() as made:
    for index, cell in enumerate(json.load(open(path, encoding="utf-8"))["cells"]):
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{path} cell {index}", "exec"), namespace)
found = [
    {"key": e.key, "prompt": e.prompt, "truth": float(e.truth), "decimals": e.decimals,
     "lang": e.lang, "unreadable": e.check("abc").message,
     "mistakes": [{"name": w.name, "shown": tr(w.convention or w.name, lang=e.lang),
                   "value": float(w.value),
                   "convention": bool(w.convention)} for w in e.misconceptions]}
    for e in made if isinstance(e, NumberExercise) and e.key
]
print(json.dumps(found, ensure_ascii=False))
"""

#: Finds the one number exercise whose prompt shows the harvested prompt's text (the
#: widget has no per-exercise hook) and marks it ``data-tutor`` with the exercise's key,
#: for a locator to hold; false while it is not on the page.
_MARK_EXERCISE = """([key, prompt]) => {
  const scratch = document.createElement('div');
  scratch.innerHTML = prompt;
  const words = (text) => text.replace(/\\s+/g, ' ').trim();
  const wanted = words(scratch.textContent);
  const found = [...document.querySelectorAll('[data-testid=exercise][data-kind=number]')]
    .filter((root) => words(root.querySelector('.mt-prompt')?.textContent ?? '').includes(wanted));
  if (found.length !== 1) return false;
  found[0].dataset.tutor = key;
  return true;
}"""

#: The feedback's status and text.
_FEEDBACK = """(root) => {
  const feedback = root.querySelector('[data-testid=feedback]');
  return [feedback?.dataset.status ?? null, feedback?.textContent ?? ''];
}"""

_STATUS_IS = """([root, status]) =>
  root.querySelector('[data-testid=feedback]')?.dataset.status === status"""
_VERDICT_SHOWN = """(root) => {
  const status = root.querySelector('[data-testid=feedback]')?.dataset.status;
  return status !== undefined && status !== 'empty';
}"""


class Typed(NamedTuple):
    """One answer a learner types, the verdict the answer rule gives it, and the
    mistakes (translated names) its feedback must name."""

    answer: str
    status: str
    names: tuple[str, ...] = ()


def number_notebooks() -> list[str]:
    """The English notebooks whose code makes a keyed exercise that is not a choice or
    an arrangement, by reading their code cells."""
    found = []
    for path in sorted(harness.NOTEBOOKS.glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        sources = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        if any(KEYED.search(s) and not NOT_NUMBER.search(s) for s in sources):
            found.append(path.name)
    return found


NOTEBOOKS = number_notebooks()
ZH_NOTEBOOK = NOTEBOOKS[0]


def harvest(path: Path, workdir: Path) -> list[dict[str, Any]]:
    """The keyed number exercises the notebook at ``path`` makes, run in Python."""
    env = {**harness.server_env(workdir), "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, "-c", _HARVEST, str(path)],
        cwd=path.parent,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"{path.name} failed in Python:\n{done.stderr[-3000:]}")
    exercises: list[dict[str, Any]] = json.loads(done.stdout.strip().splitlines()[-1])
    return exercises


def distinct_values(item: dict[str, Any]) -> set[str]:
    return {f"{m['value']:.{item['decimals']}f}" for m in item["mistakes"]}


def chosen(exercises: list[dict[str, Any]], notebook: str) -> dict[str, Any]:
    """The first number exercise with the most distinct wrong values (two is enough)."""
    assert exercises, f"{notebook} makes no keyed number exercise"
    return max(exercises, key=lambda e: (min(len(distinct_values(e)), 2), e["decimals"] > 0))


def rounded(truth: float, decimals: int) -> str | None:
    """The truth with fewer decimals that is right so far but under-precise, if any."""
    for places in sorted(range(1, decimals), key=lambda places: abs(places - 2)):
        shown = f"{truth:.{places}f}"
        if abs(float(shown) - truth) >= 0.5 * 10**-decimals:
            return shown
    return None


def mistake_answers(item: dict[str, Any]) -> list[Typed]:
    """Two of the exercise's wrong values at the asked decimals (blunders before other
    conventions), each with every mistake that gives it."""
    decimals = item["decimals"]
    by_value: dict[str, list[dict[str, Any]]] = {}
    for mistake in item["mistakes"]:
        by_value.setdefault(f"{mistake['value']:.{decimals}f}", []).append(mistake)
    groups = sorted(by_value.items(), key=lambda group: any(m["convention"] for m in group[1]))
    return [
        Typed(value, "incorrect", tuple(dict.fromkeys(m["shown"] for m in mistakes)))
        for value, mistakes in groups[:2]
    ]


def learner_answers(item: dict[str, Any]) -> list[Typed]:
    """What a learner types into the exercise, in order, with the expected verdicts."""
    truth, decimals = item["truth"], item["decimals"]
    exact = f"{truth:.{decimals}f}"
    typed = [Typed(exact, "correct")]
    short = rounded(truth, decimals)
    if short is not None:
        typed.append(Typed(short, "incomplete"))
    typed.append(Typed(exact.translate(FULL_WIDTH), "correct"))
    if decimals and (decimals != 3 or abs(truth) < 1):  # 1,234 could be a thousands comma
        typed.append(Typed(exact.replace(".", ","), "correct"))
    typed.append(Typed(JUNK, "unreadable"))
    return typed + mistake_answers(item)


def progress_lines(workdir: Path) -> list[dict[str, str]]:
    path = workdir / "progress.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def recorded(workdir: Path, since: int, key: str, count: int) -> list[tuple[str, str]]:
    """The (answer, verdict) pairs recorded for ``key`` after line ``since``, once
    ``count`` of them are there (the kernel writes a line just after the verdict)."""
    notebook, _, number = key.partition(".")
    deadline = time.monotonic() + 15
    while True:
        lines = progress_lines(workdir)[since:]
        found = [
            (line["answer"], line["verdict"])
            for line in lines
            if (line["notebook"], line["exercise"]) == (notebook, number)
        ]
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


@pytest.fixture(scope="module")
def harvests(browser, tmp_path_factory) -> dict[str, Future]:
    """Each tried notebook's number exercises, harvested one notebook at a time in the
    background while JupyterLab starts and runs the notebooks before it."""
    workdir = harness.make_workdir(tmp_path_factory.mktemp("harvest"))
    paths = {name: workdir / "notebooks" / name for name in NOTEBOOKS}
    paths[f"zh/{ZH_NOTEBOOK}"] = workdir / "notebooks" / "zh" / ZH_NOTEBOOK
    with ThreadPoolExecutor(max_workers=1) as pool:
        yield {name: pool.submit(harvest, path, workdir) for name, path in paths.items()}


@pytest.fixture(scope="module")
def lab_page(browser, lab_url):
    page = harness.open_lab(browser, lab_url)
    yield page
    page.close()


@pytest.fixture(scope="module")
def seen() -> Counter:
    """Every status the feedback showed, over the module (printed at its end)."""
    counts: Counter = Counter()
    yield counts
    print(f"\nstatuses seen: {dict(sorted(counts.items()))}")


def exercise_on_page(page, notebook: str, item: dict[str, Any]):
    """The exercise's widget, once all cells ran (a failing cell is reported)."""
    try:
        page.wait_for_function(_MARK_EXERCISE, arg=[item["key"], item["prompt"]], timeout=30_000)
    except Exception as error:
        errors = "\n".join(harness.error_outputs(page)) or "(no cell printed an error)"
        where = f"{notebook}: exercise {item['key']}"
        raise AssertionError(f"{where} is not on the page:\n{errors}") from error
    return page.locator(f'[data-tutor="{item["key"]}"]')


def answer(page, exercise, typed: Typed, *, click: bool) -> tuple[str, str]:
    """Type an answer as a learner does, ask for a check, return the verdict shown."""
    box = exercise.locator("[data-testid=answer-input]")
    box.fill(typed.answer)
    root = exercise.element_handle()
    page.wait_for_function(_STATUS_IS, arg=[root, "empty"], timeout=15_000)  # old verdict gone
    if click:
        exercise.locator("[data-testid=check-button]").click()
    else:
        box.press("Enter")
    try:
        page.wait_for_function(_VERDICT_SHOWN, arg=root, timeout=15_000)
    except Exception as error:
        shown = root.evaluate(_FEEDBACK)
        raise AssertionError(f"no verdict for {typed.answer!r}; shown: {shown}") from error
    status, text = root.evaluate(_FEEDBACK)
    return status, text


def journey(page, workdir: Path, notebook: str, item: dict[str, Any], typed: list[Typed], seen):
    """Open the notebook, type every answer, check each verdict and the progress file."""
    since = len(progress_lines(workdir))
    harness.switch_to(page, notebook)
    exercise = exercise_on_page(page, notebook, item)
    shown = []
    for attempt in typed:
        status, text = answer(page, exercise, attempt, click=attempt.status == "incorrect")
        seen[status] += 1
        shown.append((attempt.answer, status, text))
        where = f"{notebook} {item['key']}: {attempt}"
        assert status == attempt.status, f"{where} got {status}: {text}"
        for name in attempt.names:
            assert name in text, f"{where} does not name {name!r}: {text}"
    expected = [(t.answer, t.status) for t in typed if t.status != "unreadable"]
    assert recorded(workdir, since, item["key"], len(expected)) == expected
    return shown


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_the_tutor_in_each_notebook(lab_page, workdir, harvests, seen, notebook):
    item = chosen(harvests[notebook].result(), notebook)
    typed = learner_answers(item)
    shown = journey(lab_page, workdir, notebook, item, typed, seen)
    print(f"\n{notebook} {item['key']}: " + "; ".join(f"{a!r} {s}" for a, s, _ in shown))


def test_the_tutor_speaks_chinese(lab_page, workdir, harvests, seen):
    english = chosen(harvests[ZH_NOTEBOOK].result(), ZH_NOTEBOOK)
    chinese = {e["key"]: e for e in harvests[f"zh/{ZH_NOTEBOOK}"].result()}
    item = chinese[english["key"]]
    assert item["lang"] == "zh" and item["truth"] == english["truth"]
    exact = f"{item['truth']:.{item['decimals']}f}"
    typed = [Typed(exact.translate(FULL_WIDTH), "correct"), Typed(JUNK, "unreadable")]
    shown = journey(lab_page, workdir, f"zh/{ZH_NOTEBOOK}", item, typed, seen)
    unreadable = shown[-1][2]
    assert CJK.search(shown[0][2]) and CJK.search(unreadable), shown
    assert unreadable != english["unreadable"]
    print(f"\nzh/{ZH_NOTEBOOK} {item['key']}: {shown}")
