"""Shared test set-up: hypothesis profiles, and no test writes a learner's real progress
or an annotator's real judgments.

``MAPTEACH_HYPOTHESIS`` names the hypothesis profile: ``dev`` (the default: 200 examples
per property, random, unless Hypothesis itself sees a CI service and fixes them), ``ci``
(300, derandomized: ``.ci/run`` sets it) or ``fast`` (20, derandomized: ``make test-fast``
sets it). ``CI`` alone chooses nothing here.
"""

from __future__ import annotations

import importlib.util
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.browser import harness

_BUILD = Path(__file__).resolve().parents[1] / "tools" / "trec_eval_build.py"
_build_spec = importlib.util.spec_from_file_location("trec_eval_build", _BUILD)
assert _build_spec is not None and _build_spec.loader is not None
trec_eval_build = importlib.util.module_from_spec(_build_spec)
_build_spec.loader.exec_module(trec_eval_build)
NO_TREC_EVAL_SOURCE = (
    "trec_eval's source is not at ../shared/data/trec_eval-src.tar.gz (or "
    "$MAPTEACH_TREC_EVAL_SRC): the cross-checks against the binary skip; the golden tests "
    "on tests/data/trec_eval still run"
)

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


def _trec_eval(precise: bool) -> Path:
    """The binary built from trec_eval's tarball; skip without the tarball, fail if make fails."""
    binary = trec_eval_build.build_trec_eval(precise)
    if binary is None:
        pytest.skip(NO_TREC_EVAL_SOURCE)
    return binary


@pytest.fixture(scope="session")
def trec_eval_bin() -> Path:
    """trec_eval 10, as built from ``../shared/data/trec_eval-src.tar.gz`` (4 decimals)."""
    return _trec_eval(precise=False)


@pytest.fixture(scope="session")
def trec_eval_precise_bin() -> Path:
    """The same trec_eval, printing every value as ``%.12f``: for comparisons to 1e-9."""
    return _trec_eval(precise=True)
