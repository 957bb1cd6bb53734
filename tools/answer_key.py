"""Write the answer key: every exercise of every notebook, worked out by the exercises' own code.

    python tools/answer_key.py [--learner NAME] [--group NAME] [--lang en|zh] [--execute]
                               [--out build/answer-key.html]

Executed, a notebook's code cells run in a fresh Python process (``MPLBACKEND=Agg``,
the notebook's folder as the working directory), inside
:func:`mapteach.exercises.registry.collect_exercises`; every exercise made there is
read back: its prompt, its answer, its worked solution, and each misconception it
recognises (its name, value, explanation, whether it is another convention) with the
feedback a learner gets for it, what the exercise was built from (``measure``,
``mistake_kind``, ``data``) and the verdict on unreadable input. Formulas show as
MathML, as the exercises show them. Nothing is typed by hand: the
answer is the exercise's own ``truth``, ``correct`` option or solved arrangement,
and the key checks each with the exercise's own ``check`` (``self_check``).
With ``--learner`` the key is that learner's: ``mapteach.learner(NAME)`` is set
before the notebook runs, so numeric exercises show the learner's variant; with
``--group`` the group's (everyone in a group gets the same variants).

Without either, nothing is executed: the whole key is read from the committed
notebooks' saved exercise states (each exercise's fallback holds its prompt,
solution and answer table; a number exercise is rebuilt from its table and judged by
its own ``check``), in under a second; only what the exercise was built from is
reduced to its measure. A learner's or a group's key runs each notebook up to its
last exercise, in two worker processes that import mapteach once each and take the
longest notebooks first, and caches what it read under
``build/answer-key-cache`` by the notebook's content, the mapteach sources and the
learner or group; ``--execute`` runs the notebooks for the whole key too.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import queue
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

from mapteach.i18n import N_, language, ngettext, tr

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
DEFAULT_OUT = ROOT / "build" / "answer-key.html"

#: Runs in each worker process: for each job line on stdin (a notebook and the index of
#: its last cell to run), execute the notebook's code cells up to it in a fresh namespace,
#: in the notebook's folder, and answer one JSON line: its exercises, or the error. What the
#: cells print goes to stderr, so that stdout holds the answers only.
_HARVEST = r"""
import contextlib, json, os, sys, traceback
import matplotlib.pyplot as plt
import mapteach
from mapteach.exercises import collect_exercises

learner, group, tools = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, tools)
import answer_key

if learner or group:
    mapteach.learner(learner or group, group=group or None)
answers = sys.stdout
for line in sys.stdin:
    path, last = json.loads(line)
    try:
        os.chdir(os.path.dirname(path))
        notebook = json.load(open(path, encoding="utf-8"))
        namespace = {"__name__": "__main__"}
        with contextlib.redirect_stdout(sys.stderr), collect_exercises() as made:
            for cell in notebook["cells"][: last + 1]:
                if cell["cell_type"] == "code":
                    exec(compile("".join(cell["source"]), path, "exec"), namespace)
        reply = {"exercises": [answer_key.read_exercise(exercise) for exercise in made]}
    except Exception:
        reply = {"error": traceback.format_exc()[-3000:]}
    finally:
        plt.close("all")
    answers.write(json.dumps(reply, ensure_ascii=False) + "\n")
    answers.flush()
"""

#: How many worker processes run notebooks at once (the machines this targets have 2 cores).
WORKERS = 2

#: Where an exercise is made: its key in a notebook's code.
_KEYED = re.compile(r'key="\d\d\.\d+"')
#: Where an exercise that varies by learner or group is made (``variant_data``'s rule).
_VARYING = re.compile(r"vary=True")
#: Keys harvested by executing, by notebook content, mapteach sources and learner.
CACHE = ROOT / "build" / "answer-key-cache"


def _verdict_text(status: str, message: str, mistakes: list[str], convention: bool) -> dict:
    from mapteach.exercises.widgets import feedback_html

    return {
        "status": status,
        "message": message,
        "html": feedback_html(message),
        "misconception": mistakes[0] if mistakes else None,
        "mistakes": list(mistakes),
        "convention": convention,
    }


def _text(feedback: Any) -> dict[str, Any]:
    return _verdict_text(
        feedback.status, feedback.message, list(feedback.mistakes), feedback.convention
    )


def _number(exercise: Any) -> dict[str, Any]:
    def shown(value: float) -> str:
        return f"{value:.{exercise.decimals}f}"

    answer = shown(exercise.truth)
    return {
        "answer": answer,
        "self_check": _text(exercise.check(answer)),
        "unreadable": _text(exercise.check("abc")),
        "misconceptions": [
            {
                "name": wrong.name,
                "value": shown(wrong.value),
                "explanation": wrong.explanation,
                "convention": wrong.convention,
                "feedback": _text(exercise.check(shown(wrong.value))),
            }
            for wrong in exercise.misconceptions
        ],
    }


def _choice(exercise: Any) -> dict[str, Any]:
    verdicts = {option: _text(exercise.check(option)) for option in exercise.options}
    return _choice_key(exercise.correct, exercise.options, verdicts)


def _choice_key(correct: str, options: list[str], verdicts: dict[str, dict]) -> dict[str, Any]:
    """A choice's key: its options, each with the verdict (and reply) choosing it gets."""
    return {
        "answer": correct,
        "self_check": verdicts[correct],
        "options": [
            {
                "option": option,
                "reply": verdicts[option]["message"],
                "html": verdicts[option]["html"],
                "correct": option == correct,
            }
            for option in options
        ],
        "misconceptions": [
            {
                "name": option,
                "value": option,
                "explanation": verdicts[option]["message"],
                "convention": False,
                "feedback": verdicts[option],
            }
            for option in options
            if option != correct
        ],
    }


def _arrange(exercise: Any) -> dict[str, Any]:
    solved = exercise.solve()
    return {
        "answer": str(solved),
        "targets": exercise.targets,
        "readout": exercise.readout,
        "self_check": _text(exercise.check(solved)) if solved else None,
        "misconceptions": [],
    }


def read_exercise(exercise: Any) -> dict[str, Any]:
    """One exercise read back: prompt, answer, solution, mistakes and their feedback."""
    from mapteach.exercises import ArrangeExercise, ChoiceExercise, NumberExercise

    item = {
        "key": exercise.key,
        "kind": exercise.kind,
        "prompt": exercise.prompt,
        "solution": exercise.solution,
        "lang": exercise.lang,
        "measure": exercise.measure,
        "data": exercise.data,
        "mistake_kind": exercise.mistake_kind,
    }
    readers = ((NumberExercise, _number), (ChoiceExercise, _choice), (ArrangeExercise, _arrange))
    item.update(next(read for cls, read in readers if isinstance(exercise, cls))(exercise))
    return item


# --- the key from the committed notebooks' saved exercise states -------------------------


def _saved_number(model: dict[str, Any], lang: str) -> dict[str, Any]:
    """A number exercise rebuilt from its answer table, judged by its own ``check``."""
    from mapteach.exercises import NumberExercise

    table = model["answer_table"]
    mistakes = [
        (m["key"], m["value"], m["explanation"]["text"], (m["convention"] or {}).get("text"))
        for m in table["mistakes"]
    ]
    exercise = NumberExercise(
        model["prompt"],
        table["truth"],
        mistakes,
        model["solution"],
        decimals=table["decimals"],
        hint=table["hint"]["text"],
        lang=lang,
        key=model["exercise_key"],
        measure=table["measure"],
    )
    return _number(exercise)


def _saved_choice(model: dict[str, Any], lang: str) -> dict[str, Any]:
    table = model["answer_table"]
    verdicts = {option: _saved_verdict(v) for option, v in table["verdicts"].items()}
    return _choice_key(table["correct"], table["options"], verdicts)


def _saved_verdict(verdict: dict[str, Any]) -> dict[str, Any]:
    """A verdict the answer table saved, as the key shows a check's feedback."""
    return _verdict_text(verdict["status"], verdict["message"]["text"], verdict["mistakes"], False)


def _saved_arrange(model: dict[str, Any], lang: str) -> dict[str, Any]:
    """The first solving arrangement in the exercise's own order (``solve``'s).

    The exercise tries the relevant results' positions in lexicographic order, which is
    the descending order of the 0/1 arrangement keys.
    """
    arrangements = model["answer_table"]["arrangements"]
    solving = [
        key
        for key in sorted(arrangements, reverse=True)
        if arrangements[key]["status"] == "correct"
    ]
    if not solving:
        return {"answer": "None", "self_check": None, "misconceptions": []}
    return {
        "answer": str([int(label) for label in solving[0]]),
        "self_check": _saved_verdict(arrangements[solving[0]]),
        "misconceptions": [],
    }


def saved_exercises(path: Path) -> list[dict[str, Any]]:
    """The exercises of ``path`` read from its saved outputs, with no notebook code run.

    Each exercise's fallback saved its state (``mapteach.exercises.exercise_index``):
    a number exercise is rebuilt from its answer table and judged by its own ``check``;
    a choice's and an arrangement's verdicts are the ones the table saved. What the
    exercise was built from is only its ``measure`` (the data is not saved).
    """
    from mapteach.exercises.notebook_index import exercise_states

    readers = {"number": _saved_number, "choice": _saved_choice, "arrange": _saved_arrange}
    found = []
    for page_lang, model in exercise_states(path):
        lang = "zh" if page_lang.startswith("zh") else "en"
        item = {
            "key": model["exercise_key"],
            "kind": model["kind"],
            "prompt": model["prompt"],
            "solution": model["solution"],
            "lang": lang,
            "measure": model["answer_table"].get("measure"),
            "data": None,
            "mistake_kind": None,
        }
        item.update(readers[model["kind"]](model, lang))
        found.append(item)
    return found


def variant_exercises(
    paths: list[Path], learner: str | None, group: str | None, sources: str | None = None
) -> list[list[dict[str, Any]]]:
    """A learner's or a group's exercises of each notebook: those that vary by learner executed.

    Only an exercise built with ``vary=True`` varies (``variant_data``): each notebook
    that has one runs (through :func:`harvest_many`'s cache and workers) up to its last
    such cell, and every exercise it made there replaces the saved one; the others are
    read as saved. A notebook with no varying exercise is not run.
    """
    saved = [saved_exercises(path) for path in paths]
    varying = [
        index
        for index, path in enumerate(paths)
        if _last_cell(json.loads(path.read_text(encoding="utf-8")), _VARYING) >= 0
    ]
    ran = harvest_many(
        [paths[index] for index in varying], learner, sources, group=group, varying_only=True
    )
    for index, made in zip(varying, ran, strict=True):
        by_key = {item["key"]: item for item in made}
        saved[index] = [by_key.get(item["key"], item) for item in saved[index]]
    return saved


# --- the key by executing (a learner's variants) -----------------------------------------


def _last_cell(notebook: dict[str, Any], pattern: re.Pattern[str]) -> int:
    """The index of the last code cell whose source matches ``pattern`` (-1: none)."""
    cells = notebook["cells"]
    matching = [
        index
        for index, cell in enumerate(cells)
        if cell["cell_type"] == "code" and pattern.search("".join(cell["source"]))
    ]
    return matching[-1] if matching else -1


def _sources_digest() -> str:
    """One hash of every mapteach source file and of this tool: a change anywhere is a miss."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    package = ROOT / "mapteach"
    for source in sorted(package.rglob("*")):
        if source.suffix in {".py", ".js", ".css", ".po", ".json"} and source.is_file():
            digest.update(str(source.relative_to(package)).encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()


def _cache_file(path: Path, who: tuple[str, ...], sources: str) -> Path:
    digest = hashlib.sha256(path.read_bytes())
    digest.update(sources.encode())
    digest.update(json.dumps(who).encode("utf-8"))
    return CACHE / f"{path.stem}-{digest.hexdigest()[:16]}.json"


def _instant(stamp: str) -> datetime:
    """A stored execution time (``2026-12-01T17:25:03.042291Z``; Python 3.10 reads no Z)."""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _run_seconds(notebook: dict[str, Any], last: int) -> float:
    """How long the code cells up to ``last`` took when the notebook was last executed.

    Read from the cells' stored execution times (0 where a cell has none): only an
    estimate, to start the longest notebooks first.
    """
    seconds = 0.0
    for cell in notebook["cells"][: last + 1]:
        times = cell.get("metadata", {}).get("execution", {})
        begin, end = times.get("iopub.execute_input"), times.get("shell.execute_reply")
        if cell["cell_type"] == "code" and begin and end:
            took = _instant(end) - _instant(begin)
            seconds += took.total_seconds()
    return seconds


def _work(jobs: queue.SimpleQueue[tuple[int, Path, int] | None], who: tuple[str, str]) -> dict:
    """One worker process: run the jobs it takes from ``jobs`` until None; their answers."""
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0"}
    env.pop("MAPTEACH_LEARNER", None)
    env.pop("MAPTEACH_GROUP", None)
    command = [sys.executable, "-c", _HARVEST, *who, str(Path(__file__).parent)]
    answers: dict[int, dict[str, Any]] = {}
    with subprocess.Popen(
        command,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
    ) as worker:
        assert worker.stdin is not None and worker.stdout is not None
        while (job := jobs.get()) is not None:
            index, path, last = job
            worker.stdin.write(json.dumps([str(path.resolve()), last]) + "\n")
            worker.stdin.flush()
            line = worker.stdout.readline()
            answers[index] = json.loads(line) if line else {"error": "the worker stopped"}
        worker.stdin.close()
    return answers


def _run_notebooks(jobs: list[tuple[int, Path, int]], who: tuple[str, str]) -> dict:
    """Every job's answer, from :data:`WORKERS` worker processes that take the next job."""
    waiting: queue.SimpleQueue[tuple[int, Path, int] | None] = queue.SimpleQueue()
    for job in jobs:
        waiting.put(job)
    workers = min(WORKERS, len(jobs))
    for _ in range(workers):
        waiting.put(None)
    if not workers:
        return {}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(lambda _: _work(waiting, who), range(workers)))
    return {index: answer for part in parts for index, answer in part.items()}


def harvest_many(
    paths: list[Path],
    learner: str | None = None,
    sources: str | None = None,
    *,
    group: str | None = None,
    varying_only: bool = False,
) -> list[list[dict[str, Any]]]:
    """The exercises each notebook makes, from the cache or from worker processes.

    Each notebook runs up to its last cell that makes an exercise (with ``varying_only``,
    one that varies by learner), in a fresh namespace, in one of :data:`WORKERS`
    processes that import mapteach once and run one notebook after another, the
    longest first (:func:`_run_seconds`). Each result is cached under ``CACHE`` by the
    notebook's content, ``sources`` (:func:`_sources_digest`, computed when not given),
    the learner, the group and ``varying_only``.
    """
    who = (learner or "", group or "")
    digest = sources or _sources_digest()
    caches = [_cache_file(path, (*who, str(varying_only)), digest) for path in paths]
    results: dict[int, list[dict[str, Any]]] = {}
    jobs: list[tuple[float, int, Path, int]] = []
    for index, (path, cache) in enumerate(zip(paths, caches, strict=True)):
        if cache.exists():
            results[index] = json.loads(cache.read_text(encoding="utf-8"))
            continue
        notebook = json.loads(path.read_text(encoding="utf-8"))
        last = _last_cell(notebook, _VARYING if varying_only else _KEYED)
        jobs.append((_run_seconds(notebook, last), index, path, last))
    jobs.sort(key=lambda job: -job[0])
    answers = _run_notebooks([job[1:] for job in jobs], who)
    for _, index, path, _ in jobs:
        if "error" in answers[index]:
            raise RuntimeError(f"{path.name} failed:\n{answers[index]['error']}")
        results[index] = answers[index]["exercises"]
        caches[index].parent.mkdir(parents=True, exist_ok=True)
        caches[index].write_text(json.dumps(results[index], ensure_ascii=False), encoding="utf-8")
    return [results[index] for index in range(len(paths))]


def harvest(
    path: Path,
    learner: str | None = None,
    sources: str | None = None,
    *,
    group: str | None = None,
    varying_only: bool = False,
) -> list[dict[str, Any]]:
    """The exercises one notebook makes (:func:`harvest_many` of that notebook alone)."""
    return harvest_many([path], learner, sources, group=group, varying_only=varying_only)[0]


def _title(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    for line in "".join(cells[0]["source"]).splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem


_STYLE = """
body { font-family: "Noto Sans CJK SC", "Noto Sans", system-ui, sans-serif; max-width: 60rem;
       margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
section.exercise { border: 1px solid #ccc; border-radius: 6px; padding: 0.5rem 1rem;
                   margin: 1rem 0; }
.answer { font-weight: bold; color: #1a7f37; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 0.2rem 0.5rem; }
.key { color: #666; font-family: monospace; }
math[display="block"] { margin: 0.4em 0; }
.built, .readout { color: #444; font-size: 0.9em; }
"""


#: What the page calls each kind of exercise and each verdict's status (English messages).
KIND_NAMES = {"number": N_("number"), "choice": N_("choice"), "arrange": N_("arrangement")}
STATUS_NAMES = {
    "correct": N_("correct"),
    "incorrect": N_("incorrect"),
    "incomplete": N_("incomplete"),
    "empty": N_("empty"),
    "unreadable": N_("not a number"),
}


def _table(kind: str, headers: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    """An HTML table; each cell is HTML already (escape text before); headers are messages."""
    cells = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    head = "".join(f"<th>{html.escape(tr(h) if h else h)}</th>" for h in headers)
    return f'<table class="{kind}"><tr>{head}</tr>{cells}</table>'


def _built_from(item: dict[str, Any]) -> str:
    """What the exercise was built from: its measure, its mistake kind and its data."""
    shown = [
        tr(
            "{name}: {value}",
            name=tr(name),
            value=f"<code>{html.escape(json.dumps(item[field], ensure_ascii=False))}</code>",
        )
        for name, field in (
            (N_("measure"), "measure"),
            (N_("mistakes of"), "mistake_kind"),
            (N_("data"), "data"),
        )
        if item.get(field) is not None
    ]
    return f'<p class="built">{" · ".join(shown)}</p>' if shown else ""


def _mistakes_table(item: dict[str, Any]) -> str:
    """The mistakes an exercise names: each one's name (a message: its translation shown),
    the answer that makes it, and the verdict and feedback that answer gets."""
    convention = " <i>" + html.escape(tr("(another convention)")) + "</i>"
    rows = [
        (
            html.escape(tr(m["name"])) + (convention if m["convention"] else ""),
            html.escape(m["value"]),
            html.escape(tr(STATUS_NAMES[m["feedback"]["status"]])),
            m["feedback"]["html"],
        )
        for m in item["misconceptions"]
    ]
    if item.get("unreadable"):
        verdict = item["unreadable"]
        status = html.escape(tr(STATUS_NAMES[verdict["status"]]))
        unreadable = "<i>" + html.escape(tr("input that is not a number")) + "</i>"
        rows.append((unreadable, "abc", status, verdict["html"]))
    headers = (N_("mistake"), N_("answer"), N_("verdict"), N_("feedback"))
    return _table("misconceptions", headers, rows)


def _exercise_html(item: dict[str, Any]) -> str:
    key = html.escape(item["key"] or tr("(no key)"))
    anchor = f' id="{key}" data-key="{key}"' if item["key"] else ""
    answer = f'<span class="answer">{html.escape(str(item["answer"]))}</span>'
    parts = [
        f'<section class="exercise"{anchor}>',
        f'<h3><span class="key">{key}</span> · {html.escape(tr(KIND_NAMES[item["kind"]]))}</h3>',
        f'<div class="prompt">{item["prompt"]}</div>',
        f"<p>{tr('Answer: {answer}', answer=answer)}</p>",
        _built_from(item),
        f'<div class="solution">{item["solution"]}</div>',
    ]
    if item.get("options"):
        rows = [
            ("✔" if o["correct"] else "", html.escape(o["option"]), o["html"])
            for o in item["options"]
        ]
        parts.append(_table("options", ("", N_("option"), N_("feedback")), rows))
    elif item.get("misconceptions") or item.get("unreadable"):
        parts.append(_mistakes_table(item))
    if item.get("targets"):
        targets = html.escape(json.dumps(item["targets"]))
        parts.append(f"<p>{tr('targets: {targets}', targets=targets)}</p>")
        readout = html.escape(item["readout"])
        parts.append(f'<p class="readout">{tr("start: {readout}", readout=readout)}</p>')
    parts.append("</section>")
    return "\n".join(parts)


def render(
    sections: list[tuple[Path, list[dict[str, Any]]]], learner: str | None, lang: str
) -> str:
    """The key as one HTML page in ``lang``: a contents list, then each notebook's exercises."""
    with language(lang):
        return _page(sections, learner, lang)


def _page(sections: list[tuple[Path, list[dict[str, Any]]]], learner: str | None, lang: str) -> str:
    who = f" — {html.escape(learner)}" if learner else ""
    toc = "".join(
        f'<li><a href="#{path.stem}">{html.escape(_title(path))}</a> ({len(items)})</li>'
        for path, items in sections
        if items
    )
    body = "".join(
        f'<h2 id="{path.stem}">{html.escape(_title(path))}</h2>'
        + "".join(map(_exercise_html, items))
        for path, items in sections
        if items
    )
    count = sum(len(items) for _, items in sections)
    title = html.escape(tr("mapteach answer key")) + who
    counted = html.escape(ngettext("{n} exercise.", "{n} exercises.", count))
    return (
        f'<!DOCTYPE html><html lang="{"zh-Hans" if lang == "zh" else "en"}">'
        '<head><meta charset="utf-8">'
        f"<title>{title}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{title}</h1>"
        f'<p data-count="{count}">{counted}</p><ol>{toc}</ol>{body}</body></html>'
    )


def build(
    out: Path = DEFAULT_OUT,
    *,
    learner: str | None = None,
    lang: str = "en",
    notebooks: list[Path] | None = None,
    execute: bool = False,
    group: str | None = None,
) -> list[tuple[Path, list[dict[str, Any]]]]:
    """Write the key to ``out``: from the saved exercise states, or by executing.

    The whole key is read from the committed notebooks' saved states
    (:func:`saved_exercises`); a learner's or a group's key (or ``execute``) runs each
    notebook up to its last exercise, through the cache and the workers (:func:`harvest_many`).
    """
    folder = NOTEBOOKS / "zh" if lang == "zh" else NOTEBOOKS
    paths = notebooks or sorted(folder.glob("*.ipynb"))
    sources = _sources_digest()
    if learner or group:
        results = variant_exercises(paths, learner, group, sources)
    elif execute:
        results = harvest_many(paths, None, sources)
    else:
        results = [saved_exercises(path) for path in paths]
    sections = list(zip(paths, results, strict=True))
    out.parent.mkdir(parents=True, exist_ok=True)
    who = learner or (tr("group {group}", lang=lang, group=group) if group else None)
    out.write_text(render(sections, who, lang), encoding="utf-8")
    return sections


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the answer key of every exercise.")
    parser.add_argument("--learner", default=None, help="the key of this learner's variants")
    parser.add_argument("--group", default=None, help="the key of this group's variants")
    parser.add_argument("--lang", choices=("en", "zh"), default="en")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument(
        "--execute", action="store_true", help="run the notebooks even for the whole key"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    sections = build(
        args.out, learner=args.learner, lang=args.lang, execute=args.execute, group=args.group
    )
    count = sum(len(items) for _, items in sections)
    failing = [
        item["key"]
        for _, items in sections
        for item in items
        if item.get("self_check") and item["self_check"]["status"] != "correct"
    ]
    print(
        f"{args.out}: {count} exercises from {len(sections)} notebooks "
        f"in {time.perf_counter() - start:.1f} s"
    )
    if failing:
        print(f"answers their own check rejects: {failing}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
