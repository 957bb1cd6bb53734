"""progress.js keeps a learner's checks in the browser, as progress.jsonl holds them.

In Chromium: no record without a learner; a kept check has exactly the fields of a
line of progress.jsonl, every one a string, its time in UTC to the second; no check is lost
or hidden: where the storage fails (full, disabled) the checks stay in the page for its
download and the page says so, and they are stored once the storage takes them; a check the
page cannot keep says so; a stored list that cannot be read is set aside, not overwritten;
the download holds every check kept in the browser, under every name (a learner renamed
keeps the checks made before), and is read by ``mapteach.classroom.read_progress`` and
``python -m mapteach progress``. Then the learner's bar on a page opened from file://: the
name is asked once and remembered.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mapteach.classroom import FIELDS, read_progress
from mapteach.i18n.spacing import spaced_format
from mapteach.offline import TEXT_JS, as_classic, bundle_imports, runtime_texts

pytestmark = pytest.mark.browser

PROGRESS = as_classic(bundle_imports(TEXT_JS.with_name("progress.js")), "progress")
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

#: A storage in memory (localStorage's methods), which fails as asked: `fail` names the
#: method that throws and the error's name.
FAKE_STORAGE = """
const memoryStorage = (items = {}, fail = {}) => ({
  items,
  getItem(key) {
    if (fail.getItem) throw new DOMException("no", fail.getItem);
    return key in items ? items[key] : null;
  },
  setItem(key, value) {
    if (fail.setItem) throw new DOMException("no", fail.setItem);
    items[key] = String(value);
  },
  removeItem(key) {
    if (fail.removeItem) throw new DOMException("no", fail.removeItem);
    delete items[key];
  },
});
const clock = () => new Date(Date.UTC(2026, 10, 30, 14, 0, 0, 789));
"""

CHECK = {"notebook": "03", "exercise": "2", "answer": "0.8056", "verdict": "correct"}


@pytest.fixture(scope="module")
def page(chromium):
    context = chromium.new_context()
    page = context.new_page()
    page.set_content(f"<!DOCTYPE html><html><head><script>{PROGRESS}</script></head></html>")
    yield page
    context.close()


def _run(page, body: str, *args):
    """Run ``body`` with m (the module), memoryStorage, clock, runtime (texts) and args."""
    return page.evaluate(
        "([runtime, args]) => {"
        + FAKE_STORAGE
        + "const m = window.mapteachModules.progress;\n"
        + body
        + "}",
        [runtime_texts("en"), list(args)],
    )


def test_no_record_without_a_learner(page):
    result = _run(
        page,
        """const storage = memoryStorage();
        const progress = m.makeProgress(storage, runtime, clock);
        return [progress.record(args[0]), storage.items, progress.status()];""",
        CHECK,
    )
    texts = runtime_texts("en")["texts"]
    assert result == [
        {"saved": False, "message": texts["progress_no_learner"]},
        {},
        texts["progress_unnamed"],
    ]


def test_a_kept_check_is_a_line_of_progress_jsonl(page):
    kept, items = _run(
        page,
        """const storage = memoryStorage();
        const progress = m.makeProgress(storage, runtime, clock);
        progress.setLearner("  艾达 Lovelace ");
        const wrong = { ...args[0], verdict: "incorrect" };
        const kept = [progress.record(args[0]), progress.record(wrong)];
        return [kept, storage.items];""",
        CHECK,
    )
    assert kept[1] == {
        "saved": True,
        "kept": True,
        "message": runtime_texts("en")["texts"]["progress_named"].format(name="艾达 Lovelace", n=2),
    }
    assert items["mapteach.learner"] == "艾达 Lovelace"
    checks = json.loads(items["mapteach.progress"])
    assert [list(check) for check in checks] == [list(FIELDS)] * 2
    assert checks[0] == {
        "learner": "艾达 Lovelace",
        **CHECK,
        "time": "2026-11-30T14:00:00Z",
    }
    assert all(isinstance(value, str) for check in checks for value in check.values())
    assert checks[1]["verdict"] == "incorrect"


def test_a_named_mistake_is_kept_last_and_read_back(page, tmp_path):
    items = _run(
        page,
        """const storage = memoryStorage({ "mapteach.learner": "ada" });
        const progress = m.makeProgress(storage, runtime, clock);
        progress.record({ ...args[0], verdict: "incorrect", mistake: "AP over retrieved" });
        progress.record(args[0]);
        return storage.items;""",
        CHECK,
    )
    checks = json.loads(items["mapteach.progress"])
    assert [list(check) for check in checks] == [[*FIELDS, "mistake"], list(FIELDS)]
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(check) + "\n" for check in checks), encoding="utf-8")
    assert read_progress(path)["mistake"].tolist() == ["AP over retrieved", ""]


@pytest.mark.parametrize(
    ("check", "problem"),
    [
        ({**CHECK, "verdict": "unreadable"}, 'verdict "unreadable" is not one of'),
        ({**CHECK, "answer": 0.8}, "answer is not a string"),
        ({**CHECK, "notebook": " "}, "empty"),
        ({**CHECK, "verdict": "incorrect", "mistake": " "}, "mistake is not a non-empty string"),
        ({"notebook": "03", "exercise": "2", "verdict": "correct"}, "answer is not a string"),
    ],
)
def test_a_check_the_page_cannot_keep_is_said_not_stored(page, check, problem):
    console: list[str] = []

    def keep(message) -> None:
        console.append(message.text)

    page.on("console", keep)
    try:
        result, items = _run(
            page,
            """const storage = memoryStorage({ "mapteach.learner": "ada" });
            const progress = m.makeProgress(storage, runtime, clock);
            return [progress.record(args[0]), storage.items];""",
            check,
        )
    finally:
        page.remove_listener("console", keep)
    # the learner reads the catalogue's sentence; what is wrong goes to the console
    assert result == {"saved": False, "message": runtime_texts("en")["texts"]["progress_bad_check"]}
    assert len(console) == 1 and problem in console[0]
    assert "mapteach.progress" not in items


def texts(lang: str = "en") -> dict[str, str]:
    return runtime_texts(lang)["texts"]


def joined(*sentences: str) -> str:
    """Sentences joined as the page joins them (English: with a space)."""
    return " ".join(sentences)


@pytest.mark.parametrize(
    ("fail", "error"),
    [
        ({"setItem": "QuotaExceededError"}, "QuotaExceededError"),  # full
        ({"setItem": "SecurityError", "getItem": "SecurityError"}, "SecurityError"),  # disabled
    ],
)
def test_where_the_storage_fails_the_checks_stay_in_the_page_and_it_says_so(page, fail, error):
    kept = {} if "getItem" in fail else {"mapteach.progress": json.dumps([{"learner": "ada"}])}
    named, recorded, learner, lines, status = _run(
        page,
        """const storage = memoryStorage(args[2], args[1]);
        const progress = m.makeProgress(storage, runtime, clock);
        const named = progress.setLearner("ada");
        const recorded = [progress.record(args[0]), progress.record(args[0])];
        return [named, recorded, progress.learner(), progress.jsonl(), progress.status()];""",
        CHECK,
        fail,
        kept,
    )
    page_only = texts()["progress_page_only"].format(error=error)
    before = 0 if "getItem" in fail else 1
    expected_status = joined(texts()["progress_named"].format(name="ada", n=2 + before), page_only)
    name_said = joined(texts()["progress_named"].format(name="ada", n=before), page_only)
    assert named == {"saved": False, "message": name_said}
    assert recorded == [{"saved": False, "kept": True, "message": page_only}] * 2
    assert learner == "ada"  # the name still holds on this page
    answers = [json.loads(line).get("answer") for line in lines.splitlines()]
    assert answers == [None] * before + ["0.8056", "0.8056"]  # nothing lost, nothing hidden
    assert status == expected_status


def test_the_page_s_checks_are_stored_once_the_storage_takes_them(page):
    items, answers, status = _run(
        page,
        """const fail = { setItem: "QuotaExceededError" };
        const storage = memoryStorage({ "mapteach.learner": "ada" }, fail);
        const progress = m.makeProgress(storage, runtime, clock);
        progress.record({ ...args[0], answer: "1" });
        delete fail.setItem;  // room again
        progress.record({ ...args[0], answer: "2" });
        return [storage.items, progress.checks().map((c) => c.answer), progress.status()];""",
        CHECK,
    )
    stored = json.loads(items["mapteach.progress"])
    assert [check["answer"] for check in stored] == answers == ["1", "2"]
    assert status == texts()["progress_named"].format(name="ada", n=2)  # no warning left


def test_a_renamed_learner_keeps_the_checks_made_before(page, tmp_path):
    lines, status, named_before = _run(
        page,
        """const storage = memoryStorage();
        const progress = m.makeProgress(storage, runtime, clock);
        progress.setLearner("Ada");
        progress.record({ ...args[0], answer: "1" });
        progress.record({ ...args[0], answer: "2" });
        const named = progress.setLearner("ada");
        return [progress.jsonl(), progress.status(), named.message];""",
        CHECK,
    )
    said = joined(
        texts()["progress_named"].format(name="ada", n=0),
        texts()["progress_others"].format(names="Ada", n=2),
    )
    assert status == named_before == said  # the checks under "Ada" are counted, not hidden
    path = tmp_path / "ada.jsonl"
    path.write_text(lines, encoding="utf-8")
    table = read_progress(path)
    assert list(zip(table["learner"], table["answer"], strict=True)) == [("Ada", "1"), ("Ada", "2")]


def test_the_status_speaks_chinese_as_chinese_is_written(page):
    status = page.evaluate(
        "([runtime, check]) => {"
        + FAKE_STORAGE
        + """const progress = window.mapteachModules.progress.makeProgress(
          memoryStorage({}, { setItem: "SecurityError" }), runtime, clock);
        progress.setLearner("艾达");
        progress.record(check);
        return progress.status();
        }""",
        [runtime_texts("zh"), CHECK],
    )
    zh = texts("zh")
    named = spaced_format(zh["progress_named"], name="艾达", n=1)  # no space around 艾达
    page_only = spaced_format(zh["progress_page_only"], error="SecurityError")
    assert status == named + page_only  # no space between Chinese sentences


def test_a_list_that_cannot_be_read_is_set_aside_not_lost(page):
    items = _run(
        page,
        """const storage = memoryStorage({
          "mapteach.learner": "ada", "mapteach.progress": "{oops",
        });
        m.makeProgress(storage, runtime, clock).record(args[0]);
        return storage.items;""",
        CHECK,
    )
    assert items["mapteach.progress.unreadable.2026-11-30T14:00:00Z"] == "{oops"
    assert [check["answer"] for check in json.loads(items["mapteach.progress"])] == ["0.8056"]


def test_the_download_holds_every_name_and_is_read_by_python(page, tmp_path):
    text, name = _run(
        page,
        """const storage = memoryStorage();
        const progress = m.makeProgress(storage, runtime, clock);
        progress.setLearner("Grace");
        progress.record({ ...args[0], answer: "1/2" });
        progress.setLearner("艾达 L");
        progress.record(args[0]);
        progress.record({ ...args[0], exercise: "3", answer: "百分之50", verdict: "incorrect" });
        return [progress.jsonl(), m.downloadName(progress.learner())];""",
        CHECK,
    )
    assert name == "mapteach-progress-艾达-L.jsonl"
    assert text.endswith("\n") and "\r" not in text and text.count("\n") == 3
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    table = read_progress(path)
    assert list(table["learner"]) == ["Grace", "艾达 L", "艾达 L"]  # each under its own name
    assert list(table["answer"]) == ["1/2", "0.8056", "百分之50"]
    merged = subprocess.run(
        [sys.executable, "-m", "mapteach", "progress", "--format", "json", str(path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    rows = json.loads(merged.stdout)
    assert [(row["learner"], row["exercise"], row["passed"]) for row in rows] == [
        ("Grace", "2", True),
        ("艾达 L", "2", True),
        ("艾达 L", "3", False),
    ]


@pytest.mark.parametrize(
    ("learner", "name"),
    [
        ("ada", "mapteach-progress-ada.jsonl"),
        ('a/b:c*"d', "mapteach-progress-a_b_c_d.jsonl"),
        ("", "mapteach-progress.jsonl"),
    ],
)
def test_a_download_is_named_after_the_learner(page, learner, name):
    assert _run(page, "return m.downloadName(args[0]);", learner) == name


def _bar_page(folder: Path, lang: str) -> str:
    texts = json.dumps(runtime_texts(lang), ensure_ascii=False)
    page = folder / f"{lang}.html"
    page.write_text(
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
        f"<script>{PROGRESS}</script></head><body><nav class='site-nav'>nav</nav>"
        f"<script>window.progress = window.mapteachModules.progress.startProgress("
        f"document, {texts});</script></body></html>",
        encoding="utf-8",
    )
    return page.as_uri()


def test_the_bar_asks_the_name_once_and_remembers_it(chromium, tmp_path):
    context = chromium.new_context(accept_downloads=True)
    page = context.new_page()
    page.goto(_bar_page(tmp_path, "en"))
    texts = runtime_texts("en")["texts"]
    status = page.get_by_test_id("progress-status")
    assert page.get_by_test_id("learner-name").input_value() == ""
    assert status.inner_text() == texts["progress_unnamed"]
    assert page.evaluate("document.querySelector('nav').nextElementSibling.className") == (
        "mapteach-learner"
    )
    page.get_by_test_id("progress-download").click()
    assert status.inner_text() == texts["progress_unnamed"]
    page.get_by_test_id("learner-name").fill("Ada")
    page.get_by_test_id("learner-name").press("Enter")
    assert status.inner_text() == texts["progress_named"].format(name="Ada", n=0)
    page.get_by_test_id("progress-download").click()
    assert status.inner_text() == texts["progress_nothing"]
    assert page.evaluate("(check) => window.progress.record(check).saved", CHECK)
    assert status.inner_text() == texts["progress_named"].format(name="Ada", n=1)

    page.goto(_bar_page(tmp_path, "zh"))  # another page: the same name, in Chinese
    zh = runtime_texts("zh")["texts"]
    assert page.get_by_test_id("learner-name").input_value() == "Ada"
    assert page.get_by_test_id("progress-status").inner_text() == zh["progress_named"].format(
        name="Ada", n=1
    )
    assert page.get_by_test_id("learner-save").inner_text() == zh["progress_save"]
    with page.expect_download() as download:
        page.get_by_test_id("progress-download").click()
    assert download.value.suggested_filename == "mapteach-progress-Ada.jsonl"
    saved = Path(download.value.path()).read_text(encoding="utf-8")
    assert [json.loads(line)["answer"] for line in saved.splitlines()] == ["0.8056"]
    assert TIME.match(json.loads(saved)["time"])
    context.close()


def test_with_storage_blocked_the_bar_says_so_and_downloads_the_page_s_checks(chromium, tmp_path):
    context = chromium.new_context(accept_downloads=True)
    context.add_init_script(  # as a browser that lets no page store anything
        "Object.defineProperty(window, 'localStorage', "
        "{ get() { throw new DOMException('denied', 'SecurityError'); } });"
    )
    page = context.new_page()
    page.goto(_bar_page(tmp_path, "en"))
    page_only = texts()["progress_page_only"].format(error="SecurityError")
    status = page.get_by_test_id("progress-status")
    assert status.inner_text() == joined(texts()["progress_unnamed"], page_only)
    page.get_by_test_id("learner-name").fill("Ada")
    page.get_by_test_id("learner-save").click()
    kept = page.evaluate("(check) => window.progress.record(check)", CHECK)
    assert kept == {"saved": False, "kept": True, "message": page_only}
    assert status.inner_text() == joined(
        texts()["progress_named"].format(name="Ada", n=1), page_only
    )
    with page.expect_download() as download:
        page.get_by_test_id("progress-download").click()
    saved = Path(download.value.path()).read_text(encoding="utf-8")
    assert [json.loads(line)["answer"] for line in saved.splitlines()] == ["0.8056"]
    context.close()
