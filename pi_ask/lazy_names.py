"""Package names loaded on first use (PEP 562), so importing a package stays cheap.

Each package lists where its public names live; ``import pi_ask.x`` then loads none of its
submodules until a name is asked for. The start-up of ``pi-ask`` depends on it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` that imports ``homes[name]`` (a module path) on first use.

    Example:
        >>> __getattr__ = lazy_names(__name__, {"ask_user": "pi_ask.api"})
    """

    def __getattr__(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(home), name)

    return __getattr__
