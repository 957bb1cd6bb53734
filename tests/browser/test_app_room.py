"""The app for a room, in Voila: named learners, one progress file each, nothing as "".

Voila serves the playground with a token and a progress folder (as ``make app`` does).
Two learners, in two browser contexts, name themselves in the bar at the top and check
the number exercise 06.2: Ada checks once before naming herself (the verdict shows, and
says the check waits) and once after; 张三 names himself first. Each one's file in the
folder holds exactly their checks, under their name, with the mistake named; no check is
recorded as ``""``. Reopening the page in the same browser session asks no name again.
"""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import pytest

from mapteach import average_precision
from mapteach.classroom import progress_path_for, read_progress
from tests.browser import harness

pytestmark = pytest.mark.browser

TOKEN = "room-app-test-token"
VIEWPORT = {"width": 1400, "height": 1000}
#: The mistake the playground's number exercise names for AP taken over the 3 retrieved.
MISSED = "forgot the missed relevant results"
#: 06.2: the best order of the first board, 3 relevant of R = 5: (1/1 + 2/2 + 3/3) / 5.
RIGHT, WRONG = "3/5", "1"


@pytest.fixture(scope="module")
def app(workdir: Path, tmp_path_factory):
    harness.require_browser()
    folder = tmp_path_factory.mktemp("room") / "progress"
    env = {"MAPTEACH_PROGRESS": "", "MAPTEACH_PROGRESS_DIR": str(folder)}
    with harness.voila(workdir, "notebooks/06_playground.ipynb", env, TOKEN) as url:
        yield url, folder


def _open(context, url: str):
    page = context.new_page()
    page.goto(url, timeout=90_000)
    page.locator("[data-testid=learner-name]").wait_for(timeout=90_000)
    page.locator('[data-testid=exercise][data-key="06.2"]').wait_for(timeout=90_000)
    return page


def _check(page, answer: str) -> tuple[str, str]:
    """Type ``answer`` in 06.2 and press Check; the verdict's status and text."""
    exercise = page.locator('[data-testid=exercise][data-key="06.2"]')
    exercise.locator("[data-testid=answer-input]").fill(answer)
    exercise.locator("[data-testid=check-button]").click()
    feedback = exercise.locator("[data-testid=feedback]")
    page.wait_for_function(
        "(el) => el.dataset.status && el.dataset.status !== 'empty'",
        arg=feedback.element_handle(),
        timeout=30_000,
    )
    return str(feedback.get_attribute("data-status")), feedback.inner_text()


def _name(page, name: str) -> str:
    page.locator("[data-testid=learner-name]").fill(name)
    page.locator("[data-testid=learner-save]").click()
    return _status_naming(page, name)


def _status_naming(page, name: str) -> str:
    status = page.locator("[data-testid=learner-status]")
    page.wait_for_function(
        "([el, name]) => el.textContent.includes(name)",
        arg=[status.element_handle(), name],
        timeout=30_000,
    )
    return status.inner_text()


def _lines(path: Path, count: int) -> list[dict[str, str]]:
    """The lines of ``path`` once it holds ``count`` (a check is written after its verdict)."""
    deadline = time.monotonic() + 30
    while True:
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        if len(lines) >= count or time.monotonic() > deadline:
            return [json.loads(line) for line in lines]
        time.sleep(0.2)


def test_the_app_wants_its_token(app):
    url, _ = app
    with urllib.request.urlopen(url.split("?")[0], timeout=30) as without_token:
        assert "/login" in without_token.geturl()  # sent to log in, no kernel started


def test_two_named_learners_each_have_their_own_file(browser, app):
    url, folder = app
    assert average_precision([1, 1, 1, 0, 0, 0, 0, 0], n_relevant=5) == pytest.approx(3 / 5)
    ada_context = browser.new_context(viewport=VIEWPORT)
    zhang_context = browser.new_context(viewport=VIEWPORT)
    try:
        ada, zhang = _open(ada_context, url), _open(zhang_context, url)
        status, said = _check(ada, RIGHT)
        assert status == "correct" and "Waiting for your name" in said
        assert not list(folder.glob("*.jsonl"))  # the check waits, in Ada's waiting file
        assert "The check you made before is recorded under it too." in _name(ada, "Ada Lovelace")
        assert _name(zhang, "张三").startswith("Your checks are recorded as 张三.")
        status, said = _check(ada, WRONG)
        assert status == "incorrect" and "Waiting" not in said
        assert _check(zhang, RIGHT)[0] == "correct"
        ada.reload()  # the same browser session: the name is given again, not asked
        ada.locator('[data-testid=exercise][data-key="06.2"]').wait_for(timeout=90_000)
        _status_naming(ada, "Ada Lovelace")
        assert _check(ada, RIGHT)[0] == "correct"
        ada_lines = _lines(progress_path_for(folder, "Ada Lovelace"), 3)
        zhang_lines = _lines(progress_path_for(folder, "张三"), 1)
    finally:
        ada_context.close()
        zhang_context.close()
    assert not list((folder / ".waiting").iterdir())  # every waiting check was recorded
    assert sorted(folder.glob("*.jsonl")) == sorted(
        [progress_path_for(folder, "Ada Lovelace"), progress_path_for(folder, "张三")]
    )
    assert [(line["learner"], line["answer"], line["verdict"]) for line in ada_lines] == [
        ("Ada Lovelace", RIGHT, "correct"),
        ("Ada Lovelace", WRONG, "incorrect"),
        ("Ada Lovelace", RIGHT, "correct"),
    ]
    assert [line.get("mistake") for line in ada_lines] == [None, MISSED, None]
    assert [(line["learner"], line["answer"]) for line in zhang_lines] == [("张三", RIGHT)]
    every = read_progress(*sorted(folder.glob("*.jsonl")))
    assert "" not in set(every["learner"]) and len(every) == 4
