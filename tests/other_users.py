"""Run a piece of this test process as another user: fork, drop to its uid, send back JSON.

Tests of what another local user can plant need two real users; tests run as root, so a
child forked from pytest drops to a uid with ``setuid``. The child runs code already loaded
here: as another user it cannot read this interpreter's files under ``/root``.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

import pi_ask

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


def other_user_python() -> str | None:
    """A Python interpreter of this version that another user may run (this one may live
    under ``/root``, which nobody else can enter), or ``None``."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (
        os.path.realpath(sys.executable),
        f"/usr/bin/python{version}",
        f"/usr/local/bin/python{version}",
    ):
        if os.path.isfile(candidate) and _open_to_others(Path(candidate)):
            return candidate
    return None


def _open_to_others(path: Path) -> bool:
    """True when every folder above ``path`` may be entered by others, and it may be run."""
    if not os.stat(path).st_mode & stat.S_IXOTH:
        return False
    return all(os.stat(folder).st_mode & stat.S_IXOTH for folder in path.parents)


def pi_ask_as(
    uid: int,
    python: str,
    *args: str,
    env: Mapping[str, str],
    cwd: Path,
    stdin: str = "",
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """``pi-ask ARGS`` run by ``python`` (``other_user_python``) as ``uid``, in a session of
    its own with no terminal, as an agent runs it in the background; it ends when done."""
    return subprocess.run(
        [python, "-m", "pi_ask", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**other_user_env(), **env},
        cwd=cwd,
        user=uid,
        group=uid,
        extra_groups=[],
        start_new_session=True,
        timeout=timeout,
        check=False,
    )


def other_user_env() -> dict[str, str]:
    """What ``other_user_python`` needs to find pi-ask and its dependencies from here."""
    source = Path(pi_ask.__file__).resolve().parent.parent
    return {
        "PYTHONPATH": os.pathsep.join([str(source), sysconfig.get_path("purelib")]),
        "PYTHONNOUSERSITE": "1",
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
    }


def unused_uid(planted: str) -> int:
    """A uid nobody on this machine uses, whose ``planted.format(uid=...)`` path is free."""
    while True:
        uid = random.randint(200_000, 299_999)
        if not os.path.lexists(planted.format(uid=uid)):
            return uid


def victim_home(uid: int) -> Path:
    """A home folder owned by ``uid``, outside pytest's (root-only) temporary folder."""
    home = Path(tempfile.mkdtemp(prefix="pi-ask-victim-"))
    os.chown(home, uid, uid)
    return home


def plant(path: Path, how: str, leaf: str | None = None) -> Callable[[], object]:
    """What another user does to ``path`` first: ``how`` is ``"0755"``, ``"0777"`` (with the
    folder ``leaf`` inside, 0777, when given) or ``"symlink"`` to a 0777 folder of theirs."""

    def work() -> object:
        if how == "symlink":
            theirs = Path(tempfile.mkdtemp(prefix="pi-ask-planter-"))
            theirs.chmod(0o777)
            path.symlink_to(theirs)
        else:
            path.mkdir()
            path.chmod(0o755 if how == "0755" else 0o777)
            if leaf is not None:
                (path / leaf).mkdir()
                (path / leaf).chmod(0o777)
        return str(path)

    return work


def remove_planted(path: Path) -> None:
    """Take away what ``plant`` made (as root), whatever it was."""
    if path.is_symlink():
        shutil.rmtree(path.resolve(), ignore_errors=True)
        path.unlink()
    elif path.exists():
        shutil.rmtree(path)
