// A self-check exercise: type a number, pick an option or arrange a list, then Check.
// The model's traits are the only state. The view writes `answer` (what the learner
// typed or picked) and counts `check_request` up on Check or Enter; the kernel judges
// the answer and writes `status`, `feedback` and `feedback_html` (the same text, escaped,
// its formulas as MathML: the one shown), and clears them when the answer changes. Keys
// the view handles stop here, so the notebook around it (where arrows move between cells
// and Enter edits one) does not act on them too. Every text the view shows itself comes
// from the `texts` trait, in the exercise's language.

import { arrangementKey, boardModel, itemLabels } from "./arrangement.js";
import { el } from "./text.js";

// Every widget loads this module on its own, so a counter of the module would start
// again at 1 in each: the page keeps one, and every id made here is unique on the page.
const ID_COUNTER = Symbol.for("mapteach.exercise.ids");

function uniqueId(prefix) {
  globalThis[ID_COUNTER] = (globalThis[ID_COUNTER] ?? 0) + 1;
  return `${prefix}-${globalThis[ID_COUNTER]}`;
}

// The text `key` in the exercise's language.
function say(model, key) {
  return model.get("texts")[key] ?? key;
}

function handled(event) {
  event.preventDefault();
  event.stopPropagation();
}

function setAnswer(model, value) {
  if (model.get("answer") === value) return;
  model.set("answer", value);
  model.save_changes();
}

function requestCheck(model) {
  model.set("check_request", model.get("check_request") + 1);
  model.save_changes();
}

// The number box: every keystroke saves the answer (so the kernel clears the old
// verdict at once); Enter asks for a check.
function numberControl(model) {
  const input = el("input", {
    type: "text",
    inputmode: "decimal",
    autocomplete: "off",
    spellcheck: "false",
    class: "mt-answer-input",
    "data-testid": "answer-input",
    "aria-label": say(model, "answer_aria"),
  });
  input.addEventListener("input", () => setAnswer(model, input.value));
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.shiftKey || event.ctrlKey || event.metaKey) return;
    handled(event);
    requestCheck(model);
  });
  const draw = () => {
    input.placeholder = model.get("placeholder");
    if (input.value !== model.get("answer")) input.value = model.get("answer");
  };
  return { node: input, handlers: [["change:answer change:placeholder", draw]] };
}

// One real radio per option, one per line. Arrow keys move focus and the choice
// round the group (as a radio group does); Space or Enter picks the focused option.
function choiceControl(model) {
  const name = uniqueId("mt-choice");
  const group = el("div", {
    class: "mt-options", role: "radiogroup", "aria-label": say(model, "options_aria"),
  });
  const radios = () => [...group.querySelectorAll("input[type=radio]")];

  function pick(radio) {
    radio.focus();
    radio.checked = true;
    setAnswer(model, radio.value);
  }

  function onKey(event) {
    const all = radios();
    const at = all.indexOf(event.target);
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
    if (step) {
      handled(event);
      pick(all[(at + step + all.length) % all.length]);
    } else if (event.key === "Home" || event.key === "End") {
      handled(event);
      pick(all[event.key === "Home" ? 0 : all.length - 1]);
    } else if (event.key === " " || event.key === "Enter") {
      handled(event);
      pick(event.target);
    }
  }

  function build() {
    const options = model.get("options").map((option) => {
      const label = el("label", { class: "mt-option", "data-testid": "choice-option" });
      const radio = el("input", { type: "radio", name, value: option });
      radio.addEventListener("change", () => { if (radio.checked) setAnswer(model, option); });
      radio.addEventListener("keydown", onKey);
      label.append(radio, el("span", { class: "mt-option-text" }, option));
      return label;
    });
    group.replaceChildren(...options);
  }

  const draw = () => {
    const labels = model.get("options");
    if (radios().map((radio) => radio.value).join("\u0000") !== labels.join("\u0000")) build();
    for (const radio of radios()) radio.checked = radio.value === model.get("answer");
  };
  return { node: group, handlers: [["change:answer change:options", draw]] };
}

// The arrangement: how to move, the board (a RankingList widget of its own, whose
// relevance is fixed), and the readout of every target measure on the order shown. The
// kernel wrote every order's readout once (`readouts`, by arrangementKey); the view shows
// the one of the board's order whenever the board moves, with no round trip. Reset asks
// the kernel for the starting order.
function arrangeControl(model) {
  const node = el("div", { class: "mt-arrange" });
  const help = el("p", {
    class: "mt-help", "data-testid": "arrange-help",
  }, say(model, "arrange_help"));
  const slot = el("div", { class: "mt-board" });
  const readout = el("div", {
    class: "mt-arrange-readout",
    "data-testid": "arrange-readout",
    role: "status",
    "aria-live": "polite",
    "aria-label": say(model, "arrange_readout_aria"),
  });
  node.append(help, slot, readout);
  const reset = el("button", {
    type: "button",
    class: "mt-button",
    "data-testid": "arrange-reset",
    title: say(model, "arrange_reset_title"),
  }, say(model, "arrange_reset"));
  reset.addEventListener("click", () => {
    model.set("reset_request", model.get("reset_request") + 1);
    model.save_changes();
  });
  const manager = model.widget_manager;
  let board = null;
  const draw = () => {
    const key = board && arrangementKey(itemLabels(board.get("items")));
    readout.textContent = (key && model.get("readouts")[key]) ?? "";
  };
  const shown = boardModel(model)
    .then((found) => {
      board = found;
      board.on("change:items", draw);
      draw();
      return manager.create_view(board);
    })
    .then((view) => {
      slot.append(view.el);
      return view;
    });
  return {
    node,
    actions: [reset],
    handlers: [["change:readouts", draw]],
    remove: () => {
      board?.off("change:items", draw);
      return shown.then((view) => view.remove());
    },
  };
}

const CONTROLS = { number: numberControl, choice: choiceControl, arrange: arrangeControl };

function buildView(model, control) {
  const root = el("div", {
    class: "mapteach-exercise",
    "data-testid": "exercise",
    "data-kind": model.get("kind"),
    "data-key": model.get("exercise_key"),
    lang: say(model, "lang"),
  });
  const prompt = el("div", { class: "mt-prompt" });
  const check = el("button", {
    type: "button",
    class: "mt-button mt-primary mapteach-check",
    "data-testid": "check-button",
  }, say(model, "check"));
  const solutionId = uniqueId("mt-solution");
  const toggle = el("button", {
    type: "button",
    class: "mt-button",
    "data-testid": "solution-toggle",
    "aria-controls": solutionId,
  });
  const feedback = el("div", {
    class: "mt-feedback",
    "data-testid": "feedback",
    role: "status",
    "aria-live": "polite",
  });
  const solution = el("div", { class: "mt-solution", id: solutionId, "data-testid": "solution" });
  const actions = el("div", { class: "mt-actions" });
  actions.append(check, ...(control.actions ?? []), toggle);
  const answer = el("div", { class: "mt-answer" });
  answer.append(control.node, actions);
  root.append(prompt, answer, feedback, solution);
  return { root, prompt, check, toggle, feedback, solution };
}

function render({ model, el: host }) {
  const control = CONTROLS[model.get("kind")](model);
  const view = buildView(model, control);
  host.append(view.root);

  view.check.addEventListener("click", () => requestCheck(model));
  view.toggle.addEventListener("click", () => {
    model.set("show_solution", !model.get("show_solution"));
    model.save_changes();
  });

  const drawPrompt = () => {
    const heading = el("b", {}, say(model, "exercise"));
    view.prompt.innerHTML = ` ${model.get("prompt")}`;
    view.prompt.prepend(heading);
  };
  const drawFeedback = () => {
    view.feedback.dataset.status = model.get("status");
    view.feedback.innerHTML = model.get("feedback_html");
  };
  const drawSolution = () => { view.solution.innerHTML = model.get("solution"); };
  const drawToggle = () => {
    const open = model.get("show_solution");
    view.solution.hidden = !open;
    view.toggle.textContent = say(model, open ? "hide_solution" : "show_solution");
    view.toggle.setAttribute("aria-expanded", String(open));
  };
  const handlers = [
    ["change:prompt", drawPrompt],
    ["change:status change:feedback_html", drawFeedback],
    ["change:solution", drawSolution],
    ["change:show_solution", drawToggle],
    ...control.handlers,
  ];
  for (const [events, handler] of handlers) {
    model.on(events, handler);
    handler();
  }
  return () => {
    for (const [events, handler] of handlers) model.off(events, handler);
    control.remove?.();
  };
}

export default { render };
