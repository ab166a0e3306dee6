"""A finished table game is saved on the host by itself (`scorer.table.history`): into the host's History,
once — whether the host presses "End game" twice, or the host stops and starts again — and its Stats count
it. The game is the recorded USA game of tests/data (Ann 116, Cy 102, Bob 79), entered seat by seat."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorer import stats
from scorer.pad.store import EventStore
from scorer.table.service import Conflict, TableService

USA = json.loads((Path(__file__).parent / "data" / "table_usa_acceptance.json").read_text())
TOTALS = {"Ann": 116, "Bob": 79, "Cy": 102}


@pytest.fixture
def host(tmp_path):
    """The host's History, and a way to start (and restart) its table service on the same files."""
    history = EventStore(tmp_path / "games.sqlite3")
    services: list[TableService] = []

    def start(keeping: bool = True) -> TableService:
        if services:
            services[-1].close()
        services.append(TableService(tmp_path / "tables.sqlite3",
                                     host_credential=services[0].host_credential if services else None))
        if keeping:
            services[-1].keep_history(history)
        return services[-1]

    yield history, start
    services[-1].close()
    history.close()


def open_table(service: TableService) -> tuple[str, str, list[str]]:
    code, host_token = service.create_table("usa", len(USA["players"]), credential=service.host_credential)
    tokens = [service.claim_seat(code, seat, name) for seat, name in enumerate(USA["players"], start=1)]
    return code, host_token, tokens


def play(service: TableService, code: str, tokens: list[str], rounds: range = range(4)) -> None:
    for r in rounds:
        for seat, name in enumerate(USA["players"], start=1):
            entry = USA["rounds"][r][name]
            service.submit(code, r + 1, seat, entry["cards"], entry.get("activity"), 0, tokens[seat - 1])


def kept(history: EventStore) -> dict[str, int]:
    """The finished games' totals as the host's Stats read them, by player."""
    games = stats.played_games(history)
    return {name: total for game in games for name, total in zip(game.players, game.totals, strict=True)} | {
        "games": len(games)}


def test_a_finished_table_game_is_kept_once_on_the_host(host):
    history, start = host
    service = start()
    code, host_token, tokens = open_table(service)
    play(service, code, tokens, range(3))
    service.history.flush()
    assert kept(history) == {"games": 0}  # three rounds of four: not finished
    play(service, code, tokens, range(3, 4))
    service.history.flush()
    assert kept(history) == {**TOTALS, "games": 1}
    [game] = history.games("finished")
    assert service.keep_finished(code) == game.id  # the host's "Save to History" finds it kept
    service.end_game(code, host_token)
    with pytest.raises(Conflict, match="already ended"):
        service.end_game(code, host_token)  # "end" pressed twice
    service.history.flush()
    service = start()  # the host restarts: its tables are offered again
    service.history.flush()
    assert kept(history) == {**TOTALS, "games": 1}
    figures = stats.figures(stats.select(stats.played_games(history)))
    assert [(f.name, f.wins, f.games) for f in figures.players] == [("Ann", 1, 1), ("Bob", 0, 1), ("Cy", 0, 1)]


def test_a_correction_after_the_last_round_replaces_the_kept_game(host):
    history, start = host
    service = start()
    code, host_token, tokens = open_table(service)
    play(service, code, tokens)
    service.history.flush()
    [first] = history.games("finished")
    # the host corrects Bob's last round: his Throw card was entered last instead of first
    last = USA["rounds"][3]["Bob"]
    corrected = last["cards"][1:] + last["cards"][0]
    service.submit(code, 4, 2, corrected, last.get("activity"), 1, host_token)
    service.history.flush()
    [again] = history.games("finished")
    assert again.id != first.id
    assert any(e.payload.get("cards") == corrected for e in history.events(again.id))
    assert kept(history)["games"] == 1 and kept(history)["Bob"] != TOTALS["Bob"]


def test_a_game_ended_before_its_last_round_is_not_kept(host):
    history, start = host
    service = start()
    code, host_token, tokens = open_table(service)
    play(service, code, tokens, range(2))
    service.end_game(code, host_token)
    service.history.flush()
    assert history.games() == []


def test_games_finished_while_nothing_kept_them_are_kept_at_the_next_start(host):
    """Two games at one table (play again) finished by a host that did not keep them (stopped before its
    worker ran, or older than this): the next start keeps both, once."""
    history, start = host
    service = start(keeping=False)
    code, host_token, tokens = open_table(service)
    play(service, code, tokens)
    service.play_again(code, host_token)
    play(service, code, tokens)
    assert history.games() == []
    for _restart in range(2):
        service = start()
        service.history.flush()
        assert len(history.games("finished")) == 2
