"""Players as people: the names they played under, and who each name is.

Saved games are never rewritten, so a renamed player or two names merged into one person are written
beside the games as "this name is that person": one row per name played under (its key is the name
cleaned and casefolded, so "Ann" and "ann " are one name), in the games' own SQLite file
(`EventStore.aliases`), carried by "Export all games" / "Import games" (`scorer.pad.archive`). A name with
no row is its own person. Every figure across games (`scorer.stats`) asks `People.person` who a name is.
"""

from __future__ import annotations

from rules.text import TextError, clean_name
from scorer.locale import _
from scorer.pad.errors import EntryError
from scorer.pad.store import EventStore


def tidy(name: str) -> str:
    """A saved name as typing it today would leave it (saved names passed this check when typed)."""
    try:
        return clean_name(name, longest=10_000)
    except TextError:
        return " ".join(name.split())


def name_key(name: str) -> str:
    """One key for every spelling of a name: tidied and casefolded ("Ann", "ann ")."""
    return tidy(name).casefold()


#: The statuses of the score pad's games: a solo game's other seats are bots, not people met.
PAD_STATUSES = ("playing", "finished")


class People:
    """The register of people kept with the games of one store."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._aliases = store.aliases()

    def person(self, name: str) -> str:
        """Who a name played under is: the person it was renamed or merged into, else the name itself."""
        return self._aliases.get(name_key(name), tidy(name))

    def known(self) -> list[str]:
        """The people met in the saved games, each once, the most recently met first (New game offers them)."""
        seen: dict[str, str] = {}
        for game in self.store.games():  # most recently played first
            if game.status not in PAD_STATUSES:
                continue
            for name in game.players:
                who = self.person(name)
                seen.setdefault(name_key(who), who)
        return list(seen.values())

    def rename(self, old: str, new: str) -> str:
        """Call the person `old` is by `new` from now on: every name they played under follows."""
        try:
            new = clean_name(new, _("the new name"))
        except TextError as err:
            raise EntryError(str(err)) from None
        return self._join(old, new)

    def merge(self, name: str, into: str) -> str:
        """`name` and `into` are one person from now on, called as `into` is."""
        if name_key(self.person(name)) == name_key(self.person(into)):
            raise EntryError(_("{name} and {other} are already one player").format(name=name, other=into))
        # called as they are met in the games ("Ann"), not as typed here ("ann")
        called = self.person(into)
        called = next((known for known in self.known() if name_key(known) == name_key(called)), called)
        return self._join(name, called)

    def _join(self, old: str, new: str) -> str:
        """Every name of the person `old` is, and `old` itself, now means `new`."""
        who = name_key(self.person(old))
        keys = {name_key(old), who, name_key(new)}
        keys |= {key for key, person in self._aliases.items() if name_key(person) == who}
        self.store.set_aliases([(key, new) for key in sorted(keys)])
        self._aliases = self.store.aliases()
        return new

    def restore(self, aliases: dict[str, str]) -> int:
        """Add an export's register: the names this device has no person for yet; how many were added."""
        fresh = [(name_key(key), tidy(person)) for key, person in aliases.items()
                 if name_key(key) not in self._aliases]
        if not fresh:  # no write, so no save of the whole file in the browser
            return 0
        self.store.set_aliases(fresh, replace=False)
        self._aliases = self.store.aliases()
        return len(fresh)
