"""Each real host set up for pi-ask as docs/mcp.md says, pointed at a fake model.

A ``HostHome`` is a temporary home folder (short, under /tmp: sockets live below it) with
``pi-ask`` on PATH, pi-ask's own settings file, and the host's configuration: docs/mcp.md's
snippet for it, verbatim, plus the fake model as its provider. ``headless(host, prompt)`` is
the command line that runs the host once without a terminal (``codex exec``, ``claude -p``,
``gemini -p``, ``opencode run``) and the environment it runs in: the home folder, PATH, a
dummy key and the fake model's base URL, nothing of the tester's own environment.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from tests.e2e.terminal import pi_ask_command
from tests.hosts.fake_models import ChatCompletions, Dialect, Gemini, Messages, Responses
from tests.hosts.pins import PIN_BY_KEY, ROOT, Pin, bin_dir

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
DIALECTS: dict[str, type[Dialect]] = {
    "codex": Responses,
    "claude": Messages,
    "gemini": Gemini,
    "opencode": ChatCompletions,
}


def family(key: str) -> str:
    """``claude-2.1.332`` -> ``claude``."""
    return key.partition("-")[0]


@dataclass
class HostHome:
    """A home folder for one host run; ``close()`` removes it."""

    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="pah-", dir="/tmp")))

    def __post_init__(self) -> None:
        self.bin = self.root / "bin"
        self.bin.mkdir()
        # `pi-ask` as the docs' snippets name it: this checkout's, on the host's PATH. Its
        # stderr (the MCP server's log) still goes to the host, and a copy to `stderr_log`
        # for the test to read and to show when it fails.
        self.stderr_log = self.root / "pi-ask.err"
        script = self.bin / "pi-ask"
        script.write_text(
            "#!/bin/bash\n"
            f'exec {shlex.join(pi_ask_command())} "$@" '
            f"2> >(exec tee -a {shlex.quote(str(self.stderr_log))} >&2)\n",
            encoding="utf-8",
        )
        script.chmod(0o755)
        self.work = self.root / "work"
        self.work.mkdir()

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def env(
        self, pin: Pin | None = None, term: str = "xterm-256color", **extra: str
    ) -> dict[str, str]:
        """A small environment of this home: what a user's shell would at least have."""
        path = f"{self.bin}:{SYSTEM_PATH}"
        if pin is not None:
            path = f"{bin_dir(pin)}:{path}"
        env = {"HOME": str(self.root), "PATH": path, "LANG": "C.UTF-8", "TERM": term}
        env.update(extra)
        return env

    def pi_ask_stderr(self) -> str:
        """What every ``pi-ask`` started through this home wrote to stderr so far."""
        try:
            return self.stderr_log.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def pi_ask_settings(self, text: str) -> None:
        """pi-ask's settings file where a host's child finds it with only HOME passed."""
        config = self.root / ".config" / "pi-ask" / "config.toml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(text, encoding="utf-8")


@dataclass
class Headless:
    command: list[str]
    env: dict[str, str]


DOC = ROOT / "docs" / "mcp.md"
HEADINGS = {
    "codex": "Codex",
    "claude": "Claude Code",
    "gemini": "Gemini CLI",
    "opencode": "opencode",
}
FENCE = re.compile(r"```(\w+)\n(.*?)```", re.DOTALL)


def docs_snippet(key: str, language: str) -> str:
    """The first ``language`` snippet of host ``key``'s section in docs/mcp.md, verbatim."""
    text = DOC.read_text(encoding="utf-8").split("## Set-up per host", 1)[1]
    section = text.split(f"### {HEADINGS[family(key)]}\n", 1)[1].split("\n### ", 1)[0]
    for found, code in FENCE.findall(section):
        if found == language:
            return str(code)
    raise AssertionError(f"docs/mcp.md has no {language} snippet for {HEADINGS[family(key)]}")


def docs_args(key: str) -> list[str]:
    """The server's arguments in host ``key``'s snippet."""
    name = family(key)
    if name == "codex":
        return list(tomllib.loads(docs_snippet(key, "toml"))["mcp_servers"]["pi-ask"]["args"])
    if name == "claude":
        words = shlex.split(docs_snippet(key, "sh"))
        return words[words.index("--") + 2 :]
    if name == "gemini":
        return list(json.loads(docs_snippet(key, "json"))["mcpServers"]["pi-ask"]["args"])
    command = json.loads(docs_snippet(key, "json"))["mcp"]["servers"]["pi-ask"]["command"]
    return list(command[1:])


def tool_name(key: str) -> str:
    """The tool name host ``key`` is given by its snippet (``--tool-name``), else ask_user."""
    args = docs_args(key)
    return args[args.index("--tool-name") + 1] if "--tool-name" in args else "ask_user"


def headless(key: str, home: HostHome, model_url: str, prompt: str) -> Headless:
    """Configure host ``key`` in ``home`` with its docs/mcp.md snippet, the model at
    ``model_url``, and return its headless run."""
    pin = PIN_BY_KEY[key]
    program = str(bin_dir(pin) / pin.binary)
    env = home.env(pin, term="dumb")  # run as a script would: no terminal
    name = family(key)
    if name == "codex":
        codex = home.root / ".codex"
        codex.mkdir()
        provider = (
            'model = "fake-model"\n'
            'model_provider = "fake"\n\n'
            "[model_providers.fake]\n"
            'name = "fake"\n'
            f'base_url = "{model_url}/v1"\n'
            'env_key = "FAKE_MODEL_KEY"\n'
            'wire_api = "responses"\n\n'
        )
        config = provider + docs_snippet(key, "toml")
        (codex / "config.toml").write_text(config, encoding="utf-8")
        env["FAKE_MODEL_KEY"] = "dummy"
        return Headless([program, "exec", "--skip-git-repo-check", prompt], env)
    if name == "claude":
        words = shlex.split(docs_snippet(key, "sh"))  # `claude mcp add ...`, run for real
        subprocess.run(
            [program, *words[1:]],
            env=env,
            cwd=home.work,
            capture_output=True,
            check=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        env.update(
            ANTHROPIC_BASE_URL=model_url,
            ANTHROPIC_API_KEY="dummy",
            DISABLE_AUTOUPDATER="1",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            # MCP tools offered up front, not behind Claude Code's deferred tool search.
            ENABLE_TOOL_SEARCH="false",
        )
        # -p asks for no permission: every tool of the server is allowed up front.
        return Headless([program, "-p", prompt, "--allowedTools", "mcp__pi-ask"], env)
    if name == "gemini":
        gemini = home.root / ".gemini"
        gemini.mkdir()
        settings = json.loads(docs_snippet(key, "json"))
        settings["security"] = {"auth": {"selectedType": "gemini-api-key"}}
        (gemini / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        env.update(
            GEMINI_API_KEY="dummy",
            GOOGLE_GEMINI_BASE_URL=model_url,
            GEMINI_CLI_TRUST_WORKSPACE="true",
        )
        # A fixed model: "auto" first asks a classifier model to route the prompt.
        return Headless(
            [program, "-p", prompt, "--approval-mode", "yolo", "-m", "gemini-2.5-flash"], env
        )
    if name == "opencode":
        config = json.loads(docs_snippet(key, "json"))  # 1.18 also reads the older form
        config["provider"] = {
            "fake": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Fake",
                "options": {"baseURL": f"{model_url}/v1", "apiKey": "dummy"},
                "models": {"fake-model": {"name": "Fake"}},
            }
        }
        config["model"] = "fake/fake-model"
        (home.work / "opencode.json").write_text(json.dumps(config), encoding="utf-8")
        env.update(OPENCODE_DISABLE_MODELS_FETCH="1", OPENCODE_DISABLE_AUTOUPDATE="1")
        return Headless([program, "run", prompt], env)
    raise ValueError(f"unknown host {key}")
