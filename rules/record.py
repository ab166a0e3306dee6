"""The game record (`tourpad score FILE.json`, the app's export): a pydantic model, its validation, its score.

```json
{"edition": "australia", "players": ["Ann", "Bob"],
 "rounds": [{"Ann": {"cards": "ABCDEFG", "activity": "Swimming"},
             "Bob": {"cards": "HIJKLMN", "activity": null}}]}
```
`cards` are the 7 letters in draft order (Throw first, Catch last). The round-end choice is `activity`
(Australia, USA) or `treasure` (Europe); null means none. 1 to 4 rounds (a game in progress).
Every problem is reported with the round, the player and the rule it breaks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rules import wording
from rules.bonuses import Award, StruckOut
from rules.edition import Edition
from rules.editions import deck_version
from rules.engine import ROUNDS
from rules.locale import _
from rules.scoring import NO_CHOICE, RoundScore, ScoreState, category_points
from rules.sheet import GameSheet, ParsedRound, fold_rounds
from rules.text import RECORDED_NAME_LENGTH, TextError, clean_name
from rules.validation import Entered, RuleError, check_direction_variant, validate_round

#: A record that breaks a rule; the message names the round, the player and the problem.
RecordError = RuleError


class PlayerRound(BaseModel):
    model_config = ConfigDict(extra="forbid")

    cards: str = Field(max_length=32, description="7 letters in draft order: Throw first, Catch last")
    activity: str | None = Field(default=None, max_length=40, description="Australia, USA: activity scored")
    treasure: str | None = Field(default=None, max_length=40, description="Europe: National Treasure scored")

    @property
    def choice(self) -> str | None:
        return self.activity if self.activity is not None else self.treasure


class DeckRef(BaseModel):
    """The owner's deck a game was scored with: which one (`id`, as `tourpad deck import` installs it), its
    name as shown, and its version (`rules.editions.deck_version`), so scoring the record again can tell
    a later edit of the deck from the deck the game was played with."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(max_length=64)
    name: str = Field(max_length=80)
    version: str = Field(pattern=r"^[0-9a-f]{12}$")


def deck_ref(edition: Edition) -> DeckRef | None:
    """The deck reference a record of this edition carries: an owner's deck names itself; tourpad's
    editions are the deck their id says."""
    if edition.provenance != "owner":
        return None
    return DeckRef(id=edition.id, name=edition.name, version=deck_version(edition))


class GameRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    edition: str = Field(max_length=64)
    #: The owner's deck the game was scored with (absent for tourpad's and the publisher's decks).
    deck: DeckRef | None = None
    players: list[str] = Field(min_length=2, max_length=4)
    direction_variant: bool = False
    rounds: list[dict[str, PlayerRound]] = Field(default_factory=list, max_length=ROUNDS)

    @field_validator("players")
    @classmethod
    def _names(cls, players: list[str]) -> list[str]:
        for name in players:
            # The one check of typed names (rules.text), at the 40 characters records always allowed, so
            # games saved before names were limited to 24 still load. Checked, not rewritten: the rounds
            # are keyed by the names as written.
            try:
                clean_name(name, _("player name {name}").format(name=repr(name)), longest=RECORDED_NAME_LENGTH)
            except TextError as err:
                raise ValueError(str(err)) from None
        if len({n.casefold() for n in players}) != len(players):
            raise ValueError(_("player names must be different"))
        return players


def choice_key(edition: Edition) -> str:
    """The record field for the round-end choice: "treasure" where it scores others' icons, else "activity"."""
    return "treasure" if edition.choice.rule == "treasure_others" else "activity"


def _check_choice_field(edition: Edition, entry: PlayerRound, where: str) -> None:
    """Europe's choice is a National Treasure ("treasure"); the others' an Activity ("activity")."""
    key = choice_key(edition)
    other = "activity" if key == "treasure" else "treasure"
    if getattr(entry, other) is not None:
        raise RecordError(_("{where}: {edition} records the {family} choice as {key}, not {other}").format(
            where=where, edition=edition.label, family=edition.choice.label, key=repr(key), other=repr(other)))


def parse_record(record: GameRecord, edition: Edition) -> tuple[list[ParsedRound], list[str]]:
    """Check every rule a record can break; returns the parsed rounds and warnings (not errors)."""
    players = record.players
    check_direction_variant(len(players), record.direction_variant)
    parsed: list[ParsedRound] = []
    warnings: list[str] = []
    used: list[dict[int, int]] = [{} for _ in players]
    set_aside_before: int | None = None
    for r, entries in enumerate(record.rounds, start=1):
        unknown = [name for name in entries if name not in players]
        if unknown:
            raise RecordError(_("{where}: {name} is not a player of this game ({players})").format(
                where=wording.round_and_player(r), name=repr(unknown[0]), players=", ".join(players)))
        missing = [name for name in players if name not in entries]
        if missing:
            raise RecordError(_("{where}: no cards entered for {name}").format(where=wording.round_and_player(r),
                                                                               name=missing[0]))
        for name in players:
            _check_choice_field(edition, entries[name], wording.round_and_player(r, name))
        checked = validate_round(edition, r, players, {p: Entered(entries[name].cards, entries[name].choice)
                                                        for p, name in enumerate(players)}, used)
        rows = tuple(checked[p].row for p in range(len(players)))
        choices = tuple(checked[p].choice for p in range(len(players)))
        for p, choice in enumerate(choices):
            if choice != NO_CHOICE:
                used[p][choice] = r
        dealt = sum(1 << c for row in rows for c in row)
        if set_aside_before is not None and set_aside_before & ~dealt:
            missing_letters = ", ".join(edition.letters_of(set_aside_before & ~dealt))
            warnings.append(_("{where}: {letters} were not dealt in round {previous}, so the rules deal them first "
                              "in round {round}; check those letters").format(
                where=wording.round_and_player(r), letters=missing_letters, previous=r - 1, round=r))
        set_aside_before = ((1 << len(edition.cards)) - 1) & ~dealt if len(players) < 4 else None
        parsed.append(ParsedRound(rows, choices))
    return parsed, warnings


@dataclass
class GameReport:
    edition: Edition
    players: list[str]
    #: rounds[p][r]: player p's score in round r
    rounds: list[list[RoundScore]]
    notes: list[list[list[str]]]
    ranks: list[int]
    warnings: list[str] = field(default_factory=list)

    @property
    def totals(self) -> list[int]:
        return [sum(r.total for r in rounds) for rounds in self.rounds]

    def category_points(self, score: RoundScore) -> dict[str, int]:
        return category_points(self.edition, score)

    def to_dict(self) -> dict:
        return {
            "edition": self.edition.id,
            "players": [
                {"name": name, "total": self.totals[p], "rank": self.ranks[p],
                 "rounds": [self.category_points(s) for s in self.rounds[p]],
                 "explanations": self.notes[p]}
                for p, name in enumerate(self.players)],
            "categories": self.edition.category_names(),
            "warnings": self.warnings,
        }


def score_rounds(edition: Edition, rounds: list[ParsedRound], n_players: int, explain: bool = True,
                 awards: list[list[Award]] | None = None, struck_out: list[list[StruckOut]] | None = None,
                 ) -> tuple[list[list[RoundScore]], list[list[list[str]]], ScoreState]:
    """Score `rounds` in order (the fold, `rules.sheet`); with `awards`, one list per round of the shared
    bonuses settled in it; with `struck_out`, one list per round of the regions completed after an earlier
    round took them."""
    sheet = fold_rounds(edition, rounds, n_players, explain)
    if awards is not None:
        awards.extend(sheet.awards)
    if struck_out is not None:
        struck_out.extend(sheet.struck_out)
    return sheet.scores, sheet.notes, sheet.carried


def round_summaries(edition: Edition, rounds: list[ParsedRound], names: list[str]) -> list[list[str]]:
    """Per round, the sentences saying who took which shared bonus and why, and which regions were
    completed too late (`rules.wording.round_bonus_summary`): what a table shows as each round closes."""
    return fold_rounds(edition, rounds, len(names), explain=False).bonus_summaries(names)


def report_of(sheet: GameSheet, players: list[str], warnings: list[str] | None = None) -> GameReport:
    """The report (`tourpad score`) of a game's folded sheets."""
    return GameReport(sheet.edition, list(players), sheet.scores, sheet.notes, sheet.ranks(), warnings or [])


def score_record(record: GameRecord, edition: Edition) -> GameReport:
    parsed, warnings = parse_record(record, edition)
    return report_of(fold_rounds(edition, parsed, len(record.players)), record.players, warnings)


def record_from_rounds(edition: Edition, players: list[str], rounds: list[ParsedRound],
                       direction_variant: bool = False) -> GameRecord:
    """The record of rounds played in the engine or entered in the app (the inverse of `parse_record`)."""
    key = choice_key(edition)
    out = []
    for parsed in rounds:
        entry = {}
        for p, name in enumerate(players):
            choice = parsed.choices[p]
            entry[name] = PlayerRound(**{
                "cards": "".join(edition.cards[c].letter for c in parsed.rows[p]),
                key: edition.choice.icons[choice].name if choice != NO_CHOICE else None})
        out.append(entry)
    return GameRecord(edition=edition.id, deck=deck_ref(edition), players=players,
                      direction_variant=direction_variant, rounds=out)
