// An arrangement exercise's order, as its answer table and `readouts` are keyed: the
// board's items (a RankingList model's `items`) as 0/1 labels, and those labels as one
// string ("0101"), mapteach.exercises.arrange_widget.arrangement_key; and the board's model
// itself. Pure, except `boardModel`, which asks the widget manager.

const REF = "IPY_MODEL_";

// The arrangement exercise's board (its `board` trait, a widget reference), as the widget
// manager gives it: a promise of its model.
export function boardModel(model) {
  return model.widget_manager.get_model(model.get("board").slice(REF.length));
}

// The 0/1 relevance of a board's items, in the order shown.
export function itemLabels(items) {
  return items.map((item) => (item.relevant ? 1 : 0));
}

// The key of an order's labels: "0101" for [0, 1, 0, 1].
export function arrangementKey(labels) {
  return labels.map((label) => (label ? 1 : 0)).join("");
}
