"""Import budget (python-port.md §8): nothing the first frame does not need loads before it.

Each check runs ``pi-ask ask --ui tui PAYLOAD`` in a fresh interpreter, through the same
path a user's command takes (``cli.main``: settings store opened, payload loaded, session
recorder started, the TUI flow), with one change: the controlling terminal is replaced by a
pipe input and a Vt100 output into memory, so no terminal is needed. Right after the
first frame is written the child saves ``sys.modules`` and exits. The probes prove the
detector can fail: a child that imports a heavy module first must be caught.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parent / "faces" / "tui" / "fixtures" / "payload_a.json"
# Notification back ends, the config model and editor, LLM clients, a file watcher
# library, an HTTP client: the first frame needs none of them.
HEAVY = (
    "apprise",
    "pydantic",
    "pydantic_settings",
    "openai",
    "tomlkit",
    "mcp",
    "watchfiles",
    "requests",
    # Markdown: only text with Markdown syntax loads them (python-port.md §12).
    "markdown_it",
    "pygments",
)
# pi_ask modules the first frame does not draw with: the engine's commands and transitions,
# the key bindings, the result classes (they load right after it, ask.services), the
# keymap validation, which the default file's keymaps do not need, the editors' ``@``
# completion (built when an editor first completes), the review tab (a flow opens on its
# first question) and the terminal key tables the bindings are built from.
DEFERRED = (
    "pi_ask.keymaps.validation",
    "pi_ask.state.commands",
    "pi_ask.state.dispatcher",
    "pi_ask.state.results",
    "pi_ask.contract.results",
    "pi_ask.faces.tui.flow_bindings",
    "pi_ask.faces.tui.transcript",
    "pi_ask.faces.tui.file_completer",
    "pi_ask.faces.tui.file_index",
    "pi_ask.state.review_tab",
    "pi_ask.faces.tui.review_screen",
    "pi_ask.keymaps.ptk_bindings",
    "pi_ask.keymaps.terminal_keys",
    "pi_ask.keymaps.terminal_bytes",
    "pi_ask.markdown.document",
    "pi_ask.markdown.highlight",
)
TIMEOUT_S = 60

# The child: argv = [report file, module to import first or ""].
CHILD = r"""
import dataclasses, importlib, json, os, sys

report, probe = sys.argv[1], sys.argv[2]
if probe:
    importlib.import_module(probe)

from prompt_toolkit import renderer
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

import pi_ask.faces.tui.terminal as terminal


class Screen:
    encoding = "utf-8"

    def __init__(self):
        self.text = []

    def write(self, data):
        self.text.append(data)
        return len(data)

    def flush(self):
        pass


screen = Screen()
pipe_context = create_pipe_input()  # kept: dropping it would close the pipe
pipe = pipe_context.__enter__()
opened = []


def open_headless(path=terminal.TTY_PATH):
    opened.append(path)
    output = Vt100_Output(screen, lambda: Size(rows=40, columns=100), enable_cpr=False)
    return terminal.Terminal(pipe, output)


terminal.open_terminal = open_headless  # before pi_ask.faces.tui.flow imports it
render = renderer.Renderer.render


def classes_defined():
    # (qualified name, class) of every class the loaded pi_ask modules define.
    found = [
        (f"{name}.{attribute}", value)
        for name, module in list(sys.modules.items())
        if name.startswith("pi_ask")
        for attribute, value in vars(module).items()
        if isinstance(value, type) and value.__module__ == name
    ]
    return sorted(found, key=lambda item: item[0])


def string_annotated(cls):
    # A NamedTuple whose every field is a string annotation (a ForwardRef to compile).
    import typing

    fields = getattr(cls, "__annotations__", {}) if hasattr(cls, "_fields") else {}
    return bool(fields) and all(isinstance(a, typing.ForwardRef) for a in fields.values())


def first_frame(self, *args, **kwargs):
    render(self, *args, **kwargs)
    with open(report, "w", encoding="utf-8") as handle:
        json.dump(
            {
                "modules": sorted(sys.modules),
                "dataclasses": [n for n, c in classes_defined() if dataclasses.is_dataclass(c)],
                "string_annotated": [n for n, c in classes_defined() if string_annotated(c)],
                "opened": opened,
                "drawn": "".join(screen.text),
            },
            handle,
        )
    os._exit(0)


renderer.Renderer.render = first_frame
import pi_ask.ask.routing as routing

routing.has_terminal = lambda: True  # the headless terminal above stands in for /dev/tty
from pi_ask.cli.main import main

sys.exit(main(["ask", "--ui", "tui", sys.argv[3]]))
"""


def heavy_before_first_frame(
    tmp_path: Path,
    probe: str = "",
    settings: dict[str, str] | None = None,
    payload: Path = FIXTURE,
) -> set[str]:
    """Run the flow in a child (importing ``probe`` first); the heavy packages it held."""
    modules = first_frame_report(tmp_path, probe, settings, payload)["modules"]
    return {name.split(".")[0] for name in modules} & set(HEAVY)


def modules_before_first_frame(
    tmp_path: Path, probe: str = "", settings: dict[str, str] | None = None
) -> set[str]:
    """Run the flow in a child (importing ``probe`` first, ``settings`` in its environment);
    every module it held."""
    return set(first_frame_report(tmp_path, probe, settings)["modules"])


def first_frame_report(
    tmp_path: Path,
    probe: str = "",
    settings: dict[str, str] | None = None,
    payload: Path = FIXTURE,
) -> dict[str, list[str]]:
    """Run the flow in a child; what it held at its first frame (``modules``, the pi_ask
    ``dataclasses`` defined by then, the NamedTuples with ``string_annotated`` fields)."""
    report = tmp_path / "modules.json"
    env = {key: value for key, value in os.environ.items() if not key.startswith("PI_ASK_")}
    env.update(
        PI_ASK_CONFIG=str(tmp_path / "config.toml"),
        PI_ASK_STATE_DIR=str(tmp_path / "state"),
        TERM="xterm-256color",
    )
    env.update(settings or {})
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(report), probe, str(payload)],
        env=env,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert report.exists(), (
        f"the flow never drew its first frame (exit {child.returncode})\n"
        f"stdout: {child.stdout}\nstderr: {child.stderr}"
    )
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["opened"], "the flow did not open its terminal through tui.terminal"
    assert "Project setup" in data["drawn"], "the first frame does not show the payload"
    return {key: data[key] for key in ("modules", "dataclasses", "string_annotated")}


def test_first_frame_imports_nothing_heavy(tmp_path: Path) -> None:
    assert heavy_before_first_frame(tmp_path) == set()
    # The same path as `pi-ask ask`: the session recorder wrote the payload first.
    assert list((tmp_path / "state" / "sessions").glob("*.jsonl"))


def test_a_setting_in_the_environment_loads_nothing_heavy_either(tmp_path: Path) -> None:
    # PI_ASK_* variables are decoded on the fast path (config/environment.py), not by
    # pydantic-settings; a misspelled or unusual one would go through the model.
    settings = {
        "PI_ASK_BEHAVIOUR__SHOW_FOOTER_HINTS": "false",
        "PI_ASK_NOTIFICATIONS__CHANNELS": '["bell"]',
    }
    assert heavy_before_first_frame(tmp_path, settings=settings) == set()


def test_a_markdown_payload_draws_its_first_frame_before_the_parser(tmp_path: Path) -> None:
    # Markdown on screen (a fenced block in the first question's prompt): the first frame
    # draws it as written, and markdown-it and Pygments load after it, on the services'
    # worker thread (faces/tui/markdown_lines.py). The detector itself is proved by
    # test_detector_sees_a_heavy_import with markdown_it and pygments as probes.
    payload = json.loads(FIXTURE.read_text(encoding="utf-8"))
    payload["questions"][0]["prompt"] = "Which **language**?\n```python\nprint(1)\n```"
    marked = tmp_path / "markdown.json"
    marked.write_text(json.dumps(payload), encoding="utf-8")
    assert heavy_before_first_frame(tmp_path, payload=marked) == set()


def test_detector_sees_pydantic_for_a_misspelled_setting(tmp_path: Path) -> None:
    misspelled = {"PI_ASK_BEHAVIOR__SHOW_FOOTER_HINTS": "false"}
    assert "pydantic_settings" in heavy_before_first_frame(tmp_path, settings=misspelled)


def test_first_frame_leaves_the_engine_and_the_results_for_later(tmp_path: Path) -> None:
    assert modules_before_first_frame(tmp_path) & set(DEFERRED) == set()


def test_the_first_frame_creates_no_dataclass(tmp_path: Path) -> None:
    # Creating one costs ~0.5 ms on Python 3.11; what the start builds are NamedTuples
    # (docs/architecture.md "Invariants worth preserving").
    assert first_frame_report(tmp_path)["dataclasses"] == []


def test_the_first_frame_s_namedtuples_have_evaluated_annotations(tmp_path: Path) -> None:
    # ``from __future__ import annotations`` turns every field into a string, which typing
    # compiles into a ForwardRef: those modules leave the future import out and quote only
    # the names they import for type checking (docs/architecture.md).
    assert first_frame_report(tmp_path)["string_annotated"] == []


def test_detector_sees_a_string_annotated_namedtuple(tmp_path: Path) -> None:
    found = first_frame_report(tmp_path, "pi_ask.faces.tui.settings_rows")["string_annotated"]
    assert any(name.startswith("pi_ask.faces.tui.settings_rows.") for name in found)


def test_detector_sees_a_dataclass_created_early(tmp_path: Path) -> None:
    found = first_frame_report(tmp_path, "pi_ask.notifications.dispatcher")["dataclasses"]
    assert "pi_ask.notifications.dispatcher.Attempt" in found


def test_detector_sees_a_deferred_module_loaded_early(tmp_path: Path) -> None:
    assert "pi_ask.state.commands" in modules_before_first_frame(
        tmp_path, "pi_ask.state.dispatcher"
    )


INSTALLED = [name for name in HEAVY if importlib.util.find_spec(name) is not None]


@pytest.mark.parametrize("module", INSTALLED)
def test_detector_sees_a_heavy_import(tmp_path: Path, module: str) -> None:
    assert module in heavy_before_first_frame(tmp_path, probe=module)


# The asker's lean path (issue 28): ``pi-ask ask`` with no terminal, until its ask is
# published for an inbox (``AskFolder.create``) or answered ``no_terminal``.
LEAN_CHILD = r"""
import json, sys

report, payload, wait, probe = sys.argv[1], sys.argv[2], sys.argv[3] == "wait", sys.argv[4]
if probe:
    __import__(probe)
import pi_ask.relay.asks as asks

create = asks.AskFolder.create


def dump(what):
    with open(report, "w", encoding="utf-8") as handle:
        json.dump({"at": what, "modules": sorted(sys.modules)}, handle)


def published(self, *args, **kwargs):
    dump("published")
    raise SystemExit(0)


asks.AskFolder.create = published
from pi_ask.cli.main import main

status = main(["ask", *(["--wait"] if wait else []), payload])
dump("no_terminal")
sys.exit(status)
"""
# What an asker that does not draw must not load: the TUI, the config model and editor,
# notification back ends (a published ask notifies only once nobody answers at once),
# hashlib, which maps OpenSSL's libcrypto (3.4 MiB resident in every waiting asker), and
# what a plain ``ask`` line and the result values need not cost it: argparse (with shutil,
# bz2, lzma, locale) and dataclasses (with inspect, ast, dis).
LEAN_FORBIDDEN = (
    "prompt_toolkit",
    "pydantic",
    "pydantic_settings",
    "tomlkit",
    "apprise",
    "hashlib",
    "_hashlib",
    "argparse",
    "shutil",
    "dataclasses",
    "inspect",
)


def lean_asker_modules(tmp_path: Path, path: str, probe: str = "", *, runs: int = 1) -> set[str]:
    """The modules ``pi-ask ask`` held when it published (``path="published"``) or
    answered ``no_terminal``, in a child with no terminal that imported ``probe`` first
    (the last of ``runs`` children: the ones before leave what a first ask leaves)."""
    report = tmp_path / "lean.json"
    # A config file already there, as after the first run (which writes it, and locks).
    (tmp_path / "config.toml").write_text("[ui]\n", encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if not key.startswith("PI_ASK_")}
    env.update(
        PI_ASK_CONFIG=str(tmp_path / "config.toml"),
        PI_ASK_STATE_DIR=str(tmp_path / "state"),
        PI_ASK_RUNTIME_DIR=str(tmp_path / "run"),
    )
    env.pop("TMUX", None)
    wait = "wait" if path == "published" else "answer"
    for _ in range(runs):
        subprocess.run(
            [sys.executable, "-c", LEAN_CHILD, str(report), str(FIXTURE), wait, probe],
            env=env,
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=TIMEOUT_S,
            check=False,
            start_new_session=True,  # no controlling terminal, as an agent's tool runs it
        )
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["at"] == path
    return set(data["modules"])


def _too_heavy(modules: set[str]) -> set[str]:
    found = {name.split(".")[0] for name in modules} & set(LEAN_FORBIDDEN)
    return found | {name for name in modules if name.startswith("pi_ask.faces.tui")}


@pytest.mark.parametrize("path", ["no_terminal", "published"])
def test_an_asker_that_does_not_draw_stays_lean(tmp_path: Path, path: str) -> None:
    assert _too_heavy(lean_asker_modules(tmp_path, path)) == set()


@pytest.mark.parametrize("probe", ["prompt_toolkit", "pi_ask.faces.tui.flow"])
def test_the_lean_detector_sees_a_heavy_import(tmp_path: Path, probe: str) -> None:
    assert probe in _too_heavy(lean_asker_modules(tmp_path, "no_terminal", probe))


# What the second asker on a settings file does not load either: the settings store and every
# setting (it reads the few it needs as the first one left them, ``config.remembered``),
# datetime (the session log stamps entries with ``time``) and the engine's state (a
# published ask makes it when a terminal's draft or answer first needs it, and the checks
# of attached files come with it).
SECOND_ASKER_FORBIDDEN = (
    "pi_ask.config.store",
    "pi_ask.config.settings",
    "datetime",
    "pi_ask.state.model",
    "pi_ask.relay.attached_files",
)


@pytest.mark.parametrize("path", ["no_terminal", "published"])
def test_a_second_asker_reads_its_settings_as_the_first_left_them(
    tmp_path: Path, path: str
) -> None:
    loaded = lean_asker_modules(tmp_path, path, runs=2)
    assert loaded & set(SECOND_ASKER_FORBIDDEN) == set()
    assert (tmp_path / "state" / "settings").is_dir()


def test_the_second_asker_detector_sees_the_store(tmp_path: Path) -> None:
    loaded = lean_asker_modules(tmp_path, "no_terminal", "pi_ask.config.store", runs=2)
    assert "pi_ask.config.store" in loaded
