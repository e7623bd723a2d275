"""An editor's text: one prompt_toolkit ``Buffer`` with file-path completion.

Editors are single-line (python-port.md §10). The buffer is focused while an editor is
open, so prompt_toolkit's own line editing (typing, Backspace, arrows, Ctrl+A/E/K/U/W)
applies to it; the flow draws it itself (``editor_view``). The answer and note editors
complete ``@path``; the attach prompt (``bare``) completes its whole text as a path. The
file list is built on the first completion, in the completer's worker thread, once per
flow (``FileIndexHolder``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import Completer, Completion, DynamicCompleter, ThreadedCompleter
from prompt_toolkit.document import Document

from pi_ask.faces.tui.editor_view import EditorView

if TYPE_CHECKING:
    from pi_ask.faces.tui.file_index import FileIndex


class FileIndexHolder:
    """One ``FileIndex`` of ``cwd`` for every editor of a flow, made when first asked for."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self._index: FileIndex | None = None

    def get(self) -> FileIndex:
        if self._index is None:
            from pi_ask.faces.tui.file_index import FileIndex

            self._index = FileIndex(self.cwd)
        return self._index


class EditorField:
    """The editor buffer and its completion menu.

    Args:
        files: Where the completion's file list comes from (shared by a flow's editors).
        bare: Complete the whole text as a path (the attach prompt), not ``@path``.
    """

    def __init__(self, files: FileIndexHolder, *, bare: bool = False) -> None:
        self.files = files
        self._bare = bare
        self._completer: Completer | None = None
        self.buffer = Buffer(
            multiline=False,
            completer=DynamicCompleter(self._path_completer),
            complete_while_typing=True,
        )

    def _path_completer(self) -> Completer:
        # Built when the buffer first asks, not for the first frame, which completes nothing.
        if self._completer is None:
            from pi_ask.faces.tui.file_completer import AtPathCompleter

            completer = AtPathCompleter(self.files.get(), bare=self._bare)
            self._completer = ThreadedCompleter(completer)
        return self._completer

    @property
    def text(self) -> str:
        """The raw text in the editor."""
        return self.buffer.text

    def load(self, text: str) -> None:
        """Put ``text`` in the editor, cursor at its end, menu closed."""
        self.buffer.set_document(Document(text, len(text)), bypass_readonly=True)
        self.buffer.cancel_completion()

    def clear(self) -> None:
        """Empty the editor."""
        if self.buffer.text:
            self.buffer.reset()

    def view(self) -> EditorView:
        """What the frame draws for the editor: text, cursor, completion menu."""
        complete = self.buffer.complete_state
        labels: tuple[str, ...] = ()
        index = None
        if complete is not None:
            labels = tuple(c.display_text for c in complete.completions)
            index = complete.complete_index
        return EditorView(self.buffer.text, self.buffer.cursor_position, labels, index)

    def has_completions(self) -> bool:
        """True while the completion menu lists something."""
        complete = self.buffer.complete_state
        return complete is not None and bool(complete.completions)

    def open_completions(self) -> None:
        """Offer completions for the text before the cursor (an ``@path`` at its end, or the
        attach prompt's path)."""
        self.buffer.start_completion(select_first=False)

    def next_completion(self, delta: int) -> None:
        """Highlight the next (``delta`` 1) or previous (-1) completion."""
        if delta > 0:
            self.buffer.complete_next()
        else:
            self.buffer.complete_previous()

    def _chosen(self) -> Completion | None:
        """The completion a key would take: the highlighted one, else the first."""
        complete = self.buffer.complete_state
        if complete is None or not complete.completions:
            return None
        return complete.current_completion or complete.completions[0]

    def completion_adds_nothing(self) -> bool:
        """True when the completion a key would take leaves the text as it is (the whole
        name is typed already): Enter then does the editor's own work, not a no-op."""
        chosen = self._chosen()
        if chosen is None or chosen.text.endswith("/"):
            return False  # taking a folder opens its files
        document = self.buffer.document
        start = document.cursor_position + chosen.start_position
        return document.text[start : document.cursor_position] == chosen.text

    def accept_completion(self) -> None:
        """Take the highlighted completion (the first when none is highlighted)."""
        chosen = self._chosen()
        if chosen is None:
            return
        self.buffer.apply_completion(chosen)
        if chosen.text.endswith("/"):
            self.open_completions()  # a folder: go on inside it

    def close_completions(self) -> None:
        """Close the completion menu, keeping the text."""
        self.buffer.cancel_completion()

    def paste(self, data: str) -> None:
        """Insert pasted text; a line break becomes a space (editors are single-line)."""
        text = data.replace("\r\n", "\n").replace("\r", "\n")
        self.buffer.insert_text(text.replace("\n", " "))
