"""bundle joins a widget's ES module files, bundle_imports a file with those it imports;
as_classic makes a bundle a classic script.

The classic script is run in Chromium (a static page from file:// loads no module
script): every kind of export is there under ``window.mapteachModules[name]``, and a
``</script>`` inside the module does not end the inlined script.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import mapteach.offline.esm as esm
from mapteach.offline import TEXT_JS, EsmError, as_classic, bundle, bundle_imports


def _files(folder: Path, **sources: str) -> list[Path]:
    paths = []
    for name, source in sources.items():
        path = folder / f"{name}.js"
        path.write_text(source, encoding="utf-8")
        paths.append(path)
    return paths


def test_bundle_joins_in_order_and_drops_only_sibling_imports(tmp_path):
    paths = _files(
        tmp_path,
        a="export const one = 1;\n",
        b="import { one } from \"./a.js\";\nimport {one as uno} from './a.js'\n"
        "export function two() { return one + 1; }\n",
        c='import { two } from "./b.js";\nexport default { three: () => two() + 1 };\n',
    )
    assert bundle(*paths) == (
        "export const one = 1;\n"
        "export function two() { return one + 1; }\n"
        "export default { three: () => two() + 1 };\n"
    )


@pytest.mark.parametrize(
    ("source", "where"),
    [
        ('const x = 1;\nimport { a } from "https://cdn.example/a.js";\n', "b.js, line 2"),
        ('import * as all from "./a.js";\n', "b.js, line 1"),
        ('import a from "./a.js";\n', "b.js, line 1"),
    ],
)
def test_bundle_refuses_an_import_from_anywhere_else(tmp_path, source, where):
    paths = _files(tmp_path, a="export const a = 1;\n", b=source)
    with pytest.raises(EsmError, match=where):
        bundle(*paths)


def test_only_the_last_file_may_export_default(tmp_path):
    paths = _files(tmp_path, a="export default {};\n", b="export const b = 2;\n")
    with pytest.raises(EsmError, match=r"a\.js, line 1: only the last file"):
        bundle(*paths)


def test_a_stand_in_comes_after_what_it_imports_each_file_once(tmp_path):
    (tmp_path / "c.js").write_text("export const c = 1;\n")
    (tmp_path / "b.js").write_text('import { c } from "./c.js";\nexport const b = c + 1;\n')
    (tmp_path / "a.js").write_text(
        'import { b } from "./b.js";\nimport { c } from "./c.js";\nexport const a = b + c;\n'
    )
    order = esm._in_import_order(tmp_path / "a.js")
    assert [path.name for path in order] == ["c.js", "b.js", "a.js"]


def test_a_shared_helper_is_found_in_the_offline_folder(tmp_path):
    (tmp_path / "a.js").write_text('import { el } from "./text.js";\nexport const a = el;\n')
    order = esm._in_import_order(tmp_path / "a.js")
    assert order == [TEXT_JS, tmp_path / "a.js"]
    source = bundle_imports(tmp_path / "a.js")
    assert source.startswith(TEXT_JS.read_text(encoding="utf-8").split("\n", 1)[0])
    assert not re.search(r"^import ", source, re.M)


def test_an_import_found_nowhere_is_named(tmp_path):
    (tmp_path / "a.js").write_text('import { x } from "./nowhere.js";\n')
    with pytest.raises(EsmError, match=r"a\.js imports \./nowhere\.js"):
        bundle_imports(tmp_path / "a.js")


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ("const a = 1;\nexport { a };\n", "line 2: write each export"),
        ('export * from "./a.js";\n', "line 1: write each export"),
        ('import { a } from "./a.js";\n', "bundle its imports"),
        ('const note = "<!-- a comment -->";\n', "line 1: '<!--'"),
    ],
)
def test_as_classic_refuses_what_it_cannot_convert(source, problem):
    with pytest.raises(EsmError, match=problem):
        as_classic(source, "demo")


MODULE = """\
export const answer = 42;
export let counter = 1;
export function double(x) { return 2 * x; }
export async function later(x) { return (await x) + 1; }
export function* countTo(n) { for (let i = 1; i <= n; i += 1) yield i; }
export async function*ticks() { yield "tick"; }
export class Box { constructor(v) { this.v = v; } }
export const strict = (function () { return this === undefined; })();
const inside = "</script><p>not markup</p>";
export default { render: () => inside };
"""


@pytest.mark.browser
def test_a_classic_script_runs_inlined_and_exposes_every_export(chromium):
    page = chromium.new_page()
    page.set_content(
        f"<!DOCTYPE html><html><head><script>{as_classic(MODULE, 'demo')}</script>"
        "</head><body><p id='after'>after</p></body></html>"
    )
    found = page.evaluate(
        """async () => {
          const m = window.mapteachModules.demo;
          const ticks = [];
          for await (const tick of m.ticks()) ticks.push(tick);
          return {
            names: Object.keys(m).sort(),
            answer: m.answer, counter: m.counter, doubled: m.double(4),
            later: [m.later(1) instanceof Promise, await m.later(1)],
            counted: [...m.countTo(3)], ticks,
            box: new m.Box(5).v, rendered: m.default.render(),
            strict: m.strict,
          };
        }"""
    )
    assert found == {
        "names": sorted(["answer", "counter", "double", "later", "countTo", "ticks", "Box",
                         "strict", "default"]),
        "answer": 42, "counter": 1, "doubled": 8, "later": [True, 2], "counted": [1, 2, 3],
        "ticks": ["tick"], "box": 5, "rendered": "</script><p>not markup</p>", "strict": True,
    }  # fmt: skip
    assert page.locator("p").count() == 1  # the string did not end the script
    assert not page.evaluate("typeof answer !== 'undefined'")  # its own scope
    page.close()


@pytest.mark.browser
def test_a_bundle_runs_as_one_classic_script(chromium, tmp_path):
    paths = _files(
        tmp_path,
        a="export function one() { return 1; }\n",
        b='import { one } from "./a.js";\nexport default { two: () => one() + 1 };\n',
    )
    page = chromium.new_page()
    page.set_content(f"<script>{as_classic(bundle(*paths), 'pair')}</script>")
    assert page.evaluate("window.mapteachModules.pair.default.two()") == 2
    assert page.evaluate("window.mapteachModules.pair.one()") == 1
    page.close()
