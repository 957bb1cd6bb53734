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

This module puts the key together and writes the page; an exercise is read into the
key by ``tools/answer_key_items.py``, and notebooks run in ``tools/answer_key_harvest.py``.
"""

from __future__ import annotations

import argparse
import html
import importlib.util
import json
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from mapteach.i18n import N_, language, ngettext, tr


def _sibling(name: str) -> ModuleType:
    """``tools/<name>.py``, imported once: this tool runs as a script and is loaded by path."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
        assert spec and spec.loader
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


_items = _sibling("answer_key_items")
_harvest = _sibling("answer_key_harvest")
read_exercise, saved_exercises = _items.read_exercise, _items.saved_exercises
NotebookFile, harvest_many, sources_digest = (
    _harvest.NotebookFile,
    _harvest.harvest_many,
    _harvest.sources_digest,
)

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
DEFAULT_OUT = ROOT / "build" / "answer-key.html"
#: Keys harvested by executing, by notebook content, mapteach sources and learner.
CACHE = ROOT / "build" / "answer-key-cache"


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
    read = [NotebookFile.read(path) for path in paths]
    varying = [
        index for index, notebook in enumerate(read) if notebook.last_cell(_harvest.VARYING) >= 0
    ]
    ran = harvest_many(
        [read[index] for index in varying],
        learner,
        sources,
        cache=CACHE,
        group=group,
        varying_only=True,
    )
    for index, made in zip(varying, ran, strict=True):
        by_key = {item["key"]: item for item in made}
        saved[index] = [by_key.get(item["key"], item) for item in saved[index]]
    return saved


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
    sources = sources_digest()
    if learner or group:
        results = variant_exercises(paths, learner, group, sources)
    elif execute:
        results = harvest_many(paths, None, sources, cache=CACHE)
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
