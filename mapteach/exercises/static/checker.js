// The exercises' checker: judges an answer in the browser by the rule Python's `check`
// applies (mapteach/exercises/answers.py, reading.py), and says it as Python says it.
//
// Pure functions, no DOM. Each reads an exercise's answer table
// (mapteach/exercises/answer_table.py), which holds only what Python computed or wrote in
// the exercise's language: the truth, the asked precision and its tolerances, every
// recognised mistake, the fixed sentences, and the templates of those that depend on the
// answer. A text of the feedback is a *piece*, `{text, html}`: its html (escaped, its
// formulas as MathML) comes from Python where it holds a formula, else it is the escaped
// text. Numbers are read as Python reads them, to the same double: a decimal or a
// percentage through `Number` of its digits (correctly rounded, as Python's
// `float(Fraction)`), a fraction through a correctly rounded division of integers.

import { arrangementKey } from "./arrangement.js";
import { escapeHtml, fillBoth } from "./text.js";

// Python's str.isspace(): what str.strip() and str.split() take for whitespace.
const SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680"
  + "\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const SPACES = new RegExp(`[${SPACE}]+`, "u");
const EDGE_SPACES = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, "gu");
// Python's str.isdigit() beyond \p{Nd}: digits NFKC leaves as they are (Unicode 14).
const DIGITS = new RegExp(
  "^[\\p{Nd}\\u1369-\\u1371\\u19da\\u24f5-\\u24fd\\u24ff\\u2776-\\u277e\\u2780-\\u2788"
  + "\\u278a-\\u2792\\u{10a40}-\\u{10a43}\\u{10e60}-\\u{10e68}\\u{11052}-\\u{1105a}]+$",
  "u",
);
// What people type for a minus, a division or an equals sign, that NFKC leaves alone.
const SPELLINGS = { "−": "-", "÷": "/", "⁄": "/", "∕": "/", "≈": "=" };
const DECIMAL = /^([+-]?)(?:([0-9]+)(?:\.([0-9]*))?|\.([0-9]+))(?:e([+-]?[0-9]+))?$/;
const FRACTION = /^([+-]?[0-9]+)\/([0-9]+)$/;
// Chinese "b分之a", a over b: 3分之2 is 2/3.
const CHINESE_FRACTION = /([0-9]+)分之([+-]?[0-9]+)/g;
const CHINESE_PERCENT = "百分之";
// Chinese numerals, which a number must be typed without (三分之二: 3分之2).
const CHINESE_NUMERALS = /[零〇一二两三四五六七八九十百千万]/u;
// A fraction whose terms are exact doubles is divided as doubles: one rounding.
const EXACT = 2n ** 53n;
// math.isclose's tolerances for an exact form, and for the truth cut off.
const REL_TOLERANCE = 1e-9;
const ABS_TOLERANCE = 1e-12;

// ------------------------------------------------------------------ pieces and texts

function htmlOf(piece) {
  return piece.html ?? escapeHtml(piece.text);
}

function plain(value) {
  const text = String(value);
  return { text, html: escapeHtml(text) };
}

function asPiece(value) {
  return value !== null && typeof value === "object" ? value : plain(value);
}

// `template` filled with pieces (or plain values), as tr fills a message: the text, and
// its html (the template escaped as feedback_html escapes a text, each field's html).
export function say(template, fields) {
  const pieces = Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name, asPiece(value)]),
  );
  const texts = Object.fromEntries(Object.entries(pieces).map(([k, p]) => [k, p.text]));
  const htmls = Object.fromEntries(Object.entries(pieces).map(([k, p]) => [k, htmlOf(p)]));
  return fillBoth(template, texts, htmls);
}

// joined_sentences: the sentences that say something, joined as the language joins them.
export function joinSentences(joiner, sentences) {
  const kept = sentences.map(asPiece).filter((sentence) => sentence.text);
  if (!kept.length) return plain("");
  return kept.reduce((sentence, then) => say(joiner, { sentence, then }));
}

function verdict(status, message, mistakes = []) {
  return { status, message: message.text, html: htmlOf(message), mistakes };
}

function verdictOf(entry) {
  return verdict(entry.status, entry.message, entry.mistakes);
}

// -------------------------------------------------------------------------- reading

function pyStrip(text) {
  return text.replace(EDGE_SPACES, "");
}

// shown_answer: stripped, and cut after `shown_length` characters (code points).
export function shownAnswer(answer, reading) {
  const chars = Array.from(pyStrip(String(answer)));
  const most = reading.shown_length;
  return chars.length <= most ? chars.join("") : `${chars.slice(0, most - 1).join("")}…`;
}

// reading._normalised: NFKC, one spelling, no labels or spaces.
function normalised(text) {
  let normal = text.normalize("NFKC").replace(/[−÷⁄∕≈]/gu, (sign) => SPELLINGS[sign]);
  normal = normal.toLowerCase().split(SPACES).filter(Boolean).join(" ");
  // a space between two digits stays, so "0 5" is not read as 5
  normal = normal.replace(/(?<![0-9]) | (?![0-9])/g, "");
  normal = normal.replace(/^=+/, "").replace(/[=。]+$/u, "");
  normal = normal.slice(normal.lastIndexOf("=") + 1);
  normal = normal.replace(/(?<=[0-9])。(?=[0-9])/gu, ".");
  if (normal.startsWith(CHINESE_PERCENT)) normal = `${normal.slice(CHINESE_PERCENT.length)}%`;
  return normal.replace(CHINESE_FRACTION, "$2/$1");
}

function bitLength(value) {
  return value.toString(2).length;
}

// x * 2**exponent, exact while the result is a normal double.
function timesPowerOfTwo(x, exponent) {
  let result = x;
  let left = exponent;
  for (; left >= 32; left -= 32) result *= 4294967296;
  for (; left <= -32; left += 32) result /= 4294967296;
  return result * 2 ** left;
}

// numerator / denominator (BigInts) as the nearest double, ties to even: Python's
// float(Fraction(numerator, denominator)).
export function ratio(numerator, denominator) {
  const negative = (numerator < 0n) !== (denominator < 0n);
  const top = numerator < 0n ? -numerator : numerator;
  const bottom = denominator < 0n ? -denominator : denominator;
  if (top === 0n) return 0;
  let value;
  if (top <= EXACT && bottom <= EXACT) {
    value = Number(top) / Number(bottom);
  } else {
    // a quotient of 56 or 57 bits, its last bit set where the division leaves a
    // remainder: Number() rounds that to the double nearest the exact ratio
    const shift = bitLength(bottom) - bitLength(top) + 56;
    const [a, b] = shift >= 0 ? [top << BigInt(shift), bottom] : [top, bottom << BigInt(-shift)];
    const quotient = (a / b) | (a % b === 0n ? 0n : 1n);
    value = timesPowerOfTwo(Number(quotient), -shift);
  }
  return negative ? -value : value;
}

function unreadable(template, answer, reading, fields = {}) {
  return { unreadable: say(template, { answer: shownAnswer(answer, reading), ...fields }) };
}

function notANumber(answer, text, reading) {
  const why = CHINESE_NUMERALS.test(text) ? reading.in_digits : reading.unreadable;
  return unreadable(why, answer, reading);
}

// reading._decimal_point: a decimal comma made a point; unreadable where that is unclear.
function decimalPoint(text, answer, reading) {
  const at = text.indexOf(",");
  if (at < 0) return { text };
  const whole = text.slice(0, at);
  const tail = text.slice(at + 1);
  if (text.includes(".")) return unreadable(reading.both_marks, answer, reading);
  const sign = whole.replace(/^[+-]+/, "");
  if (Array.from(tail).length === 3 && DIGITS.test(tail) && sign !== "" && sign !== "0") {
    const fields = { point: `${whole}.${tail}`, thousands: whole + tail };
    return unreadable(reading.ambiguous_comma, answer, reading, fields);
  }
  return { text: `${whole}.${tail}` };
}

function readDecimal(match, percent) {
  const [, sign, whole = "", point = "", bare = ""] = match;
  const decimals = point || bare;
  const exponent = BigInt(match[5] ?? "0") - BigInt(decimals.length);
  const shifted = percent ? exponent - 2n : exponent;
  const value = Number(`${sign}${whole}${decimals}e${shifted}`) || 0; // -0 is 0, as a Fraction
  const places = exponent < 0n ? Number(-exponent) : 0;
  return { exponent, value, given: percent ? places + 2 : places || null };
}

// reading._read: the number a normalised text stands for, and its decimals (null: exact).
function readNumber(text, answer, reading) {
  const length = Array.from(text).length;
  if (length > reading.longest) {
    return unreadable(reading.too_long, answer, reading, { n: length, longest: reading.longest });
  }
  const percent = text.endsWith("%");
  const pointed = decimalPoint(percent ? text.slice(0, -1) : text, answer, reading);
  if (pointed.unreadable) return pointed;
  const fraction = FRACTION.exec(pointed.text);
  if (fraction) {
    const denominator = BigInt(fraction[2]);
    if (denominator === 0n) return unreadable(reading.divides_by_zero, answer, reading);
    const value = ratio(BigInt(fraction[1]), percent ? denominator * 100n : denominator);
    return { value, given: null };
  }
  const decimal = DECIMAL.exec(pointed.text);
  if (!decimal) return notANumber(answer, pointed.text, reading);
  const read = readDecimal(decimal, percent);
  const longest = BigInt(reading.longest);
  if (read.exponent > longest || read.exponent < -longest) {
    return notANumber(answer, pointed.text, reading);
  }
  return { value: read.value, given: read.given };
}

// reading.parse_answer: `{value, given}` (given: the answer's decimals, null for an exact
// form), or `{unreadable: piece}` saying why it cannot be read. `reading` is the answer
// table's `reading`: the messages, `longest` and `shown_length`.
export function parseAnswer(text, reading) {
  const answer = String(text);
  const normal = normalised(answer);
  const read = readNumber(normal, answer, reading);
  if (read.unreadable) return read;
  if (!Number.isFinite(read.value)) return notANumber(answer, normal, reading);
  return read;
}

// ------------------------------------------------------------------------- numbers

// math.isclose, as CPython computes it.
function isClose(a, b, relTolerance, absTolerance) {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  const diff = Math.abs(b - a);
  return diff <= Math.abs(relTolerance * b) || diff <= Math.abs(relTolerance * a)
    || diff <= absTolerance;
}

function agreesAt(table, value, target, places) {
  return Math.abs(value - target) <= table.tolerances[places];
}

function underPrecise(reading) {
  return reading.given !== null && reading.given < reading.decimals;
}

// _Reading.matches: the target at the asked precision (exactly, for an exact form).
function matches(table, reading, target) {
  if (reading.given === null) return isClose(reading.value, target, REL_TOLERANCE, ABS_TOLERANCE);
  return agreesAt(table, reading.value, target, reading.decimals);
}

function roundsTo(table, reading, target) {
  return underPrecise(reading) && reading.given >= 2
    && agreesAt(table, reading.value, target, reading.given);
}

// answers._matched: once per name, the closest to the answer first, then in table order.
function matched(table, reading) {
  const named = new Map();
  for (const wrong of table.mistakes) {
    const hit = matches(table, reading, wrong.value) || roundsTo(table, reading, wrong.value);
    if (!named.has(wrong.key) && hit) named.set(wrong.key, wrong);
  }
  const distance = (wrong) => Math.abs(wrong.value - reading.value);
  return [...named.values()].sort((a, b) => distance(a) - distance(b));
}

function oneOf(templates, items) {
  const numbered = items.map((text, at) => say(templates.numbered, { n: at + 1, text }));
  const first = numbered.slice(0, -1);
  const joined = {
    text: first.map((item) => item.text).join(templates.separator),
    html: first.map((item) => item.html).join(escapeHtml(templates.separator)),
  };
  return say(templates.last_of, { first: joined, last: numbered.at(-1) });
}

// answers._lead: the sentence that names what the matched values are.
function lead(table, reading, named) {
  const templates = table.templates;
  const answer = reading.shown;
  if (named.length === 1) {
    const [wrong] = named;
    if (wrong.convention) {
      return say(templates.lead_convention, { answer, convention: wrong.convention });
    }
    return say(templates.lead_slip, { answer, name: wrong.name });
  }
  const slips = named.filter((wrong) => !wrong.convention);
  if (!slips.length) {
    const items = oneOf(templates, named.map((wrong) => wrong.convention));
    return say(templates.lead_conventions, { answer, items });
  }
  if (slips.length === named.length) {
    return say(templates.lead_slips, { answer, items: oneOf(templates, named.map((w) => w.name)) });
  }
  const texts = named.map((wrong) => (wrong.convention
    ? say(templates.convention_item, { convention: wrong.convention })
    : wrong.name));
  return say(templates.lead_mixed, { answer, items: oneOf(templates, texts) });
}

function namedVerdict(table, reading, named) {
  const explanations = named.length === 1
    ? [named[0].explanation]
    : named.slice(0, 2)
      .map((wrong, at) => [wrong.explanation, at + 1])
      .filter(([text]) => text.text)
      .map(([text, n]) => say(table.templates.numbered, { n, text }));
  const sentences = [lead(table, reading, named), ...explanations];
  if (!named.every((wrong) => matches(table, reading, wrong.value))) {
    sentences.push(table.said.tell_apart);
  }
  const mistakes = named.map((wrong) => wrong.key);
  return verdict("incorrect", joinSentences(table.joiner, sentences), mistakes);
}

// answers._truncated: the truth cut off instead of rounded (0.6666 for 2/3), or null.
function truncated(table, reading) {
  const given = reading.given;
  if (given === null || given < Math.min(2, table.decimals) || table.truth < 0) return null;
  const scaled = table.truth * Number(`1e${given}`) + table.cut_guard;
  if (!Number.isFinite(scaled)) return null;
  const cut = ratio(BigInt(Math.floor(scaled)), 10n ** BigInt(given));
  if (!isClose(reading.value, cut, 0, ABS_TOLERANCE)) return null;
  const forms = table.templates.cut_off;
  const template = given === 1 ? forms.one : forms.other;
  const sentences = [say(template, { answer: reading.shown, n: given })];
  if (underPrecise(reading)) sentences.push(table.said.give);
  return verdict("incorrect", joinSentences(table.joiner, sentences), [table.truncated]);
}

// answers._unmatched: an answer no known mistake explains.
function unmatched(table, reading) {
  const truth = table.truth;
  const value = reading.value;
  if (table.measure !== null && truth >= 0 && truth <= 1 && !(value >= 0 && value <= 1)) {
    const fields = { measure: table.measure, answer: reading.shown, hint: table.hint };
    return verdict("incorrect", say(table.templates.outside, { ...fields, asked: table.asked }));
  }
  return verdict("incorrect", table.said.not_quite);
}

// answers.check_number on a number exercise's table: `{status, message, html, mistakes}`,
// `mistakes` the English names of the mistakes named (the likeliest first).
export function checkNumber(table, answer) {
  const text = answer === null || answer === undefined ? "" : String(answer);
  if (!pyStrip(text)) return verdict("empty", table.said.empty);
  const parsed = parseAnswer(text, table.reading);
  if (parsed.unreadable) return verdict("unreadable", parsed.unreadable);
  const reading = {
    shown: shownAnswer(text, table.reading),
    value: parsed.value,
    given: parsed.given,
    decimals: table.decimals,
  };
  if (matches(table, reading, table.truth)) return verdict("correct", table.said.correct);
  if (underPrecise(reading) && agreesAt(table, reading.value, table.truth, reading.given)) {
    return verdict("incomplete", table.said.incomplete);
  }
  // an answer within the asked precision of the truth is pinned on no mistake
  const close = agreesAt(table, reading.value, table.truth, table.decimals);
  const named = close ? [] : matched(table, reading);
  if (named.length) return namedVerdict(table, reading, named);
  return truncated(table, reading) ?? unmatched(table, reading);
}

// -------------------------------------------------------------- choices and orders

// ChoiceExercise.check on a choice's table: the option's verdict, none, or not an option.
export function checkChoice(table, answer) {
  if (answer === null || answer === undefined || answer === "") return verdictOf(table.empty);
  if (Object.hasOwn(table.verdicts, answer)) return verdictOf(table.verdicts[answer]);
  return verdictOf(table.unreadable);
}

// ArrangeExercise.check on an arrangement's table; `labels` the order's 0/1 relevance.
export function checkArrange(table, labels) {
  const key = arrangementKey(labels);
  if (Object.hasOwn(table.arrangements, key)) return verdictOf(table.arrangements[key]);
  const message = say(table.wrong_size, {
    n_results: table.n_results,
    n_relevant: table.n_relevant_items,
    n_got: labels.length,
    n_got_relevant: labels.filter(Boolean).length,
  });
  return verdict("unreadable", message);
}

// The labels as the progress file records an arrangement: Python's str of a list.
export function shownLabels(labels) {
  return `[${labels.map((label) => (label ? 1 : 0)).join(", ")}]`;
}
