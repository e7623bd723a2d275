"""The catalogues (pi_ask/locale) and the choice of language (pi_ask/i18n.py).

Babel is only a development tool: these tests extract the messages from the source and
compile each ``.po`` in memory, the same way docs/translating.md's commands do, and compare
with what is committed. The TUI in each language is checked in
tests/faces/tui/test_languages.py, ``pi-ask demo`` in German in
tests/e2e/test_languages_in_a_terminal.py.
"""

from __future__ import annotations

import io
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from pi_ask import i18n
from pi_ask.config.catalogue import KEYS_BY_NAME, is_valid
from pi_ask.config.store import SettingsStore, open_store

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "pi_ask" / "locale"
TEMPLATE = LOCALE / "messages.pot"
CATALOGUES = sorted(LOCALE.glob("*/LC_MESSAGES/pi_ask.po"))
LANGUAGES = [path.parts[-3] for path in CATALOGUES]
MessageId = str | tuple[str, ...]


def read_catalogue(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=language)


def source_messages() -> set[MessageId]:
    """Every message the source marks (``gettext``, ``ngettext``, ``N_``), as babel.cfg says."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found: set[MessageId] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=DEFAULT_KEYWORDS
    ):
        found.add(message if isinstance(message, str) else tuple(message))
    return found


def catalogue_ids(catalogue: Catalog) -> set[MessageId]:
    return {message.id for message in catalogue if message.id}


def fields(text: str) -> set[str]:
    """The ``{name}`` fields of a format string."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def problems(message: Message, num_plurals: int) -> list[str]:
    """What is wrong with one translated message: missing, fuzzy, or its fields differ."""
    ids = [message.id] if isinstance(message.id, str) else list(message.id)
    strings = [message.string] if isinstance(message.string, str) else list(message.string)
    found = []
    if message.fuzzy:
        found.append("fuzzy")
    if not all(strings) or (len(ids) > 1 and len(strings) != num_plurals):
        found.append("untranslated")
    wanted = set().union(*(fields(text) for text in ids))
    for text in strings:
        # A language with one plural form writes the field the English plural holds.
        if text and fields(text) != wanted and not (len(ids) > 1 and fields(text) <= wanted):
            found.append(f"fields {sorted(fields(text))} != {sorted(wanted)}: {text!r}")
    return found


def test_the_template_holds_every_message_the_source_marks() -> None:
    assert catalogue_ids(read_catalogue(TEMPLATE)) == source_messages(), (
        "re-extract: see docs/translating.md"
    )


def test_english_and_four_languages_ship() -> None:
    assert set(LANGUAGES) >= {"de", "es", "ja", "zh_CN"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_committed_mo_is_its_po_compiled(language: str) -> None:
    path = LOCALE / language / "LC_MESSAGES" / "pi_ask.po"
    compiled = io.BytesIO()
    write_mo(compiled, read_catalogue(path, language))
    assert compiled.getvalue() == path.with_suffix(".mo").read_bytes(), (
        f"{language}: recompile (docs/translating.md)"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalogue_is_complete_and_its_fields_match(language: str) -> None:
    catalogue = read_catalogue(LOCALE / language / "LC_MESSAGES" / "pi_ask.po", language)
    assert not catalogue.fuzzy, "a fuzzy header makes pybabel compile skip the catalogue"
    assert catalogue_ids(catalogue) == catalogue_ids(read_catalogue(TEMPLATE))
    found: dict[str, list[str]] = {}
    for message in catalogue:
        if message.id:
            wrong = problems(message, catalogue.num_plurals)
            if wrong:
                found[str(message.id)] = wrong
    for message, errors in catalogue.check():
        found.setdefault(str(message.id), []).extend(map(str, errors))
    assert found == {}


def test_the_checks_find_a_missing_field_and_a_missing_translation() -> None:
    catalogue = Catalog(locale="de")
    lost = catalogue.add("Press {digit} again to {action}.", "Drücken Sie {digit} noch einmal.")
    empty = catalogue.add("Submit", "")
    assert problems(lost, 2) and problems(empty, 2)
    plural = catalogue.add(("{count} question", "{count} questions"), ("{count} Frage", ""))
    assert problems(plural, 2) == ["untranslated"]


# --- the choice of language --------------------------------------------------------------------


def test_gettext_s_environment_order_names_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"LANG": "de_DE.UTF-8", "LC_MESSAGES": "es_ES.UTF-8"}
    assert i18n.wanted_languages("auto", env) == ["es_ES.UTF-8"]
    env["LC_ALL"] = "ja_JP.UTF-8"
    assert i18n.wanted_languages("auto", env) == ["ja_JP.UTF-8"]
    env["LANGUAGE"] = "zh_CN:de"
    assert i18n.wanted_languages("auto", env) == ["zh_CN", "de"]
    assert i18n.wanted_languages("de", env) == ["de"]
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert i18n.use_language() == "de"
    assert i18n.gettext("Submit") == "Absenden"
    assert i18n.ngettext("{count} question", "{count} questions", 2) == "{count} Fragen"


@pytest.mark.parametrize(
    ("environment", "language"),
    [
        ({"LANG": "es_MX.UTF-8"}, "es"),
        ({"LANG": "ja_JP.eucJP"}, "ja"),
        ({"LANG": "zh_CN.UTF-8"}, "zh_CN"),
        ({"LANGUAGE": "fr:de", "LANG": "fr_FR.UTF-8"}, "de"),
        ({"LANGUAGE": "en:de"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_auto_picks_the_first_language_with_a_catalogue(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], language: str
) -> None:
    for name in i18n.ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert i18n.use_language("auto") == language


def test_a_code_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert i18n.use_language("ja") == "ja"
    assert i18n.use_language("zh") == "zh_CN"
    assert i18n.use_language("en") == "en"
    assert i18n.gettext("Submit") == "Submit"


def test_the_pseudo_language_marks_every_message() -> None:
    assert i18n.use_language(i18n.PSEUDO) == i18n.PSEUDO
    assert i18n.gettext("Submit") == "«Submit»"
    assert i18n.ngettext("{count} more", "{count} more", 3).format(count=3) == "«3 more»"


def test_ui_language_in_the_file_is_the_process_s_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    config = tmp_path / "config.toml"
    config.write_text('[ui]\nlanguage = "ja"\n', encoding="utf-8")
    store = open_store(config)
    assert store.snapshot().ui.language == "ja"
    assert i18n.active_language() == "ja"
    assert store.problems == ()


def test_a_bad_language_is_one_problem_and_the_default_stays(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[ui]\nlanguage = "German!"\n', encoding="utf-8")
    store = SettingsStore(config)
    assert store.snapshot().ui.language == "auto"
    assert [problem.key for problem in store.problems] == ["ui.language"]
    assert KEYS_BY_NAME["ui.language"].default == "auto"
    assert all(is_valid("language", code) for code in ("auto", "de", "zh_CN", "pt-BR", "x-pseudo"))
    assert not any(is_valid("language", code) for code in ("", "German!", 3, "de_DE.UTF-8"))
