"""The machine on the room's network, for ``duplitarot serve`` and ``manage.py demo --lan``.

A laptop serving on all its addresses (0.0.0.0) must tell the organiser which address phones on
the room's Wi-Fi should open, and print it in the QR codes of the table cards
(``settings.DUPLITAROT_PUBLIC_URL``). The address (:func:`lan_address`) is the one the system
would send from towards another network (a UDP socket "connected" to a documentation address:
no packet is sent), else a non-loopback address of the host name.

An address given by the room's router may change next week; the laptop's multicast-DNS name
(``<name>.local``, answered by macOS, Windows 10 and later, and Linux with Avahi, resolved by
iOS, macOS, Windows and Android 12 and later) does not: :func:`mdns_name` returns it when this
machine resolves it to one of its own addresses on the network.

Nothing here is POSIX-only: the serve command runs on Windows too.
"""

from __future__ import annotations

import errno
import ipaddress
import socket
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

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


def local_addresses() -> set[str]:
    """This machine's usable IPv4 addresses (the LAN address and the host name's)."""
    found: set[str] = set()
    address = lan_address()
    if address:
        found.add(address)
    try:
        _name, _aliases, addresses = socket.gethostbyname_ex(socket.gethostname())
    except OSError:
        addresses = []
    found.update(a for a in addresses if _usable(a))
    return found


def hostname_label() -> str:
    """The first label of this machine's name, as multicast DNS announces it ("" if none)."""
    return socket.gethostname().split(".", 1)[0].strip().lower()


def mdns_name(lan: str | None, timeout: float = 3.0) -> str | None:
    """``<host>.local`` when it resolves to ``lan`` (this machine's address on the room's
    network), None otherwise (no mDNS responder, or a name that other machines would not
    reach)."""
    label = hostname_label()
    if not lan or not label or label == "localhost":
        return None
    name = f"{label}.local"
    # A resolver without multicast DNS may ask the network's DNS server and wait for it: never
    # more than a few seconds at start.
    pool = ThreadPoolExecutor(max_workers=1)
    lookup = pool.submit(socket.getaddrinfo, name, None, socket.AF_INET, socket.SOCK_STREAM)
    pool.shutdown(wait=False)
    try:
        infos = lookup.result(timeout=timeout)
    except (OSError, UnicodeError, FutureTimeout):
        return None
    return name if any(info[4][0] == lan for info in infos) else None


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
