"""Measures with parameters against ir_measures 0.4.3, query by query, on random qrels and runs.

Each measure is computed by the ir_measures provider that has it: pytrec_eval for
``P(rel=2)@10`` beside ``P@10`` (one call of each library), trectools for
``nDCG(dcg='exp-log2')@10`` and ``RBP(p=0.8)`` (graded gains), cwl_eval for
``RBP(p=0.5,rel=2)``, gdeval (perl, ir_measures' own gdeval.pl) for ``ERR@10``, and
ir_measures' judged provider for ``Judged@10``. Where a provider is not installed
the measure skips, saying which package to install (requirements-test.txt has them
all; under MAPTEACH_STRICT a missing one fails). Each provider breaks ties its
own way, and mapteach is asked for the same order: trec_eval's (document id
descending) for pytrec_eval and gdeval; the input order (a stable sort of the
scores) for trectools' nDCG and cwl_eval; the mean over the orders of a tie for
trectools' RBP (its ``average_ties``); document id ascending for Judged
(``ties="ir_measures"``). The counts of values compared are asserted.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from mapteach.runs.evaluation import evaluate

ir_measures = pytest.importorskip("ir_measures")

N_PAIRS = 60
SEED = 26


@dataclass(frozen=True)
class Case:
    """One measure, the provider that computes it, how to order ties, and the tolerance."""

    name: str
    provider: str
    ties: str
    needs: Callable[[], bool]
    install: str
    tolerance: float = 1e-12
    grades: tuple[int, ...] = (-1, 0, 0, 1, 1, 2, 3)


def _module(name: str) -> Callable[[], bool]:
    return lambda: importlib.util.find_spec(name) is not None


#: Grades without -1 for pytrec_eval: negative grades corrupt its memory (see
#: test_evaluate_vs_pytrec_eval.py); the other providers read -1 as not relevant.
POSITIVE = (0, 0, 1, 1, 2, 3)

CASES = [
    Case(
        "P@10",
        "pytrec_eval",
        "trec_eval",
        _module("pytrec_eval"),
        "pytrec-eval-terrier",
        grades=POSITIVE,
    ),
    Case(
        "P(rel=2)@10",
        "pytrec_eval",
        "trec_eval",
        _module("pytrec_eval"),
        "pytrec-eval-terrier",
        grades=POSITIVE,
    ),
    Case(
        "AP(rel=2)",
        "pytrec_eval",
        "trec_eval",
        _module("pytrec_eval"),
        "pytrec-eval-terrier",
        grades=POSITIVE,
    ),
    Case(
        "nDCG(dcg='exp-log2')@10",
        "trectools",
        "input",
        _module("trectools"),
        "trectools",
    ),
    Case("RBP(p=0.8)", "trectools", "expected", _module("trectools"), "trectools"),
    Case("RBP(p=0.5,rel=2)", "cwl_eval", "input", _module("cwl"), "cwl-eval"),
    # gdeval.pl prints 5 decimals
    Case("ERR@10", "gdeval", "trec_eval", lambda: shutil.which("perl") is not None, "perl", 5e-6),
    Case("Judged@10", "judged", "ir_measures", lambda: True, "ir_measures"),
]


def random_pair(rng: np.random.Generator, grades: tuple[int, ...]):
    """Qrels and a run with ties (scores on a coarse grid), unjudged and unretrieved documents.

    Query ids are numbers (gdeval.pl reads only those). Each query's scores lie in
    its own band, so no score is tied across two queries (trectools' RBP groups
    ties over the whole run). Rows come sorted by score, then document id
    ascending, the order trectools and cwl_eval keep for a tie (a stable sort).
    """
    qrels, rows = [], []
    for q in range(int(rng.integers(1, 5))):
        qid = str(q + 1)
        docs = [f"d{i}" for i in rng.permutation(40)[: int(rng.integers(1, 25))]]
        levels = int(rng.integers(1, 6))
        scored = [(10.0 * q + float(rng.integers(0, levels)) / 4, doc) for doc in docs]
        rows += [(qid, doc, score) for score, doc in sorted(scored, key=lambda s: (-s[0], s[1]))]
        for doc in [*docs, *(f"u{i}" for i in range(int(rng.integers(0, 4))))]:
            if rng.random() < 0.7:
                qrels.append((qid, doc, int(rng.choice(grades))))
        qrels.append((qid, "never_retrieved", 1))
    return qrels, rows


def as_tuples(qrels, rows):
    """The pair as ir_measures' namedtuples, which both libraries read."""
    return (
        [ir_measures.Qrel(q, d, r) for q, d, r in qrels],
        [ir_measures.ScoredDoc(q, d, s) for q, d, s in rows],
    )


def theirs(case: Case, qrels, rows) -> dict[str, float]:
    provider = getattr(ir_measures, case.provider)
    measure = ir_measures.parse_measure(case.name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # trectools calls pandas in ways pandas deprecates
        metrics = list(provider.iter_calc([measure], *as_tuples(qrels, rows)))
    return {m.query_id: float(m.value) for m in metrics}


def ours(case: Case, qrels, rows) -> dict[str, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        table = evaluate(*as_tuples(qrels, rows), [case.name], ties=case.ties, missing="ignore")
    return {str(q): float(v) for q, v in table[case.name].items()}


def compare(case: Case) -> tuple[int, list]:
    rng = np.random.default_rng(SEED)
    compared, mismatches = 0, []
    for _ in range(N_PAIRS):
        qrels, rows = random_pair(rng, case.grades)
        expected, got = theirs(case, qrels, rows), ours(case, qrels, rows)
        for qid, value in got.items():
            reference = expected.get(qid, 0.0)  # trectools leaves out queries that score 0
            compared += 1
            if abs(value - reference) > case.tolerance:
                mismatches.append((case.name, qid, value, reference))
    return compared, mismatches


#: Values compared per measure: every scored query of the 60 pairs (seed 26).
EXPECTED_COUNTS = {case.name: 140 for case in CASES}


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_each_measure_equals_ir_measures(case):
    if not case.needs():
        if os.environ.get("MAPTEACH_STRICT"):
            pytest.fail(f"ir_measures' {case.provider} provider needs {case.install}")
        pytest.skip(f"ir_measures' {case.provider} provider needs {case.install}; install it")
    compared, mismatches = compare(case)
    assert mismatches == []
    assert compared == EXPECTED_COUNTS[case.name]


def test_p_at_rel_2_beside_p_in_one_call():
    """One evaluate() call gives P@10 and P(rel=2)@10, as one ir_measures call does."""
    rng = np.random.default_rng(SEED)
    qrels, rows = random_pair(rng, (0, 1, 2, 3))
    names = ["P@10", "P(rel=2)@10"]
    measures = [ir_measures.parse_measure(name) for name in names]
    expected = {
        (str(m.measure), m.query_id): m.value
        for m in ir_measures.pytrec_eval.iter_calc(measures, *as_tuples(qrels, rows))
    }
    table = evaluate(*as_tuples(qrels, rows), names)
    got = {(name, str(q)): v for name in names for q, v in table[name].items()}
    assert got == pytest.approx(expected, abs=1e-12)
    assert len(got) == 2 * len(table)
