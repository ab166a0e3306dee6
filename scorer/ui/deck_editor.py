"""The deck editor: an owner's Europe or USA box set up in the app, one card at a time, in few taps.

It starts from a copy of the edition's layout (28 letters, its regions, its map), so a family only changes
what differs on their cards. Per card: the region, the number and one icon per family are rows of choices;
a tap in the last row (the round-end choice's family) goes on to the next card. Regions: name, bonus,
colour. USA's map: tap two towns to draw (or rub out) the pathway between them; in a coast mode a tap marks
or unmarks a coast town. Every change is kept at once (`scorer.pad.deck_draft`) and the whole deck checked
with `tourpad deck check`'s rules, whose first complaint is shown, naming the card; Save refuses a deck
that breaks one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

import flet as ft
import flet.canvas as cv

from rules.i18n import localized
from rules.model import LETTERS, EditionDataError
from scorer.locale import N_, _
from scorer.pad.deck_draft import MAP_MODES, PALETTE, ROLES, DeckDraft
from scorer.ui.app import NotFound, PadApp, Screen, island, screen, sem
from scorer.ui.pictogram import card_icon, is_dark
from scorer.userfile import UserFileError

PAD = ft.Padding.symmetric(horizontal=16, vertical=12)
#: The map's width on a phone (390 px less the screen's padding).
MAP_WIDTH = 358
#: A card's teaching photo beside its fields: the numbers and icons readable, the fields still beside it.
PHOTO_WIDTH = 120
TABS = (("cards", N_("Cards")), ("regions", N_("Regions")), ("map", N_("Map")))
MODE_LABELS = {"pathways": N_("Pathways"), "west_coast": N_("West coast"), "east_coast": N_("East coast")}
COAST_COLORS = {"west_coast": "#1565C0", "east_coast": "#EF6C00"}


@ft.observable
@dataclass
class EditorPlace:
    """Where one window is in the editor: the tab, the card shown, the map's mode and first town. The
    `editor` component renders over it: a change patches only what changed (a tap never replaces the
    controls it can aim at, and the next card is the same controls showing other values)."""

    ident: str = ""
    tab: str = "cards"
    letter: str = LETTERS[0]
    mode: str = "pathways"
    town: str | None = None
    #: counts the draft's changes: each one renders the editor again from the draft
    revision: int = 0
    #: by region: why the draft refused the name typed in its field (said under the field)
    refused: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # What is typed in each region's name field, by region. Not observed (a keystroke redraws nothing):
        # a render while a refused name is typed shows it as typed, never the draft's name over it.
        self._typed: dict[int, str] = {}

    def from_draft(self) -> None:
        """Show the draft's region names again (a field left, the screen drawn anew)."""
        self._typed.clear()
        if self.refused:
            self.refused = {}

    def show(self, **changes) -> None:
        """A tap that changes what is shown: the editor alone re-renders (the update of the whole page after
        a handler would draw it anew instead of patching it)."""
        ft.context.disable_auto_update()
        for name, value in changes.items():
            setattr(self, name, value)


_PLACES: WeakKeyDictionary[PadApp, EditorPlace] = WeakKeyDictionary()


def place_of(app: PadApp, ident: str) -> EditorPlace:
    place = _PLACES.get(app)
    if place is None or place.ident != ident:
        place = _PLACES[app] = EditorPlace(ident=ident)
    return place


def choice(label: str | ft.Control, selected: bool, on_click, identifier: str, color: str | None = None,
           width: float | None = None) -> ft.Control:
    """One choice of a row: filled when it is the card's, outlined otherwise."""
    content = label if isinstance(label, ft.Control) else ft.Text(label, size=13, no_wrap=False)
    button = ft.Container(content, on_click=on_click, ink=True, width=width,
                          padding=ft.Padding.symmetric(horizontal=10, vertical=9), border_radius=20,
                          # centred only at a set width: an alignment makes a container fill its row
                          alignment=ft.Alignment.CENTER if width is not None else None,
                          bgcolor=ft.Colors.PRIMARY_CONTAINER if selected else None,
                          border=ft.Border.all(3 if selected else 1, color or (
                              ft.Colors.PRIMARY if selected else ft.Colors.OUTLINE)))
    return sem(identifier, ft.Semantics(button=True, selected=selected, content=button))


def row_of(title: str, *choices: ft.Control) -> ft.Control:
    return ft.Column([ft.Text(title, size=13, weight=ft.FontWeight.W_600),
                      ft.Row(list(choices), wrap=True, spacing=6, run_spacing=6)], spacing=4)


@screen("deck_editor")
def deck_editor(app: PadApp, edition: str) -> Screen:
    try:
        draft = DeckDraft.open(edition)
    except (KeyError, EditionDataError, UserFileError):
        raise NotFound(_("There is no deck {id} on this device.").format(id=edition)) from None
    if draft.doc.get("provenance") != "owner":
        raise NotFound(_("tourpad's own decks are not edited: start from a copy in Your decks."))
    place = place_of(app, edition)
    place.from_draft()
    if place.tab == "map" and not draft.has_map:
        place.tab = "cards"

    def save(e) -> None:
        try:
            saved = draft.save()
        except (EditionDataError, UserFileError) as err:
            app.toast(_("Not saved: {problem}").format(problem=err), error=True)
            return
        app.toast(_("{name} saved").format(name=saved.label), update=False)
        app.go("decks")

    save_action = sem("save", ft.TextButton(_("Save"), icon=ft.Icons.SAVE, on_click=save))
    return Screen(_("Edit deck"), ft.Container(island(editor, app, draft, place, save), padding=PAD),
                  actions=[save_action])


@ft.component
def editor(app: PadApp, draft: DeckDraft, place: EditorPlace, save) -> ft.Control:
    """The editor's body, rendered over the window's `place` (and the draft, whose every change bumps
    `place.revision`)."""

    def changed(action) -> None:
        ft.context.disable_auto_update()
        try:
            action()
        except UserFileError as err:  # the draft could not be kept: say so, the screen keeps what it shows
            app.toast(str(err), error=True)
            return
        place.revision += 1

    def keep(action) -> None:
        try:
            action()
        except UserFileError as err:
            app.toast(str(err), error=True)

    def discard(e) -> None:
        from scorer.ui.confirm import ask

        ask(app, _("Forget the changes since the deck was last saved?"), _("Forget them"), _("Keep editing"),
            lambda: (draft.discard(), app.render()), identifier="discard-draft")

    def redraw(e) -> None:
        """A field left: the check is drawn again, and each field shows what the draft kept."""
        ft.context.disable_auto_update()
        place.from_draft()
        place.revision += 1

    # each keystroke is kept (a reload mid-word loses nothing); the check is redrawn when the field is left
    name = ft.TextField(label=_("Deck name"), value=draft.doc.get("name", ""), dense=True, max_length=64,
                        on_change=lambda e: keep(lambda: draft.set_name(e.control.value or "")),
                        on_blur=redraw, on_submit=redraw)
    problem = draft.problem()
    status = sem("deck-problem", ft.Text(problem, color=ft.Colors.ERROR, size=13)) if problem else \
        sem("deck-ok", ft.Text(_("Every rule of `tourpad deck check` holds: ready to save."),
                               color=ft.Colors.PRIMARY, size=13))
    tabs = ft.Row([choice(_(label), place.tab == key, lambda e, key=key: place.show(tab=key), f"tab-{key}")
                   for key, label in TABS if key != "map" or draft.has_map], spacing=6)
    if place.tab == "regions":
        content = regions_tab(app, draft, place, keep, changed, redraw)
    elif place.tab == "map":
        content = map_tab(app, draft, place, changed)
    else:
        content = cards_tab(app, draft, place, changed)
    return ft.Column([
        sem("deck-name", name), status, tabs, content,
        ft.Row([sem("deck-save", ft.FilledButton(_("Save deck"), icon=ft.Icons.SAVE, on_click=save)),
                sem("deck-discard", ft.TextButton(_("Forget changes"), on_click=discard))], wrap=True),
    ], spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def cards_tab(app: PadApp, draft: DeckDraft, place: EditorPlace, changed) -> ft.Control:
    rules = draft.rules
    letter = place.letter
    card = draft.card(letter)
    colors = {r["name"]: r["color"] for r in draft.regions}

    def pick(action, advance: bool = False):
        """A choice for the card on show when tapped (read then: a quick thumb may tap before a render)."""
        def run() -> None:
            at = place.letter
            action(at)
            if advance:
                place.letter = draft.next_letter(at)
        return lambda e: changed(run)

    strip = ft.Row([choice(ft.Text(other, size=14, weight=ft.FontWeight.BOLD), other == letter,
                           lambda e, other=other: place.show(letter=other),
                           f"card-{other}", color=colors.get(draft.card(other).get("region")), width=40)
                    for other in LETTERS], wrap=True, spacing=4, run_spacing=4)
    dark = is_dark(app.page)
    rows = [
        row_of(_("Region"), *(choice(ft.Row([ft.Container(width=12, height=12, bgcolor=region["color"],
                                                          border_radius=6),
                                             ft.Text(region_label(region), size=13)], spacing=6, tight=True),
                                     card.get("region") == region["name"],
                                     pick(lambda at, name=region["name"]: draft.set_region(at, name)),
                                     f"region-{i}")
                              for i, region in enumerate(draft.regions))),
        row_of(_("Number"), *(choice(str(n), card.get("number") == n,
                                     pick(lambda at, n=n: draft.set_number(at, n)), f"number-{n}", width=40)
                              for n in range(1, 8))),
    ]
    for role in ROLES:
        family = getattr(rules, role)
        mine = draft.card_icon(letter, role)
        last = role == ROLES[-1]  # a tap in the last row goes on to the next card
        rows.append(row_of(family.label, choice(_("none"), mine is None,
                                                pick(lambda at, role=role: draft.set_icon(at, role, None), last),
                                                f"{role}-none"),
                           *(choice(ft.Row([card_icon(icon.name, role, size=22, dark=dark, label=icon.label),
                                            ft.Text(icon.label, size=13)], spacing=4, tight=True),
                                    mine == icon.name,
                                    pick(lambda at, role=role, name=icon.name: draft.set_icon(at, role, name),
                                         last),
                                    f"{role}-{k}")
                             for k, icon in enumerate(family.icons))))
    rows[:2] = photo_beside(app, draft, letter, rows[:2])
    site = localized(tuple(sorted((card.get("site_names") or {}).items())), card.get("site", ""))
    heading = ft.Row([
        ft.Text(_("Card {letter}").format(letter=letter), size=20, weight=ft.FontWeight.BOLD),
        ft.Text(site, size=13, color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
        sem("next-card", ft.TextButton(_("Next card"), icon=ft.Icons.ARROW_FORWARD, on_click=lambda e: place.show(
            letter=draft.next_letter(place.letter))))])
    return ft.Column([strip, sem("card-heading", heading), *rows], spacing=10,
                     horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def photo_beside(app: PadApp, draft: DeckDraft, letter: str, fields: list[ft.Control]) -> list[ft.Control]:
    """The card as a teaching photo showed it, beside its first fields: one person copies the deck from the
    four photos while the others shuffle. Without a photo, where the app can teach (not the browser-only
    build), a line leads to teaching tourpad the cards, and back here."""
    picture = draft.photo(letter)
    if picture is not None:
        image = sem("card-photo", ft.Image(src=picture, width=PHOTO_WIDTH, height=round(PHOTO_WIDTH * 88 / 63),
                                           fit=ft.BoxFit.CONTAIN, border_radius=6,
                                           semantics_label=_("Card {letter} in the teaching photo").format(
                                               letter=letter)))
        return [ft.Row([image, ft.Column(fields, spacing=10, expand=True)], spacing=10,
                       vertical_alignment=ft.CrossAxisAlignment.START)]
    from scorer.runtime import IN_BROWSER

    if IN_BROWSER:
        return fields
    teach = sem("copy-from-photos", ft.TextButton(
        _("Copy from photos: teach tourpad your cards"), icon=ft.Icons.PHOTO_CAMERA_OUTLINED,
        tooltip=_("Four photos of seven cards; each card's photo then shows here, beside its fields"),
        on_click=lambda e: app.go("teach_edition", edition=draft.ident, back_to=app.path)))
    return [teach, *fields]


def region_label(region: dict) -> str:
    return localized(tuple(sorted((region.get("names") or {}).items())), region["name"])


def regions_tab(app: PadApp, draft: DeckDraft, place: EditorPlace, keep, changed, redraw) -> ft.Control:
    def rename(typed: str, index: int) -> None:
        """Keep each keystroke; a name the draft refuses (empty, another region's) is said on the field and
        stays typed there, the draft keeping the last good one."""
        ft.context.disable_auto_update()  # what is typed is on the phone already: only a new refusal is drawn
        place._typed[index] = typed
        try:
            keep(lambda: draft.rename_region(index, typed))
            refusal = None
        except ValueError as err:
            refusal = str(err)
        if place.refused.get(index) != refusal:
            others = {i: why for i, why in place.refused.items() if i != index}
            place.refused = others if refusal is None else {**others, index: refusal}

    blocks: list[ft.Control] = []
    for i, region in enumerate(draft.regions):
        name = ft.TextField(label=_("Region {n}").format(n=i + 1), value=place._typed.get(i, region_label(region)),
                            error=place.refused.get(i), dense=True, max_length=40,
                            on_change=lambda e, i=i: rename(e.control.value or "", i),
                            on_blur=redraw, on_submit=redraw)
        bonus = int(region.get("bonus", 0))
        blocks.append(ft.Column([
            sem(f"region-name-{i}", name),
            ft.Row([ft.Text(_("Bonus"), size=13),
                    sem(f"region-{i}-bonus-less", ft.IconButton(ft.Icons.REMOVE, tooltip=_("Less"), disabled=bonus <= 0,
                                                                on_click=lambda e, i=i, b=bonus: changed(
                                                                    lambda: draft.set_bonus(i, b - 1)))),
                    sem(f"region-{i}-bonus", ft.Text(str(bonus), size=16, weight=ft.FontWeight.BOLD)),
                    sem(f"region-{i}-bonus-more", ft.IconButton(ft.Icons.ADD, tooltip=_("More"), disabled=bonus >= 10,
                                                                on_click=lambda e, i=i, b=bonus: changed(
                                                                    lambda: draft.set_bonus(i, b + 1))))],
                   spacing=4),
            ft.Row([sem(f"region-{i}-color-{k}", ft.Container(
                width=30, height=30, bgcolor=colour, border_radius=15, ink=True,
                border=ft.Border.all(3, ft.Colors.ON_SURFACE) if colour.upper() == region["color"].upper() else None,
                tooltip=colour, on_click=lambda e, i=i, colour=colour: changed(lambda: draft.set_color(i, colour))))
                for k, colour in enumerate(PALETTE)], wrap=True, spacing=6, run_spacing=6),
        ], spacing=6))
        blocks.append(ft.Divider(height=1))
    return ft.Column(blocks, spacing=8)


def map_tab(app: PadApp, draft: DeckDraft, place: EditorPlace, changed) -> ft.Control:
    from scorer.pad.townmap import town_map_view

    # the towns stay where tourpad's map puts them: drawing a pathway never moves a town
    layout = town_map_view(draft.rules, 0, MAP_WIDTH)
    where = {town.letter: (town.x, town.y) for town in layout.towns}
    colors = {r["name"]: r["color"] for r in draft.regions}
    radius = layout.radius + 3
    shapes = [cv.Line(*where[a], *where[b], paint=ft.Paint(color=ft.Colors.ON_SURFACE, stroke_width=2))
              for a, b in draft.pathways() if a in where and b in where]
    west, east = set(draft.coast("west_coast")), set(draft.coast("east_coast"))

    def tap(letter: str) -> None:
        if place.mode != "pathways":
            changed(lambda: draft.toggle_coast(place.mode, letter))
            return
        if place.town is None or place.town == letter:
            place.show(town=None if place.town == letter else letter)
            return
        first = place.town
        place.show(town=None)
        changed(lambda: draft.toggle_pathway(first, letter))

    towns = []
    for letter, (x, y) in where.items():
        ring = COAST_COLORS["west_coast"] if letter in west else COAST_COLORS["east_coast"] if letter in east \
            else "#263238"
        chosen = letter == place.town
        towns.append(ft.Container(
            sem(f"town-{letter}", ft.Container(
                ft.Text(letter, size=12, weight=ft.FontWeight.BOLD, color="#000000"),
                width=2 * radius, height=2 * radius, border_radius=radius, alignment=ft.Alignment.CENTER,
                bgcolor="#FFEB3B" if chosen else colors.get(draft.card(letter).get("region"), "#FFFFFF"),
                border=ft.Border.all(4 if chosen or letter in west | east else 1, ring), ink=True,
                on_click=lambda e, letter=letter: tap(letter))),
            left=x - radius, top=y - radius))
    modes = ft.Row([choice(_(MODE_LABELS[mode]), place.mode == mode,
                           lambda e, mode=mode: place.show(mode=mode, town=None), f"mode-{mode}")
                    for mode in MAP_MODES], wrap=True, spacing=6)
    hint = (_("Tap two towns to draw the pathway between them; tap them again to rub it out.")
            if place.mode == "pathways" else _("Tap a town to mark it on this coast, or to unmark it."))
    if place.town is not None:
        hint = _("Town {letter} chosen: tap the town at the other end of the pathway.").format(letter=place.town)
    listing = " ".join(a + b for a, b in draft.pathways())
    return ft.Column([
        modes, sem("map-hint", ft.Text(hint, size=13)),
        ft.Stack([cv.Canvas(shapes, width=layout.width, height=layout.height), *towns],
                 width=layout.width, height=layout.height),
        sem("pathway-list", ft.Text(_("Pathways: {list}").format(list=listing), size=12, selectable=True)),
        ft.Text(_("West coast: {west} · East coast: {east}").format(west=" ".join(draft.coast("west_coast")),
                                                                    east=" ".join(draft.coast("east_coast"))),
                size=12),
    ], spacing=8)
