"""``toolsearch app``: the command line starts the inspector (Streamlit) with the app's settings.

The browser check of every page from an installed wheel is tests/test_wheel_app.py.
"""

from __future__ import annotations

import subprocess
import time
import urllib.request
from pathlib import Path

from conftest import free_port, run_cli_process as run_cli, toolsearch_command

ROOT = Path(__file__).resolve().parent.parent


def test_app_help_names_the_streamlit_options():
    done = run_cli("app", "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("usage: toolsearch app [STREAMLIT OPTIONS]")
    assert "--server.address" in done.stdout and "loopback" in done.stdout


def test_the_installed_app_has_the_checkout_settings():
    """The app's Streamlit settings file next to the installed main script is the checkout's file."""
    packaged = ROOT / "toolsearch" / "ui" / "entry" / ".streamlit" / "config.toml"
    assert packaged.read_bytes() == (ROOT / ".streamlit" / "config.toml").read_bytes()


def test_app_serves_on_loopback_from_another_folder(tmp_path):
    """Run from a folder without the checkout's settings: the app answers on 127.0.0.1 at the port
    given (a Streamlit option passed through), and prints where."""
    port = free_port()
    log = tmp_path / "app.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([*toolsearch_command(), "app", "--server.port", str(port), "--server.headless", "true"],
                                cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 90
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as resp:
                    assert resp.read() == b"ok"
                    break
            except OSError:
                assert time.time() < deadline, log.read_text()
                time.sleep(0.3)
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    assert f"URL: http://localhost:{port}" in log.read_text()  # browser.serverAddress: no address lookup


def test_a_busy_port_asked_for_is_one_line_and_status_2(tmp_path):
    """An explicit ``--server.port`` that another program holds: one line naming the port and what
    to do, exit status 2, and no Streamlit started (Streamlit itself exits 1 with its own text)."""
    import socket

    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = run_cli("app", "--server.port", str(port), "--server.headless", "true")
        assert done.returncode == 2, done.stderr
        assert done.stderr.strip().splitlines() == [
            f"toolsearch: port {port} on 127.0.0.1 is in use by another program; pick another with "
            "--server.port, or leave it out to take the next free one"]
        done = run_cli("app", f"--server.port={port}")  # the = form, too
        assert done.returncode == 2 and f"port {port} on 127.0.0.1 is in use" in done.stderr


def test_a_port_that_is_not_a_number_is_refused():
    done = run_cli("app", "--server.port", "80x")
    assert done.returncode == 2
    assert done.stderr.strip() == "toolsearch: --server.port: expected a port number from 1 to 65535, got '80x'"
