"""The deck editor's draft: an owner's deck as a pack document being changed one fact at a time.

Every change is kept on disk at once (`scorer.packs.keep_deck_draft`), so a reload or Back finds the draft as
it was left; `problem` checks the whole draft with the rules `tourpad deck check` applies
(`scorer.packs.new_pack_from_document`: rules.model's invariants and a new deck's rules, the name, the id)
and says the first one it breaks, naming the card. Nothing here re-states a rule. No Flet here.
"""

from __future__ import annotations

import copy

from rules.edition import Edition
from rules.model import LETTERS, EditionDataError
from scorer.locale import _
from scorer.packs import (
    deck_document,
    deck_draft,
    drop_deck_draft,
    keep_deck_draft,
    new_pack_from_document,
    resolve_edition,
    save_deck,
)

#: The icon families a card shows, in the order the editor asks for them.
ROLES = ("collection", "pairs", "choice")
#: The colours a region may take in the editor: distinct on screen and on paper.
PALETTE = ("#2E7D32", "#EF6C00", "#C62828", "#F9A825", "#1565C0", "#6A1B9A", "#00838F", "#6D4C41",
           "#AD1457", "#546E7A")
#: The editor's map modes: draw pathways, or mark the towns of a coast.
MAP_MODES = ("pathways", "west_coast", "east_coast")


class DeckDraft:
    """One deck being edited (`ident`, an installed deck); its document is what would be saved."""

    def __init__(self, ident: str, doc: dict) -> None:
        self.ident = ident
        self.doc = doc

    @classmethod
    def open(cls, ident: str) -> DeckDraft:
        """The draft left for deck `ident`, else the deck as installed. KeyError: no such deck."""
        kept = deck_draft(ident)
        if kept is not None:
            return cls(ident, kept)
        return cls(ident, copy.deepcopy(deck_document(resolve_edition(ident))))

    @property
    def rules(self) -> Edition:
        """The edition whose rules and icons the deck follows (its base, or the deck itself)."""
        return resolve_edition(self.doc.get("base") or self.ident)

    # --- reading -------------------------------------------------------------------------------------------

    def card(self, letter: str) -> dict:
        return next(c for c in self.doc["cards"] if c.get("letter") == letter)

    def photo(self, letter: str) -> bytes | None:
        """Card `letter` as a teaching photo showed it (JPEG), when the cards were taught as this deck or as
        the edition it copies (`scorer.scan.card_photos`): what the family copies the card's facts from."""
        from scorer.scan.card_photos import card_photo

        for ident in dict.fromkeys(i for i in (self.ident, self.doc.get("base")) if i):
            picture = card_photo(ident, letter)
            if picture is not None:
                return picture
        return None

    def card_icon(self, letter: str, role: str) -> str | None:
        """The card's icon of family `role`, if it shows one."""
        names = {icon.name for icon in getattr(self.rules, role).icons}
        return next((icon for icon in self.card(letter).get("icons", []) if icon in names), None)

    @property
    def regions(self) -> list[dict]:
        return self.doc["regions"]

    @property
    def has_map(self) -> bool:
        return isinstance(self.doc.get("map"), dict)

    def pathways(self) -> list[tuple[str, str]]:
        return [tuple(edge) for edge in self.doc["map"]["edges"]] if self.has_map else []

    def coast(self, side: str) -> list[str]:
        return list(self.doc["map"][side]) if self.has_map else []

    def next_letter(self, letter: str) -> str:
        return LETTERS[(LETTERS.index(letter) + 1) % len(LETTERS)]

    # --- changing (each change is kept before it returns) ---------------------------------------------------

    def set_name(self, name: str) -> None:
        self.doc["name"] = name
        self.doc.pop("names", None)  # a translation of the old name would contradict the new one
        self._keep()

    def set_region(self, letter: str, region: str) -> None:
        self.card(letter)["region"] = region
        self._keep()

    def set_number(self, letter: str, number: int) -> None:
        self.card(letter)["number"] = number
        self._keep()

    def set_icon(self, letter: str, role: str, icon: str | None) -> None:
        """The card's icon of family `role` becomes `icon` (None: none of that family)."""
        card = self.card(letter)
        mine = self.card_icon(letter, role)
        icons = [i for i in card.get("icons", []) if i != mine]
        if icon is not None:
            icons.append(icon)
        order = {i.name: n for n, i in enumerate(i for r in ROLES for i in getattr(self.rules, r).icons)}
        card["icons"] = sorted(icons, key=lambda i: order.get(i, len(order)))
        self._keep()

    def rename_region(self, index: int, name: str) -> None:
        """A region's new name; its cards follow it (they name their region). An empty name, or another
        region's, is refused (ValueError) and changes nothing: two regions of one name could not be told
        apart again, and their cards would merge."""
        name = name.strip()
        others = [r["name"] for i, r in enumerate(self.regions) if i != index]
        if not name or name in others:
            raise ValueError(_("a region needs a name of its own") if not name
                             else _("{name} is already another region's name").format(name=name))
        old = self.regions[index]["name"]
        self.regions[index]["name"] = name
        self.regions[index].pop("names", None)
        for card in self.doc["cards"]:
            if card.get("region") == old:
                card["region"] = name
        self._keep()

    def set_bonus(self, index: int, bonus: int) -> None:
        self.regions[index]["bonus"] = bonus
        self._keep()

    def set_color(self, index: int, color: str) -> None:
        self.regions[index]["color"] = color
        self._keep()

    def toggle_pathway(self, a: str, b: str) -> bool:
        """Draw the pathway a–b, or rub it out if it is drawn; returns whether it is drawn now."""
        edges = self.doc["map"]["edges"]
        for edge in edges:
            if {edge[0], edge[1]} == {a, b}:
                edges.remove(edge)
                self._keep()
                return False
        edges.append([a, b])
        self._keep()
        return True

    def toggle_coast(self, side: str, letter: str) -> None:
        towns = self.doc["map"][side]
        if letter in towns:
            towns.remove(letter)
        else:
            towns.append(letter)
        self._keep()

    # --- checking and saving -------------------------------------------------------------------------------

    def problem(self) -> str | None:
        """The first rule the draft breaks, naming the card (or region, map edge…), as `tourpad deck check`
        says it; None when the deck is valid."""
        try:
            new_pack_from_document(copy.deepcopy(self.doc), f"{self.ident}.json")
        except EditionDataError as err:
            return str(err)
        return None

    def save(self) -> Edition:
        """Install the deck (the version it replaces stays kept for the games played with it) and drop the
        draft. EditionDataError names the first rule broken; nothing is saved then."""
        edition = save_deck(new_pack_from_document(copy.deepcopy(self.doc), f"{self.ident}.json"))
        drop_deck_draft(self.ident)
        return edition

    def discard(self) -> None:
        drop_deck_draft(self.ident)

    def _keep(self) -> None:
        keep_deck_draft(self.ident, self.doc)
