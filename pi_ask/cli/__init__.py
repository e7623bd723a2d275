"""The ``pi-ask`` command: every argparse line lives here.

``main`` builds the parser and runs a command; ``help`` is the help voice, ``completion``
the shell completion; each other module adds one area's commands (``config``, ``settings``,
``session`` for replay, resume and answer, ``inbox`` for attach and inbox, ``mcp``,
``skill``) and imports what a command needs only when it runs.
"""
