"""A widget's synced state as plain JSON, for its offline fallback.

The state the browser view reads (every synced trait but the private ones and the
layout), with each widget it refers to (an exercise's board) kept beside it under a
short local id, so the same notebook writes the same fallback every time it runs.

Each state also carries the widget's page id (``"w1"``, ``"w2"``, ...: given in the
order the kernel first writes a widget's state, so the same again when the notebook
runs again from the top): a widget shown in two outputs (a board, and the readout
below it that follows the board) has the same page id in both, and the page's
runtime makes one model of it, as the kernel has one widget.
"""

from __future__ import annotations

import itertools
import weakref
from typing import Any

import ipywidgets

__all__ = ["offline_state"]

#: Synced traits of every ipywidget that the browser modules never read.
_SKIPPED = {"layout", "tabbable", "tooltip", "comm", "keys", "log"}

#: Each widget's page id, once its state has been written, and the next id to give.
_PAGE_IDS: weakref.WeakKeyDictionary[ipywidgets.Widget, str] = weakref.WeakKeyDictionary()
_NEXT_ID = itertools.count(1)


def _page_id(widget: ipywidgets.Widget) -> str:
    if widget not in _PAGE_IDS:
        _PAGE_IDS[widget] = f"w{next(_NEXT_ID)}"
    return _PAGE_IDS[widget]


def _module_of(widget: ipywidgets.Widget) -> str:
    module = getattr(widget, "offline_module", None)
    if not isinstance(module, str):
        raise TypeError(
            f"{type(widget).__name__} has no offline_module: it cannot be shown without a kernel."
        )
    return module


def _plain(value: Any, children: dict[str, dict[str, Any]]) -> Any:
    if isinstance(value, ipywidgets.Widget):
        ref = f"c{len(children)}"
        children[ref] = {}  # reserve the id before the child's own references
        children[ref] = {
            "module": _module_of(value),
            "id": _page_id(value),
            "model": _traits(value, children),
        }
        return f"IPY_MODEL_{ref}"
    if isinstance(value, dict):
        return {str(key): _plain(item, children) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item, children) for item in value]
    return value


def _traits(widget: ipywidgets.Widget, children: dict[str, dict[str, Any]]) -> dict[str, Any]:
    names = sorted(
        name for name in widget.keys if not name.startswith("_") and name not in _SKIPPED
    )
    return {name: _plain(getattr(widget, name), children) for name in names}


def offline_state(widget: ipywidgets.Widget, **extra: Any) -> dict[str, Any]:
    """``{"module", "id", "model": traits, "children": {ref: {"module", "id", "model"}}}``.

    ``model`` holds every synced trait of ``widget`` the view reads, plus ``extra``
    (what only a page without a kernel needs, such as an exercise's answer table); a
    trait holding another widget holds ``"IPY_MODEL_<ref>"`` (``ref`` local to this
    state: ``c0``, ``c1``, ...) and that widget's state is in ``children[ref]``.
    ``module`` is a widget's ``offline_module``; ``id`` its page id (see the module's
    docstring): the same widget has the same id in every state written in a process.

    Raises
    ------
    TypeError
        If a widget referred to has no ``offline_module``.

    Examples
    --------
    >>> import ipywidgets, traitlets
    >>> from mapteach.offline import offline_state
    >>> class Leaf(ipywidgets.DOMWidget):
    ...     offline_module = "leaf"
    ...     size = traitlets.Int(3).tag(sync=True)
    >>> class Tree(ipywidgets.DOMWidget):
    ...     offline_module = "tree"
    ...     leaf = traitlets.Instance(Leaf).tag(sync=True, **ipywidgets.widget_serialization)
    >>> leaf = Leaf()
    >>> state = offline_state(Tree(leaf=leaf), table=[1])
    >>> state["model"]["leaf"], state["model"]["table"], state["children"]["c0"]["model"]["size"]
    ('IPY_MODEL_c0', [1], 3)
    >>> offline_state(leaf)["id"] == state["children"]["c0"]["id"] != state["id"]
    True
    """
    page_id = _page_id(widget)  # before its children's: ids follow the order of output
    children: dict[str, dict[str, Any]] = {}
    model = _traits(widget, children)
    model.update({name: _plain(value, children) for name, value in extra.items()})
    return {
        "module": _module_of(widget),
        "id": page_id,
        "model": model,
        "children": children,
    }
