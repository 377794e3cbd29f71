"""``toolsearch recommend --format text|markdown|json|yaml``: one option for the four outputs, as
``check`` and ``lint`` have; ``--json`` and ``--yaml`` stay as its aliases. The markdown is a pull
request comment: the recommendation's lines, the per-length table and the gate line."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
CATALOG = "sample_catalogs/team-workspace.yaml"
ASK = ("recommend", CATALOG, "--context-lengths", "32k,200k,1m", "--goal", "names")


def test_format_names_the_same_outputs_as_the_aliases():
    for fmt, alias in (("json", "--json"), ("yaml", "--yaml")):
        by_format = run_cli(*ASK, "--format", fmt, cwd=ROOT)
        by_alias = run_cli(*ASK, alias, cwd=ROOT)
        assert by_format.returncode == by_alias.returncode == 0, by_format.stderr
        assert by_format.stdout == by_alias.stdout
    text = run_cli(*ASK, "--format", "text", cwd=ROOT)
    assert text.returncode == 0 and text.stdout == run_cli(*ASK, cwd=ROOT).stdout
    # the same format twice is no conflict; two formats are
    same = run_cli(*ASK, "--format", "json", "--json", cwd=ROOT)
    assert same.returncode == 0 and same.stdout == run_cli(*ASK, "--json", cwd=ROOT).stdout
    for extra, words in ((["--format", "markdown", "--json"], "--format markdown and --json: choose one"),
                         (["--format", "yaml", "--json"], "--format yaml and --json: choose one"),
                         (["--json", "--yaml"], "--json and --yaml: choose one")):
        done = run_cli(*ASK, *extra, cwd=ROOT)
        assert done.returncode == 2 and done.stderr.strip() == f"toolsearch: error: recommend: {words}", done.stderr


def test_markdown_is_the_table_and_the_gate_line():
    done = run_cli(*ASK, "--format", "markdown", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    data = json.loads(run_cli(*ASK, "--json", cwd=ROOT).stdout)
    block = run_cli(*ASK, "--yaml", cwd=ROOT).stdout
    lines = done.stdout.splitlines()
    assert lines[0] == f"### toolsearch recommend: {data['goal_words']}, reached at every listed context length"
    assert "- threshold\\_pct: " + repr(float(data["threshold_pct"])) in lines
    assert f"- listing\\_max\\_tokens: {data['listing_max_tokens']}" in lines
    header = "| context_length | budget | tier | listing_form | listing_tokens | servers_named | tools_named |"
    start = lines.index(header)
    assert lines[start + 1] == "|---|---|---|---|---|---|---|"
    rows = lines[start + 2:start + 2 + len(data["contexts"])]
    assert [row.split(" | ")[1:5] for row in rows] == [
        [f"{c['budget']:,}", str(c["tier"]), c["listing_form"], f"{c['listing_tokens']:,}"] for c in data["contexts"]]
    assert [row.split(" | ")[5] for row in rows] == [f"{c['servers_named']}/{c['servers_total']}"
                                                     for c in data["contexts"]]
    # the gate line: the very command the YAML block's '# gate:' comment carries
    gate = next(line for line in block.splitlines() if line.startswith("# gate: "))[len("# gate: "):]
    assert lines[-1] == f"**Gate:** `{gate}`"
    assert gate.startswith("toolsearch check sample_catalogs/team-workspace.yaml --config config.yaml --strict")


def test_markdown_when_the_goal_is_out_of_reach_has_no_gate(tmp_path):
    done = run_cli("recommend", CATALOG, "--context-lengths", "1k", "--goal", "full", "--format", "markdown", cwd=ROOT)
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[0].endswith(", not reached at the context length 1K")
    assert "**Gate:**" not in done.stdout


def test_text_says_the_verdict_and_the_gate_line():
    """The default text output says whether the goal is reached at every listed context length
    (the report's verdict, in the same words) and, when it is, ends with the gate line: the command
    the YAML block's '# gate:' comment and the markdown's **Gate:** line carry."""
    done = run_cli(*ASK, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Reached at every listed context length."
    assert lines[1].startswith("goal: every server at names or better · context lengths 32K, 200K, 1M")
    block = run_cli(*ASK, "--yaml", cwd=ROOT).stdout
    gate = next(line for line in block.splitlines() if line.startswith("# gate: "))[len("# "):]
    assert lines[-1] == gate
    markdown = run_cli(*ASK, "--format", "markdown", cwd=ROOT).stdout.splitlines()
    assert markdown[-1] == f"**Gate:** `{gate[len('gate: '):]}`"
    # above the table only: the table stays the last block before the gate line
    table_at = next(i for i, line in enumerate(lines) if line.startswith("context_length"))
    assert [line.startswith("gate:") for line in lines].index(True) == len(lines) - 1 > table_at


def test_text_when_the_goal_is_out_of_reach_says_so_first_and_has_no_gate():
    # 2K: a request fits it (1K fits none, whatever the settings), but not every tool with its description
    done = run_cli("recommend", CATALOG, "--context-lengths", "2k", "--goal", "full", cwd=ROOT)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Not reached at the context length 2K: the settings below are the best reachable ones."
    assert lines[1].startswith("goal: every tool with its short description (form full)")
    assert not any(line.startswith("gate:") for line in lines)
    yaml_block = run_cli("recommend", CATALOG, "--context-lengths", "2k", "--goal", "full", "--yaml", cwd=ROOT).stdout
    assert "# gate:" not in yaml_block


def test_markdown_escapes_server_names(tmp_path):
    """A server name is catalog text: in the comment it pings no one (``@`` only inside a code span)
    and splits no table cell."""
    catalog = tmp_path / "c.yaml"
    catalog.write_text(yaml.safe_dump({"servers": [
        {"name": f"s{i}@team|x", "tools": [{"name": f"t{j}", "description": "Do a thing with a long description " * 4,
                                            "inputSchema": {"type": "object"}} for j in range(30)]}
        for i in range(3)]}), encoding="utf-8")
    done = run_cli("recommend", catalog, "--context-lengths", "2k", "--goal", "names", "--except", "s0@team|x",
                   "--format", "markdown")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "- not named: `s0@team\\|x:` may collapse (an exception to the goal); naming it needs a budget of " \
           "501 tokens" in lines
    assert lines[-1] == (f"**Gate:** `toolsearch check {catalog} --config config.yaml --strict --context-lengths 2k "
                         "--goal names --except 's0@team|x'`")
    for line in lines[:-1]:  # every @ outside the gate line is in a code span
        assert all(part.count("@") == 0 for part in line.split("`")[::2]), line


def test_every_format_alias_says_which_format_it_is():
    """``recommend --help`` said ``--json  print JSON`` beside ``--format`` and ``--yaml  the same
    as --format yaml``: where a command has an output ``--format``, each alias it has for one of
    its formats says so, as ``check`` and ``lint`` do."""
    import argparse

    from toolsearch.cli.commands import build_parser

    checked = []
    subparsers = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for command, parser in subparsers.choices.items():
        formats = next((a.choices for a in parser._actions if "--format" in a.option_strings), None)
        if not formats or "json" not in formats:  # sessions --format is the format of its input files
            continue
        help_text = " ".join(run_cli(command, "--help").stdout.split())
        for fmt in formats:
            if any(f"--{fmt}" in a.option_strings for a in parser._actions):
                assert f"--{fmt} the same as --format {fmt}" in help_text, (command, fmt, help_text)
                checked.append((command, fmt))
    assert ("recommend", "json") in checked and ("recommend", "yaml") in checked and ("check", "json") in checked


def test_markdown_makes_no_link_of_a_www_name_in_parentheses(tmp_path):
    """GitHub links ``www.…`` also after ``(``, ``*``, ``_`` or ``~`` (GFM's extended autolinks):
    a server named ``(www.evil.example)`` in the comment is a code span, never a link."""
    catalog = tmp_path / "c.yaml"
    names = ["(www.evil.example)", "~www.tilde.example", "pad2"]
    catalog.write_text(yaml.safe_dump({"servers": [
        {"name": name, "tools": [{"name": f"t{j}", "description": "Do a thing with a long description " * 4,
                                  "inputSchema": {"type": "object"}} for j in range(30)]}
        for name in names]}), encoding="utf-8")
    for command in (("recommend", catalog, "--context-lengths", "2k", "--goal", "names", "--except", names[0],
                     "--except", names[1]),
                    ("check", catalog, "--context-lengths", "2k", "--goal", "full")):
        done = run_cli(*command, "--format", "markdown")
        assert done.returncode in (0, 1), done.stderr
        assert "`(www.evil.example)" in done.stdout and "`~www.tilde.example" in done.stdout, done.stdout
        for line in done.stdout.splitlines():  # outside code spans, no www. is left for GitHub to link
            assert all("www." not in part for part in line.split("`")[::2]), line
