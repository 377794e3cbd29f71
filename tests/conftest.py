"""Shared fixtures: the spec's conformance catalogs and small helpers.

"FC" and "MQ" are the catalogs of docs/reference.md §13. Tools are built with
:func:`toolsearch.engine.registration.make_tool`, so they carry the source kind the spec's notation
gives (``unreg`` → ``kind="unregistered"``, ``mcp:<server>`` → ``kind="mcp", server=<server>``).
"""

from __future__ import annotations

import re

import functools
import json
import math
import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence

import pytest
import yaml

from toolsearch.engine.profile import default_profile
from toolsearch.engine.registration import RegisteredTool, Registration, make_tool


def obj(*props: str, required: Sequence[str] | None = None) -> dict[str, Any]:
    """An object schema with string properties ``props`` (and ``required`` when given)."""
    schema: dict[str, Any] = {"type": "object", "properties": {p: {"type": "string"} for p in props}}
    if required is not None:
        schema["required"] = list(required)
    return schema


def compact(value: Any) -> str:
    """Compact JSON, non-ASCII kept: the serialization the estimator measures (docs/reference.md §3)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def ceil4(text_or_length: str | int) -> int:
    """``ceil(chars / 4)`` for a text or a length in code points."""
    n = text_or_length if isinstance(text_or_length, int) else len(text_or_length)
    return math.ceil(n / 4)


def registration(tools: Sequence[RegisteredTool], kinds: dict[str, str] | None = None) -> Registration:
    """A :class:`Registration` that keeps ``tools`` in the given (pre-assembly) order."""
    return Registration(tools=tuple(tools), problems=(), naming="as-is", server_kinds=kinds or {})


def fc_tools() -> list[RegisteredTool]:
    """Four unregistered tools, no source label."""
    return [
        make_tool("github_create_issue", "Open a new issue in a GitHub repository", obj("title", "body"),
                  kind="unregistered"),
        make_tool("github_search_repos", "Search GitHub for matching repositories", obj("query"),
                  kind="unregistered"),
        make_tool("slack_send_message", "Post a message into a Slack channel", obj("channel", "text"),
                  kind="unregistered"),
        make_tool("calendar_create_event", "Add an event to the user's calendar", obj("title", "start"),
                  kind="unregistered"),
    ]


def mq_tools() -> list[RegisteredTool]:
    """Three MCP tools on servers mq-linear and mq-slack."""
    return [
        make_tool("mq_linear_create_issue", "Create a new issue in a team.",
                  obj("title", "team", required=["title", "team"]), server="mq-linear"),
        make_tool("mq_linear_list_issues", "List issues in the workspace.", obj("query"), server="mq-linear"),
        make_tool("mq_slack_post_message", "Post a message to a channel.",
                  obj("channel", "text", required=["channel", "text"]), server="mq-slack"),
    ]



def _stamp(path: str | Path) -> tuple[str, int, int]:
    stat = os.stat(path)
    return (str(path), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _shipped_catalog(stamps: tuple[tuple[str, int, int], ...]):
    from toolsearch.engine.catalog import load_sources  # noqa: PLC0415

    return load_sources([name for name, _size, _mtime in stamps])


def inspector_of(paths: Sequence[str | Path], naming: str = "prefixed", profile=None):
    """``Inspector.from_files(paths, naming, profile)`` for files no test changes (the shipped
    samples and examples), as the tests compute the figures a page or a command must show: each
    file set is read and parsed once per test process (keyed by the paths as given, their sizes
    and modification times, so a changed file is read again) and every call gets a new
    :class:`~toolsearch.engine.inspector.Inspector` registered from that frozen catalog. Parsing
    the YAML of a shipped sample again for each expected figure was a fifth of the CPU of the
    AppTest files that do it (0.08 s per team-workspace, 0.25 s per cloudflare-flat)."""
    from toolsearch.engine.inspector import Inspector  # noqa: PLC0415

    return Inspector(_shipped_catalog(tuple(_stamp(p) for p in paths)), naming, profile)



def _scan_installed_components_once() -> None:
    """Every ``AppTest`` (Streamlit's in-process test runner) scans the metadata of every installed
    distribution for Streamlit components when it first runs (``scan_component_manifests``, about
    0.15 s of CPU with this project's test environment, two thirds of a short page's AppTest run),
    and the tests create hundreds of them. What is installed does not change while the tests run,
    so each test process scans once and every AppTest gets that answer (each still registers the
    components itself). A Streamlit without the scanner is left as it is."""
    try:
        from streamlit.components.v2 import manifest_scanner  # noqa: PLC0415
    except ImportError:
        return
    scan = manifest_scanner.scan_component_manifests
    if getattr(scan, "scanned_once", False):
        return
    found: list = []

    def scan_once(*args, **kwargs):
        if not found:
            found.append(scan(*args, **kwargs))
        return list(found[0])

    scan_once.scanned_once = True
    manifest_scanner.scan_component_manifests = scan_once


def _compile_app_scripts_once() -> None:
    """AppTest makes new script caches for every run, so each run read the app's scripts again and
    compiled them with Streamlit's "magic" rewrite (about 20 ms of CPU per run of a page), where a
    served app compiles a script once and keeps its bytecode for every session until the file
    changes. Here too: the bytecode of a script is kept for as long as its source text (and the
    magic setting) is the same, so an edited script is compiled again."""
    try:
        from streamlit import config as st_config  # noqa: PLC0415
        from streamlit.runtime.scriptrunner import script_cache  # noqa: PLC0415
        from streamlit.source_util import open_python_file  # noqa: PLC0415
        from streamlit.testing.v1 import app_test, local_script_runner  # noqa: PLC0415
    except ImportError:
        return
    base = script_cache.ScriptCache
    if getattr(base, "compiled_once", False) or app_test.ScriptCache is not base:
        return
    compiled: dict[tuple[str, str, bool], Any] = {}

    class ScriptCacheBySource(base):
        compiled_once = True

        def get_bytecode(self, script_path: str) -> Any:
            path = os.path.abspath(script_path)
            with open_python_file(path) as f:
                key = (path, f.read(), bool(st_config.get_option("runner.magicEnabled")))
            if key not in compiled:
                compiled[key] = super().get_bytecode(script_path)
            return compiled[key]

    app_test.ScriptCache = local_script_runner.ScriptCache = ScriptCacheBySource


def pytest_configure(config):
    """Byte-compile the package once, before the workers start: hundreds of tests run ``toolsearch``
    in a subprocess, and with ``PYTHONDONTWRITEBYTECODE`` set (as on the CI machine) each of them
    would otherwise compile every module it imports again (about a quarter second apiece). Under
    pytest-xdist, the test modules' rewritten asserts are cached once too
    (:func:`_rewrite_test_modules_once`). In every test process, AppTest's scan of the installed
    packages is done once (:func:`_scan_installed_components_once`), and each app script is
    compiled once while its text is unchanged (:func:`_compile_app_scripts_once`). The temporary
    folders go to memory when the machine has room for them (:func:`_temporary_folders_in_memory`)."""
    if os.environ.get("PYTEST_XDIST_WORKER") or not getattr(config.option, "tx", None):  # a process that runs tests
        _scan_installed_components_once()
        _compile_app_scripts_once()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    _temporary_folders_in_memory()
    import compileall  # noqa: PLC0415

    root = Path(__file__).resolve().parent.parent
    compileall.compile_dir(str(root / "toolsearch"), quiet=2, workers=1)
    if getattr(config.option, "tx", None):
        _rewrite_test_modules_once(config)
        _one_share_of_the_cpus_per_worker(len(config.option.tx))


#: The memory-backed folder the tests' temporary folders go to when it has room, and the room it must have.
MEMORY_FOLDER = Path("/dev/shm")
MEMORY_FOLDER_ROOM = 2 * 1024 ** 3


def _temporary_folders_in_memory() -> None:
    """Put pytest's temporary folders (``tmp_path``; the xdist workers take theirs under the main
    process's) in the machine's memory-backed folder (:data:`MEMORY_FOLDER`) when it has room,
    unless a folder was chosen (``--basetemp``, ``PYTEST_DEBUG_TEMPROOT``, ``TMPDIR``). The files
    are the same and are written by the same code; only ``fsync`` is no longer a wait for the disk.
    On the 2-CPU test machine a Hermes store of 1,000 sessions written by Hermes' own writer (one
    committed transaction per message) took 12.5 s on disk and 0.85 s there, and the suite writes
    dozens of such stores, git repositories and a wheel's virtual environment. pytest's own naming
    and clean-up (``pytest-of-USER/pytest-N``, the last three runs kept) are unchanged."""
    if any(os.environ.get(name) for name in ("PYTEST_DEBUG_TEMPROOT", "TMPDIR")):
        return
    try:
        room = os.statvfs(MEMORY_FOLDER)
    except OSError:
        return
    if room.f_bavail * room.f_frsize >= MEMORY_FOLDER_ROOM and os.access(MEMORY_FOLDER, os.W_OK | os.X_OK):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(MEMORY_FOLDER)


def _one_share_of_the_cpus_per_worker(workers: int) -> None:
    """Give each worker's math libraries (PyTorch's and NumPy's thread pools, which read
    ``OMP_NUM_THREADS``) its share of the CPUs instead of all of them, unless the variable is set
    already. The workers (and the processes they start) inherit it. With four workers on two CPUs,
    each worker's PyTorch ran two threads that waited for each other's CPU by spinning:
    ``tests/test_variant_semantic.py`` alone took 53 s of CPU with two threads and 37 s with one,
    its tests passing either way."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    os.environ.setdefault("OMP_NUM_THREADS", str(max(1, cpus // workers)))


def _rewrite_test_modules_once(config) -> None:
    """Write pytest's assertion-rewritten code of every test module (and this file) to its cache,
    once, before the workers start. With ``PYTHONDONTWRITEBYTECODE`` set (as on the CI machine)
    pytest reads that cache but never writes it, so each worker rewrote every test module's asserts
    again while collecting (about 6 s of CPU apiece, two thirds of a worker's collection). The
    cache is pytest's own (checked against each file's size and time, named for the pytest
    version), so a worker that finds a file changed since rewrites it as before."""
    from _pytest.assertion import rewrite  # noqa: PLC0415

    state = config.stash.get(rewrite.assertstate_key, None)
    if state is None:  # --assert=plain
        return
    tests = Path(__file__).resolve().parent
    for path in sorted(tests.glob("test_*.py")) + [tests / "conftest.py"]:
        cache = rewrite.get_cache_dir(path)
        pyc = cache / (path.name[:-3] + rewrite.PYC_TAIL)
        if rewrite._read_pyc(path, pyc) is not None or not rewrite.try_makedirs(cache):
            continue
        source_stat, code = rewrite._rewrite_test(path, config)
        rewrite._write_pyc(state, code, source_stat, pyc)


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject.toml): one worker per CPU plus two. The real-browser, installed-wheel
    and live-server groups and the command-line tests mostly wait (for Chromium, the app, a
    server's answer, a child process, a timeout): with one worker per CPU plus one, the 2-CPU
    machine kept about two thirds of its CPU time busy (12 min 24 s for 16 min 42 s of CPU time);
    two runs with a fourth worker took 11 min 05 s and 12 min 50 s (times on that machine vary by
    a minute or more from run to run). ``PYTEST_XDIST_AUTO_NUM_WORKERS=N`` sets the number
    (xdist's own reading), ``-n N`` too."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist reads it
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cpus + 2


#: xdist groups that take minutes on the CI machine (2 CPUs), longest first. ``--dist loadgroup``
#: hands groups out in the order of the collection (``--no-loadscope-reorder`` in pyproject.toml), so
#: these start at once, one per worker, and the many short groups fill in around them; handed out
#: late (xdist's default order is by test count), one of them ran on alone at the end of the run.
LONG_GROUPS = ("browser", "browser-layout", "tests/test_live.py", "tests/test_variant_semantic.py",
               "tests/test_secret_forms.py", "wheel")

#: The real-browser test files that make the second browser group (``browser-layout``: the layout
#: checks at 1024 and 1400 px, the charts and the Compare page), about half of the browser tests'
#: time: one group of them all, run in turn on one worker, was the run's longest (about as long as
#: the rest of the suite on the other workers). Each group has its own app and Chromium on its own worker.
BROWSER_LAYOUT_FILES = ("test_browser_layout.py", "test_browser_identifiers.py", "test_browser_charts.py",
                        "test_browser_compare.py")

#: The test files that use the installed wheel (:func:`installed_wheel`): one group, so one
#: worker builds and installs the wheel once for all of them.
WHEEL_FILES = ("test_wheel_app.py", "test_wheel_cli.py")


def xdist_group_of(item) -> str:
    """The xdist group of a test: ``wheel`` for the installed-wheel tests (:data:`WHEEL_FILES`: one
    wheel built and installed for them all, :func:`installed_wheel`); ``browser-layout`` and
    ``browser`` for the other real-browser tests (:data:`BROWSER_LAYOUT_FILES` and the rest): the
    tests of a group share one app and one Chromium on one worker and run in turn, and the two
    groups run side by side; else the test's file, so a file's module fixtures are built once."""
    if item.path.name in WHEEL_FILES:
        return "wheel"
    if item.get_closest_marker("browser"):
        return "browser-layout" if item.path.name in BROWSER_LAYOUT_FILES else "browser"
    return item.nodeid.split("::")[0]


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the xdist_group marks into the node ids
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (``-n``, on by default in pyproject.toml) every test gets its group
    (:func:`xdist_group_of`); on a worker, the collection is ordered so the long groups
    (:data:`LONG_GROUPS`) come first, then the others by decreasing test count (xdist's own order),
    each group's tests together and in their collected order."""
    groups = {}
    for item in items:
        groups[item.nodeid] = xdist_group_of(item)
        item.add_marker(pytest.mark.xdist_group(groups[item.nodeid]))
    if os.environ.get("PYTEST_XDIST_WORKER"):
        sizes: dict[str, int] = {}
        first: dict[str, int] = {}
        for index, group in enumerate(groups.values()):
            sizes[group] = sizes.get(group, 0) + 1
            first.setdefault(group, index)

        def rank(item) -> tuple[int, int, int]:
            group = groups[item.nodeid]
            if group in LONG_GROUPS:
                return (LONG_GROUPS.index(group), 0, 0)
            return (len(LONG_GROUPS), -sizes[group], first[group])

        items.sort(key=rank)  # stable: within a group the collected order stays


@pytest.fixture
def fc() -> list[RegisteredTool]:
    return fc_tools()


@pytest.fixture
def mq() -> list[RegisteredTool]:
    return mq_tools()


@pytest.fixture(scope="session")
def profile():
    return default_profile()


# --- the app, started as a user starts it (browser tests) ------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on at ``host`` right now."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


@contextmanager
def streamlit_app(*, address: str = "127.0.0.1", port: int | None = None, url_host: str | None = None,
                  log: Path | None = None, env: dict[str, str] | None = None,
                  seconds: float = 60) -> Iterator[tuple[subprocess.Popen, str]]:
    """``streamlit run app.py`` (headless, from the repository root) listening on ``address``;
    yields ``(process, url)`` once ``/_stcore/health`` answers, with the URL on ``url_host``
    (default: ``address``), and stops the app afterwards. The app's terminal output goes to
    ``log`` (else it is discarded)."""
    port = port or free_port(address)
    streamlit = shutil.which("streamlit", path=str(Path(sys.executable).parent)) or "streamlit"
    out = open(log, "wb") if log is not None else subprocess.DEVNULL  # noqa: SIM115 - closed below
    proc = subprocess.Popen([streamlit, "run", str(ROOT / "app.py"), "--server.headless", "true",
                             "--server.address", address, "--server.port", str(port),
                             "--browser.gatherUsageStats", "false"],
                            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://{url_host or address}:{port}"
    try:
        deadline = time.time() + seconds
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"streamlit exited with status {proc.returncode}")
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                if time.time() > deadline:
                    raise RuntimeError(f"streamlit did not start within {seconds:g} s") from None
                time.sleep(0.3)
        yield proc, url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if log is not None:
            out.close()


class _Shared:
    """One running instance of something costly to start (an app, a browser), shared by the tests
    that follow each other on a test process: started by the first test that asks for it, stopped
    when the next test (from another group) does not need it (:func:`pytest_runtest_teardown`)."""

    def __init__(self, fixture: str, start) -> None:
        self.fixture, self._start = fixture, start
        self._stack: ExitStack | None = None
        self.value: Any = None

    def get(self) -> Any:
        if self._stack is None:
            stack = ExitStack()
            try:
                self.value = self._start(stack)
            except BaseException:
                stack.close()
                raise
            self._stack = stack
        return self.value

    def stop(self) -> None:
        stack, self._stack, self.value = self._stack, None, None
        if stack is not None:
            stack.close()


def _start_app(stack: ExitStack) -> str:
    _, url = stack.enter_context(streamlit_app())
    return url


CHROMIUM = "/usr/bin/chromium"
#: Chromium's command-line switches for the tests: headless on a CI machine, no background traffic.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _start_chromium(stack: ExitStack):
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            raise RuntimeError(f"CI must have Debian's chromium at {CHROMIUM} (.ci/run installs it)")
        pytest.skip(f"Debian's chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    pw = stack.enter_context(sync_api.sync_playwright())
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    stack.callback(browser.close)
    return browser


_SHARED = (_Shared("app_url", _start_app), _Shared("chromium_browser", _start_chromium))


@pytest.fixture(scope="module")
def app_url():
    """The URL of ``streamlit run app.py`` on 127.0.0.1, shared by the test modules of a group
    (each browser page opens its own Streamlit session; the app's caches are shared, as they are
    between a real app's users): no server start and cold first run of every page per module."""
    return _SHARED[0].get()


@pytest.fixture(scope="module")
def chromium_browser():
    """Debian's Chromium driven by Playwright, shared by the test modules of a group: tests open
    their own context (``browser.new_context()``) and close it, never the browser. Stopped before
    a test of another group that does not use it runs, since a running Playwright sync API stops
    ``asyncio.run`` (and anyio) from working in that thread."""
    return _SHARED[1].get()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After a test's fixtures are torn down: stop the shared app and browser when the next test is
    in another xdist group (:func:`xdist_group_of`) and does not use them, or there is none. (A
    group's tests run one after another on one worker; between groups, the module fixtures that
    held browser contexts are already torn down.)"""
    result = yield
    if nextitem is None or xdist_group_of(nextitem) != xdist_group_of(item):
        for shared in _SHARED:
            if nextitem is None or shared.fixture not in getattr(nextitem, "fixturenames", ()):
                shared.stop()
    return result


def pytest_sessionfinish(session, exitstatus):
    """A run that stops early (``-x``, Ctrl-C) stops the shared app and browser too."""
    for shared in _SHARED:
        shared.stop()


# --- CLI -----------------------------------------------------------------------------------

def toolsearch_command() -> list[str]:
    """The installed console script next to this interpreter, else ``python -m toolsearch``."""
    script = Path(sys.executable).with_name("toolsearch")
    return [str(script)] if script.exists() else [sys.executable, "-m", "toolsearch"]


def run_cli_process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``toolsearch ARGS`` as its own process (the console script) and capture text output
    (never raises on a non-zero status). For what only a process shows: live servers and their
    stderr, signals, the bytes written to the terminal, secrets in any stream."""
    return subprocess.run([*toolsearch_command(), *map(str, args)], capture_output=True, text=True,
                          encoding="utf-8", cwd=cwd, timeout=120)


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``toolsearch ARGS`` through the console script's entry point
    (:func:`toolsearch.cli.commands.main`) in this process, and capture text output as
    :func:`run_cli_process` does: the same argument parsing, output, exit status (argparse's
    ``SystemExit`` included) and universal newlines, and an uncaught exception becomes a traceback
    on stderr and status 1, as the interpreter would print it. Without a new interpreter per run,
    hundreds of CLI tests cost a fraction of the CPU. ``toolsearch app`` always runs as a process."""
    argv = [str(a) for a in args]
    if argv[:1] == ["app"]:
        return run_cli_process(*argv, cwd=cwd)
    import io  # noqa: PLC0415
    import traceback  # noqa: PLC0415

    from toolsearch.cli import commands  # noqa: PLC0415

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True)
    streams, here, columns = (sys.stdout, sys.stderr), os.getcwd(), os.environ.get("COLUMNS")
    os.environ.setdefault("COLUMNS", "80")  # argparse's width, as in a process with no terminal
    sys.stdout, sys.stderr = out, err
    try:
        if cwd is not None:
            os.chdir(cwd)
        try:
            status = commands.main(argv)
        except SystemExit as stop:
            status = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
            if not isinstance(stop.code, (int, type(None))):
                print(stop.code, file=sys.stderr)
        except Exception:  # noqa: BLE001 - what the interpreter would print, and its status
            traceback.print_exc(file=sys.stderr)
            status = 1
    finally:
        sys.stdout, sys.stderr = streams
        os.chdir(here)
        if columns is None:
            os.environ.pop("COLUMNS", None)

    def text(stream: io.TextIOWrapper) -> str:
        stream.flush()
        return stream.buffer.getvalue().decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")

    return subprocess.CompletedProcess([*toolsearch_command(), *argv], status, text(out), text(err))


def write_yaml(path: Path, data: Any) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


# --- literal-text tables (toolsearch/ui/tables.py) -------------------------------------------------------

def literal_tables(at) -> dict[str, Any]:
    """``{data-table key: DataFrame of the cell texts as shown}`` for every table that
    ``pages.tables.literal_table`` rendered in an AppTest run (HTML unescaped, so a value is
    exactly the text a reader sees, e.g. ``"1,473"`` or ``"0.533"``)."""
    from html.parser import HTMLParser

    import pandas as pd

    class _Parser(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.tables: dict[str, list[list[str]]] = {}
            self.key: str | None = None
            self.row: list[str] | None = None
            self.cell: list[str] | None = None

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if tag == "div" and "data-table" in attrs:
                self.key = attrs["data-table"]
                self.tables[self.key] = []
            elif tag == "tr" and self.key is not None:
                self.row = []
            elif tag in ("td", "th") and self.row is not None:
                self.cell = []
                if "colspan" in attrs:  # a title row over the header (the heat tables): not a row of cells
                    self.row = self.cell = None

        def handle_endtag(self, tag):
            if tag in ("td", "th") and self.cell is not None and self.row is not None:
                self.row.append("".join(self.cell))
                self.cell = None
            elif tag == "tr" and self.row is not None and self.key is not None:
                self.tables[self.key].append(self.row)
                self.row = None
            elif tag == "table":
                self.key = None

        def handle_data(self, data):
            if self.cell is not None:
                self.cell.append(data)

    parser = _Parser()
    for element in at.html:
        parser.feed(element.value)
    return {key: pd.DataFrame(rows[1:], columns=rows[0]) for key, rows in parser.tables.items() if rows}


def heat_cells(at, key: str) -> list[dict[str, str]]:
    """The cells of the heat table ``key`` (``pages.tables.form_grid_html``) in an AppTest run, in
    reading order: each cell's attributes (``data-form``, ``data-context-length``, ``data-y``,
    ``style``, ``class``, ``title``…) plus its ``text``. Empty when the table is not on the page."""
    from html.parser import HTMLParser

    class _Parser(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.inside = False
            self.cells: list[dict[str, str]] = []
            self.cell: dict[str, str] | None = None

        def handle_starttag(self, tag, attrs):
            attrs = {k: v or "" for k, v in attrs}
            if tag == "div" and "data-table" in attrs:
                self.inside = attrs["data-table"] == key
            elif tag == "td" and self.inside and "data-form" in attrs:
                self.cell = {**attrs, "text": ""}

        def handle_endtag(self, tag):
            if tag == "td" and self.cell is not None:
                self.cells.append(self.cell)
                self.cell = None
            elif tag == "table":
                self.inside = False

        def handle_data(self, data):
            if self.cell is not None:
                self.cell["text"] += data

    parser = _Parser()
    for element in at.html:
        parser.feed(element.value)
    return parser.cells


# --- the installed wheel ------------------------------------------------------------------------

#: What a source distribution holds (MANIFEST.in): the files and the folders the build reads.
WHEEL_BUILD_INPUTS = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md")
WHEEL_BUILD_TREES = ("toolsearch", "sample_catalogs", "sample_sessions", "sample_skills", "docs")


def clean_env() -> dict[str, str]:
    """This environment without anything that would put the checkout on a new interpreter's path."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


def _must_run(command: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=600, **kwargs)
    assert done.returncode == 0, f"{command}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="session")
def installed_wheel(tmp_path_factory) -> Path:
    """The ``bin`` folder of a fresh virtual environment with a wheel of this checkout installed
    (not editable), built once per worker (the ``wheel`` group keeps its files on one worker).

    Offline: the wheel is built without build isolation from a copy of what a source distribution
    holds, and the new environment reuses this interpreter's installed dependencies through a
    ``.pth`` line (plain path entries: its .pth files, an editable install of this checkout, are
    not processed), so the checkout is never on the new interpreter's path."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in WHEEL_BUILD_INPUTS:
        shutil.copy2(ROOT / name, src / name)
    for name in WHEEL_BUILD_TREES:
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    _must_run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
               "--wheel-dir", tmp / "dist", src], env=clean_env())
    wheels = sorted((tmp / "dist").glob("toolsearch-*.whl"))
    assert len(wheels) == 1, wheels
    venv = tmp / "venv"
    _must_run([sys.executable, "-m", "venv", "--without-pip", venv])
    python = venv / "bin" / "python"
    purelib = Path(_must_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             env=clean_env()).stdout.strip())
    (purelib / "zz_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    _must_run([python, "-m", "pip", "install", "--no-deps", "--no-index", "--no-warn-script-location", wheels[0]],
              env=clean_env())
    return venv / "bin"


def timed_out(budget: str, phase: str) -> str:
    """A regular expression for a live server's timeout reason: ``no answer within BUDGET s while
    PHASE (timeout)``, with the time stopping the server took when it was noticeable
    (``(timeout; stopping the server took 2.03 s more)``, toolsearch.live.client.timeout_words)."""
    return (rf"no answer within {re.escape(budget)} s while {phase} "
            r"\(timeout(?:; stopping the server took \d+\.\d\d s more)?\)")
