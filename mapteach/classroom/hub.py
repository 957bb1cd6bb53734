"""A room's server on JupyterHub: the hub's whole configuration, as code.

``make hub`` (``tools/setup.py hub``) starts JupyterHub with
``instructor/hub/jupyterhub_config.py``, which calls :func:`configure`. Each learner logs
in with a name of their choosing and the room's shared password, and gets:

- a home folder of their own, ``<room>/<name>`` (JupyterHub's ``SimpleLocalProcessSpawner``:
  no Unix account is needed, and none is created), holding a copy of the workbook's
  ``notebooks/`` made on their first spawn and never overwritten afterwards;
- their own progress file in the room's progress folder, ``<room>/progress``
  (``MAPTEACH_PROGRESS``: :func:`~mapteach.classroom.progress_path_for` of their name, as
  the app names it), where every check is recorded under their name
  (``MAPTEACH_LEARNER``); the teacher's view reads that one folder
  (``make dashboard PROGRESS_DIR=<room>/progress``, ``mapteach progress --folder``);
- JupyterLab from the hub's own virtual environment (``make hub``: the checkout's
  ``.venv``), opened on the start notebook.

The instructor (``instructor`` unless named otherwise) is the hub's admin and logs in with
an admin password of their own (``SharedPasswordAuthenticator``): the learners' password,
which every learner knows, never grants admin rights. A password not given is generated
and printed when the hub starts. The passwords are taken out of the hub's environment once
read, so no server it starts inherits them; the hub's own state (its database and cookie
secret) is kept beside the room, in ``<room>.jupyterhub``, not in it.

**Trust.** Every learner's server, and the code a learner runs in it, runs as the hub's
own Unix user: it can read and change the other learners' homes and progress files, read
the hub's state and become its admin, and read what the hub's process was started with.
The shared password lets anyone log in under another learner's name. So this is for a
trusted room (a workshop among colleagues, a class on its own network), not for strangers:
for a room whose learners must be kept apart, use a spawner that gives each learner a Unix
user or a container (``jupyterhub-systemdspawner``, ``dockerspawner``, or Zero to
JupyterHub below) and a real authenticator. :func:`configure` prints this when the hub
starts.

The proxy is the Python port of configurable-http-proxy (PyPI ``configurable-http-proxy``),
not the npm package: it installs into ``.venv`` with pip like everything else, so a fresh
Linux server needs no Node.js (nor Debian's ``nodejs`` and npm, their download, or root);
for a room of 30 its speed is ample. JupyterHub does not run on Windows.

The same ideas scale past one machine with Zero to JupyterHub on Kubernetes, which runs
each learner in a container of their own: its ``singleuser`` image holds the workbook and
its ``.venv``, a ``lifecycle`` hook copies ``notebooks/`` into the learner's volume, and
``extraEnv`` sets ``MAPTEACH_PROGRESS`` and ``MAPTEACH_LEARNER``.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mapteach.classroom.progress_folder import progress_path_for

__all__ = ["configure"]

#: A username that is a single path part, not hidden and not the progress folder's: it names
#: a folder inside the room.
USERNAME_PATTERN = r"^(?!progress$)[^./\\][^/\\]{0,63}$"
#: The room's progress folder, a file per learner, inside the room.
PROGRESS_FOLDER = "progress"
#: The variables the passwords may come in: taken out of the hub's environment once read.
PASSWORD_VARIABLES = ("MAPTEACH_HUB_PASSWORD", "MAPTEACH_HUB_ADMIN_PASSWORD")
TRUST_WARNING = (
    ">> WARNING: every learner's server runs as this Unix user: a learner's code can read "
    "and change the other learners' files and the hub's own. For a trusted room only; "
    "to keep learners apart, use a spawner with a Unix user or a container per learner "
    "(Zero to JupyterHub)."
)
#: The shortest passwords SharedPasswordAuthenticator accepts, for learners and for admins.
PASSWORD_LENGTHS = {"learners": 8, "instructor": 32}
START_NOTEBOOK = "00_start_here.ipynb"


def room_password(password: str | None, who: str) -> str:
    """``password``, else a random one of the length ``who`` needs, printed for the room.

    >>> room_password("open sesame", "learners")
    'open sesame'
    >>> len(room_password(None, "instructor")) >= 32  # doctest: +ELLIPSIS
    >> the hub's password for the instructor: ...
    True
    """
    if who not in PASSWORD_LENGTHS:
        raise ValueError(f"who must be one of {sorted(PASSWORD_LENGTHS)}; got {who!r}.")
    if password:
        return password
    generated = secrets.token_urlsafe(PASSWORD_LENGTHS[who])[: PASSWORD_LENGTHS[who] + 4]
    print(f">> the hub's password for the {who}: {generated}", flush=True)
    return generated


def copy_workbook(notebooks: Path, home: Path) -> bool:
    """Copy ``notebooks`` into ``home/notebooks`` unless it is there; whether it copied.

    A learner's own copy, edited or not, is never overwritten.

    >>> import tempfile
    >>> source, home = Path(tempfile.mkdtemp()), Path(tempfile.mkdtemp())
    >>> _ = (source / "01.ipynb").write_text("{}")
    >>> copy_workbook(source, home), copy_workbook(source, home)
    (True, False)
    """
    target = home / "notebooks"
    if target.exists():
        return False
    home.mkdir(parents=True, exist_ok=True)
    shutil.copytree(notebooks, target)
    return True


def learner_environment(progress: Path, username: str) -> dict[str, str]:
    """The variables that give a learner's server their progress file and their name.

    The file is the learner's in the room's progress folder ``progress``, named as the app
    names it, so one folder holds the whole room's checks.

    >>> environment = learner_environment(Path("/room/progress"), "ada")
    >>> environment["MAPTEACH_LEARNER"]
    'ada'
    >>> Path(environment["MAPTEACH_PROGRESS"]) == progress_path_for("/room/progress", "ada")
    True
    """
    path = progress_path_for(progress, username)
    return {"MAPTEACH_PROGRESS": str(path), "MAPTEACH_LEARNER": username}


def spawn_hook(notebooks: Path, progress: Path) -> Callable[[Any], None]:
    """JupyterHub's ``pre_spawn_hook``: copy the workbook, give the server its variables.

    >>> from types import SimpleNamespace
    >>> import tempfile
    >>> room = Path(tempfile.mkdtemp())
    >>> spawner = SimpleNamespace(home_dir=str(room / "ada"), environment={},
    ...                           user=SimpleNamespace(name="ada"))
    >>> spawn_hook(Path(tempfile.mkdtemp()), room / "progress")(spawner)
    >>> mine = progress_path_for(room / "progress", "ada")
    >>> Path(spawner.environment["MAPTEACH_PROGRESS"]) == mine
    True
    """

    def before_spawn(spawner: Any) -> None:
        """Copy the workbook into the learner's home (first spawn only); add their variables.

        ``spawner`` is JupyterHub's, about to start the server of ``spawner.user``.
        """
        home = Path(spawner.home_dir)
        copy_workbook(notebooks, home)
        spawner.environment = {
            **spawner.environment,
            **learner_environment(progress, spawner.user.name),
        }

    return before_spawn


def configure(
    c: Any,
    *,
    checkout: Path,
    room: Path | None = None,
    instructor: str = "instructor",
    password: str | None = None,
    admin_password: str | None = None,
) -> None:
    """Configure JupyterHub (its config object ``c``) to serve the workbook to a room.

    Parameters
    ----------
    c : traitlets.config.Config
        The ``c`` of a ``jupyterhub_config.py``.
    checkout : Path
        The workbook's checkout: its ``notebooks/`` is copied to each learner. The proxy
        and every learner's JupyterLab run from the virtual environment running the hub.
    room : Path, optional
        The room's folder: a home per learner and the progress folder ``progress``
        (default ``<checkout>/classroom/hub``); the hub's own state is kept beside it, in
        ``<room>.jupyterhub``.
    instructor : str
        The admin's username.
    password, admin_password : str, optional
        The learners' shared password (8 characters or more) and the instructor's (32 or
        more); each generated and printed when not given. Either way, the variables they
        may come in (``MAPTEACH_HUB_PASSWORD``, ``MAPTEACH_HUB_ADMIN_PASSWORD``) are taken
        out of this process's environment.

    Examples
    --------
    >>> import tempfile
    >>> from traitlets.config import Config
    >>> c, checkout = Config(), Path(tempfile.mkdtemp()).resolve()
    >>> configure(c, checkout=checkout, password="learners!",
    ...           admin_password="i" * 32)  # doctest: +ELLIPSIS
    >> WARNING: every learner's server runs as this Unix user: ...
    >>> c.SimpleLocalProcessSpawner.home_dir_template == f"{checkout}/classroom/hub/{{username}}"
    True
    >>> sorted(c.SharedPasswordAuthenticator.admin_users)
    ['instructor']
    """
    if sys.platform == "win32":
        raise SystemExit("JupyterHub does not run on Windows; serve the room from Linux.")
    if not isinstance(instructor, str) or not instructor.strip():
        raise ValueError(f"instructor must be a non-empty username; got {instructor!r}.")
    checkout = Path(checkout).resolve()
    room = Path(room).resolve() if room else checkout / "classroom" / "hub"
    state = room.with_name(f"{room.name}.jupyterhub")
    for folder in (state, room / PROGRESS_FOLDER):
        folder.mkdir(parents=True, exist_ok=True)
    c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
    c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
    c.JupyterHub.authenticator_class = "shared-password"
    c.SharedPasswordAuthenticator.user_password = room_password(password, "learners")
    c.SharedPasswordAuthenticator.admin_password = room_password(admin_password, "instructor")
    c.SharedPasswordAuthenticator.admin_users = {instructor.strip()}
    c.SharedPasswordAuthenticator.allow_all = True
    c.SharedPasswordAuthenticator.username_pattern = USERNAME_PATTERN
    for variable in PASSWORD_VARIABLES:
        os.environ.pop(variable, None)
    _configure_servers(c, checkout, room, state)
    print(TRUST_WARNING, flush=True)


def _configure_servers(c: Any, checkout: Path, room: Path, state: Path) -> None:
    """The proxy, and each learner's server: its home, command, start page and variables."""
    venv_bin = Path(sys.executable).parent
    c.ConfigurableHTTPProxy.command = [str(venv_bin / "configurable-http-proxy")]
    c.ConfigurableHTTPProxy.pid_file = str(state / "jupyterhub-proxy.pid")
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(room / "{username}")
    c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
    as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    c.Spawner.args = ["--allow-root"] if as_root else []  # as root, JupyterLab exits without it
    c.Spawner.default_url = f"/lab/tree/notebooks/{START_NOTEBOOK}"
    c.Spawner.env_keep = ["PATH", "LANG", "LC_ALL", "MAPTEACH_LANG"]
    c.Spawner.start_timeout = c.Spawner.http_timeout = 120  # 30 JupyterLabs starting at once
    c.Spawner.pre_spawn_hook = spawn_hook(checkout / "notebooks", room / PROGRESS_FOLDER)
