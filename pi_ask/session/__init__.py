"""Session log, payload persistence, replay, resume and ``pi-ask answer`` extraction.

Nothing is imported here eagerly: ``pi_ask.session.commands`` is imported at every start of
the ``pi-ask`` command and must stay cheap. Import the modules you need directly.
"""
