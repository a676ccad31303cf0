"""The processes a command started and the TCP ports they listen on, read from ``/proc``.

``workers.reaper`` walks the same process tree; the tests check its result
against what they know must be there (the raylet, the agents...), so an empty
walk cannot pass for a clean one.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import struct
import time
from dataclasses import dataclass
from pathlib import Path

from workers.reaper import ProcessKey, alive, descendants

PROC = Path("/proc")


@dataclass(frozen=True)
class Listener:
    """A listening TCP socket and the process holding it."""

    pid: int
    process: str
    address: str
    port: int

    @property
    def loopback(self) -> bool:
        """Whether only this machine can connect (127.0.0.0/8, ::1, or an IPv4-mapped loopback)."""
        address = ipaddress.ip_address(self.address)
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return address.is_loopback


def command_line(pid: int) -> str:
    """The process's command line (Ray renames its workers and agents ``ray::...``), or '' once gone."""
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def tree(root: int) -> set[ProcessKey]:
    """``root``'s live descendants."""
    return descendants({root})


def _listening_sockets() -> dict[int, tuple[str, int]]:
    """Socket inode -> (address, port) of every listening TCP socket on the machine."""
    found = {}
    for table, family in (("tcp", socket.AF_INET), ("tcp6", socket.AF_INET6)):
        for line in (PROC / "net" / table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] != "0A":  # TCP_LISTEN
                continue
            hexadecimal, port = fields[1].split(":")
            raw = bytes.fromhex(hexadecimal)
            # /proc prints each 32-bit word of the address in host (little-endian) order.
            packed = b"".join(struct.pack("<I", struct.unpack(">I", raw[index:index + 4])[0])
                              for index in range(0, len(raw), 4))
            found[int(fields[9])] = (socket.inet_ntop(family, packed), int(port, 16))
    return found


def listeners(pids: set[int]) -> list[Listener]:
    """The listening TCP sockets held by ``pids``."""
    sockets = _listening_sockets()
    found = []
    for pid in sorted(pids):
        try:
            descriptors = os.listdir(PROC / str(pid) / "fd")
        except OSError:
            continue
        name = command_line(pid)
        for descriptor in descriptors:
            try:
                target = os.readlink(PROC / str(pid) / "fd" / descriptor)
            except OSError:
                continue
            if target.startswith("socket:[") and int(target[8:-1]) in sockets:
                address, port = sockets[int(target[8:-1])]
                found.append(Listener(pid, name, address, port))
    return found


def wait_until_gone(keys: set[ProcessKey], timeout: float) -> set[ProcessKey]:
    """Wait up to ``timeout`` seconds for ``keys`` to exit; those still alive then."""
    deadline = time.monotonic() + timeout
    remaining = alive(keys)
    while remaining and time.monotonic() < deadline:
        time.sleep(0.1)
        remaining = alive(remaining)
    return remaining
