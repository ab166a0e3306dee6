"""Player figures across the games in History: who plays, who wins, where each scores (no Flet).

Every figure derives from the finished games in the event store (`scorer.pad.store`), each replayed as
History replays it: a score-pad game by `scorer.pad.game.fold`, a solo game by `SoloGame.resume`. Nothing
is kept but the games, so deleting or importing a game changes the figures with it.

What counts, and why:
- A win is a first place after the rulebook's tie-breakers (`rules.scoring.rank_players`, through the
  fold): a first place still shared after them is a win for each who shares it.
- A game entered by category counts for totals, wins, streaks and head to head; the per-category points,
  the shared bonuses, Throw & Catch and the best round come from games entered by their cards only, since
  a category sheet is typed from the paper, not derived from the cards.
- Solo games against bots are counted apart (`solo=True`): only the person's seat has figures there, the
  bots' places still decide whether the person won.
- Race Around Europe is played here against bots only: its figures are the person's wins and the games'
  length in turns (`race_figures`), from the finished games History keeps (`scorer.race.history`).
- Two names are one player when they are the same name once cleaned and casefolded ("Ann", "ann "), or
  when the register of people says so (`who`: `scorer.pad.people.People.person`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from rules.bonuses import Award
from rules.edition import Edition
from rules.record import ParsedRound, score_rounds
from rules.scoring import RoundScore, category_points, rank_players
from scorer.packs import resolve_edition
from scorer.pad.game import CATEGORIES_MODE, fold
from scorer.pad.people import name_key, tidy
from scorer.pad.store import EventStore
from scorer.race.history import KeptRace
from scorer.solo import view as solo_view
from scorer.solo.game import SoloError, SoloGame

#: The score pad's status of a finished game (`GameSession`).
PAD_FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One finished game as the figures read it."""

    game_id: int
    #: When it was last played (its last event): the order of streaks.
    played_at: float
    edition: Edition
    players: tuple[str, ...]
    #: rounds[p][r]: player p's points in round r.
    rounds: tuple[tuple[RoundScore, ...], ...]
    #: awards[r]: the shared bonuses round r settled.
    awards: tuple[tuple[Award, ...], ...]
    ranks: tuple[int, ...]
    #: Entered by cards (letters, or played in the engine): card-based figures count it.
    by_cards: bool
    #: A solo game against bots: only seat 0 is a person.
    solo: bool = False

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(s.total for s in rounds) for rounds in self.rounds)

    @property
    def people(self) -> range:
        """The seats that are people, not bots."""
        return range(1) if self.solo else range(len(self.players))


def played_games(store: EventStore, edition_lookup: Callable[[str], Edition] = resolve_edition) -> list[PlayedGame]:
    """The finished games on this device, oldest first. A game that cannot be replayed here (its deck's
    pack is gone) is left out, as History cannot open it either."""
    out = []
    for row in reversed(store.games()):
        try:
            if row.status == PAD_FINISHED:
                out.append(_pad_game(row.id, row.updated_at, store, edition_lookup))
            elif row.status == solo_view.FINISHED:
                out.append(_solo_game(row.id, row.updated_at, store))
        except (KeyError, ValueError, SoloError):
            continue
    return out


def _pad_game(game_id: int, played_at: float, store: EventStore,
              edition_lookup: Callable[[str], Edition]) -> PlayedGame:
    state = fold(store.events(game_id), edition_lookup)
    return PlayedGame(game_id, played_at, state.edition, state.players,
                      tuple(map(tuple, state.scores)), tuple(map(tuple, state.awards)), tuple(state.ranks()),
                      by_cards=state.setup.mode != CATEGORIES_MODE)


def _solo_game(game_id: int, played_at: float, store: EventStore) -> PlayedGame:
    game = SoloGame.resume(store.events(game_id))
    rounds = [ParsedRound(rows, choices) for rows, choices in game.state.round_log]
    awards: list[list[Award]] = []
    scores, _notes, _state = score_rounds(game.edition, rounds, game.game.n_players, explain=False, awards=awards)
    return PlayedGame(game_id, played_at, game.edition, tuple(game.setup.players), tuple(map(tuple, scores)),
                      tuple(map(tuple, awards)), tuple(rank_players(game.edition, scores)), by_cards=True,
                      solo=True)


# --- the figures ---------------------------------------------------------------------------------------------

@dataclass
class PlayerFigures:
    """One player's figures over the games counted."""

    #: The person's name: as `who` calls them in their latest game.
    name: str
    games: int = 0
    wins: int = 0
    total_points: int = 0
    best_total: int | None = None
    #: Games entered by cards (the card-based figures' count), and their rounds.
    card_games: int = 0
    card_rounds: int = 0
    #: Category id → points over the games entered by cards, and how many of them have that category.
    category_points: dict[str, int] = field(default_factory=dict)
    category_games: dict[str, int] = field(default_factory=dict)
    #: Region bonuses taken (shared ones count for each who shared them).
    regions_taken: int = 0
    #: Times the route bonus (passport, coast to coast) scored points.
    routes_taken: int = 0
    #: Rounds whose Throw & Catch scored points.
    throw_catch_rounds: int = 0
    longest_streak: int = 0
    current_streak: int = 0

    @property
    def average_total(self) -> float:
        return self.total_points / self.games if self.games else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def average_category(self, category_id: str) -> float | None:
        games = self.category_games.get(category_id, 0)
        return self.category_points[category_id] / games if games else None


@dataclass(frozen=True, slots=True)
class BestRound:
    name: str
    points: int
    game_id: int
    #: 1-based
    round_number: int
    edition: str


@dataclass
class Figures:
    """The figures of one selection of games (an edition or all; solo or table games)."""

    games: int
    #: Most wins first, then most games, then by name.
    players: list[PlayerFigures]
    #: The categories seen, in their editions' sheet order.
    category_ids: list[str]
    best_round: BestRound | None


def select(games: Iterable[PlayedGame], edition: str | None = None, solo: bool = False) -> list[PlayedGame]:
    """The games of one edition (every edition when None), solo games or the others."""
    return [g for g in games if g.solo == solo and (edition is None or g.edition.id == edition)]


def figures(games: Sequence[PlayedGame], who: Callable[[str], str] = tidy) -> Figures:
    """The figures over `games` (already selected: `select`); `who` says which person a name is."""
    players: dict[str, PlayerFigures] = {}
    category_ids: list[str] = []
    best: BestRound | None = None
    for game in sorted(games, key=lambda g: (g.played_at, g.game_id)):
        if game.by_cards:
            category_ids += [c for c in game.edition.category_ids() if c not in category_ids]
        for p in game.people:
            name = who(game.players[p])
            fig = players.setdefault(name_key(name), PlayerFigures(name))
            fig.name = name
            total = sum(s.total for s in game.rounds[p])
            won = game.ranks[p] == 1
            fig.games += 1
            fig.wins += won
            fig.total_points += total
            fig.best_total = total if fig.best_total is None else max(fig.best_total, total)
            fig.current_streak = fig.current_streak + 1 if won else 0
            fig.longest_streak = max(fig.longest_streak, fig.current_streak)
            if not game.by_cards:
                continue
            fig.card_games += 1
            fig.card_rounds += len(game.rounds[p])
            for cid in game.edition.category_ids():
                fig.category_games[cid] = fig.category_games.get(cid, 0) + 1
                fig.category_points.setdefault(cid, 0)
            for r, score in enumerate(game.rounds[p]):
                for cid, points in category_points(game.edition, score).items():
                    fig.category_points[cid] += points
                fig.throw_catch_rounds += score.throw_catch > 0
                if best is None or score.total > best.points:
                    best = BestRound(name, score.total, game.game_id, r + 1, game.edition.id)
            for awards in game.awards:
                for award in awards:
                    if p in award.players:
                        if award.region >= 0:
                            fig.regions_taken += 1
                        elif award.points > 0:
                            fig.routes_taken += 1
    ranked = sorted(players.values(), key=lambda f: (-f.wins, -f.games, f.name.casefold()))
    return Figures(len(games), ranked, category_ids, best)


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two players' games together: who finished ahead how often."""

    games: int
    first_ahead: int
    second_ahead: int
    level: int


def head_to_head(games: Iterable[PlayedGame], first: str, second: str,
                 who: Callable[[str], str] = tidy) -> HeadToHead:
    """Over the games both played (as people), how often each finished ahead of the other; `level` when
    they shared a place after the tie-breakers."""
    a, b = name_key(who(first)), name_key(who(second))
    together = ahead = behind = 0
    for game in games:
        seats = {name_key(who(game.players[p])): p for p in game.people}
        if a == b or a not in seats or b not in seats:
            continue
        together += 1
        ra, rb = game.ranks[seats[a]], game.ranks[seats[b]]
        ahead += ra < rb
        behind += rb < ra
    return HeadToHead(together, ahead, behind, together - ahead - behind)


# --- Race Around Europe ----------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class RaceFigures:
    """The person's finished Race Around Europe games against the bots."""

    games: int
    wins: int
    #: Games a bot won, and games called a draw at the turn cap.
    bot_wins: int
    draws: int
    #: Turns a game, every player's counted (0.0 without games).
    average_turns: float
    #: The fewest turns of a game the person won (None before a first win).
    fastest_win: int | None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def race_figures(races: Sequence[KeptRace]) -> RaceFigures:
    """The figures over the kept games (`scorer.race.history.kept_races`)."""
    wins = [r.turns for r in races if r.won]
    draws = sum(r.winner is None for r in races)
    return RaceFigures(games=len(races), wins=len(wins), bot_wins=len(races) - len(wins) - draws, draws=draws,
                       average_turns=sum(r.turns for r in races) / len(races) if races else 0.0,
                       fastest_win=min(wins, default=None))
