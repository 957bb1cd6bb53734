"""How long the answer key takes: the whole key (both editions), one learner's, one group's.

The whole key is read from the committed notebooks' saved exercise states (nothing
executed); a learner's or a group's key runs each notebook up to its last exercise,
in two worker processes (each imports mapteach once), through a cache: measured cold
(an empty cache) and warm (the same learner again). Each figure is the median of
``--runs`` runs (3). Goals on 2 cores: whole key < 60 s, one learner's or one group's
< 20 s.

Run: .venv/bin/python benchmarks/answer_key.py [--runs 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("answer_key", ROOT / "tools" / "answer_key.py")
assert _spec is not None and _spec.loader is not None
answer_key = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(answer_key)

#: Each measured case: its label, its goal in seconds, and whether it starts cold.
CASES: tuple[tuple[str, float, bool], ...] = (
    ("whole key, en + zh (saved states)", 60.0, True),
    ("one learner (cold cache)", 20.0, True),
    ("one learner (warm cache)", 20.0, False),
    ("one group (cold cache)", 20.0, True),
)


def _build(label: str, out: Path) -> None:
    if label.startswith("whole"):
        for lang in ("en", "zh"):
            answer_key.build(out / f"{lang}.html", lang=lang)
    elif "learner" in label:
        answer_key.build(out / "learner.html", learner="benchmark learner")
    else:
        answer_key.build(out / "group.html", group="benchmark group")


def _median_seconds(run: Callable[[], None], cold: bool, runs: int, cache_root: Path) -> float:
    times = []
    for attempt in range(runs):
        if cold:
            answer_key.CACHE = cache_root / f"cold-{time.perf_counter_ns()}-{attempt}"
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time the answer key.")
    parser.add_argument("--runs", type=int, default=3, help="runs per case (the median)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs must be at least 1; got {args.runs}")
    missed = []
    print(f"answer key build times, median of {args.runs} ({sys.platform})")
    print(f"{'case':<36} {'median s':>9} {'goal s':>7}")
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        answer_key.CACHE = root / "warm"
        _build("one learner", root)  # fills the warm cache
        for label, goal, cold in CASES:
            if not cold:
                answer_key.CACHE = root / "warm"
            seconds = _median_seconds(partial(_build, label, root), cold, args.runs, root)
            print(f"{label:<36} {seconds:>9.2f} {goal:>7.0f}")
            if seconds >= goal:
                missed.append(label)
    if missed:
        print(f"over the goal: {missed}", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
