"""The submission pipeline: a seat's round checked against the whole table by the rules, applied in memory,
queued for the store, acknowledged once it is on disk."""

from __future__ import annotations

from rules.engine import ROUNDS
from rules.scoring import NO_CHOICE
from rules.validation import CardClash, Entered, RuleError, validate_round
from scorer.locale import _
from scorer.table import trace
from scorer.table.errors import Conflict, Forbidden, Invalid, NotFound
from scorer.table.feed import Feed
from scorer.table.seats import Seats, seat_index
from scorer.table.store import PendingWrite, StoredEntry
from scorer.table.table import Table, Tables, ended_message, format_code


class Submissions:
    """Every seat's entries: enter or edit a round, with the rules' check first and the commit before the
    acknowledgement."""

    def __init__(self, tables: Tables, feed: Feed, seats: Seats) -> None:
        self.tables = tables
        self.feed = feed
        self.seats = seats

    def submit(self, code: str, round_no: int, seat_no: int, cards: str, choice: str | None,
               replaces_revision: int, token: str | None, *, game: int | None = None) -> dict:
        """Enter or edit one seat's round. `replaces_revision` is the revision being replaced (0 for the
        first entry), so a replayed or overtaken submission is refused instead of undoing a newer one.
        `game` is the game the entry belongs to: revisions start again with each game and "play again"
        keeps the seat tokens, so only the game number tells a request of game 1 from one of game 2 (the
        API requires it; None, for callers in this process that read the table just now: the current)."""
        ack, pending = self.begin_submit(code, round_no, seat_no, cards, choice, replaces_revision, token,
                                         game=game)
        # Outside the lock: other submissions validate (against this one) and queue meanwhile, and their
        # commits share this one's fsync.
        self.tables.saved(pending)
        return ack

    def begin_submit(self, code: str, round_no: int, seat_no: int, cards: str, choice: str | None,
                     replaces_revision: int, token: str | None, *, game: int | None = None
                     ) -> tuple[dict, PendingWrite]:
        """`submit` up to the commit: checked, applied in memory and queued for the store. Returns the
        acknowledgement and the queued write; the caller may give the acknowledgement only once
        `saved(pending)` returned (the API awaits the commit on its event loop instead of a thread)."""
        tracer = trace.TRACER
        with self.tables.lock:
            if tracer is not None:
                tracer.mark_request("locked")
            table = self.tables.get(code)
            seat = seat_index(table, seat_no)
            role = self.seats.role_of(table, token)
            if not 1 <= round_no <= ROUNDS:
                raise NotFound(_("a game has rounds 1 to {rounds}, not {round}").format(rounds=ROUNDS, round=round_no))
            if table.stored.ended is not None:
                raise Conflict(ended_message(table))
            r = round_no - 1
            who = table.label(seat)
            if role is not None and role != seat:
                raise Forbidden(_("your token is for seat {own} ({own_name}); only the host can edit seat {seat} "
                                  "({name})").format(own=role + 1, own_name=table.label(role), seat=seat_no, name=who))
            if game is not None and game != table.stored.game:
                raise Conflict(_("this submission is for game {sent}, but table {code} is playing game {game} now "
                                 "(a request from another game); reload the table").format(
                                     sent=game, code=format_code(table.code), game=table.stored.game))
            open_round = table.open_round
            if r > open_round:
                waiting = ", ".join(table.label(s) for s in table.waiting_for())
                raise Conflict(_("round {round} is not open yet: round {open} is still being entered (waiting for "
                                 "{names})").format(round=round_no, open=open_round + 1, names=waiting))
            if r < open_round and role is not None:
                raise Forbidden(_("round {round} is closed (every seat submitted); only the host can correct "
                                  "{name}'s entry now").format(round=round_no, name=who))
            current = table.stored.entries.get((r, seat))
            current_revision = current.revision if current else 0
            if replaces_revision != current_revision:
                raise Conflict(_("round {round}, {name}: this submission replaces revision {replaces} but the entry "
                                 "is at revision {current} (a replayed or overtaken submission); reload the table "
                                 "and edit the current entry").format(round=round_no, name=who,
                                                                      replaces=replaces_revision,
                                                                      current=current_revision))
            letters, choice_name = self.validate(table, r, seat, cards, choice)
            if tracer is not None:
                tracer.mark_request("validated")
            was_open = r == open_round
            entry = StoredEntry(letters, choice_name, current_revision + 1, role is None)
            version = table.stored.version + 1
            now = self.tables.clock()
            table.stored.entries[r, seat] = entry
            closed = was_open and table.open_round > r
            if closed or not was_open:  # the scores cover closed rounds only
                table.forget_scores()
            publish = self.feed.advance(table, version, now, {"kind": "entry", "round": round_no, "seat": seat_no,
                                                          "revision": entry.revision, "round_closed": closed})
            if tracer is not None:
                tracer.mark_request("viewed")
                tracer.bind(table.code, version)
            pending = self.tables.store.put_entry(table.code, r, seat, entry, version, now, publish)
            if tracer is not None:
                tracer.mark_request("queued")
        return {"game": table.stored.game, "round": round_no, "seat": seat_no, "cards": letters,
                "choice": choice_name, "revision": entry.revision, "round_closed": closed,
                "version": version}, pending

    def validate(self, table: Table, r: int, seat: int, cards: str,
                  choice: str | None) -> tuple[str, str | None]:
        """The rules' own round check, against everything else on the table; returns canonical letters/choice.

        Each choice scores once per game: every seat's choices in the *other* rounds count, earlier ones and
        (host corrections) later ones. A card in two rows is a conflict (409), any other problem invalid.
        """
        edition = table.edition
        entries = {s: Entered(table.stored.entries[r, s].cards, table.stored.entries[r, s].choice)
                   for s in table.submitted(r) if s != seat}
        entries[seat] = Entered(cards, choice)
        used: list[dict[int, int]] = [{} for _ in range(table.n_seats)]
        for (other_round, s), entry in table.stored.entries.items():
            if other_round != r and entry.choice is not None:
                used[s][table._choice_index(entry.choice)] = other_round + 1
        labels = [table.label(s) for s in range(table.n_seats)]
        try:
            checked = validate_round(edition, r + 1, labels, entries, used, focus=seat)[seat]
        except CardClash as err:
            raise Conflict(str(err)) from None
        except RuleError as err:
            raise Invalid(str(err)) from None
        letters = "".join(edition.cards[c].letter for c in checked.row)
        return letters, (edition.choice.icons[checked.choice].name if checked.choice != NO_CHOICE else None)
