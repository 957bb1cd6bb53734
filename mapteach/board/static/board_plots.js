// The boards' plots as SVG, drawn by the widget itself (no library): the P@k bars, the
// precision-recall curve and the per-query AP bars. Each function only draws what it is
// given (board_math.js computes every value), so the picture is the arithmetic.
//
// One SVG unit is one CSS pixel and every text is at least 14 px, legible from the back
// of a room; the legend is HTML beside the plot, so it never covers a line. The colours
// are mapteach.plots' RELEVANT, IRRELEVANT and ACCENT and the still picture's (BoardFigure)
// curve colour; tests/board/test_board_plots_js.py holds them equal. After each repaint the
// SVG's `data-points` holds what it drew as JSON (the curve's [recall, precision] points,
// the bars' heights) and its `data-drawn` counts the repaints; its text alternative (a
// visually hidden element the SVG names with aria-labelledby) is rewritten with it.

import { el, fill, formatFixed } from "./text.js";
import { apName } from "./board_math.js";

export const PLOT_COLORS = {
  relevant: "#1b7f6b", irrelevant: "#b8bec6", accent: "#d1495b", line: "#333333", axis: "#555555",
};
const SVG_NS = "http://www.w3.org/2000/svg";
const FONT_PX = 14;
const MARGIN = { left: 56, right: 14, top: 12, bottom: 48 };
const LEVELS = [0, 0.2, 0.4, 0.6, 0.8, 1];
// Every widget loads its bundle on its own (anywidget imports it once per model), so a
// counter of this module would start again at 1 in each: the page keeps one, and the
// id of every plot's text alternative is unique on the page.
const PLOT_COUNTER = Symbol.for("mapteach.board.plots");

function plotId(testid) {
  globalThis[PLOT_COUNTER] = (globalThis[PLOT_COUNTER] ?? 0) + 1;
  return `mt-${testid}-text-${globalThis[PLOT_COUNTER]}`;
}

function svgNode(tag, attrs = {}, text = "") {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text) node.textContent = text;
  return node;
}

// An empty plot: a figure holding its title, the SVG (role img, named by its text
// alternative), its legend and the text alternative, visually hidden.
export function makePlot(testid, width, height) {
  const textId = plotId(testid);
  const figure = el("figure", { class: "mt-plot" });
  const title = el("figcaption", { class: "mt-plot-title", "aria-hidden": "true" });
  const svg = svgNode("svg", {
    "data-testid": testid, "data-drawn": "0", "data-points": "[]", role: "img",
    "aria-labelledby": textId, width, height, viewBox: `0 0 ${width} ${height}`,
  });
  const legend = el("ul", { class: "mt-legend", "aria-hidden": "true" });
  const text = el("p", { class: "mt-sr-only", id: textId, "data-testid": `${testid}-text` });
  figure.append(title, legend, svg, text);
  return { figure, title, svg, legend, text, width, height };
}

// Linear scales from data to the plot's pixels, y upwards.
function scales(plot, [x0, x1], [y0, y1]) {
  const left = MARGIN.left;
  const right = plot.width - MARGIN.right;
  const top = MARGIN.top;
  const bottom = plot.height - MARGIN.bottom;
  return {
    x: (v) => left + ((v - x0) / (x1 - x0)) * (right - left),
    y: (v) => bottom - ((v - y0) / (y1 - y0)) * (bottom - top),
    left, right, top, bottom,
  };
}

function label(x, y, text, anchor, extra = {}) {
  return svgNode("text", {
    x, y, "text-anchor": anchor, "font-size": FONT_PX, fill: PLOT_COLORS.axis, ...extra,
  }, text);
}

// The left and bottom spines, their ticks and tick labels, and the axis labels.
function drawAxes(svg, s, { xTicks, yTicks, xLabel, yLabel }) {
  const axis = { stroke: PLOT_COLORS.axis, "stroke-width": 1 };
  svg.append(
    svgNode("line", { x1: s.left, y1: s.bottom, x2: s.right, y2: s.bottom, ...axis }),
    svgNode("line", { x1: s.left, y1: s.top, x2: s.left, y2: s.bottom, ...axis }),
  );
  for (const [value, text] of xTicks) {
    const x = s.x(value);
    svg.append(
      svgNode("line", { x1: x, y1: s.bottom, x2: x, y2: s.bottom + 4, ...axis }),
      label(x, s.bottom + 4 + FONT_PX, text, "middle"),
    );
  }
  for (const value of yTicks) {
    const y = s.y(value);
    svg.append(
      svgNode("line", { x1: s.left - 4, y1: y, x2: s.left, y2: y, ...axis }),
      label(s.left - 6, y + FONT_PX * 0.35, value.toFixed(1), "end"),
    );
  }
  const middleX = (s.left + s.right) / 2;
  const middleY = (s.top + s.bottom) / 2;
  svg.append(
    label(middleX, s.bottom + 8 + 2 * FONT_PX, xLabel, "middle"),
    label(14, middleY, yLabel, "middle", { transform: `rotate(-90 14 ${middleY})` }),
  );
}

// One legend entry: a small swatch (a line, a dashed line, a marked line or an area).
function legendEntry(kind, color, text) {
  const swatch = svgNode("svg", { width: 26, height: 14, "aria-hidden": "true" });
  if (kind === "area") {
    swatch.append(svgNode("rect", { x: 2, y: 2, width: 22, height: 10, fill: color, opacity: 0.35 }));
  } else {
    const dash = kind === "dashed" ? { "stroke-dasharray": "5 3" } : {};
    swatch.append(svgNode("line", {
      x1: 1, y1: 7, x2: 25, y2: 7, stroke: color, "stroke-width": 2, ...dash,
    }));
    if (kind === "marked") swatch.append(svgNode("circle", { cx: 13, cy: 7, r: 3, fill: color }));
  }
  const item = el("li");
  item.append(swatch, el("span", {}, text));
  return item;
}

function finish(plot, points, title, legend, text) {
  plot.title.textContent = title;
  plot.legend.replaceChildren(...legend.map((entry) => legendEntry(...entry)));
  plot.legend.hidden = legend.length === 0;
  plot.text.textContent = text;
  plot.svg.setAttribute("data-points", JSON.stringify(points));
  plot.svg.setAttribute("data-drawn", String(Number(plot.svg.getAttribute("data-drawn")) + 1));
}

const shown4 = (value) => formatFixed(value, 4);

// The P@k bars' text alternative: R, and P@k at every rank, the relevant ones named.
function pkBarsText(plot, texts) {
  const bars = plot.bars.map((value, i) => (plot.barRelevant[i]
    ? fill(texts.pk_bar_relevant, { rank: i + 1, value: shown4(value) })
    : `P@${i + 1} = ${shown4(value)}`));
  const all = fill(texts.pk_alt, { r: plot.nRelevant, bars: bars.join(texts.separator) });
  return plot.cutoff === null ? all : `${all} ${fill(texts.pk_alt_cutoff, { k: plot.cutoff })}`;
}

// P@k at every rank (`plot` from boardPlot): green bars at relevant ranks, grey
// elsewhere, faint past the cutoff, whose dashed line sits between rank k and k + 1.
export function drawPkBars(chart, plot, texts) {
  const { svg } = chart;
  svg.replaceChildren();
  const n = plot.bars.length;
  const s = scales(chart, [0.4, Math.max(n, 1) + 0.6], [0, 1.05]);
  const step = Math.max(1, Math.ceil(n / 15));
  const ranks = plot.bars.map((_, i) => i + 1).filter((rank) => (rank - 1) % step === 0);
  drawAxes(svg, s, {
    xTicks: ranks.map((rank) => [rank, String(rank)]),
    yTicks: LEVELS,
    xLabel: texts.rank_axis,
    yLabel: "P@k",
  });
  const width = s.x(1.4) - s.x(0.6);
  plot.bars.forEach((value, i) => {
    svg.append(svgNode("rect", {
      x: s.x(i + 0.6), y: s.y(value), width, height: s.bottom - s.y(value),
      fill: plot.barRelevant[i] ? PLOT_COLORS.relevant : PLOT_COLORS.irrelevant,
      opacity: i < plot.shown ? 1 : 0.3,
    }));
  });
  const legend = [];
  if (plot.cutoffInside) {
    const x = s.x(plot.cutoff + 0.5);
    svg.append(svgNode("line", {
      x1: x, y1: s.top, x2: x, y2: s.bottom, stroke: PLOT_COLORS.accent, "stroke-width": 1.5,
      "stroke-dasharray": "6 4", "data-role": "cutoff",
    }));
    legend.push(["dashed", PLOT_COLORS.accent, texts.cutoff_line]);
  }
  finish(chart, plot.bars, texts.pk_title, legend, pkBarsText(plot, texts));
}

const pairText = ([x, y]) => `(${shown4(x)}, ${shown4(y)})`;

// The PR curve's text alternative: R, AP (the shaded area), every point, rank by rank.
function prCurveText(plot, texts) {
  const all = fill(texts.pr_alt, {
    r: plot.nRelevant, name: apName(plot.cutoff), ap: shown4(plot.ap),
    points: plot.curve.map(pairText).join(texts.separator),
  });
  if (!plot.interpolated) return all;
  const steps = plot.interpolated.map(pairText).join(texts.separator);
  return `${all} ${fill(texts.pr_alt_interpolated, { points: steps })}`;
}

function pathOf(points, s) {
  return points.map(([x, y], i) => `${i ? "L" : "M"}${s.x(x)},${s.y(y)}`).join(" ");
}

// matplotlib's drawstyle "steps-pre": each step rises or falls at the previous point's x.
function stepsPath(points, s) {
  return points.map(([x, y], i) => (i
    ? `L${s.x(points[i - 1][0])},${s.y(y)} L${s.x(x)},${s.y(y)}`
    : `M${s.x(x)},${s.y(y)}`)).join(" ");
}

// The precision-recall curve (`plot` from boardPlot): AP's area shaded, the precision
// after each rank as a marked line, and the interpolated staircase when asked for.
export function drawPrCurve(chart, plot, texts) {
  const { svg } = chart;
  svg.replaceChildren();
  const s = scales(chart, [0, 1.02], [0, 1.05]);
  drawAxes(svg, s, {
    xTicks: LEVELS.map((level) => [level, level.toFixed(1)]),
    yTicks: LEVELS,
    xLabel: texts.recall_axis,
    yLabel: texts.precision_axis,
  });
  svg.append(svgNode("path", {
    d: `${pathOf(plot.area, s)} Z`, fill: PLOT_COLORS.relevant, opacity: 0.22, "data-role": "area",
  }));
  const line = { fill: "none", "stroke-width": 1.5 };
  svg.append(svgNode("path", {
    d: pathOf(plot.curve, s), stroke: PLOT_COLORS.line, ...line, "data-role": "curve",
  }));
  for (const [x, y] of plot.curve.slice(1)) {
    svg.append(svgNode("circle", { cx: s.x(x), cy: s.y(y), r: 3, fill: PLOT_COLORS.line }));
  }
  const legend = [["marked", PLOT_COLORS.line, texts.sawtooth]];
  if (plot.interpolated) {
    svg.append(svgNode("path", {
      d: stepsPath(plot.interpolated, s), stroke: PLOT_COLORS.accent, ...line,
      "data-role": "interpolated",
    }));
    legend.push(["line", PLOT_COLORS.accent, texts.interpolated_line]);
  }
  legend.push(["area", PLOT_COLORS.relevant, texts.area]);
  finish(chart, plot.curve, texts.pr_title, legend, prCurveText(plot, texts));
}

// The AP bars' text alternative: each query's AP, and MAP.
export function apBarsText(aps, mean, names, texts) {
  const bars = aps.map((ap, i) => fill(texts.ap_bar, { name: names[i], value: shown4(ap) }));
  return fill(texts.ap_alt, { bars: bars.join(texts.separator), map: shown4(mean) });
}

// One bar per query at its AP, and a line across at their mean, MAP.
export function drawApBars(chart, aps, mean, names, texts) {
  const { svg } = chart;
  svg.replaceChildren();
  const s = scales(chart, [-0.6, aps.length - 0.4], [0, 1.12]);
  drawAxes(svg, s, {
    xTicks: names.map((name, i) => [i, name]),
    yTicks: LEVELS,
    xLabel: texts.query_axis,
    yLabel: "AP",
  });
  const width = s.x(0.35) - s.x(-0.35);
  aps.forEach((ap, i) => {
    svg.append(svgNode("rect", {
      x: s.x(i - 0.35), y: s.y(ap), width, height: s.bottom - s.y(ap), fill: PLOT_COLORS.relevant,
    }));
  });
  svg.append(svgNode("line", {
    x1: s.left, y1: s.y(mean), x2: s.right, y2: s.y(mean), stroke: PLOT_COLORS.accent,
    "stroke-width": 2, "data-role": "map",
  }));
  const legend = [["line", PLOT_COLORS.accent, "MAP"]];
  finish(chart, aps, texts.ap_title, legend, apBarsText(aps, mean, names, texts));
}
