"""The articles' slips, as data: each quoted, glossed and checked by computation.

Article 001's late-relevant AP, printed 0.48, is kept with the worked examples
(:mod:`mapteach.articles.examples`); the other slips are here. Each :class:`Slip`
keeps the article's own sentence (Chinese, the article's words with the punctuation
its text lost restored), an English gloss, what the article
printed, and a function that recomputes the truth with the package. A slip's
:attr:`~Slip.finding` is a sentence built from those computed values, so the
workbook never types a number by hand.

The slips are data, ``data/slips.json``, read and checked once, when this module is
imported (:func:`parse_slips`); each names the function that checks it by its
``kind``, and the functions are here.

The gloss, the verdict and (where it is words) what was printed are English
messages: a slip's printed form, :func:`slips_table` and :attr:`Slip.finding` show
them in the current language (:func:`mapteach.i18n.tr`); the quote stays the
article's own Chinese. A reader of Chinese reads the quote itself: in Chinese a slip
shows no gloss (a Chinese paraphrase of a Chinese sentence says nothing new).

Some entries are not plain errors: the head blind spot of article 003 §6.1 is
partly right, and is kept as a measured discussion, not a verdict.

Examples
--------
>>> from mapteach.articles import SLIPS
>>> slip = SLIPS["001_gap"]
>>> slip.quote, slip.printed
('比刚才的0.61低了整整0.13', '0.13')
>>> round(slip.values()["gap"], 4)
0.3296
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from mapteach.articles.examples import ARTICLES, RankingExample, get_example
from mapteach.articles.functions import article_000_map, article_001_map, trec_eval_map
from mapteach.articles.loader import Reader, read_data
from mapteach.exercises.mistakes_ranking import final_hits_in_every_numerator
from mapteach.explain.display import ShownTable
from mapteach.i18n import N_, get_language, tr
from mapteach.metrics import average_precision, ndcg_at_k, precision_at_k, recall_at_k
from mapteach.metrics.names import parse_measure

__all__ = [
    "SLIPS",
    "SLIP_HEADERS",
    "Slip",
    "SlipTable",
    "get_slip",
    "head_blind_spot_pair",
    "parse_slips",
    "slips_table",
]

Values = dict[str, float]

#: The language of the articles, and so of every quote: no gloss is shown in it.
_QUOTE_LANGUAGE = "zh"

#: The header that shows each column key of :func:`slips_table`.
SLIP_HEADERS: dict[str, str] = {
    "slip": N_("slip"),
    "article": N_("article"),
    "section": N_("section"),
    "quote": N_("quote"),
    "gloss": N_("gloss"),
    "printed": N_("printed"),
    "verdict": N_("verdict"),
    "finding": N_("finding"),
    "notebook": N_("notebook"),
}


class SlipTable(ShownTable):
    """The slips as a table: English column keys, shown in the current language."""

    headers = SLIP_HEADERS


@dataclass(frozen=True)
class Slip:
    """One claim an article printed, and the computation that checks it.

    Attributes
    ----------
    name : str
        Key in :data:`SLIPS`.
    article, section : str
        Where the sentence is (``"001"``, ``"2.1"``).
    quote : str
        The article's sentence (Chinese): its words verbatim, the punctuation its text lost
        restored.
    gloss : str
        An English gloss of the quote (a message: shown with ``tr``).
    printed : str
        What the article printed (a value, a range, a claim), as text; a message
        where it is words.
    verdict : str
        In a few words: what is true instead (a message).
    notebook : str
        The notebook that teaches it.
    """

    name: str
    article: str
    section: str
    quote: str
    gloss: str
    printed: str
    verdict: str
    notebook: str
    _check: Callable[[], tuple[Values, str]] = field(repr=False, compare=False)

    def values(self) -> Values:
        """The numbers that check the claim, computed now by the package."""
        return self._check()[0]

    @property
    def finding(self) -> str:
        """What the computation shows, in one or two sentences (numbers computed), in the
        current language."""
        return self._check()[1]

    @staticmethod
    def _glossed() -> bool:
        """Whether the gloss is shown: only to a reader of another language than the quote's."""
        return get_language() != _QUOTE_LANGUAGE

    def shown(self) -> dict[str, str]:
        """The gloss, printed value and verdict in the current language."""
        return {"gloss": tr(self.gloss), "printed": tr(self.printed), "verdict": tr(self.verdict)}

    def __str__(self) -> str:
        shown = self.shown()
        heading = tr(
            "Article {article} §{section}: 「{quote}」",
            article=self.article,
            section=self.section,
            quote=self.quote,
        )
        verdict = tr(
            "Printed: {printed}. Verdict: {verdict}.",
            printed=shown["printed"],
            verdict=shown["verdict"],
        )
        gloss = [tr("({gloss})", gloss=shown["gloss"])] if self._glossed() else []
        return "\n  ".join([heading, *gloss, verdict, self.finding])

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """Plain-text display (IPython's ``text/plain``): :meth:`__str__`, translated."""
        printer.text(str(self))

    def _repr_markdown_(self) -> str:
        shown = self.shown()
        source = tr("Article {article} §{section}", article=self.article, section=self.section)
        printed, verdict, computed = tr("printed:"), tr("verdict:"), tr("computed:")
        gloss = f"*{shown['gloss']}*\n\n" if self._glossed() else ""
        return (
            f"**{source}** — 「{self.quote}」\n\n"
            f"{gloss}"
            f"- **{printed}** {shown['printed']}\n"
            f"- **{verdict}** {shown['verdict']}\n"
            f"- **{computed}** {self.finding}"
        )


# --- the checks ------------------------------------------------------------------


def _late_ap() -> tuple[Values, str]:
    late = get_example("001_legal_late")
    assert isinstance(late, RankingExample)
    slip = final_hits_in_every_numerator(late.labels, n_relevant=late.n_relevant)
    values = {"ap": late.ap, "slip": slip}
    return values, tr(
        "The article used the final hit count in every numerator, which gives {slip:.4f}. "
        "Counting the hits so far at each relevant rank gives AP = {ap:.4f}.",
        slip=slip,
        ap=late.ap,
    )


def _gap() -> tuple[Values, str]:
    legal, late = get_example("001_legal"), get_example("001_legal_late")
    assert isinstance(legal, RankingExample) and isinstance(late, RankingExample)
    gap = legal.ap - late.ap
    printed_gap = float(legal.printed["AP"]) - float(late.printed["AP"])
    values = {"legal_ap": legal.ap, "late_ap": late.ap, "gap": gap, "printed_gap": printed_gap}
    return values, tr(
        "With the correct AP of the late list the gap is {legal:.4f} - {late:.4f} "
        "= {gap:.4f}. The printed gap is {printed_legal} - {printed_late} "
        "= {printed_gap:.2f}: it inherits the slip in the late list's AP.",
        legal=legal.ap,
        late=late.ap,
        gap=gap,
        printed_legal=legal.printed["AP"],
        printed_late=late.printed["AP"],
        printed_gap=printed_gap,
    )


def _p_at_5() -> tuple[Values, str]:
    query = get_example("003_a")
    assert isinstance(query, RankingExample)
    hits = int(sum(query.labels[:5]))
    p5 = precision_at_k(query.labels, 5)
    r5 = recall_at_k(query.labels, 5, n_relevant=query.n_relevant)
    values = {"hits_in_top_5": float(hits), "P@5": p5, "R@5": r5}
    return values, tr(
        "Article 003's own query A has all {hits} of its relevant items in its top 5. "
        "P@5 = {hits}/5 = {p5:.4f}, not full marks: the other {others} places hold "
        "non-relevant items. It is recall that is full: R@5 = {r5:.4f}.",
        hits=hits,
        p5=p5,
        others=5 - hits,
        r5=r5,
    )


def _range(measure: str) -> Callable[[], tuple[Values, str]]:
    def check() -> tuple[Values, str]:
        nothing = [0] * 10  # no relevant result in the list; the query has one (R = 1)
        score = parse_measure(measure).score(nothing, n_relevant=1)
        best = parse_measure(measure).score([1] + [0] * 9, n_relevant=1)
        return {"no_relevant_result": score, "best": best}, tr(
            "A query whose list holds no relevant result scores {measure} = {score:.4f}, "
            "and a perfect one {best:.4f}: the range is [0, 1], closed at 0, "
            "like the other rows of the same table.",
            measure=measure,
            score=score,
            best=best,
        )

    return check


def _ndcg_sensitivity() -> tuple[Values, str]:
    a, b = get_example("001_model_a"), get_example("001_model_b")
    assert isinstance(a, RankingExample) and isinstance(b, RankingExample)
    ap_gap = b.ap - a.ap
    ndcg_a, ndcg_b = ndcg_at_k(a.labels, 10), ndcg_at_k(b.labels, 10)
    ndcg_gap = ndcg_b - ndcg_a
    values = {"ap_gap": ap_gap, "ndcg_a": ndcg_a, "ndcg_b": ndcg_b, "ndcg_gap": ndcg_gap}
    return values, tr(
        "On the article's own binary lists for models A and B, AP moves by {ap_gap:.4f} "
        "and nDCG@10 by {ndcg_gap:.4f}: nDCG is the less sensitive of the two here. "
        "On these lists nDCG separates the models more only if graded judgments are "
        "added, which the article does not give.",
        ap_gap=ap_gap,
        ndcg_gap=ndcg_gap,
    )


#: Article 003 §6.1's two moves, constructed (not from the article): 100 results,
#: R = 5. A relevant result slips from rank 3 to rank 4 (out of the top 3), and
#: another climbs from rank 60 to rank 14.
_HEAD_PAIR = {"before": (1, 2, 3, 20, 60), "after": (1, 2, 4, 14, 20)}
_HEAD_LENGTH = 100
#: Ten relevant results, all after rank 100, for the "tidy after rank 100" case.
_DEEP_RANKS = tuple(range(101, 111))


def _labels(ranks: tuple[int, ...], length: int) -> tuple[int, ...]:
    return tuple(int(rank in ranks) for rank in range(1, length + 1))


def head_blind_spot_pair() -> dict[str, tuple[int, ...]]:
    """Two rankings of one query (R = 5, 100 results) whose AP is almost equal.

    Constructed for article 003 §6.1's blind spot, not taken from the article:
    "after" moves one relevant result from rank 3 down to rank 4, out of the top
    3, and another from rank 60 up to rank 14. The two moves nearly cancel in AP,
    while measures of the head (P@3, RR of the head, nDCG@10) see the loss.

    Examples
    --------
    >>> from mapteach import average_precision
    >>> from mapteach.articles import head_blind_spot_pair
    >>> pair = head_blind_spot_pair()
    >>> [[i + 1 for i, x in enumerate(pair[name]) if x] for name in ("before", "after")]
    [[1, 2, 3, 20, 60], [1, 2, 4, 14, 20]]
    >>> round(average_precision(pair["after"]) - average_precision(pair["before"]), 4)
    0.0005
    """
    return {name: _labels(ranks, _HEAD_LENGTH) for name, ranks in _HEAD_PAIR.items()}


def _head_blind_spot() -> tuple[Values, str]:
    deep = _labels(_DEEP_RANKS, _DEEP_RANKS[-1])
    top = _labels(tuple(range(1, len(_DEEP_RANKS) + 1)), len(_DEEP_RANKS))
    deep_ap, top_ap = average_precision(deep), average_precision(top)
    pair = head_blind_spot_pair()
    ap = {name: average_precision(labels) for name, labels in pair.items()}
    p3 = {name: precision_at_k(labels, 3) for name, labels in pair.items()}
    values = {
        "deep_ap": deep_ap,
        "top_ap": top_ap,
        "pair_ap_change": ap["after"] - ap["before"],
        "pair_p3_change": p3["after"] - p3["before"],
    }
    return values, tr(
        "AP is strongly top-heavy: {n} relevant results at ranks {first}-{last}, tidy but "
        "after rank 100, give AP = {deep_ap:.4f} (at ranks 1-{n}: {top_ap:.4f}), so a list "
        "that is bad at the head cannot look good in AP from its tail alone. Yet two moves "
        "can cancel, as the article says: in a constructed pair, one relevant result slips "
        "out of the top 3 while another climbs from the back to the middle; AP rises only from "
        "{ap_before:.4f} to {ap_after:.4f} while P@3 falls by {p3_loss:.4f}. Report a head "
        "measure at the depth users read (P@k, nDCG@k) beside MAP, as the article itself "
        "does in §6.2.",
        n=len(_DEEP_RANKS),
        first=_DEEP_RANKS[0],
        last=_DEEP_RANKS[-1],
        deep_ap=deep_ap,
        top_ap=top_ap,
        ap_before=ap["before"],
        ap_after=ap["after"],
        p3_loss=-values["pair_p3_change"],
    )


def _three_queries() -> tuple[dict[str, list[str]], dict[str, set[str]]]:
    """Article 003's A, B and C as document ids; B's third relevant item is 'missed'."""
    ranked, relevant = {}, {}
    for name in ("003_a", "003_b", "003_c"):
        query = get_example(name)
        assert isinstance(query, RankingExample)
        docs = [f"d{rank}" for rank in range(1, len(query.labels) + 1)]
        found = {doc for doc, label in zip(docs, query.labels, strict=True) if label}
        missing = {f"missed{i}" for i in range(query.n_relevant - len(found))}
        ranked[name[-1].upper()], relevant[name[-1].upper()] = docs, found | missing
    return ranked, relevant


def _hits_as_r(function: Callable[..., float], label: str) -> Callable[[], tuple[Values, str]]:
    """The check of a function that divides by the hits found; ``label`` (a message) says
    what the function does."""

    def check() -> tuple[Values, str]:
        ranked, relevant = _three_queries()
        value = {
            query: (
                function({query: ranked[query]}, {query: relevant[query]}),
                trec_eval_map({query: ranked[query]}, {query: relevant[query]}),
            )
            for query in ("A", "B")
        }
        values = {
            "A_hits": value["A"][0],
            "A_R": value["A"][1],
            "B_hits": value["B"][0],
            "B_R": value["B"][1],
        }
        total_a, total_b = len(relevant["A"]), len(relevant["B"])
        return values, tr(
            "{label} Without any cutoff, on article 003's query A (all {total_a} relevant "
            "items retrieved) both denominators give {a_r:.4f}; on query B (one relevant "
            "item never retrieved) dividing by the hits gives {b_hits:.4f}, dividing by "
            "R = {total_b} gives {b_r:.4f}. Hits equal R only when every relevant document "
            "was retrieved.",
            label=tr(label),
            total_a=total_a,
            a_r=value["A"][1],
            b_hits=value["B"][0],
            total_b=total_b,
            b_r=value["B"][1],
        )

    return check


def _sklearn_pooled() -> tuple[Values, str]:
    import warnings

    from sklearn.metrics import average_precision_score

    queries = [get_example(name) for name in ("003_a", "003_b", "003_c")]
    labels = np.array([query.labels for query in queries])  # type: ignore[union-attr]
    scores = np.tile(np.arange(labels.shape[1], 0, -1, dtype=float), (labels.shape[0], 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pooled = {
            mode: float(average_precision_score(labels.ravel(), scores.ravel(), average=mode))
            for mode in ("macro", "micro", "samples", "weighted")
        }
        default_2d = float(average_precision_score(labels, scores))
    abc = get_example("003_abc")
    true_map = abc.map  # type: ignore[union-attr]
    values = {f"flat list, average={mode!r}": value for mode, value in pooled.items()}
    values |= {"2-D default (macro)": default_2d, "MAP": true_map}
    same = len({round(value, 12) for value in pooled.values()}) == 1
    fields = {
        "n": labels.shape[1],
        "pooled": pooled["macro"],
        "map": true_map,
        "default": default_2d,
    }
    if same:
        return values, tr(
            "Given one flat list of all queries' results (here 003's A, B and C, each scored "
            "{n} down to 1), sklearn treats it as a single ranking and ignores `average=`: "
            "every mode gives {pooled:.4f}, not MAP ({map:.4f}). So the warning is right: a "
            "pooled list is not MAP. The label is wrong: for 2-D input the default is "
            "`macro`, an average over columns (documents), {default:.4f} here.",
            **fields,
        )
    return values, tr(
        "Given one flat list of all queries' results (here 003's A, B and C, each scored "
        "{n} down to 1), sklearn treats it as a single ranking and does not ignore "
        "`average=`: every mode gives {pooled:.4f}, not MAP ({map:.4f}). So the warning "
        "is right: a pooled list is not MAP. The label is wrong: for 2-D input the default "
        "is `macro`, an average over columns (documents), {default:.4f} here.",
        **fields,
    )


# --- the slips ---------------------------------------------------------------------

Check = Callable[[], tuple[Values, str]]
#: The checks a slip of ``slips.json`` can name by ``kind`` that take no parameter.
_CHECKS: dict[str, Check] = {
    "late_ap": _late_ap,
    "gap": _gap,
    "p_at_5": _p_at_5,
    "ndcg_sensitivity": _ndcg_sensitivity,
    "head_blind_spot": _head_blind_spot,
    "sklearn_pooled": _sklearn_pooled,
}
#: The articles' functions a ``hits_as_r`` check can name.
_ARTICLE_FUNCTIONS: dict[str, Callable[..., float]] = {
    "article_000_map": article_000_map,
    "article_001_map": article_001_map,
}
_SLIP_FIELDS = (
    *("id", "article", "section", "quote", "gloss", "printed", "printed_words"),
    *("verdict", "notebook", "check"),
)
_NOTEBOOK = re.compile(r"[0-9]{2}")


def parse_slips(document: Any, *, source: str = "slips.json") -> dict[str, Slip]:
    """Build the slips from a parsed ``slips.json``, checking every field.

    The document is ``{"slips": [...]}``: each slip has an ``id``, the ``article`` and
    ``section`` of its ``quote`` (the article's Chinese, verbatim), a ``gloss`` and a
    ``verdict`` (English messages), what the article printed (``printed``, a figure or
    code kept as it is, or ``printed_words``, a message), the two-digit ``notebook``
    that teaches it, and the ``check`` that recomputes it: ``{"kind": "gap"}``, or
    ``{"kind": "range", "measure": "RR"}``, or ``{"kind": "hits_as_r", "function":
    "article_001_map", "label": ...}`` (the label a message).

    Parameters
    ----------
    document : object
        The parsed JSON.
    source : str, default "slips.json"
        The file's name, for the errors.

    Returns
    -------
    dict of str to Slip
        By id, in the file's order.

    Raises
    ------
    ValueError
        Naming the file and the JSON path of the first problem.

    Examples
    --------
    >>> from mapteach.articles.loader import read_data
    >>> from mapteach.articles.slips import parse_slips
    >>> document = read_data("slips.json")
    >>> parse_slips(document)["001_gap"].printed
    '0.13'
    >>> document["slips"][1]["printed_words"] = "a full 0.13 lower"
    >>> parse_slips(document)
    Traceback (most recent call last):
    ...
    ValueError: slips.json: slips[1]: needs exactly one of 'printed' and 'printed_words'.
    """
    read = Reader(source)
    slips = {}
    for where, node, name in read.records(document, "slips"):
        read.node(node, where, _SLIP_FIELDS)
        slips[name] = Slip(
            name,
            read.choice(node, "article", where, ARTICLES),
            read.text(node, "section", where),
            read.text(node, "quote", where),
            read.text(node, "gloss", where),
            _printed(read, node, where),
            read.text(node, "verdict", where),
            _notebook(read, node, where),
            _check(read, node, where),
        )
    return slips


def _printed(read: Reader, node: Mapping[str, Any], where: str) -> str:
    """What the article printed: a figure (``printed``) or words (``printed_words``)."""
    given = [key for key in ("printed", "printed_words") if key in node]
    if len(given) != 1:
        raise read.fail(where, tr("needs exactly one of 'printed' and 'printed_words'."))
    return read.text(node, given[0], where)


def _notebook(read: Reader, node: Mapping[str, Any], where: str) -> str:
    notebook = read.text(node, "notebook", where)
    if not _NOTEBOOK.fullmatch(notebook):
        raise read.fail(
            f"{where}.notebook",
            tr("{value!r} is not a notebook's two digits, such as '05'.", value=notebook),
        )
    return notebook


def _check(read: Reader, slip: Mapping[str, Any], where: str) -> Check:
    """The computation a slip's ``check`` names, with its parameters."""
    path = f"{where}.check"
    node = read.node(read.get(slip, "check", dict, where), path)
    kind = read.choice(node, "kind", path, [*_CHECKS, "range", "hits_as_r"])
    if kind == "range":
        read.node(node, path, ("kind", "measure"))
        measure = read.text(node, "measure", path)
        try:
            parse_measure(measure)
        except ValueError as error:
            raise read.fail(f"{path}.measure", str(error)) from None
        return _range(measure)
    if kind == "hits_as_r":
        read.node(node, path, ("kind", "function", "label"))
        function = read.choice(node, "function", path, _ARTICLE_FUNCTIONS)
        return _hits_as_r(_ARTICLE_FUNCTIONS[function], read.text(node, "label", path))
    read.node(node, path, ("kind",))
    return _CHECKS[kind]


#: Every slip, by name (read-only).
SLIPS: Mapping[str, Slip] = MappingProxyType(parse_slips(read_data("slips.json")))


def get_slip(name: str) -> Slip:
    """Return a slip by name; the error lists the names.

    Examples
    --------
    >>> from mapteach.articles import get_slip
    >>> get_slip("003_p_at_5").section
    '1.2'
    """
    try:
        return SLIPS[name]
    except (KeyError, TypeError):
        raise ValueError(
            tr("no slip named {name!r}; choose one of: {names}.", name=name, names=", ".join(SLIPS))
        ) from None


def slips_table(*names: str, notebook: str | None = None) -> pd.DataFrame:
    """The slips (all, those named, or those a notebook teaches) with their computed finding.

    Returns
    -------
    pandas.DataFrame
        Indexed by name: ``article``, ``section``, ``quote``, ``gloss``,
        ``printed``, ``verdict``, ``finding``, ``notebook``. Keys in English, text
        in the current language (the quote in the article's Chinese); shown with
        headers in the current language (a :class:`SlipTable`).

    Examples
    --------
    >>> from mapteach.articles import slips_table
    >>> slips_table(notebook="09").index.tolist()
    ['001_calculate_map', '000_hit_count', '001_sklearn_micro']
    """
    chosen = [get_slip(name) for name in names] if names else list(SLIPS.values())
    if notebook is not None:
        chosen = [slip for slip in chosen if slip.notebook == notebook]
    columns = ["article", "section", "quote", "gloss", "printed", "verdict", "finding", "notebook"]
    rows = []
    for slip in chosen:
        shown = slip.shown()
        rows.append([shown.get(column, getattr(slip, column, "")) for column in columns])
    return SlipTable(
        rows,
        index=pd.Index([slip.name for slip in chosen], name="slip"),
        columns=columns,
    )
