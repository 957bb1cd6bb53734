"""Every trec_eval measure mapteach has, against the trec_eval binary itself, to 1e-9.

The binary is trec_eval 10 built from its source tarball with ``%.12f`` instead of
``%6.4f`` (the ``trec_eval_precise_bin`` fixture, tools/trec_eval_build.py; the tests
skip, saying so, where the tarball is absent). It runs with ``-q`` under trec_eval's
option sets ``-q``, ``-q -c``, ``-q -c -M 100``, ``-q -l 2`` and ``-q -J`` on two kinds
of input:

- trec_eval's own test files (tests/data/trec_eval);
- random qrels and runs: 420 queries with tied scores (trec_eval breaks ties by
  document id, descending), grades -1 to 3 (-1: pooled but unjudged, infAP's
  convention), relevant and non-relevant documents never retrieved, lists of one
  document and lists past 100 (for ``-M 100``), queries with no relevant document,
  queries only the run has and queries only the qrels have (those only under ``-c``:
  without it trec_eval 10 stops with an error).

Each time it prints ``-m all_trec`` and a list of measures with parameters (several
cutoffs and levels, ``set_F.0.5``, ``11pt_avg..25,.5,.75``). mapteach is called
in-process (:func:`mapteach.runs.evaluate` and :func:`~mapteach.runs.summarize`) with
the names trec_eval printed and the equivalent options; every value of every measure
it has is compared, per query and for ``all``, and the number compared is asserted per
measure: one per scored query and one for ``all`` (``all`` only for the measures
trec_eval prints only there), so that no measure drops out unseen. The measures of
``all_trec`` mapteach lacks are named in ``LACKING``.
"""

from __future__ import annotations

import subprocess
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from mapteach.metrics.names import parse_measure, parse_measures
from mapteach.runs import evaluate, summarize
from tests.crosscheck.trec_eval_files import LACKING, is_lacking, is_lacking_as

DATA = Path(__file__).resolve().parents[1] / "data" / "trec_eval"
TOLERANCE = 1e-9

#: Measures with parameters, as trec_eval's -m spells them: several cutoffs and levels
#: (unsorted, as trec_eval sorts them), a recall level above 1, a multiple of R past
#: the lists' ends, set_F's beta, 11pt_avg's own levels and nDCG's gain map.
PARAMETRIZED = (
    "P.7,3,2000",
    "recall.3,250",
    "map_cut.2,50",
    "ndcg_cut.3,23",
    "success.2,20",
    "iprec_at_recall..33,.05,.67,1.5",
    "Rprec_mult.5.0,0.35,0.5",
    "set_F.0.5",
    "11pt_avg..25,.5,.75",
    "ndcg.1=3,2=9,4=4.5",
)

#: trec_eval's measures that it prints for ``all`` only.
ALL_ONLY = frozenset({"num_q", "gm_map", "gm_bpref"})


@dataclass(frozen=True)
class OptionSet:
    """trec_eval's options beside -q, and mapteach's keyword arguments for the same."""

    flags: tuple[str, ...]
    keywords: dict = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """Whether -c is given: the judged queries the run lacks are scored (as 0)."""
        return "-c" in self.flags

    def mapteach_keywords(self) -> dict:
        return {"missing": "zero" if self.complete else "ignore", **self.keywords}


OPTION_SETS = {
    "-q": OptionSet(()),
    "-q -c": OptionSet(("-c",)),
    "-q -c -M 100": OptionSet(("-c", "-M", "100"), {"max_results": 100}),
    "-q -l 2": OptionSet(("-l", "2"), {"relevance_threshold": 2}),
    "-q -J": OptionSet(("-J",), {"judged_only": True}),
}

#: trec_eval's test files for each option set: qrels and run (-c: the truncated run).
TEST_FILES = {
    "-q": ("qrels.test", "results.test"),
    "-q -c": ("qrels.test", "results.trunc"),
    "-q -c -M 100": ("qrels.test", "results.trunc"),
    "-q -l 2": ("qrels.rel_level", "results.test"),
    "-q -J": ("qrels.test", "results.test"),
}


def random_collection(seed: int = 20261201, n_queries: int = 420) -> tuple[list[str], list[str]]:
    """Qrels and run lines, with every edge case of the module docstring."""
    rng = np.random.default_rng(seed)
    qrels: list[str] = []
    run: list[str] = []
    for q in range(n_queries):
        qid = str(int(rng.integers(1, 10**6)) * 1000 + q)  # not in string order
        where = rng.random()
        in_run, in_qrels = where >= 0.06, not 0.06 <= where < 0.12
        size = rng.choice([1, 2, int(rng.integers(3, 40)), int(rng.integers(100, 260))])
        size = int(size) if rng.random() < 0.95 else int(rng.integers(1, 4))
        docs = [f"D{d}" for d in rng.choice(10**5, size + 30, replace=False)]
        retrieved, unretrieved = docs[:size], docs[size:]
        spread = int(rng.choice([1, 3, max(size // 4, 1), size * 2]))  # 1: every score tied
        scores = rng.integers(0, spread, size) / 4
        kind = rng.random()  # 10% no relevant document, 10% nothing judged non-relevant
        grades = [-1, 0, 0, 1, 1, 2, 3]
        grades = [g for g in grades if g < 1] if kind < 0.1 else grades
        grades = [g for g in grades if g != 0] if 0.1 <= kind < 0.2 else grades
        p_judged = rng.choice([0.1, 0.5, 0.9, 1.0])
        if in_run:
            run += [
                f"{qid} Q0 {doc} {rank} {score} run{seed}"
                for rank, (doc, score) in enumerate(zip(retrieved, scores, strict=True))
            ]
        if in_qrels:
            judged = [doc for doc in retrieved if rng.random() < p_judged]
            judged += unretrieved[: int(rng.integers(0, 30))]
            qrels += [f"{qid} 0 {doc} {rng.choice(grades)}" for doc in judged]
            qrels.append(f"{qid} 0 never_retrieved {rng.choice(grades)}")  # every query judged
    return qrels, run


@pytest.fixture(scope="module")
def random_files(tmp_path_factory) -> dict[str, Path]:
    """The random qrels (all, and only the queries the run has) and run, as files."""
    folder = tmp_path_factory.mktemp("trec_eval_binary")
    qrels, run = random_collection()
    in_run = {line.split()[0] for line in run}
    files = {
        "qrels": "\n".join(qrels),
        "qrels_in_run": "\n".join(line for line in qrels if line.split()[0] in in_run),
        "run": "\n".join(run),
    }
    for name, text in files.items():
        (folder / name).write_text(text + "\n", encoding="utf-8")
    return {name: folder / name for name in files}


def test_the_random_collection_has_every_edge_case(random_files):
    qrels = [line.split() for line in random_files["qrels"].read_text().splitlines()]
    run = [line.split() for line in random_files["run"].read_text().splitlines()]
    judged, ranked = {q for q, *_ in qrels}, {q for q, *_ in run}
    assert len(judged - ranked) > 15 and len(ranked - judged) > 15
    assert {int(grade) for *_, grade in qrels} == {-1, 0, 1, 2, 3}
    lengths = Counter(q for q, *_ in run)
    assert min(lengths.values()) == 1 and sum(n > 100 for n in lengths.values()) > 50
    scores = Counter((q, score) for q, _, _, _, score, _ in run)
    assert sum(n > 1 for n in scores.values()) > 500  # tied scores
    relevant = {q for q, *_, grade in qrels if int(grade) >= 1}
    assert len(judged - relevant) > 20  # queries with no relevant document


def trec_eval(binary: Path, options: OptionSet, measures: list[str], qrels: Path, run: Path):
    """trec_eval's output as {(measure, query): value}, the runid line left out."""
    arguments = [str(binary), "-q", *options.flags]
    arguments += [word for measure in measures for word in ("-m", measure)]
    done = subprocess.run(
        [*arguments, str(qrels), str(run)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    values = {}
    for line in done.stdout.splitlines():
        measure, query, value = line.split("\t")
        if measure.strip() != "runid" and not is_lacking(measure.strip()):
            values[measure.strip(), query] = float(value)
    return values


def mapteach_values(names, options: OptionSet, qrels: Path, run: Path) -> tuple[dict, dict]:
    """mapteach's values of the measures ``names`` as {(trec_eval's name, query): value},
    and what each trec_eval name is counted under: the measure, or with parameters its name."""
    measures = parse_measures(names)
    with warnings.catch_warnings():  # queries only the run has, extra fields: both on purpose
        warnings.simplefilter("ignore", UserWarning)
        table = evaluate(qrels, run, list(names), **options.mapteach_keywords())
    values = {(measures[name].trec_name, "all"): value for name, value in summarize(table).items()}
    for name, measure in measures.items():
        values |= {(measure.trec_name, query): v for query, v in table[name].items()}
    labels = {m.trec_name: m.trec_name if m.params else m.family for m in measures.values()}
    return values, labels


#: trec_eval's measures that print nan (0/0) for a query whose list -J emptied; mapteach
#: scores such a query 0.0 (as trec_eval does one that -c adds), and the mean is finite.
NAN_WHEN_EMPTIED = ("iprec_at_recall", "11pt_avg")


def is_trec_evals_nan(name: str, query: str, value: float, expected: dict) -> bool:
    """Whether ``value`` is trec_eval's nan of an emptied list (or a mean over one)."""
    emptied = query == "all" or expected[("num_ret", query)] == 0
    return value != value and name.startswith(NAN_WHEN_EMPTIED) and emptied


def compare(binary: Path, options: OptionSet, qrels: Path, run: Path) -> Counter:
    """Compare every value both print; return the number compared per measure, and the
    number of trec_eval's nan values of emptied lists under ``"nan"``."""
    all_trec = trec_eval(binary, options, ["all_trec"], qrels, run)
    printed = sorted({name for name, _ in all_trec if not is_lacking(name)})
    expected = all_trec | trec_eval(binary, options, list(PARAMETRIZED), qrels, run)
    ours, labels = mapteach_values(printed, options, qrels, run)
    parametrized, parametrized_labels = mapteach_values(PARAMETRIZED, options, qrels, run)
    ours, labels = ours | parametrized, labels | parametrized_labels
    compared: Counter = Counter()
    differ = []
    for (name, query), value in expected.items():
        if is_lacking(name):
            continue
        got = ours.get((name, query))
        if is_trec_evals_nan(name, query, value, expected):
            compared["nan"] += 1
            continue
        compared[labels.get(name, name)] += 1
        if got is None or not abs(got - value) <= TOLERANCE:
            differ.append((name, query, got, value))
    assert differ == [], (
        f"{len(differ)} values differ (measure, query, mapteach, trec_eval): {differ[:8]}"
    )
    queries = {query for _, query in expected} - {"all"}
    assert_counts(compared, expected, len(queries))
    return compared


def assert_counts(compared: Counter, expected: dict, n_queries: int) -> None:
    """One value per scored query and one for all, per printed measure (all only: one)."""
    per_name = Counter(name for name, _ in expected if not is_lacking(name))
    for name, count in per_name.items():
        assert count == (1 if name in ALL_ONLY else n_queries + 1), name
    assert sum(compared.values()) == sum(per_name.values())


#: The measures compared under every option set, as mapteach names them.
COMPARED = {
    "AP",
    "ElevenPt",
    "GMAP",
    "GMBpref",
    "IPrec",
    "NumQ",
    "NumRel",
    "NumRelRet",
    "NumRet",
    "P",
    "R",
    "RR",
    "Rprec",
    "RprecMult",
    "SetF",
    "SetP",
    "SetR",
    "Bpref",
    "Success",
    "infAP",
    "nDCG",
    "11pt_avg_.25,.5,.75",
    "ndcg_1=3,2=9,4=4.5",
    "set_F_0.5",
}


def test_lacking_holds_only_measures_mapteach_lacks(trec_eval_precise_bin):
    """Each base name in LACKING is printed by all_trec and unknown to mapteach."""
    files = [str(DATA / "qrels.test"), str(DATA / "results.test")]
    done = subprocess.run(
        [str(trec_eval_precise_bin), "-q", "-m", "all_trec", *files],
        capture_output=True,
        text=True,
        check=True,
    )
    printed = {line.split("\t")[0].strip() for line in done.stdout.splitlines()}
    lacking = {name for name in printed if is_lacking(name)}
    assert {
        base for base in LACKING if any(is_lacking_as(name, base) for name in lacking)
    } == LACKING
    for name in lacking:
        with pytest.raises(ValueError):
            parse_measure(name)


@pytest.mark.parametrize("option_set", OPTION_SETS)
def test_trec_evals_test_files(trec_eval_precise_bin, option_set):
    qrels, run = TEST_FILES[option_set]
    compared = compare(trec_eval_precise_bin, OPTION_SETS[option_set], DATA / qrels, DATA / run)
    assert set(compared) == COMPARED  # no list is emptied: no nan
    print(option_set, "trec_eval's test files:", dict(sorted(compared.items())))


@pytest.mark.parametrize("option_set", OPTION_SETS)
def test_random_qrels_and_runs(trec_eval_precise_bin, random_files, option_set):
    options = OPTION_SETS[option_set]
    qrels = random_files["qrels" if options.complete else "qrels_in_run"]
    compared = compare(trec_eval_precise_bin, options, qrels, random_files["run"])
    assert set(compared) - {"nan"} == COMPARED
    assert (compared["nan"] > 0) == (option_set == "-q -J")  # -J empties some lists
    print(option_set, "random:", dict(sorted(compared.items())))
