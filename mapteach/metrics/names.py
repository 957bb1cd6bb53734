"""Measure names as ir_measures spells them (``AP@10``), or as trec_eval does (``map_cut.10``).

This module only reads names: every spelling, cutoff rule and description comes
from the measures' declarations (:mod:`mapteach.metrics.registry`). A parsed name
is a :class:`Measure`: a declared measure and an optional cutoff.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import tr
from mapteach.metrics._sums import sum_in_rank_order
from mapteach.metrics.average_precision import AVERAGE_PRECISION
from mapteach.metrics.bpref import BPREF
from mapteach.metrics.counts import NUM_Q, NUM_REL, NUM_REL_RET, NUM_RET
from mapteach.metrics.declaration import Declaration, Parameters
from mapteach.metrics.gmap import GMAP, geometric_mean
from mapteach.metrics.interpolated_precision import IPREC
from mapteach.metrics.options import AGGREGATES, Aggregate, Denominator
from mapteach.metrics.params import (
    cutoff_text,
    gains_map,
    param_text,
    parse_cutoff,
    parse_param,
    trec_eval_name,
)
from mapteach.metrics.precision import PRECISION
from mapteach.metrics.r_precision import R_PRECISION
from mapteach.metrics.reciprocal_rank import RECIPROCAL_RANK
from mapteach.metrics.registry import REGISTRY, SPELLINGS, TREC_EVAL_NAMES
from mapteach.metrics.validation import as_labels, as_n_relevant, check_choice

__all__ = [
    "DEFAULT_MEASURES",
    "FAMILIES",
    "TREC_EVAL_OFFICIAL",
    "Labels",
    "Measure",
    "parse_measure",
    "parse_measures",
    "parse_trec_eval",
]

#: What ``evaluate`` and ``python -m mapteach evaluate`` report when no measure is named.
DEFAULT_MEASURES: tuple[str, ...] = ("AP", "AP@10", "P@10", "R@100", "RR", "nDCG@10")

#: One ranked list of 0/1 (or bool) relevance labels, best first.
Labels = ArrayLike

#: Every measure's declaration by name, read-only: the registry, under its old name.
FAMILIES: Mapping[str, Declaration] = REGISTRY

_PATTERN = re.compile(r"^(?P<family>[A-Za-z]+)(?:\((?P<params>.*)\))?(?:@(?P<k>[^@()]+))?$")
#: trec_eval's ``runid`` line: the run's tag, not a measure.
_RUNID = "runid"


def _trec_eval_spec(declaration: Declaration) -> str:
    """trec_eval's ``-m`` name of a declared measure: its own name, else its cutoff name."""
    spec = declaration.trec_eval or declaration.trec_eval_cut
    if spec is None:
        raise ValueError(tr("{name} has no trec_eval name.", name=declaration.name))
    return spec


#: trec_eval's default measures (no ``-m``, its "official" set), in the order it prints
#: them: ``runid`` (the run's tag), num_q, num_ret, num_rel, num_rel_ret, map, gm_map,
#: Rprec, bpref, recip_rank, iprec_at_recall (11 levels) and P (9 cutoffs).
TREC_EVAL_OFFICIAL: tuple[str, ...] = (
    _RUNID,
    *(
        _trec_eval_spec(declaration)
        for declaration in (
            NUM_Q,
            NUM_RET,
            NUM_REL,
            NUM_REL_RET,
            AVERAGE_PRECISION,
            GMAP,
            R_PRECISION,
            BPREF,
            RECIPROCAL_RANK,
            IPREC,
            PRECISION,
        )
    ),
)


@dataclass(frozen=True)
class Measure:
    """A parsed measure: a declared measure by name, an optional cutoff ``k`` and parameters.

    Attributes
    ----------
    family : str
        The measure's name as ir_measures spells it (``P``, ``nDCG``).
    k : int or float, optional
        The cutoff: a rank (``P@10``) or, for a level cutoff, a level (``IPrec@0.5``).
    params : tuple of (str, any)
        The parameters given that differ from their defaults, sorted by name.

    Examples
    --------
    >>> from mapteach.metrics.names import Measure
    >>> Measure("P", 10, (("rel", 2),)).name
    'P(rel=2)@10'
    >>> Measure("P", 10).param("rel"), Measure("P", 10).trec_name
    (1, 'P_10')
    """

    family: str
    k: int | float | None = None
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def declaration(self) -> Declaration:
        """Everything declared about the measure (:mod:`mapteach.metrics.declaration`)."""
        return REGISTRY[self.family]

    @property
    def name(self) -> str:
        """The canonical name in ir_measures' syntax: ``AP@10``, ``P(rel=2)@10``, ``RBP(p=0.5)``."""
        declared = self.declaration.params
        given = ",".join(f"{key}={param_text(declared[key], value)}" for key, value in self.params)
        name = f"{self.family}({given})" if given else self.family
        kind = self.declaration.cutoff_kind
        return name if self.k is None else f"{name}@{cutoff_text(self.k, kind)}"

    def param(self, name: str) -> Any:
        """The value of the parameter ``name``: as given, else its declared default.

        Raises
        ------
        KeyError
            If the measure declares no such parameter.
        """
        declared = self.declaration.params
        if name not in declared:
            raise KeyError(
                tr(
                    "{family} has no parameter {name!r}; it has: {known}.",
                    family=self.family,
                    name=name,
                    known=", ".join(declared) or tr("none"),
                )
            )
        return dict(self.params).get(name, declared[name].default)

    @property
    def trec_name(self) -> str | None:
        """The name trec_eval prints for it (``P_10``, ``map``, ``ndcg_1=3,2=9``), or None.

        None when trec_eval has no such measure, or none with these parameters.
        """
        return trec_eval_name(self.declaration, self.k, self.params)

    @property
    def description(self) -> str:
        """One line on what the measure computes, in the current language."""
        return tr(self.declaration.description)

    @property
    def reads_judged(self) -> bool:
        """Whether the measure tells judged non-relevant documents from unjudged ones.

        nDCG does when its gain map gives grade 0 a gain: judged non-relevant
        documents then gain, unjudged ones do not (trec_eval's gain_init.c).
        """
        gains = self.param("gains") if "gains" in self.declaration.params else None
        return self.declaration.reads_judged or (gains is not None and 0 in gains_map(gains))

    def parameters(self, *, threshold: int, denominator: Denominator) -> Parameters:
        """What its kernel and expectation are called with, under an evaluation's settings.

        A ``rel`` given to the measure (``P(rel=2)@10``) is its own threshold.
        """
        values = {name: self.param(name) for name in self.declaration.params}
        rel = dict(self.params).get("rel")
        level = rel if isinstance(rel, int) else threshold
        return Parameters(self.k, level, denominator, MappingProxyType(values), level != threshold)

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
        label_params = {key: self.param(key) for key in self.declaration.params if key != "rel"}
        return self.declaration.score(y, r, self.k, **label_params)

    def over_queries(self, values: ArrayLike, *, aggregate: Aggregate = "mean") -> float:
        """The run's value from the per-query ``values``, as trec_eval's ``all`` line has it.

        Counts are summed; GMAP takes the geometric mean (each value floored at
        1e-5); the rest the mean, or the geometric mean too with
        ``aggregate="gm"``. NaN when there is no value to average. The mean adds the
        values one by one in their order, as trec_eval does, so that its 4-decimal
        output matches even where the exact mean is a half (numpy's pairwise mean of
        2,000 queries can round 0.01665 down where trec_eval's running sum rounds it up).

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
        return sum_in_rank_order(array) / array.size  # query by query, as trec_eval adds

    def __str__(self) -> str:
        return self.name


def _unknown(name: str) -> ValueError:
    known = ", ".join(REGISTRY)
    return ValueError(
        tr(
            "unknown measure {name!r}; use one of {known} (Hit for Success), optionally with "
            "parameters and a cutoff such as 'P(rel=2)@10', or a trec_eval name such as map, "
            "P.10, ndcg_cut.10, bpref.",
            name=name,
            known=known,
        )
    )


def _split_params(text: str, name: str) -> list[tuple[str, str]]:
    """``a=1,b='x',gains={1:3,2:9}`` as (name, value text) pairs; commas in {} or quotes stay."""
    pieces, depth, quote, start = [], 0, "", 0
    for at, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "{}":
            depth += 1 if char == "{" else -1
        elif char == "," and depth == 0:
            pieces.append(text[start:at])
            start = at + 1
    pieces.append(text[start:])
    pairs = []
    for piece in pieces:
        key, equals, value = piece.partition("=")
        if not equals or not key.strip():
            raise ValueError(
                tr(
                    "parameters in {name!r} must be written name=value, such as "
                    "'P(rel=2)@10'; {piece!r} is not.",
                    name=name,
                    piece=piece,
                )
            )
        pairs.append((key.strip(), value.strip()))
    return pairs


def _measure(
    declaration: Declaration, k: int | float | None, given: Mapping[str, Any], name: str
) -> Measure:
    """The measure, checking its cutoff rule; parameters equal to their default are dropped."""
    family = declaration.name
    if k is None and declaration.cutoff == "required":
        raise ValueError(
            tr(
                "{family} needs a cutoff, such as '{family}@10'; got {name!r}.",
                family=family,
                name=name,
            )
        )
    if k is not None and declaration.cutoff == "none":
        raise ValueError(tr("{family} takes no cutoff; got {name!r}.", family=family, name=name))
    params = tuple(
        (key, value)
        for key, value in sorted(given.items())
        if value != declaration.params[key].default
    )
    return Measure(family, k, params)


def _ir_measures(text: str, name: str) -> Measure | None:
    """The measure ``Name(a=1)@k`` spells, None if ``text`` is not such a name."""
    match = _PATTERN.match(text)
    if match is None or match["family"] not in SPELLINGS:
        return None
    declaration = SPELLINGS[match["family"]]
    given: dict[str, Any] = {}
    for key, value in _split_params(match["params"], name) if match["params"] else ():
        if key in given:
            raise ValueError(tr("{key} is given twice in {name!r}.", key=key, name=name))
        given[key] = parse_param(declaration, key, value)
    if match["k"] is not None and declaration.cutoff_kind == "rank" and not match["k"].isdigit():
        raise _unknown(name)
    k = None if match["k"] is None else parse_cutoff(declaration, match["k"], name)
    return _measure(declaration, k, given, name)


def _trec_eval_prefix(text: str, separators: str) -> tuple[str, str | None] | None:
    """(trec_eval name, text after it) of ``text``: the longest declared name it starts with."""
    for trec_name in sorted(TREC_EVAL_NAMES, key=len, reverse=True):
        if text == trec_name:
            return trec_name, None
        if text.startswith(trec_name) and text[len(trec_name) : len(trec_name) + 1] in separators:
            return trec_name, text[len(trec_name) + 1 :]
    return None


def _suffix_param(declaration: Declaration) -> str | None:
    return next((key for key, p in declaration.params.items() if p.trec_eval_suffix), None)


def _trec_eval_measures(
    trec_name: str, rest: str | None, name: str, *, many: bool
) -> list[Measure]:
    """The measures of trec_eval's ``trec_name`` with the text after its dot (``5,10``)."""
    declaration, takes_cutoff = TREC_EVAL_NAMES[trec_name]
    if not takes_cutoff:
        suffix = _suffix_param(declaration)
        if rest is None:
            return [_measure(declaration, None, {}, name)]
        if suffix is None:
            raise ValueError(
                tr(
                    "trec_eval's {measure} takes no cutoff; got {name!r}.",
                    measure=trec_name,
                    name=name,
                )
            )
        value = rest if declaration.params[suffix].kind == "str" else None
        value = parse_param(declaration, suffix, rest) if value is None else value
        return [_measure(declaration, None, {suffix: value}, name)]
    texts = rest.split(",") if rest else []
    if not many and len(texts) != 1:
        raise ValueError(
            tr(
                "trec_eval's {measure} needs one cutoff here, such as '{measure}.10'; got "
                "{name!r}.",
                measure=trec_name,
                name=name,
            )
        )
    if not texts:
        if not declaration.trec_eval_cutoffs:
            raise ValueError(
                tr(
                    "trec_eval's {measure} needs cutoffs, such as '{measure}.10'.",
                    measure=trec_name,
                )
            )
        cutoffs = list(declaration.trec_eval_cutoffs)
    else:
        cutoffs = sorted({_trec_cutoff(declaration, text, name) for text in texts})
    return [_measure(declaration, k, {}, name) for k in cutoffs]


def _trec_cutoff(declaration: Declaration, text: str, name: str) -> int | float:
    """A cutoff of trec_eval's ``-m``: a level as C's atof reads it, a rank as atol."""
    number = re.match(r"^\s*[-+]?(\d+\.?\d*|\.\d+)", text)
    if number is None:
        return parse_cutoff(declaration, text, name)  # raises, naming the cutoff
    value = float(number[0])
    if declaration.cutoff_kind == "level":
        return parse_cutoff(declaration, repr(value), name)
    return parse_cutoff(declaration, str(int(value)), name)


def parse_measure(name: str) -> Measure:
    """Parse a measure name as ir_measures or trec_eval writes it.

    The names, their aliases, their parameters, trec_eval's names and the cutoff
    rules are the measures' declarations (``python -m mapteach evaluate --help``
    lists them): ir_measures' syntax, such as ``AP`` or its alias ``MAP``,
    parameters in brackets (``P(rel=2)@10``, ``nDCG(dcg='exp-log2')@10``,
    ``RBP(p=0.5)``) and ``@k`` where the measure takes a cutoff; or trec_eval's
    name, with one cutoff after ``.`` or ``_`` where it takes one (``map_cut.10``,
    ``P_5``), or nDCG's gain map (``ndcg.1=3,2=9``). ``MAP`` and ``MRR`` are read
    as ``AP`` and ``RR``: the mean over queries is taken by whoever averages.
    :attr:`Measure.name` prints the name back in ir_measures' syntax, the one this
    reads. trec_eval's lists of cutoffs (``P.5,10`` or ``P`` for its default
    ones) name several measures: :func:`parse_trec_eval` reads them.

    Parameters
    ----------
    name : str
        Such as ``"AP"``, ``"AP@10"``, ``"P(rel=2)@5"``, ``"nDCG@10"``, ``"ndcg_cut.10"``.

    Returns
    -------
    Measure

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    ValueError
        If the name is unknown, a required cutoff is missing, a cutoff is given
        to a measure that takes none, k < 1, or a parameter is unknown or has a
        value it does not allow (the message names it and what is allowed).

    Examples
    --------
    >>> from mapteach.metrics import parse_measure
    >>> parse_measure("AP@10")
    Measure(family='AP', k=10, params=())
    >>> parse_measure("Hit@3").name
    'Success@3'
    >>> parse_measure("ndcg_cut.10").name, parse_measure("num_rel_ret").name
    ('nDCG@10', 'NumRelRet')
    >>> parse_measure("P(rel=2)@10").name, parse_measure("P(rel=1)@10").name
    ('P(rel=2)@10', 'P@10')
    >>> parse_measure("P(p=2)@10")
    Traceback (most recent call last):
    ...
    ValueError: P has no parameter 'p'; it has: rel.
    """
    if not isinstance(name, str):
        raise TypeError(
            tr("a measure name must be a string such as 'AP@10'; got {name!r}.", name=name)
        )
    text = name.strip()
    measure = _ir_measures(text, name)
    if measure is not None:
        return measure
    prefix = _trec_eval_prefix(text, "._")
    if prefix is None:
        raise _unknown(name)
    return _trec_eval_measures(*prefix, name, many=False)[0]


def parse_trec_eval(spec: str) -> list[tuple[str, Measure]]:
    """The measures of one ``-m`` option of trec_eval, with the names trec_eval prints.

    trec_eval's syntax: a name (``map``), a name and its cutoffs after a dot
    (``P.5,10,20``; a rank as C's ``atol`` reads it, so ``ndcg_cut.23.4`` is
    ``ndcg_cut_23``), a name alone for trec_eval's default cutoffs (``P`` is
    ``P_5`` ... ``P_1000``), or nDCG's gain map (``ndcg.1=3,2=9,4=4.5``). The
    cutoffs come sorted, as trec_eval prints them. ``runid`` is no measure (the
    run's tag): it gives no measure.

    Parameters
    ----------
    spec : str
        One ``-m`` option's value, such as ``"P.5,10"`` or ``"iprec_at_recall"``.

    Returns
    -------
    list of (str, Measure)
        trec_eval's printed name of each measure (``P_5``), and the measure.

    Raises
    ------
    TypeError
        If ``spec`` is not a string.
    ValueError
        If the name is not trec_eval's name of a measure mapteach has, or a
        cutoff or parameter is not one it allows.

    Examples
    --------
    >>> from mapteach.metrics.names import parse_trec_eval
    >>> [name for name, _ in parse_trec_eval("P.20,5,10")]
    ['P_5', 'P_10', 'P_20']
    >>> [(name, m.name) for name, m in parse_trec_eval("ndcg.1=3,2=9,4=4.5")]
    [('ndcg_1=3,2=9,4=4.5', 'nDCG(gains={1:3,2:9,4:4.5})')]
    >>> parse_trec_eval("runid")
    []
    """
    if not isinstance(spec, str):
        raise TypeError(
            tr("a trec_eval measure must be a string such as 'P.10'; got {spec!r}.", spec=spec)
        )
    text = spec.strip()
    if text == _RUNID:
        return []
    trec_name, dot, rest = text.partition(".")
    if trec_name not in TREC_EVAL_NAMES:
        raise _unknown(spec)
    measures = _trec_eval_measures(trec_name, rest if dot else None, spec, many=True)
    return [(str(measure.trec_name), measure) for measure in measures]


def _named(name: str) -> list[tuple[str, Measure]]:
    """The measures one name gives: itself, or each measure of a trec_eval ``-m`` spec."""
    try:
        return [(name, parse_measure(name))]
    except ValueError as error:
        try:
            several = parse_trec_eval(name)
        except ValueError:
            raise error from None
        if not several:
            raise
        return several


def parse_measures(names: str | Iterable[str]) -> dict[str, Measure]:
    """Parse several measure names, each given once; a single string is one name.

    A name :func:`parse_measure` reads stands for itself; otherwise it may be
    trec_eval's ``-m`` spec for several measures (``P.5,10``, or ``P`` for
    trec_eval's default cutoffs, :func:`parse_trec_eval`), which adds one key per
    measure: the name trec_eval prints for it (``P_5``, ``P_10``).

    Parameters
    ----------
    names : str or iterable of str
        Names as :func:`parse_measure` or :func:`parse_trec_eval` reads them.

    Returns
    -------
    dict of str to Measure
        Each name as given (or printed by trec_eval), in order, with its measure.

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
    >>> list(parse_measures(["P@10", "P(rel=2)@10", "ndcg_cut.5,10"]))
    ['P@10', 'P(rel=2)@10', 'ndcg_cut_5', 'ndcg_cut_10']
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
        for key, measure in _named(name):
            if measure in seen:
                raise ValueError(
                    tr(
                        "measures {first!r} and {second!r} both name {measure}; give each "
                        "measure once.",
                        first=seen[measure],
                        second=key,
                        measure=measure.name,
                    )
                )
            seen[measure] = key
            parsed[key] = measure
    if not parsed:
        raise ValueError(tr("measures is empty; name at least one measure, such as 'AP'."))
    return parsed
