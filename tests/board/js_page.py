"""A blank Chromium page with the boards' browser modules loaded and models that stand in
for the kernel's: the views render, and react, as in JupyterLab, with no server.

``FAKE_MODELS`` defines ``window.fakeModel(state)``: ``get``, ``set`` (fires ``change:<name>``
handlers at once when the value changes), ``save_changes`` (records the names saved in
``model.saved``), ``on``/``off`` and a ``widget_manager`` whose ``get_model(id)`` resolves
``window.fakeModels[id]`` and whose ``create_view`` renders the model's module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mapteach.board import LiveReadout, MultiQueryBoard, RankingList
from mapteach.offline import as_classic, bundle_imports

STATIC = Path(__file__).resolve().parents[2] / "mapteach" / "board" / "static"

FAKE_MODELS = """
window.fakeModels = {};
window.fakeModel = (module, state, id) => {
  const handlers = {};
  const model = {
    module, state: { ...state }, saved: [],
    get(name) { return this.state[name]; },
    set(name, value) {
      const before = JSON.stringify(this.state[name]);
      this.state[name] = value;
      if (JSON.stringify(value) !== before) {
        for (const cb of [...(handlers[`change:${name}`] ?? [])]) cb();
      }
    },
    save_changes() { this.saved.push(Object.keys(this.state)); },
    on(events, cb) { for (const e of events.split(/\\s+/)) (handlers[e] ??= []).push(cb); },
    off(events, cb) {
      for (const e of events.split(/\\s+/)) {
        handlers[e] = (handlers[e] ?? []).filter((f) => f !== cb);
      }
    },
    handlerCount() { return Object.values(handlers).reduce((n, list) => n + list.length, 0); },
    widget_manager: {
      get_model: (ref) => Promise.resolve(window.fakeModels[ref]),
      create_view: (child) => {
        const el = document.createElement("div");
        const remove = window.mapteachModules[child.module].default.render({ model: child, el });
        return Promise.resolve({ el, remove: () => remove && remove() });
      },
    },
  };
  if (id) window.fakeModels[id] = model;
  return model;
};
window.showModel = (model) => {
  const el = document.createElement("div");
  document.body.append(el);
  model.cleanup = window.mapteachModules[model.module].default.render({ model, el });
  return el;
};
"""

#: Each browser module, by its name on a page, and its source.
MODULES = {
    "ranking_list": RankingList._esm,
    "ranking_list_offline": bundle_imports(STATIC / "ranking_list_offline.js"),
    "map_board": MultiQueryBoard._esm,
    "live_readout": LiveReadout._esm,
}


def open_page(browser) -> Any:
    """A page holding every board module (``window.mapteachModules``) and the fake models."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_content("<!doctype html><html><head><meta charset='utf-8'></head><body></body></html>")
    css = RankingList._css
    page.add_style_tag(content=css.read_text() if hasattr(css, "read_text") else str(css))
    for name, source in MODULES.items():
        page.add_script_tag(content=as_classic(str(source), name))
    page.add_script_tag(content=FAKE_MODELS)
    return page


def synced_state(widget: Any) -> dict[str, Any]:
    """The state the browser receives for ``widget``: its synced traits, as JSON."""
    from mapteach.offline import offline_state

    return offline_state(widget)["model"]
