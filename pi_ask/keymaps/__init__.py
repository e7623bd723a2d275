"""Keymaps: named actions per context, pi-tui key ids, validation and display labels.

Plain data in, frozen values out; nothing here imports prompt_toolkit except
``ptk_bindings``, which only the TUI imports. A start with the default keymaps never loads
``validation``, and the first frame not the terminal tables (``terminal_keys``,
``terminal_bytes``).
"""
