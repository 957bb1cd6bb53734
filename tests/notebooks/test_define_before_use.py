"""Every glossary term is taught before it is used, or its first use points forward.

Each glossary entry names the notebook that defines it. Walking the notebooks in
order, a notebook that comes before that one may name the term only if its first
mention of it sits in a passage with an explicit forward link to the defining
notebook: ``see notebook NN`` (or a Markdown link to ``NN_*.ipynb``) in English,
``见第 N 本`` in Chinese (no leading zero: 第 8 本). Later mentions in the same
notebook are then fine, and so are headings (a heading announces; the passage under it
defines or links).

What is read is what the learner reads: the markdown cells, and in the English
edition the strings a code cell passes to ``tr``, ``N_`` or ``ngettext`` (the
Chinese edition's code cells are the same). Inline code, link targets and quoted
article sentences (「…」) are not prose and are skipped. A passage is a paragraph,
a list item, a table row or a heading. A term is searched with its
``english_pattern`` in English and its Chinese names in Chinese, longer names
first, and a name found inside a longer one (precision in "average precision",
精确率 in 插值精确率) counts only for the longer.

Run one notebook: ``pytest tests/notebooks/test_define_before_use.py -k 05_legal``.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from mapteach.explain.glossary import GLOSSARY

ROOT = Path(__file__).parents[2] / "notebooks"
EDITIONS = {"en": ROOT, "zh": ROOT / "zh"}
NOTEBOOKS = sorted(path.stem for path in ROOT.glob("*.ipynb"))

#: The explicit forward link, by edition; group 1 is the notebook's number.
FORWARD_LINK = {
    "en": re.compile(r"\bsee \[?notebook (\d\d)\b|\]\((\d\d)_[^)\s]*\.ipynb\)", re.IGNORECASE),
    "zh": re.compile(r"见\[?第 ?(\d{1,2}) ?本|\]\((\d\d)_[^)\s]*\.ipynb\)"),
}
#: Not prose: removed before terms are searched (links are read first).
NOT_PROSE = [
    re.compile(r"```.*?```", re.DOTALL),  # code blocks
    re.compile(r"`[^`\n]+`"),  # inline code
    re.compile(r"\]\([^)\s]+\)"),  # link targets
    re.compile(r"https?://\S+"),  # bare addresses
    re.compile(r"「[^」]*」"),  # an article's own sentence
]
#: A line that starts a passage of its own inside a paragraph.
PASSAGE_START = re.compile(r"^\s*(?:[-*+] |\d+[.)] |\||#{1,6} )")
TRANSLATED = {"tr", "N_", "ngettext"}
HEADING = re.compile(r"^\s*#{1,6} ")
#: Uses of a term its glossary patterns leave out, in both editions: numbered forms and
#: symbols (a translation writes "AP@10" for "AP@10", so the glossary names only AP@k).
ALSO_SEARCHED = {
    "AP@k": r"(?<![A-Za-z])m?AP@\d+",
    "Hit@k": r"(?<![A-Za-z])Hit@\d+",
    "Judged@k": r"(?<![A-Za-z])Judged@\d+",
    "chance agreement": r"(?<![A-Za-z])p_e(?![A-Za-z])",
}
#: Chinese names too common as plain words to be read as the term, by term.
ZH_NOT_SEARCHED: dict[str, str] = {}
#: (notebook, term) -> why the notebook's words are not the term (both editions).
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("08_choosing_a_metric", "ties"): "a draw between two systems on a measure, not tied scores",
}


@dataclass(frozen=True)
class Mention:
    """A term named before its notebook, without a forward link."""

    term: str
    defined_in: str
    cell: int
    passage: str

    def __str__(self) -> str:
        return f"{self.term!r} (defined in {self.defined_in}) in cell {self.cell}: {self.passage!r}"


def number(notebook: str) -> int:
    """A notebook's place in the order: ``05_legal_search_walkthrough`` -> 5."""
    return int(notebook.split("_", 1)[0])


def passages(markdown: str) -> list[str]:
    """``markdown`` cut into paragraphs, list items, table rows and headings."""
    found: list[str] = []
    for paragraph in re.split(r"\n\s*\n", markdown):
        current: list[str] = []
        for line in paragraph.splitlines():
            if PASSAGE_START.match(line) and current:
                found.append("\n".join(current))
                current = []
            current.append(line)
        if current:
            found.append("\n".join(current))
    return found


def translated_strings(code: str) -> list[str]:
    """The literal strings a code cell passes to ``tr``, ``N_`` or ``ngettext``."""
    lines = [line for line in code.splitlines() if not line.lstrip().startswith(("%", "!"))]
    found = []
    for node in ast.walk(ast.parse("\n".join(lines))):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name in TRANSLATED:
            found.extend(
                arg
                for arg in node.args
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            )
    return [arg.value for arg in sorted(found, key=lambda arg: (arg.lineno, arg.col_offset))]


def read_passages(path: Path, edition: str) -> list[tuple[int, str]]:
    """(cell index, passage) for everything the learner reads in a notebook, in order."""
    found = []
    for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            found.extend((index, passage) for passage in passages(source))
        elif cell["cell_type"] == "code" and edition == "en":
            found.extend((index, text) for text in translated_strings(source))
    return found


def _latin_bounded(name: str) -> str:
    """A pattern for ``name`` that does not match inside a longer Latin word (RR in ERROR).

    A word boundary cannot be used: next to a Chinese character there is none.
    """
    before = r"(?<![A-Za-z])" if re.match(r"[A-Za-z]", name) else ""
    after = r"(?![A-Za-z])" if re.search(r"[A-Za-z]$", name) else ""
    return before + re.escape(name) + after


def term_patterns(edition: str) -> list[tuple[str, str]]:
    """(term, pattern) in the order names are searched: longer names first.

    English follows the glossary's order (it lists longer phrases first); Chinese
    sorts every name of every term by length. The numbered forms and symbols come last.
    """
    also = list(ALSO_SEARCHED.items())
    if edition == "en":
        return [(key, term.english_pattern) for key, term in GLOSSARY.items()] + also
    names = [
        (key, name)
        for key, term in GLOSSARY.items()
        if key not in ZH_NOT_SEARCHED
        for name in term.zh_names
    ]
    names.sort(key=lambda pair: len(pair[1]), reverse=True)
    return [(key, _latin_bounded(name)) for key, name in names] + also


def named_terms(text: str, edition: str) -> list[str]:
    """The glossary terms ``text`` names, each name read once (inside the longest name)."""
    for pattern in NOT_PROSE:
        text = pattern.sub(" ", text)
    found = []
    for key, pattern in term_patterns(edition):
        if re.search(pattern, text, flags=re.IGNORECASE):
            found.append(key)
            text = re.sub(pattern, " ", text, flags=re.IGNORECASE)
    return found


def links_to(passage: str, edition: str) -> set[int]:
    """The notebooks a passage links forward to explicitly."""
    return {
        int(next(group for group in match.groups() if group))
        for match in FORWARD_LINK[edition].finditer(passage)
    }


def unlinked_mentions(notebook: str, reading: list[tuple[int, str]], edition: str) -> list[Mention]:
    """Each term the notebook names before its defining notebook, first mention unlinked."""
    seen: set[str] = set()
    wrong = []
    for cell, passage in reading:
        if HEADING.match(passage):
            continue
        for key in named_terms(passage, edition):
            defined_in = GLOSSARY[key].notebook
            if key in seen or number(defined_in) <= number(notebook):
                continue
            if (notebook, key) in EXCEPTIONS:
                continue
            seen.add(key)
            if number(defined_in) not in links_to(passage, edition):
                wrong.append(Mention(key, defined_in, cell, " ".join(passage.split())[:160]))
    return wrong


def test_every_glossary_entry_names_a_notebook_of_the_workbook():
    assert {term.notebook for term in GLOSSARY.values()} <= set(NOTEBOOKS)


@pytest.mark.parametrize("edition", sorted(EDITIONS))
@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_no_term_is_used_before_its_notebook_without_a_forward_link(notebook, edition):
    reading = read_passages(EDITIONS[edition] / f"{notebook}.ipynb", edition)
    wrong = unlinked_mentions(notebook, reading, edition)
    link = "see notebook NN" if edition == "en" else "见第 N 本"
    assert not wrong, f"{edition}/{notebook}: define the term first or write '{link}':\n" + (
        "\n".join(str(mention) for mention in wrong)
    )


@pytest.mark.parametrize("edition", sorted(EDITIONS))
@pytest.mark.parametrize("key", list(GLOSSARY))
def test_the_notebook_that_defines_a_term_names_it(key, edition):
    notebook = GLOSSARY[key].notebook
    reading = read_passages(EDITIONS[edition] / f"{notebook}.ipynb", edition)
    named = {term for _, passage in reading for term in named_terms(passage, edition)}
    assert key in named, f"{edition}/{notebook} never names {key!r}: is it defined there?"


@pytest.mark.parametrize("exception", sorted(EXCEPTIONS), ids=" ".join)
def test_every_exception_is_still_needed(exception):
    notebook, key = exception
    assert number(notebook) < number(GLOSSARY[key].notebook), f"{exception}: not before"
    named = {
        term
        for edition, folder in EDITIONS.items()
        for _, passage in read_passages(folder / f"{notebook}.ipynb", edition)
        if not HEADING.match(passage)
        for term in named_terms(passage, edition)
    }
    assert key in named, f"unused exception: {exception}"


def test_the_walk_flags_an_early_mention_and_accepts_a_forward_link():
    late = number(GLOSSARY["MAP"].notebook)
    early = f"{late - 1:02d}_early"
    plain = [(0, "Mean average precision is the mean.")]
    assert [m.term for m in unlinked_mentions(early, plain, "en")] == ["MAP"]
    linked = [(0, f"Mean average precision (see notebook {late:02d})."), *plain]
    assert unlinked_mentions(early, linked, "en") == []
    assert unlinked_mentions(GLOSSARY["MAP"].notebook, plain, "en") == []
    assert unlinked_mentions(early, [(0, "## Mean average precision")], "en") == []
    wrongly_linked = [(0, f"Mean average precision (see notebook {late + 1:02d}).")]
    assert unlinked_mentions(early, wrongly_linked, "en") != []
    chinese = [(0, f"平均精度均值（见第 {late} 本）。"), (1, "平均精度均值。")]
    assert unlinked_mentions(early, chinese, "zh") == []
    assert [m.term for m in unlinked_mentions(early, chinese[1:], "zh")] == ["MAP"]


def test_a_name_inside_a_longer_name_counts_for_the_longer_only():
    assert named_terms("mean average precision", "en") == ["MAP"]
    assert named_terms("插值精确率", "zh") == ["interpolated precision"]
    assert named_terms("`precision` and 「精确率」", "zh") == []


def test_code_cells_are_read_through_their_translated_strings():
    code = '%matplotlib inline\nprint(tr("recall {r}", r=1), "precision")\nN_("ties")'
    assert translated_strings(code) == ["recall {r}", "ties"]
    assert passages("Intro.\n- one\n  more\n| a |\n| b |\n\n## Head") == [
        "Intro.",
        "- one\n  more",
        "| a |",
        "| b |",
        "## Head",
    ]
