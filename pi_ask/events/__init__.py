"""The in-process ask event bus: lifecycle events and remote submissions for trusted bridges.

pi-ask keeps pi's ``pi.events`` contract (protocols.md §4, behaviour.md §13) inside one Python
process. Nothing here listens on a network or types keys into a terminal:

- :mod:`~pi_ask.events.bus`: :class:`EventBus`, the plain pub/sub, and its channel names.
- :mod:`~pi_ask.events.submissions`: checking a ``submit`` request and the answer it carries
  (pure); a valid answer reaches the face as the engine command it applies.
- :mod:`~pi_ask.events.registry`: :class:`FlowRegistry`, the open flows a face registered; it
  emits ``started`` and ``completed`` and answers ``submit`` with ``submit-result``.
- :mod:`~pi_ask.events.bridges`: :func:`load_bridges` calls each installed ``pi_ask.bridges``
  entry point's ``register(bus)`` once per bus.

Only the standard library and pi-ask's engine values are imported here, so importing this
package costs next to nothing.
"""

from __future__ import annotations

from pi_ask.events.bridges import BRIDGE_GROUP, EntryPointLike, load_bridges
from pi_ask.events.bus import (
    COMPLETED,
    STARTED,
    SUBMIT,
    SUBMIT_RESULT,
    EventBus,
    Handler,
    Unsubscribe,
)
from pi_ask.events.registry import (
    FLOW_NOT_ACTIVE,
    FlowRegistration,
    FlowRegistry,
    FlowSource,
    RemoteFlow,
    complete_on_loop,
    new_flow_id,
    question_to_event,
    shared_registry,
)
from pi_ask.events.submissions import (
    RemoteResponse,
    SubmitErrorCode,
    SubmitFailure,
    SubmitRequest,
    parse_remote_response,
    parse_submit_request,
)

__all__ = [
    "BRIDGE_GROUP",
    "COMPLETED",
    "FLOW_NOT_ACTIVE",
    "STARTED",
    "SUBMIT",
    "SUBMIT_RESULT",
    "EntryPointLike",
    "EventBus",
    "FlowRegistration",
    "FlowRegistry",
    "FlowSource",
    "Handler",
    "RemoteFlow",
    "RemoteResponse",
    "SubmitErrorCode",
    "SubmitFailure",
    "SubmitRequest",
    "Unsubscribe",
    "complete_on_loop",
    "load_bridges",
    "new_flow_id",
    "parse_remote_response",
    "parse_submit_request",
    "question_to_event",
    "shared_registry",
]
