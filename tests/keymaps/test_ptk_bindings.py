"""prompt_toolkit bindings from keymaps: real parser, real key processor, headless apps."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import pytest
from prompt_toolkit.application import Application, create_app_session
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.input.ansi_escape_sequences import ANSI_SEQUENCES
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import (
    KeyBindings,
    KeyBindingsBase,
    KeyPressEvent,
    merge_key_bindings,
)
from prompt_toolkit.key_binding.bindings.basic import load_basic_bindings
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.output import DummyOutput

from pi_ask.faces.tui.terminal import ESCAPE_TIMEOUT_S, set_escape_timeout
from pi_ask.keymaps.contexts import Action, Context
from pi_ask.keymaps.key_ids import FUNCTION_KEYS, MODIFIER_ORDER, NAMED_KEYS, SYMBOLS
from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS, Keymaps
from pi_ask.keymaps.ptk_bindings import build_context_bindings, load_context_bindings, to_ptk_keys
from pi_ask.keymaps.terminal_bytes import terminal_bytes
from pi_ask.keymaps.terminal_keys import is_available
from pi_ask.keymaps.validation import resolve_keymaps

SENTINEL = "\x1b[21~"  # F10: ends a headless run.


def all_key_ids() -> Iterator[str]:
    bases = [*NAMED_KEYS, *FUNCTION_KEYS, *"abcdefghijklmnopqrstuvwxyz0123456789"]
    bases += [symbol for symbol in SYMBOLS if symbol != "+"]
    for size in range(len(MODIFIER_ORDER) + 1):
        for modifiers in itertools.combinations(MODIFIER_ORDER, size):
            for base in bases:
                yield "+".join([*modifiers, base])


def parse(data: str) -> list[Keys | str]:
    presses: list[KeyPress] = []
    Vt100Parser(presses.append).feed_and_flush(data)
    return [press.key for press in presses]


@pytest.mark.parametrize(
    ("key_id", "keys"),
    [
        ("n", ("n",)),
        ("shift+n", ("N",)),
        ("?", ("?",)),
        ("space", (" ",)),
        ("enter", (Keys.ControlM,)),
        ("alt+x", (Keys.Escape, "x")),
        ("ctrl+k", (Keys.ControlK,)),
        ("shift+tab", (Keys.BackTab,)),
        ("pageDown", (Keys.PageDown,)),
        ("super+k", None),
        ("ctrl+shift+p", None),
    ],
)
def test_to_ptk_keys(key_id: str, keys: tuple[Keys | str, ...] | None) -> None:
    assert to_ptk_keys(key_id) == keys


def test_every_available_id_is_what_the_terminal_bytes_decode_to() -> None:
    """The whole grammar: each id's xterm bytes, through prompt_toolkit's real parser."""
    wrong: list[tuple[str, object, object]] = []
    checked = 0
    for key_id in all_key_ids():
        data = terminal_bytes(key_id)
        keys = to_ptk_keys(key_id)
        if not is_available(key_id):
            assert data is None and keys is None, key_id
            continue
        assert data is not None and keys is not None, key_id
        KeyBindings().add(*keys)(lambda event: None)  # prompt_toolkit accepts the names
        decoded = parse(data)
        checked += 1
        if decoded != list(keys):
            wrong.append((key_id, decoded, keys))
    assert wrong == []
    assert checked >= 400


def test_swapped_modified_arrows_are_bound_to_what_prompt_toolkit_decodes() -> None:
    # python-prompt-toolkit#2092: with the bug, CSI 1;6A (ctrl+shift+up) reads as c-s-down.
    decoded = ANSI_SEQUENCES["\x1b[1;6A"]
    assert to_ptk_keys("ctrl+shift+up") == (decoded,)
    assert to_ptk_keys("ctrl+shift+down") == (ANSI_SEQUENCES["\x1b[1;6B"],)
    assert to_ptk_keys("ctrl+shift+up") != to_ptk_keys("ctrl+shift+down")
    assert to_ptk_keys("shift+alt+up") == ANSI_SEQUENCES["\x1b[1;4A"]


def test_escape_timeout() -> None:
    app: Application[None] = Application(output=DummyOutput())
    set_escape_timeout(app)
    assert app.ttimeoutlen == ESCAPE_TIMEOUT_S == 0.05
    assert app.timeoutlen == ESCAPE_TIMEOUT_S


def test_handlers_must_name_actions_of_the_context() -> None:
    with pytest.raises(KeyError, match="has no action 'confirm'"):
        load_context_bindings(lambda: DEFAULT_KEYMAPS, "editor", {"confirm": lambda e: None})
    with pytest.raises(KeyError, match="has no action 'nope'"):
        build_context_bindings(DEFAULT_KEYMAPS, "main", {"nope": lambda e: None})


def test_only_actions_with_handlers_are_bound() -> None:
    bindings = build_context_bindings(DEFAULT_KEYMAPS, "main", {"confirm": lambda e: None})
    assert [binding.keys for binding in bindings.bindings] == [(Keys.ControlM,)]


def test_terminal_twins_in_one_action_are_bound_once() -> None:
    keymaps = resolve_keymaps({"main": {"next_tab": ["tab", "ctrl+i"]}}).keymaps
    bindings = build_context_bindings(keymaps, "main", {"next_tab": lambda e: None})
    assert [binding.keys for binding in bindings.bindings] == [(Keys.ControlI,)]


class Harness:
    """A tiny application: one editable buffer, the given bindings, F10 to quit."""

    def __init__(self) -> None:
        self.fired: list[str] = []
        self.buffer = Buffer()

    def handler(self, action: str) -> Callable[[KeyPressEvent], None]:
        def record(event: KeyPressEvent) -> None:
            self.fired.append(action)

        return record

    def run(self, bindings: KeyBindingsBase, data: str) -> list[str]:
        quit_bindings = KeyBindings()
        quit_bindings.add(Keys.F10)(lambda event: event.app.exit())
        with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
            app: Application[None] = Application(
                layout=Layout(Window(BufferControl(self.buffer))),
                key_bindings=merge_key_bindings([load_basic_bindings(), bindings, quit_bindings]),
            )
            set_escape_timeout(app)
            pipe.send_text(data + SENTINEL)
            app.run()
        return self.fired


REMAPS: list[tuple[Context, Action, str, str]] = [
    ("global", "dismiss", "ctrl+c", "\x03"),
    ("global", "settings", "?", "?"),
    ("main", "confirm", "enter", "\r"),
    ("main", "toggle", "space", " "),
    ("main", "option_note", "n", "n"),
    ("main", "next_tab", "right", "\x1b[C"),
    ("editor", "submit", "enter", "\r"),
    ("editor", "previous_option_when_empty", "up", "\x1b[A"),
    ("note_editor", "save", "enter", "\r"),
    ("note_editor", "next_tab_when_empty", "tab", "\t"),
    ("settings_modal", "toggle", "enter", "\r"),
    ("settings_modal", "close", "ctrl+c", "\x03"),
]


@pytest.mark.parametrize(("context", "action", "old_key", "old_bytes"), REMAPS)
def test_a_remapped_action_fires_on_its_new_key_only(
    context: Context, action: Action, old_key: str, old_bytes: str
) -> None:
    keymaps = resolve_keymaps({context: {action: ["ctrl+k"]}}).keymaps
    assert old_key in DEFAULT_KEYMAPS.configured(context, action)
    assert keymaps.keys(context, action) == ("ctrl+k",)
    harness = Harness()
    bindings = load_context_bindings(lambda: keymaps, context, {action: harness.handler(action)})
    assert harness.run(bindings, old_bytes + "\x0b" + old_bytes) == [action]


def test_the_default_key_fires_before_the_remap() -> None:
    harness = Harness()
    bindings = load_context_bindings(
        lambda: DEFAULT_KEYMAPS, "main", {"confirm": harness.handler("confirm")}
    )
    assert harness.run(bindings, "\r\x0b") == ["confirm"]


def test_when_empty_actions_fire_only_on_an_empty_editor() -> None:
    harness = Harness()
    is_empty = Condition(lambda: harness.buffer.text == "")
    bindings = load_context_bindings(
        lambda: DEFAULT_KEYMAPS,
        "editor",
        {
            "next_option_when_empty": harness.handler("next_option_when_empty"),
            "submit": harness.handler("submit"),
        },
        when_empty=is_empty,
    )
    fired = harness.run(bindings, "\x1b[B" + "ab" + "\x1b[B" + "\r")
    assert fired == ["next_option_when_empty", "submit"]
    assert harness.buffer.text == "ab"


def test_the_context_filter_gates_every_action() -> None:
    harness = Harness()
    active = [True]
    bindings = KeyBindings()
    bindings.add("x")(lambda event: active.__setitem__(0, False))
    context = load_context_bindings(
        lambda: DEFAULT_KEYMAPS,
        "main",
        {"confirm": harness.handler("confirm")},
        filter=Condition(lambda: active[0]),
    )
    assert harness.run(merge_key_bindings([bindings, context]), "\rx\r") == ["confirm"]


def test_single_characters_match_exactly() -> None:
    harness = Harness()
    bindings = load_context_bindings(
        lambda: DEFAULT_KEYMAPS,
        "main",
        {
            "option_note": harness.handler("option_note"),
            "question_note": harness.handler("question_note"),
        },
    )
    assert harness.run(bindings, "nNn") == ["option_note", "question_note", "option_note"]


def test_swapped_arrows_fire_the_meant_action() -> None:
    keymaps = resolve_keymaps(
        {"main": {"previous_option": "ctrl+shift+up", "next_option": "ctrl+shift+down"}}
    ).keymaps
    harness = Harness()
    bindings = load_context_bindings(
        lambda: keymaps,
        "main",
        {
            "previous_option": harness.handler("previous_option"),
            "next_option": harness.handler("next_option"),
        },
    )
    fired = harness.run(bindings, "\x1b[1;6A\x1b[1;6B")
    assert fired == ["previous_option", "next_option"]


def test_a_live_reload_rebinds_without_restarting() -> None:
    current: list[Keymaps] = [DEFAULT_KEYMAPS]
    remapped = resolve_keymaps({"main": {"confirm": ["ctrl+k"]}}).keymaps
    harness = Harness()
    reload_bindings = KeyBindings()
    reload_bindings.add(Keys.F9)(lambda event: current.__setitem__(0, remapped))
    context = load_context_bindings(
        lambda: current[0], "main", {"confirm": harness.handler("confirm")}
    )
    fired = harness.run(merge_key_bindings([reload_bindings, context]), "\r\x1b[20~\r\x0b")
    assert fired == ["confirm", "confirm"]
    assert current[0] is remapped


def test_bindings_are_rebuilt_only_when_the_keymaps_change() -> None:
    current: list[Keymaps] = [DEFAULT_KEYMAPS]
    bindings = load_context_bindings(lambda: current[0], "main", {"confirm": lambda e: None})
    first = bindings.get_bindings_for_keys((Keys.ControlM,))
    current[0] = resolve_keymaps({}).keymaps  # equal value, new object
    assert bindings.get_bindings_for_keys((Keys.ControlM,)) == first
    current[0] = resolve_keymaps({"main": {"confirm": "ctrl+k"}}).keymaps
    assert bindings.get_bindings_for_keys((Keys.ControlM,)) == []
    assert len(bindings.get_bindings_for_keys((Keys.ControlK,))) == 1


def test_handlers_may_return_any_value() -> None:
    harness = Harness()

    def dispatch(event: KeyPressEvent) -> object:
        harness.fired.append("confirm")
        return {"state": "new"}

    bindings = load_context_bindings(lambda: DEFAULT_KEYMAPS, "main", {"confirm": dispatch})
    assert harness.run(bindings, "\r\r") == ["confirm", "confirm"]
