"""A loopback HTTP server speaking the chat-completions API, replies scripted per test."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    """One scripted reply: a tool call's arguments, plain text, or an HTTP error."""

    arguments: tuple[str, ...] = ()
    text: str | None = None
    status: int = 200
    delay_s: float = 0.0
    tool_name: str = "ask_user"


@dataclass
class ChatServer:
    replies: list[Reply]
    requests: list[dict[str, object]] = field(default_factory=list)
    url: str = ""

    def user_messages(self) -> list[str]:
        out = []
        for request in self.requests:
            messages = request["messages"]
            assert isinstance(messages, list)
            out.append(str(messages[-1]["content"]))
        return out


def _completion(reply: Reply) -> dict[str, object]:
    calls = [
        {
            "id": f"call_{n}",
            "type": "function",
            "function": {"name": reply.tool_name, "arguments": args},
        }
        for n, args in enumerate(reply.arguments)
    ]
    message: dict[str, object] = {"role": "assistant", "content": reply.text}
    if calls:
        message["tool_calls"] = calls
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1764446400,
        "model": "test-model",
        "choices": [
            {"index": 0, "finish_reason": "tool_calls" if calls else "stop", "message": message}
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


@contextmanager
def chat_server(*replies: Reply) -> Iterator[ChatServer]:
    state = ChatServer(list(replies))
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            with lock:
                state.requests.append(json.loads(body))
                reply = state.replies.pop(0) if state.replies else Reply(text="")
            time.sleep(reply.delay_s)
            payload = (
                _completion(reply)
                if reply.status == 200
                else {"error": {"message": "boom", "type": "server_error"}}
            )
            data = json.dumps(payload).encode()
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass  # the client gave up (timeout test)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.block_on_close = False
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
    )
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
