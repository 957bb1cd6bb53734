"""A font for the Chinese plots: Noto Sans CJK SC, shipped by the ``mplfonts`` package.

matplotlib's default font (DejaVu Sans) has no Chinese glyphs, so a Chinese title
would draw as empty boxes. :func:`use_cjk_font` registers mplfonts' copy of Noto
Sans CJK SC with matplotlib once and appends it to ``rcParams["font.family"]``:
matplotlib then draws each character in the first family of that list that has
it, so Latin letters, digits and formulas keep the default font and Chinese
characters fall back to Noto. English figures look exactly as before.

Only the font file is taken from mplfonts; its own set-up functions, which
rewrite matplotlib's configuration, are never called.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

import matplotlib
from matplotlib import font_manager

__all__ = ["CJK_FONT", "CJK_FONT_FILE", "cjk_font_path", "use_cjk_font", "use_font_for"]

#: The family name matplotlib knows the Chinese font by.
CJK_FONT = "Noto Sans CJK SC"
#: The file, inside the ``mplfonts`` package's ``fonts`` folder.
CJK_FONT_FILE = "NotoSansCJKsc-Regular.otf"

_registered: list[Path] = []


def cjk_font_path() -> Path:
    """Where mplfonts keeps the Chinese font file."""
    return Path(str(importlib.resources.files("mplfonts") / "fonts" / CJK_FONT_FILE))


def use_cjk_font() -> str:
    """Let matplotlib draw Chinese: register the font once, add it to the fallback list.

    Cheap after the first call; call it before drawing any figure with Chinese text.

    Returns
    -------
    str
        The font's family name, :data:`CJK_FONT`.

    Examples
    --------
    >>> import matplotlib
    >>> from mapteach.fonts import CJK_FONT, use_cjk_font
    >>> use_cjk_font() == CJK_FONT and matplotlib.rcParams["font.family"][-1] == CJK_FONT
    True
    """
    if not _registered:
        path = cjk_font_path()
        font_manager.fontManager.addfont(str(path))
        _registered.append(path)
    families = list(matplotlib.rcParams["font.family"])
    if CJK_FONT not in families:
        matplotlib.rcParams["font.family"] = [*families, CJK_FONT]
    return CJK_FONT


def use_font_for(lang: str) -> None:
    """Make sure matplotlib can draw ``lang``'s script (only Chinese needs a font of its own)."""
    if lang == "zh":
        use_cjk_font()
