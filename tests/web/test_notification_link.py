"""The "question waiting" notification carries the ask's page: a command channel sees it in
``ASK_NOTIFY_LINK``, an ntfy server (a loopback one posing as it, through real apprise) gets
it as the click; never a pairing code."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.child_processes import wait_until
from tests.inbox.conftest import pending
from tests.web.test_settings import write_config

LINE = "$ASK_NOTIFY_MESSAGE|$ASK_NOTIFY_LINK"


def command_channel(rung: Path) -> str:
    return (
        '[notifications]\nchannels = [{ type = "command", command = '
        f'\'printf "%s\\\\n" "{LINE}" >> {rung}\' }}]\n'
    )


def rings(rung: Path) -> list[tuple[str, str]]:
    if not rung.exists():
        return []
    lines = rung.read_text(encoding="utf-8").splitlines()
    return [tuple(line.split("|", 1)) for line in lines]  # type: ignore[misc]


class NtfySink:
    """A loopback HTTP server posing as a self-hosted ntfy: what each post carried."""

    def __init__(self) -> None:
        self.posts: list[tuple[dict[str, str], dict[str, object]]] = []
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                sink.posts.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()


@pytest.fixture
def ntfy(env: dict[str, str]) -> Iterator[NtfySink]:
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy"):
        env.pop(name, None)
    env["NO_PROXY"] = "127.0.0.1,localhost"
    sink = NtfySink()
    yield sink
    sink.server.shutdown()
    sink.server.server_close()


def test_a_new_ask_s_notification_links_its_page(
    web, ask, asks: Path, tmp_path: Path, ntfy: NtfySink
) -> None:
    rung = tmp_path / "rung.txt"
    write_config(
        tmp_path,
        command_channel(rung).replace(
            "channels = [", f'channels = ["ntfy://127.0.0.1:{ntfy.port}/pi-ask", '
        ),
    )
    server = web()
    ask("--detach")
    (info,) = pending(asks, 1)
    page = f"http://127.0.0.1:{server.port}/#ask={info.ask_id}"
    wait_until(lambda: rings(rung), "the command channel run for the new ask")
    assert rings(rung) == [("Question waiting: Pick a DB", page)]
    wait_until(lambda: ntfy.posts, "the post to ntfy")
    (headers, body) = ntfy.posts[0]
    assert headers["x-click"] == page
    assert body["message"] == "Question waiting: Pick a DB"
    for code in server.codes():  # no secret leaves the machine
        assert code not in json.dumps([headers, body]) and code not in page
    assert "pair" not in page


def test_public_url_is_what_the_link_points_to(web, ask, asks: Path, tmp_path: Path) -> None:
    rung = tmp_path / "rung.txt"
    write_config(
        tmp_path, '[web]\npublic_url = "https://box.example.test/pi"\n' + command_channel(rung)
    )
    web()
    ask("--detach")
    (info,) = pending(asks, 1)
    wait_until(lambda: rings(rung), "the notification")
    assert rings(rung)[0][1] == f"https://box.example.test/pi/#ask={info.ask_id}"


def test_the_running_server_says_where_it_is_and_takes_it_back(web, runtime: Path) -> None:
    server = web()
    published = json.loads((runtime / "web.json").read_text(encoding="utf-8"))
    assert published == {"pid": server.process.pid, "url": f"http://127.0.0.1:{server.port}/"}
    assert oct(os.stat(runtime / "web.json").st_mode & 0o777) == "0o600"
    server.process.terminate()
    server.process.wait(timeout=30)
    assert not (runtime / "web.json").exists()


def test_an_asker_waiting_for_attach_leaves_the_ringing_to_the_server(
    web, ask, asks: Path, tmp_path: Path
) -> None:
    """No page is connected, so the asker waits for an attach and would ring itself; the
    running server rings instead, once, with the page."""
    rung = tmp_path / "rung.txt"
    write_config(tmp_path, command_channel(rung))
    server = web()
    device = server.paired()
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    wait_until(lambda: "pi-ask attach" in asker.stderr.read_text(), "the asker's attach line")
    wait_until(lambda: rings(rung), "the notification")
    device.act(info.ask_id, {"do": "review", "action": "cancel"})
    _result, status = asker.result()
    assert status == 1
    page = f"http://127.0.0.1:{server.port}/#ask={info.ask_id}"
    assert rings(rung) == [("Question waiting: Pick a DB", page)]


def test_without_a_server_the_asker_rings_with_public_url_or_no_link(
    ask, asks: Path, tmp_path: Path
) -> None:
    rung = tmp_path / "rung.txt"
    write_config(tmp_path, command_channel(rung))
    ask("--wait", name="plain")
    (first,) = pending(asks, 1)
    wait_until(lambda: rings(rung), "the asker's notification")
    assert rings(rung) == [("Question waiting — run `pi-ask attach`", "")]
    public = '[web]\npublic_url = "https://box.example.test/"\n'
    write_config(tmp_path, public + command_channel(rung))
    ask("--wait", name="public")
    second = next(info for info in pending(asks, 2) if info.ask_id != first.ask_id)
    wait_until(lambda: len(rings(rung)) == 2, "the second asker's notification")
    assert rings(rung)[1][1] == f"https://box.example.test/#ask={second.ask_id}"
