"""The files under the working directory that ``@`` completion offers.

Listed once, lazily, on the first ``@`` (never on the first-frame path), then searched in
memory: a repository of 100,000 files is listed by one ``git ls-files`` call and searched
by a substring scan over pre-lowered paths. Inside a git work tree, git decides what is
ignored (``--exclude-standard``); elsewhere a bounded directory walk skips the usual
tool folders. Paths are relative and never leave the directory: no ``..``, no absolute
paths, symlinked directories are not followed.
"""

from __future__ import annotations

import heapq
import os
import subprocess
import threading
from collections.abc import Iterable
from pathlib import Path

WALK_LIMIT = 50_000
_GIT_TIMEOUT_S = 10.0
_SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
    }
)


def _git_files(root: Path) -> list[str] | None:
    """Tracked and untracked-but-not-ignored files under ``root``, or ``None`` outside git."""
    try:
        done = subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "-z"],
            cwd=root,
            capture_output=True,
            timeout=_GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    names = done.stdout.decode("utf-8", "replace").split("\0")
    return [name for name in names if name and not name.startswith("../")]


def _walk_files(root: Path, limit: int) -> list[str]:
    """Files under ``root`` by a breadth-first walk, at most ``limit`` of them."""
    found: list[str] = []
    pending = [""]
    while pending and len(found) < limit:
        relative = pending.pop(0)
        try:
            entries = sorted(os.scandir(root / relative), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            path = f"{relative}{entry.name}"
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in _SKIPPED_DIRS:
                        pending.append(path + "/")
                elif entry.is_file():
                    found.append(path)
            except OSError:
                continue
            if len(found) >= limit:
                break
    return found


def _with_directories(files: Iterable[str]) -> list[str]:
    """The files plus every folder that holds one (folders end with ``/``)."""
    paths: list[str] = []
    folders: set[str] = set()
    for name in files:
        paths.append(name)
        cut = name.rfind("/")
        while cut > 0:
            folder = name[: cut + 1]
            if folder in folders:
                break
            folders.add(folder)
            cut = name.rfind("/", 0, cut)
    return sorted(folders) + sorted(paths)


def _rank(lowered: str, position: int) -> int:
    """0: the path starts with the query; 1: a file or folder name does; 2: elsewhere."""
    if position == 0:
        return 0
    return 1 if lowered[position - 1] == "/" else 2


class FileIndex:
    """The completion candidates under one directory, listed on first use.

    Thread-safe: the completer searches from a worker thread.
    """

    def __init__(self, root: Path, *, walk_limit: int = WALK_LIMIT) -> None:
        self.root = root
        self._walk_limit = walk_limit
        self._lock = threading.Lock()
        self._paths: tuple[str, ...] | None = None
        self._lowered: tuple[str, ...] = ()

    def paths(self) -> tuple[str, ...]:
        """Every candidate (folders first, ending with ``/``), listing them on first call."""
        with self._lock:
            if self._paths is None:
                files = _git_files(self.root)
                if files is None:
                    files = _walk_files(self.root, self._walk_limit)
                self._paths = tuple(_with_directories(files))
                self._lowered = tuple(path.lower() for path in self._paths)
            return self._paths

    def search(self, query: str, limit: int = 50) -> list[str]:
        """Candidates containing ``query`` (case-insensitive), best matches first.

        A query that tries to leave the directory (absolute, ``~``, a ``..`` part) finds
        nothing.
        """
        if query.startswith(("/", "~")) or ".." in query.split("/"):
            return []
        paths = self.paths()
        needle = query.lower()
        scored = (
            (_rank(lowered, position), len(path), path)
            for path, lowered in zip(paths, self._lowered, strict=True)
            if (position := lowered.find(needle)) >= 0
        )
        return [path for _, _, path in heapq.nsmallest(limit, scored)]
