"""The glossary's terms: each one's names, formula, defining notebook and a note.

The data behind :mod:`mapteach.explain.glossary`, kept apart so that the module that
shows the glossary stays short: the measures here, the terms of judging, comparing and
the workbook itself in :mod:`mapteach.explain.glossary_practice`. Terms are listed with
longer phrases first: a text is searched in this order, and a name found inside a longer
one (precision inside average precision) is read as the longer term only.

>>> from mapteach.explain.glossary_terms import TERMS
>>> TERMS["nDCG"].notebook, TERMS["nDCG"].named_in("nDCG@10 and IDCG")
('08_choosing_a_metric', True)
>>> TERMS["run"].zh, TERMS["run"].zh_avoid
('排序结果', ('运行结果',))
"""

from __future__ import annotations

import re

from mapteach.explain.glossary_entry import Term
from mapteach.explain.glossary_practice import PRACTICE_TERMS
from mapteach.i18n import N_, tr
from mapteach.metrics.bpref import BPREF
from mapteach.metrics.infap import INFAP
from mapteach.metrics.interpolated_precision import IPREC

#: bpref, infAP and IPrec are named as trec_eval names them, read from their declarations.
_BPREF = BPREF.trec_eval or BPREF.name
_INFAP = INFAP.trec_eval or INFAP.name
_IPREC = IPREC.trec_eval_cut or IPREC.name

__all__ = ["TERMS", "Term", "ruled_out_variants"]

_MEASURES = "08_choosing_a_metric"
_POOLING = "14_incomplete_judgments_and_pooling"
_OTHER_NUMBERS = "13_r_precision_and_other_numbers"
_AVERAGING = "04_mean_average_precision"

#: The measures' terms, longer phrases first.
_MEASURE_TERMS: dict[str, Term] = {
    "measure": Term(
        N_("measure"),
        "指标",
        ("评价指标",),
        ("度量",),
        r"M_q = f(\text{ranked list of } q,\ \text{qrels of } q)",
        "00_start_here",
        N_(
            "A number computed from a query's ranked list and its relevance judgments that "
            "says how good the ranking is (AP, P@k, nDCG); the workbook says measure and "
            "metric alike."
        ),
        r"\bmeasures?\b(?! (?:the|size)\b)",
        formula_zh=r"M_q = f(q \text{ 的排序列表},\ q \text{ 的 qrels})",
    ),
    _INFAP: Term(
        N_("inferred average precision (infAP)"),
        "推断平均精度",
        (_INFAP,),
        (),
        r"\mathrm{infAP} = \frac{1}{R}\sum_{k:\,\mathrm{rel}_k} E[P@k]",
        _POOLING,
        N_(
            "AP estimated from a random sample of the pool: each judged relevant result adds "
            "the expected precision above it (Yilmaz and Aslam 2006)."
        ),
        r"\binfAP\b|\binferred average precision\b",
    ),
    "RBP": Term(
        N_("rank-biased precision (RBP)"),
        "排序偏置精确率",
        ("RBP",),
        (),
        r"\mathrm{RBP} = (1 - p)\sum_{i=1}^{n} \mathrm{rel}_i\, p^{i-1}",
        _OTHER_NUMBERS,
        N_(
            "A user goes on from one rank to the next with probability p: the gain a user gets "
            "per rank read, on average (Moffat and Zobel 2008); it needs no R."
        ),
        r"\bRBP\b|\brank-biased precision\b",
    ),
    "ERR": Term(
        N_("expected reciprocal rank (ERR)"),
        "期望倒数排名",
        ("ERR",),
        (),
        r"\mathrm{ERR} = \sum_{r=1}^{n} \frac{1}{r}\, R_r \prod_{i<r} (1 - R_i), \quad R_i = "
        r"\frac{2^{g_i} - 1}{2^{g_{\max}}}",
        _OTHER_NUMBERS,
        N_(
            "A user stops at a result with a probability set by its grade: one over the rank "
            "where they stop, in expectation (Chapelle et al. 2009)."
        ),
        r"(?-i:\bERR\b)|\bexpected reciprocal rank\b",
    ),
    "micro-averaging": Term(
        N_("micro-averaging"),
        "微平均",
        ("micro-average",),
        (),
        r"P_{\mathrm{micro}} = \frac{\sum_q \text{relevant in the top } k_q}{\sum_q k_q}",
        _AVERAGING,
        N_(
            "Add up every query's counts, then compute the measure once: queries with more "
            "results weigh more (IIR 8.3)."
        ),
        r"\bmicro-?\s?averag\w*(?: precision)?",
        formula_zh=(
            r"P_{\mathrm{micro}} = \frac{\sum_q \text{前 } k_q \text{ 位中的相关文档数}}{\sum_q "
            r"k_q}"
        ),
    ),
    "macro-averaging": Term(
        N_("macro-averaging"),
        "宏平均",
        (),
        (),
        r"\bar{M} = \frac{1}{|Q|}\sum_{q \in Q} M_q",
        _AVERAGING,
        N_(
            "Compute the measure per query, then take the plain mean: each query weighs 1/Q. "
            "MAP is macro-averaged."
        ),
        r"\bmacro-?\s?averag\w*(?: precision)?",
    ),
    "GMAP": Term(
        N_("geometric mean average precision (GMAP)"),
        "GMAP",
        ("几何平均精度均值",),
        (),
        r"\mathrm{GMAP} = \Bigl(\prod_{q \in Q} \max(\mathrm{AP}_q, 10^{-5})\Bigr)^{1/|Q|}",
        _OTHER_NUMBERS,
        N_(
            "The geometric mean of the queries' APs, each floored at 0.00001 as trec_eval "
            "does: a query near 0 pulls it down far more than it pulls MAP."
        ),
        r"\bGMAP\b|\bgeometric mean average precision\b",
    ),
    "MAP": Term(
        N_("mean average precision (MAP)"),
        "平均精度均值",
        (),
        ("平均准确率均值",),
        r"\mathrm{MAP} = \frac{1}{|Q|}\sum_{q \in Q} \mathrm{AP}_q",
        _AVERAGING,
        N_("The mean of the queries' APs, each query weighing the same."),
        r"\bmean average precision\b",
    ),
    "AP@k": Term(
        N_("AP at a cutoff (AP@k)"),
        "AP@k",
        ("截断平均精度",),
        (),
        r"\mathrm{AP}@k = \frac{1}{D}\sum_{i=1}^{k} P@i \cdot \mathrm{rel}_i,\quad "
        r"D \in \{R,\ \min(k, R),\ \text{relevant in the top } k\}",
        "03_average_precision_by_hand",
        N_(
            "Three denominators are in use: R (trec_eval's map_cut, the workbook's), min(k, R) "
            "(ml_metrics' apk, Kaggle's MAP@k) and the relevant results in the top k "
            "(torchmetrics' top_k). Only with R is AP@k never above AP. Notebook 10 compares "
            "them."
        ),
        r"\bm?AP@k\b",
        formula_zh=(
            r"\mathrm{AP}@k = \frac{1}{D}\sum_{i=1}^{k} P@i \cdot \mathrm{rel}_i,\quad D \in \{R,\ "
            r"\min(k, R),\ \text{前 } k \text{ 位中的相关文档数}\}"
        ),
    ),
    "AP": Term(
        N_("average precision (AP)"),
        "平均精度",
        (),
        ("平均准确率", "平均精确率"),
        r"\mathrm{AP} = \frac{1}{R}\sum_{k=1}^{n} P@k \cdot \mathrm{rel}_k",
        "03_average_precision_by_hand",
        N_(
            "The sum of P@k at the ranks of the relevant results, divided by R, the query's "
            "relevant documents."
        ),
        r"\baverage precision\b",
    ),
    "R-precision": Term(
        N_("R-precision"),
        "R-精确率",
        ("R-precision",),
        (),
        r"\text{R-precision} = P@R",
        _OTHER_NUMBERS,
        N_("Precision at rank R, the query's own number of relevant documents."),
        r"\bR-precision\b",
        formula_zh=r"\text{R-精确率} = P@R",
    ),
    "IPrec": Term(
        N_("interpolated precision at a recall level (IPrec)"),
        "IPrec",
        (_IPREC,),
        (),
        r"\mathrm{IPrec}@r = p_{\mathrm{interp}}(r), \quad r \in \{0, 0.1, \ldots, 1\}",
        "07_pr_curves",
        N_(
            "trec_eval's iprec_at_recall_0.00 to _1.00: the interpolated precision at each of "
            "the 11 recall levels."
        ),
        r"\bIPrec\w*|\biprec_at_recall\w*",
    ),
    "P@k": Term(
        N_("precision at k (P@k)"),
        "P@k",
        ("前 k 位精确率",),
        (
            "P@排名",
            "P@rank",
            "截断于k的精确率",
            "截断于 k 的精确率",
        ),
        r"P@k = \frac{\text{relevant documents in the top } k}{k}",
        "00_start_here",
        N_("Precision with the cutoff at rank k; P@10 reads the top 10 of every query."),
        r"(?-i:\bP@k\b)|\bprecision at (?:rank )?k\b",
        formula_zh=r"P@k = \frac{\text{前 } k \text{ 位中的相关文档数}}{k}",
    ),
    "interpolated precision": Term(
        N_("interpolated precision"),
        "插值精确率",
        (),
        (),
        r"p_{\mathrm{interp}}(r) = \max_{r' \ge r} p(r')",
        "07_pr_curves",
        N_("The best precision at this recall or any higher recall."),
        r"\binterpolated precision\b",
    ),
    "precision": Term(
        N_("precision"),
        "精确率",
        ("查准率",),
        ("准确率", "精度"),
        r"P@k = \frac{\text{relevant results in the top } k}{k}",
        "02_precision_and_recall_at_k",
        N_(
            "Articles also write 精度, the everyday word for exactness, and some "
            "write 准确率, which is accuracy; the workbook writes 精确率 and keeps "
            "精度 only inside 平均精度 (AP) and the names built on it."
        ),
        r"\bprecision\b",
        formula_zh=r"P@k = \frac{\text{前 } k \text{ 位中的相关文档数}}{k}",
    ),
    "recall": Term(
        N_("recall"),
        "召回率",
        ("查全率",),
        (),
        r"R@k = \frac{\text{relevant results in the top } k}{R}",
        "02_precision_and_recall_at_k",
        N_("The share of the query's relevant documents found in the top k."),
        r"\brecall\b",
        formula_zh=r"R@k = \frac{\text{前 } k \text{ 位中的相关文档数}}{R}",
    ),
    "accuracy": Term(
        N_("accuracy"),
        "准确率",
        ("正确率",),
        (),
        r"\mathrm{accuracy} = \frac{TP + TN}{TP + TN + FP + FN}",
        "01_why_order_matters",
        N_("The share of all decisions, relevant or not, that are right; blind to order."),
        r"\baccuracy\b",
        formula_zh=r"\text{准确率} = \frac{TP + TN}{TP + TN + FP + FN}",
    ),
    "cutoff": Term(
        N_("cutoff"),
        "截断",
        (),
        ("截止",),
        r"M@k = M(\text{ranks } 1, \ldots, k)",
        "02_precision_and_recall_at_k",
        N_(
            "The rank k where a measure stops reading the list: P@k, R@k, AP@k and nDCG@k "
            "ignore every result below it."
        ),
        r"\bcut-?offs?\b",
        formula_zh=r"M@k = M(\text{第 } 1, \ldots, k \text{ 位})",
    ),
    "ties": Term(
        N_("ties"),
        "并列",
        (),
        ("平局",),
        r"\text{trec\_eval: score descending, then document id descending}",
        "09_why_maps_disagree",
        N_(
            "Results with the same score: the order between them is a convention, and AP "
            "depends on it."
        ),
        r"\bti(?:e|es|ed)\b",
        formula_zh=r"\text{trec\_eval：先按分数降序，分数相同时按文档编号降序}",
    ),
    "interpolation": Term(
        N_("interpolation"),
        "插值",
        (),
        (),
        r"\mathrm{11pt} = \frac{1}{11}\sum_{r \in \{0, 0.1, \ldots, 1\}} p_{\mathrm{interp}}(r)",
        "07_pr_curves",
        N_(
            "Reading precision at fixed recall levels by taking the best precision at that "
            "recall or beyond."
        ),
        r"\binterpolat\w*",
    ),
    "nDCG": Term(
        N_("normalized discounted cumulative gain (nDCG)"),
        "归一化折损累计增益",
        ("nDCG",),
        (),
        r"\mathrm{nDCG}@k = \frac{\mathrm{DCG}@k}{\mathrm{IDCG}@k}, \quad "
        r"\mathrm{DCG}@k = \sum_{i=1}^{k} \frac{\mathrm{gain}_i}{\log_2(i + 1)}",
        _MEASURES,
        N_(
            "Graded gains discounted by log2(rank + 1), divided by the ideal ranking's DCG "
            "(Järvelin and Kekäläinen 2002); trec_eval's gain is the grade itself."
        ),
        r"\bnDCGs?\b|\bnormali[sz]ed discounted cumulative gain\b",
        formula_zh=(
            r"\mathrm{nDCG}@k = \frac{\mathrm{DCG}@k}{\mathrm{IDCG}@k}, \quad \mathrm{DCG}@k = "
            r"\sum_{i=1}^{k} \frac{\text{增益}_i}{\log_2(i + 1)}"
        ),
    ),
    "DCG": Term(
        N_("discounted cumulative gain (DCG, IDCG)"),
        "折损累计增益",
        (
            "DCG",
            "IDCG",
            "理想折损累计增益",
        ),
        (),
        r"\mathrm{DCG}@k = \sum_{i=1}^{k} \frac{\mathrm{gain}_i}{\log_2(i + 1)}",
        _MEASURES,
        N_(
            "The gains of the top k, each divided by log2(rank + 1); IDCG is the DCG of the "
            "ideal ranking."
        ),
        r"\bI?DCGs?\b|\b(?:ideal )?discounted cumulative gain\b",
        formula_zh=r"\mathrm{DCG}@k = \sum_{i=1}^{k} \frac{\text{增益}_i}{\log_2(i + 1)}",
    ),
    "RR": Term(
        N_("reciprocal rank (RR, MRR)"),
        "倒数排名",
        ("平均倒数排名", "RR", "MRR"),
        (),
        r"\mathrm{RR} = \frac{1}{\text{rank of the first relevant result}}, \quad "
        r"\mathrm{MRR} = \frac{1}{|Q|}\sum_{q \in Q} \mathrm{RR}_q",
        _MEASURES,
        N_(
            "One over the rank of the first relevant result, 0 when there is none; MRR is its "
            "mean over the queries."
        ),
        r"\b(?:mean )?reciprocal ranks?\b|\bM?RR\b",
        formula_zh=(
            r"\mathrm{RR} = \frac{1}{\text{第一个相关文档的排名}}, \quad \mathrm{MRR} = "
            r"\frac{1}{|Q|}\sum_{q \in Q} \mathrm{RR}_q"
        ),
    ),
    "Hit@k": Term(
        N_("hit at k (Hit@k)"),
        "Hit@k",
        ("命中率",),
        (),
        r"\mathrm{Hit}@k = \begin{cases} 1 & \text{a relevant result in the top } k \\ "
        r"0 & \text{otherwise} \end{cases}",
        _MEASURES,
        N_(
            "1 when the top k hold at least one relevant result, else 0; the hit rate is the "
            "same measure, a name mostly given to its mean over the queries."
        ),
        r"\bhit@k\b|\bhit rate\b",
        formula_zh=(
            r"\mathrm{Hit}@k = \begin{cases} 1 & \text{前 } k \text{ 位中至少有一个相关文档} \\ 0 "
            r"& \text{其他情况} \end{cases}"
        ),
    ),
    _BPREF: Term(
        N_("bpref (binary preference)"),
        _BPREF,
        (),
        (),
        r"\mathrm{bpref} = \frac{1}{R}\sum_{r} \Bigl(1 - \frac{\min(\text{judged non-relevant "
        r"above } r,\ R)}{\min(R, N)}\Bigr)",
        _POOLING,
        N_(
            "Judged documents only: each retrieved relevant result loses the judged "
            "non-relevant ones ranked above it, counted up to R, over min(R, N), N the judged "
            "non-relevant (Buckley and Voorhees 2004, trec_eval)."
        ),
        r"\bbpref\b",
        formula_zh=(
            r"\mathrm{bpref} = \frac{1}{R}\sum_{r} \Bigl(1 - \frac{\min(\text{排在 } r \text{ "
            r"之前的已标注不相关文档数},\ R)}{\min(R, N)}\Bigr)"
        ),
    ),
    "condensed list": Term(
        N_("condensed list"),
        "压缩列表",
        (),
        (
            "精简列表",
            "浓缩列表",
        ),
        r"\text{the run with every unjudged document removed}",
        _POOLING,
        N_(
            "The ranking with its unjudged documents removed, so that a measure reads only "
            "judged ones (Sakai 2007)."
        ),
        r"\bcondensed(?: lists?)?\b",
        formula_zh=r"\text{去掉所有未标注文档后的排序结果}",
    ),
    "Judged@k": Term(
        N_("Judged@k"),
        "Judged@k",
        ("已标注比例",),
        (),
        r"\mathrm{Judged}@k = \frac{\text{judged results in the top } k}{k}",
        _POOLING,
        N_(
            "The share of the top k that anyone judged: it warns of holes in the judgments, "
            "not which way they move the score."
        ),
        r"\bJudged@k\b",
        formula_zh=r"\mathrm{Judged}@k = \frac{\text{前 } k \text{ 位中已标注的文档数}}{k}",
    ),
}

#: Every term, keyed by its short English name, longer phrases first.
TERMS: dict[str, Term] = {**_MEASURE_TERMS, **PRACTICE_TERMS}

#: A 「…」 quotation: a verbatim article quote, whose words are the article's, not the glossary's.
_QUOTED = re.compile(r"「[^」]*」")


def ruled_out_variants(text: str) -> list[tuple[str, str]]:
    """The names the glossary rules out that a Chinese text uses, each with the preferred term.

    Parameters
    ----------
    text : str
        Chinese text: a translation, a notebook's markdown, a guide.

    Returns
    -------
    list of (str, str)
        Each ruled-out name found (a term's ``zh_avoid``, the glossary's 不用 column) with
        that term's preferred name (``zh``), in the glossary's order; empty when the text
        keeps to the glossary.

    Raises
    ------
    TypeError
        If ``text`` is not a str.

    Notes
    -----
    Text inside 「…」 (a verbatim article quote) is not searched. A ruled-out name that the
    glossary accepts for another term (准确率 is accuracy's) is not searched, and an
    occurrence inside an accepted name (精度 in 平均精度) does not count.

    Examples
    --------
    >>> ruled_out_variants("两个相关结果的平均精度，「原文的相关结果」")
    [('相关结果', '相关文档')]
    >>> ruled_out_variants("每个相关文档的精确率")
    []
    """
    if not isinstance(text, str):
        kind = type(text).__name__
        raise TypeError(
            tr("The text searched for ruled-out names must be a str, not {kind}.", kind=kind)
        )
    accepted = sorted(
        {name for term in TERMS.values() for name in term.zh_names}, key=len, reverse=True
    )
    unquoted = _QUOTED.sub(" ", text)
    found = []
    for term in TERMS.values():
        for name in term.zh_avoid:
            if name in accepted:
                continue
            masked = unquoted
            for longer in accepted:
                if name in longer:
                    masked = masked.replace(longer, " ")
            if name in masked:
                found.append((name, term.zh))
    return found
