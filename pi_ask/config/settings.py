"""``Settings``: the effective settings as one frozen value, and its parts.

The ask flow, the settings overlay and the commands read these; nothing here knows where a
value came from (file, environment or default) or how it was checked.
"""

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal, NamedTuple, TypeAlias, cast

from pi_ask.config.catalogue import DEFAULT_CHANNELS
from pi_ask.face_table import NoTerminal, TerminalFace, TmuxMode
from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS, Keymaps
from pi_ask.state.model import Behaviour

if TYPE_CHECKING:
    from pi_ask.config.channel_entries import CommandEntry, TableEntry

Extractor = Literal["auto", "offline", "model"]
"""How ``pi-ask answer`` extracts questions: a model when one is usable, offline, or a model."""
McpFace = Literal["auto", "elicitation", "terminal"]
"""How ``pi-ask mcp`` reaches the user (``[mcp] face``)."""

ChannelEntry: TypeAlias = "str | CommandEntry | TableEntry"
"""One valid channel entry: a channel name (``"terminal"``, ...), an apprise URL, a table."""


class NotificationSettings(NamedTuple):
    """The ``[notifications]`` table.

    Attributes:
        enabled: Send a notification when an ask opens.
        timeout_s: Seconds each channel may take.
        channels: The valid channel entries in configured order (never empty); turn them into
            channels with ``pi_ask.notifications.parse_channels``.
        remind_after_s: Seconds an ask waits before (each) reminder.
        remind_times: How many reminders at most (0: none); a key press stops them.
    """

    enabled: bool = True
    timeout_s: float = 5.0
    channels: tuple[ChannelEntry, ...] = DEFAULT_CHANNELS
    remind_after_s: float = 300.0
    remind_times: int = 1


class ModelEntry(NamedTuple):
    """One extraction model.

    Attributes:
        provider: The provider name (``openai``, ``openrouter``, ``ollama``, ...).
        id: The model id at that provider.
        base_url: The API address, when not the provider's known one.
        api_key_env: The environment variable holding the API key, when not the provider's.
    """

    provider: str
    id: str
    base_url: str | None = None
    api_key_env: str | None = None


class AnswerSettings(NamedTuple):
    """The ``[answer]`` table (``pi-ask answer``).

    Attributes:
        extractor: ``auto``, ``offline`` or ``model``.
        extraction_models: Models tried in order.
        extraction_timeout_ms: Milliseconds one attempt may take.
        extraction_retries: Extra attempts after an unusable reply (0-3).
    """

    extractor: Extractor = "auto"
    extraction_models: tuple[ModelEntry, ...] = (ModelEntry("openai", "gpt-5.4-mini"),)
    extraction_timeout_ms: int = 30000
    extraction_retries: int = 1


Face = TerminalFace
"""What ``--ui auto`` opens on a terminal (``[ui] face``)."""


class ThemeSettings(NamedTuple):
    """The ``[theme]`` table.

    Attributes:
        name: ``dark`` (the default), ``light``, ``high-contrast`` or ``ansi``.
        styles: (role, prompt_toolkit style) overrides in file order; roles use ``-``.
    """

    name: str = "dark"
    styles: tuple[tuple[str, str], ...] = ()


HyperlinkMode = Literal["auto", "on", "off"]


class UiSettings(NamedTuple):
    """The ``[ui]`` table.

    Attributes:
        face: ``tui``, or ``plain`` for the line-by-line face.
        markdown: Draw Markdown in payload text (``pi_ask.markdown``).
        language: ``auto`` (gettext's environment order) or a language code.
        hyperlinks: OSC 8 links in the TUI: ``auto`` (known terminals), ``on``, ``off``.
    """

    face: Face = "tui"
    markdown: bool = True
    language: str = "auto"
    hyperlinks: HyperlinkMode = "auto"


class RoutingSettings(NamedTuple):
    """Where an ask goes when it has no terminal of its own, and how long it may wait.

    Attributes:
        answer_timeout_s: ``behaviour.answer_timeout_s``; ``None`` (written 0) for no limit.
        no_terminal: ``behaviour.no_terminal``: ``answer`` at once, or ``wait`` for an attach.
        tmux: ``inbox.tmux``: ``popup``, ``window`` or ``off``.
    """

    answer_timeout_s: float | None = None
    no_terminal: NoTerminal = "answer"
    tmux: TmuxMode = "popup"


class McpSettings(NamedTuple):
    """The ``[mcp]`` table (``pi-ask mcp``).

    Attributes:
        face: ``auto`` (the host's form, else the terminal UI), ``elicitation`` (the form
            only) or ``terminal`` (the terminal UI first, then the form).
        tool_name: the published names are this, ``<it>_start`` and ``<it>_result``.
        min_human_ms: a form declined or cancelled sooner than this after it was sent was
            answered by the host, not the user (0: trust every decline).
        tasks: an ask for the terminal UI is handed over as an MCP task to a host that
            takes tasks.
    """

    face: McpFace = "auto"
    tool_name: str = "ask_user"
    min_human_ms: int = 400
    tasks: bool = False


class WebSettings(NamedTuple):
    """The ``[web]`` table (``pi-ask web``).

    Attributes:
        host: Address to listen on (anything but loopback also needs ``--expose``).
        port: Port to listen on; 0 picks a free one.
        public_url: Where the page is reached from elsewhere ("" when nowhere else).
        tls_cert: The user's certificate (PEM) to serve https with ("" for none).
        tls_key: Its private key.
        trust_tailscale_headers: Behind ``tailscale serve`` on loopback, take Tailscale's
            identity headers as a paired session.
    """

    host: str = "127.0.0.1"
    port: int = 0
    public_url: str = ""
    tls_cert: str = ""
    tls_key: str = ""
    trust_tailscale_headers: bool = False


class AttachmentSettings(NamedTuple):
    """The ``[attachments]`` table: how much one ask's answers may carry.

    Attributes:
        max_files: Files in all.
        max_mb: Megabytes (10^6 bytes) in all.
    """

    max_files: int = 10
    max_mb: int = 20

    @property
    def max_bytes(self) -> int:
        return self.max_mb * 1_000_000


class Settings(NamedTuple):
    """Every effective setting.

    Attributes:
        behaviour: The flow's behaviour flags, handed to the engine as they are.
        notifications: Notification settings.
        keymaps: Every action's keys (the defaults when the configured ones are invalid).
        answer: Answer-extraction settings.
        schema_version: The version of the file layout the values were read as.
        mcp: ``pi-ask mcp`` settings.
        theme: The look of the TUI.
        ui: Which face ``--ui auto`` opens on a terminal.
        routing: Where an ask with no terminal goes, and its deadline.
        web: ``pi-ask web`` settings.
        attachments: The limits on files attached to answers.
    """

    behaviour: Behaviour = Behaviour()
    notifications: NotificationSettings = NotificationSettings()
    keymaps: Keymaps = DEFAULT_KEYMAPS
    answer: AnswerSettings = AnswerSettings()
    schema_version: int = 1
    mcp: McpSettings = McpSettings()
    theme: ThemeSettings = ThemeSettings()
    ui: UiSettings = UiSettings()
    routing: RoutingSettings = RoutingSettings()
    web: WebSettings = WebSettings()
    attachments: AttachmentSettings = AttachmentSettings()


_CHANNELS = "notifications.channels"


def settings_from_values(values: Mapping[str, object], keymaps: Keymaps) -> Settings:
    """Build ``Settings`` from checked values by dotted key; keys left out take defaults.

    Both loaders end here, so a value means the same whichever of them checked it.

    Args:
        values: Valid plain values (as TOML holds them) by dotted key.
        keymaps: The keymaps for the session.
    """
    flags = {
        key.partition(".")[2]: bool(value)
        for key, value in values.items()
        if key.startswith("behaviour.") and key.partition(".")[2] in _FLAGS
    }
    notifications = NotificationSettings(
        enabled=bool(values.get("notifications.enabled", True)),
        timeout_s=float(cast(float, values.get("notifications.timeout_s", 5.0))),
        channels=tuple(map(_channel, cast(list[object], values.get(_CHANNELS, DEFAULT_CHANNELS)))),
        remind_after_s=float(cast(float, values.get("notifications.remind_after_s", 300.0))),
        remind_times=cast(int, values.get("notifications.remind_times", 1)),
    )
    defaults = AnswerSettings()
    models = cast("list[Mapping[str, str]] | None", values.get("answer.extraction_models"))
    answer = AnswerSettings(
        extractor=cast(Extractor, values.get("answer.extractor", defaults.extractor)),
        extraction_models=(
            defaults.extraction_models if models is None else tuple(map(_model, models))
        ),
        extraction_timeout_ms=cast(int, values.get("answer.extraction_timeout_ms", 30000)),
        extraction_retries=cast(int, values.get("answer.extraction_retries", 1)),
    )
    version = cast(int, values.get("schema_version", 1))
    mcp = McpSettings(
        face=cast(McpFace, values.get("mcp.face", "auto")),
        tool_name=str(values.get("mcp.tool_name", "ask_user")),
        min_human_ms=cast(int, values.get("mcp.min_human_ms", 400)),
        tasks=bool(values.get("mcp.tasks", False)),
    )
    styles = cast("Mapping[str, str]", values.get("theme.styles", {}))
    theme = ThemeSettings(
        name=str(values.get("theme.name", "dark")),
        styles=tuple((role.replace("_", "-"), style) for role, style in styles.items()),
    )
    ui = UiSettings(
        face=cast(Face, values.get("ui.face", "tui")),
        markdown=bool(values.get("ui.markdown", True)),
        language=str(values.get("ui.language", "auto")),
        hyperlinks=cast(HyperlinkMode, values.get("ui.hyperlinks", "auto")),
    )
    deadline = float(cast(float, values.get("behaviour.answer_timeout_s", 0)))
    routing = RoutingSettings(
        answer_timeout_s=deadline or None,
        no_terminal=cast(NoTerminal, values.get("behaviour.no_terminal", "answer")),
        tmux=cast(TmuxMode, values.get("inbox.tmux", "popup")),
    )
    web = WebSettings(
        host=str(values.get("web.host", "127.0.0.1")),
        port=cast(int, values.get("web.port", 0)),
        public_url=str(values.get("web.public_url", "")),
        tls_cert=str(values.get("web.tls_cert", "")),
        tls_key=str(values.get("web.tls_key", "")),
        trust_tailscale_headers=bool(values.get("web.trust_tailscale_headers", False)),
    )
    return Settings(
        Behaviour(**flags),
        notifications,
        keymaps,
        answer,
        version,
        mcp,
        theme=theme,
        ui=ui,
        routing=routing,
        web=web,
        attachments=AttachmentSettings(
            max_files=cast(int, values.get("attachments.max_files", 10)),
            max_mb=cast(int, values.get("attachments.max_mb", 20)),
        ),
    )


# The behaviour keys the engine reads; the others (deadline, no-terminal) are routing's.
_FLAGS = frozenset(Behaviour._fields)


def _channel(entry: object) -> ChannelEntry:
    if isinstance(entry, Mapping):
        # Loaded only for a table entry: the default channels are names.
        from pi_ask.config.channel_entries import CommandEntry, TableEntry

        if entry.get("type") == "command" and set(entry) == {"type", "command"}:
            return CommandEntry(str(entry["command"]))
        return TableEntry.of(entry)
    return str(entry)


def _model(entry: Mapping[str, str]) -> ModelEntry:
    return ModelEntry(
        entry["provider"], entry["id"], entry.get("base_url"), entry.get("api_key_env")
    )
