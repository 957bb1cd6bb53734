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

// `template` filled as mapteach.i18n.tr fills a message: with no fields, the template as
// it is; else as Python's template.format(**fields): each {name} is String(fields[name]),
// "{{" and "}}" are a brace, and a {name} with no field, a format spec ({ap:.4f}: format
// the value first, e.g. with formatFixed) or a single brace is a RangeError naming it and
// the template (Python's KeyError or ValueError), never a text shown half filled.
export function fill(template, fields = {}) {
  if (!Object.keys(fields).length) return String(template);
  return String(template).replace(/\{\{|\}\}|\{([^{}]*)\}|[{}]/g, (match, name) => {
    if (match === "{{" || match === "}}") return match[0];
    if (name === undefined) throw new RangeError(`a single '${match}' in ${template}`);
    if (!/^\w+$/.test(name)) {
      throw new RangeError(`{${name}} in ${template}: only {name} placeholders are filled`);
    }
    if (!Object.hasOwn(fields, name)) throw new RangeError(`no value for {${name}} in ${template}`);
    return String(fields[name]);
  });
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
