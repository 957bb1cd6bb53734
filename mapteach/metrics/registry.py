"""Every measure the package knows, collected from the declarations of the measure modules.

A measure is added by declaring it in its module (:mod:`mapteach.metrics.declaration`)
and listing the declaration here, once; the order here is the order of the command
line's help and of README's measure table. Both are generated from the declarations:
:func:`measure_help_lines` and :func:`measures_markdown`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TypeVar

import numpy as np

from mapteach.i18n import N_, tr
from mapteach.metrics.average_precision import AVERAGE_PRECISION
from mapteach.metrics.bpref import BPREF
from mapteach.metrics.counts import NUM_Q, NUM_REL, NUM_REL_RET, NUM_RET
from mapteach.metrics.declaration import Declaration
from mapteach.metrics.err import ERR
from mapteach.metrics.gm_bpref import GM_BPREF
from mapteach.metrics.gmap import GM_FLOOR, GMAP
from mapteach.metrics.hit import SUCCESS
from mapteach.metrics.infap import INFAP
from mapteach.metrics.interpolated_precision import ELEVEN_PT, IPREC
from mapteach.metrics.judged import JUDGED
from mapteach.metrics.ndcg import NDCG
from mapteach.metrics.params import param_text
from mapteach.metrics.precision import PRECISION
from mapteach.metrics.r_precision import R_PRECISION
from mapteach.metrics.rbp import RBP
from mapteach.metrics.recall import RECALL
from mapteach.metrics.reciprocal_rank import RECIPROCAL_RANK
from mapteach.metrics.rprec_mult import RPREC_MULT
from mapteach.metrics.set_f import SET_F
from mapteach.metrics.set_precision import SET_PRECISION
from mapteach.metrics.set_recall import SET_RECALL

__all__ = ["REGISTRY", "SPELLINGS", "TREC_EVAL_NAMES", "measure_help_lines", "measures_markdown"]

_Value = TypeVar("_Value")

_DECLARATIONS = (
    AVERAGE_PRECISION,
    PRECISION,
    RECALL,
    RECIPROCAL_RANK,
    NDCG,
    ERR,
    RBP,
    SUCCESS,
    R_PRECISION,
    BPREF,
    JUDGED,
    NUM_RET,
    NUM_REL,
    NUM_REL_RET,
    GMAP,
    SET_PRECISION,
    SET_RECALL,
    SET_F,
    IPREC,
    ELEVEN_PT,
    RPREC_MULT,
    INFAP,
    GM_BPREF,
    NUM_Q,
)


def _index(pairs: Iterable[tuple[str, _Value]], what: str) -> Mapping[str, _Value]:
    """A read-only mapping of the pairs; raise if two declarations claim one spelling."""
    index: dict[str, _Value] = {}
    for key, value in pairs:
        if key in index:
            raise ValueError(
                tr("two measures are declared with the {what} {key!r}.", what=tr(what), key=key)
            )
        index[key] = value
    return MappingProxyType(index)


#: Every measure by its name as ir_measures spells it, read-only.
REGISTRY: Mapping[str, Declaration] = _index(((d.name, d) for d in _DECLARATIONS), N_("name"))

#: Each ir_measures-style spelling (the names and their aliases) and its measure.
SPELLINGS: Mapping[str, Declaration] = _index(
    ((spelling, d) for d in _DECLARATIONS for spelling in (d.name, *d.aliases)), N_("spelling")
)

#: Each trec_eval name, its measure, and whether it takes a cutoff (``map_cut.10``).
TREC_EVAL_NAMES: Mapping[str, tuple[Declaration, bool]] = _index(
    (
        (name, (d, takes_cutoff))
        for d in _DECLARATIONS
        for name, takes_cutoff in ((d.trec_eval, False), (d.trec_eval_cut, True))
        if name is not None
    ),
    N_("trec_eval name"),
)


def _help(declaration: Declaration) -> str:
    """Its description, then its trec_eval names and aliases, in the current language."""
    description = tr(declaration.description)
    names = ", ".join(declaration.trec_eval_forms())
    aliases = ", ".join(declaration.aliases)
    if not names:  # ir_measures' Judged: trec_eval has no such measure
        return description
    if aliases:
        return tr(
            "{description} (also {aliases}; trec_eval {names})",
            description=description,
            aliases=aliases,
            names=names,
        )
    return tr("{description} (trec_eval {names})", description=description, names=names)


def _params_help(declaration: Declaration) -> str:
    """Its parameters as ir_measures writes them, with their defaults: ``(p=0.8, rel)``."""
    given = [
        name if param.default is None else f"{name}={param_text(param, param.default)}"
        for name, param in declaration.params.items()
    ]
    if not given:
        return ""
    syntax = f"{declaration.name}({', '.join(given)})"
    return tr("; parameters: {syntax}", syntax=syntax)


def measure_help_lines() -> list[str]:
    """One line per measure for the command line's help: name, description, other names,
    and its parameters with their defaults (``RBP(p=0.8, rel)``, ir_measures' syntax).

    Examples
    --------
    >>> from mapteach.metrics.registry import measure_help_lines
    >>> print(measure_help_lines()[2])  # doctest: +NORMALIZE_WHITESPACE
    R          recall at k: relevant documents in the top k, over R (trec_eval recall.k);
    parameters: R(rel=1)
    """
    return [f"{d.name:<10} {_help(d)}{_params_help(d)}" for d in REGISTRY.values()]


#: trec_eval's floor under each value of a geometric mean, written as in its docs: 1e-5.
_FLOOR = np.format_float_scientific(GM_FLOOR, trim="-", exp_digits=1)


def _code(forms: Iterable[str]) -> str:
    return ", ".join(f"`{form}`" for form in forms)


def _markdown_row(declaration: Declaration) -> str:
    aliases = declaration.alias_forms()
    measure = _code(declaration.forms()) + (f" (also {_code(aliases)})" if aliases else "")
    over_queries = {
        "mean": "mean",
        "sum": "sum",
        "gm": f"exp(mean(log(max(value, {_FLOOR}))))",
    }[declaration.combine]
    trec_eval = _code(declaration.trec_eval_forms()) or "—"
    return f"| {measure} | {trec_eval} | {declaration.description} | {over_queries} |"


def measures_markdown() -> str:
    """README's measure table, one row per measure, generated from the declarations.

    Returns
    -------
    str
        A Markdown table headed ``| measure | trec_eval name | per query | over queries |``.

    Examples
    --------
    >>> from mapteach.metrics import measures_markdown
    >>> print("\\n".join(measures_markdown().splitlines()[:3]))  # doctest: +NORMALIZE_WHITESPACE
    | measure | trec_eval name | per query | over queries |
    |---|---|---|---|
    | `AP`, `AP@k` (also `MAP`, `MAP@k`) | `map`, `map_cut.k` | average precision: the sum of
    P@i over the ranks i of relevant documents, divided by R | mean |
    """
    header = ["| measure | trec_eval name | per query | over queries |", "|---|---|---|---|"]
    return "\n".join([*header, *(_markdown_row(d) for d in REGISTRY.values())])
