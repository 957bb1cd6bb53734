"""The static site (``make site``, ``tools/build_site.py``) reads without Python or a network.

Builds the site once into a temporary folder, then reads its HTML: the index lists every
notebook of both editions, every page is there, nothing is fetched from the network, the
playground's formulas are MathML, every relative link lands on a file of the site, and
every page with a widget carries the runtime that runs it live, once, with the modules
its widgets need (the browser tests, ``tests/browser/test_site.py``, run them).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest
from bs4 import BeautifulSoup

from mapteach.exercises import NumberExercise
from mapteach.offline import needed_modules, offline_html, runtime_texts
from tests.browser.harness import site_tool

pytestmark = pytest.mark.slow  # builds the whole site: not in make test-fast
ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
NOTEBOOK_NAME = re.compile(r"^\d\d_[A-Za-z0-9_]+\.ipynb$")
EDITIONS = {"en": NOTEBOOKS, "zh": NOTEBOOKS / "zh"}
#: TeX as Jupyter finds it: $$...$$, \[...\], $...$, \(...\).
TEX = re.compile(
    r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\\\[(.+?)(?<!\\)\\\]"
    r"|(?<![$\\])\$(.+?)(?<![$\\])\$|(?<!\\)\\\((.+?)(?<!\\)\\\)",
    re.DOTALL,
)
EXTERNAL = re.compile(r"^\s*(https?:)?//", re.IGNORECASE)

tool = site_tool()

PRESENT = [
    (edition, path)
    for edition, folder in EDITIONS.items()
    for path in sorted(folder.glob("*.ipynb"))
    if NOTEBOOK_NAME.match(path.name)
]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return tool.build(tmp_path_factory.mktemp("site") / "site")


def _soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def _pages(site) -> list[Path]:
    return sorted(site.out_dir.rglob("*.html"))


def test_build_reads_every_notebook(site):
    assert not site.skipped, f"notebooks that could not be read: {site.skipped}"
    assert len(site.pages) == len(PRESENT)
    assert site.files > len(PRESENT) and site.size_bytes > 0
    summary = site.summary()
    assert "MiB" in summary and " s" in summary


def test_index_lists_every_notebook_of_both_editions_in_order(site):
    index = _soup(site.out_dir / "index.html")
    hrefs = [a["href"] for a in index.find_all("a", href=True)]
    for edition, path in PRESENT:
        assert f"{edition}/{path.stem}.html" in hrefs, f"index.html misses {edition}/{path.name}"
    for edition in EDITIONS:
        listed = [h for h in hrefs if h.startswith(f"{edition}/")]
        assert listed == sorted(listed), f"{edition} notebooks out of order on the index"
    assert "中文版" in index.get_text()
    assert index.find("h1").get_text(strip=True)


@pytest.mark.parametrize(("edition", "path"), PRESENT, ids=lambda v: getattr(v, "name", v))
def test_every_page_exists_with_utf8_and_its_language(site, edition, path):
    page = site.out_dir / edition / f"{path.stem}.html"
    assert page.is_file(), f"no page for {edition}/{path.name}"
    soup = _soup(page)
    assert soup.find("meta", charset=re.compile("utf-8", re.IGNORECASE))
    assert soup.html["lang"] == edition
    if edition == "zh":
        assert re.search(r"[\u4e00-\u9fff]", soup.find("h1").get_text()), "zh title is not Chinese"


def test_chinese_text_gets_a_cjk_font_stack(site):
    css = (site.out_dir / "assets" / "site.css").read_text(encoding="utf-8")
    assert "Noto Sans CJK SC" in css
    assert ":lang(zh)" in css


def test_nothing_is_loaded_from_the_network(site):
    offenders = []
    for page in _pages(site):
        soup = _soup(page)
        for tag, attribute in (("script", "src"), ("link", "href"), ("img", "src")):
            for element in soup.find_all(tag, attrs={attribute: True}):
                if EXTERNAL.match(element[attribute]):
                    offenders.append((page.name, tag, element[attribute]))
        for style in [s.get_text() for s in soup.find_all("style")] + [
            str(e["style"]) for e in soup.find_all(style=True)
        ]:
            offenders += [
                (page.name, "css", u) for u in re.findall(r"url\(\s*['\"]?https?:[^)]*", style)
            ]
            offenders += [(page.name, "css", "@import") for _ in re.findall(r"@import", style)]
    for sheet in (site.out_dir / "assets").glob("*.css"):
        text = sheet.read_text(encoding="utf-8")
        offenders += [
            (sheet.name, "css", u) for u in re.findall(r"url\(\s*['\"]?https?:[^)]*", text)
        ]
        offenders += [(sheet.name, "css", "@import") for _ in re.findall(r"@import", text)]
    assert not offenders, offenders[:10]


def _formulas(path: Path) -> list[str]:
    """The TeX a reader of ``path`` in JupyterLab sees typeset."""
    notebook = nbformat.read(path, as_version=4)
    texts = [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            texts += [data[m] for m in ("text/html", "text/markdown", "text/latex") if m in data]
    return [m[0] for text in texts for m in TEX.finditer(text)]


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_formula_of_the_playground_became_mathml(site, edition):
    source = EDITIONS[edition] / "06_playground.ipynb"
    if edition == "en":
        assert source.exists()
    elif not source.exists():  # the Chinese edition may not be written yet
        return
    page = _soup(site.out_dir / edition / "06_playground.html")
    formulas = _formulas(source)
    maths = page.find_all("math")
    assert len(maths) >= len(formulas), f"{len(formulas)} formulas, {len(maths)} MathML"
    assert not page.select(".tex-fallback")
    for math in maths:
        assert math.find(["mi", "mn", "mo", "mfrac", "mrow"]), "an empty formula"
    # No TeX left for MathJax to typeset, outside code.
    for text in page.find_all(string=TEX):
        assert any(p.name in {"pre", "code", "script", "style", "math"} for p in text.parents), (
            f"TeX left in the page: {text[:80]!r}"
        )
    if edition == "en" and formulas:
        annotations = [a.get_text() for a in page.find_all("annotation")]
        assert any(r"\frac" in a for a in annotations), "MathML lost its TeX annotation"


def test_no_formula_of_the_site_was_left_as_tex(site):
    assert not site.tex_fallbacks, f"latex2mathml could not convert: {site.tex_fallbacks}"


def test_playground_shows_widget_pictures_and_folded_solutions(site):
    page = _soup(site.out_dir / "en" / "06_playground.html")
    pictures = page.select(".mapteach-static img[src^='data:image/png;base64,']")
    assert len(pictures) >= 2, "the boards' static pictures are missing"
    solutions = page.select(".mapteach-exercise-static details")
    assert len(solutions) >= 3 and all(d.find("summary") for d in solutions)
    assert all(not d.has_attr("open") for d in solutions), "a solution is unfolded"
    assert "application/vnd.jupyter.widget-view+json" not in str(page)


def test_relative_links_resolve_to_files_of_the_site(site):
    broken = []
    for page in _pages(site):
        soup = _soup(page)
        ids = {e["id"] for e in soup.find_all(id=True)}
        for tag, attribute in (("a", "href"), ("link", "href"), ("img", "src"), ("script", "src")):
            for element in soup.find_all(tag, attrs={attribute: True}):
                parts = urlsplit(element[attribute])
                if parts.scheme or parts.netloc:
                    continue
                if not parts.path:
                    # A fragment names an id as written, or percent-decoded (HTML's rule).
                    if parts.fragment and not {parts.fragment, unquote(parts.fragment)} & ids:
                        broken.append((page.name, element[attribute]))
                    continue
                if not (page.parent / unquote(parts.path)).resolve().is_file():
                    broken.append((page.name, element[attribute]))
                if parts.path.endswith(".ipynb"):
                    broken.append((page.name, element[attribute]))
    assert not broken, broken[:10]


def test_links_between_notebooks_stay_in_their_edition(site):
    page = _soup(site.out_dir / "en" / "06_playground.html")
    hrefs = {a["href"] for a in page.find_all("a", href=True)}
    assert {"05_legal_search_walkthrough.html", "07_pr_curves.html"} <= hrefs
    assert "../index.html" in hrefs
    zh = site.out_dir / "zh" / "06_playground.html"
    if zh.exists():
        zh_hrefs = {a["href"] for a in _soup(zh).find_all("a", href=True)}
        assert "07_pr_curves.html" in zh_hrefs  # the zh twin, in zh/
        assert "../en/06_playground.html" in zh_hrefs  # the switch to English
        assert "../zh/06_playground.html" in hrefs


def test_a_folder_it_did_not_build_is_never_emptied(tmp_path):
    (tmp_path / "notes.txt").write_text("keep me")
    with pytest.raises(SystemExit):
        tool.build(tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "keep me"


def _states(soup: BeautifulSoup) -> list[dict]:
    return [
        json.loads(script.string)
        for script in soup.select("div.mapteach-offline > script[data-mapteach-state]")
    ]


def test_every_page_with_a_widget_runs_it_live(site):
    assert not site.static_only, site.static_only
    widgets = 0
    for page in _pages(site):
        if page.name == "index.html":
            continue
        soup = _soup(page)
        states = _states(soup)
        widgets += len(states)
        href = page.relative_to(site.out_dir).as_posix()
        texts = soup.find_all("script", id="mapteach-runtime-texts")
        if not states:
            assert not texts and href not in site.runtime_bytes, f"{href}: a runtime for nothing"
            assert not soup.select(".site-note"), f"{href}: says it runs widgets it has not"
            continue
        assert len(texts) == 1 and texts[0].parent.name == "head", f"{href}: runtime not once"
        modules = {
            s["data-mapteach-module"]
            for s in soup.find_all(attrs={"data-mapteach-module": True})
            if s.name == "script"
        }
        needed = needed_modules(states)
        assert needed | {"shim", "progress"} <= modules, f"{href}: misses {needed - modules}"
        assert modules <= needed | {f"{m}_offline" for m in needed} | {"shim", "progress"}
        lang = soup.html["lang"]
        assert json.loads(texts[0].string) == runtime_texts(lang)
        assert soup.select_one("nav.site-nav .site-note")
    assert widgets == site.live_widgets > 0
    assert "run live" in site.summary()


def test_the_playground_in_chinese_carries_chinese_runtime_texts(site):
    soup = _soup(site.out_dir / "zh" / "06_playground.html")
    texts = json.loads(soup.find("script", id="mapteach-runtime-texts").string)["texts"]
    assert all(re.search(r"[\u4e00-\u9fff]", text) for text in texts.values()), texts


def _notebook(folder: Path, name: str, html: str) -> None:
    cell = nbformat.v4.new_code_cell("widget")
    cell.outputs = [nbformat.v4.new_output("display_data", {"text/html": html, "text/plain": "w"})]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"# {name}"), cell])
    nbformat.write(notebook, folder / f"{name}.ipynb")


def test_a_widget_with_no_browser_module_leaves_its_page_static_and_is_said(tmp_path):
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    state = {"module": "nowhere", "id": "w1", "model": {}, "children": {}}
    _notebook(notebooks, "00_odd", offline_html("nowhere", state, "<p>still</p>", lang="en"))
    _notebook(notebooks, "01_plain", "<p>no widget</p>")
    report = tool.build(tmp_path / "site", notebooks)
    assert [href for href, _ in report.static_only] == ["en/00_odd.html"]
    assert "'nowhere'" in report.static_only[0][1]
    assert report.runtime_bytes == {} and report.live_widgets == 0
    page = _soup(tmp_path / "site" / "en" / "00_odd.html")
    assert not page.find("script", id="mapteach-runtime-texts")
    assert page.select_one(".mapteach-offline-static").get_text() == "still"
    assert "static only en/00_odd.html" in report.summary()


def test_the_navigation_speaks_each_pages_language(tmp_path):
    notebooks = tmp_path / "notebooks"
    (notebooks / "zh").mkdir(parents=True)
    exercise = NumberExercise("?", 0.5, [], "")._repr_mimebundle_()[0]["text/html"]
    for folder in (notebooks, notebooks / "zh"):
        _notebook(folder, "00_first", "<p>no widget</p>")
        _notebook(folder, "01_second", exercise)
    tool.build(tmp_path / "site", notebooks)
    for edition, twin in (("en", "中文版"), ("zh", "English")):
        nav = _soup(tmp_path / "site" / edition / "01_second.html").select_one("nav.site-nav")
        texts = tool.nav_texts(edition)
        assert nav.select_one("[data-testid=nav-contents]").get_text() == f"↑ {texts['contents']}"
        assert nav.select_one("a[rel=prev]").get_text().startswith(f"← {texts['previous']}:")
        assert nav.select_one("a.twin").get_text() == twin
        assert nav.select_one(".site-note").get_text() == texts["note"]
    zh = tool.nav_texts("zh")
    assert all(re.search(r"[\u4e00-\u9fff]", text) for text in zh.values()), zh
    assert tool.nav_texts("en")["contents"] == "Contents"


#: The delimiter row under a Markdown table's header (GitHub's rule: a dash run per column).
TABLE_DELIMITER = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$", re.MULTILINE)


def _markdown_tables(path: Path) -> int:
    """The Markdown tables of a notebook's markdown cells and ``text/markdown`` outputs."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    sources = []
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            sources.append("".join(cell["source"]))
        for output in cell.get("outputs", []):
            sources.append("".join(output.get("data", {}).get("text/markdown", "")))
    return sum(len(TABLE_DELIMITER.findall(source)) for source in sources)


@pytest.mark.parametrize(("edition", "path"), PRESENT, ids=[f"{e}/{p.name}" for e, p in PRESENT])
def test_every_markdown_table_of_a_notebook_is_a_table_on_the_site(site, edition, path):
    soup = _soup(site.out_dir / edition / path.with_suffix(".html").name)
    rendered = soup.select(".jp-RenderedMarkdown")
    tables = sum(len(block.find_all("table")) for block in rendered)
    assert tables == _markdown_tables(path), path.name
    assert not any(TABLE_DELIMITER.search(block.get_text()) for block in rendered), path.name


def test_the_glossary_is_a_table_in_both_editions(site):
    for edition in EDITIONS:
        soup = _soup(site.out_dir / edition / "16_glossary.html")
        output = soup.select_one(".jp-OutputArea-output.jp-RenderedMarkdown")
        assert output is not None and output.find("table") is not None, edition
        assert len(output.find("table").find_all("tr")) >= 30, edition
