"""What every reader of a game's scores shows of the recorded games in `tests/data/`, as plain JSON: the
`tourpad score` report, the round summaries, the one-phone pad's sheet, a table's view and its seats' and
board's sheets, and solo games' round summaries, in English and in French.

`tests/data/fold_observations.json` holds what the code showed before the round-scoring fold moved into
`rules.sheet` (written by `python tests/fold_observations.py`); `tests/test_sheet.py` checks that the code
shows the same today. Regenerate it only for a change that means to alter what is shown.
"""

from __future__ import annotations

import dataclasses
import json
import tempfile
from pathlib import Path

from rules.i18n import use_language
from rules.record import GameRecord, parse_record, round_summaries, score_record

DATA = Path(__file__).parent / "data"
EXPECTED = DATA / "fold_observations.json"
RECORDS = ("table_usa_acceptance.json", "table_europe_passport.json")
#: Solo games played to the end with the person always taking the first option: (edition, bots, seed).
SOLO_GAMES = (("australia", ("easy", "normal", "easy"), 3), ("europe", ("normal", "easy", "easy"), 11),
              ("usa", ("easy", "normal"), 7), ("usa", ("normal", "normal", "easy"), 21))


def _plain(value):
    """Dataclasses, tuples and the like as JSON's lists and objects."""
    if dataclasses.is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _pad_sheet(state) -> dict:
    from rules.scoring import category_points

    n = state.setup.n
    return {
        "points": [[category_points(state.edition, s) for s in state.scores[p]] for p in range(n)],
        "notes": state.notes,
        "totals": state.totals(), "ranks": state.ranks(), "running": state.running_totals(),
        "category_totals": [state.category_totals(p) for p in range(n)],
        "bonus_summaries": [state.bonus_summary(r) for r in range(state.rounds_done)],
        "tie_breaks": state.tie_breaks(),
        "route_status": [state.route_status(p) for p in range(n)],
        "bonus_marks": _plain(state.bonus_marks()),
        "region_claims": _plain(state.region_claims()),
        "visited": [state.visited(p) for p in range(n)],
        "summary": state.summary(), "csv": state.csv_text(),
    }


def _record_observations(record: GameRecord) -> dict:
    from scorer.packs import resolve_edition
    from scorer.pad.game import GameSession
    from scorer.pad.store import EventStore
    from scorer.table.board import board_from_view
    from scorer.table.service import TableService
    from scorer.table.sheet import TableSheetSession

    edition = resolve_edition(record.edition)
    out: dict = {"score": score_record(record, edition).to_dict(),
                 "round_summaries": round_summaries(edition, parse_record(record, edition)[0],
                                                    list(record.players))}
    with tempfile.TemporaryDirectory() as folder:
        store = EventStore(Path(folder) / "pad.sqlite3")
        session = GameSession.from_record(store, record)
        out["pad"] = _pad_sheet(session.state)
        service = TableService(Path(folder) / "tables.sqlite3")
        try:
            code, host_token = service.create_table(record.edition, len(record.players),
                                                    credential=service.host_credential)
            for s, name in enumerate(record.players, start=1):
                service.claim_seat(code, s, name)
            for r, row in enumerate(record.rounds, start=1):
                for s, name in enumerate(record.players, start=1):
                    service.submit(code, r, s, row[name].cards, row[name].choice, 0, host_token)
            view = service.view(code)
            out["table"] = {"scores": view["scores"], "bonuses": view["bonuses"]}
            out["board"] = {**_plain(board_from_view(view)), "code": "(random)"}
            out["seat"] = _pad_sheet(TableSheetSession(service, code, host_token, None).state)
        finally:
            service.close()
    return out


def _solo_observations(edition: str, bots: tuple[str, ...], seed: int) -> dict:
    from scorer.solo.game import SoloGame

    game = SoloGame.new(edition, list(bots), seed=seed, bot_seed=seed + 1)
    while not game.state.is_terminal():
        game.play(game.screen()["actions"][0]["action"])
    return _solo_summaries(game.pad_state())


def _solo_summaries(state) -> dict:
    """What solo's round summaries and final ranking show, read from the pad's model solo draws them from
    (`SoloGame.pad_state`), in the shape solo's own summaries had before they became the pad's."""
    from rules.scoring import category_points

    edition = state.edition
    summaries = []
    for r in range(state.rounds_done):
        players = []
        for p, name in enumerate(state.players):
            entry, score = state.entries[r][p], state.scores[p][r]
            choice = entry["choice"]
            players.append({
                "name": name, "row": entry["cards"],
                "choice": edition.choice.icons[edition.choice.icon_index(choice)].label if choice else None,
                "points": category_points(edition, score), "total": score.total,
                "explanations": [line for line in state.notes[p][r] if line]})
        bonuses = [{"bonus": a.name, "label": edition.regions[a.region].label if a.region >= 0
                    else edition.route.label, "points": a.points, "players": [state.players[q] for q in a.players]}
                   for a in state.awards[r]]
        summaries.append({"round": r + 1, "players": players, "bonuses": bonuses})
    ranks, totals = state.ranks(), state.totals()
    order = sorted(range(state.setup.n), key=lambda p: (ranks[p], p))
    return {"round_summaries": summaries,
            "ranking": [{"place": ranks[p], "name": state.players[p], "total": totals[p]} for p in order]}


def observations() -> dict:
    out: dict = {}
    for lang in ("en", "fr"):
        with use_language(lang):
            for name in RECORDS:
                record = GameRecord.model_validate_json((DATA / name).read_text())
                out[f"{lang}/{name}"] = _record_observations(record)
            for edition, bots, seed in SOLO_GAMES:
                out[f"{lang}/solo-{edition}-{'-'.join(bots)}-{seed}"] = _solo_observations(edition, bots, seed)
    return json.loads(json.dumps(out))


if __name__ == "__main__":
    EXPECTED.write_text(json.dumps(observations(), indent=1, ensure_ascii=False) + "\n")
