"""``pi-ask web`` from its settings: where it listens, exposure, public_url, TLS, Tailscale."""

from __future__ import annotations

import ssl
import subprocess
from pathlib import Path

from tests.child_processes import run_pi_ask
from tests.web.conftest import Client


def write_config(tmp_path: Path, text: str) -> None:
    (tmp_path / "config.toml").write_text(text, encoding="utf-8")


def test_a_host_that_is_not_loopback_needs_expose(env) -> None:
    done = run_pi_ask("web", "--host", "0.0.0.0", "--port", "0", env=env)
    assert done.returncode == 2
    assert "not a loopback address; pass --expose" in done.stderr


def test_expose_warns(web) -> None:
    server = web("--host", "0.0.0.0", "--expose")
    assert "warning: serving on 0.0.0.0 to other machines" in server.text()
    # Without public_url the links (pairing, notifications) name loopback: it says so.
    assert (
        "warning: links point to 127.0.0.1, which only this machine can open; set [web] "
        "public_url to the address other devices use" in server.text()
    )
    # The bound address is not a name a browser uses: localhost names and public_url are.
    assert server.client().get("/").status == 200


def test_the_port_and_public_url_come_from_the_settings(web, tmp_path: Path) -> None:
    write_config(tmp_path, '[web]\npublic_url = "https://box.example.test/"\n')
    server = web()
    server.code()
    assert "open on the device: https://box.example.test/#pair=" in server.text()
    device = server.client()
    proxied = {"host": "box.example.test", "origin": "https://box.example.test"}
    assert device.get("/", headers=proxied).status == 200
    response = device.post("/api/pair", {"code": server.code()}, headers=proxied)
    assert response.status == 200
    # Reached over https at the public URL: the cookie is Secure (and __Host- named).
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("__Host-pi_ask_session=") and "; Secure" in cookie


def test_a_bad_setting_is_one_line_not_a_traceback(env, tmp_path: Path) -> None:
    write_config(tmp_path, '[web]\ntls_cert = "/no/such/cert.pem"\ntls_key = "/no/such/key.pem"\n')
    done = run_pi_ask("web", env=env)
    assert done.returncode == 2
    assert "cannot load tls_cert / tls_key" in done.stderr
    assert "Traceback" not in done.stderr


def test_tls_with_the_users_certificate(web, tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    write_config(tmp_path, f'[web]\ntls_cert = "{cert}"\ntls_key = "{key}"\n')
    server = web()
    assert f"listening on https://127.0.0.1:{server.port}/" in server.text()
    server.code()
    assert f"open on the device: https://127.0.0.1:{server.port}/#pair=" in server.text()
    trusted = ssl.create_default_context(cafile=str(cert))
    device = Client(server, tls=trusted)
    assert device.get("/").status == 200
    paired = device.post("/api/pair", {"code": server.code()})
    assert paired.status == 200
    # Over TLS the cookie is Secure and __Host- named (no Domain, Path=/): no plain-http
    # page or other host can set or read it.
    cookie = paired.headers["set-cookie"]
    flags = [part.strip() for part in cookie.split(";")]
    assert cookie.startswith("__Host-pi_ask_session=")
    assert {"Secure", "HttpOnly", "SameSite=Strict", "Path=/"} <= set(flags)
    assert not any(flag.lower().startswith("domain") for flag in flags)
    device.cookie, device.csrf = cookie.split(";")[0], paired.json()["csrf"]
    assert device.get("/api/asks").status == 200
    # The same token under the plain name counts for nothing here.
    token = device.cookie.split("=", 1)[1]
    assert device.get("/api/asks", headers={"cookie": f"pi_ask_session={token}"}).status == 401
    # Plain http on the TLS port gets nothing.
    plain = Client(server)
    try:
        status = plain.get("/").status
    except (ConnectionError, OSError, Exception):
        status = None
    assert status != 200


def test_tailscale_identity_headers_only_when_trusted(web, tmp_path: Path) -> None:
    identity = {"tailscale-user-login": "me@example.com"}
    plain = web(name="plain")
    assert plain.client().get("/api/asks", headers=identity).status == 401
    write_config(tmp_path, "[web]\ntrust_tailscale_headers = true\n")
    trusting = web(name="trusting")
    device = trusting.client()
    assert device.get("/api/asks", headers=identity).status == 200
    session = device.get("/api/session", headers=identity).json()
    assert session["paired"] is True
    device.csrf = session["csrf"]
    assert device.post("/api/asks/x/act", {"do": "next"}, headers=identity).status == 200
    assert (
        device.post(
            "/api/asks/x/act", {"do": "next"}, headers={**identity, "x-csrf-token": "forged"}
        ).status
        == 403
    )
    assert device.get("/api/asks").status == 401


def test_tailscale_trust_needs_loopback(env, tmp_path: Path) -> None:
    write_config(tmp_path, "[web]\ntrust_tailscale_headers = true\n")
    done = run_pi_ask("web", "--host", "0.0.0.0", "--expose", env=env)
    assert done.returncode == 2
    assert "needs a loopback host" in done.stderr


def test_a_new_ask_rings_the_waiting_channels(web, ask, asks: Path, tmp_path: Path) -> None:
    from tests.child_processes import wait_until
    from tests.inbox.conftest import pending

    rung = tmp_path / "rung.txt"
    write_config(
        tmp_path,
        '[notifications]\nchannels = [{ type = "command", command = '
        f'\'printf "%s\\\\n" "$ASK_NOTIFY_MESSAGE" >> {rung}\' }}]\n',
    )
    web()
    ask("--detach")
    pending(asks, 1)
    wait_until(rung.exists, "the command channel run for the new ask")
    assert "Pick a DB" in rung.read_text(encoding="utf-8")
