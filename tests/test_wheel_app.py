"""The installed app: ``toolsearch app`` from a wheel, outside any checkout.

A wheel built from this checkout is installed (not editable) into a fresh virtual environment in a
temporary folder; ``toolsearch app`` runs from another empty folder and Chromium opens every page.
Offline: the wheel is built without build isolation, and the new environment reuses this
interpreter's installed dependencies through a ``.pth`` line (the checkout is never on its path).
"""

from __future__ import annotations

import ipaddress
import os
import shlex
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import clean_env, free_port
from test_browser import _settled
from toolsearch.ui.router import PAGES

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError("CI must have Debian's chromium at /usr/bin/chromium (.ci/run installs it)")
    pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (apt-get install chromium)",
                allow_module_level=True)

playwright_api = pytest.importorskip("playwright.sync_api")

def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=600, **kwargs)
    assert done.returncode == 0, f"{command}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(installed_wheel) -> Path:
    """The ``bin`` folder of the environment the wheel is installed in (:func:`conftest.installed_wheel`)."""
    return installed_wheel


def test_the_wheel_holds_the_app_and_the_samples(installed, tmp_path):
    """The installed package is the wheel's copy (not the checkout), with the views, the app's
    Streamlit settings and the sample folders."""
    probe = ("import toolsearch, toolsearch.ui.router as r; from toolsearch.analysis.samples import samples_dir; "
             "print(toolsearch.__file__); print(r.FAVICON.is_file()); "
             "print(len(list(samples_dir('sample_catalogs').glob('*.yaml')))); "
             "print((r.UI_DIR / 'entry' / '.streamlit' / 'config.toml').read_text() == "
             "open(r'" + str(ROOT / ".streamlit" / "config.toml") + "').read())")
    out = _run([installed / "python", "-c", probe], cwd=tmp_path, env=clean_env()).stdout.split()
    assert Path(out[0]).is_relative_to(installed.parent), out[0]
    assert out[1:] == ["True", str(len(list((ROOT / "sample_catalogs").glob("*.yaml")))), "True"]


def test_the_readme_runs_on_shipped_files_work_from_the_wheel(installed, tmp_path):
    """Every command of the README's "A few runs on shipped files" block, run by the installed
    ``toolsearch`` from an empty folder, reads the shipped copies (exit 0, or 1 for a cache break)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("A few runs on shipped files:", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [shlex.split(line) for line in block.splitlines() if line.startswith("toolsearch ")]
    assert len(commands) >= 5 and any(c[1] == "diff" for c in commands)
    for command in commands:
        done = subprocess.run([str(installed / "toolsearch"), *command[1:]], capture_output=True, text=True,
                              cwd=tmp_path, env=clean_env(), timeout=300)
        assert done.returncode in (0, 1), f"{command}: {done.returncode}\n{done.stderr}"
        assert "reading the shipped sample" in done.stderr, command


def _listening_addresses(port: int) -> set[str]:
    """The IPv4/IPv6 addresses with a socket listening on ``port`` (from /proc/net/tcp and tcp6)."""
    found = set()
    for name, width in (("tcp", 8), ("tcp6", 32)):
        table = Path("/proc/net") / name
        if not table.exists():
            continue
        for line in table.read_text().splitlines()[1:]:
            fields = line.split()
            address, _, hex_port = fields[1].partition(":")
            if fields[3] == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
                raw = bytes.fromhex(address)
                if width == 8:
                    found.add(".".join(str(b) for b in reversed(raw)))
                else:  # four little-endian 32-bit words
                    words = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
                    found.add(str(ipaddress.IPv6Address(words)))
    return found


def test_toolsearch_app_serves_every_page_from_the_wheel(installed, tmp_path, chromium_browser):
    """``toolsearch app --server.port N`` from an empty folder: loopback only, the launch token in
    its terminal, and every page renders in Chromium without an exception, offline."""
    port = free_port()
    log = tmp_path / "app.log"
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    with open(log, "wb") as out:
        proc = subprocess.Popen([str(installed / "toolsearch"), "app", "--server.port", str(port),
                                 "--server.headless", "true"], cwd=workdir, stdout=out, stderr=subprocess.STDOUT,
                                env=clean_env())
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 120
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                assert time.time() < deadline, log.read_text()
                time.sleep(0.3)
        listening = _listening_addresses(port)
        context = chromium_browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        outside: list[str] = []
        page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(url)
                and not r.url.startswith(("data:", "blob:", "about:")) else None)
        try:
            for i, (stem, title, _icon) in enumerate(PAGES):
                page.goto(f"{url}/{'' if i == 0 else stem}")
                _settled(page, timeout=180_000)
                assert page.locator("[data-testid=stException]").count() == 0, stem
                assert title in [h.inner_text().strip() for h in page.locator("h1").all()], stem
                if i == 0:  # the shipped sample catalog is loaded from the wheel's copy
                    assert "Catalog: " in page.inner_text("[data-testid=stMain]")
                    assert page.get_by_text("No catalog loaded").count() == 0
                    assert page.get_by_role("button", name="Deploy").count() == 0  # toolbarMode "viewer"
        finally:
            context.close()
        assert outside == []  # no usage statistics, no fonts or scripts from other hosts
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
    assert listening == {"127.0.0.1"}, listening  # loopback only (the packaged settings)
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "toolsearch: launch token for browsers that are not on this machine" in text
    assert "Traceback" not in text
