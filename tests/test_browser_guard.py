"""Real browser, reached through a non-loopback address: the Live servers form cannot start a
command without the launch token printed in the app's terminal.

A second app instance is bound to 0.0.0.0 (the user exposed it on purpose); Chromium opens it
through the machine's own non-loopback address, fills the form with a command that would write a
marker file, presses Connect and Start: refused, no file. With the token from the terminal the
same Start does run it (so the refusal is the guard, not a broken form), and a browser on this
machine (http://127.0.0.1) is asked for no token.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from conftest import streamlit_app
from test_security_app import PY, ROOT, non_loopback_ipv4

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts"
pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError("CI must have Debian's chromium at /usr/bin/chromium (.ci/run installs it)")
    pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (apt-get install chromium)",
                allow_module_level=True)

playwright_api = pytest.importorskip("playwright.sync_api")


def _token_from(log: Path, seconds: float = 60) -> str:
    deadline = time.time() + seconds
    while time.time() < deadline:
        found = re.search(r"launch token for browsers that are not on this machine \(Live servers page\): (\S+)",
                          log.read_text(encoding="utf-8", errors="replace"))
        if found:
            return found.group(1)
        time.sleep(0.2)
    raise AssertionError("the app printed no launch token:\n" + log.read_text(encoding="utf-8", errors="replace"))


def _quiet(page, seconds: float = 60) -> None:
    """Wait until the app has no run in progress (Streamlit's status widget gone): a click or an
    Enter that lands while a rerun is still going on can be lost on a busy machine."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        time.sleep(0.3)
        if page.locator("[data-testid=stStatusWidget]").count() == 0:
            return


def _add_and_connect(page, marker: Path) -> None:
    """Fill the Live servers form with a command that writes ``marker``, Add, Connect."""
    name = page.get_by_role("textbox", name="Server name")
    name.wait_for(timeout=90_000)
    _quiet(page)
    name.fill("touch")
    name.press("Enter")
    _quiet(page)
    command = page.get_by_role("textbox", name="Command")
    command.fill(PY)
    command.press("Enter")
    _quiet(page)
    args = page.get_by_role("textbox", name="Arguments (shell-style)")
    args.fill(f"-c \"open({str(marker)!r}, 'w').write('x')\"")
    args.press("Enter")
    _quiet(page)
    page.get_by_role("button", name="Add server").click()
    connect = page.get_by_role("button", name="Connect", exact=True)
    playwright_api.expect(connect).to_be_enabled(timeout=30_000)  # the server was added
    _quiet(page)
    connect.click()


def test_a_command_from_a_remote_browser_is_refused_without_the_token(tmp_path, chromium_browser) -> None:
    address = non_loopback_ipv4()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address to reach the app through")
    marker = tmp_path / "marker"
    log = tmp_path / "streamlit.log"  # the terminal's text, to read the token from
    env = {k: v for k, v in os.environ.items() if k != "TOOLSEARCH_APP_TOKEN"}
    ARTIFACTS.mkdir(exist_ok=True)
    with streamlit_app(address="0.0.0.0", url_host=address, log=log, env=env) as (_, url):
        port = int(url.rsplit(":", 1)[1])
        browser = chromium_browser  # the test process's Chromium (tests/conftest.py)
        remote = browser.new_context(viewport={"width": 1400, "height": 1600})
        local_context = browser.new_context(viewport={"width": 1400, "height": 1600})
        try:
            page = remote.new_page()
            page.goto(f"{url}/live")
            _add_and_connect(page, marker)
            page.get_by_text("Confirm: start or reach 1 server").wait_for(timeout=30_000)
            page.get_by_text("not on the machine that runs the app", exact=False).first.wait_for(timeout=30_000)
            page.get_by_role("button", name="Start", exact=True).click()
            page.get_by_text("Refused: nothing was started.", exact=False).first.wait_for(timeout=30_000)
            page.screenshot(path=str(ARTIFACTS / "live-guard-refused.png"), full_page=True)
            time.sleep(1.0)
            assert not marker.exists()
            # The token printed in the app's terminal unlocks the same launch.
            token = _token_from(log)
            box = page.get_by_label("Launch token")
            box.fill(token)
            box.press("Enter")
            time.sleep(0.5)
            page.get_by_role("button", name="Start", exact=True).click()
            deadline = time.time() + 30
            while not marker.exists() and time.time() < deadline:
                time.sleep(0.2)
            assert marker.exists()
            # The same app opened from this machine (loopback) asks for no token.
            marker.unlink()
            local = local_context.new_page()
            local.goto(f"http://127.0.0.1:{port}/live")
            _add_and_connect(local, marker)
            local.get_by_text("Confirm: start or reach 1 server").wait_for(timeout=30_000)
            assert local.get_by_label("Launch token").count() == 0
            local.get_by_role("button", name="Start", exact=True).click()
            deadline = time.time() + 30
            while not marker.exists() and time.time() < deadline:
                time.sleep(0.2)
            assert marker.exists()
        finally:
            remote.close()
            local_context.close()
