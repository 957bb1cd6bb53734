// The browser's small text helpers, one home for every widget module: a DOM element,
// a message's {placeholders} filled, HTML escaping, and numbers written as Python
// writes them. Each does what the Python it names does, so a text the browser writes
// equals, to the character, the one the kernel (or a notebook's saved output) shows.
// Bundle it first (mapteach.offline.bundle): the other modules import from "./text.js".
// Pure, except `el`, which needs a document.

// A `tag` element with the attributes `attrs` and, if `text` is not empty, that text.
export function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

// mapteach.i18n.spacing's rule for a Chinese message (one with a Chinese character or
// full-width punctuation): one space between a value and the Chinese character beside it
// when the value's edge is a Latin letter or a digit, none between Chinese characters or
// beside full-width punctuation (a value's edge is read outside its HTML tags); a value
// that is a negative number ("-0.0178", "-12.5%") written with the minus sign "−".
const HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff";
const FULL_WIDTH = "，。、；：？！（）“”‘’「」『』《》【】…—";
const IS_HAN = new RegExp(`^[${HAN}]$`, "u");
const IS_FULL_WIDTH = new RegExp(`^[${FULL_WIDTH}]$`, "u");
const CHINESE = new RegExp(`[${HAN}${FULL_WIDTH}]`, "u");
const OPENS_LATIN = /^(?:[A-Za-z0-9(\['"]|[−+-][0-9])/;
const CLOSES_LATIN = /[A-Za-z0-9)\]%'"]$/;
const LETTER = /^[A-Za-z0-9]/;
const LEADING_TAGS = /^(?:<[^<>]*>)+/;
const TRAILING_TAGS = /(?:<[^<>]*>)+$/;
// spacing._NEGATIVE_NUMBER: a number as Python writes it, a hyphen-minus for its sign.
const NEGATIVE_NUMBER = /^-(?:[0-9][0-9,_]*(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?%?$/;

// spacing._chinese_minus, on a value's text and html: "−" for the sign of a negative number.
function chineseMinus(piece) {
  if (!NEGATIVE_NUMBER.test(piece.text)) return piece;
  return { ...piece, text: `−${piece.text.slice(1)}`, html: piece.html.replace(/^-/, "−") };
}

// spacing._wants_space: true, false or null (as written); one of the two is a value.
function wantsSpace(before, after, valueBefore) {
  const last = before.slice(-1);
  const first = after[0];
  if (IS_FULL_WIDTH.test(last) || IS_FULL_WIDTH.test(first)) return false;
  if (IS_HAN.test(last) && IS_HAN.test(first)) return false;
  if (IS_HAN.test(last) && (valueBefore ? LETTER : OPENS_LATIN).test(after)) return true;
  if (IS_HAN.test(first) && (valueBefore ? CLOSES_LATIN : LETTER).test(last)) return true;
  return null;
}

// spacing._between: the spaces between two pieces ({text, value}), or null (as written).
function between(left, right) {
  if (!(left.value || right.value)) return null;
  if ((left.value && left.text.endsWith(" ")) || (right.value && right.text.startsWith(" "))) {
    return null;
  }
  const coreLeft = left.value ? left.text : left.text.replace(/ +$/, "");
  const coreRight = right.value ? right.text : right.text.replace(/^ +/, "");
  const edgeLeft = left.value ? coreLeft.replace(TRAILING_TAGS, "") : coreLeft;
  const edgeRight = right.value ? coreRight.replace(LEADING_TAGS, "") : coreRight;
  if (!edgeLeft || !edgeRight) return null;
  const wants = wantsSpace(edgeLeft, edgeRight, left.value);
  if (wants === null) return null;
  const written = left.text.slice(coreLeft.length) + right.text.slice(0, right.text.length - coreRight.length);
  return wants ? written || " " : "";
}

// The pieces ({text, html, value}) joined, spaced by the rule, which reads the texts:
// the text, and the html (a piece's html, its literal spaces trimmed as its text's are).
function spacedPieces(pieces) {
  const text = [];
  const html = [];
  pieces.forEach((piece, index) => {
    const gap = index ? between(pieces[index - 1], piece) : null;
    let [pieceText, pieceHtml] = [piece.text, piece.html];
    if (gap !== null) {
      if (!pieces[index - 1].value) {
        text.push(text.pop().replace(/ +$/, ""));
        html.push(html.pop().replace(/ +$/, ""));
      }
      if (!piece.value) [pieceText, pieceHtml] = [pieceText.replace(/^ +/, ""), pieceHtml.replace(/^ +/, "")];
      text.push(gap);
      html.push(gap);
    }
    text.push(pieceText);
    html.push(pieceHtml);
  });
  return { text: text.join(""), html: html.join("") };
}

// The pieces of a template, in order: literals (braces unescaped) and field names, each
// name one of `fields`' keys.
function templatePieces(template, fields) {
  const pieces = [];
  let literal = "";
  const found = /\{\{|\}\}|\{([^{}]*)\}|[{}]/g;
  let at = 0;
  for (const match of template.matchAll(found)) {
    literal += template.slice(at, match.index);
    at = match.index + match[0].length;
    if (match[0] === "{{" || match[0] === "}}") {
      literal += match[0][0];
      continue;
    }
    const name = match[1];
    if (name === undefined) throw new RangeError(`a single '${match[0]}' in ${template}`);
    if (!/^\w+$/.test(name)) {
      throw new RangeError(`{${name}} in ${template}: only {name} placeholders are filled`);
    }
    if (!Object.hasOwn(fields, name)) throw new RangeError(`no value for {${name}} in ${template}`);
    if (literal) pieces.push({ literal });
    literal = "";
    pieces.push({ name });
  }
  literal += template.slice(at);
  if (literal) pieces.push({ literal });
  return pieces;
}

// `template` filled as mapteach.i18n.tr fills a message, both as text (with `texts`) and
// as HTML (the template escaped, with `htmls`, each field's HTML; the spacing read from
// the texts): with no fields, the template as it is; else as Python's
// template.format(**fields), each {name} String(fields[name]), "{{" and "}}" a brace, and
// a Chinese template's values spaced by mapteach.i18n.spacing's rule. A {name} with no
// field, a format spec ({ap:.4f}: format the value first, e.g. with formatFixed) or a
// single brace is a RangeError naming it and the template (Python's KeyError or
// ValueError), never a text shown half filled.
export function fillBoth(template, texts = {}, htmls = texts) {
  template = String(template);
  if (!Object.keys(texts).length) return { text: template, html: escapeHtml(template) };
  const pieces = templatePieces(template, texts).map((piece) => {
    if (piece.literal !== undefined) {
      return { text: piece.literal, html: escapeHtml(piece.literal), value: false };
    }
    return { text: String(texts[piece.name]), html: String(htmls[piece.name]), value: true };
  }).filter((piece) => piece.text || !piece.value);
  if (!CHINESE.test(template)) {
    return { text: pieces.map((p) => p.text).join(""), html: pieces.map((p) => p.html).join("") };
  }
  return spacedPieces(pieces.map((piece) => (piece.value ? chineseMinus(piece) : piece)));
}

// `template` filled as mapteach.i18n.tr fills a message (see fillBoth): the text.
export function fill(template, fields = {}) {
  return fillBoth(template, fields).text;
}

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

// Python's html.escape(text) (quote=True): & < > " ' as the entities it writes.
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

const FLOAT64 = new DataView(new ArrayBuffer(8));

// |x| = mantissa * 2 ** exponent exactly, both BigInt, for a finite double x.
function float64Parts(x) {
  FLOAT64.setFloat64(0, Math.abs(x));
  const bits = FLOAT64.getBigUint64(0);
  const biased = (bits >> 52n) & 0x7ffn;
  const fraction = bits & ((1n << 52n) - 1n);
  if (biased === 0n) return { mantissa: fraction, exponent: -1074n };
  return { mantissa: fraction | (1n << 52n), exponent: biased - 1075n };
}

// numerator * 2 ** exponent rounded to a whole number, an exact half to the even one.
function roundedHalfEven(numerator, exponent) {
  if (exponent >= 0n) return numerator << exponent;
  const quotient = numerator >> -exponent;
  const twiceRest = (numerator - (quotient << -exponent)) * 2n;
  const divisor = 1n << -exponent;
  const up = twiceRest > divisor || (twiceRest === divisor && quotient % 2n === 1n);
  return up ? quotient + 1n : quotient;
}

function nonFinite(x) {
  if (Number.isNaN(x)) return "nan";
  return x > 0 ? "inf" : "-inf";
}

// Python's f"{x:.{decimals}f}": the exact binary value rounded half to even (JavaScript's
// toFixed rounds an exact half up: 0.15625, an AP of 5/32, is "0.1562" here, as in Python).
export function formatFixed(x, decimals) {
  if (!Number.isInteger(decimals) || decimals < 0) {
    throw new RangeError(`decimals must be an integer >= 0; got ${decimals}`);
  }
  if (!Number.isFinite(x)) return nonFinite(x);
  const { mantissa, exponent } = float64Parts(x);
  const digits = roundedHalfEven(mantissa * 10n ** BigInt(decimals), exponent)
    .toString()
    .padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const text = decimals ? `${whole}.${digits.slice(digits.length - decimals)}` : whole;
  return x < 0 || Object.is(x, -0) ? `-${text}` : text;
}

// Python's repr(x) of a float (the shortest text that reads back as x): "0.5", "1.0",
// "1e-05", "1e+16", "nan". The `data-value` of every readout, so a test reads it with
// float() and gets the very number shown.
export function floatRepr(x) {
  if (!Number.isFinite(x)) return nonFinite(x);
  const size = Math.abs(x);
  if (x !== 0 && (size < 1e-4 || size >= 1e16)) {
    const [digits, exponent] = x.toExponential().split("e");
    const sign = exponent[0] === "-" ? "-" : "+";
    return `${digits}e${sign}${exponent.replace(/^[-+]/, "").padStart(2, "0")}`;
  }
  const text = Number.isInteger(x) ? x.toFixed(1) : String(x);
  return Object.is(x, -0) ? "-0.0" : text;
}
