"""The web face: an ask rendered as a view model for the page, and the page's actions read
back as engine commands (pure). The page itself (``static/``) only draws the view model and
sends actions; its host is ``pi_ask.web_server``.
"""
