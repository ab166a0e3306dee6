"""The players' figures across History (`scorer.stats`), on a fixed history of 24 games: the two recorded
games of tests/data, seeded bot games of every edition entered by cards, bot games entered by category
(one of them a first place shared after the tie-breakers), and solo games against bots.

Each figure is compared with a plain re-count made here from what the test itself entered: the rounds'
points as the rules score them (`rules.record.score_rounds`, category mode's `resolve_round`, the
engine's own round scores for solo), the winners by the rulebook's order of tie-breakers written out
again, the streaks by walking each player's games in order.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_categories import bot_game, typed_rounds

from rules import categories as cat
from rules.bonuses import Award
from rules.editions import load_edition
from rules.record import GameRecord, ParsedRound, parse_record, record_from_rounds, score_rounds
from rules.scoring import RoundScore, category_points
from scorer import stats
from scorer.pad.game import CATEGORIES_MODE, GameSession
from scorer.pad.people import name_key
from scorer.pad.store import EventStore
from scorer.solo import view as solo_view
from scorer.solo.game import SoloGame

DATA = Path(__file__).parent / "data"
EDITIONS = {e: load_edition(e) for e in ("australia", "europe", "usa")}
#: The spellings people type: "ann " and "ANN" are Ann.
SPELLINGS = {"Ann": ["Ann", "ann ", "ANN"], "Bob": ["Bob", "bob"], "Cy": ["Cy"], "Dee": ["Dee", " dee"]}
PEOPLE = list(SPELLINGS)


@dataclass
class Truth:
    """What the test entered for one game, and its points as the rules score them."""

    edition: str
    names: list[str]
    rounds: list[list[RoundScore]]
    awards: list[list[Award]]
    by_cards: bool
    solo: bool = False


def spelled(person: str, i: int) -> str:
    return SPELLINGS[person][i % len(SPELLINGS[person])]


def letters_game(store: EventStore, record: GameRecord) -> Truth:
    edition = EDITIONS[record.edition]
    GameSession.from_record(store, record)
    parsed, _warnings = parse_record(record, edition)
    awards: list[list[Award]] = []
    rounds, _notes, _state = score_rounds(edition, parsed, len(record.players), explain=False, awards=awards)
    return Truth(record.edition, list(record.players), rounds, awards, by_cards=True)


def category_game(store: EventStore, edition_id: str, names: list[str], typed: list[list[dict]]) -> Truth:
    edition = EDITIONS[edition_id]
    session = GameSession.new(store, edition_id, names, mode=CATEGORIES_MODE)
    for r, row in enumerate(typed):
        for p, values in enumerate(row):
            session.enter_categories(p, values, round_index=r)
    state = cat.CategoryState.new(len(names))
    rounds: list[list[RoundScore]] = [[] for _ in names]
    for r, row in enumerate(typed, start=1):
        scores, _ = cat.resolve_round(edition, state, [cat.normalise(edition, v) for v in row], r)
        for p in range(len(names)):
            rounds[p].append(scores[p])
    return Truth(edition_id, [n.strip() for n in names], rounds, [], by_cards=False)


def solo_game(store: EventStore, edition_id: str, name: str, bots: list[str], seed: int) -> Truth:
    game = SoloGame.new(edition_id, bots, seed=seed, bot_seed=seed + 1, player_name=name)
    game_id = solo_view.start(store, game)
    while not game.state.is_terminal():
        # the person plays the last legal action: not the bots' way, so the places vary
        events = game.play(game.screen()["actions"][-1]["action"])
        solo_view.save(store, game_id, game, events)
    edition = EDITIONS[edition_id]
    awards: list[list[Award]] = []
    parsed = [ParsedRound(rows, choices) for rows, choices in game.state.round_log]
    score_rounds(edition, parsed, 1 + len(bots), explain=False, awards=awards)
    rounds = [list(r) for r in game.state.round_scores]
    return Truth(edition_id, list(game.setup.players), rounds, awards, by_cards=True, solo=True)


def build_history(store: EventStore) -> list[Truth]:
    truths = [letters_game(store, GameRecord.model_validate(json.loads((DATA / f).read_text())))
              for f in ("table_usa_acceptance.json", "table_europe_passport.json")]
    editions = sorted(EDITIONS)
    for i in range(14):  # bot games entered by their cards
        edition_id, n = editions[i % 3], 2 + i % 3
        people = [PEOPLE[(i + k) % 4] for k in range(n)]
        names = [spelled(person, i) for person in people]
        parsed = bot_game(EDITIONS[edition_id], n, False, 1000 + i, ["normal", "easy", "normal", "easy"][:n])
        record = record_from_rounds(EDITIONS[edition_id], [n.strip() for n in names], parsed)
        truths.append(letters_game(store, record))
    for i in range(4):  # bot games entered by category
        edition_id, n = editions[i % 3], 2 + i % 2
        names = [spelled(PEOPLE[(i + k + 1) % 4], i) for k in range(n)]
        parsed = bot_game(EDITIONS[edition_id], n, False, 2000 + i, ["easy"] * n)
        typed = typed_rounds(EDITIONS[edition_id], parsed, n)
        truths.append(category_game(store, edition_id, names, typed))
    # Ann and Bob type the same sheet, round by round: level on the total and on every tie-breaker
    parsed = bot_game(EDITIONS["australia"], 2, False, 77, ["normal", "normal"])
    typed = [[row[0], dict(row[0])] for row in typed_rounds(EDITIONS["australia"], parsed, 2)]
    truths.append(category_game(store, "australia", ["Ann", "Bob"], typed))
    for i, bots in enumerate((["easy"], ["easy", "normal"], ["normal", "easy", "easy"])):
        truths.append(solo_game(store, editions[i], "Ann" if i != 1 else "ann", bots, 300 + i))
    return truths


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    store = EventStore(tmp_path_factory.mktemp("stats") / "games.sqlite3")
    truths = build_history(store)
    played = stats.played_games(store, EDITIONS.__getitem__)
    yield truths, played
    store.close()


# --- the re-count ----------------------------------------------------------------------------------------------

def person(name: str) -> str:
    """Which of the four a spelling is, by the table of spellings above (not by `stats.identity`)."""
    return next(p for p, spellings in SPELLINGS.items()
                if name.strip().casefold() in {s.strip().casefold() for s in spellings})


def winners(truth: Truth) -> set[int]:
    """The first place(s): highest total, then the edition's tie-breakers in the rulebook's order."""
    edition = EDITIONS[truth.edition]

    def key(p: int) -> list[int]:
        rounds = truth.rounds[p]
        out = [sum(sum(s) for s in rounds)]
        for breaker in edition.tie_breakers:
            out.append(sum(s.route if breaker == "route" else s.throw_catch for s in rounds))
        return out

    best = max(key(p) for p in range(len(truth.names)))
    return {p for p in range(len(truth.names)) if key(p) == best}


def seats(truth: Truth) -> list[int]:
    return [0] if truth.solo else list(range(len(truth.names)))


def selection(truths: list[Truth], edition: str | None, solo: bool) -> list[Truth]:
    return [t for t in truths if t.solo == solo and edition in (None, t.edition)]


def test_the_history_has_every_kind_of_game(history):
    truths, played = history
    assert len(played) == len(truths) >= 20
    assert {t.edition for t in truths} == set(EDITIONS)
    assert any(not t.by_cards for t in truths) and any(t.solo for t in truths)
    assert any(len(winners(t)) > 1 for t in truths), "a first place shared after the tie-breakers"
    assert [g.players for g in played] == [tuple(t.names) for t in truths]


@pytest.mark.parametrize("solo", [False, True])
@pytest.mark.parametrize("edition", [None, "australia", "europe", "usa"])
def test_games_wins_and_totals_match_a_recount(history, edition, solo):
    truths, played = history
    chosen = selection(truths, edition, solo)
    figures = stats.figures(stats.select(played, edition, solo))
    assert figures.games == len(chosen)
    expected: dict[str, dict] = defaultdict(lambda: {"games": 0, "wins": 0, "points": 0, "best": None})
    for truth in chosen:
        first = winners(truth)
        for p in seats(truth):
            row = expected[person(truth.names[p])]
            total = sum(s.total for s in truth.rounds[p])
            row["games"] += 1
            row["wins"] += p in first
            row["points"] += total
            row["best"] = total if row["best"] is None else max(row["best"], total)
    got = {person(f.name): f for f in figures.players}
    assert set(got) == set(expected)
    for who, row in expected.items():
        fig = got[who]
        assert (fig.games, fig.wins, fig.total_points, fig.best_total) == (
            row["games"], row["wins"], row["points"], row["best"]), who
        assert fig.average_total == pytest.approx(row["points"] / row["games"])
        assert fig.win_rate == pytest.approx(row["wins"] / row["games"])
    assert [f.wins for f in figures.players] == sorted((f.wins for f in figures.players), reverse=True)


def test_a_first_place_shared_after_the_tie_breakers_is_a_win_for_each(history):
    truths, played = history
    tied = next(i for i, t in enumerate(truths) if len(winners(t)) > 1)
    assert played[tied].ranks == (1, 1)
    figures = stats.figures([played[tied]])
    assert [(f.wins, f.games) for f in figures.players] == [(1, 1), (1, 1)]


@pytest.mark.parametrize("solo", [False, True])
@pytest.mark.parametrize("edition", [None, "australia", "europe", "usa"])
def test_card_based_figures_count_only_games_entered_by_cards(history, edition, solo):
    truths, played = history
    figures = stats.figures(stats.select(played, edition, solo))
    points: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    games: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    regions: dict[str, int] = defaultdict(int)
    routes: dict[str, int] = defaultdict(int)
    throw_catch: dict[str, int] = defaultdict(int)
    best = None
    for truth in selection(truths, edition, solo):
        if not truth.by_cards:
            continue
        ed = EDITIONS[truth.edition]
        for p in seats(truth):
            who = person(truth.names[p])
            for cid in ed.category_ids():
                games[who][cid] += 1
            for r, score in enumerate(truth.rounds[p]):
                for cid, value in category_points(ed, score).items():
                    points[who][cid] += value
                throw_catch[who] += score.throw_catch > 0
                if best is None or score.total > best[1]:
                    best = (who, score.total, r + 1, truth.edition)
            for round_awards in truth.awards:
                for award in round_awards:
                    if p in award.players and award.region >= 0:
                        regions[who] += 1
                    elif p in award.players and award.points > 0:
                        routes[who] += 1
    for fig in figures.players:
        who = person(fig.name)
        for cid, n in games[who].items():
            assert fig.average_category(cid) == pytest.approx(points[who][cid] / n), (who, cid)
        assert (fig.regions_taken, fig.routes_taken, fig.throw_catch_rounds) == (
            regions[who], routes[who], throw_catch[who]), who
    if best is None:
        assert figures.best_round is None
    else:
        got = figures.best_round
        assert (person(got.name), got.points, got.round_number, got.edition) == best
    assert sum(routes.values()) > 0 or edition in ("australia",) or solo  # passports were taken somewhere


def test_streaks_walk_each_players_games_in_order(history):
    truths, played = history
    figures = stats.figures(stats.select(played))
    runs: dict[str, list[bool]] = defaultdict(list)
    for truth in selection(truths, None, False):  # built, and so played, in this order
        first = winners(truth)
        for p in seats(truth):
            runs[person(truth.names[p])].append(p in first)
    for fig in figures.players:
        line = "".join("W" if won else "-" for won in runs[person(fig.name)])
        assert fig.longest_streak == max(len(run) for run in line.split("-")), line
        assert fig.current_streak == len(line) - len(line.rstrip("W")), line
    assert any(fig.longest_streak > 1 for fig in figures.players)


@pytest.mark.parametrize(("first", "second"), [("Ann", "Bob"), ("bob", "CY"), ("Dee", "ann "), ("Cy", "Dee")])
def test_head_to_head_counts_the_games_two_played_together(history, first, second):
    truths, played = history
    together = ahead = behind = 0
    for truth in selection(truths, None, False):
        where = {person(name): p for p, name in enumerate(truth.names)}
        a, b = person(first), person(second)
        if a in where and b in where:
            together += 1
            ka = winners_key(truth, where[a])
            kb = winners_key(truth, where[b])
            ahead += ka > kb
            behind += kb > ka
    got = stats.head_to_head(stats.select(played), first, second)
    assert (got.games, got.first_ahead, got.second_ahead, got.level) == (
        together, ahead, behind, together - ahead - behind)
    assert got.games > 0


def winners_key(truth: Truth, p: int) -> list[int]:
    edition = EDITIONS[truth.edition]
    rounds = truth.rounds[p]
    return [sum(s.total for s in rounds)] + [sum(s.route if b == "route" else s.throw_catch for s in rounds)
                                             for b in edition.tie_breakers]


def test_solo_games_are_counted_apart_with_the_person_only(history):
    _truths, played = history
    solo = stats.figures(stats.select(played, solo=True))
    assert [(f.name, f.games) for f in solo.players] == [("Ann", 3)]
    table = stats.figures(stats.select(played))
    assert not any(f.name.startswith("Bot") for f in table.players)


def test_two_spellings_of_a_name_are_one_player():
    assert name_key("Ann") == name_key("ann ") == name_key(" ANN")
    assert name_key("Ann Lee") == name_key("ann  lee")
    assert name_key("Ann") != name_key("Anne")


def test_a_deleted_game_leaves_the_figures(tmp_path):
    store = EventStore(tmp_path / "games.sqlite3")
    record = GameRecord.model_validate(json.loads((DATA / "table_usa_acceptance.json").read_text()))
    letters_game(store, record)
    letters_game(store, record.model_copy(update={"players": record.players}))
    assert stats.figures(stats.played_games(store, EDITIONS.__getitem__)).games == 2
    store.delete_game(store.games()[0].id)
    assert stats.figures(stats.played_games(store, EDITIONS.__getitem__)).games == 1
    store.close()


def test_a_route_bonus_taken_for_no_points_is_not_counted():
    """Europe's fourth passport is achieved when no tier is left (0 points): the passport was not taken."""
    europe = EDITIONS["europe"]
    quiet = RoundScore(0, 0, 0, 0, 0, 0, 0)
    passport = europe.route.name
    game = stats.PlayedGame(
        game_id=1, played_at=0.0, edition=europe, players=("Ann", "Bob"),
        rounds=((quiet,) * 4, (quiet,) * 4),
        awards=((Award(passport, 4, (0,)),), (Award(passport, 0, (1,), tier=4),), (), ()),
        ranks=(1, 1), by_cards=True)
    figures = {f.name: f for f in stats.figures([game]).players}
    assert (figures["Ann"].routes_taken, figures["Bob"].routes_taken) == (1, 0)
    assert figures["Ann"].wins == figures["Bob"].wins == 1


def test_a_game_that_cannot_be_replayed_here_is_left_out(tmp_path):
    """A game whose deck pack is gone is left out of the figures, as History cannot open it either."""
    store = EventStore(tmp_path / "games.sqlite3")
    record = GameRecord.model_validate(json.loads((DATA / "table_usa_acceptance.json").read_text()))
    letters_game(store, record)

    def no_usa(edition_id: str):
        raise KeyError(edition_id)

    assert stats.played_games(store, no_usa) == []
    assert len(stats.played_games(store, EDITIONS.__getitem__)) == 1
    store.close()
