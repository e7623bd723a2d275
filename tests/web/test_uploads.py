"""Files sent from the page: copied into the pending ask's ``attachments/`` folder as attach
copies them, attached through the engine's ``AttachFile`` within the asker's limits, carried
to its result; hostile names, huge bodies and requests without a session change nothing."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

import pytest

from pi_ask.relay.asks import AskSummary
from tests.inbox.conftest import pending
from tests.web.conftest import Client, Response, WebServer
from tests.web.test_settings import write_config

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


class OnAsk(NamedTuple):
    server: WebServer
    device: Client
    info: AskSummary


@pytest.fixture
def page_on_an_ask(web, ask, asks: Path, tmp_path: Path) -> Callable[..., OnAsk]:
    """A paired device of a running ``pi-ask web`` and a detached ask pending, under the
    settings ``config`` (the asker's and the server's)."""

    def start(config: str = "") -> OnAsk:
        if config:
            write_config(tmp_path, config)
        server = web()
        device = server.paired()
        ask("--detach")
        (info,) = pending(asks, 1)
        return OnAsk(server, device, info)

    return start


def send_file(
    device: Client, ask_id: str, name: str, data: bytes, question: str = "db", **extra: Any
) -> Response:
    headers = {"content-type": "application/octet-stream", "x-file-name": quote(name, safe="")}
    headers.update(extra.pop("headers", {}))
    return device.post(
        f"/api/asks/{ask_id}/files?question={question}", raw=data, headers=headers, **extra
    )


def test_a_file_from_the_page_reaches_the_asker_s_result(web, ask, asks: Path, tmp_path) -> None:
    server = web()
    device = server.paired()
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    reply = send_file(device, info.ask_id, "screen shot.png", PNG)
    assert reply.status == 200, reply.body
    assert reply.json()["view"]["question"]["files"] == [
        {"name": "screen shot.png", "size": "1.0 KB"}
    ]
    kept = info.files().folder / "screen shot.png"
    assert kept.read_bytes() == PNG
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(kept.parent).st_mode) == 0o700
    draft = json.loads((info.folder / "draft.json").read_text())
    assert draft["answers"]["db"]["attachments"][0]["name"] == "screen shot.png"
    device.act(info.ask_id, {"do": "choose", "row": 1})
    device.act(info.ask_id, {"do": "choose", "row": 0})
    assert device.act(info.ask_id, {"do": "review", "action": "submit"}).json()["ended"]["here"]
    result, status = asker.result()
    assert status == 0
    (attached,) = result["details"]["answers"]["db"]["attachments"]
    assert attached["name"] == "screen shot.png"
    assert attached["size"] == len(PNG) and attached["media_type"] == "image/png"
    # The asker took the file along: it outlives the ask's folder, in its own.
    path = Path(attached["path"])
    assert path.parent == tmp_path / "state" / "attachments" / info.ask_id
    assert path.read_bytes() == PNG
    assert not info.folder.exists()
    assert "attached: screen shot.png (1.0 KB)" in result["content"][0]["text"]


def test_a_file_is_taken_off_again(page_on_an_ask) -> None:
    _, device, info = page_on_an_ask()
    send_file(device, info.ask_id, "a.txt", b"one")
    send_file(device, info.ask_id, "b.txt", b"two")
    view = device.act(info.ask_id, {"do": "detach", "file": 0}).json()["view"]
    assert [file["name"] for file in view["question"]["files"]] == ["b.txt"]
    assert device.act(info.ask_id, {"do": "detach", "file": 5}).status == 400


def test_hostile_names_are_refused_and_nothing_is_kept(page_on_an_ask) -> None:
    _, device, info = page_on_an_ask()
    for name, why in (
        ("../../etc/passwd", "it is a path, not a file name"),
        ("a\nb.txt", "it holds a line break or another control character"),
        ("", "it is empty"),
        ("..", "it is empty"),
        ("x" * 300, "it is longer than 255 characters"),
    ):
        reply = send_file(device, info.ask_id, name, b"data")
        assert reply.status == 400, name
        assert why in reply.json()["error"], reply.json()
    assert send_file(device, info.ask_id, "ok.txt", b"x", question="nope").status == 400
    wrong_type = send_file(
        device, info.ask_id, "ok.txt", b"x", headers={"content-type": "text/plain"}
    )
    assert wrong_type.status == 415
    assert not info.files().folder.exists()
    assert not (info.folder / "draft.json").exists()


def test_without_a_session_origin_or_csrf_a_file_changes_nothing(page_on_an_ask) -> None:
    server, device, info = page_on_an_ask()
    assert send_file(server.client(), info.ask_id, "a.txt", b"x").status == 401
    origin = {"origin": "http://evil.example"}
    assert send_file(device, info.ask_id, "a.txt", b"x", headers=origin).status == 403
    no_csrf = {"x-csrf-token": None}
    assert send_file(device, info.ask_id, "a.txt", b"x", headers=no_csrf).status == 403
    assert not info.files().folder.exists()


def test_the_ask_s_limits_hold(page_on_an_ask) -> None:
    _, device, info = page_on_an_ask("[attachments]\nmax_files = 2\nmax_mb = 1\n")
    big = send_file(device, info.ask_id, "big.bin", b"x" * 1_000_001)
    assert big.status == 413
    # Worded as the terminals word it (pi_ask.ask.attachments), from the catalogues.
    assert big.json()["error"] == (
        "Not attached: big.bin: the attached files would take 1.0 MB; an ask takes at most 1.0 MB."
    )
    assert send_file(device, info.ask_id, "one.txt", b"1").status == 200
    assert send_file(device, info.ask_id, "two.txt", b"2", question="orm").status == 200
    third = send_file(device, info.ask_id, "three.txt", b"3")
    assert third.status == 413
    assert (
        third.json()["error"] == "Not attached: three.txt: an ask takes at most 2 attached files."
    )
    assert sorted(os.listdir(info.files().folder)) == ["one.txt", "two.txt"]


def test_a_huge_file_sent_chunked_is_refused(page_on_an_ask) -> None:
    _, device, info = page_on_an_ask("[attachments]\nmax_mb = 1\n")
    answer = device.post_chunked(  # 2.6 MB, past the 1 MB limit
        f"/api/asks/{info.ask_id}/files?question=db",
        b"x" * 65536,
        40,
        "content-type: application/octet-stream\r\nx-file-name: huge.bin\r\n",
    )
    assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
    # Its size was not said: the refusal names the room it went past.
    assert b"Not attached: huge.bin: the ask has room for 1.0 MB more of attached files." in answer
    assert not info.files().folder.exists()


def test_a_refusal_comes_in_the_server_s_language(page_on_an_ask, env) -> None:
    """The page speaks the server's language: a file refused by the ask's limits is said
    with the catalogues' words, as a terminal says it."""
    env["LANG"] = "de_DE.UTF-8"
    _, device, info = page_on_an_ask("[attachments]\nmax_files = 1\nmax_mb = 1\n")
    big = send_file(device, info.ask_id, "big.bin", b"x" * 1_000_001)
    assert big.status == 413
    assert big.json()["error"] == (
        "Nicht angehängt: big.bin: die angehängten Dateien bräuchten 1.0 MB; eine Frage nimmt"
        " höchstens 1.0 MB."
    )
    assert send_file(device, info.ask_id, "one.txt", b"1").status == 200
    second = send_file(device, info.ask_id, "two.txt", b"2")
    assert second.status == 413
    assert second.json()["error"] == (
        "Nicht angehängt: two.txt: eine Frage nimmt höchstens 1 angehängte Datei."
    )


def test_the_limits_are_the_asker_s(web, ask, asks: Path, tmp_path: Path) -> None:
    """The asker wrote its limits in the ask's summary, and counts by them when it reads the
    answer: the page is held to those, not to the web server's own settings."""
    write_config(tmp_path, "[attachments]\nmax_files = 1\n")
    ask("--detach")
    (info,) = pending(asks, 1)
    assert info.files().max_files == 1
    write_config(tmp_path, "[attachments]\nmax_files = 5\n")
    server = web()
    device = server.paired()
    assert send_file(device, info.ask_id, "one.txt", b"1").status == 200
    second = send_file(device, info.ask_id, "two.txt", b"2")
    assert second.status == 413
    assert "an ask takes at most 1 attached file." in second.json()["error"]
    assert os.listdir(info.files().folder) == ["one.txt"]


def test_a_file_for_an_ask_no_longer_pending_is_answered_with_why(page_on_an_ask) -> None:
    _, device, info = page_on_an_ask()
    device.act(info.ask_id, {"do": "cancel"})
    late = send_file(device, info.ask_id, "late.txt", b"late")
    assert late.status == 200
    assert late.json()["ended"]["why"] == "cancelled in pi-ask web"
    assert not info.files().folder.exists()
    unknown = send_file(device, "no-such-ask", "late.txt", b"late")
    assert unknown.json()["ended"]["why"] == "no such pending ask"


def test_a_file_past_what_any_ask_may_take_is_refused_unread(page_on_an_ask) -> None:
    """The guard's backstop: a length past the most ``[attachments] max_mb`` allows is
    refused from the head alone, before the route or the ask are looked at."""
    import socket

    from pi_ask.web_server.guard import MAX_UPLOAD_BYTES

    server, device, info = page_on_an_ask()
    head = (
        f"POST /api/asks/{info.ask_id}/files?question=db HTTP/1.1\r\n"
        f"host: 127.0.0.1:{server.port}\r\norigin: {server.origin}\r\n"
        f"cookie: {device.cookie}\r\nx-csrf-token: {device.csrf}\r\n"
        "content-type: application/octet-stream\r\nx-file-name: huge.bin\r\n"
        f"content-length: {MAX_UPLOAD_BYTES + 1}\r\n\r\n"
    )
    answer = b""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as stream:
        stream.sendall(head.encode())
        while part := stream.recv(4096):
            answer += part
    assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
    assert b"the request body is too large" in answer
    assert not info.files().folder.exists()
