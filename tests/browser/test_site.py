"""The static site, opened from the file system in Chromium with the network cut off.

A learner without Python opens ``build/site/index.html``: every request that is not a
``file:`` URL inside the site's folder is aborted and recorded, and each test fails if
any was made. Every board and exercise runs live with no kernel: a real drag on the
playground's board updates AP, the PR curve and the P@k bars to exactly what Python
computes for the list on screen (and the printout below follows); the MAP board too; an
exercise accepts the right answer and names a mistake (its truth and mistakes read from
the exercise's own state in the page); an arrangement's readout follows a drag of its
board; the learner's name is asked once and kept across pages, and the download of their
checks is read by ``python -m mapteach progress``. The Chinese playground speaks Chinese;
with scripts off, the pictures and folded solutions stay.

The site is built from ``notebooks/``, or from the folder ``MAPTEACH_SITE_NOTEBOOKS``
names (executed copies of the notebooks, where the committed outputs are older than the
code).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mapteach import average_precision, mean_average_precision, precision_at_k
from mapteach.board import BoardFigure
from mapteach.classroom import read_progress
from mapteach.offline import runtime_texts
from tests.browser.harness import site_tool

pytestmark = pytest.mark.browser

tool = site_tool()

#: What one board shows, read from the page.
READ_BOARD = """(root) => {
  const items = [...root.querySelectorAll('[data-testid=rank-item]')];
  const number = (id) => Number(root.querySelector(`[data-testid=${id}]`)?.value ?? 0);
  const plot = (id) => root.querySelector(`[data-testid=${id}]`);
  return {
    docs: items.map((li) => li.dataset.doc),
    labels: items.map((li) => (li.dataset.relevant === 'true' ? 1 : 0)),
    unretrieved: number('unretrieved-input'),
    cutoff: number('cutoff-input'),
    ap: root.querySelector('[data-testid=ap-value]').dataset.value,
    curve: plot('pr-curve') && JSON.parse(plot('pr-curve').dataset.points),
    bars: plot('pk-bars') && JSON.parse(plot('pk-bars').dataset.points),
    drawn: plot('pr-curve') && [plot('pr-curve'), plot('pk-bars')].map((p) => +p.dataset.drawn),
  };
}"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    notebooks = Path(os.environ.get("MAPTEACH_SITE_NOTEBOOKS") or tool.NOTEBOOKS)
    return tool.build(tmp_path_factory.mktemp("site") / "site", notebooks)


@pytest.fixture(scope="module")
def site(built) -> Path:
    return built.out_dir


@pytest.fixture
def offline(browser, site):
    """A page that may load only files of the site; yields it and what it tried else."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    inside = site.as_uri() + "/"
    blocked: list[str] = []

    def only_the_site(route):
        url = route.request.url
        if url.startswith(inside):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    context.route("**/*", only_the_site)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page, blocked, errors
    context.close()


def open_live(page, path: Path) -> None:
    """Open a page of the site and wait until every widget on it runs."""
    page.goto(path.as_uri(), wait_until="load")
    page.wait_for_function("document.documentElement.dataset.mapteachRuntime === 'ready'")
    states = page.locator(".mapteach-offline").evaluate_all(
        "all => all.map((e) => `${e.dataset.module}:${e.dataset.mapteachLive}`)"
    )
    assert states and all(state.endswith(":ready") for state in states), states


def live(page, module: str):
    """The live part of every widget of ``module`` on the page (its static part is hidden)."""
    return page.locator(f".mapteach-offline[data-module={module}] > .mapteach-offline-live")


def python_board(state: dict) -> dict:
    """AP, the PR curve's points and the P@k bars that Python computes for ``state``."""
    labels, k = state["labels"], state["cutoff"] or None
    r = sum(labels) + state["unretrieved"]
    figure = BoardFigure(lang="en")
    figure.update(labels, n_relevant=r, k=k)
    recall, precision = figure.sawtooth.get_data()
    return {
        "ap": average_precision(labels, n_relevant=r, k=k),
        "curve": [[float(x), float(y)] for x, y in zip(recall, precision, strict=True)],
        "bars": [precision_at_k(labels, rank) for rank in range(1, len(labels) + 1)],
    }


def assert_board_is_python(board) -> dict:
    """The board's readout and plots show exactly what Python computes for its list."""
    state = board.evaluate(READ_BOARD)
    expected = python_board(state)
    assert float(state["ap"]) == expected["ap"]
    assert state["curve"] == expected["curve"]
    assert state["bars"] == expected["bars"]
    return state


def drag(page, board, source: int, target: int) -> dict:
    """A real mouse drag of the result at rank ``source`` onto rank ``target`` (1-based)."""
    before = board.evaluate(READ_BOARD)
    items = board.locator("[data-testid=rank-item]")
    items.nth(source - 1).drag_to(items.nth(target - 1), target_position={"x": 30, "y": 3})
    page.wait_for_function(
        "([root, docs]) => [...root.querySelectorAll('[data-testid=rank-item]')]"
        ".map((li) => li.dataset.doc).join() !== docs",
        arg=[board.element_handle(), ",".join(before["docs"])],
    )
    return before


def test_the_board_follows_a_drag_exactly_as_python(site, offline):
    page, blocked, errors = offline
    open_live(page, site / "en" / "06_playground.html")
    board = live(page, "ranking_list").first
    start = assert_board_is_python(board)
    assert start["labels"] == [1, 0, 1, 1, 0, 0, 0, 0]  # article 003, query A

    before = drag(page, board, 4, 1)
    after = assert_board_is_python(board)
    assert after["docs"][:4] == [before["docs"][3], *before["docs"][:3]]
    assert [a > b for a, b in zip(after["drawn"], before["drawn"], strict=True)] == [True, True]
    described = board.get_by_test_id("pr-curve-text").inner_text()
    assert f"{float(after['ap']):.4f}" in described and "R = 3" in described

    # The printout below follows the board: the same widget, one model on the page.
    readout = live(page, "live_readout").first
    assert float(readout.get_by_test_id("live-ap").get_attribute("data-value")) == float(
        after["ap"]
    )
    assert str(after["labels"]) in readout.get_by_test_id("live-readout").inner_text()

    board.locator(f'[data-doc="{after["docs"][2]}"]').focus()
    page.keyboard.press("Alt+ArrowUp")  # a keyboard move
    page.wait_for_function(
        "([root, doc]) => root.querySelector('[data-testid=rank-item]:nth-child(2)')"
        "?.dataset.doc === doc",
        arg=[board.element_handle(), after["docs"][2]],
    )
    assert_board_is_python(board)
    board.get_by_test_id("cutoff-input").fill("3")
    board.get_by_test_id("cutoff-input").press("Tab")
    page.wait_for_function(
        "(root) => root.querySelector('[data-testid=ap-value]').textContent.startsWith('AP@3')",
        arg=board.element_handle(),
    )
    assert assert_board_is_python(board)["cutoff"] == 3
    assert not blocked and not errors, (blocked, errors)


def test_the_map_board_follows_a_drag_exactly_as_python(site, offline):
    page, blocked, errors = offline
    open_live(page, site / "en" / "06_playground.html")
    board = live(page, "map_board").first
    lists = board.get_by_test_id("ranking-board")
    assert lists.count() >= 2
    drag(page, lists.last, lists.last.get_by_test_id("rank-item").count(), 1)
    states = [lists.nth(i).evaluate(READ_BOARD) for i in range(lists.count())]
    assert all(state["cutoff"] == 0 for state in states)
    aps = [float(state["ap"]) for state in states]
    assert aps == [
        average_precision(s["labels"], n_relevant=sum(s["labels"]) + s["unretrieved"])
        for s in states
    ]
    expected = mean_average_precision(
        [s["labels"] for s in states],
        n_relevant=[sum(s["labels"]) + s["unretrieved"] for s in states],
    )
    assert float(board.get_by_test_id("map-value").get_attribute("data-value")) == expected
    assert json.loads(board.get_by_test_id("ap-bars").get_attribute("data-points")) == aps
    printout = live(page, "live_readout").nth(1)
    assert float(printout.get_by_test_id("live-map").get_attribute("data-value")) == expected
    assert not blocked and not errors, (blocked, errors)


def exercise_table(exercise) -> dict:
    """The answer table in the exercise's own state, as the page holds it."""
    return exercise.evaluate(
        "(e) => JSON.parse(e.parentElement.querySelector(':scope > script[data-mapteach-state]')"
        ".textContent).model.answer_table"
    )


def number_exercise(page):
    """The first number exercise of the page, its table and a mistake it names."""
    exercises = live(page, "exercise")
    for i in range(exercises.count()):
        table = exercise_table(exercises.nth(i))
        if table["kind"] != "number":
            continue
        decimals = table["decimals"]
        truth = round(table["truth"], decimals)
        shared = [round(m["value"], decimals) for m in table["mistakes"]]
        for mistake in table["mistakes"]:
            value = round(mistake["value"], decimals)
            if value != truth and shared.count(value) == 1:
                return exercises.nth(i), table, mistake
    raise AssertionError("no number exercise with a mistake of its own on this page")


def answer(exercise, text: str) -> str:
    exercise.get_by_test_id("answer-input").fill(text)
    exercise.get_by_test_id("check-button").click()
    feedback = exercise.get_by_test_id("feedback")
    feedback.locator("xpath=self::*[@data-status != 'empty']").wait_for()
    return feedback.get_attribute("data-status")


def test_an_exercise_accepts_the_right_answer_and_names_a_mistake(site, offline):
    page, blocked, errors = offline
    open_live(page, site / "en" / "03_average_precision_by_hand.html")
    exercise, table, mistake = number_exercise(page)
    feedback = exercise.get_by_test_id("feedback")
    assert answer(exercise, f"{table['truth']:.{table['decimals']}f}") == "correct"
    # No learner named yet: the verdict shows, and how to keep the next checks.
    not_kept = runtime_texts("en")["texts"]["progress_no_learner"]
    assert not_kept in feedback.inner_text()
    assert answer(exercise, f"{mistake['value']:.{table['decimals']}f}") == "incorrect"
    assert mistake["name"]["text"] in feedback.inner_text()
    exercise.get_by_test_id("answer-input").fill("")  # a new answer clears the verdict
    assert feedback.get_attribute("data-status") == "empty"
    assert not blocked and not errors, (blocked, errors)


def test_an_arrangement_s_readout_follows_a_drag_of_its_board(site, offline):
    page, blocked, errors = offline
    open_live(page, site / "en" / "06_playground.html")
    arrange = page.locator("[data-testid=exercise][data-kind=arrange]").first
    readouts = arrange.evaluate(
        "(e) => JSON.parse(e.closest('.mapteach-offline')"
        ".querySelector(':scope > script[data-mapteach-state]').textContent).model.readouts"
    )
    board = arrange.get_by_test_id("ranking-board")
    readout = arrange.get_by_test_id("arrange-readout")
    for _ in range(2):
        before = drag(page, board, board.get_by_test_id("rank-item").count(), 1)
        labels = board.evaluate(READ_BOARD)["labels"]
        assert labels[0] == 1 and labels != before["labels"]
        shown = readout.inner_text()
        assert shown == readouts["".join(map(str, labels))]
        assert shown.startswith(f"AP = {average_precision(labels):.4f} (target 0.5)")
    assert not blocked and not errors, (blocked, errors)


def test_the_learner_is_asked_once_and_the_download_reads_in_python(site, offline, tmp_path):
    page, blocked, errors = offline
    open_live(page, site / "en" / "03_average_precision_by_hand.html")
    texts = runtime_texts("en")["texts"]
    page.get_by_test_id("learner-name").fill("Ada Lovelace")
    page.get_by_test_id("learner-save").click()
    status = page.get_by_test_id("progress-status")
    assert status.inner_text() == texts["progress_named"].format(name="Ada Lovelace", n=0)
    exercise, table, mistake = number_exercise(page)
    answers = [f"{value:.{table['decimals']}f}" for value in (mistake["value"], table["truth"])]
    assert [answer(exercise, text) for text in answers] == ["incorrect", "correct"]
    assert texts["progress_no_learner"] not in exercise.get_by_test_id("feedback").inner_text()
    assert status.inner_text() == texts["progress_named"].format(name="Ada Lovelace", n=2)

    open_live(page, site / "en" / "06_playground.html")  # another page: the name is kept
    assert page.get_by_test_id("learner-name").input_value() == "Ada Lovelace"
    choice = next(e for e in live(page, "exercise").all() if exercise_table(e)["kind"] == "choice")
    choice_table = exercise_table(choice)
    choice.get_by_test_id("choice-option").filter(has_text=choice_table["correct"]).click()
    choice.get_by_test_id("check-button").click()
    choice.locator("[data-testid=feedback][data-status=correct]").wait_for()
    with page.expect_download() as download:
        page.get_by_test_id("progress-download").click()
    assert download.value.suggested_filename == "mapteach-progress-Ada-Lovelace.jsonl"
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)

    checks = read_progress(path)
    keys = [table["key"], table["key"], choice_table["key"]]
    assert list(checks["learner"]) == ["Ada Lovelace"] * 3
    assert list(zip(checks["notebook"], checks["exercise"], strict=True)) == [
        (key["notebook"], key["exercise"]) for key in keys
    ]
    assert list(checks["answer"]) == [*answers, choice_table["correct"]]
    assert list(checks["verdict"]) == ["incorrect", "correct", "correct"]
    merged = subprocess.run(
        [sys.executable, "-m", "mapteach", "progress", str(path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    assert "Ada Lovelace" in merged.stdout
    assert not blocked and not errors, (blocked, errors)


def test_the_chinese_playground_speaks_chinese(site, offline):
    page, blocked, errors = offline
    open_live(page, site / "zh" / "06_playground.html")
    assert page.evaluate("document.documentElement.lang") == "zh"
    assert page.evaluate("document.characterSet") == "UTF-8"
    title = page.locator("h1").first.inner_text()
    assert any("\u4e00" <= ch <= "\u9fff" for ch in title), title
    font = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert "Noto Sans CJK SC" in font, font
    zh = runtime_texts("zh")["texts"]
    assert page.get_by_test_id("learner-save").inner_text() == zh["progress_save"]
    assert page.get_by_test_id("progress-status").inner_text() == zh["progress_unnamed"]
    board = live(page, "ranking_list").first
    for hook in ("pr-curve-text", "pk-bars-text"):
        text = board.get_by_test_id(hook).inner_text()
        assert any("\u4e00" <= ch <= "\u9fff" for ch in text), text
    exercise, table, _ = number_exercise(page)
    assert exercise.get_by_test_id("check-button").inner_text() == "检查"
    answer(exercise, f"{table['truth']:.{table['decimals']}f}")
    assert zh["progress_no_learner"] in exercise.get_by_test_id("feedback").inner_text()
    assert not blocked and not errors, (blocked, errors)


def test_every_widget_of_the_site_runs_live(built, offline):
    page, blocked, errors = offline
    assert not built.static_only, built.static_only
    assert built.runtime_bytes, "no page of the site has a live widget"
    for href in built.runtime_bytes:
        open_live(page, built.out_dir / href)
        notices = page.get_by_test_id("offline-notice").count()
        assert notices == 0, f"{href}: {notices} widgets could not run"
    assert not blocked and not errors, (blocked, errors)


def test_index_leads_to_the_playground(site, offline):
    page, blocked, errors = offline
    page.goto((site / "index.html").as_uri(), wait_until="load")
    assert page.locator("h1").inner_text().strip()
    link = page.locator('a[href="en/06_playground.html"]')
    assert link.count() == 1
    link.click()
    page.wait_for_url("**/en/06_playground.html")
    page.wait_for_function("document.documentElement.dataset.mapteachRuntime === 'ready'")
    assert page.locator("h1").first.inner_text().startswith("06")
    assert page.get_by_test_id("ranking-board").first.is_visible()
    assert not blocked and not errors, (blocked, errors)


def test_a_formula_is_mathml_that_chromium_lays_out(site, offline):
    page, blocked, _ = offline
    page.goto((site / "en" / "03_average_precision_by_hand.html").as_uri(), wait_until="load")
    formula = page.locator("math").first
    formula.scroll_into_view_if_needed()
    assert formula.evaluate("m => m instanceof MathMLElement")
    box = formula.bounding_box()
    assert box and box["width"] > 0 and box["height"] > 0, box
    fraction = formula.locator("mfrac").first.bounding_box()
    assert fraction and fraction["width"] > 0 and fraction["height"] > 0, fraction
    assert not blocked, f"the page asked the network for {blocked}"


def test_with_scripts_off_the_pictures_and_solutions_stay(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((site / "en" / "06_playground.html").as_uri(), wait_until="load")
    picture = page.locator(".mapteach-offline-static img").first
    picture.scroll_into_view_if_needed()
    assert picture.evaluate("img => img.complete && img.naturalWidth > 0")
    assert page.get_by_test_id("learner-name").count() == 0
    solution = page.locator(".mapteach-exercise-static details").first
    solution.scroll_into_view_if_needed()
    assert not solution.evaluate("d => d.open")
    solution.locator("summary").click()
    assert solution.evaluate("d => d.open")
    assert "One arrangement that works" in solution.inner_text()
    context.close()


def test_the_network_is_really_cut_off(site, offline):
    """The tests above prove nothing unless a request to the network is seen and aborted."""
    page, blocked, _ = offline
    page.goto((site / "index.html").as_uri(), wait_until="load")
    reached = page.evaluate("fetch('http://127.0.0.1:9/probe').then(() => true, () => false)")
    outside = page.evaluate("fetch('file:///etc/hostname').then(() => true, () => false)")
    assert reached is False and outside is False
    assert blocked == ["http://127.0.0.1:9/probe", "file:///etc/hostname"]
