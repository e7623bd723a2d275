"""``pi-ask mcp``'s host: an MCP server with one tool, ``ask_user``.

Only ``pi-ask mcp`` imports this package, and with it the ``mcp`` SDK (the ``pi-ask[mcp]``
extra). It asks through the host's form (``pi_ask.faces.mcp``) or a terminal elsewhere
(``terminal_route``), and settles the ask in the session log.
"""
