"""The MCP face: ``pi-ask mcp``, an MCP server with one tool, ``ask_user``.

Only ``pi-ask mcp`` imports this package's server, and with it the ``mcp`` SDK (the
``pi-ask[mcp]`` extra); ``form.py`` is pure and needs no SDK.
"""
