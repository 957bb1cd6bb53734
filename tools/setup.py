"""Set up mapteach's .venv and run the workbook, its tests or its tools, with or without make.

    python3 tools/setup.py lab        Linux and macOS, no make needed
    py -3 tools\\setup.py lab          Windows

Sub-commands (each ``make`` target of the same name calls this script):

    lab               open JupyterLab on notebooks/00_start_here.ipynb
    lab-zh            the same, on the Chinese edition (notebooks/zh/)
    app               the playground as a classroom app, no code shown (Voila)
    app-zh            the Chinese playground as an app
    hub               a room's server on JupyterHub (Linux): a JupyterLab and a progress
                      file per learner (mapteach/classroom/hub.py; --room, --instructor)
    dashboard         the teacher's dashboard (Voila on instructor/dashboard.ipynb), following
                      the app's progress folder live (--progress-dir, --token)
    test [PYTEST...]  lint (ruff, mypy), then every test (pytest, extra arguments passed on)
    test-fast [PYTEST...]
                      the quick tests, in a few minutes: unit, doctest and property (20
                      examples each); no lint, notebooks, browser, wheel, site or answer key
    lint              ruff and mypy only
    notebooks [NB..]  re-execute every notebook of both editions (or the ones named) in place
    site              build the static HTML site in build/site/ (tools/build_site.py)
    answer-key        the teacher's answer key (tools/answer_key.py; --learner, --lang, --out)
    reset-notebooks   restore notebooks/ to its committed version, after asking (--yes: don't)
    install           set up .venv only (--test: with the test extras; --hub: JupyterHub's)

Set-up, before the command: create ``.venv`` with ``venv`` and upgrade pip the first time;
install requirements.txt and mapteach (editable), plus requirements-test.txt for test,
test-fast, lint and site (requirements-hub.txt for hub), only when those files changed
since the last install (a stamp file in .venv holds their SHA-256). ``--dry-run`` prints
every command and runs none.

``--address`` (lab, app, hub, dashboard): where the server listens, loopback (127.0.0.1) by default;
any other address prints the URL to give the room, who may log in, and a warning.

Standard library only, Python 3.10 or newer, Windows (``.venv\\Scripts\\python.exe``) and
POSIX (``.venv/bin/python``); no shell is involved.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import ipaddress
import os
import secrets
import shlex
import socket
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
TEST_FILES = ("requirements.txt", "requirements-test.txt", "requirements-hub.txt", "pyproject.toml")
HUB_FILES = ("requirements.txt", "requirements-hub.txt", "pyproject.toml")
LAB_PORT, APP_PORT, HUB_PORT, DASHBOARD_PORT = 8888, 8866, 8000, 8867
LOOPBACK = "127.0.0.1"
HUB_CONFIG = "instructor/hub/jupyterhub_config.py"
HUB_ROOM = "classroom/hub"
#: Who may log in to each server once it listens beyond this machine.
ACCESS = {
    "lab": "anyone with the token in the URL JupyterLab prints",
    "app": "anyone with the URL and the app's token (printed above)",
    "dashboard": "anyone with the URL and the dashboard's token (printed above): keep it yours",
    "hub": (
        "any name with the learners' password (MAPTEACH_HUB_PASSWORD, else the one printed "
        "below); the instructor with the admin password (MAPTEACH_HUB_ADMIN_PASSWORD, else "
        "printed below)"
    ),
}
PLAYGROUND = "notebooks/06_playground.ipynb"
DASHBOARD = "instructor/dashboard.ipynb"
#: The app's progress folder (one file per learner), under the checkout by default.
PROGRESS_DIR = "classroom/progress"
#: A learner's file and name this shell may export: the app and dashboard must not inherit
#: them (one file for the whole room, or every learner under the teacher's name).
LEARNER_VARIABLES = ("MAPTEACH_PROGRESS", "MAPTEACH_LEARNER")
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
        quote = (lambda value: value) if self.windows else shlex.quote
        assign = " ".join(f"{key}={quote(value)}" for key, value in env.items())
        if assign:
            line = f"set {assign} && {line}" if self.windows else f"{assign} {line}"
        return line

    def run(
        self,
        command: Sequence[str],
        env: dict[str, str] | None = None,
        *,
        unset: Sequence[str] = (),
    ) -> None:
        """Print ``command`` as make would, then run it; stop with its code if it fails.

        ``env`` is added to this shell's environment, without the variables ``unset`` names.
        """
        env = env or {}
        print(self.show(command, env), flush=True)
        if self.dry_run:
            return
        inherited = {key: value for key, value in os.environ.items() if key not in unset}
        code = subprocess.call(list(command), cwd=ROOT, env={**inherited, **env})
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

    def install(self, *, test: bool = False, hub: bool = False) -> None:
        """Create the venv if needed; reinstall whatever requirements changed since."""
        self._created = self._create_venv()
        pip = [self.python, "-m", "pip", "install", "--quiet"]
        self._install(
            "lab", LAB_FILES, [[*pip, "-r", "requirements.txt"], [*pip, "--no-deps", "-e", "."]]
        )
        if test:
            self._install("test", TEST_FILES, [[*pip, "-r", "requirements-test.txt"]])
        if hub:
            self._install("hub", HUB_FILES, [[*pip, "-r", "requirements-hub.txt"]])

    # -- commands -----------------------------------------------------------------------

    def _root_flag(self) -> list[str]:
        root = not self.windows and hasattr(os, "geteuid") and os.geteuid() == 0
        return ["--allow-root"] if root else []  # as root, JupyterLab exits without it

    def announce(self, server: str, address: str, port: int) -> None:
        """Beyond loopback: print the URL(s) to give the room, who may log in, a warning."""
        if address == "localhost" or ipaddress.ip_address(address).is_loopback:
            return
        hosts = [socket.gethostname(), *_own_addresses()] if _every_address(address) else [address]
        for host in hosts:
            print(f">> the room opens http://{host}:{port}/", flush=True)
        print(f">> who may log in: {ACCESS[server]}", flush=True)
        print(
            f">> WARNING: listening on {address}, beyond this machine, without HTTPS: keep it "
            "to the room's network, and stop it (Ctrl+C) when the class ends",
            flush=True,
        )

    def lab(self, port: int | None, address: str = LOOPBACK, zh: bool = False) -> None:
        self.install()
        start = "notebooks/zh/00_start_here.ipynb" if zh else "notebooks/00_start_here.ipynb"
        if zh:
            print(f">> 打开中文版 {start} (Ctrl+C 停止)", flush=True)
        else:
            print(f">> opening JupyterLab on {start} (Ctrl+C to stop)", flush=True)
        self.announce("lab", address, port or LAB_PORT)
        command = [self.python, "-m", "jupyter", "lab", f"--port={port or LAB_PORT}"]
        command += [f"--ip={address}"] if address != LOOPBACK else []
        env = {"MAPTEACH_LANG": "zh"} if zh else {}
        self.run([*command, *self._root_flag(), self.path(start)], env)

    def app(self, port: int | None, address: str = LOOPBACK, zh: bool = False, **room: str) -> None:
        """Voila on the playground: a token (random if none), a progress file per learner."""
        notebook = PLAYGROUND.replace("notebooks/", "notebooks/zh/") if zh else PLAYGROUND
        print(f">> serving {notebook} as an app with Voila, no code shown (Ctrl+C to stop)")
        extra = {"MAPTEACH_LANG": "zh"} if zh else {}
        self._voila("app", notebook, port or APP_PORT, address, extra, **room)

    def dashboard(self, port: int | None, address: str, **room: str) -> None:
        """Voila on the teacher's dashboard, following the app's progress folder live."""
        print(">> the teacher's dashboard, with Voila (Ctrl+C to stop)")
        self._voila("dashboard", DASHBOARD, port or DASHBOARD_PORT, address, {}, **room)

    def _voila(
        self,
        server: str,
        notebook: str,
        port: int,
        address: str,
        extra: dict[str, str],
        *,
        token: str = "",
        progress_dir: str = "",
    ) -> None:
        """Voila on ``notebook`` for the room's progress folder, its token in the environment.

        The token is ``JUPYTER_TOKEN``'s (not ``--token``, which ``ps`` shows to anyone on
        the machine); a learner's file or name exported in this shell is not passed on.
        """
        self.install()
        token = token or secrets.token_urlsafe(16)
        folder = ROOT / (progress_dir or PROGRESS_DIR)
        here = LOOPBACK if _every_address(address) else address
        print(f">> the {server}'s token: {token} (http://{here}:{port}/?token={token})")
        print(f">> each learner's checks: a file per name in {folder}", flush=True)
        self.announce(server, address, port)
        command = [self.python, "-m", "voila", self.path(notebook), f"--port={port}"]
        command += [f"--Voila.ip={address}"] if address != LOOPBACK else []
        env = {"MAPTEACH_PROGRESS_DIR": str(folder), **extra, "JUPYTER_TOKEN": token}
        command += ["--strip_sources=True", "--Voila.auto_token=True"]
        self.run(command, env, unset=LEARNER_VARIABLES)

    def hub(self, port: int | None, address: str, room: str | None, instructor: str) -> None:
        """JupyterHub for a room (mapteach/classroom/hub.py); Linux only."""
        if self.windows:
            raise SystemExit(
                "JupyterHub does not run on Windows: serve the room from a Linux machine "
                "(make hub there), or use the app (make app) or the site (make site)."
            )
        self.install(hub=True)
        print(f">> serving a room with JupyterHub on port {port or HUB_PORT} (Ctrl+C to stop)")
        progress = Path(room or ROOT / HUB_ROOM).resolve() / "progress"
        print(f">> each learner's checks: a file per name in {progress} (make dashboard "
              f"PROGRESS_DIR={progress})", flush=True)  # fmt: skip
        self.announce("hub", address, port or HUB_PORT)
        env = {"MAPTEACH_INSTRUCTOR": instructor, **({"MAPTEACH_HUB_ROOM": room} if room else {})}
        command = [self.python, "-m", "jupyterhub", "-f", self.path(HUB_CONFIG)]
        self.run([*command, f"--ip={address}", f"--port={port or HUB_PORT}"], env)

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


def _every_address(address: str) -> bool:
    """Whether listening on ``address`` means every address of this machine (0.0.0.0, ::)."""
    return address != "localhost" and ipaddress.ip_address(address).is_unspecified


def _own_addresses() -> list[str]:
    """This machine's IPv4 addresses others may reach it at (none found: an empty list)."""
    found = set()
    with contextlib.suppress(OSError):  # a hostname that does not resolve: try the route
        found.update(socket.gethostbyname_ex(socket.gethostname())[2])
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # UDP: no packet is sent, the route picks an address
        found.add(probe.getsockname()[0])
    shared = (ipaddress.ip_address(found_address) for found_address in found)
    return sorted(str(ip) for ip in shared if not (ip.is_loopback or ip.is_unspecified))


def _address(text: str) -> str:
    """An IP address (or ``localhost``) to listen on; argparse's error for anything else."""
    if text != "localhost":
        try:
            ipaddress.ip_address(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not an IP address (127.0.0.1 for this machine, 0.0.0.0 for all)"
            ) from None
    return text


def _add_room_commands(commands: argparse._SubParsersAction) -> None:
    """The servers for a room: lab, lab-zh, app, app-zh, dashboard and hub."""
    commands.add_parser("lab", help="open JupyterLab")
    commands.add_parser("lab-zh", help="打开中文版 JupyterLab")
    for name, about in [
        ("app", "the playground as a classroom app (Voila)"),
        ("app-zh", "the Chinese playground as an app"),
    ]:
        app = commands.add_parser(name, help=about)
        app.add_argument("--token", help="the token the URL must carry (default: random)")
        app.add_argument("--progress-dir", help=f"one file per learner (default {PROGRESS_DIR})")
    dashboard = commands.add_parser("dashboard", help="the teacher's dashboard (Voila)")
    dashboard.add_argument("--token", help="the token the URL must carry (default: random)")
    dashboard.add_argument("--progress-dir", help=f"the folder it follows (default {PROGRESS_DIR})")
    hub = commands.add_parser("hub", help="a room's server on JupyterHub (Linux)")
    hub.add_argument("--room", help="the learners' homes (default classroom/hub/)")
    hub.add_argument("--instructor", default="instructor", help="the admin's username")


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
        "--port",
        type=int,
        help=(
            f"port (default {LAB_PORT} for lab, {APP_PORT} for app, {HUB_PORT} for hub, "
            f"{DASHBOARD_PORT} for dashboard)"
        ),
    )
    parser.add_argument(
        "--address",
        type=_address,
        default=LOOPBACK,
        help=f"where lab, app, hub or dashboard listen (default {LOOPBACK}; 0.0.0.0: all)",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_room_commands(commands)
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
    install.add_argument("--hub", action="store_true", help="with JupyterHub (make hub)")
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
            setup.lab(args.port, args.address, zh=command == "lab-zh")
        elif command in {"app", "app-zh", "dashboard"}:
            room = {"token": args.token or "", "progress_dir": args.progress_dir or ""}
            if command == "dashboard":
                setup.dashboard(args.port, args.address, **room)
            else:
                setup.app(args.port, args.address, command == "app-zh", **room)
        elif command == "hub":
            setup.hub(args.port, args.address, args.room, args.instructor)
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
            setup.install(test=args.test, hub=args.hub)
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
