from __future__ import annotations

import json
from pathlib import Path

from pi_ask.answer.claude_transcript import ClaudeMessage, read_transcript

FIXTURE = Path(__file__).parent.parent / "fixtures" / "sessions" / "claude-transcript.jsonl"


def _line(uid: str, parent: str | None, kind: str, body: dict[str, object], **extra: object) -> str:
    return json.dumps(
        {
            "parentUuid": parent,
            "sessionId": "s",
            "type": kind,
            "message": body,
            "uuid": uid,
            **extra,
        }
    )


def _assistant(mid: str, blocks: list[dict[str, object]], stop: str | None) -> dict[str, object]:
    return {"id": mid, "role": "assistant", "content": blocks, "stop_reason": stop}


def test_lines_of_one_message_are_merged_and_tool_results_are_not_user_text() -> None:
    messages = read_transcript(FIXTURE.read_text())
    assert [m.role for m in messages] == ["user", "assistant", "user", "assistant"]
    assert messages[0].text == "Plan the auth rework for the billing service."
    assert messages[1] == ClaudeMessage("assistant", "", "tool_use", True)
    assert messages[2].text == ""
    assert messages[3].finished_normally
    assert messages[3].text.startswith("The current module hashes passwords")


def test_a_null_stop_reason_counts_as_finished_only_without_a_tool_call() -> None:
    text = "\n".join(
        [
            _line("u1", None, "user", {"role": "user", "content": "hi"}),
            _line(
                "a1",
                "u1",
                "assistant",
                _assistant("m1", [{"type": "text", "text": "Which one?"}], None),
            ),
            _line(
                "a2",
                "a1",
                "assistant",
                _assistant(
                    "m1", [{"type": "tool_use", "id": "t", "name": "Bash", "input": {}}], None
                ),
            ),
        ]
    )
    (_, message) = read_transcript(text)
    assert message.text == "Which one?"
    assert not message.finished_normally
    assert ClaudeMessage("assistant", "x").finished_normally
    assert not ClaudeMessage("assistant", "x", "max_tokens").finished_normally


def test_sidechains_branches_and_damaged_lines_are_left_out() -> None:
    text = "\n".join(
        [
            _line("u1", None, "user", {"role": "user", "content": "start"}),
            _line(
                "old",
                "u1",
                "assistant",
                _assistant("m0", [{"type": "text", "text": "abandoned"}], "end_turn"),
            ),
            "{torn",
            _line(
                "a1",
                "u1",
                "assistant",
                _assistant("m1", [{"type": "text", "text": "kept"}], "end_turn"),
            ),
            _line(
                "side",
                "a1",
                "assistant",
                _assistant("m2", [{"type": "text", "text": "agent"}], "end_turn"),
                isSidechain=True,
            ),
            _line("meta", "a1", "user", {"role": "user", "content": "caveat"}, isMeta=True),
        ]
    )
    assert [m.text for m in read_transcript(text)] == ["start", "kept"]
    assert read_transcript("") == ()
