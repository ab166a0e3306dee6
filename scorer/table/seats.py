"""Seats and authentication: the host's credential and tokens, each seat's token, who a token is, and
claiming a seat."""

from __future__ import annotations

import secrets

from rules.text import TextError, clean_name
from scorer.locale import _
from scorer.table.errors import Conflict, Forbidden, Invalid, NotFound, Unauthorized
from scorer.table.feed import Feed
from scorer.table.store import StoredSeat, token_hash
from scorer.table.table import Table, Tables, ended_message, format_code, new_token


def seat_index(table: Table, seat_no: int) -> int:
    if not 1 <= seat_no <= table.n_seats:
        raise NotFound(_("table {code} has seats 1 to {n}, not {seat}").format(
            code=format_code(table.code), n=table.n_seats, seat=seat_no))
    return seat_no - 1


class Seats:
    """Who may do what at the tables: the host (its credential, each table's host tokens) and the seats."""

    def __init__(self, tables: Tables, feed: Feed, host_credential: str) -> None:
        self.tables = tables
        self.feed = feed
        #: Held by this process only: whoever runs the service is the host (its own screens use it).
        self.host_credential = host_credential
        self.host_hash = token_hash(host_credential)

    def is_host(self, credential: str | None) -> bool:
        """Whether `credential` is this host's credential (compared in constant time)."""
        return (isinstance(credential, str) and bool(credential)
                and secrets.compare_digest(token_hash(credential), self.host_hash))

    def check_host(self, credential: str | None, doing: str) -> None:
        """401 without a credential, 403 with a wrong one: `doing` is the host's alone."""
        if not credential:
            raise Unauthorized(_("only the host can {doing}: this needs the host credential (the host link "
                                 "`tourpad host` printed; header 'Authorization: Bearer …'); players join with the "
                                 "join code").format(doing=doing))
        if not self.is_host(credential):
            raise Forbidden(_("only the host can {doing}, and that is not this host's credential").format(doing=doing))

    def issue_host_token(self, code: str, credential: str | None) -> str:
        """Another host token for one of the host's own tables (`tourpad host --new-host-token`, a second
        host device with the host link)."""
        self.check_host(credential, "get a host token")
        with self.tables.lock:
            table = self.tables.get(code)
            if table.stored.created_by != self.host_hash:
                raise Forbidden(_("table {code} was not opened with this host's credential").format(
                    code=format_code(table.code)))
            token = new_token()
            self.tables.store.add_host_token(table.code, token_hash(token))
            table.stored.host_token_hashes.add(token_hash(token))
        return token

    def role(self, code: str, token: str | None) -> int | None:
        """None for the host, else the seat index (0-based) the token belongs to; 401 for anything else."""
        with self.tables.lock:
            return self.role_of(self.tables.get(code), token)

    def role_of(self, table: Table, token: str | None) -> int | None:
        if not token:
            raise Unauthorized(_("this needs your seat token or the host token (header 'Authorization: Bearer …')"))
        hashed = token_hash(token)
        # Compare every candidate (no early exit): the time taken does not tell which part matched.
        host = any(secrets.compare_digest(hashed, h) for h in table.stored.host_token_hashes)
        seats = [s for s, c in table.stored.claimed.items() if secrets.compare_digest(hashed, c.token_hash)]
        if host:
            return None
        if seats:
            return seats[0]
        raise Unauthorized(_("that token is not a seat or host token of table {code}").format(
            code=format_code(table.code)))

    def claim_seat(self, code: str, seat_no: int, name: str, token: str | None = None) -> str:
        """Take a free seat (no token), rename your own (your seat token), or give a seat (host token; a
        claimed seat gets a new token, so a player whose phone lost it can be seated again). Returns the
        seat token."""
        try:
            name = clean_name(name, _("a player name"))
        except TextError as err:
            raise Invalid(_("seat {seat}: {problem}").format(seat=seat_no, problem=err)) from None
        with self.tables.lock:
            table = self.tables.get(code)
            seat = seat_index(table, seat_no)
            role = self.role_of(table, token) if token else "anyone"
            current = table.stored.claimed.get(seat)
            if role == "anyone" and table.stored.locked:
                raise Forbidden(_("the host has closed this table to new players (table {code}); ask the host to "
                                  "open it").format(code=format_code(table.code)))
            if role is not None and table.stored.ended is not None:  # the host may still rename seats
                raise Conflict(ended_message(table))
            if role == "anyone" and current is not None:
                raise Conflict(_("seat {seat} is taken by {name}; take a free seat or ask the host").format(
                    seat=seat_no, name=current.name))
            if role not in ("anyone", None, seat):
                raise Forbidden(_("your token is for seat {own} ({name}); it cannot claim seat {seat}").format(
                    own=role + 1, name=table.label(role), seat=seat_no))
            for other, claimed in table.stored.claimed.items():
                if other != seat and claimed.name.casefold() == name.casefold():
                    raise Conflict(_("{name} already sits at seat {seat}; pick another name").format(
                        name=claimed.name, seat=other + 1))
            seat_token = token if role == seat else new_token()
            stored = StoredSeat(name, token_hash(seat_token))
            version = table.stored.version + 1
            now = self.tables.clock()
            table.stored.claimed[seat] = stored
            table.forget_scores()  # the score sheet carries the names
            publish = self.feed.advance(table, version, now, {"kind": "seat", "seat": seat_no})
            pending = self.tables.store.claim_seat(table.code, seat, stored, version, now, publish)
        self.tables.saved(pending)
        return seat_token

    def as_host(self, code: str, token: str | None, doing: str) -> Table:
        """The table, if `token` is its host token or the credential it was opened with (under the lock)."""
        table = self.tables.get(code)
        if token and table.stored.created_by is not None and self.is_host(token) \
                and table.stored.created_by == self.host_hash:
            return table
        if self.role_of(table, token) is not None:
            raise Forbidden(_("only the host can {doing}; a seat token cannot").format(doing=doing))
        return table
