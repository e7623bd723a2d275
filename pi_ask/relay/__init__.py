"""Pending asks: asks with no terminal of their own, kept until a terminal answers them.

Each ask is a private folder (``asks``: payload, summary, draft, claim, result), watched
instead of polled (``watch``), in the folders of ``paths``. The asker publishes it and waits
(``pending``, its socket over ``wire``); ``elsewhere.ask_elsewhere`` tells the running inboxes
(``inboxes``) or opens a tmux popup (``tmux``), and keeps detached asks and their results.
``client`` is the answering side every host shares (the inbox, attach, the web face): the
pending asks listed, one held, drafted and claimed; ``forms`` fits an answer to the payload.
"""
