"""The ``ask-user`` agent skill: its text, and writing it where a skill-aware agent looks.

The skill ships inside the package (``pi_ask/skills/ask-user/SKILL.md``), so ``pi-ask skill``
works from an installed wheel, not only from a checkout.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from pi_ask.config.storage import write_atomic
from pi_ask.errors import UsageError

SKILL_NAME = "ask-user"
SKILL_FILE = "SKILL.md"


def skill_text() -> str:
    """The skill's Markdown, front matter included."""
    return resources.files("pi_ask").joinpath("skills", SKILL_NAME, SKILL_FILE).read_text("utf-8")


def install_skill(folder: Path, *, force: bool = False) -> tuple[Path, bool]:
    """Write the skill to ``folder/ask-user/SKILL.md``.

    Args:
        folder: A skills folder, such as ``~/.claude/skills`` or ``.claude/skills``.
        force: Replace a different file already there.

    Returns:
        The file's path, and whether it was written (``False``: it already held this text).

    Raises:
        UsageError: A different file is there and ``force`` is not set, or it cannot be written.
    """
    target = folder.expanduser() / SKILL_NAME / SKILL_FILE
    text = skill_text()
    try:
        if target.exists() or target.is_symlink():
            if target.is_file() and target.read_text("utf-8", errors="replace") == text:
                return target, False
            if not force:
                raise UsageError(f"skill: {target} already exists; pass --force to replace it")
            if not target.is_file():
                raise UsageError(f"skill: {target} is not a file; remove it first")
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, text.encode("utf-8"))
    except OSError as err:
        raise UsageError(f"skill: cannot write {target}: {err.strerror or err}") from None
    return target, True
