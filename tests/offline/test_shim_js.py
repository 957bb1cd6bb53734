"""shim.js stands in for anywidget's model and the kernel, on a page with no kernel.

Small fake widgets (a counter, a mirror that follows another widget, a holder that shows
a child widget's view, one whose render fails) run through the shim in Chromium: the
model contract of the design (``set`` fires at once and only on a change, ``save_changes``
hands the stand-in exactly the names the view set, a stand-in's own sets are its reply),
the page (every widget rendered, its picture hidden; a widget that fails keeps its
picture and says so) and one model for a widget shown in two outputs.
"""

from __future__ import annotations

import json

import pytest

from mapteach.offline import TEXT_JS, as_classic, bundle_imports, offline_html, runtime_texts

pytestmark = pytest.mark.browser

SHIM = as_classic(bundle_imports(TEXT_JS.with_name("shim.js")), "shim")

#: A button that counts up (the view sets `count`); its stand-in answers with `doubled`.
COUNTER = """
export default {
  initialize({ model }) { (window.calls ??= []).push(["initialize", model.get("count")]); },
  render({ model, el }) {
    const button = document.createElement("button");
    button.dataset.testid = "count";
    button.dataset.origin = JSON.stringify(model.get("origin") ?? null);
    const draw = () => { button.textContent = `${model.get("count")}:${model.get("doubled")}`; };
    button.addEventListener("click", () => {
      model.set("count", model.get("count") + 1);
      model.save_changes();
    });
    model.on("change:count change:doubled", draw);
    draw();
    el.append(button);
  },
};
"""
COUNTER_OFFLINE = """
export function attach(model) { (window.calls ??= []).push(["attach", model.get("count")]); }
export function standIn(model, names) {
  (window.calls ??= []).push(["standIn", names]);
  if (names.includes("count")) model.set("doubled", 2 * model.get("count"));
}
"""
#: Shows the count of the counter it refers to (`source`), as a readout follows a board.
MIRROR = """
export default {
  async render({ model, el }) {
    const source = await model.widget_manager.get_model(model.get("source").slice(10));
    const out = document.createElement("output");
    out.dataset.testid = "mirror";
    const draw = () => { out.textContent = String(source.get("count")); };
    source.on("change:count", draw);
    draw();
    el.append(out);
  },
};
"""
#: Shows its child's own view inside itself, as an arrangement exercise shows its board.
HOLDER = """
export default {
  async render({ model, el }) {
    const manager = model.widget_manager;
    const view = await manager.create_view(await manager.get_model(model.get("child").slice(10)));
    view.el.dataset.testid = "held";
    el.append(view.el);
  },
};
"""
BROKEN = 'export default { render() { throw new Error("broken on purpose"); } };\n'
MODULES = {
    "counter": COUNTER,
    "counter_offline": COUNTER_OFFLINE,
    "mirror": MIRROR,
    "holder": HOLDER,
    "broken": BROKEN,
}


def _counter(page_id: str, count: int, **extra) -> dict:
    return {"module": "counter", "id": page_id, "model": {"count": count, "doubled": 0, **extra}}


def _page(outputs: list[str], lang: str = "en") -> str:
    scripts = "".join(f"<script>{as_classic(src, name)}</script>" for name, src in MODULES.items())
    texts = json.dumps(runtime_texts(lang), ensure_ascii=False)
    return (
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
        f'<script type="application/json" id="mapteach-runtime-texts">{texts}</script>'
        f"{scripts}<script>{SHIM}</script></head><body>{''.join(outputs)}</body></html>"
    )


def _output(state: dict, picture: str = "<p>picture</p>") -> str:
    return offline_html(state["module"], {"children": {}, **state}, picture, lang="en")


@pytest.fixture
def page(chromium):
    context = chromium.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    yield page
    context.close()


def _open(page, outputs: list[str], lang: str = "en") -> None:
    page.set_content(_page(outputs, lang))
    page.wait_for_function("document.documentElement.dataset.mapteachRuntime === 'ready'")


def test_a_set_fires_at_once_and_only_on_a_change(page):
    page.set_content(_page([]))
    seen = page.evaluate(
        """() => {
          const { OfflineRuntime } = window.mapteachModules.shim;
          const model = new OfflineRuntime({}, {}).make("w1", "counter", {
            count: 1, items: [{ doc: "d1" }],
          });
          const seen = [];
          const handler = (_, value) => seen.push(value);
          model.on("change:count change:items", handler);
          model.on("change", () => seen.push("any"));
          model.set("count", 1);
          model.set("items", [{ doc: "d1" }]);
          model.set("count", 2);
          model.set({ count: 3, items: [] });
          model.off("change:count", handler);
          model.set("count", 4);
          return [seen, [...model.pending].sort()];
        }"""
    )
    assert seen == [[2, "any", 3, [], "any", "any"], ["count", "items"]]


def test_save_changes_hands_the_stand_in_the_names_the_view_set(page):
    page.set_content(_page([]))
    calls = page.evaluate(
        """() => {
          const { OfflineRuntime } = window.mapteachModules.shim;
          const calls = [];
          const modules = {
            board_offline: { standIn(model, names) {
              calls.push(["board", names]);
              model.set("ap", model.get("count") / 2);
              readout.set("stale", true);
            } },
            readout_offline: { standIn(model, names) { calls.push(["readout", names]); } },
          };
          const runtime = new OfflineRuntime(modules, {});
          const board = runtime.make("w1", "board", { count: 1, ap: 0.5 });
          const readout = runtime.make("w2", "readout", { stale: false });
          board.on("change:ap", (_, ap) => calls.push(["shown", ap]));
          board.set("count", 3);
          board.save_changes();
          board.save_changes();
          return [calls, [...board.pending], [...readout.pending]];
        }"""
    )
    # The reply (ap) reaches the view and is not sent back; the other widget the reply
    # changed answers with its own stand-in, once.
    assert calls == [
        [["board", ["count"]], ["shown", 1.5], ["readout", ["stale"]]],
        [],
        [],
    ]


def test_what_attach_subscribes_to_through_get_model_is_the_kernels(page):
    page.set_content(_page([]))
    found = page.evaluate(
        """async () => {
          const { OfflineRuntime } = window.mapteachModules.shim;
          const modules = {
            task_offline: { attach(model) {
              model.widget_manager.get_model("w1").then((board) => {
                board.on("change:items", () => model.set("readout", board.get("items").length));
              });
            } },
          };
          const runtime = new OfflineRuntime(modules, {});
          const board = runtime.make("w1", "board", { items: [] });
          const task = runtime.make("w2", "task", { readout: 0 });
          await runtime.start();
          board.set("items", [1, 2]);  // a view's drag
          const missing = await runtime.manager.get_model("w9").catch((error) => error.message);
          const awaited = (await runtime.manager.get_model("w1")) === board;
          return [task.get("readout"), [...task.pending], [...board.pending], missing, awaited];
        }"""
    )
    assert found == [2, [], ["items"], "no widget w9 on this page", True]


def test_stand_ins_that_answer_each_other_forever_are_stopped(page):
    page.set_content(_page([]))
    messages: list[str] = []
    page.on("console", lambda message: messages.append(message.text))
    replies = page.evaluate(
        """() => {
          const { OfflineRuntime } = window.mapteachModules.shim;
          let replies = 0;
          const modules = {
            ping_offline: { standIn() { replies += 1; pong.set("n", pong.get("n") + 1); } },
            pong_offline: { standIn() { replies += 1; ping.set("n", ping.get("n") + 1); } },
          };
          const runtime = new OfflineRuntime(modules, {});
          const ping = runtime.make("w1", "ping", { n: 0 });
          const pong = runtime.make("w2", "pong", { n: 0 });
          ping.set("n", 1);
          ping.save_changes();
          return replies;
        }"""
    )
    assert 100 < replies < 2000
    assert any("loop" in message for message in messages)


def test_every_widget_is_rendered_and_its_picture_hidden(page):
    _open(page, [_output(_counter("w1", 2)), _output(_counter("w2", 5))])
    buttons = page.get_by_test_id("count")
    assert [buttons.nth(i).inner_text() for i in range(2)] == ["2:0", "5:0"]
    assert page.locator(".mapteach-offline-static").evaluate_all(
        "parts => parts.map((part) => part.hidden && getComputedStyle(part).display)"
    ) == ["none", "none"]
    buttons.nth(1).click()
    assert buttons.nth(1).inner_text() == "6:12"  # the view's count, the stand-in's reply
    assert page.evaluate("window.calls") == [
        ["attach", 2], ["attach", 5], ["initialize", 2], ["initialize", 5], ["standIn", ["count"]],
    ]  # fmt: skip
    assert not page.errors


def test_a_widget_that_cannot_run_keeps_its_picture_and_says_so(page):
    bad_json = _output(_counter("w2", 1)).replace('"count": 1', '"count": ')
    _open(
        page,
        [
            _output({"module": "broken", "id": "w1", "model": {}}, "<p>still 1</p>"),
            bad_json,
            _output({"module": "nowhere", "id": "w3", "model": {}}, "<p>still 3</p>"),
            _output(_counter("w4", 7)),
        ],
    )
    notices = page.get_by_test_id("offline-notice")
    assert notices.count() == 3
    expected = runtime_texts("en")["texts"]["widget_failed"]
    assert all(notices.nth(i).inner_text() == expected for i in range(3))
    assert page.locator(".mapteach-offline-static:visible").count() == 3
    assert page.get_by_text("still 1").is_visible() and page.get_by_text("still 3").is_visible()
    assert page.locator(".mapteach-offline-live").count() == 1  # no empty live part is left
    assert page.get_by_test_id("count").inner_text() == "7:0"  # the others still run


def test_one_widget_shown_in_two_outputs_is_one_model(page):
    # A counter, then a mirror that refers to it: its state holds the counter again (under
    # its own local ref c0), written later, with the count the counter had by then.
    mirror = {
        "module": "mirror",
        "id": "w2",
        "model": {"source": "IPY_MODEL_c0"},
        "children": {"c0": _counter("w1", 4)},
    }
    _open(page, [_output(_counter("w1", 3, origin=[9])), _output(mirror)])
    counter = page.get_by_test_id("count")
    assert counter.inner_text() == "4:0"  # the last state written,
    assert counter.get_attribute("data-origin") == "[9]"  # with what only the first held
    assert page.get_by_test_id("mirror").inner_text() == "4"
    page.get_by_test_id("count").click()
    assert page.get_by_test_id("mirror").inner_text() == "5"
    assert page.evaluate("window.calls.filter(([what]) => what === 'attach').length") == 1
    assert not page.errors


def test_a_child_widget_shows_its_own_view_inside_its_parent(page):
    holder = {
        "module": "holder",
        "id": "w1",
        "model": {"child": "IPY_MODEL_c0"},
        "children": {"c0": _counter("w2", 1)},
    }
    _open(page, [_output(holder)])
    held = page.get_by_test_id("held")
    assert held.get_by_test_id("count").inner_text() == "1:0"
    held.get_by_test_id("count").click()
    assert held.get_by_test_id("count").inner_text() == "2:4"


def test_children_without_page_ids_stay_apart(page):
    first, second = (
        {"module": "holder", "model": {"child": "IPY_MODEL_c0"}, "children": {"c0": child}}
        for child in ({"module": "counter", "model": {"count": 1, "doubled": 0}},) * 2
    )
    _open(page, [_output(first), _output(second)])
    counts = page.get_by_test_id("count")
    counts.first.click()
    assert [counts.nth(i).inner_text() for i in range(2)] == ["2:4", "1:0"]


def test_the_notice_speaks_the_pages_language(page):
    _open(page, [_output({"module": "broken", "id": "w1", "model": {}})], lang="zh")
    assert (
        page.get_by_test_id("offline-notice").inner_text()
        == (runtime_texts("zh")["texts"]["widget_failed"])
    )


CHECK = {"notebook": "03", "exercise": "2", "answer": "0.5", "verdict": "correct"}


@pytest.mark.parametrize(
    "progress",
    [
        "undefined",  # the page has no progress module
        "{ startProgress() { throw new Error('broken on purpose'); } }",  # it fails to start
    ],
)
def test_a_page_that_cannot_keep_checks_says_so(page, progress):
    page.set_content(_page([]))
    said = page.evaluate(
        f"""([runtime, check]) => {{
          const modules = {{ progress: {progress} }};
          const record = window.mapteachModules.shim.startRecording(document, modules, runtime);
          return record(check);
        }}""",
        [runtime_texts("zh"), CHECK],
    )
    assert said == {"saved": False, "message": runtime_texts("zh")["texts"]["progress_missing"]}
    assert said["message"]


def test_a_page_that_keeps_checks_hands_them_to_its_progress(page):
    page.set_content(_page([]))
    said = page.evaluate(
        """(check) => {
          const progress = { startProgress: () => ({ record: (c) => ({ saved: true, c }) }) };
          const modules = { progress };
          return window.mapteachModules.shim.startRecording(document, modules, {})(check);
        }""",
        CHECK,
    )
    assert said == {"saved": True, "c": CHECK}
