"""Open sessions of the Live servers page close after going unused for the idle time (a page
setting, default ``LIVE_IDLE_MINUTES_DEFAULT`` minutes), with a real test server and an injected
clock; the page says so when the user comes back, and Reconnect goes through the launch
confirmation (nothing starts before Start)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from toolsearch.engine import constants as C
from toolsearch.live import client
from toolsearch.live.guard import launch_token

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "mcp_test_server.py"
PY = sys.executable


def _processes_with(text: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if text.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _wait_for(predicate, seconds: float) -> bool:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def _starts(marker: Path) -> int:
    return len(marker.read_text(encoding="utf-8").splitlines()) if marker.exists() else 0


class FakeClock:
    """Monotonic seconds that move only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += minutes * 60


def test_the_default_is_ten_minutes() -> None:
    assert C.LIVE_IDLE_MINUTES_DEFAULT == 10.0


def test_the_watchdog_closes_sessions_unused_for_the_idle_time(tmp_path) -> None:
    from toolsearch.live.mcpconfig import spec_from_fields

    marker = tmp_path / "started.txt"
    clock = FakeClock()
    spec = spec_from_fields("solo", command=PY, args=[str(SERVER), "--name", "solo", "--start-marker", str(marker)])
    connections = client.LiveConnections(idle_timeout=600, check_every=0.05, clock=clock)
    try:
        connections.connect([spec])
        assert connections.open_servers == ["solo"] and connections.idle_seconds == 0
        clock.advance(9)
        time.sleep(0.5)  # the watchdog has looked several times: 9 minutes is not idle enough
        assert connections.open_servers == ["solo"] and connections.close_reason is None
        assert connections.idle_seconds == 540
        outcome = connections.send(spec, "add", {"a": 2, "b": 3})  # a call is use
        assert outcome.ok and outcome.response["structuredContent"] == {"sum": 5}
        assert connections.idle_seconds == 0
        clock.advance(9.9)
        time.sleep(0.5)
        assert connections.open_servers == ["solo"]
        clock.advance(0.2)  # 10 min 6 s since the call
        assert _wait_for(lambda: connections.closed, 10)
        assert connections.close_reason == "idle" and connections.open_servers == []
        assert _wait_for(lambda: not _processes_with(str(marker)), 15), "the idle server was not stopped"
        late = connections.send(spec, "add", {"a": 1, "b": 1})
        assert not late.ok and late.reason == "the session with server 'solo' is closed; connect again"
        assert _starts(marker) == 1  # nothing started it again
    finally:
        connections.close()
    assert connections.close_reason == "idle"  # a later close keeps the first reason


def test_without_an_idle_timeout_sessions_stay_open(tmp_path) -> None:
    from toolsearch.live.mcpconfig import spec_from_fields

    clock = FakeClock()
    spec = spec_from_fields("solo", command=PY, args=[str(SERVER), "--name", "solo"])
    connections = client.LiveConnections(clock=clock)
    try:
        connections.connect([spec])
        clock.advance(24 * 60)
        assert connections.expire_idle() is False and connections.open_servers == ["solo"]
    finally:
        connections.close()
    assert connections.close_reason == "closed"


@pytest.fixture
def page(tmp_path, monkeypatch):
    """The Live page with the test server added by hand and connected, on a fake clock."""
    from streamlit.testing.v1 import AppTest

    clock = FakeClock()
    monkeypatch.setattr(client, "idle_clock", clock)
    marker = tmp_path / "started.txt"
    at = AppTest.from_file(str(ROOT / "toolsearch" / "ui" / "live.py"), default_timeout=180)
    at.run()
    at.text_input(key="live_name").input("local")
    at.text_input(key="live_command").input(PY)
    at.text_input(key="live_args").input(f"{SERVER} --name local --start-marker {marker}")
    at.button(key="live_add").click().run()
    at.button(key="live_connect").click().run()
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    assert not at.exception, at.exception
    assert _starts(marker) == 1
    yield at, marker, clock
    if "live_connections" in at.session_state:
        at.session_state["live_connections"].close()


def _warnings(at) -> list[str]:
    return [w.value for w in at.warning]


def test_the_page_closes_an_unused_session_says_so_and_reconnects_only_on_start(page) -> None:
    at, marker, clock = page
    connections = at.session_state["live_connections"]
    assert at.number_input(key="live_idle_minutes").value == 10.0
    assert connections.idle_timeout == 600
    at.selectbox(key="live_tool").select("mcp__local__add").run()
    at.number_input(key="live_arg::mcp__local__add::a").set_value(4)
    at.number_input(key="live_arg::mcp__local__add::b").set_value(5)
    at.button(key="live_call").click().run()
    assert at.session_state["live_last_call"]["reused"] is True
    clock.advance(9)
    at.run()  # back after 9 minutes: still open (and this visit is use)
    assert connections.open_servers == ["local"]
    assert any(c.value.startswith("Open sessions: local.") for c in at.caption)
    clock.advance(10.5)
    at.run()  # back after 10.5 minutes without use
    assert not at.exception, at.exception
    assert connections.closed and connections.close_reason == "idle"
    assert [w for w in _warnings(at) if "without use" in w] == [
        "The sessions were closed after 10 minutes without use, and the servers were stopped. The tools stay "
        "listed here. Reconnect shows the launch confirmation again; a call starts its server for that call "
        "only, after the confirmation."]
    assert _wait_for(lambda: not _processes_with(str(marker)), 15), "the idle server was not stopped"
    # A call now asks to start the server, and says why.
    at.button(key="live_call").click().run()
    assert any(i.value.startswith("The sessions were closed after 10 minutes without use, so this call starts "
                                  "local again") for i in at.info)
    assert at.session_state["live_pending"]["action"] == "call"
    # Reconnect only shows the confirmation: nothing starts before Start.
    at.button(key="live_reconnect").click().run()
    assert not at.exception, at.exception
    assert at.session_state["live_pending"]["action"] == "connect"
    assert [c.value for c in at.code if c.language == "bash"] == [
        f"{PY} {SERVER} --name local --start-marker {marker}"]
    at.run()
    assert _starts(marker) == 1 and not _processes_with(str(marker))
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    assert not at.exception, at.exception
    assert _starts(marker) == 2
    again = at.session_state["live_connections"]
    assert again is not connections and again.open_servers == ["local"] and again.idle_timeout == 600
    assert not [w for w in _warnings(at) if "without use" in w]


def test_the_idle_time_is_a_page_setting(page) -> None:
    at, marker, clock = page
    connections = at.session_state["live_connections"]
    at.number_input(key="live_idle_minutes").set_value(2.0).run()
    assert connections.idle_timeout == 120
    clock.advance(1.5)
    at.run()
    assert connections.open_servers == ["local"]
    clock.advance(2.5)
    at.run()
    assert connections.close_reason == "idle"
    assert any(w.startswith("The sessions were closed after 2 minutes without use") for w in _warnings(at))
    assert _wait_for(lambda: not _processes_with(str(marker)), 15)
