"""Every 「…」 in the Chinese edition is an article's own text: its words, in order.

「」 is kept for verbatim quotes from the three source articles (000, 001, 003); their text
lost most of its punctuation, so a quote may show the punctuation restored (and ``AP@10``
for the text's ``AP10``): quotes are compared without punctuation, spaces, column bars
and ``@``. The articles' text is read from the folder ``MAPTEACH_SEEDS`` names (``.ci/run``
sets it when ``../shared/seeds`` is beside the checkout); without it these tests skip.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.articles.test_slips import words_only

ZH = Path(__file__).parents[2] / "notebooks" / "zh"
QUOTE = re.compile(r"「([^」]*)」")
#: Where a notebook quotes something else in 「」 (rule 2 wants “…” there): (notebook, quote).
#: 16 is edited in issue #27's second wave, which turns this one into “…”.
NOT_AN_ARTICLE = {("16_glossary", "见第 NN 本")}


def _articles() -> str:
    folder = os.environ.get("MAPTEACH_SEEDS")
    if not folder:
        pytest.skip("MAPTEACH_SEEDS is not set: name the folder of the articles' *.txt to check")
    texts = [path.read_text(encoding="utf-8") for path in sorted(Path(folder).glob("*.txt"))]
    if not texts:
        pytest.fail(f"MAPTEACH_SEEDS={folder}: no article text (*.txt) in that folder")
    return "\n".join(words_only(text) for text in texts)


def quotes(path: Path) -> list[tuple[int, str]]:
    """The 「…」 quotes of a notebook's markdown cells, with each one's cell number."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [
        (number, quote)
        for number, cell in enumerate(cells)
        if cell["cell_type"] == "markdown"
        for quote in QUOTE.findall("".join(cell["source"]))
    ]


def test_quotes_finds_every_quote_of_a_markdown_cell(tmp_path):
    cells = [
        {"cell_type": "markdown", "source": ["文章说「一，二」，又说", "「三」。"]},
        {"cell_type": "code", "source": ["print('「代码」')"]},
    ]
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps({"cells": cells}, ensure_ascii=False), encoding="utf-8")
    assert quotes(path) == [(0, "一，二"), (0, "三")]


@pytest.mark.parametrize("path", sorted(ZH.glob("*.ipynb")), ids=lambda path: path.stem)
def test_every_quote_is_an_articles_text(path):
    articles = _articles()
    wrong = [
        f"cell {number}: 「{quote}」"
        for number, quote in quotes(path)
        if words_only(quote) not in articles and (path.stem, quote) not in NOT_AN_ARTICLE
    ]
    assert not wrong, f"{path.name}: not an article's words (compared without punctuation):\n" + (
        "\n".join(wrong)
    )
