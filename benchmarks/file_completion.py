"""``@`` file completion in a git work tree of 100,000 files (python-port.md §7)."""

from __future__ import annotations

import statistics
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

QUERIES = ("file_9", "pkg05/mod3", "zzz", "mod", "file_12345")


@dataclass(frozen=True, slots=True)
class CompletionTiming:
    """The first listing (done once, in the completer's thread) and each search."""

    files: int
    paths_listed: int
    first_listing_ms: float
    search_median_ms: float
    search_max_ms: float


def measure_file_completion(workdir: Path, files: int = 100_000) -> CompletionTiming:
    """List and search a git work tree of ``files`` files, one folder of it git-ignored."""
    from pi_ask.faces.tui.file_index import FileIndex

    root = workdir / "repo"
    for n in range(files):
        folder = root / f"pkg{n // 1000:03d}" / f"mod{n // 100 % 10}"
        if n % 100 == 0:
            folder.mkdir(parents=True)
        (folder / f"file_{n}.py").touch()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / ".gitignore").write_text("pkg000/\n", encoding="utf-8")
    index = FileIndex(root)
    start = time.perf_counter()
    listed = len(index.paths())
    listing = time.perf_counter() - start
    searches = []
    for query in QUERIES:
        start = time.perf_counter()
        index.search(query)
        searches.append(time.perf_counter() - start)
    return CompletionTiming(
        files=files,
        paths_listed=listed,
        first_listing_ms=round(listing * 1000, 1),
        search_median_ms=round(statistics.median(searches) * 1000, 1),
        search_max_ms=round(max(searches) * 1000, 1),
    )
