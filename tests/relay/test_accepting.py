"""The rules every acceptor holds its peers by, as plain functions."""

from __future__ import annotations

from pi_ask.relay.accepting import MAX_PEERS, replaced_among_idle, room_for_newcomer


def test_a_newcomer_replaces_the_oldest_idle_peer_or_is_refused_when_none_is() -> None:
    assert room_for_newcomer(MAX_PEERS - 1, []) == (True, None)
    assert room_for_newcomer(MAX_PEERS, ["b", "c"]) == (True, "b")
    assert room_for_newcomer(MAX_PEERS, []) == (False, None)  # every one shows the ask


def test_among_idle_peers_only_a_full_holding_lets_one_go_the_oldest() -> None:
    assert replaced_among_idle([]) is None
    assert replaced_among_idle({f"peer {n}": None for n in range(MAX_PEERS - 1)}) is None
    held = {f"peer {n}": None for n in range(MAX_PEERS)}  # oldest first, as callers hold them
    assert replaced_among_idle(held) == "peer 0"
