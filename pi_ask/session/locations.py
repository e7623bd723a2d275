"""Where session files live: our own logs, pi's sessions and Claude Code transcripts.

Our log for a working directory is ``<state>/sessions/<encoded cwd>.jsonl``, the cwd encoded as
pi encodes it (protocols.md §3.1), so a reader of both trees sees the same name.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from pi_ask.config.paths import state_dir

_PI_SEPARATORS = str.maketrans("/\\:", "---")
# Compiled (and cached by ``re``) on first use: only ``pi-ask answer`` reads Claude's folders.
_CLAUDE_SEPARATORS = r"[^A-Za-z0-9]"


def encode_cwd(cwd: Path) -> str:
    """Encode a working directory the way pi names its per-cwd session folder.

    One leading separator is dropped and every ``/``, ``\\`` and ``:`` becomes ``-``; the
    result is wrapped in ``--``: ``/home/ann/proj`` gives ``--home-ann-proj--``.
    """
    text = str(cwd)
    if text[:1] in ("/", "\\"):
        text = text[1:]
    return f"--{text.translate(_PI_SEPARATORS)}--"


def encode_claude_cwd(cwd: Path) -> str:
    """Encode a working directory the way Claude Code names its project folder.

    Every character that is not an ASCII letter or digit becomes ``-``:
    ``/home/ann/my_proj`` gives ``-home-ann-my-proj``.
    """
    return re.sub(_CLAUDE_SEPARATORS, "-", str(cwd))


def sessions_dir() -> Path:
    """The folder of our session logs, one per working directory."""
    return state_dir() / "sessions"


def default_log_path(cwd: Path | None = None) -> Path:
    """Our session log for ``cwd`` (the current directory by default)."""
    where = (cwd or Path.cwd()).resolve()
    return sessions_dir() / f"{encode_cwd(where)}.jsonl"


def every_log() -> tuple[Path, ...]:
    """Every one of our logs (``--all``), in name order; none when the folder is missing."""
    try:
        return tuple(sorted(p for p in sessions_dir().glob("*.jsonl") if p.is_file()))
    except OSError:
        return ()


def is_own_file(path: Path) -> bool:
    """True when ``path`` lies inside our state folder, so we may append to it."""
    try:
        path.resolve().relative_to(state_dir().resolve())
    except ValueError:
        return False
    return True


def write_path(session: Path | None, cwd: Path | None = None) -> Path:
    """The log our entries go to: ``session`` when it is ours, else the default log."""
    if session is not None and is_own_file(session):
        return session
    return default_log_path(cwd)


def read_paths(session: Path | None, cwd: Path | None = None) -> tuple[Path, ...]:
    """The files replay and resume read: ``session`` (ours or pi's) and our default log."""
    own = write_path(session, cwd)
    if session is None or session.resolve() == own.resolve():
        return (own,)
    return (session, own)


def pi_agent_dir() -> Path:
    """pi's agent folder: ``PI_CODING_AGENT_DIR`` (``~`` expanded) or ``~/.pi/agent``."""
    override = os.environ.get("PI_CODING_AGENT_DIR")
    if override:
        return Path(override).expanduser()
    return Path.home() / ".pi" / "agent"


def pi_session_candidates(cwd: Path) -> tuple[Path, ...]:
    """pi session files that may belong to ``cwd``, newest first by modification time.

    ``PI_CODING_AGENT_SESSION_DIR`` names a flat folder shared by every cwd (the caller then
    checks each header's ``cwd``); otherwise the per-cwd folder under the agent dir is used.
    """
    return _newest_first(pi_session_folder(cwd))


def pi_session_folder(cwd: Path) -> Path:
    """The folder pi keeps ``cwd``'s sessions in (``PI_CODING_AGENT_SESSION_DIR``: a flat one)."""
    flat = os.environ.get("PI_CODING_AGENT_SESSION_DIR")
    return Path(flat).expanduser() if flat else pi_agent_dir() / "sessions" / encode_cwd(cwd)


def claude_transcript_folder(cwd: Path) -> Path:
    """The folder Claude Code keeps ``cwd``'s transcripts in."""
    override = os.environ.get("CLAUDE_CONFIG_DIR")
    root = Path(override).expanduser() if override else Path.home() / ".claude"
    return root / "projects" / encode_claude_cwd(cwd)


def claude_transcript_candidates(cwd: Path) -> tuple[Path, ...]:
    """Claude Code transcripts of ``cwd``, newest first by modification time."""
    return _newest_first(claude_transcript_folder(cwd))


def _newest_first(folder: Path) -> tuple[Path, ...]:
    try:
        files = [p for p in folder.glob("*.jsonl") if p.is_file()]
    except OSError:
        return ()
    stamped: list[tuple[float, Path]] = []
    for path in files:
        try:
            stamped.append((path.stat().st_mtime, path))
        except OSError:
            continue
    stamped.sort(key=lambda pair: pair[0], reverse=True)
    return tuple(path for _, path in stamped)
