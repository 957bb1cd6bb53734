"""The live printout of a board: it names the cutoff in words, never as ``None``."""

from __future__ import annotations

import pytest

from mapteach.board.ranking_board import RankingBoard
from mapteach.board.readout_widgets import live_readout
from mapteach.i18n import tr


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_printout_says_k_all_for_the_whole_list(lang):
    board = RankingBoard(example="003_a", lang=lang)
    readout = live_readout(board)
    labels = board.ranking.labels
    whole = tr("labels on screen: {labels}   R = {r}   k = all", lang=lang, labels=labels, r=3)
    cut = tr("labels on screen: {labels}   R = {r}   k = {k}", lang=lang, labels=labels, r=3, k=3)
    for k, head in ((0, whole), (3, cut), (0, whole)):  # typed 0, then 3, then 0 again
        board.ranking.k = k
        assert readout.text.splitlines()[0] == head
        assert "None" not in readout.text and "None" not in readout.html
