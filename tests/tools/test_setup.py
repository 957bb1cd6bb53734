"""tools/setup.py, the set-up without make (Windows: ``py -3 tools\\setup.py lab``).

Every make target that sets up or runs something calls tools/setup.py, and CI runs
``make test`` (``.ci/run``), so the no-make path is run for real on every CI run:
it creates or updates .venv, lints, and starts the pytest that runs this file. These
tests add what that run cannot see, in a few seconds: the commands each sub-command
would run on Windows and on Linux (``--dry-run --platform``), the install stamps
(requirements changed: reinstall; unchanged: skip) with a stand-in Python that only
logs its arguments, reset-notebooks' question, answered through a pipe in a small
temporary git repository, the hypothesis profile MAPTEACH_HYPOTHESIS names, and the
variables .ci/run gives the tests (with stand-ins for make and Chromium).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "setup.py"
#: A venv name that does not exist, so a dry run shows every set-up step.
NEW_VENV = ".venv-that-does-not-exist"
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
NBEXEC = [
    "--ExecutePreprocessor.store_widget_state=False",
    "--ClearMetadataPreprocessor.enabled=True",
    "--ClearMetadataPreprocessor.clear_cell_metadata=False",
    "--ClearMetadataPreprocessor.preserve_nb_metadata_mask=kernelspec",
    "--ClearMetadataPreprocessor.preserve_nb_metadata_mask=language_info",
]


def setup_py(*args: str, script: Path = SCRIPT, stdin: str = "", env=None) -> tuple[int, str]:
    """Run the script as a learner would; its exit code and everything it printed."""
    done = subprocess.run(
        [sys.executable, str(script), *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})},
        timeout=120,
    )
    return done.returncode, done.stdout + done.stderr


def commands(output: str) -> list[str]:
    """The commands a dry run printed (every line but the ``>>`` narration)."""
    return [line for line in output.splitlines() if line and not line.startswith(">>")]


@pytest.mark.parametrize(
    ("platform", "python"),
    [("posix", f"{NEW_VENV}/bin/python"), ("windows", f"{NEW_VENV}\\Scripts\\python.exe")],
)
def test_test_sets_up_then_lints_then_runs_pytest(platform, python):
    code, output = setup_py("--dry-run", "--platform", platform, "--venv", NEW_VENV, "test")
    assert code == 0, output
    pip = f"{python} -m pip install --quiet"
    assert commands(output)[1:] == [
        f"{python} -m pip install --quiet --upgrade pip",
        f"{pip} -r requirements.txt",
        f"{pip} --no-deps -e .",
        f"{pip} -r requirements-test.txt",
        f"{python} -m ruff check .",
        f"{python} -m ruff format --check .",
        f"{python} -m mypy",
        f"{python} -m pytest",
    ]
    assert commands(output)[0].endswith(f" -m venv {NEW_VENV}")  # the Python running the script
    assert ">> ruff" in output and ">> mypy" in output
    assert output.index(">> mypy") < output.index(">> pytest")
    assert not (ROOT / NEW_VENV).exists()  # a dry run changes nothing


@pytest.mark.parametrize(
    ("platform", "python", "pytest_line"),
    [
        (
            "posix",
            f"{NEW_VENV}/bin/python",
            "MAPTEACH_HYPOTHESIS=fast {python} -m pytest -m 'not slow' --ignore=tests/browser "
            "--ignore=tests/packaging README.md mapteach tests -x -k trec",
        ),
        (
            "windows",
            f"{NEW_VENV}\\Scripts\\python.exe",
            'set MAPTEACH_HYPOTHESIS=fast && {python} -m pytest -m "not slow" '
            "--ignore=tests\\browser --ignore=tests\\packaging README.md mapteach tests -x -k trec",
        ),
    ],
)
def test_test_fast_runs_pytest_alone_on_the_quick_tests(platform, python, pytest_line):
    args = ("--dry-run", "--platform", platform, "--venv", NEW_VENV, "test-fast", "-x")
    code, output = setup_py(*args, "-k", "trec")
    assert code == 0, output
    pip = f"{python} -m pip install --quiet"
    assert commands(output)[1:] == [
        f"{python} -m pip install --quiet --upgrade pip",
        f"{pip} -r requirements.txt",
        f"{pip} --no-deps -e .",
        f"{pip} -r requirements-test.txt",
        pytest_line.format(python=python),  # no lint; notebooks/ is not among the paths
    ]
    assert not (ROOT / NEW_VENV).exists()


def hypothesis_settings(profile: str) -> subprocess.CompletedProcess:
    """The tests' hypothesis settings (tests/conftest.py) under MAPTEACH_HYPOTHESIS=profile."""
    show = "import tests.conftest, hypothesis as h; d = h.settings.default"
    return subprocess.run(
        [sys.executable, "-c", f"{show}; print(d.max_examples, d.derandomize)"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "MAPTEACH_HYPOTHESIS": profile},
        timeout=60,
    )


@pytest.mark.parametrize(
    ("profile", "examples", "derandomized"),
    [("", "200", ("True", "False")), ("fast", "20", ("True",)), ("ci", "300", ("True",))],
)
def test_the_hypothesis_profile_is_the_one_named(profile, examples, derandomized):
    done = hypothesis_settings(profile)
    assert done.returncode == 0, done.stderr
    shown_examples, shown_derandomized = done.stdout.split()
    assert shown_examples == examples
    assert shown_derandomized in derandomized  # dev: as Hypothesis decides (fixed on CI)


def test_an_unknown_hypothesis_profile_is_refused_by_name():
    done = hypothesis_settings("quick")
    assert done.returncode != 0
    assert "MAPTEACH_HYPOTHESIS='quick'" in done.stderr and "fast" in done.stderr


@pytest.mark.parametrize("platform", ["posix", "windows"])
def test_lab_opens_the_first_notebook_with_the_platform_paths(platform):
    code, output = setup_py("--dry-run", "--platform", platform, "--venv", NEW_VENV, "lab")
    assert code == 0, output
    if platform == "windows":
        expected = f"{NEW_VENV}\\Scripts\\python.exe -m jupyter lab --port=8888 "
        expected += "notebooks\\00_start_here.ipynb"
    else:
        root_flag = "--allow-root " if AS_ROOT else ""
        expected = f"{NEW_VENV}/bin/python -m jupyter lab --port=8888 {root_flag}"
        expected += "notebooks/00_start_here.ipynb"
    assert commands(output)[-1] == expected
    assert "requirements-test.txt" not in output  # lab needs no test extras


def test_the_other_sub_commands_run_what_the_make_targets_ran():
    def last(*args: str) -> str:
        code, output = setup_py("--dry-run", "--platform", "posix", "--venv", NEW_VENV, *args)
        assert code == 0, output
        return commands(output)[-1]

    python = f"{NEW_VENV}/bin/python"
    root_flag = " --allow-root" if AS_ROOT else ""
    assert last("lab-zh") == (
        f"MAPTEACH_LANG=zh {python} -m jupyter lab --port=8888{root_flag} "
        "notebooks/zh/00_start_here.ipynb"
    )
    voila = f"{python} -m voila notebooks/06_playground.ipynb --port=8866 --strip_sources=True"
    voila += " --Voila.auto_token=True"  # the token is JUPYTER_TOKEN's: ps does not show it
    folder = f"MAPTEACH_PROGRESS_DIR={ROOT / 'classroom' / 'progress'}"
    assert last("app", "--token", "T") == f"{folder} JUPYTER_TOKEN=T {voila}"
    assert last("--port", "9000", "app-zh", "--token", "T", "--progress-dir", "/tmp/room") == (
        "MAPTEACH_PROGRESS_DIR=/tmp/room MAPTEACH_LANG=zh JUPYTER_TOKEN=T "
        + voila.replace("notebooks/", "notebooks/zh/").replace("8866", "9000")
    )
    assert last("dashboard", "--token", "T", "--progress-dir", "/tmp/room") == (
        f"MAPTEACH_PROGRESS_DIR=/tmp/room JUPYTER_TOKEN=T {python} -m voila "
        "instructor/dashboard.ipynb --port=8867 --strip_sources=True --Voila.auto_token=True"
    )
    tokens = {last("app").split("JUPYTER_TOKEN=", 1)[1].split()[0] for _ in range(2)}
    assert len(tokens) == 2 and all(len(token) >= 16 for token in tokens)  # random each time
    assert last("site") == f"{python} tools/build_site.py"
    assert last("answer-key", "--learner", "Ann Lee", "--lang", "zh") == (
        f"{python} tools/answer_key.py --learner 'Ann Lee' --lang zh"
    )
    scratch_judgments, scratch_progress, *every = last("notebooks").split()
    assert scratch_judgments.startswith("MAPTEACH_JUDGMENTS=") and "mapteach-notebooks-" in (
        scratch_judgments
    )
    assert scratch_progress.startswith("MAPTEACH_PROGRESS=")
    assert every[:8] == [
        python,
        "-m",
        "jupyter",
        "nbconvert",
        "--to",
        "notebook",
        "--execute",
        "--inplace",
    ]
    assert every[8:13] == NBEXEC
    english = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert every[13 : 13 + len(english)] == english
    assert "notebooks/zh/06_playground.ipynb" in every[13:]
    assert last("reset-notebooks", "--yes") == "git checkout -- notebooks/"


# -- hub and --address --------------------------------------------------------------------


def test_hub_installs_jupyterhub_then_starts_it_on_loopback():
    code, output = setup_py("--dry-run", "--platform", "posix", "--venv", NEW_VENV, "hub")
    assert code == 0, output
    python = f"{NEW_VENV}/bin/python"
    assert f"{python} -m pip install --quiet -r requirements-hub.txt" in commands(output)
    assert commands(output)[-1] == (
        f"MAPTEACH_INSTRUCTOR=instructor {python} -m jupyterhub -f "
        "instructor/hub/jupyterhub_config.py --ip=127.0.0.1 --port=8000"
    )
    assert "WARNING" not in output and "requirements-test.txt" not in output


def test_hub_takes_the_room_and_the_instructor():
    args = ("--dry-run", "--venv", NEW_VENV, "--port", "8100", "hub", "--room", "/srv/room 3")
    code, output = setup_py(*args, "--instructor", "ms li")
    assert code == 0, output
    assert commands(output)[-1].startswith(
        "MAPTEACH_INSTRUCTOR='ms li' MAPTEACH_HUB_ROOM='/srv/room 3' "
    )
    assert commands(output)[-1].endswith(" --port=8100")


def test_hub_on_windows_says_it_does_not_run_there_and_stops():
    code, output = setup_py("--dry-run", "--platform", "windows", "--venv", NEW_VENV, "hub")
    assert code != 0
    assert "JupyterHub does not run on Windows" in output
    assert "pip" not in output  # stopped before installing anything


@pytest.mark.parametrize(
    ("command", "flag", "who"),
    [("lab", "--ip=0.0.0.0", "token"), ("app", "--Voila.ip=0.0.0.0", "URL"),
     ("hub", "--ip=0.0.0.0", "MAPTEACH_HUB_PASSWORD")],
)  # fmt: skip
def test_an_address_beyond_loopback_prints_the_url_who_may_log_in_and_a_warning(command, flag, who):
    args = ("--dry-run", "--platform", "posix", "--address", "0.0.0.0", "--port", "8123")
    code, output = setup_py(*args, command)
    assert code == 0, output
    narration = [line for line in output.splitlines() if line.startswith(">>")]
    assert any(line.startswith(">> the room opens http://") and line.endswith(":8123/")
               for line in narration)  # fmt: skip
    assert any(line.startswith(">> who may log in:") and who in line for line in narration)
    assert any(line.startswith(">> WARNING: listening on 0.0.0.0") for line in narration)
    assert flag in commands(output)[-1].split()


def test_every_ipv6_address_is_announced_as_every_address():
    code, output = setup_py("--dry-run", "--address", "::", "--port", "8123", "dashboard")
    assert code == 0, output
    assert ">> the dashboard's token:" in output and "(http://127.0.0.1:8123/?token=" in output
    opened = [line for line in output.splitlines() if line.startswith(">> the room opens")]
    assert f">> the room opens http://{socket.gethostname()}:8123/" in opened
    assert ">> the room opens http://:::8123/" not in opened


def test_loopback_is_the_default_and_warns_of_nothing():
    code, output = setup_py("--dry-run", "--address", "127.0.0.1", "app")
    assert code == 0, output
    assert "WARNING" not in output and "ip=" not in output  # the same command as with no address
    code, output = setup_py("--dry-run", "--address", "localhost", "app")
    assert code == 0, output
    assert "WARNING" not in output and "--Voila.ip=localhost" in commands(output)[-1].split()


def test_an_address_that_is_not_an_ip_address_is_refused_by_name():
    code, output = setup_py("--dry-run", "--address", "my laptop", "hub")
    assert code == 2
    assert "'my laptop' is not an IP address" in output


#: The variables the Makefile reads from the environment.
MAKE_VARIABLES = {"PYTHON", "VENV", "PORT", "ADDRESS", "ROOM", "INSTRUCTOR", "YES", "LEARNER"}
MAKE_VARIABLES |= {"OUT", "LANG_EDITION", "MAKEFLAGS"}


def make_n(*args: str) -> list[str]:
    """What ``make -n`` would run (the words of its one command), from a clean environment."""
    env = {k: v for k, v in os.environ.items() if k not in MAKE_VARIABLES}
    command = ["make", "-s", "-n", "-C", str(ROOT), *args]
    return subprocess.run(
        command, capture_output=True, text=True, env=env, check=True
    ).stdout.split()


def test_make_targets_and_ci_go_through_the_script():
    if shutil.which("make") is None:
        pytest.skip("make is not installed here")
    setup = ["python3", "tools/setup.py", "--venv", ".venv"]
    targets = ("lab", "lab-zh", "app", "app-zh", "test", "test-fast", "lint", "notebooks", "site")
    for target in targets:
        assert make_n(target) == [*setup, target]
    assert make_n("app", "LANG_EDITION=zh", "PORT=9000") == [*setup, "--port", "9000", "app-zh"]
    assert make_n("app", "PROGRESS_DIR=room") == [*setup, "app", "--progress-dir", '"room"']
    assert make_n("answer-key", "LEARNER=ann") == [*setup, "answer-key", "--learner", '"ann"']
    assert make_n("reset-notebooks") == [*setup, "reset-notebooks"]
    assert make_n("reset-notebooks", "YES=1") == [*setup, "reset-notebooks", "--yes"]
    assert make_n("hub", "ADDRESS=0.0.0.0", "PORT=8000", "INSTRUCTOR=li", "ROOM=room") == [
        *setup, "--port", "8000", "--address", "0.0.0.0", "hub", "--room", '"room"',
        "--instructor", '"li"',
    ]  # fmt: skip
    assert make_n("hub") == [*setup, "hub"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ci[-1] == "make test"


#: Stand-ins for what .ci/run calls: Chromium and its fonts are "installed", and make
#: prints the variables the tests read instead of running them.
CI_STANDINS = {
    "chromium": "exit 0",
    "dpkg": "exit 0",
    "make": 'echo "$* CI=$CI SEEDS=${MAPTEACH_SEEDS-unset} HYPOTHESIS=$MAPTEACH_HYPOTHESIS '
    'STRICT=$MAPTEACH_STRICT"',
}


@pytest.mark.skipif(
    os.name == "nt" or shutil.which("bash") is None, reason=".ci/run is a bash script"
)
@pytest.mark.parametrize("beside", ["shared/seeds", "shared", ""])
def test_ci_names_the_articles_folder_only_when_it_is_beside_the_checkout(tmp_path, beside):
    checkout = tmp_path / "main"
    (checkout / ".ci").mkdir(parents=True)
    shutil.copy(ROOT / ".ci" / "run", checkout / ".ci" / "run")
    if beside:
        (tmp_path / beside).mkdir(parents=True)
    standins = tmp_path / "bin"
    standins.mkdir()
    for name, body in CI_STANDINS.items():
        (standins / name).write_text(f"#!/bin/sh\n{body}\n")
        (standins / name).chmod(0o755)
    environment = {k: v for k, v in os.environ.items() if not k.startswith("MAPTEACH_")}
    environment["PATH"] = f"{standins}{os.pathsep}{environment['PATH']}"
    done = subprocess.run(
        ["bash", str(checkout / ".ci" / "run")],
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    seeds = str((tmp_path / beside).resolve()) if beside == "shared/seeds" else "unset"
    assert done.stdout.split() == ["test", "CI=true", f"SEEDS={seeds}", "HYPOTHESIS=ci", "STRICT=1"]


# -- the install stamps, with a stand-in Python -------------------------------------------

FAKE_PYTHON = """#!/bin/sh
printf '%s\\n' "$*" >> "$FAKE_LOG"
case "$*" in *"$FAKE_FAIL"*) [ -n "$FAKE_FAIL" ] && exit 3;; esac
exit 0
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the script and the requirements, with a venv whose Python only logs."""
    (tmp_path / "tools").mkdir()
    shutil.copy(SCRIPT, tmp_path / "tools" / "setup.py")
    (tmp_path / "tools" / "build_site.py").write_text("")
    for name in (
        "requirements.txt",
        "requirements-test.txt",
        "requirements-hub.txt",
        "pyproject.toml",
    ):
        shutil.copy(ROOT / name, tmp_path / name)
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    return tmp_path


def run_logged(project: Path, *args: str, fail: str = "") -> tuple[int, list[str]]:
    log = project / "python.log"
    log.unlink(missing_ok=True)
    env = {"FAKE_LOG": str(log), "FAKE_FAIL": fail}
    code, _output = setup_py(*args, script=project / "tools" / "setup.py", env=env)
    return code, log.read_text().splitlines() if log.exists() else []


@pytest.mark.skipif(os.name == "nt", reason="the stand-in Python is a shell script")
def test_requirements_are_reinstalled_only_when_they_change(project):
    lab = ["-m pip install --quiet -r requirements.txt", "-m pip install --quiet --no-deps -e ."]
    test = ["-m pip install --quiet -r requirements-test.txt"]
    site = ["tools/build_site.py"]
    assert run_logged(project, "site") == (0, lab + test + site)  # no stamps yet
    assert run_logged(project, "site") == (0, site)  # unchanged: nothing installed
    assert run_logged(project, "lab")[1][:-1] == []  # lab's stamp serves lab too

    with (project / "requirements-test.txt").open("a") as handle:
        handle.write("# a new test requirement\n")
    assert run_logged(project, "site") == (0, test + site)
    assert run_logged(project, "site") == (0, site)

    with (project / "requirements.txt").open("a") as handle:
        handle.write("# a new pin\n")
    assert run_logged(project, "site") == (0, lab + test + site)  # test includes requirements.txt

    (project / "requirements.txt").write_text("")  # a dry run says it would reinstall, and doesn't
    code, output = setup_py("--dry-run", "site", script=project / "tools" / "setup.py")
    assert code == 0, output
    assert ".venv/bin/python -m pip install --quiet -r requirements.txt" in output
    assert run_logged(project, "site") == (0, lab + test + site)


@pytest.mark.skipif(os.name == "nt", reason="the stand-in Python is a shell script")
@pytest.mark.parametrize("command", ["app", "app-zh", "dashboard"])
def test_a_learners_file_and_name_in_the_shell_do_not_reach_the_room(project, command):
    python = project / ".venv" / "bin" / "python"
    python.write_text(FAKE_PYTHON.replace(
        "printf '%s\\n' \"$*\"",
        "printf '%s %s %s\\n' \"$*\" \"${MAPTEACH_PROGRESS-none}\" \"${MAPTEACH_LEARNER-none}\"",
    ))  # fmt: skip
    (project / "instructor").mkdir()
    log = project / "python.log"
    teacher = {"MAPTEACH_PROGRESS": "mine.jsonl", "MAPTEACH_LEARNER": "li"}  # exported
    env = {"FAKE_LOG": str(log), "FAKE_FAIL": "", **teacher}
    code, output = setup_py(command, script=project / "tools" / "setup.py", env=env)
    assert code == 0, output
    server = log.read_text().splitlines()[-1]
    assert server.startswith("-m voila ") and server.endswith(" none none")


@pytest.mark.skipif(os.name == "nt", reason="the stand-in Python is a shell script")
def test_the_hub_requirements_have_their_own_stamp(project):
    hub = ["-m pip install --quiet -r requirements-hub.txt"]
    assert run_logged(project, "install", "--hub")[1][-1:] == hub
    assert run_logged(project, "install", "--hub") == (0, [])
    with (project / "requirements-hub.txt").open("a") as handle:
        handle.write("# a new hub pin\n")
    assert run_logged(project, "install", "--test", "--hub") == (
        0,
        ["-m pip install --quiet -r requirements-test.txt", *hub],  # the tests run the hub
    )


@pytest.mark.skipif(os.name == "nt", reason="the stand-in Python is a shell script")
def test_a_failing_step_stops_with_its_exit_code(project):
    assert run_logged(project, "install", "--test")[0] == 0
    code, log = run_logged(project, "test", "-k", "something", fail="ruff format")
    assert code == 3
    assert log == ["-m ruff check .", "-m ruff format --check ."]  # no mypy, no pytest
    code, log = run_logged(project, "test", "-k", "something")
    assert (code, log[-1]) == (0, "-m pytest -k something")


# -- reset-notebooks ----------------------------------------------------------------------


def git(repo: Path, *args: str) -> str:
    identity = ["-c", "user.name=mapteach", "-c", "user.email=tests@mapteach.invalid"]
    command = ["git", *identity, "-c", "commit.gpgsign=false", "-C", str(repo), *args]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository with a committed notebook, and the script in its tools/."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed here")
    (tmp_path / "tools").mkdir()
    shutil.copy(SCRIPT, tmp_path / "tools" / "setup.py")
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "06_playground.ipynb").write_text('{"cells": []}\n')
    git(tmp_path, "init", "--quiet")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "--quiet", "-m", "notebooks as committed")
    return tmp_path


QUESTION = (
    "Restore every notebook to its committed version? "
    "Your changes to notebooks/ will be lost. [y/N]"
)


@pytest.mark.parametrize("answer", ["n\n", "\n", "", "yes please\n", "N\n"])
def test_reset_keeps_the_notebooks_unless_the_answer_is_yes(repo, answer):
    notebook = repo / "notebooks" / "06_playground.ipynb"
    notebook.write_text('{"cells": ["my work"]}\n')
    code, output = setup_py("reset-notebooks", script=repo / "tools" / "setup.py", stdin=answer)
    assert code == 0, output
    assert QUESTION in output and "Aborted" in output
    assert notebook.read_text() == '{"cells": ["my work"]}\n'


@pytest.mark.parametrize(("answer", "args"), [("y\n", []), ("YES\n", []), ("", ["--yes"])])
def test_reset_restores_the_committed_notebooks(repo, answer, args):
    notebook = repo / "notebooks" / "06_playground.ipynb"
    notebook.write_text('{"cells": ["my work"]}\n')
    script = repo / "tools" / "setup.py"
    code, output = setup_py("reset-notebooks", *args, script=script, stdin=answer)
    assert code == 0, output
    assert (QUESTION in output) == (not args)
    assert notebook.read_text() == '{"cells": []}\n'
    assert git(repo, "status", "--porcelain", "notebooks") == ""
