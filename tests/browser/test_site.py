"""The static site, opened from the file system in Chromium with the network cut off.

A learner without Python opens ``build/site/index.html``: every request that is not
``file:`` (or an inline ``data:`` image) is aborted and recorded, and the test fails if
any was made. On the playground page the board's picture loads, a formula is laid out as
MathML, and a folded solution opens on a click.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]

_spec = importlib.util.spec_from_file_location("build_site_tool", ROOT / "tools" / "build_site.py")
assert _spec is not None and _spec.loader is not None
tool = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = tool  # dataclasses look their module up there
_spec.loader.exec_module(tool)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return tool.build(tmp_path_factory.mktemp("site") / "site").out_dir


@pytest.fixture
def offline(browser):
    """A page that may load only file: and data: URLs; yields it and what it tried else."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    blocked: list[str] = []

    def only_local(route):
        url = route.request.url
        if url.startswith(("file:", "data:")):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    context.route("**/*", only_local)
    page = context.new_page()
    yield page, blocked
    context.close()


def test_playground_reads_offline(site, offline):
    page, blocked = offline
    page.goto((site / "en" / "06_playground.html").as_uri(), wait_until="load")

    # The board's static picture is decoded.
    picture = page.locator(".mapteach-static img").first
    picture.scroll_into_view_if_needed()
    assert picture.evaluate("img => img.complete && img.naturalWidth > 0 && img.naturalHeight > 0")

    # A folded solution opens on a click and shows its text.
    solution = page.locator(".mapteach-exercise-static details").first
    solution.scroll_into_view_if_needed()
    body = solution.locator(":scope > :not(summary)").first
    assert not solution.evaluate("d => d.open")
    assert not body.is_visible()
    solution.locator("summary").click()
    page.wait_for_function("d => d.open", arg=solution.element_handle(), timeout=5_000)
    assert body.is_visible()
    assert "One arrangement that works" in solution.inner_text()

    # A formula (notebook 03's AP) is MathML that Chromium lays out, with a real fraction.
    page.goto((site / "en" / "03_average_precision_by_hand.html").as_uri(), wait_until="load")
    formula = page.locator("math").first
    formula.scroll_into_view_if_needed()
    assert formula.evaluate("m => m instanceof MathMLElement")
    box = formula.bounding_box()
    assert box and box["width"] > 0 and box["height"] > 0, box
    fraction = formula.locator("mfrac").first.bounding_box()
    assert fraction and fraction["width"] > 0 and fraction["height"] > 0, fraction

    assert not blocked, f"the page asked the network for {blocked}"


def test_index_leads_to_the_playground(site, offline):
    page, blocked = offline
    page.goto((site / "index.html").as_uri(), wait_until="load")
    assert page.locator("h1").inner_text().strip()
    link = page.locator('a[href="en/06_playground.html"]')
    assert link.count() == 1
    link.click()
    page.wait_for_url("**/en/06_playground.html")
    assert page.locator("h1").first.inner_text().startswith("06")
    assert page.locator(".mapteach-static img").count() >= 1
    assert not blocked, f"the pages asked the network for {blocked}"


def test_chinese_playground_shows_chinese(site, offline):
    zh = site / "zh" / "06_playground.html"
    if not zh.exists():  # the Chinese edition may not be written yet
        return
    page, blocked = offline
    page.goto(zh.as_uri(), wait_until="load")
    assert page.evaluate("document.documentElement.lang") == "zh"
    assert page.evaluate("document.characterSet") == "UTF-8"
    title = page.locator("h1").first.inner_text()
    assert any("\u4e00" <= ch <= "\u9fff" for ch in title), title
    font = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert "Noto Sans CJK SC" in font, font
    assert not blocked, f"the page asked the network for {blocked}"


def test_the_network_is_really_cut_off(site, offline):
    """The tests above prove nothing unless a request to the network is seen and aborted."""
    page, blocked = offline
    page.goto((site / "index.html").as_uri(), wait_until="load")
    reached = page.evaluate("fetch('http://127.0.0.1:9/probe').then(() => true, () => false)")
    assert reached is False
    assert blocked == ["http://127.0.0.1:9/probe"]
