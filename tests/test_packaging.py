"""Packaging: one version source, the licence, and a README command that stays quiet."""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import pi_ask

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_version_has_one_source() -> None:
    project = PROJECT["project"]
    assert "version" not in project
    assert project["dynamic"] == ["version"]
    assert PROJECT["tool"]["hatch"]["version"]["path"] == "pi_ask/version.py"
    # The package's own __version__ is that module's, not a second literal.
    assert "__version__ = " not in (ROOT / "pi_ask" / "__init__.py").read_text(encoding="utf-8")
    # The installed metadata was built from that source.
    assert metadata.version("pi-ask") == pi_ask.__version__


def test_the_licence_file_is_the_mit_licence_pyproject_names() -> None:
    assert PROJECT["project"]["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")


def test_metadata_names_posix_and_links() -> None:
    project = PROJECT["project"]
    assert "Operating System :: POSIX" in project["classifiers"]
    assert all(url.startswith("https://") for url in project["urls"].values())


def test_uv_does_not_recompile_bytecode_on_every_run() -> None:
    # uv's compile-bytecode setting recompiles the whole venv on every `uv run` (and says so
    # on stderr); installs compile instead (README: uv tool install --compile-bytecode).
    assert "compile-bytecode" not in PROJECT.get("tool", {}).get("uv", {})
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "uv tool install --compile-bytecode" in readme


@pytest.mark.skipif(shutil.which("uv") is None, reason="uv is not on PATH")
def test_a_second_uv_run_prints_nothing_but_the_output() -> None:
    env = {key: value for key, value in os.environ.items() if key != "UV_COMPILE_BYTECODE"}
    runs = [
        subprocess.run(
            ["uv", "run", "pi-ask", "--version"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        for _ in range(2)
    ]
    assert runs[1].stdout == f"pi-ask {pi_ask.__version__}\n"
    assert runs[1].stderr == ""
