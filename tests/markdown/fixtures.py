"""Questions as agents write them: code, diffs, tables, nested lists, links, hostile text."""

from __future__ import annotations

CODE = """Which version of `load_config` should we keep?

```python
def load_config(path: str) -> dict:
    # read once, cache forever
    return {"path": path, "retries": 3}
```
"""

DIFF = """```diff
--- a/app.py
+++ b/app.py
-    retries = 1
+    retries = 3
```"""

TABLE = """| Option | Startup | Notes |
|---|---:|:---:|
| **uv** | 12 ms | fast, *locked* |
| pip | 340 ms | everywhere |"""

NESTED = """1. Build
   - wheel
   - sdist
2. Publish
   > only from `main`"""

LINKS = "Read [the guide](https://example.com/guide) or <https://example.com/faq>."

HOSTILE = (
    "Click <script>alert(1)</script> [here](javascript:alert(1)) "
    '<img src=x onerror="alert(2)">\n'
    "**bold\x1b]0;owned\x07** and `\x1b[2J` \u202eevil"
)

INDENTED = "Layout:\n  [server]\n    port = 8080\nsoft\nbreak"
