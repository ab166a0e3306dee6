"""The host credential: what makes a device the host of `tourpad host` (creating tables, host links).

Generated once, kept in the data folder readable by its owner only (0600), and reused across restarts,
so the host link a second device saved keeps working. Players never see it: they join with a code.
Deleting the file (or `tourpad host --new-host-credential`) makes a new one; tables made with the old
one are then no longer the host's own (the host's screen does not resume them).
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

FILE_NAME = "host-credential"
#: 192 random bits, URL-safe base64 (32 characters): a host link carries it.
CREDENTIAL = re.compile(r"^[A-Za-z0-9_-]{32}$")


def credential_path(data_folder: Path) -> Path:
    return data_folder / FILE_NAME


def read_credential(data_folder: Path) -> str | None:
    """The stored credential, or None when there is none (or the file is not one)."""
    try:
        text = credential_path(data_folder).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if CREDENTIAL.match(text) else None


def new_credential() -> str:
    """192 random bits, URL-safe: 32 characters, the shape of the host link's route."""
    return secrets.token_urlsafe(24)


def load_or_create(data_folder: Path, renew: bool = False) -> str:
    """The host credential of this data folder, made (0600) when missing, unreadable or `renew`."""
    path = credential_path(data_folder)
    existing = None if renew else read_credential(data_folder)
    if existing is not None:
        if path.stat().st_mode & 0o077:  # copied in with loose permissions: tighten them
            path.chmod(0o600)
        return existing
    data_folder.mkdir(parents=True, exist_ok=True)
    credential = new_credential()
    partial = path.with_name(path.name + ".new")
    partial.unlink(missing_ok=True)
    # Created 0600 from the start (no moment where another user could read it), then renamed into place.
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(credential + "\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)
    return credential
