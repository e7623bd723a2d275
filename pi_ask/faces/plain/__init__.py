"""The plain face: the ask flow as plain lines on the terminal, for everyone.

No cursor movement, no redraws, no colour: a screen reader, Emacs ``M-x shell``, a serial
console or a log can follow it. The same engine as the TUI, so the same result, drafts and
resume. ``pi-ask ask --ui plain`` opens it; ``--ui auto`` picks it when ``TERM=dumb`` or
``[ui] face = "plain"``.
"""
