"""A game's sheets: the one fold of its closed rounds into scores, shared bonuses and their explanations.

Every reader of a game's scores reads this fold: `tourpad score` (`rules.record`), the one-phone pad
(`scorer.pad.game.PadState`), a table's host (`scorer.table.service`, which sends the result to the seats
and the board as `SheetData`), and solo. Rounds are folded in order, each scored across the table
(`rules.scoring.resolve_round`, or `rules.categories.resolve_round` for rounds typed by category), which
settles the shared first-come bonuses of the round together (regions, Europe's passport, USA's coast to
coast: `rules.bonuses`). What the sheets carry from round to round is kept before every round, so a
preview of a round being entered (or corrected) starts from the sheets as they were then.

`SheetData` is the fold's result as JSON, validated on the way in: a table's seats and its board read the
host's scores from it without scoring anything again. It carries the explanations in every language
tourpad speaks, as each phone at a table reads its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules import categories as cat
from rules import wording
from rules.bonuses import Award, BonusMarks, StruckOut, bonus_marks
from rules.edition import Edition
from rules.engine import ROUNDS
from rules.i18n import LANGUAGES, current_language, use_language
from rules.scoring import RoundScore, ScoreState, category_points, rank_players, resolve_round

#: What the sheets carry from one round to the next: letters mode's, or category mode's.
Carried = ScoreState | cat.CategoryState


@dataclass(frozen=True, slots=True)
class ParsedRound:
    """One round's entries, checked: each player's 7 cards (indices, draft order) and choice icon index
    (`rules.scoring.NO_CHOICE` for none)."""

    rows: tuple[tuple[int, ...], ...]
    choices: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ScoredRound:
    """One closed round scored across the table: each player's score and the lines explaining it, the
    shared bonuses it settled and the regions completed in it after an earlier round took them."""

    scores: tuple[RoundScore, ...]
    notes: tuple[tuple[str, ...], ...]
    awards: tuple[Award, ...]
    struck_out: tuple[StruckOut, ...]


@dataclass(slots=True)
class GameSheet:
    """The sheets of a game after its closed rounds: what every score screen, report and export reads."""

    edition: Edition
    n_players: int
    rounds: list[ScoredRound] = field(default_factory=list)
    #: before_round[r]: what the sheets carried into round r; before_round[-1]: after the last closed round.
    before_round: list[Carried] = field(default_factory=list)
    #: What was entered, round by round: `ParsedRound`s (letters mode) or each player's typed values.
    entered: list = field(default_factory=list, repr=False)
    #: The language the fold's own explanation lines are in.
    notes_language: str = ""
    #: A sheet sent as `SheetData`: its explanations in every language (language → rounds[r][p] lines).
    notes_by_language: dict[str, list[list[list[str]]]] = field(default_factory=dict, repr=False)

    @classmethod
    def start(cls, edition: Edition, n_players: int, by_category: bool = False) -> GameSheet:
        carried = cat.CategoryState.new(n_players) if by_category else ScoreState(n_players)
        return cls(edition, n_players, [], [carried], notes_language=current_language())

    # --- folding rounds in ------------------------------------------------------------------------------

    def add_round(self, parsed: ParsedRound, explain: bool = True) -> ScoredRound:
        """Letters mode: score the next round from the players' cards and choices."""
        carried = self.carried.copy()
        awards: list[Award] = []
        struck: list[StruckOut] = []
        scores, notes = resolve_round(self.edition, carried, parsed.rows, parsed.choices, explain,
                                      awards=awards, struck_out=struck)
        return self._close(parsed, carried, scores, notes, awards, struck)

    def add_typed_round(self, values: Sequence[Mapping]) -> ScoredRound:
        """Category mode: score the next round from each player's normalised values (`rules.categories`)."""
        carried = self.carried.copy()
        awards: list[Award] = []
        struck: list[StruckOut] = []
        scores, notes = cat.resolve_round(self.edition, carried, values, len(self.rounds) + 1, awards=awards,
                                          struck_out=struck)
        return self._close(list(values), carried, scores, notes, awards, struck)

    def _close(self, entered, carried: Carried, scores: Sequence[RoundScore], notes: Sequence[Sequence[str]],
               awards: list[Award], struck: list[StruckOut]) -> ScoredRound:
        scored = ScoredRound(tuple(scores), tuple(tuple(lines) for lines in notes), tuple(awards), tuple(struck))
        self.entered.append(entered)
        self.rounds.append(scored)
        self.before_round.append(carried)
        return scored

    # --- what the sheets say ----------------------------------------------------------------------------

    @property
    def carried(self) -> Carried:
        """What the sheets carry after the last closed round."""
        return self.before_round[-1]

    @property
    def rounds_done(self) -> int:
        return len(self.rounds)

    @property
    def scores(self) -> list[list[RoundScore]]:
        """scores[p][r]: player p's score in round r."""
        return [[scored.scores[p] for scored in self.rounds] for p in range(self.n_players)]

    @property
    def notes(self) -> list[list[list[str]]]:
        """notes[p][r]: the lines explaining player p's score in round r, in the language of the moment
        when the sheet holds it (a sheet sent as `SheetData` holds every language)."""
        by_round = self.notes_by_language.get(current_language())
        if by_round is None:
            by_round = [scored.notes for scored in self.rounds]
        return [[list(by_round[r][p]) for r in range(self.rounds_done)] for p in range(self.n_players)]

    @property
    def awards(self) -> list[list[Award]]:
        """Per closed round, the shared bonuses it settled (regions in the edition's order, then the route)."""
        return [list(scored.awards) for scored in self.rounds]

    @property
    def struck_out(self) -> list[list[StruckOut]]:
        """Per closed round, the regions completed in it after an earlier round took them."""
        return [list(scored.struck_out) for scored in self.rounds]

    def totals(self) -> list[int]:
        return [sum(s.total for s in rounds) for rounds in self.scores]

    def ranks(self) -> list[int]:
        return rank_players(self.edition, self.scores)

    def running_totals(self) -> list[list[int]]:
        """Per player, the total after each closed round (a chart's lines)."""
        out = []
        for rounds in self.scores:
            acc, line = 0, []
            for s in rounds:
                acc += s.total
                line.append(acc)
            out.append(line)
        return out

    def category_points(self, score: RoundScore) -> dict[str, int]:
        return category_points(self.edition, score)

    def category_totals(self, player: int) -> dict[str, int]:
        sums = dict.fromkeys(self.edition.category_ids(), 0)
        for score in self.scores[player]:
            for cid, points in category_points(self.edition, score).items():
                sums[cid] += points
        return sums

    def bonus_summary(self, round_index: int, names: Sequence[str]) -> list[str]:
        """Who took which shared bonus in a closed round, and why, in the rules' words."""
        awards = self.awards
        return wording.round_bonus_summary(self.edition, awards[round_index], names,
                                           self.rounds[round_index].struck_out, awards[:round_index])

    def bonus_summaries(self, names: Sequence[str]) -> list[list[str]]:
        return wording.bonus_summaries(self.edition, self.awards, names, self.struck_out)

    def bonus_marks(self) -> BonusMarks:
        """The shared bonuses after the closed rounds: each region's and route tier's, open or taken."""
        return bonus_marks(self.edition, self.awards, self.carried, self.n_players)

    def region_claims(self) -> dict[str, tuple[int, list[int]]]:
        """Region name → (1-based round it was claimed in, the players who scored it) for claimed regions."""
        return {award.name: (r + 1, list(award.players))
                for r, scored in enumerate(self.rounds) for award in scored.awards if award.region >= 0}

    def visited(self, player: int) -> int:
        """Letters mode: the card mask of the sites this player has crossed out (closed rounds)."""
        carried = self.carried
        return carried.visited[player] if isinstance(carried, ScoreState) else 0

    # --- as JSON ----------------------------------------------------------------------------------------

    def to_data(self) -> SheetData:
        """The sheet as JSON-able data, explanations in every language (letters mode only)."""
        if not all(isinstance(c, ScoreState) for c in self.before_round):
            raise ValueError("only a game entered by letters travels as SheetData")
        notes = {lang: self._notes_in(lang) for lang in LANGUAGES}
        return SheetData(
            n_players=self.n_players,
            rounds=[RoundData(scores=[list(s) for s in scored.scores],
                              awards=[AwardData(name=a.name, points=a.points, players=list(a.players),
                                                region=a.region, tier=a.tier) for a in scored.awards],
                              struck_out=[StruckData(name=s.name, region=s.region, players=list(s.players))
                                          for s in scored.struck_out])
                    for scored in self.rounds],
            before_round=[CarriedData(visited=c.visited, previous_collection=c.previous_collection,
                                      choices_used=c.choices_used, regions_claimed=c.regions_claimed,
                                      route_done=c.route_done, route_next_tier=c.route_next_tier)
                          for c in self.before_round],
            notes=notes)

    def _notes_in(self, lang: str) -> list[list[list[str]]]:
        """rounds[r][p]: the explanations in `lang`; the fold's own, or its rounds folded again for their
        words in that language (the points are the ones already folded)."""
        if lang in self.notes_by_language:
            return self.notes_by_language[lang]
        if lang == self.notes_language or len(self.entered) < self.rounds_done:  # (a sheet that came as data)
            return [[list(lines) for lines in scored.notes] for scored in self.rounds]
        with use_language(lang):
            again = fold_rounds(self.edition, self.entered, self.n_players)
        return [[list(lines) for lines in scored.notes] for scored in again.rounds]

    @classmethod
    def from_data(cls, edition: Edition, data: SheetData | Mapping) -> GameSheet:
        """A sheet sent as `SheetData` (validated here), read as it was scored: nothing is scored again."""
        data = data if isinstance(data, SheetData) else SheetData.model_validate(data)
        first = next(iter(data.notes.values()), [])
        rounds = [ScoredRound(tuple(RoundScore(*s) for s in rnd.scores),
                              tuple(tuple(lines) for lines in first[r]) if r < len(first) else (),
                              tuple(Award(a.name, a.points, tuple(a.players), a.region, a.tier) for a in rnd.awards),
                              tuple(StruckOut(s.name, s.region, tuple(s.players)) for s in rnd.struck_out))
                  for r, rnd in enumerate(data.rounds)]
        before = [ScoreState(data.n_players, list(c.visited), list(c.previous_collection), list(c.choices_used),
                             c.regions_claimed, c.route_done, c.route_next_tier) for c in data.before_round]
        return cls(edition, data.n_players, rounds, before, notes_language=next(iter(data.notes), ""),
                   notes_by_language=data.notes)


def fold_rounds(edition: Edition, rounds: Iterable[ParsedRound], n_players: int, explain: bool = True) -> GameSheet:
    """Letters mode: the sheets after `rounds`, scored in order."""
    sheet = GameSheet.start(edition, n_players)
    for parsed in rounds:
        sheet.add_round(parsed, explain)
    return sheet


# --- the fold's result as JSON ---------------------------------------------------------------------------------

class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AwardData(_Data):
    name: str = Field(max_length=64)
    points: int
    players: list[int] = Field(max_length=4, description="the players who took it (0-based)")
    region: int = Field(description="the region's index; -1 for the route")
    tier: int = Field(description="the route tier taken (0 = first); -1 for a region")


class StruckData(_Data):
    name: str = Field(max_length=64)
    region: int
    players: list[int] = Field(max_length=4)


class RoundData(_Data):
    scores: list[list[int]] = Field(max_length=4, description="per player, the score's fields in "
                                                              "`rules.scoring.RoundScore` order")
    awards: list[AwardData] = Field(max_length=32)
    struck_out: list[StruckData] = Field(max_length=32)


class CarriedData(_Data):
    visited: list[int] = Field(max_length=4)
    previous_collection: list[int] = Field(max_length=4)
    choices_used: list[int] = Field(max_length=4)
    regions_claimed: int
    route_done: int
    route_next_tier: int


class SheetData(_Data):
    """A game's sheets after its closed rounds, as the host scored them (`GameSheet.to_data`)."""

    n_players: int = Field(ge=2, le=4)
    rounds: list[RoundData] = Field(max_length=ROUNDS)
    before_round: list[CarriedData] = Field(min_length=1, max_length=ROUNDS + 1)
    notes: dict[str, list[list[list[str]]]] = Field(
        max_length=8, description="language → rounds[r][p]: the lines explaining each player's score")

    @model_validator(mode="after")
    def _one_game(self) -> SheetData:
        n, fields = self.n_players, len(RoundScore._fields)
        if len(self.before_round) != len(self.rounds) + 1:
            raise ValueError(f"{len(self.rounds)} rounds need {len(self.rounds) + 1} carried states, "
                             f"not {len(self.before_round)}")
        for r, rnd in enumerate(self.rounds, start=1):
            if len(rnd.scores) != n or any(len(score) != fields for score in rnd.scores):
                raise ValueError(f"round {r}: {n} scores of {fields} fields each expected")
            if any(not 0 <= p < n for bonus in [*rnd.awards, *rnd.struck_out] for p in bonus.players):
                raise ValueError(f"round {r}: a bonus names a player who is not one of the {n}")
        for lang, rounds in self.notes.items():
            if len(rounds) != len(self.rounds) or any(len(lines) != n for lines in rounds):
                raise ValueError(f"notes in {lang!r}: {n} players' lines for each of {len(self.rounds)} rounds "
                                 "expected")
        for c in self.before_round:
            if not len(c.visited) == len(c.previous_collection) == len(c.choices_used) == n:
                raise ValueError(f"a carried state has {n} players' sheets")
        return self
