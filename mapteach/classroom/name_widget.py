"""The "Your name" bar an app for a room shows at the top: the learner names themselves.

An anywidget (``static/name_widget.js``, bundled after the shared text helpers,
:data:`~mapteach.offline.TEXT_JS`): the browser writes ``name`` and counts
``save_request`` up on *Save name* or Enter; the kernel names the learner
(:func:`~mapteach.classroom.learner`), which records every check that was waiting for
the name (:mod:`~mapteach.classroom.progress_folder`), and says so in ``status``. The
browser keeps the name for its session, so the app asks it once per browser session.

A name whose file (:func:`~mapteach.classroom.progress_path_for`) already holds checks
this session did not make, typed rather than given again by the browser, is warned
about: two learners may have typed the same name. Waiting checks that cannot be saved
or recorded are said in ``status`` too (:func:`~mapteach.classroom.progress_folder.when_unsaved`).

Examples
--------
>>> from mapteach.classroom import LearnerName, forget_learner, learner
>>> bar = LearnerName(lang="en")
>>> bar.status
'Type your name and press Save name: your checks are recorded under it.'
>>> bar.name = " Ada "  # as typing does
>>> bar.save_request += 1  # as Save name or Enter does
>>> learner(), bar.status
('Ada', 'Your checks are recorded as Ada.')
>>> forget_learner()
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

from mapteach.classroom.identity import current_learner, learner
from mapteach.classroom.progress_folder import (
    folder_in_use,
    progress_path_for,
    waiting_checks,
    when_unsaved,
)
from mapteach.i18n import N_, check_language, get_language, joined_sentences, ngettext, tr
from mapteach.offline import TEXT_JS, bundle

__all__ = ["LearnerName", "name_bar"]

_STATIC = Path(__file__).resolve().parent / "static"

#: The learners' files this session's bars named: checks in them are this session's.
_named_here: set[Path] = set()

_ELSEWHERE = N_(
    "Checks made in another session are already recorded under this name. If they are "
    "not yours, type your full name and press Save name again."
)


def name_texts(lang: str) -> dict[str, str]:
    """The labels the bar shows itself, in ``lang``.

    >>> name_texts("en")["save"]
    'Save name'
    """
    return {
        "lang": lang,
        "region": tr("Your name", lang=lang),
        "label": tr("Your name:", lang=lang),
        "placeholder": tr("First and last name", lang=lang),
        "save": tr("Save name", lang=lang),
    }


class LearnerName(anywidget.AnyWidget):
    """A text box for the learner's name, Save name and a status line: who checks are for.

    Parameters
    ----------
    lang : {"en", "zh"}, optional
        The language the bar speaks (default: the current one).

    Examples
    --------
    >>> from mapteach.classroom import LearnerName, forget_learner
    >>> bar = LearnerName(lang="zh")
    >>> bar.name = "   "
    >>> bar.save_request += 1
    >>> bar.status
    '请先输入你的名字，再按“保存名字”。'
    >>> forget_learner()
    """

    _esm = bundle(TEXT_JS, _STATIC / "name_widget.js")

    #: What the learner typed (the browser writes it).
    name = traitlets.Unicode("").tag(sync=True)
    #: Counts the learner's Save (or Enter) up (the browser writes it).
    save_request = traitlets.Int(0).tag(sync=True)
    #: Whether the name saved is the browser session's, given again (the browser writes it).
    restored = traitlets.Bool(False).tag(sync=True)
    #: Whose the checks are, or what to do (the kernel writes it).
    status = traitlets.Unicode("").tag(sync=True)
    #: The labels the browser view shows itself, in ``lang``.
    texts = traitlets.Dict(traitlets.Unicode()).tag(sync=True)

    def __init__(self, *, lang: str | None = None, **kwargs: Any) -> None:
        self.lang = get_language() if lang is None else check_language(lang)
        named = current_learner()
        super().__init__(texts=name_texts(self.lang), name=named or "", **kwargs)
        self.status = self._named(named, 0) if named else self._ask()
        when_unsaved(self._unsaved)

    def _unsaved(self, count: int) -> None:
        self.status = self._unsaved_text(count)

    def _unsaved_text(self, count: int) -> str:
        return ngettext(
            "The check you made before your name could not be saved yet: it is kept while "
            "this page is open and tried again at your next check.",
            "The {n} checks you made before your name could not be saved yet: they are kept "
            "while this page is open and tried again at your next check.",
            count,
            lang=self.lang,
        )

    def _ask(self) -> str:
        return tr(
            "Type your name and press Save name: your checks are recorded under it.", lang=self.lang
        )

    def _named(self, name: str, waited: int) -> str:
        said = tr("Your checks are recorded as {name}.", lang=self.lang, name=name)
        if not waited:
            return said
        also = ngettext(
            "The check you made before is recorded under it too.",
            "The {n} checks you made before are recorded under it too.",
            waited,
            lang=self.lang,
        )
        return joined_sentences([said, also], lang=self.lang)

    @traitlets.observe("save_request")
    def _save(self, change: traitlets.Bunch) -> None:
        if not self.name.strip():
            self.status = tr("Type your name first, then press Save name.", lang=self.lang)
            return
        waited = len(waiting_checks())
        elsewhere = self._used_elsewhere(self.name) and not self.restored
        name = str(learner(self.name))
        left = len(waiting_checks())
        more = [self._unsaved_text(left)] if left else []
        if elsewhere:
            more.append(tr(_ELSEWHERE, lang=self.lang))
        self.status = joined_sentences([self._named(name, waited - left), *more], lang=self.lang)

    @staticmethod
    def _used_elsewhere(name: str) -> bool:
        """Whether ``name``'s file holds checks this session's bars did not name it for."""
        folder = folder_in_use()
        if folder is None:
            return False
        path = progress_path_for(folder, name)
        held = path.is_file() and path.stat().st_size > 0 and path not in _named_here
        _named_here.add(path)
        return held


def name_bar(*, lang: str | None = None) -> LearnerName | None:
    """The bar that asks the learner's name, where checks go to a progress folder.

    The app for a room (``MAPTEACH_PROGRESS_DIR`` set) shows it at the top; elsewhere
    (a learner's own notebook, the static site) it is None, and nothing is shown.

    Parameters
    ----------
    lang : {"en", "zh"}, optional
        As :class:`LearnerName`.

    Examples
    --------
    >>> import os
    >>> from mapteach.classroom import name_bar
    >>> (name_bar() is None) == ("MAPTEACH_PROGRESS_DIR" not in os.environ)
    True
    """
    return LearnerName(lang=lang) if folder_in_use() is not None else None
