"""Set up mapteach's .venv and run the workbook, its tests or its tools, with or without make.

    python3 tools/setup.py lab        Linux and macOS, no make needed
    py -3 tools\\setup.py lab          Windows

Sub-commands (each ``make`` target of the same name calls this script):

    lab               open JupyterLab on notebooks/00_start_here.ipynb
    lab-zh            the same, on the Chinese edition (notebooks/zh/)
    app               the playground as a classroom app, no code shown (Voila)
    app-zh            the Chinese playground as an app
    test [PYTEST...]  lint (ruff, mypy), then every test (pytest, extra arguments passed on)
    test-fast [PYTEST...]
                      the quick tests, in a few minutes: unit, doctest and property (20
                      examples each); no lint, notebooks, browser, wheel, site or answer key
    lint              ruff and mypy only
    notebooks [NB..]  re-execute every notebook of both editions (or the ones named) in place
    site              build the static HTML site in build/site/ (tools/build_site.py)
    answer-key        the teacher's answer key (tools/answer_key.py; --learner, --lang, --out)
    reset-notebooks   restore notebooks/ to its committed version, after asking (--yes: don't)
    install           set up .venv only (--test: with the test extras)

Set-up, before the command: create ``.venv`` with ``venv`` and upgrade pip the first time;
install requirements.txt and mapteach (editable), plus requirements-test.txt for test,
test-fast, lint and site, only when those files changed since the last install (a stamp
file in .venv holds their SHA-256). ``--dry-run`` prints every command and runs none.

Standard library only, Python 3.10 or newer, Windows (``.venv\\Scripts\\python.exe``) and
POSIX (``.venv/bin/python``); no shell is involved.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path, PurePosixPath, PureWindowsPath

if sys.version_info < (3, 10):  # noqa: UP036 (the check that says so to an older Python)
    sys.exit(f"mapteach needs Python 3.10 or newer; this is {sys.version.split()[0]}.")

ROOT = Path(__file__).resolve().parent.parent
#: The files whose content decides whether each set of requirements is reinstalled.
LAB_FILES = ("requirements.txt", "pyproject.toml")
TEST_FILES = ("requirements.txt", "requirements-test.txt", "pyproject.toml")
LAB_PORT, APP_PORT = 8888, 8866
PLAYGROUND = "notebooks/06_playground.ipynb"
#: nbconvert's options for `notebooks`: no widget state stored, and any stored before dropped,
#: so nbconvert's HTML and readers without a kernel show each widget's static fallback.
NBEXEC = (
    "--ExecutePreprocessor.store_widget_state=False",
    "--ClearMetadataPreprocessor.enabled=True",
    "--ClearMetadataPreprocessor.clear_cell_metadata=False",
    "--ClearMetadataPreprocessor.preserve_nb_metadata_mask=kernelspec",
    "--ClearMetadataPreprocessor.preserve_nb_metadata_mask=language_info",
)
#: What test-fast runs: README.md, mapteach and tests, but not notebooks/ (so nbval finds no
#: notebook), tests/browser, tests/packaging, or the modules marked slow (site, answer key,
#: nbconvert); its hypothesis profile (tests/conftest.py) runs 20 examples a property.
FAST_PATHS = ("README.md", "mapteach", "tests")
FAST_IGNORED = ("tests/browser", "tests/packaging")
FAST_ENV = {"MAPTEACH_HYPOTHESIS": "fast"}
QUESTION = (
    "Restore every notebook to its committed version? "
    "Your changes to notebooks/ will be lost. [y/N] "
)


def requirements_digest(files: Sequence[str], root: Path = ROOT) -> str:
    """SHA-256 of the named files (names and contents), as the install stamps hold it."""
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return digest.hexdigest()


class Setup:
    """Runs (or, dry, prints) every step in the repository root, for one platform's paths."""

    def __init__(self, *, venv: str, windows: bool, dry_run: bool) -> None:
        self.windows = windows
        self.dry_run = dry_run
        self.venv = venv
        self._pure = PureWindowsPath if windows else PurePosixPath
        where = ("Scripts", "python.exe") if windows else ("bin", "python")
        #: The venv's Python, as the commands name it (relative to the repository root).
        self.python = str(self._pure(venv, *where))
        self._created = False

    def path(self, posix: str) -> str:
        """A repository path written the platform's way."""
        return str(self._pure(*PurePosixPath(posix).parts))

    def show(self, command: Sequence[str], env: dict[str, str]) -> str:
        line = subprocess.list2cmdline(command) if self.windows else shlex.join(command)
        assign = " ".join(f"{key}={value}" for key, value in env.items())
        if assign:
            line = f"set {assign} && {line}" if self.windows else f"{assign} {line}"
        return line

    def run(self, command: Sequence[str], env: dict[str, str] | None = None) -> None:
        """Print ``command`` as make would, then run it; stop with its code if it fails."""
        env = env or {}
        print(self.show(command, env), flush=True)
        if self.dry_run:
            return
        code = subprocess.call(list(command), cwd=ROOT, env={**os.environ, **env})
        if code != 0:
            raise SystemExit(code)

    # -- set-up -------------------------------------------------------------------------

    def _stamp(self, name: str) -> Path:
        return ROOT / self.venv / f".{name}-installed"

    def _create_venv(self) -> bool:
        """Create the venv if it is missing; whether it was (or would be) created."""
        if (ROOT / self.python).exists():
            return False
        print(f">> creating {self.venv} with Python {sys.version.split()[0]}", flush=True)
        self.run([sys.executable, "-m", "venv", self.venv])
        self.run([self.python, "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
        return True

    def _install(self, name: str, files: Sequence[str], commands: list[list[str]]) -> None:
        stamp, digest = self._stamp(name), requirements_digest(files)
        fresh = self._created or not stamp.is_file()
        if not fresh and stamp.read_text(encoding="ascii").strip() == digest:
            print(f">> {self.venv} is up to date with {', '.join(files)}", flush=True)
            return
        print(f">> installing {files[0] if name == 'lab' else files[1]} into {self.venv}")
        for command in commands:
            self.run(command)
        if not self.dry_run:
            stamp.write_text(digest + "\n", encoding="ascii")

    def install(self, *, test: bool = False) -> None:
        """Create the venv if needed; reinstall whatever requirements changed since."""
        self._created = self._create_venv()
        pip = [self.python, "-m", "pip", "install", "--quiet"]
        self._install(
            "lab", LAB_FILES, [[*pip, "-r", "requirements.txt"], [*pip, "--no-deps", "-e", "."]]
        )
        if test:
            self._install("test", TEST_FILES, [[*pip, "-r", "requirements-test.txt"]])

    # -- commands -----------------------------------------------------------------------

    def _root_flag(self) -> list[str]:
        root = not self.windows and hasattr(os, "geteuid") and os.geteuid() == 0
        return ["--allow-root"] if root else []  # as root, JupyterLab exits without it

    def lab(self, port: int | None, zh: bool = False) -> None:
        self.install()
        start = "notebooks/zh/00_start_here.ipynb" if zh else "notebooks/00_start_here.ipynb"
        if zh:
            print(f">> 打开中文版 {start} (Ctrl+C 停止)", flush=True)
        else:
            print(f">> opening JupyterLab on {start} (Ctrl+C to stop)", flush=True)
        command = [self.python, "-m", "jupyter", "lab", f"--port={port or LAB_PORT}"]
        env = {"MAPTEACH_LANG": "zh"} if zh else {}
        self.run([*command, *self._root_flag(), self.path(start)], env)

    def app(self, port: int | None, zh: bool = False) -> None:
        self.install()
        notebook = PLAYGROUND.replace("notebooks/", "notebooks/zh/") if zh else PLAYGROUND
        print(f">> serving {notebook} as an app with Voila, no code shown (Ctrl+C to stop)")
        command = [self.python, "-m", "voila", self.path(notebook), f"--port={port or APP_PORT}"]
        self.run([*command, "--strip_sources=True"], {"MAPTEACH_LANG": "zh"} if zh else {})

    def lint(self) -> None:
        self.install(test=True)
        print(">> ruff", flush=True)
        self.run([self.python, "-m", "ruff", "check", "."])
        self.run([self.python, "-m", "ruff", "format", "--check", "."])
        print(">> mypy", flush=True)
        self.run([self.python, "-m", "mypy"])

    def test(self, pytest_args: Sequence[str]) -> None:
        self.lint()
        print(">> pytest: unit, property, doctest, nbval over notebooks/, browser", flush=True)
        self.run([self.python, "-m", "pytest", *pytest_args])

    def test_fast(self, pytest_args: Sequence[str]) -> None:
        self.install(test=True)
        print(">> pytest, fast: unit, doctest, property at 20 examples; no notebooks", flush=True)
        ignored = [f"--ignore={self.path(folder)}" for folder in FAST_IGNORED]
        command = [self.python, "-m", "pytest", "-m", "not slow", *ignored, *FAST_PATHS]
        self.run([*command, *pytest_args], FAST_ENV)

    def notebooks(self, names: Sequence[str]) -> None:
        self.install()
        if not names:
            found = sorted((ROOT / "notebooks").glob("*.ipynb"))
            found += sorted((ROOT / "notebooks" / "zh").glob("*.ipynb"))
            names = [path.relative_to(ROOT).as_posix() for path in found]
        print(">> executing every notebook in place", flush=True)
        command = [self.python, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute"]
        # the stored outputs must not depend on the judgments or progress in this machine's home
        scratch = Path(tempfile.mkdtemp(prefix="mapteach-notebooks-"))
        env = {
            "MAPTEACH_JUDGMENTS": str(scratch / "judgments"),
            "MAPTEACH_PROGRESS": str(scratch / "progress.jsonl"),
        }
        self.run([*command, "--inplace", *NBEXEC, *(self.path(name) for name in names)], env)

    def tool(self, script: str, args: Sequence[str], *, test: bool = False) -> None:
        self.install(test=test)
        if not self.dry_run and not (ROOT / script).is_file():
            raise SystemExit(f"{script} is not in this checkout.")
        self.run([self.python, self.path(script), *args])

    def reset_notebooks(self, yes: bool) -> None:
        if not yes:
            try:
                answer = input(QUESTION)
            except EOFError:
                answer = ""
            if answer.strip().lower() not in {"y", "yes"}:
                print("Aborted: notebooks/ is left as it is.")
                return
        print(">> restoring notebooks/ to its committed version", flush=True)
        self.run(["git", "checkout", "--", "notebooks/"])


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="setup.py",
        description="Set up mapteach's .venv and run the workbook, its tests or its tools.",
        epilog="Windows: py -3 tools\\setup.py lab    Linux/macOS: python3 tools/setup.py lab",
    )
    parser.add_argument("--dry-run", action="store_true", help="print the commands, run none")
    parser.add_argument(
        "--platform",
        choices=("windows", "posix"),
        default="windows" if os.name == "nt" else "posix",
        help="write paths for this platform (default: this machine's)",
    )
    parser.add_argument("--venv", default=".venv", help="the virtual environment (default .venv)")
    parser.add_argument(
        "--port", type=int, help=f"port (default {LAB_PORT} for lab, {APP_PORT} for app)"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("lab", help="open JupyterLab")
    commands.add_parser("lab-zh", help="打开中文版 JupyterLab")
    commands.add_parser("app", help="the playground as a classroom app (Voila)")
    commands.add_parser("app-zh", help="the Chinese playground as an app")
    commands.add_parser("test", help="lint, then every test (extra arguments go to pytest)")
    commands.add_parser("test-fast", help="the quick tests: no notebooks, browser or builds")
    commands.add_parser("lint", help="ruff and mypy")
    notebooks = commands.add_parser("notebooks", help="re-execute notebooks in place")
    notebooks.add_argument("names", nargs="*", help="notebooks (default: every one, both editions)")
    commands.add_parser("site", help="build the static site in build/site/")
    answer_key = commands.add_parser("answer-key", help="write the teacher's answer key")
    answer_key.add_argument("--learner", help="mark one learner's answers")
    answer_key.add_argument("--lang", choices=("en", "zh"), help="the key's language")
    answer_key.add_argument("--out", help="where to write it (default build/answer-key.html)")
    reset = commands.add_parser("reset-notebooks", help="restore notebooks/ as committed")
    reset.add_argument("--yes", "-y", action="store_true", help="do not ask first")
    install = commands.add_parser("install", help="set up .venv only")
    install.add_argument("--test", action="store_true", help="with the test extras")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a console that cannot show 中文 shows "?"
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.command not in {"test", "test-fast"}:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    os.chdir(ROOT)
    setup = Setup(venv=args.venv, windows=args.platform == "windows", dry_run=args.dry_run)
    command = args.command
    try:
        if command in {"lab", "lab-zh"}:
            setup.lab(args.port, zh=command == "lab-zh")
        elif command in {"app", "app-zh"}:
            setup.app(args.port, zh=command == "app-zh")
        elif command == "test":
            setup.test(extra)
        elif command == "test-fast":
            setup.test_fast(extra)
        elif command == "lint":
            setup.lint()
        elif command == "notebooks":
            setup.notebooks(args.names)
        elif command == "site":
            setup.tool("tools/build_site.py", [], test=True)  # latex2mathml: a test extra
        elif command == "answer-key":
            options = [("--learner", args.learner), ("--lang", args.lang), ("--out", args.out)]
            setup.tool("tools/answer_key.py", [a for o, v in options if v for a in (o, v)])
        elif command == "reset-notebooks":
            setup.reset_notebooks(args.yes)
        elif command == "install":
            setup.install(test=args.test)
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
