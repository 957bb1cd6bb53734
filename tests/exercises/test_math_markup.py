"""TeX in an exercise's HTML becomes MathML: display and inline formulas, nothing in code,
text without a formula unchanged, and a formula that cannot be shown named in the error."""

from __future__ import annotations

import re

import pytest
from latex2mathml.converter import convert

from mapteach.exercises.math_markup import MathMarkupError, render_math, tex_to_mathml
from mapteach.i18n import language


def test_display_and_inline_formulas_become_mathml():
    html = r"<p>AP is $\frac{1}{2}$ here:</p>$$\mathrm{AP} = \frac{1}{R}$$ done."
    shown = render_math(html)
    assert shown == (
        "<p>AP is "
        + convert(r"\frac{1}{2}", display="inline")
        + " here:</p>"
        + convert(r"\mathrm{AP} = \frac{1}{R}", display="block")
        + " done."
    )
    assert "$" not in shown and "\\" not in shown


@pytest.mark.parametrize(
    "html",
    [
        "AP = 0.5000, no formula <b>here</b>.",
        "It costs $5 and $10.",  # dollars, not TeX: a space before the closing $
        "Prices: $5,$10 and up.",  # nor here: a digit after it
        "A lone $ sign, and $ spaced $ ones.",
        "<code>$x$</code> and <pre>$$y$$</pre> and <kbd>$z$</kbd>",
        '<a title="$x$">link</a>',  # inside a tag
        "",
    ],
)
def test_what_holds_no_formula_is_left_as_it_is(html):
    assert render_math(html) == html


def test_an_escaped_dollar_is_a_dollar_and_mathml_already_there_stays():
    assert render_math(r"\$5 for $x$").startswith("$5 for <math")
    done = render_math("$x$")
    assert render_math(done) == done
    assert render_math(f"{done} and <math><mi>$y$</mi></math>").endswith("<mi>$y$</mi></math>")


def test_entities_in_a_formula_are_read_as_the_characters_they_stand_for():
    assert render_math("$a &lt; b$") == convert("a < b", display="inline")


def test_a_formula_that_cannot_be_shown_is_named():
    with pytest.raises(MathMarkupError, match=re.escape("'x^'")):
        render_math("fine $x$, then $x^$")
    with pytest.raises(MathMarkupError, match=r"'\\\\notacommand x' as MathML \(\\notacommand\)"):
        tex_to_mathml(r"\notacommand x")  # latex2mathml would keep it as text
    with language("zh"), pytest.raises(MathMarkupError, match="MathML"):
        render_math("$x^$")
    with pytest.raises(TypeError, match="got bytes"):
        render_math(b"$x$")  # type: ignore[arg-type]
