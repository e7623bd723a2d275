"""The whole flow in a real browser: every question type, notes, review, elaborate; first
answer wins against ``pi-ask attach`` both ways; a draft outliving its page; a deadline; an
accessibility check of each screen (axe-core in the page)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.child_processes import wait_until
from tests.inbox.conftest import pending
from tests.web.browser import DESKTOP, PHONE, screenshot
from tests.web.test_browser import open_paired

FULL = {
    "title": "Set up the service",
    "questions": [
        {
            "id": "db",
            "prompt": "Which database?",
            "options": [
                {
                    "value": "pg",
                    "label": "PostgreSQL",
                    "recommended": True,
                    "description": "The usual choice",
                },
                {"value": "lite", "label": "SQLite"},
            ],
        },
        {
            "id": "langs",
            "prompt": "Which languages?",
            "type": "multi",
            "options": [
                {"value": "py", "label": "Python"},
                {"value": "go", "label": "Go"},
                {"value": "rs", "label": "Rust"},
            ],
        },
        {
            "id": "layout",
            "prompt": "Which layout?",
            "type": "preview",
            "options": [
                {"value": "flat", "label": "Flat", "preview": "src/\n  app.py"},
                {"value": "nested", "label": "Nested", "preview": "src/\n  pkg/\n    deep.py"},
            ],
        },
        {"id": "name", "prompt": "What name?", "options": [{"value": "svc", "label": "svc"}]},
    ],
}


def check_accessibility(page: Any, screen: str) -> None:
    """axe-core (bundled with axe-playwright-python) finds nothing serious or critical."""
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    results = axe_module.Axe().run(page)
    bad = [
        f"{item['id']}: {item['help']} ({len(item['nodes'])} nodes)"
        for item in results.response["violations"]
        if item.get("impact") in ("serious", "critical")
    ]
    assert not bad, f"{screen}: " + "; ".join(bad)


def answer_full_flow(page: Any, *, touch: bool, name: str) -> None:
    def press(locator: Any) -> None:
        if touch:
            locator.tap()
        else:
            locator.click()

    press(page.get_by_role("button", name="Set up the service"))
    page.get_by_role("radio", name="PostgreSQL").wait_for()
    assert page.get_by_text("(recommended)").count() == 1
    check_accessibility(page, "question")
    # A note on an option that is not chosen, then the other option.
    press(page.get_by_role("button", name="Note on PostgreSQL"))
    page.get_by_role("textbox", name="Note on PostgreSQL").fill("too heavy here")
    press(page.get_by_role("button", name="Save"))
    page.get_by_text("Note: too heavy here").wait_for()
    if touch:
        press(page.get_by_role("radio", name="SQLite"))
    else:
        page.get_by_role("heading", name="Set up the service").focus()
        page.keyboard.press("2")
    # Multi: toggles stay on the question; Next moves on.
    page.get_by_role("checkbox", name="Python").wait_for()
    press(page.get_by_role("checkbox", name="Python"))
    page.get_by_role("checkbox", name="Rust", checked=False).wait_for()
    press(page.get_by_role("checkbox", name="Rust"))
    page.get_by_role("checkbox", name="Rust", checked=True).wait_for()
    press(page.get_by_role("button", name="Note on the question"))
    page.get_by_role("textbox", name="Note on this question").fill("either is fine")
    press(page.get_by_role("button", name="Save"))
    page.get_by_text("Your note: either is fine").wait_for()
    press(page.get_by_role("button", name="Next"))
    # Preview: beside the options on a wide screen, below them on a phone.
    page.get_by_role("radio", name="Nested").wait_for()
    preview = page.locator("#preview")
    page.get_by_role("radio", name="Nested").hover() if not touch else None
    options_box = page.locator(".rows").bounding_box()
    preview_box = preview.bounding_box()
    if touch:
        assert preview_box["y"] >= options_box["y"] + options_box["height"] - 1
    else:
        assert preview_box["x"] >= options_box["x"] + options_box["width"] - 1
        assert "deep.py" in preview.inner_text()
    screenshot(page, f"{name}-preview")
    check_accessibility(page, "preview")
    press(page.get_by_role("radio", name="Nested"))
    # Type your own: the editor opens; Enter saves and moves on.
    page.get_by_role("radio", name="Type your own").wait_for()
    press(page.get_by_role("radio", name="Type your own"))
    editor = page.get_by_role("textbox", name="Type your own answer")
    editor.fill("billing-api")
    editor.press("Enter")
    page.get_by_role("heading", name="Review your answers").wait_for()
    # Worded as the terminal words it (words.NOT_SENT).
    page.get_by_text("(not sent unless you choose it or Elaborate)").wait_for()
    assert "too heavy here" in page.locator(".unsent").inner_text()
    screenshot(page, f"{name}-review-full")
    check_accessibility(page, "review")
    press(page.get_by_role("button", name="Elaborate"))
    page.get_by_text("The agent has your answer").wait_for()
    screenshot(page, f"{name}-done")


@pytest.mark.parametrize(("device", "name"), [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_the_whole_flow_from_the_page(
    browser: Any, web: Any, ask: Any, asks: Path, device: dict[str, Any], name: str
) -> None:
    server = web()
    page = open_paired(browser, server, device)
    check_accessibility(page, "empty list")
    asker = ask(payload=FULL)  # no terminal: routed to the page, which counts as an inbox
    pending(asks, 1)
    page.get_by_role("button", name="Set up the service").wait_for()
    screenshot(page, f"{name}-list")
    check_accessibility(page, "list")
    answer_full_flow(page, touch=device is PHONE, name=name)
    result, status = asker.result()
    assert status == 0
    details = result["details"]
    answers = details["answers"]
    assert answers["db"]["values"] == ["lite"]
    assert answers["langs"]["values"] == ["py", "rs"]
    assert answers["layout"]["values"] == ["nested"]
    assert answers["name"]["customText"] == "billing-api"
    assert answers["langs"]["note"] == "either is fine"
    assert details["mode"] == "elaborate"
    # Elaborate sends the note on the option not chosen, as the terminal does.
    assert "too heavy here" in json.dumps(details["elaboration"])


def test_the_page_answers_first_and_attach_says_answered_elsewhere(
    browser: Any, web: Any, ask: Any, asks: Path, terminal: Any
) -> None:
    server = web()
    page = open_paired(browser, server, PHONE)
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    term = terminal("attach", info.ask_id)
    term.wait_for("Which database?")
    page.get_by_role("button", name="Pick a DB").tap()
    page.get_by_role("radio", name="PostgreSQL").tap()
    page.get_by_role("radio", name="None").tap()
    page.get_by_role("button", name="Submit").tap()
    page.get_by_text("The agent has your answer").wait_for()
    term.wait_for("answered elsewhere")
    assert term.exit_status() == 1
    result, status = asker.result()
    assert status == 0
    assert result["details"]["answers"]["orm"]["values"] == ["none"]


def test_attach_answers_first_and_the_open_page_says_so_at_once(
    browser: Any, web: Any, ask: Any, asks: Path, terminal: Any
) -> None:
    server = web()
    page = open_paired(browser, server, DESKTOP)
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    page.get_by_role("button", name="Pick a DB").click()
    page.get_by_role("radio", name="SQLite").click()
    term = terminal("attach", info.ask_id)
    term.wait_for("Which database?")
    term.press("1")
    term.wait_for("Which ORM?")
    term.press("1")
    term.wait_for("Submit")
    term.press("1", "1")
    assert term.exit_status() == 0
    # No reload: the live list tells the page, which shows why it closed.
    page.get_by_text("This ask is closed: answered elsewhere").wait_for()
    screenshot(page, "desktop-answered-elsewhere")
    result, status = asker.result()
    assert status == 0
    assert result["details"]["answers"]["db"]["values"] == ["pg"]


def test_a_draft_outlives_a_closed_page_and_the_next_attach_opens_it(
    browser: Any, web: Any, ask: Any, asks: Path, terminal: Any
) -> None:
    server = web()
    page = open_paired(browser, server, PHONE)
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    page.get_by_role("button", name="Pick a DB").tap()
    page.get_by_role("radio", name="Type your own").tap()
    page.get_by_role("textbox", name="Type your own answer").fill("MariaDB, half typed")
    screenshot(page, "phone-editor")
    check_accessibility(page, "editor")

    def drafted() -> bool:
        draft = info.folder / "draft.json"
        return draft.exists() and "MariaDB, half typed" in draft.read_text(encoding="utf-8")

    wait_until(drafted, "the typed text in draft.json (1 s debounce)")
    page.context.close()  # the tab closed mid-answer
    term = terminal("attach", info.ask_id)
    term.wait_for("MariaDB, half typed")
    term.press("esc")
    term.wait_for("Unsaved ask answers or drafts")  # the draft is there: the guard asks
    term.press("esc")
    assert term.exit_status() == 0
    result, _status = asker.result()
    assert result["details"]["reason"] == "cancelled"


def test_a_tab_closed_within_a_second_of_typing_keeps_the_text(
    browser: Any, web: Any, ask: Any, asks: Path, terminal: Any
) -> None:
    """The page's clock stands still (paused), so the 1 s debounce never sends: only the page
    going away (pagehide, fetch keepalive) can bring the text to the draft and the next
    attach."""
    server = web()
    page = open_paired(browser, server, PHONE)
    ask("--detach")
    (info,) = pending(asks, 1)
    # Which way the draft was sent, noted where the next page of the device can read it:
    # a plain fetch may be dropped with the page; only keepalive is sure to go.
    page.context.add_init_script(
        """(() => {
            const send = window.fetch.bind(window);
            window.fetch = (url, options) => {
                if (String(url).endsWith("/draft")) {
                    const kept = !!(options && options.keepalive);
                    localStorage.setItem("draft-keepalive", String(kept));
                }
                return send(url, options);
            };
        })()"""
    )
    page.clock.install()
    page.goto(f"http://127.0.0.1:{server.port}/?again#ask={info.ask_id}")
    page.get_by_role("radio", name="Type your own").wait_for()
    # Time stands still from here: no timer fires however slow the machine is (nor could
    # axe-core, which waits on timers, run now).
    page.clock.pause_at(page.evaluate("Date.now()") + 1)
    page.get_by_role("radio", name="Type your own").tap()
    editor = page.get_by_role("textbox", name="Type your own answer")
    editor.fill("typed a moment ago")
    draft = info.folder / "draft.json"

    def typed() -> bool:
        return draft.exists() and "typed a moment ago" in draft.read_text(encoding="utf-8")

    assert not typed()  # the debounce still holds it
    context = page.context
    page.close(run_before_unload=True)
    wait_until(typed, "the text sent as the page went away")
    later = context.new_page()
    later.goto(f"http://127.0.0.1:{server.port}/")
    assert later.evaluate("localStorage.getItem('draft-keepalive')") == "true"
    term = terminal("attach", info.ask_id)
    term.wait_for("typed a moment ago")


def test_an_ask_that_cannot_be_opened_says_why(browser: Any, web: Any) -> None:
    server = web()
    page = open_paired(browser, server, PHONE)
    page.goto(f"http://127.0.0.1:{server.port}/#ask=no-such-ask")
    page.get_by_text("This ask is closed: no such pending ask").wait_for()
    screenshot(page, "phone-error-no-such-ask")
    check_accessibility(page, "error")


def test_a_deadline_counts_down_and_ends_the_ask(
    browser: Any, web: Any, ask: Any, asks: Path
) -> None:
    server = web()
    page = open_paired(browser, server, PHONE)
    asker = ask("--wait", "--timeout", "6")
    (info,) = pending(asks, 1)
    assert info.deadline_ms is not None
    page.get_by_role("button", name="Pick a DB").tap()
    page.get_by_role("timer").get_by_text("Time left to answer").wait_for()
    screenshot(page, "phone-deadline")
    page.get_by_text("This ask is closed").wait_for(timeout=30_000)
    result, status = asker.result()
    assert status == 1
    assert result["details"]["reason"] == "timeout"


def test_a_file_attached_on_the_page_reaches_the_asker(
    browser: Any, web: Any, ask: Any, asks: Path, tmp_path: Path
) -> None:
    """A phone picks a file (the camera's input is the same kind), sees it listed and a
    file past the ask's limit refused in words; the answer's JSON lists the file."""
    from tests.web.test_settings import write_config

    write_config(tmp_path, "[attachments]\nmax_mb = 1\n")
    server = web()
    page = open_paired(browser, server, PHONE)
    asker = ask("--wait")
    pending(asks, 1)
    page.get_by_role("button", name="Pick a DB").tap()
    page.get_by_role("radio", name="SQLite").wait_for()
    photo = page.locator("#photo-input")
    assert photo.get_attribute("accept") == "image/*" and photo.get_attribute("capture")
    shot = b"\x89PNG\r\n\x1a\n" + b"\x00" * 1200
    page.locator("#attach-input").set_input_files(
        {"name": "shot.png", "mimeType": "image/png", "buffer": shot}
    )
    page.get_by_text("shot.png (1.2 KB)").wait_for()
    page.locator("#attach-input").set_input_files(
        {"name": "huge.bin", "mimeType": "application/octet-stream", "buffer": b"x" * 1_100_000}
    )
    refused = "Not attached: huge.bin: the attached files would take"  # as attach says it
    page.get_by_role("alert").get_by_text(refused).wait_for()
    screenshot(page, "phone-files")
    check_accessibility(page, "files")
    page.get_by_role("radio", name="SQLite").tap()
    page.get_by_role("radio", name="SQLAlchemy").tap()
    page.get_by_text("attached: shot.png (1.2 KB)").wait_for()  # on the review
    page.get_by_role("button", name="Submit").tap()
    page.get_by_text("The agent has your answer").wait_for()
    result, status = asker.result()
    assert status == 0
    (attached,) = result["details"]["answers"]["db"]["attachments"]
    assert attached["name"] == "shot.png" and attached["media_type"] == "image/png"
    assert Path(attached["path"]).read_bytes() == shot


HOSTILE = {
    "title": "Review the code",
    "questions": [
        {
            "id": "impl",
            "prompt": (
                "Which **version**? <img src=x onerror=\"window.__pwned='img'\">"
                "<script>window.__pwned='script'</script> [docs](javascript:window.__pwned='link')"
            ),
            "type": "preview",
            "options": [
                {
                    "value": "fn",
                    "label": "A function",
                    "description": "<b onmouseover=\"window.__pwned='desc'\">bold?</b> *plain*",
                    "preview": (
                        "```python\ndef greet(name):\n    return f'hi {name}'  # say hi\n```\n"
                        '<iframe src="https://example.org/"></iframe>'
                    ),
                },
                {"value": "cls", "label": "A class", "preview": "class Greeter:\n    pass"},
            ],
        }
    ],
}


def test_a_python_preview_is_highlighted_and_hostile_html_stays_text(
    browser: Any, web: Any, ask: Any, asks: Path
) -> None:
    server = web()
    page = open_paired(browser, server, DESKTOP)
    ask("--detach", payload=HOSTILE)
    (info,) = pending(asks, 1)
    page.goto(f"http://127.0.0.1:{server.port}/#ask={info.ask_id}")
    page.get_by_role("radio", name="A function").hover()
    keyword = page.locator("#preview pre .k", has_text="def")
    keyword.wait_for()
    colours = page.evaluate(
        """() => {
            const key = document.querySelector("#preview pre .k");
            const comment = document.querySelector("#preview pre .c1");
            const plain = getComputedStyle(document.querySelector("#preview pre")).color;
            return [getComputedStyle(key).color, getComputedStyle(comment).color, plain];
        }"""
    )
    assert colours[0] != colours[2] and colours[1] != colours[2], colours  # highlighted
    assert page.locator("#preview pre").inner_text().startswith("def greet(name):")
    screenshot(page, "desktop-preview-highlighted")
    # Raw HTML in the payload is text on the page: nothing ran, nothing was loaded.
    main = page.locator("main")
    assert "<img src=x" in main.inner_text() and "<script>" in main.inner_text()
    assert "<iframe" in page.locator("#preview").inner_text()
    found = page.evaluate(
        """() => ({
            pwned: window.__pwned || null,
            active: document.querySelectorAll(
                "main img, main iframe, main script, main [onerror], main [onmouseover]").length,
            scriptLinks: [...document.querySelectorAll("main a")].filter((a) =>
                (a.getAttribute("href") || "").trim().toLowerCase().startsWith("javascript")
            ).length,
        })"""
    )
    assert found == {"pwned": None, "active": 0, "scriptLinks": 0}
    page.get_by_text("bold?").hover()
    assert page.evaluate("window.__pwned || null") is None
    assert page.locator("main strong", has_text="version").count() == 1  # Markdown still works
