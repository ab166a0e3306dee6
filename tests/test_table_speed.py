"""The live table's fast path keeps its promises: entries saved together stay complete and in order, a
submission answered on the event loop is still acknowledged only once on disk, a table's streams share one
feed and see the same events, and the trace (`tourpad bench table --profile`) notes each step."""

from __future__ import annotations

import concurrent.futures
import json
import threading
import time

import httpx
import pytest
from fastapi.testclient import TestClient
from test_table_api import Seated, live_server, read_events  # noqa: F401  (live_server: a fixture)

from scorer.table import api, trace
from scorer.table.service import TableService
from scorer.table.store import StoredEntry, StoredTable, TableStore


@pytest.fixture
def service(tmp_path):
    svc = TableService(tmp_path / "tables.sqlite3")
    yield svc
    svc.close()


def entry(cards: str, revision: int = 1, choice: str | None = None) -> StoredEntry:
    return StoredEntry(cards, choice, revision, False)


def test_a_burst_of_entries_saved_together_keeps_each_one_each_tables_version_and_the_log_in_order(
        tmp_path, monkeypatch):
    store = TableStore(tmp_path / "t.sqlite3")
    for code in ("AAAA", "BBBB"):
        store.create_table(StoredTable(code, "australia", 4, False, 0.0, 0.0, 0))
    saved_together: list[int] = []
    save_entries = TableStore._save_entries

    def noting(cur, entries):
        if entries:
            saved_together.append(len(entries))
        save_entries(cur, entries)

    monkeypatch.setattr(TableStore, "_save_entries", staticmethod(noting))
    with store._lock:  # the writer takes the first write, then waits here while the rest queue up
        writes = [store.put_entry("AAAA", 0, 0, entry("ABCDEFG"), 1, 10.0)]
        while store._queue:  # until the writer has taken it
            time.sleep(0.001)
        writes += [store.put_entry("AAAA", 0, 1, entry("HIJKLMN"), 2, 11.0),
                   store.put_entry("BBBB", 0, 0, entry("ABCDEFG", choice="Swimming"), 1, 12.0),
                   store.set_locked("AAAA", True, 3, 13.0),
                   store.put_entry("AAAA", 0, 1, entry("OPQRSTU", revision=2), 4, 14.0),
                   store.put_entry("BBBB", 1, 0, entry("HIJKLMN"), 2, 15.0)]
        assert not any(w.done.is_set() for w in writes)
    for write in writes:
        write.wait()
    assert saved_together == [1, 2, 2]  # the first alone; then two runs around the lock change
    log = store._db.execute("SELECT code, version, kind FROM log WHERE kind != 'created' "
                            "ORDER BY rowid").fetchall()
    store.close()
    assert log == [("AAAA", 1, "entry"), ("AAAA", 2, "entry"), ("BBBB", 1, "entry"), ("AAAA", 3, "locked"),
                   ("AAAA", 4, "entry"), ("BBBB", 2, "entry")]
    reloaded = {t.code: t for t in TableStore(tmp_path / "t.sqlite3").load_all()}
    a, b = reloaded["AAAA"], reloaded["BBBB"]
    assert (a.version, a.last_active, a.locked, b.version, b.last_active) == (4, 14.0, True, 2, 15.0)
    assert {k: (e.cards, e.revision) for k, e in a.entries.items()} == {(0, 0): ("ABCDEFG", 1),
                                                                        (0, 1): ("OPQRSTU", 2)}
    assert {k: (e.cards, e.choice) for k, e in b.entries.items()} == {(0, 0): ("ABCDEFG", "Swimming"),
                                                                      (1, 0): ("HIJKLMN", None)}


def test_a_commit_callback_runs_once_whether_added_before_or_after_the_commit(tmp_path):
    store = TableStore(tmp_path / "t.sqlite3")
    store.create_table(StoredTable("AAAA", "australia", 4, False, 0.0, 0.0, 0))
    calls: list[str] = []
    with store._lock:
        write = store.put_entry("AAAA", 0, 0, entry("ABCDEFG"), 1, 1.0)
        write.on_done(lambda: calls.append("before"))
        assert calls == []
    write.wait()
    write.on_done(lambda: calls.append("after"))  # already committed: runs at once
    store.close()
    assert calls == ["before", "after"]


def test_a_submission_through_the_api_is_acknowledged_only_once_its_commit_is_on_disk(service):
    client = TestClient(api.create_app(service))
    table = Seated(client, seats=2, auth={"Authorization": f"Bearer {service.host_credential}"})
    answers: list[httpx.Response] = []
    with service.store._lock:  # no commit can happen until this block ends
        submitting = threading.Thread(target=lambda: answers.append(table.put(1, 1, "ABCDEFG")))
        submitting.start()
        while service.view(table.code)["waiting_for"] != [2]:  # checked and queued: in memory
            time.sleep(0.005)
        assert submitting.is_alive() and answers == []  # ... but not answered
    submitting.join(10)
    assert answers[0].status_code == 200 and answers[0].json()["revision"] == 1
    on_disk = {t.code: t for t in TableStore(service.store.path).load_all()}
    assert on_disk[table.code.replace("-", "")].entries[0, 0].cards == "ABCDEFG"


def test_a_submission_the_disk_refuses_is_answered_503_through_the_api(service):
    client = TestClient(api.create_app(service))
    table = Seated(client, seats=2, auth={"Authorization": f"Bearer {service.host_credential}"})
    service.store._db.execute("PRAGMA query_only=ON")  # every write now fails, as on a full disk
    try:
        refused = table.put(1, 1, "ABCDEFG")
        assert refused.status_code == 503 and "restart tourpad host" in refused.json()["detail"]
        assert client.get(f"/api/tables/{table.code}").status_code == 503
    finally:
        service.store._db.execute("PRAGMA query_only=OFF")


def test_two_streams_of_a_table_get_the_same_events_after_their_own_snapshots(live_server, service):  # noqa: F811
    with httpx.Client(base_url=live_server, timeout=10) as http:
        table = Seated(http, seats=2, auth={"Authorization": f"Bearer {service.host_credential}"})
        with http.stream("GET", f"/api/tables/{table.code}/events") as first:
            assert table.put(1, 1, "ABCDEFG").status_code == 200
            with http.stream("GET", f"/api/tables/{table.code}/events") as second:
                assert table.put(1, 2, "HIJKLMN").status_code == 200
                early = read_events(first, 3)
                late = read_events(second, 2)
        code = table.code.replace("-", "")
        # both streams closed: the table's one subscription ends with them
        deadline = time.monotonic() + 10
        while service.feed.listening(code) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not service.feed.listening(code)
    assert [e["kind"] for e in early] == ["snapshot", "entry", "entry"]
    assert late[0]["kind"] == "snapshot" and late[0]["table"]["waiting_for"] == [2]  # seat 1 already in it
    assert late[1] == early[2] and late[1]["round_closed"]


def test_the_trace_notes_each_step_of_a_submission_in_order(service, tmp_path, monkeypatch):
    tracer = trace.Tracer(tmp_path / "trace.jsonl")
    monkeypatch.setattr(trace, "TRACER", tracer)
    client = TestClient(api.create_app(service))  # the trace's middleware is added while tracing
    table = Seated(client, seats=2, auth={"Authorization": f"Bearer {service.host_credential}"})
    version = table.put(1, 1, "ABCDEFG").json()["version"]
    tracer.dump()
    rows = [json.loads(line) for line in (tmp_path / "trace.jsonl").read_text().splitlines()]
    marks = next(row["marks"] for row in rows if row["version"] == version)
    stages = [stage for stage, _, _ in marks]
    assert stages == ["received", "endpoint", "locked", "validated", "viewed", "queued", "commit_start",
                      "committed", "published", "woken", "answered"]
    assert [when for _, when, _ in marks] == sorted(when for _, when, _ in marks)
    assert all(row["code"] == table.code.replace("-", "") for row in rows)


@pytest.mark.slow  # a host subprocess and two games
def test_the_bench_measures_every_other_seats_event_and_its_profile_joins_every_one(australia):
    from benchmarks import table as bench_table

    # on a thread of its own: a browser test earlier in this worker leaves Playwright's loop running here
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        result = pool.submit(bench_table.run, australia, tables=1, seats=3, games=2, profile=True).result()
    assert result["submissions"] == 2 * 4 * 3 and result["games_scored_unlike_engine"] == 0
    assert result["events_measured"] == result["submissions"] * 2  # each submission, at the two other seats
    steps = result["breakdown"]
    assert steps["events_traced"] == result["events_measured"]
    assert all(step["mean_ms"] is not None for step in [*steps["event_steps"], *steps["ack_steps"]])
    assert sum(step["mean_ms"] for step in steps["event_steps"]) == pytest.approx(steps["total"]["mean_ms"],
                                                                                  abs=0.1)
