"""Build the whole workbook as a static site a learner opens without Python (``make site``).

``build/site/index.html`` lists every notebook of both editions (English and 中文版) in
order; ``en/NN_name.html`` and ``zh/NN_name.html`` are nbconvert's ``lab`` HTML export of
each committed notebook. No kernel runs: the stored outputs are shown, so every widget shows
its static fallback (the board's picture and trace table; each exercise's prompt with its
solution folded in ``<details>``). Links between notebooks (``NN_x.ipynb``) become links
between pages (``NN_x.html``, zh pages to their zh twins); a relative link to anything that
has no page here keeps its text and loses its target. The pages load nothing from the
network: the lab stylesheet is written once to ``assets/`` and linked, and nbconvert's CDN
scripts (require.js, MathJax, Mermaid, the widget manager) are left out.

Math: every ``$...$``, ``$$...$$``, ``\\(...\\)``, ``\\[...\\]`` and LaTeX environment of
markdown cells, ``text/markdown`` outputs, ``text/html`` outputs (the exercises' folded
solutions hold the AP arithmetic) and ``text/latex`` outputs is converted at build time to
MathML with ``latex2mathml`` (through :func:`mapteach.exercises.math_markup.tex_to_mathml`,
the exercises' own converter), which Chromium, Firefox and Safari render natively. Chosen
over bundling MathJax because:

- it needs nothing beyond PyPI and Python, which ``make`` already requires (MathJax would
  bring in npm, or a PyPI repackaging of an old MathJax 2, on every machine that builds);
- the pages stay static: no script has to run (or be allowed to run from ``file://``) for a
  formula to show, and nothing is typeset after load, so nothing jumps;
- it is small: MathJax with its fonts is several MiB, the MathML of this workbook's
  formulas a few KiB;
- the workbook's formulas are plain fractions, sums, sub- and superscripts and
  ``\\mathrm``, all inside what latex2mathml covers. A formula it cannot convert stays
  visible as its TeX source (marked ``class="tex-fallback"``) and is listed at the end of
  the build, never dropped silently.

Usage: ``python tools/build_site.py [--out DIR]`` (``make site``); from Python,
``build(out_dir)`` returns a :class:`SiteReport`.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import shutil
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

import jinja2
import markupsafe
import nbformat
from bs4 import BeautifulSoup, NavigableString
from nbconvert import HTMLExporter
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

from mapteach.exercises.math_markup import MathMarkupError, tex_to_mathml

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
DEFAULT_OUT = ROOT / "build" / "site"
#: Written into every site this tool builds: only such a folder is ever emptied.
MARKER = ".mapteach-site"

#: (folder of the site, folder under notebooks/, heading on the index, HTML lang).
EDITIONS = (
    ("en", "", "English", "en"),
    ("zh", "zh", "中文版", "zh"),
)

NOTEBOOK_NAME = re.compile(r"^(\d\d)_[A-Za-z0-9_]+\.ipynb$")

#: Text that MathJax would typeset in HTML and LaTeX outputs, with Jupyter's delimiters
#: (those of nbconvert's markdown parser). Group 1/2: display; 3/4: inline.
HTML_MATH = re.compile(
    r"(?<!\\)\$\$(.+?)(?<!\\)\$\$"
    r"|(?<!\\)\\\[(.+?)(?<!\\)\\\]"
    r"|(?<![$\\])\$(.+?)(?<![$\\])\$"
    r"|(?<!\\)\\\((.+?)(?<!\\)\\\)",
    re.DOTALL,
)
#: Elements whose text is never typeset (code, scripts, formulas already converted).
NO_MATH_INSIDE = {"pre", "code", "kbd", "samp", "script", "style", "textarea", "math"}

FONT_STACK_LATIN = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial"
FONT_STACK_CJK = (
    "'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', 'Hiragino Sans GB', "
    "'Microsoft YaHei', 'WenQuanYi Micro Hei'"
)
SITE_CSS = f"""\
/* mapteach static site: fonts with CJK coverage, formulas, navigation. No web fonts. */
:root {{
  --jp-content-font-family: {FONT_STACK_LATIN}, {FONT_STACK_CJK}, sans-serif;
  --jp-ui-font-family: {FONT_STACK_LATIN}, {FONT_STACK_CJK}, sans-serif;
  --jp-code-font-family: Menlo, Consolas, 'DejaVu Sans Mono', 'Noto Sans Mono CJK SC',
    monospace;
}}
:root:lang(zh) {{
  --jp-content-font-family: {FONT_STACK_CJK}, {FONT_STACK_LATIN}, sans-serif;
  --jp-ui-font-family: {FONT_STACK_CJK}, {FONT_STACK_LATIN}, sans-serif;
}}
body {{ font-family: var(--jp-content-font-family); }}
math {{ font-family: 'Latin Modern Math', 'STIX Two Math', 'Cambria Math', math; }}
math[display="block"] {{ margin: 0.6em 0; }}
.tex-fallback {{ font-family: var(--jp-code-font-family); background: #fff6e0; }}
nav.site-nav {{
  display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; align-items: baseline;
  max-width: 1100px; margin: 0 auto; padding: 10px 20px;
  font: 14px/1.5 var(--jp-ui-font-family); border-bottom: 1px solid #e0e0e0;
}}
nav.site-nav.bottom {{ border-bottom: 0; border-top: 1px solid #e0e0e0; margin-top: 2em; }}
nav.site-nav a {{ color: #1565c0; text-decoration: none; }}
nav.site-nav a:hover {{ text-decoration: underline; }}
nav.site-nav .twin {{ margin-left: auto; }}
.site-note {{ color: #555; font-size: 13px; }}
/* index.html */
body.site-index {{
  max-width: 1000px; margin: 0 auto; padding: 24px 20px 48px;
  font: 16px/1.55 var(--jp-content-font-family); color: #212121;
}}
body.site-index h1 {{ font-size: 30px; margin: 0 0 4px; }}
body.site-index .subtitle {{ font-size: 18px; color: #555; margin: 0 0 18px; }}
body.site-index table {{ border-collapse: collapse; width: 100%; margin-top: 18px; }}
body.site-index th, body.site-index td {{
  text-align: left; padding: 6px 10px; border-bottom: 1px solid #e6e6e6; vertical-align: top;
}}
body.site-index td {{ width: 50%; }}
body.site-index a {{ color: #1565c0; text-decoration: none; }}
body.site-index a:hover {{ text-decoration: underline; }}
body.site-index .zh {{ font-family: {FONT_STACK_CJK}, {FONT_STACK_LATIN}, sans-serif; }}
"""

#: nbconvert's lab template, minus every script it would fetch from a CDN, with the lab
#: stylesheet linked from assets/ (written once) instead of inlined into every page.
PAGE_TEMPLATE = """\
{%- extends 'index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block notebook_css -%}
<link rel="stylesheet" href="../assets/lab.css">
<link rel="stylesheet" href="../assets/site.css">
{%- endblock notebook_css -%}
{%- block input -%}
{#- As lab's, less bleach over pygments' own (escaped) markup: a third of the build time. -#}
<div class="jp-CodeMirrorEditor jp-Editor jp-InputArea-editor" data-type="inline">
<div class="cm-editor cm-s-jupyter">
{{ cell.source | highlight_code(metadata=cell.metadata) }}
</div>
</div>
{%- endblock input -%}
{%- block body_header -%}
{{ super() }}
{{ resources.site_nav_top }}
{%- endblock body_header -%}
{%- block body_footer -%}
{{ resources.site_nav_bottom }}
{{ super() }}
{%- endblock body_footer -%}
"""

#: The lab template's own page styles (from its notebook_css block), kept in lab.css.
LAB_EXTRA_CSS = """
* { -webkit-print-color-adjust: exact; }
a.anchor-link { display: none; }
.jp-InputArea { overflow: hidden; }
.jp-InputArea-editor { overflow: hidden; }
.cm-editor.cm-s-jupyter .highlight pre {
  padding: var(--jp-code-padding) 4px; margin: 0;
  font-family: inherit; font-size: inherit; line-height: inherit; color: inherit;
}
.jp-OutputArea-output pre { line-height: inherit; font-family: inherit; }
.jp-RenderedText pre { color: var(--jp-content-font-color1); font-size: var(--jp-code-font-size); }
.jp-Collapser { display: none; }
@page { margin: 0.5in; }
@media print { .jp-Cell-inputWrapper, .jp-Cell-outputWrapper { display: block; } }
"""

TEXTS = {
    "en": {
        "contents": "Contents",
        "previous": "Previous",
        "next": "Next",
        "twin": "中文版",
        "note": "A read-only page: the widgets show a static picture. To drag results and "
        "check answers, run the notebook (make lab).",
    },
    "zh": {
        "contents": "目录",
        "previous": "上一节",
        "next": "下一节",
        "twin": "English",
        "note": "只读页面：交互控件显示为静态图片。"
        "要拖动结果、检查答案，请运行笔记本（make lab-zh）。",
    },
}


@dataclass(frozen=True)
class Page:
    """One notebook and the page built from it."""

    edition: str  # "en" or "zh": the page's folder in the site
    lang: str
    source: Path
    number: str  # "06"
    title: str

    @property
    def href(self) -> str:
        """The page's path from the site's root."""
        return f"{self.edition}/{self.source.stem}.html"


@dataclass
class SiteReport:
    """What :func:`build` wrote."""

    out_dir: Path
    pages: list[Page]
    files: int = 0
    size_bytes: int = 0
    seconds: float = 0.0
    skipped: list[tuple[Path, str]] = field(default_factory=list)
    tex_fallbacks: list[tuple[str, str]] = field(default_factory=list)
    formulas: int = 0

    @property
    def size_mib(self) -> float:
        return self.size_bytes / 2**20

    def summary(self) -> str:
        editions = ", ".join(
            f"{sum(p.edition == e for p in self.pages)} {name}" for e, _, name, _ in EDITIONS
        )
        lines = [
            f"site: {len(self.pages)} pages ({editions}), {self.formulas} formulas as MathML, "
            f"in {self.seconds:.1f} s",
            f"site: {self.files} files, {self.size_mib:.2f} MiB in {self.out_dir}",
            f"site: open {self.out_dir / 'index.html'}",
        ]
        lines += [f"site: skipped {path}: {why}" for path, why in self.skipped]
        lines += [f"site: left as TeX in {where}: {tex}" for where, tex in self.tex_fallbacks]
        return "\n".join(lines)


# --- math -------------------------------------------------------------------------------


class _MathCounter:
    """Converts TeX to MathML and remembers what it could not convert."""

    def __init__(self) -> None:
        self.where = ""
        self.converted = 0
        self.fallbacks: list[tuple[str, str]] = []

    def mathml(self, tex: str, *, display: bool) -> str:
        source = tex.strip()
        try:
            markup = tex_to_mathml(source, display=display)
        except MathMarkupError:  # including a command latex2mathml would keep as text
            self.fallbacks.append((self.where, source))
            delimiter = "$$" if display else "$"
            text = html.escape(f"{delimiter}{source}{delimiter}", quote=False)
            return f'<code class="tex-fallback">{text}</code>'
        self.converted += 1
        # The TeX source as an annotation: copy-paste and screen readers keep it.
        annotation = f'<annotation encoding="application/x-tex">{html.escape(source)}</annotation>'
        return re.sub(
            r"^(<math[^>]*>)(.*)</math>$",
            lambda m: f"{m[1]}<semantics>{m[2]}{annotation}</semantics></math>",
            markup,
            flags=re.DOTALL,
        )


class _MathMLRenderer(IPythonRenderer):
    """nbconvert's markdown renderer, writing MathML where it would leave TeX for MathJax."""

    counter: _MathCounter

    def block_math(self, body: str) -> str:
        return self.counter.mathml(body, display=True)

    def inline_math(self, body: str) -> str:
        return self.counter.mathml(body, display=False)

    def latex_environment(self, name: str, body: str) -> str:
        return self.counter.mathml(f"\\begin{{{name}}}{body}\\end{{{name}}}", display=True)


def _typeset_text_nodes(container, counter: _MathCounter) -> None:
    """Replace TeX in the text of an HTML or LaTeX output with MathML, as MathJax would."""
    for text in list(container.find_all(string=HTML_MATH)):
        if any(parent.name in NO_MATH_INSIDE for parent in text.parents):
            continue
        if type(text) is not NavigableString:  # comments, CDATA, doctype
            continue
        pieces: list[str] = []
        last = 0
        for match in HTML_MATH.finditer(str(text)):
            pieces.append(html.escape(str(text)[last : match.start()].replace("\\$", "$")))
            display = match.group(1) is not None or match.group(2) is not None
            tex = next(group for group in match.groups() if group is not None)
            pieces.append(counter.mathml(tex, display=display))
            last = match.end()
        pieces.append(html.escape(str(text)[last:].replace("\\$", "$")))
        fragment = BeautifulSoup("".join(pieces), "html.parser")
        text.replace_with(*fragment.contents)


# --- pages ------------------------------------------------------------------------------


class _SiteExporter(HTMLExporter):
    """The lab HTML export with MathML instead of MathJax (see the module docstring)."""

    def __init__(self, counter: _MathCounter, **kwargs) -> None:
        super().__init__(**kwargs)
        self.counter = counter

    @jinja2.pass_context
    def markdown2html(self, context, source: str) -> str:
        cell = context.get("cell", {})
        renderer = _MathMLRenderer(
            escape=False,
            attachments=cell.get("attachments", {}),
            embed_images=self.embed_images,
            path=context.get("resources", {}).get("metadata", {}).get("path", ""),
            anchor_link_text=self.anchor_link_text,
            exclude_anchor_links=self.exclude_anchor_links,
            **self.lexer_options,
        )
        renderer.counter = self.counter
        return MarkdownWithMath(renderer=renderer).render(source)


def _make_exporter(counter: _MathCounter, lang: str) -> _SiteExporter:
    return _SiteExporter(
        counter,
        template_name="lab",
        template_file="mapteach_site.html.j2",
        extra_loaders=[jinja2.DictLoader({"mapteach_site.html.j2": PAGE_TEMPLATE})],
        embed_images=True,
        language_code=lang,
    )


def _read(path: Path) -> nbformat.NotebookNode:
    with warnings.catch_warnings():
        # A notebook another tool is still writing may lack cell ids; it renders all the same.
        warnings.simplefilter("ignore")
        return nbformat.read(path, as_version=4)


def _title(notebook: nbformat.NotebookNode, fallback: str) -> str:
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return fallback


def discover(notebooks_dir: Path = NOTEBOOKS) -> tuple[list[Page], list[tuple[Path, str]]]:
    """Every notebook of both editions in order, and those that cannot be read (with why)."""
    pages: list[Page] = []
    skipped: list[tuple[Path, str]] = []
    for edition, folder, _, lang in EDITIONS:
        directory = notebooks_dir / folder if folder else notebooks_dir
        if not directory.is_dir():
            continue
        for path in sorted(directory.glob("*.ipynb")):
            match = NOTEBOOK_NAME.match(path.name)
            if not match:
                continue
            try:
                notebook = _read(path)
            except Exception as error:  # a half-written or invalid notebook
                skipped.append((path, f"{type(error).__name__}: {error}"))
                continue
            pages.append(Page(edition, lang, path, match[1], _title(notebook, path.stem)))
    return pages, skipped


def _relative(target: str, from_page: Page) -> str:
    """``target`` (a path from the site's root) as seen from ``from_page``."""
    return os.path.relpath(target, start=PurePosixPath(from_page.href).parent.as_posix())


def _nav(page: Page, pages: list[Page], position: str) -> markupsafe.Markup:
    texts = TEXTS.get(page.edition, TEXTS["en"])
    same = [p for p in pages if p.edition == page.edition]
    index = same.index(page)
    parts = [f'<a href="../index.html" data-testid="nav-contents">↑ {texts["contents"]}</a>']
    if index > 0:
        previous = same[index - 1]
        parts.append(
            f'<a href="{_relative(previous.href, page)}" rel="prev">← {texts["previous"]}: '
            f"{html.escape(previous.title)}</a>"
        )
    if index + 1 < len(same):
        following = same[index + 1]
        parts.append(
            f'<a href="{_relative(following.href, page)}" rel="next">{texts["next"]}: '
            f"{html.escape(following.title)} →</a>"
        )
    twins = [p for p in pages if p.edition != page.edition and p.source.name == page.source.name]
    if twins:
        twin = twins[0]
        parts.append(
            f'<a class="twin" href="{_relative(twin.href, page)}" hreflang="{twin.lang}" '
            f'lang="{twin.lang}">{texts["twin"]}</a>'
        )
    note = (
        f'<span class="site-note">{html.escape(texts["note"])}</span>' if position == "top" else ""
    )
    classes = "site-nav" if position == "top" else "site-nav bottom"
    return markupsafe.Markup(f'<nav class="{classes}">{"".join(parts)}{note}</nav>')


def _rewrite_links(soup: BeautifulSoup, page: Page, by_source: dict[Path, Page]) -> None:
    """Links to notebooks become links to their pages; other relative links lose their target."""
    for anchor in soup.find_all("a", href=True):
        if anchor.find_parent("nav", class_="site-nav"):  # ours, already pointing at pages
            continue
        href = anchor["href"]
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or not parts.path:  # http(s), mailto, data, #anchor
            continue
        target = (page.source.parent / unquote(parts.path)).resolve()
        linked = by_source.get(target)
        if linked is not None:
            anchor["href"] = _relative(linked.href, page) + (
                f"#{parts.fragment}" if parts.fragment else ""
            )
        else:
            del anchor["href"]
            anchor["title"] = f"{parts.path} (not part of this site)"
            anchor["class"] = [*anchor.get("class", []), "dropped-link"]


def _drop_external_resources(soup: BeautifulSoup) -> None:
    """No script, stylesheet, font or image from the network: an offline reader has none."""
    for tag, attribute in (("script", "src"), ("link", "href"), ("img", "src")):
        for element in soup.find_all(tag, attrs={attribute: re.compile(r"^\s*(https?:)?//")}):
            if tag == "img":
                element.replace_with(f"[{element.get('alt') or 'image'}]")
            else:
                element.decompose()


def _render_page(page: Page, pages: list[Page], exporter: _SiteExporter) -> str:
    notebook = _read(page.source)
    exporter.counter.where = f"{page.edition}/{page.source.name}"
    resources = {
        "metadata": {"name": page.title, "path": str(page.source.parent)},
        "site_nav_top": _nav(page, pages, "top"),
        "site_nav_bottom": _nav(page, pages, "bottom"),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        body, _ = exporter.from_notebook_node(notebook, resources=resources)
    soup = BeautifulSoup(body, "html.parser")
    for output in soup.select(
        "div.jp-RenderedHTML:not(.jp-RenderedMarkdown), div.jp-RenderedLatex"
    ):
        _typeset_text_nodes(output, exporter.counter)
    _rewrite_links(soup, page, {p.source.resolve(): p for p in pages})
    _drop_external_resources(soup)
    return str(soup)


def _lab_css() -> str:
    exporter = HTMLExporter(template_name="lab")
    env = exporter.environment
    sheets = [env.loader.get_source(env, name)[0] for name in ("static/index.css",)]
    sheets.append(env.loader.get_source(env, "static/theme-light.css")[0])
    return "\n".join([*sheets, LAB_EXTRA_CSS])


#: One line in the HTML: a line break between Chinese characters would show as a space.
INTRO_ZH = (
    "这套教程讲解排序评测，以<b>平均精度均值</b>为中心：截断于 k 的精确率与召回率、"
    "手算平均精度、MAP、精确率-召回率曲线，以及让两个 MAP 对不上的各种约定。"
    "从第 00 节开始，按顺序阅读。"
)


def _index(pages: list[Page]) -> str:
    """The contents: one row per notebook, its English page and its Chinese twin."""
    by_name: dict[str, dict[str, Page]] = {}
    for page in pages:
        by_name.setdefault(page.source.name, {})[page.edition] = page
    rows = []
    for name in sorted(by_name):
        cells = []
        for edition, _, _, lang in EDITIONS:
            page = by_name[name].get(edition)
            link = f'<a href="{page.href}">{html.escape(page.title)}</a>' if page else ""
            cells.append(f'<td lang="{lang}" class="{edition}">{link}</td>')
        rows.append(f"<tr>{''.join(cells)}</tr>")
    heads = "".join(f'<th lang="{lang}">{name}</th>' for _, _, name, lang in EDITIONS)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>mapteach: Mean Average Precision, a workbook · 平均精度均值</title>
<link rel="stylesheet" href="assets/site.css">
</head>
<body class="site-index">
<h1>mapteach: Mean Average Precision, a workbook</h1>
<p class="subtitle zh" lang="zh">平均精度均值（MAP）交互式教程 · 中文版</p>
<p>A workbook that teaches ranking evaluation, centred on <b>Mean Average Precision</b>:
precision and recall at k, average precision worked by hand, MAP, precision-recall curves,
and the conventions that make two MAPs disagree. Start with notebook 00 and read in order.</p>
<p class="zh" lang="zh">{INTRO_ZH}</p>
<p class="site-note">These pages are a read-only copy of the notebooks, with their stored
outputs: each interactive board shows a static picture and its table, each exercise its
question with the solution folded. To drag results and check your answers, install the
workbook and run <code>make lab</code> (中文版: <code>make lab-zh</code>).</p>
<table>
<thead><tr>{heads}</tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody>
</table>
</body>
</html>
"""


def _prepare(out_dir: Path) -> None:
    if out_dir.exists():
        if any(out_dir.iterdir()) and not (out_dir / MARKER).exists():
            raise SystemExit(f"{out_dir} is not empty and was not built by this tool: not emptied")
        shutil.rmtree(out_dir)
    (out_dir / "assets").mkdir(parents=True)
    (out_dir / MARKER).write_text("built by tools/build_site.py; emptied by each build\n")


def build(out_dir: Path = DEFAULT_OUT, notebooks_dir: Path = NOTEBOOKS) -> SiteReport:
    """Build the site into ``out_dir`` (emptied first) and say what was written."""
    start = time.perf_counter()
    out_dir = Path(out_dir)
    _prepare(out_dir)
    pages, skipped = discover(notebooks_dir)
    counter = _MathCounter()
    exporters = {lang: _make_exporter(counter, lang) for _, _, _, lang in EDITIONS}
    (out_dir / "assets" / "lab.css").write_text(_lab_css(), encoding="utf-8")
    (out_dir / "assets" / "site.css").write_text(SITE_CSS, encoding="utf-8")
    for page in pages:
        target = out_dir / page.href
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_render_page(page, pages, exporters[page.lang]), encoding="utf-8")
    (out_dir / "index.html").write_text(_index(pages), encoding="utf-8")
    files = [path for path in out_dir.rglob("*") if path.is_file()]
    return SiteReport(
        out_dir=out_dir,
        pages=pages,
        files=len(files),
        size_bytes=sum(path.stat().st_size for path in files),
        seconds=time.perf_counter() - start,
        skipped=skipped,
        tex_fallbacks=counter.fallbacks,
        formulas=counter.converted,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="default: build/site")
    args = parser.parse_args(argv)
    report = build(args.out)
    print(report.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
