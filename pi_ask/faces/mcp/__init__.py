"""The MCP form face: an ask as one elicitation form, and the reply read back (pure).

Its host is ``pi_ask.mcp_server``.
"""
