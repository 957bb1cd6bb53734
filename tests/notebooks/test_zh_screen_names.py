"""The Chinese text names what is on screen: a quoted column or control exists as shown.

A name is meant as a column or a control when zh markdown quotes it (“…”, a code
span, or *emphasis*) right before a word for one (“精确率”列, “下一个查询”按钮,
`hits` 列) or, in “…” or *emphasis*, right after a verb that acts on one
(点击“保存名字”, 勾选“显示约定”; a code span after 按 is a function the text
follows: 按 `explain_ap` 的写法). It must be shown, as written (spaces aside), by
that notebook's stored outputs (tables, printed text, widget fallbacks) or by a
widget of the workbook in Chinese (its ``texts``, which its live view draws).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.i18n.test_zh_latin_runs import _flat, _visible_html, widget_texts

ROOT = Path(__file__).parents[2]
CHINESE = sorted((ROOT / "notebooks" / "zh").glob("*.ipynb"))

QUOTED = r"(?:“([^“”\n]{1,40})”|`([^`\n]{1,40})`)"
#: Words for a column or a control, after the name; verbs acting on one, before it.
THING = (
    "列|一列|这一列|表头|字段|按钮|键|输入框|下拉框|下拉菜单|菜单|滑块|复选框|开关|控件|选项"
    "|标签页|栏"
)
ACTION = "点击|单击|点|按下|按|勾选|选中|取消勾选|切换|展开"
#: Emphasis that names a control: Chinese first, no sentence punctuation (not a key: Shift+Enter).
EMPHASIS = r"(?<!\*)\*{1,2}([\u4e00-\u9fff][^*\n，。；：、]{0,19}?)(?<=\S)\*{1,2}(?!\*)"
NAMED = re.compile(
    rf"(?:{QUOTED}|{EMPHASIS})\s?(?:{THING})|(?<!\*)(?:{ACTION})\s?(?:“([^“”\n]{{1,40}})”|{EMPHASIS})"
)


def screen_names(markdown: str) -> list[str]:
    """The names ``markdown`` quotes as columns or controls.

    >>> screen_names("“精确率”列是 P@k；按“下一个查询”，或看 `labels from` 列。")
    ['精确率', '下一个查询', 'labels from']
    >>> screen_names("“大意”不是，按 `explain_ap` 的写法也不是；按*下一个查询*是")
    ['下一个查询']
    """
    return [next(name for name in match.groups() if name) for match in NAMED.finditer(markdown)]


def _compact(text: str) -> str:
    return re.sub(r"\s+", "", text)


def shown_text(cells: list[dict]) -> str:
    """Everything the stored outputs show, tags and spaces removed."""
    pieces = []
    for cell in cells:
        for output in cell.get("outputs", []):
            if output["output_type"] == "stream":
                pieces.append("".join(output["text"]))
            for mime, text in output.get("data", {}).items():
                if isinstance(text, list):
                    text = "".join(text)
                if mime == "text/html":
                    pieces.append(_visible_html(text))
                elif mime.startswith("text/"):
                    pieces.append(text)
    return _compact("\n".join(pieces))


WIDGETS = _compact("\n".join(text for texts in widget_texts().values() for text in _flat(texts)))


@pytest.mark.parametrize("path", CHINESE, ids=lambda p: p.stem)
def test_every_quoted_column_or_control_is_on_screen(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    shown = shown_text(cells) + WIDGETS
    missing = [
        f"cell {index}: {name!r}"
        for index, cell in enumerate(cells)
        if cell["cell_type"] == "markdown"
        for name in screen_names("".join(cell["source"]))
        if _compact(name) not in shown
    ]
    assert not missing, f"{path.name}: named but not on screen:\n" + "\n".join(missing)


def test_a_name_not_on_screen_is_caught():
    cells = [
        {"cell_type": "markdown", "source": ["看“标签来源”列和 `labels from` 列"]},
        {"cell_type": "code", "outputs": [{"output_type": "stream", "text": ["标签 来源\n"]}]},
    ]
    shown = shown_text(cells)
    names = screen_names(cells[0]["source"][0])
    assert [name for name in names if _compact(name) not in shown] == ["labels from"]
