"""Load the settings from the file and the environment: fast when all is well, thorough else.

The fast path (``tomllib`` → checks in ``keys.is_valid`` → ``Settings``) serves the common
case on the first-frame path: no ``PI_ASK_*`` setting variable and every value valid. Anything
else goes through the pydantic model (``explanation.explain``), which knows the environment
and words every problem. Both end in ``settings_from_values`` and resolve keymaps the same
way, and ``tests/config/test_parity.py`` keeps their results equal.
"""

import os
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal, NamedTuple

from pi_ask.config.catalogue import KEYS_BY_NAME, is_valid
from pi_ask.config.document import CanonicalDocument, canonical_values
from pi_ask.config.environment import fast_environment
from pi_ask.config.migrations import migrate
from pi_ask.config.problems import ConfigProblem
from pi_ask.config.settings import Settings, settings_from_values
from pi_ask.config.toml_text import default_document, default_text
from pi_ask.guarded_parse import load_toml
from pi_ask.keymaps.keymap import DEFAULT_DOCUMENT, DEFAULT_KEYMAPS, Keymaps
from pi_ask.regular_files import MIB, read_regular

if TYPE_CHECKING:
    from pi_ask.keymaps.problems import KeymapProblem

MAX_CONFIG_BYTES = MIB
"""The largest settings file read; a larger one (or a FIFO, a device) is unreadable."""

FileStatus = Literal["absent", "parsed", "not_toml", "unreadable"]
"""What reading the file gave: nothing, a document, text that is not TOML, or an error."""


class FileContent(NamedTuple):
    """The config file as read.

    Attributes:
        status: See ``FileStatus``.
        document: The parsed document when ``status`` is ``parsed``.
        detail: Why the file could not be used (``not_toml``, ``unreadable``).
        text: The file's text when ``status`` is ``parsed``.
    """

    status: FileStatus
    document: Mapping[str, object] | None = None
    detail: str = ""
    text: str = ""


class Evaluation(NamedTuple):
    """Settings worked out from a document and the environment.

    Attributes:
        settings: The effective settings.
        problems: Every problem found, file and environment.
        thorough: True when the model checked the values (False: the fast path did).
        sources: Where each set value came from (``file``, ``environment (PI_ASK_...)``) by
            dotted key, keymap actions included; only the model fills it.
    """

    settings: Settings
    problems: tuple[ConfigProblem, ...]
    thorough: bool
    sources: Mapping[str, str] = MappingProxyType({})


def read_file(path: Path) -> FileContent:
    """Read and parse the config file; never raises for a bad or missing file.

    A FIFO, a device or a file over ``MAX_CONFIG_BYTES`` is ``unreadable`` without being read.
    """
    try:
        data = read_regular(path, MAX_CONFIG_BYTES)
    except FileNotFoundError:
        return FileContent("absent")
    except IsADirectoryError:
        return FileContent("unreadable", detail="it is a folder, not a file")
    except OSError as err:
        return FileContent("unreadable", detail=err.strerror or str(err))
    return parse_text(data)


def parse_text(data: bytes) -> FileContent:
    """Parse the bytes of a config file."""
    try:
        # An editor's UTF-8 BOM is not part of the text (edits are written back without it).
        # (Not the utf-8-sig codec: a module more to import, and byte offsets after the BOM.)
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as err:
        return FileContent("not_toml", detail=f"not UTF-8 text (byte {err.start})")
    if text == default_text():
        # The file pi-ask wrote on first use, untouched: its table is known.
        return FileContent("parsed", default_document(), text=text)
    try:
        return FileContent("parsed", load_toml(text), text=text)
    except ValueError as err:  # not TOML, nested too deeply, a number too long
        from pi_ask.config.toml_errors import with_opening_line

        return FileContent("not_toml", detail=with_opening_line(text, str(err)))


def evaluate(
    document: Mapping[str, object] | None,
    environ: Mapping[str, str] | None = None,
    *,
    thorough: bool = False,
) -> Evaluation:
    """Work out the settings of a parsed document (``None``: no file) and the environment.

    Args:
        document: The parsed file, or ``None`` when there is no usable file.
        environ: The environment; ``os.environ`` when not given.
        thorough: Always go through the model (the commands do, for its messages).

    Returns:
        The settings and every problem.
    """
    env = os.environ if environ is None else environ
    canonical = canonical_values(migrate(document or {}))
    problems = list(canonical.problems)
    values = None if thorough else _fast_values(canonical, env)
    keymaps_document = canonical.keymaps
    fast = values is not None
    sources: Mapping[str, str] = {}
    if values is None:
        # Imported here: pydantic-settings is too slow to load on the first-frame path.
        from pi_ask.config.explanation import explain

        explained = explain(canonical, env)
        values, keymaps_document = dict(explained.values), explained.keymaps
        sources = explained.sources
        problems.extend(explained.problems)
    keymaps, found = _resolve_keymaps(keymaps_document)
    problems.extend(keymap_problems(found))
    settings = settings_from_values(values, keymaps)
    return Evaluation(settings, tuple(problems), not fast, sources)


def _resolve_keymaps(document: object) -> "tuple[Keymaps, tuple[KeymapProblem, ...]]":
    """The session's keymaps and their problems; the default file's table (every action with
    its default keys, as pi-ask writes it) or none at all are the defaults, unchecked."""
    if not document or document == DEFAULT_DOCUMENT:
        return DEFAULT_KEYMAPS, ()
    from pi_ask.keymaps.validation import resolve_keymaps

    resolution = resolve_keymaps(document)
    return resolution.session_keymaps, resolution.problems


def keymap_problems(found: "tuple[KeymapProblem, ...]") -> list[ConfigProblem]:
    """Keymap problems as config problems; each error already says what its action gets."""
    return [ConfigProblem(problem.path, problem.message, problem.severity) for problem in found]


def _fast_values(
    canonical: CanonicalDocument, environ: Mapping[str, str]
) -> Mapping[str, object] | None:
    """The file's values with the variables' laid over them, when all are plainly valid."""
    for key, value in canonical.values.items():
        if not is_valid(KEYS_BY_NAME[key].kind, value):
            return None
    overrides = fast_environment(environ)
    if overrides is None:
        return None
    return {**canonical.values, **overrides} if overrides else canonical.values
