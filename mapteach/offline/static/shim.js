// The workbook's widgets live on a page without a kernel (the static site, `make site`).
//
// Each `.mapteach-offline` element holds a widget's state as JSON (offline_html) beside
// its static picture. The shim makes one model per widget that stands in for
// anywidget's: `get`, `set` (fires `change:name` at once), `save_changes`, `on`/`off`,
// `send` (nothing to send to) and `widget_manager` (`get_model`, `create_view`). It
// renders the widget's own ES module (`window.mapteachModules[module].default`, the same
// code JupyterLab runs) into the element and hides the static part, which stays in the
// page; a widget that cannot run keeps its picture and says so in one line.
//
// The kernel's part is played by the module's stand-in (`<module>_offline`):
// `save_changes` calls its `standIn(model, names, context)` with the names the view set,
// and `attach(model, context)` runs once before any view. What a stand-in (or a handler
// it registered in `attach`) sets is the kernel's reply: not sent back to it, and, set on
// another widget (an exercise resetting its board), answered by that widget's stand-in
// next, as the kernel's observers would be. `context.record(check)` keeps a check in the
// learner's progress (progress.js) and says whether it was kept; on a page whose progress
// module is missing or fails to start, it says that the check is not kept.
// `context.texts` are the page's runtime texts.
//
// A widget shown in several outputs (a board, and the readout that follows it) has one
// page id (`id` in its state): one model serves them all, from its last state written.
//
// Until the shim has rendered a widget, its static part shows (a page without scripts,
// or whose scripts fail, keeps the pictures); no <noscript> is needed.

import { el } from "./text.js";

const REF = "IPY_MODEL_";
const ELEMENT = ".mapteach-offline";
const STATIC_PART = ".mapteach-offline-static";
const STATE_SCRIPT = "script[data-mapteach-state]";
// Replies that set traits of other widgets, answered in turn: more means a loop.
const MAX_REPLIES = 1000;

// Whether two JSON values are equal, as Backbone's `_.isEqual` decides a `set` changes
// nothing (no `change` event).
export function sameValue(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]));
}

function split(events) {
  return String(events).split(/\s+/).filter(Boolean);
}

class OfflineModel {
  constructor(runtime, key, module, attributes) {
    this.runtime = runtime;
    this.key = key;
    this.module = module;
    this.attributes = { ...attributes };
    this.pending = new Set();
    this.handlers = new Map();
    this.widget_manager = runtime.manager;
  }

  get(name) {
    return this.attributes[name];
  }

  // set(name, value) or set({name: value, ...}), as Backbone's.
  set(name, value) {
    const changes = typeof name === "object" && name !== null ? name : { [name]: value };
    const changed = Object.keys(changes).filter(
      (trait) => !sameValue(this.attributes[trait], changes[trait]),
    );
    for (const trait of changed) {
      this.attributes[trait] = changes[trait];
      this.runtime.noteChange(this, trait);
    }
    for (const trait of changed) this.trigger(`change:${trait}`, this.attributes[trait]);
    if (changed.length) this.trigger("change");
  }

  save_changes() {
    const names = [...this.pending];
    this.pending.clear();
    if (names.length) this.runtime.reply(this, names);
  }

  on(events, callback) {
    const scope = this.runtime.scope;
    for (const event of split(events)) {
      if (!this.handlers.has(event)) this.handlers.set(event, []);
      this.handlers.get(event).push({ callback, scope });
    }
  }

  off(events, callback) {
    const names = events ? split(events) : [...this.handlers.keys()];
    for (const event of names) {
      const kept = (this.handlers.get(event) ?? []).filter(
        (handler) => callback !== undefined && handler.callback !== callback,
      );
      this.handlers.set(event, kept);
    }
  }

  send() {}

  trigger(event, value) {
    for (const handler of [...(this.handlers.get(event) ?? [])]) {
      this.runtime.within(handler.scope, () => handler.callback(this, value));
    }
  }
}

// The models of one page, the kernel's stand-ins and the widget manager they share.
export class OfflineRuntime {
  constructor(modules, context) {
    this.modules = modules;
    this.context = context;
    this.models = new Map();
    // null while a view acts (the browser); else the model whose stand-in is replying.
    this.scope = null;
    // Widgets a reply changed, by model: the traits their own stand-ins must answer.
    this.queued = new Map();
    this.answering = false;
    this.manager = {
      get_model: (key) => this.model(key),
      create_view: (model) => this.createView(model),
    };
  }

  // The model `key` as a promise whose `then` runs its callback at once, in the scope that
  // asked: what a stand-in's attach subscribes to through it (an exercise following its
  // board) stays the kernel's. `await` still waits a turn, as for any promise.
  model(key) {
    const found = this.models.get(key);
    if (!found) return Promise.reject(new Error(`no widget ${key} on this page`));
    const promise = Promise.resolve(found);
    promise.then = (onFulfilled) => {
      if (!onFulfilled) return Promise.resolve(found);
      try {
        return Promise.resolve(onFulfilled(found));
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return promise;
  }

  make(key, module, attributes) {
    const model = new OfflineModel(this, key, module, attributes);
    this.models.set(key, model);
    return model;
  }

  standIn(module) {
    return this.modules[`${module}_offline`] ?? {};
  }

  // Each stand-in's attach, once, before any view; then each module's initialize.
  async start() {
    for (const model of this.models.values()) {
      const { attach } = this.standIn(model.module);
      if (attach) this.within(model, () => attach(model, this.context));
    }
    for (const model of this.models.values()) {
      if (!this.modules[model.module]) continue;  // its outputs will say it cannot run
      const widget = await this.widget(model.module);
      if (widget.initialize) widget.initialize({ model });
    }
  }

  async widget(module) {
    const found = this.modules[module]?.default;
    if (!found) throw new Error(`the page has no browser module ${module}`);
    return typeof found === "function" ? found() : found;
  }

  noteChange(model, trait) {
    if (this.scope === null) model.pending.add(trait);
    else if (this.scope !== model) {
      if (!this.queued.has(model)) this.queued.set(model, new Set());
      this.queued.get(model).add(trait);
    }
  }

  reply(model, names) {
    const { standIn } = this.standIn(model.module);
    if (standIn) this.within(model, () => standIn(model, names, this.context));
  }

  // Run `action` as `scope` acts (null: a view; a model: its stand-in), then, back in
  // the browser, let each widget a reply changed answer with its own stand-in.
  within(scope, action) {
    const saved = this.scope;
    this.scope = scope;
    try {
      action();
    } catch (error) {
      console.error("mapteach:", error);
    } finally {
      this.scope = saved;
    }
    if (saved === null && scope !== null && !this.answering) this.answerQueued();
  }

  answerQueued() {
    this.answering = true;
    try {
      for (let replies = 0; this.queued.size; replies += 1) {
        if (replies === MAX_REPLIES) {
          this.queued.clear();
          console.error("mapteach: the stand-ins keep answering each other (a loop)");
          return;
        }
        const [model, names] = this.queued.entries().next().value;
        this.queued.delete(model);
        this.reply(model, [...names]);
      }
    } finally {
      this.answering = false;
    }
  }

  async render(model, host) {
    const widget = await this.widget(model.module);
    return widget.render({ model, el: host });
  }

  async createView(model) {
    const host = el("div");
    const cleanup = await this.render(model, host);
    return {
      el: host,
      remove() {
        if (typeof cleanup === "function") cleanup();
        host.remove();
      },
    };
  }
}

// "IPY_MODEL_c0" in a state, made the page's key of that widget.
function withPageKeys(value, keys) {
  if (typeof value === "string" && value.startsWith(REF)) {
    const key = keys[value.slice(REF.length)];
    return key === undefined ? value : REF + key;
  }
  if (Array.isArray(value)) return value.map((item) => withPageKeys(item, keys));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, withPageKeys(item, keys)]),
    );
  }
  return value;
}

function readState(element) {
  const script = [...element.children].find((child) => child.matches(STATE_SCRIPT));
  if (!script) throw new Error("no state in this widget's fallback");
  return JSON.parse(script.textContent);
}

// Every widget's state on the page, one entry per page key (later outputs update
// earlier ones, as the kernel's widget had changed by then); the element of each
// output and the key of its widget.
export function collectStates(elements) {
  const states = new Map();
  const shown = [];
  const keep = (key, module, model) => {
    if (states.has(key)) Object.assign(states.get(key).model, model);
    else states.set(key, { module, model });
  };
  elements.forEach((element, index) => {
    let state;
    try {
      state = readState(element);
    } catch (error) {
      shown.push({ element, error });
      return;
    }
    const children = Object.entries(state.children ?? {});
    const keys = Object.fromEntries(
      children.map(([ref, child]) => [ref, child.id ?? `e${index}-${ref}`]),
    );
    for (const [ref, child] of children) {
      keep(keys[ref], child.module, withPageKeys(child.model, keys));
    }
    const key = state.id ?? `e${index}`;
    keep(key, state.module ?? element.dataset.module, withPageKeys(state.model, keys));
    shown.push({ element, key });
  });
  return { states, shown };
}

function notice(element, texts, error) {
  console.error("mapteach: a widget could not run here:", error);
  element.dataset.mapteachLive = "failed";
  if (!texts.widget_failed) return; // a page without its runtime texts keeps just the picture
  const line = el("p", {
    class: "mapteach-offline-notice", "data-testid": "offline-notice", role: "note",
  }, texts.widget_failed);
  element.insertBefore(line, element.querySelector(STATIC_PART));
}

async function show(runtime, { element, key, error }, texts) {
  if (error) {
    notice(element, texts, error);
    return;
  }
  const live = el("div", { class: "mapteach-offline-live" });
  element.append(live);
  try {
    await runtime.render(runtime.models.get(key), live);
  } catch (failure) {
    live.remove();
    notice(element, texts, failure);
    return;
  }
  const picture = element.querySelector(STATIC_PART);
  if (picture) picture.hidden = true;
  element.dataset.mapteachLive = "ready";
}

export function readRuntimeTexts(doc) {
  const script = doc.getElementById("mapteach-runtime-texts");
  return script ? JSON.parse(script.textContent) : { texts: {} };
}

// Make every widget of the page live; `record(check)` keeps a check (progress.js);
// `runtimeTexts` are the page's (readRuntimeTexts), read once.
export async function start(doc, modules, record, runtimeTexts = readRuntimeTexts(doc)) {
  const { texts = {}, lang } = runtimeTexts;
  const runtime = new OfflineRuntime(modules, { texts, lang, record });
  const { states, shown } = collectStates([...doc.querySelectorAll(ELEMENT)]);
  for (const [key, state] of states) runtime.make(key, state.module, state.model);
  try {
    await runtime.start();
  } catch (error) {
    console.error("mapteach:", error);
  }
  for (const output of shown) await show(runtime, output, texts);
  doc.documentElement.dataset.mapteachRuntime = "ready";
  return runtime;
}

// The learner's progress (progress.js, the script after this one), its bar shown; or,
// where it is missing or fails to start, a record that says each check is not kept.
export function startRecording(doc, modules, runtime) {
  let progress = null;
  try {
    if (!modules.progress) throw new Error("the page has no progress module");
    progress = modules.progress.startProgress(doc, runtime);
  } catch (error) {
    console.error("mapteach: checks cannot be kept on this page:", error);
  }
  if (progress) return (check) => progress.record(check);
  const missing = { saved: false, message: runtime.texts?.progress_missing ?? "" };
  return () => missing;
}

// On a page with widgets: the progress bar first, then the widgets.
function startPage() {
  if (!document.querySelector(ELEMENT)) return;
  const modules = window.mapteachModules ?? {};
  const runtimeTexts = readRuntimeTexts(document);
  start(document, modules, startRecording(document, modules, runtimeTexts), runtimeTexts);
}

if (typeof document !== "undefined") {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startPage);
  else startPage();
}
