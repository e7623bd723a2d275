from __future__ import annotations

from tests.child_processes import python_output


def test_what_a_face_imports_brings_in_the_standard_library_only() -> None:
    script = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import pi_ask.notifications.channel_list, pi_ask.notifications.message\n"
        "new = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        "print(sorted(new - set(sys.stdlib_module_names) - {'pi_ask'}))\n"
        "print(sorted(new & {'subprocess', 'asyncio', 'tempfile'}))\n"
    )
    assert python_output(script, timeout=30).split("\n")[:2] == ["[]", "[]"]


def test_reading_settings_does_not_load_the_dispatcher() -> None:
    script = (
        "import sys\n"
        "from pi_ask.notifications.channel_list import parse_channels\n"
        "parse_channels(['bell'])\n"
        "print('pi_ask.notifications.dispatcher' in sys.modules)\n"
    )
    assert python_output(script, timeout=30).strip() == "False"
