"""The glossary's terms: each one's names, formula, defining notebook and a note.

The data behind :mod:`mapteach.explain.glossary`, kept apart so that the module that
shows the glossary stays short. Terms are listed with longer phrases first: a text is
searched in this order, and a name found inside a longer one (precision inside average
precision) is read as the longer term only.

>>> from mapteach.explain.glossary_terms import TERMS
>>> TERMS["nDCG"].notebook, TERMS["nDCG"].named_in("nDCG@10 and IDCG")
('08_choosing_a_metric', True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mapteach.i18n import N_
from mapteach.metrics.bpref import BPREF

#: bpref is named as trec_eval names it, read from its declaration.
_BPREF = BPREF.trec_eval or BPREF.name

__all__ = ["TERMS", "Term"]


@dataclass(frozen=True)
class Term:
    """A term of the glossary.

    Attributes
    ----------
    english : str
        Its English name (a catalogue message).
    zh : str
        The preferred Chinese name, used throughout the Chinese edition.
    zh_also : tuple of str
        Other Chinese names a reader meets and the workbook accepts.
    zh_avoid : tuple of str
        Names the workbook never uses for this term (each is wrong or ambiguous).
    formula : str
        Its definition as LaTeX (IIR ch. 8, trec_eval, or the paper that defines it).
    notebook : str
        The notebook that defines it; an earlier notebook may only name it with a
        forward link ("see notebook NN").
    note : str
        What it means or why the names are what they are (a catalogue message).
    english_pattern : str
        A regular expression finding the term in an English message.
    """

    english: str
    zh: str
    zh_also: tuple[str, ...]
    zh_avoid: tuple[str, ...]
    formula: str
    notebook: str
    note: str
    english_pattern: str

    @property
    def zh_names(self) -> tuple[str, ...]:
        """The preferred name, then the accepted ones."""
        return (self.zh, *self.zh_also)

    def named_in(self, english: str) -> bool:
        """Whether an English text names the term (whole words, any case)."""
        return re.search(self.english_pattern, english, flags=re.IGNORECASE) is not None


_MEASURES = "08_choosing_a_metric"
_JUDGING = "12_judging_relevance"
_POOLING = "14_incomplete_judgments_and_pooling"
_COMPARING = "15_comparing_systems_honestly"
_OTHER_NUMBERS = "13_r_precision_and_other_numbers"
_AVERAGING = "04_mean_average_precision"

#: Every term, keyed by its short English name, longer phrases first.
TERMS: dict[str, Term] = {
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
            "精度 only inside 平均精度 (AP)."
        ),
        r"\bprecision\b",
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
    ),
    "relevance judgment": Term(
        N_("relevance judgment"),
        "相关性标注",
        ("标注",),
        ("相关性判断",),
        r"\text{qrels line: } q \;\; 0 \;\; d \;\; \mathrm{rel}",
        "00_start_here",
        N_(
            "A person's grade for one document and one query; a qrels file holds them. "
            "Notebook 12 shows how they are made and how far annotators agree."
        ),
        r"\bjudge?ments?\b",
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
    "chance agreement": Term(
        N_("chance agreement"),
        "偶然一致率",
        ("偶然一致", "期望一致率", "随机一致率"),
        (),
        r"p_e = \sum_{c} p_A(c)\, p_B(c)",
        _JUDGING,
        N_(
            "How often two annotators would agree if each graded at random with their own "
            "frequencies (Cohen); IIR uses the two annotators' combined frequencies instead."
        ),
        r"\bchance agreement\b|\bexpected agreement\b",
    ),
    "inter-annotator agreement": Term(
        N_("inter-annotator agreement"),
        "标注一致性",
        ("一致性",),
        (),
        r"\kappa = \frac{p_o - p_e}{1 - p_e}, \quad \alpha = 1 - \frac{D_o}{D_e}",
        _JUDGING,
        N_(
            "How far annotators agree beyond chance: Cohen's kappa compares observed and "
            "chance agreement, Krippendorff's alpha observed and expected disagreement."
        ),
        # not chance agreement p_e nor observed agreement p_o: shares, not the concept
        r"(?<!chance )(?<!observed )(?<!expected )\bagreement\b(?! chance)",
    ),
    "weighted kappa": Term(
        N_("weighted kappa"),
        "加权 kappa",
        ("加权kappa",),
        (),
        r"\kappa_w = 1 - \frac{\sum_{i,j} w_{ij}\, o_{ij}}{\sum_{i,j} w_{ij}\, e_{ij}},"
        r"\quad w_{ij} = |i - j| \text{ or } (i - j)^2",
        _JUDGING,
        N_(
            "Cohen's kappa on grades, where a disagreement by two grades costs more than one "
            "by one grade (linear or quadratic weights). IIR's reading scale is for plain "
            "kappa only."
        ),
        r"\b(?:(?:linear|quadratic)(?:ly)?[- ])?weighted kappas?\b",
    ),
    "Fleiss' kappa": Term(
        N_("Fleiss' kappa"),
        "Fleiss kappa",
        ("Fleiss 的 kappa", "Fleiss的kappa"),
        (),
        r"\kappa = \frac{\bar P - \bar P_e}{1 - \bar P_e}",
        _JUDGING,
        N_(
            "Kappa for more than two annotators, each item graded by the same number of "
            "distinct people; chance agreement from the grade frequencies of all of them."
        ),
        r"\bFleiss\b",
    ),
    "Krippendorff's alpha": Term(
        N_("Krippendorff's alpha"),
        "Krippendorff alpha",
        ("Krippendorff 的 alpha", "Krippendorff的alpha", "Krippendorff's alpha"),
        (),
        r"\alpha = 1 - \frac{D_o}{D_e}",
        _JUDGING,
        N_(
            "One minus observed over expected disagreement: any number of annotators, missing "
            "grades allowed, and a distance that suits the scale (nominal, ordinal)."
        ),
        r"\bKrippendorff(?:'s|’s)? alpha\b",
    ),
    "nDCG": Term(
        N_("normalized discounted cumulative gain (nDCG)"),
        "归一化折损累计增益",
        ("nDCG", "DCG"),
        (),
        r"\mathrm{nDCG}@k = \frac{\mathrm{DCG}@k}{\mathrm{IDCG}@k}, \quad "
        r"\mathrm{DCG}@k = \sum_{i=1}^{k} \frac{\mathrm{gain}_i}{\log_2(i + 1)}",
        _MEASURES,
        N_(
            "Graded gains discounted by log2(rank + 1), divided by the ideal ranking's DCG "
            "(Järvelin and Kekäläinen 2002); trec_eval's gain is the grade itself."
        ),
        r"\bn?DCGs?\b|\bdiscounted cumulative gain\b",
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
    ),
    "Hit@k": Term(
        N_("hit at k (Hit@k)"),
        "Hit@k",
        ("命中率",),
        (),
        r"\mathrm{Hit}@k = \begin{cases} 1 & \text{a relevant result in the top } k \\ "
        r"0 & \text{otherwise} \end{cases}",
        _MEASURES,
        N_("Whether the top k hold at least one relevant result; its mean is the hit rate."),
        r"\bhit@k\b|\bhit rate\b",
    ),
    _BPREF: Term(
        N_("bpref (binary preference)"),
        _BPREF,
        (),
        (),
        r"\mathrm{bpref} = \frac{1}{R}\sum_{r} \Bigl(1 - "
        r"\frac{\min(|n \text{ above } r|, R)}{\min(R, N)}\Bigr)",
        _POOLING,
        N_(
            "Judged documents only: each retrieved relevant result loses the judged "
            "non-relevant ones ranked above it, counted up to R, over min(R, N), N the judged "
            "non-relevant (Buckley and Voorhees 2004, trec_eval)."
        ),
        r"\bbpref\b",
    ),
    "pooling": Term(
        N_("pooling"),
        "池化",
        ("建池", "池"),
        (),
        r"\mathrm{pool}_q = \bigcup_{s \in \text{pooled runs}} \mathrm{top}_k(s, q)",
        _POOLING,
        N_(
            "Judging only the top k results of the pooled runs (often a subset of the runs "
            "submitted); every other document counts as not relevant."
        ),
        # "pooled" also means merged (a pooled list, pooled frequencies): only the pool's own uses
        r"\bpool(?:s|ing)?\b|,\s+pooled\b|\bpooled (?:judgments|qrels|runs?|AP|R|ones|to)\b",
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
    ),
    "Kendall's tau": Term(
        N_("Kendall's tau"),
        "Kendall tau",
        ("Kendall τ", "Kendall 的 tau", "肯德尔等级相关系数"),
        (),
        r"\tau = \frac{n_c - n_d}{n(n - 1)/2}",
        _POOLING,
        N_(
            "How alike two rankings of the same systems are: concordant minus discordant "
            "pairs over all pairs (scipy's kendalltau computes tau-b, which adjusts for ties)."
        ),
        r"\bKendall\b",
    ),
    "bootstrap": Term(
        N_("bootstrap"),
        "自助法",
        ("自助抽样", "bootstrap"),
        (),
        r"\bar\delta^{*}_b = \frac{1}{n}\sum_{i=1}^{n} \delta_{j_i}, \quad "
        r"j_i \sim \mathrm{U}\{1, \ldots, n\}",
        _COMPARING,
        N_(
            "Resample the queries with replacement many times; the middle 95% of the "
            "resampled mean differences is a 95% (percentile) confidence interval."
        ),
        r"\bbootstrap\w*",
    ),
    "Holm": Term(
        N_("Holm correction"),
        "Holm 校正",
        ("Holm",),
        (),
        r"p^{\mathrm{Holm}}_{(i)} = \max_{j \le i} \min\bigl(1, (m - j + 1)\, p_{(j)}\bigr)",
        _COMPARING,
        N_(
            "Adjusts m p-values so that the chance of even one false positive among the m "
            "tests (the family-wise error rate) stays at or below the level."
        ),
        r"\bHolm\b",
    ),
    "Benjamini-Hochberg": Term(
        N_("Benjamini–Hochberg (false discovery rate)"),
        "错误发现率",
        ("Benjamini–Hochberg", "Benjamini-Hochberg", "FDR"),
        (),
        r"p^{\mathrm{BH}}_{(i)} = \min_{j \ge i} \min\bigl(1, \tfrac{m}{j}\, p_{(j)}\bigr)",
        _COMPARING,
        N_(
            "Adjusts m p-values so that the expected share of false positives among the "
            "results called significant (the false discovery rate) stays at or below the level."
        ),
        r"\bBenjamini\b|\bHochberg\b|\bfalse discovery rates?\b|\bFDR\b",
    ),
    "Tukey HSD": Term(
        N_("Tukey HSD"),
        "Tukey HSD",
        ("Tukey 检验", "Tukey检验"),
        (),
        r"|\bar x_i - \bar x_j| > q_{\alpha;\, m,\, \nu} \sqrt{\mathrm{MS}_E / n}",
        _COMPARING,
        N_(
            "Compares every pair of m systems at once against the studentized range, keeping "
            "the family-wise error rate of all the pairs at the level (Carterette 2012)."
        ),
        r"\bTukey\b|\bHSD\b",
    ),
    "Wilcoxon": Term(
        N_("Wilcoxon signed-rank test"),
        "Wilcoxon 符号秩检验",
        ("Wilcoxon 检验", "Wilcoxon检验", "Wilcoxon符号秩检验"),
        (),
        r"W^{+} = \sum_{i:\, d_i > 0} \operatorname{rank}(|d_i|)",
        _COMPARING,
        N_(
            "A paired test on the signed ranks of the per-query differences: a larger "
            "difference weighs more, but only through its rank."
        ),
        r"\bWilcoxon\b",
    ),
    "sign test": Term(
        N_("sign test"),
        "符号检验",
        (),
        (),
        r"p = P\bigl(|\mathrm{Bin}(n, \tfrac{1}{2}) - \tfrac{n}{2}| \ge |w - \tfrac{n}{2}|\bigr)",
        _COMPARING,
        N_(
            "A paired test that counts only which system wins each query: w wins out of n "
            "untied queries, tested against a fair coin."
        ),
        r"\bsign tests?\b",
    ),
    "discriminative power": Term(
        N_("discriminative power"),
        "区分能力",
        ("判别力", "区分度"),
        (),
        r"\frac{|\{(s, t) : p_{st} < \alpha\}|}{\binom{m}{2}}",
        _COMPARING,
        N_(
            "The share of system pairs a measure finds significantly different on a test "
            "collection (Sakai 2006): a property of many pairs, not of one."
        ),
        r"\bdiscriminative power\b",
    ),
    "swap rate": Term(
        N_("swap rate"),
        "交换率",
        ("翻转率",),
        (),
        r"\frac{|\{(s, t) : \operatorname{sign}\Delta^{(1)}_{st} \ne "
        r"\operatorname{sign}\Delta^{(2)}_{st}\}|}{|\text{pairs}|}",
        _COMPARING,
        N_(
            "How often two disjoint sets of queries order a pair of systems differently "
            "(Voorhees and Buckley 2002); it falls as the query sets grow."
        ),
        r"\bswap rates?\b",
    ),
}
