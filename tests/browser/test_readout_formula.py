"""The board's browser-side readout equals mapteach.average_precision to the last bit.

The module the widget loads (its bundled ``_esm``, board_math.js first) is imported as
it is, and its ``averagePrecision`` (which the readout shows) is compared with Python's.
"""

from __future__ import annotations

import numpy as np
import pytest

from mapteach import average_precision
from mapteach.board import RankingList

pytestmark = pytest.mark.browser


def test_browser_formula_is_bit_identical(browser):
    rng = np.random.default_rng(7)
    cases = []
    for _ in range(3000):
        n = int(rng.integers(0, 60))
        labels = (rng.random(n) < rng.random()).astype(int).tolist()
        r = sum(labels) + int(rng.integers(0, 6))
        k = int(rng.integers(0, 70)) if rng.random() < 0.5 else 0
        cases.append((labels, r, k))
    page = browser.new_page()
    got = page.evaluate(
        """async ([source, cases]) => {
          const module = await import('data:text/javascript,' + encodeURIComponent(source));
          return cases.map(([labels, r, k]) => module.averagePrecision(labels, r, k));
        }""",
        [RankingList._esm, cases],
    )
    page.close()
    expected = [average_precision(y, n_relevant=r, k=k or None) for y, r, k in cases]
    mismatches = [(c, g, e) for c, g, e in zip(cases, got, expected, strict=True) if g != e]
    assert not mismatches, f"{len(mismatches)} differ, first: {mismatches[:2]}"
