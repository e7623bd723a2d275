"""The answering terminals: ``pi-ask inbox`` and ``pi-ask attach``.

``attach.answer_one`` answers one pending ask in a face; ``app`` is the inbox that answers
them one by one. The relay (``pi_ask.relay``, its ``client`` the answering side) keeps them.
"""
