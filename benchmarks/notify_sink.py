"""A loopback HTTP server that apprise's ``json://`` channel can notify.

The benchmark configures ``json://127.0.0.1:<port>/`` as a real apprise channel, so the
notification path is the one a user's ntfy or webhook URL takes, minus the network.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class NotifySink:
    """Records each POSTed JSON body with the time it arrived (``time.perf_counter``)."""

    def __init__(self) -> None:
        self.received: list[tuple[float, object]] = []
        self._arrived = threading.Condition()
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                try:
                    value: object = json.loads(body)
                except ValueError:
                    value = body.decode("utf-8", "replace")
                with sink._arrived:
                    sink.received.append((time.perf_counter(), value))
                    sink._arrived.notify_all()
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass  # the report is the benchmark's table, not a request log

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        """The apprise URL that notifies this server."""
        return f"json://127.0.0.1:{self._server.server_address[1]}/"

    def count(self) -> int:
        """How many notifications arrived so far."""
        with self._arrived:
            return len(self.received)

    def close(self) -> None:
        """Stop serving."""
        self._server.shutdown()
        self._server.server_close()
