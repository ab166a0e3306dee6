"""The solo screens build from the controller and forward taps to it (no browser: a stand-in app shell)."""

from __future__ import annotations

import inspect
import re

import flet as ft
import pytest
from flet.components.component import Component, Renderer

from scorer.pad.store import EventStore
from scorer.solo.view import unfinished
from scorer.ui import home, solo  # noqa: F401  (registers the screens)
from scorer.ui.app import SCREENS


class Shell:
    """Stands in for `PadApp`: the store, `go`/`render` building the registered screen, and toasts."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.route: tuple[str, dict] = ("home", {})
        self.current = None
        self.page = None  # no page: the light theme
        self.text_size = "normal"
        self.toasts: list[str] = []
        self.renders = 0

    def go(self, name: str, **params) -> None:
        self.route = (name, params)
        self.render()

    def render(self) -> None:
        name, params = self.route
        self.current = SCREENS[name](self, **params)
        self.renders += 1

    def toast(self, message: str, error: bool = False) -> None:
        self.toasts.append(message)


def rendered(component: Component) -> ft.Control:
    """What a component draws. A stand-in shell has no Flet session to render it, so the test renders it,
    afresh at each look: a tap's change to its model shows at the next look, as the session would patch it."""
    return Renderer(component).render(component.fn, *component.args, **component.kwargs)


def walk(control):
    stack = [control]
    while stack:
        c = stack.pop()
        if isinstance(c, Component):
            stack.append(rendered(c))
            continue
        yield c
        for attr in ("content", "controls", "actions"):
            child = getattr(c, attr, None)
            if isinstance(child, list):
                stack.extend(child)
            elif child is not None and not isinstance(child, str):
                stack.append(child)


def texts(shell: Shell) -> list[str]:
    return [c.value for c in walk(shell.current.body) if isinstance(c, ft.Text) and isinstance(c.value, str)]


def hook(shell: Shell, identifier: str, where=None):
    for c in walk(where if where is not None else ft.Column([shell.current.body, *shell.current.actions])):
        if isinstance(c, ft.Semantics) and c.identifier == identifier:
            return c.content
    raise AssertionError(f"no {identifier!r} on {shell.route}")


def handle(handler) -> None:
    """Call a click handler as Flet does: a generator handler (a tap that shows a step before its work,
    "The bots are choosing…") is run to its end."""
    steps = handler(None)
    if inspect.isgenerator(steps):
        for _step in steps:
            pass


def tap(shell: Shell, identifier: str) -> None:
    handle(hook(shell, identifier).on_click)


def click(shell: Shell, label: str) -> None:
    for c in walk(shell.current.body):
        if isinstance(c, ft.Button | ft.FilledButton | ft.FilledTonalButton | ft.OutlinedButton) \
                and c.content == label:
            handle(c.on_click)
            return
    raise AssertionError(f"no button {label!r} on {shell.route}")


@pytest.fixture
def shell(tmp_path, monkeypatch):
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path))
    store = EventStore(tmp_path / "games.sqlite3")
    yield Shell(store)
    store.close()


def test_set_up_play_a_round_hint_and_resume_from_home(shell) -> None:
    shell.go("solo_setup")
    tap(shell, "bots-2")
    tap(shell, "bot-1-easy")
    tap(shell, "bot-2-easy")
    tap(shell, "solo-start")
    assert shell.route[0] == "solo_game"
    assert hook(shell, "solo-status").value.startswith("Round 1 of 4: choose your Throw card")
    tap(shell, "hand-0")
    assert hook(shell, "solo-step").value == "Card 2 of 7"  # the Throw is played: the next card is chosen
    # the table shows the person's own Throw card and a face-down card for each bot
    assert "?" in texts(shell)
    tap(shell, "solo-hint-button")
    assert hook(shell, "solo-hint").controls[0].value.startswith("Hint: the hard bot would choose")
    tap(shell, "solo-hint-longer")
    assert hook(shell, "solo-hint").controls[0].value.startswith("Hint: the expert bot would choose")
    with pytest.raises(AssertionError, match="no 'solo-hint-longer'"):
        hook(shell, "solo-hint-longer")  # the expert's hint is the longest there is
    while hook(shell, "solo-status").value.startswith("Round 1 of 4: choose a card"):
        tap(shell, "hand-0")
    assert "the Catch has arrived" in hook(shell, "solo-status").value
    assert hook(shell, "choice-0").content.endswith(" pts")
    # each activity's button carries its pictogram, the same one the printed cards use
    pictograms = [c.icon.identifier for c in walk(shell.current.body)
                  if isinstance(c, ft.FilledTonalButton) and isinstance(c.icon, ft.Semantics)]
    assert pictograms and all(p.startswith("pictogram-") for p in pictograms)
    tap(shell, "choice-0")
    # the round's summary is the score pad's: each player's round points and total after it, their row and
    # choice, the rules' explanations
    assert hook(shell, "summary-title").value == "Round 1 closed"
    assert hook(shell, "summary-gain-1").value.startswith("+")
    assert hook(shell, "summary-total-1").value.startswith("= ")
    rows = [t for t in texts(shell) if re.fullmatch(r"Row \S{7}( · scored .+)?", t)]
    assert len(rows) == 3  # the person's and the two bots'
    assert any(t.startswith("Throw & Catch: ") for t in texts(shell))  # the engine's explanations
    click(shell, "Start round 2")
    assert hook(shell, "solo-status").value.startswith("Round 2 of 4")
    # leave; a new window (after a restart) resumes from home at the same decision
    step = hook(shell, "solo-step").value
    game_id = unfinished(shell.store)[0].id
    again = Shell(shell.store)
    again.go("home")
    assert "Resume solo game" in [getattr(c, "content", None) for c in walk(again.current.body)]
    again.go("solo_game", game_id=game_id)
    assert hook(again, "solo-step").value == step


@pytest.mark.parametrize(("edition", "bots"), [("australia", 1), ("europe", 3), ("usa", 2)])
def test_a_whole_game_ends_on_the_ranking_and_chart(shell, edition, bots) -> None:
    shell.go("solo_setup")
    solo.window(shell).setup.edition = edition
    tap(shell, f"bots-{bots}")
    for bot in range(1, bots + 1):
        tap(shell, f"bot-{bot}-easy")
    tap(shell, "solo-start")
    summaries = 0
    used_up_seen = False
    while True:
        try:
            hook(shell, "winner")
            break
        except AssertionError:
            pass
        try:
            hook(shell, "summary-title")
        except AssertionError:
            try:
                hook(shell, "choice-0")
            except AssertionError:
                tap(shell, "hand-0")
                continue
            labels = [getattr(c, "content", None) for c in walk(shell.current.body)]
            used = [t for t in labels if isinstance(t, str) and t.endswith(": used up")]
            chosen_before = [u.removesuffix(": used up") for u in used]
            shown = hook(shell, "choices-used").value.removeprefix("Already used: ")
            assert set(shown.split(", ")) == (set(chosen_before) or {"none yet"})
            used_up_seen = used_up_seen or bool(used)
            tap(shell, "choice-0")
            continue
        summaries += 1
        click(shell, "Final ranking" if summaries == 4 else f"Start round {summaries + 1}")
    assert summaries == 4 and used_up_seen
    # the final ranking is the score pad's: the podium (hooked by seat), ties, categories, the chart
    places = [hook(shell, f"rank-{seat}").value for seat in range(1, bots + 2)]
    assert any(place.startswith("#1 ") for place in places)
    assert any(t == "Categories add up to the totals" for t in texts(shell))
    # each round's summary stays a tap away, and leads back to the ranking
    click(shell, "Round 2")
    assert hook(shell, "summary-title").value == "Round 2 closed"
    click(shell, "Final ranking")
    hook(shell, "winner")
    assert unfinished(shell.store) == []


def test_an_impossible_set_up_is_refused_with_the_reason(shell) -> None:
    shell.go("solo_setup")
    tap(shell, "bots-1")
    solo.window(shell).setup.variant = True  # the switch is disabled for 1 bot; force it anyway
    tap(shell, "solo-start")
    assert "direction variant is for 3 or 4 players" in hook(shell, "solo-setup-message").value
    assert shell.route[0] == "solo_setup" and unfinished(shell.store) == []


def test_a_move_the_store_refuses_is_not_shown_as_played(shell, monkeypatch) -> None:
    shell.go("solo_setup")
    tap(shell, "bots-1")
    tap(shell, "bot-1-easy")
    tap(shell, "solo-start")
    tap(shell, "hand-0")
    step = hook(shell, "solo-step").value

    def disk_full(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(shell.store, "append", disk_full)
    tap(shell, "hand-0")
    assert shell.toasts and "could not be saved (disk full)" in shell.toasts[-1]
    assert hook(shell, "solo-step").value == step  # replayed from the store: the move did not happen


def test_a_searching_bot_says_it_is_choosing_before_it_thinks(shell) -> None:
    """A tap against a bot that searches shows "The bots are choosing…", with the hand not tappable, as a
    step Flet draws before the search (a generator handler's yield), then the table after it."""
    shell.go("solo_setup")
    tap(shell, "bots-1")
    tap(shell, "bot-1-hard")
    tap(shell, "solo-start")
    steps = hook(shell, "hand-0").on_click(None)
    next(steps)
    assert hook(shell, "solo-status").value == "The bots are choosing…"
    assert hook(shell, "hand-1").on_click is None
    for _step in steps:
        pass
    assert hook(shell, "solo-step").value == "Card 2 of 7"
    assert hook(shell, "hand-0").on_click is not None


def test_a_card_faces_long_icon_name_is_drawn_smaller_not_broken() -> None:
    """On a solo card face (112 px wide), French's "Ornithorynques" is wider than the room beside its pictogram
    at the names' size, and Flutter drew it "Ornithorynque / s": it is drawn smaller, so that it fits; names
    whose words fit keep the names' size; in larger text (cards as tall as their words) nothing is shrunk."""
    from test_pad_screens import walk

    from scorer.ui.solo import ICON_LINE_INSET, ICON_NAME_SIZE, card_face
    from scorer.ui.text_size import REGULAR_LETTER_EM, text_width

    card = {"letter": "X", "number": 2, "site": "Palais royal des expositions", "region": "Victoria",
            "color": "#C9A227", "icons": ["leaves", "platypus"], "icon_labels": ["Feuilles", "Ornithorynques"]}

    def name_sizes(face: ft.Control) -> dict[str, float]:
        return {c.value: c.size for c in walk(face) if isinstance(c, ft.Text) and c.value in card["icon_labels"]}

    room = 112 - ICON_LINE_INSET
    sizes = name_sizes(card_face(card))
    assert sizes["Feuilles"] == ICON_NAME_SIZE
    assert sizes["Ornithorynques"] < ICON_NAME_SIZE
    assert text_width("Ornithorynques", sizes["Ornithorynques"], REGULAR_LETTER_EM) <= room
    assert text_width("Ornithorynques", ICON_NAME_SIZE, REGULAR_LETTER_EM) > room  # it would not have fitted
    assert name_sizes(card_face(card, fixed_height=False)) == {"Feuilles": ICON_NAME_SIZE,
                                                               "Ornithorynques": ICON_NAME_SIZE}
