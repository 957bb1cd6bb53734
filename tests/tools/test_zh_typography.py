"""tools/zh_typography.py's ``fix`` on the catalogue: through ``tools/i18n.py merge``, with no
translation part, so that fixing the typography never merges an old part again."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
_spec = importlib.util.spec_from_file_location("zh_typography", ROOT / "tools" / "zh_typography.py")
assert _spec and _spec.loader
typography = sys.modules.setdefault("zh_typography", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(typography)


def test_fixing_the_catalogue_is_a_merge_of_no_part(monkeypatch):
    ran: list[list[str]] = []
    states = iter([{"a": (("a",), "见(图1)"), "b": (("b",), "好")}, {"a": (("a",), "见（图 1）")}])
    monkeypatch.setattr(typography, "_catalogue", lambda: next(states))

    def merged(command, **kwargs):
        ran.append(command)
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(typography.subprocess, "run", merged)
    po = ROOT / "mapteach/i18n/locale/zh/LC_MESSAGES/mapteach.po"
    assert typography.fix(po, quotes=True) == 1
    assert ran == [[sys.executable, str(ROOT / "tools/i18n.py"), "merge"]]


def test_a_failed_merge_is_reported(monkeypatch):
    monkeypatch.setattr(typography, "_catalogue", dict)
    monkeypatch.setattr(
        typography.subprocess, "run", lambda command, **_: subprocess.CompletedProcess(command, 1)
    )
    with pytest.raises(RuntimeError, match=r"tools/i18n.py merge failed \(exit 1\)"):
        typography.fix(ROOT / "mapteach/i18n/locale/zh/LC_MESSAGES/mapteach.po")
