"""The host's place on the local network, as the app's screens need it: its address, the QR codes of its
links, and whether a session comes from the host's own device. No server libraries here (the app's screens
import this; they also run in the browser)."""

from __future__ import annotations

import io
import ipaddress
import socket

from scorer.table.service import TableService


def lan_address() -> str:
    """This machine's address on the local network (the interface of its default route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))  # UDP connect sends nothing; it only picks the interface
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def reachable_address(bind: str) -> str:
    """The address phones use: the LAN address when listening on every interface, else the one bound."""
    return lan_address() if bind in ("0.0.0.0", "") else bind


def join_url(bind: str, port: int, https: bool = False) -> str:
    return f"{'https' if https else 'http'}://{reachable_address(bind)}:{port}/"


def qr_terminal(url: str) -> str:
    out = io.StringIO()
    import segno  # imported when a code is drawn: segno brings urllib and email, slow in the web app's start

    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def qr_png(url: str, scale: int = 8) -> bytes:
    """The QR code as PNG bytes (for an image control on the host's screen)."""
    out = io.BytesIO()
    import segno

    segno.make(url, error="m").save(out, kind="png", scale=scale, border=2)
    return out.getvalue()


def is_local_client(address: str | None) -> bool:
    """A session from this machine itself (loopback, or its own network address: the kernel refuses
    packets from the network that claim to come from it): the host's own device, given the credential
    server-side. Phones on the network never have these addresses."""
    try:
        return address is not None and (ipaddress.ip_address(address).is_loopback or address == lan_address())
    except ValueError:
        return False


def session_credential(service: TableService, client_address: str | None) -> str | None:
    """The host credential for a session of the host's own device (the app's "Host a table"), else None."""
    return service.host_credential if is_local_client(client_address) else None
