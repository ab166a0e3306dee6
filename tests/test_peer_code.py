"""The connection code two phones swap as QR codes (scorer/table/peer_code.py): what it keeps of an SDP, its
size, and what it refuses."""

from __future__ import annotations

import pytest
import segno

from scorer.table import peer_code
from scorer.table.peer_code import Candidate, PeerCodeError, expand, pack, parse_sdp, unpack

#: Headless Chromium's offer for a data channel with no ICE servers (captured on this machine): two mDNS
#: host candidates, as a phone's browser shows them.
CHROMIUM_OFFER = """v=0
o=- 1465395629437268075 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0
a=extmap-allow-mixed
a=msid-semantic: WMS
m=application 9 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 0.0.0.0
a=candidate:195781098 1 udp 2113937151 0d8f9a4c-e33b-49de-9b8e-5c213871a114.local 33742 typ host \
generation 0 network-cost 999
a=candidate:215551322 1 udp 2113942271 d52788ff-0b2d-47bd-a393-efc0780cdf9f.local 38946 typ host \
generation 0 network-cost 999
a=ice-ufrag:Z7Vz
a=ice-pwd:gnWncQgkVlgF3Z67LU8lgj7y
a=ice-options:trickle
a=fingerprint:sha-256 1C:41:1D:26:CA:0B:E9:A5:A8:07:65:37:19:53:99:2F:ED:A3:DB:A1:BE:82:C2:B4:AF:4A:1E:39:8B:BC:DB:8A
a=setup:actpass
a=mid:0
a=sctp-port:5000
a=max-message-size:262144
""".replace("\n", "\r\n")

#: An answer as another browser might write it: hex credentials of lengths that are not multiples of four,
#: IP addresses instead of mDNS names, candidates a local table does not need (TCP, reflexive, RTCP).
OTHER_ANSWER = """v=0
o=mozilla...THIS_IS_SDPARTA-99.0 1 0 IN IP4 0.0.0.0
s=-
t=0 0
a=fingerprint:sha-384 """ + ":".join(["AB"] * 48) + """
a=group:BUNDLE 0
m=application 9 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 0.0.0.0
a=candidate:0 1 UDP 2122252543 192.168.1.23 50123 typ host
a=candidate:1 1 UDP 2122187007 fe80::1c2b:3aff:fe4d:5e6f 50124 typ host
a=candidate:2 1 TCP 2105524479 192.168.1.23 9 typ host tcptype active
a=candidate:3 1 UDP 1686052863 203.0.113.7 50123 typ srflx raddr 192.168.1.23 rport 50123
a=candidate:4 2 UDP 2122252542 192.168.1.23 50125 typ host
a=candidate:5 1 UDP 2122252543 phone-7.lan 50126 typ host
a=ice-ufrag:9b1d2f3
a=ice-pwd:0123456789abcdef0123456789abcde
a=setup:active
a=mid:0
a=sctp-port:5000
"""


def test_a_chromium_offer_survives_the_round_trip_and_keeps_only_what_a_data_channel_needs():
    code = pack("offer", CHROMIUM_OFFER)
    kind, sdp = expand(code)
    assert kind == "offer"
    assert parse_sdp("offer", sdp) == parse_sdp("offer", CHROMIUM_OFFER)
    lines = sdp.split("\r\n")
    for line in ("a=ice-ufrag:Z7Vz", "a=ice-pwd:gnWncQgkVlgF3Z67LU8lgj7y", "a=setup:actpass", "a=mid:0",
                 "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
                 "a=fingerprint:sha-256 1C:41:1D:26:CA:0B:E9:A5:A8:07:65:37:19:53:99:2F:ED:A3:DB:A1:BE:82:C2:B4:AF:"
                 "4A:1E:39:8B:BC:DB:8A"):
        assert line in lines
    candidates = [line.split() for line in lines if line.startswith("a=candidate:")]
    assert [(c[4], c[5], c[7]) for c in candidates] == [
        ("0d8f9a4c-e33b-49de-9b8e-5c213871a114.local", "33742", "host"),
        ("d52788ff-0b2d-47bd-a393-efc0780cdf9f.local", "38946", "host")]
    # the order the browser listed them in is kept as falling priorities
    assert int(candidates[0][3]) > int(candidates[1][3])


def test_the_chromium_offer_fits_a_small_alphanumeric_qr_code():
    code = pack("offer", CHROMIUM_OFFER)
    assert len(code) <= 160 < len(CHROMIUM_OFFER) // 4
    qr = segno.make(code, error="m", micro=False)
    # alphanumeric mode (5.5 bits a character) and version 6 (41 × 41 modules) at error level M: a code a
    # phone's camera reads from a phone's screen across a table
    assert qr.mode == "alphanumeric"
    assert qr.version <= 6


def test_another_browsers_answer_keeps_its_udp_host_candidates_on_component_one():
    description = unpack(pack("answer", OTHER_ANSWER))
    assert (description.kind, description.setup) == ("answer", "active")
    assert (description.ice_ufrag, description.ice_pwd) == ("9b1d2f3", "0123456789abcdef0123456789abcde")
    assert description.fingerprint_algorithm == "sha-384"
    assert description.fingerprint == bytes([0xAB] * 48)
    assert description.candidates == (Candidate("192.168.1.23", 50123), Candidate("fe80::1c2b:3aff:fe4d:5e6f", 50124),
                                      Candidate("phone-7.lan", 50126))


def test_a_code_is_deflated_only_when_that_makes_it_shorter():
    # repeated host names compress; Chromium's random mDNS names and keys do not
    names = "\r\n".join(f"a=candidate:{i} 1 udp 2122252543 tourpad-table-phone.home.lan {50000 + i} typ host"
                        for i in range(6))
    sdp = OTHER_ANSWER.replace("a=ice-ufrag:", names + "\r\na=ice-ufrag:")
    deflated = pack("answer", sdp)
    assert peer_code.base45_decode(deflated[len(peer_code.PREFIX):])[0] == peer_code.STORED_DEFLATED
    assert len(deflated) < len(peer_code.PREFIX) + len(peer_code.base45_encode(
        b"\0" + peer_code.to_bytes(parse_sdp("answer", sdp)) + b"\0"))
    assert unpack(deflated) == parse_sdp("answer", sdp)
    plain = pack("offer", CHROMIUM_OFFER)
    assert peer_code.base45_decode(plain[len(peer_code.PREFIX):])[0] == peer_code.STORED_PLAIN


@pytest.mark.parametrize(("data", "text"), [(b"AB", "BB8"), (b"Hello!!", "%69 VD92EX0"), (b"base-45", "UJCLQE7W581"),
                                             (b"ietf!", "QED8WEX0"), (b"", "")])
def test_base45_is_rfc_9285s(data, text):
    assert peer_code.base45_encode(data) == text
    assert peer_code.base45_decode(text) == data


@pytest.mark.parametrize("scanned", [
    "tp:europe:A",                                     # a card's code
    "https://192.168.1.5:8000/join/ABCD",             # a join link
    "",
])
def test_a_code_that_is_no_connection_code_is_refused_by_name(scanned):
    with pytest.raises(PeerCodeError, match="not a tourpad table's connection code"):
        unpack(scanned)


def test_a_damaged_or_later_code_is_refused_with_a_request_to_scan_again():
    code = pack("offer", CHROMIUM_OFFER)
    damaged = [
        code[:-6],                                    # cut short
        code + "000",                                 # bytes after the end
        code[:20] + ("0" if code[20] != "0" else "1") + code[21:],  # one character pasted wrong
        code[:-1] + "a",                              # a character QR's alphanumeric mode has not
        "TPC2:" + code[len(peer_code.PREFIX):],       # a later tourpad's format
        peer_code.PREFIX + "::::::",                  # base45 past two bytes' range
    ]
    for text in damaged:
        with pytest.raises(PeerCodeError, match="damaged or from another version"):
            unpack(text)


@pytest.mark.parametrize(("drop", "message"), [
    ("a=fingerprint:", "has no fingerprint"),
    ("a=ice-pwd:", "has no ice-pwd"),
    ("a=setup:", "has no setup"),
])
def test_an_sdp_missing_a_part_a_data_channel_needs_is_refused(drop, message):
    sdp = "\r\n".join(line for line in CHROMIUM_OFFER.split("\r\n") if not line.startswith(drop))
    with pytest.raises(PeerCodeError, match=message):
        pack("offer", sdp)


def test_an_sdp_with_parts_no_browser_makes_is_refused():
    with pytest.raises(PeerCodeError, match="fingerprint is not one"):
        pack("offer", CHROMIUM_OFFER.replace("sha-256 1C:41", "sha-256 41"))
    with pytest.raises(PeerCodeError, match="ICE credentials"):
        pack("offer", CHROMIUM_OFFER.replace("a=ice-pwd:gnWnc", "a=ice-pwd:gn nc"))
    with pytest.raises(PeerCodeError, match="setup role"):
        pack("offer", CHROMIUM_OFFER.replace("a=setup:actpass", "a=setup:holdconn"))
    with pytest.raises(PeerCodeError, match="offer or an answer"):
        pack("pranswer", CHROMIUM_OFFER)
