"""What ``pi-ask config show`` and ``validate`` print: the effective settings and the problems.

Both read the file through the model (``evaluate(..., thorough=True)``), so every value has
a source and every problem a message, and neither ever writes the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pi_ask.config.catalogue import KEYS
from pi_ask.config.loading import Evaluation, FileContent, evaluate, read_file
from pi_ask.config.problems import ConfigProblem
from pi_ask.config.settings import ModelEntry, Settings
from pi_ask.config.toml_text import bare_key, literal
from pi_ask.keymaps.contexts import CONTEXTS
from pi_ask.terminal_text import escape_controls
from pi_ask.words import english_plural

_KEYMAP_FALLBACK = "default (the configured keymaps have errors)"


@dataclass(frozen=True, slots=True)
class FileReport:
    """The config file as the commands see it.

    Attributes:
        content: What reading the file gave.
        evaluation: The effective settings, their sources and the problems.
        problems: Every problem: the file's own (not TOML, unreadable), then the values'.
    """

    content: FileContent
    evaluation: Evaluation
    problems: tuple[ConfigProblem, ...]

    @property
    def has_errors(self) -> bool:
        """True when any problem is an error."""
        return any(problem.severity == "error" for problem in self.problems)


def evaluate_file(path: Path) -> FileReport:
    """Read ``path`` and the environment thoroughly; never writes anything."""
    content = read_file(path)
    evaluation = evaluate(content.document, thorough=True)
    problems = list(evaluation.problems)
    if content.status == "not_toml":
        message = f"not valid TOML ({content.detail}); the defaults apply until it is fixed"
        problems.insert(0, ConfigProblem("", message))
    elif content.status == "unreadable":
        problems.insert(0, ConfigProblem("", f"cannot be read ({content.detail})"))
    return FileReport(content, evaluation, tuple(problems))


def validation_lines(
    path: Path, report: FileReport, *, quiet: bool = False
) -> tuple[list[str], int]:
    """The lines of ``pi-ask config validate`` and its exit status (1 only for errors).

    Args:
        path: The config file.
        report: What ``evaluate_file`` found.
        quiet: Leave out the "no problems" line.
    """
    lines: list[str] = []
    if report.content.status == "absent":
        lines.append(f"{path}: no config file; the defaults apply")
    for problem in report.problems:
        where = "environment" if problem.key.startswith("PI_ASK_") else str(path)
        lines.append(f"{where}: {problem.severity}: {problem}")
    if not report.problems and report.content.status != "absent" and not quiet:
        lines.append(f"{path}: no problems")
    return lines, 1 if report.has_errors else 0


def effective_toml(path: Path, report: FileReport) -> str:
    """The effective settings as TOML, each value followed by a comment naming its source."""
    settings = report.evaluation.settings
    sources = report.evaluation.sources
    state = {
        "absent": "no config file",
        "parsed": "read",
        "not_toml": "not valid TOML, ignored",
        "unreadable": "cannot be read, ignored",
    }[report.content.status]
    lines = [
        # The path is the user's, but a comment line must stay one inert line.
        f"# Effective pi-ask settings. File: {escape_controls(str(path))} ({state}).",
        "# Each value's comment says where it came from: default, file or environment.",
        "",
    ]
    values = _values(settings)
    section = ""
    for spec in KEYS:
        if spec.section != section:
            section = spec.section
            if section == "answer":
                lines.extend(_keymap_lines(settings, sources, report))
            lines.extend(["", f"[{section}]"])
        source = sources.get(spec.key, "default")
        lines.append(f"{bare_key(spec.name)} = {literal(values[spec.key])}  # {source}")
    if report.problems:
        count = len(report.problems)
        problems = english_plural(count, "problem", "problems")
        lines.extend(["", f"# {count} {problems}: run pi-ask config validate"])
    return "\n".join(lines) + "\n"


def _values(settings: Settings) -> Mapping[str, object]:
    behaviour = settings.behaviour
    notifications = settings.notifications
    answer = settings.answer
    return {
        "schema_version": settings.schema_version,
        **{
            spec.key: getattr(behaviour, spec.name)
            for spec in KEYS
            if spec.section == "behaviour" and hasattr(behaviour, spec.name)
        },
        "behaviour.answer_timeout_s": settings.routing.answer_timeout_s or 0,
        "behaviour.no_terminal": settings.routing.no_terminal,
        "notifications.enabled": notifications.enabled,
        "notifications.timeout_s": notifications.timeout_s,
        "notifications.channels": list(notifications.channels),
        "notifications.remind_after_s": notifications.remind_after_s,
        "notifications.remind_times": notifications.remind_times,
        "answer.extractor": answer.extractor,
        "answer.extraction_models": [_model(entry) for entry in answer.extraction_models],
        "answer.extraction_timeout_ms": answer.extraction_timeout_ms,
        "answer.extraction_retries": answer.extraction_retries,
        "mcp.face": settings.mcp.face,
        "mcp.tool_name": settings.mcp.tool_name,
        "mcp.min_human_ms": settings.mcp.min_human_ms,
        "mcp.tasks": settings.mcp.tasks,
        "theme.name": settings.theme.name,
        "theme.styles": dict(settings.theme.styles),
        "ui.face": settings.ui.face,
        "ui.markdown": settings.ui.markdown,
        "ui.language": settings.ui.language,
        "ui.hyperlinks": settings.ui.hyperlinks,
        "inbox.tmux": settings.routing.tmux,
        **{f"web.{name}": value for name, value in settings.web._asdict().items()},
        "attachments.max_files": settings.attachments.max_files,
        "attachments.max_mb": settings.attachments.max_mb,
    }


def _model(entry: ModelEntry) -> dict[str, str]:
    fields = {
        "provider": entry.provider,
        "id": entry.id,
        "base_url": entry.base_url,
        "api_key_env": entry.api_key_env,
    }
    return {name: value for name, value in fields.items() if value is not None}


def _keymap_lines(settings: Settings, sources: Mapping[str, str], report: FileReport) -> list[str]:
    fell_back = any(
        problem.severity == "error" and problem.key.startswith("keymaps")
        for problem in report.evaluation.problems
    )
    lines: list[str] = []
    for context in CONTEXTS:
        lines.extend(["", f"[keymaps.{context.name}]"])
        for action in context.actions:
            keys = list(settings.keymaps.configured(context.name, action.name))
            source = (
                _KEYMAP_FALLBACK
                if fell_back
                else sources.get(f"keymaps.{context.name}.{action.name}", "default")
            )
            lines.append(f"{action.name} = {literal(keys)}  # {source}")
    return lines
