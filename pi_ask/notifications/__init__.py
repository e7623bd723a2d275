"""Best-effort "question waiting" notifications: terminal alerts, desktop, commands, apprise.

Reading settings (``channel_list.parse_channels``) does not load the dispatcher, and nothing
here imports apprise until an apprise channel sends or a URL is checked. ``waiting`` is the
one "question waiting" notification every face and host sends; ``dispatcher`` runs the
channels off the caller's thread.
"""
