"""The query a search or an explanation is about is one line of the text output, whatever it holds:
a tab, a line break or a terminal control in the query is written as a marker (``⟨U+000A⟩``), the same way by
``search``, ``search --side-by-side`` and ``explain`` under every kind of variant."""

from __future__ import annotations

import pytest

from conftest import run_cli

CATALOG = "sample_catalogs/team-workspace.yaml"
QUERY = "create\tissue\nnow\x1b[31m"
SHOWN = "query: create⟨U+0009⟩issue⟨U+000A⟩now⟨U+001B⟩[31m"


@pytest.mark.parametrize("extra", [
    ("search",), ("search", "--side-by-side"), ("search", "--variant", "anthropic-regex"),
    ("explain",), ("explain", "--variant", "anthropic-regex"), ("explain", "--variant", "evidence"),
])
def test_the_query_line_is_one_line_with_escapes(extra):
    result = run_cli(extra[0], CATALOG, "-q", QUERY, *extra[1:])
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    query_lines = [line for line in lines if line.startswith("query: ")]
    assert query_lines == [SHOWN], lines[:6]
    # nothing of the query starts a line of its own, and no raw control reaches the terminal
    assert not any(line.startswith(("now\x1b", "now⟨U+001B⟩")) for line in lines)
    assert "\x1b" not in result.stdout and "\t" not in result.stdout


@pytest.mark.parametrize("variant", ["reference", "anthropic-regex", "evidence"])
@pytest.mark.parametrize("query", ["", "   ", "\t"])
def test_explain_refuses_a_blank_query_as_tool_search_does(query, variant):
    """tool_search drops a blank query (and answers a call with nothing else with an error), so
    there is nothing to explain: one line on stderr and status 2, not an explanation of a search
    that never runs."""
    result = run_cli("explain", CATALOG, "-q", query, "--variant", variant)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "the query is blank" in result.stderr and "tool_search" in result.stderr


@pytest.mark.parametrize("command", ["describe", "call"])
def test_a_tool_name_too_long_for_a_file_name_is_a_tool_name(command):
    """describe and call take the values after the catalog files as tool names; one too long to be
    a file name (a pasted description, say) is a name not found, not a traceback."""
    name = "x" * 10_000
    result = run_cli(command, CATALOG, name)
    assert "Traceback" not in result.stderr, result.stderr[-400:]
    # describe answers as tool_describe does (the name in not_found) and fails for a script; so does call
    assert result.returncode == 1, (result.returncode, result.stderr[-300:])
    assert name in result.stdout


def test_describe_sent_names_an_unknown_name_on_one_line():
    result = run_cli("describe", CATALOG, "bad\nname\tX", "--sent")
    assert result.returncode == 1
    assert result.stdout.splitlines() == ["bad⟨U+000A⟩name⟨U+0009⟩X: no registered tool has this name"]
