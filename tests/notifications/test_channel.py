from __future__ import annotations

from pi_ask.notifications.channel import CancelScope, Notification


def test_notification_defaults_to_the_waiting_title_and_event() -> None:
    assert Notification(message="m") == Notification("pi ask", "m", "question.waiting")


def test_notification_cleans_every_field_on_construction() -> None:
    notification = Notification(title="t\x1b]2;x\x07", message="a\nb\x9b", event="e\x00")
    assert notification == Notification(title="t^[]2;x^G", message="a b\\x9b", event="e^@")


def test_cancel_runs_each_callback_once() -> None:
    calls: list[str] = []
    scope = CancelScope()
    scope.on_cancel(lambda: calls.append("a"))
    scope.cancel()
    scope.cancel()
    assert calls == ["a"]
    assert scope.is_cancelled


def test_callback_registered_after_cancel_runs_at_once() -> None:
    calls: list[str] = []
    scope = CancelScope()
    scope.cancel()
    scope.on_cancel(lambda: calls.append("late"))
    assert calls == ["late"]


def test_a_failing_callback_does_not_stop_the_others() -> None:
    calls: list[str] = []
    scope = CancelScope()

    def boom() -> None:
        raise RuntimeError("boom")

    scope.on_cancel(boom)
    scope.on_cancel(lambda: calls.append("second"))
    scope.cancel()
    assert calls == ["second"]
