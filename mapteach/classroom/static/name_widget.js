// The learner's name, asked once per browser session: a text box, Save and a status line.
// The view writes `name` (what was typed) and counts `save_request` up on Save or Enter;
// the kernel sets the learner and writes `status`. The name saved is kept in the browser
// session (sessionStorage), so a page opened again in the same session gives it to its
// new kernel at once. Every text shown comes from the `texts` trait, in the page's language.

import { el } from "./text.js";

const SESSION_KEY = "mapteach.learner";

// The name this browser session saved ("" where none was, or storage is not allowed).
function sessionName() {
  try {
    return (window.sessionStorage.getItem(SESSION_KEY) ?? "").trim();
  } catch {
    return "";
  }
}

function keepName(name) {
  try {
    window.sessionStorage.setItem(SESSION_KEY, name);
  } catch {
    // the kernel still has the name; only a reopened page asks again
  }
}

// `restored`: the name is this browser session's, given again (a reopened page), so the
// checks already under it are this learner's own.
function save(model, name, restored = false) {
  const trimmed = name.trim();
  if (trimmed) keepName(trimmed);
  model.set({ name, restored, save_request: model.get("save_request") + 1 });
  model.save_changes();
}

function render({ model, el: host }) {
  const texts = model.get("texts");
  const input = el("input", {
    type: "text", autocomplete: "name", "data-testid": "learner-name",
    placeholder: texts.placeholder ?? "",
  });
  const label = el("label", {}, `${texts.label ?? ""} `);
  label.append(input);
  const button = el("button", { type: "button", "data-testid": "learner-save" }, texts.save);
  const status = el("span", {
    "data-testid": "learner-status", role: "status", "aria-live": "polite",
  });
  const bar = el("div", { class: "mapteach-learner", role: "region", lang: texts.lang ?? "" });
  bar.setAttribute("aria-label", texts.region ?? "");
  bar.append(label, button, status);
  host.append(bar);
  const show = () => { status.textContent = model.get("status"); };
  model.on("change:status", show);
  show();
  input.value = model.get("name");
  button.addEventListener("click", () => save(model, input.value));
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    event.stopPropagation();
    save(model, input.value);
  });
  const remembered = sessionName();
  if (remembered && !model.get("name")) {
    input.value = remembered;
    save(model, remembered, true);
  }
  return () => model.off("change:status", show);
}

export default { render };
