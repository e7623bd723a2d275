"""Files attached to a pending ask's answers (python-port.md §12: web upload).

An answering host (the web page's upload) copies each file into the ask's own folder,
``<asks>/<id>/files/`` (0700, each copy 0600), and its drafts and its claim list them as the
answers' ``attachments``, in the draft form. Whoever reads such a message keeps only records
of files that are there: a regular file (never a link) directly in that folder, of the size
the record says, with a name that is one inert line. So a peer can never make the result
name a file of its own choosing elsewhere on the machine.

The files live with the ask's folder. An asker that waits for its answer takes them along
when it is answered (``adopt_files``): they move to ``<state>/attachments/<id>/``, where an
ask answered where it was asked keeps its files, before the folder goes. A detached ask's
files stay in its folder, which is kept a day after its result is fetched.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from pi_ask.contract.attachments import Attachment
from pi_ask.private_folders import make_private
from pi_ask.state.answers import put_answer
from pi_ask.state.model import AskState

FILES = "files"
MAX_NAME_CHARS = 255


def files_folder(ask_folder: Path) -> Path:
    """Where the answers' files of the ask in ``ask_folder`` are kept."""
    return ask_folder / FILES


def kept_folder(asks: Path, ask_id: str) -> Path:
    """Where an asker keeps the files of its answered ask: ``<state>/attachments/<id>/``,
    beside ``asks`` (``<state>/asks``), as for an ask answered where it was asked."""
    return asks.parent / "attachments" / ask_id


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name an attached file (``None``: it can): empty, a path, a line
    break or another control character, or too long."""
    if not name or name in (".", ".."):
        return "it is empty"
    if "/" in name or "\\" in name:
        return "it is a path, not a file name"
    if any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in name):
        return "it holds a line break or another control character"
    if len(name) > MAX_NAME_CHARS:
        return f"it is longer than {MAX_NAME_CHARS} characters"
    return None


def is_kept(item: Attachment, files: Path) -> bool:
    """True when ``item`` names a regular file directly in ``files``, of its size."""
    path = Path(item.path)
    if not path.is_absolute() or path.parent != files or name_problem(item.name) is not None:
        return False
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size == item.size


def adopt_files(state: AskState, into: Path) -> AskState:
    """Move every attached file of ``state`` into ``into`` (created 0700), the records
    following them; a file that cannot move keeps its record as it is."""
    for question_id, answer in state.answers:
        if answer.attachments:
            moved = answer._replace(attachments=tuple(_move(i, into) for i in answer.attachments))
            state = put_answer(state, question_id, moved)
    return state


def _move(item: Attachment, into: Path) -> Attachment:
    source = Path(item.path)
    into.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    if make_private(into) is not None:
        return item
    stem, dot, suffix = source.name.rpartition(".")
    if not dot or not stem:
        stem, suffix = source.name, ""
    for number in range(1, 1000):
        name = source.name if number == 1 else f"{stem}-{number}{'.' + suffix if suffix else ''}"
        target = into / name
        try:
            os.link(source, target, follow_symlinks=False)
        except FileExistsError:
            continue
        except OSError:
            return item  # another file system, or gone: it stays where it is
        with contextlib.suppress(OSError):
            os.unlink(source)
        return item._replace(path=str(target))
    return item
