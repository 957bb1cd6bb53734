// A board's live printout: the labels on screen, R, k and AP's arithmetic (one query),
// or each query's labels, R and AP and then MAP (several). The view writes it from the
// board's lists' models (the `rankings` references) after every change of any of them,
// in the same frame, with board_math.js: readoutHtml, the very HTML that
// mapteach.board.LiveReadout.html writes in Python, to the character.

import { escapeHtml, fill, floatRepr, formatFixed } from "./text.js";
import {
  averagePrecision, explainAp, followLists, listState, meanAveragePrecision,
} from "./board_math.js";

const BOX = "font-family:var(--jp-code-font-family,monospace);font-size:13px;"
  + "white-space:pre-wrap;line-height:1.5;";
const NOTE = "font-family:var(--jp-ui-font-family,sans-serif);color:#555;";

function line(text, testid, value = null, style = "") {
  const data = value === null ? "" : ` data-value="${floatRepr(value)}"`;
  const css = style ? ` style="${style}"` : "";
  return `<div data-testid="${testid}"${data}${css}>${escapeHtml(text)}</div>`;
}

const labelsText = (labels) => `[${labels.join(", ")}]`;

function boardLines(list, texts) {
  const { labels, nRelevant: r, k } = listState(list);
  const head = k > 0
    ? fill(texts.head_cutoff, { labels: labelsText(labels), r, k })
    : fill(texts.head_all, { labels: labelsText(labels), r });
  const explanation = explainAp(labels, r, k, list.get("trace_texts"));
  const ap = averagePrecision(labels, r, k);
  const html = line(head, "live-labels") + line(explanation.text, "live-ap", ap)
    + line(explanation.note, "live-note", null, NOTE);
  return { html, value: ap };
}

function mapLines(lists) {
  const aps = [];
  let html = "";
  for (const list of lists) {
    const { labels, nRelevant: r, k } = listState(list);
    const ap = averagePrecision(labels, r, k);
    aps.push(ap);
    const text = `${list.get("query_name")} — ${labelsText(labels)}  R = ${r}  AP = ${formatFixed(ap, 4)}`;
    html += line(text, "live-ap", ap);
  }
  const mean = meanAveragePrecision(aps);
  html += line(`MAP = ${formatFixed(mean, 4)}`, "live-map", mean, "font-weight:600;");
  return { html, value: mean };
}

// mapteach.board.LiveReadout.html for the lists' models as they stand, character for
// character: one query's printout (`kind` "board") or several queries' and MAP ("map").
export function readoutHtml(kind, lists, texts) {
  const { html, value } = kind === "board" ? boardLines(lists[0], texts) : mapLines(lists);
  return `<div class="mapteach-live" data-testid="live-readout" data-kind="${kind}" `
    + `data-value="${floatRepr(value)}" lang="${texts.lang}" aria-live="polite" `
    + `style="${BOX}">${html}</div>`;
}

// The element readoutHtml writes, parsed.
function parsed(html) {
  const holder = document.createElement("template");
  holder.innerHTML = html;
  return holder.content.firstElementChild;
}

// The printout shown: the first readoutHtml as it is, then each one's attributes and lines
// written into that same element, so a screen reader keeps following one live region.
function showReadout(host, shown, html) {
  const fresh = parsed(html);
  if (!shown) {
    host.append(fresh);
    return fresh;
  }
  for (const { name, value } of fresh.attributes) shown.setAttribute(name, value);
  shown.replaceChildren(...fresh.childNodes);
  return shown;
}

function render({ model, el: host }) {
  let shown = null;
  const following = followLists(model, (lists) => {
    shown = showReadout(host, shown, readoutHtml(model.get("kind"), lists, model.get("texts")));
  });
  return following.stop;
}

export default { render };
