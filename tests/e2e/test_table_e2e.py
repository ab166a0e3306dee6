"""Table mode in the browser: two Chromium phones on two seats of one table served by `tourpad host`.

A submission on one phone appears on the other, live; a phone that reloads resumes its seat from the
device's storage; the engine's refusal reaches the phone that made the mistake.
"""

from __future__ import annotations

import re

import httpx
import pytest
from test_pad_e2e import tap_cards

from benchmarks.table import host_auth

pytestmark = pytest.mark.e2e


CSP_VIOLATIONS = "document.addEventListener('securitypolicyviolation', " \
                 "e => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))"


@pytest.fixture
def csp_violations():
    """Every content-security-policy violation of the phones watched with `watch`: none is allowed (the
    host serves the app with its policy on)."""
    seen: list[str] = []

    def watch(context):
        context.add_init_script(CSP_VIOLATIONS)
        context.on("console", lambda m: seen.append(m.text) if "Content Security Policy" in m.text
                   or m.text.startswith("CSP violation") else None)
        return context

    yield watch
    assert seen == []


def take_seat(pad, code: str, seat: int, name: str) -> None:
    pad.type_into("Join code", code.lower())
    pad.tap_until(lambda: pad.tap("Join"),  # a tap while the field redraws can miss: tap until the seat form shows
                  lambda ms: pad.page.get_by_role("textbox", name=f"Your name (seat {seat})").wait_for(timeout=ms))
    pad.type_into(f"Your name (seat {seat})", name)
    pad.tap(f"Take seat {seat}")
    pad.wait_text("round-status", "Round 1", timeout=40000)


def open_keypad(pad, name: str) -> None:
    """From the sheet, this phone's own keypad (the sheet may be redrawing: another phone's entry)."""
    pad.tap_until(lambda: pad.tap(f"Enter {name}"),
                  lambda ms: pad.wait_text("entry-cards", r"^Cards: none ", timeout=ms))


def pick_seat(table, option: str) -> None:
    """The host's seat picker: open it (until its menu shows: the host's screen redraws as phones join)
    and choose `option`."""
    table.tap_until(lambda: table.tap_ident("seat-pick"),
                    lambda ms: table.button(option).first.wait_for(timeout=ms), timeout=5000)
    table.tap(option)


def test_a_submission_on_one_phone_appears_on_the_other(host, tmp_path, new_context, open_app, csp_violations):
    # the host credential opens tables; a stranger's request is refused
    assert httpx.post(f"{host}/api/tables", json={"seats": 2}).status_code == 401
    code = httpx.post(f"{host}/api/tables", json={"seats": 2}, headers=host_auth(tmp_path)).json()["code"]
    page = httpx.get(f"{host}/")  # the app's page, served with its security headers
    assert "'wasm-unsafe-eval'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    ann_phone, bob_phone = (csp_violations(new_context(viewport={"width": 390, "height": 844})) for _ in range(2))
    ann, bob = open_app(ann_phone, host), open_app(bob_phone, host)
    take_seat(ann, code, 1, "Ann")
    ann.page.wait_for_url(f"{host}/table/{code}/seat/1", timeout=40000)  # the seat's own URL
    # Back: the table's seat picker (seat 1 now taken); Forward: the seat again, its token on this phone
    ann.page.go_back()
    ann.page.get_by_role("textbox", name="Your name (seat 2)").wait_for(timeout=40000)
    ann.shot("table-back-to-seats")
    ann.page.go_forward()
    ann.wait_text("sheet-status", "your seat: 1", timeout=40000)
    take_seat(bob, code, 2, "Bob")
    ann.wait_text("entering-2", "Bob: entering", timeout=40000)

    # Ann's own keypad: the pad's own entry screen, live points and all
    ann.tap("Enter Ann")
    tap_cards(ann, "ABCDEFG")
    ann.wait_text("entry-subtotal", "points so far")
    ann.tap_ident("choice-none")  # no activity, on purpose
    ann.tap_ident("save")
    ann.wait_text("waiting-for", "^Waiting for Bob$", timeout=40000)
    bob.wait_text("entering-1", "Ann: entered", timeout=40000)
    bob.shot("table-bob-sees-ann")

    # Bob's phone reloads (dropped off Wi-Fi) mid-entry: its seat and its unsaved keypad come back
    bob.tap("Enter Bob")
    tap_cards(bob, "HIJ")
    bob.page.close()
    bob = open_app(bob_phone, f"{host}/table/{code}/seat/2/round/1/player/2")
    bob.wait_text("entry-cards", r"^Cards: HIJ ", timeout=40000)
    # a phone that is not seat 2 opening seat 2's URL gets the seat picker, not Bob's sheet
    stranger = open_app(new_context(viewport={"width": 390, "height": 844}), f"{host}/table/{code}/seat/2")
    stranger.wait_text("message", "This device does not hold seat 2", timeout=40000)
    # Ann's letters are taken on Bob's keypad: a tap on one is refused, naming whose card it is
    bob.tap("A")
    bob.wait_text("entry-message", "A is already in Ann's cards this round", timeout=40000)
    for i, letter in enumerate("KLMN"):
        bob.tap(letter)
        bob.wait_text("entry-cards", rf"^Cards: HIJ{'KLMN'[:i + 1]} ")
    bob.tap_ident("choice-none")  # no activity, on purpose
    bob.tap_ident("save")
    bob.wait_text("summary-title", "Round 1 closed", timeout=40000)
    ann.wait_text("summary-title", "Round 1 closed", timeout=40000)  # every phone: the round's summary
    ann.shot("table-round-closed")
    view = httpx.get(f"{host}/api/tables/{code}").json()
    assert [e["cards"] for e in view["rounds"][0]["entries"]] == ["ABCDEFG", "HIJKLMN"]
    for p, player in enumerate(view["scores"]["players"], start=1):
        assert ann.text(f"summary-total-{p}") == f"= {player['total']}"


def test_the_host_hosts_from_the_app_and_corrects_a_seat(host, new_context, open_app, csp_violations):
    # the host's own device (this machine: a loopback address) hosts without typing the credential
    host_device, phone = (csp_violations(new_context(viewport={"width": 390, "height": 844})) for _ in range(2))
    table = open_app(host_device, host)
    table.tap("Host a table")
    code = table.wait_text("join-code", r"^\w{4}-\w{4}$", timeout=40000)
    zoe = open_app(phone, host)
    take_seat(zoe, code, 1, "Zoë")
    open_keypad(zoe, "Zoë")
    tap_cards(zoe, "ABCDEFG")
    zoe.tap_ident("choice-none")  # no activity, on purpose
    zoe.tap_ident("save")
    zoe.wait_text("enter-1", "Zoë: entered", timeout=40000)
    table.wait_text("roster-1", r"^1: Zoë · 0 pts$", timeout=40000)  # entered: no longer "entering…"

    # the host corrects Zoë's round on the host's score sheets: her round's Edit, the keypad, save
    table.tap_until(lambda: table.tap_ident("host-sheet"),
                    lambda ms: table.wait_text("history-r1-p1", "^ABCDEFG$", timeout=ms))
    table.wait_text("sheet-status", "you are the host")
    table.tap_until(lambda: table.tap_ident("edit-r1-p1"),
                    lambda ms: table.wait_text("entry-cards", r"^Cards: ABCDEFG ", timeout=ms))
    table.tap_ident("backspace")
    table.wait_text("entry-cards", r"^Cards: ABCDEF ")
    table.tap("H")
    table.wait_text("entry-cards", r"^Cards: ABCDEFH ")
    table.shot("table-host-corrects")
    table.tap_ident("save")
    zoe.wait_text("history-r1-p1", "^ABCDEFH$", timeout=40000)  # Zoë's own sheet, live
    zoe.shot("table-player-corrected")

    # the host seats Max (no phone yet) at seat 2; Max's phone later takes the seat with the token shown
    table.goto(f"{host}/table/{code}/host")  # the host's controls (the device keeps its host token)
    pick_seat(table, "2: seat 2")
    table.type_into("Player's name", "Max")
    table.tap("Seat player")
    table.wait_text("message", "^Seat 2 is Max's", timeout=40000)
    link = table.ident("seat-link").locator("[aria-label]").first.get_attribute("aria-label")
    assert re.fullmatch(rf"{host}/seat/{code}/[\w-]{{22}}", link), link
    assert table.text("message").endswith(link.rsplit("/", 1)[1])  # the token, for typing instead
    table.shot("table-host-seats-max")
    zoe.wait_text("entering-2", "^Max: entering", timeout=40000)
    # Max's phone scans the seat code: it opens straight on seat 2, Max's own keypad a tap away
    max_phone = open_app(new_context(viewport={"width": 390, "height": 844}), link)
    max_phone.wait_text("sheet-status", "your seat: 2", timeout=40000)
    max_phone.wait_text("enter-2", "^Enter Max$")
    # another phone scans the table's join code: it opens on the seat picker of this table
    join_url = table.ident("join-qr").locator("[aria-label]").first.get_attribute("aria-label")
    assert join_url == f"{host}/join/{code}"
    # the big-screen board: a QR code and the link, for a laptop or TV beside the table
    board_url = table.ident("board-qr").locator("[aria-label]").first.get_attribute("aria-label")
    assert board_url == f"{host}/table/{code}/board"
    guest = open_app(new_context(viewport={"width": 390, "height": 844}), join_url)
    guest.page.get_by_role("textbox", name="Your name (seat 3)").wait_for(timeout=40000)


def test_the_host_link_makes_a_device_a_host_and_a_wrong_one_is_refused(host, tmp_path, new_context, open_app):
    """`tourpad host` prints `/host/<credential>` for a second host device: opening it keeps the credential on
    that device and opens the host screen of the table `tourpad host` opened; a link with any other
    credential is refused with a reason."""
    from scorer.table.credential import read_credential

    phone = new_context(viewport={"width": 390, "height": 844})
    stranger = open_app(phone, f"{host}/host/{'x' * 32}")
    stranger.wait_text("message", "not this host's", timeout=40000)
    second_host = open_app(new_context(viewport={"width": 390, "height": 844}),
                           f"{host}/host/{read_credential(tmp_path)}")
    second_host.wait_text("join-code", r"^\w{4}-\w{4}$", timeout=40000)  # the host screen, ready
    assert second_host.text("table-game") == "Boomerang: Australia · 4 players"
    second_host.shot("table-host-link")
