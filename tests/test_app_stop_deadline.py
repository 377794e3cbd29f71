"""The app's stop deadline (toolsearch.ui.stopping) on a real uvicorn server whose one request
never finishes: uvicorn alone waits for it for ever after SIGTERM; with the deadline the process
ends within seconds, the live servers are stopped at the signal, and stderr says why."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

ROOT = Path(__file__).resolve().parents[1]

_SERVER = r"""
import asyncio, sys, uvicorn
from contextlib import asynccontextmanager
from pathlib import Path
from toolsearch.ui import stopping

marker = Path(sys.argv[2])
with_deadline = sys.argv[3] == "1"

async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if with_deadline:
                    ok = stopping.install(deadline=1.0, last_resort=3.0,
                                          stop_servers=lambda: marker.write_text("stopped"))
                    print("installed" if ok else "not installed", flush=True)
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    print("request", flush=True)
    await asyncio.Event().wait()  # a request that never finishes (a busy browser session)

uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve_and_stop(tmp_path: Path, with_deadline: bool, wait: float) -> tuple[float | None, str, Path]:
    """Start the server, open the never-ending request, SIGTERM it; returns (seconds until it
    ended or None if it still ran after ``wait``, its output, the marker file)."""
    port = _free_port()
    marker = tmp_path / "stopped.txt"
    proc = subprocess.Popen([sys.executable, "-c", _SERVER, str(port), str(marker), "1" if with_deadline else "0"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=1)
                break
            except OSError:
                assert proc.poll() is None, proc.communicate()[0]
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        lines = []
        while "request" not in lines:  # the request is being served (and never will be finished)
            line = proc.stdout.readline()
            assert line, "the server ended early"
            lines.append(line.strip())
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=wait)
            took: float | None = time.monotonic() - start
        except subprocess.TimeoutExpired:
            took = None
            proc.kill()
            proc.wait()
        conn.close()
        return took, "\n".join(lines) + "\n" + proc.stdout.read(), marker
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_without_the_deadline_uvicorn_waits_for_the_open_request(tmp_path) -> None:
    took, _, _ = _serve_and_stop(tmp_path, with_deadline=False, wait=4)
    assert took is None, "uvicorn stopped by itself: the deadline's premise no longer holds"


def test_the_deadline_ends_the_server_and_stops_the_live_servers_at_once(tmp_path) -> None:
    took, output, marker = _serve_and_stop(tmp_path, with_deadline=True, wait=15)
    assert "installed" in output.splitlines()
    assert took is not None and took < 4, f"still running after SIGTERM (took {took}); output:\n{output}"
    assert marker.read_text() == "stopped"  # stop_servers ran at the signal
    assert "no longer waiting for open browser connections" in output
    assert "ending now" not in output  # force_exit sufficed: the last resort was not needed


def test_install_outside_the_main_thread_does_nothing() -> None:
    import threading

    from toolsearch.ui import stopping

    before = {s: signal.getsignal(s) for s in stopping.STOP_SIGNALS}
    result: list[bool] = []
    worker = threading.Thread(target=lambda: result.append(stopping.install(stop_servers=lambda: None)))
    worker.start()
    worker.join()
    assert result == [False]
    assert {s: signal.getsignal(s) for s in stopping.STOP_SIGNALS} == before
