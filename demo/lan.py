"""The machine's address on the room's network, for ``manage.py demo --lan``.

A laptop serving the demo on all its addresses (0.0.0.0) must tell the organiser which address
phones on the room's Wi-Fi should open, and print that address in the QR codes of the table
cards (``settings.DUPLITAROT_PUBLIC_URL``). The address is the one the system would send from
towards another network (a UDP socket "connected" to a documentation address: no packet is
sent), else a non-loopback address of the host name.
"""

from __future__ import annotations

import errno
import ipaddress
import socket

#: TEST-NET-1 (RFC 5737): never routed; connecting a UDP socket to it only picks a route.
_PROBE = ("192.0.2.1", 9)


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def lan_address() -> str | None:
    """This machine's IPv4 address on its local network, None when it has none."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            address = str(probe.getsockname()[0])
        if _usable(address):
            return address
    except OSError:
        pass  # no route at all: try the host name's addresses
    try:
        _name, _aliases, addresses = socket.gethostbyname_ex(socket.gethostname())
    except OSError:
        return None
    return next((a for a in addresses if _usable(a)), None)


def bind_problem(host: str, port: int) -> str | None:
    """Why a server could not listen on ``host``:``port`` ("already in use", or the system's
    reason), None when it can."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # As the development server binds (SO_REUSEADDR): only a listening socket blocks it.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return "already in use"
            return error.strerror or str(error)
    return None
