"""docs/configuration.md cannot drift from the settings it describes."""

from __future__ import annotations

import re
from pathlib import Path

from pi_ask.config.catalogue import KEYS
from pi_ask.config.toml_text import default_text
from pi_ask.keymaps.contexts import CONTEXTS

DOCS = Path(__file__).resolve().parents[2] / "docs"
TEXT = (DOCS / "configuration.md").read_text(encoding="utf-8")


def test_every_setting_is_documented_with_its_environment_variable() -> None:
    for spec in KEYS:
        assert f"| `{spec.key}` |" in TEXT, spec.key
        assert f"`{spec.env_var}`" in TEXT, spec.env_var
    for context in CONTEXTS:
        assert f"`{context.name}`" in TEXT


def test_the_default_file_shown_is_the_one_written() -> None:
    block = re.search(r"## The default file\n.*?```toml\n(.*?)```", TEXT, re.DOTALL)
    assert block is not None
    assert block.group(1) == default_text()


def test_the_linked_documents_exist() -> None:
    for link in re.findall(r"\]\(([^)#]+\.md)\)", TEXT):
        assert (DOCS / link).is_file(), link
