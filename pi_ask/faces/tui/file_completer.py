"""File-path completion: ``@path`` in the answer and note editors, a bare path in the
attach prompt (the same index and ranking; what the prompt takes is a file to copy)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from pi_ask.faces.tui.file_index import FileIndex

_AT_TOKEN = re.compile(r"(?:^|\s)@([^\s@]*)$")


def at_query(text_before_cursor: str) -> str | None:
    """The path typed after an ``@`` that starts a word right before the cursor.

    Example:
        >>> at_query("see @src/ma")
        'src/ma'
        >>> at_query("mail me@home") is None
        True
    """
    match = _AT_TOKEN.search(text_before_cursor)
    return match.group(1) if match else None


def whole_query(text_before_cursor: str) -> str | None:
    """The attach prompt's query: everything typed, when it is one relative path.

    Example:
        >>> whole_query("docs/sh"), whole_query("my file") is None
        ('docs/sh', True)
    """
    if any(char.isspace() for char in text_before_cursor):
        return None
    return text_before_cursor


class AtPathCompleter(Completer):
    """Completes ``@partial`` into ``@path`` from a ``FileIndex``.

    A file completes with a trailing space (the reference is finished); a folder ends with
    ``/`` so typing can go on inside it. ``bare`` completes the whole text as a path, with
    no ``@`` and no trailing space (the attach prompt's).
    """

    def __init__(self, index: FileIndex, limit: int = 50, *, bare: bool = False) -> None:
        self.index = index
        self.limit = limit
        self.bare = bare

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        before = document.text_before_cursor
        query = whole_query(before) if self.bare else at_query(before)
        if query is None:
            return
        if self.bare:
            for path in self.index.search(query, self.limit):
                yield Completion(path, start_position=-len(query), display=path)
            return
        for path in self.index.search(query, self.limit):
            suffix = "" if path.endswith("/") else " "
            yield Completion(f"@{path}{suffix}", start_position=-(len(query) + 1), display=path)
