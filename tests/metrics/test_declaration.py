"""A measure's declaration: its rules are checked when it is made, its forms read back."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from mapteach.metrics import REGISTRY, average_precision
from mapteach.metrics.batch import RankedEntries, batch_scores
from mapteach.metrics.declaration import REL, Declaration, Param, Parameters
from mapteach.metrics.names import Measure, parse_measure
from mapteach.metrics.ties import expected_scores

AP = REGISTRY["AP"]


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"name": "AP@10"}, r"measure name 'AP@10' must be letters only"),
        ({"aliases": ("M A P",)}, r"measure name 'M A P' must be letters only"),
        ({"trec_eval": "map.5"}, r"trec_eval name 'map.5' must be letters, digits and _"),
        ({"cutoff": "sometimes"}, r"cutoff must be one of"),
        ({"combine": "median"}, r"combine one of"),
        ({"cutoff": "required"}, r"AP needs a cutoff: its trec_eval name is trec_eval_cut"),
        ({"cutoff": "none", "trec_eval": None}, r"AP takes no cutoff, so it has no trec_eval_cut"),
        ({"params": {"Rel": REL}}, r"AP: parameter 'Rel' must be lower-case letters and _"),
        ({"params": {"rel": 1}}, r"declared with a Param"),
        ({"cutoff_kind": "depth"}, r"cutoff_kind must be one of \('rank', 'level'\)"),
        ({"trec_eval_cut": None}, r"AP: trec_eval_cutoffs need a trec_eval_cut name"),
        (
            {
                "params": {
                    "a": Param(1, "int", trec_eval_suffix=True),
                    "b": Param(1, "int", trec_eval_suffix=True),
                }
            },
            r"at most one parameter is trec_eval's suffix",
        ),
    ],
)
def test_a_declaration_breaking_a_rule_is_refused(changes, fragment):
    with pytest.raises(ValueError, match=fragment):
        dataclasses.replace(AP, **changes)


@pytest.mark.parametrize(
    ("name", "forms", "alias_forms", "trec_eval_forms"),
    [
        ("AP", ("AP", "AP@k"), ("MAP", "MAP@k"), ("map", "map_cut.k")),
        ("P", ("P@k",), (), ("P.k",)),
        ("Success", ("Success@k",), ("Hit@k",), ("success.k",)),
        ("Rprec", ("Rprec",), ("RPrec",), ("Rprec",)),
        ("Judged", ("Judged", "Judged@k"), (), ()),
        ("GMAP", ("GMAP", "GMAP@k"), (), ("gm_map",)),
    ],
)
def test_forms_say_how_each_name_is_written(name, forms, alias_forms, trec_eval_forms):
    declaration = REGISTRY[name]
    assert declaration.forms() == forms
    assert declaration.alias_forms() == alias_forms
    assert declaration.trec_eval_forms() == trec_eval_forms


def test_a_new_declaration_is_scored_by_the_batch_and_tie_machinery():
    # a measure declared here, not in the registry: the machinery reads only the declaration
    doubled = Declaration(
        name="Twice",
        description="twice AP",
        cutoff="optional",
        score=lambda labels, r, k: 2 * average_precision(labels, n_relevant=r, k=k),
        kernel=lambda entries, parameters: 2 * AP.kernel(entries, parameters),
        expectation=lambda entries, groups, parameters: (
            2 * AP.expectation(entries, groups, parameters)
        ),
    )
    measure = parse_measure("AP@2")

    class Twice(Measure):
        @property
        def declaration(self) -> Declaration:
            return doubled

    entries = RankedEntries.from_lists([[1, 0, 1], [0, 1]])
    twice = Twice("AP", 2)
    plain = batch_scores(entries, [measure])["AP@2"]
    np.testing.assert_array_equal(batch_scores(entries, [twice])["AP@2"], 2 * plain)
    distinct = -entries.rank.astype(float)
    np.testing.assert_array_equal(
        expected_scores(entries, distinct, [twice])["AP@2"],
        2 * expected_scores(entries, distinct, [measure])["AP@2"],
    )
    assert twice.score([1, 0, 1], n_relevant=2) == 2 * measure.score([1, 0, 1], n_relevant=2)


def test_parameters_carry_the_cutoff_and_the_evaluations_settings():
    parameters = parse_measure("map_cut.5").parameters(threshold=2, denominator="min_relevant_k")
    assert parameters == Parameters(
        k=5, threshold=2, denominator="min_relevant_k", params={"rel": 1}
    )


def test_a_measures_own_rel_is_its_threshold_and_every_default_is_filled_in():
    own = parse_measure("P(rel=3)@5").parameters(threshold=2, denominator="relevant")
    assert (own.threshold, own.own_threshold, dict(own.params)) == (3, True, {"rel": 3})
    same = parse_measure("P(rel=2)@5").parameters(threshold=2, denominator="relevant")
    assert (same.threshold, same.own_threshold) == (2, False)
    rbp = parse_measure("RBP(p=0.5)").parameters(threshold=2, denominator="relevant")
    assert (rbp.threshold, dict(rbp.params)) == (2, {"p": 0.5, "rel": None})


def test_a_measures_own_rel_counts_r_at_it_in_the_kernel_and_the_expectation():
    entries = RankedEntries.from_lists([[2, 1, 0, 3]], judged=[[1, 1, 1, 1]])
    names = ["AP", "AP(rel=2)", "R(rel=2)@2", "Bpref(rel=2)", "RR(rel=3)"]
    scores = batch_scores(entries, [parse_measure(name) for name in names])
    at_two = RankedEntries.from_lists([[1, 0, 0, 1]], judged=[[1, 1, 1, 1]])
    assert scores["AP(rel=2)"] == batch_scores(at_two, [parse_measure("AP")])["AP"]
    assert scores["R(rel=2)@2"] == batch_scores(at_two, [parse_measure("R@2")])["R@2"]
    assert scores["Bpref(rel=2)"] == batch_scores(at_two, [parse_measure("Bpref")])["Bpref"]
    assert scores["RR(rel=3)"].tolist() == [0.25]
    tied = np.array([2.0, 1.0, 1.0, 1.0])
    expected = expected_scores(entries, tied, [parse_measure("AP(rel=2)")])["AP(rel=2)"]
    plain = expected_scores(at_two, tied, [parse_measure("AP")])["AP"]
    np.testing.assert_array_equal(expected, plain)


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda: Param(1, "integer"), r"a parameter's kind must be one of"),
        (lambda: Param("x", "str", choices=("a", "b")), r"default 'x' is not among choices"),
    ],
)
def test_a_parameter_breaking_a_rule_is_refused(make, fragment):
    with pytest.raises(ValueError, match=fragment):
        make()
