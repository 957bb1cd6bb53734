"""Write the answer key: every exercise of every notebook, worked out by the exercises' own code.

    python tools/answer_key.py [--learner NAME] [--lang en|zh] [--out build/answer-key.html]

Each notebook's code cells run in a fresh Python process (``MPLBACKEND=Agg``, the
notebook's folder as the working directory), inside
:func:`mapteach.exercises.registry.collect_exercises`; every exercise made there is
read back: its prompt, its answer, its worked solution, and each misconception it
recognises (its name, value, explanation, whether it is another convention) with the
feedback a learner gets for it, what the exercise was built from (``measure``,
``mistake_kind``, ``data``) and the verdict on unreadable input. Formulas show as
MathML, as the exercises show them. Nothing is typed by hand: the
answer is the exercise's own ``truth``, ``correct`` option or solved arrangement,
and the key checks each with the exercise's own ``check`` (``self_check``).
With ``--learner`` the key is that learner's: ``mapteach.learner(NAME)`` is set
before the notebook runs, so numeric exercises show the learner's variant.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
DEFAULT_OUT = ROOT / "build" / "answer-key.html"

#: Runs in the child process: execute the notebook, print its exercises as JSON.
_HARVEST = r"""
import json, sys
import mapteach
from mapteach.exercises import (
    ArrangeExercise, ChoiceExercise, NumberExercise, collect_exercises,
)
from mapteach.exercises.widgets import feedback_html

path, learner = sys.argv[1], sys.argv[2]
notebook = json.load(open(path, encoding="utf-8"))
if learner:
    mapteach.learner(learner)
namespace = {"__name__": "__main__"}
with collect_exercises() as made:
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), path, "exec"), namespace)

def text(feedback):
    return {"status": feedback.status, "message": feedback.message,
            "html": feedback_html(feedback.message), "misconception": feedback.misconception,
            "mistakes": list(feedback.mistakes), "convention": feedback.convention}

def number(exercise):
    shown = lambda value: f"{value:.{exercise.decimals}f}"
    answer = shown(exercise.truth)
    return {
        "answer": answer,
        "self_check": text(exercise.check(answer)),
        "unreadable": text(exercise.check("abc")),
        "misconceptions": [
            {"name": wrong.name, "value": shown(wrong.value),
             "explanation": wrong.explanation, "convention": wrong.convention,
             "feedback": text(exercise.check(shown(wrong.value)))}
            for wrong in exercise.misconceptions
        ],
    }

def choice(exercise):
    return {
        "answer": exercise.correct,
        "self_check": text(exercise.check(exercise.correct)),
        "options": [
            {"option": option, "reply": exercise.replies[option],
             "html": feedback_html(exercise.replies[option]),
             "correct": option == exercise.correct}
            for option in exercise.options
        ],
        "misconceptions": [
            {"name": option, "value": option, "explanation": exercise.replies[option],
             "convention": False, "feedback": text(exercise.check(option))}
            for option in exercise.options if option != exercise.correct
        ],
    }

def arrange(exercise):
    solved = exercise.solve()
    return {
        "answer": str(solved),
        "targets": exercise.targets,
        "readout": exercise.readout,
        "self_check": text(exercise.check(solved)) if solved else None,
        "misconceptions": [],
    }

READ = ((NumberExercise, number), (ChoiceExercise, choice), (ArrangeExercise, arrange))
found = []
for exercise in made:
    item = {"key": exercise.key, "kind": exercise.kind, "prompt": exercise.prompt,
            "solution": exercise.solution, "lang": exercise.lang,
            "measure": exercise.measure, "data": exercise.data,
            "mistake_kind": exercise.mistake_kind}
    item.update(next(read for cls, read in READ if isinstance(exercise, cls))(exercise))
    found.append(item)
print(json.dumps(found, ensure_ascii=False))
"""


def harvest(path: Path, learner: str | None = None) -> list[dict[str, Any]]:
    """The exercises a notebook makes, read back from a fresh process (see the module notes)."""
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0"}
    env.pop("MAPTEACH_LEARNER", None)
    done = subprocess.run(
        [sys.executable, "-c", _HARVEST, str(path.resolve()), learner or ""],
        cwd=path.parent,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"{path.name} failed:\n{done.stderr[-3000:]}")
    exercises: list[dict[str, Any]] = json.loads(done.stdout.strip().splitlines()[-1])
    return exercises


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


def _table(kind: str, headers: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    """An HTML table; each cell is HTML already (escape text before)."""
    cells = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    return f'<table class="{kind}"><tr>{head}</tr>{cells}</table>'


def _built_from(item: dict[str, Any]) -> str:
    """What the exercise was built from: its measure, its mistake kind and its data."""
    shown = [
        f"{name}: <code>{html.escape(json.dumps(item[field], ensure_ascii=False))}</code>"
        for name, field in (
            ("measure", "measure"),
            ("mistakes of", "mistake_kind"),
            ("data", "data"),
        )
        if item.get(field) is not None
    ]
    return f'<p class="built">{" · ".join(shown)}</p>' if shown else ""


def _mistakes_table(item: dict[str, Any]) -> str:
    rows = [
        (
            html.escape(m["name"]) + (" <i>(convention)</i>" if m["convention"] else ""),
            html.escape(m["value"]),
            html.escape(m["feedback"]["status"]),
            m["feedback"]["html"],
        )
        for m in item["misconceptions"]
    ]
    if item.get("unreadable"):
        verdict = item["unreadable"]
        rows.append(("<i>unreadable input</i>", "abc", verdict["status"], verdict["html"]))
    return _table("misconceptions", ("mistake", "answer", "status", "feedback"), rows)


def _exercise_html(item: dict[str, Any]) -> str:
    key = html.escape(item["key"] or "(no key)")
    anchor = f' id="{key}" data-key="{key}"' if item["key"] else ""
    parts = [
        f'<section class="exercise"{anchor}>',
        f'<h3><span class="key">{key}</span> · {html.escape(item["kind"])}</h3>',
        f'<div class="prompt">{item["prompt"]}</div>',
        f'<p>Answer / 答案: <span class="answer">{html.escape(str(item["answer"]))}</span></p>',
        _built_from(item),
        f'<div class="solution">{item["solution"]}</div>',
    ]
    if item.get("options"):
        rows = [
            ("✔" if o["correct"] else "", html.escape(o["option"]), o["html"])
            for o in item["options"]
        ]
        parts.append(_table("options", ("", "option", "feedback"), rows))
    elif item.get("misconceptions") or item.get("unreadable"):
        parts.append(_mistakes_table(item))
    if item.get("targets"):
        parts.append(f"<p>targets: {html.escape(json.dumps(item['targets']))}</p>")
        parts.append(f'<p class="readout">start: {html.escape(item["readout"])}</p>')
    parts.append("</section>")
    return "\n".join(parts)


def render(
    sections: list[tuple[Path, list[dict[str, Any]]]], learner: str | None, lang: str
) -> str:
    """The key as one HTML page: a contents list, then each notebook's exercises."""
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
    return (
        f'<!DOCTYPE html><html lang="{"zh-Hans" if lang == "zh" else "en"}">'
        '<head><meta charset="utf-8">'
        f"<title>mapteach answer key{who}</title><style>{_STYLE}</style></head><body>"
        f"<h1>mapteach answer key / 练习答案{who}</h1>"
        f'<p data-count="{count}">{count} exercises.</p><ol>{toc}</ol>{body}</body></html>'
    )


def build(
    out: Path = DEFAULT_OUT,
    *,
    learner: str | None = None,
    lang: str = "en",
    notebooks: list[Path] | None = None,
) -> list[tuple[Path, list[dict[str, Any]]]]:
    """Harvest every notebook (two at a time) and write the key to ``out``."""
    folder = NOTEBOOKS / "zh" if lang == "zh" else NOTEBOOKS
    paths = notebooks or sorted(folder.glob("*.ipynb"))
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda path: harvest(path, learner), paths))
    sections = list(zip(paths, results, strict=True))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render(sections, learner, lang), encoding="utf-8")
    return sections


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the answer key of every exercise.")
    parser.add_argument("--learner", default=None, help="the key of this learner's variants")
    parser.add_argument("--lang", choices=("en", "zh"), default="en")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    sections = build(args.out, learner=args.learner, lang=args.lang)
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
