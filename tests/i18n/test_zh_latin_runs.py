"""What a Chinese learner sees has no English left in it: no run of two Latin words.

Read: every zh notebook's markdown and stored outputs (``text/html``, ``text/markdown``,
printed ``stream`` text, and ``text/plain`` where it is what Jupyter shows: no HTML,
Markdown, image or widget view beside it), which is also what the zh site pages are
made of (``tools/build_site.py`` exports the committed notebooks as they are), with the
site's navigation and its in-browser runtime texts; the zh answer key written from the
notebooks' saved exercise states (``tools/answer_key.py --lang zh``, no execution); and
the ``texts`` every widget sends its browser view in Chinese.

Removed before looking: code (``<pre>``, ``<code>``, code spans and blocks), formulas
(MathML, ``$...$``, ``\\(...\\)``), HTML tags, URLs, file names, identifiers
(``snake_case``, ``CamelCase``, ``dotted.names``, ``--options``, ``k=10``), measure
names (whatever :func:`mapteach.metrics.parse_measure` accepts), ``{placeholders}``,
verbatim article quotes (「…」), the column headed “英文名” of a Markdown table (the
glossary's English names, shown on purpose) and the words in :data:`STAYS_LATIN`. A run
is two or more Latin words separated by single spaces (two spaces, a tab or a line end
separate the columns of a printed table). Each failure prints the notebook, the cell and the runs.
"""

from __future__ import annotations

import functools
import html
import importlib.util
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from mapteach.board.trace_texts import trace_texts
from mapteach.board.view_texts import list_texts, map_board_texts, plot_texts, readout_texts
from mapteach.classroom.name_widget import name_texts
from mapteach.exercises.widgets import exercise_texts
from mapteach.i18n import language
from mapteach.judging.judging_widget import judging_texts
from mapteach.metrics import parse_measure
from mapteach.offline import runtime_texts

ROOT = Path(__file__).parents[2]
CHINESE = sorted((ROOT / "notebooks" / "zh").glob("*.ipynb"))


@functools.cache
def _tool(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"zh_tools_{name}", ROOT / "tools" / f"{name}.py")
    assert spec and spec.loader
    module = sys.modules.setdefault(f"zh_tools_{name}", importlib.util.module_from_spec(spec))
    spec.loader.exec_module(module)
    return module


#: Names that stay Latin in Chinese text: measures and their parts, tools, formats,
#: people, and the learner-facing names of the workbook's own data.
_NAMES = """
AP MAP mAP nDCG DCG IDCG RR MRR ERR RBP GMAP bpref infAP IPrec iPrec Hit Judged P R F F1
R-precision trec_eval TREC qrels qrel kappa alpha Cohen Cohen's Fleiss Fleiss' Krippendorff
Krippendorff's Kendall tau Spearman rho Tukey HSD Holm Bonferroni Benjamini Hochberg BH
IIR ECIR SIGIR CIKM ACM ir_measures ranx sklearn scikit-learn torchmetrics ml_metrics
pytrec_eval Kaggle numpy pandas Python Jupyter JupyterLab Voila Voilà JSON CSV TSV HTML PDF
CLI mapteach McSherry Najork Manning Raghavan Schütze Sakai Buckley Voorhees Moffat Zobel
Järvelin Kekäläinen Chapelle Yilmaz Aslam Robertson Smucker Allan Carterette
Tab Alt Enter Shift Ctrl Esc
"""
STAYS_LATIN = frozenset(_NAMES.split())

DROPPED_ELEMENTS = ("pre", "code", "math", "script", "style", "svg", "kbd", "samp", "tt")
NOT_TEXT = [
    re.compile(r"```.*?```", re.DOTALL),
    re.compile(r"\$\$.*?\$\$", re.DOTALL),
    re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]", re.DOTALL),
    re.compile(r"\$[^$\n]+\$"),
    re.compile(r"`[^`\n]+`"),
    re.compile(r"「[^」]*」"),
    re.compile(r"\bad hoc\b|\bJSON Lines\b", re.ASCII),
    re.compile(r"\]\([^)\s]*\)"),
    re.compile(r"https?://\S+|www\.\S+"),
    re.compile(r"\{[^{}\s]*\}"),
    re.compile(r"\S+\.(?:ipynb|py|jsonl?|txt|csv|tsv|html|md|po|qrels|run|png|svg)\b"),
    re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*"),  # command-line options
    re.compile(r"\b\w+=\S*", re.ASCII),  # k=10, lang="zh"
    re.compile(r"\b\w*(?:_\w+|\.[A-Za-z_]\w*)+\b", re.ASCII),  # snake_case, dotted.names
    re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+\b", re.ASCII),  # CamelCase
]
LETTER = "A-Za-zÀ-ÖØ-öø-ÿ"
WORD = re.compile(rf"[{LETTER}][{LETTER}'’-]*")
RUN = re.compile(rf"{WORD.pattern}(?: {WORD.pattern})+")
MEASURE_LIKE = re.compile(r"[A-Za-z][\w-]*(?:@\w+|[._]\d+)")


def _is_measure(token: str) -> bool:
    try:
        parse_measure(token)
    except ValueError:
        return False
    return True


def _stays_latin(word: str) -> bool:
    return word.strip("'’-") in STAYS_LATIN or _is_measure(word)


def _visible_html(markup: str) -> str:
    """The text of an HTML output, code and formulas dropped, one line per element."""
    soup = BeautifulSoup(markup, "html.parser")
    for element in soup.find_all(DROPPED_ELEMENTS):
        element.decompose()
    return soup.get_text("\n")


ENGLISH_NAME_HEADER = "英文名"
CELL_BORDER = re.compile(r"(?<!\\)\|")


def _without_english_name_column(text: str) -> str:
    """``text`` with the cells under a Markdown table header “英文名” blanked."""
    lines, column = text.split("\n"), None
    for index, line in enumerate(lines):
        if not line.lstrip().startswith("|"):
            column = None
            continue
        cells = CELL_BORDER.split(line)
        names = [cell.strip() for cell in cells]
        if column is None and ENGLISH_NAME_HEADER in names:
            column = names.index(ENGLISH_NAME_HEADER)
        elif column is not None and column < len(cells) and not set(names[column]) <= set("-: "):
            cells[column] = " "
            lines[index] = "|".join(cells)
    return "\n".join(lines)


def latin_runs(text: str, is_html: bool = False) -> list[str]:
    """The runs of two or more Latin words a learner reads in ``text``.

    >>> latin_runs("精确率（precision）用 `precision_at_k(x)` 计算，AP@10 与 P@k 亦然")
    []
    >>> latin_runs("<p>均值 <b>mean delta</b></p><pre>not shown</pre>", is_html=True)
    ['mean delta']
    """
    text = _visible_html(text) if is_html else html.unescape(_without_english_name_column(text))
    for pattern in NOT_TEXT:
        text = pattern.sub("\n", text)
    text = MEASURE_LIKE.sub(lambda m: "\n" if _is_measure(m.group(0)) else m.group(0), text)
    text = WORD.sub(lambda m: "\n" if _stays_latin(m.group(0)) else m.group(0), text)
    runs = []
    for piece in re.split(r"\s{2,}|\t|\n", text):
        for run in RUN.findall(piece):
            if any(len(word) > 1 for word in WORD.findall(run)):
                runs.append(run)
    return runs


#: What Jupyter shows instead of an output's ``text/plain`` when it is there.
RICHER = frozenset(
    {
        "text/html",
        "text/markdown",
        "image/png",
        "image/svg+xml",
        "image/jpeg",
        "application/vnd.jupyter.widget-view+json",
    }
)


def _outputs(cell: dict[str, Any]) -> Iterator[tuple[str, str, bool]]:
    for output in cell.get("outputs", []):
        if output["output_type"] == "stream":
            yield "stream", "".join(output["text"]), False
        data = output.get("data", {})
        for mime, is_html in (("text/html", True), ("text/markdown", False)):
            if mime in data:
                yield mime, "".join(data[mime]), is_html
        if "text/plain" in data and not RICHER.intersection(data):
            yield "text/plain", "".join(data["text/plain"]), False


def shown(path: Path) -> Iterator[tuple[str, str, bool]]:
    """What a learner reads in a notebook: (where, text, is it HTML), cell by cell."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "markdown":
            yield f"cell {index} (markdown)", "".join(cell["source"]), False
        for mime, text, is_html in _outputs(cell):
            yield f"cell {index} ({mime})", text, is_html


def _report(found: list[tuple[str, list[str]]]) -> str:
    return "\n".join(f"{where}: {runs}" for where, runs in found)


@pytest.mark.parametrize("path", CHINESE, ids=lambda p: p.stem)
def test_a_zh_notebook_shows_no_english(path):
    found = [
        (f"{path.name} {where}", runs)
        for where, text, is_html in shown(path)
        if (runs := latin_runs(text, is_html))
    ]
    assert not found, _report(found)


def _flat(value: object) -> Iterator[str]:
    if isinstance(value, dict):
        for inner in value.values():
            yield from _flat(inner)
    elif isinstance(value, list | tuple):
        for inner in value:
            yield from _flat(inner)
    elif isinstance(value, str):
        yield value


def widget_texts() -> dict[str, object]:
    """Every widget's and page runtime's texts in Chinese, by who shows them."""
    with language("zh"):
        plots = plot_texts()
    return {
        "exercise": exercise_texts("zh"),
        "ranking list": list_texts("zh"),
        "map board": map_board_texts("zh"),
        "readout": readout_texts("zh"),
        "trace": trace_texts("zh"),
        "plots": plots,
        "judging board": judging_texts("zh"),
        "name widget": name_texts("zh"),
        "site runtime": runtime_texts("zh"),
        "site navigation": _tool("build_site").nav_texts("zh"),
    }


@pytest.mark.parametrize("who", list(widget_texts()))
def test_a_zh_widget_shows_no_english(who):
    found = [(who, runs) for text in _flat(widget_texts()[who]) if (runs := latin_runs(text))]
    assert not found, _report(found)


def test_the_zh_answer_key_shows_no_english(tmp_path):
    out = tmp_path / "answer-key.html"
    sections = _tool("answer_key").build(out, lang="zh")
    assert sum(len(items) for _path, items in sections) > 20
    page = BeautifulSoup(out.read_text(encoding="utf-8"), "html.parser")
    found = []
    for section in page.find_all("section"):
        if runs := latin_runs(str(section), is_html=True):
            found.append((f"exercise {section.get('id')}", runs))
        section.decompose()
    if runs := latin_runs(str(page.body), is_html=True):
        found.append(("the page around the exercises", runs))
    assert not found, _report(found)


@pytest.mark.parametrize(
    ("text", "is_html", "runs"),
    [
        ("这是 AP 的定义。This sentence was left.", False, ["This sentence was left"]),
        ("<table><th>mean delta (B - A)</th><td>0.1</td></table>", True, ["mean delta"]),
        ("query  AP\nties   0.5\nempty  0.0", False, []),
        ("标注员：you", False, []),
        ("k = None，相等：True", False, []),
        ("系统 A 与 B", False, []),
        ("「你报的mAP到底 is what」", False, []),
        ("见 `compare_runs(a, b)` 与 run_a.trec、--format trec", False, []),
        ("nDCG@10 与 map_cut.100、P_5 和 ndcg_cut.10", False, []),
        ("Cohen's kappa 与 Krippendorff's alpha", False, []),
        ("<pre>divide by length</pre><math><mi>relevant items</mi></math>", True, []),
        ("denominator R; ties by docno descending", False, ["ties by docno descending"]),
        ("not installed", False, ["not installed"]),
        ("| 英文名 | 说明 |\n| --- | --- |\n| trace table | 计算过程表 |", False, []),
        ("| 术语 | 说明 |\n| --- | --- |\n| trace table | 计算过程表 |", False, ["trace table"]),
        ("TREC ad hoc任务与 JSON Lines 文件，见JudgingBoard或run_a", False, []),
    ],
)
def test_what_counts_as_english(text, is_html, runs):
    assert latin_runs(text, is_html) == runs
