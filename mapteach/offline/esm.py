"""The widgets' ES modules as one module (anywidget's ``_esm``) or as a classic script.

A widget's browser code is split into small ES module files (``board_math.js``,
``board_plots.js``, ``ranking_list.js``), each importing what it uses from the others
with ``import { name } from "./file.js";``. anywidget loads one module from a string,
where a relative import cannot resolve, so :func:`bundle` joins the files in order
and drops those imports; and Chromium loads no ``<script type="module" src>`` from
``file://``, so :func:`as_classic` turns a bundle into a classic script that registers
its exports under ``window.mapteachModules[name]``, for a static page. Nothing is
imported from anywhere else: an import that does not name a sibling file is an error.
Standard library only.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["TEXT_JS", "EsmError", "as_classic", "bundle", "bundle_imports"]

#: The browser's shared text helpers (``el``, ``fill``, ``escapeHtml``, ``formatFixed``,
#: ``floatRepr``): every widget module imports them ``from "./text.js"``, so a bundle
#: starts with this file.
TEXT_JS = Path(__file__).resolve().parent / "static" / "text.js"

#: A whole import statement of a sibling file (``import { a, b } from "./x.js";``), with
#: the file's name (``x.js``) as group ``file``.
_SIBLING_IMPORT = re.compile(
    r"^import\s+\{[^}]*\}\s+from\s+[\"']\./(?P<file>[\w.-]+\.js)[\"'];?[ \t]*$\n?", re.MULTILINE
)
_ANY_IMPORT = re.compile(r"^\s*import[\s{*]", re.MULTILINE)
#: ``export [async] function[*] | const | let | class name``: group 1 the declaration's
#: start as it stays (``async`` kept), group 2 the name.
_NAMED_EXPORT = re.compile(
    r"^export\s+((?:async\s+)?function\s*\*\s*|(?:(?:async\s+)?function|const|let|class)\s+)"
    r"(\w+)",
    re.MULTILINE,
)
_DEFAULT_EXPORT = re.compile(r"^export\s+default\s+", re.MULTILINE)
_OTHER_EXPORT = re.compile(r"^\s*export\b", re.MULTILINE)


class EsmError(ValueError):
    """A browser module this package cannot bundle: what is wrong, and in which file."""


def _line(source: str, offset: int) -> int:
    return source.count("\n", 0, offset) + 1


def bundle(*paths: Path | str) -> str:
    """The ES module files ``paths`` joined in order as one module, sibling imports dropped.

    Each file may import names only from the files before it (``from "./name.js"``);
    only the last may have an ``export default``.

    Raises
    ------
    EsmError
        If a file imports from anywhere else, or a file before the last has an
        ``export default``.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from mapteach.offline import bundle
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.js").write_text("export function one() { return 1; }\\n")
    >>> _ = (folder / "b.js").write_text(
    ...     'import { one } from "./a.js";\\nexport default { two: () => one() + 1 };\\n')
    >>> print(bundle(folder / "a.js", folder / "b.js"))
    export function one() { return 1; }
    export default { two: () => one() + 1 };
    <BLANKLINE>
    """
    parts = []
    for index, path in enumerate(map(Path, paths)):
        source = _SIBLING_IMPORT.sub("", path.read_text(encoding="utf-8"))
        stray = _ANY_IMPORT.search(source)
        if stray:
            raise EsmError(
                f"{path.name}, line {_line(source, stray.start())}: only imports of sibling "
                'files ("./name.js") can be bundled; nothing is loaded from elsewhere.'
            )
        default = _DEFAULT_EXPORT.search(source)
        if default and index < len(paths) - 1:
            raise EsmError(
                f"{path.name}, line {_line(source, default.start())}: only the last file "
                "of a bundle may have an export default."
            )
        parts.append(source)
    return "".join(parts)


def _sibling(path: Path, name: str) -> Path:
    """The file ``./name`` that ``path`` imports: beside it, or one of the helpers every
    module shares (``mapteach/offline/static``, where ``text.js`` is)."""
    for folder in (path.parent, TEXT_JS.parent):
        if (folder / name).is_file():
            return folder / name
    raise EsmError(
        f"{path.name} imports ./{name}, which is neither beside it nor in {TEXT_JS.parent}."
    )


def _in_import_order(path: Path, seen: set[Path] | None = None) -> list[Path]:
    """``path`` after every sibling file it imports (and those, first), each once."""
    seen = set() if seen is None else seen
    seen.add(path)
    ordered: list[Path] = []
    for found in _SIBLING_IMPORT.finditer(path.read_text(encoding="utf-8")):
        sibling = _sibling(path, found["file"])
        if sibling not in seen:
            ordered += _in_import_order(sibling, seen)
    return [*ordered, path]


def bundle_imports(path: Path) -> str:
    """The ES module file ``path`` as one module with every file it imports.

    Each ``import { ... } from "./name.js"`` names a file beside ``path`` or a helper in
    ``mapteach/offline/static`` (``text.js``); the files it imports come first, each once,
    in the order :func:`bundle` needs.

    Raises
    ------
    EsmError
        If an imported file is in neither place, or cannot be bundled.

    Examples
    --------
    >>> from mapteach.offline import TEXT_JS, bundle_imports
    >>> source = bundle_imports(TEXT_JS.with_name("progress.js"))
    >>> source.index("export function escapeHtml") < source.index("export function makeProgress")
    True
    """
    return bundle(*_in_import_order(Path(path)))


def as_classic(source: str, name: str) -> str:
    """An ES module's source (as :func:`bundle` returns it) as a classic script.

    The script runs the module's code in its own function scope and sets
    ``window.mapteachModules[name]`` to its exports (``default`` included). A
    ``</script`` in the source is written ``<\\/script``, so the script can be inlined.

    Raises
    ------
    EsmError
        If the module has an export this conversion does not read (``export { a }``,
        ``export * from``) or an import, or holds ``<!--``, which would change how a
        page parses the inlined script (write ``"<" + "!--"``).

    Examples
    --------
    >>> from mapteach.offline import as_classic
    >>> print(as_classic("export const two = 2;\\nexport default { two };\\n", "demo"))
    (function () {
    "use strict";
    const exports = {};
    const two = 2;
    exports.default = { two };
    exports.two = two;
    (window.mapteachModules = window.mapteachModules || {})["demo"] = exports;
    })();
    <BLANKLINE>
    """
    if _ANY_IMPORT.search(source):
        raise EsmError(f"module {name!r}: bundle its imports before making it a classic script.")
    if "<!--" in source:
        raise EsmError(
            f"module {name!r}, line {_line(source, source.index('<!--'))}: '<!--' would change "
            'how a page parses the inlined script; write it as "<" + "!--".'
        )
    names = [match.group(2) for match in _NAMED_EXPORT.finditer(source)]
    body = _NAMED_EXPORT.sub(lambda match: match.group(1) + match.group(2), source)
    body = _DEFAULT_EXPORT.sub("exports.default = ", body)
    leftover = _OTHER_EXPORT.search(body)
    if leftover:
        raise EsmError(
            f"module {name!r}, line {_line(body, leftover.start())}: write each export as "
            "`export function|const|let|class name` or `export default`."
        )
    exported = "".join(f"exports.{export} = {export};\n" for export in names)
    registry = f'(window.mapteachModules = window.mapteachModules || {{}})["{name}"] = exports;\n'
    script = (
        f'(function () {{\n"use strict";\nconst exports = {{}};\n{body.rstrip()}\n'
        f"{exported}{registry}}})();\n"
    )
    return script.replace("</script", "<\\/script")
