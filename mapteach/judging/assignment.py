"""Who judges what: queries shared out among annotators, each to ``overlap`` of them.

:func:`assign` gives every query to exactly ``overlap`` distinct annotators, with
loads (queries per annotator) within one of each other; the same seed gives the same
plan. With a ``folder`` it also writes the plan there, as ``assignments.json``::

    {"version": 1, "overlap": 2,
     "assignments": {"ada": ["q1", "q2"], "bo": ["q1", "q3"], "chen": ["q2", "q3"]}}

``version`` is the format's (1); ``overlap`` how many annotators judge each query;
``assignments`` each annotator's queries, in the order the queries were given. The
file is written whole or not at all (a temporary file in the same folder, flushed to
disk, then renamed over the old one), so a crash never leaves half a plan.
:func:`read_assignments` reads it back, checking every field, and
:func:`assigned_queries` gives one annotator's queries (what the judging board shows
that annotator). Errors name the file and the JSON path of the problem
(``assignments["ada"][1]``).

Examples
--------
>>> from mapteach.judging import assign
>>> plan = assign(["ada", "bo", "chen"], ["q1", "q2", "q3", "q4"], overlap=2, seed=7)
>>> [sum(query in queries for queries in plan.values()) for query in ["q1", "q2", "q3", "q4"]]
[2, 2, 2, 2]
>>> sorted(len(queries) for queries in plan.values())  # 8 judgings among 3: within one
[2, 3, 3]
>>> plan == assign(["ada", "bo", "chen"], ["q1", "q2", "q3", "q4"], overlap=2, seed=7)
True
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

from mapteach.i18n import N_, tr
from mapteach.sources import read_json

__all__ = ["ASSIGNMENTS_FILE", "FORMAT_VERSION", "assign", "assigned_queries", "read_assignments"]

#: The name of the plan's file in a judging folder.
ASSIGNMENTS_FILE = "assignments.json"
#: The version of the file's format that this package writes and reads.
FORMAT_VERSION = 1
_FIELDS = ("version", "overlap", "assignments")


def _identifiers(values: Any, what: str, *, spaces: bool) -> list[str]:
    """``values`` as a list of unique, non-empty strings; ``what`` names them in errors."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(
            tr(
                "{what} must be a list of names; got {kind}.",
                what=what,
                kind=type(values).__name__,
            )
        )
    names = list(values)
    for index, name in enumerate(names):
        where = f"{what}[{index}]"
        if not isinstance(name, str):
            raise TypeError(
                tr("{where} is {kind}, not a string.", where=where, kind=type(name).__name__)
            )
        if not name.strip():
            raise ValueError(tr("{where} is empty.", where=where))
        if not spaces and re.search(r"\s", name):
            raise ValueError(
                tr(
                    "{where} is {name!r}, which holds white space: a TREC qrels file "
                    "cannot keep it.",
                    where=where,
                    name=name,
                )
            )
        if name in names[:index]:
            raise ValueError(tr("{where}: {name!r} is listed twice.", where=where, name=name))
    return names


def _check_overlap(overlap: Any, annotators: int) -> int:
    if isinstance(overlap, bool) or not isinstance(overlap, int):
        raise TypeError(tr("overlap must be an integer; got {kind}.", kind=type(overlap).__name__))
    if not 1 <= overlap <= annotators:
        raise ValueError(
            tr(
                "overlap must be between 1 and the number of annotators ({annotators}); "
                "got {overlap}.",
                annotators=annotators,
                overlap=overlap,
            )
        )
    return overlap


def _judges(
    names: Sequence[str], overlap: int, loads: Counter, pairs: Counter, rng: random.Random
) -> list[str]:
    """``overlap`` annotators for one query: the least loaded, then the least paired so far.

    Taking one of the least loaded each time keeps every load within one of the others.
    """
    chosen: list[str] = []
    for _ in range(overlap):
        free = [name for name in names if name not in chosen]
        lowest = min(loads[name] for name in free)
        candidates = [name for name in free if loads[name] == lowest]
        cost = {name: sum(pairs[frozenset((name, c))] for c in chosen) for name in candidates}
        fewest = min(cost.values())
        chosen.append(rng.choice([name for name in candidates if cost[name] == fewest]))
    return chosen


def _plan(names: list[str], queries: list[str], overlap: int, seed: Any) -> dict[str, list[str]]:
    rng = random.Random(seed)
    order = list(queries)
    rng.shuffle(order)
    loads: Counter = Counter()
    pairs: Counter = Counter()
    given: dict[str, set[str]] = {name: set() for name in names}
    for query in order:
        judges = _judges(names, overlap, loads, pairs, rng)
        for name in judges:
            loads[name] += 1
            given[name].add(query)
        pairs.update(frozenset(pair) for pair in combinations(judges, 2))
    return {name: [query for query in queries if query in given[name]] for name in names}


def assign(
    annotators: Sequence[str],
    queries: Sequence[str],
    overlap: int = 2,
    seed: int | None = None,
    folder: str | os.PathLike[str] | None = None,
) -> dict[str, list[str]]:
    """Give each query to ``overlap`` distinct annotators, loads within one of each other.

    Among the annotators with the fewest queries so far, each query goes first to
    those who have shared the fewest queries with its other judges, so every pair
    of annotators shares queries when there are enough (what agreement needs).

    Parameters
    ----------
    annotators : sequence of str
        The annotators' names: unique, not empty.
    queries : sequence of str
        The query ids: unique, not empty, without white space (they go in TREC files).
    overlap : int, default 2
        How many annotators judge each query: 1 to the number of annotators.
    seed : int, optional
        The same seed gives the same plan; None: a new plan each time.
    folder : path, optional
        Also write the plan to ``folder/assignments.json`` (see the module notes),
        creating the folder if needed.

    Returns
    -------
    dict of str to list of str
        Each annotator (in the order given) and their queries (in the order given).

    Raises
    ------
    TypeError, ValueError
        Naming the annotator, the query (by its position) or the overlap at fault.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> plan = assign(["ada", "bo"], ["q1", "q2", "q3"], overlap=1, seed=1, folder=folder)
    >>> sorted(plan["ada"] + plan["bo"]), sorted(len(q) for q in plan.values())
    (['q1', 'q2', 'q3'], [1, 2])
    >>> read_assignments(folder) == plan
    True
    >>> assign(["ada", "bo"], ["q1"], overlap=3)
    Traceback (most recent call last):
    ...
    ValueError: overlap must be between 1 and the number of annotators (2); got 3.
    >>> assign(["ada", "ada"], ["q1"], overlap=1)
    Traceback (most recent call last):
    ...
    ValueError: annotators[1]: 'ada' is listed twice.
    """
    names = _identifiers(annotators, "annotators", spaces=True)
    ids = _identifiers(queries, "queries", spaces=False)
    plan = _plan(names, ids, _check_overlap(overlap, len(names)), seed)
    if folder is not None:
        document = {"version": FORMAT_VERSION, "overlap": overlap, "assignments": plan}
        _write_atomically(Path(folder) / ASSIGNMENTS_FILE, _dumps(document))
    return plan


def _dumps(document: Mapping[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` whole: a temporary file, flushed to disk, renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    if sys.platform != "win32":  # make the new name durable (Windows cannot open a folder)
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


class _Document:
    """A parsed assignments file; :meth:`fail` makes an error naming the file and JSON path."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, where: str, message: str, **values: Any) -> ValueError:
        return ValueError(
            tr(
                "{name}: {where}: {problem}",
                name=self.name,
                where=where,
                problem=tr(message, **values),
            )
        )

    def expect(self, value: Any, kind: type, where: str) -> Any:
        if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
            return value
        expected = {dict: "object", list: "array", str: "string", int: "integer"}[kind]
        raise self.fail(
            where, N_("expected {expected}, got {kind}."), expected=expected, kind=_json_kind(value)
        )


def _json_kind(value: Any) -> str:
    for kind, name in ((bool, "boolean"), (dict, "object"), (list, "array"), (str, "string")):
        if isinstance(value, kind):
            return name
    return {int: "integer", float: "number", type(None): "null"}.get(type(value), "?")


def _top(read: _Document, document: Any) -> tuple[int, dict]:
    """The overlap and the assignments object, after checking the top-level fields."""
    read.expect(document, dict, "$")
    fields = set(document)
    if fields != set(_FIELDS):
        raise read.fail(
            "$",
            N_("expected the fields {expected}; missing {missing}, unknown {extra}."),
            expected=", ".join(_FIELDS),
            missing=sorted(set(_FIELDS) - fields),
            extra=sorted(fields - set(_FIELDS)),
        )
    version = read.expect(document["version"], int, "version")
    if version != FORMAT_VERSION:
        raise read.fail(
            "version",
            N_("{version} is not a format this package reads (it reads version {known})."),
            version=version,
            known=FORMAT_VERSION,
        )
    plan = read.expect(document["assignments"], dict, "assignments")
    if not plan:
        raise read.fail("assignments", N_("names no annotator."))
    overlap = read.expect(document["overlap"], int, "overlap")
    if not 1 <= overlap <= len(plan):
        raise read.fail(
            "overlap",
            N_("{overlap} is not between 1 and the number of annotators ({annotators})."),
            overlap=overlap,
            annotators=len(plan),
        )
    return overlap, plan


def _annotator_queries(read: _Document, name: str, queries: Any) -> list[str]:
    where = f"assignments[{json.dumps(name, ensure_ascii=False)}]"
    if not name.strip():
        raise read.fail(where, N_("the annotator's name is empty."))
    read.expect(queries, list, where)
    for index, query in enumerate(queries):
        read.expect(query, str, f"{where}[{index}]")
        if not query.strip() or re.search(r"\s", query) or query in queries[:index]:
            raise read.fail(
                f"{where}[{index}]",
                N_("{query!r} is empty, holds white space or is listed twice."),
                query=query,
            )
    return list(queries)


def read_assignments(folder: str | os.PathLike[str]) -> dict[str, list[str]]:
    """The plan in ``folder/assignments.json``, checked: ``{annotator: [query, ...]}``.

    Raises
    ------
    ValueError
        Naming the file, and the JSON path of the problem: a file that cannot be
        read or is not JSON (with its line), a field missing, unknown or of the
        wrong type, another format version, an empty name or query id, a query
        listed twice for one annotator, or a query not given to exactly
        ``overlap`` annotators.

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> document = {"version": 1, "overlap": 1, "assignments": {"ada": ["q1", 7]}}
    >>> _ = (folder / "assignments.json").write_text(json.dumps(document), encoding="utf-8")
    >>> try:
    ...     read_assignments(folder)
    ... except ValueError as error:
    ...     print(str(error).replace(str(folder), "round1"))
    round1/assignments.json: assignments["ada"][1]: expected string, got integer.
    """
    path = Path(folder) / ASSIGNMENTS_FILE
    read = _Document(os.fsdecode(path))
    overlap, plan = _top(read, read_json(path))
    assignments = {name: _annotator_queries(read, name, queries) for name, queries in plan.items()}
    counts = Counter(query for queries in assignments.values() for query in queries)
    for query, count in counts.items():
        if count != overlap:
            raise read.fail(
                "assignments",
                N_("query {query!r} is given to {count} annotator(s), not to overlap {overlap}."),
                query=query,
                count=count,
                overlap=overlap,
            )
    return assignments


def assigned_queries(folder: str | os.PathLike[str], annotator: str) -> list[str]:
    """The queries ``folder/assignments.json`` gives ``annotator``, in the plan's order.

    Raises
    ------
    ValueError
        As :func:`read_assignments`, or if the plan does not name the annotator
        (the message lists the names it has).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = assign(["ada", "bo"], ["q1", "q2"], overlap=2, folder=folder)
    >>> assigned_queries(folder, "bo")
    ['q1', 'q2']
    >>> try:
    ...     assigned_queries(folder, "Bo")
    ... except ValueError as error:
    ...     print(str(error).replace(str(folder), "round1"))
    the plan in round1/assignments.json gives no queries to 'Bo'; its annotators: ada, bo.
    """
    plan = read_assignments(folder)
    if annotator not in plan:
        raise ValueError(
            tr(
                "the plan in {file} gives no queries to {annotator!r}; its annotators: {known}.",
                file=os.fsdecode(Path(folder) / ASSIGNMENTS_FILE),
                annotator=annotator,
                known=", ".join(plan),
            )
        )
    return plan[annotator]
