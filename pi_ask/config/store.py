"""``SettingsStore``: the settings of one config file, kept current and saved on change.

A store loads its file once, hands out immutable ``Settings`` snapshots, tells subscribers
about every change (a toggle, a reset, an edit picked up by the watcher) and saves each
toggle at once without disturbing the rest of the file. Whatever is wrong with the file,
the store keeps working: on defaults, or on the last good settings, with a ``Notice``.
"""

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

from pi_ask.config.catalogue import KEYS_BY_NAME, TomlValue, env_var_name, is_valid
from pi_ask.config.loading import FileContent, FileStatus, evaluate, parse_text, read_file
from pi_ask.config.paths import display_path
from pi_ask.config.problems import (
    ConfigProblem,
    Notice,
    describe,
    refused_message,
    save_error,
    summarize,
)
from pi_ask.config.settings import Settings
from pi_ask.config.toml_text import default_text
from pi_ask.config.watcher import signature
from pi_ask.i18n import use_language

if TYPE_CHECKING:
    import asyncio

RESET_WINDOW_S = 2.0
"""How long a first reset request waits for its confirming second one (behaviour.md §10)."""

Subscriber = Callable[[Settings], None]


class SaveResult(NamedTuple):
    """The outcome of ``SettingsStore.set``.

    Attributes:
        ok: The value was written (the snapshot now holds it, unless the environment wins).
        error: Why nothing was written; the setting kept its old value.
        info: Something to tell the user although the save worked (an environment override).
    """

    ok: bool
    error: str | None = None
    info: str | None = None


class ResetResult(NamedTuple):
    """The outcome of ``SettingsStore.request_reset``.

    Attributes:
        status: ``armed`` (press again within 2 s), ``reset`` (done) or ``failed``.
        error: Why the reset failed.
        backup: Where an unparsable file was kept before the defaults were written.
    """

    status: Literal["armed", "reset", "failed"]
    error: str | None = None
    backup: Path | None = None


class _State(NamedTuple):
    settings: Settings
    problems: tuple[ConfigProblem, ...] = ()
    notice: Notice | None = None
    status: FileStatus = "absent"
    detail: str = ""


class SettingsStore:
    """The settings of one config file; see the module docstring.

    Build one with ``open_store`` (cached per path); the constructor is for tests and tools
    that need a store of their own.

    Example:
        >>> store = open_store()
        >>> store.snapshot().behaviour.show_footer_hints
        True
        >>> store.set("behaviour.show_footer_hints", False).ok
        True
    """

    def __init__(self, path: Path, *, create: bool = True) -> None:
        self._path = path
        self._lock = threading.RLock()
        self._subscribers: list[Subscriber] = []
        self._reset_deadline: float | None = None
        # Taken before each read: the watcher starts from it, so a save made between this
        # read and the watcher's start (after the first frame) is not missed.
        self._read_at = signature(path)
        self._state = self._initial_state(read_file(path))
        if create and self._state.status == "absent":
            self.create_if_absent()

    @property
    def path(self) -> Path:
        """The config file's absolute path."""
        return self._path

    @property
    def notice(self) -> Notice | None:
        """The message about the settings to show in the flow footer and the overlay."""
        return self._state.notice

    @property
    def problems(self) -> tuple[ConfigProblem, ...]:
        """Every problem of the current settings (``pi-ask config validate`` lists them)."""
        return self._state.problems

    @property
    def file_status(self) -> FileStatus:
        """What the last read of the file gave: ``absent``, ``parsed``, ``not_toml``, ..."""
        return self._state.status

    def snapshot(self) -> Settings:
        """The current settings, an immutable value."""
        return self._state.settings

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback(settings)`` after every change of the settings or the notice.

        Callbacks run on the thread that made the change (the event loop for the watcher).

        Returns:
            A function that unsubscribes (calling it twice is harmless).
        """
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def create_if_absent(self) -> None:
        """Write the commented default file when there is none; a failure becomes the notice."""
        from pi_ask.config.storage import locked, target_of, write_atomic

        try:
            with locked(self._path):
                if read_file(self._path).status != "absent":
                    return
                write_atomic(target_of(self._path), default_text().encode("utf-8"))
        except OSError as err:
            notice = Notice("warning", save_error(self._path, err))
            self._replace(self._state._replace(notice=notice))
            return
        self.reload()

    def set(self, key: str, value: TomlValue) -> SaveResult:
        """Save one setting now; only that key's value changes in the file.

        Args:
            key: A dotted snake_case key of ``keys.KEYS`` (``behaviour.show_footer_hints``).
            value: Its new value.

        Returns:
            ``ok`` when written. On failure nothing changes (the setting keeps its value) and
            ``error`` says why: a bad key or value, a file that is not TOML, a write error.
        """
        self.cancel_reset()
        spec = KEYS_BY_NAME.get(key)
        if spec is None:
            return SaveResult(False, error=f"{key} is not a setting pi-ask can save")
        if not is_valid(spec.kind, value):
            return SaveResult(False, error=f"{key}: {describe(value)} is not {spec.expected}")
        from pi_ask.config.toml_edit import set_value  # tomlkit: only when saving

        try:
            text, lock_note = self._edit(lambda old: set_value(old or default_text(), key, value))
        except _Refused as refused:
            return SaveResult(False, error=str(refused))
        except (OSError, ValueError) as err:
            return SaveResult(False, error=save_error(self._path, err))
        self._apply(parse_text(text.encode("utf-8")))
        notes = [note for note in (_environment_note(key), lock_note) if note]
        return SaveResult(True, info=" ".join(notes) or None)

    def request_reset(self, now: float | None = None) -> ResetResult:
        """Ask for a reset: the first request arms it, a second within 2 s resets.

        The reset writes only what it changes in a valid file (every setting back to its
        default, comments and unknown keys kept); an unparsable file is kept as
        ``config.toml.bak`` and replaced by the commented defaults.
        """
        moment = time.monotonic() if now is None else now
        if not self.reset_armed(moment):
            self._reset_deadline = moment + RESET_WINDOW_S
            return ResetResult("armed")
        self._reset_deadline = None
        from pi_ask.config.reset import reset_file

        try:
            backup = reset_file(self._path)
        except OSError as err:
            return ResetResult("failed", error=save_error(self._path, err))
        self.reload()
        return ResetResult("reset", backup=backup)

    def reset_armed(self, now: float | None = None) -> bool:
        """True while a first reset request waits for its confirmation."""
        moment = time.monotonic() if now is None else now
        return self._reset_deadline is not None and moment <= self._reset_deadline

    def cancel_reset(self) -> None:
        """Forget an armed reset (focus moved, another row toggled)."""
        self._reset_deadline = None

    def reload(self) -> bool:
        """Read the file again and apply it; returns True when the settings changed.

        An edit that makes the file unusable keeps the last good settings and sets a notice.
        """
        before = self._state.settings
        self._read_at = signature(self._path)
        self._apply(read_file(self._path))
        return self._state.settings != before

    def start_watching(
        self, loop: "asyncio.AbstractEventLoop", interval: float = 0.1
    ) -> Callable[[], None]:
        """Reload on ``loop`` whenever the file changes; returns the function that stops it."""
        from pi_ask.config.watcher import poll_file

        return poll_file(
            self._path, loop, self._on_file_change, interval=interval, since=self._read_at
        )

    def _on_file_change(self) -> None:
        # Called on the flow's loop: an error escaping here would be drawn over the frame.
        try:
            self.reload()
        except Exception as err:
            self._apply(FileContent("unreadable", detail=f"{type(err).__name__}: {err}"))

    def _edit(self, change: Callable[[str | None], str]) -> tuple[str, str | None]:
        """Re-read the file under the lock, change its text and write it back atomically.

        Returns:
            The new text, and the note of a locks folder that is not the usual one.
        """
        from pi_ask.config.storage import locked, target_of, write_atomic

        with locked(self._path) as lock_note:
            content = read_file(self._path)
            if content.status == "not_toml":
                raise _Refused(refused_message(self._path, content.detail))
            if content.status == "unreadable":
                raise _Refused(save_error(self._path, content.detail))
            old = None if content.status == "absent" else content.text
            new = change(old)
            if new != old:
                write_atomic(target_of(self._path), new.encode("utf-8"))
            return new, lock_note

    def _initial_state(self, content: FileContent) -> _State:
        if content.status in ("parsed", "absent"):
            return self._evaluated(content)
        evaluation = evaluate(None)
        text = (
            f"{display_path(self._path)}: {_trouble(content)}. Loaded defaults for this session "
            "and left the config file unchanged; fix it and save, and the change applies at once."
        )
        return _State(
            evaluation.settings,
            (ConfigProblem("", _trouble(content)), *evaluation.problems),
            Notice("error", text),
            content.status,
            content.detail,
        )

    def _evaluated(self, content: FileContent) -> _State:
        evaluation = evaluate(content.document)
        notice = summarize(display_path(self._path), evaluation.problems)
        return _State(evaluation.settings, evaluation.problems, notice, content.status)

    def _apply(self, content: FileContent) -> None:
        if content.status in ("parsed", "absent"):
            self._replace(self._evaluated(content))
            return
        text = (
            f"{self._path.name}: {_trouble(content)}. Kept the previous settings; fix the file "
            "and save it again."
        )
        problem = ConfigProblem("", _trouble(content))
        self._replace(
            self._state._replace(
                problems=(problem,),
                notice=Notice("error", text),
                status=content.status,
                detail=content.detail,
            )
        )

    def _replace(self, state: _State) -> None:
        with self._lock:
            before, self._state = self._state, state
            callbacks = list(self._subscribers)
        if (before.settings, before.notice) == (state.settings, state.notice):
            return
        for callback in callbacks:
            callback(state.settings)


class _Refused(Exception):
    """A save that must not happen (the file is not TOML, or cannot be read)."""


def _trouble(content: FileContent) -> str:
    if content.status == "not_toml":
        return f"not valid TOML ({content.detail})"
    return f"cannot be read ({content.detail})"


def _environment_note(key: str) -> str | None:
    name = env_var_name(key)
    if not any(variable.upper() == name for variable in os.environ):
        return None
    return f"Saved, but {name} is set in the environment and still wins over the file."


_STORES: dict[Path, SettingsStore] = {}
_STORES_LOCK = threading.Lock()


def open_store(path: Path | None = None, *, create: bool = True) -> SettingsStore:
    """The store of the config file (``config_path(path)``), loaded once per process.

    Args:
        path: The ``--config`` file, if any.
        create: Write the commented default file when there is none (the ask faces and
            ``pi-ask settings`` do; the ``config`` subcommands do not).

    Returns:
        The process's store for that file.
    """
    from pi_ask.config.paths import config_path

    resolved = config_path(path)
    with _STORES_LOCK:
        store = _STORES.get(resolved)
        if store is None:
            store = SettingsStore(resolved, create=create)
            _STORES[resolved] = store
            # The process speaks the file's language from here on. Read once: a language
            # changed while an ask is open applies to the next one, never half a screen.
            use_language(store.snapshot().ui.language)
            return store
    if create and store.file_status == "absent":
        store.create_if_absent()
    return store
