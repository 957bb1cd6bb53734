"""The kernel's stand-in on a page without one (ranking_list_offline.js), in Chromium: for
every sequence of what a learner does (drags, marks, counts typed, presets chosen, Reset),
the list's model ends where the kernel's RankingList ends, trait for trait, starting from
the state its fallback writes (mapteach.board.board_fallback)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from mapteach.board import RankingBoard, RankingList
from mapteach.board.board_fallback import ranking_fallback
from mapteach.board.list_widget import PRESETS

pytestmark = pytest.mark.browser

#: The traits the stand-in sets in the kernel's place, and those the view sends.
COMPARED = (
    "items",
    "n_unretrieved",
    "k",
    "interpolated",
    "ap",
    "ap_label",
    "heading",
    "preset",
    "query_name",
)

#: Make the model from a fallback's state, then apply each action as the view sends it
#: (set the traits, then the stand-in answers for their names) and read the model.
PLAY = """([state, actions, compared]) => {
  const standIn = window.mapteachModules.ranking_list_offline;
  const model = fakeModel("ranking_list", state);
  standIn.attach(model);
  return actions.map((traits) => {
    for (const [name, value] of Object.entries(traits)) model.set(name, value);
    standIn.standIn(model, Object.keys(traits));
    return Object.fromEntries(compared.map((name) => [name, model.get(name)]));
  });
}"""


def fallback_state(ranking: RankingList) -> dict:
    """The model state the page reads from the list's ``text/html`` fallback."""
    html = ranking_fallback(ranking)
    payload = re.search(r"data-mapteach-state>(.*?)</script>", html).group(1)
    return json.loads(payload.replace("<\\/", "</"))["model"]


def random_actions(ranking: RankingList, rng, n: int) -> tuple[list[dict], list[dict]]:
    """``n`` actions as the browser sends them, applied to ``ranking`` as they go, and the
    kernel's traits after each."""
    actions, after = [], []
    names = [name for name, _ in PRESETS]
    for _ in range(n):
        kind = rng.choice(["move", "toggle", "missed", "cutoff", "preset", "custom", "reset"])
        items = [dict(item) for item in ranking.items]
        if kind == "move" and items:
            item = items.pop(int(rng.integers(len(items))))
            items.insert(int(rng.integers(len(items) + 1)), item)
            message = {"items": items}
        elif kind == "toggle" and items and not ranking.fixed_relevance:
            item = items[int(rng.integers(len(items)))]
            item["relevant"] = not item["relevant"]
            message = {"items": items}
        elif kind == "missed":
            message = {"n_unretrieved": int(rng.integers(0, 4))}
        elif kind == "cutoff":
            message = {"k": int(rng.integers(0, 12))}
        elif kind == "preset" and ranking.presets:
            message = {"preset": str(rng.choice(names))}
        elif kind == "custom" and ranking.presets:
            message = {"preset": ""}
        else:
            message = {"reset_request": ranking.reset_request + 1}
        ranking.set_state(message)
        actions.append(message)
        after.append({name: getattr(ranking, name) for name in COMPARED})
    return actions, after


@pytest.mark.parametrize(
    "make",
    [
        lambda: RankingBoard(example="003_a").ranking,
        lambda: RankingBoard([1, 0, 1, 0], n_relevant=3, k=2, lang="zh").ranking,
        lambda: RankingList([0, 1, 1], compact=True, query_name="q"),
        lambda: RankingList([0, 1, 0, 1], fixed_relevance=True, query_name="arrange"),
    ],
    ids=["preset-board", "zh-board", "compact", "fixed"],
)
def test_the_stand_in_answers_as_the_kernel_does(page, make):
    ranking = make()
    state = fallback_state(ranking)
    actions, kernel = random_actions(ranking, np.random.default_rng(5), 150)
    played = page.evaluate(PLAY, [state, actions, list(COMPARED)])
    for step, (action, js, py) in enumerate(zip(actions, played, kernel, strict=True)):
        assert js == py, (step, action)


def test_a_child_list_without_an_origin_resets_to_the_state_it_was_shown_in(page):
    ranking = RankingList([0, 1, 1], compact=True)
    state = {name: value for name, value in fallback_state(ranking).items() if name != "origin"}
    actions = [{"items": list(reversed(ranking.items))}, {"k": 2}, {"reset_request": 1}]
    played = page.evaluate(PLAY, [state, actions, list(COMPARED)])
    assert played[0]["items"] != ranking.items
    assert played[-1]["items"] == ranking.items and played[-1]["k"] == 0
    assert played[-1]["ap"] == ranking.ap
