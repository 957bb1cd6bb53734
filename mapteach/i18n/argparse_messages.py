"""argparse's own messages in the workbook's language: its usage line, headings and errors.

argparse takes its English from the standard library's ``gettext`` (bound at import as
its module's ``_`` and ``ngettext``, and looked up when it builds a parser, formats a
help and reports an error), whose default catalogue has no Chinese. :func:`argparse_language`
points those two names at the workbook's catalogue for one ``with`` block only, so a
command line built and parsed inside it speaks the workbook's language, and argparse
is itself again afterwards. The messages a learner can meet at the command line are
marked here, so the catalogue holds their Chinese (argparse fills them with
``%``-formatting, after translation, as it does with its own catalogue).

>>> import argparse
>>> with argparse_language("zh"):
...     parser = argparse.ArgumentParser(prog="mapteach")
...     heading = parser.format_help().splitlines()[0]
>>> heading
'用法：mapteach [-h]'
>>> argparse.ArgumentParser(prog="mapteach").format_usage()
'usage: mapteach [-h]\\n'
"""

from __future__ import annotations

import argparse
import contextlib
import re
from collections.abc import Iterator

from mapteach.i18n import N_, check_language, get_language, ngettext, plural_message, tr

__all__ = [
    "ARGPARSE_MESSAGES",
    "ARGPARSE_PLURALS",
    "HelpFormatter",
    "RawDescriptionHelpFormatter",
    "argparse_language",
]

#: What argparse shows a learner, in Python's own English: the help's usage line,
#: headings and ``-h`` entry, and the errors of a command line typed wrongly.
ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
)
#: argparse's plural messages: a count of values an option expects.
ARGPARSE_PLURALS = (plural_message("expected %s argument", "expected %s arguments"),)


#: A heading of a help: a line of its own, ending with argparse's ":" after a Chinese word.
_CHINESE_HEADING = re.compile(r"^(\S.*[^\x00-\x7f]):$", re.MULTILINE)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter, ending a Chinese heading with "：" (argparse writes ":").

    Examples
    --------
    >>> with argparse_language("zh"):
    ...     parser = argparse.ArgumentParser(prog="mapteach", formatter_class=HelpFormatter)
    ...     parser.format_help().splitlines()[2]
    '选项：'
    >>> argparse.ArgumentParser(prog="mapteach", formatter_class=HelpFormatter).format_help()
    'usage: mapteach [-h]\\n\\noptions:\\n  -h, --help  show this help message and exit\\n'
    """

    def format_help(self) -> str:
        """The help, its Chinese headings ending with a full-width colon."""
        return _CHINESE_HEADING.sub(r"\1：", super().format_help())


class RawDescriptionHelpFormatter(HelpFormatter, argparse.RawDescriptionHelpFormatter):
    """:class:`HelpFormatter` that keeps the description's and epilog's line breaks."""


@contextlib.contextmanager
def argparse_language(lang: str | None = None) -> Iterator[str]:
    """Let argparse speak ``lang`` (default: the current language) inside the block.

    Build the parser inside the block too: argparse translates its headings and the
    ``-h`` entry when it builds a parser, its usage line and errors when it shows them.

    Parameters
    ----------
    lang : {"en", "zh"}, optional
        The language; None speaks :func:`mapteach.i18n.get_language`'s.

    Yields
    ------
    str
        The language argparse speaks in the block.

    Raises
    ------
    ValueError
        If ``lang`` is not a language the workbook speaks.

    Examples
    --------
    >>> import argparse, contextlib, io
    >>> with argparse_language("zh"):
    ...     parser = argparse.ArgumentParser(prog="mapteach")
    ...     _ = parser.add_argument("run")
    ...     with contextlib.redirect_stderr(io.StringIO()) as stderr:
    ...         with contextlib.suppress(SystemExit):
    ...             parser.parse_args([])
    >>> stderr.getvalue().splitlines()[-1]
    'mapteach：错误：缺少以下必需参数：run'
    >>> with argparse_language("fr"):
    ...     pass
    Traceback (most recent call last):
    ...
    ValueError: lang must be one of 'en', 'zh'; got 'fr'
    """
    spoken = get_language() if lang is None else check_language(lang)

    def translate(message: str | None) -> str | None:
        return message if message is None else tr(message, lang=spoken)

    def translate_plural(singular: str, plural: str, n: int) -> str:
        return ngettext(singular, plural, n, lang=spoken)

    namespace = vars(argparse)
    saved = {name: namespace[name] for name in ("_", "ngettext")}
    namespace.update(_=translate, ngettext=translate_plural)
    try:
        yield spoken
    finally:
        namespace.update(saved)
