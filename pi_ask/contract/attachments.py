"""Files attached to an answer (python-port.md §12), an extension the reference lacks.

``details.answers[<id>].attachments`` lists them: each file's ``path`` (the copy in the
ask's private folder), ``name`` (the file's own name, made safe), ``size`` in bytes and
``media_type``. The values are plain data; copying the files is the faces' and hosts' I/O.
"""

from typing import TYPE_CHECKING, Literal, NamedTuple

from pi_ask.contract.kinds import JsonObject

if TYPE_CHECKING:
    from typing import Protocol

    class FileLimits(Protocol):
        """The limits an ask holds its attached files to: ``[attachments]`` as the asker
        has it (the settings' table, ``config.settings.AttachmentSettings``, or the few an
        asker remembers, ``config.remembered.AskerSettings``), or as its pending ask's
        summary says (``relay.attached_files.AskFiles``)."""

        @property
        def max_files(self) -> int: ...

        @property
        def max_bytes(self) -> int: ...


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


class LimitProblem(NamedTuple):
    """Which of an ask's limits one more file would pass (``ask.attachments.limit_text``
    words it in the user's language)."""

    kind: Literal["files", "bytes"]
    limit: int
    total: int = 0


def attachment_problem(
    attached: tuple[Attachment, ...], size: int, max_files: int, max_bytes: int
) -> LimitProblem | None:
    """Which limit one more file of ``size`` bytes would pass joining ``attached`` (every
    answer's files of one ask), or ``None`` when it can join."""
    if len(attached) >= max_files:
        return LimitProblem("files", max_files)
    total = sum(item.size for item in attached) + size
    if total > max_bytes:
        return LimitProblem("bytes", max_bytes, total)
    return None
