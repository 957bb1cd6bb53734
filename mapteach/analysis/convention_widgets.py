"""Convention switches: one drop-down per convention, and the MAP they give, live.

The drop-downs' captions, their choices and the readout speak the language current
when the switches are made, or their ``lang=``: each caption is the checklist item's
name and each choice its name in words (:mod:`mapteach.analysis.convention_names`),
while a drop-down's ``value`` is the option value the measures take
(``ties="expected"``), as it is typed in code. Each caption is shown whole, and the
per-query table has one header row, its query column included.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

import pandas as pd

from mapteach.analysis.convention_names import CHECKLIST_NAMES, choice_name
from mapteach.explain.display import display_table
from mapteach.i18n import language, tr, widget_language
from mapteach.metrics.options import DENOMINATORS, MISSING, NO_RELEVANT, TIES
from mapteach.runs.evaluation import evaluate
from mapteach.runs.frames import as_qrels, as_run

__all__ = ["ConventionSwitches"]


class ConventionSwitches:
    """Drop-downs for every convention, and the MAP they give, recomputed on each change.

    Examples
    --------
    >>> from mapteach.analysis import ConventionSwitches
    >>> run = {"q": {"a": 1.0, "b": 1.0, "c": 2.0}}
    >>> switches = ConventionSwitches({"q": {"a": 1, "b": 1}}, run)
    >>> switches.value()  # c first, then a and b tied: (1/2 + 2/3) / 2
    0.5833333333333333
    >>> switches.controls["ties"].value = "expected"
    >>> switches.value()  # either order of the tie gives the same AP here
    0.5833333333333333
    """

    #: Each drop-down's choices, read-only, taken from the option vocabularies. The
    #: denominator offers R against the hits retrieved, the contrast article 003 draws;
    #: an empty query offers no "error", which a drop-down could only show as a traceback,
    #: nor does a missing query (trec_eval 9's "ignore" first, then -c's "zero").
    OPTIONS: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType(
        {
            "ties": TIES,
            "denominator": tuple(d for d in DENOMINATORS if d in ("relevant", "retrieved")),
            "no_relevant": tuple(choice for choice in NO_RELEVANT if choice != "error"),
            "missing": tuple(choice for choice in reversed(MISSING) if choice != "error"),
            "cutoff": ("none", "3", "5", "10"),
        }
    )

    def __init__(self, qrels: Any, run: Any, *, lang: str | None = None) -> None:
        import ipywidgets

        #: The language of the captions and the readout, fixed when they are made.
        self.lang = widget_language(lang)
        with language(self.lang):
            self.qrels, self.run = as_qrels(qrels), as_run(run)
        self.controls = {
            name: ipywidgets.Dropdown(
                options=self._choices(name, options),
                description=tr(CHECKLIST_NAMES[name], lang=self.lang),
                # as wide as its caption: the default width cuts "denominator" short
                style={"description_width": "initial"},
            )
            for name, options in self.OPTIONS.items()
        }
        self.output = ipywidgets.HTML()
        self.map = 0.0
        # registered first, so the denominator is valid before MAP is recomputed
        self.controls["ties"].observe(self._limit_denominator, names="value")
        for control in self.controls.values():
            control.observe(lambda _: self._refresh(), names="value")
        self.widget = ipywidgets.VBox(
            [
                ipywidgets.HBox(list(self.controls.values())[:3]),
                ipywidgets.HBox(list(self.controls.values())[3:]),
                self.output,
            ]
        )
        self._refresh()

    def _choices(self, name: str, options: tuple[str, ...]) -> list[tuple[str, str]]:
        """A drop-down's choices: (its name in words, the option value) for each option."""
        return [(choice_name(name, None if o == "none" else o, lang=self.lang), o) for o in options]

    def _table(self) -> pd.DataFrame:
        options = {name: c.value for name, c in self.controls.items() if name != "cutoff"}
        cutoff = self.controls["cutoff"].value
        measure = "AP" if cutoff == "none" else f"AP@{cutoff}"
        with warnings.catch_warnings(), language(self.lang):
            warnings.simplefilter("ignore", UserWarning)
            return evaluate(self.qrels, self.run, [measure], **options)

    def _limit_denominator(self, change: Any) -> None:
        """Tie-aware scores need a fixed denominator: offer only R with ties='expected'."""
        allowed = ("relevant",) if change.new == "expected" else self.OPTIONS["denominator"]
        self.controls["denominator"].options = self._choices("denominator", allowed)

    def value(self) -> float:
        """MAP under the current switches."""
        return self.map

    def _refresh(self) -> None:
        table = self._table()
        self.map = float(table.iloc[:, 0].mean())
        readout = tr(
            "<b>MAP = {map:.4f}</b> over {n} queries", lang=self.lang, map=self.map, n=len(table)
        )
        self.output.value = f'<p style="font-size:16px">{readout}</p>' + self._table_html(table)

    def _table_html(self, table: pd.DataFrame) -> str:
        """The per-query table in the switches' language: the query ids a column, one header row."""
        shown = display_table(table.reset_index(), lang=self.lang, digits=4)
        return str(shown.to_html(index=False, float_format="{:.4f}".format))

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = self.widget._repr_mimebundle_(**kwargs)
        data["text/plain"] = repr(self)
        data["text/html"] = self.output.value
        return data

    def __repr__(self) -> str:
        return f"ConventionSwitches(MAP = {self.value():.4f})"
