"""Fixtures for the browser tests: JupyterLab, Voila and Debian's Chromium.

Without Chromium the browser tests skip and say how to enable them, except where
``MAPTEACH_STRICT`` is set (``.ci/run`` sets it), where a missing browser fails the run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser import harness


@pytest.fixture(scope="session")
def workdir(tmp_path_factory) -> Path:
    return harness.make_workdir(tmp_path_factory.mktemp("lab"))


@pytest.fixture(scope="session")
def lab_url(workdir: Path) -> Iterator[str]:
    harness.require_browser()
    with harness.jupyterlab(workdir) as url:
        yield url


@pytest.fixture(scope="session")
def voila_url(workdir: Path) -> Iterator[str]:
    harness.require_browser()
    with harness.voila(workdir, "notebooks/06_playground.ipynb") as url:
        yield url


@pytest.fixture(scope="module")
def browser(chromium):
    """The module's Chromium (``tests/conftest.py``: one Playwright session at a time)."""
    return chromium
