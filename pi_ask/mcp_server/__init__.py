"""``pi-ask mcp``'s host: an MCP server with ``ask_user`` and its non-blocking pair.

Only ``pi-ask mcp`` imports this package, and with it the ``mcp`` SDK (the ``pi-ask[mcp]``
extra), except ``front`` and ``tool_table``: the standard library only, so the stdio front
answers the handshake and ``tools/list`` before the SDK loads, then hands the session over
(``handover``). It asks through the host's form (``pi_ask.faces.mcp``) or a terminal elsewhere
(``terminal_route``), and settles the ask in the session log.
"""
