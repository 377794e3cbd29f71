"""Real-browser test: ``streamlit run app.py`` on 127.0.0.1 driven by Playwright in Debian's Chromium.

Skips (with the reason) only where Chromium is absent outside CI; in CI it must run.
Screenshots are saved to ``test-artifacts/``.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from toolsearch.bridge import Bridge
from toolsearch.config import parse_config
from toolsearch.inspector import Inspector

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts"
pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError("CI must have Debian's chromium at /usr/bin/chromium (.ci/run installs it)")
    pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (apt-get install chromium)",
                allow_module_level=True)

playwright_api = pytest.importorskip("playwright.sync_api")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def app_url():
    port = _free_port()
    streamlit = shutil.which("streamlit", path=str(Path(sys.executable).parent)) or "streamlit"
    proc = subprocess.Popen(
        [streamlit, "run", str(ROOT / "app.py"), "--server.headless", "true", "--server.address", "127.0.0.1",
         "--server.port", str(port), "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
    else:
        proc.kill()
        raise RuntimeError("streamlit did not start within 60 s")
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def page(app_url):
    ARTIFACTS.mkdir(exist_ok=True)
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        context = browser.new_context(viewport={"width": 1500, "height": 1100})
        yield context.new_page()
        browser.close()


def _expected_plan(catalog: str, **overrides):
    inspector = Inspector.from_files([ROOT / "sample_catalogs" / f"{catalog}.yaml"])
    return inspector, inspector.plan(parse_config(overrides.pop("config", {})), **overrides)


def _wait_text(page, text: str, timeout: float = 90_000) -> None:
    page.get_by_text(text, exact=False).first.wait_for(timeout=timeout)


def test_overview_slider_changes_the_budget(page, app_url):
    _, plan = _expected_plan("team-workspace", context_length=200_000)
    page.goto(app_url)
    _wait_text(page, f"Budget = min(cap, percentage leg) = {plan.budget:,} tokens")
    assert page.get_by_text(f"Tier {plan.tier}", exact=False).count() >= 1
    page.screenshot(path=str(ARTIFACTS / "overview.png"), full_page=True)

    # Move the listing_max_tokens slider to its minimum with the keyboard, as a user would.
    slider = page.get_by_role("slider").nth(1)
    slider.focus()
    slider.press("Home")
    _, small = _expected_plan("team-workspace", context_length=200_000, config={"listing_max_tokens": 200})
    _wait_text(page, f"Budget = min(cap, percentage leg) = {small.budget:,} tokens")
    assert f"Form: {small.listing_form}" in page.inner_text("body")
    assert re.search(r"cap=200\b", page.url), page.url  # the setting is mirrored in the URL
    page.screenshot(path=str(ARTIFACTS / "overview-slider-min.png"), full_page=True)


def test_link_reproduces_the_view(page, app_url):
    _, plan = _expected_plan("five-servers", context_length=32_000, config={"threshold_pct": 2})
    page.goto(f"{app_url}/?catalog=five-servers&ctx=32K&pct=2.0")
    _wait_text(page, f"Budget = min(cap, percentage leg) = {plan.budget:,} tokens")
    assert f"Form: {plan.listing_form}" in page.inner_text("body")


def test_search_page_runs_queries(page, app_url):
    inspector, _ = _expected_plan("team-workspace", context_length=200_000)
    expected = inspector.bridge(parse_config({})).tool_search({"queries": ["slack post message", "zebra"]})
    page.goto(f"{app_url}/search")
    box = page.get_by_role("textbox", name="Queries (one per line)")
    box.wait_for(timeout=90_000)
    box.fill("slack post message\nzebra")
    box.press("Control+Enter")
    _wait_text(page, "Query 2: zebra")
    _wait_text(page, "Query 1: slack post message")
    _wait_text(page, "No matches")
    top = expected["results"][0]["matches"][0]
    page.get_by_role("tab", name="Response (exact JSON)").click()
    page.get_by_text(f'"{top}"', exact=False).first.wait_for(timeout=90_000)
    body = page.inner_text("body")
    assert '"total_available": ' + str(expected["total_available"]) in body
    assert expected["results"][1]["matches"] == []
    assert '"available_sources": ' in body  # the empty group carries the sources and the hint
    page.screenshot(path=str(ARTIFACTS / "search.png"), full_page=True)


def test_number_inputs_typed_change_the_plan(page, app_url):
    page.goto(app_url)
    _, plan = _expected_plan("team-workspace", context_length=200_000)
    _wait_text(page, f"Budget = min(cap, percentage leg) = {plan.budget:,} tokens")
    # Type exact values, as a user tuning to 0.1% and 1 token would.
    cap = page.get_by_role("spinbutton", name="listing_max_tokens", exact=True)
    cap.fill("1234")
    cap.press("Enter")
    _, capped = _expected_plan("team-workspace", context_length=200_000, config={"listing_max_tokens": 1234})
    assert capped.budget == 1234
    _wait_text(page, f"Budget = min(cap, percentage leg) = {capped.budget:,} tokens")
    assert f"Form: {capped.listing_form}" in page.inner_text("body")
    pct = page.get_by_role("spinbutton", name="threshold_pct (%)", exact=True)
    pct.fill("0.3")
    pct.press("Enter")
    _, both = _expected_plan("team-workspace", context_length=200_000,
                             config={"listing_max_tokens": 1234, "threshold_pct": 0.3})
    assert both.budget == 600  # int(200,000 × 0.003)
    _wait_text(page, f"Budget = min(cap, percentage leg) = {both.budget:,} tokens")
    assert f"Form: {both.listing_form}" in page.inner_text("body")
    assert re.search(r"pct=0\.3\b", page.url) and re.search(r"cap=1234\b", page.url), page.url
    # the slider follows the typed value
    assert page.get_by_test_id("stSliderThumbValue").nth(1).inner_text().replace(",", "") == "1234"
    page.screenshot(path=str(ARTIFACTS / "overview-number-inputs.png"), full_page=True)


def test_search_page_says_why_and_opens_the_explanation(page, app_url):
    page.goto(f"{app_url}/search")
    box = page.get_by_role("textbox", name="Queries (one per line)")
    box.wait_for(timeout=90_000)
    box.fill("send a slack message")
    box.press("Control+Enter")
    _wait_text(page, "Why: Gate term 'send' in 2 tools; excluded: 125 by the gate, 0 by the coverage floor; "
                     "best excluded: mcp__slack__slack_schedule_message (score 7.607): lacks the gate term 'send'.")
    assert "Tokens → stems:" not in page.inner_text("body")  # folded until asked for
    page.get_by_text("Full explanation of query 1").click()  # one click
    _wait_text(page, "Tokens → stems:  send → send   a → a   slack → slack   message → messag")
    page.screenshot(path=str(ARTIFACTS / "search-why.png"), full_page=True)
