"""offline_state: a widget's synced traits as JSON, the widgets it refers to beside it."""

from __future__ import annotations

import json

import ipywidgets
import pytest
import traitlets

from mapteach.offline import offline_state


class Leaf(ipywidgets.DOMWidget):
    offline_module = "leaf"
    size = traitlets.Int(3).tag(sync=True)
    _secret = traitlets.Unicode("hidden").tag(sync=True)
    unsynced = traitlets.Int(7)


class Tree(ipywidgets.DOMWidget):
    offline_module = "tree"
    first = traitlets.Instance(Leaf, allow_none=True).tag(
        sync=True, **ipywidgets.widget_serialization
    )
    leaves = traitlets.List().tag(sync=True, **ipywidgets.widget_serialization)
    named = traitlets.Dict().tag(sync=True, **ipywidgets.widget_serialization)


class Nameless(ipywidgets.DOMWidget):
    value = traitlets.Int(0).tag(sync=True)


def test_only_the_synced_traits_a_view_reads():
    state = offline_state(Leaf(size=5), note=["kept"])
    assert state["module"] == "leaf" and state["children"] == {}
    assert state["model"] == {"size": 5, "note": ["kept"]}
    json.dumps(state)  # plain JSON


def test_each_widget_referred_to_gets_a_local_ref_in_order():
    a, b, c = Leaf(size=1), Leaf(size=2), Leaf(size=3)
    state = offline_state(Tree(first=a, leaves=[b, c], named={"x": a}))
    assert state["model"]["first"] == "IPY_MODEL_c0"
    assert state["model"]["leaves"] == ["IPY_MODEL_c1", "IPY_MODEL_c2"]
    assert state["model"]["named"] == {"x": "IPY_MODEL_c3"}  # a again: a ref of its own
    sizes = {ref: child["model"]["size"] for ref, child in state["children"].items()}
    assert sizes == {"c0": 1, "c1": 2, "c2": 3, "c3": 1}
    assert {child["module"] for child in state["children"].values()} == {"leaf"}
    # ... but the same page id, so the page makes one model of it.
    assert state["children"]["c0"]["id"] == state["children"]["c3"]["id"]
    assert len({child["id"] for child in state["children"].values()}) == 3


def test_a_widget_keeps_its_page_id_in_every_state():
    leaf = Leaf()
    alone, inside = offline_state(leaf), offline_state(Tree(first=leaf))
    assert alone["id"] == inside["children"]["c0"]["id"] == offline_state(leaf)["id"]
    assert inside["id"] != alone["id"]
    assert offline_state(Leaf())["id"] not in {alone["id"], inside["id"]}


def test_page_ids_follow_the_order_states_are_first_written():
    first, second = Leaf(), Leaf()
    ids = [offline_state(first)["id"], offline_state(second)["id"], offline_state(first)["id"]]
    numbers = [int(page_id.removeprefix("w")) for page_id in ids]
    assert numbers[1] == numbers[0] + 1 and numbers[2] == numbers[0]


def test_extra_values_may_refer_to_widgets_too():
    state = offline_state(Leaf(), board=Leaf(size=9))
    assert state["model"]["board"] == "IPY_MODEL_c0"
    assert state["children"]["c0"]["model"]["size"] == 9


def test_a_widget_without_a_browser_module_is_named():
    with pytest.raises(TypeError, match="Nameless has no offline_module"):
        offline_state(Nameless())
    with pytest.raises(TypeError, match="Nameless has no offline_module"):
        offline_state(Tree(leaves=[Nameless()]))
