"""The links the host's QR codes carry: what the host prints and shows is what the app recognises (that the
QR images decode to these links: tests/test_table_api.py)."""

from __future__ import annotations

from urllib.parse import urlsplit

from hypothesis import given
from hypothesis import strategies as st

from scorer.table.host import JOIN_LINK, SEAT_LINK, join_link, seat_link
from scorer.table.service import format_code, new_token

URL = "http://192.168.1.23:8550/"
CODES = st.text("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", min_size=8, max_size=8).map(format_code)


@given(CODES)
def test_a_join_link_is_recognised_with_its_code(code):
    link = join_link(URL, code)
    assert JOIN_LINK.match(urlsplit(link).path).group(1) == code
    assert not SEAT_LINK.match(urlsplit(link).path)


@given(CODES, st.builds(new_token))
def test_a_seat_link_is_recognised_with_its_code_and_token(code, token):
    match = SEAT_LINK.match(urlsplit(seat_link(URL, code, token)).path)
    assert match is not None and match.groups() == (code, token)

