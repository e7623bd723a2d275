"""The embedded demo payload behind ``pi-ask demo``."""

from __future__ import annotations

DEMO_PAYLOAD: dict[str, object] = {
    "title": "Project setup",
    "questions": [
        {
            "id": "language",
            "label": "Language",
            "prompt": "Which language should the new service be written in?",
            "type": "single",
            "options": [
                {
                    "value": "python",
                    "label": "Python",
                    "description": "Matches the rest of the backend",
                    "recommended": True,
                },
                {"value": "go", "label": "Go", "description": "Small static binaries"},
                {"value": "rust", "label": "Rust", "description": "Fast, but a new toolchain"},
            ],
        },
        {
            "id": "checks",
            "label": "Checks",
            "prompt": (
                "Which checks should run on every pull request?"
                " Add a note with n if one needs explaining."
            ),
            "type": "multi",
            "options": [
                {"value": "tests", "label": "Tests", "recommended": True},
                {"value": "lint", "label": "Lint", "description": "ruff and mypy"},
                {"value": "bench", "label": "Benchmarks", "description": "Slow; maybe nightly"},
            ],
        },
        {
            "id": "layout",
            "label": "Layout",
            "prompt": "Which package layout do you prefer?",
            "type": "preview",
            "options": [
                {
                    "value": "src",
                    "label": "src layout",
                    "description": "Package under src/",
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
                    "label": "Flat layout",
                    "description": "Package at the top level",
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
