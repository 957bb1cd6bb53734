"""Speed and memory of whole-run evaluation: mapteach against its peers, in one run.

Synthetic data: QUERIES x DOCS scores with many ties (multiples of 1/8, exact in
float32), binary relevance, and 0-3 relevant documents per query that were never
retrieved. Measures: AP, P@10, nDCG@10. Every tool runs in its own process, so
each peak memory (max RSS) is its own.

- mapteach from arrays: ``evaluate_scores`` on the score and relevance matrices;
- mapteach from TREC files: ``evaluate`` reading the qrels and run files;
- pytrec_eval: building its dicts, then evaluating (reported apart), and from files
  (parsing the files into its dicts in Python, as its README shows);
- ir_measures, ranx (JIT warm-up reported apart; only if installed), and sklearn's
  ``average_precision_score`` called per query (it cannot see unretrieved
  relevant documents, so its AP differs).

Run from the repository root (about 3 minutes at full size):
    .venv/bin/python -m benchmarks.evaluate_speed [--queries 10000] [--docs 1000]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

MEASURES = ["AP", "P@10", "nDCG@10"]
TREC = {"AP": "map", "P@10": "P_10", "nDCG@10": "ndcg_cut_10"}


def make_data(folder: Path, queries: int, docs: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 64, (queries, docs)) / 8.0
    relevance = rng.random((queries, docs)) < rng.uniform(0.001, 0.05, (queries, 1))
    missed = rng.integers(0, 4, queries)
    np.savez(folder / "data.npz", scores=scores, relevance=relevance, missed=missed)
    qids = np.char.add("q", np.arange(queries).astype(str))
    dids = np.char.add("d", np.char.zfill(np.arange(docs).astype(str), 4))
    with open(folder / "run.txt", "w") as out:
        for q in range(queries):
            out.write(
                "".join(f"{qids[q]} Q0 {d} 0 {s} x\n" for d, s in zip(dids, scores[q], strict=True))
            )
    with open(folder / "qrels.txt", "w") as out:
        for q in range(queries):
            out.write("".join(f"{qids[q]} 0 {d} 1\n" for d in dids[relevance[q]]))
            out.write("".join(f"{qids[q]} 0 missed{m} 1\n" for m in range(missed[q])))
            out.write(f"{qids[q]} 0 judged_nonrelevant 0\n")


def _dicts(data):
    scores, relevance, missed = data["scores"], data["relevance"], data["missed"]
    dids = [f"d{j:04d}" for j in range(scores.shape[1])]
    qrels, run = {}, {}
    for q in range(scores.shape[0]):
        judged = {dids[j]: 1 for j in np.flatnonzero(relevance[q])}
        judged.update({f"missed{m}": 1 for m in range(missed[q])})
        judged["judged_nonrelevant"] = 0
        qrels[f"q{q}"] = judged
        run[f"q{q}"] = dict(zip(dids, scores[q].tolist(), strict=True))
    return qrels, run


def _parse_trec(qrels_path: Path, run_path: Path):
    qrels, run = {}, {}
    with open(qrels_path) as lines:
        for line in lines:
            q, _, d, r = line.split()
            qrels.setdefault(q, {})[d] = int(r)
    with open(run_path) as lines:
        for line in lines:
            q, _, d, _, s, _ = line.split()
            run.setdefault(q, {})[d] = float(s)
    return qrels, run


def _ordered(per_query: dict) -> list[float]:
    return [per_query[f"q{q}"] for q in range(len(per_query))]


def worker(tool: str, folder: Path) -> dict:
    """Time one tool; return its timings (seconds) and per-query AP."""
    data = np.load(folder / "data.npz")
    out: dict = {}
    clock = time.perf_counter
    if tool == "mapteach arrays":
        from mapteach.runs.score_matrix import evaluate_scores

        start = clock()
        scores, relevance, missed = data["scores"], data["relevance"], data["missed"]
        ids = [f"d{j:04d}" for j in range(scores.shape[1])]
        table = evaluate_scores(
            scores,
            relevance,
            MEASURES,
            ties="trec_eval",
            doc_ids=ids,
            n_relevant=relevance.sum(axis=1) + missed,
        )
        out["evaluate"] = clock() - start
        out["ap"] = table["AP"].tolist()
    elif tool == "mapteach files":
        from mapteach.runs.evaluation import evaluate

        start = clock()
        table = evaluate(folder / "qrels.txt", folder / "run.txt", MEASURES)
        out["end to end"] = clock() - start
        out["ap"] = table.loc[[f"q{q}" for q in range(len(table))], "AP"].tolist()
    elif tool in ("pytrec_eval", "pytrec_eval files"):
        import pytrec_eval

        start = clock()
        if tool == "pytrec_eval":
            qrels, run = _dicts(data)
            out["build dicts"] = clock() - start
        else:
            qrels, run = _parse_trec(folder / "qrels.txt", folder / "run.txt")
            out["parse files"] = clock() - start
        start = clock()
        result = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P", "ndcg_cut"}).evaluate(run)
        out["evaluate"] = clock() - start
        out["ap"] = _ordered({q: v["map"] for q, v in result.items()})
    elif tool in ("ir_measures", "ir_measures files"):
        import ir_measures

        measures = [ir_measures.parse_measure(name) for name in MEASURES]
        start = clock()
        if tool == "ir_measures":
            qrels, run = _dicts(data)
            out["build dicts"] = clock() - start
            start = clock()
            rows = list(ir_measures.iter_calc(measures, qrels, run))
            out["evaluate"] = clock() - start
        else:
            qrels = list(ir_measures.read_trec_qrels(str(folder / "qrels.txt")))
            run = list(ir_measures.read_trec_run(str(folder / "run.txt")))
            rows = list(ir_measures.iter_calc(measures, qrels, run))
            out["end to end"] = clock() - start
        out["ap"] = _ordered({r.query_id: r.value for r in rows if str(r.measure) == "AP"})
    elif tool in ("ranx", "ranx files"):
        from ranx import Qrels, Run
        from ranx import evaluate as ranx_evaluate

        start = clock()
        ranx_evaluate(
            Qrels({"w": {"a": 1}}),
            Run({"w": {"a": 1.0, "b": 0.5}}),
            ["map", "precision@10", "ndcg@10"],
        )
        out["JIT warm-up"] = clock() - start
        start = clock()
        if tool == "ranx":
            qrels, run = _dicts(data)
            out["build dicts"] = clock() - start
            start = clock()
            qrels, run = Qrels(qrels), Run(run)
            out["build Qrels/Run"] = clock() - start
            start = clock()
            scores = ranx_evaluate(
                qrels, run, ["map", "precision@10", "ndcg@10"], return_mean=False
            )
            out["evaluate"] = clock() - start
        else:
            qrels = Qrels.from_file(str(folder / "qrels.txt"), kind="trec")
            run = Run.from_file(str(folder / "run.txt"), kind="trec")
            scores = ranx_evaluate(
                qrels, run, ["map", "precision@10", "ndcg@10"], return_mean=False
            )
            out["end to end"] = clock() - start
        out["ap"] = list(map(float, scores["map"]))
    elif tool == "sklearn per query":
        from sklearn.metrics import average_precision_score

        scores, relevance = data["scores"], data["relevance"]
        start = clock()
        out["ap"] = [
            float(average_precision_score(relevance[q], scores[q])) if relevance[q].any() else 0.0
            for q in range(scores.shape[0])
        ]
        out["evaluate (AP only)"] = clock() - start
    out["peak MB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


TOOLS = [
    "mapteach arrays",
    "mapteach files",
    "pytrec_eval",
    "pytrec_eval files",
    "ir_measures",
    "ir_measures files",
    "ranx",
    "ranx files",
    "sklearn per query",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--docs", type=int, default=1_000)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, Path(args.folder))))
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        make_data(folder, args.queries, args.docs)
        size = (folder / "run.txt").stat().st_size / 1e6
        print(
            f"{args.queries} queries x {args.docs} docs ({args.queries * args.docs:,} run lines, "
            f"{size:.0f} MB run file), made in {time.perf_counter() - start:.0f} s; "
            f"measures {', '.join(MEASURES)}"
        )
        results = {}
        for tool in TOOLS:
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "benchmarks.evaluate_speed",
                    "--worker",
                    tool,
                    "--folder",
                    tmp,
                ],
                capture_output=True,
                text=True,
            )
            if done.returncode:
                reason = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"
                print(f"{tool:<20} not run: {reason}")
                continue
            results[tool] = json.loads(done.stdout)
    reference = np.array(results["pytrec_eval"]["ap"])
    baseline = results["pytrec_eval"]["evaluate"]
    header = f"{'total s':>8} {'x faster':>9} {'peak MB':>8} {'max |AP diff|':>14}"
    print(f"\n{'tool':<20} {'timings (s)':<58} {header}")
    for tool, out in results.items():
        parts = {k: v for k, v in out.items() if k not in ("ap", "peak MB")}
        total = sum(v for k, v in parts.items() if k != "JIT warm-up")
        shown = ", ".join(f"{k} {v:.2f}" for k, v in parts.items())
        diff = np.abs(np.array(out["ap"]) - reference).max()
        print(
            f"{tool:<20} {shown:<58} {total:>8.2f} {baseline / total:>9.2f} "
            f"{out['peak MB']:>8.0f} {diff:>14.2e}"
        )
    print(
        "\nx faster: pytrec_eval's evaluation alone (without building its dicts) / the tool's "
        "total time, JIT warm-up excluded."
    )


if __name__ == "__main__":
    main()
