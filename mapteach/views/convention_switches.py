"""Convention switches: one drop-down per convention, and the MAP they give, live."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

import pandas as pd

from mapteach.metrics.options import DENOMINATORS, MISSING, NO_RELEVANT, TIES
from mapteach.runs.evaluate import evaluate
from mapteach.runs.trec import as_qrels, as_run

__all__ = ["ConventionSwitches"]


class ConventionSwitches:
    """Drop-downs for every convention, and the MAP they give, recomputed on each change.

    Examples
    --------
    >>> from mapteach.views.convention_switches import ConventionSwitches
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
    #: an empty query offers no "error", which a drop-down could only show as a traceback.
    OPTIONS: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType(
        {
            "ties": TIES,
            "denominator": tuple(d for d in DENOMINATORS if d in ("relevant", "retrieved")),
            "no_relevant": tuple(choice for choice in NO_RELEVANT if choice != "error"),
            "missing": MISSING,
            "cutoff": ("none", "3", "5", "10"),
        }
    )

    def __init__(self, qrels: Any, run: Any) -> None:
        import ipywidgets

        self.qrels, self.run = as_qrels(qrels), as_run(run)
        self.controls = {
            name: ipywidgets.Dropdown(options=options, description=name.replace("_", " "))
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

    def _table(self) -> pd.DataFrame:
        options = {name: c.value for name, c in self.controls.items() if name != "cutoff"}
        cutoff = self.controls["cutoff"].value
        measure = "AP" if cutoff == "none" else f"AP@{cutoff}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return evaluate(self.qrels, self.run, [measure], **options)

    def _limit_denominator(self, change: Any) -> None:
        """Tie-aware scores need a fixed denominator: offer only R with ties='expected'."""
        allowed = ("relevant",) if change.new == "expected" else self.OPTIONS["denominator"]
        self.controls["denominator"].options = allowed

    def value(self) -> float:
        """MAP under the current switches."""
        return self.map

    def _refresh(self) -> None:
        table = self._table()
        self.map = float(table.iloc[:, 0].mean())
        self.output.value = (
            f'<p style="font-size:16px"><b>MAP = {self.map:.4f}</b> over '
            f"{len(table)} queries</p>" + table.round(4).to_html()
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = self.widget._repr_mimebundle_(**kwargs)
        data["text/plain"] = repr(self)
        data["text/html"] = self.output.value
        return data

    def __repr__(self) -> str:
        return f"ConventionSwitches(MAP = {self.value():.4f})"
