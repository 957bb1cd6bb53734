// The board's formulas: mapteach.metrics and mapteach.explain in JavaScript, equal to the
// last bit. Every value is computed with the same IEEE operations in the same order as
// the Python (hits/rank divisions, running sums in rank order, numpy's pairwise sum for
// a mean), so the browser shows what Python computes for the list on screen; the parity
// test (tests/board/test_board_math_js.py) holds it for thousands of lists.
//
// Pure functions, no DOM. `labels` is an array of 0/1 or booleans, best
// rank first; `nRelevant` is R (null or undefined: the hits in `labels`, as Python's
// default); `k` is a cutoff, 0 or null meaning the whole list. In what these functions
// return, a Python None is null; no value is ever NaN (where a figure has no cutoff
// line, `cutoff` is null). Texts are filled from `texts`, what the Python
// `mapteach.board.trace_texts.trace_texts(lang)` returns. A list's model (a RankingList's
// traits) becomes these arguments in one place, listState.

import { fill, formatFixed } from "./text.js";

// The number of ranks that count: the first k, or the whole list when k is 0 or null.
function countedRanks(labels, k) {
  return k > 0 ? Math.min(k, labels.length) : labels.length;
}

// The hits in the whole list (Python's default R).
function hitCount(labels) {
  let hits = 0;
  for (const label of labels) if (label) hits += 1;
  return hits;
}

function relevantTotal(labels, nRelevant) {
  return nRelevant === null || nRelevant === undefined ? hitCount(labels) : nRelevant;
}

// mapteach.average_precision(labels, n_relevant=R, k=k): P@i = hits/i at each relevant
// rank i <= k, added in rank order, divided by R; 0 when R = 0.
export function averagePrecision(labels, nRelevant, k) {
  const r = relevantTotal(labels, nRelevant);
  const ranks = countedRanks(labels, k);
  let hits = 0;
  let sum = 0;
  for (let i = 0; i < ranks; i += 1) {
    if (labels[i]) {
      hits += 1;
      sum += hits / (i + 1);
    }
  }
  return r > 0 ? sum / r : 0;
}

// A RankingList model's state as these functions take it: the labels in the order shown
// (0/1), R (the hits shown plus `n_unretrieved`, the relevant never retrieved), the
// cutoff `k` (0: none) and whether the interpolated curve is on.
export function listState(model) {
  const labels = model.get("items").map((item) => (item.relevant ? 1 : 0));
  return {
    labels,
    nRelevant: hitCount(labels) + model.get("n_unretrieved"),
    k: model.get("k"),
    interpolated: model.get("interpolated"),
  };
}

// AP of a RankingList model's list as it stands: what its readout shows.
export function listAp(model) {
  const { labels, nRelevant, k } = listState(model);
  return averagePrecision(labels, nRelevant, k);
}

// The changes of a RankingList model that change its AP: its order and marks, R, k.
export const AP_EVENTS = "change:items change:n_unretrieved change:k";

// Follow the RankingList models that `model` refers to (its `rankings`, "IPY_MODEL_<id>"):
// once they are loaded, `draw(lists)` runs, and again on every change of any list's AP
// (AP_EVENTS). Returns `loaded`, the promise of the lists, and `stop`, which stops
// following them.
export function followLists(model, draw) {
  const manager = model.widget_manager;
  const ids = model.get("rankings").map((ref) => ref.slice("IPY_MODEL_".length));
  let lists = [];
  const redraw = () => draw(lists);
  const loaded = Promise.all(ids.map((id) => manager.get_model(id))).then((models) => {
    lists = models;
    for (const list of lists) list.on(AP_EVENTS, redraw);
    redraw();
    return lists;
  });
  const stop = () => { for (const list of lists) list.off(AP_EVENTS, redraw); };
  return { loaded, stop };
}

// The measure's name as Python writes it: "AP", or "AP@k" with a cutoff k (0 or null: none).
export function apName(k) {
  return k > 0 ? `AP@${k}` : "AP";
}

// mapteach.metrics.curves.curve_arrays: recall and precision after each rank.
export function prPoints(labels, nRelevant) {
  const r = relevantTotal(labels, nRelevant);
  const recall = [];
  const precision = [];
  let hits = 0;
  labels.forEach((label, i) => {
    if (label) hits += 1;
    recall.push(r ? hits / r : 0);
    precision.push(hits / (i + 1));
  });
  return { recall, precision };
}

// mapteach.metrics.curves.interpolated_precision: each point's best precision at its
// recall or higher, in the order given.
export function interpolatedPrecision(recall, precision) {
  if (recall.length !== precision.length) {
    throw new RangeError(`recall has ${recall.length} points but precision ${precision.length}`);
  }
  const order = recall.map((_, i) => i).sort((a, b) => recall[a] - recall[b] || a - b);
  const sorted = order.map((i) => recall[i]);
  const bestFrom = new Array(order.length); // the best precision from here on, in recall order
  for (let j = order.length - 1; j >= 0; j -= 1) {
    const here = precision[order[j]];
    bestFrom[j] = j === order.length - 1 ? here : Math.max(here, bestFrom[j + 1]);
  }
  return recall.map((level) => bestFrom[firstAtLeast(sorted, level)]);
}

// numpy.searchsorted(sorted, value, side="left"): the first index whose value is >= value.
function firstAtLeast(sorted, value) {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

// mapteach.plots.ap_area_outline of the relevant ranks' (recall, precision): the tops of
// the rectangles, width 1/R each, whose area is AP.
function areaOutline(recall, precision, labels) {
  const outline = [[0, 0]];
  let left = 0;
  labels.forEach((label, i) => {
    if (!label) return;
    outline.push([left, precision[i]], [recall[i], precision[i]]);
    left = recall[i];
  });
  outline.push([left, 0]);
  return outline;
}

// Everything BoardFigure.update draws, as plain data: `bars` (P@1..P@n, every rank) with
// `barRelevant`; `shown` ranks count (bars past it are faint); `cutoff` (k, or null; its
// line is at k + 0.5) and `cutoffInside` (k <= n, the line is on the axes and in the
// legend); `curve` the raw points [recall, precision] from recall 0, `interpolated` the
// interpolated points (null when off), `area` AP's outline; `ap`, `nRelevant`.
export function boardPlot(labels, nRelevant, k, interpolated) {
  const r = relevantTotal(labels, nRelevant);
  const { recall, precision } = prPoints(labels, r);
  const shown = countedRanks(labels, k);
  const counted = { recall: recall.slice(0, shown), precision: precision.slice(0, shown) };
  const start = shown ? precision[0] : 0;
  const curve = [[0, start], ...counted.recall.map((x, i) => [x, counted.precision[i]])];
  let steps = null;
  if (interpolated) {
    const best = interpolatedPrecision(counted.recall, counted.precision);
    steps = [[0, shown ? best[0] : 0], ...counted.recall.map((x, i) => [x, best[i]])];
  }
  return {
    bars: precision,
    barRelevant: labels.map(Boolean),
    shown,
    cutoff: k > 0 ? k : null,
    cutoffInside: k > 0 && k <= labels.length,
    curve,
    interpolated: steps,
    area: areaOutline(counted.recall, counted.precision, labels.slice(0, shown)),
    ap: averagePrecision(labels, r, k),
    nRelevant: r,
  };
}

// mapteach.trace_ap(labels, n_relevant=R, k=k): `rows` with its columns' keys, and
// `attrs` as the DataFrame's attrs (`n_relevant`, `k` (null without a cutoff), `ap`).
export function traceAp(labels, nRelevant, k) {
  const r = relevantTotal(labels, nRelevant);
  const rows = [];
  let hits = 0;
  let runningSum = 0;
  const ranks = countedRanks(labels, k);
  for (let i = 0; i < ranks; i += 1) {
    const relevant = Boolean(labels[i]);
    if (relevant) hits += 1;
    const precision = hits / (i + 1);
    const contribution = relevant ? precision : 0;
    runningSum += contribution;
    rows.push({
      rank: i + 1,
      relevant,
      hits,
      fraction: `${hits}/${i + 1}`,
      precision,
      contribution,
      running_sum: runningSum,
      running_ap: r ? runningSum / r : 0,
    });
  }
  const ap = r && rows.length ? runningSum / r : 0;
  return { rows, attrs: { n_relevant: r, k: k > 0 ? k : null, ap } };
}

// A plural message ({one, other}) for `count`, filled as mapteach.i18n.ngettext does.
function pluralText(forms, count, fields = {}) {
  return fill(count === 1 ? forms.one : forms.other, { ...fields, n: count });
}

// explain_table's note on R for a trace whose `counted` relevant ranks count.
function noteOnR(texts, r, counted) {
  const missed = r - counted;
  if (missed === 0) return pluralText(texts.note_all_counted, r);
  if (missed === r) return pluralText(texts.note_none_counted, r);
  return pluralText(texts.note_some_missed, missed, { r });
}

// mapteach.explain_table of a trace (traceAp's `rows` and `attrs`): `text` is its str,
// `note` its .note, in the language of `texts`.
function explainTrace(rows, attrs, texts, decimals = 4) {
  const r = attrs.n_relevant;
  const name = apName(attrs.k);
  if (r === 0) return { text: fill(texts.zero_text, { name }), note: texts.zero_note };
  const counted = rows.filter((row) => row.relevant);
  const numerator = counted.length ? `(${counted.map((row) => row.fraction).join(" + ")})` : "0";
  return {
    text: `${name} = ${numerator} / ${r} = ${formatFixed(attrs.ap, decimals)}`,
    note: noteOnR(texts, r, counted.length),
  };
}

// mapteach.explain_ap(labels, n_relevant=R, k=k, decimals=decimals): `text` is its str,
// `note` its .note, in the language of `texts`.
export function explainAp(labels, nRelevant, k, texts, decimals = 4) {
  const { rows, attrs } = traceAp(labels, nRelevant, k);
  return explainTrace(rows, attrs, texts, decimals);
}

// The cells mapteach.explain.trace_html shows for one trace row.
function traceCells(row) {
  return [
    String(row.rank),
    row.relevant ? "✔" : "✘",
    String(row.hits),
    `${row.fraction} = ${formatFixed(row.precision, 4)}`,
    row.relevant ? formatFixed(row.contribution, 4) : "0",
    formatFixed(row.running_sum, 4),
    formatFixed(row.running_ap, 4),
  ];
}

// What the board's trace table shows, as trace_html(trace_ap(...), caption=...) does:
// `caption`, `headers`, `rows` ({contributes, cells}) and `footer`, as text.
export function traceTable(labels, nRelevant, k, texts) {
  const { rows, attrs } = traceAp(labels, nRelevant, k);
  const r = attrs.n_relevant;
  return {
    caption: explainTrace(rows, attrs, texts).text, // str(explain_table(...))
    headers: texts.columns.map((key) => texts.headers[key]),
    rows: rows.map((row) => ({ contributes: row.relevant, cells: traceCells(row) })),
    footer: attrs.k === null ? `R = ${r}` : fill(texts.footer_cutoff, { r, k: attrs.k }),
  };
}

// numpy's pairwise sum of doubles (what np.mean and np.sum add with): below 8 values a
// running sum from 0; up to 128, eight running sums added as a tree, then the rest;
// above, the two halves (cut at a multiple of 8) summed apart.
function pairwiseSum(values, start, count) {
  if (count < 8) {
    let sum = 0;
    for (let i = start; i < start + count; i += 1) sum += values[i];
    return sum;
  }
  if (count <= 128) {
    const lanes = values.slice(start, start + 8);
    let i = 8;
    for (; i < count - (count % 8); i += 8) {
      for (let lane = 0; lane < 8; lane += 1) lanes[lane] += values[start + i + lane];
    }
    let sum = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3]))
      + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
    for (; i < count; i += 1) sum += values[start + i];
    return sum;
  }
  const half = Math.floor(count / 2) - (Math.floor(count / 2) % 8);
  return pairwiseSum(values, start, half) + pairwiseSum(values, start + half, count - half);
}

// The MAP the multi-query board shows: mapteach.mean_average_precision's mean of the
// queries' APs (float(np.mean(aps)): numpy's pairwise sum from 0, over the count).
export function meanAveragePrecision(aps) {
  if (!aps.length) throw new RangeError("MAP needs at least one query's AP");
  return (0 + pairwiseSum(aps, 0, aps.length)) / aps.length;
}
