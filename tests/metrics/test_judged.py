"""Judged@k against ir_measures' own judged provider: its tie order is ``ties="ir_measures"``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from mapteach.metrics.registry import REGISTRY
from mapteach.runs.evaluation import evaluate

ir_measures = pytest.importorskip("ir_measures")


def random_pair(rng: np.random.Generator):
    """Qrels and a run whose scores tie often, listed in a shuffled (not sorted) order."""
    qrels, run = [], []
    for q in range(int(rng.integers(1, 5))):
        qid = f"q{q}"
        docs = [f"d{i}" for i in rng.permutation(30)[: int(rng.integers(1, 25))]]
        run += [ir_measures.ScoredDoc(qid, doc, float(rng.integers(0, 3))) for doc in docs]
        qrels += [
            ir_measures.Qrel(qid, doc, int(rng.choice([-1, 0, 1, 2])))
            for doc in docs
            if rng.random() < 0.5
        ]
        qrels.append(ir_measures.Qrel(qid, "never_retrieved", 1))
    return qrels, run


def judged(qrels, run, name: str, ties: str) -> dict[str, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        table = evaluate(qrels, run, [name], ties=ties, missing="ignore")
    return {str(q): float(v) for q, v in table[name].items()}


@pytest.mark.parametrize("name", ["Judged@5", "Judged@10", "Judged"])
def test_ties_ir_measures_is_ir_measures_order(name):
    rng = np.random.default_rng(5)
    compared, differ_under_trec_eval = 0, 0
    for _ in range(100):
        qrels, run = random_pair(rng)
        measure = ir_measures.parse_measure(name)
        expected = {
            m.query_id: m.value for m in ir_measures.judged.iter_calc([measure], qrels, run)
        }
        got = judged(qrels, run, name, "ir_measures")
        assert got == pytest.approx(expected, abs=1e-15)
        compared += len(got)
        trec = judged(qrels, run, name, "trec_eval")
        differ_under_trec_eval += sum(abs(trec[q] - expected[q]) > 1e-12 for q in trec)
    assert compared == 254
    # without a cutoff no order matters; with one, trec_eval's order differs somewhere
    assert (differ_under_trec_eval > 0) == (name != "Judged")


def test_the_declaration_and_the_help_name_the_tie_order():
    assert "ties='ir_measures'" in REGISTRY["Judged"].description
