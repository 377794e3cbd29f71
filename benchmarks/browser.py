"""Browser benchmark: how long the app takes to answer a slider move, in a real browser.

Starts ``streamlit run app.py`` on 127.0.0.1 (a free port unless ``--port``), opens it in Debian's
headless Chromium (``/usr/bin/chromium``, through Playwright) and, per catalog and page, presses
an arrow key on the sidebar's ``threshold_pct`` slider N times (alternately right and left, so
the value always changes). For each move it measures, from the key press:

* **run ended**: the app's script run has ended (the ``data-test-script-state`` attribute of
  ``stApp`` leaves ``running``);
* **quiet**: the page has stopped changing (the last DOM mutation before 100 ms without any,
  seen by a ``MutationObserver``);
* **received**: bytes the browser received on the app's websocket for that move.

With ``--breakdown`` it also splits each move into its steps, medians printed under each line:

* **sent**: key press → the rerun request leaves on the websocket (the browser's own work,
  Streamlit's widget debounce included);
* **running**: → the page shows the run as started (``data-test-script-state`` becomes
  ``running``; the server has received the request and started the script);
* **last message**: → the last websocket message of the run arrived (the server's side: the
  script, serializing the elements and sending them);
* **ended** and **quiet** as above (after the last message, what is left is the browser
  applying and drawing the elements);
* **server CPU**: CPU time the Streamlit server process used during the move (user + system,
  from ``/proc``, 10 ms resolution), i.e. Streamlit's own work plus the page script; it holds up
  better than wall time on a busy machine;
* **browser CPU**: CPU time all of Chromium's processes used during the move (10 ms
  resolution, from Chromium's ``SystemInfo.getProcessInfo``);
* **browser main thread**: time the page's main thread was busy (Chromium's ``TaskDuration``,
  of which ``ScriptDuration`` running JavaScript and ``LayoutDuration`` + ``RecalcStyleDuration``
  laying out; wall time, so it grows with the machine's load);
* **messages**: websocket messages received for the move (one per element delta, roughly).

It also times warm page switches (each page visited before; click in the sidebar navigation →
run ended / quiet) and the switch to Strategies. Prints medians; asserts nothing. Targets: a
slider move under 300 ms on the default catalog on Overview, What the model sees, Search, Costs
and Tuning, under 500 ms on ``cloudflare-flat``; warm page switches under 1 s; Strategies under
2 s.

``--first-load`` times instead the first load of the pages that compute the most when first
opened (Strategies, Search quality & lint; ``--page`` picks others), until the page is quiet (the
run has ended, Streamlit's running indicator is gone and nothing changed for 100 ms), with the
CPU time the server and the browser used meanwhile (on a busy machine the wall times grow, the
CPU times much less):

* **cold**: a fresh ``streamlit run`` process and a fresh browser profile, the page's URL opened
  directly (nothing cached on either side);
* **warm**: the same URL in a new tab of the same browser and process (median of ``--warm``);
* **first switch**: another fresh process, the Overview opened, then the page chosen in the
  navigation (the page's first visit in that process), and **warm switch**: back to the Overview
  and to the page again (median of ``--warm``).

Usage::

    python -m benchmarks.browser                     # default catalog and cloudflare-flat, 8 moves
    python -m benchmarks.browser --moves 4 --catalog five-servers
    python -m benchmarks.browser --smoke             # a few moves on two pages: finishes fast (CI)
    python -m benchmarks.browser --page Tuning --page Strategies --no-switches   # only these pages
    python -m benchmarks.browser --breakdown --page Search    # where a move's time goes
    python -m benchmarks.browser --app ../other-checkout/app.py  # another version, same conditions
    python -m benchmarks.browser --catalog-file big.json --moves 3 --no-switches  # a synth catalog
    python -m benchmarks.browser --first-load        # Strategies and Search quality: cold and warm loads
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
DEFAULT_CATALOG = "team-workspace"
#: (navigation title, URL path) of the pages measured for slider moves.
PAGES = [("Overview", ""), ("What the model sees", "model_view"), ("Search", "search"), ("Costs", "costs"),
         ("Tuning", "tuning")]
STRATEGIES = ("Strategies", "strategies")
#: Further pages ``--page`` can name (navigation title, URL path).
OTHER_PAGES = [("Compare & collapse", "cache_diff"), ("Search quality & lint", "quality"), STRATEGIES,
               ("Scopes", "scopes"), ("Sessions", "sessions"), ("Report", "report")]
QUIET_MS = 100
#: The pages ``--first-load`` times by default (navigation title, URL path).
FIRST_LOAD_PAGES = [STRATEGIES, ("Search quality & lint", "quality")]
TIMEOUT_MS = 180_000
#: An action that started no run within this long (ms) is repeated, at most RETRIES times.
NO_RUN_MS = 20_000
RETRIES = 2

# Installed before the app's own scripts: times of websocket sends and received messages.
_SOCKET_PROBE = """(() => {
  const w = window.__benchSocket = {sent: [], received: []};
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (!this.__benchListening) {
      this.__benchListening = true;
      this.addEventListener('message', () => { w.received.push(performance.now()); });
    }
    w.sent.push(performance.now());
    return send.call(this, data);
  };
})();"""

# Installed once per page load: records script-state transitions and the last DOM mutation.
_OBSERVER = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const b = window.__bench = {start: 0, end: null, running: null, last: performance.now(), app: !!app};
  if (window.__benchObserver) window.__benchObserver.disconnect();
  const observer = window.__benchObserver = new MutationObserver((records) => {
    const now = performance.now();
    b.last = now;
    for (const r of records) {
      if (r.type === 'attributes' && r.attributeName === 'data-test-script-state' && r.target === app
          && r.oldValue === 'running' && app.getAttribute('data-test-script-state') !== 'running'
          && b.end === null && b.start > 0) {
        b.end = now;
      }
      if (r.type === 'attributes' && r.attributeName === 'data-test-script-state' && r.target === app
          && app.getAttribute('data-test-script-state') === 'running' && b.running === null && b.start > 0) {
        b.running = now;
      }
    }
  });
  observer.observe(document.documentElement, {subtree: true, childList: true, attributes: true,
                                              characterData: true, attributeOldValue: true});
}"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def streamlit_app(port: int | None, app: Path | None = None) -> Iterator[str]:
    """``streamlit run app.py`` on 127.0.0.1 until the block ends; yields its URL. ``app``: another
    checkout's ``app.py`` (run from its folder), to compare two versions under the same conditions."""
    port = port or _free_port()
    app = (app or ROOT / "app.py").resolve()
    streamlit = shutil.which("streamlit", path=str(Path(sys.executable).parent)) or "streamlit"
    proc = subprocess.Popen(
        [streamlit, "run", str(app), "--server.headless", "true", "--server.address", "127.0.0.1",
         "--server.port", str(port), "--browser.gatherUsageStats", "false"],
        cwd=app.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    SERVER_PIDS[url] = proc.pid
    try:
        deadline = time.time() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                if time.time() > deadline or proc.poll() is not None:
                    raise SystemExit("streamlit did not start within 90 s") from None
                time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@contextmanager
def linked_catalog(path: Path | None) -> Iterator[str | None]:
    """A catalog file offered by the app for the block: linked into ``sample_catalogs/`` under a
    temporary name (the app offers only the files there), removed afterwards. Yields the sample
    name, or ``None`` when ``path`` is ``None``."""
    if path is None:
        yield None
        return
    source = path.resolve()
    if not source.is_file():
        raise SystemExit(f"--catalog-file {path}: no such file")
    name = f"zz-benchmark-{os.getpid()}"
    link = ROOT / "sample_catalogs" / f"{name}.yaml"
    link.symlink_to(source)
    try:
        yield name
    finally:
        link.unlink(missing_ok=True)


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system, seconds; 10 ms resolution) the process has used so far, all its
    threads, from ``/proc/PID/stat``; 0.0 where ``/proc`` is not available."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


#: Streamlit server process id per app URL (for its CPU time in ``--breakdown``).
SERVER_PIDS: dict[str, int] = {}
#: The breakdown columns: (label, key in a breakdown sample, unit).
BREAKDOWN = [("sent", "sent", "ms"), ("running", "running", "ms"), ("last message", "last_message", "ms"),
             ("ended", "ended", "ms"), ("quiet", "quiet", "ms"), ("server CPU", "server_cpu", "ms"),
             ("browser CPU", "browser_cpu", "ms"), ("browser main thread", "browser_task", "ms"), ("of it script", "browser_script", "ms"),
             ("layout+style", "browser_layout", "ms"), ("messages", "messages", "")]


class Meter:
    """One browser page with the observer and a websocket byte counter.

    With ``server_pid`` (``--breakdown``), each :meth:`measure` also records where the move's time
    went in :attr:`details` (one dict per move; keys as in :data:`BREAKDOWN`)."""

    def __init__(self, page, server_pid: int | None = None):
        self.page = page
        self.received = 0
        self.server_pid = server_pid
        self.details: list[dict[str, float]] = []
        self.lost = 0  # actions repeated because they started no run
        self.cdp = self.browser_cdp = None
        page.on("websocket", self._on_socket)
        if server_pid is not None:
            page.add_init_script(_SOCKET_PROBE)
            self.cdp = page.context.new_cdp_session(page)
            self.cdp.send("Performance.enable")
            self.browser_cdp = page.context.browser.new_browser_cdp_session()

    def _on_socket(self, ws) -> None:
        ws.on("framereceived", lambda payload: self._add(payload))

    def _add(self, payload) -> None:
        self.received += len(payload)

    def _browser_metrics(self) -> dict[str, float]:
        metrics = {m["name"]: m["value"] for m in self.cdp.send("Performance.getMetrics")["metrics"]}
        processes = self.browser_cdp.send("SystemInfo.getProcessInfo")["processInfo"]
        return {"browser_cpu": sum(p["cpuTime"] for p in processes), "browser_task": metrics.get("TaskDuration", 0.0), "browser_script": metrics.get("ScriptDuration", 0.0),
                "browser_layout": metrics.get("LayoutDuration", 0.0) + metrics.get("RecalcStyleDuration", 0.0)}

    def settle(self) -> None:
        """Wait until the current run has ended and the page is quiet, then re-arm the observer."""
        page = self.page
        page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=TIMEOUT_MS)
        page.evaluate(_OBSERVER)
        page.wait_for_function(f"performance.now() - window.__bench.last > {QUIET_MS}", timeout=TIMEOUT_MS,
                               polling=20)

    def measure(self, action) -> tuple[float, float, int]:
        """Run ``action()``; return (ms to run ended, ms to quiet, bytes received). An action that
        starts no run within :data:`NO_RUN_MS` is repeated (and counted in :attr:`lost`)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: PLC0415

        page = self.page
        page.evaluate(_OBSERVER)
        before = self.received
        if self.server_pid is not None:
            cpu_before, browser_before = _cpu_seconds(self.server_pid), self._browser_metrics()
            page.evaluate("window.__benchSocket.sent.length = 0; window.__benchSocket.received.length = 0")
        page.evaluate("window.__bench.start = performance.now()")
        action()
        for attempt in range(RETRIES + 1):
            try:
                page.wait_for_function("window.__bench.end !== null", timeout=NO_RUN_MS if attempt < RETRIES
                                       else TIMEOUT_MS, polling=10)
                break
            except PlaywrightTimeout:
                if attempt == RETRIES or page.evaluate("window.__bench.running != null"):
                    raise
                # The key press reached no widget (the page was still re-rendering): press again,
                # timed from the new press, and say so.
                self.lost += 1
                print(f"    (no rerun {NO_RUN_MS / 1000:.0f} s after an action: repeated it)", flush=True)
                page.evaluate(_OBSERVER)
                page.evaluate("window.__bench.start = performance.now()")
                action()
        page.wait_for_function(f"performance.now() - window.__bench.last > {QUIET_MS}", timeout=TIMEOUT_MS,
                               polling=20)
        start, end, last = page.evaluate("[window.__bench.start, window.__bench.end, window.__bench.last]")
        if self.server_pid is not None:
            cpu, browser = _cpu_seconds(self.server_pid) - cpu_before, self._browser_metrics()
            running, sent, received = page.evaluate(
                "[window.__bench.running, window.__benchSocket.sent, window.__benchSocket.received]")
            first_sent = min((t for t in sent if t >= start), default=float("nan"))
            arrived = [t for t in received if start <= t <= max(last, end)]
            self.details.append({
                "sent": first_sent - start, "running": (running if running is not None else float("nan")) - start,
                "last_message": (max(arrived) if arrived else float("nan")) - start, "ended": end - start,
                "quiet": max(last, end) - start, "server_cpu": 1000 * cpu,
                **{k: 1000 * (v - browser_before[k]) for k, v in browser.items()}, "messages": len(arrived)})
        return end - start, max(last, end) - start, self.received - before


def _open(meter: Meter, url: str, path: str, catalog: str) -> None:
    meter.page.goto(f"{url}/{path}?catalog={catalog}", timeout=TIMEOUT_MS)
    meter.page.wait_for_selector('[data-testid="stApp"]', timeout=TIMEOUT_MS)
    meter.settle()


def _slider_moves(meter: Meter, moves: int) -> list[tuple[float, float, int]]:
    slider = meter.page.get_by_test_id("stSidebar").get_by_role("slider").first  # threshold_pct
    slider.wait_for(timeout=TIMEOUT_MS)
    out = []
    for i in range(moves):
        key = "ArrowRight" if i % 2 == 0 else "ArrowLeft"
        slider.focus()
        out.append(meter.measure(lambda: slider.press(key)))
    return out


def _switch(meter: Meter, title: str) -> tuple[float, float, int]:
    link = meter.page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=title, exact=True)
    return meter.measure(lambda: link.click())


def _fmt(samples: list[tuple[float, float, int]]) -> str:
    ended = statistics.median(s[0] for s in samples)
    quiet = statistics.median(s[1] for s in samples)
    kb = statistics.median(s[2] for s in samples) / 1024
    return f"run ended {ended:6.0f} ms, quiet {quiet:6.0f} ms, received {kb:8.1f} KiB (median of {len(samples)})"


def _fmt_breakdown(details: list[dict[str, float]]) -> str:
    """The medians of ``--breakdown`` samples, one indented line."""
    def median(key: str) -> float:
        values = [d[key] for d in details if d[key] == d[key]]  # NaN: not seen
        return statistics.median(values) if values else float("nan")
    parts = [f"{label} {median(key):.0f}{' ' + unit if unit else ''}" for label, key, unit in BREAKDOWN]
    return "      breakdown (from the key press; medians): " + " · ".join(parts)


def _print_breakdown(meter: "Meter") -> None:
    if meter.server_pid is not None and meter.details:
        print(_fmt_breakdown(meter.details))
    meter.details.clear()


def run(catalogs: list[str], pages: list[tuple[str, str]], moves: int, switches: int, strategies: bool,
        port: int | None, breakdown: bool = False, app: Path | None = None) -> None:
    """Measure and print (see the module docstring). ``breakdown``: also print where each move's
    time went; ``app``: measure another checkout's ``app.py``."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    print(f"machine: {os.cpu_count()} CPUs; load average: " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))
    if app is not None:
        print(f"app: {app}")
    with streamlit_app(port, app) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        context = browser.new_context(viewport={"width": 1500, "height": 1100})
        for catalog in catalogs:
            meter = Meter(context.new_page(), SERVER_PIDS[url] if breakdown else None)
            start = time.perf_counter()
            _open(meter, url, "", catalog)
            elapsed = time.perf_counter() - start
            if meter.page.get_by_text("that is not a shipped sample").count():  # the app fell back to the default
                raise SystemExit(f"benchmarks.browser: {catalog!r} is not a sample catalog "
                                 "(a file sample_catalogs/NAME.yaml); nothing measured")
            print(f"{catalog}: first load of Overview {elapsed:.2f} s (until quiet)")
            for title, path in pages:
                _open(meter, url, path, catalog)
                print(f"  slider move on {title:<20} {_fmt(_slider_moves(meter, moves))}")
                _print_breakdown(meter)
            if switches and len(pages) > 1:
                samples = []
                for i in range(switches):  # every page was visited above: these are warm switches
                    samples.append(_switch(meter, pages[i % len(pages)][0]))
                print(f"  warm page switch{'':<13} {_fmt(samples)}")
                _print_breakdown(meter)
            if strategies:
                samples = [_switch(meter, STRATEGIES[0])]
                print(f"  switch to Strategies (first){'':<2} {_fmt(samples)}")
                _print_breakdown(meter)
                samples = []
                for _ in range(2):
                    _switch(meter, pages[0][0])
                    meter.details = meter.details[:len(samples)]  # only the switches to Strategies
                    samples.append(_switch(meter, STRATEGIES[0]))
                print(f"  switch to Strategies (warm){'':<3} {_fmt(samples)}")
                _print_breakdown(meter)
            if meter.lost:
                print(f"  {meter.lost} action{'s' if meter.lost != 1 else ''} started no run within "
                      f"{NO_RUN_MS / 1000:.0f} s and {'were' if meter.lost != 1 else 'was'} repeated: those "
                      "samples are timed from the repeat, so the medians leave the lost attempt out")
            meter.page.close()
        browser.close()


# Installed before the app's own scripts by --first-load: the last time (ms since the document's
# navigation started) the page changed or showed that it was busy.
_QUIET_PROBE = """(() => {
  const q = window.__benchQuiet = {last: 0};
  new MutationObserver(() => { q.last = performance.now(); })
    .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();"""
# True once the page has been idle for QUIET_MS: the app's run ended (not "initial" or "running"),
# Streamlit's running indicator gone, the page's title drawn and no DOM change since.
_QUIET_NOW = """(quietMs) => {
  const q = window.__benchQuiet;
  const app = document.querySelector('[data-testid="stApp"]');
  const busy = !app || app.getAttribute('data-test-script-state') !== 'notRunning'
    || document.querySelector('[data-testid="stStatusWidget"]') !== null || document.querySelector('h1') === null;
  if (busy) { q.last = performance.now(); return false; }
  return performance.now() - q.last > quietMs;
}"""


def _browser_cpu(browser_cdp) -> float:
    """CPU seconds all of Chromium's processes have used so far."""
    return sum(p["cpuTime"] for p in browser_cdp.send("SystemInfo.getProcessInfo")["processInfo"])


def _until_quiet(page, server_pid: int, browser_cdp, action, start_js: str) -> tuple[float, float, float]:
    """Run ``action()`` and wait until the page is quiet; return (seconds from ``start_js``, a
    page-time expression in ms, to the last change or busy sign; server CPU s; browser CPU s)."""
    server, browser = _cpu_seconds(server_pid), _browser_cpu(browser_cdp)
    action()
    page.wait_for_function(_QUIET_NOW, arg=QUIET_MS, timeout=TIMEOUT_MS, polling=20)
    elapsed = page.evaluate(f"(window.__benchQuiet.last - ({start_js})) / 1000")
    return elapsed, _cpu_seconds(server_pid) - server, _browser_cpu(browser_cdp) - browser


def _fmt_loads(samples: list[tuple[float, float, float]]) -> str:
    wall, server, browser = (statistics.median(s[i] for s in samples) for i in range(3))
    return (f"{wall:6.2f} s until quiet (server CPU {server:5.2f} s, browser CPU {browser:5.2f} s)"
            + (f", median of {len(samples)}" if len(samples) > 1 else ""))


def first_loads(pages: list[tuple[str, str]], catalog: str | None, warm: int, port: int | None,
                app: Path | None = None) -> None:
    """Print the cold and warm first loads of ``pages`` (see the module docstring's
    ``--first-load``); ``catalog``: a sample catalog name (default: the app's own default)."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    print(f"machine: {os.cpu_count()} CPUs; load average: " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))
    if app is not None:
        print(f"app: {app}")
    query = f"?catalog={catalog}" if catalog else ""
    print(f"catalog: {catalog or 'the default'}")
    width = max(len(title) for title, _ in pages) + len(": first switch")
    with sync_playwright() as pw:
        def launch():
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"])
            return browser, browser.new_browser_cdp_session()

        def new_page(browser):
            page = browser.new_page(viewport={"width": 1500, "height": 1100})
            page.add_init_script(_QUIET_PROBE)
            return page

        for title, path in pages:
            with streamlit_app(port, app) as url:  # cold: a fresh process and browser
                pid = SERVER_PIDS[url]
                browser, cdp = launch()
                page = new_page(browser)
                cold = _until_quiet(page, pid, cdp, lambda: page.goto(f"{url}/{path}{query}", timeout=TIMEOUT_MS), "0")
                print(f"{title + ': cold load':<{width}} {_fmt_loads([cold])}", flush=True)
                samples = []
                for _ in range(warm):
                    page.close()
                    page = new_page(browser)
                    samples.append(_until_quiet(page, pid, cdp,
                                                lambda: page.goto(f"{url}/{path}{query}", timeout=TIMEOUT_MS), "0"))
                print(f"{title + ': warm load':<{width}} {_fmt_loads(samples)}", flush=True)
                browser.close()
            with streamlit_app(port, app) as url:  # the page's first visit in a process, from the Overview
                pid = SERVER_PIDS[url]
                browser, cdp = launch()
                page = new_page(browser)
                _until_quiet(page, pid, cdp, lambda: page.goto(f"{url}/{query}", timeout=TIMEOUT_MS), "0")
                nav = page.locator('[data-testid="stSidebarNav"]')

                def switch(name: str) -> tuple[float, float, float]:
                    page.evaluate("window.__benchStart = performance.now()")
                    return _until_quiet(page, pid, cdp, lambda: nav.get_by_role("link", name=name, exact=True).click(),
                                        "window.__benchStart")

                print(f"{title + ': first switch':<{width}} {_fmt_loads([switch(title)])}", flush=True)
                samples = []
                for _ in range(warm):
                    switch(PAGES[0][0])
                    samples.append(switch(title))
                print(f"{title + ': warm switch':<{width}} {_fmt_loads(samples)}", flush=True)
                browser.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.browser", description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", action="append", dest="catalogs", metavar="NAME",
                        help=f"sample catalog name (repeatable; default {DEFAULT_CATALOG} and cloudflare-flat)")
    parser.add_argument("--catalog-file", type=Path, metavar="PATH",
                        help="also measure this catalog file (e.g. one written by toolsearch synth), linked into "
                             "sample_catalogs/ for the run")
    parser.add_argument("--moves", type=int, default=8, help="slider moves per page (default 8)")
    parser.add_argument("--switches", type=int, default=6, help="warm page switches (default 6)")
    parser.add_argument("--page", action="append", dest="pages", metavar="TITLE",
                        help="measure slider moves on this page only (navigation title or URL path; repeatable)")
    parser.add_argument("--no-switches", action="store_true",
                        help="skip the warm page switches and the switches to Strategies")
    parser.add_argument("--port", type=int, help="port for streamlit (default: a free one)")
    parser.add_argument("--breakdown", action="store_true",
                        help="also print where each move's time goes (request sent, run started, last message, "
                             "server CPU, browser main thread)")
    parser.add_argument("--app", type=Path, metavar="APP_PY",
                        help="measure this app.py (another checkout, run from its folder) instead of this one's")
    parser.add_argument("--first-load", action="store_true",
                        help="time instead the cold and warm first loads of Strategies and Search quality & lint "
                             "(or the --page pages) until the page is quiet")
    parser.add_argument("--warm", type=int, default=3, help="warm loads and switches per page with --first-load "
                                                            "(default 3)")
    parser.add_argument("--smoke", action="store_true",
                        help="a short run (default catalog, two pages, two moves, two switches) that finishes fast")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} is not installed (apt-get install chromium)")
    pages = PAGES
    if args.pages:
        known = {key.casefold(): page for page in PAGES + OTHER_PAGES for key in page}
        unknown = [name for name in args.pages if name.casefold() not in known]
        if unknown:
            parser.error(f"--page {unknown[0]!r}: not one of " + ", ".join(t for t, _ in PAGES + OTHER_PAGES))
        pages = [known[name.casefold()] for name in args.pages]
    if args.first_load:
        with linked_catalog(args.catalog_file) as linked:
            first_loads(pages if args.pages else FIRST_LOAD_PAGES, linked or (args.catalogs or [None])[0],
                        args.warm, args.port, args.app)
        return
    switches, strategies = (0, False) if args.no_switches else (args.switches, True)
    with linked_catalog(args.catalog_file) as linked:
        extra = [linked] if linked else []
        if args.smoke:
            run(args.catalogs or extra or [DEFAULT_CATALOG], [PAGES[0], PAGES[3]], 2, 2, False, args.port,
                args.breakdown, args.app)
        else:
            run([*(args.catalogs or ([] if extra else [DEFAULT_CATALOG, "cloudflare-flat"])), *extra], pages,
                args.moves, switches, strategies, args.port, args.breakdown, args.app)


if __name__ == "__main__":
    main()
