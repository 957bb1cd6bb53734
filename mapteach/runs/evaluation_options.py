"""The convention switches of one evaluation, checked once when they are made.

:class:`EvaluationOptions` holds ``evaluate``'s and :func:`~mapteach.runs.scoring.score_run`'s
switches (ties, R = 0, missing queries, the relevance threshold, the denominator, trec_eval's
``-M`` and ``-J``), applies ``-M`` and ``-J`` to a run in rank order (:meth:`cut`), and
scores the entries under them (:meth:`batch`, :meth:`expected`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mapteach.i18n import tr
from mapteach.metrics.batch import RankedEntries, batch_scores, ranks_within
from mapteach.metrics.names import Measure
from mapteach.metrics.options import (
    DENOMINATORS,
    MISSING,
    NO_RELEVANT,
    TIES,
    Denominator,
    Missing,
    NoRelevant,
    Ties,
)
from mapteach.metrics.ties import expected_scores
from mapteach.metrics.validation import check_choice

__all__ = ["EvaluationOptions"]


@dataclass(frozen=True)
class EvaluationOptions:
    """The convention switches of one evaluation, checked when it is made."""

    ties: Ties
    no_relevant: NoRelevant
    missing: Missing
    threshold: int
    denominator: Denominator
    max_results: int | None = None
    judged_only: bool = False

    def __post_init__(self) -> None:
        check_choice(self.ties, TIES, name="ties")
        check_choice(self.denominator, DENOMINATORS, name="denominator")
        if self.ties == "expected" and self.denominator == "retrieved":
            raise ValueError(
                tr(
                    "ties='expected' needs a fixed denominator: with denominator='retrieved' "
                    "the number of hits within the cutoff itself depends on the order of the "
                    "ties."
                )
            )
        check_choice(self.no_relevant, NO_RELEVANT, name="no_relevant")
        check_choice(self.missing, MISSING, name="missing")
        threshold = self.threshold
        if isinstance(threshold, bool) or not isinstance(threshold, (int, np.integer)):
            raise TypeError(
                tr(
                    "relevance_threshold must be an integer grade; got {threshold!r}.",
                    threshold=threshold,
                )
            )
        if threshold < 1:
            raise ValueError(
                tr(
                    "relevance_threshold must be >= 1 (unjudged documents count as grade 0, "
                    "so they would become relevant); got {threshold}.",
                    threshold=threshold,
                )
            )
        self._check_cut()

    def _check_cut(self) -> None:
        """Check ``max_results`` (trec_eval -M) and ``judged_only`` (trec_eval -J)."""
        depth = self.max_results
        if depth is not None:
            if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)):
                raise TypeError(
                    tr(
                        "max_results must be a whole number of results per query (trec_eval "
                        "-M) or None; got {depth!r}.",
                        depth=depth,
                    )
                )
            if depth < 1:
                raise ValueError(tr("max_results must be >= 1; got {depth}.", depth=depth))
            if self.ties == "expected":
                raise ValueError(
                    tr(
                        "max_results cuts each ranking at a fixed depth, which can split a "
                        "group of tied scores, so ties='expected' cannot average over their "
                        "orders; choose another ties option."
                    )
                )
        if not isinstance(self.judged_only, (bool, np.bool_)):
            raise TypeError(
                tr(
                    "judged_only must be True or False; got {value!r}.",
                    value=self.judged_only,
                )
            )

    def cut(
        self,
        order: np.ndarray | slice,
        query: np.ndarray,
        grade: np.ndarray,
        judged: np.ndarray,
        n_queries: int,
    ) -> np.ndarray | slice:
        """The rows of ``order`` (rank order) left after -M, then -J, as trec_eval applies them.

        -M keeps each query's first ``max_results`` rows; -J drops unjudged rows,
        and rows with a negative grade (trec_eval's "judged, but ignore").
        """
        if self.max_results is None and not self.judged_only:
            return order
        if isinstance(order, slice):  # the rows in their own order
            order = np.arange(query.size)
        keep = np.ones(order.size, bool)
        if self.max_results is not None:
            keep &= ranks_within(query[order], n_queries) <= self.max_results
        if self.judged_only:
            keep &= judged[order] & (grade[order] >= 0)
        return order[keep]

    def expected(
        self, entries: RankedEntries, sorted_score: np.ndarray, measures: Sequence[Measure]
    ) -> dict[str, np.ndarray]:
        """Tie-aware scores of every row of a run sorted by (query, score descending)."""
        return expected_scores(
            entries, sorted_score, measures, threshold=self.threshold, denominator=self.denominator
        )

    def batch(self, entries: RankedEntries, measures: Sequence[Measure]) -> dict[str, np.ndarray]:
        """Scores of a run sorted by (query, rank), from the entries the measures read."""
        return batch_scores(
            entries.sparse(), measures, threshold=self.threshold, denominator=self.denominator
        )
