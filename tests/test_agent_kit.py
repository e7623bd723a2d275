"""What an agent's author wires in: the skill, the tool definitions, the schemas (issue 16)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from pydantic import TypeAdapter

from pi_ask.cli.skill import skill_text
from pi_ask.contract.loading import load_payload
from pi_ask.contract.result_schema import RESULT_DETAILS_SCHEMA, result_schema
from pi_ask.contract.schema import INPUT_SCHEMA
from pi_ask.contract.tool import (
    PROMPT_GUIDELINES,
    TOOL_DESCRIPTION,
    TOOL_FORMATS,
    host_parameters,
    tool_definition,
)
from pi_ask.state.commands import Confirm
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import Behaviour
from pi_ask.state.opening import new_state
from pi_ask.state.results import build_result
from tests.child_processes import run_pi_ask

ROOT = Path(__file__).resolve().parents[1]
PAYLOAD = json.loads((ROOT / "tests" / "fixtures" / "payloads" / "basic.json").read_text("utf-8"))


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_pi_ask(*args, env=env)


# The skill


def _fenced(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, re.DOTALL)


def test_the_skill_command_prints_the_repository_skill() -> None:
    done = run("skill")
    assert done.returncode == 0
    assert done.stdout == (ROOT / "skills" / "ask-user" / "SKILL.md").read_text("utf-8")
    front = re.match(r"---\nname: (.+)\ndescription: (.+)\n---\n", done.stdout)
    assert front is not None
    assert front.group(1) == "ask-user"
    assert len(front.group(2)) <= 1024  # the limit skill-aware agents put on a description


def test_the_skills_example_payload_and_result_are_what_pi_ask_does() -> None:
    text = skill_text()
    (script,) = _fenced(text, "sh")
    payload = re.search(r"<<'JSON'\n(.*?)\nJSON\n", script, re.DOTALL)
    assert payload is not None
    loaded = load_payload(payload.group(1))
    assert not hasattr(loaded, "issues"), loaded
    # The user presses Enter on the recommended first option, then Enter on Submit.
    state = new_state(loaded.payload)
    for command in (Confirm(), Confirm()):
        state = apply(state, command, Behaviour())
    (shown,) = _fenced(text, "json")
    assert json.loads(shown) == build_result(state).to_json()
    jsonschema.validate(json.loads(shown), result_schema())


def test_the_skill_explains_every_exit_status_and_reason() -> None:
    text = skill_text()
    for status in ("| 0 |", "| 1 |", "| 2 |", "| 128+N |"):
        assert status in text
    enum = RESULT_DETAILS_SCHEMA["properties"]["reason"]["enum"]  # type: ignore[index]
    for reason in enum:
        assert f"- `{reason}` —" in text


def test_skill_install_writes_and_never_overwrites_without_force(tmp_path: Path) -> None:
    folder = tmp_path / "skills"
    target = folder / "ask-user" / "SKILL.md"
    first = run("skill", "--install", str(folder))
    assert (first.returncode, first.stdout) == (0, f"{target}: written\n")
    assert target.read_text("utf-8") == skill_text()
    again = run("skill", "--install", str(folder))
    assert (again.returncode, again.stdout) == (0, f"{target}: already up to date\n")
    target.write_text("my own notes\n", encoding="utf-8")
    refused = run("skill", "--install", str(folder))
    assert refused.returncode == 2
    assert refused.stderr == f"pi-ask: skill: {target} already exists; pass --force to replace it\n"
    assert target.read_text("utf-8") == "my own notes\n"
    forced = run("skill", "--install", str(folder), "--force")
    assert forced.returncode == 0
    assert target.read_text("utf-8") == skill_text()


def test_skill_force_without_install_is_a_usage_error() -> None:
    done = run("skill", "--force")
    assert done.returncode == 2
    assert "--force goes with --install" in done.stderr


# Tool definitions


def test_tool_defaults_to_the_pi_metadata() -> None:
    assert json.loads(run("tool").stdout) == json.loads(run("tool", "--format", "pi").stdout)
    assert json.loads(run("tool").stdout) == tool_definition("pi")


@pytest.mark.parametrize("host", TOOL_FORMATS)
def test_each_format_is_printed_as_the_function_returns_it(host: str) -> None:
    done = run("tool", "--format", host)
    assert done.returncode == 0
    assert json.loads(done.stdout) == tool_definition(host)  # type: ignore[arg-type]


def test_hosts_without_a_guidelines_slot_get_them_in_the_description() -> None:
    for host in ("openai", "anthropic", "mcp"):
        text = json.dumps(tool_definition(host))  # type: ignore[arg-type]
        assert json.dumps(TOOL_DESCRIPTION)[1:-1] in text
        for guideline in PROMPT_GUIDELINES:
            assert json.dumps(f"- {guideline}")[1:-1] in text


def test_the_openai_definition_is_a_chat_completions_function_tool() -> None:
    from openai.types.chat import ChatCompletionToolParam

    definition = tool_definition("openai")
    TypeAdapter(ChatCompletionToolParam).validate_python(definition)
    assert definition["type"] == "function"
    function = definition["function"]
    assert isinstance(function, dict)
    assert set(function) == {"name", "description", "parameters"}
    assert function["name"] == "ask_user"


def test_the_anthropic_definition_has_the_messages_api_keys() -> None:
    definition = tool_definition("anthropic")
    assert set(definition) == {"name", "description", "input_schema"}
    assert definition["input_schema"] == host_parameters()


def test_the_mcp_definition_advertises_the_result_details_as_output() -> None:
    definition = tool_definition("mcp")
    assert set(definition) == {"name", "title", "description", "inputSchema", "outputSchema"}
    assert definition["outputSchema"] == RESULT_DETAILS_SCHEMA
    assert definition["inputSchema"]["type"] == definition["outputSchema"]["type"] == "object"  # type: ignore[index]


@pytest.mark.parametrize("host", TOOL_FORMATS)
def test_every_input_schema_accepts_a_payload_and_rejects_a_broken_one(host: str) -> None:
    text = json.dumps(tool_definition(host))  # type: ignore[arg-type]
    schemas = [s for s in (INPUT_SCHEMA, host_parameters()) if json.dumps(s) in text]
    assert schemas, "the definition carries the input schema"
    for schema in schemas:
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.validate(PAYLOAD, schema)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"questions": [{"id": "x", "options": []}]}, schema)


def test_host_parameters_leave_out_what_hosts_refuse() -> None:
    assert "$schema" not in host_parameters()
    assert "title" not in host_parameters()
    assert {k: v for k, v in INPUT_SCHEMA.items() if k not in ("$schema", "title")} == (
        host_parameters()
    )


# The result schema


def test_schema_result_prints_the_result_schema() -> None:
    done = run("schema", "--result")
    assert done.returncode == 0
    schema = json.loads(done.stdout)
    assert schema == result_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert json.loads(run("schema").stdout) == INPUT_SCHEMA


def test_the_result_schema_holds_the_mcp_details_schema() -> None:
    defs = result_schema()["$defs"]
    assert isinstance(defs, dict)
    own = {k: v for k, v in RESULT_DETAILS_SCHEMA.items() if k not in ("$schema", "title")}
    assert defs == {"details": own}


def test_the_cli_result_validates_and_a_wrong_one_does_not(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PI_ASK_CONFIG": str(tmp_path / "config.toml"),
        "PI_ASK_STATE_DIR": str(tmp_path / "state"),
    }
    payload = tmp_path / "q.json"
    payload.write_text(json.dumps(PAYLOAD), encoding="utf-8")
    for extra in ((), ("--ui", "none")):
        document = json.loads(run("ask", *extra, str(payload), env=env).stdout)
        jsonschema.validate(document, result_schema())
        jsonschema.validate(document["details"], RESULT_DETAILS_SCHEMA)
    invalid = json.loads(run("ask", "--ui", "none", "/dev/null", env=env).stdout)
    jsonschema.validate(invalid, result_schema())
    document["details"]["mode"] = "later"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, result_schema())
    document["details"]["mode"] = "submit"
    document["content"] = []
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, result_schema())


def test_every_command_and_option_the_skill_names_exists() -> None:
    from pi_ask.cli.main import build_parser

    parser = build_parser()
    for command in re.findall(r"`(pi-ask [^`]+)`", skill_text()):
        words = [w for w in command.split()[1:] if not w.startswith("<")]
        if words and words[0] in ("ask",) and not any(w.endswith(".json") for w in words):
            words.append("q.json")
        try:
            parser.parse_args(words)
        except SystemExit as stop:  # --help style exits are 0; usage errors are 2
            assert stop.code == 0, command


def test_the_skills_shell_call_runs_as_written(tmp_path: Path) -> None:
    """The skill's shell snippet, run by a tool without a terminal, as an agent would run it."""
    (script,) = _fenced(skill_text(), "sh")
    script = script.replace("/tmp/", f"{tmp_path}/")
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PI_ASK_CONFIG": str(tmp_path / "config.toml"),
        "PI_ASK_STATE_DIR": str(tmp_path / "state"),
    }
    done = subprocess.run(
        ["sh", "-c", script],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        start_new_session=True,
        timeout=60,
        check=False,
    )
    assert done.stdout == "exit 1\n"  # no terminal here: no answer, exit 1 as the table says
    answer = json.loads((tmp_path / "answer.json").read_text("utf-8"))
    jsonschema.validate(answer, result_schema())
    assert answer["details"]["reason"] == "no_terminal"
    assert "Which database should the service use?" in answer["content"][0]["text"]
