"""Shared test set-up: hypothesis profiles, and no test writes a learner's real progress
or an annotator's real judgments.

``MAPTEACH_HYPOTHESIS`` names the hypothesis profile: ``dev`` (the default: 200 examples
per property, random, unless Hypothesis itself sees a CI service and fixes them), ``ci``
(300, derandomized: ``.ci/run`` sets it) or ``fast`` (20, derandomized: ``make test-fast``
sets it). ``CI`` alone chooses nothing here.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.browser import harness

UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
PROFILES = {
    "ci": {"derandomize": True, "max_examples": 300, **UNTIMED},
    "dev": {"max_examples": 200, "deadline": None},
    "fast": {"derandomize": True, "max_examples": 20, **UNTIMED},
}
for name, options in PROFILES.items():
    settings.register_profile(name, **options)
_profile = os.environ.get("MAPTEACH_HYPOTHESIS", "").strip() or "dev"
if _profile not in PROFILES:
    raise ValueError(
        f"MAPTEACH_HYPOTHESIS={_profile!r} is not a hypothesis profile here; "
        f"use one of {', '.join(PROFILES)}"
    )
settings.load_profile(_profile)

# Exercises checked during the tests (doctests, kernels nbval starts, the browser's
# JupyterLab) record into a throwaway file, never into ~/.mapteach/progress.jsonl.
os.environ["MAPTEACH_PROGRESS"] = str(Path(tempfile.mkdtemp(prefix="mapteach-")) / "progress.jsonl")
os.environ.pop("MAPTEACH_LEARNER", None)
# Judging boards save to a throwaway folder, never to ~/.mapteach/judgments/; each test gets
# a folder of its own, so a board made without save_to never resumes another test's work.
os.environ["MAPTEACH_JUDGMENTS"] = tempfile.mkdtemp(prefix="mapteach-judgments-")


@pytest.fixture(autouse=True)
def _own_judgments_folder(monkeypatch, tmp_path_factory):
    monkeypatch.setenv("MAPTEACH_JUDGMENTS", str(tmp_path_factory.mktemp("judgments")))


@pytest.fixture(scope="module")
def chromium() -> Iterator:
    """One headless Chromium per test module, closed at the module's end (skipped, or failed
    where ``MAPTEACH_STRICT`` is set, without it): every module that drives Chromium uses
    this one, since two Playwright sessions cannot be open at once in one process."""
    harness.require_browser()
    with harness.chromium() as browser:
        yield browser
