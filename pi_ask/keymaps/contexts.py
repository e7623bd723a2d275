"""The keymap contexts, their actions, descriptions and default keys (behaviour.md §8.1).

The tables here are data: validation, labels, docs and the settings list all read them, so
an action added here shows up everywhere at once. Names are snake_case; the reference's
camelCase spellings (``noteEditor``, ``changeQuestionType``) are kept as read aliases.
"""

from typing import Literal, NamedTuple

Context = Literal["global", "main", "editor", "note_editor", "settings_modal"]
"""A keymap context: the part of the UI whose keys a table of actions describes."""

Action = Literal[
    "dismiss",
    "settings",
    "confirm",
    "cancel",
    "change_question_type",
    "toggle",
    "next_tab",
    "previous_tab",
    "next_option",
    "previous_option",
    "option_note",
    "question_note",
    "attach",
    "detach",
    "submit",
    "close",
    "next_tab_when_empty",
    "previous_tab_when_empty",
    "next_option_when_empty",
    "previous_option_when_empty",
    "save",
]
"""Every action name of every context (which context has which: ``CONTEXTS``)."""


class ActionSpec(NamedTuple):
    """One configurable action.

    Attributes:
        name: The snake_case config key (``change_question_type``).
        alias: The reference's camelCase key, accepted when reading (``changeQuestionType``).
        default_keys: Canonical key ids bound when the config leaves the action out.
        description: One line for docs and the settings list.
    """

    name: Action
    alias: str
    default_keys: tuple[str, ...]
    description: str

    @property
    def when_empty(self) -> bool:
        """True for editor moves that only fire while the editor is empty."""
        return self.name.endswith("_when_empty")


class ContextSpec(NamedTuple):
    """One keymap context and its actions, in the canonical validation order.

    Attributes:
        name: The snake_case config table (``note_editor``).
        alias: The reference's camelCase table name (``noteEditor``).
        label: The human name (``Note editor``).
        actions: The context's actions in canonical order.
    """

    name: Context
    alias: str
    label: str
    actions: tuple[ActionSpec, ...]

    def action(self, name: str) -> ActionSpec:
        """The action called ``name`` (snake_case).

        Raises:
            KeyError: The context has no such action.
        """
        for spec in self.actions:
            if spec.name == name:
                return spec
        raise KeyError(f"keymap context {self.name} has no action {name!r}")


class FixedShortcut(NamedTuple):
    """A key that is always bound and cannot be configured (shown in docs and help)."""

    keys: str
    where: str
    description: str


def _editor_moves() -> tuple[ActionSpec, ...]:
    # The answer and note editors share their empty-editor navigation verbatim.
    return (
        ActionSpec(
            "next_tab_when_empty",
            "nextTabWhenEmpty",
            ("tab", "right"),
            "Switch to next tab when editor is empty",
        ),
        ActionSpec(
            "previous_tab_when_empty",
            "previousTabWhenEmpty",
            ("shift+tab", "left"),
            "Switch to previous tab when editor is empty",
        ),
        ActionSpec(
            "next_option_when_empty",
            "nextOptionWhenEmpty",
            ("down",),
            "Move to next option when editor is empty",
        ),
        ActionSpec(
            "previous_option_when_empty",
            "previousOptionWhenEmpty",
            ("up",),
            "Move to previous option when editor is empty",
        ),
    )


GLOBAL = ContextSpec(
    "global",
    "global",
    "Global",
    (
        ActionSpec("dismiss", "dismiss", ("ctrl+c",), "Dismiss the active ask surface"),
        ActionSpec("settings", "settings", ("?",), "Open ask settings"),
    ),
)
MAIN = ContextSpec(
    "main",
    "main",
    "Main flow",
    (
        ActionSpec("confirm", "confirm", ("enter",), "Confirm selection, continue, or submit"),
        ActionSpec("cancel", "cancel", ("esc",), "Cancel flow"),
        ActionSpec(
            "change_question_type",
            "changeQuestionType",
            ("t",),
            "Change current question type",
        ),
        ActionSpec("toggle", "toggle", ("space",), "Toggle selected option"),
        ActionSpec("next_tab", "nextTab", ("tab", "right"), "Switch to next tab"),
        ActionSpec("previous_tab", "previousTab", ("shift+tab", "left"), "Switch to previous tab"),
        ActionSpec("next_option", "nextOption", ("down",), "Move to next option/action"),
        ActionSpec("previous_option", "previousOption", ("up",), "Move to previous option/action"),
        ActionSpec("option_note", "optionNote", ("n",), "Edit selected option note"),
        ActionSpec("question_note", "questionNote", ("shift+n",), "Edit question note"),
        ActionSpec("attach", "attach", ("a",), "Attach a file to the current answer"),
        ActionSpec(
            "detach", "detach", ("shift+a",), "Remove the file attached last to the current answer"
        ),
    ),
)
EDITOR = ContextSpec(
    "editor",
    "editor",
    "Answer editor",
    (
        ActionSpec("submit", "submit", ("enter",), "Submit custom answer"),
        ActionSpec("close", "close", ("esc",), "Close editor and preserve draft"),
        *_editor_moves(),
    ),
)
NOTE_EDITOR = ContextSpec(
    "note_editor",
    "noteEditor",
    "Note editor",
    (
        ActionSpec("save", "save", ("enter",), "Save note"),
        ActionSpec("close", "close", ("esc",), "Close note editor"),
        *_editor_moves(),
    ),
)
SETTINGS_MODAL = ContextSpec(
    "settings_modal",
    "settingsModal",
    "Settings modal",
    (
        ActionSpec("close", "close", ("esc", "ctrl+c", "?"), "Close settings"),
        ActionSpec("next_option", "nextOption", ("down",), "Move to next setting"),
        ActionSpec("previous_option", "previousOption", ("up",), "Move to previous setting"),
        ActionSpec("toggle", "toggle", ("enter", "space"), "Toggle selected setting"),
    ),
)

CONTEXTS: tuple[ContextSpec, ...] = (GLOBAL, MAIN, EDITOR, NOTE_EDITOR, SETTINGS_MODAL)
"""Every context in canonical order (the order validation reports in)."""

GLOBAL_SHARERS: tuple[Context, ...] = ("main", "editor", "note_editor")
"""Contexts that are active together with ``global``, so they may not reuse its keys."""

RESERVED_KEYS: tuple[str, ...] = tuple(str(digit) for digit in range(1, 10))
"""The number shortcuts: always bound by the flow, never configurable."""

FIXED_SHORTCUTS: tuple[FixedShortcut, ...] = (
    FixedShortcut("1..9", "Main flow, Submit tab", "Quick-select option or submit action"),
    FixedShortcut(
        "@", "Answer editor, Note editor", "Reference files while typing answers or notes"
    ),
)


def context_spec(name: str) -> ContextSpec:
    """The context called ``name`` (snake_case).

    Raises:
        KeyError: No context has that name.
    """
    for spec in CONTEXTS:
        if spec.name == name:
            return spec
    raise KeyError(f"no keymap context {name!r}; expected one of {_names()}")


def _names() -> str:
    return ", ".join(spec.name for spec in CONTEXTS)
