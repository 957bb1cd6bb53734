"""The answer key's record of one exercise: read from the exercise, or from its saved state.

:func:`read_exercise` reads an exercise a notebook made (its prompt, answer, worked
solution, each misconception with the feedback answering it gets, what it was built
from); :func:`saved_exercises` reads the same record from a committed notebook's saved
exercise states, with no notebook code run. The answer is the exercise's own, and each
is judged by the exercise's own ``check`` (``self_check``). Used by
``tools/answer_key.py`` and, in its worker processes, by ``tools/answer_key_harvest.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _verdict_text(status: str, message: str, mistakes: list[str], convention: bool) -> dict:
    from mapteach.exercises.widgets import feedback_html

    return {
        "status": status,
        "message": message,
        "html": feedback_html(message),
        "misconception": mistakes[0] if mistakes else None,
        "mistakes": list(mistakes),
        "convention": convention,
    }


def _text(feedback: Any) -> dict[str, Any]:
    return _verdict_text(
        feedback.status, feedback.message, list(feedback.mistakes), feedback.convention
    )


def _number(exercise: Any) -> dict[str, Any]:
    def shown(value: float) -> str:
        return f"{value:.{exercise.decimals}f}"

    answer = shown(exercise.truth)
    return {
        "answer": answer,
        "self_check": _text(exercise.check(answer)),
        "unreadable": _text(exercise.check("abc")),
        "misconceptions": [
            {
                "name": wrong.name,
                "value": shown(wrong.value),
                "explanation": wrong.explanation,
                "convention": wrong.convention,
                "feedback": _text(exercise.check(shown(wrong.value))),
            }
            for wrong in exercise.misconceptions
        ],
    }


def _choice(exercise: Any) -> dict[str, Any]:
    verdicts = {option: _text(exercise.check(option)) for option in exercise.options}
    return _choice_key(exercise.correct, exercise.options, verdicts)


def _choice_key(correct: str, options: list[str], verdicts: dict[str, dict]) -> dict[str, Any]:
    """A choice's key: its options, each with the verdict (and reply) choosing it gets."""
    return {
        "answer": correct,
        "self_check": verdicts[correct],
        "options": [
            {
                "option": option,
                "reply": verdicts[option]["message"],
                "html": verdicts[option]["html"],
                "correct": option == correct,
            }
            for option in options
        ],
        "misconceptions": [
            {
                "name": option,
                "value": option,
                "explanation": verdicts[option]["message"],
                "convention": False,
                "feedback": verdicts[option],
            }
            for option in options
            if option != correct
        ],
    }


def _arrange(exercise: Any) -> dict[str, Any]:
    solved = exercise.solve()
    return {
        "answer": str(solved),
        "targets": exercise.targets,
        "readout": exercise.readout,
        "self_check": _text(exercise.check(solved)) if solved else None,
        "misconceptions": [],
    }


def read_exercise(exercise: Any) -> dict[str, Any]:
    """One exercise read back: prompt, answer, solution, mistakes and their feedback."""
    from mapteach.exercises import ArrangeExercise, ChoiceExercise, NumberExercise

    item = {
        "key": exercise.key,
        "kind": exercise.kind,
        "prompt": exercise.prompt,
        "solution": exercise.solution,
        "lang": exercise.lang,
        "measure": exercise.measure,
        "data": exercise.data,
        "mistake_kind": exercise.mistake_kind,
    }
    readers = ((NumberExercise, _number), (ChoiceExercise, _choice), (ArrangeExercise, _arrange))
    item.update(next(read for cls, read in readers if isinstance(exercise, cls))(exercise))
    return item


# --- the key from the committed notebooks' saved exercise states -------------------------


def _saved_number(model: dict[str, Any], lang: str) -> dict[str, Any]:
    """A number exercise rebuilt from its answer table, judged by its own ``check``."""
    from mapteach.exercises import NumberExercise

    table = model["answer_table"]
    mistakes = [
        (m["key"], m["value"], m["explanation"]["text"], (m["convention"] or {}).get("text"))
        for m in table["mistakes"]
    ]
    exercise = NumberExercise(
        model["prompt"],
        table["truth"],
        mistakes,
        model["solution"],
        decimals=table["decimals"],
        hint=table["hint"]["text"],
        lang=lang,
        key=model["exercise_key"],
        measure=table["measure"],
    )
    return _number(exercise)


def _saved_choice(model: dict[str, Any], lang: str) -> dict[str, Any]:
    table = model["answer_table"]
    verdicts = {option: _saved_verdict(v) for option, v in table["verdicts"].items()}
    return _choice_key(table["correct"], table["options"], verdicts)


def _saved_verdict(verdict: dict[str, Any]) -> dict[str, Any]:
    """A verdict the answer table saved, as the key shows a check's feedback."""
    return _verdict_text(verdict["status"], verdict["message"]["text"], verdict["mistakes"], False)


def _saved_arrange(model: dict[str, Any], lang: str) -> dict[str, Any]:
    """The first solving arrangement in the exercise's own order (``solve``'s).

    The exercise tries the relevant results' positions in lexicographic order, which is
    the descending order of the 0/1 arrangement keys.
    """
    arrangements = model["answer_table"]["arrangements"]
    solving = [
        key
        for key in sorted(arrangements, reverse=True)
        if arrangements[key]["status"] == "correct"
    ]
    if not solving:
        return {"answer": "None", "self_check": None, "misconceptions": []}
    return {
        "answer": str([int(label) for label in solving[0]]),
        "self_check": _saved_verdict(arrangements[solving[0]]),
        "misconceptions": [],
    }


def saved_exercises(path: Path) -> list[dict[str, Any]]:
    """The exercises of ``path`` read from its saved outputs, with no notebook code run.

    Each exercise's fallback saved its state (``mapteach.exercises.exercise_index``):
    a number exercise is rebuilt from its answer table and judged by its own ``check``;
    a choice's and an arrangement's verdicts are the ones the table saved. What the
    exercise was built from is only its ``measure`` (the data is not saved).
    """
    from mapteach.exercises.notebook_index import exercise_states

    readers = {"number": _saved_number, "choice": _saved_choice, "arrange": _saved_arrange}
    found = []
    for page_lang, model in exercise_states(path):
        lang = "zh" if page_lang.startswith("zh") else "en"
        item = {
            "key": model["exercise_key"],
            "kind": model["kind"],
            "prompt": model["prompt"],
            "solution": model["solution"],
            "lang": lang,
            "measure": model["answer_table"].get("measure"),
            "data": None,
            "mistake_kind": None,
        }
        item.update(readers[model["kind"]](model, lang))
        found.append(item)
    return found
