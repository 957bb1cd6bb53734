"""A run's scores printed as trec_eval prints them: ``measure<TAB>query<TAB>value`` lines.

The layout is trec_eval 10's, byte for byte (``meas_print_single.c``,
``meas_print_final.c`` and each ``m_*.c``'s print functions): the name left-aligned
in 22 columns, a tab, the query, a tab, and the value with four decimals
(``"%-22s\\t%s\\t%6.4f"``), or as a whole number (``"%ld"``) for the counts, the
measures summed over queries (``num_q``, ``num_ret``, ``num_rel``, ``num_rel_ret``),
as trec_eval prints them. With ``per_query``, every query's lines come first, in
the order of the scores' queries (trec_eval's: by their bytes, as C's ``strcmp``:
``"10"`` before ``"9"``), then the ``all`` lines. Within a block the measures come in
trec_eval's own order (``measures.c``: ``runid``, ``num_q``, ..., ``map``, ...,
``P``, ...), whatever order they were asked in, each measure's cutoffs from the
smallest; measures trec_eval does not have come last, in the order asked, under
their ir_measures names.

Lines printed only in the ``all`` block, as trec_eval does: ``runid`` (the run's tag),
``num_q`` and the geometric means (``gm_map``, ``gm_bpref``). A value that is not
there (NaN: a mean over no query, as ``no_relevant="skip"`` leaves when no query has a
relevant document) prints no line; trec_eval never lacks a value.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from mapteach.metrics.average_precision import AVERAGE_PRECISION
from mapteach.metrics.bpref import BPREF
from mapteach.metrics.counts import NUM_Q, NUM_REL, NUM_REL_RET, NUM_RET
from mapteach.metrics.gm_bpref import GM_BPREF
from mapteach.metrics.gmap import GMAP
from mapteach.metrics.hit import SUCCESS
from mapteach.metrics.infap import INFAP
from mapteach.metrics.interpolated_precision import ELEVEN_PT, IPREC
from mapteach.metrics.ndcg import NDCG
from mapteach.metrics.options import AGGREGATES, Aggregate
from mapteach.metrics.precision import PRECISION
from mapteach.metrics.r_precision import R_PRECISION
from mapteach.metrics.recall import RECALL
from mapteach.metrics.reciprocal_rank import RECIPROCAL_RANK
from mapteach.metrics.rprec_mult import RPREC_MULT
from mapteach.metrics.set_f import SET_F
from mapteach.metrics.set_precision import SET_PRECISION
from mapteach.metrics.set_recall import SET_RECALL
from mapteach.metrics.validation import check_choice

if TYPE_CHECKING:
    from mapteach.metrics.declaration import Declaration
    from mapteach.metrics.names import Measure
    from mapteach.runs.scoring import RunScores

__all__ = ["format_trec"]

#: The order trec_eval prints its measures in (``te_trec_measures`` in measures.c), for
#: those mapteach has: each measure's declaration, and whether the entry is its trec_eval
#: name with a cutoff (``map_cut``, True) or without (``map``, False).
TREC_EVAL_ORDER: tuple[tuple[Declaration, bool], ...] = (
    (NUM_Q, False),
    (NUM_RET, False),
    (NUM_REL, False),
    (NUM_REL_RET, False),
    (AVERAGE_PRECISION, False),
    (GMAP, False),
    (R_PRECISION, False),
    (BPREF, False),
    (RECIPROCAL_RANK, False),
    (IPREC, True),
    (PRECISION, True),
    (RECALL, True),
    (INFAP, False),
    (GM_BPREF, False),
    (RPREC_MULT, True),
    (ELEVEN_PT, False),
    (NDCG, False),
    (NDCG, True),
    (AVERAGE_PRECISION, True),
    (SUCCESS, True),
    (SET_PRECISION, False),
    (SET_RECALL, False),
    (SET_F, False),
)


def _cutoff_order(measure: Measure) -> float:
    """The measure's cutoff (or recall level) as a sort key; no cutoff first."""
    return -math.inf if measure.k is None else float(measure.k)


class _Line:
    """One measure of a run as trec_eval prints it: its name, its place, its format."""

    def __init__(self, key: str, measure: Measure, position: int) -> None:
        declaration = measure.declaration
        self.key = key
        self.name = measure.trec_name or measure.name
        cut = measure.k is not None
        places = [i for i, (d, c) in enumerate(TREC_EVAL_ORDER) if d is declaration and c == cut]
        rank = len(TREC_EVAL_ORDER) + position  # trec_eval lacks it: last, in the order asked
        if measure.trec_name is not None and places:
            rank = places[0]
        self.order = (rank, _cutoff_order(measure), position)
        self.integer = declaration.combine == "sum"  # the counts: trec_eval's "%ld"
        self.averaged = declaration.combine == "mean"
        # trec_eval prints no query line for num_q and for its geometric means
        self.summary_only = declaration is NUM_Q or declaration.combine == "gm"

    def text(self, query: str, value: float, name: str | None = None) -> str:
        """The line for one value, or an empty string where there is no value (NaN)."""
        if math.isnan(value):
            return ""
        shown = f"{int(value)}" if self.integer else f"{value:6.4f}"
        return f"{name or self.name:<22}\t{query}\t{shown}\n"


def format_trec(
    scores: RunScores,
    *,
    per_query: bool = False,
    run_tag: str | None = None,
    aggregate: Aggregate = "mean",
) -> str:
    """Print scores as trec_eval does, byte for byte: ``-q`` blocks per query, then ``all``.

    Parameters
    ----------
    scores : RunScores
        A run's scores, as :func:`mapteach.runs.scoring.score_run` returns them.
    per_query : bool, default False
        Print every query's lines before the ``all`` lines (trec_eval ``-q``).
    run_tag : str, optional
        The run's name for the ``runid`` line, first of the ``all`` block (trec_eval
        prints the tag of the run file's last line). None prints no ``runid`` line.
    aggregate : {"mean", "gm"}, default "mean"
        How the ``all`` line averages a measure over queries. With ``"gm"`` the
        averaged measures' names gain a ``gm_`` prefix (``map`` prints as ``gm_map``).

    Returns
    -------
    str
        The lines, each ending in a newline.

    Raises
    ------
    ValueError
        If ``aggregate`` is not one of the choices.

    Examples
    --------
    >>> from mapteach.runs.scoring import score_run
    >>> qrels = {"q1": {"a": 1, "b": 1}, "q2": {"c": 1}}
    >>> run = {"q1": {"a": 2.0, "x": 1.0}, "q2": {"y": 2.0, "c": 1.0}}
    >>> scores = score_run(qrels, run, ["map", "P.2", "num_ret"])
    >>> text = format_trec(scores, per_query=True, run_tag="bm25")
    >>> text.splitlines()[1]  # the name padded to 22 characters, tabs, 4 decimals
    'map                   \\tq1\\t0.5000'
    >>> print(text, end="")  # doctest: +NORMALIZE_WHITESPACE
    num_ret  q1   2
    map      q1   0.5000
    P_2      q1   0.5000
    num_ret  q2   2
    map      q2   0.5000
    P_2      q2   0.5000
    runid    all  bm25
    num_ret  all  4
    map      all  0.5000
    P_2      all  0.5000
    """
    check_choice(aggregate, AGGREGATES, name="aggregate")
    lines = sorted(
        (
            _Line(key, measure, position)
            for position, (key, measure) in enumerate(scores.measures.items())
        ),
        key=lambda line: line.order,
    )
    blocks: list[str] = []
    if per_query:
        for row, query in enumerate(scores.queries):  # in trec_eval's order (strcmp's)
            blocks.extend(
                line.text(query, float(scores.values[line.key][row]))
                for line in lines
                if not line.summary_only
            )
    if run_tag is not None:
        blocks.append(f"{'runid':<22}\tall\t{run_tag}\n")
    for line in lines:
        renamed = aggregate == "gm" and line.averaged
        value = scores.summary(line.key, aggregate=aggregate)
        blocks.append(line.text("all", value, f"gm_{line.name}" if renamed else None))
    return "".join(blocks)
