"""The Chinese edition: every notebook has a twin in notebooks/zh/, code for code.

- Twins: the same cells in the same order; every code cell identical except the
  one that selects the language (``mapteach.set_language("zh")``).
- Prose: each Chinese markdown cell is Chinese. Code, formulas, HTML tags, link
  targets and quoted article sentences aside, no run of three English words is
  left and CJK characters are at least half of the letters.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2] / "notebooks"
ENGLISH = sorted(ROOT.glob("*.ipynb"))
CHINESE = sorted((ROOT / "zh").glob("*.ipynb"))
LANGUAGE_CELL = {
    "en": 'import mapteach\n\nmapteach.set_language("en")  # 中文版: notebooks/zh/',
    "zh": 'import mapteach\n\nmapteach.set_language("zh")  # English: notebooks/',
}

#: Not prose: removed before the share of Chinese is measured.
NOT_PROSE = [
    re.compile(r"```.*?```", re.DOTALL),  # code blocks
    re.compile(r"\$\$.*?\$\$", re.DOTALL),  # display formulas
    re.compile(r"\$[^$\n]+\$"),  # inline formulas
    re.compile(r"`[^`\n]+`"),  # inline code
    re.compile(r"<[^>\n]+>"),  # HTML tags
    re.compile(r"\]\([^)\s]+\)"),  # link targets
    re.compile(r"https?://\S+"),  # bare addresses
    re.compile(r"「[^」]*」"),  # an article's own sentence
]
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
WORD = r"[A-Za-z][A-Za-z'’_-]*[A-Za-z]"
ENGLISH_RUN = re.compile(rf"{WORD}(?:[ \t]+{WORD}){{2,}}")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell: dict) -> str:
    return "".join(cell["source"])


def prose(text: str) -> str:
    """``text`` without code, formulas, tags, link targets and quotations."""
    for pattern in NOT_PROSE:
        text = pattern.sub(" ", text)
    return text


def english_left(text: str) -> list[str]:
    """Runs of three or more English words in the prose of ``text``."""
    return ENGLISH_RUN.findall(prose(text))


def cjk_share(text: str) -> float:
    """CJK characters over all letters (CJK and Latin) in the prose of ``text``."""
    rest = prose(text)
    cjk = len(CJK.findall(rest))
    latin = len(re.findall(r"[A-Za-z]", rest))
    return cjk / (cjk + latin) if cjk + latin else 1.0


def test_every_notebook_has_a_twin():
    assert [p.name for p in ENGLISH] == [p.name for p in CHINESE]
    assert len(ENGLISH) >= 17


@pytest.mark.parametrize("english", ENGLISH, ids=lambda p: p.stem)
def test_twins_share_every_code_cell(english):
    en, zh = _cells(english), _cells(ROOT / "zh" / english.name)
    assert [c["cell_type"] for c in en] == [c["cell_type"] for c in zh]
    differing = [
        index
        for index, (a, b) in enumerate(zip(en, zh, strict=True))
        if a["cell_type"] == "code" and _source(a) != _source(b)
    ]
    assert differing == [1], f"code cells differ at {differing}; only the language cell may"
    assert _source(en[1]) == LANGUAGE_CELL["en"]
    assert _source(zh[1]) == LANGUAGE_CELL["zh"]


@pytest.mark.parametrize("chinese", CHINESE, ids=lambda p: p.stem)
def test_chinese_markdown_is_chinese(chinese):
    problems = []
    for index, cell in enumerate(_cells(chinese)):
        if cell["cell_type"] != "markdown":
            continue
        text = _source(cell)
        runs = english_left(text)
        if runs:
            problems.append(f"cell {index}: English left: {runs[:3]}")
        if cjk_share(text) < 0.5:
            problems.append(f"cell {index}: only {cjk_share(text):.0%} of its letters are CJK")
    assert not problems, f"{chinese.name}:\n" + "\n".join(problems)


def test_the_prose_check_catches_english():
    assert english_left("这是 AP 的定义。This sentence was left untranslated.")
    assert not english_left(
        "精确率（precision）用 `precision_at_k(labels, k=3)` 计算，见 [02](02_x.ipynb)。"
    )
    assert cjk_share("Only English here.") == 0.0
    assert cjk_share("平均精度（AP）") > 0.5
    assert not english_left("「Mean Average Precision 也就是平均精度均值」")
