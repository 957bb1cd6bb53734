"""Bpref's geometric mean over queries: trec_eval's ``gm_bpref``.

As GMAP is to AP (:mod:`mapteach.metrics.gmap`): bpref per query
(:mod:`mapteach.metrics.bpref`, its scalar, kernel and expectation), and over queries
exp(mean(log(max(bpref, 1e-5)))), which rewards a run that is consistent across queries
more than one that is excellent on some and poor on others. trec_eval prints it for
``all`` only, never per query; under ``-c`` each query the run lacks adds log(1e-5).
"""

from __future__ import annotations

from mapteach.i18n import N_
from mapteach.metrics.bpref import BPREF
from mapteach.metrics.declaration import Declaration

__all__ = ["GM_BPREF"]

#: GMBpref: trec_eval's ``gm_bpref``; bpref per query, so only its value over queries differs.
GM_BPREF = Declaration(
    name="GMBpref",
    description=N_("bpref per query, geometric mean over queries, each bpref floored at 1e-5"),
    cutoff="none",
    score=BPREF.score,
    kernel=BPREF.kernel,
    expectation=BPREF.expectation,
    trec_eval="gm_bpref",
    combine="gm",
    reads_judged=True,
)
