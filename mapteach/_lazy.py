"""Lazy public paths: a package's ``__init__`` names what it offers without importing it yet.

Each feature package's ``__init__`` maps its public names to the module of the package
that defines them; a name is imported the first time it is used (PEP 562), so
``import mapteach.exercises`` loads no widget library until a widget is asked for.
Standard library only.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
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
