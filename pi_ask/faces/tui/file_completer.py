"""``@`` file-path completion for the answer and note editors."""

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


class AtPathCompleter(Completer):
    """Completes ``@partial`` into ``@path`` from a ``FileIndex``.

    A file completes with a trailing space (the reference is finished); a folder ends with
    ``/`` so typing can go on inside it.
    """

    def __init__(self, index: FileIndex, limit: int = 50) -> None:
        self.index = index
        self.limit = limit

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        query = at_query(document.text_before_cursor)
        if query is None:
            return
        for path in self.index.search(query, self.limit):
            suffix = "" if path.endswith("/") else " "
            yield Completion(f"@{path}{suffix}", start_position=-(len(query) + 1), display=path)
