"""Files attached to an answer (python-port.md §12), an extension the reference lacks.

``details.answers[<id>].attachments`` lists them: each file's ``path`` (the copy in the
ask's private folder), ``name`` (the file's own name, made safe), ``size`` in bytes and
``media_type``. The values are plain data; copying the files is the faces' and hosts' I/O.
"""

from typing import NamedTuple

from pi_ask.contract.kinds import JsonObject

DEFAULT_MAX_FILES = 10
DEFAULT_MAX_MB = 20


class Attachment(NamedTuple):
    """One attached file, as the result lists it."""

    path: str
    name: str
    size: int
    media_type: str

    def to_json(self) -> JsonObject:
        return {
            "path": self.path,
            "name": self.name,
            "size": self.size,
            "media_type": self.media_type,
        }


def size_text(size: int) -> str:
    """A size for people: ``512 B``, ``3.4 KB``, ``12.0 MB``.

    Example:
        >>> size_text(512), size_text(3_500), size_text(12_000_000)
        ('512 B', '3.4 KB', '12.0 MB')
    """
    if size < 1000:
        return f"{size} B"
    if size < 1_000_000:
        return f"{size / 1000:.1f} KB"
    return f"{size / 1_000_000:.1f} MB"


def attachment_problem(
    attached: tuple[Attachment, ...], size: int, max_files: int, max_bytes: int
) -> str | None:
    """Why one more file of ``size`` bytes cannot join ``attached`` (every answer's files of
    one ask), or ``None`` when it can."""
    if len(attached) >= max_files:
        return f"an ask takes at most {max_files} attached files"
    total = sum(item.size for item in attached) + size
    if total > max_bytes:
        limit = size_text(max_bytes)
        return f"the attached files would take {size_text(total)}; an ask takes at most {limit}"
    return None
