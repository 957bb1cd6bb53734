// The judging board: grade each result, see your AP next to the reference judgments'.
// The model's traits are the only state; the kernel computes every number.

const EVENTS = ["items", "grades", "reasons", "summary", "show_reference", "scale"]
  .map((trait) => `change:${trait}`)
  .join(" ");

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

function buildView() {
  const root = el("div", { class: "mapteach-judging", "data-testid": "judging-board" });
  const query = el("div", { class: "mt-query" });
  const readouts = el("div", { class: "mt-readouts", "aria-live": "polite", role: "status" });
  const reveal = el("input", { type: "checkbox", "data-testid": "reveal-reference" });
  const revealLabel = el("label", {}, "Compare with the reference judgments ");
  revealLabel.append(reveal);
  const list = el("ol", { class: "mt-judge-list" });
  root.append(query, readouts, revealLabel, list);
  return { root, query, readouts, reveal, list };
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
    readout("ap-value", "your AP", value("ap")),
    readout("p5-value", "P@5", value("p5")),
    readout("ndcg-value", "nDCG@10", value("ndcg10")),
  );
  if (model.get("show_reference")) {
    view.readouts.append(readout("reference-ap", "reference AP", value("ref_ap")));
  }
}

function gradeButton(model, item, index, grade) {
  const scale = model.get("scale");
  const text = scale === 1 ? (grade ? "relevant" : "not relevant") : String(grade);
  const button = el("button", {
    type: "button", "data-testid": "grade-button", "data-doc": item.doc,
    "data-grade": String(grade), "aria-pressed": String(model.get("grades")[index] === grade),
  }, text);
  button.addEventListener("click", () => commit(model, index, { grades: grade }));
  return button;
}

function reasonInput(model, index) {
  const reason = el("input", {
    type: "text", placeholder: "reason (optional)", "data-testid": "reason-input",
    "aria-label": `Reason for result ${index + 1}`,
  });
  reason.value = model.get("reasons")[index];
  reason.addEventListener("change", () => commit(model, index, { reasons: reason.value }));
  return reason;
}

function gradeControls(model, item, index) {
  const group = el("div", {
    class: "mt-grades", role: "group", "aria-label": `Grade for result ${index + 1}`,
  });
  for (let grade = 0; grade <= model.get("scale"); grade += 1) {
    group.append(gradeButton(model, item, index, grade));
  }
  group.append(reasonInput(model, index));
  if (model.get("show_reference")) {
    group.append(el("span", { class: "mt-ref" }, `reference: ${model.get("reference")[index]}`));
  }
  return group;
}

function labelItem(model, item, index, disagrees) {
  const li = el("li", {
    class: "mt-judge" + (disagrees ? " mt-disagree" : ""),
    "data-testid": "label-item",
    "data-doc": item.doc,
    "data-grade": String(model.get("grades")[index]),
    "data-disagrees": String(disagrees),
  });
  li.append(
    el("div", { class: "mt-snippet" }, `${index + 1}. ${item.text}`),
    gradeControls(model, item, index),
  );
  return li;
}

function drawList(model, view) {
  const shown = model.get("show_reference");
  const disagree = new Set(model.get("summary").disagree || []);
  view.list.replaceChildren(...model.get("items").map(
    (item, index) => labelItem(model, item, index, shown && disagree.has(index)),
  ));
}

function draw(model, view) {
  view.query.textContent = `Query: ${model.get("query")}`;
  view.reveal.checked = model.get("show_reference");
  drawReadouts(model, view);
  drawList(model, view);
}

function render({ model, el: host }) {
  const view = buildView();
  host.append(view.root);
  view.reveal.addEventListener("change", () => {
    model.set("show_reference", view.reveal.checked);
    model.save_changes();
  });
  const redraw = () => draw(model, view);
  model.on(EVENTS, redraw);
  redraw();
  return () => model.off(EVENTS, redraw);
}

export default { render };
