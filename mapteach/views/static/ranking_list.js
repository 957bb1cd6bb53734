// The ranking board's list: drag or Alt+Arrow to reorder, click or Space to toggle
// relevance. The model's traits are the only state; the kernel computes AP.

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

// AP exactly as mapteach.average_precision computes it: P@i = hits/i at each relevant
// rank i <= k, added in rank order, divided by R. Same IEEE operations in the same
// order, so the browser's readout equals the kernel's to the last bit; the kernel's
// value still arrives and is shown (see drawReadout).
export function averagePrecision(labels, nRelevant, k) {
  const ranks = k > 0 ? Math.min(k, labels.length) : labels.length;
  let hits = 0;
  let sum = 0;
  for (let i = 0; i < ranks; i += 1) {
    if (labels[i]) {
      hits += 1;
      sum += hits / (i + 1);
    }
  }
  return nRelevant > 0 ? sum / nRelevant : 0;
}

function moved(items, from, to) {
  const next = items.slice();
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

function render({ model, el: host }) {
  const root = el("div", { class: "mapteach-board", "data-testid": "ranking-board" });
  const header = el("div", { class: "mt-header" });
  const name = el("span", { class: "mt-query" });
  const readout = el("span", {
    class: "mt-readout", "data-testid": "ap-value", "aria-live": "polite", role: "status",
  });
  const denominator = el("div", { class: "mt-denominator", "data-testid": "r-value" });
  header.append(name, readout);

  const controls = el("div", { class: "mt-controls" });
  const preset = el("select", { "data-testid": "preset-select", "aria-label": "Load a worked example" });
  const unretrieved = el("input", {
    type: "number", min: "0", step: "1", "data-testid": "unretrieved-input",
    "aria-label": "Relevant documents the system never retrieved",
  });
  const cutoff = el("input", {
    type: "number", min: "0", step: "1", "data-testid": "cutoff-input",
    "aria-label": "Cutoff k (0 for the whole list)",
  });
  const interpolated = el("input", { type: "checkbox", "data-testid": "interpolated-toggle" });
  const label = (text, input) => {
    const wrap = el("label", {}, text);
    wrap.append(input);
    return wrap;
  };
  controls.append(
    label("Example ", preset),
    label("Missed relevant ", unretrieved),
    label("Cutoff k ", cutoff),
    label("Interpolated curve ", interpolated),
  );

  const list = el("ol", { class: "mt-list", "data-testid": "rank-list", "aria-label": "Ranked results" });
  const live = el("div", { class: "mt-sr-only", "aria-live": "assertive", "data-testid": "announcer" });
  const help = el("p", { class: "mt-help" },
    "Drag a result, or focus it and press Alt+Arrow Up/Down to move it. Click it or press Space to mark it relevant.");
  root.append(header, controls, denominator, list, help, live);
  host.append(root);

  let focusDoc = null;
  let dragFrom = null;

  const items = () => model.get("items");
  const announce = (text) => { live.textContent = text; };

  function showAp(ap) {
    readout.setAttribute("data-value", String(ap));
    const k = model.get("k");
    readout.textContent = `${k > 0 ? `AP@${k}` : "AP"} = ${ap.toFixed(4)}`;
  }

  function commit(next, focus, message) {
    focusDoc = focus;
    const labels = next.map((item) => item.relevant);
    const r = labels.filter(Boolean).length + model.get("n_unretrieved");
    showAp(averagePrecision(labels, r, model.get("k")));
    model.set("items", next);
    model.save_changes();
    announce(message);
  }

  function move(from, to) {
    const all = items();
    if (to < 0 || to >= all.length || from === to) return;
    const item = all[from];
    commit(moved(all, from, to), item.doc, `Moved ${item.title} to rank ${to + 1} of ${all.length}.`);
  }

  function toggle(index) {
    const all = items().map((item) => ({ ...item }));
    all[index].relevant = !all[index].relevant;
    const item = all[index];
    commit(all, item.doc, `${item.title} at rank ${index + 1} is now ${item.relevant ? "relevant" : "not relevant"}.`);
  }

  function dropIndex(event, index) {
    const box = event.currentTarget.getBoundingClientRect();
    return event.clientY > box.top + box.height / 2 ? index + 1 : index;
  }

  function drawList() {
    const active = list.contains(document.activeElement) ? document.activeElement.dataset.doc : null;
    const target = focusDoc ?? active;
    focusDoc = null;
    list.replaceChildren();
    items().forEach((item, index) => {
      const li = el("li", {
        class: "mt-item" + (item.relevant ? " mt-relevant" : ""),
        "data-testid": "rank-item",
        "data-rank": String(index + 1),
        "data-doc": item.doc,
        "data-relevant": String(item.relevant),
        draggable: "true",
        tabindex: "0",
        "aria-label": `Rank ${index + 1}: ${item.title}, ${item.relevant ? "relevant" : "not relevant"}`,
      });
      li.append(
        el("span", { class: "mt-rank" }, String(index + 1)),
        el("span", { class: "mt-mark", "aria-hidden": "true" }, item.relevant ? "✔" : "✘"),
        el("span", { class: "mt-title" }, item.title),
      );
      li.addEventListener("click", () => toggle(index));
      li.addEventListener("keydown", (event) => {
        const handled = () => { event.preventDefault(); event.stopPropagation(); };
        if (event.altKey && event.key === "ArrowUp") { handled(); move(index, index - 1); }
        else if (event.altKey && event.key === "ArrowDown") { handled(); move(index, index + 1); }
        else if (event.key === " " || event.key === "Enter") { handled(); toggle(index); }
        else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
          handled();
          const sibling = event.key === "ArrowUp" ? li.previousElementSibling : li.nextElementSibling;
          if (sibling) sibling.focus();
        }
      });
      li.addEventListener("dragstart", (event) => {
        dragFrom = index;
        event.dataTransfer.effectAllowed = "move";
        event.dataTransfer.setData("text/plain", item.doc);
        li.classList.add("mt-dragging");
      });
      li.addEventListener("dragend", () => { dragFrom = null; li.classList.remove("mt-dragging"); });
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
        if (dragFrom === null) return;
        let to = dropIndex(event, index);
        if (to > dragFrom) to -= 1;
        move(dragFrom, to);
      });
      list.append(li);
      if (item.doc === target) li.focus();
    });
  }

  function drawReadout() {
    showAp(model.get("ap"));
  }

  function drawControls() {
    name.textContent = model.get("query_name");
    root.setAttribute("data-query", model.get("query_name"));
    const names = model.get("presets");
    if (preset.options.length !== names.length) {
      preset.replaceChildren(...names.map(([key, title]) => el("option", { value: key }, title)));
    }
    preset.value = model.get("preset");
    const compact = model.get("compact");
    controls.hidden = compact;
    help.hidden = compact;
    const missed = model.get("n_unretrieved");
    const hits = model.get("items").filter((item) => item.relevant).length;
    denominator.textContent = `R = ${hits + missed}` + (missed ? ` (${missed} relevant never retrieved)` : "");
    unretrieved.value = String(model.get("n_unretrieved"));
    cutoff.value = String(model.get("k"));
    interpolated.checked = model.get("interpolated");
  }

  const setFrom = (trait, input) => () => {
    const value = Number.parseInt(input.value, 10);
    if (Number.isInteger(value) && value >= 0) {
      model.set(trait, value);
      model.save_changes();
    } else {
      input.value = String(model.get(trait));
    }
  };
  unretrieved.addEventListener("change", setFrom("n_unretrieved", unretrieved));
  cutoff.addEventListener("change", setFrom("k", cutoff));
  interpolated.addEventListener("change", () => {
    model.set("interpolated", interpolated.checked);
    model.save_changes();
  });
  preset.addEventListener("change", () => {
    model.set("preset", preset.value);
    model.save_changes();
  });

  const handlers = [
    ["change:items", () => { drawList(); drawControls(); }],
    ["change:ap change:k", drawReadout],
    ["change:presets change:preset change:compact change:n_unretrieved change:k change:interpolated change:query_name", drawControls],
  ];
  for (const [events, handler] of handlers) model.on(events, handler);
  drawControls();
  drawList();
  drawReadout();
  return () => { for (const [events, handler] of handlers) model.off(events, handler); };
}

export default { render };
