"""Reading an answer however it is typed, and naming exactly the mistakes it matches."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from mapteach.exercises.answers import (
    STATUSES,
    Feedback,
    WrongAnswer,
    check_number,
    parse_answer,
    states_precision,
)
from mapteach.i18n import language

# ---------------------------------------------------------------- reading

#: (typed, the number meant, its decimals: None for an exact form)
READABLE = [
    ("0.5", Fraction(1, 2), 1),
    ("0.2815", Fraction(2815, 10000), 4),
    ("０．５０００", Fraction(1, 2), 4),  # full-width digits and full stop
    ("０.２８", Fraction(28, 100), 2),
    ("0,5", Fraction(1, 2), 1),
    ("0,2815", Fraction(2815, 10000), 4),
    ("０，５", Fraction(1, 2), 1),  # full-width comma
    ("0,282", Fraction(282, 1000), 3),  # no thousands group follows a lone 0
    ("1,5", Fraction(3, 2), 1),  # a thousands group has 3 digits
    ("-0,25", Fraction(-1, 4), 2),
    ("2/3", Fraction(2, 3), None),
    ("２／３", Fraction(2, 3), None),
    ("2 / 3", Fraction(2, 3), None),
    ("2÷3", Fraction(2, 3), None),
    ("3分之2", Fraction(2, 3), None),  # Chinese: "of 3 parts, 2"
    ("½", Fraction(1, 2), None),
    ("-1/3", Fraction(-1, 3), None),
    ("50%", Fraction(1, 2), 2),  # a whole percentage has the fraction's 2 decimals
    ("５０％", Fraction(1, 2), 2),
    ("28.15 %", Fraction(2815, 10000), 4),
    ("28,15%", Fraction(2815, 10000), 4),
    ("百分之50", Fraction(1, 2), 2),
    ("百分之28.15", Fraction(2815, 10000), 4),
    ("−0.2", Fraction(-1, 5), 1),  # unicode minus
    ("－０．２", Fraction(-1, 5), 1),  # full-width hyphen-minus
    ("  0.5 ", Fraction(1, 2), 1),
    ("\u30000.5\u3000", Fraction(1, 2), 1),  # ideographic spaces
    ("=0.5", Fraction(1, 2), 1),
    ("＝0.5", Fraction(1, 2), 1),
    ("0.5=", Fraction(1, 2), 1),
    ("0.5。", Fraction(1, 2), 1),  # a Chinese full stop ends the sentence
    ("0。5", Fraction(1, 2), 1),  # and stands for the point between digits
    ("AP = 0.3250", Fraction(325, 1000), 4),
    ("P@3=2/3", Fraction(2, 3), None),
    ("AP = (1/4 + 2/5) / 2 = 0.3250", Fraction(325, 1000), 4),  # the working, then the result
    ("≈ 0.3333", Fraction(3333, 10000), 4),
    ("2.815e-1", Fraction(2815, 10000), 4),
    (".5", Fraction(1, 2), 1),
    ("0.58333333333333337", Fraction(58333333333333337, 10**17), 17),  # a float's repr
    ("0." + "3" * 150, Fraction(int("3" * 150), 10**150), 150),
    ("1", Fraction(1), None),
    (1, Fraction(1), None),
    (0.479, Fraction(479, 1000), 3),
    (Fraction(2, 3), Fraction(2, 3), None),
]


@pytest.mark.parametrize(("typed", "meant", "decimals"), READABLE, ids=repr)
def test_every_way_a_number_is_typed_is_read(typed, meant, decimals):
    assert parse_answer(typed) == (float(meant), decimals)


#: (typed, what the English message says about it)
UNREADABLE = [
    ("abc", 'Could not read "abc" as a number; type a decimal such as 0.5'),
    ("0 5", 'Could not read "0 5" as a number'),  # two numbers, not 5
    ("nan", 'Could not read "nan"'),
    ("inf", 'Could not read "inf"'),
    ("1e999999999", 'Could not read "1e999999999"'),
    (float("nan"), 'Could not read "nan"'),
    (True, 'Could not read "True"'),
    ("=", 'Could not read "="'),
    ("1/2/3", 'Could not read "1/2/3"'),
    ("50%%", 'Could not read "50%%"'),
    ("1,2,3", 'Could not read "1,2,3"'),
    ("1,000", '"1,000" could be 1.000 or 1000: a comma marks decimals'),
    ("1,234", '"1,234" could be 1.234 or 1234'),
    ("１，２３４", '"１，２３４" could be 1.234 or 1234'),
    ("1.000,5", '"1.000,5" has both a comma and a point'),
    ("0,5.", '"0,5." has both a comma and a point'),
    ("1/0", '"1/0" divides by 0; type a fraction such as 1/2'),
    ("x" * 80, 'Could not read "' + "x" * 39 + '…" as a number'),
    (
        "三分之二",
        'Could not read "三分之二" as a number: type its numbers in digits, such as 3分之2',
    ),
    ("0." + "5" * 250, '"0.' + "5" * 37 + '…" is too long to be a number: 252 characters'),
    ("9" * 150 + "e200", 'Could not read "' + "9" * 39 + '…" as a number'),  # beyond floats
]


@pytest.mark.parametrize(("typed", "says"), UNREADABLE, ids=repr)
def test_what_cannot_be_read_is_unreadable_with_an_example_in_both_languages(typed, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        parse_answer(typed)
    feedback = check_number(typed, 0.5, misconceptions=[("slip", 0.5, "")])
    assert (feedback.status, feedback.mistakes) == ("unreadable", ())
    assert feedback.message.startswith(says)
    assert "such as" in feedback.message
    with language("zh"):
        chinese = check_number(typed, 0.5)
    assert chinese.status == "unreadable"
    assert re.search(r"[\u4e00-\u9fff]", chinese.message.replace(str(typed), "")), chinese.message
    assert "如" in chinese.message and chinese.message != feedback.message
    assert '"' not in chinese.message.replace(str(typed), "")  # Chinese quotes: “…”


def test_the_statuses():
    assert STATUSES == ("correct", "incorrect", "incomplete", "empty", "unreadable")
    for status in STATUSES:
        html = Feedback(status, "text")._repr_html_()
        assert f'data-status="{status}" style="color:#' in html
    assert check_number("\u3000", 0.5).status == "empty"


# ---------------------------------------------------------------- the rule, in every form


@pytest.mark.parametrize(
    "typed",
    ["0.2815", "０．２８１５", "0,2815", "28.15%", "２８．１５％", "AP = 0.2815", "0.28155"],
)
def test_the_truth_in_any_form_is_correct(typed):
    assert check_number(typed, 0.2815476).correct


def test_the_precision_asked_counts_in_every_form():
    assert check_number("０．２８", 0.2815476).status == "incomplete"
    assert check_number("0,3", 0.2815476).status == "incomplete"
    assert check_number("2/3", 0.6667).status == "incorrect"  # exact forms are exact
    assert check_number("２／３", 2 / 3).correct
    one = check_number("0.3", 0.2815476, decimals=2)
    assert (one.status, one.message) == ("incomplete", "Right so far: give 2 decimals.")


# ---------------------------------------------------------------- naming mistakes

HALVED = WrongAnswer("halved", 0.25, "You halved it.")


def test_a_mistake_is_named_only_when_the_answer_matches_its_value():
    wrongs = [HALVED, WrongAnswer("doubled", 1.0, "You doubled it.")]
    for typed, named in [
        ("0.2500", ("halved",)),
        ("０，２５", ("halved",)),
        ("25%", ("halved",)),
        ("1/4", ("halved",)),
        ("1", ("doubled",)),
        ("0.2501", ()),  # one unit off at the asked precision
        ("0.2499", ()),
        ("0.3", ()),  # under-precise: rounds towards 0.25 but does not match it
        ("26%", ()),
        ("1/3", ()),
        ("2", ()),
    ]:
        feedback = check_number(typed, 0.5, misconceptions=wrongs)
        assert feedback.mistakes == named, typed
        assert feedback.misconception == (named[0] if named else None)
        assert feedback.status == "incorrect"


def test_two_mistakes_of_the_same_value_are_both_named_once_each_in_order():
    wrongs = [
        WrongAnswer("divided by the list's length", 0.1, "You divided by 10."),
        WrongAnswer("halved", 0.25, "You halved it."),
        WrongAnswer("mean of P@i over every rank", 0.1, "You averaged every rank."),
        WrongAnswer("divided by the list's length", 0.1, "Said twice."),
        ("mean of P@i over every rank", 0.1, "A tuple, said twice."),
    ]
    feedback = check_number("0.1000", 0.5, misconceptions=wrongs)
    assert feedback.mistakes == ("divided by the list's length", "mean of P@i over every rank")
    assert feedback.misconception == "divided by the list's length"
    assert not feedback.convention
    assert feedback.message == (
        "Not quite: 0.1000 is what you get from one of these mistakes: (1) divided by the "
        "list's length, or (2) mean of P@i over every rank. (1) You divided by 10. (2) You "
        "averaged every rank."
    )
    assert "twice" not in feedback.message


def test_several_of_one_value_name_all_explain_the_two_likeliest_closest_first():
    wrongs = [
        WrongAnswer("a", 0.10004, "A."),
        WrongAnswer("b", 0.1, "B."),
        WrongAnswer("c", 0.10001, "C."),
    ]
    feedback = check_number("0.1000", 0.5, misconceptions=wrongs)
    assert feedback.mistakes == ("b", "c", "a")  # by distance to 0.1000, then as given
    assert feedback.message == (
        "Not quite: 0.1000 is what you get from one of these mistakes: (1) b, (2) c, or "
        "(3) a. (1) B. (2) C."
    )


def test_an_under_precise_answer_names_the_mistake_it_rounds_to_and_asks_for_the_decimals():
    slip = [("final hit count in every numerator", 0.47897, "Count the hits so far.")]
    # (typed, named, asked for 4 decimals): 0.479 is 0.4790, the slip at the asked precision
    cases = [("0.48", 1, 1), ("48%", 1, 1), ("0.479", 1, 0), ("0.5", 0, 0), ("0.47", 0, 0)]
    for typed, named, asked in cases:
        feedback = check_number(typed, 0.2815476, misconceptions=slip)
        assert feedback.status == "incorrect"
        assert len(feedback.mistakes) == named, typed
        assert ("give 4 decimals" in feedback.message) == bool(asked), typed
    assert check_number("0.28", 0.2815476, misconceptions=slip).status == "incomplete"
    close = [("slip", 0.2849, "")]  # both round to 0.28: right so far wins
    assert check_number("0.28", 0.2815476, misconceptions=close).status == "incomplete"


def test_a_whole_percentage_has_two_decimals():
    assert check_number("58%", 7 / 12).status == "incomplete"
    assert check_number("50%", 0.5).correct
    assert check_number("58.33%", 7 / 12).correct


def test_the_truth_cut_off_is_named_and_told_to_round():
    for typed, asked in [("0.6666", False), ("0.66", True), ("66%", True)]:
        feedback = check_number(typed, 2 / 3)
        assert feedback.mistakes == ("truncated instead of rounded",), typed
        assert "Round it instead" in feedback.message
        assert ("Give 4 decimals" in feedback.message) == asked, typed
    assert check_number("0.6", 2 / 3).mistakes == ()  # 1 decimal: a guess, not a cut
    assert check_number("0.2800", 0.2815476).mistakes == ()  # not the truth's digits
    assert check_number("0.29", 0.29).correct  # 0.29 x 100 is 28.999999999999996


@pytest.mark.parametrize("lang, fraction", [("en", "a fraction"), ("zh", "分数")])
def test_decimals_only_messages_never_offer_a_fraction(lang, fraction):
    typed = {"empty": "", "give": "0.66", "not quite": "0.0123", "outside": "7"}
    for offered in (True, False):
        with language(lang):
            said = {
                case: check_number(answer, 2 / 3, measure="AP", fraction=offered).message
                for case, answer in typed.items()
            }
        for case, message in said.items():
            assert (fraction in message) == offered, (lang, case, message)


def test_a_measure_is_said_to_lie_between_0_and_1():
    for typed in ("-0.5833", "1,5", "150%"):
        feedback = check_number(typed, 7 / 12, measure="AP@3")
        assert feedback.status == "incorrect"
        assert "AP@3 lies between 0 and 1" in feedback.message, typed
    assert "lies between" not in check_number("1,5", 7 / 12).message  # not a measure
    assert "lies between" not in check_number("0.9", 7 / 12, measure="AP@3").message


APK = WrongAnswer(
    "divided by min(k, R), as Kaggle's apk",
    2 / 3,
    "That is AP@3 as Kaggle's apk computes it; this exercise asks for trec_eval's ÷ R.",
    convention="Kaggle's apk (ml_metrics), ÷ min(k, R)",
)


def test_a_convention_is_said_to_be_one_with_who_computes_it_not_a_slip():
    feedback = check_number("0.6667", 0.4, misconceptions=[APK])
    assert (feedback.status, feedback.convention) == ("incorrect", True)
    assert feedback.mistakes == (APK.name,)
    assert feedback.message == (
        "0.6667 is another convention, not a slip: Kaggle's apk (ml_metrics), ÷ min(k, R). "
        + APK.explanation
    )
    assert "mistake" not in feedback.message and "Not quite" not in feedback.message
    other = APK._replace(name="divided by the hits in the top k", convention="torchmetrics")
    two = check_number("2/3", 0.4, misconceptions=[APK, other])
    assert two.convention and two.mistakes == (APK.name, other.name)
    assert two.message.startswith(
        "2/3 is what other conventions give, not a slip: (1) Kaggle's apk (ml_metrics), "
        "÷ min(k, R), or (2) torchmetrics."
    )


def test_a_value_both_a_slip_and_a_convention_names_both():
    slip = WrongAnswer("divided by k", 2 / 3, "You divided by k = 3.")
    feedback = check_number("0.6667", 0.4, misconceptions=[APK, slip])
    assert not feedback.convention
    assert feedback.mistakes == (APK.name, slip.name)  # in the order given
    assert feedback.message == (
        "Not quite: 0.6667 is what you get from one of these: (1) Kaggle's apk (ml_metrics), "
        "÷ min(k, R) (another convention, not a slip), or (2) divided by k. "
        f"(1) {APK.explanation} (2) You divided by k = 3."
    )


def test_explanations_arrive_translated_and_names_are_translated_here():
    # "relevant" is in the catalogue: as a name it is translated, as an explanation it is not
    with language("zh"):
        feedback = check_number("0.25", 0.5, misconceptions=[("relevant", 0.25, "relevant")])
    assert feedback.misconception == "relevant"
    assert "相关" in feedback.message
    assert feedback.message.endswith("relevant")
    assert "Not quite" not in feedback.message


def test_an_answer_within_the_precision_of_the_truth_names_nothing():
    feedback = check_number("0", 0.03, decimals=1, misconceptions=[("zero", 0.0, "No.")])
    assert feedback.mistakes == ()


# ---------------------------------------------------------------- the verdict's own checks


def test_feedback_keeps_its_mistakes_consistent():
    assert Feedback("incorrect", "No.", "b") == Feedback("incorrect", "No.", mistakes=("b",))
    assert Feedback("incorrect", "No.", mistakes=["a", "b"]).misconception == "a"
    for kwargs in (
        {"mistakes": ("a", "a")},
        {"misconception": "b", "mistakes": ("a", "b")},
    ):
        with pytest.raises(ValueError, match="named once each"):
            Feedback("incorrect", "No.", **kwargs)
    for status, kwargs in (
        ("correct", {"misconception": "a"}),
        ("unreadable", {"mistakes": ("a",)}),
        ("incorrect", {"convention": True}),
    ):
        with pytest.raises(ValueError, match="named only for an incorrect answer"):
            Feedback(status, "No.", **kwargs)
    with pytest.raises(ValueError, match="status must be one of"):
        Feedback("right", "no such status")  # type: ignore[arg-type]


# ---------------------------------------------------------------- the format said once


@pytest.mark.parametrize(
    ("prompt", "decimals", "lang", "states"),
    [
        ("What is AP? Give 4 decimals or a fraction.", 4, "en", True),
        ("What is nDCG@3? Give <b>4 decimals</b>.", 4, "en", True),
        ("What is AP? Give 14 decimals.", 4, "en", False),
        ("Give 1 decimal.", 1, "en", True),
        ("How many documents?", 0, "en", False),
        ("它的 AP 是多少？请给出 4 位小数或分数。", 4, "zh", True),
        ("请用 4 位小数或分数作答。", 4, "zh", True),
        ("它的 AP 是多少？请给出 3 位小数。", 4, "zh", False),
        ("要标注多少篇文档？", 0, "zh", False),
    ],
)
def test_a_prompt_states_the_precision_when_it_names_the_decimals(prompt, decimals, lang, states):
    with language(lang):
        assert states_precision(prompt, decimals) is states
