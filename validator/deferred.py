"""Modules polars imports as it loads but the ``deckcheck`` program seldom uses, imported
when first used instead of at start.

Loading polars imports ``importlib.metadata`` (for Iceberg scans, with ``email``, ``zipfile``
parts and more: about 12 ms of its 120 ms) and ``subprocess`` (for cloud credentials). Before
polars is loaded, the program puts a stand-in for each in ``sys.modules``: a module object
that imports the real one the first time one of its attributes is read, and reads it there
(``import x`` binds the stand-in; ``from x import y`` and ``x.y`` read the real module).
Only the program does this (not a library user, nor a test process: there a stand-in
would be a surprise).
"""

from __future__ import annotations

import sys
import types
from typing import Any

__all__ = ["MODULES", "defer"]

#: the modules imported when first used
MODULES = ("importlib.metadata", "subprocess")


class _Deferred(types.ModuleType):
    """Stands for a module in ``sys.modules`` until one of its attributes is read."""

    def __getattr__(self, attr: str) -> Any:
        import importlib

        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]  # the real module takes its place
        return getattr(importlib.import_module(self.__name__), attr)


def defer() -> list[str]:
    """A stand-in for each of ``MODULES`` not imported yet, unless polars is loaded already
    (it has imported them); the names of those deferred."""
    if "polars" in sys.modules:
        return []
    deferred = []
    for name in MODULES:
        if name in sys.modules:
            continue
        module = _Deferred(name)
        parent, _, child = name.rpartition(".")
        if parent:
            __import__(parent)
            setattr(sys.modules[parent], child, module)  # as ``import parent.child`` binds it
        sys.modules[name] = module
        deferred.append(name)
    return deferred
