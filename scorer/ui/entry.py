"""Round entry: the letter keypad with live points, and the by-category form."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from rules import wording
from rules.engine import HAND_SIZE, ROUNDS
from scorer.locale import _, ngettext
from scorer.pad.categories import NUMBER_FIELDS, draft_base, field_labels, form_values
from scorer.pad.categories import preview as category_preview
from scorer.pad.contrast import text_on
from scorer.pad.entry import (
    CategoryLine,
    ChoiceOption,
    LetterDraft,
    draft_for,
    missing_choice_question,
    preview,
    taken_letters,
)
from scorer.pad.errors import EntryError
from scorer.pad.game import LETTERS_MODE, PadState
from scorer.pad.session import DRAFTS, SheetSession
from scorer.ui.app import NotFound, PadApp, Screen, island, live_text, note, screen, sem
from scorer.ui.confirm import ask
from scorer.ui.named import icon_button
from scorer.ui.pictogram import card_icon, icon_reference, is_dark
from scorer.ui.scan_entry import ScanPanel
from scorer.ui.sheet import picked_style
from scorer.ui.text_size import DEFAULT_TEXT_SIZE, REGULAR_LETTER_EM, text_width

PAD = ft.Padding.symmetric(horizontal=12, vertical=10)
KEY_MIN, KEY_MAX = 48, 56  # keypad tap targets: never under 48 px
#: The keys' height and the gap between the regions' rows: the whole keypad, the choice row and Save fit a
#: 390×844 phone without scrolling (Europe's 8 regions too).
KEY_HEIGHT, KEY_GAP = KEY_MIN, 4
PHONE_ROW = 366  # usable width of a 390 px phone screen
REGION_LABEL = 92
SLOT_WIDTH = 42
CHOICE_ROW_KEY = "entry-choices"  # the choice row's scroll key: Enter with no choice made moves there


def most_in_a_region(edition) -> int:
    """The cards of the largest region (Europe's Nordic Countries has 5)."""
    return max(sum(1 for c in edition.cards if c.region == r.index) for r in edition.regions)


def key_size(edition, usable: float = PHONE_ROW) -> int:
    """As wide as the largest region's row allows beside its name, `usable` px wide (a 390 px phone's
    row by default), never under KEY_MIN nor over KEY_MAX."""
    most = most_in_a_region(edition)
    return max(KEY_MIN, min(KEY_MAX, int(usable - REGION_LABEL - 6 * most) // most))


def names_beside_keys(edition, key: int, usable: float) -> bool:
    """Whether each region's name and its keys fit on one line `usable` px wide (else the last keys went under
    the first: on a 320 px phone, or Europe's five on a 375 px one)."""
    return REGION_LABEL + most_in_a_region(edition) * (6 + key) <= usable
GREYED = ft.Colors.SURFACE_CONTAINER_HIGHEST


def after_save(app: PadApp, session: SheetSession, before: PadState, after: PadState, round_index: int,
               player: int) -> None:
    """Where an accepted entry leads: the round summary when it closed the round, else the sheet."""
    name = after.players[player]
    place = session.place
    if after.rounds_done > before.rounds_done and round_index == after.rounds_done - 1:
        # a toast in any case: it also replaces an error toast from a refused try that is now fixed
        app.toast(_("Saved {name}'s round {round}: the round is complete").format(name=name, round=round_index + 1),
                  update=False)
        app.go_to(place.route("summary", round_index=round_index))
        return
    edited = round_index < before.rounds_done
    app.toast((_("Round {round} edited: {name}; all totals recomputed") if edited
               else _("Saved {name}'s round {round}")).format(name=name, round=round_index + 1),
              update=False)  # the navigation below shows it
    nxt = [p for p in range(after.setup.n)
           if not after.entered(round_index)[p] and session.may_enter(round_index, p)] \
        if session.passed_around and not edited else []
    if nxt:  # straight on to the next player still to enter this round (the phone passed around)
        app.go_to(place.route("entry", round_index=round_index, player=nxt[0]))
    else:
        app.go_to(place.route("sheet", player=player))


#: Loop turns a Save gives before drawing its own next screen: the other screens woken by the same change
#: (a table's other phones, queued from the host's writer thread) are served first, each in a turn or two.
YIELDS_BEFORE_OWN_REDRAW = 3


async def submit_round(app: PadApp, session: SheetSession, command: Callable[[], PadState], round_index: int,
                       player: int) -> PadState:
    """What an entry screen's Save does: `command` (a session's `enter_letters` / `enter_categories`; it raises
    EntryError, changing nothing, if refused), then where it leads (`after_save`) once the other screens the
    change woke have been served."""
    before, path = session.state, app.path
    after = command()
    for _turn in range(YIELDS_BEFORE_OWN_REDRAW):
        await asyncio.sleep(0)
    if app.path == path:  # else the screen has moved on meanwhile: another seat closed the round (its summary)
        after_save(app, session, before, after, round_index, player)
    return after


@ft.observable
@dataclass(eq=False)
class KeypadView:
    """What one player's keypad shows (`LetterEntry.look`): the draft's cards and choice, what was refused,
    the letters others took, what is in the typing field, whether the choice row asks for a choice, and
    the game's state read last. The keypad is a component over it: a tap changes the draft, the look is
    read again, and the component re-renders then and there (`LetterEntry.show`), Flet patching only the
    keys, slots and lines whose look changed. The controls a tap can aim at keep their identity."""

    #: The look last rendered: not a field (no notification): `LetterEntry.show` re-renders in the same
    #: turn as the tap, in one patch, rather than at the update scheduler's next turn.
    _look: tuple = ()


class LetterEntry:
    """One player's round on the letter keypad: the draft, the events that change it, the save; what it
    looks like is the `letter_keypad` component over `view`. A tap changes the draft the moment it arrives
    and the screen catches up by re-rendering: a control replaced on every tap would take the taps already
    on their way with it (the client names the control it tapped, and the server drops an event for a
    control it no longer has), and a component keeps its controls' identity from one render to the next."""

    def __init__(self, app: PadApp, session: SheetSession, round_index: int, player: int) -> None:
        self.app = app
        self.session = session
        self.r = round_index
        self.p = player
        self.state = session.state
        #: Counts the game's changes made elsewhere while the keypad is open (a new look each time).
        self.state_changes = 0
        self.edition = self.state.edition
        self.draft_key = (*session.draft_key, round_index, player)
        self.draft: LetterDraft = draft_for(self.state, round_index, player)
        self.saved = (self.draft.cards, self.draft.choice)
        kept = DRAFTS.get(self.draft_key)
        if kept is not None and kept.base == self.saved:  # typed here before a reload or Back, not saved yet
            self.draft.letters, self.draft.choice = list(kept.letters), kept.choice
            self.draft.choice_made = kept.choice_made or self.draft.choice is not None
        #: What the typing field shows: the cards, or what was typed there (kept as typed, refused letters too).
        self.typed_text = self.draft.cards
        #: "Choose an activity" under the choice row: shown when Save or Enter found none made.
        self.prompt = False
        usable = app.page.width - PAD.left - PAD.right if app.page.width else PHONE_ROW
        self.key = key_size(self.edition, usable)
        # 42 px each, narrower on a phone too narrow for seven of those (320 px)
        self.slot = min(SLOT_WIDTH, int(usable - (HAND_SIZE - 1) * 4) // HAND_SIZE)
        self.normal_text = app.text_size == DEFAULT_TEXT_SIZE
        #: Each region's name beside its keys (normal text on a phone wide enough), else above them.
        self.names_beside = self.normal_text and names_beside_keys(self.edition, self.key, usable)
        self.dark = is_dark(app.page)
        self.scan = ScanPanel(self, app.page)
        self.view = KeypadView()
        self.component: ft.Control | None = None
        #: The typing field as last rendered (its text as the phone last sent it: `live_text`).
        self.field: ft.Ref[ft.TextField] = ft.Ref()
        self.keep_draft()

    def body(self) -> ft.Control:
        self.view._look = self.look()
        self.component = island(letter_keypad, self.view, self)
        return self.component

    # --- events ----------------------------------------------------------------------------------------

    def tap(self, letter: str) -> None:
        if self.scan.fill(letter):  # completing a scanned row with holes
            return
        self.draft.tap(letter)
        self.typed_text = self.draft.cards
        self.show()

    # --- what the Scan panel fills (scorer.ui.scan_entry.ScanTarget) ---------------------------------------

    def taken_letters(self) -> dict[str, str]:
        return self.draft.taken

    def use_scanned(self, letters: str) -> None:
        self.draft.letters = list(letters)
        self.draft.message = ""
        self.typed_text = self.draft.cards

    def redraw(self) -> None:
        self.show()

    def backspace(self, e) -> None:
        self.draft.backspace()
        self.typed_text = self.draft.cards
        self.show()

    def clear(self, e) -> None:
        self.draft.letters.clear()
        self.draft.message = ""
        self.typed_text = self.draft.cards
        self.show()

    def on_typed(self, e) -> None:
        self.typed_text = e.control.value or ""
        self.draft.set_text(self.typed_text, self.edition.letters)
        self.show()

    def choose(self, name: str | None) -> None:
        self.draft.choice = name
        self.draft.choice_made = True
        self.prompt = False
        self.typed_text = self.draft.cards  # the typing field shows the cards again, as after a key
        self.show()

    async def on_enter(self, e) -> None:
        """Enter / Go on the phone's keyboard: done typing is not done choosing. With no choice made while
        there is one to make, it moves to the choice row instead of saving."""
        if len(self.draft.letters) == HAND_SIZE and not self.draft.choice_made and \
                any(o.available for o in preview(self.state, self.r, self.p, self.draft).choices):
            await self.move_to_choice()
            return
        await self.save(e)

    async def move_to_choice(self) -> None:
        self.prompt = True
        self.show()
        with contextlib.suppress(Exception):  # no scrollable view (a test double): the prompt is still shown
            await self.app.page.views[-1].scroll_to(scroll_key=CHOICE_ROW_KEY, duration=250)

    async def save(self, e) -> None:
        """✓ / Save round. A round about to be saved with no choice while an unused one would score asks
        first, once, naming it and its points (the rules' words)."""
        if len(self.draft.letters) == HAND_SIZE:
            question = missing_choice_question(self.state, self.r, self.p, self.draft)
            if question is not None:

                async def save_without() -> None:
                    self.choose(None)
                    await self.submit()

                ask(self.app, question, yes=_("Save"), no=_("Choose"), on_yes=save_without,
                    on_no=self.move_to_choice, identifier="choice-question")
                return
        await self.submit()

    async def submit(self) -> None:
        try:
            await submit_round(self.app, self.session, lambda: self.session.enter_letters(
                self.p, self.draft.cards, self.draft.choice, self.r), self.r, self.p)
        except EntryError as err:
            self.draft.message = str(err)   # the entry stays on screen to be fixed
            self.show()
            self.app.toast(str(err), error=True)
            return
        DRAFTS.drop(self.draft_key)

    def on_change(self) -> None:
        """The game changed on another device: the letters others took this round, the points, the used-up
        choices, all shown anew around what this player has typed (kept as it is)."""
        typed = live_text(self.field)
        if typed is not None and typed != self.typed_text:  # typed as this came: its change event is on its way
            self.typed_text = typed
            self.draft.set_text(typed, self.edition.letters)
        self.state = self.session.state
        self.state_changes += 1
        self.draft.taken = taken_letters(self.state, self.r, self.p)
        self.show()

    # --- what the keypad shows -------------------------------------------------------------------------

    def keep_draft(self) -> None:
        """What is typed and not saved is kept as a draft (Back, a reload, a closed tab find it again)."""
        draft = self.draft
        if (draft.cards, draft.choice) != self.saved:
            DRAFTS.keep(self.draft_key, draft.letters, draft.choice, base=self.saved, choice_made=draft.choice_made)
        else:
            DRAFTS.drop(self.draft_key)

    def look(self) -> tuple:
        draft = self.draft
        return (tuple(draft.letters), draft.choice, draft.choice_made, draft.message,
                tuple(sorted(draft.taken.items())), self.typed_text, self.prompt, self.state_changes, self.scan.look())

    def show(self) -> None:
        """After a tap: the draft kept, and the keypad re-rendered now, in one patch for what changed. One
        message, not one per changed control: the phone draws a frame as soon as a first message has
        arrived, and the rest, coming in while it draws, would cost a second frame."""
        self.keep_draft()
        look = self.look()
        if look != self.view._look and self.component is not None:
            self.view._look = look
            with contextlib.suppress(RuntimeError):  # not on the page (drawn anew meanwhile): the next draw shows it
                self.component.update()
        with contextlib.suppress(RuntimeError):  # outside an event handler: there is no update after it
            ft.context.mark_update_called()  # what changed is sent: no diff of the whole page after the tap


@ft.component
def letter_keypad(view: KeypadView, entry: LetterEntry) -> ft.Control:
    """One player's keypad over `view` (`entry` holds the draft and answers the taps): the scan's row, the
    slots, the cards line, the keys by region, the choice row, Save, the typing field and the points. Each
    part is a memoized component of what it shows: a tap re-renders only the parts whose look changed."""
    draft = entry.draft
    pv = preview(entry.state, entry.r, entry.p, draft)
    message = sem("entry-message", ft.Text(draft.message, color=ft.Colors.ERROR, weight=ft.FontWeight.W_500,
                                           size=13))
    message.visible = bool(draft.message)  # hidden while there is nothing to say (on the Semantics wrapper)
    return ft.Container(ft.Column([
        scan_views(entry, entry.scan.look()),
        slots_row(entry, tuple(draft.letters)),
        cards_row(entry, draft.cards),
        message,
        keys_by_region(entry),
        choice_row(entry, tuple(pv.choices), draft.choice, draft.choice_made, entry.prompt),
        ft.FilledButton(_("Save round"), icon=ft.Icons.CHECK, on_click=entry.save),
        ft.TextField(label=_("Type the letters"), value=entry.typed_text, dense=True, ref=entry.field,
                     capitalization=ft.TextCapitalization.CHARACTERS,
                     on_change=entry.on_typed, on_submit=entry.on_enter),
        points_card(entry, tuple(pv.lines), tuple(pv.bonus_hints), pv.subtotal, draft.choice, tuple(pv.choices)),
    ], spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH), padding=PAD)


@ft.memo
@ft.component
def scan_views(entry: LetterEntry, look: tuple) -> ft.Control:
    """What the last scan said and the row it read (`look`: `ScanPanel.look`)."""
    return ft.Column([entry.scan.status_view(), sem("scan-row", entry.scan.row_view())], spacing=8,
                     horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


#: The size of the words under the slots (px).
SLOT_WORD_SIZE = 10


def words_fit_under_slots(words: list[str], slot: int) -> bool:
    """Whether each word fits on one line under its slot `slot` px wide (else Flutter breaks it mid-word)."""
    return all(text_width(word, SLOT_WORD_SIZE, REGULAR_LETTER_EM) <= slot for word in words)


@ft.memo
@ft.component
def slots_row(entry: LetterEntry, letters: tuple[str, ...]) -> ft.Control:
    """The seven slots, Throw to Catch, each filled in its card's region colour."""
    region_of = {c.letter: entry.edition.regions[c.region] for c in entry.edition.cards}
    boxes = []
    for i in range(HAND_SIZE):
        letter = letters[i] if i < len(letters) else ""
        region = region_of.get(letter)
        boxes.append(ft.Container(
            ft.Text(letter, size=20, weight=ft.FontWeight.BOLD,
                    color=text_on(region.color) if region else ft.Colors.ON_SURFACE),
            width=entry.slot, height=46, border_radius=8, alignment=ft.Alignment.CENTER,
            bgcolor=region.color if region else GREYED))
    words = [_("Throw") if i == 0 else _("Catch") if i == HAND_SIZE - 1 else str(i + 1) for i in range(HAND_SIZE)]
    if entry.normal_text and words_fit_under_slots(words, entry.slot):
        return ft.Row([sem(f"slot-{i + 1}", ft.Column([box, ft.Text(
            words[i], size=SLOT_WORD_SIZE, width=entry.slot, text_align=ft.TextAlign.CENTER,
            color=ft.Colors.ON_SURFACE_VARIANT)], spacing=2, horizontal_alignment=ft.CrossAxisAlignment.CENTER))
            for i, box in enumerate(boxes)], spacing=4, alignment=ft.MainAxisAlignment.CENTER)
    # larger text, or a language whose words are longer ("Réceptio / n"): "Throw" and "Catch" no longer fit
    # under a slot ("Thro / w"); they go whole under the first and the last, the slots named by them for a
    # screen reader
    row_width = HAND_SIZE * entry.slot + (HAND_SIZE - 1) * 4
    return ft.Column([
        ft.Row([ft.Semantics(identifier=f"slot-{i + 1}", label=words[i], content=box)
                for i, box in enumerate(boxes)], spacing=4, alignment=ft.MainAxisAlignment.CENTER),
        ft.Container(ft.Row([ft.Text(word, size=SLOT_WORD_SIZE, no_wrap=True, color=ft.Colors.ON_SURFACE_VARIANT)
                             for word in (words[0], words[-1])],
                            alignment=ft.MainAxisAlignment.SPACE_BETWEEN), width=row_width)],
        spacing=2, horizontal_alignment=ft.CrossAxisAlignment.CENTER)


@ft.memo
@ft.component
def cards_row(entry: LetterEntry, cards: str) -> ft.Control:
    """The cards typed so far, and Remove the last card, Clear and Scan: beside them in normal text; in
    larger text the line has a row of its own (beside the buttons, "Cards: none" had a few letters a line
    in French: "Ca / rte / s :")."""
    line = sem("entry-cards", ft.Text(
        (_("Cards: {cards} ({n} of {size})") if cards else _("Cards: none ({n} of {size})")).format(
            cards=cards, n=len(cards), size=HAND_SIZE),
        size=12, color=ft.Colors.ON_SURFACE_VARIANT))
    buttons = [sem("backspace", icon_button(ft.Icons.BACKSPACE_OUTLINED, _("Remove the last card"),
                                            entry.backspace)),
               ft.TextButton(_("Clear"), on_click=entry.clear),
               entry.scan.button]
    if entry.normal_text:
        return ft.Row([ft.Container(line, expand=True), *buttons], spacing=2)
    return ft.Column([line, ft.Row(buttons, spacing=2, wrap=True, alignment=ft.MainAxisAlignment.END)],
                     spacing=2, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def keys_by_region(entry: LetterEntry) -> ft.Control:
    """The keys, a row per region beside its name; a row re-renders only when one of its keys' looks
    (picked, taken) changed."""
    edition, draft = entry.edition, entry.draft
    return ft.Column([region_keys(entry, region.index, tuple(
        (card.letter in draft.letters, card.letter in draft.taken) for card in edition.cards
        if card.region == region.index)) for region in edition.regions], spacing=KEY_GAP)


@ft.memo
@ft.component
def region_keys(entry: LetterEntry, region_index: int, looks: tuple[tuple[bool, bool], ...]) -> ft.Control:
    """One region's name and keys (`looks`: each key's picked and taken). Plain boxes, not buttons: a
    button's ink ripple and state animations keep the phone drawing frame after frame for some 400 ms after
    each tap, and quick taps then wait behind those frames. A key answers by filling with its region's
    colour; to a screen reader it is still a button named by its letter (and the "Type the letters" field
    takes a keyboard)."""
    region = entry.edition.regions[region_index]
    beside = entry.names_beside

    def key(card, picked: bool, taken: bool) -> ft.Control:
        return ft.Semantics(content=ft.Container(
            ft.Text(card.letter, size=20, weight=ft.FontWeight.BOLD,
                    color=text_on(region.color) if picked else (ft.Colors.OUTLINE if taken else ft.Colors.ON_SURFACE),
                    style=ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH) if taken else None),
            width=entry.key, height=KEY_HEIGHT, border_radius=10, clip_behavior=ft.ClipBehavior.NONE,
            alignment=ft.Alignment.CENTER,
            bgcolor=region.color if picked else (GREYED if taken else None),
            border=ft.Border.all(2, region.color if not taken else ft.Colors.OUTLINE_VARIANT),
            on_click=lambda e, letter=card.letter: entry.tap(letter)), button=True)

    cards = [card for card in entry.edition.cards if card.region == region_index]
    return ft.Row([
        # three short lines fit a key's height: "Nouvelle-Galles du Sud" is not cut
        ft.Container(ft.Text(region.label, size=11, color=text_on(region.color), max_lines=3,
                             weight=ft.FontWeight.W_500),
                     # as tall as a key; in larger text or on a narrow phone a bar above the keys, as wide
                     # and tall as its words, which a fixed width broke mid-word ("Queenslan / d")
                     width=REGION_LABEL if beside else None, height=KEY_HEIGHT if beside else None,
                     bgcolor=region.color, border_radius=10,
                     padding=ft.Padding.symmetric(horizontal=6), alignment=ft.Alignment.CENTER_LEFT),
        *(key(card, *look) for card, look in zip(cards, looks, strict=True))],
        spacing=6, wrap=True, run_spacing=KEY_GAP)


@ft.memo
@ft.component
def choice_row(entry: LetterEntry, choices: tuple[ChoiceOption, ...], chosen: str | None, choice_made: bool,
               prompting: bool) -> ft.Control:
    """The choice: None beside the question, the options two by two (the whole row fits under the keypad on
    a phone), each saying what it would score now, or why it cannot be chosen; under them, when asked for
    (`prompting`), "choose one"."""
    edition = entry.edition
    options = []
    for option in choices:
        if option.name == chosen and not option.available:  # kept through a change of cards
            label, enabled = option.label, True
        elif option.used_in:
            label, enabled = _("{choice} · used in R{round}").format(choice=option.label,
                                                                     round=option.used_in), False
        elif not option.held:
            label, enabled = _("{choice} · no icon").format(choice=option.label), False
        elif option.may_rise:
            label, enabled = wording.choice_so_far(option.label, option.points), True
        else:
            label, enabled = ngettext("{choice} · {n} pts", "{choice} · {n} pts", option.points).format(
                choice=option.label, n=option.points), True
        options.append(ft.OutlinedButton(
            content=ft.Text(label, size=12), expand=True, disabled=not enabled,
            style=choice_style(chosen == option.name),
            on_click=lambda e, n=option.name: entry.choose(n),
            icon=ft.Container(card_icon(option.name, "choice", size=20, dark=entry.dark, label=option.label),
                              opacity=1.0 if enabled else 0.4)))  # dimmed like the label
    rule = edition.choice.rule
    prompt = sem("choice-prompt", ft.Text(wording.CHOICE_CHOOSE_PROMPT[rule] if prompting else "",
                                          color=ft.Colors.ERROR, weight=ft.FontWeight.W_500, size=13))
    prompt.visible = prompting  # (hidden by their Semantics wrappers: a Semantics' content must stay visible)
    rising = any(o.may_rise and o.available for o in choices)
    note_line = sem("choice-note", ft.Text(wording.choice_may_rise_note(edition.choice.label) if rising else "",
                                           size=12, color=ft.Colors.ON_SURFACE_VARIANT))
    note_line.visible = rising
    none = ft.OutlinedButton(wording.CHOICE_NONE_BUTTON[rule], on_click=lambda e: entry.choose(None),
                             style=choice_style(chosen is None and choice_made))
    return ft.Column([
        ft.Row([ft.Text(wording.choice_pick_prompt(edition.choice.label), weight=ft.FontWeight.BOLD,
                        size=13, expand=True),
                sem("choice-none", none)], spacing=6),
        prompt,
        *(ft.Row(options[i:i + 2], spacing=6) for i in range(0, len(options), 2)),
        note_line], spacing=6, key=ft.ScrollKey(CHOICE_ROW_KEY))


@ft.memo
@ft.component
def points_card(entry: LetterEntry, lines: tuple[CategoryLine, ...], hints: tuple[str, ...], subtotal: int,
                choice: str | None, choices: tuple[ChoiceOption, ...]) -> ft.Control:
    """Points this round so far, line by line, with the bonus hints."""
    label_of = {o.name: o.label for o in choices}
    rows = [ft.Row([
        ft.Text(line.name, width=110, weight=ft.FontWeight.W_500, size=13),
        ft.Text("–" if line.points is None else str(line.points), width=30, size=13,
                weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.RIGHT),
        ft.Text(line.explanation, size=12, expand=True, color=ft.Colors.ON_SURFACE_VARIANT)],
        vertical_alignment=ft.CrossAxisAlignment.START) for line in lines]
    if choice:
        said = ngettext(
            "{n} points so far with {choice} (bonuses settle at round close)",
            "{n} points so far with {choice} (bonuses settle at round close)", subtotal).format(
            n=subtotal, choice=label_of.get(choice, choice))
    else:
        said = ngettext("{n} points so far (bonuses settle at round close)",
                        "{n} points so far (bonuses settle at round close)", subtotal).format(n=subtotal)
    return ft.Card(ft.Container(ft.Column([
        ft.Text(_("Points this round"), weight=ft.FontWeight.BOLD),
        sem("entry-subtotal", ft.Text(said, weight=ft.FontWeight.BOLD, size=16)),
        sem("entry-lines", ft.Column([*rows, *(note(hint) for hint in hints)], spacing=2))],
        spacing=6), padding=12))


def choice_style(chosen: bool) -> ft.ButtonStyle:
    """A choice button, filled when it is the one chosen (one control either way: a tap may be on its way)."""
    return ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=8, vertical=14),  # 48 px tall, or more
                          bgcolor=ft.Colors.PRIMARY if chosen else None,
                          color=ft.Colors.ON_PRIMARY if chosen else None,
                          icon_color=ft.Colors.ON_PRIMARY if chosen else None, animation_duration=0)


def entry_screen(app: PadApp, session: SheetSession, round_index: int, player: int) -> Screen:
    """One player's round: the letter keypad, or the by-category form (the game's entry mode)."""
    state = session.state
    if not session.may_enter(round_index, player):
        if player < state.setup.n and round_index < ROUNDS and round_index <= state.current_round:
            raise NotFound(_("{name}'s round {round} cannot be entered on this device: each seat enters its own "
                             "round while it is open.").format(name=state.players[player], round=round_index + 1))
        raise NotFound(_("{where} has no round {round} entry for player {number} yet.").format(
            where=session.where, round=round_index + 1, number=player + 1))
    if state.setup.mode == LETTERS_MODE:
        return letter_entry(app, session, round_index, player)
    return category_entry(app, session, round_index, player)


@screen("entry")
def entry(app: PadApp, game_id: int, round_index: int, player: int) -> Screen:
    return entry_screen(app, app.open_game(game_id), round_index, player)


def letter_entry(app: PadApp, session: SheetSession, round_index: int, player: int) -> Screen:
    view = LetterEntry(app, session, round_index, player)
    name = session.state.players[player]
    save_action = sem("save", icon_button(ft.Icons.CHECK, _("Save round"), view.save))
    # What was typed and not saved stays as a draft whichever way the keypad is left (Back, another screen, a
    # reload, a closed tab): the same keypad opened again finds it; saving it, or the entry changing on another
    # device, drops it.
    return Screen(_("R{round}/{rounds} · {name}").format(round=round_index + 1, rounds=ROUNDS, name=name),
                  view.body(), actions=[save_action], on_change=view.on_change)


def category_entry(app: PadApp, session: SheetSession, round_index: int, player: int) -> Screen:
    state = session.state
    edition = state.edition
    labels = field_labels(edition)
    saved = (state.entries[round_index].get(player) or {}).get("categories", {})
    # What was typed and not saved stays as a draft whichever way the form is left (Back, another screen, a
    # reload), as on the keypad; saving it, or the round changing on another device, drops it.
    draft_key, base, untouched = (*session.draft_key, round_index, player), draft_base(saved), form_values(saved)
    kept = DRAFTS.get(draft_key)
    typed = kept.categories if kept is not None and kept.base == base else None
    shown = typed or untouched
    fields = {key: ft.TextField(label=labels[key], value=shown[key], keyboard_type=ft.KeyboardType.NUMBER,
                                dense=True, on_change=lambda e: changed())
              for key in NUMBER_FIELDS}
    points_line = ft.Text("", weight=ft.FontWeight.BOLD)
    points_notes = ft.Column(spacing=2)
    carried = state.before_round[min(round_index, len(state.before_round) - 1)]
    # a saved entry's choice was made (none included); a new one's is made by a tap
    chosen = {"choice": shown["choice"], "made": kept.choice_made if typed else bool(saved)}
    choice_row = ft.Row(wrap=True, spacing=6, run_spacing=6)
    rule = edition.choice.rule
    choice_prompt = sem("choice-prompt", ft.Text("", color=ft.Colors.ERROR, weight=ft.FontWeight.W_500))
    choice_prompt.visible = False  # (on the Semantics wrapper: its content must stay visible)
    dark = is_dark(app.page)

    def pick(name: str | None) -> None:
        chosen.update(choice=name, made=True)
        choice_prompt.visible = False
        draw_choices()
        changed()

    names = [None, *(i.name for i in edition.choice.icons)]
    choice_labels = {i.name: i.label for i in edition.choice.icons}
    # built once and restyled: a quick second tap must find the button it was aimed at
    choice_buttons = {n: ft.OutlinedButton(choice_labels[n] if n else wording.CHOICE_NONE_BUTTON[rule],
                                           icon=card_icon(n, "choice", dark=dark, label=choice_labels[n])
                                           if n else None, on_click=lambda e, n=n: pick(n)) for n in names}
    choice_row.controls = list(choice_buttons.values())

    def draw_choices() -> None:
        for n, button in choice_buttons.items():
            picked = chosen["choice"] == n and bool(n or chosen["made"])
            if button.data != picked:  # a new style object is a new patch: set only when it changes
                button.data = picked
                button.style = picked_style(picked)

    draw_choices()
    regions = [ft.Checkbox(label=r.label, value=r.name in shown["regions"], data=r.name,
                           on_change=lambda e: changed()) for r in edition.regions]
    route = (ft.Checkbox(label=_("{route} achieved this round").format(route=edition.route.label),
                         value=shown["route"], on_change=lambda e: changed())
             if edition.route is not None else None)
    message = ft.Text("", color=ft.Colors.ERROR)

    def values() -> dict:
        out: dict = {key: f.value or "" for key, f in fields.items()}
        out["choice"] = chosen["choice"]
        out["regions"] = [c.data for c in regions if c.value]  # the regions' keys, whatever the labels say
        out["route"] = bool(route.value) if route is not None else False
        return out

    def show_points() -> None:
        total, lines = category_preview(edition, carried, player, values(), state.setup.n, round_index + 1)
        points_line.value = (ngettext("{n} points so far (bonuses settle at round close)",
                                      "{n} points so far (bonuses settle at round close)", total).format(n=total)
                             if total is not None else _("Not complete yet"))
        points_notes.controls = [ft.Text(line, size=12, color=ft.Colors.ON_SURFACE_VARIANT)
                                 for line in lines]

    def changed() -> None:
        """After a keystroke or a tap: the points anew, and the form kept as a draft (dropped once it is back
        to the round as saved)."""
        show_points()
        if values() == untouched and chosen["made"] == bool(saved):
            DRAFTS.drop(draft_key)
        else:
            DRAFTS.keep(draft_key, [], chosen["choice"], base, chosen["made"], categories=values())

    async def submit() -> None:
        try:
            await submit_round(app, session, lambda: session.enter_categories(player, values(), round_index),
                               round_index, player)
        except EntryError as err:
            message.value = str(err)   # next to the button, and as a toast in case it is scrolled away
            app.toast(str(err), error=True)
            return
        DRAFTS.drop(draft_key)

    async def move_to_choice() -> None:
        choice_prompt.content.value = wording.CHOICE_CHOOSE_PROMPT[rule]
        choice_prompt.visible = True
        app.page.update()
        with contextlib.suppress(Exception):
            await app.page.views[-1].scroll_to(scroll_key=CHOICE_ROW_KEY, duration=250)

    async def save(e) -> None:
        """✓ / Save round: with no choice made, asks once (the pad cannot know what it would score here); a
        form still incomplete is refused first, naming what is missing."""
        if chosen["made"] or chosen["choice"] is not None or not complete():
            await submit()
            return

        async def save_without() -> None:
            pick(None)
            await submit()

        ask(app, wording.CHOICE_MISSING_UNKNOWN[rule], yes=_("Save"), no=_("Choose"), on_yes=save_without,
            on_no=move_to_choice, identifier="choice-question")

    async def on_enter(e) -> None:
        """Enter in a field saves, like the Save button (a form with a problem is refused, naming it); a
        complete form with no choice made moves to the choice instead."""
        if chosen["made"] or chosen["choice"] is not None or not complete():
            await submit()
        else:
            await move_to_choice()

    def complete() -> bool:
        """Every number in and valid: what is left to settle is the choice."""
        return category_preview(edition, carried, player, values(), state.setup.n, round_index + 1)[0] is not None

    for number_field in fields.values():
        number_field.on_submit = on_enter

    body = ft.Container(ft.Column([
        ft.Text(_("Type what the paper pad asks for; the app applies the rules and settles shared bonuses."),
                size=12, color=ft.Colors.ON_SURFACE_VARIANT),
        sem("entry-message", message),
        ft.Card(ft.Container(ft.Column([sem("entry-subtotal", points_line), points_notes], spacing=4),
                             padding=12)),
        fields["throw"], fields["catch"],
        icon_reference(edition.collection, "collection", dark), fields["collection"],
        icon_reference(edition.pairs, "pairs", dark), fields["pairs"],
        ft.Column([ft.Text(edition.choice.label, weight=ft.FontWeight.BOLD), choice_prompt,
                   choice_row], spacing=6, key=ft.ScrollKey(CHOICE_ROW_KEY)), fields["choice_count"],
        fields["sites"],
        ft.Text(_("Regions completed this round"), weight=ft.FontWeight.BOLD), *regions,
        *([route] if route is not None else []),
        ft.FilledButton(_("Save round"), icon=ft.Icons.CHECK, on_click=save),
    ], spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH), padding=PAD)
    show_points()
    save_action = sem("save", icon_button(ft.Icons.CHECK, _("Save round"), save))
    return Screen(_("R{round}/{rounds} · {name}").format(round=round_index + 1, rounds=ROUNDS,
                                                         name=state.players[player]), body, actions=[save_action])
