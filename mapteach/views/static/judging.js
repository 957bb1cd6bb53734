// The judging board: grade each result, see your AP next to the reference judgments'.
// The model's traits are the only state; the kernel computes every number.

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

function render({ model, el: host }) {
  const root = el("div", { class: "mapteach-judging", "data-testid": "judging-board" });
  const query = el("div", { class: "mt-query" });
  const readouts = el("div", { class: "mt-readouts", "aria-live": "polite", role: "status" });
  const reveal = el("input", { type: "checkbox", "data-testid": "reveal-reference" });
  const revealLabel = el("label", {}, "Compare with the reference judgments ");
  revealLabel.append(reveal);
  const list = el("ol", { class: "mt-judge-list" });
  root.append(query, readouts, revealLabel, list);
  host.append(root);

  function commit(index, changes) {
    for (const [trait, value] of Object.entries(changes)) {
      const next = model.get(trait).slice();
      next[index] = value;
      model.set(trait, next);
    }
    model.save_changes();
  }

  function draw() {
    const items = model.get("items");
    const grades = model.get("grades");
    const reasons = model.get("reasons");
    const reference = model.get("reference");
    const shown = model.get("show_reference");
    const summary = model.get("summary");
    const disagree = new Set(summary.disagree || []);
    query.textContent = `Query: ${model.get("query")}`;
    reveal.checked = shown;
    const value = (key) => Number(summary[key] ?? 0);
    readouts.replaceChildren(
      el("span", { "data-testid": "ap-value", "data-value": String(value("ap")) },
        `your AP = ${value("ap").toFixed(4)}`),
      el("span", { "data-testid": "p5-value", "data-value": String(value("p5")) },
        `P@5 = ${value("p5").toFixed(4)}`),
      el("span", { "data-testid": "ndcg-value", "data-value": String(value("ndcg10")) },
        `nDCG@10 = ${value("ndcg10").toFixed(4)}`),
    );
    if (shown) {
      readouts.append(el("span", { "data-testid": "reference-ap", "data-value": String(value("ref_ap")) },
        `reference AP = ${value("ref_ap").toFixed(4)}`));
    }
    list.replaceChildren();
    items.forEach((item, index) => {
      const li = el("li", {
        class: "mt-judge" + (shown && disagree.has(index) ? " mt-disagree" : ""),
        "data-testid": "label-item",
        "data-doc": item.doc,
        "data-grade": String(grades[index]),
        "data-disagrees": String(shown && disagree.has(index)),
      });
      li.append(el("div", { class: "mt-snippet" }, `${index + 1}. ${item.text}`));
      const buttons = el("div", { class: "mt-grades", role: "group", "aria-label": `Grade for result ${index + 1}` });
      for (let grade = 0; grade <= model.get("scale"); grade += 1) {
        const button = el("button", {
          type: "button", "data-testid": "grade-button", "data-doc": item.doc,
          "data-grade": String(grade), "aria-pressed": String(grades[index] === grade),
        }, model.get("scale") === 1 ? (grade ? "relevant" : "not relevant") : String(grade));
        button.addEventListener("click", () => commit(index, { grades: grade }));
        buttons.append(button);
      }
      const reason = el("input", {
        type: "text", placeholder: "reason (optional)", "data-testid": "reason-input",
        "aria-label": `Reason for result ${index + 1}`,
      });
      reason.value = reasons[index];
      reason.addEventListener("change", () => commit(index, { reasons: reason.value }));
      buttons.append(reason);
      if (shown) buttons.append(el("span", { class: "mt-ref" }, `reference: ${reference[index]}`));
      li.append(buttons);
      list.append(li);
    });
  }

  reveal.addEventListener("change", () => {
    model.set("show_reference", reveal.checked);
    model.save_changes();
  });
  const events = "change:items change:grades change:reasons change:summary change:show_reference change:scale";
  model.on(events, draw);
  draw();
  return () => model.off(events, draw);
}

export default { render };
