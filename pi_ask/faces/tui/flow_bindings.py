"""The ask flow's key bindings: one group per keymap context, each gated by a filter.

Handlers are one line each: a key becomes an engine command (or a face action such as
opening the settings overlay) and goes to the flow. Which keys trigger what comes from the
live keymaps, so a config change rebinds every group at once. Later groups win when two
bindings match the same key, so the order below is the precedence: editing keys, then the
keymap contexts, then the completion menu, then the overlay, which takes every key.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import (
    ConditionalKeyBindings,
    KeyBindings,
    KeyBindingsBase,
    merge_key_bindings,
)
from prompt_toolkit.key_binding.key_processor import KeyPressEvent
from prompt_toolkit.keys import Keys

from pi_ask.keymaps.ptk_bindings import load_context_bindings, to_ptk_keys
from pi_ask.state.commands import (
    Cancel,
    ChangeQuestionType,
    CloseEditor,
    Command,
    Confirm,
    Digit,
    Dismiss,
    EditorNavigate,
    MoveOption,
    MoveTab,
    OpenOptionNote,
    OpenQuestionNote,
    SubmitEditor,
    Toggle,
)

if TYPE_CHECKING:
    from pi_ask.faces.tui.flow import AskFlow

Handler = Callable[[KeyPressEvent], None]

# The fixed keys beside the digits (docs/keymaps.md "Fixed keys"; tests check the two agree).
PAGE_KEYS: dict[str, int] = {"pageUp": -1, "pageDown": 1}  # pages, in editors too
EDGE_KEYS: dict[str, bool] = {"home": False, "end": True}  # to the bottom? not in editors
EDGE_KEYS_EVERYWHERE: dict[str, bool] = {"ctrl+home": False, "ctrl+end": True}
DEFER_KEY = "ctrl+d"  # in pi-ask inbox only: put the open ask back, unanswered


class FlowFilters:
    """The named conditions the bindings are gated by."""

    def __init__(self, flow: AskFlow) -> None:
        self.overlay_open: Filter = Condition(lambda: flow.panel is not None)
        self.answer_editing: Filter = Condition(lambda: flow.editing == "input")
        self.note_editing: Filter = Condition(lambda: flow.editing == "note")
        self.editing: Filter = self.answer_editing | self.note_editing
        self.attaching: Filter = Condition(lambda: flow.attaching.is_open)
        self.typing: Filter = self.editing | self.attaching
        self.editor_empty: Filter = Condition(lambda: flow.editor.text == "")
        self.completing: Filter = Condition(lambda: flow.active_field().has_completions())
        self.in_main: Filter = ~self.editing & ~self.attaching & ~self.overlay_open
        self.in_flow: Filter = ~self.overlay_open


def _send(flow: AskFlow, make: Callable[[], Command]) -> Handler:
    def handler(event: KeyPressEvent) -> None:
        flow.dispatch(make())

    return handler


def _editor_handlers(flow: AskFlow, submit_action: str) -> dict[str, Handler]:
    text = flow.editor_text
    return {
        submit_action: _send(flow, lambda: SubmitEditor(text())),
        "close": _send(flow, lambda: CloseEditor(text())),
        "next_tab_when_empty": _send(flow, lambda: EditorNavigate(text(), MoveTab(1))),
        "previous_tab_when_empty": _send(flow, lambda: EditorNavigate(text(), MoveTab(-1))),
        "next_option_when_empty": _send(flow, lambda: EditorNavigate(text(), MoveOption(1))),
        "previous_option_when_empty": _send(flow, lambda: EditorNavigate(text(), MoveOption(-1))),
    }


def _main_handlers(flow: AskFlow) -> dict[str, Handler]:
    return {
        "confirm": _send(flow, Confirm),
        "cancel": _send(flow, lambda: Cancel(flow.editor_text())),
        "toggle": _send(flow, Toggle),
        "change_question_type": _send(flow, ChangeQuestionType),
        "next_tab": _send(flow, lambda: MoveTab(1)),
        "previous_tab": _send(flow, lambda: MoveTab(-1)),
        "next_option": _send(flow, lambda: MoveOption(1)),
        "previous_option": _send(flow, lambda: MoveOption(-1)),
        "option_note": _send(flow, OpenOptionNote),
        "question_note": _send(flow, OpenQuestionNote),
        "attach": lambda event: flow.open_attach(),
        "detach": lambda event: flow.detach_last(),
    }


def _page(flow: AskFlow, pages: int) -> Handler:
    def handler(event: KeyPressEvent) -> None:
        flow.page(pages)

    return handler


def _edge(flow: AskFlow, bottom: bool) -> Handler:
    def handler(event: KeyPressEvent) -> None:
        flow.scroll_to_edge(bottom)

    return handler


def load_fixed_main_bindings(flow: AskFlow, filters: FlowFilters) -> KeyBindings:
    """Keys no keymap changes (docs/keymaps.md "Fixed keys").

    Digits 1-9 pick an option or a review action. PgUp/PgDn scroll the preview box while
    the cursor row shows one that can still move that way, the body otherwise, also while
    an editor is open (editors are single-line). Home/End go to the body's top and bottom,
    except in an editor, where they move the text cursor; Ctrl+Home/Ctrl+End do it
    everywhere.
    """
    bindings = KeyBindings()
    for digit in range(1, 10):
        bindings.add(str(digit), filter=filters.in_main)(_send(flow, partial(Digit, digit)))
    for key_id, pages in PAGE_KEYS.items():
        bindings.add(*_ptk(key_id), filter=filters.in_flow)(_page(flow, pages))
    for key_id, bottom in EDGE_KEYS.items():
        bindings.add(*_ptk(key_id), filter=filters.in_main)(_edge(flow, bottom))
    for key_id, bottom in EDGE_KEYS_EVERYWHERE.items():
        bindings.add(*_ptk(key_id), filter=filters.in_flow)(_edge(flow, bottom))
    deferrable = filters.in_main & Condition(lambda: flow.on_defer is not None)
    bindings.add(*_ptk(DEFER_KEY), filter=deferrable)(_defer(flow))
    return bindings


def _defer(flow: AskFlow) -> Handler:
    def handler(event: KeyPressEvent) -> None:
        if flow.on_defer is not None:
            flow.deferred = True
            flow.on_defer()

    return handler


def _ptk(key_id: str) -> tuple[Keys | str, ...]:
    keys = to_ptk_keys(key_id)
    assert keys is not None, key_id  # the tables above hold keys every terminal sends
    return keys


def load_editing_bindings(flow: AskFlow, filters: FlowFilters) -> KeyBindingsBase:
    """Single-line paste and Tab kept in the editor.

    Line editing itself (typing, Backspace, arrows, emacs keys) comes from prompt_toolkit's
    default bindings, which every ``Application`` loads; they act on the focused editor.
    """
    extras = KeyBindings()

    @extras.add(Keys.Tab)
    def _(event: KeyPressEvent) -> None:
        """Tab with text stays in the editor: it opens ``@`` completion when there is one."""
        flow.active_field().open_completions()

    @extras.add(Keys.BracketedPaste)
    def _(event: KeyPressEvent) -> None:
        """Editors are single-line: a pasted line break becomes a space."""
        flow.active_field().paste(event.data)

    return ConditionalKeyBindings(extras, filter=filters.typing & ~filters.overlay_open)


def load_completion_bindings(flow: AskFlow, filters: FlowFilters) -> KeyBindings:
    """Keys of the open completion menu: they win over the editor's own keys."""
    bindings = KeyBindings()
    active = filters.typing & filters.completing & ~filters.overlay_open
    field = flow.active_field
    bindings.add(Keys.Down, filter=active)(lambda e: field().next_completion(1))
    bindings.add(Keys.Up, filter=active)(lambda e: field().next_completion(-1))
    bindings.add(Keys.Tab, filter=active)(lambda e: field().accept_completion())
    # Enter on a completion that adds nothing (the whole name typed) submits instead.
    adds = Condition(lambda: not field().completion_adds_nothing())
    bindings.add(Keys.Enter, filter=active & adds)(lambda e: field().accept_completion())
    bindings.add(Keys.Escape, filter=active)(lambda e: field().close_completions())
    return bindings


def load_overlay_bindings(flow: AskFlow, filters: FlowFilters) -> KeyBindingsBase:
    """The settings overlay takes every key; its own context says what they do."""
    swallow = KeyBindings()
    swallow.add(Keys.Any, filter=filters.overlay_open)(lambda e: None)
    for key in (Keys.BracketedPaste,):
        swallow.add(key, filter=filters.overlay_open)(lambda e: None)
    modal = load_context_bindings(
        flow.current_keymaps,
        "settings_modal",
        {
            "close": lambda e: flow.close_settings(),
            "next_option": lambda e: flow.settings_action("move", 1),
            "previous_option": lambda e: flow.settings_action("move", -1),
            "toggle": lambda e: flow.settings_action("toggle", 0),
        },
        filter=filters.overlay_open,
    )
    return merge_key_bindings([swallow, modal])


def load_flow_bindings(flow: AskFlow) -> KeyBindingsBase:
    """Every binding of the ask flow, in precedence order (see the module docstring)."""
    filters = FlowFilters(flow)
    keymaps = flow.current_keymaps
    return merge_key_bindings(
        [
            load_editing_bindings(flow, filters),
            load_fixed_main_bindings(flow, filters),
            load_context_bindings(keymaps, "main", _main_handlers(flow), filter=filters.in_main),
            load_context_bindings(
                keymaps,
                "editor",
                _editor_handlers(flow, "submit"),
                filter=filters.answer_editing & ~filters.overlay_open,
                when_empty=filters.editor_empty,
            ),
            load_context_bindings(
                keymaps,
                "note_editor",
                _editor_handlers(flow, "save"),
                filter=filters.note_editing & ~filters.overlay_open,
                when_empty=filters.editor_empty,
            ),
            load_context_bindings(
                keymaps,
                "editor",
                # The attach prompt is an editor too: its submit key attaches, close closes.
                {"submit": lambda e: flow.attach_typed(), "close": lambda e: flow.close_attach()},
                filter=filters.attaching & ~filters.overlay_open,
            ),
            load_context_bindings(
                keymaps,
                "global",
                {"dismiss": _send(flow, lambda: Dismiss(flow.editor_text()))},
                filter=filters.in_flow,
            ),
            load_context_bindings(
                keymaps,
                "global",
                {"settings": lambda e: flow.open_settings()},
                filter=filters.in_flow
                & ~filters.attaching
                & (~filters.editing | filters.editor_empty),
            ),
            load_completion_bindings(flow, filters),
            load_overlay_bindings(flow, filters),
        ]
    )
