"""Every setting of the config file outside ``[keymaps]``: name, default, meaning, checks.

This table is the one place a setting is described. The default file's comments, the fast
loader's checks, the pydantic model, ``docs/configuration.md`` and the settings overlay rows
all read it, so a setting added here shows up everywhere. Keymaps have their own table in
``pi_ask.keymaps`` (contexts, actions, default keys).
"""

import math
import re
from collections.abc import Mapping
from typing import Literal, NamedTuple, TypeAlias

from pi_ask.face_table import TERMINAL_FACES
from pi_ask.i18n import LANGUAGE_PATTERN, N_

TomlValue: TypeAlias = "bool | int | float | str | list[TomlValue] | Mapping[str, TomlValue]"
"""A value as TOML (and JSON) can hold it, after parsing."""

Kind = Literal[
    "bool",
    "schema_version",
    "seconds",
    "interval",
    "reminders",
    "milliseconds",
    "retries",
    "extractor",
    "models",
    "channels",
    "mcp_face",
    "tool_name",
    "human_ms",
    "theme",
    "styles",
    "face",
    "deadline",
    "no_terminal",
    "tmux",
    "hyperlinks",
    "web_host",
    "port",
    "web_url",
    "path",
    "language",
    "files",
    "megabytes",
]
"""How a setting's value is checked: the fast loader and the model agree on each kind."""

SECTIONS = (
    "behaviour",
    "notifications",
    "keymaps",
    "answer",
    "mcp",
    "theme",
    "ui",
    "inbox",
    "web",
    "attachments",
)
"""The tables of the file, in file order."""

MAX_ATTACHED_FILES = 100
MAX_ATTACHED_MB = 1024

CURRENT_SCHEMA_VERSION = 1
"""The ``schema_version`` this pi-ask writes; older files are migrated in memory."""

MAX_RETRIES = 3
MAX_TIMEOUT_S = 600.0
MAX_INTERVAL_S = 86400.0
MAX_REMINDERS = 10
EXTRACTORS = ("auto", "offline", "model")
CHANNEL_NAMES = ("terminal", "desktop", "bell", "osc9", "osc777", "osc99")
"""The named notification channels: the one registry (``pi_ask.notifications`` builds a
channel for each, the config checks and the schema take their names from here)."""
CHANNEL_WHEN = ("always", "unfocused")
"""A channel table's ``when``: always, or only while the terminal does not have focus."""
CHANNEL_TABLE_KEYS = {"command": ("command",), "apprise": ("url", "config", "tags")}
"""The keys a channel table of each ``type`` takes besides ``type`` and ``when`` (a named
channel's table takes none)."""
DEFAULT_CHANNELS = ("terminal", "desktop")
"""``notifications.channels`` when the file leaves it out or holds no valid entry."""
ENV_PREFIX = "PI_ASK_"
MCP_FACES = ("auto", "elicitation", "terminal")
"""How ``pi-ask mcp`` reaches the user: the host's form, pi-ask's terminal UI, or either."""
TOOL_NAME_PATTERN = "^[A-Za-z][A-Za-z0-9_-]{0,47}$"
"""``mcp.tool_name``: a letter, then letters, digits, ``_`` or ``-`` (48 at most, so the
``_start`` / ``_result`` names stay within every host's limit)."""
MAX_HUMAN_MS = 3_600_000
"""``mcp.min_human_ms`` at most (an hour)."""
THEMES = ("dark", "light", "high-contrast", "ansi")
"""The built-in themes; ``dark`` is the reference's look (screens.md)."""
THEME_NAMES = (*THEMES, "auto")
"""What ``theme.name`` may hold: a theme, or ``auto`` (dark or light, from the terminal)."""
THEME_ROLES = (
    "accent",
    "muted",
    "dim",
    "text",
    "success",
    "chosen",
    "warning",
    "error",
    "syntax-string",
    "code",
    "heading",
    "link",
    "syntax-keyword",
    "syntax-comment",
    "syntax-number",
    "syntax-function",
    "syntax-type",
    "selected-bg",
    "cursor",
    "active",
)
"""The style roles a theme gives a look to, and ``[theme.styles]`` may override."""
FACES = TERMINAL_FACES
"""What ``--ui auto`` opens on a terminal: the full-screen TUI or the line-by-line face."""
NO_TERMINAL_CHOICES = ("answer", "wait")
"""``behaviour.no_terminal``: answer ``no_terminal`` at once, or wait for ``pi-ask attach``."""
TMUX_MODES = ("popup", "window", "off")
"""``inbox.tmux``: how an ask with no terminal opens inside tmux."""
HYPERLINK_MODES = ("auto", "on", "off")
"""``ui.hyperlinks``: OSC 8 links in the TUI on terminals known to show them, always, never."""
MAX_DEADLINE_S = 86400.0
MAX_PORT = 65535
MAX_TEXT_SETTING = 4096
# Patterns as text: ``re`` compiles (and caches) them on first use, so a file that never
# reaches these checks, like the untouched default file, never pays for the compile.
# One word of a prompt_toolkit style string: an attribute, or a colour (fg:/bg: optional).
_STYLE_WORD = (
    r"(no)?(bold|italic|underline|reverse|hidden|blink|strike|dim)|noinherit|"
    r"((fg|bg):)?(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[A-Za-z]+)"
)

# Apprise's scheme form: up to 32 letters or digits, then "://" (as pi_ask.notifications).
_URL = r"[A-Za-z0-9]{1,32}://"


class SettingKey(NamedTuple):
    """One setting of the file.

    Attributes:
        key: The dotted snake_case name (``behaviour.show_footer_hints``).
        kind: How the value is checked.
        default: The value used when the file leaves the key out or holds a bad value.
        comment: The comment written above the key in the default file (lines split on
            newlines).
        expected: What a valid value looks like, for error messages.
    """

    key: str
    kind: Kind
    default: TomlValue
    comment: str
    expected: str

    @property
    def section(self) -> str:
        """The table holding the key (``""`` for top-level keys)."""
        return self.key.rpartition(".")[0]

    @property
    def name(self) -> str:
        """The key's name inside its table."""
        return self.key.rpartition(".")[2]

    @property
    def alias(self) -> str:
        """The camelCase spelling accepted when reading (``showFooterHints``)."""
        return camel_case(self.name)

    @property
    def env_var(self) -> str:
        """The environment variable that overrides the key."""
        return env_var_name(self.key)


class ToggleRow(NamedTuple):
    """One row of the settings overlay (behaviour.md §10): on/off, or one of ``choices``.

    Attributes:
        key: The setting the row flips (a boolean), or steps through ``choices``.
        label: The row's text.
        description: The help shown under the list while the row is focused.
        group: The overlay section the row sits in.
        choices: The values a choice row steps through, in order; empty for on/off.
    """

    key: str
    label: str
    description: str
    group: Literal["Live settings", "Defaults for future asks"]
    choices: tuple[str, ...] = ()


_BOOL = "true or false"

KEYS: tuple[SettingKey, ...] = (
    SettingKey(
        "schema_version",
        "schema_version",
        CURRENT_SCHEMA_VERSION,
        "Version of this file's layout; pi-ask migrates older files when it reads them.",
        f"the whole number {CURRENT_SCHEMA_VERSION}",
    ),
    SettingKey(
        "behaviour.auto_submit_when_answered_without_notes",
        "bool",
        False,
        "Submit by itself once every question is answered and no note was written.",
        _BOOL,
    ),
    SettingKey(
        "behaviour.confirm_dismiss_when_dirty",
        "bool",
        True,
        "Ask for a second Esc or Ctrl+C before throwing away answers or drafts.",
        _BOOL,
    ),
    SettingKey(
        "behaviour.double_press_review_shortcuts",
        "bool",
        True,
        "On the review tab, 1/2/3 (Submit, Elaborate, Cancel) must be pressed twice.",
        _BOOL,
    ),
    SettingKey(
        "behaviour.present_single_as_multi",
        "bool",
        False,
        "Show single-select questions as multi-select in new asks (not the open one).",
        _BOOL,
    ),
    SettingKey(
        "behaviour.show_footer_hints",
        "bool",
        True,
        "Show the key hints at the bottom of the ask flow.",
        _BOOL,
    ),
    SettingKey(
        "behaviour.answer_timeout_s",
        "deadline",
        0,
        "Seconds an ask may wait for an answer before it ends with reason timeout; 0: no limit.",
        f"a number of seconds from 0 (no limit) to {MAX_DEADLINE_S:g}",
    ),
    SettingKey(
        "behaviour.no_terminal",
        "no_terminal",
        "answer",
        '"answer": with no terminal, inbox or tmux, return "Needs user input" at once;\n'
        '"wait": wait for `pi-ask attach` (as --wait does).',
        '"answer" or "wait"',
    ),
    SettingKey(
        "notifications.enabled",
        "bool",
        True,
        "Send one notification when an ask opens and waits for you.",
        _BOOL,
    ),
    SettingKey(
        "notifications.timeout_s",
        "seconds",
        5,
        "Seconds each channel may take before it is abandoned.",
        f"a number of seconds above 0 and at most {MAX_TIMEOUT_S:g}",
    ),
    SettingKey(
        "notifications.remind_after_s",
        "interval",
        300,
        "While an ask still waits, remind after this many seconds (again after as many).",
        f"a number of seconds above 0 and at most {MAX_INTERVAL_S:g}",
    ),
    SettingKey(
        "notifications.remind_times",
        "reminders",
        1,
        "How many reminders at most; 0: none. Any key you press stops them.",
        f"a whole number from 0 to {MAX_REMINDERS}",
    ),
    SettingKey(
        "notifications.channels",
        "channels",
        list(DEFAULT_CHANNELS),
        '"terminal" (the terminal\'s own alert), "desktop" (a native desktop notification),\n'
        '"bell", "osc9", "osc777", "osc99", any apprise URL ("ntfys://topic", ...),\n'
        '{ type = "command", command = "..." }, { type = "apprise", config = "...", tags = [] };\n'
        'any entry as a table may add when = "unfocused". Run in this order, best effort.',
        "a list of " + ", ".join(f'"{name}"' for name in CHANNEL_NAMES) + ", apprise URLs and "
        'channel tables ({ type = "command" | "apprise" | <name>, ... })',
    ),
    SettingKey(
        "answer.extractor",
        "extractor",
        "auto",
        '"auto": the first model below whose API key is set, else "offline"; or "model".',
        '"auto", "offline" or "model"',
    ),
    SettingKey(
        "answer.extraction_models",
        "models",
        [{"provider": "openai", "id": "gpt-5.4-mini"}],
        "Models pi-ask answer tries in order; an entry may add base_url and api_key_env.",
        'a list of { provider = "...", id = "..." } tables (optional base_url, api_key_env)',
    ),
    SettingKey(
        "answer.extraction_timeout_ms",
        "milliseconds",
        30000,
        "Milliseconds one extraction attempt may take.",
        "a whole number of milliseconds above 0",
    ),
    SettingKey(
        "answer.extraction_retries",
        "retries",
        1,
        "Extra attempts after the model returns no usable questions.",
        f"a whole number from 0 to {MAX_RETRIES}",
    ),
    SettingKey(
        "mcp.face",
        "mcp_face",
        "auto",
        '"auto": the host\'s form when it has one, else the terminal UI (inbox or tmux);\n'
        '"elicitation": the host\'s form only; "terminal": the terminal UI first.',
        '"auto", "elicitation" or "terminal"',
    ),
    SettingKey(
        "mcp.tool_name",
        "tool_name",
        "ask_user",
        "The name the tools are published under: NAME, NAME_start and NAME_result\n"
        '(Gemini CLI needs another name than "ask_user", its own tool\'s).',
        "a letter, then up to 47 letters, digits, _ or -",
    ),
    SettingKey(
        "mcp.min_human_ms",
        "human_ms",
        400,
        "A form declined or cancelled faster than this many milliseconds was answered by the\n"
        "host, not you: pi-ask then tries the terminal UI. 0 trusts every decline.",
        f"a whole number of milliseconds from 0 to {MAX_HUMAN_MS}",
    ),
    SettingKey(
        "mcp.tasks",
        "bool",
        False,
        "An ask that goes to the terminal UI becomes an MCP task when the host takes tasks:\n"
        "the call returns at once and the host fetches the answer (no tool timeout). Off by\n"
        "default: Claude Code tells its model a task's answer is not the user's input.",
        "true or false",
    ),
    SettingKey(
        "theme.name",
        "theme",
        "dark",
        '"dark", "light", "high-contrast", "ansi" (the terminal\'s own 16 colours), or "auto"\n'
        "(dark or light, from the background colour the terminal reports).",
        '"dark", "light", "high-contrast", "ansi" or "auto"',
    ),
    SettingKey(
        "theme.styles",
        "styles",
        {},
        'Per-role overrides in prompt_toolkit style syntax, e.g. { accent = "#005f87 bold" };\n'
        "roles: " + ", ".join(THEME_ROLES) + ".",
        'a table of role = "style" (roles: ' + ", ".join(THEME_ROLES) + ")",
    ),
    SettingKey(
        "ui.face",
        "face",
        "tui",
        '"tui", or "plain" to ask line by line (screen readers); TERM=dumb always gets plain.',
        '"tui" or "plain"',
    ),
    SettingKey(
        "ui.markdown",
        "bool",
        True,
        "Draw Markdown in prompts, descriptions, notes and previews (fenced code highlighted);\n"
        "false shows the text as written.",
        _BOOL,
    ),
    SettingKey(
        "ui.hyperlinks",
        "hyperlinks",
        "auto",
        'Make Markdown links clickable in the TUI (OSC 8): "auto" on terminals known to show\n'
        'them (not inside tmux or screen), "on", or "off". The URL is shown either way.',
        '"auto", "on" or "off"',
    ),
    SettingKey(
        "ui.language",
        "language",
        "auto",
        '"auto": the language of LANGUAGE, LC_ALL, LC_MESSAGES or LANG (the first set), or a\n'
        'code: "en", "de", "es", "ja", "zh_CN". What the model reads stays English.',
        '"auto" or a language code such as "de" or "zh_CN"',
    ),
    SettingKey(
        "inbox.tmux",
        "tmux",
        "popup",
        'Inside tmux, an ask with no terminal opens in a "popup", a new "window", or "off".',
        '"popup", "window" or "off"',
    ),
    SettingKey(
        "web.host",
        "web_host",
        "127.0.0.1",
        "Address pi-ask web listens on; anything but loopback also needs --expose.",
        'an address or host name such as "127.0.0.1"',
    ),
    SettingKey(
        "web.port",
        "port",
        0,
        "Port pi-ask web listens on; 0: a free one, printed at start.",
        f"a whole number from 0 to {MAX_PORT}",
    ),
    SettingKey(
        "web.public_url",
        "web_url",
        "",
        "The address the page is reached at from elsewhere (a proxy, Tailscale serve),\n"
        'e.g. "https://box.tail1234.ts.net/"; its host is accepted and links point to it.',
        'empty, or an http(s) URL such as "https://box.example/"',
    ),
    SettingKey(
        "web.tls_cert",
        "path",
        "",
        "Your TLS certificate (PEM) for pi-ask web to serve https itself; with tls_key.",
        "empty, or the path of a PEM file",
    ),
    SettingKey(
        "web.tls_key",
        "path",
        "",
        "The private key (PEM) of tls_cert.",
        "empty, or the path of a PEM file",
    ),
    SettingKey(
        "web.trust_tailscale_headers",
        "bool",
        False,
        "Behind `tailscale serve` on loopback only: a request carrying Tailscale's identity\n"
        "headers counts as paired (Tailscale checked who it is).",
        _BOOL,
    ),
    SettingKey(
        "attachments.max_files",
        "files",
        10,
        "Files an ask's answers may carry in all (the TUI's attach key, the plain face's\n"
        "/attach PATH); copies live in the ask's private folder.",
        f"a whole number from 1 to {MAX_ATTACHED_FILES}",
    ),
    SettingKey(
        "attachments.max_mb",
        "megabytes",
        20,
        "Megabytes (10^6 bytes) the attached files of one ask may take in all.",
        f"a whole number from 1 to {MAX_ATTACHED_MB}",
    ),
)
"""Every non-keymap setting, in file order."""

KEYS_BY_NAME: Mapping[str, SettingKey] = {spec.key: spec for spec in KEYS}

TOGGLE_ROWS: tuple[ToggleRow, ...] = (
    ToggleRow(
        "behaviour.auto_submit_when_answered_without_notes",
        N_("Auto-submit when answered without notes"),
        N_("Auto-submit completed ask flows when no question or option notes were added."),
        "Live settings",
    ),
    ToggleRow(
        "behaviour.confirm_dismiss_when_dirty",
        N_("Confirm dismiss when dirty"),
        N_(
            "Require a second cancel or dismiss action before discarding answered or drafted "
            "ask content."
        ),
        "Live settings",
    ),
    ToggleRow(
        "behaviour.double_press_review_shortcuts",
        N_("Double-press review shortcuts"),
        N_(
            "Require pressing 1, 2, or 3 twice on the review tab before triggering Submit, "
            "Elaborate, or Cancel."
        ),
        "Live settings",
    ),
    ToggleRow(
        "notifications.enabled",
        N_("Notifications"),
        N_("Emit one external notification when the ask flow opens and waits for input."),
        "Live settings",
    ),
    ToggleRow(
        "behaviour.show_footer_hints",
        N_("Show footer hints"),
        N_("Show footer keymap hints at the bottom of the ask flow."),
        "Live settings",
    ),
    ToggleRow(
        "ui.markdown",
        N_("Markdown"),
        N_(
            "Draw Markdown in prompts, descriptions, notes and previews, fenced code "
            "highlighted; off shows the text as written. Applies at once."
        ),
        "Live settings",
    ),
    ToggleRow(
        "theme.name",
        N_("Theme"),
        N_(
            "Colours of the ask flow: dark, light, high-contrast, ansi (your terminal's own "
            "palette), or auto (dark or light, as your terminal's background). Applies at once."
        ),
        "Live settings",
        THEME_NAMES,
    ),
    ToggleRow(
        "behaviour.present_single_as_multi",
        N_("Present single-select as multi-select"),
        N_(
            "Default new and replayed ask flows to render single-select questions as "
            "multi-select. This is not hot-applied to the current flow; use the type hotkey "
            "there."
        ),
        "Defaults for future asks",
    ),
    ToggleRow(
        "ui.face",
        N_("Terminal face"),
        N_(
            "tui: the full-screen flow; plain: one line at a time, no colour or cursor movement "
            "(screen readers, Emacs shell). For new asks; TERM=dumb always gets plain."
        ),
        "Defaults for future asks",
        FACES,
    ),
    ToggleRow(
        "behaviour.no_terminal",
        N_("With no terminal"),
        N_(
            "answer: an ask with no terminal, inbox or tmux returns Needs user input at once; "
            "wait: it waits for pi-ask attach."
        ),
        "Defaults for future asks",
        NO_TERMINAL_CHOICES,
    ),
    ToggleRow(
        "inbox.tmux",
        N_("Inside tmux"),
        N_(
            "How an ask with no terminal opens inside tmux: a popup over your pane, a new "
            "window, or off."
        ),
        "Defaults for future asks",
        TMUX_MODES,
    ),
)
"""The settings overlay's toggle rows, in display order (behaviour.md §10)."""

RESET_DESCRIPTION = N_(
    "Reset behaviour, keymaps, notifications, and extraction settings to defaults. "
    "Press twice quickly to confirm."
)
"""The description of the overlay's reset row."""


def camel_case(name: str) -> str:
    """The camelCase spelling of a snake_case name (``show_footer_hints`` → ``showFooterHints``)."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def env_var_name(key: str) -> str:
    """The environment variable for a dotted key: ``PI_ASK_BEHAVIOUR__SHOW_FOOTER_HINTS``."""
    return ENV_PREFIX + "__".join(part.upper() for part in key.split("."))


def env_var_hint(name: str) -> str:
    """`` (did you mean "PI_ASK_…"?)`` for a variable close to a setting's, else ``""``.

    Example:
        >>> env_var_hint("PI_ASK_BEHAVIOR__SHOW_FOOTER_HINTS")
        ' (did you mean "PI_ASK_BEHAVIOUR__SHOW_FOOTER_HINTS"?)'
    """
    import difflib  # only for a variable that names no setting

    known = [env_var_name(spec.key) for spec in KEYS]
    if "__" not in name:  # the whole-table form: PI_ASK_BEHAVIOUR='{"show_footer_hints": false}'
        known = [ENV_PREFIX + section.upper() for section in SECTIONS]
    close = difflib.get_close_matches(name.upper(), known, 1, 0.85)
    return f' (did you mean "{close[0]}"?)' if close else ""


def is_setting_env_var(name: str) -> bool:
    """True for a ``PI_ASK_*`` variable meant as a setting (not ``PI_ASK_CONFIG``).

    A nested name (``PI_ASK_<TABLE>__<KEY>``) counts whatever its table, so a misspelled one
    (``PI_ASK_BEHAVIOR__...``) is read, found to name no setting, and reported as such; so
    does a whole table's name one letter off a table's (``PI_ASK_BEHAVIOR='{…}'``).
    """
    upper = name.upper()
    if not upper.startswith(ENV_PREFIX):
        return False
    rest = upper[len(ENV_PREFIX) :].lower()
    return rest == "schema_version" or "__" in rest or rest in SECTIONS or _near_table(rest)


def _near_table(word: str) -> bool:
    """One edit from a table's name of five letters or more (``behavior``, ``notification``)."""
    from pi_ask.contract.field_names import edit_distance

    return any(
        len(section) >= _NEAR_TABLE_MIN and edit_distance(word, section) == 1
        for section in SECTIONS
    )


_NEAR_TABLE_MIN = 5  # "ui", "web", "mcp": one letter off those is another word


def is_valid(kind: Kind, value: object) -> bool:
    """Whether ``value`` (as parsed from TOML) is a good value of ``kind``, entries included.

    The fast loader accepts a file only when every value passes; anything else goes through
    the model, which says what is wrong.
    """
    if kind == "bool":
        return type(value) is bool
    if kind == "schema_version":
        return type(value) is int and 1 <= value <= CURRENT_SCHEMA_VERSION
    if kind == "seconds":
        return _is_number(value) and 0 < float(value) <= MAX_TIMEOUT_S  # type: ignore[arg-type]
    if kind == "interval":
        return _is_number(value) and 0 < float(value) <= MAX_INTERVAL_S  # type: ignore[arg-type]
    if kind == "reminders":
        return type(value) is int and 0 <= value <= MAX_REMINDERS
    if kind == "milliseconds":
        return type(value) is int and value > 0
    if kind == "retries":
        return type(value) is int and 0 <= value <= MAX_RETRIES
    if kind == "extractor":
        return value in EXTRACTORS
    if kind == "mcp_face":
        return value in MCP_FACES
    if kind == "tool_name":
        return isinstance(value, str) and re.fullmatch(TOOL_NAME_PATTERN, value) is not None
    if kind == "human_ms":
        return type(value) is int and 0 <= value <= MAX_HUMAN_MS
    if kind == "models":
        return isinstance(value, list) and all(is_model_entry(entry) for entry in value)
    if kind == "theme":
        return value in THEME_NAMES
    if kind == "face":
        return value in FACES
    if kind == "deadline":
        return _is_number(value) and 0 <= float(value) <= MAX_DEADLINE_S  # type: ignore[arg-type]
    if kind == "no_terminal":
        return value in NO_TERMINAL_CHOICES
    if kind == "tmux":
        return value in TMUX_MODES
    if kind == "hyperlinks":
        return value in HYPERLINK_MODES
    if kind == "web_host":
        return is_host_text(value)
    if kind == "port":
        return type(value) is int and 0 <= value <= MAX_PORT
    if kind == "web_url":
        return value == "" or is_web_url(value)
    if kind == "path":
        return isinstance(value, str) and len(value) <= MAX_TEXT_SETTING and "\0" not in value
    if kind == "language":
        return isinstance(value, str) and re.fullmatch(LANGUAGE_PATTERN, value) is not None
    if kind == "files":
        return type(value) is int and 1 <= value <= MAX_ATTACHED_FILES
    if kind == "megabytes":
        return type(value) is int and 1 <= value <= MAX_ATTACHED_MB
    if kind == "styles":
        return is_styles(value)
    return isinstance(value, list) and bool(value) and all(is_channel(item) for item in value)


def is_host_text(value: object) -> bool:
    """A host name or address: non-blank, no spaces, slashes or controls (``[web] host``)."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= 255
        and value.isprintable()
        and not any(ch in value for ch in " /\\#?@")
    )


def is_web_url(value: object) -> bool:
    """An ``http://`` or ``https://`` URL with a host (``[web] public_url``)."""
    if not isinstance(value, str) or len(value) > MAX_TEXT_SETTING or not value.isprintable():
        return False
    scheme, sep, rest = value.partition("://")
    host = rest.split("/", 1)[0].rsplit("@", 1)[-1]
    return bool(sep) and scheme in ("http", "https") and bool(host) and " " not in value


def is_styles(value: object) -> bool:
    """A table of known role names (``-`` or ``_``) to prompt_toolkit style strings."""
    if not isinstance(value, Mapping):
        return False
    return all(
        isinstance(role, str)
        and role.replace("_", "-") in THEME_ROLES
        and isinstance(style, str)
        and all(re.fullmatch(_STYLE_WORD, word) for word in style.split())
        for role, style in value.items()
    )


def is_model_entry(value: object) -> bool:
    """A ``{ provider, id, base_url?, api_key_env? }`` table with non-blank strings."""
    if not isinstance(value, Mapping) or set(value) - {"provider", "id", "base_url", "api_key_env"}:
        return False
    required = all(_is_text(value.get(name)) for name in ("provider", "id"))
    optional = all(
        name not in value or _is_text(value[name]) for name in ("base_url", "api_key_env")
    )
    return required and optional


def is_channel(value: object) -> bool:
    """A channel name, an apprise URL, or a channel table (``is_channel_table``)."""
    if isinstance(value, str):
        return is_channel_name(value) or is_channel_url(value)
    return isinstance(value, Mapping) and is_channel_table(value)


def is_channel_table(value: Mapping[object, object]) -> bool:
    """``{ type = "command", command }``, ``{ type = "apprise", url | config, tags? }`` or
    ``{ type = "<name>" }``, each with an optional ``when = "always" | "unfocused"``."""
    kind = value.get("type")
    if value.get("when", "always") not in CHANNEL_WHEN:
        return False
    keys = CHANNEL_TABLE_KEYS.get(kind, ()) if isinstance(kind, str) else ()
    if set(value) - {"type", "when", *keys}:
        return False
    if kind == "command":
        return _is_text(value.get("command"))
    if kind == "apprise":
        url, config, tags = value.get("url"), value.get("config"), value.get("tags", [])
        tags_ok = isinstance(tags, list) and all(_is_text(tag) for tag in tags)
        if url is not None:
            return config is None and not tags and isinstance(url, str) and is_channel_url(url)
        return _is_text(config) and tags_ok
    return isinstance(kind, str) and is_channel_name(kind)


def is_channel_name(value: str) -> bool:
    """One of ``CHANNEL_NAMES``, in any case, with spaces around or not."""
    return value.strip().lower() in CHANNEL_NAMES


def channel_pattern() -> str:
    """A regular expression for a channel entry written as text: a name of ``CHANNEL_NAMES``
    (any case, spaces around) or an apprise URL; built from the registry, for the schema."""
    from pi_ask.keymaps.key_ids import any_case

    names = "|".join(any_case(name) for name in CHANNEL_NAMES)
    return rf"^\s*(?:(?:{names})\s*$|{_URL})"


def is_channel_url(value: str) -> bool:
    """True when ``value`` has the ``scheme://...`` form of an apprise URL."""
    return re.match(_URL, value.lstrip()) is not None


def _is_number(value: object) -> bool:
    return type(value) in (int, float) and math.isfinite(value)  # type: ignore[arg-type]


def _is_text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())
