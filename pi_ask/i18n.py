"""The user's language: what a face shows comes from gettext catalogues, in one language.

The catalogues are ``pi_ask/locale/<language>/LC_MESSAGES/pi_ask.po`` and their compiled
``.mo`` (committed; docs/translating.md says how to add a language and recompile). The
language is ``[ui] language`` when it names one (the settings store calls ``use_language``),
else gettext's own order: the first of LANGUAGE (a ``:`` list), LC_ALL, LC_MESSAGES and LANG
that is set. English needs no catalogue: the message ids are the English text.

Only what users read goes through here. The text handed to the model (the contract's result
text, ``state/summary.py``) stays English and never calls these functions. The standard
library's gettext loads only with a catalogue (English needs none), so the first frame pays
for one ``.mo`` read at most, and Babel is only a development tool (extraction and
compilation).

``x-pseudo`` is a pseudo-language built at run time from the English text: every message is
wrapped in markers (``«…»``), so a screen drawn in it shows at a glance which words
did not come from a catalogue (tests/test_i18n.py runs the TUI in it).
"""

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypeAlias

if TYPE_CHECKING:
    from gettext import GNUTranslations

DOMAIN: Final = "pi_ask"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
PSEUDO: Final = "x-pseudo"
PSEUDO_OPEN: Final = "«"
PSEUDO_CLOSE: Final = "»"
ENGLISH: Final = "en"
AUTO: Final = "auto"
ENVIRONMENT: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""gettext's own order: the first of these that is set names the language(s)."""
LANGUAGE_PATTERN: Final = r"auto|x-pseudo|[a-z]{2,3}([_-][A-Za-z0-9]{2,8})?"
"""What ``[ui] language`` may hold: ``auto``, the pseudo-language, or a code (``de``,
``zh_CN``, ``pt-BR``)."""
_ALIASES: Final = {"zh": "zh_CN"}


class _English:
    """No catalogue: the message ids are the English text. (The standard library's gettext
    loads only with a catalogue: an asker in English never needs it.)"""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return msgid1 if n == 1 else msgid2


class _Pseudo(_English):
    """Every message wrapped in markers; format fields stay as they are inside them."""

    def gettext(self, message: str) -> str:
        return f"{PSEUDO_OPEN}{message}{PSEUDO_CLOSE}" if message else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.gettext(msgid1 if n == 1 else msgid2)


_Catalogue: TypeAlias = "_English | GNUTranslations"


class _Active:
    """The catalogue in use, its code, and the codes it was chosen from (the same codes
    again load nothing)."""

    translations: "_Catalogue | None" = None
    code: str = ENGLISH
    wanted: tuple[str, ...] = ()


def _candidates(code: str) -> list[str]:
    """Catalogue folders for one code, most specific first: ``de_DE.UTF-8`` → de_DE, de."""
    bare = code.split(".", 1)[0].split("@", 1)[0].replace("-", "_")
    language, _, region = bare.partition("_")
    full = f"{language.lower()}_{region.upper()}" if region else language.lower()
    found = [full, language.lower()] if region else [language.lower()]
    return [_ALIASES.get(name, name) for name in dict.fromkeys(found)]


def wanted_languages(setting: str = AUTO, environ: dict[str, str] | None = None) -> list[str]:
    """The codes to try in order: the setting's, or gettext's environment order."""
    if setting != AUTO:
        return [setting]
    env = os.environ if environ is None else environ
    for name in ENVIRONMENT:
        value = env.get(name)
        if value:
            return [code for code in value.split(":") if code]
    return []


def _load(codes: list[str]) -> "tuple[_Catalogue, str]":
    for code in codes:
        if code == PSEUDO:
            return _Pseudo(), PSEUDO
        if code in ("C", "POSIX") or code.startswith(("C.", "POSIX.")):
            break
        for name in _candidates(code):
            if name == ENGLISH:
                return _English(), ENGLISH
            path = LOCALE_DIR / name / "LC_MESSAGES" / f"{DOMAIN}.mo"
            try:
                with path.open("rb") as handle:
                    from gettext import GNUTranslations

                    return GNUTranslations(handle), name
            except OSError:
                continue
    return _English(), ENGLISH


def use_language(setting: str = AUTO) -> str:
    """Show every later message in ``setting``'s language (``auto``: the environment's).

    Returns the catalogue's code (``de``, ``zh_CN``), ``en`` when none fits.
    """
    if re.fullmatch(LANGUAGE_PATTERN, setting) is None:
        setting = AUTO
    wanted = tuple(wanted_languages(setting))
    if _Active.translations is None or wanted != _Active.wanted:
        _Active.translations, _Active.code = _load(list(wanted))
        _Active.wanted = wanted
    return _Active.code


def _translations() -> _Catalogue:
    if _Active.translations is None:
        use_language(AUTO)
    assert _Active.translations is not None
    return _Active.translations


def active_language() -> str:
    """The code of the catalogue in use (``en`` for English)."""
    _translations()
    return _Active.code


def gettext(message: str) -> str:
    """``message`` in the user's language (itself in English or when it has no translation)."""
    return _translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the user's language."""
    return _translations().ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for extraction only; it is translated where it is shown."""
    return message


_ = gettext
