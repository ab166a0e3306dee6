"""The big-screen board's screen in a real Flet session with no client (the harness of test_pad_screens):
it opens from its route with the code alone, follows the table live, lets go of the table when it leaves,
and a code that names no table says "not found"."""

from __future__ import annotations

from eventually import until
from test_pad_screens import run_session, settle, start_at, texts

from scorer.table.service import TableService
from scorer.ui.main import make_main


def listeners(service: TableService, code: str) -> int:
    return service.feed.listening(code)



def test_the_board_opens_by_code_follows_the_table_and_lets_go_when_left(hosting):
    service, store = hosting
    code, _ = service.create_table("australia", 2, credential=service.host_credential)
    ann, bob = (service.claim_seat(code, seat, name) for seat, name in ((1, "Ann"), (2, "Bob")))

    async def run():
        _session, page, _ = await start_at(make_main(lambda: store), f"/table/{code}/board")
        shown = texts(page)
        assert "Round 1 · still entering: Ann, Bob" in shown and "Western Australia +3" in shown
        assert listeners(service, code) == 1
        service.submit(code, 1, 1, "ABCDEIM", None, 0, ann)
        service.submit(code, 1, 2, "FGHJNQU", None, 0, bob)
        await until(lambda: "Round 2 · still entering: Ann, Bob" in texts(page),  # from the writer thread
                    "the board shows round 2")
        shown = texts(page)
        assert "Western Australia +3: Ann (round 1)" in shown and "Western Australia +3" not in shown
        assert "R1  ABCDEIM" in shown and "R1  FGHJNQU" in shown
        page.data.go("table")  # Back to table mode: the board no longer listens
        await settle()
        assert listeners(service, code) == 0

    run_session(run)


def test_a_board_of_no_table_says_not_found(hosting):
    _service, store = hosting

    async def run():
        _session, page, _ = await start_at(make_main(lambda: store), "/table/ABCD-EFGH/board")
        assert any("no table with join code" in t for t in texts(page))

    run_session(run)
