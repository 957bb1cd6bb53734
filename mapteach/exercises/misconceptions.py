"""The wrong answers learners (and articles) give, each computed the wrong way on purpose.

An exercise computes these beside the right answer; when a learner's answer
matches one, the feedback names the mistake instead of a bare "wrong". Names and
explanations are English messages (the name is also the mistake's key); feedback
translates them when it is given (:func:`~mapteach.exercises.answers.check_number`),
and :attr:`Misconception.shown_name` gives the name in the current language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from mapteach.i18n import N_, tr
from mapteach.metrics import average_precision, mean_average_precision, recall_at_k
from mapteach.metrics.validation import as_k, as_labels, as_n_relevant

__all__ = ["AP_MISCONCEPTIONS", "MAP_MISCONCEPTIONS", "PRECISION_MISCONCEPTIONS", "Misconception"]

Labels = Sequence[int | bool]


@dataclass(frozen=True)
class Misconception:
    """A named wrong way to compute a metric, with what to tell the learner."""

    name: str
    explanation: str
    compute: Callable[..., float]
    #: When it applies: ``"any"``, ``"with"`` a cutoff k, or ``"without"`` one.
    cutoff: str = "any"

    @property
    def shown_name(self) -> str:
        """The name in the current language (``name`` itself is the English key)."""
        return tr(self.name)

    def applies(self, k: int | None) -> bool:
        """Whether this mistake can be made on a question with cutoff ``k``."""
        return self.cutoff == "any" or (self.cutoff == "with") == (k is not None)


def final_hits_in_every_numerator(
    labels: Labels, *, n_relevant: int | None = None, k: int | None = None
) -> float:
    """Article 001's slip: H/rank at each relevant rank, H the list's final hit count.

    >>> round(final_hits_in_every_numerator([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]), 2)  # the 0.48
    0.48
    """
    y = as_labels(labels)
    r = as_n_relevant(n_relevant, int(y.sum()))
    if k is not None:
        y = y[: as_k(k)]
    ranks = np.flatnonzero(y) + 1
    return float((ranks.size / ranks).sum() / r) if r else 0.0


def ap_sum_over_list_length(
    labels: Labels, *, n_relevant: int | None = None, k: int | None = None
) -> float:
    """AP's sum (P@i at each relevant rank i) divided by the list's length, not by R.

    With a cutoff k, only the top k count, and the sum is divided by their number.

    >>> round(ap_sum_over_list_length([0, 1, 1, 0]), 4)  # (1/2 + 2/3) / 4
    0.2917
    """
    y = as_labels(labels)
    if k is not None:
        y = y[: as_k(k)]
    ranks = np.flatnonzero(y) + 1
    return float((np.arange(1, ranks.size + 1) / ranks).sum() / y.size) if y.size else 0.0


def mean_precision_over_all_ranks(
    labels: Labels, *, n_relevant: int | None = None, k: int | None = None
) -> float:
    """The mean of P@i over every rank i of the list, relevant or not: not AP.

    With a cutoff k, over ranks 1 to k (or to the list's end, if it is shorter).

    >>> mean_precision_over_all_ranks([1, 0])  # (1/1 + 1/2) / 2
    0.75
    """
    y = as_labels(labels)
    if k is not None:
        y = y[: as_k(k)]
    if y.size == 0:
        return 0.0
    return float((np.cumsum(y) / np.arange(1, y.size + 1)).mean())


def _retrieved(labels: Labels, *, n_relevant: int | None = None, k: int | None = None) -> float:
    return average_precision(labels, n_relevant=n_relevant, k=k, denominator="retrieved")


AP_MISCONCEPTIONS: tuple[Misconception, ...] = (
    Misconception(
        N_("divide by retrieved hits"),
        N_(
            "You divided by the relevant results found in the list. AP divides by R, all "
            "relevant results of the query, so a missed one still costs (article 003's "
            "shopping list: 6 of 10 items bought, divide by 10)."
        ),
        _retrieved,
        cutoff="without",
    ),
    Misconception(
        N_("divide AP@k by hits in the top k"),
        N_(
            "You divided AP@k by the relevant results in the top k. The denominator stays R, the "
            "query's relevant results; otherwise 2 hits in the top 10 of a query with 100 "
            "relevant documents would look excellent (article 000 §4.2)."
        ),
        _retrieved,
        cutoff="with",
    ),
    Misconception(
        N_("final hit count in every numerator"),
        N_(
            "You used the final number of hits in every term, as article 001 does for its 0.48. "
            "At each relevant rank, count only the hits seen so far: the 1st relevant result "
            "adds 1/rank, the 2nd 2/rank, and so on."
        ),
        final_hits_in_every_numerator,
    ),
    Misconception(
        N_("divide by the list's length"),
        N_(
            "You divided the sum of P@i at the relevant ranks by the number of results in the "
            "list. AP divides it by R, the query's relevant results: a non-relevant result "
            "already costs by lowering P@i at every relevant rank below it."
        ),
        ap_sum_over_list_length,
    ),
    Misconception(
        N_("mean of P@i over every rank"),
        N_(
            "You averaged P@i over every rank i, relevant or not (their sum over the list's "
            "length). AP adds P@i only at the ranks that hold a relevant result, and divides "
            "that sum by R."
        ),
        mean_precision_over_all_ranks,
    ),
)


def _skip_empty(rankings, *, n_relevant=None, k=None) -> float:
    return mean_average_precision(rankings, n_relevant=n_relevant, k=k, no_relevant="skip")


def _retrieved_map(rankings, *, n_relevant=None, k=None) -> float:
    return mean_average_precision(rankings, n_relevant=n_relevant, k=k, denominator="retrieved")


MAP_MISCONCEPTIONS: tuple[Misconception, ...] = (
    Misconception(
        N_("skip instead of zero"),
        N_(
            "You left out the query with no relevant result. trec_eval (and articles 000 and 001) "
            "score it 0 and keep it in the mean; skipping it is a different convention (article "
            "003) that must be stated."
        ),
        _skip_empty,
    ),
    Misconception(
        N_("divide by retrieved hits"),
        N_("Some query's AP was divided by the relevant results it retrieved instead of by its R."),
        _retrieved_map,
    ),
)


def _over_list_length(labels: Labels, *, n_relevant: int | None = None, k: int) -> float:
    y = as_labels(labels)[: as_k(k)]
    return float(y.sum() / y.size) if y.size else 0.0


def _whole_list(labels: Labels, *, n_relevant: int | None = None, k: int) -> float:
    y = as_labels(labels)
    return float(y.sum() / as_k(k))


def _recall(labels: Labels, *, n_relevant: int | None = None, k: int) -> float:
    return recall_at_k(labels, k, n_relevant=n_relevant)


PRECISION_MISCONCEPTIONS: tuple[Misconception, ...] = (
    Misconception(
        N_("divided by R"),
        N_(
            "You divided by the query's relevant results: that is recall R@k. P@k divides the "
            "hits in the top k by k."
        ),
        _recall,
    ),
    Misconception(
        N_("divided by the list's length"),
        N_(
            "The list is shorter than k, and you divided by its length. trec_eval's P@k always "
            "divides by k: a system that returns fewer results is not excused."
        ),
        _over_list_length,
    ),
    Misconception(
        N_("counted hits below rank k"),
        N_("You counted relevant results from the whole list. P@k looks only at the top k."),
        _whole_list,
    ),
)
