"""``pi-ask web``: the web face's host (extra ``pi-ask[web]``): pairing, the guarded HTTP app,
the asks it holds for the pages, and the server on the one listener (``pi_ask.http_listener``).
"""
