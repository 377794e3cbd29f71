"""A list option (``--sessions SRC...``, ``sessions --catalog SOURCE...``) takes every file after it
up to the next option. A user who writes the catalog after it gets argparse's bare "the following
arguments are required: SOURCE" although the catalog is right there on the line; the message says
which files the option took and where the missing ones go."""

from __future__ import annotations

import pytest

from conftest import run_cli

CATALOG = "sample_catalogs/team-workspace.yaml"
SESSIONS = "sample_sessions/state.db"


@pytest.mark.parametrize("args, prog, missing, option, taken", [
    (["recommend", "--context-lengths", "32k", "--goal", "names", "--sessions", SESSIONS, CATALOG],
     "recommend", "SOURCE", "--sessions", [SESSIONS, CATALOG]),
    (["report", "--context-lengths", "32k", "--goal", "names", "-o", "x.html", "--sessions", SESSIONS, CATALOG],
     "report", "CATALOG", "--sessions", [SESSIONS, CATALOG]),
    (["sessions", "--catalog", CATALOG, SESSIONS], "sessions", "SESSIONS", "--catalog", [CATALOG, SESSIONS]),
])
def test_a_list_option_that_took_the_files_says_so(args, prog, missing, option, taken, tmp_path):
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == (f"toolsearch {prog}: error: the following arguments are required: {missing}; {option} "
                           f"takes every file after it up to the next option, so it took {', '.join(taken)}: "
                           f"give {missing} before {option}\n")
    assert not (tmp_path / "x.html").exists()


def test_a_missing_file_without_a_list_option_keeps_the_plain_message(tmp_path):
    done = run_cli("recommend", "--context-lengths", "32k", "--goal", "names", "--sessions", SESSIONS, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == ("toolsearch recommend: error: the following arguments are required: SOURCE; expected "
                           "SOURCE: a catalog file (YAML/JSON) or an MCP client config\n")


def test_the_files_given_in_the_right_order_still_run(tmp_path):
    done = run_cli("recommend", CATALOG, "--context-lengths", "32k", "--goal", "names", "--sessions", SESSIONS,
                   cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].startswith("goal: every server at names or better")


def test_a_missing_option_after_a_list_option_is_not_called_a_file(tmp_path):
    """The list option took only session files; what is missing is an option, which it cannot have taken."""
    done = run_cli("recommend", CATALOG, "--goal", "names", "--sessions", SESSIONS, "sample_sessions/trajectory.jsonl",
                   cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == "toolsearch recommend: error: the following arguments are required: --context-lengths\n"
