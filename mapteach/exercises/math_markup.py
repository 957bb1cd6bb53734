"""TeX formulas in an exercise's HTML, written as MathML that every browser draws itself.

An exercise's prompt, solution and feedback may hold TeX between dollar signs, as a
Markdown cell does: ``$\\frac{1}{2}$`` inline, ``$$...$$`` on a line of its own
(``explain_ap(...).markdown`` writes its formula so). Jupyter renders such Markdown,
but a widget's HTML, the static fallback and the answer key would show the TeX as
text. :func:`render_math` converts every formula to MathML (with ``latex2mathml``, as
the static site does), so the same markup shows in JupyterLab, Voilà, the static
site and the answer key, with no script to run and nothing fetched.

The rules, as Pandoc's for Markdown: ``$$...$$`` is a display formula; ``$...$`` is an
inline one when the opening ``$`` is followed by a non-space, the closing one preceded
by a non-space and not followed by a digit (so "costs $5 and $10" stays text); ``\\$``
is a dollar sign. Text inside ``<code>``, ``<pre>``, ``<kbd>``, ``<samp>``,
``<script>``, ``<style>``, ``<textarea>`` and ``<math>`` is left alone, and so is every
tag. A formula ``latex2mathml`` cannot convert (or converts only by keeping a TeX
command as text) is a :class:`MathMarkupError` naming it: exercises are written by
this package, so a formula that would reach a learner as TeX is a bug to fix.
"""

from __future__ import annotations

import html
import re
import warnings

from latex2mathml.converter import convert

from mapteach.i18n import tr

__all__ = ["MathMarkupError", "render_math", "tex_to_mathml"]

#: Elements whose content is never typeset, and any other tag (kept as it is).
_LEFT_ALONE = re.compile(
    r"<(code|pre|kbd|samp|script|style|textarea|math)\b[^>]*>.*?</\1\s*>|<[^>]*>",
    re.DOTALL | re.IGNORECASE,
)
#: A display formula (group 1) or an inline one (group 2), as in the module notes.
_FORMULA = re.compile(
    r"(?<!\\)\$\$(.+?)(?<!\\)\$\$"
    r"|(?<![\\$])\$(?=[^\s$])(.+?)(?<=[^\s\\])\$(?![\d$])",
    re.DOTALL,
)
#: A TeX command that latex2mathml kept as text: it did not know it.
_UNCONVERTED = re.compile(r">\\[A-Za-z]+<")


class MathMarkupError(ValueError):
    """A TeX formula that cannot be shown as MathML."""


def tex_to_mathml(tex: str, *, display: bool = False) -> str:
    """One TeX formula as a ``<math>`` element (``display="block"`` for a display formula).

    Raises
    ------
    MathMarkupError
        If ``latex2mathml`` cannot convert the formula, or keeps a command of it as text.

    Examples
    --------
    >>> from mapteach.exercises.math_markup import tex_to_mathml
    >>> tex_to_mathml(r"\\frac{1}{2}").count("<mfrac>")
    1
    >>> tex_to_mathml(r"x^")
    Traceback (most recent call last):
    ...
    mapteach.exercises.math_markup.MathMarkupError: Cannot show the formula 'x^' as MathML \
(MissingSuperScriptOrSubscriptError); write it in the TeX that latex2mathml converts.
    """
    source = tex.strip()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            markup = convert(source, display="block" if display else "inline")
    except Exception as error:  # latex2mathml raises its own errors, and others on odd input
        raise _cannot(source, type(error).__name__) from error
    unknown = _UNCONVERTED.search(markup)
    if unknown:
        raise _cannot(source, unknown[0][1:-1])
    return markup


def _cannot(source: str, why: str) -> MathMarkupError:
    return MathMarkupError(
        tr(
            "Cannot show the formula {formula!r} as MathML ({why}); write it in the TeX "
            "that latex2mathml converts.",
            formula=source,
            why=why,
        )
    )


def _typeset(text: str) -> str:
    """The formulas of one run of HTML text (no tags in it) as MathML."""

    def formula(match: re.Match[str]) -> str:
        display = match[1] is not None
        return tex_to_mathml(html.unescape(match[1] if display else match[2]), display=display)

    return _FORMULA.sub(formula, text).replace("\\$", "$")


def render_math(markup: str) -> str:
    """HTML with every ``$...$`` and ``$$...$$`` TeX formula written as MathML.

    Tags and the content of code, preformatted text and formulas already in MathML are
    left as they are; text without a formula comes back unchanged (see the module notes).

    Parameters
    ----------
    markup : str
        HTML, such as an exercise's solution.

    Returns
    -------
    str
        The same HTML, each formula replaced by a ``<math>`` element.

    Raises
    ------
    TypeError
        If ``markup`` is not a string.
    MathMarkupError
        If a formula cannot be converted; the message names it.

    Examples
    --------
    >>> from mapteach.exercises.math_markup import render_math
    >>> render_math(r"AP is $\\frac{1}{2}$.").startswith("AP is <math")
    True
    >>> 'display="block"' in render_math(r"$$\\mathrm{AP} = 0.5$$")
    True
    >>> render_math(r"<code>$x$</code> costs $5 and $10; \\$ is a dollar.")
    '<code>$x$</code> costs $5 and $10; $ is a dollar.'
    """
    if not isinstance(markup, str):
        raise TypeError(
            tr("render_math takes HTML as a string; got {type}.", type=type(markup).__name__)
        )
    if "$" not in markup:
        return markup
    pieces: list[str] = []
    last = 0
    for kept in _LEFT_ALONE.finditer(markup):
        pieces += [_typeset(markup[last : kept.start()]), kept[0]]
        last = kept.end()
    pieces.append(_typeset(markup[last:]))
    return "".join(pieces)
