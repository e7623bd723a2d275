"""A small freedesktop notification service for tests: ``python notification_service.py LOG``.

It owns ``org.freedesktop.Notifications`` on the session bus named by
``DBUS_SESSION_BUS_ADDRESS``, appends each ``Notify`` call to LOG as one JSON line, and
prints ``ready`` once the name is its own.
"""

import asyncio
import json
import sys
from pathlib import Path
from typing import Annotated

from dbus_fast import Variant
from dbus_fast.aio import MessageBus
from dbus_fast.annotations import DBusSignature
from dbus_fast.service import ServiceInterface, dbus_method, dbus_signal

Str = Annotated[str, DBusSignature("s")]
UInt = Annotated[int, DBusSignature("u")]
Int = Annotated[int, DBusSignature("i")]
Strings = Annotated[list[str], DBusSignature("as")]
Hints = Annotated[dict[str, Variant], DBusSignature("a{sv}")]
Info = Annotated[list[str], DBusSignature("(ssss)")]


class Notifications(ServiceInterface):
    """The methods and signals of org.freedesktop.Notifications, under their D-Bus names."""

    def __init__(self, log: Path) -> None:
        super().__init__("org.freedesktop.Notifications")
        self._log = log
        self._next = 0

    @dbus_method()
    def Notify(
        self,
        app_name: Str,
        replaces_id: UInt,
        app_icon: Str,
        summary: Str,
        body: Str,
        actions: Strings,
        hints: Hints,
        expire_timeout: Int,
    ) -> UInt:
        self._next += 1
        record = {"app_name": app_name, "summary": summary, "body": body, "icon": app_icon}
        with self._log.open("a", encoding="utf-8") as log:
            log.write(json.dumps(record) + "\n")
        return self._next

    @dbus_method()
    def GetCapabilities(self) -> Strings:
        return ["body"]

    @dbus_method()
    def GetServerInformation(self) -> Info:
        return ["pi-ask-test", "pi-ask", "1", "1.2"]

    @dbus_method()
    def CloseNotification(self, identifier: UInt) -> None:
        del identifier

    @dbus_signal()
    def NotificationClosed(self) -> Annotated[list[int], DBusSignature("uu")]:
        return [0, 0]

    @dbus_signal()
    def ActionInvoked(self) -> Annotated[list[object], DBusSignature("us")]:
        return [0, ""]


async def main(log: Path) -> None:
    bus = await MessageBus().connect()
    bus.export("/org/freedesktop/Notifications", Notifications(log))
    await bus.request_name("org.freedesktop.Notifications")
    print("ready", flush=True)
    await bus.wait_for_disconnect()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
