"""The asker's side of pending asks: an ask with no terminal of its own.

The asker serves its ask on a private unix socket (``pending``, over ``wire``, in the folder
of ``paths``); ``elsewhere.ask_elsewhere`` pokes the running inboxes (``inboxes``) or opens a
tmux popup (``tmux``) and waits for the first answer, fitted to the payload (``forms``).
The answering terminals are ``pi_ask.inbox``.
"""
