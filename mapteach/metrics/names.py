"""Measure names as ir_measures spells them (``AP@10``), or as trec_eval does (``map_cut.10``).

This module only reads names: every spelling, cutoff rule and description comes
from the measures' declarations (:mod:`mapteach.metrics.registry`). A parsed name
is a :class:`Measure`: a declared measure and an optional cutoff.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import tr
from mapteach.metrics.declaration import Declaration, Parameters
from mapteach.metrics.gmap import geometric_mean
from mapteach.metrics.options import AGGREGATES, Aggregate, Denominator
from mapteach.metrics.registry import REGISTRY, SPELLINGS, TREC_EVAL_NAMES
from mapteach.metrics.validation import as_labels, as_n_relevant, check_choice

__all__ = [
    "DEFAULT_MEASURES",
    "FAMILIES",
    "Labels",
    "Measure",
    "parse_measure",
    "parse_measures",
]

#: What ``evaluate`` and ``python -m mapteach evaluate`` report when no measure is named.
DEFAULT_MEASURES: tuple[str, ...] = ("AP", "AP@10", "P@10", "R@100", "RR", "nDCG@10")

#: One ranked list of 0/1 (or bool) relevance labels, best first.
Labels = ArrayLike

#: Every measure's declaration by name, read-only: the registry, under its old name.
FAMILIES: Mapping[str, Declaration] = REGISTRY

_PATTERN = re.compile(r"^(?P<family>[A-Za-z]+)(?:@(?P<k>\d+))?$")
_TREC_PATTERN = re.compile(r"^(?P<name>[A-Za-z_]+?)(?:[._](?P<k>\d+))?$")


@dataclass(frozen=True)
class Measure:
    """A parsed measure: a declared measure, by name, and an optional rank cutoff ``k``."""

    family: str
    k: int | None = None

    @property
    def declaration(self) -> Declaration:
        """Everything declared about the measure (:mod:`mapteach.metrics.declaration`)."""
        return REGISTRY[self.family]

    @property
    def name(self) -> str:
        """The canonical name, such as ``AP@10``."""
        return self.family if self.k is None else f"{self.family}@{self.k}"

    @property
    def description(self) -> str:
        """One line on what the measure computes, in the current language."""
        return tr(self.declaration.description)

    @property
    def reads_judged(self) -> bool:
        """Whether the measure tells judged non-relevant documents from unjudged ones."""
        return self.declaration.reads_judged

    def parameters(self, *, threshold: int, denominator: Denominator) -> Parameters:
        """What its kernel and expectation are called with, under an evaluation's settings."""
        return Parameters(self.k, threshold, denominator)

    def score(self, labels: Labels, *, n_relevant: int | None = None) -> float:
        """Score one ranked list of 0/1 labels whose query has R = ``n_relevant``.

        Every listed document counts as judged (Bpref, Judged), and the list's
        zeros are all the query's judged non-relevant documents (Bpref's N).

        Examples
        --------
        >>> from mapteach.metrics import parse_measure
        >>> parse_measure("AP@3").score([1, 0, 1, 1], n_relevant=3)  # (1/1 + 2/3) / 3
        0.5555555555555555
        >>> parse_measure("Rprec").score([1, 0, 1, 1], n_relevant=3)  # 2 hits in the top 3
        0.6666666666666666
        """
        y = as_labels(labels)
        r = as_n_relevant(n_relevant, int(y.sum()))
        return self.declaration.score(y, r, self.k)

    def over_queries(self, values: ArrayLike, *, aggregate: Aggregate = "mean") -> float:
        """The run's value from the per-query ``values``, as trec_eval's ``all`` line has it.

        Counts are summed; GMAP takes the geometric mean (each value floored at
        1e-5); the rest the mean, or the geometric mean too with
        ``aggregate="gm"``. NaN when there is no value to average.

        Examples
        --------
        >>> from mapteach.metrics import parse_measure
        >>> parse_measure("AP").over_queries([0.5, 0.125])  # MAP
        0.3125
        >>> round(parse_measure("GMAP").over_queries([0.5, 0.125]), 4)  # sqrt(0.5 * 0.125)
        0.25
        >>> parse_measure("NumRet").over_queries([10.0, 7.0])
        17.0
        """
        check_choice(aggregate, AGGREGATES, name="aggregate")
        array = np.asarray(values, dtype=float)
        combine = self.declaration.combine
        if combine == "sum":
            return float(array.sum())
        if array.size == 0:
            return float("nan")
        if combine == "gm" or aggregate == "gm":
            return geometric_mean(array)
        return float(array.mean())

    def __str__(self) -> str:
        return self.name


def _unknown(name: str) -> ValueError:
    known = ", ".join(REGISTRY)
    return ValueError(
        tr(
            "unknown measure {name!r}; use one of {known} (Hit for Success), optionally with a "
            "cutoff such as '@10', or a trec_eval name such as map, P.10, ndcg_cut.10, bpref.",
            name=name,
            known=known,
        )
    )


def _family_and_cutoff(name: str) -> tuple[str, str | None]:
    """The measure and cutoff text of an ir_measures or trec_eval name; raise if unknown."""
    text = name.strip()
    match = _PATTERN.match(text)
    if match and match["family"] in SPELLINGS:
        return SPELLINGS[match["family"]].name, match["k"]
    match = _TREC_PATTERN.match(text)
    if not match or match["name"] not in TREC_EVAL_NAMES:
        raise _unknown(name)
    declaration, takes_cutoff = TREC_EVAL_NAMES[match["name"]]
    if takes_cutoff and match["k"] is None:
        raise ValueError(
            tr(
                "trec_eval's {measure} needs one cutoff here, such as '{measure}.10'; got "
                "{name!r}.",
                measure=match["name"],
                name=name,
            )
        )
    if not takes_cutoff and match["k"] is not None:
        raise ValueError(
            tr(
                "trec_eval's {measure} takes no cutoff; got {name!r}.",
                measure=match["name"],
                name=name,
            )
        )
    return declaration.name, match["k"]


def parse_measure(name: str) -> Measure:
    """Parse a measure name as ir_measures or trec_eval writes it.

    The names, their aliases, trec_eval's names and the cutoff rules are the
    measures' declarations (``python -m mapteach evaluate --help`` lists them):
    ir_measures' spelling, such as ``AP`` or its alias ``MAP``, followed by
    ``@k`` where the measure takes a cutoff; or trec_eval's, with ``.k`` or
    ``_k`` where it takes one (``map_cut.10``, ``P_5``). ``MAP`` and ``MRR``
    are read as ``AP`` and ``RR``: the mean over queries is taken by whoever
    averages. trec_eval's default list of cutoffs (``-m P`` for P_5 ... P_1000)
    is not read: name one.

    Parameters
    ----------
    name : str
        Such as ``"AP"``, ``"AP@10"``, ``"P@5"``, ``"nDCG@10"``, ``"ndcg_cut.10"``.

    Returns
    -------
    Measure

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    ValueError
        If the name is unknown, a required cutoff is missing, a cutoff is given
        to a measure that takes none, or k < 1.

    Examples
    --------
    >>> from mapteach.metrics import parse_measure
    >>> parse_measure("AP@10")
    Measure(family='AP', k=10)
    >>> parse_measure("Hit@3").name
    'Success@3'
    >>> parse_measure("ndcg_cut.10").name, parse_measure("num_rel_ret").name
    ('nDCG@10', 'NumRelRet')
    """
    if not isinstance(name, str):
        raise TypeError(
            tr("a measure name must be a string such as 'AP@10'; got {name!r}.", name=name)
        )
    family, cutoff = _family_and_cutoff(name)
    k = None if cutoff is None else int(cutoff)
    if k is not None and k < 1:
        raise ValueError(tr("the cutoff in {name!r} must be >= 1.", name=name))
    rule = REGISTRY[family].cutoff
    if k is None and rule == "required":
        raise ValueError(
            tr(
                "{family} needs a cutoff, such as '{family}@10'; got {name!r}.",
                family=family,
                name=name,
            )
        )
    if k is not None and rule == "none":
        raise ValueError(tr("{family} takes no cutoff; got {name!r}.", family=family, name=name))
    return Measure(family, k)


def parse_measures(names: str | Iterable[str]) -> dict[str, Measure]:
    """Parse several measure names, each given once; a single string is one name.

    Parameters
    ----------
    names : str or iterable of str
        Names as :func:`parse_measure` reads them.

    Returns
    -------
    dict of str to Measure
        Each name as given, in order, with its measure.

    Raises
    ------
    TypeError
        If ``names`` is not a string or an iterable of strings.
    ValueError
        If a name is unknown, or two names name the same measure (``AP`` and
        ``map``), or there is no name at all.

    Examples
    --------
    >>> from mapteach.metrics.names import parse_measures
    >>> {name: m.name for name, m in parse_measures(["map", "P.10"]).items()}
    {'map': 'AP', 'P.10': 'P@10'}
    >>> list(parse_measures("AP"))  # one name, not the letters A and P
    ['AP']
    >>> parse_measures(["AP", "map"])
    Traceback (most recent call last):
    ...
    ValueError: measures 'AP' and 'map' both name AP; give each measure once.
    """
    if isinstance(names, str):
        names = [names]
    elif not isinstance(names, Iterable):
        raise TypeError(
            tr(
                "measures must be a measure name or a list of them; got {type}.",
                type=type(names).__name__,
            )
        )
    parsed: dict[str, Measure] = {}
    seen: dict[Measure, str] = {}
    for name in names:
        measure = parse_measure(name)
        if measure in seen:
            raise ValueError(
                tr(
                    "measures {first!r} and {second!r} both name {measure}; give each measure "
                    "once.",
                    first=seen[measure],
                    second=name,
                    measure=measure.name,
                )
            )
        seen[measure] = name
        parsed[name] = measure
    if not parsed:
        raise ValueError(tr("measures is empty; name at least one measure, such as 'AP'."))
    return parsed
