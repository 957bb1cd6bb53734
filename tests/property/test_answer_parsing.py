"""Properties of reading answers: the truth is right however it is typed; junk is unreadable.

The typed forms are built here from the truth with plain string formatting, never with
the code under test: a decimal rounded to the asked precision, the exact fraction,
the same decimal in full-width characters, with a decimal comma, and as a percentage.
"""

from __future__ import annotations

import unicodedata
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from mapteach.exercises.answers import check_number, parse_answer
from tests.budget import examples

#: ASCII to full width, as a Chinese input method types digits and signs.
FULL_WIDTH = str.maketrans("0123456789.,/%-=", "０１２３４５６７８９．，／％－＝")

TRUTHS = st.builds(
    Fraction,
    st.integers(min_value=-60, max_value=60),
    st.integers(min_value=1, max_value=60),
).filter(lambda truth: -1 <= truth <= 1)
DECIMALS = st.integers(min_value=1, max_value=6)


def _decimal(truth: Fraction, decimals: int) -> str:
    return f"{float(truth):.{decimals}f}"


def _percentage(truth: Fraction, decimals: int) -> str:
    # a percentage has 2 decimals more than the fraction's: 58% is 0.58
    return f"{float(truth) * 100:.{max(decimals - 2, 0)}f}%"


@settings(max_examples=examples(200), deadline=None)
@given(TRUTHS, DECIMALS, st.sampled_from(["", " ", "\u3000", "="]))
def test_the_truth_typed_in_any_form_is_correct(truth, decimals, around):
    decimal = _decimal(truth, decimals)
    fraction = f"{truth.numerator}/{truth.denominator}"
    forms = {
        "decimal": decimal,
        "fraction": fraction,
        "spaced fraction": fraction.replace("/", " / "),
        "full-width decimal": decimal.translate(FULL_WIDTH),
        "full-width fraction": fraction.translate(FULL_WIDTH),
        "percentage": _percentage(truth, decimals),
        "full-width percentage": _percentage(truth, decimals).translate(FULL_WIDTH),
        "labelled": f"AP = {decimal}",
        "every digit of the float": repr(float(truth)),
    }
    for name, typed in forms.items():
        feedback = check_number(f"{around}{typed}{around}", float(truth), decimals=decimals)
        assert feedback.correct, (name, typed, feedback)


@settings(max_examples=examples(200), deadline=None)
@given(TRUTHS, DECIMALS, st.booleans())
def test_a_comma_decimal_is_correct_unless_it_could_be_thousands(truth, decimals, full_width):
    whole, tail = _decimal(truth, decimals).split(".")
    typed = f"{whole},{tail}"
    typed = typed.translate(FULL_WIDTH) if full_width else typed
    feedback = check_number(typed, float(truth), decimals=decimals)
    if len(tail) == 3 and whole.lstrip("-") != "0":  # 1,000: 1.000 or 1000?
        assert feedback.status == "unreadable"
        assert f"{whole}{tail}" in feedback.message
    else:
        assert feedback.correct, (typed, feedback)


@settings(max_examples=examples(200), deadline=None)
@given(TRUTHS, st.integers(min_value=3, max_value=6))
def test_a_whole_percentage_is_right_so_far_where_more_decimals_are_asked(truth, decimals):
    typed = f"{float(truth) * 100:.0f}%"  # the truth to 2 decimals of the fraction
    feedback = check_number(typed, float(truth), decimals=decimals)
    exact = abs(round(float(truth), 2) - float(truth)) <= 0.5 * 10.0**-decimals
    assert feedback.status == ("correct" if exact else "incomplete"), (typed, feedback)


#: Text with no digit in it, even once normalised (NFKC turns "½" and "①" into digits).
JUNK = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20).filter(
    lambda text: not any(char.isdigit() for char in unicodedata.normalize("NFKC", text))
)


@settings(max_examples=examples(300), deadline=None)
@given(JUNK, TRUTHS)
def test_junk_is_unreadable_never_incorrect(junk, truth):
    feedback = check_number(junk, float(truth), misconceptions=[("slip", float(truth) / 2, "")])
    assert feedback.status == ("empty" if not junk.strip() else "unreadable"), junk
    assert feedback.mistakes == ()


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=20), TRUTHS)
def test_any_text_gets_a_verdict_and_unreadable_means_it_could_not_be_read(text, truth):
    feedback = check_number(text, float(truth))
    try:
        parse_answer(text)
    except ValueError as error:
        readable, message = False, str(error)
    else:
        readable, message = True, ""
    if feedback.status == "unreadable":
        assert not readable and feedback.message == message
    elif feedback.status != "empty":
        assert readable
