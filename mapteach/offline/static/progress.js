// The learner's progress on a page without a kernel: the name, asked once, and every
// checked answer, kept in the browser (localStorage) until downloaded.
//
// A check is kept as one object with the fields of a line of progress.jsonl
// (mapteach/classroom/progress_log.py): learner, notebook, exercise, answer, verdict,
// time (ISO 8601 in UTC, whole seconds, `Z`), every one a string, and `mistake` (the
// first mistake an incorrect answer was named) when the check names one. No record without a
// learner: before a name is saved, a check is still judged and shown, and `record`
// says how to keep the next ones. No check is lost or hidden silently: the download is a
// `.jsonl` file (one JSON object per line, UTF-8, `\n` endings) of every check kept in
// this browser, each under the name it was made with (a learner who saved "Ada" then
// "ada" hands in both), named after the learner, that `python -m mapteach progress`
// reads and merges; the status counts the checks under other names too. Where the
// browser does not let the page store them (storage disabled or full), the checks are
// kept in the page, for its download, until it closes, and the bar and each verdict say
// so; they are stored with the next check the storage takes. Chromium and Edge keep one
// storage for every page opened from file://, so checks from every page of the site add
// up there; other browsers may keep one per page.
//
// Every text shown comes from the page's runtime texts (mapteach/offline/site_runtime.py),
// in the page's language.

import { el, fill } from "./text.js";

export const LEARNER_KEY = "mapteach.learner";
export const PROGRESS_KEY = "mapteach.progress";

// The fields of a check, in the order progress.jsonl writes them, when the page does
// not say (it does: `fields` of the runtime texts, from mapteach.classroom.FIELDS).
const FIELDS = ["learner", "notebook", "exercise", "answer", "verdict", "time"];

// `date` as progress.jsonl writes a time: "2026-11-30T14:00:00Z".
export function utcSeconds(date) {
  return date.toISOString().replace(/\.\d+Z$/, "Z");
}

// A file name for `learner`'s download: their name, less what no file system allows.
export function downloadName(learner) {
  const safe = learner.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, "_").replace(/\s+/g, "-");
  return safe ? `mapteach-progress-${safe}.jsonl` : "mapteach-progress.jsonl";
}

// Refuse a check the page should not have made (the workbook's fault, not the learner's):
// a TypeError saying what is wrong, for the browser's console.
function validate(check, config) {
  for (const field of ["notebook", "exercise", "answer", "verdict"]) {
    if (typeof check?.[field] !== "string") throw new TypeError(`${field} is not a string`);
  }
  if (!check.notebook.trim() || !check.exercise.trim()) {
    throw new TypeError("notebook or exercise is empty");
  }
  if ("mistake" in check && (typeof check.mistake !== "string" || !check.mistake.trim())) {
    throw new TypeError("mistake is not a non-empty string");
  }
  const verdicts = config.verdicts ?? [];
  if (verdicts.length && !verdicts.includes(check.verdict)) {
    throw new TypeError(
      `verdict ${JSON.stringify(check.verdict)} is not one of ${verdicts.join(", ")}`,
    );
  }
}

// The learner and their checks in `storage` (localStorage, or a stand-in for it in
// tests); `runtime` is the page's runtime texts; `now` gives the time of a check.
class Progress {
  constructor(storage, runtime, now) {
    Object.assign(this, { storage, runtime, now, texts: runtime.texts ?? {} });
    this.fields = runtime.fields ?? FIELDS;
    this.memoryName = "";
    // Checks the storage did not take, kept for this page's download until it closes.
    this.unstored = [];
    // The name of the storage's last failure (null: it works).
    this.failure = null;
  }

  // The name saved in this browser, or (where it could not be saved) on this page.
  learner() {
    try {
      return (this.storage.getItem(LEARNER_KEY) ?? this.memoryName).trim();
    } catch {
      return this.memoryName;
    }
  }

  // The checks in the storage, oldest first; throws where the storage cannot be read. A
  // value that is not a list of checks is set aside under a key of its own (never lost,
  // never overwritten: where it cannot be set aside, this throws) and the list starts again.
  stored() {
    const kept = this.storage.getItem(PROGRESS_KEY);
    if (kept === null) return [];
    try {
      const list = JSON.parse(kept);
      if (Array.isArray(list)) return list;
    } catch {
      // set aside below
    }
    this.storage.setItem(`${PROGRESS_KEY}.unreadable.${utcSeconds(this.now())}`, kept);
    this.storage.removeItem(PROGRESS_KEY);
    return [];
  }

  // Every check this browser holds, oldest first: those stored, then this page's others.
  checks() {
    try {
      return [...this.stored(), ...this.unstored];
    } catch (error) {
      this.failure = error.name;
      return [...this.unstored];
    }
  }

  // What is said while the storage fails: the checks live only in this page.
  pageOnly() {
    return fill(this.texts.progress_page_only, { error: this.failure });
  }

  setLearner(name) {
    const trimmed = String(name ?? "").trim();
    if (!trimmed) return { saved: false, message: this.texts.progress_name_empty };
    this.memoryName = trimmed;
    try {
      this.storage.setItem(LEARNER_KEY, trimmed);
    } catch (error) {
      this.failure = error.name;
      return { saved: false, message: this.status(trimmed) };
    }
    return { saved: true, message: this.status(trimmed) };
  }

  // The checks kept for `name`, and under other names; that they live only in this page
  // while the storage fails.
  status(name = this.learner()) {
    const { texts, runtime } = this;
    const all = this.checks();
    const sentences = [];
    if (!name) sentences.push(texts.progress_unnamed);
    else {
      const others = all.filter((check) => check.learner !== name);
      sentences.push(fill(texts.progress_named, { name, n: all.length - others.length }));
      if (others.length) {
        const names = [...new Set(others.map((check) => check.learner))].join(", ");
        sentences.push(fill(texts.progress_others, { names, n: others.length }));
      }
    }
    if (this.failure) sentences.push(this.pageOnly());
    if (!runtime.joiner) return sentences.join(" ");
    return sentences.reduce((sentence, then) => fill(runtime.joiner, { sentence, then }));
  }

  // Keep `check` for the learner named: `{saved, kept, message}`, `saved` when the
  // browser stored it, `kept` when it is kept at least in this page (for its download).
  record(check) {
    const name = this.learner();
    if (!name) return { saved: false, message: this.texts.progress_no_learner };
    try {
      validate(check, this.runtime);
    } catch (error) {
      console.error("mapteach: a check the page cannot keep:", error.message, check);
      return { saved: false, message: this.texts.progress_bad_check };
    }
    const line = { ...check, learner: name, time: utcSeconds(this.now()) };
    const kept = Object.fromEntries(this.fields.map((field) => [field, line[field]]));
    if (check.mistake) kept.mistake = check.mistake;
    this.unstored.push(kept);
    try {
      this.storage.setItem(PROGRESS_KEY, JSON.stringify([...this.stored(), ...this.unstored]));
    } catch (error) {
      this.failure = error.name;
      return { saved: false, kept: true, message: this.pageOnly() };
    }
    this.unstored = [];
    this.failure = null;
    return { saved: true, kept: true, message: this.status(name) };
  }

  // Every check this browser holds, as progress.jsonl holds them.
  jsonl() {
    return this.checks().map((check) => `${JSON.stringify(check)}\n`).join("");
  }
}

export function makeProgress(storage, runtime, now = () => new Date()) {
  return new Progress(storage, runtime, now);
}

function buildBar(texts, lang) {
  const bar = el("div", {
    class: "mapteach-learner", role: "region", "aria-label": texts.progress_region ?? "", lang,
  });
  const input = el("input", {
    type: "text", autocomplete: "name", "data-testid": "learner-name",
    placeholder: texts.progress_name_placeholder ?? "",
  });
  const label = el("label", {}, `${texts.progress_name_label ?? ""} `);
  label.append(input);
  const save = el("button", {
    type: "button", "data-testid": "learner-save",
  }, texts.progress_save ?? "");
  const download = el("button", {
    type: "button", "data-testid": "progress-download",
  }, texts.progress_download ?? "");
  const line = el("span", {
    class: "mapteach-learner-status", "data-testid": "progress-status",
    role: "status", "aria-live": "polite",
  });
  bar.append(label, save, download, line);
  return { bar, input, save, download, line };
}

function saveFile(doc, name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
  const link = el("a", { href: url, download: name });
  doc.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

// The storage of the page, or one that fails as a disabled one does.
function pageStorage() {
  try {
    const storage = window.localStorage;
    storage.getItem(LEARNER_KEY);
    return storage;
  } catch (error) {
    const fail = () => { throw error; };
    return { getItem: fail, setItem: fail, removeItem: fail };
  }
}

// Show the learner's bar at the top of the page (after the site's navigation); return
// the progress, whose `record` also updates the bar.
export function startProgress(doc, runtime, storage = pageStorage()) {
  const texts = runtime.texts ?? {};
  const progress = makeProgress(storage, runtime);
  const view = buildBar(texts, runtime.lang ?? doc.documentElement.lang);
  const nav = doc.querySelector("nav.site-nav");
  if (nav) nav.after(view.bar);
  else doc.body.prepend(view.bar);
  view.input.value = progress.learner();
  view.line.textContent = progress.status();
  const saveName = () => { view.line.textContent = progress.setLearner(view.input.value).message; };
  view.save.addEventListener("click", saveName);
  view.input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") saveName();
  });
  view.download.addEventListener("click", () => {
    const name = progress.learner();
    if (progress.checks().length) saveFile(doc, downloadName(name), progress.jsonl());
    else view.line.textContent = name ? texts.progress_nothing : texts.progress_unnamed;
  });
  const keep = progress.record.bind(progress);
  progress.record = (check) => {
    const kept = keep(check);
    if (kept.kept) view.line.textContent = progress.status();
    return kept;
  };
  return progress;
}
