"""``pi-ask answer``: the agent's last message in prose, turned into a form.

``source`` finds the message (a pi session, a Claude Code transcript, text); ``form`` turns it
into an ``ask_user`` payload with a model (``model_extractor``) or without one
(``offline_extractor``).
"""
