"""docs/ci.md "A GitHub Actions job", run as the job would: each ``run:`` step in ``bash -e``, in a
git repository with a catalog and a config on a base branch and a pull request on top. The job
passes when the catalog keeps its goal, fails its gate step when a server collapses (the costs and
report steps still run), and runs on the pull request that adds the catalog. The install step
installs the wheel the page says to build (toolsearch is not on a public package index)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
JOB_TEXT = DOC.split("## A GitHub Actions job", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
STEPS = yaml.safe_load(JOB_TEXT)["jobs"]["disclosure"]["steps"]
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
LENGTHS = "32k,128k,200k,1m"


def _version() -> str:
    return re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(encoding="utf-8"), re.M)[1]


def test_the_job_installs_the_wheel_the_page_says_to_build():
    """``pip install toolsearch`` found nothing (no public index has it): the job installs the wheel
    kept in the repository, named as ``pip wheel`` names this version's wheel."""
    installs = [s["run"] for s in STEPS if "run" in s and s["run"].startswith("pip install")]
    assert installs == [f"pip install tools/toolsearch-{_version()}-py3-none-any.whl"]
    assert "pip wheel --no-deps --wheel-dir /path/to/harness/tools ." in DOC


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=ci", "-c", "user.email=ci@example.invalid", *args], cwd=repo,
                   check=True, capture_output=True)


def _run_job(repo: Path, tmp: Path, logs: list[str] | None = None) -> tuple[list[int], str]:
    """Run the job's ``run:`` steps but the install as GitHub Actions does on Ubuntu (``bash -e``,
    ``${{ github.base_ref }}`` filled in, ``if: always()`` steps run after a failure, the others not).
    Returns the exit status of each step run and the job summary; each step's standard output is
    added to ``logs`` (the step's log, which the runner reads for workflow commands)."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "toolsearch"  # the installed console script, on this checkout
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m toolsearch "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    runner_temp = tmp / "runner"
    runner_temp.mkdir()
    summary = tmp / "summary.md"
    summary.touch()
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(ROOT),
           "RUNNER_TEMP": str(runner_temp), "GITHUB_STEP_SUMMARY": str(summary), "NO_COLOR": "1"}
    statuses: list[int] = []
    for step in STEPS:
        if "run" not in step or step["run"].startswith("pip install"):
            continue
        if statuses and statuses[-1] != 0 and step.get("if") != "always()":
            continue
        script = step["run"].replace("${{ github.base_ref }}", "main")
        done = subprocess.run(["bash", "-e", "-c", script], cwd=repo, env=env, capture_output=True, text=True,
                              timeout=300)
        assert "Traceback" not in done.stderr, done.stderr
        statuses.append(done.returncode)
        if logs is not None:
            logs.append(done.stdout)
    return statuses, summary.read_text(encoding="utf-8")


def _repo(tmp: Path, base_has_catalog: bool) -> Path:
    """A harness repository: ``config.yaml`` from ``recommend --yaml`` (names at every length the
    job serves) and ``catalog.yaml`` on ``main`` (or only on the pull request), ``origin/main`` as
    actions/checkout leaves it, and the pull request's branch checked out."""
    repo = tmp / "harness"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    block = run_cli("recommend", TEAM, "--context-lengths", LENGTHS, "--goal", "names", "--headroom", "10", "--yaml")
    assert block.returncode == 0, block.stderr
    (repo / "config.yaml").write_text(block.stdout, encoding="utf-8")
    if base_has_catalog:
        shutil.copy(TEAM, repo / "catalog.yaml")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    _git(repo, "checkout", "-q", "-b", "pull-request")
    shutil.copy(TEAM, repo / "catalog.yaml")
    return repo


def _add_tools(catalog: Path, server: str, count: int) -> None:
    data = yaml.safe_load(catalog.read_text(encoding="utf-8"))
    tools = next(s for s in data["servers"] if s["name"] == server)["tools"]
    tools += [{"name": f"export_repository_report_{i}", "description": f"Export report {i} of a repository.",
               "inputSchema": {"type": "object", "properties": {}}} for i in range(count)]
    catalog.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


@pytest.mark.parametrize("base_has_catalog", [True, False], ids=["catalog-on-base", "pull-request-adds-it"])
def test_the_job_passes_an_unchanged_catalog(tmp_path, base_has_catalog):
    repo = _repo(tmp_path, base_has_catalog)
    statuses, summary = _run_job(repo, tmp_path)
    assert statuses == [0, 0, 0]
    assert summary.startswith("### toolsearch check passed: every server at names or better")
    assert (repo / "costs.csv").is_file() and (repo / "report.html").is_file()


def test_the_job_fails_its_gate_when_a_server_collapses(tmp_path):
    repo = _repo(tmp_path, True)
    _add_tools(repo / "catalog.yaml", "github", 60)
    logs: list[str] = []
    statuses, summary = _run_job(repo, tmp_path, logs)
    assert statuses == [0, 1, 0]  # the costs and report still run, as "if: always()"
    assert summary.startswith("### toolsearch check failed")
    assert "github" in summary and (repo / "report.html").is_file()
    # the gate step's log: annotations on the catalog, one for the goal and one for what got worse
    gate = logs[1].splitlines()
    titles = [line.split("::", 2)[1] for line in gate if line.startswith("::error ")]
    assert "error title=toolsearch check%3A goal missed,file=catalog.yaml" in titles
    assert "error title=toolsearch check%3A worse than the baseline,file=catalog.yaml" in titles
    assert gate[-1].startswith("toolsearch check failed (")


def test_the_job_shows_what_a_config_change_does_against_the_base_branch(tmp_path):
    """A pull request that only lowers ``listing_max_tokens`` in ``config.yaml`` (the catalog is
    unchanged): the gate fails, and the table's baseline column compares with the base branch's
    settings, so it says what the listing lost and that the prompt cache breaks, not "identical
    tools array"."""
    repo = _repo(tmp_path, True)
    config = repo / "config.yaml"
    block = yaml.safe_load(config.read_text(encoding="utf-8"))
    before = block["tools"]["tool_search"]["listing_max_tokens"]
    block["tools"]["tool_search"]["listing_max_tokens"] = 1200
    config.write_text(yaml.safe_dump(block), encoding="utf-8")
    statuses, summary = _run_job(repo, tmp_path)
    assert statuses == [0, 1, 0]
    assert f"(baseline: threshold_pct 5.1%, listing_max_tokens {before:,})" in summary
    rows = [line for line in summary.splitlines() if line.startswith("| 32K ")]
    assert len(rows) == 1 and "identical tools array" not in rows[0], summary
    assert "tier 1 names → tier 1 mixed" in rows[0] and f"listing\\_max\\_tokens {before:,} → 1,200" in rows[0], rows[0]


@pytest.mark.live
def test_the_catalog_the_page_says_to_snapshot_from_the_harness_config_passes_the_job(tmp_path):
    """The page says where ``catalog.yaml`` comes from: ``toolsearch snapshot config.yaml -o
    catalog.yaml`` on the harness config (its ``mcp_servers``). Run on a Hermes config whose one
    server is a real stdio MCP server, the snapshot is a catalog the job's gate passes; with a
    second server that cannot start, the snapshot records it and the gate refuses it (exit 2)."""
    command = DOC.split("## A GitHub Actions job", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0].strip()
    assert command == "toolsearch snapshot config.yaml -o catalog.yaml"
    server = ROOT / "tests" / "mcp_test_server.py"
    repo = tmp_path / "harness"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    config = {"mcp_servers": {"local": {"command": sys.executable, "args": [str(server), "--name", "local"]}},
              "tools": {"tool_search": {"threshold_pct": 5, "listing_max_tokens": 4000}}}
    (repo / "config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    done = run_cli(*shlex.split(command)[1:], cwd=repo)
    assert done.returncode == 0, done.stderr
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    _git(repo, "checkout", "-q", "-b", "pull-request")
    statuses, summary = _run_job(repo, tmp_path)
    assert statuses == [0, 0, 0], summary
    assert summary.startswith("### toolsearch check passed: every server at names or better")
    config["mcp_servers"]["gone"] = {"command": "toolsearch-no-such-command-xyz"}
    (repo / "config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    assert run_cli(*shlex.split(command)[1:], cwd=repo).returncode == 1  # written, with the failure recorded
    gate = run_cli("check", "catalog.yaml", "--config", "config.yaml", "--context-lengths", LENGTHS, "--goal", "names",
                   cwd=repo)
    assert gate.returncode == 2 and "1 server did not list its tools when the snapshot was taken (gone" in gate.stderr


def test_a_pull_request_that_breaks_the_catalog_or_filters_a_server_is_annotated(tmp_path):
    """Two ways a pull request can leave the gate nothing true to judge: a ``catalog.yaml`` that no
    longer parses, and a ``config.yaml`` that now leaves a tool of a catalog server out (the catalog
    not snapshotted again). The gate step exits 2 in both, and its log holds one ``::error`` saying
    why (it held none: the pull request showed a red step and no reason); the job summary gets no
    table but the same reason under a "did not run" heading (it was empty), and the costs and report
    steps still run."""
    for part in ("a", "b"):
        (tmp_path / part).mkdir()
    repo = _repo(tmp_path / "a", True)
    (repo / "catalog.yaml").write_text("servers:\n  - name: github\n    tools: [\n", encoding="utf-8")
    logs: list[str] = []
    statuses, summary = _run_job(repo, tmp_path / "a", logs)
    assert statuses[:2] == [0, 2]
    assert summary == ("### toolsearch check did not run (exit 2)\n\n- error: catalog.yaml: line 4, column 1: not valid "
                       "YAML or JSON (expected the node content, but found '\\<stream end\\>')\n")
    assert logs[1] == ("::error title=toolsearch check%3A bad input::catalog.yaml: line 4, column 1: not valid YAML "
                       "or JSON (expected the node content, but found '<stream end>')\n")

    repo = _repo(tmp_path / "b", True)
    config = repo / "config.yaml"
    config.write_text("mcp_servers:\n  github:\n    command: npx\n    tools: {exclude: [create_issue]}\n"
                      + config.read_text(encoding="utf-8"), encoding="utf-8")
    logs = []
    statuses, summary = _run_job(repo, tmp_path / "b", logs)
    assert statuses == [0, 2, 0]
    lines = summary.splitlines()
    # the warnings the error points at ("the warnings above say how"), then the error
    assert lines[:2] == ["### toolsearch check did not run (exit 2)", ""], lines
    assert all(line.startswith("- warning: ") for line in lines[2:-1]), lines
    assert any(line.startswith("- warning: config.yaml sets up 1 MCP server otherwise than the catalog")
               for line in lines[2:-1]), lines
    assert lines[-1].startswith("- error: check --strict: config.yaml and the catalog disagree about MCP servers"), lines
    assert logs[1].startswith("::error title=toolsearch check%3A bad input::check --strict: config.yaml and the catalog "
                              "disagree about MCP servers (set up otherwise: 'github': tools.exclude;"), logs[1]


def test_a_pull_request_that_turns_the_catalog_into_a_client_config_starts_nothing(tmp_path):
    """The catalog replaced by an ``mcpServers`` map whose server would write a file when started:
    the gate (``--strict``) and the steps that run after it (``--no-servers``) each refuse the file,
    exit 2, and no step starts the program."""
    repo = _repo(tmp_path, True)
    marker = tmp_path / "started.txt"
    program = {"command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w').write('started')"]}
    (repo / "catalog.yaml").write_text(yaml.safe_dump({"mcpServers": {"pr": program}}), encoding="utf-8")
    statuses, _ = _run_job(repo, tmp_path)
    assert statuses == [0, 2, 2]  # the baseline step, the gate, the costs and report step
    assert not marker.exists()
    assert not (repo / "costs.csv").read_text(encoding="utf-8")  # the shell created it; nothing was written
    assert not (repo / "report.html").exists()
