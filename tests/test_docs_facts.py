"""What the README and docs state is checked against the code: values, commands, references."""

from __future__ import annotations

import inspect
import os
import re
from pathlib import Path

import pytest

from pi_ask.cli.help import root_epilog
from pi_ask.cli.main import build_parser
from pi_ask.config.catalogue import KEYS
from pi_ask.config.store import SettingsStore
from pi_ask.config.toml_text import literal
from tests.child_processes import python_output

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text("utf-8")
CONFIGURATION = (DOCS / "configuration.md").read_text("utf-8")


def _headings(text: str) -> set[str]:
    return {match.strip() for match in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)}


def test_every_named_docs_section_exists() -> None:
    """``contract.md "Some section"`` in the code names a heading that is there."""
    found = 0
    for source in sorted((ROOT / "pi_ask").rglob("*.py")):
        text = source.read_text("utf-8")
        for name, section in re.findall(r"\b(\w+)\.md\s+\"([^\"\n]+)\"", text):
            doc = DOCS / f"{name}.md"
            if doc.is_file():
                found += 1
                assert section in _headings(doc.read_text("utf-8")), (source, name, section)
    assert found >= 2


def test_every_setting_row_states_its_real_default() -> None:
    rows = dict(re.findall(r"^\| `([\w.]+)` \| [^|]+ \| `([^`]*)` \|", CONFIGURATION, re.M))
    for spec in KEYS:
        assert rows.get(spec.key) == literal(spec.default), spec.key


def test_the_watch_rate_the_docs_state_is_the_code_s() -> None:
    said = re.search(r"`stat` of the one file (\w+) times a\s+second", CONFIGURATION)
    assert said is not None
    words = {"five": 5, "ten": 10, "twenty": 20}
    interval = inspect.signature(SettingsStore.start_watching).parameters["interval"].default
    assert words[said.group(1)] == round(1 / interval)


def _commands() -> set[str]:
    parser = build_parser()
    (action,) = [a for a in parser._actions if a.dest == "==SUPPRESS==" and a.choices]
    return set(action.choices)  # type: ignore[arg-type]


def test_the_readme_lists_every_command_and_no_other() -> None:
    table = README.split("## Faces and commands")[1].split("\n## ")[0]
    named = set(re.findall(r"`pi-ask ([a-z]\w*)", table))
    assert named == _commands()


def _path_variables() -> list[str]:
    from pi_ask.config.paths import CONFIG_ENV, STATE_ENV
    from pi_ask.relay.paths import RUNTIME_ENV

    return [CONFIG_ENV, STATE_ENV, RUNTIME_ENV, "NO_COLOR"]


@pytest.mark.parametrize("variable", _path_variables())
def test_the_readme_and_the_help_name_each_variable(variable: str) -> None:
    assert f"| `{variable}` |" in README
    assert f"  {variable} " in root_epilog()


def test_the_readme_states_the_real_linux_defaults(tmp_path: Path) -> None:
    probe = (
        "from pi_ask.config.paths import config_path, state_dir\n"
        "print(config_path()); print(state_dir())\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PI_ASK_", "XDG_"))}
    env["HOME"] = str(tmp_path)
    printed = python_output(probe, env=env)
    config, state = (line.replace(str(tmp_path), "~") for line in printed.splitlines())
    assert f"`{Path(config).parent}/` on Linux" in README
    assert f"`{state}/` on Linux" in README


def test_the_readme_exit_statuses_are_the_apis() -> None:
    from pi_ask import api

    table = README.split("| exit status | meaning |")[1].split("\n\n")[0]
    assert [int(n) for n in re.findall(r"^\| (\d+) \|", table, re.M)] == [
        api.EXIT_OK,
        api.EXIT_CANCELLED,
        api.EXIT_INVALID,
    ]


def _dotted_names() -> list[tuple[str, str]]:
    """Every ``pi_ask.x.y`` the README and the docs name, with the file naming it."""
    pages = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    return [
        (page.name, name)
        for page in pages
        for name in sorted(set(re.findall(r"\bpi_ask(?:\.[A-Za-z_]\w*)+", page.read_text("utf-8"))))
    ]


def test_every_module_path_the_docs_name_exists() -> None:
    """A module path a user copies (``python -m ...``, an import) names a real module or a
    name in one, so a move of the tree cannot leave the docs behind."""
    import importlib

    named = _dotted_names()
    assert len(named) >= 5, "the pattern no longer finds the docs' module paths"
    missing = []
    for page, name in named:
        module, _, attribute = name.rpartition(".")
        try:
            importlib.import_module(name)
            continue
        except ModuleNotFoundError:
            pass
        try:
            found = hasattr(importlib.import_module(module), attribute)
        except ModuleNotFoundError:
            found = False
        if not found:
            missing.append(f"{page}: {name}")
    assert not missing, "the docs name module paths that do not exist: " + ", ".join(missing)


# The specs and the issue tracker are the developers', not in a user's copy.
UNREADABLE = re.compile(
    r"python-port\.md|behaviour\.md|screens\.md|protocols\.md|style\.md|\bissues? #?\d+"
)


def test_user_docs_cite_no_file_or_issue_a_user_cannot_read() -> None:
    # docs/architecture.md is the developers' floor plan: it may point at their specs.
    pages = [ROOT / "README.md", *(p for p in DOCS.glob("*.md") if p.name != "architecture.md")]
    found = [
        f"{page.name}:{number}: {match.group()}"
        for page in pages
        for number, line in enumerate(page.read_text("utf-8").splitlines(), start=1)
        for match in UNREADABLE.finditer(line)
    ]
    assert not found, found
