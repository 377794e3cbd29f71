"""A command imports what it uses: ``toolsearch --help`` and the planning commands do not load
numpy, the search's BM25 and stemmer, the evaluation, the lint checks, the strategy model, the
report or the live servers' asyncio, anyio and psutil, which other commands need (each costs a
share of every start, in CI jobs and shells).

Each command runs in a fresh interpreter, as the console script does, and the test reads which
modules it imported; a module-level import of one of these anywhere on the way fails it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CATALOG = str(ROOT / "sample_catalogs" / "team-workspace.yaml")

#: Run the command line in this process with its output discarded, then print the imported modules.
_PROBE = """
import contextlib, io, json, sys
from toolsearch.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        status = main(sys.argv[1:])
    except SystemExit as exc:
        status = exc.code
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""

#: Modules only searching, evaluating, linting, comparing strategies or writing a report need.
SEARCH_AND_ANALYSES = ("numpy", "rank_bm25", "snowballstemmer", "toolsearch.analysis.evaluation",
                       "toolsearch.analysis.lint", "toolsearch.analysis.strategies", "toolsearch.analysis.skills",
                       "toolsearch.analysis.report")
#: What talking to live servers needs (asyncio, anyio, the child-process reaper's psutil): reading
#: catalog files goes through the live client's loader, which imports them only to connect.
LIVE_ONLY = ("asyncio", "anyio", "psutil", "toolsearch.live.reaper")
#: Modules of recommendations, the build gate and recorded sessions, which plan and sweep do not use.
SESSIONS_AND_RECOMMEND = ("toolsearch.analysis.sessions", "toolsearch.analysis.recommend", "toolsearch.analysis.check",
                          "toolsearch.analysis.cachediff")


def imported(*args: str) -> tuple[object, set[str]]:
    """``(exit status, the names of the modules imported)`` of ``toolsearch ARGS`` in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], cwd=ROOT, capture_output=True, text=True,
                          check=True, timeout=120)
    data = json.loads(done.stdout.splitlines()[-1])
    return data["status"], set(data["modules"])


@pytest.mark.parametrize("args, absent", [
    (["--help"], SEARCH_AND_ANALYSES + LIVE_ONLY + SESSIONS_AND_RECOMMEND),
    (["plan", CATALOG], SEARCH_AND_ANALYSES + LIVE_ONLY + SESSIONS_AND_RECOMMEND),
    (["sweep", CATALOG], SEARCH_AND_ANALYSES + LIVE_ONLY + SESSIONS_AND_RECOMMEND),
    (["recommend", CATALOG, "--context-lengths", "32k,200k", "--goal", "names"], SEARCH_AND_ANALYSES + LIVE_ONLY),
    (["check", CATALOG, "--context-lengths", "32k,200k", "--goal", "names"], SEARCH_AND_ANALYSES + LIVE_ONLY),
], ids=["help", "plan", "sweep", "recommend", "check"])
def test_a_command_imports_only_what_it_uses(args, absent):
    status, modules = imported(*args)
    assert status == 0
    assert sorted(modules & set(absent)) == []


def test_the_probe_sees_what_a_command_uses():
    """The same probe on the commands that need them finds them (so the test above can fail)."""
    status, modules = imported("search", CATALOG, "-q", "create issue")
    assert status == 0 and {"numpy", "rank_bm25", "snowballstemmer"} <= modules
    status, modules = imported("lint", CATALOG)
    assert {"toolsearch.analysis.lint", "numpy"} <= modules
