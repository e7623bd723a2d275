"""The pydantic-settings model of the config file: checks, environment overrides, schema.

Importing pydantic-settings costs about as much as the whole first frame (style.md §2), so
only the slow edges import this module: ``pi-ask config show|validate|schema``, a file with a
bad value, and any ``PI_ASK_*`` setting variable. A clean file with no such variable is read
by ``fast_path`` into the same ``Settings`` (the parity test keeps the two equal).

The model's field types are built from ``keys.KEYS`` and ``pi_ask.keymaps.CONTEXTS``. Each
value is checked on its own (python-port.md §10): file values strictly (TOML has types),
environment values leniently (they are text, ``false`` means false).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from pydantic import create_model as _create_model
from pydantic_settings import BaseSettings, EnvSettingsSource, SettingsConfigDict
from pydantic_settings.exceptions import SettingsError

from pi_ask.config.catalogue import (
    CHANNEL_NAMES,
    CHANNEL_WHEN,
    CURRENT_SCHEMA_VERSION,
    ENV_PREFIX,
    EXTRACTORS,
    FACES,
    HYPERLINK_MODES,
    KEYS,
    MAX_ATTACHED_FILES,
    MAX_ATTACHED_MB,
    MAX_DEADLINE_S,
    MAX_HUMAN_MS,
    MAX_INTERVAL_S,
    MAX_PORT,
    MAX_REMINDERS,
    MAX_RETRIES,
    MAX_TIMEOUT_S,
    MCP_FACES,
    NO_TERMINAL_CHOICES,
    SECTIONS,
    THEME_NAMES,
    THEME_ROLES,
    TMUX_MODES,
    TOOL_NAME_PATTERN,
    Kind,
    SettingKey,
    channel_pattern,
    env_var_hint,
    is_channel_name,
    is_channel_url,
    is_host_text,
    is_setting_env_var,
    is_styles,
    is_web_url,
)
from pi_ask.guarded_parse import TooDeep, load_json
from pi_ask.i18n import LANGUAGE_PATTERN
from pi_ask.keymaps.contexts import CONTEXTS
from pi_ask.keymaps.key_ids import key_id_pattern


class ExtractionModel(BaseModel):
    """One ``answer.extraction_models`` entry."""

    model_config = ConfigDict(extra="forbid")

    provider: Annotated[str, Field(pattern=r"\S", description="Provider name (openai, ...).")]
    id: Annotated[str, Field(pattern=r"\S", description="Model id at the provider.")]
    base_url: Annotated[str | None, Field(description="API address, if not the known one.")] = None
    api_key_env: Annotated[
        str | None, Field(description="Variable holding the API key, if not the known one.")
    ] = None


When = Annotated[
    Literal[CHANNEL_WHEN],  # type: ignore[valid-type]  # keys.py's names, one list
    Field(description='"unfocused": only while the terminal does not have focus.'),
]


class CommandChannel(BaseModel):
    """A ``{ type = "command", command = "..." }`` notification channel."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["command"]
    command: Annotated[str, Field(pattern=r"\S", description="Shell command to run.")]
    when: When | None = None


class AppriseTable(BaseModel):
    """``{ type = "apprise", url = "..." }`` or ``{ type = "apprise", config = "...", tags }``."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["apprise"]
    url: Annotated[
        str | None, Field(pattern=r"^\s*[A-Za-z0-9]{1,32}://", description="An apprise URL.")
    ] = None
    config: Annotated[
        str | None, Field(pattern=r"\S", description="An apprise config file (YAML or text).")
    ] = None
    tags: Annotated[
        list[Annotated[str, Field(pattern=r"\S")]] | None,
        Field(description="Notify the config's services with any of these tags."),
    ] = None
    when: When | None = None

    @model_validator(mode="after")
    def _one_source(self) -> AppriseTable:
        if (self.url is None) == (self.config is None):
            raise ValueError('needs url = "..." or config = "...", not both')
        if self.url is not None and self.tags:
            raise ValueError("tags apply to an apprise config file only")
        return self


class NamedChannelTable(BaseModel):
    """``{ type = "<name>", when = "unfocused" }``: a named channel with options."""

    model_config = ConfigDict(extra="forbid")

    type: Literal[CHANNEL_NAMES]  # type: ignore[valid-type]  # the registry's names
    when: When | None = None


def _check_channel_name(value: str) -> str:
    if is_channel_name(value) or is_channel_url(value):
        return value
    names = ", ".join(f'"{name}"' for name in CHANNEL_NAMES)
    raise ValueError(f'expected {names} or an apprise URL ("scheme://...")')


ChannelName = Annotated[
    str,
    AfterValidator(_check_channel_name),
    WithJsonSchema(
        {
            "type": "string",
            "pattern": channel_pattern(),
            "description": "A channel name ("
            + ", ".join(CHANNEL_NAMES)
            + ') or an apprise URL ("scheme://...").',
        }
    ),
]
CHANNEL_EXPECTED = (
    'expected a channel name, an apprise URL or a { type = "command" | "apprise" | "<name>", '
    "... } table"
)


def _table_kind(value: object) -> str:
    kind = value.get("type") if isinstance(value, Mapping) else getattr(value, "type", None)
    # The tags are capitalised: ``_reason`` leaves such member names out of its messages.
    return {"command": "Command", "apprise": "Apprise"}.get(str(kind), "Named")


# One table type per ``type`` value, so a bad table's reason names its own fields.
ChannelTable = Annotated[
    Annotated[CommandChannel, Tag("Command")]
    | Annotated[AppriseTable, Tag("Apprise")]
    | Annotated[NamedChannelTable, Tag("Named")],
    Discriminator(_table_kind),
]
Channel = ChannelName | ChannelTable


def _check_styles(value: dict[str, str]) -> dict[str, str]:
    if is_styles(value):
        return value
    raise ValueError(
        'expected role = "style" pairs; roles: '
        + ", ".join(THEME_ROLES)
        + '; a style is words like "bold", "#005f87", "bg:ansiblue"'
    )


def _check_host(value: str) -> str:
    if not is_host_text(value):
        raise ValueError("an address or host name, without spaces, slashes or controls")
    return value


def _check_web_url(value: str) -> str:
    if value and not is_web_url(value):
        raise ValueError('empty, or an http(s) URL with a host, such as "https://box.example/"')
    return value


def _check_path(value: str) -> str:
    if "\0" in value:
        raise ValueError("a path holds no NUL character")
    return value


# The schema's key-id pattern only guides editors; the keymaps check is the judge.
KeyId = Annotated[
    str, WithJsonSchema({"type": "string", "pattern": key_id_pattern(), "description": "A key id."})
]
Binding = KeyId | list[KeyId]

_TYPES: dict[Kind, Any] = {
    "bool": bool,
    "schema_version": Annotated[int, Field(ge=1, le=CURRENT_SCHEMA_VERSION)],
    "seconds": Annotated[float, Field(gt=0, le=MAX_TIMEOUT_S, allow_inf_nan=False)],
    "interval": Annotated[float, Field(gt=0, le=MAX_INTERVAL_S, allow_inf_nan=False)],
    "reminders": Annotated[int, Field(ge=0, le=MAX_REMINDERS)],
    "milliseconds": Annotated[int, Field(gt=0)],
    "retries": Annotated[int, Field(ge=0, le=MAX_RETRIES)],
    "extractor": Literal[EXTRACTORS],
    "mcp_face": Literal[MCP_FACES],
    "tool_name": Annotated[str, Field(pattern=TOOL_NAME_PATTERN)],
    "human_ms": Annotated[int, Field(ge=0, le=MAX_HUMAN_MS)],
    "models": list[ExtractionModel],
    "channels": Annotated[list[Channel], Field(min_length=1)],
    "theme": Literal[THEME_NAMES],
    "face": Literal[FACES],
    "deadline": Annotated[float, Field(ge=0, le=MAX_DEADLINE_S, allow_inf_nan=False)],
    "no_terminal": Literal[NO_TERMINAL_CHOICES],
    "tmux": Literal[TMUX_MODES],
    "hyperlinks": Literal[HYPERLINK_MODES],
    "web_host": Annotated[str, AfterValidator(_check_host)],
    "port": Annotated[int, Field(ge=0, le=MAX_PORT)],
    "web_url": Annotated[str, AfterValidator(_check_web_url)],
    "path": Annotated[str, AfterValidator(_check_path)],
    "language": Annotated[str, Field(pattern=f"^({LANGUAGE_PATTERN})$")],
    "styles": Annotated[dict[str, str], AfterValidator(_check_styles)],
    "files": Annotated[int, Field(ge=1, le=MAX_ATTACHED_FILES)],
    "megabytes": Annotated[int, Field(ge=1, le=MAX_ATTACHED_MB)],
}
_ENTRY_TYPES: dict[Kind, Any] = {"models": ExtractionModel, "channels": Channel}


def _field(spec: SettingKey) -> Any:
    return (_TYPES[spec.kind], Field(default=spec.default, description=spec.comment))


def _section_model(section: str) -> type[BaseModel]:
    fields = {spec.name: _field(spec) for spec in KEYS if spec.section == section}
    title = section.title()
    config = ConfigDict(extra="allow", title=title)
    return _create_model(title, __config__=config, **fields)


def _keymaps_model() -> type[BaseModel]:
    contexts: dict[str, Any] = {}
    for context in CONTEXTS:
        actions = {
            action.name: (
                Binding | None,
                Field(default=list(action.default_keys), description=action.description),
            )
            for action in context.actions
        }
        name = "Keymaps" + "".join(part.title() for part in context.name.split("_"))
        table = _create_model(  # type: ignore[call-overload]
            name, __config__=ConfigDict(extra="allow", title=context.label), **actions
        )
        contexts[context.name] = (table | None, Field(default=None, description=context.label))
    config = ConfigDict(extra="allow", title="Keymaps")
    return _create_model("Keymaps", __config__=config, **contexts)


def _settings_model() -> type[BaseSettings]:
    sections: dict[str, Any] = {}
    for section in SECTIONS:
        model = _keymaps_model() if section == "keymaps" else _section_model(section)
        sections[section] = (model | None, Field(default=None))
    top = next(spec for spec in KEYS if not spec.section)
    config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_nested_delimiter="__",
        case_sensitive=False,
        extra="allow",
        title="pi-ask config",
    )
    return _build_settings(config, top, sections)


def _build_settings(
    config: SettingsConfigDict, top: SettingKey, sections: dict[str, Any]
) -> type[BaseSettings]:
    namespace: dict[str, Any] = {"model_config": config, "__annotations__": {}}
    for name, (annotation, info) in {top.name: _field(top), **sections}.items():
        namespace["__annotations__"][name] = annotation
        namespace[name] = info
    return type("PiAskConfig", (BaseSettings,), namespace)


@cache
def settings_model() -> type[BaseSettings]:
    """The pydantic-settings class describing the whole file (built once)."""
    return _settings_model()


@cache
def _adapter(kind: Kind, entry: bool) -> TypeAdapter[Any]:
    return TypeAdapter(_ENTRY_TYPES[kind] if entry else _TYPES[kind])


def check_value(spec: SettingKey, value: object, *, strict: bool) -> tuple[object, str | None]:
    """Validate one value of ``spec``; returns the plain checked value or why it is wrong."""
    try:
        checked = _adapter(spec.kind, False).validate_python(value, strict=strict)
    except ValidationError as err:
        return None, _reason(err)
    return _plain(checked), None


def check_entry(kind: Kind, value: object, *, strict: bool) -> tuple[object, str | None]:
    """Validate one entry of a list setting (``models`` or ``channels``)."""
    # A channel is a name or a table: pick the member by type, so the reason fits the entry.
    adapter = _adapter(kind, True)
    if kind == "channels":
        if not isinstance(value, str | Mapping):
            return None, CHANNEL_EXPECTED
        adapter = _channel_adapter(isinstance(value, str))
    try:
        checked = adapter.validate_python(value, strict=strict)
    except ValidationError as err:
        return None, _reason(err)
    return _plain(checked), None


@cache
def _channel_adapter(named: bool) -> TypeAdapter[Any]:
    return TypeAdapter(ChannelName if named else ChannelTable)


class _GuardedEnvSource(EnvSettingsSource):
    """The environment source, decoding JSON values with the nesting guard every reader uses."""

    def decode_complex_value(self, field_name: str, field: Any, value: Any) -> Any:
        return load_json(value)


def read_environment(
    environ: Mapping[str, str],
) -> tuple[dict[str, tuple[str, object]], list[tuple[str, str, bool]]]:
    """The settings the ``PI_ASK_*`` variables set, one variable at a time.

    Returns:
        For each dotted key set, the variable's name and its decoded value; and for each
        variable that could not be decoded or names no setting, its name, why, and whether
        that is an error (a value that cannot be read) rather than a warning.
    """
    source = _GuardedEnvSource(
        settings_model(), env_prefix=ENV_PREFIX, env_nested_delimiter="__", case_sensitive=False
    )
    found: dict[str, tuple[str, object]] = {}
    broken: list[tuple[str, str, bool]] = []
    for name in sorted(environ):
        if not is_setting_env_var(name):
            continue
        source.env_vars = {name.lower(): environ[name]}
        try:
            data = source()
        except SettingsError as err:
            broken.append((name, f"{_settings_error(err)}; ignored", True))
            continue
        leaves = list(_leaves(data, ""))
        if not leaves:
            broken.append((name, f"names no setting{env_var_hint(name)}; ignored", False))
        for key, value in leaves:
            found[key] = (name, value)
    return found, broken


def json_schema() -> dict[str, object]:
    """The JSON Schema of the config file, for editors (``pi-ask config schema``).

    TOML has no null, so the model's optional tables and bindings lose their ``null``
    branches here: a wrong value is then reported at its key, not as "not valid under any of
    the schemas" on the whole table.
    """
    schema: dict[str, object] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **_without_null(settings_model().model_json_schema()),  # type: ignore[dict-item]
    }
    schema["description"] = (
        "pi-ask settings (config.toml). Every key is optional; camelCase spellings of the "
        "keys are also accepted."
    )
    return schema


def _without_null(node: object) -> object:
    """``node`` with every ``{"type": "null"}`` branch and ``"default": null`` taken out."""
    if isinstance(node, list):
        return [_without_null(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _without_null(value) for key, value in node.items()}
    if out.get("default", 0) is None:
        del out["default"]
    branches = out.get("anyOf")
    if isinstance(branches, list):
        kept = [branch for branch in branches if branch != {"type": "null"}]
        if len(kept) == 1:
            del out["anyOf"]
            out = {**kept[0], **out}
        else:
            out["anyOf"] = kept
    return out


def _leaves(data: object, prefix: str) -> list[tuple[str, object]]:
    if not isinstance(data, Mapping) or not data:
        return [(prefix, data)] if prefix else []
    depth = prefix.count(".") + 1 if prefix else 0
    # Values are leaves at depth 2 (section.key) or 3 (keymaps.context.action).
    limit = 3 if prefix.startswith("keymaps") else 2
    if prefix and depth >= limit:
        return [(prefix, data)]
    out: list[tuple[str, object]] = []
    for key, value in data.items():
        out.extend(_leaves(value, f"{prefix}.{key}" if prefix else str(key)))
    return out


def _reason(err: ValidationError) -> str:
    first = err.errors(include_url=False)[0]
    # pydantic names the model class ("instance of ExtractionModel"): say what to write.
    message = "expected a table" if first["type"] == "model_type" else str(first["msg"])
    message = message.removeprefix("Value error, ")
    message = message[:1].lower() + message[1:]
    # A union reports its member's name first (``function-after[...]``, ``CommandChannel``).
    where = ".".join(str(part) for part in first["loc"] if not _is_member_name(part))
    return f"{where}: {message}" if where else message


def _is_member_name(part: object) -> bool:
    return isinstance(part, str) and (part[:1].isupper() or "[" in part)


def _settings_error(err: SettingsError) -> str:
    cause = err.__cause__
    if isinstance(cause, json.JSONDecodeError):
        return f"not valid JSON ({cause.msg} at position {cause.pos})"
    if isinstance(cause, TooDeep):
        return f"not valid JSON ({cause})"
    return str(err)


def _plain(value: object) -> object:
    if isinstance(value, BaseModel):
        return value.model_dump(exclude_none=True)
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value
