"""Markdown in payload text (python-port.md §12): a cheap scan, a parse into neutral lines,
and the renderings every face shares (clean text, sanitized HTML); the TUI styles the lines."""
