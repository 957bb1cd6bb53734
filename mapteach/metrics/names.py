"""Measure names as ir_measures spells them (``AP@10``), or as trec_eval does (``map_cut.10``).

One declaration per measure family gives its name, its cutoff rule, a one-line
description, how to score one ranked list of 0/1 labels, how its per-query values
combine over queries, and whether it reads which documents are judged.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_, tr
from mapteach.metrics._validation import as_k, as_labels, as_n_relevant, check_choice
from mapteach.metrics.average_precision import average_precision
from mapteach.metrics.bpref import bpref
from mapteach.metrics.counts import num_relevant, num_relevant_retrieved, num_retrieved
from mapteach.metrics.gmap import geometric_mean
from mapteach.metrics.hit import hit_at_k
from mapteach.metrics.judged import judged_at_k
from mapteach.metrics.ndcg import ndcg_at_k
from mapteach.metrics.options import AGGREGATES, Aggregate
from mapteach.metrics.precision import precision_at_k
from mapteach.metrics.r_precision import r_precision
from mapteach.metrics.recall import recall_at_k
from mapteach.metrics.reciprocal_rank import reciprocal_rank

__all__ = [
    "DEFAULT_MEASURES",
    "FAMILIES",
    "Family",
    "Labels",
    "Measure",
    "parse_measure",
    "parse_measures",
]

#: What ``evaluate`` and ``python -m mapteach evaluate`` report when no measure is named.
DEFAULT_MEASURES: tuple[str, ...] = ("AP", "AP@10", "P@10", "R@100", "RR", "nDCG@10")

#: One ranked list of 0/1 (or bool) relevance labels, best first.
Labels = ArrayLike

#: Whether a family takes a cutoff ``@k``: it may, it must, or it takes none.
Cutoff = Literal["optional", "required", "none"]

#: How a family's per-query values combine over queries: an ``Aggregate``, or a sum
#: (the counts, as trec_eval and ir_measures total them).
Combine = Aggregate | Literal["sum"]


@dataclass(frozen=True)
class Family:
    """A measure family such as AP: its name, cutoff rule, description and scorer.

    ``combine`` says how per-query values become the run's value; ``reads_judged``
    marks the families that tell judged non-relevant documents from unjudged ones.
    """

    name: str
    cutoff: Cutoff
    description: str
    score: Callable[[np.ndarray, int, int | None], float]
    combine: Combine = "mean"
    reads_judged: bool = False


def _ndcg(labels: np.ndarray, r: int, k: int | None) -> float:
    # Without a cutoff the ideal ranking holds all R relevant documents.
    return ndcg_at_k(labels, k or max(labels.size, r, 1), ideal=np.ones(r))


#: Every measure family by name, read-only: a measure is added here, not by callers.
FAMILIES: Mapping[str, Family] = MappingProxyType(
    {
        family.name: family
        for family in (
            Family(
                "AP",
                "optional",
                N_(
                    "average precision: mean of P@i over the ranks i of relevant documents, "
                    "over R (trec_eval map / map_cut_k)"
                ),
                lambda y, r, k: average_precision(y, n_relevant=r, k=k),
            ),
            Family(
                "P",
                "required",
                N_("precision at k: relevant documents in the top k, over k (trec_eval P_k)"),
                lambda y, r, k: precision_at_k(y, as_k(k)),
            ),
            Family(
                "R",
                "required",
                N_("recall at k: relevant documents in the top k, over R (trec_eval recall_k)"),
                lambda y, r, k: recall_at_k(y, as_k(k), n_relevant=r),
            ),
            Family(
                "RR",
                "optional",
                N_(
                    "reciprocal rank: 1 / rank of the first relevant document (trec_eval "
                    "recip_rank)"
                ),
                lambda y, r, k: reciprocal_rank(y, k=k),
            ),
            Family(
                "nDCG",
                "optional",
                N_(
                    "normalised discounted cumulative gain, linear gain and log2 discount "
                    "(trec_eval ndcg / ndcg_cut_k)"
                ),
                _ndcg,
            ),
            Family(
                "Success",
                "required",
                N_(
                    "hit at k: 1 if any relevant document is in the top k, else 0 (also "
                    "written Hit@k; "
                    "trec_eval success_k)"
                ),
                lambda y, r, k: hit_at_k(y, as_k(k)),
            ),
            Family(
                "Rprec",
                "none",
                N_("R-precision: relevant documents in the top R, over R (trec_eval Rprec)"),
                lambda y, r, k: r_precision(y, n_relevant=r),
            ),
            Family(
                "Bpref",
                "none",
                N_(
                    "binary preference: judged relevant before judged non-relevant, unjudged "
                    "skipped (trec_eval bpref)"
                ),
                lambda y, r, k: bpref(y, n_relevant=r),
                reads_judged=True,
            ),
            Family(
                "Judged",
                "optional",
                N_("judgment rate: share of the top k (or of a shorter list) that the qrels judge"),
                lambda y, r, k: judged_at_k(np.ones(y.size, bool), k),
                reads_judged=True,
            ),
            Family(
                "NumRet",
                "none",
                N_("results retrieved, summed over queries (trec_eval num_ret)"),
                lambda y, r, k: num_retrieved(y),
                combine="sum",
            ),
            Family(
                "NumRel",
                "none",
                N_(
                    "R, relevant documents retrieved or not, summed over queries (trec_eval "
                    "num_rel)"
                ),
                lambda y, r, k: num_relevant(y, n_relevant=r),
                combine="sum",
            ),
            Family(
                "NumRelRet",
                "none",
                N_("relevant documents retrieved, summed over queries (trec_eval num_rel_ret)"),
                lambda y, r, k: num_relevant_retrieved(y),
                combine="sum",
            ),
            Family(
                "GMAP",
                "optional",
                N_(
                    "AP per query, geometric mean over queries, each AP floored at 1e-5 "
                    "(trec_eval gm_map)"
                ),
                lambda y, r, k: average_precision(y, n_relevant=r, k=k),
                combine="gm",
            ),
        )
    }
)

_ALIASES = {"Hit": "Success", "MAP": "AP", "MRR": "RR", "RPrec": "Rprec", "BPref": "Bpref"}
_PATTERN = re.compile(r"^(?P<family>[A-Za-z]+)(?:@(?P<k>\d+))?$")

#: trec_eval's names: each one's family, and whether it takes a cutoff (``P.10``, ``P_10``).
#: trec_eval's default list of cutoffs (``-m P`` for P_5 ... P_1000) is not read: name one.
_TREC_NAMES: Mapping[str, tuple[str, bool]] = MappingProxyType(
    {
        "map": ("AP", False),
        "map_cut": ("AP", True),
        "P": ("P", True),
        "recall": ("R", True),
        "recip_rank": ("RR", False),
        "ndcg": ("nDCG", False),
        "ndcg_cut": ("nDCG", True),
        "success": ("Success", True),
        "Rprec": ("Rprec", False),
        "bpref": ("Bpref", False),
        "num_ret": ("NumRet", False),
        "num_rel": ("NumRel", False),
        "num_rel_ret": ("NumRelRet", False),
        "gm_map": ("GMAP", False),
    }
)
_TREC_PATTERN = re.compile(r"^(?P<name>[A-Za-z_]+?)(?:[._](?P<k>\d+))?$")


@dataclass(frozen=True)
class Measure:
    """A parsed measure: a family and an optional rank cutoff ``k``."""

    family: str
    k: int | None = None

    @property
    def name(self) -> str:
        """The canonical name, such as ``AP@10``."""
        return self.family if self.k is None else f"{self.family}@{self.k}"

    @property
    def description(self) -> str:
        """One line on what the measure computes, in the current language."""
        return tr(FAMILIES[self.family].description)

    @property
    def reads_judged(self) -> bool:
        """Whether the measure tells judged non-relevant documents from unjudged ones."""
        return FAMILIES[self.family].reads_judged

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
        return FAMILIES[self.family].score(y, r, self.k)

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
        combine = FAMILIES[self.family].combine
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
    known = ", ".join(FAMILIES)
    return ValueError(
        tr(
            "unknown measure {name!r}; use one of {known} (Hit for Success), optionally with a "
            "cutoff such as '@10', or a trec_eval name such as map, P.10, ndcg_cut.10, bpref.",
            name=name,
            known=known,
        )
    )


def _family_and_cutoff(name: str) -> tuple[str, str | None]:
    """The family and cutoff text of an ir_measures or trec_eval name; raise if unknown."""
    text = name.strip()
    match = _PATTERN.match(text)
    if match and _ALIASES.get(match["family"], match["family"]) in FAMILIES:
        return _ALIASES.get(match["family"], match["family"]), match["k"]
    match = _TREC_PATTERN.match(text)
    if not match or match["name"] not in _TREC_NAMES:
        raise _unknown(name)
    family, takes_cutoff = _TREC_NAMES[match["name"]]
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
    return family, match["k"]


def parse_measure(name: str) -> Measure:
    """Parse a measure name as ir_measures or trec_eval writes it.

    Families: ``AP``, ``P``, ``R``, ``RR``, ``nDCG``, ``Success`` (alias ``Hit``),
    ``Judged``, each optionally followed by ``@k`` (required for P, R and
    Success), and ``Rprec``, ``Bpref``, ``NumRet``, ``NumRel``, ``NumRelRet``,
    ``GMAP`` (``GMAP@k`` too); ``MAP`` and ``MRR`` are read as ``AP`` and ``RR``
    (the mean over queries is taken by whoever averages). trec_eval's names are
    aliases: ``map``, ``map_cut.k``, ``P.k``, ``recall.k``, ``recip_rank``,
    ``ndcg``, ``ndcg_cut.k``, ``success.k``, ``Rprec``, ``bpref``, ``num_ret``,
    ``num_rel``, ``num_rel_ret``, ``gm_map``, with ``.k`` or ``_k``.

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
    rule = FAMILIES[family].cutoff
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
