"""The embedded demo payload behind ``pi-ask demo``.

Its words are the demo's content, so ``demo_payload`` puts them in the user's language (a
German user answers a German demo); the result's own words stay English as for any ask.
Values, option ids and the previews (file trees) are the same in every language.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from pi_ask.i18n import N_

_TRANSLATED_FIELDS = ("title", "label", "prompt", "description")

DEMO_PAYLOAD: dict[str, object] = {
    "title": N_("Project setup"),
    "questions": [
        {
            "id": "language",
            "label": N_("Language"),
            "prompt": N_("Which language should the new service be written in?"),
            "type": "single",
            "options": [
                {
                    "value": "python",
                    "label": "Python",
                    "description": N_("Matches the rest of the backend"),
                    "recommended": True,
                },
                {"value": "go", "label": "Go", "description": N_("Small static binaries")},
                {"value": "rust", "label": "Rust", "description": N_("Fast, but a new toolchain")},
            ],
        },
        {
            "id": "checks",
            "label": N_("Checks"),
            "prompt": N_(
                "Which checks should run on every pull request?"
                " Add a note with n if one needs explaining."
            ),
            "type": "multi",
            "options": [
                {"value": "tests", "label": N_("Tests"), "recommended": True},
                {"value": "lint", "label": "Lint", "description": N_("ruff and mypy")},
                {
                    "value": "bench",
                    "label": N_("Benchmarks"),
                    "description": N_("Slow; maybe nightly"),
                },
            ],
        },
        {
            "id": "layout",
            "label": N_("Layout"),
            "prompt": N_("Which package layout do you prefer?"),
            "type": "preview",
            "options": [
                {
                    "value": "src",
                    "label": N_("src layout"),
                    "description": N_("Package under src/"),
                    "preview": "\n".join(
                        [
                            "pyproject.toml",
                            "src/",
                            "  service/",
                            "    __init__.py",
                            "    app.py",
                            "tests/",
                            "  test_app.py",
                        ]
                    ),
                },
                {
                    "value": "flat",
                    "label": N_("Flat layout"),
                    "description": N_("Package at the top level"),
                    "preview": "\n".join(
                        [
                            "pyproject.toml",
                            "service/",
                            "  __init__.py",
                            "  app.py",
                            "tests/",
                            "  test_app.py",
                        ]
                    ),
                },
            ],
        },
    ],
}


def demo_payload(translate: Callable[[str], str]) -> dict[str, object]:
    """``DEMO_PAYLOAD`` with its words through ``translate`` (``pi_ask.i18n.gettext``)."""
    payload = copy.deepcopy(DEMO_PAYLOAD)
    _translate(payload, translate)
    return payload


def _translate(value: object, translate: Callable[[str], str]) -> None:
    if isinstance(value, list):
        for item in value:
            _translate(item, translate)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key in _TRANSLATED_FIELDS and isinstance(item, str):
                value[key] = translate(item)
            else:
                _translate(item, translate)
