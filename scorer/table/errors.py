"""The table's refusals: each is a 4xx (or a 503) the API answers with, its message saying what is wrong, for
which seat and round. Nothing was changed."""

from __future__ import annotations


class TableError(Exception):
    """A refused request; `status` is the HTTP status the API answers with. Nothing was changed."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(TableError):
    status = 404


class Unauthorized(TableError):
    status = 401


class Forbidden(TableError):
    status = 403


class Conflict(TableError):
    status = 409


class Invalid(TableError):
    status = 422


class TooMany(TableError):
    status = 429


class Unavailable(TableError):
    """The host could not save a change: it stops taking any until restarted from what is on disk."""

    status = 503


#: Each refusal by the status it is answered with: a seat that hears a status from its host (over HTTP or a data
#: channel) raises what a seat beside the service would.
REFUSALS_BY_STATUS: dict[int, type[TableError]] = {
    cls.status: cls for cls in (TableError, Unauthorized, Forbidden, NotFound, Conflict, Invalid, TooMany, Unavailable)}
