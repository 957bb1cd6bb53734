"""The boards' browser texts: every key a view reads is there, in both languages, with the
same placeholders as the English; a Chinese board's texts are Chinese."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from mapteach.board.view_texts import list_texts, map_board_texts, readout_texts

STATIC = Path(__file__).resolve().parents[2] / "mapteach" / "board" / "static"
MAKERS = {"list": list_texts, "map": map_board_texts, "readout": readout_texts}


def read_keys(source: str) -> set[str]:
    """The text keys a view's source reads: ``texts.key``, ``.texts.key`` and
    ``say(model, "key")``."""
    return set(re.findall(r"texts\)?\.(\w+)", source)) | set(
        re.findall(r'say\(model, "(\w+)"', source)
    )


def static(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def test_every_key_a_view_reads_is_there():
    plots = static("board_plots.js")
    board_part, _, ap_part = plots.partition("export function apBarsText")
    lists = read_keys(static("ranking_list.js") + static("ranking_list_offline.js") + board_part)
    assert lists and lists <= set(list_texts("en"))
    assert {"k_rejected", "n_unretrieved_rejected"} <= set(list_texts("en"))  # `${trait}_rejected`
    maps = read_keys(static("map_board.js") + ap_part)
    assert maps and maps <= set(map_board_texts("en"))
    readouts = read_keys(static("live_readout.js"))
    assert readouts and readouts <= set(readout_texts("en"))


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_both_languages_have_every_text_with_its_placeholders(kind):
    english, chinese = MAKERS[kind]("en"), MAKERS[kind]("zh")
    assert set(english) == set(chinese)
    for key, template in english.items():
        assert fields(chinese[key]) == fields(template), key
        if key not in ("lang", "separator"):
            assert chinese[key] != template or not re.search(r"[a-z]{3}", template), key
    assert (english["lang"], chinese["lang"]) == ("en", "zh-Hans")
