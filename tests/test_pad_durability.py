"""Never lose a score: a writer killed with SIGKILL keeps every entry it acknowledged."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

from scorer.packs import resolve_edition
from scorer.pad.game import GameSession, fold
from scorer.pad.store import EventStore

WRITER = textwrap.dedent("""
    import sys
    from scorer.pad.game import GameSession
    from scorer.pad.store import EventStore
    store = EventStore(sys.argv[1])
    session = GameSession.new(store, "australia", ["Ann", "Bob"])
    print("GAME", session.game_id, flush=True)
    rounds = [("ABCDEFG", "HIJKLMN"), ("OPQRSTU", "VWXYZ@#"), ("ABCDIJK", "EFGHLMN"), ("UVWXYZ@", "OPQRST#")]

    def command(do):  # one command per go-ahead from the test, acknowledged once it is accepted
        sys.stdin.readline()
        do()
        print("ACK", len(session.state.log), flush=True)

    while True:  # enter, undo, enter again...
        for r, (a, b) in enumerate(rounds):
            command(lambda: session.enter_letters(0, a, None))
            command(lambda: session.enter_letters(1, b, None))
        for _ in range(8):
            command(session.undo)
""")


def test_sigkill_mid_game_loses_nothing_acknowledged(tmp_path):
    db = tmp_path / "games.sqlite3"
    env = {**os.environ, "TOURPAD_DATA_DIR": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)
    game_id = int(proc.stdout.readline().split()[1])
    acks = []
    # The writer waits for a go-ahead before each command, so when it is killed exactly one command (the
    # 24th, part-way through the second pass) is in flight, however fast or slow the machine is.
    for _ in range(23):
        proc.stdin.write("go\n")
        proc.stdin.flush()
        acks.append(int(proc.stdout.readline().split()[1]))
    proc.stdin.write("go\n")
    proc.stdin.flush()
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    store = EventStore(db)
    events = store.events(game_id)
    # every acknowledged command is in the log (one more may have committed before its acknowledgement)
    assert len(events) in (1 + len(acks), 2 + len(acks))
    acknowledged = fold(events[:1 + len(acks)], resolve_edition)
    assert len(acknowledged.log) == acks[-1]
    state = GameSession(store, game_id).state  # and the file opens and replays cleanly
    assert state.consistency_problems() == []
