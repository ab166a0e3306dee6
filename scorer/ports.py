"""Local TCP ports: is one free, and one the system picks (the app's web view, the table benchmark)."""

from __future__ import annotations

import socket


def port_free(host: str, port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]
