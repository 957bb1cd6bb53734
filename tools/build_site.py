"""Build the whole workbook as a static site a learner opens without Python (``make site``).

``build/site/index.html`` lists every notebook of both editions (English and 中文版) in
order; ``en/NN_name.html`` and ``zh/NN_name.html`` are nbconvert's ``lab`` HTML export of
each committed notebook, with its stored outputs. Links between notebooks (``NN_x.ipynb``)
become links between pages (``NN_x.html``, zh pages to their zh twins); a relative link to
anything that has no page here keeps its text and loses its target. The pages load nothing
from the network: the lab stylesheet and the site's own (``tools/site.css``) are written once
to ``assets/`` and linked, and nbconvert's CDN scripts (require.js, MathJax, Mermaid, the
widget manager) are left out.

Live widgets, no kernel: every board and exercise's output is its fallback
(:func:`mapteach.offline.offline_html`: the widget's state as JSON beside its static
picture). Into each page that has one, the build inlines once, in ``<head>``,
:func:`mapteach.offline.page_runtime` (through :func:`mapteach.offline.inline_runtime`,
which ``jupyter nbconvert --to mapteach`` uses too): the widgets' own ES modules as
classic scripts (Chromium runs no module script from ``file://``), their stand-ins for the
kernel, the model shim and the learner's progress, with only the modules that page needs.
The navigation's texts speak the page's language (:func:`mapteach.i18n.tr`). Opened from
the file system, a learner drags the board (AP, the trace table and the plots follow, in
JavaScript), checks answers (judged in the browser by the exercise's answer table) and,
once named at the top of a page, keeps the checks in the browser (localStorage) until
downloading them as a ``progress.jsonl`` file for ``python -m mapteach progress``. Where
scripts are off, the static picture stays. A page whose widget names no module the
runtime has stays static, listed at the end of the build.

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
from mapteach.i18n import language, tr
from mapteach.offline import has_fallback, inline_runtime

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

#: The site's own stylesheet (fonts with CJK coverage, formulas, navigation; no web fonts).
SITE_CSS = (Path(__file__).with_name("site.css")).read_text(encoding="utf-8")

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


def nav_texts(lang: str) -> dict[str, str]:
    """The navigation's texts on a page in ``lang``.

    >>> nav_texts("zh")["contents"]
    '目录'
    """
    with language(lang):
        return {
            "contents": tr("Contents"),
            "previous": tr("Previous"),
            "next": tr("Next"),
            "note": tr(
                "The boards and exercises on this page run in your browser, with no Python "
                "and no network. Your checks stay in this browser until you download them "
                "(at the top)."
            ),
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
    #: Widgets that run live, and the bytes of the runtime inlined, per page that has any.
    live_widgets: int = 0
    runtime_bytes: dict[str, int] = field(default_factory=dict)
    #: Pages left static though they have widgets (page, why).
    static_only: list[tuple[str, str]] = field(default_factory=list)

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
        if self.runtime_bytes:
            sizes = sorted(self.runtime_bytes.values())
            lines.append(
                f"site: {self.live_widgets} widgets run live on {len(sizes)} pages, no kernel; "
                f"runtime inlined {sizes[0] / 1024:.0f}-{sizes[-1] / 1024:.0f} KiB per page"
            )
        lines += [f"site: static only {href}: {why}" for href, why in self.static_only]
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


def _nav(page: Page, pages: list[Page], position: str, live: bool) -> markupsafe.Markup:
    texts = nav_texts(page.lang)
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
        name = next(heading for edition, _, heading, _ in EDITIONS if edition == twin.edition)
        parts.append(
            f'<a class="twin" href="{_relative(twin.href, page)}" hreflang="{twin.lang}" '
            f'lang="{twin.lang}">{name}</a>'
        )
    shown = live and position == "top"
    note = f'<span class="site-note">{html.escape(texts["note"])}</span>' if shown else ""
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


def _has_live_widgets(notebook: nbformat.NotebookNode) -> bool:
    return any(
        has_fallback(output) for cell in notebook.cells for output in cell.get("outputs", [])
    )


def _with_runtime(soup: BeautifulSoup, page: Page, report: SiteReport) -> str:
    """The page, with the runtime its live widgets need inlined (none: as it is)."""
    text = str(soup)
    try:
        live = inline_runtime(text, page.lang)
    except ValueError as error:  # JSONDecodeError included
        report.static_only.append((page.href, str(error)))
        return text
    if live.widgets:
        report.live_widgets += live.widgets
        report.runtime_bytes[page.href] = live.runtime_bytes
    return live.html


def _render_page(page: Page, pages: list[Page], exporter: _SiteExporter, report: SiteReport) -> str:
    notebook = _read(page.source)
    exporter.counter.where = f"{page.edition}/{page.source.name}"
    live = _has_live_widgets(notebook)
    resources = {
        "metadata": {"name": page.title, "path": str(page.source.parent)},
        "site_nav_top": _nav(page, pages, "top", live),
        "site_nav_bottom": _nav(page, pages, "bottom", live),
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
    return _with_runtime(soup, page, report)


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
<p class="site-note">These pages are the notebooks with their stored outputs, and every
board and exercise runs in your browser, with no Python and no network: drag the results,
check your answers. Type your name at the top of a page to keep your checks: they stay in
this browser until you download them for your teacher, who merges the files with
<code>python -m mapteach progress</code>. To change the code, install the workbook and run
<code>make lab</code> (中文版: <code>make lab-zh</code>).</p>
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
    report = SiteReport(out_dir=out_dir, pages=pages, skipped=skipped)
    for page in pages:
        target = out_dir / page.href
        target.parent.mkdir(parents=True, exist_ok=True)
        rendered = _render_page(page, pages, exporters[page.lang], report)
        target.write_text(rendered, encoding="utf-8")
    (out_dir / "index.html").write_text(_index(pages), encoding="utf-8")
    files = [path for path in out_dir.rglob("*") if path.is_file()]
    report.files = len(files)
    report.size_bytes = sum(path.stat().st_size for path in files)
    report.tex_fallbacks, report.formulas = counter.fallbacks, counter.converted
    report.seconds = time.perf_counter() - start
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="default: build/site")
    args = parser.parse_args(argv)
    report = build(args.out)
    print(report.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
