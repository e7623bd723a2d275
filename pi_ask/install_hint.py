"""How to add an extra (``mcp``, ``web``, ``llm``) to *this* copy of pi-ask.

pi-ask is installed from a clone, not from a package index, and the name ``pi-ask`` on an index
is not ours: anyone could claim it. So a hint never says ``pip install 'pi-ask[mcp]'``; it is
derived from how this copy was installed, read from its ``direct_url.json`` (PEP 610) and, for
``uv tool install``, from uv's receipt (``uv-receipt.toml``) in the tool's environment.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote, urlparse

DISTRIBUTION = "pi-ask"
RECEIPT = "uv-receipt.toml"


class Origin(NamedTuple):
    """Where this copy came from.

    Attributes:
        folder: The clone it was installed from (a ``file://`` URL), or ``None``.
        vcs_url: ``git+https://...@commit`` when installed from a repository URL.
        editable: Installed in place (``uv sync``, ``pip install -e``).
        uv_tool: Installed with ``uv tool install`` (a receipt beside the environment).
        extras: The extras the uv receipt already lists (kept in the new command).
    """

    folder: Path | None = None
    vcs_url: str | None = None
    editable: bool = False
    uv_tool: bool = False
    extras: tuple[str, ...] = ()


def origin_from(direct_url: object, receipt: str | None) -> Origin:
    """Read ``direct_url.json``'s decoded content and the receipt's text (either may be absent).

    Example:
        >>> origin_from({"url": "file:///src/pi-ask", "dir_info": {}}, None).folder
        PosixPath('/src/pi-ask')
    """
    folder: Path | None = None
    vcs_url: str | None = None
    editable = False
    if isinstance(direct_url, dict) and isinstance(direct_url.get("url"), str):
        url = direct_url["url"]
        dir_info = direct_url.get("dir_info")
        vcs_info = direct_url.get("vcs_info")
        if isinstance(vcs_info, dict) and isinstance(vcs_info.get("vcs"), str):
            commit = vcs_info.get("commit_id")
            vcs_url = f"{vcs_info['vcs']}+{url}" + (f"@{commit}" if isinstance(commit, str) else "")
        elif url.startswith("file://"):
            folder = Path(unquote(urlparse(url).path))
            editable = isinstance(dir_info, dict) and dir_info.get("editable") is True
    return Origin(folder, vcs_url, editable, receipt is not None, _receipt_extras(receipt))


def _receipt_extras(receipt: str | None) -> tuple[str, ...]:
    if receipt is None:
        return ()
    import tomllib

    try:
        tool = tomllib.loads(receipt).get("tool", {})
    except tomllib.TOMLDecodeError:
        return ()
    for requirement in tool.get("requirements", ()) if isinstance(tool, dict) else ():
        if isinstance(requirement, dict) and requirement.get("name") == DISTRIBUTION:
            extras = requirement.get("extras", ())
            return (
                tuple(e for e in extras if isinstance(e, str)) if isinstance(extras, list) else ()
            )
    return ()


def install_command(extra: str, origin: Origin, *, prefix: Path, python: str) -> str:
    """The command that adds ``extra`` to the copy described by ``origin``.

    Args:
        extra: The extra's name (``mcp``).
        origin: What ``origin_from`` read.
        prefix: This environment's folder (``sys.prefix``): a ``uv sync`` clone's is
            ``<clone>/.venv``.
        python: This interpreter (``sys.executable``), for ``pip``.

    Example:
        >>> install_command("mcp", Origin(Path("/src/pi-ask"), uv_tool=True),
        ...                 prefix=Path("/t"), python="python3")
        "uv tool install --compile-bytecode '/src/pi-ask[mcp]'"
    """
    extras = ",".join(dict.fromkeys((*origin.extras, extra)))
    pip = f"{shlex.quote(python)} -m pip install"
    if origin.vcs_url is not None:
        spec = shlex.quote(f"{DISTRIBUTION}[{extras}] @ {origin.vcs_url}")
        return f"uv tool install --compile-bytecode {spec}" if origin.uv_tool else f"{pip} {spec}"
    if origin.folder is None:
        return (
            f"reinstall pi-ask from its clone with the {extra} extra, e.g. "
            f"uv tool install --compile-bytecode '/path/to/pi-ask[{extra}]'"
        )
    spec = shlex.quote(f"{origin.folder}[{extras}]")
    if origin.uv_tool:
        return f"uv tool install --compile-bytecode {spec}"
    if origin.editable and prefix.resolve() == (origin.folder / ".venv").resolve():
        return f"cd {shlex.quote(str(origin.folder))} && uv sync --extra {extra}"
    return f"{pip} {'-e ' if origin.editable else ''}{spec}"


def this_origin() -> Origin:
    """How the running copy was installed (nothing found: an empty ``Origin``)."""
    from importlib import metadata

    try:
        text = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        text = None
    try:
        direct_url = json.loads(text) if text else None
    except ValueError:
        direct_url = None
    receipt_path = Path(sys.prefix) / RECEIPT
    try:
        receipt = receipt_path.read_text(encoding="utf-8") if receipt_path.is_file() else None
    except (OSError, UnicodeDecodeError):
        receipt = None
    return origin_from(direct_url, receipt)


def extra_command(extra: str) -> str:
    """The command adding ``extra`` to the running copy of pi-ask."""
    return install_command(extra, this_origin(), prefix=Path(sys.prefix), python=sys.executable)
