"""The HTTP app of ``pi-ask web``: the page, pairing, the asks, their live list (Starlette).

Routes (all behind ``guard.Guard``):

- ``GET /``, ``/app.js``, ``/app.css``: the page, served from the package (no build, no CDN);
- ``GET /api/session``: whether this device is paired, and its CSRF token; an unpaired page
  asking makes a new pairing code appear in the terminal when none is in force;
- ``POST /api/pair`` ``{"code"}``: a code exchanged for the session cookie (rate-limited);
- ``GET /api/asks``: the pending asks, oldest first; ``GET /api/events``: the same list as
  server-sent events, again on every change (a connected page makes this an inbox);
- ``GET /api/asks/{id}``: the ask's view; ``POST /api/asks/{id}/act`` ``{"do", ...}``: one
  action, answered with the new view (or with why the ask ended); ``POST
  /api/asks/{id}/draft`` ``{"text"}``: the open editor's text kept as the ask's draft;
  ``POST /api/asks/{id}/files?question=Q``: a file (the body, its name percent-encoded in
  ``X-File-Name``) attached to question Q's answer, answered with the new view.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any, NamedTuple

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from pi_ask.contract.attachments import LimitProblem
from pi_ask.faces.web.actions import BadAction
from pi_ask.faces.web.words import page_in_language, script_with_words
from pi_ask.relay.asks import is_ask_id, now_ms
from pi_ask.relay.attached_files import name_problem
from pi_ask.web_server.board import Board
from pi_ask.web_server.guard import BodyTooLarge, Guard, Names, cookie_header
from pi_ask.web_server.holds import Holds, OverLimit, Reply
from pi_ask.web_server.pairing import Codes, Devices

STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/app.css": ("app.css", "text/css; charset=utf-8"),
}
KEEPALIVE_S = 15.0
PAIRED_CHECK_S = 2.0
"""How often an open event stream makes sure its device is still paired (``--forget``)."""
NO_STORE = {"cache-control": "no-store"}
OCTETS = "application/octet-stream"


class WebParts(NamedTuple):
    """What the app serves from: pairing, the held asks, the live list, the names it
    answers to, how a new pairing code reaches the terminal, and how the page's address is
    published while the app runs (``relay.web_link``; returns what takes it back)."""

    devices: Devices
    codes: Codes
    holds: Holds
    board: Board
    names: Names
    announce_code: Callable[[str], None]
    publish: Callable[[], Callable[[], None]] = lambda: lambda: None


def build_app(parts: WebParts) -> Guard:
    """The guarded ASGI app."""
    routes = _Routes(parts)
    table = [
        *(Route(path, routes.page, methods=["GET"]) for path in STATIC),
        Route("/favicon.ico", routes.favicon, methods=["GET"]),
        Route("/api/session", routes.session, methods=["GET"]),
        Route("/api/pair", routes.pair, methods=["POST"]),
        Route("/api/asks", routes.asks, methods=["GET"]),
        Route("/api/events", routes.events, methods=["GET"]),
        Route("/api/asks/{ask_id}", routes.ask_view, methods=["GET"]),
        Route("/api/asks/{ask_id}/act", routes.act, methods=["POST"]),
        Route("/api/asks/{ask_id}/draft", routes.draft, methods=["POST"]),
        Route("/api/asks/{ask_id}/files", routes.upload, methods=["POST"]),
    ]
    app = Starlette(routes=table, lifespan=routes.lifespan)
    return Guard(app, parts.devices, parts.names)


class _Routes:
    def __init__(self, parts: WebParts) -> None:
        self.parts = parts

    def page(self, request: Request) -> Response:
        name, media = STATIC[request.url.path]
        body = resources.files("pi_ask.faces.web").joinpath("static", name).read_bytes()
        # The page's words come from the catalogues, in the language of this process.
        if name == "app.js":
            body = script_with_words(body.decode("utf-8")).encode("utf-8")
        elif name == "index.html":
            body = page_in_language(body.decode("utf-8")).encode("utf-8")
        return Response(body, media_type=media, headers={"cache-control": "no-cache"})

    def favicon(self, _request: Request) -> Response:
        return Response(status_code=204)

    def session(self, request: Request) -> Response:
        device = request.state.device
        if device is not None:
            return JSONResponse({"paired": True, "csrf": device.csrf}, headers=NO_STORE)
        if self.parts.codes.wanted():
            self.parts.announce_code(self.parts.codes.issue())
        return JSONResponse({"paired": False}, headers=NO_STORE)

    async def pair(self, request: Request) -> Response:
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str):
            return _problem(400, '"code" must be text')
        accepted = self.parts.codes.redeem(code)
        if accepted is None:
            return _problem(429, "too many pairing attempts; wait a minute")
        if not accepted:
            return _problem(403, "that pairing code is wrong, used or expired")
        agent = request.headers.get("user-agent", "")
        token, device = await run_in_threadpool(self.parts.devices.add, agent)
        response = JSONResponse({"paired": True, "csrf": device.csrf}, headers=NO_STORE)
        response.headers["set-cookie"] = cookie_header(token, self.parts.names.secure)
        return response

    def asks(self, _request: Request) -> Response:
        # Listed now, not the watch's last listing: a client that just made an ask sees it.
        return Response(
            f'{{"now":{now_ms()},"asks":{self.parts.board.list_now()}}}',
            media_type="application/json",
            headers=NO_STORE,
        )

    async def events(self, request: Request) -> Response:
        board = self.parts.board
        devices = self.parts.devices
        device = request.state.device
        queue = board.subscribe()

        async def stream() -> AsyncIterator[str]:
            try:
                yield _event(board.listing)
                quiet = 0.0
                while True:
                    try:
                        listing = await asyncio.wait_for(queue.get(), PAIRED_CHECK_S)
                    except TimeoutError:
                        listing = None
                    # A device unpaired meanwhile (--forget) hears nothing more.
                    if not await run_in_threadpool(devices.still_paired, device):
                        return
                    if listing is not None:
                        quiet = 0.0
                        yield _event(listing)
                        continue
                    quiet += PAIRED_CHECK_S
                    if quiet >= KEEPALIVE_S:
                        quiet = 0.0
                        yield ": keep-alive\n\n"
            finally:
                board.unsubscribe(queue)

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={**NO_STORE, "x-accel-buffering": "no"},
        )

    def ask_view(self, request: Request) -> Response:
        ask_id = request.path_params["ask_id"]
        if not is_ask_id(ask_id):
            return _problem(404, "no such ask")
        reply = self.parts.holds.view(ask_id)
        return JSONResponse(reply.to_json(self.parts.holds.summary(ask_id)), headers=NO_STORE)

    async def act(self, request: Request) -> Response:
        return await self._change(request, self.parts.holds.act)

    async def draft(self, request: Request) -> Response:
        return await self._change(request, self.parts.holds.typing)

    async def upload(self, request: Request) -> Response:
        ask_id = request.path_params["ask_id"]
        if not is_ask_id(ask_id):
            return _problem(404, "no such ask")
        if request.headers.get("content-type", "").split(";")[0].strip() != OCTETS:
            return _problem(415, f"send the file as {OCTETS}")
        from urllib.parse import unquote

        try:
            name = unquote(request.headers.get("x-file-name", ""), errors="strict")
        except UnicodeDecodeError:
            return _problem(400, "the file name is not UTF-8")
        problem = name_problem(name)
        if problem is not None:  # before a byte of it is read
            return _problem(400, f"the file name {name[:80]!r} cannot be used: {problem}")
        question = request.query_params.get("question", "")
        holds = self.parts.holds
        taken = await run_in_threadpool(holds.files, ask_id)
        if taken is None:  # no longer answerable: why, with nothing read
            return await self._replied(ask_id, await run_in_threadpool(holds.view, ask_id))
        files, attached = taken
        room = files.room(attached)
        length = request.headers.get("content-length")
        size = int(length) if length is not None and length.isdigit() else None
        too_long = size is not None and size > room
        data = None if too_long else await _body_within(request, room)
        if data is None:  # the rest is not read: the connection ends with the answer
            over = files.problem(attached, size) if too_long and size is not None else None
            text = _too_large(name, over, room)
            return _problem(413, text, {"connection": "close"})
        try:
            reply = await run_in_threadpool(holds.attach, ask_id, question, name, data)
        except OverLimit as over:
            return _problem(413, str(over))
        except BadAction as bad:
            return _problem(400, str(bad))
        return await self._replied(ask_id, reply)

    async def _change(self, request: Request, run: Callable[[str, object], Reply]) -> Response:
        ask_id = request.path_params["ask_id"]
        if not is_ask_id(ask_id):
            return _problem(404, "no such ask")
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        try:
            reply = await run_in_threadpool(run, ask_id, body)
        except BadAction as bad:
            return _problem(400, str(bad))
        return await self._replied(ask_id, reply)

    async def _replied(self, ask_id: str, reply: Reply) -> Response:
        """The page's answer: the ask's new view, or why it ended (the live list told)."""
        if reply.ended is not None:
            self.parts.board.poke()
        summary = await run_in_threadpool(self.parts.holds.summary, ask_id)
        return JSONResponse(reply.to_json(summary), headers=NO_STORE)

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: Starlette) -> AsyncIterator[None]:
        self.parts.board.start(asyncio.get_running_loop())
        # Taken back at the graceful shutdown a signal starts, before the signal ends us.
        withdraw = self.parts.publish()
        try:
            yield
        finally:
            withdraw()
            await run_in_threadpool(self.parts.board.stop)
            await run_in_threadpool(self.parts.holds.close)


def _event(listing: str) -> str:
    return f"event: asks\ndata: {listing}\n\n"


def _too_large(name: str, over: LimitProblem | None, room: int) -> str:
    """Why a file past the ask's room was refused, worded as the terminals word it: the
    limit it would pass when its size was said, else the room it went past."""
    from pi_ask.ask.attachments import limit_text, not_attached, room_text

    return not_attached(name[:80], limit_text(over) if over is not None else room_text(room))


async def _body_within(request: Request, room: int) -> bytes | None:
    """The request's body, read no further than ``room`` bytes: ``None`` (the rest left
    unread, the connection closed after the answer) when it is longer."""
    parts: list[bytes] = []
    seen = 0
    try:
        async for chunk in request.stream():
            seen += len(chunk)
            if seen > room:
                return None
            parts.append(chunk)
    except BodyTooLarge:
        return None
    return b"".join(parts)


def _problem(status: int, text: str, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse(
        {"error": text}, status_code=status, headers={**NO_STORE, **(headers or {})}
    )


async def _json_body(request: Request) -> Any:
    """The request's JSON body, or the response that refuses it."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return _problem(415, "send application/json")
    try:
        raw = await request.body()
    except BodyTooLarge:
        return _problem(413, "the request body is too large")
    from pi_ask.guarded_parse import load_json

    try:
        return load_json(raw)
    except ValueError:
        return _problem(400, "the body is not JSON")
