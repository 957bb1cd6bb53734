"""Queries in groups: article 001's buckets by query length, and a comparison within each group.

Article 001 §4.3 buckets queries by length to find where a system fails: 1-2 words short,
3-5 words medium, 6 or more long. A comparison of two systems can then be read group by
group, each group with its own paired tests. A group chosen *after* looking at the
results is a hypothesis for the next test collection, not a finding: its p-values are
exploratory. Introduced in ``11_evaluate_your_own_run``.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from typing import Any

import pandas as pd

from mapteach.analysis.compare import RunComparison, compare_scores
from mapteach.analysis.paired_tests import ComparisonTable
from mapteach.i18n import N_, tr

__all__ = ["LENGTH_BUCKETS", "compare_by_group", "length_buckets"]

#: The summary's counts, kept as whole numbers.
_COUNTS = ("queries", "b_better", "b_worse", "same")

#: Article 001 §4.3's buckets by query length in words: (label, fewest, most); ``None``
#: for no upper limit. The article: 1-2 words short, 3-5 medium, 6 or more long.
LENGTH_BUCKETS: tuple[tuple[str, int, int | None], ...] = (
    (N_("short (1-2 words)"), 1, 2),
    (N_("medium (3-5 words)"), 3, 5),
    (N_("long (6 words or more)"), 6, None),
)


def length_buckets(words: Mapping[str, int] | pd.Series) -> pd.Series:
    """Each query's bucket by its length in words, as article 001 §4.3 buckets queries.

    Parameters
    ----------
    words : mapping of str to int, or pandas.Series
        The number of words of each query (>= 1), by query id.

    Returns
    -------
    pandas.Series
        By query id, an ordered categorical of the :data:`LENGTH_BUCKETS` labels in
        the current language (every bucket is a category, even an empty one), named
        "query length".

    Raises
    ------
    TypeError
        If a length is not a whole number (the message names the query).
    ValueError
        If a length is below 1.

    Examples
    --------
    >>> from mapteach.analysis import length_buckets
    >>> length_buckets({"q1": 2, "q2": 3, "q3": 7}).tolist()
    ['short (1-2 words)', 'medium (3-5 words)', 'long (6 words or more)']
    """
    lengths = pd.Series(words)
    for query, length in lengths.items():
        if isinstance(length, bool) or not isinstance(length, numbers.Integral):
            raise TypeError(
                tr(
                    "the length of query {query!r} must be a whole number of words; got "
                    "{length!r}.",
                    query=query,
                    length=length,
                )
            )
        if length < 1:
            raise ValueError(
                tr(
                    "the length of query {query!r} must be at least 1 word; got {length}.",
                    query=query,
                    length=length,
                )
            )
    labels = [tr(label) for label, _, _ in LENGTH_BUCKETS]
    shown = [
        next(tr(label) for label, _, most in LENGTH_BUCKETS if most is None or length <= most)
        for length in lengths
    ]
    return pd.Series(
        pd.Categorical(shown, categories=labels, ordered=True),
        index=lengths.index,
        name=tr("query length"),
    )


def compare_by_group(
    comparison: RunComparison, groups: pd.Series, **options: Any
) -> ComparisonTable:
    """The comparison again within each group of queries, each with its own paired tests.

    Each group's row is :func:`~mapteach.analysis.compare_scores` on that group's
    queries alone: its means, mean delta, bootstrap interval, wins and losses, and
    the four p-values. A group with fewer than 2 queries gets NaN p-values, as
    ``compare_scores`` gives them. The groups keep their order (a categorical's
    order, or the order they first appear in ``groups``); empty categories are left out.

    Parameters
    ----------
    comparison : RunComparison
        As :func:`~mapteach.analysis.compare_runs` returns it.
    groups : pandas.Series
        Each compared query's group, by query id (more queries may be named).
    **options
        Passed to :func:`~mapteach.analysis.compare_scores` (``seed``,
        ``n_permutations``, ``n_resamples``, ``confidence``: by default the
        comparison's).

    Returns
    -------
    ComparisonTable
        One row per group (the index named as ``groups``), the keys of
        :attr:`RunComparison.summary` as columns (the counts as whole numbers);
        ``attrs["measure"]``.

    Raises
    ------
    ValueError
        If a compared query has no group (the message names it).

    Examples
    --------
    >>> import pandas as pd
    >>> from mapteach.analysis import compare_by_group, compare_scores
    >>> a = pd.Series({"q1": 0.2, "q2": 0.4, "q3": 0.5, "q4": 0.3})
    >>> b = pd.Series({"q1": 0.3, "q2": 0.6, "q3": 0.4, "q4": 0.2})
    >>> groups = pd.Series({"q1": "short", "q2": "short", "q3": "long", "q4": "long"})
    >>> table = compare_by_group(compare_scores(a, b), groups)
    >>> table[["queries", "mean_delta"]].round(4).to_dict("index")
    {'short': {'queries': 2, 'mean_delta': 0.15}, 'long': {'queries': 2, 'mean_delta': -0.1}}
    """
    options.setdefault("confidence", comparison.confidence)
    per_query = comparison.per_query
    missing = per_query.index.difference(groups.dropna().index)
    if len(missing):
        raise ValueError(
            tr("query {query!r} of the comparison has no group.", query=str(missing[0]))
        )
    assigned = groups.reindex(per_query.index)
    order = (
        [name for name in assigned.cat.categories if (assigned == name).any()]
        if isinstance(assigned.dtype, pd.CategoricalDtype)
        else list(dict.fromkeys(groups[groups.index.isin(per_query.index)]))
    )
    rows = {}
    for name in order:
        inside = per_query[assigned == name]
        result = compare_scores(inside["A"], inside["B"], measure=comparison.measure, **options)
        rows[name] = result.summary
    table = ComparisonTable(pd.DataFrame(rows).T)
    table = table.astype(dict.fromkeys(_COUNTS, int))
    table.index.name = groups.name
    table.attrs.update(measure=comparison.measure)
    return table
