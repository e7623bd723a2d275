"""Settings: the TOML config file, its checks, and a live store.

The ask flow reads its first ``Settings`` through the fast path (``loading``, no pydantic,
no tomlkit); the model (``model``) and the editor (``toml_edit``) load when they are needed.
``catalogue`` lists every setting; ``store`` is what faces hold.
"""
