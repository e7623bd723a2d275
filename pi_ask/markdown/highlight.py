"""Code blocks highlighted by Pygments, as runs named by token kind (``lines.py``).

Only fenced blocks are code (python-port.md §12): the fence's info string names the
language; an unknown or missing one leaves the code unhighlighted rather than guessed (a
guess would cost a trial of every lexer). Pygments is imported on the first fenced block.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from pi_ask.markdown.lines import Run, Runs

if TYPE_CHECKING:
    from pygments.lexer import Lexer
    from pygments.token import _TokenType

# Pygments token kinds, most specific first, and the role each is drawn in.
_KINDS = (
    ("Generic.Inserted", "inserted"),
    ("Generic.Deleted", "deleted"),
    ("Generic.Heading", "heading"),
    ("Generic.Subheading", "heading"),
    ("Comment", "syntax-comment"),
    ("Literal.String", "syntax-string"),
    ("Literal.Number", "syntax-number"),
    ("Keyword.Type", "syntax-type"),
    ("Keyword", "syntax-keyword"),
    ("Operator.Word", "syntax-keyword"),
    ("Name.Builtin", "syntax-type"),
    ("Name.Class", "syntax-type"),
    ("Name.Function", "syntax-function"),
    ("Name.Decorator", "syntax-function"),
    ("Name.Tag", "syntax-keyword"),
    ("Name.Attribute", "syntax-function"),
)


@lru_cache(maxsize=256)
def _role(kind: _TokenType) -> str:
    name = str(kind).removeprefix("Token.")
    for prefix, role in _KINDS:
        if name == prefix or name.startswith(prefix + "."):
            return f"code {role}"
    return "code"


@lru_cache(maxsize=64)
def _lexer(language: str) -> Lexer | None:
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        # stripnl off: a window of a block must keep its blank first and last lines.
        return get_lexer_by_name(language, stripnl=False)
    except ClassNotFound:
        return None


def preload(language: str) -> None:
    """Load and compile ``language``'s lexer now (on a worker thread)."""
    highlight(("x = 1",), language.lower())


def language_of(info: str) -> str:
    """The language a fence's info string names (its first word, lower case)."""
    words = info.split()
    return words[0].lower() if words else ""


def highlight(lines: tuple[str, ...], language: str) -> tuple[Runs, ...]:
    """``lines`` of code in ``language``, each as runs; plain ``code`` runs when unknown."""
    lexer = _lexer(language) if language else None
    if lexer is None:
        return tuple(((("code", line),) if line else ()) for line in lines)
    out: list[list[Run]] = [[]]
    for kind, value in lexer.get_tokens("\n".join(lines)):
        role = _role(kind)
        first, *rest = value.split("\n")
        if first:
            out[-1].append((role, first))
        for piece in rest:
            out.append([(role, piece)] if piece else [])
    rows = [tuple(row) for row in out[: len(lines)]]
    rows += [()] * (len(lines) - len(rows))
    return tuple(rows)
