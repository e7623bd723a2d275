"""Run ``pi-ask mcp`` with a controlling terminal it must never touch, and say if it did.

argv: LOG_FILE, then ``pi-ask`` arguments. The process takes a fresh pseudo-terminal as its
controlling terminal (so ``/dev/tty`` would open), records every ``open`` of ``/dev/tty`` or of
that terminal through an audit hook, and at exit writes how many bytes reached the terminal.
Standard input and output stay the pipes the MCP client gave it.
"""

from __future__ import annotations

import fcntl
import os
import pty
import sys
import termios


def main() -> int:
    log = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    master, slave = pty.openpty()
    slave_name = os.ttyname(slave)
    if os.getsid(0) != os.getpid():
        os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    os.close(slave)
    probe = os.open("/dev/tty", os.O_RDWR)  # the terminal is really there
    os.close(probe)
    os.write(log, b"terminal ready\n")
    watched = {"/dev/tty", slave_name}

    def hook(event: str, args: tuple[object, ...]) -> None:
        if event == "open" and args and str(args[0]) in watched:
            os.write(log, f"opened {args[0]}\n".encode())

    sys.addaudithook(hook)
    from pi_ask.cli.main import main as pi_ask

    try:
        return pi_ask(sys.argv[2:])
    finally:
        os.set_blocking(master, False)
        drawn = 0
        try:
            while chunk := os.read(master, 65536):
                drawn += len(chunk)
        except (BlockingIOError, OSError):
            pass
        os.write(log, f"drawn {drawn}\n".encode())


if __name__ == "__main__":
    sys.exit(main())
