"""Bring an older config document up to ``CURRENT_SCHEMA_VERSION``, in memory only.

Loading never rewrites the file (python-port.md §3): a migrated document lives only in the
process. Each step takes the document at version N and returns it at version N + 1; add one
to ``_STEPS`` when the file layout changes and bump ``CURRENT_SCHEMA_VERSION``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pi_ask.config.catalogue import CURRENT_SCHEMA_VERSION

Document = Mapping[str, object]
Step = Callable[[Document], Document]

_STEPS: dict[int, Step] = {}
"""Version N → the step that turns a version-N document into a version-N+1 one."""


def migrate(document: Document) -> Document:
    """The document at the current layout; unchanged when it is current or not migratable.

    A missing ``schema_version`` means the current version (every key is optional). A value
    that is not a known older version is left for the checks to report.
    """
    version = document.get("schema_version", document.get("schemaVersion"))
    if type(version) is not int or not 1 <= version < CURRENT_SCHEMA_VERSION:
        return document
    for step_from in range(version, CURRENT_SCHEMA_VERSION):
        document = _STEPS[step_from](document)
    rest = {key: value for key, value in document.items() if key != "schemaVersion"}
    return {**rest, "schema_version": CURRENT_SCHEMA_VERSION}
