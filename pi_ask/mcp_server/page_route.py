"""The MCP face's page route: the ask's page of a running ``pi-ask web`` as a URL-mode
elicitation (MCP 2025-11-25), for clients that declared URL mode.

The ask becomes a pending ask (``relay.elsewhere``, as the terminal route makes it), so the
page, an inbox or ``pi-ask attach`` can answer it with the whole flow (notes, review,
elaborate); the client is asked to open the page's link (``relay.web_link``). The link is
not pre-authenticated, as the specification requires: it names the ask and nothing else, and
the page's own pairing is the identity check. The client's reply says only whether the user
agreed to go; the answer comes from the pending ask, first answer wins, after which the
client is told the elicitation is complete (``notifications/elicitation/complete``).

A decline or cancel the user made cancels the ask; one faster than a person could
(``[mcp] min_human_ms``), or a client that cannot show the link, hands the ask on to the
next route. Only the back-channel eras use it: on a 2026-07-28 connection a URL elicitation
would end the call before the page is answered, so those get the form.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any, NamedTuple

from mcp import types
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPError

from pi_ask.config.store import SettingsStore
from pi_ask.contract.loading import LoadedPayload
from pi_ask.contract.results import ToolResult
from pi_ask.relay.asks import now_ms
from pi_ask.state.model import AskState

MESSAGE = "Answer on the pi-ask web page"


class NotOnPage(NamedTuple):
    """The page route reached nobody (or the host answered for the user): why, in words."""

    why: str


def page_link(ask_id: str, store: SettingsStore) -> str | None:
    """The ask's page while a ``pi-ask web`` runs here; ``None`` when none does."""
    from pi_ask.relay.paths import NoPrivateFolder, runtime_dir
    from pi_ask.relay.web_link import ask_page, running_base

    try:
        runtime = runtime_dir()
    except NoPrivateFolder:
        return None
    if running_base(runtime) is None:
        return None
    return ask_page(ask_id, store.snapshot().web.public_url, runtime)


def page_offered(session: ServerSession, store: SettingsStore, *, mrtr: bool) -> bool:
    """True when the page route can be tried: the client declared URL-mode elicitation on a
    back-channel connection, and a ``pi-ask web`` runs."""
    capabilities = session.client_capabilities
    elicitation = capabilities.elicitation if capabilities is not None else None
    if mrtr or elicitation is None or elicitation.url is None:
        return False
    from pi_ask.relay.paths import NoPrivateFolder, runtime_dir
    from pi_ask.relay.web_link import running_base

    try:
        return running_base(runtime_dir()) is not None
    except NoPrivateFolder:
        return False


async def ask_on_page(
    session: ServerSession,
    loaded: LoadedPayload,
    *,
    ask_id: str,
    store: SettingsStore,
    on_draft: Callable[[AskState], None],
    related_request_id: Any = None,
) -> ToolResult | NotOnPage:
    """Send the ask's page as a URL elicitation and wait for the answer given there (or in
    any terminal); ``NotOnPage`` when no ``pi-ask web`` runs or the host did not show it."""
    from pi_ask.config.paths import kept_attachments_dir
    from pi_ask.relay.elsewhere import ElsewhereHooks, ask_elsewhere_async

    link = page_link(ask_id, store)
    if link is None:
        return NotOnPage("no pi-ask web is running")
    settings = store.snapshot()
    loop = asyncio.get_running_loop()
    published = asyncio.Event()

    def on_published() -> None:  # on the relay's thread
        loop.call_soon_threadsafe(published.set)

    hooks = ElsewhereHooks(on_draft=on_draft, on_published=on_published)
    asked: asyncio.Future[types.ElicitResult] | None = None
    answer = asyncio.ensure_future(
        ask_elsewhere_async(
            loaded,
            ask_id,
            hooks=hooks,
            store=store,
            tmux="off",  # the user is sent to the page; no popup besides
            timeout_s=settings.routing.answer_timeout_s,
            wait=True,
            limits=settings.attachments,
            keep_files_in=kept_attachments_dir(ask_id),
        )
    )
    try:
        ready = asyncio.ensure_future(published.wait())
        await asyncio.wait([ready, answer], return_when=asyncio.FIRST_COMPLETED)
        ready.cancel()
        if answer.done():
            return answer.result() or NotOnPage("the ask could not be made pending")
        sent_ms = now_ms()
        asked = asyncio.ensure_future(
            session.elicit_url(_message(loaded), link, ask_id, related_request_id)
        )
        await asyncio.wait([asked, answer], return_when=asyncio.FIRST_COMPLETED)
        if not answer.done():
            refused = _refusal(asked, sent_ms, settings.mcp.min_human_ms, loaded)
            if refused is not None:
                return refused
        result = await answer
        if result is None:
            return NotOnPage("the ask could not be made pending")
        with contextlib.suppress(Exception):  # the answer stands even if the client left
            await session.send_elicit_complete(ask_id, related_request_id)
        return result
    finally:
        if not answer.done():
            hooks.cancel.set()  # the pending ask ends: aborted, resumable
            with contextlib.suppress(BaseException):
                await answer
        if asked is not None and not asked.done():
            asked.cancel()  # answered elsewhere first: the link is moot


def _refusal(
    asked: asyncio.Future[types.ElicitResult],
    sent_ms: int,
    min_human_ms: int,
    loaded: LoadedPayload,
) -> ToolResult | NotOnPage | None:
    """What the client's reply means before the page was answered: ``None`` (the user is
    going to the page: wait), the user's own cancel, or a hand-on to the next route."""
    from pi_ask.faces.mcp.form import form_result

    try:
        reply = asked.result()
    except MCPError as err:
        return NotOnPage(f"the host could not show the page's link: {err.error.message}")
    except Exception as err:  # a malformed reply
        return NotOnPage(f"the host's reply to the page's link was malformed ({err})")
    if reply.action == "accept":
        return None
    elapsed_ms = now_ms() - sent_ms
    if elapsed_ms < min_human_ms:
        verb = "declined" if reply.action == "decline" else "cancelled"
        return NotOnPage(f"the host {verb} the page's link {max(elapsed_ms, 0)} ms after it")
    result, _problems = form_result(loaded.payload, reply.action, None)
    return result


def _message(loaded: LoadedPayload) -> str:
    title = loaded.payload.title
    return f"{title}: {MESSAGE}" if title else MESSAGE
