"""`tourpad bench phone-table`: its relay hands each page's channel events on in order, never from inside a call,
with the page's arrival stamp (its timings are reported, never asserted; it runs Chromium, so no test runs it)."""

from __future__ import annotations

from benchmarks.phone_table import Relay, percentiles


class FakePage:
    """A page whose channel events are queued by the test; a `send` call brings one more in meanwhile."""

    def __init__(self) -> None:
        self.waiting: list[dict] = []
        self.calls: list[str] = []

    def event(self, kind: str, detail: str, at: float) -> None:
        self.waiting.append({"tourpadPeerEvent": {"kind": kind, "id": "peer-1", "detail": detail, "at": at}})

    def evaluate(self, script: str, args=None):
        if args is not None:  # peer.serve: the reply to the call, and an event that arrived meanwhile
            ask, name, _call_args = args
            self.calls.append(name)
            self.event("message", f"during {name}", 5.0)
            self.waiting.append({"tourpadPeerReply": {"ask": ask, "value": True}})
            return None
        out, self.waiting = self.waiting, []
        return out


def test_the_relay_hands_events_on_in_order_with_their_arrival_and_never_inside_a_call() -> None:
    page = FakePage()
    relay = Relay(page)
    heard: list[tuple[str, float]] = []

    def listener(kind: str, channel: str, detail: str) -> None:
        heard.append((detail, relay.arrived_at))
        if detail == "first":  # the host phone answers while it handles a message: a call, inside the pump
            assert relay.call("send", "peer-1", "answer").value is True
            assert heard[-1] == ("first", 1.0)  # what arrived during the call waits for its turn

    relay.listen(listener)
    page.event("message", "first", 1.0)
    page.event("message", "second", 2.0)
    relay.pump()
    assert heard == [("first", 1.0), ("second", 2.0), ("during send", 5.0)]
    assert page.calls == ["send"]


def test_percentiles_of_the_samples_as_tourpad_bench_table_takes_them() -> None:
    # p95 is the sample at 95 % of the way through the sorted samples, rounded down (benchmarks.table.percentile)
    assert percentiles([30.0, 10.0, 20.0, 40.0]) == {"p50_ms": 25.0, "p95_ms": 30.0, "max_ms": 40.0, "n": 4}
