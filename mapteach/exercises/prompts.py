"""An exercise's prompt as a template, filled from the data the exercise is built from.

A notebook passes ``tr("... <code>{labels}</code> ({relevant_ranks}) ...")`` (``tr``
with no fields returns the translated template unformatted); the factory fills it from
its data, possibly a learner's variant, so every fact a prompt states about its data
is computed from that data and no variant can contradict itself. A prompt with no
placeholder (a literal list) is kept as written, unless the exercise varies.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence

from mapteach.exercises.mistakes import spoken_ranks
from mapteach.i18n import ngettext, tr

__all__ = ["fill_prompt", "ranking_fields", "relevant_ranks_text"]

#: Placeholders that show an exercise's data; a varied exercise's prompt needs one.
DATA_FIELDS = frozenset(
    {"labels", "queries", "relevant_ranks", "found_at", "aps"}
    | {"grades", "ranking", "runs", "judge_b"}
)


def relevant_ranks_text(labels: Sequence[int]) -> str:
    """Where a list's relevant results are: ``"one relevant result, at rank 2"``.

    >>> relevant_ranks_text([0, 1]), relevant_ranks_text([1, 0, 0, 1, 0, 1])
    ('one relevant result, at rank 2', '3 relevant results, at ranks 1, 4 and 6')
    >>> relevant_ranks_text([0, 0])
    'no relevant result'
    """
    ranks = [rank for rank, label in enumerate(labels, start=1) if label]
    if not ranks:
        return tr("no relevant result")
    return ngettext(
        "one relevant result, at rank {ranks}",
        "{n} relevant results, at ranks {ranks}",
        len(ranks),
        ranks=spoken_ranks(ranks),
    )


def ranking_fields(
    labels: Sequence[int], *, r: int, k: int | None, measure: str, decimals: int
) -> dict[str, object]:
    """The placeholders a one-ranking prompt may use, from its data.

    ``{labels}`` (``[0, 1]``), ``{r}``, ``{k}``, ``{relevant_ranks}``, ``{measure}``,
    ``{decimals}``, ``{n}`` (the list's length) and ``{missed}`` (R minus the hits).

    >>> ranking_fields([0, 1], r=2, k=None, measure="AP", decimals=4)["relevant_ranks"]
    'one relevant result, at rank 2'
    """
    return {
        "labels": [int(label) for label in labels],
        "r": r,
        "k": k,
        "relevant_ranks": relevant_ranks_text(labels),
        "measure": measure,
        "decimals": decimals,
        "n": len(labels),
        "missed": r - sum(labels),
    }


def fill_prompt(template: str, fields: Mapping[str, object], *, vary: bool = False) -> str:
    """``template`` with its ``{placeholders}`` filled from ``fields``.

    With ``vary``, the template must show the data through a placeholder
    (``{labels}``, ``{queries}``, ``{relevant_ranks}``, ...): a literal list would
    contradict the learner's variant.

    Raises
    ------
    ValueError
        If the template names a placeholder ``fields`` lacks, is not a valid
        template, or (with ``vary``) shows no data.

    Examples
    --------
    >>> fill_prompt("AP of <code>{labels}</code>?", {"labels": [0, 1]})
    'AP of <code>[0, 1]</code>?'
    >>> fill_prompt("AP of {list}?", {"labels": [0, 1]})
    Traceback (most recent call last):
    ...
    ValueError: The prompt names {list}, which this exercise does not fill; use labels.
    >>> fill_prompt("AP of [0, 1]?", {"labels": [0, 1]}, vary=True)
    Traceback (most recent call last):
    ...
    ValueError: A varied exercise's prompt must show its data through a placeholder such \
as {labels}; got 'AP of [0, 1]?'.
    """
    try:
        named = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
        filled = template.format_map(dict(fields))
    except (KeyError, IndexError):
        unknown = sorted(name for name in named if name not in fields)
        raise ValueError(
            tr(
                "The prompt names {{{name}}}, which this exercise does not fill; use {known}.",
                name=", ".join(unknown) or "{}",
                known=", ".join(sorted(fields)),
            )
        ) from None
    except ValueError as error:
        raise ValueError(
            tr(
                "The prompt is not a valid template ({error}): {prompt!r}.",
                error=error,
                prompt=template,
            )
        ) from None
    if vary and not named & DATA_FIELDS:
        raise ValueError(
            tr(
                "A varied exercise's prompt must show its data through a placeholder such as "
                "{{labels}}; got {prompt!r}.",
                prompt=template,
            )
        )
    return filled
