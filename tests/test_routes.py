"""The app's URLs (scorer/routes.py): every screen's route formats and parses back to the same screen and
params, bad paths are refused, parents make the Back chain, and the table's QR links are routes."""

from __future__ import annotations

import subprocess
import sys
from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.routes import (
    BY_SCREEN,
    PARAMS,
    ROUTES,
    RouteError,
    chain,
    format_route,
    host_link,
    join_link,
    normalise,
    parent,
    parse,
    seat_link,
)
from scorer.table.credential import new_credential
from scorer.table.service import format_code, new_token

URL = "http://192.168.1.23:8550/"
CODES = st.text("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", min_size=8, max_size=8).map(format_code)
SCREEN_VALUES = {  # what a screen receives for each URL param
    "game_id": st.integers(1, 10**12),
    "round_index": st.integers(0, 3),
    "player": st.integers(0, 3),
    "seat": st.integers(1, 4),
    "code": CODES,
    "token": st.builds(new_token),
    "credential": st.builds(new_credential),
    "edition": st.from_regex(r"[a-z0-9][a-z0-9_-]{0,63}", fullmatch=True),
    "deck_code": st.from_regex(r"[A-Za-z0-9_-]{8,3000}", fullmatch=True),
}


@st.composite
def screens_and_params(draw):
    route = draw(st.sampled_from(ROUTES))
    return route.screen, {key: draw(SCREEN_VALUES[key]) for key in route.keys}


@given(screens_and_params())
def test_every_route_round_trips(screen_and_params):
    screen, params = screen_and_params
    path = format_route(screen, **params)
    assert parse(path) == (screen, params)
    assert parse(path + "/") == (screen, params)  # a trailing slash is the same screen
    assert parse(f"{path}?utm=x#top") == (screen, params)  # a query or fragment is ignored


def test_urls_count_from_one_and_screens_from_zero():
    assert format_route("entry", game_id=3, round_index=1, player=0) == "/game/3/round/2/player/1"
    assert parse("/game/3/round/2/player/1") == ("entry", {"game_id": 3, "round_index": 1, "player": 0})
    assert parse("/game/3/round/4") == ("round_summary", {"game_id": 3, "round_index": 3})
    assert parse("/table/ABCD-EFGH/seat/2") == ("table_seat", {"code": "ABCD-EFGH", "seat": 2})
    assert parse("/solo/new") == ("solo_setup", {}) and parse("/solo/12") == ("solo_game", {"game_id": 12})
    assert parse("/") == ("home", {}) and parse("") == ("home", {})
    assert parse("/teach/australia") == ("teach_edition", {"edition": "australia"})
    assert chain("teach_edition", {"edition": "usa"}) == [("home", {}), ("teach", {}), ("teach_edition",
                                                                                        {"edition": "usa"})]


def test_every_pattern_is_distinct_and_every_param_known():
    assert len({r.screen for r in ROUTES}) == len(ROUTES) == len({r.pattern for r in ROUTES})
    for route in ROUTES:
        assert set(route.names) <= set(PARAMS), route
        assert route.parent is None or route.parent in BY_SCREEN, route


@pytest.mark.parametrize("path", [
    "/nowhere", "/game", "/game/abc", "/game/0", "/game/-1", "/game/1.5", "/game/1/round/0",
    "/game/1/round/1/player/0", "/game/1/round/1/player", "/game/1/end/more", "/history/1", "//game//1",
    "/table/AB", "/table/ABCD-EFGH/seat/0", "/seat/ABCD-EFGH/short", "/join/", "/solo/new/1",
    "/game/1/round/1000", "/GAME/1", "/teach/Australia", "/teach/usa/1", "/teach/-usa",
])
def test_a_path_that_is_no_screen_is_refused_naming_it(path):
    with pytest.raises(RouteError, match="There is no screen at /"):
        parse(path)


def test_formatting_refuses_what_a_url_cannot_carry():
    with pytest.raises(KeyError, match="entry needs player"):
        format_route("entry", game_id=1, round_index=0)
    with pytest.raises(RouteError, match="round_index=-1"):
        format_route("round_summary", game_id=1, round_index=-1)
    with pytest.raises(RouteError, match="code="):
        format_route("table_seats", code="no/slash")
    with pytest.raises(KeyError):
        format_route("no_such_screen")


def test_back_leads_up_the_chain_to_home():
    entry = ("entry", {"game_id": 3, "round_index": 1, "player": 0})
    assert parent(*entry) == ("sheet", {"game_id": 3})
    assert chain(*entry) == [("home", {}), ("sheet", {"game_id": 3}), entry]
    assert chain("seat_link", {"code": "ABCD-EFGH", "token": "t" * 22}) == [
        ("home", {}), ("table", {}), ("seat_link", {"code": "ABCD-EFGH", "token": "t" * 22})]
    assert parent("home", {}) is None
    for route in ROUTES:  # every chain ends at home, and each step's params come from the route's own
        params = {key: 1 if key != "code" and key != "token" else "ABCD-EFGH" if key == "code" else "t" * 22
                  for key in route.keys}
        steps = chain(route.screen, params)
        assert steps[0] == ("home", {}) and steps[-1] == (route.screen, params)


def test_the_page_route_is_normalised():
    assert normalise("http://10.0.0.2:8550/game/3/?x=1") == "/game/3"
    assert normalise("game/3") == "/game/3"
    assert normalise("/") == "/"


@given(CODES)
def test_a_join_link_is_recognised_with_its_code(code):
    link = join_link(URL, code)
    assert link == f"http://192.168.1.23:8550/join/{code}"
    assert parse(urlsplit(link).path) == ("join", {"code": code})


@given(CODES, st.builds(new_token))
def test_a_seat_link_is_recognised_with_its_code_and_token(code, token):
    assert parse(urlsplit(seat_link(URL, code, token)).path) == ("seat_link", {"code": code, "token": token})


@given(st.builds(new_credential))
def test_a_host_link_is_recognised_with_its_credential(credential):
    assert parse(urlsplit(host_link(URL, credential)).path) == ("host_link", {"credential": credential})


def test_the_route_table_needs_no_flet():
    """Parsing and formatting are plain Python (the CLI's links and tests use them without a UI)."""
    probe = "import sys, scorer.routes, scorer.table.host; print('flet' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
