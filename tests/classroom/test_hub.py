"""mapteach.classroom.hub: a room's JupyterHub, two learners, each check in its learner's file.

The journey starts the hub as ``make hub`` does (instructor/hub/jupyterhub_config.py) on
loopback, on free ports, in a temporary room; logs two learners in through the login form,
spawns their JupyterLabs, runs a check in a kernel of each over the server's REST API and
kernel websocket, and reads each learner's file in the room's progress folder. It prints
the hub's start time and each learner server's memory (RSS of its process tree, kernel
included).
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from traitlets.config import Config

from mapteach.classroom import progress_path_for
from mapteach.classroom.hub import configure, copy_workbook, spawn_hook

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "instructor" / "hub" / "jupyterhub_config.py"
PASSWORD = "the room's password"
CHECK = (
    "from mapteach.exercises import NumberExercise\n"
    "exercise = NumberExercise('1/2?', 0.5, [('halved', 0.25, 'You halved it.')], '1/2',"
    " key='03.1')\n"
    "exercise.submit({answer!r})\n"
)


def hub_modules():
    """JupyterHub and requests, or a skip that says why (a failure under MAPTEACH_STRICT)."""
    try:
        import jupyterhub  # noqa: F401
        import requests
    except ImportError as missing:
        if os.environ.get("MAPTEACH_STRICT"):
            raise
        pytest.skip(f"JupyterHub is not installed ({missing}): pip install -r requirements-hub.txt")
    return requests


def free_ports(count):
    sockets = [socket.socket() for _ in range(count)]
    for each in sockets:
        each.bind(("127.0.0.1", 0))
    ports = [each.getsockname()[1] for each in sockets]
    for each in sockets:
        each.close()
    return ports


def wait_for(condition, what, timeout=120.0):
    """Poll ``condition`` until it returns something true; that value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.25)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def hub_up(requests, hub, url, log):
    """Whether the hub answers at ``url``; an error with the end of its log if it stopped."""
    if hub.poll() is not None:
        ending = log.read_text(encoding="utf-8", errors="replace")[-3000:]
        raise AssertionError(f"the hub stopped with code {hub.returncode}:\n{ending}")
    try:
        return requests.get(url, timeout=5).status_code == 200
    except requests.ConnectionError:
        return False


def log_in(requests, base, name):
    """The headers of a token of ``name``'s, made after logging in through the login form."""
    session = requests.Session()
    form = session.get(f"{base}/hub/login", timeout=30).text
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form).group(1)
    answer = {"username": name, "password": PASSWORD, "_xsrf": xsrf}
    assert session.post(f"{base}/hub/login", data=answer, timeout=60).ok
    made = session.post(
        f"{base}/hub/api/users/{name}/tokens",
        json={"note": "test_hub"},
        headers={"X-XSRFToken": session.cookies["_xsrf"]},
        timeout=30,
    )
    assert made.status_code == 201, made.text
    return {"Authorization": f"token {made.json()['token']}"}


def spawn(requests, base, name, headers):
    started = requests.post(f"{base}/hub/api/users/{name}/server", headers=headers, timeout=60)
    assert started.status_code in {201, 202}, started.text

    def ready():
        user = requests.get(f"{base}/hub/api/users/{name}", headers=headers, timeout=30).json()
        return user["servers"].get("", {}).get("ready")

    wait_for(ready, f"{name}'s server")


def run_in_kernel(base, name, headers, code):
    """Start a kernel in ``name``'s server, execute ``code`` over its websocket, stop it."""
    import requests
    from tornado.httpclient import HTTPRequest
    from tornado.ioloop import IOLoop
    from tornado.websocket import websocket_connect

    kernels = f"{base}/user/{name}/api/kernels"
    kernel = requests.post(kernels, headers=headers, json={}, timeout=60).json()["id"]
    channels = f"{kernels}/{kernel}/channels".replace("http://", "ws://")

    async def execute():
        socket = await websocket_connect(HTTPRequest(channels, headers=headers))
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "msg_type": "execute_request", "session": msg_id,
                  "username": name, "version": "5.3", "date": ""}  # fmt: skip
        content = {"code": code, "silent": False, "store_history": False}
        request = {"header": header, "parent_header": {}, "metadata": {}, "content": content}
        await socket.write_message(json.dumps({**request, "channel": "shell"}))
        while True:
            reply = json.loads(await socket.read_message())
            if reply["msg_type"] == "execute_reply" and reply["parent_header"]["msg_id"] == msg_id:
                socket.close()
                return reply["content"]

    return IOLoop.current().run_sync(execute, timeout=180)


def tree_rss_mib(pid):
    """The resident memory of ``pid`` and every process below it, in MiB (Linux /proc)."""
    children = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        todo.extend(children.get(current, []))
        status = Path(f"/proc/{current}/status")
        rss = re.search(r"VmRSS:\s+(\d+)", status.read_text()) if status.exists() else None
        total += int(rss.group(1)) if rss else 0
    return total / 1024


def server_pid(hub_pid, name):
    """The pid of ``name``'s single-user server: the hub's child whose HOME is their home."""
    for child in Path(f"/proc/{hub_pid}/task/{hub_pid}/children").read_text().split():
        environ = Path(f"/proc/{child}/environ").read_bytes().split(b"\0")
        if f"MAPTEACH_LEARNER={name}".encode() in environ:
            return int(child)
    raise AssertionError(f"no server process of {name} under the hub")


def progress_lines(room, name):
    path = progress_path_for(room / "progress", name)
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="the room's hub is for a Linux server")
def test_two_learners_each_have_their_own_server_workbook_and_progress(tmp_path):
    requests = hub_modules()
    port, hub_port, api_port = free_ports(3)
    env = {**os.environ, "MAPTEACH_HUB_ROOM": str(tmp_path), "MAPTEACH_HUB_PASSWORD": PASSWORD}
    command = [sys.executable, "-m", "jupyterhub", "-f", str(CONFIG), "--ip=127.0.0.1"]
    command += [f"--port={port}", f"--JupyterHub.hub_port={hub_port}"]
    command += [f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{api_port}"]
    base, began = f"http://127.0.0.1:{port}", time.monotonic()
    log = (tmp_path / "hub.log").open("w")
    hub = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for(
            lambda: hub_up(requests, hub, f"{base}/hub/login", tmp_path / "hub.log"), "the hub"
        )
        print(f"\nhub started in {time.monotonic() - began:.1f} s")
        for name, answer in (("ada", "0.25"), ("grace", "1/2")):
            headers = log_in(requests, base, name)
            spawn(requests, base, name, headers)
            assert (tmp_path / name / "notebooks" / "00_start_here.ipynb").is_file()
            alone = tree_rss_mib(server_pid(hub.pid, name))
            reply = run_in_kernel(base, name, headers, CHECK.format(answer=answer))
            assert reply["status"] == "ok", reply
            rss = tree_rss_mib(server_pid(hub.pid, name))
            print(f"{name}'s server: {alone:.0f} MiB, {rss:.0f} MiB with a kernel")
        ada, grace = progress_lines(tmp_path, "ada"), progress_lines(tmp_path, "grace")
        assert [(line["learner"], line["answer"], line["verdict"]) for line in ada] == [
            ("ada", "0.25", "incorrect")
        ]
        assert [(line["learner"], line["answer"], line["verdict"]) for line in grace] == [
            ("grace", "1/2", "correct")
        ]
    finally:
        hub.terminate()
        hub.wait(timeout=60)
        log.close()


def test_configure_gives_each_learner_a_home_in_the_room_and_the_instructor_admin(tmp_path):
    c, room = Config(), tmp_path / "room"
    configure(c, checkout=ROOT, room=room, instructor=" teacher ", password="p" * 8,
              admin_password="a" * 32)  # fmt: skip
    assert c.SimpleLocalProcessSpawner.home_dir_template == str(room / "{username}")
    assert c.SharedPasswordAuthenticator.admin_users == {"teacher"}
    assert c.SharedPasswordAuthenticator.user_password == "p" * 8
    venv_bin = Path(sys.executable).parent  # the hub's: make hub runs it from .venv
    assert c.Spawner.cmd == [sys.executable, "-m", "jupyterhub.singleuser"]
    assert c.ConfigurableHTTPProxy.command == [str(venv_bin / "configurable-http-proxy")]
    assert c.Spawner.default_url == "/lab/tree/notebooks/00_start_here.ipynb"
    assert (room / "progress").is_dir()


def test_the_hubs_state_is_kept_out_of_the_room(tmp_path):
    c, room = Config(), tmp_path / "room"
    configure(c, checkout=ROOT, room=room, password="p" * 8, admin_password="a" * 32)
    state = [Path(c.JupyterHub.db_url.removeprefix("sqlite:///")).parent]
    state += [Path(path).parent for path in (c.JupyterHub.cookie_secret_file,
                                             c.ConfigurableHTTPProxy.pid_file)]  # fmt: skip
    assert {folder.parent for folder in state} == {tmp_path}
    assert not any(folder.is_relative_to(room) for folder in state)


def test_the_passwords_leave_the_hubs_environment_and_the_risk_is_printed(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("MAPTEACH_HUB_PASSWORD", "learners!")
    monkeypatch.setenv("MAPTEACH_HUB_ADMIN_PASSWORD", "a" * 32)
    c = Config()
    configure(c, checkout=ROOT, room=tmp_path / "room", password="learners!",
              admin_password="a" * 32)  # fmt: skip
    assert "MAPTEACH_HUB_PASSWORD" not in os.environ
    assert "MAPTEACH_HUB_ADMIN_PASSWORD" not in os.environ
    warning = capsys.readouterr().out
    assert "runs as this Unix user" in warning and "trusted room only" in warning


def test_unset_passwords_are_generated_long_enough_and_printed(tmp_path, capsys):
    c = Config()
    configure(c, checkout=ROOT, room=tmp_path / "room")
    shown = capsys.readouterr().out
    learners = c.SharedPasswordAuthenticator.user_password
    instructor = c.SharedPasswordAuthenticator.admin_password
    assert len(learners) >= 8 and len(instructor) >= 32 and learners != instructor
    assert learners in shown and instructor in shown


def test_usernames_cannot_leave_the_room_or_hide_in_it(tmp_path):
    c = Config()
    configure(c, checkout=ROOT, room=tmp_path / "room", password="p" * 8,
              admin_password="a" * 32)  # fmt: skip
    pattern = re.compile(c.SharedPasswordAuthenticator.username_pattern)
    names = ("ada", "张三", "pair-3", "o'neil", "progress-2", "my progress")
    assert all(pattern.match(name) for name in names)
    refused = ("../ada", "a/b", ".jupyterhub", "", "a\\b", "progress")  # progress: the folder
    assert not any(pattern.match(name) for name in refused)


def test_the_spawn_hook_copies_the_workbook_once_and_names_the_learner(tmp_path):
    from types import SimpleNamespace

    workbook = tmp_path / "workbook"
    workbook.mkdir()
    (workbook / "01.ipynb").write_text("original", encoding="utf-8")
    home, progress = tmp_path / "room" / "ada", tmp_path / "room" / "progress"
    spawner = SimpleNamespace(home_dir=str(home), environment={"KEEP": "1"},
                              user=SimpleNamespace(name="ada"))  # fmt: skip
    spawn_hook(workbook, progress)(spawner)
    (home / "notebooks" / "01.ipynb").write_text("ada's edits", encoding="utf-8")
    assert not copy_workbook(workbook, home)  # a second spawn keeps her copy
    assert (home / "notebooks" / "01.ipynb").read_text(encoding="utf-8") == "ada's edits"
    assert spawner.environment == {
        "KEEP": "1",
        "MAPTEACH_PROGRESS": str(progress_path_for(progress, "ada")),  # the app's file for ada
        "MAPTEACH_LEARNER": "ada",
    }
