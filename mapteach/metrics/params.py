"""A measure's parameters written as text: ir_measures' ``P(rel=2)@10`` and trec_eval's names.

:mod:`mapteach.metrics.names` parses names with these helpers; each reads or prints
one value of a declared :class:`~mapteach.metrics.declaration.Param`, or one cutoff,
so that a printed name parses back to the same measure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from mapteach.i18n import tr
from mapteach.metrics.declaration import CutoffKind, Declaration, Param

__all__ = [
    "cutoff_text",
    "gains_map",
    "param_text",
    "parse_cutoff",
    "parse_param",
    "trec_cutoff_text",
    "trec_eval_name",
]

_GAIN_PAIR = re.compile(r"^\s*(-?\d+)\s*[=:]\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*$")
_STRING = re.compile(r"""^(?P<quote>['"])(?P<text>[^'"]*)(?P=quote)$""")


def cutoff_text(k: int | float, kind: CutoffKind = "rank") -> str:
    """A cutoff as ir_measures prints it: ``10`` for a rank; a level as it was given.

    Parameters
    ----------
    k : int or float
        The cutoff: a rank, or a level (a recall level, a multiple of R).
    kind : {"rank", "level"}, default "rank"
        The measure's cutoff kind (:attr:`Declaration.cutoff_kind`).

    Returns
    -------
    str
        The cutoff as it follows the ``@`` in an ir_measures name.

    Examples
    --------
    >>> from mapteach.metrics.params import cutoff_text
    >>> cutoff_text(10), cutoff_text(0.5, "level"), cutoff_text(1, "level")
    ('10', '0.5', '1')
    """
    if kind == "rank":
        return str(int(k))
    return repr(k) if isinstance(k, float) else str(k)


def trec_cutoff_text(k: int | float, kind: CutoffKind = "rank") -> str:
    """A cutoff as trec_eval prints it in a name: ``10``, or a level with two decimals.

    Parameters
    ----------
    k : int or float
        The cutoff: a rank, or a level.
    kind : {"rank", "level"}, default "rank"
        The measure's cutoff kind; a level prints as C's ``%3.2f``, as trec_eval does.

    Returns
    -------
    str
        The cutoff as it follows the ``_`` in trec_eval's printed name.

    Examples
    --------
    >>> from mapteach.metrics.params import trec_cutoff_text
    >>> trec_cutoff_text(10), trec_cutoff_text(0.1, "level"), trec_cutoff_text(5, "level")
    ('10', '0.10', '5.00')
    """
    return f"{float(k):3.2f}" if kind == "level" else str(int(k))


def gains_map(text: str) -> dict[int, float]:
    """trec_eval's gain map ``1=3,2=9,4=4.5`` (or ir_measures' ``{1:3,2:9}``) as a dict.

    Parameters
    ----------
    text : str
        Pairs ``grade=gain`` (or ``grade:gain``) separated by commas, in braces or not.

    Returns
    -------
    dict of int to float
        Each listed grade's gain.

    Raises
    ------
    ValueError
        If a pair is not ``grade=gain`` with a whole grade and a number.

    Examples
    --------
    >>> from mapteach.metrics.params import gains_map
    >>> gains_map("1=3,2=9,4=4.5")
    {1: 3.0, 2: 9.0, 4: 4.5}
    """
    pairs = text.strip().removeprefix("{").removesuffix("}").split(",")
    gains: dict[int, float] = {}
    for pair in pairs:
        match = _GAIN_PAIR.match(pair)
        if match is None:
            raise ValueError(
                tr(
                    "gains must be pairs grade=gain separated by commas, such as "
                    "'1=3,2=9,4=4.5'; {pair!r} is not one.",
                    pair=pair,
                )
            )
        gains[int(match[1])] = float(match[2])
    if any(gain < 0 for gain in gains.values()):
        raise ValueError(tr("gains must not be negative; got {text!r}.", text=text))
    return gains


def param_text(param: Param, value: Any) -> str:
    """A parameter's value as ir_measures prints it: ``2``, ``0.8``, ``'exp-log2'``, ``{1:3}``.

    Parameters
    ----------
    param : Param
        The declared parameter (its kind decides the spelling).
    value : Any
        Its value, as :func:`parse_param` returns it.

    Returns
    -------
    str
        The value as it is written between the parentheses, which parses back to it.

    Examples
    --------
    >>> from mapteach.metrics.declaration import Param
    >>> from mapteach.metrics.params import param_text
    >>> param_text(Param("log2", "str"), "exp-log2"), param_text(Param(None, "gains"), "1=3,2=9")
    ("'exp-log2'", '{1:3,2:9}')
    """
    if param.kind == "gains":
        return "{" + str(value).replace("=", ":") + "}"
    return repr(value)


def _invalid(family: str, name: str, text: str, allowed: str) -> ValueError:
    return ValueError(
        tr(
            "{family}'s parameter {name} must be {allowed}; got {text!r}.",
            family=family,
            name=name,
            allowed=allowed,
            text=text,
        )
    )


def _allowed(param: Param) -> str:
    if param.choices:
        return tr("one of {choices}", choices=", ".join(repr(c) for c in param.choices))
    return {
        "int": tr("a whole number"),
        "float": tr("a number"),
        "str": tr("a quoted string"),
        "gains": tr("a gain map such as {example}", example="{1:3,2:9} or '1=3,2=9'"),
    }[param.kind]


def _value(param: Param, text: str) -> Any:
    """The value ``text`` spells for ``param``, or raise ValueError."""
    quoted = _STRING.match(text)
    if param.kind == "gains":
        spelling = quoted["text"] if quoted else text
        gains_map(spelling)
        return re.sub(r"\s+", "", spelling).removeprefix("{").removesuffix("}").replace(":", "=")
    if param.kind == "str":
        if quoted is None:
            raise ValueError(text)
        return quoted["text"]
    if quoted is not None:
        raise ValueError(text)
    if param.kind == "int":
        if not re.fullmatch(r"[-+]?\d+", text):
            raise ValueError(text)
        return int(text)
    return float(text)


def parse_param(declaration: Declaration, name: str, text: str) -> Any:
    """The value of ``declaration``'s parameter ``name`` written as ``text``.

    Parameters
    ----------
    declaration : Declaration
        The measure's declaration, whose ``params`` say what is allowed.
    name : str
        The parameter's name, as ir_measures names it (``rel``, ``p``, ``gains``).
    text : str
        Its value as written in the measure's name (``2``, ``0.8``, ``'exp-log2'``).

    Returns
    -------
    Any
        The value: an int, a float, a string, or a gain map's text.

    Raises
    ------
    ValueError
        If the measure has no such parameter, or the value is not one it allows;
        the message names the parameter and what is allowed.

    Examples
    --------
    >>> from mapteach.metrics.registry import REGISTRY
    >>> from mapteach.metrics.params import parse_param
    >>> parse_param(REGISTRY["P"], "rel", "2")
    2
    >>> parse_param(REGISTRY["P"], "p", "2")
    Traceback (most recent call last):
    ...
    ValueError: P has no parameter 'p'; it has: rel.
    """
    params: Mapping[str, Param] = declaration.params
    if name not in params:
        raise ValueError(
            tr(
                "{family} has no parameter {name!r}; it has: {known}.",
                family=declaration.name,
                name=name,
                known=", ".join(params) or tr("none"),
            )
        )
    param = params[name]
    try:
        value = _value(param, text.strip())
    except ValueError as error:
        if param.kind == "gains":  # gains_map says which pair is wrong
            raise ValueError(
                tr(
                    "{family}'s parameter {name}: {reason}",
                    family=declaration.name,
                    name=name,
                    reason=str(error),
                )
            ) from None
        raise _invalid(declaration.name, name, text, _allowed(param)) from None
    if param.choices and value not in param.choices:
        raise _invalid(declaration.name, name, text, _allowed(param))
    if param.minimum is not None and _below(param, value):
        raise _invalid(declaration.name, name, text, _at_least(param))
    return value


def _below(param: Param, value: Any) -> bool:
    """Whether ``value`` is under the minimum: a gain map's grades, or the number itself."""
    minimum = param.minimum
    if minimum is None:
        return False
    if param.kind == "gains":
        return any(grade < minimum for grade in gains_map(value))
    return bool(value < minimum)


def _at_least(param: Param) -> str:
    if param.kind == "gains":
        return tr("a gain map of grades >= {minimum:g}", minimum=param.minimum)
    return tr(">= {minimum:g}", minimum=param.minimum)


def parse_cutoff(declaration: Declaration, text: str, name: str) -> int | float:
    """The cutoff ``text`` of ``name``: an int >= 1 for a rank, a number >= 0 for a level.

    A level keeps the type it is written in (``IPrec@1`` and ``IPrec@1.0``, equal
    measures), so that its name prints back as given, as ir_measures does.

    Parameters
    ----------
    declaration : Declaration
        The measure's declaration, whose ``cutoff_kind`` says rank or level.
    text : str
        The cutoff as written (``10``, ``0.5``).
    name : str
        The whole measure name, to quote in an error.

    Returns
    -------
    int or float
        The rank, or the level.

    Raises
    ------
    ValueError
        If the cutoff is not of the measure's kind or is out of range.

    Examples
    --------
    >>> from mapteach.metrics.registry import REGISTRY
    >>> from mapteach.metrics.params import parse_cutoff
    >>> parse_cutoff(REGISTRY["P"], "10", "P@10")
    10
    """
    if declaration.cutoff_kind == "level":
        try:
            level = float(text)
        except ValueError:
            level = float("nan")
        if not level >= 0:
            raise ValueError(
                tr("the level in {name!r} must be a number >= 0, such as 0.5.", name=name)
            )
        return int(text) if text.isdigit() else level
    if not re.fullmatch(r"\d+", text) or int(text) < 1:
        raise ValueError(tr("the cutoff in {name!r} must be >= 1.", name=name))
    return int(text)


def trec_eval_name(
    declaration: Declaration, k: int | float | None, params: tuple[tuple[str, Any], ...]
) -> str | None:
    """The name trec_eval prints for a measure, or None when trec_eval has no such one.

    trec_eval's only parameters are its cutoffs and, for a measure with no cutoff,
    the text after the dot (``ndcg.1=3,2=9``: a parameter declared with
    ``trec_eval_suffix``), printed as given.

    Parameters
    ----------
    declaration : Declaration
        The measure's declaration, with its trec_eval names (``trec_eval``,
        ``trec_eval_cut``).
    k : int or float, optional
        The cutoff, or None.
    params : tuple of (str, Any)
        The parameters that differ from their defaults, sorted by name.

    Returns
    -------
    str or None
        trec_eval's printed name (``P_10``, ``ndcg_1=3,2=9``), or None if trec_eval
        cannot compute this measure (a parameter it lacks, such as ``rel``).

    Examples
    --------
    >>> from mapteach.metrics.registry import REGISTRY
    >>> from mapteach.metrics.params import trec_eval_name
    >>> trec_eval_name(REGISTRY["P"], 10, ()), trec_eval_name(REGISTRY["P"], 10, (("rel", 2),))
    ('P_10', None)
    """
    suffixes = [name for name, param in declaration.params.items() if param.trec_eval_suffix]
    if any(name not in suffixes for name, _ in params):
        return None
    if k is not None:
        cut = declaration.trec_eval_cut
        if cut is None or params:
            return None
        return f"{cut}_{trec_cutoff_text(k, declaration.cutoff_kind)}"
    if declaration.trec_eval is None:
        return None
    return "_".join([declaration.trec_eval, *(str(value) for _, value in params)])
