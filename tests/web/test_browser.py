"""The page in a real browser (Debian's chromium, headless): phone and desktop, real askers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.child_processes import wait_until
from tests.inbox.conftest import pending
from tests.web.browser import DESKTOP, NARROW, PHONE, screenshot

TIMEOUT_MS = 20_000


def open_paired(browser: Any, server: Any, device: dict[str, Any]) -> Any:
    """A new device's page, paired through the link (the code in its fragment)."""
    context = browser.new_context(**device)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{server.port}/#pair={server.code()}")
    page.wait_for_selector("h2")
    assert "#pair" not in page.url
    return page


def fits_the_width(page: Any) -> None:
    """Nothing sticks out sideways: the page never scrolls horizontally."""
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], widths


@pytest.mark.parametrize(
    ("device", "name"), [(PHONE, "phone"), (NARROW, "narrow"), (DESKTOP, "desktop")]
)
def test_a_waiting_asker_is_answered_from_the_page(
    browser: Any, web: Any, ask: Any, asks: Path, device: dict[str, Any], name: str
) -> None:
    server = web()
    page = open_paired(browser, server, device)
    page.get_by_text("No questions waiting").wait_for()
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    # The list is live: the ask appears without a reload.
    page.get_by_role("button", name="Pick a DB").click()
    page.get_by_role("radio", name="SQLite").click()
    page.get_by_role("radio", name="SQLAlchemy").wait_for()
    fits_the_width(page)
    screenshot(page, f"{name}-question")
    page.get_by_role("radio", name="SQLAlchemy").click()
    page.get_by_role("button", name="Submit").wait_for()
    screenshot(page, f"{name}-review")
    page.get_by_role("button", name="Submit").click()
    page.get_by_text("The agent has your answer").wait_for()
    result, status = asker.result()
    assert status == 0
    assert result["details"]["answers"]["db"]["values"] == ["sqlite"]
    assert result["details"]["answers"]["orm"]["values"] == ["sa"]
    assert info.ask_id


def test_a_page_of_another_site_changes_nothing(
    browser: Any, web: Any, ask: Any, asks: Path
) -> None:
    """A paired browser visiting a hostile page: its requests carry the cookie (same site:
    ports do not count) but not an allowed Origin, nor the CSRF token. Nothing changes."""
    server = web()
    page = open_paired(browser, server, DESKTOP)
    ask("--detach")
    (info,) = pending(asks, 1)
    evil = f"http://127.0.0.1:{server.port + 1 if server.port < 65535 else 1}/evil"
    target = f"http://127.0.0.1:{server.port}/api/asks/{info.ask_id}/act"
    page.context.route(
        evil, lambda route: route.fulfill(content_type="text/html", body="<p>hello</p>")
    )
    hostile = page.context.new_page()
    hostile.goto(evil)
    statuses = hostile.evaluate(
        """async (target) => {
            const body = JSON.stringify({ do: "choose", row: 0 });
            const out = [];
            for (const type of ["text/plain", "application/json"]) {
                try {
                    const r = await fetch(target, { method: "POST", body, credentials: "include",
                        mode: type === "text/plain" ? "no-cors" : "cors",
                        headers: { "content-type": type } });
                    out.push(r.type === "opaque" ? "opaque" : r.status);
                } catch (err) {
                    out.push("blocked");
                }
            }
            return out;
        }""",
        target,
    )
    # Either refused outright or answered with nothing the page can read.
    assert all(status in ("opaque", "blocked", 403) for status in statuses), statuses
    assert not (info.folder / "draft.json").exists()
    # The real page still works.
    page.goto(f"http://127.0.0.1:{server.port}/#ask={info.ask_id}")
    page.get_by_role("radio", name="SQLite").click()
    page.get_by_role("radio", name="SQLAlchemy").wait_for()
    assert (info.folder / "draft.json").exists()


@pytest.mark.parametrize(
    ("scheme", "contrast"), [("light", "no-preference"), ("dark", "no-preference"),
                             ("light", "more"), ("dark", "more")],
)  # fmt: skip
def test_light_dark_and_high_contrast_follow_the_system(
    browser: Any, web: Any, ask: Any, asks: Path, scheme: str, contrast: str
) -> None:
    from tests.web.test_browser_flows import check_accessibility

    server = web()
    page = open_paired(browser, server, PHONE)
    page.emulate_media(color_scheme=scheme, contrast=contrast)
    ask("--detach")
    pending(asks, 1)
    page.get_by_role("button", name="Pick a DB").tap()
    page.get_by_role("radio", name="SQLite").tap()
    page.get_by_role("radio", name="SQLAlchemy").wait_for()
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    dark = background in ("rgb(21, 22, 26)", "rgb(0, 0, 0)")
    assert dark == (scheme == "dark"), background
    screenshot(page, f"phone-{scheme}-{contrast}")
    check_accessibility(page, f"{scheme} {contrast}")  # colour contrast included


def test_the_page_speaks_the_server_s_language(
    browser: Any, web: Any, ask: Any, asks: Path, env: dict[str, str]
) -> None:
    env["LANG"] = "de_DE.UTF-8"
    server = web()
    page = open_paired(browser, server, DESKTOP)
    page.get_by_text("Keine Fragen warten").wait_for()
    asker = ask("--wait")
    pending(asks, 1)
    page.get_by_role("button", name="Pick a DB").click()  # the payload's words stay its own
    page.get_by_role("radio", name="SQLite").click()
    page.get_by_role("radio", name="SQLAlchemy").click()
    page.get_by_role("heading", name="Prüfen Sie Ihre Antworten").wait_for()
    screenshot(page, "desktop-review-de")
    page.get_by_role("button", name="Absenden").click()
    page.get_by_text("Der Agent hat Ihre Antwort").wait_for()
    result, status = asker.result()
    assert status == 0
    assert result["details"]["answers"]["db"]["values"] == ["sqlite"]
    text = result["content"][0]["text"]  # the agent's text: English, the payload's words
    assert "SQLite" in text and "SQLAlchemy" in text and "Antwort" not in text


def test_enter_while_an_input_method_composes_never_saves(
    browser: Any, web: Any, ask: Any, asks: Path
) -> None:
    """An IME's Enter picks the characters it composed (isComposing); only a later Enter saves."""
    server = web()
    page = open_paired(browser, server, DESKTOP)
    ask("--detach")
    (info,) = pending(asks, 1)
    page.goto(f"http://127.0.0.1:{server.port}/#ask={info.ask_id}")
    page.get_by_role("button", name="Note on SQLite").click()
    editor = page.get_by_role("textbox", name="Note on SQLite")
    editor.fill("にほん")
    # The page's handler takes an Enter it acts on (preventDefault): dispatchEvent says so.
    enter = """(composing) => document.getElementById("editor-text").dispatchEvent(
        new KeyboardEvent("keydown", { key: "Enter", isComposing: composing, bubbles: true,
                                       cancelable: true }))"""
    assert page.evaluate(enter, True) is True  # left to the input method: nothing saved
    editor.press("End")
    editor.type("ご")  # still the open editor
    assert page.evaluate(enter, False) is False  # a plain Enter saves
    page.get_by_text("Note: にほんご").wait_for()


def test_forget_sends_an_open_page_back_to_pairing(
    browser: Any, web: Any, ask: Any, asks: Path, env: dict[str, str]
) -> None:
    """``pi-ask web --forget`` while a page is open: its live list ends, the page says it is
    no longer paired and offers pairing again; a new code then pairs it."""
    from tests.child_processes import run_pi_ask

    server = web()
    page = open_paired(browser, server, PHONE)
    ask("--detach")
    pending(asks, 1)
    page.get_by_role("button", name="Pick a DB").wait_for()
    codes_before = len(server.codes())
    done = run_pi_ask("web", "--forget", env=env)
    assert done.returncode == 0, done.stderr
    page.get_by_text("This device is no longer paired.").wait_for()
    screenshot(page, "phone-pairing-unpaired")
    from tests.web.test_browser_flows import check_accessibility

    check_accessibility(page, "pairing")
    # The unpaired page asked for a code; typing it pairs the device again.
    wait_until(lambda: len(server.codes()) > codes_before, "a new pairing code")
    page.get_by_role("textbox", name="Pairing code").fill(server.code())
    page.get_by_role("button", name="Pair").tap()
    page.get_by_role("button", name="Pick a DB").wait_for()


def test_a_wrong_pairing_code_says_so(browser: Any, web: Any) -> None:
    from tests.web.test_browser_flows import check_accessibility

    server = web()
    context = browser.new_context(**PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{server.port}/")
    page.get_by_role("heading", name="Pair this device").wait_for()
    screenshot(page, "phone-pairing")
    check_accessibility(page, "pairing")
    page.get_by_role("textbox", name="Pairing code").fill("WRONG-CODE")
    page.get_by_role("button", name="Pair").tap()
    page.get_by_role("alert").get_by_text("that pairing code is wrong, used or expired").wait_for()
    screenshot(page, "phone-pairing-wrong-code")
    assert page.get_by_role("textbox", name="Pairing code").input_value() == "WRONG-CODE"
    page.get_by_role("textbox", name="Pairing code").fill(server.code())
    page.get_by_role("button", name="Pair").tap()
    page.get_by_text("No questions waiting").wait_for()
