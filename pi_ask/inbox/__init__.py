"""The answering terminals: ``pi-ask inbox`` and ``pi-ask attach``.

``client`` finds the pending asks and talks to one; ``attach.answer_one`` answers one in a
face; ``app`` is the inbox that answers them one by one. The asker's side is
``pi_ask.relay``.
"""
