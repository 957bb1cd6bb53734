// The judging board: a calibration round. Grade each result (a reason for the middle
// grades), see your AP next to the reference judgments', then the reference's grade,
// reason and rule for each result. The model's traits are the only state; the kernel
// computes every number and saves every change. Every text shown comes from the `texts`
// trait, in the board's language, filled from the kernel's message catalogue.
//
// Nothing a judge does is lost. Every change is also kept in this browser (localStorage,
// keyed by the judgments file) until the kernel's `saved` trait, which it sets only after
// the change is appended and flushed to disk, shows that the file holds it. Each row says
// whether the file holds what it shows (data-saved). When the kernel does not answer, the
// board says so and offers the kept changes as a JSON-lines download; a later board on
// the same file (a restarted kernel) offers to replay them. Reasons are sent as they are
// typed (after a pause), on blur and on Enter; a new grade clears the old reason.
//
// One writer per file. The board asks the kernel (a ping) when its connection changes,
// when the window gets the focus, when the tab is shown, and every few seconds while it
// is visible. Before answering, the kernel reads the file's last line: if another board
// wrote to the file since, this board turns read-only and shows what the file holds.

const EVENTS = [
  "items", "order", "grades", "reasons", "summary", "show_reference", "scale", "key",
  "query", "gloss", "position", "n_queries", "saved", "revealed", "read_only", "save_error",
  "notice",
].map((trait) => `change:${trait}`).join(" ");
// How long the kernel has to answer a change before the board says it does not.
const ANSWER_TIMEOUT_MS = 4000;
// The pause in typing after which a reason is sent.
const REASON_PAUSE_MS = 400;
const STORE_PREFIX = "mapteach-judging:";
// How often a visible board asks the kernel whether another board wrote to its file.
const LOOK_EVERY_MS = 3000;
// What a model says when its connection to the kernel changes or closes.
const CONNECTION_EVENTS = ["comm_live_update", "comm:close"].join(" ");
const RECORD_FIELDS = ["annotator", "query", "doc", "grade", "reason", "time", "guideline",
  "phase"];

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

// --- the changes this browser keeps until the file holds them ----------------------------

function storeKey(model) {
  return STORE_PREFIX + model.get("path");
}

function readKept(model) {
  try {
    const kept = JSON.parse(window.localStorage.getItem(storeKey(model)) ?? "[]");
    return Array.isArray(kept) ? kept : [];
  } catch {
    return [];
  }
}

function writeKept(model, kept) {
  try {
    if (kept.length) window.localStorage.setItem(storeKey(model), JSON.stringify(kept));
    else window.localStorage.removeItem(storeKey(model));
  } catch {
    // storage full or switched off: the rows still say what is not saved
  }
}

// Whether the file (as the kernel last said) holds the change `entry`.
function fileHolds(model, entry) {
  const held = (model.get("saved")[entry.query] ?? {})[entry.doc];
  if (entry.grade === null) return held === undefined;
  return held !== undefined && held[0] === entry.grade && held[1] === entry.reason;
}

function forgetSaved(model) {
  const kept = readKept(model);
  const left = kept.filter((entry) => !fileHolds(model, entry));
  if (left.length !== kept.length) writeKept(model, left);
  return left;
}

function phaseOf(model, query) {
  const revealed = model.get("revealed").includes(query);
  return revealed || model.get("show_reference") ? "after_reveal" : "blind";
}

// Keep the change just made to result `index` of the current query.
function keep(model, index) {
  const query = model.get("query");
  const doc = model.get("items")[index].doc;
  const grade = model.get("grades")[index];
  const entry = {
    annotator: model.get("annotator"), query, doc,
    grade: grade < 0 ? null : grade, reason: grade < 0 ? "" : model.get("reasons")[index],
    time: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    guideline: model.get("guideline"), phase: phaseOf(model, query),
    board: model.get("session"), at: Date.now(),
  };
  const others = readKept(model).filter((e) => e.query !== query || e.doc !== doc);
  writeKept(model, [...others, entry].filter((e) => !fileHolds(model, e)));
}

// A kept change as a line of a judgments file.
function record(entry) {
  return Object.fromEntries(RECORD_FIELDS.map((field) => [field, entry[field]]));
}

function download(model, entries) {
  const lines = entries.map((entry) => `${JSON.stringify(record(entry))}\n`).join("");
  const blob = new Blob([lines], { type: "application/x-ndjson" });
  const stem = model.get("path").split(/[\\/]/).pop().replace(/\.jsonl$/, "");
  const link = el("a", { href: URL.createObjectURL(blob), download: `${stem}-unsaved.jsonl` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

// --- sending changes ---------------------------------------------------------------------

function send(model, view) {
  try {
    model.save_changes();
  } catch {
    view.lost = true; // no kernel to send to
  }
  watch(model, view);
}

// Look again once the oldest change (or question) still waiting for the kernel has
// waited too long.
function watch(model, view) {
  if (view.timer) return;
  view.timer = setTimeout(() => {
    view.timer = null;
    drawStatus(model, view);
    const young = (at) => Date.now() - at < ANSWER_TIMEOUT_MS;
    if (mine(model).some((e) => young(e.at)) || (view.asked && young(view.asked))) {
      watch(model, view);
    }
  }, ANSWER_TIMEOUT_MS + 50);
}

// Ask the kernel whether it is still there and the file as this board knows it; it
// answers "pong" once the board shows what the file holds.
function ask(model, view) {
  view.asked = Date.now();
  try {
    model.send({ kind: "ping" });
  } catch {
    view.lost = true;
  }
  watch(model, view);
}

// Ask again (has another board written the file?) when this tab can be seen, unless
// the last question is still waiting for its answer.
function look(model, view) {
  if (document.visibilityState === "visible" && !view.asked) ask(model, view);
}

function answered(model, view, message) {
  if (message?.kind !== "pong") return;
  view.asked = null;
  view.lost = false;
  drawStatus(model, view);
}

function commit(model, view, index, changes) {
  if (model.get("read_only")) return;
  for (const [trait, value] of Object.entries(changes)) {
    const next = model.get(trait).slice();
    next[index] = value;
    model.set(trait, next);
  }
  keep(model, index);
  send(model, view);
}

function needsReason(model, index) {
  const grade = model.get("grades")[index];
  return grade > 0 && grade < model.get("scale");
}

// A new grade comes with a new reason: the old one is cleared, and asked for again.
function chooseGrade(model, view, row, grade) {
  if (model.get("grades")[row.index] === grade) return;
  window.clearTimeout(row.pause);
  commit(model, view, row.index, { grades: grade, reasons: "" });
  if (needsReason(model, row.index) && !row.reason.disabled) row.reason.focus();
}

function sendReason(model, view, row) {
  window.clearTimeout(row.pause);
  if (row.reason.value !== model.get("reasons")[row.index]) {
    commit(model, view, row.index, { reasons: row.reason.value });
  }
}

function reasonInput(model, view, row, doc) {
  const reason = el("input", {
    type: "text", "data-testid": "reason-input", "data-doc": doc,
    "aria-label": say(model, "reason_aria", { doc }),
  });
  let composing = false; // an input method (pinyin) is still composing a character
  const later = () => {
    window.clearTimeout(row.pause);
    row.pause = window.setTimeout(() => sendReason(model, view, row), REASON_PAUSE_MS);
  };
  reason.addEventListener("input", () => {
    updateRow(model, view, row); // what is typed is not saved until it is sent and written
    if (!composing) later();
  });
  reason.addEventListener("compositionstart", () => { composing = true; });
  reason.addEventListener("compositionend", () => { composing = false; later(); });
  reason.addEventListener("change", () => sendReason(model, view, row));
  reason.addEventListener("blur", () => sendReason(model, view, row));
  reason.addEventListener("keydown", (event) => {
    if (event.key === "Enter") sendReason(model, view, row);
  });
  return reason;
}

// --- the rows ----------------------------------------------------------------------------

function buildRow(model, view, index, shownAt) {
  const item = model.get("items")[index];
  const row = { index, doc: item.doc, buttons: [], pause: null };
  row.li = el("li", {
    class: "mt-judge", "data-testid": "label-item", "data-doc": item.doc,
    "data-rank": String(item.rank),
  });
  const group = el("div", {
    class: "mt-grades", role: "group", "aria-label": say(model, "grade_aria", { doc: item.doc }),
  });
  for (let grade = 0; grade <= model.get("scale"); grade += 1) {
    const button = el("button", {
      type: "button", "data-testid": "grade-button", "data-doc": item.doc,
      "data-grade": String(grade),
    }, String(grade));
    button.addEventListener("click", () => chooseGrade(model, view, row, grade));
    row.buttons.push(button);
  }
  row.reason = reasonInput(model, view, row, item.doc);
  row.clear = el("button", {
    type: "button", class: "mt-clear", "data-testid": "clear-grade", "data-doc": item.doc,
    "aria-label": say(model, "clear_aria", { doc: item.doc }),
  }, say(model, "clear"));
  row.clear.addEventListener("click", () => {
    window.clearTimeout(row.pause);
    commit(model, view, index, { grades: -1, reasons: "" });
  });
  row.unsaved = el("span", { class: "mt-unsaved" });
  group.append(...row.buttons, row.reason, row.clear, row.unsaved);
  row.missing = el("div", { class: "mt-missing" });
  row.reference = el("div", { class: "mt-ref" });
  row.li.append(
    el("div", { class: "mt-snippet" }, `${shownAt + 1}. ${item.text}`),
    el("div", { class: "mt-gloss" }, item.gloss),
    group, row.missing, row.reference,
  );
  return row;
}

function referenceBlock(model, row, key) {
  row.reference.replaceChildren(
    el("span", { "data-testid": "reference-grade" }, say(model, "reference", { grade: key.grade })),
    el("span", { class: "mt-rule", "data-testid": "rule-ref", title: key.statement }, key.rule),
    el("span", { "data-testid": "reason-ref" }, key.reason),
  );
}

// Whether the file holds what the row shows, a reason being typed included.
function savedRow(model, row) {
  const grade = model.get("grades")[row.index];
  const typed = document.activeElement === row.reason ? row.reason.value : null;
  const reason = typed ?? model.get("reasons")[row.index];
  const entry = { query: model.get("query"), doc: row.doc, grade: grade < 0 ? null : grade,
    reason: grade < 0 ? "" : reason };
  return fileHolds(model, entry);
}

function updateRow(model, view, row) {
  const { index } = row;
  const summary = model.get("summary");
  const shown = model.get("show_reference");
  const grade = model.get("grades")[index];
  const disagrees = shown && (summary.disagree || []).includes(index);
  const differs = shown && (summary.differs || []).includes(index);
  const complete = Boolean((summary.complete || [])[index]);
  const saved = savedRow(model, row);
  const locked = model.get("read_only");
  row.li.classList.toggle("mt-disagree", disagrees);
  row.li.classList.toggle("mt-differ", differs && !disagrees);
  row.li.classList.toggle("mt-incomplete", grade >= 0 && !complete);
  row.li.classList.toggle("mt-not-saved", !saved);
  Object.entries({
    "data-grade": grade, "data-complete": complete, "data-disagrees": disagrees,
    "data-differs": differs, "data-saved": saved,
  }).forEach(([name, value]) => row.li.setAttribute(name, String(value)));
  row.buttons.forEach((button, value) => {
    button.setAttribute("aria-pressed", String(grade === value));
    button.disabled = locked;
  });
  const typing = document.activeElement === row.reason && !locked;
  if (!typing) row.reason.value = model.get("reasons")[index];
  row.reason.disabled = locked || grade < 0;
  row.reason.placeholder = say(model, needsReason(model, index) ? "reason_needed" : "reason_optional");
  row.clear.disabled = locked || grade < 0;
  const waited = view.offline || locked;
  row.unsaved.replaceChildren(...(saved || !waited ? [] : [
    el("span", { "data-testid": "row-unsaved" }, say(model, "not_saved")),
  ]));
  row.missing.replaceChildren(...(grade >= 0 && !complete ? [
    el("span", { "data-testid": "incomplete" }, say(model, "incomplete")),
  ] : []));
  const key = model.get("key");
  if (shown && key.length > index) referenceBlock(model, row, key[index]);
  else row.reference.replaceChildren();
}

// --- the board's status: saved where, the kernel gone, another writer, earlier changes ---

function mine(model) {
  return forgetSaved(model).filter((entry) => entry.board === model.get("session"));
}

function earlier(model) {
  return forgetSaved(model).filter((entry) => entry.board !== model.get("session"));
}

function banner(testid, kind, text, ...controls) {
  const box = el("div", {
    class: ["mt-banner", `mt-${kind}`].join(" "), "data-testid": testid, role: "alert",
  });
  box.append(el("span", {}, text), ...controls);
  return box;
}

function downloadButton(model, entries) {
  const button = el("button", { type: "button", "data-testid": "judging-download" },
    say(model, "download"));
  button.addEventListener("click", () => download(model, entries));
  return button;
}

function offlineBanner(model, view, waiting) {
  const late = waiting.filter((entry) => Date.now() - entry.at >= ANSWER_TIMEOUT_MS);
  const unanswered = view.asked && Date.now() - view.asked >= ANSWER_TIMEOUT_MS;
  view.offline = !model.get("read_only") && Boolean(view.lost || unanswered || late.length);
  if (!view.offline) return [];
  return [banner("judging-offline", "offline", say(model, "offline", { n: waiting.length }),
    ...(waiting.length ? [downloadButton(model, waiting)] : []))];
}

function conflictBanner(model, waiting) {
  if (!model.get("read_only")) return [];
  const kept = waiting.length
    ? [el("span", {}, say(model, "kept", { n: waiting.length })), downloadButton(model, waiting)]
    : [];
  return [banner("judging-conflict", "conflict", say(model, "conflict"), ...kept)];
}

function replayBanner(model, view, left) {
  if (!left.length || model.get("read_only") || view.offline) return [];
  const replay = el("button", { type: "button", "data-testid": "judging-replay" },
    say(model, "replay"));
  replay.addEventListener("click", () => {
    model.send({ kind: "replay", entries: left.map(record) });
  });
  return [banner("judging-replay-offer", "replay", say(model, "replay_offer", { n: left.length }),
    replay, downloadButton(model, left))];
}

function drawStatus(model, view) {
  const waiting = mine(model);
  const boxes = [
    ...offlineBanner(model, view, waiting),
    ...conflictBanner(model, waiting),
    ...replayBanner(model, view, earlier(model)),
  ];
  if (model.get("save_error")) {
    boxes.push(banner("judging-save-error", "offline", model.get("save_error")));
  }
  if (model.get("notice")) {
    boxes.push(el("div", { class: "mt-notice", "data-testid": "judging-notice" },
      model.get("notice")));
  }
  view.status.replaceChildren(...boxes);
  // no moving on while the kernel, which loads the next query, does not answer
  const last = model.get("position") + 1 >= model.get("n_queries");
  view.next.disabled = last || model.get("read_only") || view.offline;
  view.root.dataset.offline = String(view.offline);
  view.root.dataset.readOnly = String(model.get("read_only"));
  view.rows.forEach((row) => updateRow(model, view, row));
}

// --- the board ---------------------------------------------------------------------------

function buildView(model) {
  const root = el("div", {
    class: "mapteach-judging", "data-testid": "judging-board", lang: say(model, "lang"),
  });
  const status = el("div", { class: "mt-status" });
  const query = el("div", { class: "mt-query" });
  const progress = el("div", { class: "mt-progress", "data-testid": "progress" });
  const readouts = el("div", { class: "mt-readouts", "aria-live": "polite", role: "status" });
  const reveal = el("input", { type: "checkbox", "data-testid": "reveal-reference" });
  const revealLabel = el("label", {}, `${say(model, "reveal")} `);
  revealLabel.append(reveal);
  const next = el("button", { type: "button", "data-testid": "next-query" }, say(model, "next"));
  const controls = el("div", { class: "mt-controls" });
  controls.append(revealLabel, next);
  const phase = el("div", { class: "mt-phase", "data-testid": "judging-phase" });
  const list = el("ol", { class: "mt-judge-list" });
  const path = el("div", { class: "mt-path", "data-testid": "judging-path" });
  root.append(status, query, progress, readouts, controls, phase, list, path);
  return {
    root, status, query, progress, readouts, reveal, next, phase, list, path,
    rows: [], layout: "", offline: false, lost: false, asked: null, timer: null,
  };
}

function listen(model, view) {
  view.reveal.addEventListener("change", () => {
    model.set("show_reference", view.reveal.checked);
    send(model, view);
  });
  view.next.addEventListener("click", () => {
    model.set("position", model.get("position") + 1);
    send(model, view);
  });
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

// Build the rows again only when the query or its order changes: a row being typed in
// keeps its input (and an input method's composition) through every other update.
function layout(model, view) {
  const order = model.get("order");
  const shape = JSON.stringify([model.get("query"), order, model.get("items").length]);
  if (shape === view.layout) return;
  view.rows.forEach((row) => window.clearTimeout(row.pause));
  view.layout = shape;
  view.rows = order.map((index, shownAt) => buildRow(model, view, index, shownAt));
  view.list.replaceChildren(...view.rows.map((row) => row.li));
}

function draw(model, view) {
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
  view.reveal.disabled = model.get("read_only");
  const phase = phaseOf(model, model.get("query"));
  view.root.dataset.phase = phase;
  view.phase.textContent = phase === "after_reveal" ? say(model, "after_reveal") : "";
  view.path.textContent = say(model, "saved_in", { path: model.get("path") });
  drawReadouts(model, view);
  layout(model, view);
  drawStatus(model, view);
}

function render({ model, el: host }) {
  const view = buildView(model);
  listen(model, view);
  host.append(view.root);
  const redraw = () => draw(model, view);
  const check = () => ask(model, view);
  const answer = (message) => answered(model, view, message);
  const again = () => look(model, view);
  model.on(EVENTS, redraw);
  model.on(CONNECTION_EVENTS, check);
  model.on("msg:custom", answer);
  window.addEventListener("focus", again);
  document.addEventListener("visibilitychange", again);
  const looking = window.setInterval(again, LOOK_EVERY_MS);
  redraw();
  return () => {
    model.off(EVENTS, redraw);
    model.off(CONNECTION_EVENTS, check);
    model.off("msg:custom", answer);
    window.removeEventListener("focus", again);
    document.removeEventListener("visibilitychange", again);
    window.clearInterval(looking);
    window.clearTimeout(view.timer);
    view.rows.forEach((row) => window.clearTimeout(row.pause));
  };
}

export default { render };
