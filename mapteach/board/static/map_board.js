// The multi-query board: its queries' lists side by side (each a RankingList model of
// its own, shown by its own view), then MAP and the AP bars. The view computes each AP
// and MAP from the lists' models itself (board_math.js, the same bits as the kernel) and
// repaints on every change of any list, in the same frame as the list's own readout.
// The kernel's MAP (`map_value`) is never shown: its reply to an earlier move, landing
// after a later one, would be the MAP of lists no longer on screen.

import { el, floatRepr, formatFixed } from "./text.js";
import { followLists, listAp, meanAveragePrecision } from "./board_math.js";
import { drawApBars, makePlot } from "./board_plots.js";

function showMap(readout, value) {
  readout.setAttribute("data-value", floatRepr(value));
  readout.textContent = `MAP = ${formatFixed(value, 4)}`;
}

function buildView(model) {
  const root = el("div", {
    class: "mapteach-map-board", "data-testid": "map-board", lang: model.get("texts").lang,
  });
  const row = el("div", { class: "mapteach-queries" });
  const summary = el("div", { class: "mt-map-summary" });
  const readout = el("span", {
    class: "mt-readout", "data-testid": "map-value", role: "status", "aria-live": "polite",
  });
  const names = model.get("bar_labels");
  const chart = makePlot("ap-bars", Math.max(360, 80 + 150 * names.length), 270);
  summary.append(readout, chart.figure);
  root.append(row, summary);
  return { root, row, readout, chart };
}

function render({ model, el: host }) {
  const view = buildView(model);
  host.append(view.root);
  const manager = model.widget_manager;
  const following = followLists(model, (lists) => {
    const aps = lists.map(listAp);
    const mean = meanAveragePrecision(aps);
    showMap(view.readout, mean);
    drawApBars(view.chart, aps, mean, model.get("bar_labels"), model.get("texts"));
  });
  const views = following.loaded.then(
    (lists) => Promise.all(lists.map((list) => manager.create_view(list))),
  ).then((shown) => {
    for (const list of shown) {
      const cell = el("div", { class: "mt-query-cell" });
      cell.append(list.el);
      view.row.append(cell);
    }
    return shown;
  });
  return () => {
    following.stop();
    views.then((shown) => shown.forEach((list) => list.remove()));
  };
}

export default { render };
