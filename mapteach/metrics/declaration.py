"""A measure's declaration: everything the package knows about one measure, written once.

As trec_eval's ``m_*.c`` files and ir_measures' measure classes do, each measure
module (``average_precision.py``, ``precision.py``, ...) declares its measure
beside its scalar function: the name as ir_measures spells it, its other
spellings (trec_eval's among them), its cutoff rule, a one-line help, how to
score one ranked list, its batch kernel, its tie-aware expectation, and how its
per-query values combine over queries. :mod:`mapteach.metrics.registry` collects
the declarations; the names, the command line's help and README's measure table
are all read from there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np

from mapteach.metrics.batch import RankedEntries
from mapteach.metrics.options import AGGREGATES, Aggregate, Denominator
from mapteach.metrics.ties import TieGroups

__all__ = [
    "COMBINES",
    "CUTOFFS",
    "Combine",
    "Cutoff",
    "Declaration",
    "Expectation",
    "Kernel",
    "Parameters",
    "Scorer",
]

#: Whether a measure takes a cutoff ``@k``: it may, it must, or it takes none.
Cutoff = Literal["optional", "required", "none"]
CUTOFFS: tuple[Cutoff, ...] = get_args(Cutoff)

#: How a measure's per-query values combine over queries: an ``Aggregate``, or a sum
#: (the counts, as trec_eval and ir_measures total them).
Combine = Aggregate | Literal["sum"]
COMBINES: tuple[str, ...] = (*AGGREGATES, "sum")

_NAME = re.compile(r"^[A-Za-z]+$")
_TREC_NAME = re.compile(r"^[A-Za-z_]+$")


@dataclass(frozen=True)
class Parameters:
    """What a kernel or an expectation is called with: one measure's cutoff, the run's settings.

    Attributes
    ----------
    k : int, optional
        The measure's cutoff (``AP@10``); None scores the whole list. The
        declaration's ``cutoff`` rule says whether it may, must or cannot be given.
    threshold : int, default 1
        The lowest grade that counts as relevant (trec_eval ``-l``), >= 1, for every
        measure of the evaluation; nDCG reads the grades themselves.
    denominator : {"relevant", "min_relevant_k", "retrieved"}, default "relevant"
        What the AP-type measures divide by; the others ignore it.
    """

    k: int | None = None
    threshold: int = 1
    denominator: Denominator = "relevant"


#: Scores one ranked list of 0/1 labels, given R and the cutoff k.
Scorer = Callable[[np.ndarray, int, int | None], float]
#: Scores every query of a run at once.
Kernel = Callable[[RankedEntries, Parameters], np.ndarray]
#: The tie-aware expected value of every query, from the run's tie groups.
Expectation = Callable[[RankedEntries, TieGroups, Parameters], np.ndarray]


def _forms(name: str, cutoff: Cutoff, separator: str) -> tuple[str, ...]:
    with_k = f"{name}{separator}k"
    return {"optional": (name, with_k), "required": (with_k,), "none": (name,)}[cutoff]


@dataclass(frozen=True)
class Declaration:
    """One measure, declared once: its names, rules, help and every way of computing it.

    Attributes
    ----------
    name : str
        As ir_measures spells it: ``AP``, ``P``, ``nDCG``, ``Success`` ...
    description : str
        One line on what it computes, in English (an ``N_`` message: ``tr`` shows it).
    cutoff : {"optional", "required", "none"}
        Whether ``@k`` may, must or cannot follow the name.
    score : callable (labels, R, k) -> float
        One ranked list of 0/1 labels whose query has R relevant documents.
    kernel : callable (RankedEntries, Parameters) -> array
        Every query of a run at once, bit-identical to ``score``.
    expectation : callable (RankedEntries, TieGroups, Parameters) -> array
        The exact mean over every order of each group of tied scores; it raises
        for a measure with no closed form.
    trec_eval : str, optional
        trec_eval's name for it without a cutoff (``map``).
    trec_eval_cut : str, optional
        trec_eval's name for it with one cutoff (``map_cut``, written ``map_cut.10``).
    aliases : tuple of str
        Other spellings of ``name``, with the same cutoff rule (``MAP``, ``Hit``).
    combine : {"mean", "gm", "sum"}, default "mean"
        How its per-query values become the run's value.
    reads_judged : bool, default False
        Whether it tells judged non-relevant documents from unjudged ones.
    ap_type : bool, default False
        Whether it divides by the ``denominator`` option and scores 1 for a query
        with R = 0 under ``no_relevant="one"``, as AP does.

    Examples
    --------
    >>> from mapteach.metrics.registry import REGISTRY
    >>> ap = REGISTRY["AP"]
    >>> ap.forms(), ap.alias_forms(), ap.trec_eval_forms()
    (('AP', 'AP@k'), ('MAP', 'MAP@k'), ('map', 'map_cut.k'))
    """

    name: str
    description: str
    cutoff: Cutoff
    score: Scorer
    kernel: Kernel
    expectation: Expectation
    trec_eval: str | None = None
    trec_eval_cut: str | None = None
    aliases: tuple[str, ...] = ()
    combine: Combine = "mean"
    reads_judged: bool = False
    ap_type: bool = False

    def __post_init__(self) -> None:
        for spelling in (self.name, *self.aliases):
            if not _NAME.match(spelling):
                raise ValueError(f"measure name {spelling!r} must be letters only, such as 'AP'.")
        for trec_name in (self.trec_eval, self.trec_eval_cut):
            if trec_name is not None and not _TREC_NAME.match(trec_name):
                raise ValueError(
                    f"{self.name}: trec_eval name {trec_name!r} must be letters and _."
                )
        if self.cutoff not in CUTOFFS or self.combine not in COMBINES:
            raise ValueError(
                f"{self.name}: cutoff must be one of {CUTOFFS} and combine one of {COMBINES}; "
                f"got {self.cutoff!r} and {self.combine!r}."
            )
        if self.trec_eval is not None and self.cutoff == "required":
            raise ValueError(f"{self.name} needs a cutoff: its trec_eval name is trec_eval_cut.")
        if self.trec_eval_cut is not None and self.cutoff == "none":
            raise ValueError(f"{self.name} takes no cutoff, so it has no trec_eval_cut name.")

    def forms(self) -> tuple[str, ...]:
        """How its name is written: ``("AP", "AP@k")``, ``("P@k",)`` or ``("Rprec",)``."""
        return _forms(self.name, self.cutoff, "@")

    def alias_forms(self) -> tuple[str, ...]:
        """How its aliases are written, as :meth:`forms`."""
        return tuple(form for alias in self.aliases for form in _forms(alias, self.cutoff, "@"))

    def trec_eval_forms(self) -> tuple[str, ...]:
        """How trec_eval writes it: ``("map", "map_cut.k")``; empty if trec_eval has no name."""
        plain = () if self.trec_eval is None else (self.trec_eval,)
        cut = () if self.trec_eval_cut is None else (f"{self.trec_eval_cut}.k",)
        return plain + cut
