"""The session log in pi's format: payloads and drafts recorded, replay, resume.

``recorder.AskRecorder`` is what a host records one ask with; ``log`` appends and reads the
file; ``replay`` and ``resume`` find what to reopen. Extraction for ``pi-ask answer`` is in
``pi_ask.answer``.
"""
