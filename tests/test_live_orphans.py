"""A stdio server's children never outlive it: a server that starts a child in a session (and
process group) of its own and exits at the end of its input (``tests/orphan_mcp_server.py``)
leaves nothing running after a CLI command, after the app's sessions close, or after the app
is stopped with SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from conftest import run_cli_process as run_cli, streamlit_app, write_json

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parent.parent
ORPHAN = ROOT / "tests" / "orphan_mcp_server.py"
PY = sys.executable
CHROMIUM = "/usr/bin/chromium"


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for a parent that does not reap it counts as gone)."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _child_pid(pid_file: Path, seconds: float = 60) -> int:
    deadline = time.time() + seconds
    while time.time() < deadline:
        text = pid_file.read_text(encoding="utf-8") if pid_file.exists() else ""
        if text.strip():
            return int(text)
        time.sleep(0.1)
    raise AssertionError("the server's child never wrote its pid")


def _gone(pid: int, seconds: float) -> bool:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return not _alive(pid)


@pytest.fixture
def reap():
    """Kills the pids a test registers, whatever the test's outcome (no leftovers on failure)."""
    pids: list[int] = []
    yield pids
    for pid in pids:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def _args(pid_file: Path, bare_env: bool) -> list[str]:
    return [str(ORPHAN), "--pid-file", str(pid_file), *(["--bare-env"] if bare_env else [])]


def test_the_test_server_does_leave_an_orphan_without_a_client_that_stops_it(tmp_path, reap) -> None:
    """The control: run the server by hand (no toolsearch), end its input, and its child stays."""
    import subprocess

    pid_file = tmp_path / "child.pid"
    server = subprocess.Popen([PY, *_args(pid_file, False)], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    child = _child_pid(pid_file)
    reap.append(child)
    server.stdin.close()
    server.wait(timeout=30)
    time.sleep(0.5)
    assert _alive(child) and psutil.Process(child).ppid() != server.pid


@pytest.mark.parametrize("bare_env", [False, True], ids=["own-session", "own-session-empty-env"])
@pytest.mark.parametrize("command", ["plan", "call"])
def test_no_child_of_a_server_outlives_a_cli_command(tmp_path, reap, command, bare_env) -> None:
    pid_file = tmp_path / "child.pid"
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"orphan": {"command": PY,
                                                                        "args": _args(pid_file, bare_env)}}})
    extra = ["mcp__orphan__noop", "--json"] if command == "call" else []
    result = run_cli(command, config, *extra)
    assert pid_file.exists(), result.stderr  # the server ran and started its child
    child = int(pid_file.read_text(encoding="utf-8"))
    reap.append(child)
    assert "toolsearch: live: orphan: ok, 1 tool" in result.stderr, result.stderr
    assert not _alive(child), f"the server's child {child} outlived `toolsearch {command}`"


@pytest.mark.parametrize("bare_env", [False, True], ids=["own-session", "own-session-empty-env"])
def test_closing_the_apps_live_connections_stops_the_child(tmp_path, reap, bare_env) -> None:
    """What a closed tab (the watchdog), the idle timeout and Disconnect all end in."""
    from toolsearch.live.client import LiveConnections
    from toolsearch.live.mcpconfig import ServerSpec

    pid_file = tmp_path / "child.pid"
    connections = LiveConnections()
    try:
        result = connections.connect([ServerSpec(name="orphan", command=PY, args=tuple(_args(pid_file, bare_env)))],
                                     timeout=60)
        assert [s.state for s in result.statuses] == ["ok"], result.statuses
        child = _child_pid(pid_file)
        reap.append(child)
        assert _alive(child)
    finally:
        connections.close()
    assert _gone(child, 10)  # SIGKILL sent by close(); on a loaded machine the exit can lag it a moment


def test_a_server_the_first_look_missed_is_found_before_its_session_closes(tmp_path, reap, monkeypatch) -> None:
    """The server is looked for among this process's children as soon as its transport is up;
    when that one look missed it (the process listing failed, or the server was not yet there
    with its mark), the server's group and descendants were never known, and its child in a
    session of its own with an empty environment outlived the close. Simulated: the first look
    misses; the server is looked for again before its session closes."""
    from toolsearch.live import reaper
    from toolsearch.live.client import LiveConnections
    from toolsearch.live.mcpconfig import ServerSpec

    real_track, missed = reaper.track, []

    def first_look_misses(mark: str) -> int | None:
        if not missed:
            missed.append(mark)
            return None
        return real_track(mark)

    monkeypatch.setattr(reaper, "track", first_look_misses)
    pid_file = tmp_path / "child.pid"
    connections = LiveConnections()
    try:
        result = connections.connect([ServerSpec(name="orphan", command=PY, args=tuple(_args(pid_file, True)))],
                                     timeout=60)
        assert [s.state for s in result.statuses] == ["ok"], result.statuses
        child = _child_pid(pid_file)
        reap.append(child)
        assert _alive(child) and missed
    finally:
        connections.close()
    assert not _alive(child)


def test_sigterm_to_the_app_stops_a_connected_servers_child(tmp_path, reap, chromium_browser) -> None:
    playwright_api = pytest.importorskip("playwright.sync_api")
    pid_file = tmp_path / "child.pid"
    log = tmp_path / "app.log"
    # faulthandler: a SIGABRT to an app that does not stop writes every thread's stack to its log
    with streamlit_app(log=log, env={**os.environ, "PYTHONFAULTHANDLER": "1"}) as (proc, url):
        # the test process's Chromium (tests/conftest.py): the browser stays, only the app is stopped
        context = chromium_browser.new_context(viewport={"width": 1400, "height": 1600})
        try:
            page = context.new_page()
            page.goto(f"{url}/live")
            name = page.get_by_role("textbox", name="Server name")
            name.wait_for(timeout=90_000)
            name.fill("orphan")
            name.press("Enter")
            box = page.get_by_role("textbox", name="Command")
            box.fill(PY)
            box.press("Enter")
            box = page.get_by_role("textbox", name="Arguments (shell-style)")
            box.fill(" ".join(_args(pid_file, False)))
            box.press("Enter")
            page.get_by_role("button", name="Add server").click()
            connect = page.get_by_role("button", name="Connect", exact=True)
            playwright_api.expect(connect).to_be_enabled(timeout=30_000)
            connect.click()
            page.get_by_role("button", name="Start", exact=True).click()
            child = _child_pid(pid_file)
            reap.append(child)
            page.get_by_text("1 tool", exact=False).first.wait_for(timeout=60_000)  # connected and listed
            assert _alive(child)
            proc.send_signal(signal.SIGTERM)  # the browser stays: only the app is stopped
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGABRT)
                proc.wait(timeout=30)
                tail = log.read_text(encoding="utf-8", errors="replace")[-12_000:]
                raise AssertionError(f"the app did not stop within 30 s of SIGTERM; its log ends:\n{tail}") from None
        finally:
            context.close()
    assert _gone(child, 10), f"the server's child {child} outlived the app"


def test_sigkill_to_the_cli_mid_session_leaves_no_child_behind(tmp_path, reap) -> None:
    """No exit hook runs after SIGKILL: the watchdog process ends what the server left."""
    import subprocess

    from conftest import toolsearch_command

    pid_file = tmp_path / "child.pid"
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"orphan": {
        "command": PY, "args": [*_args(pid_file, False), "--hang-list"]}}})
    cli = subprocess.Popen([*toolsearch_command(), "plan", str(config), "--timeout", "120"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        child = _child_pid(pid_file)
        reap.append(child)
        time.sleep(1.0)  # the server is connected and waits in tools/list
        assert _alive(child)
        cli.kill()
        cli.wait(timeout=30)
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait()
    assert _gone(child, 15), f"the server's child {child} outlived the killed CLI"


_MISSED = r"""
import os, signal, subprocess, sys
from toolsearch.live import reaper
mark = reaper.new_mark()  # what the client does before it starts a server
child = subprocess.Popen([sys.executable, "-c", sys.argv[2], sys.argv[1]], start_new_session=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         env={**os.environ, reaper.ENV_MARK: mark})
while not os.path.exists(sys.argv[1]):
    pass
os.kill(os.getpid(), signal.SIGKILL)  # no exit hook runs, and track() never found a server
"""


def test_what_carries_a_mark_is_ended_even_when_the_server_was_never_found(tmp_path, reap) -> None:
    """A process that marked a server but never learned its pid (track missed it: the process
    listing failed, or the server was not there yet) and is then killed: the watchdog, started
    with the first mark, still ends everything carrying the mark. (Before, the watchdog started
    only once a server was found, so nothing was left to end the marked child.)"""
    from orphan_mcp_server import CHILD  # noqa: PLC0415

    pid_file = tmp_path / "child.pid"
    done = subprocess.run([PY, "-c", _MISSED, str(pid_file), CHILD], cwd=ROOT, capture_output=True, timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr
    child = _child_pid(pid_file)
    reap.append(child)
    assert _gone(child, 10), f"the marked child {child} outlived the process that started it"
