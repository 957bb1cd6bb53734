"""Kernel-side cost of one ranking-board update, for 10, 20, 50 and 100 items.

Times ``RankingList.move`` from the call until every observer has run: the part of a
drag the kernel pays for. The browser draws the trace table and the plots itself, so
the kernel only checks the list, computes AP of the labels it received and marks the
heading "(edited)". Goal: <= 25 ms at 20 items (it was the whole redraw's budget).

Run: .venv/bin/python benchmarks/board_kernel.py
"""

from __future__ import annotations

import time

import numpy as np

from mapteach.board.ranking_board import RankingBoard

ROUNDS = 60


def measure(n: int) -> np.ndarray:
    rng = np.random.default_rng(n)
    board = RankingBoard((rng.random(n) < 0.3).astype(int).tolist(), n_relevant=None)
    times = []
    for i in range(ROUNDS):
        item = board.ranking.items[(i * 7) % n]
        target = 1 + (i * 13) % n
        start = time.perf_counter()
        board.ranking.move(item["doc"], target)
        times.append(time.perf_counter() - start)
    return np.array(times) * 1000


def main() -> None:
    print(f"kernel-side update of the ranking board ({ROUNDS} moves each)")
    print(f"{'items':>6} {'median ms':>10} {'p95 ms':>8}")
    for n in (10, 20, 50, 100):
        times = measure(n)
        print(f"{n:>6} {np.median(times):>10.1f} {np.percentile(times, 95):>8.1f}")


if __name__ == "__main__":
    main()
