"""docs/ci.md "Known requests still find their tool": the shell lines the page gives run as written
on the shipped team-workspace catalog and its query file, fail (exit 1) and name the task the page
names; with that task's query file fixed to what the search finds, they pass."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
import yaml

from conftest import toolsearch_command

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
SECTION = DOC.split("## Known requests still find their tool", 1)[1].split("\n## ", 1)[0]
SCRIPT = re.search(r"```bash\n(.*?)```", SECTION, re.DOTALL).group(1)

pytestmark = pytest.mark.skipif(shutil.which("jq") is None, reason="the page's lines use jq")


def _run(folder: Path) -> subprocess.CompletedProcess:
    bin_dir = folder / "bin"
    bin_dir.mkdir(exist_ok=True)
    shim = bin_dir / "toolsearch"  # the command the page runs: this checkout's, whatever is on PATH
    shim.write_text("#!/bin/sh\nexec " + " ".join(f"'{part}'" for part in toolsearch_command()) + ' "$@"\n')
    shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(["bash", "-e", "-c", SCRIPT], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=300)


def test_the_search_guard_fails_on_the_shipped_samples_and_names_the_task(tmp_path: Path) -> None:
    shutil.copy(ROOT / "sample_catalogs" / "team-workspace.yaml", tmp_path / "catalog.yaml")
    shutil.copy(ROOT / "sample_catalogs" / "queries" / "team-workspace.yaml", tmp_path / "queries.yaml")
    done = _run(tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stdout == "requests whose tools the search no longer finds:\ntask failed-ci-logs\n"
    assert "`failed-ci-logs`" in SECTION


def test_the_search_guard_passes_when_every_request_finds_its_tool(tmp_path: Path) -> None:
    shutil.copy(ROOT / "sample_catalogs" / "team-workspace.yaml", tmp_path / "catalog.yaml")
    queries = yaml.safe_load((ROOT / "sample_catalogs" / "queries" / "team-workspace.yaml").read_text(encoding="utf-8"))
    queries["tasks"] = [t for t in queries["tasks"] if t["id"] != "failed-ci-logs"]
    (tmp_path / "queries.yaml").write_text(yaml.safe_dump(queries), encoding="utf-8")
    done = _run(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == "" and (tmp_path / "missed.txt").read_text() == ""
    # and an abstention request that starts finding something fails it too
    queries["tasks"].append({"id": "abstain-now-found", "queries": ["create a github issue"], "expected": []})
    (tmp_path / "queries.yaml").write_text(yaml.safe_dump(queries), encoding="utf-8")
    done = _run(tmp_path)
    assert done.returncode == 1 and done.stdout.endswith("\ntask abstain-now-found\n"), done.stdout + done.stderr


def test_a_task_id_from_the_pull_request_starts_no_line(tmp_path: Path) -> None:
    shutil.copy(ROOT / "sample_catalogs" / "team-workspace.yaml", tmp_path / "catalog.yaml")
    queries = {"tasks": [{"id": "::error::forged", "queries": ["zebra migration"], "expected": ["mcp__github__create_issue"]}]}
    (tmp_path / "queries.yaml").write_text(yaml.safe_dump(queries), encoding="utf-8")
    done = _run(tmp_path)
    assert done.returncode == 1
    assert done.stdout == "requests whose tools the search no longer finds:\ntask ::error::forged\n"
