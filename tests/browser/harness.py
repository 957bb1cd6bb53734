"""Start JupyterLab or Voila on a free loopback port and drive it with Playwright; load the
site's builder (``tools/build_site.py``, :func:`site_tool`).

Shared by the browser tests (``conftest.py``), the site's tests and the latency benchmark
(``benchmarks/board_browser.py``). Chromium comes from Debian
(``apt-get install -y chromium``); Playwright's own browser download is never used.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
TOKEN = "mapteach-browser-tests"
VIEWPORT = {"width": 1400, "height": 1000}

#: True once the current notebook's kernel is idle.
KERNEL_IDLE = """() => {
  const kernel = window.jupyterapp?.shell?.currentWidget?.sessionContext?.session?.kernel;
  return kernel?.status === 'idle';
}"""


@functools.cache
def site_tool() -> ModuleType:
    """``tools/build_site.py`` (not a package's module) as a module, loaded once."""
    spec = importlib.util.spec_from_file_location(
        "build_site_tool", ROOT / "tools" / "build_site.py"
    )
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = tool  # dataclasses look their module up there
    spec.loader.exec_module(tool)
    return tool


def missing_browser() -> str | None:
    """What is missing to run a browser here, or None when all is there."""
    missing = []
    if not Path(CHROMIUM).exists():
        missing.append(f"Debian's chromium at {CHROMIUM} (as root: apt-get install -y chromium)")
    try:
        import playwright  # noqa: F401
    except ImportError:
        missing.append("the playwright package (make test installs it)")
    return " and ".join(missing) or None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def make_workdir(root: Path) -> Path:
    """Copy the notebooks into ``root`` (autosave never touches the repository) and
    write an isolated Jupyter configuration beside them."""
    shutil.copytree(NOTEBOOKS, root / "notebooks")
    labconfig = root / "config" / "labconfig"
    labconfig.mkdir(parents=True)
    (labconfig / "page_config.json").write_text(
        json.dumps({"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}})
    )
    return root


def server_env(workdir: Path) -> dict[str, str]:
    """The environment a server (and its kernels) runs in: Jupyter's configuration, the
    progress file and the judgments folder all inside ``workdir``."""
    config = workdir / "config"
    return {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(config),
        "JUPYTERLAB_SETTINGS_DIR": str(config / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(config / "workspaces"),
        "JUPYTER_RUNTIME_DIR": str(config / "runtime"),
        "MAPTEACH_PROGRESS": str(workdir / "progress.jsonl"),
        "MAPTEACH_JUDGMENTS": str(workdir / "judgments"),
    }


def _wait_until(ready, process: subprocess.Popen, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with code {process.returncode} before it was ready")
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} was not ready within {timeout:.0f} s")
        time.sleep(0.2)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except OSError:
        return False


def _listens(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def _stop(process: subprocess.Popen) -> None:
    """Stop a server as Ctrl-C would (SIGTERM: it shuts its kernels down), then wait."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def _serving(
    command: list[str], workdir: Path, ready, what: str, env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen]:
    process = subprocess.Popen(
        command,
        cwd=workdir,
        env={**server_env(workdir), **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_until(ready, process, what)
        yield process
    finally:
        _stop(process)


@dataclass
class Lab:
    """A running JupyterLab: its URL, and a way to stop it before the test ends."""

    url: str
    process: subprocess.Popen

    def stop(self) -> None:
        """Stop the server (and its kernels) now; the page loses its connection."""
        _stop(self.process)


@contextmanager
def jupyterlab(workdir: Path) -> Iterator[str]:
    """JupyterLab serving ``workdir`` with ``window.jupyterapp`` exposed; yields its URL."""
    with running_jupyterlab(workdir) as lab:
        yield lab.url


@contextmanager
def running_jupyterlab(workdir: Path) -> Iterator[Lab]:
    """JupyterLab serving ``workdir``, as :func:`jupyterlab`; yields a :class:`Lab`."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={TOKEN}",
        f"--ServerApp.root_dir={workdir}",
        "--expose-app-in-browser",
        "--allow-root",
    ]
    with _serving(
        command, workdir, lambda: _answers(f"{base}/api/status?token={TOKEN}"), "JupyterLab"
    ) as process:
        yield Lab(base, process)


@contextmanager
def voila(
    workdir: Path, notebook: str, env: dict[str, str] | None = None, token: str | None = None
) -> Iterator[str]:
    """Voila serving one notebook; yields its URL. Each page view starts a kernel,
    so readiness is probed with a TCP connect, not a page request. ``env`` adds to the
    server's environment (:func:`server_env`); with a ``token``, the URL carries it."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "voila",
        notebook,
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        *([f"--token={token}"] if token else []),
    ]
    with _serving(command, workdir, lambda: _listens(port), "Voila", env):
        yield f"http://127.0.0.1:{port}" + (f"/?token={token}" if token else "")


@contextmanager
def chromium() -> Iterator:
    """Debian's headless Chromium under Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


def require_browser() -> None:
    """Skip the test when the browser is missing (fail where ``MAPTEACH_STRICT`` is set)."""
    import pytest

    missing = missing_browser()
    if missing:
        message = f"browser tests need {missing}"
        if os.environ.get("MAPTEACH_STRICT"):
            pytest.fail(message)
        pytest.skip(message)


def open_notebook(browser, lab_url: str, name: str, workspace: str | None = None):
    """Open a notebook in JupyterLab, clear its stored outputs and run all cells.

    ``browser`` is a browser or a browser context (whose pages share local storage);
    ``workspace`` names a Lab workspace of its own, for a second tab beside a first.
    """
    is_context = not hasattr(browser, "new_context")  # a context's pages take its viewport
    page = browser.new_page() if is_context else browser.new_page(viewport=VIEWPORT)
    where = f"workspaces/{workspace}/" if workspace else ""
    page.goto(f"{lab_url}/lab/{where}tree/notebooks/{name}?token={TOKEN}&reset")
    page.wait_for_function(KERNEL_IDLE, timeout=60_000)
    run_all(page)
    return page


def run_all(page) -> None:
    """Clear the current notebook's outputs and run all its cells."""
    page.evaluate(
        """async () => {
          await window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs');
          await window.jupyterapp.commands.execute('notebook:run-all-cells');
        }"""
    )


def restart_and_run_all(page) -> None:
    """Restart the current notebook's kernel (accepting Lab's dialog) and run all cells."""
    page.evaluate("() => { window.jupyterapp.commands.execute('kernelmenu:restart'); }")
    accept = page.locator(".jp-Dialog .jp-mod-accept")
    accept.wait_for(timeout=15_000)
    accept.click()
    page.wait_for_function(KERNEL_IDLE, timeout=60_000)
    run_all(page)


def kill_kernel(page) -> None:
    """Make the current notebook's kernel die as a crash does (``os._exit``), wait for the
    server to restart it, and dismiss Lab's dialog about it."""
    page.evaluate(
        """() => {
          const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
          window.__killedKernel = kernel.id;
          kernel.requestExecute({ code: 'import os; os._exit(1)' });
        }"""
    )
    page.wait_for_function(
        """() => {
          const kernel = window.jupyterapp.shell.currentWidget?.sessionContext?.session?.kernel;
          return kernel && kernel.status !== 'idle' && kernel.status !== 'busy';
        }""",
        timeout=30_000,
    )
    page.wait_for_function(KERNEL_IDLE, timeout=60_000)
    dialog = page.locator(".jp-Dialog .jp-mod-accept")
    if dialog.count():
        dialog.first.click()


def open_lab(browser, lab_url: str):
    """A page with JupyterLab open and restored, no notebook yet (see :func:`switch_to`)."""
    page = browser.new_page(viewport=VIEWPORT)
    page.goto(f"{lab_url}/lab?token={TOKEN}&reset")
    page.wait_for_function("() => window.jupyterapp?.shell !== undefined", timeout=60_000)
    page.evaluate("async () => { await window.jupyterapp.restored; }")
    return page


def switch_to(page, name: str) -> None:
    """In a page from :func:`open_lab`, close every open document (shutting its kernel
    down), open the notebook ``name`` (under the copied ``notebooks/``), wait for its
    kernel and run all its cells: one page serves many notebooks, one kernel at a time."""
    page.evaluate(
        """async (path) => {
          const app = window.jupyterapp;
          for (const widget of [...app.shell.widgets('main')]) {
            if (widget.sessionContext) await widget.sessionContext.shutdown();
            widget.dispose();
          }
          const widget = await app.commands.execute(
            'docmanager:open', { path, factory: 'Notebook' }
          );
          await widget.context.ready;
          await widget.sessionContext.ready;
          app.shell.activateById(widget.id);
        }""",
        f"notebooks/{name}",
    )
    page.wait_for_function(KERNEL_IDLE, timeout=60_000)
    run_all(page)


def error_outputs(page) -> list[str]:
    """What the current notebook's cells wrote to stderr: tracebacks, and warnings."""
    return page.evaluate(
        """() => [...document.querySelectorAll(
             '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
           )].map((node) => node.textContent.slice(-1500))"""
    )
