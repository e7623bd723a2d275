from __future__ import annotations

import subprocess
import sys

import pi_ask.notifications as notifications


def test_import_brings_in_the_standard_library_only() -> None:
    script = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import pi_ask.notifications\n"
        "new = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        "print(sorted(new - set(sys.stdlib_module_names) - {'pi_ask'}))\n"
        "print(sorted(new & {'subprocess', 'asyncio', 'tempfile'}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=True
    )
    assert result.stdout.split("\n")[:2] == ["[]", "[]"]


def test_public_names_are_all_exported() -> None:
    assert all(hasattr(notifications, name) for name in notifications.__all__)
