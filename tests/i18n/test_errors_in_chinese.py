"""The errors a learner meets by calling a function wrongly read in Chinese in the Chinese edition.

One wrong call per message group that left ``STILL_ENGLISH``: under ``language("zh")``
its message has Chinese and no English prose, only the names it quotes (arguments,
values, shapes); in English it is the English message, word for word as before.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from mapteach.analysis import compare_scores, pool, queries_needed, swap_rates
from mapteach.analysis.all_pairs import residual_variance
from mapteach.analysis.averaged_curve import mean_interpolated_precision
from mapteach.analysis.reliability import ranking_agreement
from mapteach.i18n import check_language, language
from mapteach.metrics import bpref, mean_average_precision
from mapteach.metrics.batch import RankedEntries, judgments
from mapteach.metrics.gmap import geometric_mean
from mapteach.metrics.ndcg import ndcg_at_k
from mapteach.runs import evaluate_scores
from mapteach.runs.retrieval import similarity_matrix

#: Two English words in a row outside a quoted name: what a Chinese message must not hold.
ENGLISH_PROSE = re.compile(r"(?<![\w'.\[=-])[A-Za-z]{2,}[ ,;:]+[A-Za-z]{2,}(?![\w'(=\]])")

CALLS = {
    "score_matrix shapes": (lambda: evaluate_scores([[1.0, 2.0]], [[1, 0, 1]]), ValueError),
    "score_matrix ids": (
        lambda: evaluate_scores([[1.0, 2.0]], [[1, 0]], doc_ids=["d1", "d1"]),
        ValueError,
    ),
    "score_matrix grade": (lambda: evaluate_scores([[1.0, 2.0]], [[1, 0.5]]), ValueError),
    "score_matrix score": (lambda: evaluate_scores([[np.inf, 2.0]], [[1, 0]]), ValueError),
    "average_precision R = 0": (
        lambda: mean_average_precision([[0, 0]], no_relevant="error"),
        ValueError,
    ),
    "bpref judged": (lambda: bpref([1, 0], judged=[1]), ValueError),
    "batch judged": (lambda: judgments(RankedEntries.from_lists([[1, 0]]), "Bpref"), ValueError),
    "gmap values": (lambda: geometric_mean([0.5, -1.0]), ValueError),
    "ndcg ideal": (lambda: ndcg_at_k([2, 1], 2, ideal=[1]), ValueError),
    "compare confidence": (
        lambda: compare_scores([0.1, 0.2], [0.3, 0.4], confidence=2),
        ValueError,
    ),
    "compare lengths": (lambda: compare_scores([0.1, 0.2], [0.3]), ValueError),
    "compare power": (lambda: queries_needed(0.1, 0.05, power=1.5), ValueError),
    "reliability trials": (
        lambda: swap_rates(pd.DataFrame(np.ones((8, 2)), columns=["a", "b"]), 2, trials=0),
        ValueError,
    ),
    "reliability rankings": (lambda: ranking_agreement({"a": 1.0}, {"b": 1.0}), ValueError),
    "all_pairs table": (lambda: residual_variance([[1.0]]), TypeError),
    "averaged_curve shape": (lambda: mean_interpolated_precision([[1.0]], [[1, 0]]), ValueError),
    "pooling runs": (lambda: pool({}, 10), ValueError),
    "retrieval metric": (lambda: similarity_matrix([[1.0, 0.0]], metric="dot"), ValueError),
    "i18n language": (lambda: check_language("fr"), ValueError),
}


def _message(call, error: type[Exception], lang: str) -> str:
    with language(lang), pytest.raises(error) as raised:
        call()
    return str(raised.value)


@pytest.mark.parametrize("case", list(CALLS))
def test_an_error_reads_in_chinese_and_unchanged_in_english(case):
    call, error = CALLS[case]
    chinese, english = _message(call, error, "zh"), _message(call, error, "en")
    assert re.search("[\u4e00-\u9fff]", chinese), chinese
    assert ENGLISH_PROSE.findall(chinese) == [], chinese
    assert ENGLISH_PROSE.search(english), english
