"""A score-pad game as a fold of its events, and the `GameSession` that turns commands into events.

Commands (enter a round's cards, enter a round's category values, clear an entry, undo) are validated
against the whole game *as it would be after them*; only then is the event written (committed) and the
state re-folded. The one-phone pad's screens draw it (`scorer.pad.session.SheetSession`); a table seat's screens draw
the same `PadState` from the table (`scorer.table.sheet`).

Events (payloads are plain JSON):
- ``started``   {edition, players, direction_variant, mode, deck?}  deck: an owner's deck as it was when
                                                              the game began (`scorer.packs.deck_to_keep`)
- ``entry``     {round, player, cards, choice}                letters mode (cards in draft order)
- ``entry``     {round, player, categories: {...}}            categories mode (see `rules.categories`)
- ``cleared``   {round, player}
- ``undo``      {}                                            cancels the latest event still in effect
- ``redo``      {}                                            brings back the latest event undone, if no
                                                              command came after the undo
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import ValidationError

from rules import categories as cat
from rules import wording
from rules.bonuses import Award, BonusMarks, StruckOut
from rules.edition import Edition
from rules.engine import ROUNDS
from rules.record import GameRecord, ParsedRound, record_from_rounds
from rules.scoring import NO_CHOICE, RoundScore, category_points
from rules.sheet import GameSheet
from rules.text import TextError, clean_name
from rules.validation import Entered, RuleError, check_direction_variant, parse_row, validate_rounds
from scorer.locale import _, ngettext
from scorer.pad.errors import EntryError
from scorer.pad.places import SheetPlace, pad_place
from scorer.pad.store import Event, EventStore, summary_text

LETTERS_MODE = "letters"
CATEGORIES_MODE = "categories"
MODES = (LETTERS_MODE, CATEGORIES_MODE)


@dataclass(frozen=True, slots=True)
class Setup:
    edition: str
    players: tuple[str, ...]
    direction_variant: bool = False
    mode: str = LETTERS_MODE

    @property
    def n(self) -> int:
        return len(self.players)


def validate_setup(edition: Edition, players: list[str], direction_variant: bool, mode: str) -> Setup:
    names = []
    for number, typed in enumerate(players, start=1):
        if typed.strip():  # an empty field: fewer players
            try:
                names.append(clean_name(typed, _("player {number}'s name").format(number=number)))
            except TextError as err:
                raise EntryError(str(err)) from None
    if not 2 <= len(names) <= 4:
        raise EntryError(ngettext("Boomerang is for 2 to 4 players; {n} named",
                                  "Boomerang is for 2 to 4 players; {n} named", len(names)).format(n=len(names)))
    try:
        GameRecord(edition=edition.id, players=names)
    except ValidationError as err:
        raise EntryError(err.errors()[0]["msg"].removeprefix("Value error, ")) from None
    try:
        check_direction_variant(len(names), direction_variant)
    except RuleError as err:
        raise EntryError(str(err)) from None
    if mode not in MODES:
        raise EntryError(_("unknown entry mode {mode}").format(mode=repr(mode)))
    return Setup(edition.id, tuple(names), bool(direction_variant), mode)


@dataclass
class PadState:
    """Everything the screens show, recomputed from the events."""

    setup: Setup
    edition: Edition
    #: entries[r][p]: the payload of player p's entry for round r (letters or categories), if any.
    entries: list[dict[int, dict]]
    #: The complete rounds folded into the sheets (`rules.sheet`): scores, explanations, shared bonuses.
    sheet: GameSheet | None = None
    #: Descriptions of the events still in effect, oldest first (what undo would cancel is the last).
    log: list[str] = field(default_factory=list)
    #: The latest event still in effect (what undo cancels) and the latest undone one that redo brings
    #: back, as (kind, payload); None when there is none.
    last_done: tuple[str, dict] | None = None
    last_undone: tuple[str, dict] | None = None

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def scores(self) -> list[list[RoundScore]]:
        """scores[p][r]: player p's score in complete round r."""
        return self.sheet.scores

    @property
    def notes(self) -> list[list[list[str]]]:
        """notes[p][r]: the lines explaining player p's score in complete round r."""
        return self.sheet.notes

    @property
    def before_round(self) -> list:
        """The sheets' carried state before each round (index r) and after the last complete one (index -1)."""
        return self.sheet.before_round

    @property
    def awards(self) -> list[list[Award]]:
        """Per complete round: the shared bonuses it settled (`rules.bonuses.Award`)."""
        return self.sheet.awards

    @property
    def struck_out(self) -> list[list[StruckOut]]:
        """Per complete round: the regions completed in it after an earlier round took them."""
        return self.sheet.struck_out

    @property
    def rounds_done(self) -> int:
        return self.sheet.rounds_done

    @property
    def current_round(self) -> int:
        """0-based index of the round being entered; ROUNDS when the game is over."""
        return self.rounds_done

    @property
    def finished(self) -> bool:
        return self.rounds_done == ROUNDS

    def entered(self, round_index: int) -> list[bool]:
        row = self.entries[round_index] if round_index < ROUNDS else {}
        return [p in row for p in range(self.setup.n)]

    def totals(self) -> list[int]:
        return self.sheet.totals()

    def ranks(self) -> list[int]:
        return self.sheet.ranks()

    def running_totals(self) -> list[list[int]]:
        return self.sheet.running_totals()

    def category_totals(self, player: int) -> dict[str, int]:
        return self.sheet.category_totals(player)

    def consistency_problems(self) -> list[str]:
        """The pad's promise: category points always add up to the totals shown. Empty when they do."""
        problems = []
        for p, name in enumerate(self.players):
            by_category = sum(self.category_totals(p).values())
            if by_category != self.totals()[p]:
                problems.append(_("{name}: categories add up to {sum}, total says {total}").format(
                    name=name, sum=by_category, total=self.totals()[p]))
        return problems

    def tie_breaks(self) -> list[str]:
        """Sentences explaining every tie on the total that a tie-breaker settled (or did not)."""
        return wording.tie_sentences(self.edition, self.players, self.totals(), self.ranks())

    def bonus_summary(self, round_index: int) -> list[str]:
        """Who took which shared bonus in a closed round, and why, in the rules' words."""
        return self.sheet.bonus_summary(round_index, self.players)

    def bonus_marks(self) -> BonusMarks:
        """The shared bonuses after the closed rounds: each region's and route tier's, open or taken."""
        return self.sheet.bonus_marks()

    def region_claims(self) -> dict[str, tuple[int, list[int]]]:
        """Region name → (1-based round it was claimed in, the players who scored it) for claimed regions."""
        return self.sheet.region_claims()

    def route_status(self, player: int) -> str | None:
        """One line for the sheet about the edition's route bonus (Europe's passport, USA's coast to
        coast), or None for an edition without one."""
        route = self.edition.route
        if route is None:
            return None
        for r, score in enumerate(self.scores[player]):
            if score.route:
                return wording.route_achieved_in(route.label, r + 1, score.route)
        if self.setup.mode != LETTERS_MODE:
            return wording.route_not_yet(route.label)
        visited = self.visited(player)
        if route.kind == "passport":
            seen = sum(1 for region in self.edition.regions if visited & region.mask)
            return wording.route_regions_visited(route.label, seen, len(self.edition.regions))
        from rules.scoring import drawn_pathways

        return wording.route_pathways_drawn(route.label, len(drawn_pathways(self.edition, visited)))

    def visited(self, player: int) -> int:
        """Letters mode: the card mask of the sites this player has crossed out (complete rounds)."""
        return self.sheet.visited(player)

    def parsed_rounds(self) -> list[ParsedRound]:
        """Letters mode: the complete rounds as the record module knows them."""
        out = []
        for r in range(self.rounds_done):
            rows, choices = zip(*(letters_entry(self.edition, self.entries[r][p], r, name)
                                  for p, name in enumerate(self.players)), strict=True)
            out.append(ParsedRound(tuple(rows), tuple(choices)))
        return out

    def record(self) -> GameRecord:
        if self.setup.mode != LETTERS_MODE:
            raise EntryError(_("a game entered by category has no cards, so it has no `tourpad score` record; "
                               "export the CSV instead"))
        return record_from_rounds(self.edition, list(self.players), self.parsed_rounds(),
                                  self.setup.direction_variant)

    def csv_text(self) -> str:
        import csv
        import io

        names = self.edition.category_names()
        ids = self.edition.category_ids()
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        # every column holds one kind of value: a rank has its own column (empty on a round's row)
        writer.writerow(["player", "round", *(names[i] for i in ids), "round total", "running total", "rank"])
        running = self.running_totals()
        for p, name in enumerate(self.players):
            for r, s in enumerate(self.scores[p]):
                writer.writerow([name, r + 1, *category_points(self.edition, s).values(), s.total,
                                 running[p][r], ""])
        if self.finished:
            for p, name in enumerate(self.players):
                writer.writerow([name, "total", *self.category_totals(p).values(), self.totals()[p],
                                 self.totals()[p], self.ranks()[p]])
        return buf.getvalue()

    def summary(self) -> str:
        """One line for the home screen's lists."""
        if not self.finished:
            return summary_text(round=self.current_round + 1, rounds=ROUNDS)
        ranks, totals = self.ranks(), self.totals()
        order = sorted(range(self.setup.n), key=lambda p: (ranks[p], -totals[p]))
        return summary_text(standings=[(self.players[p], totals[p]) for p in order])


def letters_entry(edition: Edition, payload: dict, round_index: int, name: str
                  ) -> tuple[tuple[int, ...], int]:
    where = f"round {round_index + 1}, {name}"
    row = parse_row(edition, payload["cards"], where)
    choice = payload.get("choice")
    if choice is None:
        return row, NO_CHOICE
    return row, edition.choice.icon_index(choice)


def check_entries(edition: Edition, setup: Setup, entries: list[dict[int, dict]],
                  focus: int | None = None) -> None:
    """Every rule a set of entries can break, round by round; raises EntryError naming the first one.

    `focus` is the player being entered: checked last in each round, so a clash is reported against them.
    """
    try:
        if setup.mode == CATEGORIES_MODE:
            cat.check_rounds(edition, setup.players,
                             [{p: e["categories"] for p, e in row.items()} for row in entries], focus)
        else:
            validate_rounds(edition, setup.players,
                            [{p: Entered(e["cards"], e.get("choice")) for p, e in row.items()} for row in entries],
                            focus)
    except RuleError as err:
        raise EntryError(str(err)) from None


def fold(events: list[Event], edition_lookup: Callable[[str], Edition]) -> PadState:
    """The state a list of events leads to. `undo` cancels the latest event still in effect."""
    if not events or events[0].kind != "started":
        raise ValueError("a game's first event is `started`")
    start = events[0].payload
    setup = Setup(start["edition"], tuple(start["players"]), start.get("direction_variant", False),
                  start.get("mode", LETTERS_MODE))
    effective: list[Event] = []
    undone: list[Event] = []  # most recent last; a new command makes them unreachable
    for event in events[1:]:
        if event.kind == "undo":
            if effective:
                undone.append(effective.pop())
        elif event.kind == "redo":
            if undone:
                effective.append(undone.pop())
        else:
            effective.append(event)
            undone.clear()
    entries: list[dict[int, dict]] = [{} for _ in range(ROUNDS)]
    for event in effective:
        apply_event(entries, event.kind, event.payload)
    state = PadState(setup, edition_lookup(setup.edition), entries)
    state.log = [describe(setup, e.kind, e.payload) for e in effective]
    state.last_done = (effective[-1].kind, effective[-1].payload) if effective else None
    state.last_undone = (undone[-1].kind, undone[-1].payload) if undone else None
    score(state)
    return state


def apply_event(entries: list[dict[int, dict]], kind: str, payload: dict) -> None:
    r, p = payload["round"], payload["player"]
    if kind == "entry":
        entries[r][p] = {k: v for k, v in payload.items() if k not in ("round", "player")}
    elif kind == "cleared":
        entries[r].pop(p, None)
    else:
        raise ValueError(f"unknown event {kind!r}")


def describe(setup: Setup, kind: str, payload: dict) -> str:
    name = setup.players[payload["player"]]
    number = payload["round"] + 1
    if kind == "cleared":
        return _("cleared {name}'s round {round}").format(name=name, round=number)
    if "cards" in payload:
        choice = f" + {payload['choice']}" if payload.get("choice") else ""
        return _("{name}'s round {round}: {cards}").format(name=name, round=number, cards=payload["cards"]) + choice
    return _("{name}'s round {round} (by category)").format(name=name, round=number)


def undo_question(state: PadState, kind: str, payload: dict, redo: bool = False) -> str:
    """What Undo (or Redo) asks before it acts: "Undo Ann's round 2 (ABCDEFG, Hiking)?"."""
    name = state.players[payload["player"]]
    number = payload["round"] + 1
    if kind == "cleared":
        return (_("Redo clearing {name}'s round {round}?") if redo
                else _("Undo clearing {name}'s round {round}?")).format(name=name, round=number)
    if "cards" in payload:
        family = state.edition.choice
        choice = payload.get("choice")
        chosen = family.icons[family.icon_index(choice)].label if choice else \
            wording.CHOICE_NONE_BUTTON[family.rule]
        return (_("Redo {name}'s round {round} ({cards}, {choice})?") if redo
                else _("Undo {name}'s round {round} ({cards}, {choice})?")).format(
            name=name, round=number, cards=payload["cards"], choice=chosen)
    return (_("Redo {name}'s round {round} (by category)?") if redo
            else _("Undo {name}'s round {round} (by category)?")).format(name=name, round=number)


def score(state: PadState) -> None:
    """Fold the complete rounds, in order, into the sheets (`rules.sheet`)."""
    setup, edition = state.setup, state.edition
    n = setup.n
    sheet = GameSheet.start(edition, n, by_category=setup.mode != LETTERS_MODE)
    for r in range(ROUNDS):
        if len(state.entries[r]) < n:
            break
        if setup.mode == LETTERS_MODE:
            rows, choices = zip(*(letters_entry(edition, state.entries[r][p], r, setup.players[p])
                                  for p in range(n)), strict=True)
            sheet.add_round(ParsedRound(tuple(rows), tuple(choices)))
        else:
            sheet.add_typed_round([state.entries[r][p]["categories"] for p in range(n)])
    state.sheet = sheet


class GameSession:
    """One game: commands in, events persisted (committed first), state = fold of the events.

    Thread-safe: the pad's handlers and a table host's requests may call it from several threads.
    `listeners` are called with the new state after every accepted command (pubsub, table clients).
    """

    def __init__(self, store: EventStore, game_id: int,
                 edition_lookup: Callable[[str], Edition] | None = None) -> None:
        from scorer.packs import resolve_edition, saved_game_lookup

        self.store = store
        self.game_id = game_id
        events = store.events(game_id)
        # an owner's deck is kept in the game: later edits of the deck never rescore it
        self._lookup = saved_game_lookup(events[0].payload if events else {}, edition_lookup or resolve_edition)
        self._lock = threading.RLock()
        self.listeners: list[Callable[[PadState], None]] = []
        self.state = fold(events, self._lookup)

    @classmethod
    def new(cls, store: EventStore, edition_id: str, players: list[str], direction_variant: bool = False,
            mode: str = LETTERS_MODE, edition_lookup: Callable[[str], Edition] | None = None) -> GameSession:
        from scorer.packs import deck_to_keep, resolve_edition

        lookup = edition_lookup or resolve_edition
        edition = lookup(edition_id)
        setup = validate_setup(edition, players, direction_variant, mode)
        payload = {"edition": setup.edition, "players": list(setup.players),
                   "direction_variant": setup.direction_variant, "mode": setup.mode}
        deck = deck_to_keep(edition)
        if deck is not None:
            payload["deck"] = deck
        game_id = store.create_game(setup.edition, list(setup.players), ("started", payload),
                                    summary=summary_text(round=1, rounds=ROUNDS))
        return cls(store, game_id, lookup)

    def rematch(self) -> GameSession:
        """A new game on this device with this one's players (in the same order), edition, direction
        variant and way of entering: the next game, nothing typed again."""
        setup = self.state.setup
        return GameSession.new(self.store, setup.edition, list(setup.players), setup.direction_variant,
                               setup.mode, edition_lookup=self._lookup)

    @classmethod
    def from_record(cls, store: EventStore, record: GameRecord,
                    edition_lookup: Callable[[str], Edition] | None = None) -> GameSession:
        """A game on this device (History, export) from a JSON record, e.g. a table's game: entered round by
        round through the same checks as typed entries."""
        session = cls.new(store, record.edition, list(record.players), record.direction_variant,
                          edition_lookup=edition_lookup)
        for r, row in enumerate(record.rounds):
            for p, name in enumerate(record.players):
                entry = row[name]
                session.enter_letters(p, entry.cards, entry.choice, round_index=r)
        return session

    # --- commands --------------------------------------------------------------------------------------

    def enter_letters(self, player: int, cards: str, choice: str | None, round_index: int | None = None
                      ) -> PadState:
        cleaned = cards.replace(" ", "").replace(",", "").upper()
        payload = {"cards": cleaned, "choice": (choice or None) and choice.strip()}
        if self.state.setup.mode != LETTERS_MODE:
            raise EntryError(_("this game is entered by category; enter each category's value"))
        if payload["choice"] is not None:
            family = self.state.edition.choice
            with contextlib.suppress(KeyError):  # check_entries names an unknown choice
                payload["choice"] = family.icons[family.icon_index(payload["choice"])].name
        return self._enter(player, payload, round_index)

    def enter_categories(self, player: int, values: dict, round_index: int | None = None) -> PadState:
        if self.state.setup.mode != CATEGORIES_MODE:
            raise EntryError(_("this game is entered by letters; tap the player's 7 cards"))
        try:
            normalised = cat.normalise(self.state.edition, values)
        except RuleError as err:
            raise EntryError(str(err)) from None
        return self._enter(player, {"categories": normalised}, round_index)

    def clear(self, player: int, round_index: int) -> PadState:
        with self._lock:
            state = self.reload()
            if player not in state.entries[round_index]:
                raise EntryError(_("round {round}: {name} has nothing entered").format(
                    round=round_index + 1, name=state.players[player]))
            later = any(state.entries[r] for r in range(round_index + 1, ROUNDS))
            if round_index < state.rounds_done and later:
                raise EntryError(_("round {round} is closed and later rounds depend on it; edit {name}'s entry "
                                   "instead of clearing it").format(round=round_index + 1, name=state.players[player]))
            return self._commit("cleared", {"round": round_index, "player": player})

    def undo(self) -> str:
        """Cancel the latest command still in effect; returns what it was."""
        with self._lock:
            if not self.reload().log:
                raise EntryError(_("nothing to undo"))
            what = self.state.log[-1]
            self._commit("undo", {})
            return what

    def redo(self) -> str:
        """Bring back the latest undone command, if nothing was entered since; returns what it was."""
        with self._lock:
            state = self.reload()
            if state.last_undone is None:
                raise EntryError(_("nothing to redo"))
            kind, payload = state.last_undone
            self._commit("redo", {})
            return describe(state.setup, kind, payload)

    @property
    def can_undo(self) -> bool:
        # a finished game (reopened from History) is corrected with Edit round, not undone
        return bool(self.state.log) and not self.state.finished

    @property
    def can_redo(self) -> bool:
        return self.state.last_undone is not None

    # --- what the sheet screens ask (scorer.pad.session.SheetSession) ---------------------------------------

    @property
    def place(self) -> SheetPlace:
        return pad_place(self.game_id)

    has_undo = True  # the one phone's log: undo cancels the latest entry, whoever's it was
    passed_around = True  # one phone for everyone: after a player's round, the next player's keypad

    @property
    def title(self) -> str:
        return self.state.edition.label.removeprefix("Boomerang: ").removeprefix("Boomerang : ")

    @property
    def export_name(self) -> str:
        return f"tourpad-game-{self.game_id}"

    @property
    def where(self) -> str:
        return _("Game {number}").format(number=self.game_id)

    @property
    def draft_key(self) -> tuple:
        return ("game", str(self.store.path), self.game_id)

    def may_enter(self, round_index: int, player: int) -> bool:
        """One phone passed around: any player's round so far, or the one being entered."""
        return 0 <= player < self.state.setup.n and 0 <= round_index <= min(self.state.current_round, ROUNDS - 1)

    def status_lines(self) -> list[str]:
        return []

    def reload(self) -> PadState:
        """Re-fold from the store: another tab, phone or process may have written since."""
        with self._lock:
            self.state = fold(self.store.events(self.game_id), self._lookup)
            return self.state

    # --- internals -------------------------------------------------------------------------------------

    def _enter(self, player: int, payload: dict, round_index: int | None) -> PadState:
        with self._lock:
            state = self.reload()
            r = state.current_round if round_index is None else round_index
            if not 0 <= r < ROUNDS:
                raise EntryError(_("the game is over; edit a round from the sheet instead"))
            if not 0 <= player < state.setup.n:
                raise EntryError(_("no player #{number} in this game").format(number=player + 1))
            candidate = [dict(row) for row in state.entries]
            candidate[r][player] = payload
            check_entries(state.edition, state.setup, candidate, focus=player)
            return self._commit("entry", {"round": r, "player": player, **payload})

    def _commit(self, kind: str, payload: dict) -> PadState:
        events = self.store.events(self.game_id)
        candidate = fold([*events, Event(len(events) + 1, kind, payload, 0.0)], self._lookup)
        status = "finished" if candidate.finished else "playing"
        self.store.append(self.game_id, kind, payload, status=status, summary=candidate.summary())
        self.state = candidate
        for listener in list(self.listeners):
            listener(candidate)
        return candidate
