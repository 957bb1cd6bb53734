// The ranking list's board view: beside the list, its trace table; below, the P@k bars
// and the precision-recall curve. Everything is derived from the model's traits (items,
// n_unretrieved, k, interpolated) with board_math.js, so a drag repaints the table and
// both plots in the same frame as the AP readout, before the kernel hears of it. The
// trace table is the HTML mapteach.explain.trace_html writes for the same list, to the
// character; its headers, caption and footer come from the `trace_texts` trait.

import { el, escapeHtml } from "./text.js";
import { boardPlot, listState, traceTable } from "./board_math.js";
import { drawPkBars, drawPrCurve, makePlot } from "./board_plots.js";

const CELL = "padding:2px 8px;text-align:right;font-variant-numeric:tabular-nums;";
const HIT = "background:#dff3ee;";
const CUT = "color:#9aa1ab;";

// mapteach.explain.trace_html of a traceTable (board_math.js), character for character.
function traceHtml(table) {
  const head = table.headers.map((header) => `<th style="${CELL}">${escapeHtml(header)}</th>`);
  const rows = table.rows.map((row) => {
    const style = row.contributes ? HIT : "";
    const cells = row.cells.map((cell) => `<td style="${CELL}">${escapeHtml(cell)}</td>`);
    return `<tr style="${style}" data-contributes="${row.contributes}">${cells.join("")}</tr>`;
  });
  const caption = table.caption
    ? '<caption style="caption-side:top;text-align:left;padding:2px 0;">'
      + `${escapeHtml(table.caption)}</caption>`
    : "";
  return '<table data-testid="trace-table" style="border-collapse:collapse;font-size:12px;">'
    + `${caption}<thead><tr>${head.join("")}</tr></thead><tbody>${rows.join("")}</tbody>`
    + `<tfoot><tr><td colspan="7" style="${CELL}${CUT}text-align:left;">`
    + `${table.footer}</td></tr></tfoot></table>`;
}

// The parts the board view adds to the list: the trace table's place and the two plots.
export function buildBoardParts() {
  const trace = el("div", { class: "mt-trace" });
  const plots = el("div", { class: "mt-plots" });
  const pk = makePlot("pk-bars", 460, 270);
  const pr = makePlot("pr-curve", 380, 270);
  plots.append(pk.figure, pr.figure);
  return { trace, plots, pk, pr };
}

// Repaint the trace table and both plots for the model's state, at once.
export function drawBoardParts(parts, model) {
  const { labels, nRelevant, k, interpolated } = listState(model);
  const texts = model.get("texts");
  parts.trace.innerHTML = traceHtml(traceTable(labels, nRelevant, k, model.get("trace_texts")));
  const plot = boardPlot(labels, nRelevant, k, interpolated);
  drawPkBars(parts.pk, plot, texts);
  drawPrCurve(parts.pr, plot, texts);
}
