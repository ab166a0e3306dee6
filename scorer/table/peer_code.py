"""The connection description two phones swap as QR codes to open a WebRTC data channel, with no server.

A browser's offer or answer (SDP) is 700-odd characters, most of it lines every data channel has alike. What
differs from one phone to the next is little: the ICE user fragment and password, the DTLS certificate's
fingerprint, the setup role, and the phone's host candidates (its addresses, as mDNS `.local` names or IPs,
and ports). `pack` keeps only those, in bytes (a `.local` name is a UUID: 16 bytes; a fingerprint 32), deflates
them when that is shorter, and spells the result in base45 (RFC 9285): exactly QR's alphanumeric alphabet,
5.5 bits a character, so the code stays small enough for a phone's camera to read from across a table.
`expand` makes a full SDP the browser accepts again from it.

Only UDP host candidates are kept: the phones are on one local network, with no STUN or TURN server (and no
internet). Pure Python (the web app's worker runs it): the page hands the browser's SDP to Python and back.
"""

from __future__ import annotations

import base64
import ipaddress
import re
import uuid
import zlib
from dataclasses import dataclass

from scorer.locale import _

#: Starts every connection code: tells it apart from a card's code (`tp:…`) and a join link; the digit is the
#: format's version, so a code from a later tourpad is refused with a clear message, not misread.
PREFIX = "TPC1:"
#: What a code describes: the host's offer, a guest's answer, or the answer of a board (a TV or tablet that only
#: shows the table: the host phone's link to it refuses every seat and save). A board's answer is an answer to
#: the browser; the kind only tells the host phone which role the channel gets.
KINDS = ("offer", "answer", "board")
SETUP_ROLES = ("actpass", "active", "passive")
#: The fingerprint algorithms a browser may use (RFC 8122), with their digests' sizes in bytes.
FINGERPRINT_ALGORITHMS = {"sha-1": 20, "sha-224": 28, "sha-256": 32, "sha-384": 48, "sha-512": 64}
BASE45 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
#: How each candidate's address is kept: an IPv4 or IPv6 address, or the random `<uuid>.local` name a browser
#: shows instead of its IP (mDNS), or any other host name, spelled out.
ADDRESS_IPV4, ADDRESS_IPV6, ADDRESS_MDNS, ADDRESS_NAME = range(4)
#: The first byte after the prefix: how the rest is stored.
STORED_PLAIN, STORED_DEFLATED = 0, 1
#: A field longer than this is no description a browser makes (ICE allows 256 characters; browsers use 4-32).
MAX_FIELD = 127
MAX_CANDIDATES = 8

_ICE_CHARS = re.compile(r"^[A-Za-z0-9+/]+$")
_MDNS = re.compile(r"^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.local$")
_HOST_NAME = re.compile(r"^[A-Za-z0-9.-]{1,127}$")


class PeerCodeError(ValueError):
    """A description that cannot be packed, or a scanned text that is no connection code; the message says why."""


@dataclass(frozen=True)
class Candidate:
    address: str
    port: int


@dataclass(frozen=True)
class Description:
    """What a data channel needs of an offer or answer."""

    kind: str  # "offer", "answer" or "board" (a read-only board's answer)
    setup: str  # the DTLS role: "actpass" (an offer), "active" or "passive" (an answer)
    ice_ufrag: str
    ice_pwd: str
    fingerprint_algorithm: str
    fingerprint: bytes
    candidates: tuple[Candidate, ...]


# --- SDP ------------------------------------------------------------------------------------------------------


def parse_sdp(kind: str, sdp: str) -> Description:
    """The parts of a browser's SDP a data channel needs; PeerCodeError if one is missing."""
    if kind not in KINDS:
        raise PeerCodeError(_("a connection is described by an offer or an answer, not {kind!r}").format(kind=kind))
    attributes: dict[str, str] = {}
    candidates: list[Candidate] = []
    for line in sdp.splitlines():
        if not line.startswith("a="):
            continue
        name, _sep, value = line[2:].partition(":")
        if name == "candidate":
            candidate = _host_candidate(value)
            if candidate and candidate not in candidates:
                candidates.append(candidate)
        else:
            attributes.setdefault(name, value.strip())
    missing = [name for name in ("ice-ufrag", "ice-pwd", "fingerprint", "setup") if name not in attributes]
    if missing:
        raise PeerCodeError(_("the connection description has no {field}").format(field=missing[0]))
    algorithm, _sep, digest = attributes["fingerprint"].partition(" ")
    try:
        fingerprint = bytes.fromhex(digest.replace(":", ""))
    except ValueError:
        fingerprint = b""
    if FINGERPRINT_ALGORITHMS.get(algorithm.lower()) != len(fingerprint):
        raise PeerCodeError(_("the connection description's fingerprint is not one a browser makes"))
    if attributes["setup"] not in SETUP_ROLES:
        raise PeerCodeError(_("the connection description's setup role is not one a browser makes"))
    return Description(kind, attributes["setup"], attributes["ice-ufrag"], attributes["ice-pwd"], algorithm.lower(),
                       fingerprint, tuple(candidates[:MAX_CANDIDATES]))


def _host_candidate(value: str) -> Candidate | None:
    """A UDP host candidate's address and port (`foundation component udp priority address port typ host …`);
    None for any other (TCP, server-reflexive, relayed: a table on one network needs none of them)."""
    fields = value.split()
    if len(fields) < 8 or fields[2].lower() != "udp" or fields[6:8] != ["typ", "host"] or not fields[5].isdigit():
        return None
    if fields[1] != "1":  # a data channel bundles everything on component 1
        return None
    return Candidate(fields[4], int(fields[5]))


def to_sdp(description: Description) -> str:
    """A full SDP the browser takes as the remote description: the same lines every browser's data channel has,
    with this description's parts."""
    d = description
    lines = [
        "v=0",
        "o=- 0 2 IN IP4 127.0.0.1",  # the session id and origin are never compared
        "s=-",
        "t=0 0",
        "a=group:BUNDLE 0",
        "a=msid-semantic: WMS",
        "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
        "c=IN IP4 0.0.0.0",
    ]
    # Host candidates' priorities: type preference 126 (host), falling local preference by the order the
    # browser listed them, component 1 (RFC 8445 §5.1.2.1): the remote side tries them in that order.
    lines += [f"a=candidate:{i + 1} 1 udp {(126 << 24) | ((65535 - i) << 8) | 255} {c.address} {c.port} typ host"
              for i, c in enumerate(d.candidates)]
    if d.candidates:
        lines.append("a=end-of-candidates")
    lines += [
        f"a=ice-ufrag:{d.ice_ufrag}",
        f"a=ice-pwd:{d.ice_pwd}",
        f"a=fingerprint:{d.fingerprint_algorithm} " + ":".join(f"{b:02X}" for b in d.fingerprint),
        f"a=setup:{d.setup}",
        "a=mid:0",
        "a=sctp-port:5000",
        "a=max-message-size:262144",
    ]
    return "\r\n".join(lines) + "\r\n"


# --- bytes ----------------------------------------------------------------------------------------------------


def to_bytes(description: Description) -> bytes:
    """The description in as few bytes as its parts allow (see the module's docstring); PeerCodeError if a
    part could not be stored (no browser makes such a description)."""
    d = description
    out = bytearray([KINDS.index(d.kind) << 4 | SETUP_ROLES.index(d.setup)])
    out += _ice_field(d.ice_ufrag) + _ice_field(d.ice_pwd)
    out.append(list(FINGERPRINT_ALGORITHMS).index(d.fingerprint_algorithm))
    out += d.fingerprint
    out.append(len(d.candidates))
    for candidate in d.candidates:
        out += _address(candidate.address) + candidate.port.to_bytes(2, "big")
    return bytes(out)


def _ice_field(text: str) -> bytes:
    """An ICE ufrag or password: its characters are base64's, so four of them are three bytes (the length's top
    bit says so); any other length is kept as it is."""
    if not _ICE_CHARS.match(text) or len(text) > MAX_FIELD:
        raise PeerCodeError(_("the connection description's ICE credentials are not ones a browser makes"))
    if len(text) % 4 == 0:
        data = base64.b64decode(text, validate=True)
        return bytes([0x80 | len(data)]) + data
    return bytes([len(text)]) + text.encode("ascii")


def _address(address: str) -> bytes:
    mdns = _MDNS.match(address.lower())
    if mdns:
        return bytes([ADDRESS_MDNS]) + uuid.UUID(mdns.group(1)).bytes
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        if not _HOST_NAME.match(address):
            raise PeerCodeError(_("a connection candidate's address is not one a browser makes")) from None
        return bytes([ADDRESS_NAME, len(address)]) + address.encode("ascii")
    return bytes([ADDRESS_IPV4 if ip.version == 4 else ADDRESS_IPV6]) + ip.packed


class _Reader:
    """Reads the packed bytes in order; any shortfall or stray value is one PeerCodeError."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise _damaged()
        self.at += n
        return self.data[self.at - n:self.at]

    def byte(self) -> int:
        return self.take(1)[0]

    def ice_field(self) -> str:
        head = self.byte()
        data = self.take(head & 0x7F)
        text = base64.b64encode(data).decode("ascii") if head & 0x80 else data.decode("ascii", "replace")
        if not text or not _ICE_CHARS.match(text):
            raise _damaged()
        return text

    def address(self) -> str:
        kind = self.byte()
        if kind == ADDRESS_MDNS:
            return f"{uuid.UUID(bytes=self.take(16))}.local"
        if kind == ADDRESS_IPV4:
            return str(ipaddress.IPv4Address(self.take(4)))
        if kind == ADDRESS_IPV6:
            return str(ipaddress.IPv6Address(self.take(16)))
        if kind == ADDRESS_NAME:
            name = self.take(self.byte()).decode("ascii", "replace")
            if _HOST_NAME.match(name):
                return name
        raise _damaged()


def from_bytes(data: bytes) -> Description:
    read = _Reader(data)
    head = read.byte()
    if head >> 4 >= len(KINDS) or head & 0x0F >= len(SETUP_ROLES):
        raise _damaged()
    ufrag, pwd = read.ice_field(), read.ice_field()
    algorithms = list(FINGERPRINT_ALGORITHMS.items())
    index = read.byte()
    if index >= len(algorithms):
        raise _damaged()
    algorithm, size = algorithms[index]
    fingerprint = read.take(size)
    count = read.byte()
    if count > MAX_CANDIDATES:
        raise _damaged()
    candidates = tuple(Candidate(read.address(), int.from_bytes(read.take(2), "big")) for _ in range(count))
    if read.at != len(data):
        raise _damaged()
    return Description(KINDS[head >> 4], SETUP_ROLES[head & 0x0F], ufrag, pwd, algorithm, fingerprint, candidates)


def _damaged() -> PeerCodeError:
    return PeerCodeError(_("this connection code is damaged or from another version of tourpad: scan it again"))


# --- text (a QR code's) ---------------------------------------------------------------------------------------


def base45_encode(data: bytes) -> str:
    """RFC 9285: every two bytes as three characters of QR's alphanumeric alphabet, a last odd byte as two."""
    out = []
    for i in range(0, len(data) - 1, 2):
        n = data[i] * 256 + data[i + 1]
        out += [BASE45[n % 45], BASE45[n // 45 % 45], BASE45[n // 2025]]
    if len(data) % 2:
        out += [BASE45[data[-1] % 45], BASE45[data[-1] // 45]]
    return "".join(out)


def base45_decode(text: str) -> bytes:
    if len(text) % 3 == 1 or any(c not in BASE45 for c in text):
        raise _damaged()
    values = [BASE45.index(c) for c in text]
    out = bytearray()
    for i in range(0, len(values), 3):
        chunk = values[i:i + 3]
        n = sum(v * 45 ** k for k, v in enumerate(chunk))
        if (len(chunk) == 3 and n > 0xFFFF) or (len(chunk) == 2 and n > 0xFF):
            raise _damaged()
        out += n.to_bytes(len(chunk) - 1, "big")
    return bytes(out)


def pack(kind: str, sdp: str) -> str:
    """The QR code's text for a browser's offer or answer: `PREFIX` and the description's bytes, deflated if
    that is shorter, and a check byte, in base45."""
    plain = to_bytes(parse_sdp(kind, sdp))
    squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate: no header or checksum to pay for
    deflated = squeezer.compress(plain) + squeezer.flush()
    stored = bytes([STORED_DEFLATED]) + deflated if len(deflated) < len(plain) else bytes([STORED_PLAIN]) + plain
    return PREFIX + base45_encode(stored + _check(stored))


def _check(stored: bytes) -> bytes:
    """One byte of the bytes' CRC-32: a camera's read is already checked by the QR code's own error correction,
    this catches a code pasted or typed wrong (255 times in 256) before it becomes a connection that never opens."""
    return bytes([zlib.crc32(stored) & 0xFF])


def unpack(text: str) -> Description:
    """The description a scanned connection code carries; PeerCodeError if the text is not one."""
    text = text.strip()
    if not text.startswith(PREFIX):
        if text[:3].upper() == PREFIX[:3]:
            raise _damaged()
        raise PeerCodeError(_("this code is not a tourpad table's connection code"))
    checked = base45_decode(text[len(PREFIX):])
    stored = checked[:-1]
    if not stored or checked[-1:] != _check(stored) or stored[0] not in (STORED_PLAIN, STORED_DEFLATED):
        raise _damaged()
    data = stored[1:]
    if stored[0] == STORED_DEFLATED:
        try:
            inflater = zlib.decompressobj(-15)
            data = inflater.decompress(data, 4096)
        except zlib.error:
            raise _damaged() from None
        if not inflater.eof:
            raise _damaged()
    return from_bytes(data)


def expand(text: str) -> tuple[str, str]:
    """(kind, SDP) of a scanned connection code: what the page hands the browser as the remote description."""
    description = unpack(text)
    return description.kind, to_sdp(description)
