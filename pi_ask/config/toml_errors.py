"""Where a TOML error really is: the line that opened what was never closed.

``tomllib`` names the line where it noticed the problem. For an array, an inline table or a
multi-line string left open, that is wherever the parser gave up, often many lines below the
opening one the user must fix; so the message gains the line where it opens.
"""

from __future__ import annotations

import re

_POSITION = re.compile(r"\(at line (\d+), column \d+\)|\(at end of document\)")


def opening_line(text: str, error: str) -> int | None:
    """The line (1-based) of the bracket or string still open where ``error`` was noticed,
    when it opens on an earlier line; else ``None``.

    Example:
        >>> opening_line('a = [\\n  1,\\n\\nb = 2\\n', "Unclosed array (at line 4, column 1)")
        1
    """
    match = _POSITION.search(error)
    if match is None:
        return None
    lines = text.split("\n")
    noticed = int(match.group(1)) if match.group(1) else len(lines)
    opened = _still_open(lines[: noticed - 1])
    return opened if opened is not None and opened < noticed else None


def with_opening_line(text: str, error: str) -> str:
    """``error`` with ``; it opens at line N`` when an earlier line opened the problem."""
    line = opening_line(text, error)
    return error if line is None else f"{error}; it opens at line {line}"


def _still_open(lines: list[str]) -> int | None:
    """The line of the outermost ``[``/``{`` or multi-line string still open after ``lines``."""
    stack: list[int] = []  # opening line of each open bracket
    string: tuple[str, int] | None = None  # an open multi-line string: its quotes, its line
    for number, line in enumerate(lines, start=1):
        index = 0
        if string is None and not stack and line.lstrip().startswith("["):
            continue  # a table header: [table] or [[array of tables]]
        while index < len(line):
            if string is not None:
                end = line.find(string[0], index)
                if end < 0:
                    break
                string, index = None, end + 3
                continue
            char = line[index]
            if char == "#":
                break
            if line.startswith(('"""', "'''"), index):
                string, index = (line[index : index + 3], number), index + 3
                continue
            if char in "\"'":
                index = _string_end(line, index)
                continue
            if char in "[{":
                stack.append(number)
            elif char in "]}" and stack:
                stack.pop()
            index += 1
    if string is not None:
        return string[1] if not stack else stack[0]
    return stack[0] if stack else None


def _string_end(line: str, start: int) -> int:
    """The index after the one-line string opening at ``start`` (its end of line if open)."""
    quote = line[start]
    index = start + 1
    while index < len(line):
        if quote == '"' and line[index] == "\\":
            index += 2
            continue
        if line[index] == quote:
            return index + 1
        index += 1
    return index
