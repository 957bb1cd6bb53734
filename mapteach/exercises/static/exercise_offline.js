// What the kernel does for an exercise, on a page without one (the static site): the
// page's model shim calls standIn(model, names, context) after the view saves changes to
// the traits `names`, and this sets the traits the kernel would have set in reply, as
// mapteach.exercises.widgets.Exercise does: a new answer clears the verdict shown unless
// it is the answer just judged (_answer_changed); Check judges the answer with the
// checker and the exercise's answer table (the model's `answer_table`, written into the
// page's state by Exercise._repr_mimebundle_), shows the verdict and keeps the check in
// the learner's progress (_settle, through `context.record`); moving an arrangement's
// board clears its verdict, and Reset puts the board back in the starting order
// (ArrangeExercise's observer of its board, reset). The same exercise.js view runs on top,
// unchanged: it shows the arrangement's readout from the exercise's `readouts` itself.

import { boardModel, itemLabels } from "./arrangement.js";
import { checkArrange, checkChoice, checkNumber, joinSentences, shownLabels } from "./checker.js";

// The answer whose verdict is shown, by exercise (absent: no verdict).
const JUDGED = new WeakMap();
// An arrangement's board model, by exercise: the promise `attach` asked the page for, once.
const BOARDS = new WeakMap();

function clear(model) {
  JUDGED.delete(model);
  model.set({ status: "empty", feedback: "", feedback_html: "" });
}

// Called once when the page makes the model, before any view renders: an arrangement's
// board is looked up, for Check and Reset too, and a move of it clears the verdict.
export function attach(model) {
  if (model.get("answer_table")?.kind !== "arrange") return;
  const board = boardModel(model);
  BOARDS.set(model, board);
  board.then((found) => found.on("change:items", () => clear(model)));
}

// Exercise._settle: show the verdict, and record the check (as `shown`) unless it is not
// an attempt. A check the browser could not keep says so after the verdict.
function settle(model, context, verdict, shown) {
  const table = model.get("answer_table");
  JUDGED.set(model, model.get("answer"));
  let said = { text: verdict.message, html: verdict.html };
  if (table.key && !table.unrecorded.includes(verdict.status)) {
    const kept = context.record({
      notebook: table.key.notebook,
      exercise: table.key.exercise,
      answer: shown,
      verdict: verdict.status,
      // the first mistake named, as Feedback.misconception (none: no field)
      ...(verdict.mistakes?.length ? { mistake: verdict.mistakes[0] } : {}),
    });
    if (kept && !kept.saved && kept.message) {
      said = joinSentences(table.joiner, [said, kept.message]);
    }
  }
  model.set({ status: verdict.status, feedback: said.text, feedback_html: said.html });
}

function judge(model, context) {
  const table = model.get("answer_table");
  if (table.kind === "arrange") {
    BOARDS.get(model).then((board) => {
      const labels = itemLabels(board.get("items"));
      settle(model, context, checkArrange(table, labels), shownLabels(labels));
    });
    return;
  }
  const answer = model.get("answer");
  const check = table.kind === "number" ? checkNumber : checkChoice;
  settle(model, context, check(table, answer), String(answer));
}

// ArrangeExercise.reset: the board's items in the starting order; the board's own
// stand-in answers the change, as the kernel's board does.
function reset(model) {
  const start = model.get("answer_table").start.map((item) => ({ ...item }));
  BOARDS.get(model).then((board) => board.set("items", start));
}

// The kernel's reply to the view's change of the traits `names`.
export function standIn(model, names, context) {
  const changed = new Set(names);
  if (changed.has("answer") && model.get("answer") !== JUDGED.get(model)) clear(model);
  if (changed.has("check_request")) judge(model, context);
  if (changed.has("reset_request")) reset(model);
}
