"""Drop-to-update latency of the ranking board in JupyterLab, in headless Chromium.

Performs real mouse drags (Playwright ``drag_to``) and keyboard moves
(Alt+ArrowUp/Down) on the playground's board, each one changing AP, and prints the
median and p95 time from the drop (or key press) to

- (a) the AP readout's ``data-value`` changing (a MutationObserver); the browser
  shows AP at once with the same arithmetic as the kernel, bit for bit,
- (b) the kernel's confirmation: its trace table re-rendered (the round trip), and
- (c) the plot canvas repainting (ipympl's ``drawImage`` onto its canvas).

Goals on a 2-core machine: readout p95 <= 60 ms, repaint p95 <= 100 ms.

Run from the repository root: .venv/bin/python -m benchmarks.board_browser [--moves 30]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

from tests.browser import harness

WATCH = """(root) => {
  window.__events = [];
  window.__readouts = [];
  window.__traces = [];
  const readout = root.querySelector('[data-testid=ap-value]');
  new MutationObserver(() => window.__readouts.push(performance.now()))
    .observe(readout, { attributes: true, attributeFilter: ['data-value'] });
  const trace = document.querySelector('[data-testid=trace-table]').parentElement;
  new MutationObserver(() => window.__traces.push(performance.now()))
    .observe(trace, { childList: true, subtree: true });
  const mark = () => window.__events.push(performance.now());
  document.addEventListener('drop', mark, true);
  document.addEventListener('keydown', (e) => { if (e.altKey) mark(); }, true);
}"""

LAST = """() => ({ event: window.__events.at(-1), readouts: window.__readouts.slice(),
                 traces: window.__traces.slice(), paints: window.__paints.slice() })"""


def _first_after(times: list[float], start: float) -> float:
    return min(t for t in times if t >= start) - start


def _one(page, act) -> tuple[float, ...]:
    counts = page.evaluate(
        "[window.__readouts.length, window.__traces.length, window.__paints.length]"
    )
    act()
    page.wait_for_function(
        "([r, t, p]) => window.__readouts.length > r && window.__traces.length > t"
        " && window.__paints.length > p",
        arg=counts,
        timeout=10_000,
    )
    seen = page.evaluate(LAST)
    return tuple(_first_after(seen[key], seen["event"]) for key in ("readouts", "traces", "paints"))


def measure(moves: int) -> dict[str, np.ndarray]:
    with tempfile.TemporaryDirectory() as tmp:
        workdir = harness.make_workdir(Path(tmp))
        with harness.jupyterlab(workdir) as url, harness.chromium() as browser:
            page = harness.open_notebook(browser, url, "06_playground.ipynb")
            board = page.locator("[data-testid=ranking-board] >> nth=0")
            items = board.locator("[data-testid=rank-item]")
            items.first.wait_for(timeout=90_000)
            page.wait_for_function("() => window.__paints.length > 1", timeout=30_000)
            page.wait_for_timeout(1000)
            board.evaluate(WATCH)
            results: dict[str, list[tuple[float, float, float]]] = {"drag": [], "key": []}
            for i in range(moves):  # article 003's query A: move a relevant result 4 <-> 1
                source, target = (3, 0) if i % 2 == 0 else (0, 3)
                position = {"x": 30, "y": 3} if target == 0 else {"x": 30, "y": 20}
                results["drag"].append(
                    _one(
                        page,
                        lambda s=source, t=target, p=position: items.nth(s).drag_to(
                            items.nth(t), target_position=p
                        ),
                    )
                )
            board.locator('[data-doc="d1"]').focus()
            for i in range(moves):  # the top result (relevant) moves down and back up
                key = "Alt+ArrowDown" if i % 2 == 0 else "Alt+ArrowUp"
                results["key"].append(_one(page, lambda k=key: page.keyboard.press(k)))
            page.close()
    return {name: np.array(values) for name, values in results.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=30, help="drags and key moves each")
    args = parser.parse_args()
    results = measure(args.moves)
    moves = args.moves
    print(f"ranking board in JupyterLab, headless Chromium: {moves} drags, {moves} key moves")
    print(f"{'action':<8} {'what':<16} {'median ms':>10} {'p95 ms':>8} {'goal p95':>9}")
    for action, values in results.items():
        for column, what, goal in (
            (0, "AP readout", "60"),
            (1, "kernel trace", "-"),
            (2, "plot repaint", "100"),
        ):
            times = values[:, column]
            print(
                f"{action:<8} {what:<16} {np.median(times):>10.1f} "
                f"{np.percentile(times, 95):>8.1f} {goal:>9}"
            )


if __name__ == "__main__":
    main()
