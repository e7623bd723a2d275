"""The prompt_toolkit face: the ask flow and the settings overlay, drawn on the terminal."""
