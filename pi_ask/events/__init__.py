"""The in-process ask event bus: lifecycle events and remote submissions for trusted bridges.

pi-ask keeps pi's ``pi.events`` contract (protocols.md §4, behaviour.md §13) inside one Python
process. Nothing here listens on a network or types keys into a terminal:

- ``bus``: ``EventBus``, the plain pub/sub, and its channel names.
- ``submissions``: checking a ``submit`` request and the answer it carries (pure); a valid
  answer reaches the face as the engine command it applies.
- ``registry``: ``FlowRegistry``, the open flows a face registered; it emits ``started`` and
  ``completed`` and answers ``submit`` with ``submit-result``.
- ``bridges``: ``load_bridges`` calls each installed ``pi_ask.bridges`` entry point's
  ``register(bus)`` once per bus.
"""
