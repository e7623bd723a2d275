"""``pi-ask web`` over HTTP on a real socket: pairing, the session, the guards, answering."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from tests.child_processes import wait_until
from tests.inbox.conftest import pending


def test_it_says_where_it_listens_and_serves_the_page(web) -> None:
    server = web()
    assert server.host == "127.0.0.1"
    link = f"open on the device: http://127.0.0.1:{server.port}/#pair={server.code()}"
    assert link in server.text()
    page = server.client().get("/")
    assert page.status == 200
    assert b'<script src="/app.js" defer></script>' in page.body
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert page.headers["x-content-type-options"] == "nosniff"
    script = server.client().get("/app.js")
    assert script.status == 200 and script.headers["content-type"].startswith("text/javascript")


def test_without_a_session_no_data_is_served(web) -> None:
    server = web()
    anonymous = server.client()
    for path in ("/api/asks", "/api/events", "/api/asks/abc"):
        response = anonymous.get(path)
        assert response.status == 401, path
        assert response.headers["connection"] == "close"
    assert anonymous.get("/api/session").json() == {"paired": False}


def test_pairing_gives_an_http_only_strict_cookie_and_the_code_works_once(web, tmp_path) -> None:
    server = web()
    code = server.code()
    device = server.client().pair(code)
    response = device.get("/api/session")
    assert response.json() == {"paired": True, "csrf": device.csrf}
    assert device.get("/api/asks").json()["asks"] == []
    again = server.client().post("/api/pair", {"code": code})
    assert again.status == 403
    assert device.cookie is not None
    # The set-cookie flags, and the devices file: only a hash of the token, 0600.
    fresh = server.client().get("/api/session")
    assert fresh.json() == {"paired": False}
    devices = tmp_path / "state" / "web-devices.json"
    assert stat.S_IMODE(os.stat(devices).st_mode) == 0o600
    token = device.cookie.split("=", 1)[1]
    assert token not in devices.read_text()


def test_the_cookie_flags(web) -> None:
    server = web()
    response = server.client().post("/api/pair", {"code": server.code()})
    flags = [part.strip() for part in response.headers["set-cookie"].split(";")]
    assert "HttpOnly" in flags and "SameSite=Strict" in flags and "Path=/" in flags
    assert "Secure" not in flags  # plain http on loopback


def test_wrong_codes_are_rate_limited(web) -> None:
    server = web()
    anonymous = server.client()
    statuses = [anonymous.post("/api/pair", {"code": "WRONGONE"}).status for _ in range(6)]
    assert statuses[:5] == [403] * 5
    assert statuses[5] == 429
    # Even the right code waits out the window now.
    assert anonymous.post("/api/pair", {"code": server.code()}).status == 429


def test_a_foreign_host_is_refused_dns_rebinding(web) -> None:
    server = web()
    device = server.paired()
    for host in (f"evil.example:{server.port}", "127.0.0.1:1", "attacker.test"):
        response = device.get("/api/asks", headers={"host": host})
        assert response.status == 421, host
    assert device.get("/api/asks", headers={"host": f"localhost:{server.port}"}).status == 200


def test_state_changing_requests_need_origin_and_csrf(web, ask, asks: Path) -> None:
    server = web()
    device = server.paired()
    ask("--detach")
    (info,) = pending(asks, 1)
    choose = {"do": "choose", "row": 0}
    path = f"/api/asks/{info.ask_id}/act"
    assert device.post(path, choose, headers={"origin": "http://evil.example"}).status == 403
    assert device.post(path, choose, headers={"origin": None}).status == 403
    assert device.post(path, choose, headers={"x-csrf-token": None}).status == 403
    assert device.post(path, choose, headers={"x-csrf-token": "x" * 32}).status == 403
    # A pairing from another site is refused too.
    other = server.client().post(
        "/api/pair", {"code": server.code()}, headers={"origin": "http://evil.example"}
    )
    assert other.status == 403
    # Nothing changed: no draft was written.
    assert not (info.folder / "draft.json").exists()
    assert device.post(path, choose).status == 200
    assert (info.folder / "draft.json").exists()


def test_a_huge_body_is_refused(web, ask, asks: Path) -> None:
    server = web()
    device = server.paired()
    big = b'{"code": "' + b"A" * (300 * 1024) + b'"}'
    assert device.post("/api/pair", raw=big).status == 413
    ask("--detach")
    (info,) = pending(asks, 1)
    action = b'{"do": "note", "row": null, "editor": "' + b"A" * (300 * 1024) + b'"}'
    assert device.post(f"/api/asks/{info.ask_id}/act", raw=action).status == 413
    assert not (info.folder / "draft.json").exists()


def test_a_huge_body_sent_chunked_is_refused(web, ask, asks: Path) -> None:
    """No Content-Length to refuse it by: the body is cut off once it passes the cap."""
    server = web()
    device = server.paired()
    ask("--detach")
    (info,) = pending(asks, 1)
    chunk = b'{"do": "choose", "row": 0, "pad": "' + b"A" * 65536
    answer = device.post_chunked(  # 512 KiB, past the 256 KiB cap
        f"/api/asks/{info.ask_id}/act", chunk, 8, "content-type: application/json\r\n"
    )
    assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
    assert not (info.folder / "draft.json").exists()


def test_an_action_without_a_cookie_changes_nothing(web, ask, asks: Path) -> None:
    server = web()
    device = server.paired()
    ask("--detach")
    (info,) = pending(asks, 1)
    stranger = server.client()
    stranger.csrf = device.csrf  # even with the right CSRF token and Origin
    response = stranger.act(info.ask_id, {"do": "choose", "row": 0})
    assert response.status == 401
    assert response.headers["connection"] == "close"
    assert not (info.folder / "draft.json").exists()
    forged = stranger.post(
        f"/api/asks/{info.ask_id}/act",
        {"do": "choose", "row": 0},
        headers={"cookie": "pi_ask_session=" + "A" * 43},
    )
    assert forged.status == 401
    assert not (info.folder / "draft.json").exists()


def test_bad_actions_change_nothing(web, ask, asks: Path) -> None:
    server = web()
    device = server.paired()
    ask("--detach")
    (info,) = pending(asks, 1)
    for action in (
        {"do": "choose", "row": 99},
        {"do": "choose", "row": "1"},
        {"do": "explode"},
        {"do": "tab", "tab": -1},
        {"do": "save", "text": "nothing is open"},
        [1, 2],
    ):
        response = device.act(info.ask_id, action)
        assert response.status == 400, action
        assert "error" in response.json()
    assert not (info.folder / "draft.json").exists()
    assert device.get("/api/asks/not-an-ask").json()["ended"]["why"] == "no such pending ask"


def test_a_waiting_asker_is_answered_over_http(web, ask, asks: Path) -> None:
    server = web()
    device = server.paired()
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    listing = device.get("/api/asks").json()["asks"]
    assert [entry["id"] for entry in listing] == [info.ask_id]
    assert listing[0]["title"] == "Pick a DB"
    view = device.get(f"/api/asks/{info.ask_id}").json()["view"]
    assert view["question"]["prompt"] == "Which database?"
    assert [row["label"] for row in view["question"]["rows"]] == [
        "PostgreSQL",
        "SQLite",
        "Type your own",
    ]
    after = device.act(info.ask_id, {"do": "choose", "row": 1}).json()["view"]
    assert after["tab"] == 1  # a single choice moves on, as in the terminal
    device.act(info.ask_id, {"do": "choose", "row": 0})
    done = device.act(info.ask_id, {"do": "review", "action": "submit"}).json()
    assert done["ended"] == {"why": "answered in pi-ask web", "here": True}
    result, status = asker.result()
    assert status == 0
    assert result["details"]["answers"]["db"]["values"] == ["sqlite"]
    assert result["details"]["answers"]["orm"]["values"] == ["sa"]


def test_a_second_device_pairs_with_a_new_code_its_page_asks_for(web) -> None:
    server = web()
    first_code = server.code()
    server.client().pair(first_code)
    second = server.client()
    assert second.get("/api/session").json() == {"paired": False}
    wait_until(lambda: server.codes()[-1] != first_code, "a new pairing code")
    second.pair()
    assert second.get("/api/session").json()["paired"] is True


def test_first_answer_wins_between_two_servers(web, ask, asks: Path, env) -> None:
    one, two = web(name="one"), web(name="two")
    first, second = one.paired(), two.paired()
    asker = ask("--detach")
    (info,) = pending(asks, 1)
    assert second.act(info.ask_id, {"do": "choose", "row": 0}).json()["view"]["tab"] == 1
    first.act(info.ask_id, {"do": "choose", "row": 1})
    first.act(info.ask_id, {"do": "choose", "row": 1})
    assert first.act(info.ask_id, {"do": "review", "action": "submit"}).json()["ended"]["here"]
    assert asker.process.wait(timeout=30) == 0
    # The other server's page learns it was answered elsewhere; its answer is refused.
    late = second.act(info.ask_id, {"do": "choose", "row": 0}).json()
    assert late["ended"] == {"why": "answered elsewhere", "here": False}
    from tests.child_processes import run_pi_ask

    fetched = run_pi_ask("result", info.ask_id, env=env)
    assert fetched.returncode == 0, fetched.stderr
    assert json.loads(fetched.stdout)["details"]["answers"]["db"]["values"] == ["sqlite"]


def test_a_draft_reaches_the_folder_and_the_next_attach(web, ask, asks: Path) -> None:
    server = web()
    device = server.paired()
    ask("--detach")
    (info,) = pending(asks, 1)
    view = device.act(info.ask_id, {"do": "choose", "row": 2}).json()["view"]
    assert view["editor"]["kind"] == "answer"
    device.post(f"/api/asks/{info.ask_id}/draft", {"text": "MariaDB, half typed"})
    draft = json.loads((info.folder / "draft.json").read_text())
    assert draft["answers"]["db"]["customText"] == "MariaDB, half typed"


def test_a_connected_page_makes_it_a_running_inbox(web, runtime: Path) -> None:
    server = web()
    device = server.paired()

    def inbox_sockets() -> list[str]:
        return [name for name in os.listdir(runtime) if name.endswith(".inbox")]

    assert inbox_sockets() == []
    with device.open_events() as (_stream, first):
        assert b"text/event-stream" in first
        wait_until(inbox_sockets, "the inbox socket")
    wait_until(lambda: not inbox_sockets(), "the inbox socket gone")


def test_forget_unpairs_every_device(web, tmp_path: Path, env) -> None:
    from tests.child_processes import run_pi_ask

    server = web()
    device = server.paired()
    server.process.terminate()
    server.process.wait(timeout=10)
    done = run_pi_ask("web", "--forget", env=env)
    assert done.returncode == 0
    assert "forgot 1 paired device" in done.stderr
    again = web(name="again")
    assert again.client().get("/api/session").json() == {"paired": False}
    device.server = again
    assert device.get("/api/asks").status == 401


def test_typed_text_reaches_the_draft_but_the_log_gets_one_draft_per_commit(
    web, ask, asks: Path, tmp_path: Path
) -> None:
    server = web()
    device = server.paired()
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    device.act(info.ask_id, {"do": "choose", "row": 2})  # the editor opens on Type your own
    device.post(f"/api/asks/{info.ask_id}/draft", {"text": "still typing this"})
    draft = json.loads((info.folder / "draft.json").read_text())
    assert draft["typing"] is True
    device.act(info.ask_id, {"do": "save", "text": "the saved answer"})

    def logged() -> str:
        logs = list((tmp_path / "state" / "sessions").glob("*.jsonl"))
        return "".join(log.read_text(encoding="utf-8") for log in logs)

    wait_until(lambda: "the saved answer" in logged(), "the committed draft in the log")
    assert "still typing this" not in logged()
    device.act(info.ask_id, {"do": "review", "action": "cancel"})
    _result, status = asker.result()
    assert status == 1


def test_the_page_and_its_words_come_in_the_server_s_language(web, env) -> None:
    env["LANG"] = "de_DE.UTF-8"
    server = web()
    page = server.client().get("/")
    assert b'<html lang="de">' in page.body
    assert b"Zur Frage springen" in page.body
    script = server.client().get("/app.js").body.decode("utf-8")
    assert script.startswith("const PI_ASK_WORDS = ")
    assert '"Back to the list": "Zurück zur Liste"' in script.partition("\n")[0]


def test_an_action_reaches_only_the_ask_it_names(web, ask, asks: Path) -> None:
    server = web()
    device = server.paired()
    ask("--detach", name="first")
    ask("--detach", name="second")
    first, second = pending(asks, 2)
    assert device.act(first.ask_id, {"do": "choose", "row": 1}).status == 200
    assert (first.folder / "draft.json").exists()
    assert not (second.folder / "draft.json").exists()
    unknown = device.act("0" * 36, {"do": "choose", "row": 0}).json()
    assert unknown["ended"] == {"why": "no such pending ask", "here": False}
    assert device.act("../etc", {"do": "choose", "row": 0}).status == 404


def test_forget_takes_effect_on_a_running_server(web, env) -> None:
    """The cookie stops working at the next request, and an open event stream ends."""
    from tests.child_processes import run_pi_ask

    server = web()
    device = server.paired()
    assert device.get("/api/asks").status == 200
    with device.open_events() as (stream, _head):
        done = run_pi_ask("web", "--forget", env=env)
        assert done.returncode == 0, done.stderr
        assert "forgot 1 paired device" in done.stderr
        assert device.get("/api/asks").status == 401
        assert device.get("/api/session").json() == {"paired": False}
        # The stream ends (chunked encoding's last chunk, then the server closes).
        rest = b""
        while chunk := stream.recv(4096):
            rest += chunk
        assert rest.endswith(b"0\r\n\r\n"), rest[-40:]
    assert server.process.poll() is None  # still serving, for devices paired anew
    server.client().pair()


def test_a_signal_stops_the_server_while_a_page_listens(web) -> None:
    """The live list never ends by itself: a graceful shutdown cuts it after a few seconds
    instead of waiting for it forever."""
    server = web()
    device = server.paired()
    with device.open_events():
        server.process.terminate()
        assert server.process.wait(timeout=60) != 0  # SIGTERM, raised again once closed
