"""The one source of pi-ask's version (the wheel's metadata is built from it)."""

__version__ = "0.1.0"
