"""Shared test set-up: hypothesis profiles, and no test writes a learner's real progress."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=200, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# Exercises checked during the tests (doctests, kernels nbval starts, the browser's
# JupyterLab) record into a throwaway file, never into ~/.mapteach/progress.jsonl.
os.environ["MAPTEACH_PROGRESS"] = str(Path(tempfile.mkdtemp(prefix="mapteach-")) / "progress.jsonl")
os.environ.pop("MAPTEACH_LEARNER", None)
