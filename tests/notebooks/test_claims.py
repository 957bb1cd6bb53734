"""Numbers in the notebooks' prose come from code, never from a keyboard.

Every markdown cell of every notebook is read. A decimal number (``0.6111``,
``0.48``, ``0.5``), a number in scientific notation (``5e-05``) or a percentage
other than 0% and 100% fails the test: a value the workbook states must be shown
by a code cell (a print, a table, or ``IPython.display.Markdown`` built from
computed values), so that it cannot drift from what the package computes.

The allowlist is small and explicit:

- section numbers (``§1.2``);
- the eleven recall levels of interpolated precision, ``0.0, 0.1, ..., 1.0``;
- an article's sentence quoted in corner brackets, 「...」 (the article's own text);
- the few exercise targets and code snippets listed in :data:`ALLOWED`, each with
  the reason it may stay.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).parents[2] / "notebooks").rglob("*.ipynb"))

#: (notebook stem, exact text) -> why the number may be typed.
ALLOWED: dict[tuple[str, str], str] = {
    ("07_pr_curves", "`(long)(L * R + 0.9)`"): "trec_eval 9's formula, quoted as code",
    ("10_from_scores_to_map", "`images / images.std(axis=0).clip(1e-9)`"): "code in an exercise",
}

#: Patterns that are not claims: removed before the search.
NOT_CLAIMS = [
    re.compile(r"「[^」]*」"),  # an article's sentence, quoted
    re.compile(r"§\s?\d+(?:\.\d+)*"),  # a section number
    re.compile(r"0\.0[,、] ?0\.1[,、] ?(?:\.\.\.|…)[,、] ?1\.0"),  # the eleven recall levels
]

#: What looks computed: a decimal, scientific notation, or a percentage.
FIGURE = re.compile(
    r"(?<![\w.])(?:\d+(?:\.\d+)?[eE][-+]?\d+|\d*\.\d+%?|\d+%)(?![\w])",
)


def typed_figures(text: str, notebook: str = "") -> list[str]:
    """The computed-looking figures typed in ``text`` that no rule allows."""
    for (stem, allowed), _reason in ALLOWED.items():
        if stem == notebook:
            text = text.replace(allowed, " ")
    for pattern in NOT_CLAIMS:
        text = pattern.sub(" ", text)
    return [match for match in FIGURE.findall(text) if match not in {"0%", "100%"}]


def _markdown_cells(path: Path) -> list[tuple[int, str]]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [
        (index, "".join(cell["source"]))
        for index, cell in enumerate(notebook["cells"])
        if cell["cell_type"] == "markdown"
    ]


def _around(text: str, figure: str) -> str:
    at = text.find(figure)
    return text[max(0, at - 50) : at + len(figure) + 30]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_number_is_typed_in_prose(path):
    found = [
        f"cell {index}: {figure!r} near {_around(text, figure)!r}"
        for index, text in _markdown_cells(path)
        for figure in typed_figures(text, path.stem)
    ]
    assert not found, (
        f"{path.name}: numbers typed in markdown; show them from a code cell instead:\n"
        + "\n".join(found)
    )


def test_the_notebooks_are_found():
    assert len(NOTEBOOKS) >= 13


@pytest.mark.parametrize(
    "text",
    [
        "AP is 0.6111 here",
        "the article printed 0.48",
        "P@5 = 0.6",
        "p = 5e-05",
        "a gain of 12.5%",
        "moved by 3%",
        "(.5 of it)",
    ],
)
def test_the_check_catches_typed_figures(text):
    assert typed_figures(text)


@pytest.mark.parametrize(
    "text",
    [
        "Article 003 §1.2 says so",
        "article 000 §6.1 saw it",
        "recall levels 0.0, 0.1, ..., 1.0",
        "the article wrote 「比刚才的0.61低了整整0.13」",
        "both are 100% accurate",
        "## 1. Judge ten results",
        "ranks 101-110, R = 3, P@10, nDCG@10, log2(rank + 1), 2/3",
        "guideline v1 and MAP@100",
    ],
)
def test_the_check_allows_what_is_not_a_claim(text):
    assert typed_figures(text) == []


def test_every_allowlist_entry_is_still_used():
    texts = {path.stem: "\n".join(text for _, text in _markdown_cells(path)) for path in NOTEBOOKS}
    for (stem, allowed), reason in ALLOWED.items():
        assert allowed in texts.get(stem, ""), f"unused allowlist entry ({reason}): {allowed!r}"
