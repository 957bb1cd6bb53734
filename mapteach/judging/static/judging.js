// The judging board: a calibration round. Grade each result (a reason for the middle
// grades), see your AP next to the reference judgments', then the reference's grade,
// reason and rule for each result. The model's traits are the only state; the kernel
// computes every number and saves every change. Every text shown comes from the `texts`
// trait, in the board's language, filled from the kernel's message catalogue.

const EVENTS = [
  "items", "order", "grades", "reasons", "summary", "show_reference", "scale", "key",
  "query", "gloss", "position", "n_queries",
].map((trait) => `change:${trait}`).join(" ");

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

// The text `key` in the board's language, its {placeholders} filled from `fields`.
function say(model, key, fields = {}) {
  const template = model.get("texts")[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (
    name in fields ? String(fields[name]) : whole
  ));
}

function buildView(model) {
  const root = el("div", {
    class: "mapteach-judging", "data-testid": "judging-board", lang: say(model, "lang"),
  });
  const query = el("div", { class: "mt-query" });
  const progress = el("div", { class: "mt-progress", "data-testid": "progress" });
  const readouts = el("div", { class: "mt-readouts", "aria-live": "polite", role: "status" });
  const reveal = el("input", { type: "checkbox", "data-testid": "reveal-reference" });
  const revealLabel = el("label", {}, `${say(model, "reveal")} `);
  revealLabel.append(reveal);
  const next = el("button", { type: "button", "data-testid": "next-query" }, say(model, "next"));
  const controls = el("div", { class: "mt-controls" });
  controls.append(revealLabel, next);
  const list = el("ol", { class: "mt-judge-list" });
  root.append(query, progress, readouts, controls, list);
  reveal.addEventListener("change", () => {
    model.set("show_reference", reveal.checked);
    model.save_changes();
  });
  next.addEventListener("click", () => {
    model.set("position", model.get("position") + 1);
    model.save_changes();
  });
  return { root, query, progress, readouts, reveal, next, list };
}

function commit(model, index, changes) {
  for (const [trait, value] of Object.entries(changes)) {
    const next = model.get(trait).slice();
    next[index] = value;
    model.set(trait, next);
  }
  model.save_changes();
}

function readout(testid, label, value) {
  return el("span", { "data-testid": testid, "data-value": String(value) },
    `${label} = ${value.toFixed(4)}`);
}

function drawReadouts(model, view) {
  const summary = model.get("summary");
  const value = (key) => Number(summary[key] ?? 0);
  view.readouts.replaceChildren(
    readout("ap-value", say(model, "your_ap"), value("ap")),
    readout("p5-value", "P@5", value("p5")),
    readout("ndcg-value", "nDCG@10", value("ndcg10")),
  );
  if (model.get("show_reference")) {
    view.readouts.append(readout("reference-ap", say(model, "reference_ap"), value("ref_ap")));
  }
}

function gradeButton(model, item, index, grade) {
  const button = el("button", {
    type: "button", "data-testid": "grade-button", "data-doc": item.doc,
    "data-grade": String(grade), "aria-pressed": String(model.get("grades")[index] === grade),
  }, String(grade));
  button.addEventListener("click", () => commit(model, index, { grades: grade }));
  return button;
}

function needsReason(model, index) {
  const grade = model.get("grades")[index];
  return grade > 0 && grade < model.get("scale");
}

function reasonInput(model, index) {
  const graded = model.get("grades")[index] >= 0;
  const doc = model.get("items")[index].doc;
  const reason = el("input", {
    type: "text", "data-testid": "reason-input", "data-doc": doc,
    "aria-label": say(model, "reason_aria", { doc }),
    placeholder: say(model, needsReason(model, index) ? "reason_needed" : "reason_optional"),
  });
  reason.value = model.get("reasons")[index];
  reason.disabled = !graded;
  const save = () => {
    if (reason.value !== model.get("reasons")[index]) {
      commit(model, index, { reasons: reason.value });
    }
  };
  reason.addEventListener("change", save);
  reason.addEventListener("keydown", (event) => {
    if (event.key === "Enter") save();
  });
  return reason;
}

function clearButton(model, item, index) {
  const button = el("button", {
    type: "button", class: "mt-clear", "data-testid": "clear-grade", "data-doc": item.doc,
    "aria-label": say(model, "clear_aria", { doc: item.doc }),
  }, say(model, "clear"));
  button.disabled = model.get("grades")[index] < 0;
  button.addEventListener("click", () => commit(model, index, { grades: -1, reasons: "" }));
  return button;
}

function gradeControls(model, item, index) {
  const group = el("div", {
    class: "mt-grades", role: "group", "aria-label": say(model, "grade_aria", { doc: item.doc }),
  });
  for (let grade = 0; grade <= model.get("scale"); grade += 1) {
    group.append(gradeButton(model, item, index, grade));
  }
  group.append(reasonInput(model, index), clearButton(model, item, index));
  return group;
}

function referenceBlock(model, key) {
  const block = el("div", { class: "mt-ref" });
  block.append(
    el("span", { "data-testid": "reference-grade" }, say(model, "reference", { grade: key.grade })),
    el("span", { class: "mt-rule", "data-testid": "rule-ref", title: key.statement }, key.rule),
    el("span", { "data-testid": "reason-ref" }, key.reason),
  );
  return block;
}

function labelItem(model, index, shownAt) {
  const item = model.get("items")[index];
  const summary = model.get("summary");
  const shown = model.get("show_reference");
  const disagrees = shown && (summary.disagree || []).includes(index);
  const differs = shown && (summary.differs || []).includes(index);
  const graded = model.get("grades")[index] >= 0;
  const complete = Boolean((summary.complete || [])[index]);
  const classes = ["mt-judge"];
  if (disagrees) classes.push("mt-disagree");
  else if (differs) classes.push("mt-differ");
  if (graded && !complete) classes.push("mt-incomplete");
  const li = el("li", {
    class: classes.join(" "),
    "data-testid": "label-item",
    "data-doc": item.doc,
    "data-rank": String(item.rank),
    "data-grade": String(model.get("grades")[index]),
    "data-complete": String(complete),
    "data-disagrees": String(disagrees),
    "data-differs": String(differs),
  });
  li.append(
    el("div", { class: "mt-snippet" }, `${shownAt + 1}. ${item.text}`),
    el("div", { class: "mt-gloss" }, item.gloss),
    gradeControls(model, item, index),
  );
  if (graded && !complete) {
    li.append(el("div", { class: "mt-missing", "data-testid": "incomplete" },
      say(model, "incomplete")));
  }
  const key = model.get("key");
  if (shown && key.length > index) li.append(referenceBlock(model, key[index]));
  return li;
}

// The reason being typed, if any: a redraw (new numbers from the kernel) must not lose it.
function typing(view) {
  const active = document.activeElement;
  if (!active || active.dataset.testid !== "reason-input" || !view.list.contains(active)) {
    return null;
  }
  return { doc: active.dataset.doc, value: active.value, at: active.selectionStart };
}

function resume(view, typed) {
  if (!typed) return;
  const input = [...view.list.querySelectorAll("[data-testid=reason-input]")]
    .find((node) => node.dataset.doc === typed.doc);
  if (!input || input.disabled) return;
  input.value = typed.value;
  input.focus();
  input.setSelectionRange(typed.at, typed.at);
}

function draw(model, view) {
  const typed = typing(view);
  view.query.textContent = say(model, model.get("gloss") ? "query" : "query_plain", {
    query: model.get("query"), gloss: model.get("gloss"),
  });
  const summary = model.get("summary");
  const position = model.get("position");
  const total = model.get("n_queries");
  view.progress.textContent = say(model, "progress", {
    position: position + 1, total, done: summary.n_complete ?? 0, n: model.get("items").length,
  });
  view.reveal.checked = model.get("show_reference");
  view.next.disabled = position + 1 >= total;
  drawReadouts(model, view);
  view.list.replaceChildren(
    ...model.get("order").map((index, shownAt) => labelItem(model, index, shownAt)),
  );
  resume(view, typed);
}

function render({ model, el: host }) {
  const view = buildView(model);
  host.append(view.root);
  const redraw = () => draw(model, view);
  model.on(EVENTS, redraw);
  redraw();
  return () => model.off(EVENTS, redraw);
}

export default { render };
