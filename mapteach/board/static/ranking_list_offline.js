// What the kernel does for a RankingList, on a page without one (the static site): the
// page's model shim calls standIn(model, names) after the view saves changes to the
// traits `names`, and this sets the traits the kernel would have set in reply, exactly
// as mapteach.board.list_widget.RankingList's observers do: `ap` and `ap_label` from the
// list on screen (_recompute), `heading` and `preset` after an edit (_show_edits), a
// preset loaded when chosen (_choose_preset, load), and the origin restored when
// `reset_request` counts up (reset). The same ranking_list.js view runs on top, unchanged.
//
// The origin to reset to is the model's `origin` ({preset, query_name, items,
// n_unretrieved, k, interpolated}, as the Python's _Origin) and the presets are
// `preset_states` ({name: origin}, each as loading it makes it: k = 0), both written into
// the page's state by mapteach.board.board_fallback; a list shown inside another widget
// (the MAP board, an arrangement exercise) has neither, and resets to the state it was
// shown in (attach records it), which is its origin whenever it was shown unedited.

import { fill } from "./text.js";
import { apName, listAp } from "./board_math.js";

const ORIGINS = new WeakMap();

function stateOrigin(model) {
  return {
    preset: model.get("preset"),
    query_name: model.get("query_name"),
    items: model.get("items").map((item) => ({ ...item })),
    n_unretrieved: model.get("n_unretrieved"),
    k: model.get("k"),
    interpolated: model.get("interpolated"),
  };
}

// Called once when the page makes the model, before any view renders.
export function attach(model) {
  ORIGINS.set(model, model.get("origin") ?? stateOrigin(model));
}

function originOf(model) {
  if (!ORIGINS.has(model)) attach(model);
  return ORIGINS.get(model);
}

function sameItems(a, b) {
  return a.length === b.length && a.every((item, i) => (
    item.doc === b[i].doc && item.title === b[i].title && item.relevant === b[i].relevant
  ));
}

// RankingList.edited: the ranking or its R differs from the preset it was loaded from.
function isEdited(model) {
  const origin = originOf(model);
  return Boolean(origin.preset) && (
    !sameItems(model.get("items"), origin.items)
    || model.get("n_unretrieved") !== origin.n_unretrieved
  );
}

function recompute(model) {
  model.set("ap", listAp(model));
  model.set("ap_label", apName(model.get("k")));
}

function showEdits(model) {
  const edited = isEdited(model);
  const name = model.get("query_name");
  model.set("heading", edited ? fill(model.get("texts").edited, { name }) : name);
  model.set("preset", edited ? "" : originOf(model).preset);
}

function restore(model) {
  const origin = originOf(model);
  model.set("items", origin.items.map((item) => ({ ...item })));
  model.set("n_unretrieved", origin.n_unretrieved);
  model.set("k", origin.k);
  model.set("interpolated", origin.interpolated);
  model.set("query_name", origin.query_name);
  recompute(model);
  showEdits(model);
}

// RankingList.load: the preset's list, R and title; the cutoff back to 0, the curve kept.
function load(model, name) {
  const preset = (model.get("preset_states") ?? {})[name];
  if (!preset) {
    showEdits(model);
    return;
  }
  ORIGINS.set(model, { ...preset, interpolated: model.get("interpolated") });
  restore(model);
}

// The kernel's reply to the view's change of the traits `names`.
export function standIn(model, names) {
  const changed = new Set(names);
  if (changed.has("reset_request")) {
    restore(model);
    return;
  }
  if (changed.has("preset")) {
    const chosen = model.get("preset");
    if (chosen && (chosen !== originOf(model).preset || isEdited(model))) {
      load(model, chosen);
      return;
    }
    showEdits(model);
  }
  if (["items", "n_unretrieved", "k"].some((name) => changed.has(name))) recompute(model);
  if (changed.has("items") || changed.has("n_unretrieved")) showEdits(model);
}
