"""Pairing codes and paired devices on their own (a clock the test moves)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from pi_ask.web_server.pairing import (
    CODE_TTL_S,
    MAX_TRIES,
    NEW_CODE_EVERY_S,
    TRIES_WINDOW_S,
    Codes,
    Devices,
    normalize_code,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_code_works_once() -> None:
    codes = Codes(clock=Clock())
    code = codes.issue()
    assert codes.redeem(code) is True
    assert codes.redeem(code) is False


def test_a_code_expires_after_five_minutes() -> None:
    clock = Clock()
    codes = Codes(clock=clock)
    code = codes.issue()
    clock.now += CODE_TTL_S + 0.001
    assert codes.redeem(code) is False
    assert CODE_TTL_S == 300


def test_a_new_code_replaces_the_old_one() -> None:
    codes = Codes(clock=Clock())
    old = codes.issue()
    new = codes.issue()
    assert codes.redeem(old) is False or old == new
    assert codes.redeem(new) is True


def test_typed_codes_are_forgiving_about_case_spaces_and_the_dash() -> None:
    codes = Codes(clock=Clock())
    code = codes.issue()
    assert normalize_code(f" {code[:4].lower()}-{code[4:]} ") == code
    assert codes.redeem(f"{code[:4].lower()}-{code[4:]}") is True


def test_tries_are_limited_per_window() -> None:
    clock = Clock()
    codes = Codes(clock=clock)
    code = codes.issue()
    for _ in range(MAX_TRIES):
        assert codes.redeem("WRONGWRONG") is False
    assert codes.redeem(code) is None  # not even compared
    clock.now += TRIES_WINDOW_S + 0.001
    assert codes.redeem(code) is True


def test_when_a_new_code_is_wanted() -> None:
    clock = Clock()
    codes = Codes(clock=clock)
    assert codes.wanted()  # none yet
    code = codes.issue()
    assert not codes.wanted()  # one is in force
    codes.redeem(code)
    assert codes.wanted()  # used: the next device may pair at once
    codes.issue()
    clock.now += CODE_TTL_S + 1
    assert codes.wanted() == (CODE_TTL_S + 1 >= NEW_CODE_EVERY_S)


def test_devices_keep_only_a_hash_in_a_private_file(tmp_path: Path) -> None:
    devices = Devices(tmp_path)
    token, device = devices.add("Mozilla/5.0 phone")
    path = tmp_path / "web-devices.json"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert token not in path.read_text()
    again = Devices(tmp_path)  # a restart knows the device
    assert again.find(token) == device
    assert again.find(token + "x") is None
    assert again.find(None) is None
    assert again.forget() == 1
    assert Devices(tmp_path).find(token) is None


def test_a_damaged_devices_file_pairs_nobody(tmp_path: Path) -> None:
    (tmp_path / "web-devices.json").write_text('{"devices": [{"id": 3}], "x": ', "utf-8")
    assert len(Devices(tmp_path)) == 0


def test_a_running_server_s_devices_follow_the_file(tmp_path: Path) -> None:
    """``--forget`` runs in another process: the server's own ``Devices`` reads the file
    again when it changed, so a forgotten cookie stops working at its next request."""
    server = Devices(tmp_path)
    token, device = server.add("phone")
    assert server.find(token) == device and server.still_paired(device)
    assert Devices(tmp_path).forget() == 1  # pi-ask web --forget, elsewhere
    assert server.find(token) is None
    assert not server.still_paired(device)
    assert len(server) == 0
    # A device another server paired meanwhile is known here too.
    other_token, _other = Devices(tmp_path).add("laptop")
    assert server.find(other_token) is not None
    # And pairing here keeps the other's device (the file is read before it is written).
    mine, _ = server.add("tablet")
    assert Devices(tmp_path).find(other_token) is not None
    assert Devices(tmp_path).find(mine) is not None
