"""The big-screen board's model: the table's sheets, standings and shared bonuses as the engine settled them."""

from __future__ import annotations

import pytest

from scorer.table.board import board_from_view, tiers_text
from scorer.table.service import TableService


@pytest.fixture
def service(tmp_path):
    svc = TableService(tmp_path / "tables.sqlite3")
    yield svc
    svc.close()


class Game:
    """A table with named seats, played round by round through the service (as the phones do)."""

    def __init__(self, service: TableService, edition: str, names: list[str]) -> None:
        self.service = service
        self.code, self.host = service.create_table(edition, len(names), credential=service.host_credential)
        self.tokens = [service.claim_seat(self.code, seat, name) for seat, name in enumerate(names, start=1)]

    def play(self, round_no: int, *rows: str) -> None:
        for seat, (cards, token) in enumerate(zip(rows, self.tokens, strict=True), start=1):
            self.service.submit(self.code, round_no, seat, cards, None, 0, token)

    def board(self):
        return board_from_view(self.service.view(self.code))


def test_a_fresh_table_has_every_bonus_open_and_everyone_entering(service):
    game = Game(service, "australia", ["Ann", "Bob"])
    board = game.board()
    assert board.status == "Round 1 · still entering: Ann, Bob"
    assert [r.name for r in board.open_regions][:2] == ["Western Australia", "Northern Territory"]
    assert len(board.open_regions) == 7 and board.taken_regions == ()
    assert board.route is None  # Australia has no route bonus
    assert [s.name for s in board.sheets] == ["Ann", "Bob"] and all(s.entering for s in board.sheets)


def test_australia_regions_taken_first_come_shared_in_a_round_and_gone_for_later(service):
    game = Game(service, "australia", ["Ann", "Bob", "Cy"])
    # round 1: Ann completes Western Australia (A-D); nobody else completes anything
    game.play(1, "ABCDEIM", "FGHJNQU", "KLOPRSV")
    board = game.board()
    assert [(t.name, t.points, t.round, t.by) for t in board.taken_regions] == [("Western Australia", 3, 1,
                                                                                 ("Ann",))]
    assert "Western Australia" not in [r.name for r in board.open_regions]
    ann = board.sheets[0]
    assert ann.rounds[0].cards == "ABCDEIM" and ann.rounds[0].closed
    assert dict(ann.rounds[0].points)["Region bonuses"] == 3
    # round 2: Bob completes Northern Territory (F-H in round 1, E now), Cy Tasmania; Ann's second Western
    # Australia is struck out (taken in round 1)
    game.play(2, "ABCDIJK", "EMNOQRS", "YZ@#TUV")
    board = game.board()
    taken = {t.name: (t.round, t.by) for t in board.taken_regions}
    assert taken == {"Western Australia": (1, ("Ann",)), "Northern Territory": (2, ("Bob",)),
                     "Tasmania": (2, ("Cy",))}
    assert len(board.open_regions) == 4
    assert board.status == "Round 3 · still entering: Ann, Bob, Cy"
    # the standings follow the engine's ranks
    assert [s.rank for s in board.standings] == sorted(s.rank for s in board.standings)
    assert {s.name: s.total for s in board.standings} == {s.name: s.total for s in board.sheets}


def test_a_region_completed_by_two_in_the_same_round_is_shared(service):
    game = Game(service, "australia", ["Ann", "Bob"])
    game.play(1, "ABCEFGI", "DHJKLMN")      # nobody completes a region
    game.play(2, "DMNOQRS", "ABCTUVW")      # Ann: D completes A-D; Bob: A, B, C + D from round 1
    board = game.board()
    assert [(t.name, t.round, t.by) for t in board.taken_regions] == [("Western Australia", 2, ("Ann", "Bob"))]


# Europe's regions: AB | CDE | FGHI | JKLM | NOP | QRSTU | VWXY | Z@# (a passport needs a country of each)
def test_europe_passport_first_then_second_tier_and_what_is_left(service):
    game = Game(service, "europe", ["Ann", "Bob", "Cy"])
    game.play(1, "ACFJNQV", "BDGKORW", "EHLPSXY")          # seven regions each, nobody has Southeast Europe
    board = game.board()
    assert board.route.name == "Passport" and board.route.open_tiers == (7, 3, 1) and board.route.taken == ()
    assert tiers_text(board.route) == "next 7, 3 then 1 points"
    game.play(2, "Z@IMTUA", "BCDEFGH", "JKLNOPQ")          # Ann completes her passport (Z): first, 7
    board = game.board()
    assert [(t.points, t.round, t.by) for t in board.route.taken] == [(7, 2, ("Ann",))]
    assert board.route.open_tiers == (3, 1)
    game.play(3, "ABCDEFG", "Z@HIJKL", "MNOPQRS")          # Bob: second, 3
    board = game.board()
    assert [(t.points, t.round, t.by) for t in board.route.taken] == [(7, 2, ("Ann",)), (3, 3, ("Bob",))]
    assert board.route.open_tiers == (1,)


def test_europe_passport_tie_shares_the_first_tier_which_is_then_gone(service):
    game = Game(service, "europe", ["Ann", "Bob"])
    game.play(1, "ACFJNQV", "BDGKORW")
    game.play(2, "ZHIJKLM", "@#EFGNO")                     # both complete their passport in round 2
    board = game.board()
    assert [(t.points, t.round, t.by) for t in board.route.taken] == [(7, 2, ("Ann", "Bob"))]
    assert board.route.open_tiers == (3,)                  # 2 players: 7 then 3, no third tier
    assert all(dict(line.points).get("Passport") == 7 for line in (s.rounds[1] for s in board.sheets))


def test_usa_coast_to_coast_last_tier_stays_open_for_anyone_else(service):
    game = Game(service, "usa", ["Ann", "Bob", "Cy"])
    board = game.board()
    assert board.route.name == "Coast to coast" and board.route.open_tiers == (7, 3, 1)
    game.play(1, "FLPUXAB", "CDEGHIJ", "KMNOQRS")          # Ann: F-L-P-U-X is a west-to-east path
    board = game.board()
    assert [(t.points, t.by) for t in board.route.taken] == [(7, ("Ann",))]
    assert board.route.open_tiers == (3, 1)
    game.play(2, "ABCDEGH", "FLPUXIJ", "KMNOQRS")          # Bob: second, 3
    game.play(3, "ABCDEGH", "IJKMNOQ", "FLPUXRS")          # Cy: third, 1, and 1 stays on offer
    board = game.board()
    assert [(t.points, t.round, t.by) for t in board.route.taken] == [(7, 1, ("Ann",)), (3, 2, ("Bob",)),
                                                                      (1, 3, ("Cy",))]
    assert board.route.open_tiers == (1,) and tiers_text(board.route) == "1 point for anyone else"


def test_a_finished_game_says_so_and_ranks_by_the_engine(service):
    game = Game(service, "australia", ["Ann", "Bob"])
    for r in range(1, 5):
        game.play(r, "ABCDEFG", "HIJKLMN")
    board = game.board()
    assert board.finished and board.status == "Game over" and board.waiting_for == ()
    assert not any(s.entering for s in board.sheets)
    assert all(len(s.rounds) == 4 and all(line.total is not None for line in s.rounds) for s in board.sheets)
    assert board.standings[0].total >= board.standings[1].total


def test_the_board_speaks_the_language_of_the_window_showing_it(service):
    """One view for every device; the board drawn from it speaks its reader's language, same points."""
    from rules.i18n import use_language

    game = Game(service, "europe", ["Ann", "Bob", "Cy"])
    game.play(1, "ACFJNQV", "BDGKORW", "EHLPSXY")
    english = game.board()
    with use_language("fr"):
        french = game.board()
        assert french.status == "Manche 2 · saisie en cours\u00a0: Ann, Bob, Cy"
        assert tiers_text(french.route) == "ensuite 7, 3 puis 1 points"
    assert english.status == "Round 2 · still entering: Ann, Bob, Cy"
    assert [(s.name, s.total, s.rank) for s in french.standings] == \
        [(s.name, s.total, s.rank) for s in english.standings]
    assert [line.total for s in french.sheets for line in s.rounds] == \
        [line.total for s in english.sheets for line in s.rounds]
