"""The instructor guide: instructor/README.md and its Chinese twin, instructor/README.zh.md.

- Both exist, link to each other, and every relative link resolves to a file.
- Each has the three session plans (90 minutes, half a day of 210, annotator calibration of
  120); each plan's agenda table has minute ranges ("0-10") that run from 0 to the length its
  heading states, with no gap and no overlap, and the two editions agree on them.
- Every notebook a plan links exists in both editions, each edition links its own, and each
  plan cites the notebooks it is about.
- What the guide cites is there: § "heading" is a heading of the notebook linked last
  before it, ▸ "prompt" the start of an exercise prompt in that notebook, and
  ✗ "misconception" words of the feedback in the message catalogue (msgid in English,
  msgstr in Chinese).
- No decimal the notebooks compute is typed in: the only decimals are the article's
  printed 0.48 and the Python version.
- The Chinese guide's prose is Chinese, paragraph by paragraph, by the checks of
  ``tests/test_zh_edition.py``.
- Every command the guide names in code is there: each ``make`` target is a Makefile
  target, each ``VAR=`` given to make a Makefile variable, each ``MAPTEACH_*`` variable read
  by the code; ``tools/setup.py`` and ``python -m mapteach progress`` accept the arguments
  it gives them, and ``tools/answer_key.py`` has each option it names.
"""

from __future__ import annotations

import html
import importlib.util
import json
import re
import shlex
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from mapteach.cli import _parser as cli_parser
from mapteach.i18n import LOCALE_DIR
from tests.notebooks.test_zh_edition import cjk_share, english_left

ROOT = Path(__file__).parents[2]
GUIDES = {"en": ROOT / "instructor" / "README.md", "zh": ROOT / "instructor" / "README.zh.md"}
NOTEBOOKS = {"en": ROOT / "notebooks", "zh": ROOT / "notebooks" / "zh"}

#: Each plan: its heading's start in each edition, its length in minutes, the notebooks it is about.
PLANS = [
    ({"en": "## Plan 1 ·", "zh": "## 方案一 ·"}, 90, {"01", "03", "05", "06"}),
    (
        {"en": "## Plan 2 ·", "zh": "## 方案二 ·"},
        210,
        {"01", "03", "05", "06", "07", "08", "09", "10", "11"},
    ),
    ({"en": "## Plan 3 ·", "zh": "## 方案三 ·"}, 120, {"12", "14"}),
]
MINUTES = {"en": "{n} minutes", "zh": "{n} 分钟"}
ALLOWED_DECIMALS = {"0.48", "3.10"}  # article 001's printed figure; Python 3.10

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
NOTEBOOK_LINK = re.compile(r"\]\(\.\./notebooks/((?:zh/)?)(\d\d)_\w+\.ipynb\)")
ROW = re.compile(r"^\|\s*(\d+)[-～](\d+)\s*\|", re.MULTILINE)  # the Chinese edition writes 0～10
CODE_BLOCK = re.compile(r"```.*?```", re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]+`")
DECIMAL = re.compile(r"(?<![§\d.])\d+\.\d+")
TAG = re.compile(r"<[^>]+>")

#: § heading, ▸ exercise prompt, ✗ misconception: quoted "..." in English, “...” in Chinese.
QUOTE = {"en": r' "([^"]+)"', "zh": r"“([^”]+)”"}


def _text(lang: str) -> str:
    return GUIDES[lang].read_text(encoding="utf-8")


def _marked(lang: str, mark: str) -> list[tuple[int, str]]:
    """(position, quoted words) of every ``mark`` in the guide."""
    pattern = re.compile(re.escape(mark) + QUOTE[lang])
    return [(m.start(), m.group(1)) for m in pattern.finditer(_text(lang))]


def _plan(lang: str, start: str) -> str:
    """The plan's section: from its heading to the next second-level heading."""
    text = _text(lang)
    begin = next(
        (m.start() for m in re.finditer(r"^## .*$", text, re.MULTILINE) if m[0].startswith(start)),
        None,
    )
    assert begin is not None, f"{GUIDES[lang].name}: no heading starting {start!r}"
    following = re.search(r"^## ", text[begin + 3 :], re.MULTILINE)
    return text[begin : begin + 3 + following.start()] if following else text[begin:]


def _notebook_before(lang: str, position: int) -> Path:
    """The notebook linked last before ``position`` in the guide."""
    links = [m for m in NOTEBOOK_LINK.finditer(_text(lang)) if m.start() < position]
    assert links, f"{GUIDES[lang].name}: a citation at {position} follows no notebook link"
    last = links[-1]
    return next(NOTEBOOKS[lang].glob(f"{last[2]}_*.ipynb"))


#: A space beside a CJK character: the spacing rule (tests/i18n/test_zh_typography.py) is not
#: what a citation is compared on, so a heading cited as "AP 就是阴影面积" matches "AP就是阴影面积".
CJK_SPACE = re.compile(r"(?<=[\u3000-\u9fff\uff00-\uffef])\s+|\s+(?=[\u3000-\u9fff\uff00-\uffef])")


def _squeeze(text: str) -> str:
    squeezed = re.sub(r"\s+", " ", html.unescape(TAG.sub("", text))).strip()
    return CJK_SPACE.sub("", squeezed)


@cache
def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


@cache
def _headings(path: Path) -> frozenset[str]:
    return frozenset(
        _squeeze(line.lstrip("#"))
        for cell in _cells(path)
        if cell["cell_type"] == "markdown"
        for line in "".join(cell["source"]).splitlines()
        if line.startswith("#")
    )


@cache
def _everything(path: Path) -> str:
    """A notebook's sources and its outputs' text and HTML, tags removed, spaces squeezed."""
    parts = []
    for cell in _cells(path):
        parts.append("".join(cell["source"]))
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            for kind in ("text/plain", "text/html", "text/markdown"):
                value = data.get(kind, "")
                parts.append("".join(value) if isinstance(value, list) else value)
    return _squeeze("\n".join(parts))


@cache
def _catalogue(lang: str) -> str:
    """Every English message (msgid) or every translation (msgstr), spaces squeezed."""
    with open(LOCALE_DIR / "zh" / "LC_MESSAGES" / "mapteach.po", "rb") as handle:
        catalog = read_po(handle)
    texts = [
        str(message.id if lang == "en" else message.string) for message in catalog if message.id
    ]
    return "\n".join(_squeeze(text) for text in texts)  # one by one: a "<" cannot eat the next


def _paragraphs(text: str) -> list[str]:
    return [part for part in re.split(r"\n\s*\n", CODE_BLOCK.sub(" ", text)) if part.strip()]


@pytest.mark.parametrize("lang", GUIDES)
def test_the_guide_exists_and_links_its_twin_at_the_top(lang):
    text = _text(lang)
    twin = {"en": "README.zh.md", "zh": "README.md"}[lang]
    top = "\n".join(text.splitlines()[:4])
    assert f"]({twin})" in top, f"{GUIDES[lang].name} does not link {twin} at the top"


@pytest.mark.parametrize("lang", GUIDES)
def test_every_relative_link_resolves(lang):
    missing = []
    for target in LINK.findall(_text(lang)):
        if re.match(r"[a-z]+:|#", target):
            continue
        if not (GUIDES[lang].parent / target.split("#")[0]).exists():
            missing.append(target)
    assert not missing, f"{GUIDES[lang].name}: links to nothing: {missing}"


@pytest.mark.parametrize("lang", GUIDES)
@pytest.mark.parametrize(("starts", "minutes", "notebooks"), PLANS, ids=["90", "half-day", "calib"])
def test_each_plan_adds_up_and_cites_its_notebooks(lang, starts, minutes, notebooks):
    plan = _plan(lang, starts[lang])
    heading = plan.splitlines()[0]
    assert MINUTES[lang].format(n=minutes) in heading, f"{heading!r} does not state {minutes}"

    ranges = [(int(a), int(b)) for a, b in ROW.findall(plan)]
    assert ranges, f"{heading!r}: no agenda rows such as '| 0-10 |'"
    ends = [0] + [end for _, end in ranges[:-1]]
    assert [start for start, _ in ranges] == ends, f"{heading!r}: gaps or overlaps in {ranges}"
    assert all(end > start for start, end in ranges), f"{heading!r}: an empty range: {ranges}"
    assert ranges[-1][1] == minutes, f"{heading!r}: the agenda ends at {ranges[-1][1]}"

    cited = NOTEBOOK_LINK.findall(plan)
    assert {folder for folder, _ in cited} == {"" if lang == "en" else "zh/"}
    numbers = {number for _, number in cited}
    assert notebooks <= numbers, f"{heading!r} cites no link to {sorted(notebooks - numbers)}"
    for number in numbers:
        for edition in NOTEBOOKS.values():
            assert list(edition.glob(f"{number}_*.ipynb")), f"no notebook {number} in {edition}"


@pytest.mark.parametrize(("starts", "minutes", "notebooks"), PLANS, ids=["90", "half-day", "calib"])
def test_both_editions_plan_the_same_agenda(starts, minutes, notebooks):
    en, zh = (_plan(lang, starts[lang]) for lang in ("en", "zh"))
    assert ROW.findall(en) == ROW.findall(zh)
    assert {n for _, n in NOTEBOOK_LINK.findall(en)} == {n for _, n in NOTEBOOK_LINK.findall(zh)}


@pytest.mark.parametrize("lang", GUIDES)
def test_every_cited_heading_is_in_its_notebook(lang):
    cited = _marked(lang, "§")
    assert len(cited) >= 30
    wrong = [
        f"{notebook.name}: {heading!r}"
        for position, heading in cited
        if _squeeze(heading) not in _headings(notebook := _notebook_before(lang, position))
    ]
    assert not wrong, "no such heading:\n" + "\n".join(wrong)


@pytest.mark.parametrize("lang", GUIDES)
def test_every_cited_exercise_prompt_is_in_its_notebook(lang):
    cited = _marked(lang, "▸")
    assert len(cited) >= 25
    wrong = [
        f"{notebook.name}: {prompt!r}"
        for position, prompt in cited
        if _squeeze(prompt) not in _everything(notebook := _notebook_before(lang, position))
    ]
    assert not wrong, "no such exercise prompt:\n" + "\n".join(wrong)


@pytest.mark.parametrize("lang", GUIDES)
def test_every_named_misconception_is_the_feedbacks_own_words(lang):
    cited = _marked(lang, "✗")
    assert len(cited) >= 40
    wrong = [words for _, words in cited if _squeeze(words) not in _catalogue(lang)]
    assert not wrong, f"not in the catalogue's {lang} messages: {wrong}"


@pytest.mark.parametrize("lang", GUIDES)
def test_no_computed_decimal_is_typed_in(lang):
    prose = INLINE_CODE.sub(" ", CODE_BLOCK.sub(" ", _text(lang)))
    typed = set(DECIMAL.findall(prose)) - ALLOWED_DECIMALS
    assert not typed, f"{GUIDES[lang].name} types decimals the notebooks compute: {typed}"


def test_the_chinese_guide_is_chinese_paragraph_by_paragraph():
    problems = []
    for paragraph in _paragraphs(_text("zh")):
        runs = english_left(paragraph)
        if runs:
            problems.append(f"English left: {runs[:3]} in {paragraph[:60]!r}")
        if cjk_share(paragraph) < 0.5:
            problems.append(f"only {cjk_share(paragraph):.0%} CJK: {paragraph[:60]!r}")
    assert not problems, "\n".join(problems)


def test_the_checks_catch_a_bad_agenda_and_english_prose():
    assert [(int(a), int(b)) for a, b in ROW.findall("| 0-10 | x |\n| 10-25 | y |")] == [
        (0, 10),
        (10, 25),
    ]
    assert english_left("这一段 was left in English by mistake。")
    assert DECIMAL.findall("AP 0.2815, 文章003 §3.1") == ["0.2815"]
    assert _squeeze("AP 就是 <b>阴影</b>面积") == _squeeze("AP就是阴影面积") != _squeeze("AP是面积")


MAKEFILE = ROOT / "Makefile"
MAKE_TARGET = re.compile(r"(?:^|\s)make\s+([a-z][\w-]*)")
ASSIGNED = re.compile(r"(?:^|\s)([A-Z][A-Z_]*)=\S*")
OPTION = re.compile(r"(?<!\S)(--[a-z][\w-]*)")


def _code(lang: str) -> list[str]:
    """Every inline code span and every line of a code block, in the guide."""
    text = _text(lang)
    spans = INLINE_CODE.findall(CODE_BLOCK.sub(" ", text))
    lines = [
        line.strip()
        for block in CODE_BLOCK.findall(text)
        for line in block.splitlines()[1:-1]
        if line.strip() and not line.lstrip().startswith("#")
    ]
    return [span.strip("`") for span in spans] + lines


def _arguments(snippet: str, after: str) -> list[str] | None:
    """The words of ``snippet`` after the word ``after``, up to a redirection; None if absent."""
    snippet = snippet.replace("\\", "/")
    if not re.search(rf"(?:^|\s){re.escape(after)}(?:\s|$)", snippet):
        return None
    words = shlex.split(snippet)
    tail = words[words.index(after) + 1 :]
    return tail[: tail.index(">")] if ">" in tail else tail


def _setup_parser():
    spec = importlib.util.spec_from_file_location("guide_setup", ROOT / "tools" / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module._parser()


def _accepted(parser, words: list[str], snippet: str) -> None:
    try:
        parser.parse_args(words)
    except SystemExit:
        pytest.fail(f"{parser.prog} refuses the guide's {snippet!r}")


@pytest.mark.parametrize("lang", GUIDES)
def test_every_make_target_and_variable_the_guide_names_exists(lang):
    makefile = MAKEFILE.read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][\w-]*)\s*:", makefile, re.MULTILINE))
    named, variables = set(), set()
    for snippet in _code(lang):
        named |= set(MAKE_TARGET.findall(snippet))
        if MAKE_TARGET.search(snippet) or re.fullmatch(r"[A-Z][A-Z_]*=\S*", snippet):
            variables |= {v for v in ASSIGNED.findall(snippet) if not v.startswith("MAPTEACH_")}
    assert {"hub", "app", "site", "answer-key"} <= named
    assert {"ADDRESS", "PORT", "ROOM", "INSTRUCTOR", "PROGRESS_DIR"} <= variables
    assert not named - targets, f"{GUIDES[lang].name}: no such make target: {named - targets}"
    unused = {v for v in variables if f"$({v})" not in makefile}
    assert not unused, f"{GUIDES[lang].name}: the Makefile reads no variable {unused}"


@pytest.mark.parametrize("lang", GUIDES)
def test_every_mapteach_variable_the_guide_names_is_read_by_the_code(lang):
    sources = "\n".join(
        path.read_text(encoding="utf-8")
        for folder in ("mapteach", "tools", "instructor")
        for path in (ROOT / folder).rglob("*.py")
    )
    named = {n for s in _code(lang) for n in re.findall(r"\bMAPTEACH_[A-Z_]+", s)}
    assert {"MAPTEACH_HUB_PASSWORD", "MAPTEACH_HUB_ADMIN_PASSWORD", "MAPTEACH_GROUP"} <= named
    unread = {name for name in named if f'"{name}"' not in sources}
    assert not unread, f"{GUIDES[lang].name}: no code reads {unread}"


@pytest.mark.parametrize("lang", GUIDES)
def test_every_command_line_the_guide_gives_is_accepted(lang):
    setup, cli = _setup_parser(), cli_parser()
    answer_key = (ROOT / "tools" / "answer_key.py").read_text(encoding="utf-8")
    checked = []
    for snippet in _code(lang):
        if "..." in snippet:
            continue
        setup_words = _arguments(snippet, "tools/setup.py")
        if setup_words:
            _accepted(setup, setup_words, snippet)
            checked.append(snippet)
        progress_words = _arguments(snippet, "mapteach")
        if progress_words and progress_words[0] == "progress":
            _accepted(cli, progress_words, snippet)
            checked.append(snippet)
        key_words = _arguments(snippet, "tools/answer_key.py")
        if key_words is not None:
            unknown = [o for o in OPTION.findall(" ".join(key_words)) if f'"{o}"' not in answer_key]
            assert not unknown, f"tools/answer_key.py has no option {unknown}: {snippet!r}"
            checked.append(snippet)
    assert any("--address" in c for c in checked) and any("--folder" in c for c in checked)
    assert any("--group" in c for c in checked)
