"""Accepting terminals on an asker's socket: the rules every acceptor keeps.

The asker (``relay.pending``) and the small waiting process it may become (``cli/waiting.py``,
which must load nothing else) accept on the same socket, by the same rules: at most
``MAX_PEERS`` terminals at once, each saying hello within ``HELLO_TIMEOUT_S``, and an accept
that fails (out of descriptors) said once and tried again after ``ACCEPT_BACKOFF_S``.
"""

MAX_PEERS = 16
HELLO_TIMEOUT_S = 5.0
ACCEPT_BACKOFF_S = 0.5


def accept_failed(error: OSError) -> str:
    """The line said the first time an accept fails: the ask stays answerable all the same."""
    return f"pi-ask: accepting a terminal failed ({error}); retrying"
