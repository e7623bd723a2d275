"""``python -m pi_ask``: the same as the ``pi-ask`` command."""

from __future__ import annotations

import sys

from pi_ask.cli.main import main

sys.exit(main())
