"""Real-browser test of the Sessions page: a user uploads a Hermes session store (the shipped sample,
written by Hermes' own SessionDB) and a Claude Code transcript through the file picker of
``streamlit run app.py``, driven by Playwright in Debian's Chromium.

Skips (with the reason) only where Chromium is absent outside CI; in CI it must run. Screenshots
are saved to ``test-artifacts/``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import inspector_of
from toolsearch.engine.config import ToolSearchConfig
from toolsearch.analysis.sessions import load_sessions, replay, summary

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts"
SAMPLES = ROOT / "sample_sessions"
pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError("CI must have Debian's chromium at /usr/bin/chromium (.ci/run installs it)")
    pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (apt-get install chromium)",
                allow_module_level=True)

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def page(chromium_browser, app_url):
    ARTIFACTS.mkdir(exist_ok=True)
    context = chromium_browser.new_context(viewport={"width": 1500, "height": 1100})
    yield context.new_page()
    context.close()


def _metric(page, label: str) -> str:
    box = page.locator('[data-testid="stMetric"]', has_text=label).first
    box.wait_for(timeout=90_000)
    return box.locator('[data-testid="stMetricValue"]').inner_text().strip()


def test_upload_a_session_store_and_a_transcript(page, app_url, tmp_path):
    inspector = inspector_of([ROOT / "sample_catalogs" / "team-workspace.yaml"])
    loaded = load_sessions([SAMPLES / "state.db"])
    expected = summary(loaded.sessions, replay(loaded.sessions, inspector, ToolSearchConfig()))
    store = tmp_path / "my-state.db"
    store.write_bytes((SAMPLES / "state.db").read_bytes())
    before = store.read_bytes()

    page.goto(f"{app_url}/sessions")
    page.get_by_text("Upload a session file").first.click()
    uploader = page.get_by_test_id("stMainBlockContainer").get_by_test_id("stFileUploaderDropzoneInput")
    uploader.set_input_files(str(store))
    page.get_by_text("my-state.db: 7 sessions", exact=False).first.wait_for(timeout=90_000)
    assert _metric(page, "Searches (one per query)") == str(expected["searches"])
    assert _metric(page, "Recorded empty") == str(expected["recorded"]["empty"])
    page.get_by_role("tab", name="Failed searches").click()
    # the failed searches, in a literal-text table
    page.get_by_text("rotate kubernetes secret", exact=False).first.wait_for(state="attached", timeout=30_000)
    page.screenshot(path=str(ARTIFACTS / "sessions-upload.png"), full_page=True)
    assert store.read_bytes() == before  # the user's file is only read

    uploader.set_input_files(str(SAMPLES / "claude-code.jsonl"))
    page.get_by_text("claude-code.jsonl: 3 sessions", exact=False).first.wait_for(timeout=90_000)
    assert _metric(page, "Sessions") == "3"
