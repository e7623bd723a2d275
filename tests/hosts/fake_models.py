"""Loopback fake model servers speaking each host's API, on real sockets in a thread.

A ``FakeModel`` answers every request the way a model would, by one script: when a request
offers the pi-ask tool and the conversation has no call to it yet, the reply calls it with
the test's payload; when the conversation holds that call's result, the result is recorded
(what the model received) and the reply is a short text that ends the turn; anything else
(a host's title or quota side request) gets a short text. Every request is recorded.

The dialects differ only in where tools, calls and results sit in a request and in how a
reply is framed: OpenAI Responses (Codex), Anthropic Messages (Claude Code), Gemini
generateContent / streamGenerateContent (Gemini CLI), OpenAI Chat Completions (opencode).
Each streams (server-sent events) when the request asks for it.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

WAIT_ID = "call_wait_1"
# A host's own tool for "my MCP servers are still starting" (Claude Code connects them in
# the background): a model that misses pi-ask's tool calls it once, as a real one would.
WAIT_TOOLS = ("WaitForMcpServers",)
FINAL_TEXT = "Thanks, noted."


@dataclass
class Recorded:
    path: str
    body: dict[str, Any]


@dataclass
class Reply:
    """What the script decided: a call of ``tool`` with ``arguments``, or ``text``."""

    tool: str | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    call_id: str = ""


class Dialect:
    """Where one API keeps tools, calls and results; how it frames a reply."""

    name = ""

    def tools(self, body: dict[str, Any]) -> list[str]:
        raise NotImplementedError

    def result(self, body: dict[str, Any], call_id: str) -> str | None:
        """The result of the model's call ``call_id`` in the conversation, as text, or ``None``."""
        raise NotImplementedError

    def streams(self, path: str, body: dict[str, Any]) -> bool:
        return bool(body.get("stream"))

    def whole(self, reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def events(self, reply: Reply, body: dict[str, Any]) -> Iterator[tuple[str | None, Any]]:
        raise NotImplementedError


def _text_of(content: Any) -> str:
    """A result's content as one text: a string as is, blocks joined, else JSON."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, dict) and isinstance(block.get("text"), str):
                parts.append(block["text"])
            else:
                parts.append(json.dumps(block))
        return "\n".join(parts)
    return json.dumps(content)


class Responses(Dialect):
    """OpenAI Responses, as Codex sends it (always streamed)."""

    name = "responses"

    def tools(self, body: dict[str, Any]) -> list[str]:
        names = []
        for tool in body.get("tools") or []:
            inner = tool.get("tools")
            if isinstance(inner, list):
                # A namespace (Codex groups an MCP server's tools under one name): its tools
                # are named "namespace/tool" here and called with both names.
                names.extend(
                    f"{tool.get('name', '')}/{t['name']}"
                    for t in inner
                    if isinstance(t, dict) and isinstance(t.get("name"), str)
                )
            elif isinstance(tool.get("name"), str):
                names.append(tool["name"])
        return names

    def _items(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        items = body.get("input")
        return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []

    def result(self, body: dict[str, Any], call_id: str) -> str | None:
        for item in self._items(body):
            if item.get("type") == "function_call_output" and item.get("call_id") == call_id:
                return _text_of(item.get("output"))
        return None

    def streams(self, path: str, body: dict[str, Any]) -> bool:
        return True

    def _item(self, reply: Reply) -> dict[str, Any]:
        if reply.tool is not None:
            namespace, _, name = reply.tool.rpartition("/")
            call = {
                "type": "function_call",
                "id": f"fc_{reply.call_id}",
                "call_id": reply.call_id,
                "name": name,
                "arguments": json.dumps(reply.arguments),
                "status": "completed",
            }
            return {**call, "namespace": namespace} if namespace else call
        return {
            "type": "message",
            "id": "msg_fake_1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": reply.text, "annotations": []}],
        }

    def events(self, reply: Reply, body: dict[str, Any]) -> Iterator[tuple[str | None, Any]]:
        response = {"id": "resp_fake", "object": "response", "status": "in_progress"}
        yield "response.created", {"type": "response.created", "response": response}
        item = self._item(reply)
        yield (
            "response.output_item.done",
            {"type": "response.output_item.done", "output_index": 0, "item": item},
        )
        usage = {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 5,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 15,
        }
        done = {**response, "status": "completed", "output": [item], "usage": usage}
        yield "response.completed", {"type": "response.completed", "response": done}


class Messages(Dialect):
    """Anthropic Messages, as Claude Code sends it (streamed when it asks)."""

    name = "messages"

    def tools(self, body: dict[str, Any]) -> list[str]:
        return [t["name"] for t in body.get("tools") or [] if isinstance(t.get("name"), str)]

    def _blocks(self, body: dict[str, Any]) -> Iterator[dict[str, Any]]:
        for message in body.get("messages") or []:
            content = message.get("content")
            if isinstance(content, list):
                yield from (b for b in content if isinstance(b, dict))

    def result(self, body: dict[str, Any], call_id: str) -> str | None:
        for block in self._blocks(body):
            if block.get("type") == "tool_result" and block.get("tool_use_id") == call_id:
                return _text_of(block.get("content"))
        return None

    def _content(self, reply: Reply) -> dict[str, Any]:
        if reply.tool is not None:
            return {
                "type": "tool_use",
                "id": reply.call_id,
                "name": reply.tool,
                "input": reply.arguments,
            }
        return {"type": "text", "text": reply.text}

    def _message(self, body: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "fake"),
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5},
        }

    def whole(self, reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
        stop = "tool_use" if reply.tool is not None else "end_turn"
        return {**self._message(body), "content": [self._content(reply)], "stop_reason": stop}

    def events(self, reply: Reply, body: dict[str, Any]) -> Iterator[tuple[str | None, Any]]:
        start = {**self._message(body), "content": [], "stop_reason": None}
        yield "message_start", {"type": "message_start", "message": start}
        block = self._content(reply)
        if reply.tool is not None:
            opening = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(reply.arguments)}
        else:
            opening = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": reply.text}
        yield (
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": opening},
        )
        yield "content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": 0}
        stop = "tool_use" if reply.tool is not None else "end_turn"
        yield (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        )
        yield "message_stop", {"type": "message_stop"}


class Gemini(Dialect):
    """Gemini generateContent / streamGenerateContent, as Gemini CLI sends it."""

    name = "gemini"

    def tools(self, body: dict[str, Any]) -> list[str]:
        names = []
        for tool in body.get("tools") or []:
            for declaration in tool.get("functionDeclarations") or []:
                if isinstance(declaration.get("name"), str):
                    names.append(declaration["name"])
        return names

    def _parts(self, body: dict[str, Any]) -> Iterator[dict[str, Any]]:
        for content in body.get("contents") or []:
            yield from (p for p in content.get("parts") or [] if isinstance(p, dict))

    def result(self, body: dict[str, Any], call_id: str) -> str | None:
        # Calls carry our id; a response that does not echo it is matched by position.
        responses = [
            p["functionResponse"]
            for p in self._parts(body)
            if isinstance(p.get("functionResponse"), dict)
        ]
        position = int(call_id.rpartition("_")[2]) - 1
        chosen = [r for r in responses if r.get("id") == call_id]
        if not chosen and not any(r.get("id") for r in responses) and position < len(responses):
            chosen = [responses[position]]
        if not chosen:
            return None
        # Gemini CLI wraps a tool's text: {"output": "..."}.
        inner = chosen[0].get("response")
        if isinstance(inner, dict) and isinstance(inner.get("output"), str):
            return str(inner["output"])
        return _text_of(inner)

    def streams(self, path: str, body: dict[str, Any]) -> bool:
        return ":streamGenerateContent" in path

    def whole(self, reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
        if reply.tool is not None:
            call = {"id": reply.call_id, "name": reply.tool, "args": reply.arguments}
            part: dict[str, Any] = {"functionCall": call}
        else:
            part = {"text": reply.text}
        return {
            "candidates": [
                {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {
                "promptTokenCount": 10,
                "candidatesTokenCount": 5,
                "totalTokenCount": 15,
            },
            "modelVersion": "fake",
        }

    def events(self, reply: Reply, body: dict[str, Any]) -> Iterator[tuple[str | None, Any]]:
        yield None, self.whole(reply, body)


class ChatCompletions(Dialect):
    """OpenAI Chat Completions, as opencode's OpenAI-compatible provider sends it."""

    name = "chat"

    def tools(self, body: dict[str, Any]) -> list[str]:
        names = []
        for tool in body.get("tools") or []:
            function = tool.get("function") or {}
            if isinstance(function.get("name"), str):
                names.append(function["name"])
        return names

    def result(self, body: dict[str, Any], call_id: str) -> str | None:
        for message in body.get("messages") or []:
            if message.get("role") == "tool" and message.get("tool_call_id") == call_id:
                return _text_of(message.get("content"))
        return None

    def _call(self, reply: Reply) -> dict[str, Any]:
        return {
            "id": reply.call_id,
            "type": "function",
            "function": {"name": reply.tool, "arguments": json.dumps(reply.arguments)},
        }

    def whole(self, reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
        if reply.tool is not None:
            message["tool_calls"] = [self._call(reply)]
        finish = "tool_calls" if reply.tool is not None else "stop"
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }

    def events(self, reply: Reply, body: dict[str, Any]) -> Iterator[tuple[str | None, Any]]:
        base = {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
        }
        if reply.tool is not None:
            call = {**self._call(reply), "index": 0}
            delta: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
            finish = "tool_calls"
        else:
            delta = {"role": "assistant", "content": reply.text}
            finish = "stop"
        yield None, {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
        yield (
            None,
            {
                **base,
                "choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            },
        )
        yield None, "[DONE]"


def pi_ask_tool(names: list[str], tool_name: str) -> str | None:
    """The host's name for pi-ask's tool ``tool_name``: prefixed by the server's name in most
    hosts (``mcp__pi-ask__ask_user``, ``pi-ask_ask_user``), bare in others."""
    for name in names:
        if name.endswith(tool_name) and ("pi-ask" in name or "pi_ask" in name):
            return name
    return tool_name if tool_name in names else None


@dataclass
class Step:
    """One call of pi-ask's tool ``tool`` (its published name, e.g. ``ask_user_start``).

    ``arguments`` may be worked out from the earlier calls' results; ``again`` says, from a
    result, that the call must be made once more (an answer still pending).
    """

    tool: str
    arguments: dict[str, Any] | Callable[[list[str]], dict[str, Any]]
    again: Callable[[str], bool] | None = None


class FakeModel:
    """A fake model on ``127.0.0.1`` (free port) that calls pi-ask's tool, by ``steps``.

    By default one step: ``tool_name`` with ``payload``. ``results`` holds what the host
    handed the model for each call, in order (``result`` the first); ``offered`` the tool
    names of every request that offered tools.
    """

    def __init__(
        self,
        dialect: Dialect,
        payload: dict[str, Any],
        tool_name: str = "ask_user",
        steps: list[Step] | None = None,
    ) -> None:
        self.dialect = dialect
        self.steps = steps or [Step(tool_name, payload)]
        self.requests: list[Recorded] = []
        self.offered: list[list[str]] = []
        self.calls: list[tuple[int, str, float]] = []  # (step, call id, when) as made
        self.answers: dict[str, str] = {}  # call id -> its result
        self.waited = False
        self.errors: list[str] = []  # exceptions of the script, shown in summary()
        self.lock = threading.Lock()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def results(self) -> list[str]:
        with self.lock:
            return [self.answers[c] for _, c, _ in self.calls if c in self.answers]

    @property
    def result(self) -> str | None:
        results = self.results
        return results[0] if results else None

    @property
    def called_at(self) -> float | None:
        return self.calls[0][2] if self.calls else None

    def __enter__(self) -> FakeModel:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)

    def _next_step(self) -> int | None:
        """The step to call now, ``len(steps)`` when all are done, ``None`` while one waits."""
        if not self.calls:
            return 0
        step, call_id, _ = self.calls[-1]
        if call_id not in self.answers:
            return None
        again = self.steps[step].again
        if again is not None and again(self.answers[call_id]):
            return step
        return step + 1

    def decide(self, path: str, body: dict[str, Any]) -> Reply:
        with self.lock:
            self.requests.append(Recorded(path, body))
            names = self.dialect.tools(body)
            if names:
                self.offered.append(names)
            for _, call_id, _ in self.calls:
                if call_id not in self.answers:
                    found = self.dialect.result(body, call_id)
                    if found is not None:
                        self.answers[call_id] = found
            step = self._next_step()
            if step is None:
                return Reply(text="ok")  # a side request while a call runs
            if step == len(self.steps):
                return Reply(text=FINAL_TEXT)
            tool = pi_ask_tool(names, self.steps[step].tool)
            if tool is not None:
                arguments = self.steps[step].arguments
                if callable(arguments):
                    arguments = arguments([self.answers[c] for _, c, _ in self.calls])
                call_id = f"call_pi_ask_{len(self.calls) + 1}"
                self.calls.append((step, call_id, time.monotonic()))
                return Reply(tool=tool, arguments=arguments, call_id=call_id)
            wait = next((name for name in WAIT_TOOLS if name in names), None)
            if wait is not None and not self.waited:
                self.waited = True
                return Reply(tool=wait, call_id=WAIT_ID)
            return Reply(text="ok")

    def summary(self) -> str:
        """The requests seen, for a failure message."""
        lines = [f"{len(self.requests)} request(s) to the fake {self.dialect.name} model:"]
        for recorded in self.requests[-6:]:
            lines.append(f"  {recorded.path} tools={self.dialect.tools(recorded.body)[:40]}")
        lines.extend(f"  result {n}: {text[:300]}" for n, text in enumerate(self.results, 1))
        lines.extend(f"  script error: {error}" for error in self.errors)
        return "\n".join(lines)


def _handler(model: FakeModel) -> Callable[..., http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_GET(self) -> None:
            # Model listings and health probes: an empty, valid answer.
            self._json(200, {"data": [], "models": [], "object": "list"})

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                self._json(400, {"error": {"message": "not JSON"}})
                return
            if not isinstance(body, dict):
                self._json(400, {"error": {"message": "not an object"}})
                return
            if self.path.split("?")[0].endswith(("count_tokens", ":countTokens")):
                self._json(200, {"input_tokens": 10, "totalTokens": 10})
                return
            try:
                reply = model.decide(self.path, body)
            except Exception as error:  # a test's script failed: say so to the host and test
                model.errors.append(repr(error))
                reply = Reply(text=f"fake model error: {error!r}")
            if model.dialect.streams(self.path, body):
                self._stream(model.dialect.events(reply, body))
            else:
                self._json(200, model.dialect.whole(reply, body))

        def _json(self, status: int, data: Any) -> None:
            encoded = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(encoded)))
            self.end_headers()
            self.wfile.write(encoded)

        def _stream(self, events: Iterator[tuple[str | None, Any]]) -> None:
            chunks = []
            for event, data in events:
                text = data if isinstance(data, str) else json.dumps(data)
                head = f"event: {event}\n" if event else ""
                chunks.append(f"{head}data: {text}\n\n")
            encoded = "".join(chunks).encode()
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("content-length", str(len(encoded)))
            self.end_headers()
            self.wfile.write(encoded)

    return Handler
