"""A shipped sample named without its folder, or misspelt under it, was "cannot read file (No such
file or directory)": the README calls it the team-workspace catalog, and a user who types that name
learns nothing of where it is. The error says the path that reads it, or the nearest shipped name."""

from __future__ import annotations

import pytest

from conftest import run_cli


@pytest.mark.parametrize("args, line", [
    (("plan", "team-workspace.yaml"),
     "team-workspace.yaml: no such file in this folder; the shipped sample of that name is "
     "sample_catalogs/team-workspace.yaml (that path reads it from any folder)"),
    (("sessions", "state.db", "--catalog", "sample_catalogs/team-workspace.yaml"),
     "state.db: no such file in this folder; the shipped sample of that name is sample_sessions/state.db "
     "(that path reads it from any folder)"),
    (("plan", "sample_catalogs/team-workspac.yaml"),
     "sample_catalogs/team-workspac.yaml: no such file here, and no shipped sample of that name; did you mean "
     "sample_catalogs/team-workspace.yaml?"),
    (("recommend", "sample_catalogs/five-servers.yaml", "--context-lengths", "32k", "--goal", "names",
      "--sessions", "sample_sessions/stat.db"),
     "sample_sessions/stat.db: no such file here, and no shipped sample of that name; did you mean "
     "sample_sessions/state.db?"),
    # eval's query file (the last file, or --test/--tune) is looked up among the shipped query files,
    # which share their catalogs' names: the catalog of that name would be read as queries and refused
    (("eval", "sample_catalogs/team-workspace.yaml", "team-workspace.yaml"),
     "team-workspace.yaml: no such file in this folder; the shipped query file of that name is "
     "sample_catalogs/queries/team-workspace.yaml (that path reads it from any folder)"),
    (("eval", "sample_catalogs/team-workspace.yaml", "--test", "team-workspace-agent.yaml"),
     "team-workspace-agent.yaml: no such file in this folder; the shipped query file of that name is "
     "sample_catalogs/queries/team-workspace-agent.yaml (that path reads it from any folder)"),
    (("eval", "team-workspace.yaml", "sample_catalogs/queries/team-workspace.yaml"),
     "team-workspace.yaml: no such file in this folder; the shipped sample of that name is "
     "sample_catalogs/team-workspace.yaml (that path reads it from any folder)"),
])
def test_a_misnamed_sample_says_where_the_sample_is(args, line, tmp_path):
    done = run_cli(*args, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines()[-1] == f"toolsearch: error: {line}"


def test_other_missing_files_and_tool_names_keep_their_own_messages(tmp_path):
    done = run_cli("plan", "nothing.yaml", cwd=tmp_path)
    assert done.stderr.strip() == "toolsearch: error: nothing.yaml: cannot read file (No such file or directory)"
    # describe's words after the catalog are tool names, not files: one named like a sample is looked up
    done = run_cli("describe", "sample_catalogs/five-servers.yaml", "README.md", "--json", cwd=tmp_path)
    assert done.returncode == 1 and "no such file" not in done.stderr
