"""Measure names as ir_measures and trec_eval spell them, parsed and printed back."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from mapteach import average_precision, parse_measure
from mapteach.metrics import bpref, geometric_mean, judged_at_k, r_precision
from mapteach.metrics.names import (
    FAMILIES,
    TREC_EVAL_OFFICIAL,
    Measure,
    parse_measures,
    parse_trec_eval,
)
from mapteach.metrics.registry import REGISTRY, SPELLINGS, TREC_EVAL_NAMES


@pytest.mark.parametrize(
    "name",
    [
        "AP",
        "AP@10",
        "P@5",
        "R@100",
        "RR",
        "RR@10",
        "nDCG",
        "nDCG@10",
        "Success@3",
        "Rprec",
        "Bpref",
        "Judged",
        "Judged@10",
        "NumRet",
        "NumRel",
        "NumRelRet",
        "GMAP",
        "GMAP@10",
    ],
)
def test_names_round_trip(name):
    assert parse_measure(name).name == name
    assert str(parse_measure(name)) == name


# name as a user writes it -> the measure -> its canonical name
ALIASES = [
    ("Hit@3", Measure("Success", 3), "Success@3"),
    ("MAP", Measure("AP"), "AP"),
    ("MRR@5", Measure("RR", 5), "RR@5"),
    ("RPrec", Measure("Rprec"), "Rprec"),
    ("BPref", Measure("Bpref"), "Bpref"),
    # trec_eval's names, with "." or "_" before the cutoff
    ("map", Measure("AP"), "AP"),
    ("map_cut_10", Measure("AP", 10), "AP@10"),
    ("map_cut.10", Measure("AP", 10), "AP@10"),
    ("P_10", Measure("P", 10), "P@10"),
    ("P.10", Measure("P", 10), "P@10"),
    ("recall_100", Measure("R", 100), "R@100"),
    ("recall.100", Measure("R", 100), "R@100"),
    ("recip_rank", Measure("RR"), "RR"),
    ("ndcg", Measure("nDCG"), "nDCG"),
    ("ndcg_cut_10", Measure("nDCG", 10), "nDCG@10"),
    ("ndcg_cut.10", Measure("nDCG", 10), "nDCG@10"),
    ("Rprec", Measure("Rprec"), "Rprec"),
    ("bpref", Measure("Bpref"), "Bpref"),
    ("success_10", Measure("Success", 10), "Success@10"),
    ("success.10", Measure("Success", 10), "Success@10"),
    ("num_ret", Measure("NumRet"), "NumRet"),
    ("num_rel", Measure("NumRel"), "NumRel"),
    ("num_rel_ret", Measure("NumRelRet"), "NumRelRet"),
    ("gm_map", Measure("GMAP"), "GMAP"),
]


@pytest.mark.parametrize(("alias", "measure", "canonical"), ALIASES)
def test_aliases_name_the_measure_and_its_canonical_name_round_trips(alias, measure, canonical):
    assert parse_measure(alias) == measure
    assert measure.name == canonical
    assert parse_measure(canonical) == measure


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("map_cut", r"trec_eval's map_cut needs one cutoff here, such as 'map_cut.10'"),
        ("P", r"P needs a cutoff, such as 'P@10'"),
        ("map.10", r"trec_eval's map takes no cutoff"),
        ("Rprec@5", r"Rprec takes no cutoff"),
        ("NumRet@5", r"NumRet takes no cutoff"),
        ("ndcg_cut.0", r"must be >= 1"),
        ("P.5,10", r"trec_eval's P needs one cutoff here, such as 'P.10'; got 'P.5,10'"),
        ("utility.2,-1", r"unknown measure 'utility.2,-1'.*trec_eval name such as map, P.10"),
        ("runid", r"unknown measure 'runid'"),
        ("recall@10", r"unknown measure"),
    ],
)
def test_bad_names_say_what_is_wrong(name, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse_measure(name)


def test_a_bare_string_is_one_measure_and_duplicates_are_named():
    assert list(parse_measures("AP")) == ["AP"]
    assert list(parse_measures(("map", "P.10"))) == ["map", "P.10"]
    with pytest.raises(ValueError, match=r"measures 'AP' and 'map' both name AP"):
        parse_measures(["AP", "map"])
    with pytest.raises(ValueError, match=r"measures 'P@5' and 'P@5' both name P@5"):
        parse_measures(["P@5", "P@5"])
    with pytest.raises(ValueError, match=r"measures 'Hit@3' and 'success.3' both name Success@3"):
        parse_measures(["Hit@3", "success.3"])
    with pytest.raises(ValueError, match=r"measures is empty"):
        parse_measures([])
    with pytest.raises(TypeError, match=r"measures must be a measure name or a list"):
        parse_measures(3)


def test_every_family_has_a_description():
    for name, family in FAMILIES.items():
        assert family.name == name
        k = "" if family.cutoff == "none" else "@3"
        assert len(parse_measure(f"{name}{k}").description) > 20


def test_measure_scores_use_r():
    assert parse_measure("AP").score([1, 0, 1], n_relevant=4) == average_precision(
        [1, 0, 1], n_relevant=4
    )
    assert parse_measure("R@1").score([1, 0, 1], n_relevant=4) == 0.25
    assert parse_measure("Rprec").score([1, 0, 1], n_relevant=4) == r_precision(
        [1, 0, 1], n_relevant=4
    )
    assert parse_measure("NumRel").score([1, 0, 1], n_relevant=4) == 4
    assert parse_measure("NumRelRet").score([1, 0, 1], n_relevant=4) == 2
    assert parse_measure("NumRet").score([1, 0, 1], n_relevant=4) == 3
    assert parse_measure("GMAP").score([1, 0, 1]) == average_precision([1, 0, 1])


def test_labels_are_all_judged_for_bpref_and_judged():
    assert parse_measure("Bpref").score([0, 1, 0, 1], n_relevant=3) == bpref(
        [0, 1, 0, 1], n_relevant=3, n_nonrelevant=2
    )
    assert parse_measure("Judged@10").score([0, 1, 0]) == 1.0
    assert parse_measure("Judged").score([]) == 0.0


def test_values_over_queries():
    values = np.array([0.5, 0.0, 1.0])
    assert parse_measure("AP").over_queries(values) == 0.5
    assert parse_measure("AP").over_queries(values, aggregate="gm") == geometric_mean(values)
    assert parse_measure("GMAP").over_queries(values) == pytest.approx((0.5 * 1e-5) ** (1 / 3))
    assert parse_measure("NumRet").over_queries(values, aggregate="gm") == 1.5
    assert np.isnan(parse_measure("AP").over_queries([]))
    with pytest.raises(ValueError, match=r"aggregate must be one of 'mean', 'gm'; got 'median'"):
        parse_measure("AP").over_queries(values, aggregate="median")


@pytest.mark.parametrize(
    ("call", "error", "fragment"),
    [
        (lambda: bpref([1, 0], judged=[0, 1]), ValueError, r"labels\[0\] \(rank 1\) is relevant"),
        (lambda: bpref([1, 0], judged=[1]), ValueError, r"judged has 1 flags for 2 labels"),
        (lambda: bpref([0, 0], n_nonrelevant=1), ValueError, r"n_nonrelevant=1 is smaller"),
        (lambda: bpref([1], n_nonrelevant=1.5), TypeError, r"n_nonrelevant must be a whole"),
        (lambda: judged_at_k([1, 2]), ValueError, r"judged\[1\] \(rank 2\) is 2"),
        (lambda: judged_at_k([1], 0), ValueError, r"k must be >= 1"),
        (lambda: geometric_mean([]), ValueError, r"non-empty 1-D"),
        (lambda: geometric_mean([0.5, -0.1]), ValueError, r"values\[1\] is -0.1"),
        (lambda: geometric_mean([0.5], floor=0), ValueError, r"floor must be > 0"),
    ],
)
def test_bad_arguments(call, error, fragment):
    with pytest.raises(error, match=fragment):
        call()


def test_the_families_are_read_only():
    with pytest.raises(TypeError):
        FAMILIES["MAP"] = FAMILIES["AP"]
    with pytest.raises(TypeError):
        del FAMILIES["AP"]


# name -> declaration -> name, for every spelling of every measure (ir_measures style):
# each spelling as a user writes it, and the canonical name it must come back as
ROUND_TRIPS = [
    ("AP", "AP"),
    ("AP@10", "AP@10"),
    ("MAP", "AP"),
    ("MAP@10", "AP@10"),
    ("map", "AP"),
    ("map_cut.10", "AP@10"),
    ("map_cut_10", "AP@10"),
    ("P@5", "P@5"),
    ("P.5", "P@5"),
    ("P_5", "P@5"),
    ("R@100", "R@100"),
    ("recall.100", "R@100"),
    ("recall_100", "R@100"),
    ("RR", "RR"),
    ("RR@10", "RR@10"),
    ("MRR", "RR"),
    ("MRR@5", "RR@5"),
    ("recip_rank", "RR"),
    ("nDCG", "nDCG"),
    ("nDCG@10", "nDCG@10"),
    ("ndcg", "nDCG"),
    ("ndcg_cut.10", "nDCG@10"),
    ("ndcg_cut_10", "nDCG@10"),
    ("Success@3", "Success@3"),
    ("Hit@3", "Success@3"),
    ("success.3", "Success@3"),
    ("success_3", "Success@3"),
    ("Rprec", "Rprec"),
    ("RPrec", "Rprec"),
    ("Bpref", "Bpref"),
    ("BPref", "Bpref"),
    ("bpref", "Bpref"),
    ("Judged", "Judged"),
    ("Judged@10", "Judged@10"),
    ("NumRet", "NumRet"),
    ("num_ret", "NumRet"),
    ("NumRel", "NumRel"),
    ("num_rel", "NumRel"),
    ("NumRelRet", "NumRelRet"),
    ("num_rel_ret", "NumRelRet"),
    ("GMAP", "GMAP"),
    ("GMAP@10", "GMAP@10"),
    ("gm_map", "GMAP"),
    ("ERR", "ERR"),
    ("ERR@10", "ERR@10"),
    ("RBP", "RBP"),
    ("RBP@10", "RBP@10"),
    ("SetP", "SetP"),
    ("set_P", "SetP"),
    ("SetR", "SetR"),
    ("set_recall", "SetR"),
    ("SetF", "SetF"),
    ("set_F", "SetF"),
    ("IPrec@0.5", "IPrec@0.5"),
    ("iprec_at_recall.0.5", "IPrec@0.5"),
    ("iprec_at_recall_0.50", "IPrec@0.5"),
    ("ElevenPt", "ElevenPt"),
    ("11pt_avg", "ElevenPt"),
    ("RprecMult@0.2", "RprecMult@0.2"),
    ("Rprec_mult.0.2", "RprecMult@0.2"),
    ("Rprec_mult_0.20", "RprecMult@0.2"),
    ("infAP", "infAP"),
    ("GMBpref", "GMBpref"),
    ("gm_bpref", "GMBpref"),
    ("NumQ", "NumQ"),
    ("num_q", "NumQ"),
]


@pytest.mark.parametrize(("spelling", "canonical"), ROUND_TRIPS)
def test_every_spelling_round_trips_through_its_declaration(spelling, canonical):
    measure = parse_measure(spelling)
    declaration = measure.declaration
    assert REGISTRY[declaration.name] is declaration
    assert measure.name == canonical
    assert declaration.name == canonical.partition("@")[0]
    assert parse_measure(measure.name) == measure


def test_the_round_trip_table_covers_every_declared_spelling():
    written = {re.sub(r"(@|[._])[\d.]+$", "", spelling) for spelling, _ in ROUND_TRIPS}
    declared = {*SPELLINGS, *TREC_EVAL_NAMES}
    assert written == declared


DATA = Path(__file__).resolve().parents[1] / "data" / "trec_eval"

# ir_measures' syntax with parameters: each prints back as given (and as ir_measures prints it)
WITH_PARAMETERS = [
    "P(rel=2)@10",
    "AP(rel=2)",
    "AP(rel=2)@5",
    "R(rel=3)@100",
    "RR(rel=3)",
    "Success(rel=2)@5",
    "Rprec(rel=2)",
    "Bpref(rel=2)",
    "nDCG(dcg='exp-log2')@10",
    "nDCG(gains={1:3,2:9})@10",
    "RBP",
    "RBP(p=0.5)",
    "RBP(p=0.5,rel=2)",
    "RBP(rel=2)@10",
    "ERR@10",
    "IPrec@0.5",
    "IPrec(rel=2)@0.5",
    "IPrec@1",
    "SetF(beta=0.5)",
]


@pytest.mark.parametrize("name", WITH_PARAMETERS)
def test_names_with_parameters_print_back_as_given_and_as_ir_measures_prints_them(name):
    measure = parse_measure(name)
    assert measure.name == name
    assert parse_measure(measure.name) == measure
    ir_measures = pytest.importorskip("ir_measures")
    assert repr(ir_measures.parse_measure(name)) == name


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("RBP(p=0.8)", "RBP"),  # the default is not printed, as ir_measures does not
        ("P(rel=1)@10", "P@10"),
        ("nDCG(dcg='log2')", "nDCG"),
        ('nDCG(dcg="exp-log2")@10', "nDCG(dcg='exp-log2')@10"),
        ("RBP(rel=2, p=0.5)", "RBP(p=0.5,rel=2)"),  # sorted by name
        ("nDCG(gains='1=3,2=9')", "nDCG(gains={1:3,2:9})"),
        ("MAP(rel=2)@5", "AP(rel=2)@5"),
    ],
)
def test_parameters_have_one_canonical_name(name, canonical):
    assert parse_measure(name).name == canonical
    assert parse_measure(canonical) == parse_measure(name)


def test_a_measure_gives_its_parameters_and_their_defaults():
    measure = parse_measure("RBP(p=0.5)")
    assert measure.params == (("p", 0.5),)
    assert (measure.param("p"), measure.param("rel")) == (0.5, None)
    assert parse_measure("RBP").param("p") == 0.8
    with pytest.raises(KeyError, match=r"RBP has no parameter 'dcg'; it has: p, rel"):
        measure.param("dcg")


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("P(p=2)@10", r"P has no parameter 'p'; it has: rel\."),
        ("P(rel=x)@10", r"P's parameter rel must be a whole number; got 'x'"),
        ("P(rel=2.5)@10", r"P's parameter rel must be a whole number; got '2.5'"),
        ("P(rel=0)@10", r"P's parameter rel must be >= 1; got '0'"),
        ("P(rel=2,rel=3)@10", r"rel is given twice in 'P\(rel=2,rel=3\)@10'"),
        ("P(rel)@10", r"must be written name=value, such as 'P\(rel=2\)@10'; 'rel' is not"),
        ("P(rel=2", r"unknown measure 'P\(rel=2'"),
        ("ERR(rel=2)@10", r"ERR has no parameter 'rel'; it has: none"),
        ("nDCG(dcg='exp')", r"nDCG's parameter dcg must be one of 'log2', 'exp-log2'; got"),
        ("RBP(p=x)", r"RBP's parameter p must be a number; got 'x'"),
        ("IPrec@x", r"the level in 'IPrec@x' must be a number >= 0"),
        ("P(rel=2)", r"P needs a cutoff, such as 'P@10'"),
    ],
)
def test_bad_parameters_name_the_parameter_and_what_is_allowed(name, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse_measure(name)


def printed_names(path: Path) -> list[str]:
    """The measures of trec_eval's ``all`` lines, in the order it printed them."""
    lines = (line.split("\t") for line in path.read_text().splitlines())
    return [measure.strip() for measure, query, _ in lines if query == "all"]


def test_trec_eval_specs_give_the_names_trec_eval_printed_in_its_order():
    """out.test.meas_params: ``-miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 ...``."""
    specs = [
        "iprec_at_recall..10,.20,.25,.75,.50",
        "P.5,7,3",
        "recall.20,2000",
        "Rprec_mult.5.0,0.2,0.35",
        "utility.2,-1,0,0",  # not a measure mapteach has
        "11pt_avg..25,.5,.75",
        "ndcg.1=3,2=9,4=4.5",
        "ndcg_cut.10,20,23.4",
        "success.2,5,20",
    ]
    names = [name for spec in specs if spec != specs[4] for name, _ in parse_trec_eval(spec)]
    expected = printed_names(DATA / "out.test.meas_params")
    assert names == [name for name in expected if not name.startswith("utility")]
    assert len(names) == 21


def test_the_official_set_is_trec_eval_s_default_measures_in_order():
    names = [name for spec in TREC_EVAL_OFFICIAL for name, _ in parse_trec_eval(spec)]
    assert ["runid", *names] == printed_names(DATA / "out.test")
    assert parse_trec_eval("runid") == []


def test_each_trec_eval_name_printed_is_the_measures_trec_name():
    for spec in ["P", "recall", "map_cut", "ndcg_cut", "success", "iprec_at_recall", "map"]:
        for name, measure in parse_trec_eval(spec):
            assert measure.trec_name == name
            assert parse_measure(name) == measure
    assert [name for name, _ in parse_trec_eval("success")] == [
        "success_1",
        "success_5",
        "success_10",
    ]
    assert parse_measure("P(rel=2)@10").trec_name is None
    assert parse_measure("ERR@10").trec_name is None


def test_parse_measures_reads_trec_eval_specs_for_several_measures():
    parsed = parse_measures(["P@10", "P(rel=2)@10", "ndcg_cut.5,10", "P.5,20"])
    assert {key: m.name for key, m in parsed.items()} == {
        "P@10": "P@10",
        "P(rel=2)@10": "P(rel=2)@10",
        "ndcg_cut_5": "nDCG@5",
        "ndcg_cut_10": "nDCG@10",
        "P_5": "P@5",
        "P_20": "P@20",
    }
    assert len(parse_measures("P")) == 9
    with pytest.raises(ValueError, match=r"measures 'P@10' and 'P_10' both name P@10"):
        parse_measures(["P@10", "P.5,10"])
    with pytest.raises(ValueError, match=r"P needs a cutoff"):  # the ir_measures error is kept
        parse_measures(["P(rel=2)"])


@pytest.mark.parametrize(
    ("spec", "error", "fragment"),
    [
        ("map.5", ValueError, r"trec_eval's map takes no cutoff"),
        ("P.x", ValueError, r"the cutoff in 'P.x' must be >= 1"),
        ("P.0", ValueError, r"the cutoff in 'P.0' must be >= 1"),
        ("utility.2,-1", ValueError, r"unknown measure 'utility.2,-1'"),
        (5, TypeError, r"a trec_eval measure must be a string such as 'P.10'; got 5"),
    ],
)
def test_bad_trec_eval_specs(spec, error, fragment):
    with pytest.raises(error, match=fragment):
        parse_trec_eval(spec)
