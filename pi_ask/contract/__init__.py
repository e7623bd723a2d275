"""The ``ask_user`` contract: payload loading, validation, normalization, results, metadata.

Pure and stdlib-only: no I/O, no prompt_toolkit, no pydantic, no config reads. A caller
that needs the payload types (``loading``, ``payload``) does not pay for the schema and the
tool metadata (``schema``, ``tool``): import each name from the module that defines it.
"""
