"""Run a piece of this test process as another user: fork, drop to its uid, send back JSON.

Tests of what another local user can plant need two real users; tests run as root, so a
child forked from pytest drops to a uid with ``setuid``. The child runs code already loaded
here: as another user it cannot read this interpreter's files under ``/root``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable

NOBODY = 65534


def as_user(uid: int, work: Callable[[], object]) -> object:
    """``work()`` run in a child forked from this process as ``uid``; its JSON result."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        status = 0
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            result = work()
            os.write(write_end, json.dumps(result).encode())
        except BaseException as err:
            os.write(write_end, json.dumps({"crashed": repr(err)}).encode())
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reader:
        data = reader.read()
    _, status = os.waitpid(pid, 0)
    value = json.loads(data)
    assert os.waitstatus_to_exitcode(status) == 0, value
    return value
