"""`tourpad bench strength`: a line-up's strength over thousands of games, played over as many sessions as it takes.

Every finished chunk of games goes into a JSON Lines record kept in the repository (benchmarks/strength-records/), so a
session on a fresh clone plays only what is not recorded yet. A game's deal and bots depend only on the seed and
its index, so the recorded chunks' tallies add up to exactly what `tourpad sim --rotate` reports for the same seed
and number of games.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, as_completed, wait
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError, model_validator

from rules.edition import Edition
from scorer.packs import resolve_edition
from scorer.sim.boomerang import SimError, Tally, add_game, play_game, resolve_bot_names, simulation_report

try:
    import fcntl
except ImportError:  # Windows: no advisory lock, the overlap check still refuses a record two runs wrote
    fcntl = None

FORMAT = "tourpad-strength"
VERSION = 1
#: Every entry sits in every seat once with 4 players (twice with 2): a chunk is a fair sample on its own.
CHUNK_GAMES = 4
RECORDS = Path(__file__).parent / "strength-records"
ROTATE = True
#: A chunk's line holds its `Tally` field by field (`asdict`), and is read back by the same names.
TALLY_FIELDS = frozenset(f.name for f in fields(Tally))
DIRECTION_VARIANT = False
#: Hex digits of a game's fingerprint kept (64 bits: two different games alike by chance, never in practice).
FINGERPRINT_CHARS = 16


class StrengthError(ValueError):
    """A run that cannot go on (bad options, a damaged or foreign record); the message says why."""


class Header(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["tourpad-strength"]
    version: Literal[1]
    edition: str = Field(min_length=1)
    players: int = Field(ge=2, le=4)
    bots: list[str] = Field(min_length=2, max_length=4)
    seed: int
    rotate: bool
    direction_variant: bool
    expert_simulations: int | None = Field(ge=1)
    chunk_games: int = Field(ge=1)


class Chunk(BaseModel):
    """Games `first`..`last - 1`: their `Tally`, each game's final total per line-up entry, the CPU they took."""

    model_config = ConfigDict(extra="forbid")
    first: int = Field(ge=0)
    last: int = Field(ge=1)
    entries: int = Field(ge=2, le=4)
    categories: int = Field(ge=1)
    regions: int = Field(ge=0)
    games: int = Field(ge=1)
    wins: list[float]
    totals: list[int]
    points: list[list[int]]
    ahead: list[list[float]]
    region_won: list[int]
    route_awarded: int = Field(ge=0)
    game_totals: list[list[int]]
    #: per game, `game_fingerprint` of its every action (records begun before fingerprints lack them)
    game_fingerprints: list[str] | None = None
    cpu_seconds: float = Field(ge=0)
    finished: AwareDatetime

    @model_validator(mode="after")
    def _consistent(self) -> Chunk:
        n = self.entries
        if self.last - self.first != self.games:
            raise ValueError(f"games {self.first}..{self.last - 1} are {self.last - self.first} games, "
                             f"not {self.games}")
        if self.first // CHUNK_GAMES != (self.last - 1) // CHUNK_GAMES:
            raise ValueError(f"games {self.first}..{self.last - 1} cross a chunk boundary "
                             f"(chunks are {CHUNK_GAMES} games)")
        shapes = {"wins": (self.wins, None), "totals": (self.totals, None), "points": (self.points, self.categories),
                  "ahead": (self.ahead, n)}
        for name, (values, width) in shapes.items():
            if len(values) != n or (width is not None and any(len(row) != width for row in values)):
                raise ValueError(f"{name} does not have the shape of {n} entries")
        if len(self.region_won) != self.regions:
            raise ValueError(f"region_won has {len(self.region_won)} regions, not {self.regions}")
        if len(self.game_totals) != self.games or any(len(row) != n for row in self.game_totals):
            raise ValueError(f"game_totals is not {self.games} games of {n} entries")
        if self.game_fingerprints is not None and len(self.game_fingerprints) != self.games:
            raise ValueError(f"game_fingerprints is not {self.games} games")
        summed = [sum(row[e] for row in self.game_totals) for e in range(n)]
        if summed != self.totals:
            raise ValueError(f"game_totals add up to {summed}, totals say {self.totals}")
        return self

    def tally(self) -> Tally:
        """The chunk's `Tally` (fresh lists: adding to it leaves the chunk as recorded)."""
        return Tally(**self.model_dump(include=TALLY_FIELDS))


@dataclass(slots=True)
class Progress:
    games_counted: int
    games_target: int
    entry_one_win_share: float


@dataclass(slots=True)
class StrengthRun:
    #: exactly `simulation_report` over the recorded chunks inside the first `games_target` games
    report: dict
    record: Path
    games_target: int
    games_recorded: int
    #: (first, last) ranges below `games_target` the report leaves out: once the run has played what the
    #: record lacked, only games recorded in a chunk that runs past `games_target` (a smaller --games than before)
    missing: list[tuple[int, int]]
    cpu_seconds: float
    games_played_now: int
    #: whether today's bots play the record's first game as recorded (a record is only ever added to by them)
    played_by_this_code: bool

    def as_dict(self) -> dict:
        return {**self.report, "record": str(self.record), "games_target": self.games_target,
                "games_recorded": self.games_recorded, "missing": [list(r) for r in self.missing],
                "cpu_seconds": self.cpu_seconds, "games_played_now": self.games_played_now,
                "played_by_this_code": self.played_by_this_code}


def default_record(edition_id: str, bots: Sequence[str], seed: int) -> Path:
    return RECORDS / f"{edition_id}-{len(bots)}p-{'-'.join(bots)}-seed{seed}.jsonl"


def played_game(edition: Edition, bots: Sequence[str], g: int, seed: int,
                expert_simulations: int | None) -> tuple[Tally, str]:
    """Game `g` of the run: its tally and its fingerprint."""
    state, entry_at = play_game(edition, bots, g, seed, DIRECTION_VARIANT, ROTATE, expert_simulations)
    tally = Tally(len(bots), len(edition.category_ids()), len(edition.regions))
    add_game(tally, edition, state, entry_at)
    return tally, game_fingerprint(state.history)


def game_fingerprint(history: Sequence[Sequence[int]]) -> str:
    """Every action of a game (each pick and round-end choice of every seat), hashed: bots that decide
    anything differently in the game show another fingerprint, even where the final totals come out alike."""
    return hashlib.sha256(json.dumps([list(step) for step in history]).encode()).hexdigest()[:FINGERPRINT_CHARS]


def play_chunk(edition_id: str, bots: Sequence[str], first: int, last: int, seed: int,
               expert_simulations: int | None) -> Chunk:
    """One game at a time, so each game's totals and fingerprint are kept beside the chunk's tally."""
    started = time.process_time()
    edition = resolve_edition(edition_id)  # once a chunk: a pack's is parsed from its file
    played = [played_game(edition, bots, g, seed, expert_simulations) for g in range(first, last)]
    game_totals = [list(tally.totals) for tally, _ in played]  # before the sum below adds into played[0]
    tally = played[0][0]
    for game, _ in played[1:]:
        tally.add(game)
    return Chunk(first=first, last=last, **asdict(tally), game_totals=game_totals,
                 game_fingerprints=[fingerprint for _, fingerprint in played],
                 cpu_seconds=round(time.process_time() - started, 3),
                 finished=datetime.now(UTC).replace(microsecond=0))


@dataclass(slots=True)
class _Lines:
    complete: list[bytes]
    #: the file's length up to its last complete line
    complete_bytes: int
    #: the number of an unterminated last line (a run killed while writing it)
    partial_line: int | None


def _problem(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else first["msg"]


def _split_lines(data: bytes) -> _Lines:
    complete_bytes = data.rfind(b"\n") + 1
    complete = data[:complete_bytes].split(b"\n")[:-1]
    return _Lines(complete, complete_bytes, len(complete) + 1 if complete_bytes < len(data) else None)


def _read_header(path: Path, line: bytes) -> Header:
    try:
        return Header.model_validate_json(line)
    except ValidationError as err:
        raise StrengthError(f"{path}, line 1: not a strength record's header: {_problem(err)}") from None


def _read_chunks(path: Path, header: Header, lines: Sequence[bytes], edition: Edition) -> list[Chunk]:
    n_categories, n_regions = len(edition.category_ids()), len(edition.regions)
    chunks: list[Chunk] = []
    recorded_on: dict[int, int] = {}
    for number, line in enumerate(lines, start=2):
        try:
            chunk = Chunk.model_validate_json(line)
        except ValidationError as err:
            raise StrengthError(f"{path}, line {number}: not a chunk of games: {_problem(err)}") from None
        if (chunk.entries, chunk.categories, chunk.regions) != (header.players, n_categories, n_regions):
            raise StrengthError(f"{path}, line {number}: a tally of {chunk.entries} entries, {chunk.categories} "
                                f"categories and {chunk.regions} regions, not this record's {header.players}, "
                                f"{n_categories} and {n_regions}")
        for g in range(chunk.first, chunk.last):
            if g in recorded_on:
                raise StrengthError(f"{path}, line {number}: game {g} is already recorded on line {recorded_on[g]}")
            recorded_on[g] = number
        chunks.append(chunk)
    return chunks


def _differing_field(header: Header, wanted: Header) -> str | None:
    options = {"edition": "--edition", "players": "--players", "bots": "--bots", "seed": "--seed",
               "expert_simulations": "--expert-simulations"}
    for name in Header.model_fields:
        recorded, asked = getattr(header, name), getattr(wanted, name)
        if recorded == asked:
            continue
        if name in options:
            return (f"{options[name]}: the record was made with {_shown(recorded)}, this run asks for "
                    f"{_shown(asked)}")
        return f"its {name} is {_shown(recorded)}, this version of the command uses {_shown(asked)}"
    return None


def _shown(value: object) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value))
    return "the default" if value is None else str(value)


def _ranges(games: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted game indices as (first, last) runs of consecutive games."""
    runs: list[tuple[int, int]] = []
    for g in games:
        if runs and runs[-1][1] == g:
            runs[-1] = (runs[-1][0], g + 1)
        else:
            runs.append((g, g + 1))
    return runs


def chunks_to_play(recorded: set[int], games: int) -> list[tuple[int, int]]:
    """The games below `games` not yet recorded, cut at chunk boundaries so each piece is one line."""
    pieces = []
    for start in range(0, games, CHUNK_GAMES):
        end = min(start + CHUNK_GAMES, games)
        pieces.extend(_ranges([g for g in range(start, end) if g not in recorded]))
    return pieces


def _played_by_other_code(path: Path, header: Header, chunks: list[Chunk]) -> str | None:
    """Why the record was made by other bots than today's, found by replaying the games of its first chunk with
    fingerprints (every action of each game) or, in a record without fingerprints, of its first chunk (each
    game's final totals); None if today's bots play those games as recorded.

    A whole chunk, not one game: bots that differ can play a game alike (the expert that predicts the next
    hand plays Europe's 4-player game 0 move for move as the one before it, and game 1 otherwise), and a
    chunk seats every entry in every seat."""
    fingerprinted = [c for c in chunks if c.game_fingerprints is not None]
    oldest = min(fingerprinted or chunks, key=lambda c: c.first)
    edition = resolve_edition(header.edition)
    for offset, g in enumerate(range(oldest.first, oldest.last)):
        tally, fingerprint = played_game(edition, header.bots, g, header.seed, header.expert_simulations)
        now, recorded = list(tally.totals), oldest.game_totals[offset]
        if now != recorded:
            return (f"the bots now play game {g} differently from this record (totals {', '.join(map(str, now))}; "
                    f"recorded {', '.join(map(str, recorded))}): {path} was made with other code")
        if oldest.game_fingerprints is not None and fingerprint != oldest.game_fingerprints[offset]:
            return (f"the bots now play game {g} differently from this record (the same totals, other moves: "
                    f"fingerprint {fingerprint}, recorded {oldest.game_fingerprints[offset]}): {path} was made with "
                    "other code")
    return None


def _append_line(fd: int, line: str) -> None:
    """One write of the whole line, then to disk: a killed run loses at most the line being written."""
    data = line.encode("utf-8") + b"\n"
    written = os.write(fd, data)
    if written != len(data):
        raise OSError(f"wrote {written} of {len(data)} bytes")
    os.fsync(fd)


@contextlib.contextmanager
def _open_locked(path: Path) -> Iterator[int]:
    existed = path.exists()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise StrengthError(f"another run is writing {path}; wait for it to finish") from None
        if not existed:
            _fsync_folder(path.parent)
        yield fd
    finally:
        os.close(fd)


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform opens a folder
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C and SIGTERM to the parent, which records the chunks under way, then stops them
    (a worker stopped on its own would keep the record's lock, inherited with its file, until its chunk ends)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


#: Set by `stop_requests`' signal handler; the run looks at it where stopping loses nothing.
_STOP = threading.Event()
#: How often (seconds) a run with workers looks whether it was asked to stop while it waits for a chunk.
STOP_POLL_SECONDS = 0.2


@contextlib.contextmanager
def stop_requests() -> Iterator[None]:
    """While inside, Ctrl-C and SIGTERM (`kill`, a job being stopped) ask the run to stop: the chunks under way
    are finished and recorded, then the run raises KeyboardInterrupt. The request is only looked at between
    steps, so it is honoured wherever the signal lands (a KeyboardInterrupt raised at once could land while a
    chunk is being written, and lose the chunks under way). A second signal interrupts at once."""

    def ask(signum: int, frame: object) -> None:
        if _STOP.is_set():
            raise KeyboardInterrupt
        _STOP.set()

    previous = {sig: signal.signal(sig, ask) for sig in (signal.SIGINT, signal.SIGTERM)}
    _STOP.clear()
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        _STOP.clear()


def _played(edition_id: str, bots: list[str], pieces: list[tuple[int, int]], seed: int,
            expert_simulations: int | None, workers: int, on_warning: Callable[[str], None]) -> Iterator[Chunk]:
    """The pieces' chunks as they finish; only the caller (the parent process) writes the record.

    With workers, no more chunks are handed out than there are workers, and the workers ignore Ctrl-C (and
    SIGTERM): once the parent hears it, the chunks under way are finished and recorded instead of thrown away."""
    if workers <= 1:
        for first, last in pieces:
            if _STOP.is_set():
                on_warning("stopping: every finished chunk is recorded")
                raise KeyboardInterrupt
            yield play_chunk(edition_id, bots, first, last, seed, expert_simulations)
        return
    waiting = iter(pieces)
    with ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts) as pool:
        def start(piece: tuple[int, int]) -> Future[Chunk]:
            return pool.submit(play_chunk, edition_id, bots, *piece, seed, expert_simulations)

        def finish_under_way() -> Iterator[Chunk]:
            on_warning(f"stopping after recording the chunks under way ({len(under_way)})")
            for future in as_completed(under_way):
                yield future.result()

        under_way = {start(piece) for piece in islice(waiting, workers)}
        while under_way:
            try:
                done, under_way = wait(under_way, timeout=STOP_POLL_SECONDS, return_when=FIRST_COMPLETED)
            except KeyboardInterrupt:  # Ctrl-C where no `stop_requests` handler is installed
                yield from finish_under_way()
                raise
            for future in sorted(done, key=lambda f: f.result().first):
                yield future.result()
                if not _STOP.is_set():
                    piece = next(waiting, None)
                    if piece is not None:
                        under_way.add(start(piece))
            if _STOP.is_set():
                yield from finish_under_way()
                raise KeyboardInterrupt


def run(edition: Edition, players: int, bots: Sequence[str], games: int = 2000, seed: int = 2026, workers: int = 1,
        expert_simulations: int | None = None, record: Path | None = None,
        on_progress: Callable[[Progress], None] | None = None,
        on_warning: Callable[[str], None] | None = None) -> StrengthRun:
    """Play the games below `games` the record lacks, appending each chunk as it finishes; report the first
    `games` games as `tourpad sim --rotate --seed SEED --games GAMES` would."""
    if not 2 <= players <= 4:
        raise StrengthError(f"--players: 2 to 4, not {players}")
    try:
        names = resolve_bot_names(bots, players)
    except SimError as err:
        raise StrengthError(str(err)) from None
    if games < 1:
        raise StrengthError(f"--games must be at least 1 (got {games})")
    if workers < 1:
        raise StrengthError(f"--workers must be at least 1 (got {workers})")
    if expert_simulations is not None and expert_simulations < 1:
        raise StrengthError(f"--expert-simulations must be at least 1 (got {expert_simulations})")
    path = record if record is not None else default_record(edition.id, names, seed)
    if path.exists() and not path.is_file():
        raise StrengthError(f"--record {path} is not a file")
    wanted = Header(format=FORMAT, version=VERSION, edition=edition.id, players=players, bots=names, seed=seed,
                    rotate=ROTATE, direction_variant=DIRECTION_VARIANT, expert_simulations=expert_simulations,
                    chunk_games=CHUNK_GAMES)
    with _open_locked(path) as fd:
        lines = _split_lines(path.read_bytes())
        header = _read_header(path, lines.complete[0]) if lines.complete else None
        if header is not None:
            differs = _differing_field(header, wanted)
            if differs is not None:
                raise StrengthError(f"{path} belongs to another run ({differs}); choose another --record, or leave "
                                    "--record out for this run's own")
        found = _read_chunks(path, wanted, lines.complete[1:], edition)
        recorded = {g for chunk in found for g in range(chunk.first, chunk.last)}
        pieces = chunks_to_play(recorded, games)
        other_code = _played_by_other_code(path, wanted, found) if found else None
        if other_code is not None:
            # never mix two versions of the bots in one record; reading an old one back is fine, said plainly
            if pieces:
                raise StrengthError(f"{other_code}; use a new --record")
            if on_warning is not None:
                on_warning(f"{other_code}: the figures below are that code's, not today's")
        if lines.partial_line is not None:
            if on_warning is not None:
                on_warning(f"{path}, line {lines.partial_line}: an unfinished line (a run stopped while writing "
                           "it) is dropped; its games are played again")
            os.ftruncate(fd, lines.complete_bytes)
            os.fsync(fd)
        if header is None:
            _append_line(fd, wanted.model_dump_json())

        chunks = list(found)
        running = _summed(edition, players, [c for c in chunks if c.last <= games])
        for chunk in _played(edition.id, names, pieces, seed, expert_simulations, workers,
                             on_warning or (lambda _message: None)):
            _append_line(fd, chunk.model_dump_json())
            chunks.append(chunk)
            running.add(chunk.tally())
            if on_progress is not None:
                on_progress(Progress(running.games, games, running.wins[0] / running.games))

    counted = [c for c in chunks if c.last <= games]
    total = _summed(edition, players, counted)
    if total.games == 0:
        raise StrengthError(f"no recorded chunk lies inside the first {games} games of {path} (its chunks are "
                            f"{CHUNK_GAMES} games); ask for --games {CHUNK_GAMES} or more")
    in_report = {g for c in counted for g in range(c.first, c.last)}
    recorded = {g for c in chunks for g in range(c.first, c.last)}
    return StrengthRun(
        report=simulation_report(edition, names, total, seed, DIRECTION_VARIANT, ROTATE), record=path,
        games_target=games, games_recorded=len(recorded),
        missing=_ranges([g for g in range(games) if g not in in_report]),
        cpu_seconds=round(sum(c.cpu_seconds for c in counted), 3),
        games_played_now=sum(last - first for first, last in pieces), played_by_this_code=other_code is None)


def _summed(edition: Edition, players: int, chunks: Sequence[Chunk]) -> Tally:
    total = Tally(players, len(edition.category_ids()), len(edition.regions))
    for chunk in sorted(chunks, key=lambda c: c.first):
        total.add(chunk.tally())
    return total
