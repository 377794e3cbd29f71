"""``toolsearch app``: the command line starts the inspector (Streamlit) with the app's settings.

The browser check of every page from an installed wheel is tests/test_wheel_app.py.
"""

from __future__ import annotations

import os
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

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
    assert "not on loopback only" not in log.read_text()


def _serve_until_healthy(command: list[str], port: int, log: Path, cwd: Path, env: dict) -> str:
    """Start ``command``, wait until the app answers on 127.0.0.1, stop it; its terminal text."""
    with open(log, "wb") as out:
        proc = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env)
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
        time.sleep(0.5)
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    return log.read_text()


@pytest.mark.parametrize("how", ["environment", "empty flag"])
def test_an_app_exposed_beyond_loopback_says_so_at_start(tmp_path, how):
    """STREAMLIT_SERVER_ADDRESS=0.0.0.0 (set in a shell profile or an image) or an empty
    ``--server.address=`` makes Streamlit listen on every address while its own start-up text still
    reads ``URL: http://localhost:PORT``: the app says at start, before any browser opens a page,
    that other machines can reach it, and prints the launch token."""
    port = free_port("0.0.0.0")
    env = {k: v for k, v in os.environ.items() if k not in ("TOOLSEARCH_APP_TOKEN", "STREAMLIT_SERVER_ADDRESS")}
    extra = []
    if how == "environment":
        env["STREAMLIT_SERVER_ADDRESS"] = "0.0.0.0"
    else:
        extra = ["--server.address="]
    text = _serve_until_healthy([*toolsearch_command(), "app", "--server.port", str(port), "--server.headless", "true",
                                 *extra], port, tmp_path / "app.log", tmp_path, env)
    where = f"0.0.0.0:{port}" if how == "environment" else f"port {port}"
    assert (f"toolsearch: the app listens on {where} (every address of this machine), not on loopback only"
            in text), text
    assert "launch token for browsers that are not on this machine (Live servers page): " in text, text


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


@pytest.mark.parametrize("options, line", [
    (["--port", "8650"], "toolsearch: app: --port is not an option of the app; the app takes Streamlit's options, "
                         "and this one is --server.port (toolsearch app --server.port 8650)"),
    (["--host=0.0.0.0"], "toolsearch: app: --host is not an option of the app; the app takes Streamlit's options, "
                         "and this one is --server.address (toolsearch app --server.address=0.0.0.0)"),
])
def test_a_web_server_shorthand_is_one_line_naming_the_streamlit_option(options, line):
    """``toolsearch app --port 8650`` got Streamlit's usage text of ``streamlit run`` (several
    lines, a command the user did not type) and exit status 2: now one line that names the
    Streamlit option it means, and nothing is started."""
    done = run_cli("app", *options)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [line]


@pytest.mark.parametrize("options, line", [
    (["--server.prot", "8672"], "toolsearch: app: --server.prot is not an option of the app or of Streamlit; did you "
                                "mean --server.port?"),
    (["--server.headless=maybe"], "toolsearch: app: Invalid value for '--server.headless': 'maybe' is not a valid "
                                  "boolean. Recognized values: , 0, 1, f, false, n, no, off, on, t, true, y, yes"),
    (["--frobnicate"], "toolsearch: app: --frobnicate is not an option of the app or of Streamlit; the app takes "
                       "Streamlit's options ('streamlit run --help' lists them)"),
])
def test_an_option_streamlit_does_not_take_is_one_line_in_toolsearch_words(options, line):
    """A misspelt Streamlit option got the usage text of ``streamlit run`` (a command the user did
    not type): now one line naming the option and the nearest Streamlit option, status 2, nothing
    started."""
    done = run_cli("app", *options)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.strip().splitlines() == [line]


def test_the_options_checked_are_the_installed_streamlit_run_options():
    from toolsearch.ui.launch import streamlit_options  # noqa: PLC0415

    options = streamlit_options()
    assert {"--server.port", "--server.address", "--server.headless", "--theme.base"} <= set(options)
    assert options == sorted(options) and len(options) > 50
