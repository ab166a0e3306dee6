"""Solo play against bots: the controller the app drives, free of any UI and of any storage.

A solo game is an append-only list of events, each `{"kind": …, "payload": {…JSON…}}` (the shape of the
score pad's SQLite event log): one `solo_started` event with the set-up, then one `solo_act` event per
decision of any player (the person's and the bots'). The app persists each event before it shows its
effect; `SoloGame.resume(events)` replays the list to the same position (it also takes objects with
`.kind` and `.payload`), so a game can be left and resumed. Bot decisions are recorded, not recomputed
on replay, so a saved game survives changes to the bots.

The person is always seat 0. At every step they decide (`play`), then each bot decides on its own view;
as Boomerang's picks are simultaneous, no bot ever sees the person's pick before making its own. The
bots' random generators are seeded from `bot_seed`, drawn apart from the deal's `seed`: a bot's seed
tells it nothing about the deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rules.bots import make_bot
from rules.bots.expert import ExpertBot
from rules.bots.greedy import GreedyBot
from rules.bots.hard import HardBot
from rules.edition import Edition
from rules.engine import CHOICE_NONE, ROUNDS, Game, IllegalAction, Phase, State, action_choice
from rules.record import ParsedRound, record_from_rounds
from rules.scoring import NO_CHOICE, choice_option_points
from rules.sheet import GameSheet, fold_rounds
from rules.validation import RuleError, check_direction_variant
from scorer.locale import N_, _
from scorer.pad.game import LETTERS_MODE, PadState, Setup

EVENT_VERSION = 1
STARTED = "solo_started"
ACT = "solo_act"
DIFFICULTIES = ("easy", "normal", "hard", "expert")
#: Each difficulty as a person reads it (the key stays in saved games).
DIFFICULTY_LABELS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard"), "expert": N_("expert")}
#: The difficulties whose bots search before they decide (the app says it is thinking meanwhile).
SEARCHING_LEVELS = frozenset({"hard", "expert"})
HUMAN = 0


def difficulty_label(level: str) -> str:
    """A bot's difficulty in the language of the moment ("easy" → "facile")."""
    label = DIFFICULTY_LABELS.get(level)
    return _(label) if label else level


class SoloError(ValueError):
    """A set-up, decision or saved event the rules refuse; the message says which and why."""


@dataclass(frozen=True, slots=True)
class SoloSetup:
    edition: str
    bots: tuple[str, ...]
    direction_variant: bool
    seed: int
    player_name: str
    #: Seeds the bots' decisions; independent of `seed` (games saved before it existed use `seed`).
    bot_seed: int
    #: An owner's deck as it was when the game began (`scorer.packs.deck_to_keep`); None for tourpad's.
    deck: dict | None = None

    def to_event(self) -> dict:
        payload = {"version": EVENT_VERSION, "edition": self.edition, "bots": list(self.bots),
                   "direction_variant": self.direction_variant, "seed": self.seed, "player": self.player_name,
                   "bot_seed": self.bot_seed}
        if self.deck is not None:
            payload["deck"] = self.deck
        return {"kind": STARTED, "payload": payload}

    @property
    def players(self) -> list[str]:
        """The person and the bots, as the screens name them (the bots' in the language of the moment)."""
        return [self.player_name] + [_("Bot {n} ({level})").format(n=i, level=difficulty_label(d))
                                     for i, d in enumerate(self.bots, start=1)]


def _kind_payload(event) -> tuple[str, dict]:
    if isinstance(event, dict):
        return event.get("kind", ""), event.get("payload") or {}
    return event.kind, event.payload


def _resolve(edition_id: str, kept: dict | None = None) -> Edition:
    """The edition a solo game is played with: the deck it kept (an owner's, as it was when it began), else
    the edition or installed deck of that id."""
    from scorer.packs import resolve_edition, saved_game_lookup

    try:
        return saved_game_lookup({"deck": kept} if kept else {}, resolve_edition)(edition_id)
    except KeyError as err:
        raise SoloError(str(err.args[0])) from None


class SoloGame:
    """One solo game in progress: apply the person's decisions, let the bots answer, describe the table."""

    def __init__(self, setup: SoloSetup, edition: Edition) -> None:
        self.setup = setup
        self.edition = edition
        self.game = Game(edition, 1 + len(setup.bots), setup.seed, setup.direction_variant)
        self.state: State = self.game.new_initial_state()
        self.events: list[dict] = [setup.to_event()]

    # --- starting and resuming ------------------------------------------------------------------------------

    @classmethod
    def new(cls, edition: str, bots: Sequence[str], direction_variant: bool = False, seed: int | None = None,
            player_name: str = "You", bot_seed: int | None = None, kept_deck: dict | None = None) -> SoloGame:
        """A new game against 1–3 bots, each `easy`, `normal`, `hard` or `expert`; `seed` deals the cards, `bot_seed`
        seeds the bots (each drawn at random when not given)."""
        if not 1 <= len(bots) <= 3:
            raise SoloError(_("a solo game has 1 to 3 bots, not {n}").format(n=len(bots)))
        for i, difficulty in enumerate(bots, start=1):
            if difficulty not in DIFFICULTIES:
                raise SoloError(_("bot {n}: difficulty {level!r} is not one of {levels}").format(
                    n=i, level=difficulty, levels=", ".join(DIFFICULTIES)))
        try:
            check_direction_variant(1 + len(bots), direction_variant)
        except RuleError as err:
            raise SoloError(_("{error}: choose at least 2 bots").format(error=err)) from None
        name = player_name.strip()
        if not name or len(name) > 40:
            raise SoloError(_("the player's name must be 1 to 40 characters"))
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        if bot_seed is None:
            bot_seed = random.SystemRandom().randrange(2**31)
        from scorer.packs import deck_to_keep

        deck = _resolve(edition, kept_deck)
        setup = SoloSetup(edition, tuple(bots), direction_variant, seed, name, bot_seed,
                          kept_deck if kept_deck is not None else deck_to_keep(deck))
        return cls(setup, deck)

    @classmethod
    def resume(cls, events: Sequence[dict]) -> SoloGame:
        """Replay saved events; refuses (naming the event) a list that is not a game these rules allow.

        A log cut short after the person's pick gets the bots' answers at once (see `events` for them).
        """
        events = [_kind_payload(e) for e in events]
        if not events or events[0][0] != STARTED:
            raise SoloError(_("a saved solo game starts with its {kind!r} event").format(kind=STARTED))
        first = events[0][1]
        if first.get("version") != EVENT_VERSION:
            raise SoloError(_("saved solo game has event version {version!r}; this tourpad reads version "
                              "{known}").format(version=first.get("version"), known=EVENT_VERSION))
        try:
            game = cls.new(first["edition"], first["bots"], bool(first["direction_variant"]), int(first["seed"]),
                           first.get("player", "You"), int(first.get("bot_seed", first["seed"])),
                           first.get("deck") if isinstance(first.get("deck"), dict) else None)
        except (KeyError, TypeError, ValueError) as err:
            raise SoloError(_("event 1 ({kind}) is damaged: {error}").format(kind=STARTED, error=err)) from None
        for number, (kind, event) in enumerate(events[1:], start=2):
            if kind != ACT:
                raise SoloError(_("event {n}: unknown kind {kind!r}").format(n=number, kind=kind))
            try:
                game._apply(int(event["player"]), int(event["action"]), int(event["step"]))
            except (KeyError, TypeError, ValueError) as err:
                raise SoloError(_("event {n}: {error}").format(n=number, error=err)) from None
        if game.state.pending_players() and HUMAN not in game.state.pending_players():
            # saved after the person's pick but before every bot's answer: the bots answer now
            game._bots_answer()
        return game

    # --- playing --------------------------------------------------------------------------------------------

    def play(self, action: int) -> list[dict]:
        """The person's decision, then every bot's; returns the new events (persist them all).

        An illegal action raises SoloError and changes nothing.
        """
        if self.state.is_terminal():
            raise SoloError(_("the game is over"))
        if action not in self.state.legal_actions(HUMAN):
            raise SoloError(_("you cannot {move} now: choose one of {moves}").format(
                move=self._describe(action),
                moves=", ".join(self._describe(a) for a in self.state.legal_actions(HUMAN))))
        step = len(self.state.history)
        return [self._apply(HUMAN, action, step), *self._bots_answer()]

    def _bots_answer(self) -> list[dict]:
        """The bots still to decide in this step decide, each on its own view."""
        step = len(self.state.history)
        new = []
        for seat in self.state.pending_players():
            if seat != HUMAN:
                bot = make_bot(self.setup.bots[seat - 1], self._bot_seed(seat, step))
                new.append(self._apply(seat, bot.act(self.state.view(seat)), step))
        return new

    def _bot_seed(self, seat: int, step: int) -> int:
        """Each bot decision has its own seed: a resumed game plays on exactly as it would have."""
        return (self.setup.bot_seed * 131 + step) * 8 + seat

    def _apply(self, player: int, action: int, step: int) -> dict:
        if step != len(self.state.history):
            raise ValueError(_("is for step {step}, but the game is at step {now}").format(
                step=step, now=len(self.state.history)))
        try:
            self.state.apply_action(player, action)
        except IllegalAction as err:
            raise ValueError(str(err)) from None
        event = {"kind": ACT, "payload": {"player": player, "action": action, "step": step}}
        self.events.append(event)
        return event

    # --- what the person sees -------------------------------------------------------------------------------

    def _describe(self, action: int) -> str:
        if self.state.phase == Phase.CHOICE:
            return _("score {option}").format(option=self._label(action))
        return _("pick {card}").format(card=self.state.action_to_string(action))

    def _label(self, action: int) -> str:
        """How an option reads on a button: a card's letter, a choice's name, or "None this round"."""
        if action == CHOICE_NONE:
            return _("None this round")
        if self.state.phase == Phase.CHOICE:
            return self.edition.choice.icons[action_choice(action)].label
        return self.state.action_to_string(action)

    def card(self, index: int) -> dict:
        """A card as the app draws it: letter, number, site, region and its colour, icons (`icons` are the
        keys the pictograms are found by; `icon_labels` what a person reads)."""
        ed = self.edition
        c = ed.cards[index]
        region = ed.regions[c.region]
        icons = [family.icons[slot] for family, slot in
                 ((ed.collection, c.collection), (ed.pairs, c.pairs), (ed.choice, c.choice)) if slot >= 0]
        return {"index": index, "letter": c.letter, "number": c.number, "site": c.site_label,
                "region": region.label, "color": region.color, "icons": [icon.name for icon in icons],
                "icon_labels": [icon.label for icon in icons]}

    def screen(self) -> dict:
        """Everything the person may see now, JSON-able: never another player's Throw card or hand."""
        s, ed = self.state, self.edition
        obs = s.observation(HUMAN)
        players = []
        totals = s.totals()
        # once the round is revealed, `face_up` rows start with the Throw card, shown on its own here
        revealed = s.phase in (Phase.CHOICE, Phase.GAME_OVER)
        for p, name in enumerate(self.setup.players):
            throw = obs.throws[p]
            players.append({
                "name": name, "difficulty": None if p == HUMAN else self.setup.bots[p - 1],
                "face_up": [self.card(c) for c in obs.face_up[p][1 if revealed else 0:]],
                "throw": self.card(throw) if throw is not None else None,
                "hand_size": obs.hand_sizes[p], "total": totals[p]})
        out = {
            "edition": ed.id, "edition_name": ed.label, "round": min(s.round_index + 1, ROUNDS),
            "rounds": ROUNDS, "phase": s.phase.name.lower(), "pass": "left" if obs.pass_left else "right",
            "players": players, "hand": [self.card(c) for c in obs.hand],
            "throw": self.card(obs.throw) if obs.throw is not None else None,
            "actions": self._actions(obs),
        }
        if s.phase == Phase.CHOICE:
            # the last card passed on is the person's Catch card
            out["catch"] = self.card(s.rows[HUMAN][-1])
            out["choices"] = self._choice_options(obs)
        family = ed.choice
        used = [family.icons[i] for i in range(len(family.icons)) if obs.choices_used[HUMAN] >> i & 1]
        out["choices_used"] = [icon.name for icon in used]
        out["choices_used_labels"] = [icon.label for icon in used]
        if s.is_terminal():
            out["ranking"] = self.ranking()
        return out

    def _actions(self, obs) -> list[dict]:
        return [{"action": a, "label": self._label(a)} for a in obs.legal_actions]

    def _choice_options(self, obs) -> list[dict]:
        """The round-end choice with the points each option scores now (the round is revealed)."""
        points = dict(choice_option_points(self.edition, [tuple(r) for r in obs.face_up], HUMAN))
        out = []
        for action in obs.legal_actions:
            icon = action_choice(action)
            out.append({"action": action, "label": self._label(action),
                        "icon": None if icon == NO_CHOICE else self.edition.choice.icons[icon].name,
                        "points": 0 if icon == NO_CHOICE else points.get(icon, 0)})
        return sorted(out, key=lambda o: -o["points"])

    def sheet(self) -> GameSheet:
        """The finished rounds folded into the sheets (`rules.sheet`), as every score pad folds them."""
        return fold_rounds(self.edition, (ParsedRound(rows, choices) for rows, choices in self.state.round_log),
                           self.game.n_players)

    def pad_state(self) -> PadState:
        """The finished rounds as the score pad holds a game: the players, each one's row and choice round by
        round, and the sheets folded from them. Solo's round summaries and final ranking are the pad's,
        drawn from this."""
        ed = self.edition
        entries: list[dict[int, dict]] = [
            {p: {"cards": "".join(ed.cards[c].letter for c in rows[p]),
                 "choice": ed.choice.icons[choices[p]].name if choices[p] != NO_CHOICE else None}
             for p in range(self.game.n_players)}
            for rows, choices in self.state.round_log]
        entries += [{} for _ in range(ROUNDS - len(entries))]
        setup = Setup(ed.id, tuple(self.setup.players), self.setup.direction_variant, LETTERS_MODE)
        return PadState(setup, ed, entries, sheet=self.sheet())

    def record(self):
        """The game so far as a `GameRecord` (what `tourpad score` reads and the app exports)."""
        rounds = [ParsedRound(rows, choices) for rows, choices in self.state.round_log]
        return record_from_rounds(self.edition, self.setup.players, rounds, self.setup.direction_variant)

    def ranking(self) -> list[dict]:
        ranks, totals = self.state.ranks(), self.state.totals()
        order = sorted(range(self.game.n_players), key=lambda p: (ranks[p], p))
        return [{"place": ranks[p], "name": self.setup.players[p], "total": totals[p]} for p in order]

    # --- the Hint -------------------------------------------------------------------------------------------

    def hint(self, samples: int = 48, longer: bool = False, simulations: int | None = None) -> dict:
        """What the hard bot would do in the person's place, and why: its value of every option.

        Values are the standing the hard bot expects at round end (points ahead of the field, counting
        the activities / treasures still unused), averaged over `samples` deals of the unseen cards; the
        greedy estimate of what each card adds to the row right now is given alongside. `longer` ("think
        longer") asks the expert bot instead: its search, `simulations` rollouts (its default budget), also
        plans the person's later picks of the round and counts the region bonuses to come; its values for a
        pick are chances of winning the game, in percent (`unit`).
        """
        if self.state.is_terminal():
            raise SoloError(_("the game is over: there is nothing to hint"))
        view = self.state.view(HUMAN)
        step = len(self.state.history)
        seed = self._bot_seed(HUMAN, step)
        if longer:
            expert = ExpertBot(seed) if simulations is None else ExpertBot(seed, simulations=simulations)
            values = expert.action_values(view)
        else:
            values = HardBot(seed=seed, samples=samples).action_values(view)
        immediate = GreedyBot().action_values(view) if self.state.phase != Phase.CHOICE else {}
        # the expert's search values a pick by its chance of winning the game: shown in percent
        as_chance = longer and self.state.phase != Phase.CHOICE
        if as_chance:
            values = {action: 100 * min(1.0, max(0.0, value)) for action, value in values.items()}
        best = max(values.values())
        options = []
        for action, value in sorted(values.items(), key=lambda kv: -kv[1]):
            option = {"action": action, "label": self._label(action), "value": round(value, 2),
                      "behind_best": round(best - value, 2)}
            if action in immediate:
                option["adds_now"] = round(immediate[action], 2)
            options.append(option)
        if self.state.phase == Phase.CHOICE:
            why = _("points scored now plus the points the activities / treasures you keep are expected to "
                    "score in the rounds left")
        elif longer:
            why = _("your chance of winning the game, in percent: your lead at the end of this round, with the "
                    "region bonuses still to come, playing your next picks and theirs out in many deals of the "
                    "cards you cannot see, then how far a lead moves in the rounds left")
        else:
            why = _("your expected lead over the other players at the end of this round, playing it out in "
                    "{n} deals of the cards you cannot see").format(n=samples)
        return {"best": options[0]["action"], "best_label": options[0]["label"], "options": options,
                "why": why, "bot": "expert" if longer else "hard",
                "unit": "percent to win" if as_chance else "points"}
