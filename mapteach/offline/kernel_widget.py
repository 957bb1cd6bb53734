"""The boards' widgets take from the browser only what their views change.

ipywidgets applies every trait a page sends (``Widget.set_state`` calls ``set_trait``,
which ignores ``read_only``), so a page could set a list's ``ap``, its ``heading`` or
``fixed_relevance``, or a board's ``map_value``, and the kernel would keep it. A
:class:`KernelOwnedWidget` names the few traits its view changes (``browser_traits``);
any other trait a page sends is dropped, and the kernel's value is sent back, so the
page shows it again. Displayed, such a widget's ``text/html`` is its fallback for a page
without a kernel (``_fallback_html``, :func:`~mapteach.offline.offline_html`).
"""

from __future__ import annotations

from typing import Any, ClassVar

import anywidget

__all__ = ["KernelOwnedWidget"]


class KernelOwnedWidget(anywidget.AnyWidget):
    """An anywidget whose kernel owns every trait but its view's ``browser_traits``."""

    #: The traits the widget's browser view changes; the kernel owns all the others.
    browser_traits: ClassVar[frozenset[str]] = frozenset()

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Apply a change from the browser to ``browser_traits``; drop every other trait.

        A dropped trait that the widget syncs is sent back to the browser as the kernel
        holds it.

        Examples
        --------
        >>> from mapteach.board import RankingList
        >>> ranking = RankingList([1, 0, 1])
        >>> ranking.set_state({"ap": 0.99, "heading": "forged", "k": 1})  # from a page
        >>> ranking.k, ranking.ap, ranking.heading  # AP@1 = (1/1) / 2
        (1, 0.5, '')
        """
        kept = {name: value for name, value in sync_data.items() if name in self.browser_traits}
        super().set_state(kept)
        dropped = [name for name in sync_data if name not in kept and name in self.keys]
        if dropped:
            self.send_state(dropped)

    def _fallback_html(self) -> str | None:
        """The widget's ``text/html`` for a page without a kernel; None: none is shown."""
        return None

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """The live widget, with its fallback (:meth:`_fallback_html`) as ``text/html``.

        Examples
        --------
        >>> from mapteach.board import RankingList
        >>> data, _ = RankingList([1, 0])._repr_mimebundle_()
        >>> data["text/html"].startswith('<div class="mapteach-offline" data-module="ranking_list"')
        True
        >>> sorted(data)
        ['application/vnd.jupyter.widget-view+json', 'text/html', 'text/plain']
        """
        data, metadata = super()._repr_mimebundle_(**kwargs) or ({}, {})
        fallback = self._fallback_html()
        if fallback is not None:
            data["text/html"] = fallback
        return data, metadata
