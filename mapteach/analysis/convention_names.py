"""How people read article 003's checklist: each item's name and each choice in words.

The checklist (:data:`mapteach.analysis.conventions.CHECKLIST`) is keyed by the
options of :func:`mapteach.evaluate` (``ties``, ``no_relevant``) and their values
(``"trec_eval"``, ``"skip"``), which is what code types; an audit table shows people
the names below instead, in their language. Introduced in ``09_why_maps_disagree``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from mapteach.i18n import N_, tr

__all__ = ["CHECKLIST_NAMES", "CHOICE_NAMES", "choice_name"]

#: How people name each checklist item (an English message): notebook 09's names for them.
CHECKLIST_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "relevance_threshold": N_("relevance threshold"),
        "ties": N_("ties"),
        "cutoff": N_("cutoff"),
        "denominator": N_("denominator"),
        "no_relevant": N_("empty queries"),
        "missing": N_("missing queries"),
    }
)

#: How people read each named choice of a checklist item, read-only: item -> {choice: an
#: English message}. A cutoff and a relevance threshold are numbers: see :func:`choice_name`.
CHOICE_NAMES: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "ties": MappingProxyType(
            {
                "trec_eval": N_("docno descending (trec_eval)"),
                "input": N_("input order"),
                "optimistic": N_("optimistic"),
                "pessimistic": N_("pessimistic"),
                "expected": N_("expected value"),
                "ir_measures": N_("docno ascending (ir_measures)"),
            }
        ),
        "denominator": MappingProxyType(
            {
                "relevant": N_("R, every relevant document"),
                "min_relevant_k": N_("min(k, R)"),
                "retrieved": N_("retrieved hits"),
            }
        ),
        "no_relevant": MappingProxyType(
            {
                "zero": N_("score 0"),
                "skip": N_("skipped"),
                "one": N_("score 1"),
                "error": N_("stop with an error"),
            }
        ),
        "missing": MappingProxyType(
            {"error": N_("stop with an error"), "zero": N_("score 0"), "ignore": N_("ignored")}
        ),
    }
)


def choice_name(item: str, choice: object, *, lang: str | None = None) -> str:
    """How a checklist item's choice reads, in the current language (or ``lang``).

    Parameters
    ----------
    item : str
        A checklist item (a key of :data:`CHECKLIST_NAMES`).
    choice : object
        The item's value, or its text as :func:`audit_setups` writes it (``"None"``,
        ``"5"``): a named choice reads as its :data:`CHOICE_NAMES` message, a cutoff
        as ``k = 5`` (no cutoff in words), a relevance threshold as ``grade ≥ 1``.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        When ``item`` is no checklist item, or ``choice`` none of its choices.

    Examples
    --------
    >>> from mapteach.analysis import choice_name
    >>> choice_name("ties", "trec_eval"), choice_name("cutoff", None), choice_name("cutoff", "5")
    ('docno descending (trec_eval)', 'none (the whole list)', 'k = 5')
    >>> choice_name("no_relevant", "skip", lang="zh"), choice_name("relevance_threshold", 2)
    ('跳过', 'grade ≥ 2')
    >>> choice_name("ties", "random")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 'random' is not a choice of the checklist item 'ties'; its choices are ...
    """
    if item not in CHECKLIST_NAMES:
        raise ValueError(
            tr(
                "{item!r} is not a checklist item; the items are {items}.",
                item=item,
                items=", ".join(map(repr, CHECKLIST_NAMES)),
            )
        )
    if item == "cutoff":
        return (
            tr("none (the whole list)", lang=lang) if choice in (None, "None") else f"k = {choice}"
        )
    if item == "relevance_threshold":
        return tr("grade ≥ {grade}", lang=lang, grade=choice)
    choices = CHOICE_NAMES[item]
    if not isinstance(choice, str) or choice not in choices:
        raise ValueError(
            tr(
                "{choice!r} is not a choice of the checklist item {item!r}; its choices are "
                "{choices}.",
                choice=choice,
                item=item,
                choices=", ".join(map(repr, choices)),
            )
        )
    return tr(choices[choice], lang=lang)
