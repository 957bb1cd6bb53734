"""The option vocabularies of the measures and of ``evaluate``, each defined once.

Every convention switch is a ``Literal`` type, for type checkers and readers, and a
tuple of its values derived from that type, for argparse, drop-downs and checks at
run time, so the two cannot drift apart.

Examples
--------
>>> from mapteach.metrics import NO_RELEVANT
>>> from mapteach.metrics.options import TIES
>>> TIES
('trec_eval', 'input', 'optimistic', 'pessimistic', 'expected', 'ir_measures')
>>> NO_RELEVANT
('zero', 'skip', 'one', 'error')
"""

from __future__ import annotations

from typing import Literal, get_args

__all__ = [
    "AGGREGATES",
    "DENOMINATORS",
    "ELEVEN_POINT",
    "GAINS",
    "MISSING",
    "NO_RELEVANT",
    "TIES",
    "Aggregate",
    "Denominator",
    "ElevenPoint",
    "Gain",
    "Missing",
    "NoRelevant",
    "Ties",
]

#: How tied scores are ordered. ``"trec_eval"``: document id descending, as
#: strings. ``"input"``: the order of the input (a stable sort). ``"optimistic"``
#: and ``"pessimistic"``: higher (lower) grades first within a tie. ``"expected"``:
#: the mean over every order of each tied group (McSherry and Najork 2008), exact.
#: ``"ir_measures"``: document id ascending, as strings (ir_measures' own measures,
#: such as Judged@k, sort by score descending, then id).
Ties = Literal["trec_eval", "input", "optimistic", "pessimistic", "expected", "ir_measures"]
TIES: tuple[Ties, ...] = get_args(Ties)

#: What a query with no relevant document (R = 0) contributes to MAP.
#: ``"zero"``: AP = 0 (trec_eval). ``"skip"``: left out of the mean (article 003,
#: torchmetrics ``empty_target_action="skip"``). ``"one"``: AP = 1 (torchmetrics
#: ``empty_target_action="pos"``). ``"error"``: raise, so that nobody has to decide silently.
NoRelevant = Literal["zero", "skip", "one", "error"]
NO_RELEVANT: tuple[NoRelevant, ...] = get_args(NoRelevant)

#: What happens to a query judged in the qrels but absent from the run.
#: ``"error"``: stop with an error naming the queries, as trec_eval 10 does without
#: ``-c`` (the default). ``"zero"``: score it 0 on every measure, which counts it in
#: every mean (trec_eval ``-c``, ir_measures). ``"ignore"``: leave it out of the
#: results and of every mean, with a warning giving the count.
Missing = Literal["error", "zero", "ignore"]
MISSING: tuple[Missing, ...] = get_args(Missing)

#: What AP divides by. ``"relevant"``: R, all relevant documents of the query
#: (trec_eval, ir_measures, ranx). ``"min_relevant_k"``: min(R, k), Kaggle's
#: ``apk``. ``"retrieved"``: the relevant documents within the ranks that count
#: (the whole list, or the top k): sklearn, torchmetrics ``top_k``, article 001.
Denominator = Literal["relevant", "min_relevant_k", "retrieved"]
DENOMINATORS: tuple[Denominator, ...] = get_args(Denominator)

#: How many relevant documents reach recall level L (0.0, 0.1, ..., 1.0) in the
#: 11-point interpolated average, for a query with R relevant documents.
#: ``"iir"``: recall >= L exactly, ceil(L x R) (Manning et al., IIR ch. 8).
#: ``"trec_eval_9"``: ``(long)(L * R + 0.9)`` in doubles (trec_eval 9.x, pytrec_eval):
#: the same count except where the doubles fall short, as 0.7 x 3 + 0.9 =
#: 2.9999999999999996, which asks for 2 where IIR asks for 3.
#: ``"trec_eval_10"``: ``lround(L * R)``, the nearest count (trec_eval 10), in doubles
#: too: 0.7 x 45 = 31.499999999999996 rounds to 31.
ElevenPoint = Literal["iir", "trec_eval_9", "trec_eval_10"]
ELEVEN_POINT: tuple[ElevenPoint, ...] = get_args(ElevenPoint)

#: The gain of a graded judgment in nDCG. ``"linear"``: the grade itself
#: (trec_eval's ``ndcg``). ``"exponential"``: 2^grade - 1 (Burges et al. 2005),
#: which weighs the top grades more.
Gain = Literal["linear", "exponential"]
GAINS: tuple[Gain, ...] = get_args(Gain)

#: How the per-query values of a measure become one value for the run.
#: ``"mean"``: the arithmetic mean (MAP from AP). ``"gm"``: the geometric mean, each
#: value floored at 1e-5 first, as trec_eval's ``gm_map`` (GMAP) does, which weighs the
#: hardest queries more. Counts (NumRet, NumRel, NumRelRet) are summed either way.
Aggregate = Literal["mean", "gm"]
AGGREGATES: tuple[Aggregate, ...] = get_args(Aggregate)
