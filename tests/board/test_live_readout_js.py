"""The live printout's browser view (live_readout.js) in Chromium: it writes, for the lists'
models as they stand, the very HTML that mapteach.board.LiveReadout.html writes in Python,
to the character, in both languages, and rewrites it after every change of any list."""

from __future__ import annotations

import numpy as np
import pytest

from mapteach.board import MultiQueryBoard, RankingBoard, live_readout
from tests.board.js_page import synced_state

pytestmark = pytest.mark.browser

#: Make the readout's lists, then for each state the HTML readoutHtml writes for it.
HTML_OF = """([kind, lists, texts, states]) => {
  const models = lists.map((state, i) => fakeModel("ranking_list", state, `l${i}`));
  const { readoutHtml } = window.mapteachModules.live_readout;
  return states.map((state) => {
    state.forEach((traits, i) => {
      for (const [name, value] of Object.entries(traits)) models[i].set(name, value);
    });
    return readoutHtml(kind, models, texts);
  });
}"""


def random_edits(readout, rng, n: int) -> list[list[dict]]:
    """``n`` random states of the readout's lists, applied to them in Python as they go;
    each state's Python HTML is kept in ``readout.expected``."""
    states, readout.expected = [], []
    for _ in range(n):
        state = []
        for ranking in readout.rankings:
            docs = [item["doc"] for item in ranking.items]
            ranking.move(docs[int(rng.integers(len(docs)))], int(rng.integers(1, len(docs) + 1)))
            if rng.random() < 0.4:
                ranking.toggle(docs[int(rng.integers(len(docs)))])
            ranking.n_unretrieved = int(rng.integers(0, 3))
            ranking.k = int(rng.integers(0, len(docs) + 2)) if rng.random() < 0.5 else 0
            state.append(
                {"items": ranking.items, "n_unretrieved": ranking.n_unretrieved, "k": ranking.k}
            )
        states.append(state)
        readout.expected.append(readout.html)
    return states


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("make", [RankingBoard, MultiQueryBoard], ids=["board", "map"])
def test_the_browser_writes_what_python_writes(page, make, lang):
    readout = live_readout(make(lang=lang))
    lists = [synced_state(r) for r in readout.rankings]
    states = random_edits(readout, np.random.default_rng(11), 60)
    written = page.evaluate(HTML_OF, [readout.kind, lists, readout.texts, states])
    mismatches = [(w, e) for w, e in zip(written, readout.expected, strict=True) if w != e]
    assert not mismatches, mismatches[:2]


def test_the_printout_follows_a_drop_in_the_same_call(page):
    board = RankingBoard(example="003_a")
    readout = live_readout(board)
    state = synced_state(readout)
    state["rankings"] = ["IPY_MODEL_board"]
    page.evaluate(
        """async ([list, state]) => {
          fakeModel("ranking_list", list, "board");
          showModel(fakeModel("live_readout", state));
          await new Promise((done) => setTimeout(done, 0));
        }""",
        [synced_state(board.ranking), state],
    )
    board.ranking.move("d4", 1)
    seen = page.evaluate(
        """(items) => {
          window.fakeModels.board.set("items", items);
          return document.querySelector("[data-testid=live-readout]").outerHTML;
        }""",
        board.ranking.items,
    )
    parsed = page.evaluate(
        "(h) => { const t = document.createElement('template'); t.innerHTML = h;"
        " return t.innerHTML; }",
        readout.html,
    )
    assert seen == parsed
