// The ranking board's list: drag or Alt+Arrow to reorder, click or Space to toggle
// relevance; with `fixed_relevance` (an arrangement exercise) nothing toggles, and the
// plain arrows move the focused result too (the kernel refuses any change of relevance
// then). The model's traits are the only state. The readout always shows AP of the list
// on screen, derived from the model at once (board_math.js, bit for bit as the kernel
// computes it); the kernel's `ap` is never shown, so its reply to an earlier move, landing
// after a later one, cannot show an AP of a list no longer on screen. With `view` "board"
// it also draws the trace table, the P@k bars and the PR curve (board_view.js), repainted
// in the same frame as the readout. The kernel (or, on a page without one,
// ranking_list_offline.js) computes the heading (marked "(edited)" once the list differs
// from its preset) and the preset menu's value, and restores the preset when
// `reset_request` counts up. The view keeps only what a gesture needs between two events:
// the result to focus after the next redraw, and the rank a drag started from. A count
// typed that is not a whole number >= 0 is refused where it is typed: the input goes back
// to the model's value and a message under the controls says so, until the count next
// changes. Every text shown comes from the `texts` and `trace_texts` traits, in the
// list's language, from the message catalogue.

import { el, fill, floatRepr, formatFixed } from "./text.js";
import { AP_EVENTS, apName, listAp, listState } from "./board_math.js";
import { buildBoardParts, drawBoardParts } from "./board_view.js";

const CONTROL_EVENTS = [
  "presets", "preset", "compact", "n_unretrieved", "k", "interpolated", "query_name", "heading",
  "fixed_relevance",
].map((trait) => `change:${trait}`).join(" ");

// The text `key` in the list's language, its {placeholders} filled from `fields`.
function say(model, key, fields = {}) {
  return fill(model.get("texts")[key] ?? key, fields);
}

function moved(items, from, to) {
  const next = items.slice();
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

function labelled(text, input) {
  const wrap = el("label", {}, text);
  wrap.append(input);
  return wrap;
}

function countInput(testid, label) {
  return el("input", {
    type: "number", min: "0", step: "1", "data-testid": testid, "aria-label": label,
  });
}

function buildControls(model) {
  const preset = el("select", {
    "data-testid": "preset-select", "aria-label": say(model, "example_aria"),
  });
  const reset = el("button", {
    type: "button", class: "mt-reset", "data-testid": "reset-button",
    title: say(model, "reset_title"),
  }, say(model, "reset"));
  const unretrieved = countInput("unretrieved-input", say(model, "missed_aria"));
  const cutoff = countInput("cutoff-input", say(model, "cutoff_aria"));
  const interpolated = el("input", { type: "checkbox", "data-testid": "interpolated-toggle" });
  const example = el("div", { class: "mt-example" });
  example.append(labelled(`${say(model, "example")} `, preset), reset);
  const settings = el("div", { class: "mt-settings" });
  settings.append(
    labelled(`${say(model, "missed")} `, unretrieved),
    labelled(`${say(model, "cutoff")} `, cutoff),
    labelled(`${say(model, "interpolated")} `, interpolated),
  );
  const rejected = el("p", {
    class: "mt-rejected", "data-testid": "count-rejected", role: "alert", hidden: "",
  });
  const controls = el("div", { class: "mt-controls" });
  controls.append(example, settings, rejected);
  return { controls, preset, reset, unretrieved, cutoff, interpolated, rejected };
}

// The list's part of the view; in the board view, the trace table beside it and the
// plots below (`board`, else null).
function buildView(model) {
  const root = el("div", {
    class: "mapteach-board", "data-testid": "ranking-board", lang: say(model, "lang"),
  });
  const header = el("div", { class: "mt-header" });
  const name = el("span", { class: "mt-query" });
  const readout = el("span", {
    class: "mt-readout", "data-testid": "ap-value", "aria-live": "polite", role: "status",
  });
  header.append(name, readout);
  const denominator = el("div", { class: "mt-denominator", "data-testid": "r-value" });
  const inputs = buildControls(model);
  const list = el("ol", {
    class: "mt-list", "data-testid": "rank-list", "aria-label": say(model, "list_aria"),
  });
  const help = el("p", { class: "mt-help" }, say(model, "help"));
  const live = el("div", {
    class: "mt-sr-only", "aria-live": "assertive", "data-testid": "announcer",
  });
  const board = model.get("view") === "board" ? buildBoardParts() : null;
  if (board) {
    const part = el("div", { class: "mt-list-part" });
    part.append(header, inputs.controls, denominator, list, help, live);
    const top = el("div", { class: "mt-top" });
    top.append(part, board.trace);
    root.classList.add("mt-board-view");
    root.append(top, board.plots);
  } else {
    root.append(header, inputs.controls, denominator, list, help, live);
  }
  return { root, name, readout, denominator, list, help, live, board, ...inputs };
}

// The readout: AP of the list on screen (the kernel's value to the bit), as Python writes
// it (formatFixed: an exact half rounds to even), its full value in data-value (repr).
function showAp(model, view) {
  const ap = listAp(model);
  view.readout.setAttribute("data-value", floatRepr(ap));
  view.readout.textContent = `${apName(model.get("k"))} = ${formatFixed(ap, 4)}`;
}

function makeActions(model, view, gesture) {
  function commit(next, focus, message) {
    gesture.focusDoc = focus;
    model.set("items", next); // the list, the readout and the board repaint at once
    model.save_changes();
    view.live.textContent = message;
  }

  function move(from, to) {
    const all = model.get("items");
    if (to < 0 || to >= all.length || from === to) return;
    const item = all[from];
    const message = say(model, "moved", { title: item.title, rank: to + 1, n: all.length });
    commit(moved(all, from, to), item.doc, message);
  }

  function toggle(index) {
    const all = model.get("items").map((item) => ({ ...item }));
    all[index].relevant = !all[index].relevant;
    const item = all[index];
    const now = item.relevant ? "now_relevant" : "now_not_relevant";
    commit(all, item.doc, say(model, now, { title: item.title, rank: index + 1 }));
  }

  return { move, toggle };
}

function itemNode(model, item, index) {
  const state = item.relevant ? "item_relevant" : "item_not_relevant";
  const li = el("li", {
    class: "mt-item" + (item.relevant ? " mt-relevant" : ""),
    "data-testid": "rank-item",
    "data-rank": String(index + 1),
    "data-doc": item.doc,
    "data-relevant": String(item.relevant),
    draggable: "true",
    tabindex: "0",
    "aria-label": say(model, state, { rank: index + 1, title: item.title }),
  });
  li.append(
    el("span", { class: "mt-rank" }, String(index + 1)),
    el("span", { class: "mt-mark", "aria-hidden": "true" }, item.relevant ? "✔" : "✘"),
    el("span", { class: "mt-title" }, item.title),
  );
  return li;
}

function wireKeys(model, li, index, actions) {
  li.addEventListener("keydown", (event) => {
    const handled = () => { event.preventDefault(); event.stopPropagation(); };
    const moves = event.altKey || model.get("fixed_relevance");
    if (moves && event.key === "ArrowUp") {
      handled();
      actions.move(index, index - 1);
    } else if (moves && event.key === "ArrowDown") {
      handled();
      actions.move(index, index + 1);
    } else if (event.key === " " || event.key === "Enter") {
      handled();
      if (!model.get("fixed_relevance")) actions.toggle(index);
    } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      handled();
      const sibling = event.key === "ArrowUp" ? li.previousElementSibling : li.nextElementSibling;
      if (sibling) sibling.focus();
    }
  });
}

function dropIndex(event, index) {
  const box = event.currentTarget.getBoundingClientRect();
  return event.clientY > box.top + box.height / 2 ? index + 1 : index;
}

function wireDrag(li, index, gesture, actions) {
  li.addEventListener("dragstart", (event) => {
    gesture.dragFrom = index;
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", li.dataset.doc);
    li.classList.add("mt-dragging");
  });
  li.addEventListener("dragend", () => {
    gesture.dragFrom = null;
    li.classList.remove("mt-dragging");
  });
  li.addEventListener("dragover", (event) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    const below = dropIndex(event, index) > index;
    li.classList.toggle("mt-drop-above", !below);
    li.classList.toggle("mt-drop-below", below);
  });
  li.addEventListener("dragleave", () => li.classList.remove("mt-drop-above", "mt-drop-below"));
  li.addEventListener("drop", (event) => {
    event.preventDefault();
    event.stopPropagation();
    li.classList.remove("mt-drop-above", "mt-drop-below");
    if (gesture.dragFrom === null) return;
    let to = dropIndex(event, index);
    if (to > gesture.dragFrom) to -= 1;
    actions.move(gesture.dragFrom, to);
  });
}

function drawList(model, view, gesture, actions) {
  const { list } = view;
  const active = list.contains(document.activeElement) ? document.activeElement.dataset.doc : null;
  const target = gesture.focusDoc ?? active;
  gesture.focusDoc = null;
  list.replaceChildren();
  model.get("items").forEach((item, index) => {
    const li = itemNode(model, item, index);
    li.addEventListener("click", () => {
      if (!model.get("fixed_relevance")) actions.toggle(index);
    });
    wireKeys(model, li, index, actions);
    wireDrag(li, index, gesture, actions);
    list.append(li);
    if (item.doc === target) li.focus();
  });
}

function drawPresets(model, view) {
  const names = model.get("presets");
  if (view.preset.options.length !== names.length) {
    const options = names.map(([key, title]) => el("option", { value: key }, title));
    view.preset.replaceChildren(...options);
  }
  view.preset.value = model.get("preset");
}

function drawDenominator(model, view) {
  const missed = model.get("n_unretrieved");
  const r = listState(model).nRelevant;
  view.denominator.textContent = missed ? say(model, "r_missed", { r, missed }) : `R = ${r}`;
  view.denominator.title = view.denominator.textContent;
}

function drawControls(model, view) {
  view.name.textContent = model.get("heading");
  view.name.title = model.get("heading");
  view.root.setAttribute("data-query", model.get("query_name"));
  drawPresets(model, view);
  view.controls.hidden = model.get("compact");
  view.help.hidden = model.get("compact");
  view.help.textContent = say(model, model.get("fixed_relevance") ? "help_fixed" : "help");
  view.root.toggleAttribute("data-fixed-relevance", model.get("fixed_relevance"));
  drawDenominator(model, view);
  view.unretrieved.value = String(model.get("n_unretrieved"));
  view.cutoff.value = String(model.get("k"));
  view.interpolated.checked = model.get("interpolated");
}

function showRejection(view, text) {
  view.rejected.textContent = text;
  view.rejected.hidden = !text;
}

// A whole number >= 0 typed is sent to the kernel; anything else ("-1", "2.5", nothing)
// puts the model's value back in the input and says so on the board.
function saveCount(model, view, trait, input) {
  const typed = input.value.trim();
  const value = Number(typed);
  if (typed !== "" && Number.isInteger(value) && value >= 0) {
    model.set(trait, value);
    model.save_changes();
  } else {
    input.value = String(model.get(trait));
    showRejection(view, say(model, `${trait}_rejected`, { value: model.get(trait) }));
  }
}

// A count is committed on change (blur, arrows) and on Enter, which JupyterLab must not see.
function wireCount(model, view, trait, input) {
  input.addEventListener("change", () => saveCount(model, view, trait, input));
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    event.stopPropagation();
    saveCount(model, view, trait, input);
  });
}

function requestReset(model, view) {
  model.set("reset_request", model.get("reset_request") + 1);
  model.save_changes();
  view.live.textContent = say(model, "reset_done");
}

function wireControls(model, view) {
  wireCount(model, view, "n_unretrieved", view.unretrieved);
  wireCount(model, view, "k", view.cutoff);
  view.reset.addEventListener("click", () => requestReset(model, view));
  view.interpolated.addEventListener("change", () => {
    model.set("interpolated", view.interpolated.checked);
    model.save_changes();
  });
  view.preset.addEventListener("change", () => {
    model.set("preset", view.preset.value);
    model.save_changes();
  });
}

// The board view's trace table and plots, repainted once for every change of the state
// they show: changes that arrive together (a reset, a preset) make one repaint, in a
// microtask, so before the browser paints the frame.
function boardPainter(model, view) {
  let pending = false;
  return () => {
    if (!view.board || pending) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      drawBoardParts(view.board, model);
    });
  };
}

function render({ model, el: host }) {
  const view = buildView(model);
  host.append(view.root);
  const gesture = { focusDoc: null, dragFrom: null };
  const actions = makeActions(model, view, gesture);
  wireControls(model, view);
  const list = () => drawList(model, view, gesture, actions);
  const controls = () => drawControls(model, view);
  const repaint = boardPainter(model, view);
  const handlers = [
    ["change:items", () => { list(); controls(); }],
    [AP_EVENTS, () => showAp(model, view)],
    [CONTROL_EVENTS, controls],
    ["change:k change:n_unretrieved", () => showRejection(view, "")],
    [`${AP_EVENTS} change:interpolated`, repaint],
    ["change:texts change:trace_texts", repaint],
  ];
  for (const [events, handler] of handlers) model.on(events, handler);
  controls();
  list();
  showAp(model, view);
  if (view.board) drawBoardParts(view.board, model);
  return () => { for (const [events, handler] of handlers) model.off(events, handler); };
}

export default { render };
