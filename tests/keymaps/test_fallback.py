"""A broken binding falls back to its default alone; a default that is taken leaves the action
unbound for the session (python-port.md §12, amending §4 and §10)."""

from __future__ import annotations

from pi_ask.keymaps.validation import resolve_keymaps


def test_every_valid_binding_is_kept_beside_a_broken_one() -> None:
    result = resolve_keymaps(
        {"main": {"confirm": "ctrl+k", "cancel": "q", "toggle": "hyper+x"}, "global": {}}
    )
    keys = result.session_keymaps
    assert keys.keys("main", "confirm") == ("ctrl+k",)
    assert keys.keys("main", "cancel") == ("q",)
    assert keys.keys("main", "toggle") == ("space",)
    (error,) = result.errors
    assert str(error) == (
        'keymaps.main.toggle: "hyper+x" is not a key id: unsupported modifier hyper; using its '
        'default "space" for this session'
    )


def test_a_default_taken_by_a_kept_binding_leaves_the_action_unbound_and_says_so() -> None:
    result = resolve_keymaps({"main": {"confirm": "space", "toggle": "hyper+x"}})
    keys = result.session_keymaps
    assert keys.keys("main", "confirm") == ("space",)
    assert keys.keys("main", "toggle") == ()
    (error,) = result.errors
    assert error.message.endswith(
        '; its default "space" is bound to keymaps.main.confirm, so main.toggle has no key for '
        "this session"
    )


def test_validate_never_reports_a_clash_with_a_key_the_file_does_not_hold() -> None:
    """The old report compared a kept key with the default a broken value fell back to."""
    result = resolve_keymaps({"main": {"confirm": "space", "toggle": "hyper+x"}})
    assert not any("also bound" in problem.message for problem in result.problems)


def test_both_sides_of_a_clash_the_file_wrote_fall_back() -> None:
    result = resolve_keymaps({"main": {"confirm": "ctrl+k", "cancel": "ctrl+k", "toggle": "x"}})
    keys = result.session_keymaps
    assert (keys.keys("main", "confirm"), keys.keys("main", "cancel")) == (("enter",), ("esc",))
    assert keys.keys("main", "toggle") == ("x",)
    assert [p.path for p in result.errors] == ["keymaps.main.confirm", "keymaps.main.cancel"]
