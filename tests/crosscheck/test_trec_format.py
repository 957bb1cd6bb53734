"""``python -m mapteach evaluate --format trec`` against the trec_eval binary: the same bytes.

For each option set of the issue (``-q``, ``-q -c``, ``-q -c -M 100``, ``-q -l 2``,
``-q -J``), with trec_eval's default measures and with a ``-m`` list of several
cutoffs, both programs run on trec_eval's own test files (the qrels and run its
``make quicktest`` pairs with those options), and on a random qrels/run pair with
tied scores, grades -1 to 3 and queries the qrels lack, with and without judged
queries the run lacks (trec_eval and mapteach both stop on those, unless ``-c``). The
binary is built from trec_eval's source tarball (the ``trec_eval_bin`` fixture);
without the tarball these tests skip.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "trec_eval"

#: Each option set, with the qrels and run trec_eval's own test suite gives it.
OPTION_SETS = {
    "-q": (["-q"], "qrels.test", "results.test"),
    "-q -c": (["-q", "-c"], "qrels.test", "results.trunc"),
    "-q -c -M 100": (["-q", "-c", "-M", "100"], "qrels.test", "results.trunc"),
    "-q -l 2": (["-q", "-l", "2"], "qrels.rel_level", "results.test"),
    "-q -J": (["-q", "-J"], "qrels.test", "results.test"),
}

#: trec_eval's defaults (no -m), and a -m list with several cutoffs per measure.
MEASURE_SETS = {
    "default": [],
    "cutoffs": ["-m", "P.5,10,20", "-m", "ndcg_cut.10,20", "-m", "map", "-m", "recip_rank"],
}


def trec_eval(binary: Path, options: list[str], qrels: Path, run: Path) -> bytes:
    done = subprocess.run(
        [str(binary), *options, str(qrels), str(run)], capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


def mapteach(options: list[str], qrels: Path, run: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "mapteach", "evaluate", "--format", "trec"]
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [*command, *options, str(qrels), str(run)],
        capture_output=True,
        timeout=300,
        env=environment,
    )


def assert_same_bytes(ours: bytes, theirs: bytes) -> None:
    """Equal bytes; else the first line that differs, with its neighbours, in the message."""
    if ours == theirs:
        return
    mine, binary = ours.decode().splitlines(), theirs.decode().splitlines()
    first = next(
        (i for i, pair in enumerate(zip(mine, binary, strict=False)) if pair[0] != pair[1]),
        min(len(mine), len(binary)),
    )
    window = slice(max(first - 2, 0), first + 3)
    pytest.fail(
        f"first difference at line {first + 1} (mapteach {len(mine)} lines, trec_eval "
        f"{len(binary)}):\nmapteach:\n"
        + "\n".join(mine[window])
        + "\ntrec_eval:\n"
        + "\n".join(binary[window])
    )


@pytest.mark.parametrize("measures", MEASURE_SETS, ids=str)
@pytest.mark.parametrize("option_set", OPTION_SETS, ids=str)
def test_trec_eval_test_files_print_the_same_bytes(trec_eval_bin, option_set, measures):
    options, qrels, run = OPTION_SETS[option_set]
    arguments = [*options, *MEASURE_SETS[measures]]
    expected = trec_eval(trec_eval_bin, arguments, DATA / qrels, DATA / run)
    done = mapteach(arguments, DATA / qrels, DATA / run)
    assert done.returncode == 0, done.stderr.decode()
    assert_same_bytes(done.stdout, expected)


def random_pair(folder: Path, *, missing: bool, seed: int = 26) -> tuple[Path, Path]:
    """Qrels and a run: ties, grades -1..3, queries only the run has, a tag per query.

    With ``missing``, judged queries 4, 8, ..., 20 are not in the run.
    """
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for query in range(1, 31):  # 1..25 judged; 26..30 only in the run
        docs = [f"d{doc}" for doc in rng.permutation(60)[:40]]
        if query <= 25:
            qrels += [f"{query} 0 {doc} {rng.integers(-1, 4)}" for doc in docs[:25]]
        if not (missing and query <= 20 and query % 4 == 0):
            scores = rng.integers(0, 6, size=30)  # few values: many ties
            ranked = zip(docs[10:], scores, strict=True)
            run += [f"{query} Q0 {d} {i + 1} {s} tag{query}" for i, (d, s) in enumerate(ranked)]
    (folder / "qrels").write_text("\n".join(qrels) + "\n")
    (folder / "run").write_text("\n".join(run) + "\n")
    return folder / "qrels", folder / "run"


@pytest.mark.parametrize("measures", MEASURE_SETS, ids=str)
@pytest.mark.parametrize("option_set", OPTION_SETS, ids=str)
def test_a_random_pair_prints_the_same_bytes(trec_eval_bin, tmp_path, option_set, measures):
    qrels, run = random_pair(tmp_path, missing=False)
    options = [*OPTION_SETS[option_set][0], *MEASURE_SETS[measures]]
    done = mapteach(options, qrels, run)
    assert done.returncode == 0, done.stderr.decode()
    assert_same_bytes(done.stdout, trec_eval(trec_eval_bin, options, qrels, run))


@pytest.mark.parametrize("measures", MEASURE_SETS, ids=str)
@pytest.mark.parametrize("option_set", OPTION_SETS, ids=str)
def test_queries_missing_from_the_run_print_the_same_bytes_with_c_else_stop_both(
    trec_eval_bin, tmp_path, option_set, measures
):
    qrels, run = random_pair(tmp_path, missing=True)
    options = [*OPTION_SETS[option_set][0], *MEASURE_SETS[measures]]
    done = mapteach(options, qrels, run)
    if "-c" in options:
        assert done.returncode == 0, done.stderr.decode()
        assert_same_bytes(done.stdout, trec_eval(trec_eval_bin, options, qrels, run))
        return
    # trec_eval 10 stops at the first one in its order ('12'); mapteach names them all
    binary = subprocess.run(
        [str(trec_eval_bin), *options, str(qrels), str(run)], capture_output=True, timeout=120
    )
    assert binary.returncode != 0 and b"'12' not found" in binary.stderr
    assert done.returncode == 2 and len(done.stderr.decode().splitlines()) == 1
    assert all(f"'{query}'" in done.stderr.decode() for query in (4, 8, 12, 16, 20))


#: trec_eval keeps each measure once, with the parameters of the first -m giving any.
REPEATED = {
    "P.5 then P.10": ["-m", "P.5", "-m", "P.10"],
    "official then P.10": ["-m", "official", "-m", "P.10"],
    "P.10 then official": ["-m", "P.10", "-m", "official"],
    "P then P.5": ["-m", "P", "-m", "P.5"],
    "map twice": ["-m", "map", "-m", "map"],
    "P.5,10 then P.15, map": ["-m", "P.5,10", "-m", "P.15", "-m", "map"],
    "official twice": ["-m", "official", "-m", "official"],
}


@pytest.mark.parametrize("measures", REPEATED, ids=str)
def test_a_measure_given_twice_prints_as_trec_eval_prints_it(trec_eval_bin, measures):
    arguments = ["-q", *REPEATED[measures]]
    expected = trec_eval(trec_eval_bin, arguments, DATA / "qrels.test", DATA / "results.test")
    done = mapteach(arguments, DATA / "qrels.test", DATA / "results.test")
    assert done.returncode == 0, done.stderr.decode()
    assert_same_bytes(done.stdout, expected)


def test_a_ranking_j_empties_is_nan_in_trec_eval_and_0_here(trec_eval_bin, tmp_path):
    """The one difference kept (README, interpolated_precision.py): -nan there, 0 here."""
    (tmp_path / "qrels").write_text("q1 0 a 1\nq1 0 b 0\nq2 0 c 1\n")
    (tmp_path / "run").write_text("q1 Q0 a 1 2 t\nq1 Q0 x 2 1 t\nq2 Q0 y 1 1 t\n")
    arguments = ["-q", "-J", "-m", "iprec_at_recall.0,0.5", "-m", "11pt_avg", "-m", "map"]
    theirs = trec_eval(trec_eval_bin, arguments, tmp_path / "qrels", tmp_path / "run")
    done = mapteach(arguments, tmp_path / "qrels", tmp_path / "run")
    assert done.returncode == 0, done.stderr.decode()
    lines = [line.split("\t") for line in theirs.decode().splitlines()]
    ours = [line.split("\t") for line in done.stdout.decode().splitlines()]
    assert [line[:2] for line in ours] == [line[:2] for line in lines]
    emptied = [(name.strip(), query) for name, query, value in lines if value.strip() == "-nan"]
    assert emptied == [  # q2's ranking is all unjudged: 0/0 at level 0.0, and in 11pt_avg
        (name, query) for query in ("q2", "all") for name in ("iprec_at_recall_0.00", "11pt_avg")
    ]
    for (name, query, value), (_, _, mine) in zip(lines, ours, strict=True):
        if query == "q2" and value.strip() == "-nan":
            assert mine == "0.0000", name  # scored 0, as trec_eval scores a query -c adds
        elif query != "all":
            assert mine == value, (name, query)


@pytest.mark.parametrize("gains", ["0=1,1=3,2=7", "0=2", "0=0.5,3=1", "1=3,2=9,4=4.5"])
def test_a_gain_map_with_a_gain_for_grade_0_prints_as_trec_eval(trec_eval_bin, tmp_path, gains):
    arguments = ["-q", "-m", f"ndcg.{gains}", "-m", "ndcg_cut.5,10"]
    for qrels, run in [
        (DATA / "qrels.rel_level", DATA / "results.test"),
        random_pair(tmp_path, missing=False),  # grades -1..3, ties, unjudged documents
    ]:
        done = mapteach(arguments, qrels, run)
        assert done.returncode == 0, done.stderr.decode()
        assert_same_bytes(done.stdout, trec_eval(trec_eval_bin, arguments, qrels, run))
