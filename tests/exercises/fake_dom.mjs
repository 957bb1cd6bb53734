// A DOM just large enough to render static/exercise.js in Node, without a browser: each
// model's state comes as JSON on stdin; the views' ids, references and hooks go to stdout.
// Usage: node fake_dom.mjs path/to/exercise.js < states.json
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

class Node {
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    this.attributes = {};
    this.children = [];
    this.listeners = {};
    this.dataset = {};
    this.hidden = false;
    this.checked = false;
    this.text = "";
    this.html = "";
  }
  setAttribute(name, value) { this.attributes[name] = String(value); }
  getAttribute(name) { return this.attributes[name] ?? null; }
  toggleAttribute(name, on) { if (on) this.attributes[name] = ""; else delete this.attributes[name]; }
  get value() { return this.attributes.value ?? ""; }
  get id() { return this.attributes.id ?? ""; }
  set textContent(text) { this.children = []; this.text = String(text); }
  get textContent() { return this.text + this.children.map((c) => c.textContent).join(""); }
  set innerHTML(html) { this.children = []; this.html = String(html); }
  get innerHTML() { return this.html; }
  append(...nodes) { this.children.push(...nodes); }
  prepend(...nodes) { this.children.unshift(...nodes); }
  replaceChildren(...nodes) { this.children = nodes; }
  addEventListener(type, handler) { (this.listeners[type] ??= []).push(handler); }
  dispatch(type, event = {}) { for (const h of this.listeners[type] ?? []) h({ target: this, ...event }); }
  focus() {}
  remove() {}
  *walk() { yield this; for (const child of this.children) yield* child.walk(); }
  querySelectorAll(selector) {
    if (selector !== "input[type=radio]") throw new Error(`unsupported selector ${selector}`);
    return [...this.walk()].filter((n) => n.tagName === "INPUT" && n.attributes.type === "radio");
  }
}

globalThis.document = { createElement: (tag) => new Node(tag), activeElement: null };

class Model {
  constructor(state) { this.state = state; this.handlers = []; }
  get(name) { return this.state[name]; }
  set(name, value) { this.state[name] = value; }
  save_changes() {}
  on(events, handler) { this.handlers.push([events, handler]); }
  off() {}
  get widget_manager() {
    const board = new Node("div");
    board.setAttribute("data-testid", "ranking-board");
    return {
      get_model: async () => ({}),
      create_view: async () => ({ el: board, remove() {} }),
    };
  }
}

const { default: widget } = await import(pathToFileURL(process.argv[2]).href);
const states = JSON.parse(readFileSync(0, "utf-8"));
const report = [];
for (const state of states) {
  const host = new Node("div");
  const model = new Model(state);
  widget.render({ model, el: host });
  await new Promise((resolve) => setTimeout(resolve, 0));
  const nodes = [...host.walk()];
  const byTestid = (id) => nodes.find((n) => n.attributes["data-testid"] === id);
  const reset = byTestid("arrange-reset");
  const before = state.reset_request;
  reset?.dispatch("click");
  report.push({
    kind: state.kind,
    ids: nodes.map((n) => n.id).filter(Boolean),
    controls: nodes.map((n) => n.attributes["aria-controls"]).filter(Boolean),
    radio_names: [...new Set(host.querySelectorAll("input[type=radio]").map((n) => n.attributes.name))],
    testids: nodes.map((n) => n.attributes["data-testid"]).filter(Boolean),
    feedback_html: byTestid("feedback").innerHTML,
    feedback_status: byTestid("feedback").dataset.status,
    readout: byTestid("arrange-readout")?.textContent ?? null,
    help: byTestid("arrange-help")?.textContent ?? null,
    reset_counted: reset ? state.reset_request === before + 1 : null,
  });
}
process.stdout.write(JSON.stringify(report));
