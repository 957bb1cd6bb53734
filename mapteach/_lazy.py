"""Lazy public paths: a package's ``__init__`` names what it offers without importing it yet.

Each feature package's ``__init__`` maps its public names to the module of the package
that defines them; a name is imported the first time it is used (PEP 562), so
``import mapteach.exercises`` loads no widget library until a widget is asked for.
Standard library only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def load(package: str, exports: Mapping[str, str], name: str) -> Any:
    """The public ``name`` of ``package``, imported from its module on first use.

    >>> load("mapteach.explain", {"trace_ap": "ap_trace"}, "trace_ap").__name__
    'trace_ap'
    >>> load("mapteach.explain", {}, "nothing")
    Traceback (most recent call last):
    ...
    AttributeError: module 'mapteach.explain' has no attribute 'nothing'
    """
    if name not in exports:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{package}.{exports[name]}"), name)


def public_path(
    package: str, exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """A package's ``__getattr__``, ``__dir__`` and ``__all__`` for ``exports``.

    >>> getattr_, dir_, all_ = public_path("mapteach.explain", {"trace_ap": "ap_trace"})
    >>> getattr_("trace_ap").__name__, dir_(), all_
    ('trace_ap', ['trace_ap'], ['trace_ap'])
    """
    names = sorted(exports)

    def __getattr__(name: str) -> Any:  # noqa: N807 (the module hook's own name)
        return load(package, exports, name)

    def __dir__() -> list[str]:  # noqa: N807
        return list(names)

    return __getattr__, __dir__, names
