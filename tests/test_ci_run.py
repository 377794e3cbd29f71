"""``.ci/run`` runs the README's test command exactly as the README gives it, and prints how long
it took against the 12-minute target; the pytest settings hand the longest test groups out first."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

from conftest import LONG_GROUPS

ROOT = Path(__file__).resolve().parent.parent
CI_RUN = ROOT / ".ci" / "run"


def _readme_test_command() -> str:
    """The command in the README's fenced block under "Run the tests"."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"Run the tests:\s*```\w*\n(.+?)\n```", text, re.S)
    assert block, "README.md has no fenced command after 'Run the tests:'"
    return block.group(1).strip()


def test_ci_runs_the_readmes_test_command_and_prints_its_duration(tmp_path):
    command = _readme_test_command()
    assert "python -m pytest" in command
    script = CI_RUN.read_text(encoding="utf-8")
    lines = [line.strip() for line in script.splitlines()]
    runs = [line for line in lines if line.startswith(command)]
    assert len(runs) == 1, f".ci/run does not run the README's command {command!r} exactly once"
    assert runs[0][len(command):].strip() == "|| status=$?"  # the command as is; its status kept
    # The timing lines, run by bash with the command replaced by one that fails after a second.
    start = script.index("started=$SECONDS")
    timing = script[start:].replace(command, "sleep 1 && false")
    done = subprocess.run(["bash", "-c", "set -euo pipefail\n" + timing], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 1, done  # the command's own exit status
    # At least the second slept; under a heavy load the shell may take longer (once 46 s on 2 CPUs).
    assert re.fullmatch(r"tests took 0 min (0[1-9]|[1-5][0-9]) s \(within the 12-minute target\), exit status 1\n",
                        done.stdout), done.stdout


def test_the_long_groups_are_handed_out_in_collection_order():
    addopts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"][
        "ini_options"]["addopts"].split()
    assert {"--dist", "loadgroup", "--no-loadscope-reorder"} <= set(addopts)
    for group in LONG_GROUPS:
        assert group in ("browser", "browser-layout", "wheel") or (ROOT / group).is_file(), group


class _Item:
    """What the collection hook reads of a collected test: its node id, path and marks."""

    def __init__(self, nodeid: str, browser: bool = False) -> None:
        self.nodeid, self.path, self.browser, self.marks = nodeid, ROOT / nodeid.split("::")[0], browser, []

    def get_closest_marker(self, name):
        return object() if name == "browser" and self.browser else None

    def add_marker(self, mark):
        self.marks.append(mark)


def test_on_a_worker_the_long_groups_come_first_then_the_larger_groups(monkeypatch):
    import conftest  # noqa: PLC0415

    items = [_Item("tests/test_a.py::t1"), _Item("tests/test_b.py::t1"), _Item("tests/test_b.py::t2"),
             _Item("tests/test_browser.py::t1", browser=True), _Item("tests/test_secret_forms.py::t1"),
             _Item("tests/test_wheel_app.py::t1", browser=True), _Item("tests/test_browser_x.py::t2", browser=True),
             _Item("tests/test_browser_layout.py::t1", browser=True), _Item("tests/test_live.py::t1"),
             _Item("tests/test_a.py::t0"), _Item("tests/test_wheel_cli.py::t1"),
             _Item("tests/test_browser_charts.py::t1", browser=True)]
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    conftest.pytest_collection_modifyitems(None, items)
    assert [i.nodeid for i in items] == [
        "tests/test_browser.py::t1", "tests/test_browser_x.py::t2", "tests/test_browser_layout.py::t1",
        "tests/test_browser_charts.py::t1", "tests/test_live.py::t1", "tests/test_secret_forms.py::t1",
        "tests/test_wheel_app.py::t1", "tests/test_wheel_cli.py::t1",
        "tests/test_a.py::t1", "tests/test_a.py::t0", "tests/test_b.py::t1", "tests/test_b.py::t2"]
    assert [m.args[0] for m in items[0].marks] == ["browser"]
    # the layout checks and the charts are a browser group of their own, run beside the other one
    assert [m.args[0] for m in items[2].marks] == ["browser-layout"] == [m.args[0] for m in items[3].marks]
    # the installed-wheel tests, browser or not, are one group (one wheel built for them)
    assert [m.args[0] for m in items[6].marks] == ["wheel"] and [m.args[0] for m in items[7].marks] == ["wheel"]
    # Without xdist (no worker), the collected order stays.
    monkeypatch.delenv("PYTEST_XDIST_WORKER")
    plain = [_Item("tests/test_a.py::t1"), _Item("tests/test_browser.py::t1", browser=True)]
    conftest.pytest_collection_modifyitems(None, plain)
    assert [i.nodeid for i in plain] == ["tests/test_a.py::t1", "tests/test_browser.py::t1"]


def test_auto_workers_are_two_more_than_the_cpus_unless_set(monkeypatch):
    import os  # noqa: PLC0415

    import conftest  # noqa: PLC0415

    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    assert conftest.pytest_xdist_auto_num_workers(None) == len(os.sched_getaffinity(0)) + 2
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "2")
    assert conftest.pytest_xdist_auto_num_workers(None) is None  # xdist's own hook reads the variable
