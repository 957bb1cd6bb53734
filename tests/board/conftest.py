"""The board views' tests: a blank page each, in the module's Chromium (``chromium``, from
``tests/conftest.py``), with the boards' browser modules loaded and fake models standing in
for the kernel's (``js_page``)."""

from __future__ import annotations

import pytest

from tests.board.js_page import open_page


@pytest.fixture
def page(chromium):
    """A fresh page with every board module on it; page errors fail the test."""
    page = open_page(chromium)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    page.close()
    assert errors == []
