"""The few settings an asker needs, remembered from the last full read of the same file.

``pi-ask ask`` with no terminal of its own (how an agent's tool call runs it) needs a
handful of settings before it knows whether anything will draw: how single questions are
presented, its deadline, whether to wait when nobody can be reached, how tmux opens it,
which face a terminal gets, the language, the files a published ask's answers may carry.
Reading them through the store builds every setting, the keymaps and the flow's behaviour,
which costs that ask about as much as starting Python (python-port.md §8). So the asker
remembers them after a full read, in ``<state>/settings/<hash of the file's path>.json``,
beside what they were read from: the file's identity (device, inode, size, modification and
change times in nanoseconds; any write changes the change time), every ``PI_ASK_*``
variable, this pi-ask's version and its settings code. ``recall`` hands them back while all
of that still holds; anything else is a miss, and the caller reads the file through the
store (``asker_settings`` does both).
"""

import contextlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from pi_ask.config.paths import config_path, state_dir
from pi_ask.face_table import TERMINAL_FACES, NoTerminal, TerminalFace, TmuxMode

if TYPE_CHECKING:
    from pi_ask.config.settings import Settings

# The code whose change may change what a file means (an editable install changes without
# a new version): its files' modification times are part of the key.
_CODE = ("catalogue.py", "settings.py", "loading.py", "environment.py", "remembered.py")
_MAX_BYTES = 64 * 1024


class AskerSettings(NamedTuple):
    """What an asker reads before it knows whether it draws (see the module docstring).

    Attributes:
        present_single_as_multi: ``behaviour.present_single_as_multi``.
        answer_timeout_s: The deadline (``None``: none), as ``Settings.routing`` has it.
        no_terminal: ``behaviour.no_terminal``: ``answer`` or ``wait``.
        tmux: ``inbox.tmux``: ``popup``, ``window`` or ``off``.
        face: ``ui.face``: what a terminal gets (``tui`` or ``plain``).
        language: ``ui.language``.
        max_files: ``attachments.max_files``: the files a published ask's answers may carry.
        max_bytes: ``attachments.max_mb`` in bytes.
    """

    present_single_as_multi: bool
    answer_timeout_s: float | None
    no_terminal: NoTerminal
    tmux: TmuxMode
    face: TerminalFace
    language: str
    max_files: int
    max_bytes: int

    @classmethod
    def of(cls, settings: "Settings") -> "AskerSettings":
        """The asker's part of ``settings``."""
        return cls(
            settings.behaviour.present_single_as_multi,
            settings.routing.answer_timeout_s,
            settings.routing.no_terminal,
            settings.routing.tmux,
            settings.ui.face,
            settings.ui.language,
            settings.attachments.max_files,
            settings.attachments.max_bytes,
        )


def asker_settings(config: Path | None = None) -> AskerSettings:
    """The asker's settings of the ``--config`` file: remembered, else read and remembered.

    The process then speaks the settings' language (as ``open_store`` makes it).
    """
    from pi_ask.i18n import use_language

    path = config_path(config)
    found = recall(path)
    if found is None:
        from pi_ask.config.store import SettingsStore  # every setting, read thoroughly

        # Read now (not a store this process opened before the environment changed); a
        # missing file is written first, as ``open_store`` does.
        found = AskerSettings.of(SettingsStore(path).snapshot())
        remember(path, found)
    use_language(found.language)
    return found


def recall(path: Path) -> AskerSettings | None:
    """What ``remember`` kept for the file at ``path``, while it still holds; else ``None``."""
    key = _key(path)
    if key is None:
        return None
    try:
        with open(_memo(path), "rb") as memo:
            kept = json.loads(memo.read(_MAX_BYTES))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(kept, dict) or kept.get("key") != key:
        return None
    values = kept.get("settings")
    if not isinstance(values, list) or len(values) != len(AskerSettings._fields):
        return None
    found = AskerSettings(*values)
    return found if _well_typed(found) else None


def remember(path: Path, settings: AskerSettings) -> None:
    """Keep ``settings`` as read from the file at ``path`` now (best effort: a folder that
    cannot be written only means the next asker reads the file again)."""
    from pi_ask.private_folders import make_private

    key = _key(path)
    memo = _memo(path)
    try:
        memo.parent.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return
    if key is None or make_private(memo.parent) is not None:
        return
    data = json.dumps({"key": key, "settings": list(settings)}).encode("utf-8")
    temporary = memo.with_name(f".{memo.name}.{os.getpid()}.tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(descriptor, data)
        finally:
            os.close(descriptor)
        os.replace(temporary, memo)
    except OSError:  # nothing to say: the memo is only a shortcut
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _key(path: Path) -> list[object] | None:
    """What the remembered settings depend on; ``None`` when the file is not there."""
    from pi_ask.version import __version__

    try:
        info = os.stat(path)
        code = [os.stat(Path(__file__).with_name(name)).st_mtime_ns for name in _CODE]
    except OSError:
        return None
    file = [info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns]
    variables = sorted(
        [name, value] for name, value in os.environ.items() if name.upper().startswith("PI_ASK_")
    )
    return [os.fspath(path), file, variables, __version__, code]


def _memo(path: Path) -> Path:
    import zlib

    name = f"{zlib.crc32(os.fsencode(path)):08x}.json"
    return state_dir() / "settings" / name


def _well_typed(found: AskerSettings) -> bool:
    deadline = found.answer_timeout_s
    return (
        isinstance(found.present_single_as_multi, bool)
        and (deadline is None or (isinstance(deadline, int | float) and deadline > 0))
        and all(isinstance(text, str) for text in (found.no_terminal, found.tmux, found.language))
        and found.face in TERMINAL_FACES
        and all(type(limit) is int and limit >= 0 for limit in (found.max_files, found.max_bytes))
    )
