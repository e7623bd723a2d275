"""A small freedesktop notification service for tests: ``python notification_service.py LOG
[xfce]``.

It owns ``org.freedesktop.Notifications`` on the session bus named by
``DBUS_SESSION_BUS_ADDRESS``, appends each ``Notify`` call to LOG as one JSON line, and
prints ``ready`` once the name is its own. Its ``Click`` / ``Dismiss`` methods stand for the
user: they emit ``ActionInvoked`` (a click is the "default" action) / ``NotificationClosed``.
With ``xfce`` it calls itself the Xfce daemon, which desktop-notifier knows reports no click.
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

    def __init__(self, log: Path, name: str) -> None:
        super().__init__("org.freedesktop.Notifications")
        self._log = log
        self._name = name
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
        if actions:
            record["actions"] = actions
        with self._log.open("a", encoding="utf-8") as log:
            log.write(json.dumps(record) + "\n")
        return self._next

    @dbus_method()
    def GetCapabilities(self) -> Strings:
        return ["body", "actions"]

    @dbus_method()
    def GetServerInformation(self) -> Info:
        return [self._name, "pi-ask", "1", "1.2"]

    @dbus_method()
    def CloseNotification(self, identifier: UInt) -> None:
        del identifier

    @dbus_method()
    def Click(self, identifier: UInt) -> None:
        self.ActionInvoked(identifier, "default")

    @dbus_method()
    def Dismiss(self, identifier: UInt) -> None:
        self.NotificationClosed(identifier, 2)  # 2: dismissed by the user

    @dbus_signal()
    def NotificationClosed(
        self, identifier: int = 0, reason: int = 0
    ) -> Annotated[list[int], DBusSignature("uu")]:
        return [identifier, reason]

    @dbus_signal()
    def ActionInvoked(
        self, identifier: int = 0, key: str = ""
    ) -> Annotated[list[object], DBusSignature("us")]:
        return [identifier, key]


async def call(address: str, method: str, identifier: int) -> None:
    """Call ``method`` (Click, Dismiss) of the service on the bus at ``address``."""
    from dbus_fast import Message

    bus = await MessageBus(address).connect()
    try:
        await bus.call(
            Message(
                destination="org.freedesktop.Notifications",
                path="/org/freedesktop/Notifications",
                interface="org.freedesktop.Notifications",
                member=method,
                signature="u",
                body=[identifier],
            )
        )
    finally:
        bus.disconnect()


async def main(log: Path, name: str) -> None:
    bus = await MessageBus().connect()
    bus.export("/org/freedesktop/Notifications", Notifications(log, name))
    await bus.request_name("org.freedesktop.Notifications")
    print("ready", flush=True)
    await bus.wait_for_disconnect()


if __name__ == "__main__":
    xfce = sys.argv[2:] == ["xfce"]
    asyncio.run(main(Path(sys.argv[1]), "Xfce Notify Daemon" if xfce else "pi-ask-test"))
