"""`tourpad bench table`: tables × seats on loopback, every seat submitting its rounds concurrently.

A host subprocess (`tourpad host --bind 127.0.0.1`, fresh data folder) serves the API; one asyncio client
process plays the seats: each seat listens to its table's event stream and submits the rows of a game the
engine played (random bots), so every submission is legal and the final scores can be checked against
the engine. Measured: submissions/s over the whole run, and for every submission the time from sending
it to its event arriving on each *other* seat's stream, its head read (p50/p95/max).

The client speaks HTTP/1.1 over raw asyncio streams (`Connection`), one keep-alive connection per seat for
its submissions and one for its event stream, on uvloop when it is installed (as the host's uvicorn is):
a general-purpose HTTP client costs more per event than the host does, and the bench would measure itself.
Each seat reads every event's own fields (kind, round, seat, version) and parses the whole table only where
it uses it (`Event`): the 32 phones of 8 × 4 share this one process, where a phone parses its own events on
its own CPU.

`profile=True` (`tourpad bench table --profile`) also runs the host with `TOURPAD_TABLE_TRACE`
(`scorer.table.trace`) and joins the host's marks with the client's into a per-step breakdown of a
submission's way to the other seats (`breakdown`).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from rules.bots import make_bot, play
from rules.edition import Edition
from rules.engine import ROUNDS, Game
from rules.scoring import NO_CHOICE
from scorer.ports import free_port
from scorer.table.credential import read_credential
from scorer.table.trace import TRACE_ENV


def scripted_rounds(edition: Edition, n_players: int, seed: int) -> tuple[list[list[tuple[str, str | None]]],
                                                                           list[int]]:
    """A game the engine played with random bots: rounds[r][seat] = (letters, choice name or None), and
    the engine's final totals (what the table must arrive at)."""
    game = Game(edition, n_players, seed)
    state = play(game, [make_bot("random", seed * 10 + p) for p in range(n_players)])
    rounds = []
    for rows, choices in state.round_log:
        rounds.append([("".join(edition.cards[c].letter for c in row),
                        edition.choice.icons[choice].name if choice != NO_CHOICE else None)
                       for row, choice in zip(rows, choices, strict=True)])
    return rounds, state.totals()


def spawn_host(data_dir: Path, port: int, extra: tuple[str, ...] = ("--api-only",),
               env: dict[str, str] | None = None) -> subprocess.Popen:
    """`tourpad host` on loopback with its own data folder (not yet answering), `env` added to its
    environment. Its output goes to a log file (`proc.log_path`): a pipe nobody reads fills up and then
    freezes the host mid-game."""
    env = {**os.environ, **(env or {}), "TOURPAD_DATA_DIR": str(data_dir)}
    data_dir.mkdir(parents=True, exist_ok=True)
    log_path = data_dir / f"host-{port}.log"
    proc = launch_tourpad(["host", "--bind", "127.0.0.1", "--port", str(port), *extra], env, log_path)
    proc.log_path = log_path
    return proc


def launch_tourpad(argv: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen:
    """`tourpad ARGV` in a new process with `env`, its output appended to `log_path`. (The tests replace it with
    a fork of a process that has the imports done: tests/forked_tourpad.py.)"""
    with open(log_path, "ab") as log:  # the child keeps its own copy of the descriptor
        return subprocess.Popen([sys.executable, "-m", "scorer.cli", *argv], env=env, stdout=log,
                                stderr=subprocess.STDOUT)


def log_tail(proc: subprocess.Popen, chars: int = 3000) -> str:
    """The end of what the host printed (for failure messages)."""
    return proc.log_path.read_text(errors="replace")[-chars:]


def printed(proc: subprocess.Popen, label: str, timeout: float = 30) -> str:
    """The value `tourpad host` printed after `label` (e.g. "Join code:") in this run's output, the last one
    if it printed several; waits for it up to `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.findall(rf"^{re.escape(label)}\s+(\S+)", log_tail(proc, 100_000), re.MULTILINE)
        if found:
            return found[-1]
        time.sleep(0.05)
    raise RuntimeError(f"tourpad host never printed {label!r}: {log_tail(proc)}")


def wait_until_up(proc: subprocess.Popen, port: int, timeout: float = 60) -> subprocess.Popen:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"tourpad host exited: {log_tail(proc)}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/openapi.json", timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.02)
    proc.kill()
    raise RuntimeError(f"tourpad host did not start within {timeout} s: {log_tail(proc)}")


def start_host(data_dir: Path, port: int, extra: tuple[str, ...] = ("--api-only",),
               env: dict[str, str] | None = None) -> subprocess.Popen:
    """`tourpad host` on loopback with its own data folder; returns once the API answers. `proc.auth` is
    the header that opens tables (the host credential the host keeps in its data folder)."""
    proc = wait_until_up(spawn_host(data_dir, port, extra, env), port)
    proc.auth = host_auth(data_dir)
    return proc


def host_auth(data_dir: Path) -> dict[str, str]:
    """The Authorization header of the host credential in `data_dir` (what creating a table needs)."""
    return {"Authorization": f"Bearer {read_credential(data_dir)}"}


def stop_host(proc: subprocess.Popen) -> None:
    """SIGTERM: uvicorn shuts down cleanly (and a traced host writes its trace on the way out)."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextmanager
def running_host(extra: tuple[str, ...] = ("--api-only",)):
    with tempfile.TemporaryDirectory(prefix="tourpad-bench-") as folder:
        port = free_port("127.0.0.1")
        proc = start_host(Path(folder), port, extra)
        try:
            yield f"http://127.0.0.1:{port}", proc.auth
        finally:
            stop_host(proc)




class HostRefused(RuntimeError):
    """The host answered a bench request with an error status."""


class Connection:
    """One HTTP/1.1 keep-alive connection to the host: JSON requests one at a time, or one event stream."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, authority: str) -> None:
        self._reader = reader
        self._writer = writer
        self._authority = authority

    @classmethod
    async def open(cls, host: str, port: int) -> Connection:
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer, f"{host}:{port}")

    @property
    def port(self) -> int:
        """This end's port: the host knows the connection by it (the trace's stream marks)."""
        return self._writer.get_extra_info("sockname")[1]

    def close(self) -> None:
        self._writer.close()

    def send(self, method: str, path: str, body: dict | None = None,
             headers: dict[str, str] | None = None) -> float:
        """Write a request; returns the moment just before it went out (perf_counter)."""
        payload = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self._authority}", f"Content-Length: {len(payload)}"]
        if body is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode() + payload
        sent = time.perf_counter()
        self._writer.write(request)
        return sent

    async def response(self) -> dict | list | None:
        """The answer to the request sent last, as JSON; HostRefused for an error status."""
        status, headers = await self._head()
        if headers.get("transfer-encoding") == "chunked":
            body = b"".join([chunk async for chunk in self._chunks()])
        else:
            body = await self._reader.readexactly(int(headers.get("content-length", "0")))
        data = json.loads(body) if body else None
        if status >= 400:
            raise HostRefused(f"{status}: {data}")
        return data

    async def request(self, method: str, path: str, body: dict | None = None,
                      headers: dict[str, str] | None = None) -> dict | list | None:
        self.send(method, path, body, headers)
        return await self.response()

    async def follow(self, path: str, on_event, opened: asyncio.Event) -> None:
        """Read the event stream at `path`, calling on_event(Event, received) for each event, `received`
        being when its last bytes arrived (until cancelled or the stream ends)."""
        self.send("GET", path, headers={"Accept": "text/event-stream"})
        status, _ = await self._head()
        if status != 200:
            raise HostRefused(f"{status} for the event stream {path}")
        opened.set()
        pending = b""
        async for chunk in self._chunks():
            received = time.perf_counter()
            pending += chunk
            while (end := pending.find(b"\n\n")) >= 0:
                block, pending = pending[:end], pending[end + 2:]
                data = [line[6:] for line in block.split(b"\n") if line.startswith(b"data: ")]
                if data:  # not a keep-alive comment
                    on_event(Event(b"\n".join(data)), received)

    async def _head(self) -> tuple[int, dict[str, str]]:
        lines = (await self._reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        return int(lines[0].split(" ", 2)[1]), headers

    async def _chunks(self):
        """The body's chunks (Transfer-Encoding: chunked, as the host streams) until the last one."""
        while True:
            size = int((await self._reader.readuntil(b"\r\n")).split(b";")[0], 16)
            chunk = await self._reader.readexactly(size + 2)  # with its closing CRLF
            if size == 0:
                return
            yield chunk[:-2]


class Event:
    """One event's data as it came. `head` is what every seat reads of it (kind, round, seat, version, …),
    `whole()` the table too: 32 phones share the bench's one process, so it parses a table only where it
    uses one (a real phone parses its own events on its own CPU; `tourpad bench table --profile` reports
    the host's side apart from the client's)."""

    TABLE = b', "table": '  # the service puts the table last, after the event's own fields

    def __init__(self, data: bytes) -> None:
        self.data = data
        cut = data.find(self.TABLE)
        self.head: dict = json.loads(data[:cut] + b"}") if cut >= 0 else self.whole()

    def whole(self) -> dict:
        return json.loads(self.data)


@dataclass
class Timings:
    """What the client saw: per other seat's event the latency, and (for the profile) when each step happened.
    Tables are known by their code without the dash, as the host's trace names them."""

    latencies: list[float] = field(default_factory=list)
    #: (code, version) → (sent, acknowledged)
    submissions: dict[tuple[str, int], tuple[float, float]] = field(default_factory=dict)
    #: (code, version, the stream's port) → (received, parsed), for the other seats' streams
    events: dict[tuple[str, int, int], tuple[float, float]] = field(default_factory=dict)


@dataclass
class GamePlayed:
    submissions: int
    totals: list[int]
    engine_totals: list[int]


class GameInPlay:
    """What the seats' streams wait on during one game at a table."""

    def __init__(self, rounds: int, seats: int) -> None:
        self.sent_at: dict[tuple[int, int], float] = {}
        self.closed = [asyncio.Event() for _ in range(rounds)]
        #: per seat's stream: it has shown the game's last entry
        self.shown_all = [asyncio.Event() for _ in range(seats)]
        self.last_view: dict = {}
        self.rounds = rounds


async def play_table(host: str, port: int, auth: dict[str, str], edition: Edition, seats: int,
                     seeds: list[int], timings: Timings) -> list[GamePlayed]:
    """One table, a game per seed (the next one with the host's "play again"), every seat concurrently."""
    setup = await Connection.open(host, port)
    created = await setup.request("POST", "/api/tables", {"edition": edition.id, "seats": seats}, auth)
    code = created["code"]
    key = code.replace("-", "")
    tokens = []
    for s in range(1, seats + 1):
        claimed = await setup.request("POST", f"/api/tables/{code}/seats/{s}/claim", {"name": f"P{s}"})
        tokens.append(claimed["seat_token"])
    game = GameInPlay(ROUNDS, seats)

    def listener_for(seat: int, stream_port: int):
        def on_event(event: Event, received: float) -> None:
            head = event.head
            if head["kind"] != "entry":
                return
            if head["seat"] != seat:
                parsed = time.perf_counter()
                timings.latencies.append(parsed - game.sent_at[head["round"], head["seat"]])
                timings.events[key, head["version"], stream_port] = (received, parsed)
            if head["round_closed"]:
                if head["round"] == game.rounds:
                    game.shown_all[seat - 1].set()
                if seat == 1:
                    game.last_view = event.whole()["table"]
                    game.closed[head["round"] - 1].set()
        return on_event

    streams = [await Connection.open(host, port) for _ in range(seats)]
    following = []
    for s, stream in enumerate(streams, start=1):
        opened = asyncio.Event()
        following.append(asyncio.create_task(
            stream.follow(f"/api/tables/{code}/events", listener_for(s, stream.port), opened)))
        await opened.wait()
    submitters = [await Connection.open(host, port) for _ in range(seats)]

    async def seat_plays(seat: int, rounds: list, game_number: int) -> None:
        connection = submitters[seat - 1]
        for r, entries in enumerate(rounds, start=1):
            cards, choice = entries[seat - 1]
            sent = connection.send("PUT", f"/api/tables/{code}/rounds/{r}/seats/{seat}",
                                   {"game": game_number, "cards": cards, "choice": choice,
                                    "replaces_revision": 0},
                                   {"Authorization": f"Bearer {tokens[seat - 1]}"})
            game.sent_at[r, seat] = sent
            ack = await connection.response()
            timings.submissions[key, ack["version"]] = (sent, time.perf_counter())
            await game.closed[r - 1].wait()

    played = []
    game_number = created["table"]["game"]
    for number, seed in enumerate(seeds):
        if number:
            again = await setup.request("POST", f"/api/tables/{code}/play-again",
                                        headers={"Authorization": f"Bearer {created['host_token']}"})
            game_number = again["game"]
            game = GameInPlay(ROUNDS, seats)
        rounds, engine_totals = scripted_rounds(edition, seats, seed)
        await asyncio.gather(*(seat_plays(s, rounds, game_number) for s in range(1, seats + 1)))
        # every stream delivers the game's last event before the game counts as played
        await asyncio.gather(*(shown.wait() for shown in game.shown_all))
        totals = [player["total"] for player in game.last_view["scores"]["players"]]
        played.append(GamePlayed(seats * len(rounds), totals, engine_totals))
    for task in following:
        task.cancel()
    await asyncio.gather(*following, return_exceptions=True)
    for connection in [setup, *streams, *submitters]:
        connection.close()
    return played


async def _run(host: str, port: int, auth: dict[str, str], edition: Edition, tables: int, seats: int,
               games: int, timings: Timings) -> dict:
    started = time.perf_counter()
    per_table = await asyncio.gather(*(
        play_table(host, port, auth, edition, seats, [game * 1000 + t for game in range(games)], timings)
        for t in range(tables)))
    elapsed = time.perf_counter() - started
    played = [game for games_played in per_table for game in games_played]
    submissions = sum(game.submissions for game in played)
    ms = sorted(x * 1000 for x in timings.latencies)
    return {
        "tables": tables, "seats": seats, "games_per_table": games, "submissions": submissions,
        "seconds": round(elapsed, 2),
        "submissions_per_s": round(submissions / elapsed, 1),
        "events_measured": len(ms),
        "event_latency_p50_ms": round(statistics.median(ms), 1),
        "event_latency_p95_ms": round(percentile(ms, 0.95), 1),
        "event_latency_max_ms": round(ms[-1], 1),
        "games_scored_unlike_engine": sum(game.totals != game.engine_totals for game in played),
    }


def percentile(ordered: list[float], share: float) -> float:
    return ordered[int(share * (len(ordered) - 1))]


def run_client(main) -> dict:
    """Run the bench's client coroutine on uvloop when installed (the host's uvicorn uses it too)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def process_cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of process `pid` so far, from /proc (None where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def run(edition: Edition, tables: int = 8, seats: int = 4, games: int = 3, profile: bool = False) -> dict:
    timings = Timings()
    with tempfile.TemporaryDirectory(prefix="tourpad-bench-") as folder:
        trace_file = Path(folder) / "trace.jsonl"
        port = free_port("127.0.0.1")
        proc = start_host(Path(folder) / "host", port, env={TRACE_ENV: str(trace_file)} if profile else None)
        try:
            host_cpu, client_cpu = process_cpu_seconds(proc.pid), time.process_time()
            result = run_client(_run("127.0.0.1", port, proc.auth, edition, tables, seats, games, timings))
            host_cpu = None if host_cpu is None else process_cpu_seconds(proc.pid) - host_cpu
            client_cpu = time.process_time() - client_cpu
        finally:
            stop_host(proc)  # a traced host writes its trace as it exits
        # CPU time per submission hardly depends on what else the machine runs, unlike the latencies
        if host_cpu is not None:
            result["host_cpu_ms_per_submission"] = round(host_cpu * 1000 / result["submissions"], 2)
        result["client_cpu_ms_per_submission"] = round(client_cpu * 1000 / result["submissions"], 2)
        if profile:
            result["breakdown"] = breakdown(read_trace(trace_file), timings)
    return result


# --- the profile: where a submission's time goes ---------------------------------------------------------------

#: The steps from a submission sent to its event parsed on another seat: (from mark, to mark, what happens).
#: Marks after "published" are per event stream; "sent", "stream_received" and "parsed" are the client's.
EVENT_STEPS = [
    ("sent", "received", "client writes the request; the host's loop reads its head"),
    ("received", "endpoint", "request body, dependencies, then the endpoint starts (thread-pool hop if sync)"),
    ("endpoint", "locked", "service lock wait"),
    ("locked", "validated", "checks and the rules' round validation"),
    ("validated", "viewed", "state updated, the table's view for the event built"),
    ("viewed", "queued", "the write queued for the store's writer thread"),
    ("queued", "commit_start", "waiting for the writer thread (the commit before this batch)"),
    ("commit_start", "committed", "the batch's commit: SQL and fsync"),
    ("committed", "published", "events handed to the listeners (this write's turn in the batch)"),
    ("published", "loop", "hop to the host's event loop"),
    ("loop", "encoded", "the event's JSON encoded (once for all its streams)"),
    ("encoded", "dequeued", "waiting for the stream's task to take it"),
    ("dequeued", "written", "SSE frame written to the connection"),
    ("written", "stream_received", "loopback and the client's loop reading it"),
    ("stream_received", "parsed", "the client reads the event's head (kind, round, seat, version)"),
]
#: The submitter's own answer, after the commit.
ACK_STEPS = [
    ("published", "woken", "the waiting request wakes (commit done)"),
    ("woken", "answered", "the answer leaves the endpoint"),
    ("answered", "acked", "loopback and the client reading the answer"),
]
PER_STREAM = {"loop", "encoded", "dequeued", "written", "stream_received", "parsed"}


def read_trace(path: Path) -> dict[tuple[str, int], list]:
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
    return {(row["code"], row["version"]): row["marks"] for row in rows}


def breakdown(trace: dict[tuple[str, int], list], timings: Timings) -> dict:
    """Per step of EVENT_STEPS and ACK_STEPS: mean, p50 and p95 in ms over every submission (× other seat),
    and the whole way (`total`). The means add up to the total's mean."""
    spans: dict[str, list[float]] = {label: [] for _, _, label in [*EVENT_STEPS, *ACK_STEPS]}
    totals: list[float] = []
    batch_sizes: list[int] = []
    for (code, version), (sent, acked) in timings.submissions.items():
        marks = trace.get((code, version))
        if marks is None:
            continue
        at: dict[str, float] = {"sent": sent, "acked": acked}
        by_stream: dict[int, dict[str, float]] = {}
        for stage, when, detail in marks:
            if stage in PER_STREAM:
                by_stream.setdefault(detail, {}).setdefault(stage, when)
            else:
                at.setdefault(stage, when)
                if stage == "committed":
                    batch_sizes.append(detail)
        for start, end, label in ACK_STEPS:
            if start in at and end in at:
                spans[label].append(at[end] - at[start])
        for stream_port, stream_marks in by_stream.items():
            seen = timings.events.get((code, version, stream_port))
            if seen is None:  # the submitter's own stream
                continue
            whole = {**at, **stream_marks, "stream_received": seen[0], "parsed": seen[1]}
            totals.append(whole["parsed"] - whole["sent"])
            for start, end, label in EVENT_STEPS:
                if start in whole and end in whole:
                    spans[label].append(whole[end] - whole[start])

    def summary(values: list[float]) -> dict:
        ms = sorted(v * 1000 for v in values)
        if not ms:
            return {"mean_ms": None, "p50_ms": None, "p95_ms": None}
        return {"mean_ms": round(statistics.fmean(ms), 2), "p50_ms": round(statistics.median(ms), 2),
                "p95_ms": round(percentile(ms, 0.95), 2)}

    return {
        "event_steps": [{"step": label, **summary(spans[label])} for _, _, label in EVENT_STEPS],
        "ack_steps": [{"step": label, **summary(spans[label])} for _, _, label in ACK_STEPS],
        "total": summary(totals),
        "events_traced": len(totals),
        "writes_per_commit_mean": round(statistics.fmean(batch_sizes), 1) if batch_sizes else None,
    }
