"""The glossary's terms of judging, pooling, comparing systems and the workbook itself.

Part of :data:`mapteach.explain.glossary_terms.TERMS`, in the same order rule: longer
phrases first.

>>> from mapteach.explain.glossary_practice import PRACTICE_TERMS
>>> PRACTICE_TERMS["relevant document"].zh, PRACTICE_TERMS["trace table"].zh_avoid
('相关文档', ('逐位计算表', '逐位'))
"""

from __future__ import annotations

from mapteach.explain.glossary_entry import Term
from mapteach.i18n import N_

__all__ = ["PRACTICE_TERMS"]

_JUDGING = "12_judging_relevance"
_POOLING = "14_incomplete_judgments_and_pooling"
_COMPARING = "15_comparing_systems_honestly"

#: Terms of judging, pooling, comparing and the workbook, longer phrases first.
PRACTICE_TERMS: dict[str, Term] = {
    "relevant document": Term(
        N_("relevant document"),
        "相关文档",
        (),
        (
            "相关结果",
            "相关项",
            "相关条目",
        ),
        r"R = |\{d : \mathrm{rel}(q, d) > 0\}|",
        "00_start_here",
        N_(
            "A document the qrels grade above 0 for the query, wherever it is ranked; R counts "
            "them. One name for it, in a list or in the qrels."
        ),
        r"(?<!non-)\brelevant (?:documents?|results?|items?|ones?)\b",
    ),
    "binary relevance": Term(
        N_("binary relevance"),
        "二值相关性",
        ("二值",),
        ("二元",),
        r"\mathrm{rel}_i \in \{0, 1\}",
        "01_why_order_matters",
        N_("Relevant or not, nothing in between; graded grades are cut at a threshold first."),
        r"\bbinary\b(?! preference)",
    ),
    "qrels": Term(
        N_("qrels"),
        "qrels",
        ("相关性标注文件",),
        (),
        r"\text{qrels line: } q \;\; 0 \;\; d \;\; \mathrm{rel}",
        "00_start_here",
        N_("The file of relevance judgments, one line per query and document, as TREC writes it."),
        r"\bqrels\b",
        formula_zh=r"\text{qrels 中的一行：} q \;\; 0 \;\; d \;\; \mathrm{rel}",
    ),
    "run": Term(
        N_("run"),
        "排序结果",
        ("run",),
        ("运行结果",),
        r"\text{run line: } q \;\; \mathrm{Q0} \;\; d \;\; \mathrm{rank} \;\; \mathrm{score} "
        r"\;\; \mathrm{tag}",
        "00_start_here",
        N_(
            "A system's ranked lists for every query of a collection, as TREC writes them: what "
            "a system returns, not the output of running a program."
        ),
        r"\b(?:TREC|pooled|new|own|each|every|both|two|other|several|five|the|a) runs?\b(?! "
        r"(?:the|this|it|a|in)\b)|\bruns'|\brun files?\b|^runs?$",
        formula_zh=(
            r"\text{排序结果文件中的一行：} q \;\; \mathrm{Q0} \;\; d \;\; \text{排名} \;\; "
            r"\text{分数} \;\; \text{标签}"
        ),
    ),
    "trace table": Term(
        N_("trace table"),
        "计算过程表",
        ("计算表",),
        (
            "逐位计算表",
            "逐位",
        ),
        r"\text{rank } k \mid d_k \mid \mathrm{rel}_k \mid P@k \mid \text{contribution}",
        "00_start_here",
        N_(
            "A measure computed rank by rank, one row per rank, so that each step can be "
            "checked by hand."
        ),
        r"\btrace tables?\b",
        formula_zh=r"\text{排名 } k \mid d_k \mid \mathrm{rel}_k \mid P@k \mid \text{贡献}",
    ),
    "cell": Term(
        N_("cell"),
        "单元格",
        (),
        ("单元",),
        r"\text{a notebook's code or text cell; a table's cell}",
        "00_start_here",
        N_("A notebook's code or text block, or one entry of a table: 单元格 for both."),
        r"\bcells?\b",
        formula_zh=r"\text{笔记本中的一个代码块或文本块；表格中的一格}",
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
        formula_zh=r"\text{qrels 中的一行：} q \;\; 0 \;\; d \;\; \mathrm{rel}",
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
    "re-check": Term(
        N_("re-check"),
        "复核",
        (),
        ("复查",),
        r"\text{re-check list: judgments by the AP change their correction makes}",
        _JUDGING,
        N_("Judging a document again, against the guideline, because a check flags it."),
        r"\bre-?check\w*",
        formula_zh=r"\text{复核清单：按改正后 AP 变化的大小排列的标注}",
    ),
    "anchor example": Term(
        N_("anchor example"),
        "参照示例",
        (),
        ("锚点",),
        r"\text{grade } g \mapsto \text{its definition and an anchor example}",
        _JUDGING,
        N_("A judged example that the guideline gives for a grade, to judge new documents by."),
        r"\banchor(?:s|\s+examples?)?\b",
        formula_zh=r"\text{等级 } g \mapsto \text{它的定义和一个参照示例}",
    ),
    "guiding case": Term(
        N_("guiding case"),
        "指导性案例",
        (),
        ("指导案例",),
        r"\text{a guiding case of the Supreme People's Court: grade 3}",
        "05_legal_search_walkthrough",
        N_(
            "A case the Supreme People's Court publishes for courts to follow (指导性案例, its "
            "official name); the legal examples grade it highest."
        ),
        r"\bguiding cases?\b",
        formula_zh=r"\text{最高人民法院的指导性案例：等级 } 3",
    ),
    "Cohen's kappa": Term(
        N_("Cohen's kappa"),
        "Cohen kappa",
        (),
        (
            "Cohen的kappa",
            "Cohen 的 kappa",
            "Cohen's kappa",
            "Cohen’s kappa",
        ),
        r"\kappa = \frac{p_o - p_e}{1 - p_e}",
        _JUDGING,
        N_(
            "Agreement of two annotators beyond chance, chance from each annotator's own grade "
            "frequencies; the name is written without a possessive, like Fleiss kappa."
        ),
        r"\bCohen(?:'s|’s)? kappas?\b",
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
        formula_zh=(
            r"\kappa_w = 1 - \frac{\sum_{i,j} w_{ij}\, o_{ij}}{\sum_{i,j} w_{ij}\, e_{ij}},\quad "
            r"w_{ij} = |i - j| \text{ 或 } (i - j)^2"
        ),
    ),
    "Fleiss' kappa": Term(
        N_("Fleiss' kappa"),
        "Fleiss kappa",
        (),
        ("Fleiss的kappa", "Fleiss 的 kappa", "Fleiss' kappa", "Fleiss’ kappa"),
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
        (),
        (
            "Krippendorff的alpha",
            "Krippendorff 的 alpha",
            "Krippendorff's alpha",
            "Krippendorff’s alpha",
        ),
        r"\alpha = 1 - \frac{D_o}{D_e}",
        _JUDGING,
        N_(
            "One minus observed over expected disagreement: any number of annotators, missing "
            "grades allowed, and a distance that suits the scale (nominal, ordinal)."
        ),
        r"\bKrippendorff(?:'s|’s)? alpha\b",
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
        formula_zh=(
            r"\text{池}_q = \bigcup_{s \in \text{参与建池的排序结果}} \bigl(s \text{ 对 } q \text{ "
            r"的前 } k \text{ 个结果}\bigr)"
        ),
    ),
    "Kendall's tau": Term(
        N_("Kendall's tau"),
        "Kendall tau",
        ("Kendall τ", "肯德尔等级相关系数"),
        ("Kendall的tau", "Kendall 的 tau"),
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
        "Benjamini–Hochberg 校正",
        ("Benjamini–Hochberg", "Benjamini-Hochberg", "BH 校正", "FDR 校正"),
        (),
        r"p^{\mathrm{BH}}_{(i)} = \min_{j \ge i} \min\bigl(1, \tfrac{m}{j}\, p_{(j)}\bigr)",
        _COMPARING,
        N_(
            "Adjusts m p-values so that the expected share of false positives among the "
            "results called significant, the false discovery rate (FDR), stays at or below "
            "the level."
        ),
        # the procedure, not the rate it controls (错误发现率, FDR): the rate has no entry
        r"\bBenjamini\b|\bHochberg\b|\bBH correction\b|\bFDR correction\b",
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
        formula_zh=r"W^{+} = \sum_{i:\, d_i > 0} \operatorname{秩}(|d_i|)",
    ),
    "confidence interval": Term(
        N_("confidence interval"),
        "置信区间",
        (),
        (),
        r"[\bar\delta^{*}_{(2.5\%)},\ \bar\delta^{*}_{(97.5\%)}]",
        _COMPARING,
        N_(
            "A range of mean differences that the queries are consistent with; with the "
            "bootstrap, the middle 95% of the resampled means."
        ),
        r"\bconfidence intervals?\b",
    ),
    "standardized effect size": Term(
        N_("standardized effect size"),
        "标准化效应量",
        ("效应量",),
        ("标准化效应",),
        r"\frac{\bar d}{s_d}",
        _COMPARING,
        N_(
            "The mean of the per-query differences over their standard deviation: how large "
            "a difference is against the query-to-query noise, whatever the number of queries."
        ),
        r"\b(?:standardi[sz]ed )?effect sizes?\b|\bstandardi[sz]ed effects?\b",
    ),
    "paired t-test": Term(
        N_("paired t-test"),
        "配对 t 检验",
        ("配对t检验",),
        (),
        r"t = \frac{\bar d}{s_d / \sqrt{n}}",
        "11_evaluate_your_own_run",
        N_(
            "A paired test on the mean of the per-query differences, against Student's t "
            "distribution."
        ),
        r"\bpaired t-tests?\b",
    ),
    "randomization test": Term(
        N_("randomization test"),
        "随机化检验",
        ("置换检验",),
        (),
        r"p = \frac{|\{s : |\bar d_s| \ge |\bar d|\}|}{S}",
        "10_from_scores_to_map",
        N_(
            "A paired test that swaps A's and B's scores on random queries many times and "
            "counts how often the mean difference is as large as the one observed."
        ),
        r"\brandomi[sz]ation tests?\b|\bpermutation tests?\b",
    ),
    "paired test": Term(
        N_("paired test"),
        "配对检验",
        (),
        (),
        r"\delta_q = M_B(q) - M_A(q), \quad q \in Q",
        "10_from_scores_to_map",
        N_("A significance test on the per-query differences of two systems on the same queries."),
        r"\bpaired (?:significance )?tests?\b",
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
        r"\frac{|\{(s, t) : p_{st} \le \alpha\}|}{\binom{m}{2}}",
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
        formula_zh=(
            r"\frac{|\{(s, t) : \operatorname{sign}\Delta^{(1)}_{st} \ne "
            r"\operatorname{sign}\Delta^{(2)}_{st}\}|}{|\text{全部系统对}|}"
        ),
    ),
}
