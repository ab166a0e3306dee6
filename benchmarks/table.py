"""`tourpad bench table`: tables × seats on loopback, every seat submitting its rounds concurrently.

A host subprocess (`tourpad host --bind 127.0.0.1`, fresh data folder) serves the API; one asyncio client
process plays the seats: each seat listens to its table's event stream and submits the rows of a game the
engine played (random bots), so every submission is legal and the final scores can be checked against
the engine. Measured: submissions/s over the whole run, and for every submission the time from sending
it to its event arriving on each *other* seat's stream (p50/p95).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import httpx

from rules.bots import make_bot, play
from rules.edition import Edition
from rules.engine import Game
from rules.scoring import NO_CHOICE
from scorer.ports import free_port
from scorer.table.credential import read_credential


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


def spawn_host(data_dir: Path, port: int, extra: tuple[str, ...] = ("--api-only",)) -> subprocess.Popen:
    """`tourpad host` on loopback with its own data folder (not yet answering). Its output goes to a log
    file (`proc.log_path`): a pipe nobody reads fills up and then freezes the host mid-game."""
    env = {**os.environ, "TOURPAD_DATA_DIR": str(data_dir)}
    data_dir.mkdir(parents=True, exist_ok=True)
    log_path = data_dir / f"host-{port}.log"
    with open(log_path, "ab") as log:  # the child keeps its own copy of the descriptor
        proc = subprocess.Popen([sys.executable, "-m", "scorer.cli", "host", "--bind", "127.0.0.1",
                                 "--port", str(port), *extra],
                                env=env, stdout=log, stderr=subprocess.STDOUT)
    proc.log_path = log_path
    return proc


def log_tail(proc: subprocess.Popen, chars: int = 3000) -> str:
    """The end of what the host printed (for failure messages)."""
    return proc.log_path.read_text(errors="replace")[-chars:]


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


def start_host(data_dir: Path, port: int, extra: tuple[str, ...] = ("--api-only",)) -> subprocess.Popen:
    """`tourpad host` on loopback with its own data folder; returns once the API answers. `proc.auth` is
    the header that opens tables (the host credential the host keeps in its data folder)."""
    proc = wait_until_up(spawn_host(data_dir, port, extra), port)
    proc.auth = host_auth(data_dir)
    return proc


def host_auth(data_dir: Path) -> dict[str, str]:
    """The Authorization header of the host credential in `data_dir` (what creating a table needs)."""
    return {"Authorization": f"Bearer {read_credential(data_dir)}"}


@contextmanager
def running_host(extra: tuple[str, ...] = ("--api-only",)):
    with tempfile.TemporaryDirectory(prefix="tourpad-bench-") as folder:
        port = free_port("127.0.0.1")
        proc = start_host(Path(folder), port, extra)
        try:
            yield f"http://127.0.0.1:{port}", proc.auth
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


async def read_events(client: httpx.AsyncClient, url: str, on_event, opened: asyncio.Event) -> None:
    """Follow a server-sent event stream, calling on_event(dict) per event (until cancelled)."""
    async with client.stream("GET", url, timeout=None) as response:
        response.raise_for_status()
        opened.set()
        data = []
        async for line in response.aiter_lines():
            if line.startswith("data: "):
                data.append(line[6:])
            elif not line and data:
                on_event(json.loads("".join(data)))
                data = []


async def play_table(client: httpx.AsyncClient, base: str, auth: dict[str, str], edition: Edition, seats: int,
                     seed: int, latencies: list[float]) -> tuple[int, list[int], list[int]]:
    """One table, one game, every seat concurrently; returns (submissions, table totals, engine totals)."""
    rounds, engine_totals = scripted_rounds(edition, seats, seed)
    created = (await client.post(f"{base}/api/tables", json={"edition": edition.id, "seats": seats},
                                 headers=auth)).json()
    code = created["code"]
    tokens = []
    for s in range(1, seats + 1):
        claimed = await client.post(f"{base}/api/tables/{code}/seats/{s}/claim", json={"name": f"P{s}"})
        tokens.append(claimed.json()["seat_token"])

    sent_at: dict[tuple[int, int], float] = {}
    closed: list[asyncio.Event] = [asyncio.Event() for _ in rounds]
    last_view: dict = {}

    def listener_for(seat: int):
        def on_event(event: dict) -> None:
            if event["kind"] != "entry":
                return
            if event["seat"] != seat:
                latencies.append(time.perf_counter() - sent_at[event["round"], event["seat"]])
            if seat == 1:
                last_view.update(event["table"])
                if event["round_closed"]:
                    closed[event["round"] - 1].set()
        return on_event

    streams = []
    for s in range(1, seats + 1):
        opened = asyncio.Event()
        streams.append(asyncio.create_task(
            read_events(client, f"{base}/api/tables/{code}/events", listener_for(s), opened)))
        await opened.wait()

    async def seat_plays(seat: int) -> None:
        for r, entries in enumerate(rounds, start=1):
            cards, choice = entries[seat - 1]
            sent_at[r, seat] = time.perf_counter()
            response = await client.put(f"{base}/api/tables/{code}/rounds/{r}/seats/{seat}",
                                        json={"cards": cards, "choice": choice, "replaces_revision": 0},
                                        headers={"Authorization": f"Bearer {tokens[seat - 1]}"})
            response.raise_for_status()
            await closed[r - 1].wait()

    await asyncio.gather(*(seat_plays(s) for s in range(1, seats + 1)))
    # the other seats' streams may still be delivering the last round's events
    await asyncio.sleep(0.2)
    for task in streams:
        task.cancel()
    await asyncio.gather(*streams, return_exceptions=True)
    totals = [player["total"] for player in last_view["scores"]["players"]]
    return seats * len(rounds), totals, engine_totals


async def _run(base: str, auth: dict[str, str], edition: Edition, tables: int, seats: int, games: int) -> dict:
    latencies: list[float] = []
    limits = httpx.Limits(max_connections=tables * seats * 2 + 10)
    async with httpx.AsyncClient(limits=limits, timeout=30) as client:
        started = time.perf_counter()
        submissions = 0
        mismatches = 0
        for game in range(games):
            results = await asyncio.gather(*(
                play_table(client, base, auth, edition, seats, game * 1000 + t, latencies) for t in range(tables)))
            for count, totals, engine_totals in results:
                submissions += count
                mismatches += totals != engine_totals
        elapsed = time.perf_counter() - started
    ms = sorted(x * 1000 for x in latencies)
    return {
        "tables": tables, "seats": seats, "games_per_table": games, "submissions": submissions,
        "seconds": round(elapsed, 2),
        "submissions_per_s": round(submissions / elapsed, 1),
        "events_measured": len(ms),
        "event_latency_p50_ms": round(statistics.median(ms), 1),
        "event_latency_p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 1),
        "event_latency_max_ms": round(ms[-1], 1),
        "games_scored_unlike_engine": mismatches,
    }


def run(edition: Edition, tables: int = 8, seats: int = 4, games: int = 3) -> dict:
    with running_host() as (base, auth):
        return asyncio.run(_run(base, auth, edition, tables, seats, games))
