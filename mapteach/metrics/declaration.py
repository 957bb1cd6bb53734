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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, get_args

import numpy as np

from mapteach.i18n import N_, tr
from mapteach.metrics.batch import RankedEntries, relevant_total
from mapteach.metrics.options import AGGREGATES, Aggregate, Denominator
from mapteach.metrics.ties import TieGroups

__all__ = [
    "COMBINES",
    "CUTOFFS",
    "CUTOFF_KINDS",
    "PARAM_KINDS",
    "REL",
    "TREC_EVAL_CUTOFFS",
    "Combine",
    "Cutoff",
    "CutoffKind",
    "Declaration",
    "Expectation",
    "Kernel",
    "Param",
    "ParamKind",
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

#: What a cutoff counts: ranks (``P@10``, an int >= 1) or a level (``IPrec@0.5``, a number >= 0).
CutoffKind = Literal["rank", "level"]
CUTOFF_KINDS: tuple[CutoffKind, ...] = get_args(CutoffKind)

#: The type of a measure's parameter value; "gains" is trec_eval's gain map ``1=3,2=9``.
ParamKind = Literal["int", "float", "str", "gains"]
PARAM_KINDS: tuple[ParamKind, ...] = get_args(ParamKind)

_NAME = re.compile(r"^[A-Za-z]+$")
_TREC_NAME = re.compile(r"^[A-Za-z_0-9]+$")
_PARAM_NAME = re.compile(r"^[a-z_]+$")


@dataclass(frozen=True)
class Param:
    """One parameter of a measure, as ir_measures names it: ``P(rel=2)@10``, ``RBP(p=0.5)``.

    Attributes
    ----------
    default : any
        Its value when it is not given; None for "not given" (RBP's ``rel``: graded gains).
    kind : {"int", "float", "str", "gains"}
        The type of its value; "gains" is a gain map, written ``1=3,2=9,4=4.5``.
    choices : tuple
        The values allowed, when only some are (nDCG's ``dcg``); empty for any.
    description : str
        One line on what it changes, in English (an ``N_`` message).
    minimum : float, optional
        The lowest value allowed, for a number (``rel`` >= 1), or the lowest grade
        a gain map may list.
    trec_eval_suffix : bool, default False
        Whether trec_eval writes it after the dot of the measure's name without a
        cutoff, and prints it as given (nDCG's gain map: ``ndcg.1=3,2=9`` printed
        ``ndcg_1=3,2=9``). At most one parameter of a measure is.

    Examples
    --------
    >>> from mapteach.metrics.declaration import Param
    >>> Param(0.8, "float", description="persistence").kind
    'float'
    """

    default: Any
    kind: ParamKind
    choices: tuple[Any, ...] = ()
    description: str = ""
    minimum: float | None = None
    trec_eval_suffix: bool = False

    def __post_init__(self) -> None:
        if self.kind not in PARAM_KINDS:
            raise ValueError(
                tr(
                    "a parameter's kind must be one of {kinds}; got {kind!r}.",
                    kinds=PARAM_KINDS,
                    kind=self.kind,
                )
            )
        if self.choices and self.default is not None and self.default not in self.choices:
            raise ValueError(
                tr(
                    "default {default!r} is not among choices {choices}.",
                    default=self.default,
                    choices=self.choices,
                )
            )


@dataclass(frozen=True)
class Parameters:
    """What a kernel or an expectation is called with: one measure's cutoff, the run's settings.

    Attributes
    ----------
    k : int or float, optional
        The measure's cutoff (``AP@10``, or a level such as ``IPrec@0.5``); None
        scores the whole list. The declaration's ``cutoff`` rule says whether it
        may, must or cannot be given, and its ``cutoff_kind`` which kind it is.
    threshold : int, default 1
        The lowest grade that counts as relevant (trec_eval ``-l``), >= 1: the
        measure's own ``rel`` when it is given (``P(rel=2)@10``), else the
        evaluation's; nDCG reads the grades themselves.
    denominator : {"relevant", "min_relevant_k", "retrieved"}, default "relevant"
        What the AP-type measures divide by; the others ignore it.
    params : mapping of str to any
        Every parameter the measure declares, with the defaults filled in.
    own_threshold : bool, default False
        Whether ``threshold`` is the measure's own ``rel``, unlike the evaluation's:
        R (and Bpref's N) are then counted at it from the judged grades
        (:func:`mapteach.metrics.batch.at_threshold`).
    """

    k: int | float | None = None
    threshold: int = 1
    denominator: Denominator = "relevant"
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    own_threshold: bool = False

    @property
    def rank_cutoff(self) -> int | None:
        """The cutoff as a rank, for a measure whose cutoffs are ranks (``P@10``: 10).

        Examples
        --------
        >>> from mapteach.metrics.declaration import Parameters
        >>> Parameters(k=10).rank_cutoff, Parameters().rank_cutoff
        (10, None)
        """
        return None if self.k is None else int(self.k)

    def n_relevant(self, entries: RankedEntries) -> np.ndarray:
        """R of each query at ``threshold``: the entries' own, or counted at the measure's rel.

        :func:`~mapteach.metrics.batch.batch_scores` already hands a kernel entries
        counted at its rel; this gives the same R either way.

        Examples
        --------
        >>> from mapteach.metrics.batch import RankedEntries
        >>> from mapteach.metrics.declaration import Parameters
        >>> entries = RankedEntries.from_lists([[2, 1, 0]])
        >>> own = Parameters(threshold=2, own_threshold=True)
        >>> Parameters().n_relevant(entries).tolist(), own.n_relevant(entries).tolist()
        ([2], [1])
        """
        return relevant_total(entries, self.threshold) if self.own_threshold else entries.n_relevant

    def check_expected(self, family: str) -> None:
        """Raise for ties="expected" with the measure's own rel, for a measure that cannot."""
        if self.own_threshold:
            raise ValueError(
                tr(
                    "{family} with its own rel cannot be averaged over tied orders "
                    "(ties='expected'); use the evaluation's relevance_threshold instead, "
                    "or another ties option.",
                    family=family,
                )
            )


#: trec_eval's default cutoffs of ``P``, ``recall``, ``map_cut`` and ``ndcg_cut`` (m_P.c ...).
TREC_EVAL_CUTOFFS: tuple[int, ...] = (5, 10, 15, 20, 30, 100, 200, 500, 1000)

#: ir_measures' ``rel`` of a measure: its own lowest relevant grade (``P(rel=2)@10``).
REL = Param(
    1,
    "int",
    description=N_("the lowest grade that counts as relevant for this measure alone"),
    minimum=1,
)


#: Scores one ranked list of 0/1 labels, given R, the cutoff k and, as keywords, the
#: measure's parameters other than ``rel`` (the labels are already 0/1).
Scorer = Callable[..., float]
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
    params : mapping of str to Param
        Its own parameters as ir_measures names them (``rel``, ``p``, ``dcg``, ...).
    cutoff_kind : {"rank", "level"}, default "rank"
        A cutoff is a rank, an int >= 1, or a level, a number >= 0 (a recall level
        for ``IPrec@0.5``, a multiple of R for ``RprecMult@0.2``).
    trec_eval_cutoffs : tuple of int or float
        trec_eval's cutoffs when ``-m name`` gives none (``P``: 5, 10, ..., 1000).

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
    params: Mapping[str, Param] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    cutoff_kind: CutoffKind = "rank"
    trec_eval_cutoffs: tuple[int | float, ...] = ()

    def __post_init__(self) -> None:
        for spelling in (self.name, *self.aliases):
            if not _NAME.match(spelling):
                raise ValueError(
                    tr(
                        "measure name {spelling!r} must be letters only, such as 'AP'.",
                        spelling=spelling,
                    )
                )
        for trec_name in (self.trec_eval, self.trec_eval_cut):
            if trec_name is not None and not _TREC_NAME.match(trec_name):
                raise ValueError(
                    tr(
                        "{name}: trec_eval name {trec_name!r} must be letters, digits and _.",
                        name=self.name,
                        trec_name=trec_name,
                    )
                )
        if self.cutoff not in CUTOFFS or self.combine not in COMBINES:
            raise ValueError(
                tr(
                    "{name}: cutoff must be one of {cutoffs} and combine one of {combines}; got "
                    "{cutoff!r} and {combine!r}.",
                    name=self.name,
                    cutoffs=CUTOFFS,
                    combines=COMBINES,
                    cutoff=self.cutoff,
                    combine=self.combine,
                )
            )
        if self.trec_eval is not None and self.cutoff == "required":
            raise ValueError(
                tr("{name} needs a cutoff: its trec_eval name is trec_eval_cut.", name=self.name)
            )
        if self.trec_eval_cut is not None and self.cutoff == "none":
            raise ValueError(
                tr("{name} takes no cutoff, so it has no trec_eval_cut name.", name=self.name)
            )
        self._check_params()

    def _check_params(self) -> None:
        """Check the parameter names, the cutoff kind and trec_eval's default cutoffs."""
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        for param_name, param in self.params.items():
            if not _PARAM_NAME.match(param_name) or not isinstance(param, Param):
                raise ValueError(
                    tr(
                        "{name}: parameter {param!r} must be lower-case letters and _, "
                        "declared with a Param.",
                        name=self.name,
                        param=param_name,
                    )
                )
        if self.cutoff_kind not in CUTOFF_KINDS:
            raise ValueError(
                tr(
                    "{name}: cutoff_kind must be one of {kinds}; got {kind!r}.",
                    name=self.name,
                    kinds=CUTOFF_KINDS,
                    kind=self.cutoff_kind,
                )
            )
        if sum(param.trec_eval_suffix for param in self.params.values()) > 1:
            raise ValueError(
                tr("{name}: at most one parameter is trec_eval's suffix.", name=self.name)
            )
        if self.trec_eval_cutoffs and self.trec_eval_cut is None:
            raise ValueError(
                tr("{name}: trec_eval_cutoffs need a trec_eval_cut name.", name=self.name)
            )

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
