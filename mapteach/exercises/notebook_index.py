"""The exercises of the committed notebooks, read from their saved outputs without running them.

Each exercise's ``text/html`` fallback carries its state as JSON (see
:mod:`mapteach.offline.fallback`): its key, kind, prompt, worked solution and answer
table. :func:`exercise_index` reads those states from every notebook of a folder, so
a teacher's tools know which exercises a notebook holds (the "not started" rows of a
progress report) and what each asks, with no kernel and in well under a second.
Standard library only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any, NamedTuple

from mapteach.i18n import tr
from mapteach.offline.fallback import read_offline_states

__all__ = ["IndexedExercise", "exercise_index", "exercise_states"]

#: A tag of a prompt's HTML (prompts hold only inline tags such as ``<code>``).
_TAG = re.compile(r"<[^>]*>")


class IndexedExercise(NamedTuple):
    """One exercise of a committed notebook, as its saved fallback describes it."""

    notebook: str
    """The notebook's key in a progress file, ``"03"``."""
    exercise: str
    """The exercise's number in that notebook, ``"2"``."""
    key: str
    """``"03.2"``."""
    kind: str
    """``"number"``, ``"choice"`` or ``"arrange"``."""
    prompt: str
    """The question, as plain text."""
    edition: str
    """The notebook's edition: ``"zh"`` (its fallbacks say ``zh-Hans``) or ``"en"``."""
    source: str
    """The notebook's file name, ``"03_average_precision_by_hand.ipynb"``."""


def _outputs_html(notebook: dict[str, Any]) -> Iterator[str]:
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        for output in cell.get("outputs", []):
            shown = output.get("data", {}).get("text/html")
            if shown:
                yield shown if isinstance(shown, str) else "".join(shown)


def exercise_states(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """The language and model state of every keyed exercise saved in notebook ``path``.

    Parameters
    ----------
    path : Path
        A notebook (``.ipynb``) whose outputs were saved.

    Returns
    -------
    list of (str, dict)
        ``(lang, model)`` of each exercise whose key is set, in the notebook's order:
        ``model`` is the exercise widget's state (``exercise_key``, ``kind``, ``prompt``,
        ``solution``, ``answer_table``...).

    Raises
    ------
    ValueError
        If ``path`` is not a notebook's JSON (the error names the file).

    Examples
    --------
    >>> from pathlib import Path
    >>> import mapteach
    >>> from mapteach.exercises.notebook_index import exercise_states
    >>> notebooks = Path(mapteach.__file__).parents[1] / "notebooks"
    >>> lang, model = exercise_states(notebooks / "03_average_precision_by_hand.ipynb")[0]
    >>> lang, model["exercise_key"], model["answer_table"]["kind"]
    ('en', '03.1', 'number')
    >>> exercise_states(notebooks / "zh" / "03_average_precision_by_hand.ipynb")[0][0]
    'zh-Hans'
    """
    try:
        notebook = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(
            tr("{path} is not a notebook's JSON: {error}", path=path, error=error)
        ) from error
    return [
        (found.lang, found.state["model"])
        for shown in _outputs_html(notebook)
        for found in read_offline_states(shown, module="exercise")
        if found.state.get("model", {}).get("exercise_key")
    ]


def _plain(prompt_html: str) -> str:
    return " ".join(unescape(_TAG.sub("", prompt_html)).split())


def exercise_index(notebooks_dir: Path | str) -> list[IndexedExercise]:
    """Every keyed exercise of the notebooks in ``notebooks_dir``, from their saved outputs.

    Nothing is executed: each exercise is read from the state its fallback saved.
    Only the folder's own notebooks are read (``notebooks/`` is the English edition,
    ``notebooks/zh`` the Chinese one).

    Parameters
    ----------
    notebooks_dir : Path or str
        A folder of notebooks, or one notebook.

    Returns
    -------
    list of IndexedExercise
        By notebook file name, then in each notebook's order.

    Raises
    ------
    FileNotFoundError
        If ``notebooks_dir`` does not exist.
    ValueError
        If it holds no notebook, or a notebook is not JSON (the error names it).

    Examples
    --------
    >>> from pathlib import Path
    >>> import mapteach
    >>> from mapteach.exercises import exercise_index
    >>> index = exercise_index(Path(mapteach.__file__).parents[1] / "notebooks" / "zh")
    >>> first = index[0]
    >>> first.key, first.notebook, first.exercise, first.kind, first.edition
    ('00.1', '00', '1', 'number', 'zh')
    >>> [item.key for item in index if item.notebook == "16"]
    ['16.1', '16.2', '16.3']
    """
    folder = Path(notebooks_dir)
    if not folder.exists():
        raise FileNotFoundError(tr("no notebook folder {folder}", folder=folder))
    paths = [folder] if folder.is_file() else sorted(folder.glob("*.ipynb"))
    if not paths:
        raise ValueError(tr("{folder} holds no notebook (*.ipynb)", folder=folder))
    return [
        IndexedExercise(
            notebook=model["exercise_key"].partition(".")[0],
            exercise=model["exercise_key"].partition(".")[2],
            key=model["exercise_key"],
            kind=model["kind"],
            prompt=_plain(model["prompt"]),
            edition="zh" if lang.startswith("zh") else "en",
            source=path.name,
        )
        for path in paths
        for lang, model in exercise_states(path)
    ]
