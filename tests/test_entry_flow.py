"""Nothing a player taps is lost (issue #34): the missing-choice question, honest previews, drafts, redo."""

from __future__ import annotations

import flet as ft
import pytest
from eventually import until
from flet.controls.base_control import BaseControl
from test_pad_screens import find_button, run_session, start

from rules import wording
from rules.editions import load_edition
from rules.scoring import MissedChoice, choice_left_unscored, choice_may_rise, row_mask
from scorer.pad.categories import field_labels
from scorer.pad.entry import LetterDraft, draft_for, missing_choice_question, preview
from scorer.pad.errors import EntryError
from scorer.pad.game import CATEGORIES_MODE, GameSession, undo_question
from scorer.pad.session import DraftBook
from scorer.pad.store import EventStore
from scorer.ui.main import make_main

USA = load_edition("usa")
EUROPE = load_edition("europe")
# Ann uses three of USA's four activities in rounds 1-3; Dining (B G N R U V) is her last.
USA_ROUNDS = [("EKLMZ@A", "Sightseeing", "BCDFGHI"), ("FQSTW#A", "Sporting Events", "BCDEGHI"),
              ("ACHIJXB", "Hiking", "DEFGKLM")]


@pytest.fixture
def store(tmp_path):
    s = EventStore(tmp_path / "games.sqlite3")
    yield s
    s.close()


def mask_of(edition, letters: str) -> int:
    return row_mask([edition.card_index(letter) for letter in letters])


def test_an_activity_never_rises_a_treasure_rises_while_cards_are_missing():
    hiking = [i.name for i in USA.choice.icons].index("Hiking")
    assert not choice_may_rise(USA, hiking, mask_of(USA, "ACHIJXB"), 0, 3, unseen_players=2)
    art = [i.name for i in EUROPE.choice.icons].index("Art")
    own = mask_of(EUROPE, "DABCEGH")  # one Art card (D) of five
    assert choice_may_rise(EUROPE, art, own, 0, 3, unseen_players=2)
    assert not choice_may_rise(EUROPE, art, own, 2, 3, unseen_players=0)  # everyone's cards are in
    # every other Art card already counted: nothing left to raise it
    assert not choice_may_rise(EUROPE, art, own, 4, 3, unseen_players=1)


def test_the_choice_left_unscored_is_the_best_one_that_would_or_may_score():
    assert choice_left_unscored([MissedChoice(0, 0, False), MissedChoice(1, 0, False)]) is None
    assert choice_left_unscored([MissedChoice(0, 4, False), MissedChoice(3, 15, False)]) == (3, 15, False)
    assert choice_left_unscored([MissedChoice(2, 0, True)]) == (2, 0, True)


def test_the_question_names_the_option_and_its_points_in_the_rules_words():
    assert wording.choice_missing_question("activity_table", "Dining", 15, False) == \
        "Dining would score 15 — save with no activity?"
    assert wording.choice_missing_question("treasure_others", "Art", 0, True) == \
        "Art scores 0 so far and may score more once everyone's cards are in — save with no treasure?"


def usa_game_at_round_4(store) -> GameSession:
    session = GameSession.new(store, "usa", ["Ann", "Bob"])
    for ann, choice, bob in USA_ROUNDS:
        session.enter_letters(0, ann, choice)
        session.enter_letters(1, bob, None)
    return session


def test_saving_dining_left_on_none_asks_with_its_15_points(store):
    state = usa_game_at_round_4(store).state
    draft = LetterDraft(letters=list("BGNRUVA"))
    assert missing_choice_question(state, 3, 0, draft) == "Dining would score 15 — save with no activity?"
    draft.choice_made = True  # "No activity" tapped on purpose: nothing to ask
    assert missing_choice_question(state, 3, 0, draft) is None
    assert missing_choice_question(state, 3, 0, LetterDraft(letters=list("BGNRUVA"), choice="Dining")) is None


def test_a_europe_treasure_entered_first_is_points_so_far(store):
    session = GameSession.new(store, "europe", ["Ann", "Bob", "Cy"])
    options = {o.name: o for o in preview(session.state, 0, 0, LetterDraft(letters=list("DABCEGH"))).choices}
    assert options["Art"].points == 0 and options["Art"].may_rise
    session.enter_letters(0, "DABCEGH", "Art")
    session.enter_letters(1, "FJLIKMN", None)
    last = {o.name: o for o in preview(session.state, 0, 2, LetterDraft(letters=list("OPQRSTU"))).choices}
    assert not any(o.may_rise for o in last.values())  # the last to enter sees final values
    ask = missing_choice_question(session.state, 0, 0, draft_for(session.state, 0, 0))
    assert ask is None  # a saved entry's choice was made


def test_redo_brings_back_what_undo_cancelled_until_something_new_is_entered(store):
    session = usa_game_at_round_4(store)
    totals = session.state.totals()
    kind, payload = session.state.last_done
    assert undo_question(session.state, kind, payload) == "Undo Bob's round 3 (DEFGKLM, No activity)?"
    session.undo()
    session.undo()
    assert undo_question(session.state, *session.state.last_done) == "Undo Bob's round 2 (BCDEGHI, No activity)?"
    assert session.redo() == "Ann's round 3: ACHIJXB + Hiking"
    assert session.state.entries[2][0] == {"cards": "ACHIJXB", "choice": "Hiking"}
    assert session.redo() == "Bob's round 3: DEFGKLM"
    assert session.state.totals() == totals
    with pytest.raises(EntryError, match="nothing to redo"):
        session.redo()
    session.undo()
    session.enter_letters(1, "DEFGKLN", None)  # a new entry: the undone one cannot come back over it
    assert not session.can_redo
    with pytest.raises(EntryError, match="nothing to redo"):
        session.redo()
    # the log replays the same way after a reload
    assert GameSession(store, session.game_id).state.entries == session.state.entries


def test_a_finished_game_offers_no_undo(store):
    session = usa_game_at_round_4(store)
    session.enter_letters(0, "BGNRUVA", "Dining")
    assert session.can_undo
    session.enter_letters(1, "CDEFHIJ", None)
    assert session.state.finished and not session.can_undo


def test_drafts_written_to_a_file_come_back_in_a_new_process(tmp_path):
    path = tmp_path / "drafts.json"
    writes = []
    book = DraftBook(lambda: path, after_write=lambda: writes.append(1))
    key = ("game", "/x/games.sqlite3", 3, 1, 0)
    book.keep(key, list("ABC"), "Hiking", base=("", None), choice_made=True)
    again = DraftBook(lambda: path).get(key)
    assert again is not None and again.letters == list("ABC") and again.choice == "Hiking"
    assert again.base == ("", None) and again.choice_made
    book.drop(key)
    assert DraftBook(lambda: path).get(key) is None
    assert len(writes) == 2
    path.write_text("not json")
    assert DraftBook(lambda: path).get(key) is None  # unreadable: no drafts, no error


async def category_form(store: EventStore):
    """A new Australia game entered by category, on Cy's round 1 form: (session, page, game)."""
    session, page, _ = await start(make_main(lambda: store))
    game = GameSession.new(store, "australia", ["Cy", "Di"], mode=CATEGORIES_MODE)
    page.data.session = game
    page.data.go("entry", game_id=game.game_id, round_index=0, player=0)
    return session, page, game


def test_a_round_by_category_asks_before_saving_with_no_activity(tmp_path):
    """The same question in category entry (no points: the pad does not know the cards); the answer runs
    once the dialog is gone (its dismiss event), and saves the round with no activity."""
    store = EventStore(tmp_path / "games.sqlite3")

    async def run():
        session, page, game = await category_form(store)
        labels = field_labels(load_edition("australia"))
        typed = {labels[key]: value for key, value in
                 {"throw": "3", "catch": "5", "collection": "0", "pairs": "0", "sites": "7"}.items()}
        for field in (c for c in walk_all(page.views[-1]) if isinstance(c, ft.TextField)):
            field.value = typed.get(field.label, field.value)
        await session.dispatch_event(find_button(page, "Save round")._i, "click", None)
        dialogs = [d for d in page._dialogs.controls if isinstance(d, ft.AlertDialog) and d.open]
        assert [d.content.content.value for d in dialogs] == ["No activity is chosen — save with no activity?"]
        assert game.reload().entries[0] == {}  # asked, not saved
        yes = dialogs[0].actions[1].content
        await session.dispatch_event(yes._i, "click", None)
        await session.dispatch_event(dialogs[0]._i, "dismiss", None)
        await until(lambda: game.reload().entries[0], "the round saved after Yes")
        assert game.state.entries[0][0]["categories"]["choice"] is None

    run_session(run)
    store.close()


def test_a_round_typed_by_category_is_kept_through_back_and_undo(tmp_path):
    """The by-category form keeps what was typed as the keypad does: left by Back (or a reload) half filled,
    it opens again as it was left; saved, the draft is gone; a saved round undone waits on the form again."""
    from test_deck_editor import node

    from scorer.pad.session import DRAFTS

    store = EventStore(tmp_path / "games.sqlite3")
    labels = field_labels(load_edition("australia"))

    def form(page) -> dict:
        fields = {c.label: c.value for c in walk_all(page.views[-1]) if isinstance(c, ft.TextField)}
        boxes = {c.label: c.value for c in walk_all(page.views[-1]) if isinstance(c, ft.Checkbox)}
        return {**{key: fields[labels[key]] for key in ("throw", "catch", "sites")}, **boxes}

    async def run():
        session, page, game = await category_form(store)
        app = page.data
        for field in (c for c in walk_all(page.views[-1]) if isinstance(c, ft.TextField)):
            value = {labels["throw"]: "3", labels["catch"]: "5", labels["sites"]: "7"}.get(field.label)
            if value is not None:  # typed on the phone: its text comes, then its change event
                session.apply_patch(field._i, {"value": value})
                await session.dispatch_event(field._i, "change", value)
        tasmania = next(c for c in walk_all(page.views[-1]) if isinstance(c, ft.Checkbox) and c.label == "Tasmania")
        session.apply_patch(tasmania._i, {"value": True})
        await session.dispatch_event(tasmania._i, "change", "true")
        typed = form(page)
        assert typed["Tasmania"] is True and (typed["throw"], typed["catch"], typed["sites"]) == ("3", "5", "7")

        app.go("sheet", game_id=game.game_id)  # Back, before saving
        app.go("entry", game_id=game.game_id, round_index=0, player=0)
        assert form(page) == typed

        for field in (c for c in walk_all(page.views[-1]) if isinstance(c, ft.TextField)):
            if field.label in (labels["collection"], labels["pairs"]):
                session.apply_patch(field._i, {"value": "0"})
                await session.dispatch_event(field._i, "change", "0")
        await session.dispatch_event(find_button(page, "No activity")._i, "click", None)
        await session.dispatch_event(find_button(page, "Save round")._i, "click", None)
        await until(lambda: game.reload().entries[0], "the round saved")
        assert game.state.entries[0][0]["categories"]["regions"] == ["Tasmania"]
        assert DRAFTS.get((*game.draft_key, 0, 0)) is None

        app.go("sheet", game_id=game.game_id)
        await session.dispatch_event(node(page, "undo")._i, "click", None)
        [question] = [d for d in page._dialogs.controls if isinstance(d, ft.AlertDialog) and d.open]
        await session.dispatch_event(question.actions[1].content._i, "click", None)  # Undo
        await session.dispatch_event(question._i, "dismiss", None)
        await until(lambda: not game.reload().entries[0], "the round undone")
        app.go("entry", game_id=game.game_id, round_index=0, player=0)
        assert form(page) == typed  # the undone round, back on the form to be saved again

    run_session(run)
    store.close()


def walk_all(control):
    yield control
    for attr in ("controls", "content", "actions", "_b"):  # _b: a component's rendered body (the keypad)
        value = getattr(control, attr, None)
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, BaseControl):
                yield from walk_all(child)


def test_the_keypads_hidden_lines_hide_their_semantics_not_its_content(tmp_path):
    """Flet draws "Semantics.content must be provided and visible" in red where a hook's content is hidden:
    the choice prompt and the may-rise note are hidden through their hooks."""
    store = EventStore(tmp_path / "games.sqlite3")

    async def run():
        _session, page, _ = await start(make_main(lambda: store))
        app = page.data
        for mode in ("letters", CATEGORIES_MODE):
            game = GameSession.new(store, "europe", ["Cy", "Di"], mode=mode)
            app.session = game
            app.go("entry", game_id=game.game_id, round_index=0, player=0)
            hooks = [c for c in walk_all(page.views[-1]) if isinstance(c, ft.Semantics)]
            assert {"choice-prompt"} <= {h.identifier for h in hooks}
            assert [h.identifier for h in hooks if h.content is None or h.content.visible is False] == []

    run_session(run)
    store.close()
