"""Measure names as ir_measures spells them, parsed and printed back."""

from __future__ import annotations

import pytest

from mapteach import average_precision, parse_measure
from mapteach.metrics.names import FAMILIES


@pytest.mark.parametrize(
    "name", ["AP", "AP@10", "P@5", "R@100", "RR", "RR@10", "nDCG", "nDCG@10", "Success@3"]
)
def test_names_round_trip(name):
    assert parse_measure(name).name == name
    assert str(parse_measure(name)) == name


@pytest.mark.parametrize(
    ("alias", "name"), [("Hit@3", "Success@3"), ("MAP", "AP"), ("MRR@5", "RR@5")]
)
def test_aliases(alias, name):
    assert parse_measure(alias).name == name


def test_every_family_has_a_description():
    for family in FAMILIES:
        assert len(parse_measure(f"{family}@3").description) > 20


def test_measure_scores_use_r():
    assert parse_measure("AP").score([1, 0, 1], n_relevant=4) == average_precision(
        [1, 0, 1], n_relevant=4
    )
    assert parse_measure("R@1").score([1, 0, 1], n_relevant=4) == 0.25


def test_the_families_are_read_only():
    with pytest.raises(TypeError):
        FAMILIES["MAP"] = FAMILIES["AP"]
    with pytest.raises(TypeError):
        del FAMILIES["AP"]
