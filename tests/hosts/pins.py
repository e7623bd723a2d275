"""The real host CLIs of the host matrix, pinned, and where ``.ci/run`` installs them.

Each host gets its own npm prefix ``<hosts folder>/<key>`` (two Claude Code releases cannot
share one ``node_modules``). The folder is ``$PI_ASK_HOSTS_DIR``, else ``.hosts/`` at the
repository's root (ignored by git), so a local run finds what ``python -m tests.hosts.install``
put there.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

HOSTS_ENV = "PI_ASK_HOSTS_DIR"
ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Pin:
    key: str  # the folder of its npm prefix, and the test ids' name for it
    packages: tuple[str, ...]  # npm specs installed into that prefix
    binary: str  # the program in node_modules/.bin
    package: str  # the package whose package.json names the installed version


PINS = (
    Pin("codex", ("@openai/codex@0.171.0",), "codex", "@openai/codex"),
    # 2.1.332 wants node >= 22: npm's `node` package puts one in the same prefix's .bin.
    Pin(
        "claude-2.1.332",
        ("@anthropic-ai/claude-code@2.1.332", "node@22.23.3"),
        "claude",
        "@anthropic-ai/claude-code",
    ),
    Pin(
        "claude-2.1.197",
        ("@anthropic-ai/claude-code@2.1.197",),
        "claude",
        "@anthropic-ai/claude-code",
    ),
    Pin("gemini", ("@google/gemini-cli@0.61.0",), "gemini", "@google/gemini-cli"),
    Pin("opencode", ("opencode-ai@1.18.33",), "opencode", "opencode-ai"),
)
PIN_BY_KEY = {pin.key: pin for pin in PINS}


def hosts_dir() -> Path:
    named = os.environ.get(HOSTS_ENV)
    return Path(named).absolute() if named else ROOT / ".hosts"


def bin_dir(pin: Pin) -> Path:
    return hosts_dir() / pin.key / "node_modules" / ".bin"


def pinned_version(pin: Pin) -> str:
    return pin.packages[0].rpartition("@")[2]
