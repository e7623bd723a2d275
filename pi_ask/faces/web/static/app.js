// pi-ask web face: draws the view the server sends and sends each action back.
// No flow rule lives here: what a click does is the engine's (pi_ask/state), applied by the
// server. Every text from the agent is set with textContent, never as markup, except the
// server's own sanitized rendering of its Markdown (promptHtml, descriptionHtml, previewHtml:
// raw HTML in the payload is escaped there, pi_ask/markdown/html.py).
"use strict";

(function () {
  const DRAFT_DEBOUNCE_MS = 1000;
  const KEEPALIVE_MAX = 60000;
  const main = document.getElementById("main");
  const live = document.getElementById("live");
  let csrf = null;
  let asks = [];
  let skew = 0; // server clock minus ours, ms
  let current = null; // { id, reply }
  let events = null;
  let draftTimer = null;
  let tick = null;
  let hoverPreview = null;

  // The words of the page in the user's language: the server puts PI_ASK_WORDS in front of
  // this file (pi_ask/faces/web/words.py), from the same catalogues as the terminal faces.
  const WORDS = (typeof PI_ASK_WORDS === "object" && PI_ASK_WORDS) || {};

  function fill(text, fields) {
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
  }

  function _(text, fields) {
    const found = WORDS[text];
    return fill(typeof found === "string" ? found : text, fields || {});
  }

  function ngettext(singular, plural, n, fields) {
    const found = WORDS[singular + "\u0000" + plural];
    const forms = Array.isArray(found) ? found : [singular, plural];
    return fill(n === 1 ? forms[0] : forms[1], Object.assign({ count: n }, fields || {}));
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "className") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function say(text) {
    live.textContent = text;
  }

  async function request(method, path, body, keepalive) {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["content-type"] = "application/json";
      options.body = JSON.stringify(body);
      // A page going away still sends it (a browser caps such bodies at 64 KiB).
      if (keepalive && options.body.length < KEEPALIVE_MAX) options.keepalive = true;
    }
    return send(path, options);
  }

  // Every request goes through here: the session's cookie and CSRF token, nothing cached;
  // the answer's JSON, or null.
  async function send(path, options) {
    options.credentials = "same-origin";
    options.cache = "no-store";
    if (csrf && options.method !== "GET") options.headers["x-csrf-token"] = csrf;
    const response = await fetch(path, options);
    let data = null;
    try {
      data = await response.json();
    } catch (_err) {
      data = null;
    }
    return { status: response.status, data };
  }

  function now() {
    return Date.now() + skew;
  }

  function age(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    if (s >= 86400) return _("{n} d", { n: Math.floor(s / 86400) });
    if (s >= 3600) return _("{n} h", { n: Math.floor(s / 3600) });
    if (s >= 60) return _("{n} min", { n: Math.floor(s / 60) });
    return _("{n} s", { n: s });
  }

  // --- pairing -----------------------------------------------------------------------

  async function start() {
    const hash = new URLSearchParams(location.hash.slice(1));
    const code = hash.get("pair");
    if (code) {
      // The code never stays in the address bar or the history.
      history.replaceState(null, "", location.pathname);
      if (await pair(code)) return;
    }
    const { status, data } = await request("GET", "/api/session");
    if (status === 200 && data && data.paired) {
      csrf = data.csrf;
      paired();
    } else {
      showPairing(null);
    }
  }

  async function pair(code) {
    const { status, data } = await request("POST", "/api/pair", { code });
    if (status === 200 && data && data.paired) {
      csrf = data.csrf;
      say(_("This device is paired."));
      paired();
      return true;
    }
    showPairing((data && data.error) || _("Pairing failed."), code);
    return false;
  }

  function showPairing(problem, typed) {
    document.title = _("pi-ask: pair this device");
    const input = el("input", {
      id: "code", name: "code", autocomplete: "one-time-code", autocapitalize: "characters",
      spellcheck: "false", inputmode: "text", "aria-describedby": "code-help",
    });
    const form = el(
      "form", { className: "pair", onsubmit: (event) => { event.preventDefault(); pair(input.value); } },
      el("h2", { text: _("Pair this device") }),
      el("p", { id: "code-help", text: _("Type the pairing code that pi-ask web printed in its terminal, or open the pairing link (scan its QR code). A new code appears there when the last one has been used or has expired.") }),
      el("label", { for: "code", text: _("Pairing code") }),
      input,
      problem ? el("p", { className: "error", role: "alert", text: problem }) : null,
      el("button", { type: "submit", className: "primary", text: _("Pair") }),
    );
    input.value = typed || "";  // a mistyped code stays there to be corrected
    main.replaceChildren(form);
    input.focus();
  }

  // --- the list ------------------------------------------------------------------------

  let routing = false;

  function paired() {
    connect();
    if (!routing) window.addEventListener("hashchange", route);
    routing = true;
    route();
  }

  function connect() {
    if (events) events.close();
    events = new EventSource("/api/events");
    events.addEventListener("asks", (event) => {
      asks = JSON.parse(event.data);
      if (current) {
        const stillPending = asks.some((info) => info.id === current.id);
        if (!stillPending && !(current.reply && current.reply.ended)) refresh();
        else if (current.reply && !current.reply.ended) drawTimer();
      } else {
        drawList();
      }
    });
    events.addEventListener("error", () => {
      if (events.readyState !== EventSource.CLOSED) {
        say(_("Connection lost; trying again."));
        return;
      }
      // Refused for good (the server answered 401: this device was unpaired), or gone.
      request("GET", "/api/session").then(({ status, data }) => {
        if (status === 200 && data && !data.paired) unpaired();
        else setTimeout(connect, 5000);
      }, () => setTimeout(connect, 5000));
    });
    events.addEventListener("open", () => say(""));
  }

  function unpaired() {
    if (events) events.close();
    events = null;
    csrf = null;
    current = null;
    clearInterval(tick);
    say("");
    showPairing(_("This device is no longer paired."));
  }

  function route() {
    const hash = new URLSearchParams(location.hash.slice(1));
    const id = hash.get("ask");
    clearInterval(tick);
    tick = null;
    if (id) {
      current = { id, reply: null };
      refresh();
    } else {
      current = null;
      drawList();
    }
  }

  function drawList() {
    document.title = asks.length ? _("pi-ask ({count} waiting)", { count: asks.length }) : "pi-ask";
    const heading = el("h2", { text: asks.length ? ngettext("{count} question waiting, oldest first", "{count} questions waiting, oldest first", asks.length) : _("No questions waiting") });
    if (!asks.length) {
      main.replaceChildren(heading, el("p", { className: "muted", text: _("Questions from your agents appear here as they arrive.") }));
      return;
    }
    const list = el("ul", { className: "asks", "aria-label": _("Pending asks") });
    for (const info of asks) {
      const count = ngettext("{count} question", "{count} questions", info.questions);
      list.append(el("li", {},
        el("button", { onclick: () => { location.hash = "ask=" + encodeURIComponent(info.id); } },
          el("span", { className: "label", text: info.title || _("(untitled)") }),
          el("span", { className: "meta", text: [info.cwd, count, _("{age} ago", { age: age(now() - info.createdAt) })].join(" · ") }),
        ),
      ));
    }
    main.replaceChildren(heading, list);
    clearInterval(tick);
    tick = setInterval(() => { if (!current) drawList(); }, 30000);
  }

  // --- one ask -------------------------------------------------------------------------

  async function refresh() {
    const id = current.id;
    const { status, data } = await request("GET", "/api/asks/" + encodeURIComponent(id));
    if (!current || current.id !== id) return;
    if (status === 401) return unpaired();
    if (status !== 200 || !data) return drawProblem((data && data.error) || _("This ask cannot be opened."));
    show(data);
  }

  async function act(action) {
    if (!current || !current.reply || current.reply.ended) return;
    flushDraft(false);
    const editor = document.getElementById("editor-text");
    if (editor && action.editor === undefined && !("text" in action)) action.editor = editor.value;
    const { status, data } = await request("POST", `/api/asks/${encodeURIComponent(current.id)}/act`, action);
    if (status === 401) return unpaired();
    if (status !== 200 || !data) {
      say((data && data.error) || _("That did not work."));
      return;
    }
    show(data);
  }

  function scheduleDraft() {
    clearTimeout(draftTimer);
    draftTimer = setTimeout(() => flushDraft(true), DRAFT_DEBOUNCE_MS);
  }

  function flushDraft(send, leaving) {
    const waiting = draftTimer !== null;
    clearTimeout(draftTimer);
    draftTimer = null;
    const editor = document.getElementById("editor-text");
    if (!send || !editor || !current) return;
    // Leaving the page sends only what the debounce still held back.
    if (leaving && !waiting) return;
    request("POST", `/api/asks/${encodeURIComponent(current.id)}/draft`, { text: editor.value }, leaving)
      .then(({ data }) => { if (data && data.ended) show(data); }, () => {});
  }

  function show(reply) {
    if (!current || reply.id !== current.id) return;
    if (reply.now) skew = reply.now - Date.now();
    // Once closed, an older reply still on its way (a slow action) never reopens it.
    if (current.reply && current.reply.ended && !reply.ended) return;
    const focused = document.activeElement && document.activeElement.id;
    const before = current.reply && current.reply.view ? current.reply.view.tab : null;
    current.reply = reply;
    if (reply.ended) return drawEnded(reply);
    drawAsk(reply);
    const again = focused && document.getElementById(focused);
    const editor = document.getElementById("editor-text");
    if (editor) {
      editor.focus();
      editor.setSelectionRange(editor.value.length, editor.value.length);
    } else if (before !== null && before !== reply.view.tab) {
      // A new question or the review: a screen reader starts reading it from its heading.
      document.getElementById("panel-heading")?.focus();
    } else if (again) again.focus();
    else document.getElementById("flow-heading")?.focus();
  }

  function drawProblem(text) {
    main.replaceChildren(
      el("p", { className: "error", role: "alert", text }),
      el("button", { onclick: () => { location.hash = ""; }, text: _("Back to the list") }),
    );
  }

  function drawEnded(reply) {
    clearInterval(tick);
    const why = reply.ended.why;
    const text = reply.ended.here ? _("Done: {why}. The agent has your answer.", { why }) : _("This ask is closed: {why}.", { why });
    main.replaceChildren(
      el("div", { className: "ended", role: "alert" }, el("h2", { id: "flow-heading", tabindex: "-1", text })),
      el("p", {}, el("button", { className: "primary", onclick: () => { location.hash = ""; }, text: _("Back to the list") })),
    );
    document.getElementById("flow-heading").focus();
  }

  function drawTimer() {
    const node = document.getElementById("timer");
    const ask = current && current.reply && current.reply.ask;
    if (!node || !ask || !ask.deadline) return;
    const left = Math.ceil((ask.deadline - now()) / 1000);
    if (left <= 0) {
      node.textContent = _("Time is up.");
      clearInterval(tick);
      refresh();
      return;
    }
    const text = left >= 60 ? _("{m} min {s} s", { m: Math.floor(left / 60), s: left % 60 }) : _("{n} s", { n: left });
    node.textContent = _("Time left to answer: {time}", { time: text });
  }

  function drawAsk(reply) {
    const view = reply.view;
    const ask = reply.ask || {};
    document.title = "pi-ask: " + (view.title || _("a question"));
    const parts = [];
    parts.push(el("h2", { id: "flow-heading", tabindex: "-1", text: view.title || _("Your agent asks") }));
    if (ask.cwd) parts.push(el("p", { className: "muted", text: ask.cwd }));
    if (ask.deadline) parts.push(el("p", { id: "timer", className: "timer", role: "timer", "aria-live": "off" }));
    parts.push(tabRow(view));
    parts.push(view.review ? reviewPanel(view) : questionPanel(view));
    if (view.notice) parts.push(el("p", { className: "notice", role: "alert", text: view.notice }));
    parts.push(el("div", { className: "actions" },
      // The review has its own Cancel; elsewhere this one goes through the dirty guard.
      view.review ? null : el("button", { id: "cancel-ask", onclick: () => act({ do: "cancel" }), text: _("Cancel the ask") }),
      el("button", { id: "to-list", onclick: () => { location.hash = ""; }, text: _("Back to the list") }),
    ));
    main.replaceChildren(...parts);
    clearInterval(tick);
    if (ask.deadline) {
      drawTimer();
      tick = setInterval(drawTimer, 1000);
    }
  }

  function tabRow(view) {
    const nav = el("div", { className: "tabs", role: "tablist", "aria-label": _("Questions and review") });
    view.tabs.forEach((tab, index) => {
      nav.append(el("button", {
        id: "tab-" + index, role: "tab", "aria-selected": String(view.tab === index),
        className: tab.answered ? "done" : null, onclick: () => act({ do: "tab", tab: index }),
        "aria-label": tab.answered ? _("{label} (answered)", { label: tab.label }) : tab.label, text: tab.label,
      }));
    });
    const review = view.tabs.length;
    nav.append(el("button", {
      id: "tab-" + review, role: "tab", "aria-selected": String(view.tab === review),
      onclick: () => act({ do: "tab", tab: review }), text: _("Review"),
    }));
    return nav;
  }

  function questionPanel(view) {
    const q = view.question;
    const editor = view.editor;
    const multi = q.type === "multi";
    const panel = el("section", { role: "tabpanel", "aria-labelledby": "tab-" + view.tab });
    panel.append(el("h3", { id: "panel-heading", tabindex: "-1", text: q.required ? _("{label} (required)", { label: q.label }) : q.label }));
    if (q.promptHtml) panel.append(markdown("div", "prompt md", q.promptHtml));
    else if (q.prompt && q.prompt !== q.label) panel.append(el("p", { className: "prompt", text: q.prompt }));
    panel.append(el("p", { className: "muted", text: multi ? _("Choose any number, then Next.") : _("Choose one.") }));
    const rows = el("div", { className: "rows", role: multi ? "group" : "radiogroup", "aria-labelledby": "panel-heading" });
    let previewRow = null;
    for (const row of q.rows) {
      const parts = [el("span", { className: "label", text: (row.number ? row.number + ". " : "") + row.label },
        row.recommended ? el("span", { className: "rec", text: " " + _("(recommended)") }) : null)];
      if (row.descriptionHtml) parts.push(markdown("span", "desc md", row.descriptionHtml));
      else if (row.description) parts.push(el("span", { className: "desc", text: row.description }));
      if (row.custom && row.text) parts.push(el("span", { className: "desc", text: row.text }));
      if (row.note) parts.push(el("span", { className: "note", text: _("Note: ") + row.note }));
      const button = el("button", {
        id: "row-" + row.row, className: "row" + (row.row === q.cursor ? " cursor" : ""),
        role: multi ? "checkbox" : "radio", "aria-checked": String(row.selected),
        onclick: () => act({ do: "choose", row: row.row }),
        onmouseenter: () => showPreview(row), onfocus: () => showPreview(row),
      }, ...parts);
      const item = el("div", { className: "rowitem" }, button);
      if (!row.custom) {
        item.append(el("button", {
          id: "note-" + row.row, className: "note-button", "aria-label": _("Note on {option}", { option: row.label }),
          onclick: () => act({ do: "note", row: row.row }), text: _("Note"),
        }));
      }
      rows.append(item);
      if (editor && editor.kind === "note" && editor.option === row.value) rows.append(editorBox(editor, _("Note on {option}", { option: row.label })));
      if (editor && editor.kind === "answer" && row.custom) rows.append(editorBox(editor, q.freeform ? _("Your answer") : _("Type your own answer")));
      if (row.preview && (previewRow === null || row.selected || row.row === q.cursor)) previewRow = row;
    }
    const hasPreview = q.rows.some((row) => row.preview);
    const layout = el("div", { className: "layout" + (hasPreview ? " with-preview" : "") }, rows);
    if (hasPreview) {
      hoverPreview = el("pre", { id: "preview", className: "preview", "aria-live": "polite", "aria-label": _("Preview"), tabindex: "0" });
      layout.append(hoverPreview);
      if (previewRow) showPreview(previewRow);
    } else {
      hoverPreview = null;
    }
    panel.append(layout);
    if (q.note) panel.append(el("p", { className: "muted", text: _("Your note: ") + q.note }));
    panel.append(filesBox(q));
    if (editor && editor.kind === "note" && editor.option === null) panel.append(editorBox(editor, _("Note on this question")));
    panel.append(el("div", { className: "actions" },
      el("button", { id: "next", className: "primary", onclick: () => act({ do: "next" }), text: _("Next") }),
      el("button", { id: "question-note", onclick: () => act({ do: "note", row: null }), text: q.note ? _("Edit the question note") : _("Note on the question") }),
      q.freeform ? null : el("button", { id: "change-type", onclick: () => act({ do: "type" }), text: multi ? _("Make it single choice") : _("Allow several choices") }),
    ));
    return panel;
  }

  function filesBox(q) {
    // Files join the answer through the upload; a phone's camera through a file input with
    // capture (the system's camera app: no script ever touches the camera).
    const box = el("div", { id: "files-box", className: "files", role: "group", "aria-label": _("Attached files") });
    if (q.files.length) {
      const list = el("ul", { className: "file-list" });
      q.files.forEach((file, index) => {
        list.append(el("li", {},
          el("span", { text: _("{name} ({size})", file) }), " ",
          el("button", { id: "detach-" + index, "aria-label": _("Remove {name}", file), onclick: () => act({ do: "detach", file: index }), text: _("Remove") }),
        ));
      });
      box.append(list);
    }
    const pick = el("input", { id: "attach-input", type: "file", multiple: true, hidden: true, onchange: () => upload(q.id, pick) });
    const photo = el("input", { id: "photo-input", type: "file", accept: "image/*", capture: "environment", hidden: true, onchange: () => upload(q.id, photo) });
    box.append(pick, photo, el("div", { className: "actions" },
      el("button", { id: "attach", onclick: () => pick.click(), text: _("Attach a file") }),
      el("button", { id: "photo", onclick: () => photo.click(), text: _("Take a photo") }),
    ));
    return box;
  }

  async function upload(questionId, input) {
    const files = Array.from(input.files || []);
    input.value = "";
    for (const file of files) {
      if (!current || !current.reply || current.reply.ended) return;
      say(_("Sending {name}…", { name: file.name }));
      let status, data;
      try {
        ({ status, data } = await send(`/api/asks/${encodeURIComponent(current.id)}/files?question=${encodeURIComponent(questionId)}`, {
          method: "POST", body: file,
          headers: { "content-type": "application/octet-stream", "x-file-name": encodeURIComponent(file.name) },
        }));
      } catch (_err) {
        fileProblem(_("{name} was not sent: the connection failed.", { name: file.name }));
        return;
      }
      if (status === 401) return unpaired();
      if (status !== 200 || !data) {
        fileProblem((data && data.error) || _("{name} was not attached.", { name: file.name }));
        return;
      }
      say(_("{name} is attached.", { name: file.name }));
      show(data);
    }
  }

  function fileProblem(text) {
    // Shown where the file was chosen, until the next view is drawn.
    say("");
    const box = document.getElementById("files-box");
    if (!box) return say(text);
    document.getElementById("file-problem")?.remove();
    box.append(el("p", { id: "file-problem", className: "error", role: "alert", text }));
  }

  function showPreview(row) {
    if (!hoverPreview) return;
    if (row.previewHtml) {
      hoverPreview.className = "preview md";
      hoverPreview.innerHTML = row.previewHtml;
    } else {
      hoverPreview.className = "preview";
      hoverPreview.textContent = row.preview || "";
    }
  }

  function markdown(tag, className, html) {
    // The server's sanitized Markdown (no raw HTML from the payload reaches this).
    const node = document.createElement(tag);
    node.className = className;
    node.innerHTML = html;
    return node;
  }

  function editorBox(editor, label) {
    const area = el("textarea", { id: "editor-text", "aria-label": label, oninput: scheduleDraft });
    area.value = editor.text;
    area.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        act({ do: "save", text: area.value });
      } else if (event.key === "Escape") {
        event.preventDefault();
        act({ do: "close", text: area.value });
      }
    });
    return el("div", { className: "editor" },
      area,
      el("p", { className: "muted", text: _("Enter saves, Shift+Enter starts a new line, Esc closes.") }),
      el("div", { className: "actions" },
        el("button", { id: "editor-save", className: "primary", onclick: () => act({ do: "save", text: area.value }), text: _("Save") }),
        el("button", { id: "editor-close", onclick: () => act({ do: "close", text: area.value }), text: _("Close") }),
      ),
    );
  }

  function reviewPanel(view) {
    const review = view.review;
    const panel = el("section", { role: "tabpanel", "aria-labelledby": "tab-" + view.tab });
    panel.append(el("h3", { id: "panel-heading", tabindex: "-1", text: _("Review your answers") }));
    const list = el("ul", { className: "review" });
    for (const entry of review.entries) {
      const item = el("li", {}, el("div", { className: "q", text: entry.label }));
      if (entry.unanswered) {
        item.append(el("div", { className: "muted" }, "→ " + _("unanswered"),
          entry.required ? el("span", { className: "required", text: " " + review.requiredMark }) : null));
      }
      for (const choice of entry.choices) {
        item.append(el("div", { text: "→ " + choice.label + (choice.note ? " " + _("(note: {note})", { note: choice.note }) : "") }));
      }
      if (entry.note) item.append(el("div", { text: _("Note: ") + entry.note }));
      for (const other of entry.otherNotes) item.append(el("div", { text: _("Note on {option}: {note}", { option: other.label, note: other.note }) }));
      for (const file of entry.files) item.append(el("div", { text: _("attached: {name} ({size})", file) }));
      for (const other of entry.notSent) {
        item.append(el("div", { className: "unsent" }, _("Note on {option}: {note}", { option: other.label, note: other.note }) + " ", el("span", { className: "tag", text: `(${review.notSentMark})` })));
      }
      list.append(item);
    }
    panel.append(list);
    const actions = el("div", { className: "actions", role: "group", "aria-label": _("Review actions") });
    review.actions.forEach((name, index) => {
      actions.append(el("button", {
        id: "review-" + name.toLowerCase(), className: index === 0 ? "primary" : null,
        onclick: () => act({ do: "review", action: name.toLowerCase() }), text: _(name),
      }));
    });
    panel.append(actions);
    panel.append(el("p", { className: "muted", text: _("Submit sends your answers; Elaborate sends them and asks the agent to explain more; Cancel sends nothing.") }));
    return panel;
  }

  document.addEventListener("keydown", (event) => {
    if (!current || !current.reply || current.reply.ended) return;
    const target = event.target;
    if (target && (target.tagName === "TEXTAREA" || target.tagName === "INPUT")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const view = current.reply.view;
    if (/^[1-9]$/.test(event.key) && view.question) {
      const row = view.question.rows.find((r) => r.number === Number(event.key));
      if (row) {
        event.preventDefault();
        act({ do: "choose", row: row.row });
      }
    } else if (event.key === "ArrowRight" && target.getAttribute("role") === "tab") {
      event.preventDefault();
      act({ do: "tab", tab: Math.min(view.tab + 1, view.tabs.length) });
    } else if (event.key === "ArrowLeft" && target.getAttribute("role") === "tab") {
      event.preventDefault();
      act({ do: "tab", tab: Math.max(view.tab - 1, 0) });
    }
  });

  // A closed tab, a phone locking or switching apps: the text typed in the last second
  // goes now (fetch keepalive), not lost with the page.
  window.addEventListener("pagehide", () => flushDraft(true, true));
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") flushDraft(true, true);
  });
  document.getElementById("home").addEventListener("click", (event) => {
    event.preventDefault();
    location.hash = "";
  });
  start();
})();
