"""The second half of a stdio session: the front's messages replayed into the SDK's streams.

``front.py`` answered the handshake; here the SDK's low-level ``Server.run`` gets a read
stream that first yields the replay (the era-settling requests under private ids, then the
held notifications and the message that needed the SDK) and then every later line, checked
by the front's rules, in order. Answers to the private ids are dropped on the way out: the
host already has the front's.
"""

from __future__ import annotations

from typing import Any

import anyio
import pydantic
from anyio.abc import ObjectReceiveStream, ObjectSendStream
from mcp import types
from mcp.server import Server
from mcp.shared.message import SessionMessage

from pi_ask.mcp_server.front import (
    INVALID_REQUEST,
    Handover,
    HostGone,
    Oversized,
    Wire,
    check_line,
    dump,
    error,
    oversized_reply,
    valid_id,
)


async def serve_handed_over(server: Server[Any], wire: Wire, handover: Handover) -> None:
    """Run ``server`` on the rest of the session until the host closes standard input."""
    inbound_send, inbound = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    outbound, outbound_receive = anyio.create_memory_object_stream[SessionMessage](0)
    async with anyio.create_task_group() as group:
        group.start_soon(_pump, wire, handover, inbound_send)
        group.start_soon(_write, wire, handover.private_ids, outbound_receive, group.cancel_scope)
        await server.run(inbound, outbound, server.create_initialization_options())
        # The input ended: let the last answers out, then the writer ends.
        await outbound.aclose()


async def _pump(
    wire: Wire, handover: Handover, inbound: ObjectSendStream[SessionMessage | Exception]
) -> None:
    async with inbound:
        for line in handover.replay:
            await _forward(wire, line, inbound)
        while True:
            item = await anyio.to_thread.run_sync(wire.lines.get, abandon_on_cancel=True)
            if item is None:
                return
            if isinstance(item, Oversized):
                await _send(wire, oversized_reply(item))
                continue
            checked = check_line(item)
            if checked.reply is not None:
                await _send(wire, checked.reply)
            if checked.message is not None:
                await _forward(wire, item, inbound)


async def _forward(
    wire: Wire, line: bytes, inbound: ObjectSendStream[SessionMessage | Exception]
) -> None:
    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except pydantic.ValidationError:
        # Valid JSON-RPC on the surface but not an MCP message the SDK can take: a request
        # gets an answer (the SDK would drop it and leave the host waiting).
        checked = check_line(line)
        message_id = checked.message.get("id") if checked.message is not None else None
        if not valid_id(message_id) or checked.message is None:
            return
        if "method" in checked.message:
            await _send(wire, error(message_id, INVALID_REQUEST, "Invalid Request"))
            return
        # A reply of the host's the SDK cannot read: the request waiting on it gets an error
        # instead, so it ends (the SDK would drop the reply and wait for good).
        unreadable = error(message_id, INVALID_REQUEST, "the reply was not a JSON-RPC result")
        message = types.jsonrpc_message_adapter.validate_python(unreadable, by_name=False)
    await inbound.send(SessionMessage(message))


async def _write(
    wire: Wire,
    private_ids: set[str],
    outbound: ObjectReceiveStream[SessionMessage],
    scope: anyio.CancelScope,
) -> None:
    async with outbound:
        async for session_message in outbound:
            message = session_message.message
            if getattr(message, "id", None) in private_ids and not hasattr(message, "method"):
                continue  # the SDK's answer to a replayed handshake: the host has the front's
            data = message.model_dump_json(by_alias=True, exclude_unset=True).encode("utf-8")
            try:
                await anyio.to_thread.run_sync(wire.out.write_line, data)
            except HostGone:
                scope.cancel()
                return


async def _send(wire: Wire, reply: dict[str, Any]) -> None:
    await anyio.to_thread.run_sync(wire.out.write_line, dump(reply))
