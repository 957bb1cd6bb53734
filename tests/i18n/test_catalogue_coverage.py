"""Catalogue coverage: no learner-visible string is built outside the catalogue's helpers.

The heuristic, over the source of every module of ``mapteach/`` (the AST, no import):

- **What is shown.** The arguments of ``print``, ``display``, ``Markdown``, ``HTML``,
  ``Label``, ``warnings.warn`` (its message) and of matplotlib's text calls
  (``set_xlabel``, ``set_title``, ``legend``, ``text``, ...); the keywords ``description``,
  ``tooltip``, ``placeholder``, ``title``, ``label``, ``xlabel``, ``ylabel`` of any call;
  and the message of every exception built (a call to a name ending in ``Error``,
  ``Exception`` or ``Warning``, raised there or returned to be raised): an error reaches
  the learner through the notebook or the command line (``error: ...``).
- **What is built outside the catalogue.** The literal text of such an argument: a string
  literal, an f-string's literal parts, either side of ``+`` or of a conditional, the
  string a ``.format``/``.join`` is called on; never inside ``tr``, ``N_``, ``ngettext``
  or ``plural_message`` (their text is the message), nor in any other call (its result
  is that function's business).
- **What reads as prose.** After removing HTML tags, two Latin words (two letters or more)
  in a row, joined by a space or by ``,;:``: an identifier, a number or a single word
  is not prose.

It does not see a string kept in a variable and shown later: those are held by the
tables' and widgets' own tests (``test_tables_in_chinese``, ``test_widgets_in_chinese``)
and by ``test_zh_latin_runs``, which read what is shown. :data:`STILL_ENGLISH` allows, by
count per module, the few strings no learner reads, each group with its reason there; the
test fails when a module has more, or fewer, than its count.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
PACKAGE = ROOT / "mapteach"
MARKERS = {"tr", "N_", "ngettext", "plural_message"}
SHOWN_BY = {
    "print",
    "display",
    "Markdown",
    "HTML",
    "Label",
    "warn",
    "set_xlabel",
    "set_ylabel",
    "set_title",
    "suptitle",
    "xlabel",
    "ylabel",
    "title",
    "legend",
    "text",
    "annotate",
    "set_label",
}
SHOWN_KEYWORDS = {"description", "tooltip", "placeholder", "title", "label", "xlabel", "ylabel"}
EXCEPTION = re.compile(r"(Error|Exception|Warning)$")
PROSE = re.compile(r"[A-Za-z]{2,}[ ,;:]+[A-Za-z]{2,}")
#: Where an f-string's replacement fields were, in its literal text.
FIELD = "\u25c6"

#: Modules whose English is allowed, with how many of their shown strings are English,
#: because no learner reads them (every error a learner can meet, even by calling a
#: function wrongly, is in the catalogue):
#:
#: - ``__init__.py``, ``_lazy.py``: the lazy packages' ``AttributeError`` ("module 'x' has no
#:   attribute 'y'"), word for word Python's own, which ``hasattr``, ``getattr(..., default)``
#:   and IPython's completion read, and which every other module raises in English.
#: - ``classroom/hub.py``: the JupyterHub set-up, run by the instructor: its log and its two
#:   checks of that set-up's arguments are read in the hub's own English log.
#: - ``i18n/__init__.py``: ``ngettext`` called wrongly, which only the package's own code
#:   (a developer adding a message) can do.
#: - ``offline/*``: building the widgets' browser code and the static site from the
#:   package's own files; only a developer changing those files meets these.
STILL_ENGLISH = {
    "__init__.py": 1,
    "_lazy.py": 1,
    "classroom/hub.py": 3,
    "i18n/__init__.py": 2,
    "offline/esm.py": 6,
    "offline/site_runtime.py": 4,
    "offline/widget_state.py": 1,
}


def _name(function: ast.expr) -> str:
    if isinstance(function, ast.Name):
        return function.id
    return function.attr if isinstance(function, ast.Attribute) else ""


def literal_texts(node: ast.expr) -> Iterator[str]:
    """The literal text a shown expression is built of, outside the catalogue's helpers.

    >>> [*literal_texts(ast.parse('f"{n} queries left out" + tr("x y")', mode="eval").body)]
    ['◆ queries left out']
    """
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr):
        yield FIELD.join(v.value if isinstance(v, ast.Constant) else "" for v in node.values)
    elif isinstance(node, ast.BinOp):
        yield from literal_texts(node.left)
        yield from literal_texts(node.right)
    elif isinstance(node, ast.IfExp):
        yield from literal_texts(node.body)
        yield from literal_texts(node.orelse)
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("format", "join")
    ):
        yield from literal_texts(node.func.value)


def _shown_arguments(node: ast.AST) -> list[ast.expr]:
    """The expressions ``node`` shows a learner, by the module docstring's rule."""
    if not isinstance(node, ast.Call) or _name(node.func) in MARKERS:
        return []
    name = _name(node.func)
    if EXCEPTION.search(name):
        return list(node.args)
    shown = (node.args[:1] if name == "warn" else node.args) if name in SHOWN_BY else []
    return [*shown, *(k.value for k in node.keywords if k.arg in SHOWN_KEYWORDS)]


def english_shown(source: str) -> list[tuple[int, str]]:
    """(line, text) of every prose string ``source`` shows outside the catalogue.

    >>> english_shown('raise ValueError(f"{x} is not a grade")\\nprint(tr("a b"))')
    [(1, '◆ is not a grade')]
    >>> english_shown('def error(x):\\n    return TypeError("no such grade")')
    [(2, 'no such grade')]
    >>> english_shown('ax.set_xlabel("recall")\\nwidgets.Button(description="Check it")')
    [(2, 'Check it')]
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        for expr in _shown_arguments(node):
            found += [
                (expr.lineno, text)
                for text in literal_texts(expr)
                if PROSE.search(re.sub(r"<[^>]*>", " ", text))
            ]
    return sorted(found)


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_no_module_shows_english_outside_the_catalogue():
    counts = Counter()
    new = []
    for path in MODULES:
        where = str(path.relative_to(PACKAGE).as_posix())
        found = english_shown(path.read_text(encoding="utf-8"))
        counts[where] = len(found)
        if len(found) > STILL_ENGLISH.get(where, 0):
            new += [f"{where}:{line}: {text!r}" for line, text in found]
    assert new == [], "wrap these in tr()/N_() and translate them"
    shrunk = {where: counts[where] for where, n in STILL_ENGLISH.items() if counts[where] < n}
    assert shrunk == {}, "lower STILL_ENGLISH to these counts"


_spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "tools" / "i18n.py")
assert _spec and _spec.loader
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)
MESSAGES = tool.messages()


def _shown_names() -> dict[str, list[str]]:
    """The names the issue lists as shown but once missed: each group's English messages."""
    from mapteach.analysis.conventions import CONVENTION_HEADERS, SETTINGS
    from mapteach.analysis.pooling import POOL_HEADERS
    from mapteach.exercises.mistakes import KINDS, mistakes_for

    key = importlib.util.spec_from_file_location("answer_key", ROOT / "tools" / "answer_key.py")
    assert key and key.loader
    answer_key = importlib.util.module_from_spec(key)
    key.loader.exec_module(answer_key)
    return {
        "conventions explanations": [explains for _, explains in SETTINGS.values()],
        "conventions headers": list(CONVENTION_HEADERS.values()),
        "pool-bias headers": list(POOL_HEADERS.values()),
        "answer-key kinds and statuses": [
            *answer_key.KIND_NAMES.values(),
            *answer_key.STATUS_NAMES.values(),
        ],
        "mistake names": [mistake.name for kind in KINDS for mistake in mistakes_for(kind)],
    }


@pytest.mark.parametrize("group", list(_shown_names()))
def test_the_extractor_finds_every_name_shown(group):
    names = _shown_names()[group]
    assert names
    assert [name for name in names if name not in MESSAGES] == []
