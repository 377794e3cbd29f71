"""A harness config (``--config`` with ``mcp_servers``) and the catalog that disagree about servers.

``recommend`` answered "reached" with a gate line that ``check --strict`` then refused (exit 2),
when the config disabled a catalog server or filtered its tools otherwise than the catalog was
listed with: only a stderr warning said so. The answer (its lines, its ``--yaml`` block, its
markdown, its ``--json``, the report) now says how the servers disagree, that the figures count
them as the catalog lists them, and that the gate is refused until they agree.

A catalog MCP server the config never configures (the harness would not start it) was counted
without a word by every command: it is named now, as the reverse case is, and ``check --strict``
refuses it as it refuses the reverse case. A config with no ``mcp_servers`` says nothing about
servers: no such warning then.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import yaml

from tests.conftest import run_cli
from toolsearch.analysis.recommend import gate_before_merge_words

ROOT = Path(__file__).absolute().parent.parent
FILES = ["github-full.yaml", "grafana-full.yaml", "issue-tracker.yaml"]
GOAL = ["--context-lengths", "32k,128k,200k,1m", "--goal", "names"]
SETTINGS = "tools:\n  tool_search:\n    threshold_pct: 5\n    listing_max_tokens: 4000\n"
#: The three servers of FILES as a Hermes config sets them up.
SERVERS = {"github": "{command: npx, args: [-y, server-github]}", "grafana": "{command: mcp-grafana}",
           "linear": "{url: 'https://mcp.linear.app/mcp'}"}
SNAPSHOT = "list the servers' tools into the catalog again (toolsearch snapshot config.yaml -o CATALOG)"
AGAIN = "or list the servers again (toolsearch snapshot config.yaml -o CATALOG)"
REFUSED_UNTIL_LISTED = ("check --strict refuses it until the catalog agrees with mcp_servers in config.yaml (each line "
                        "labelled “config servers:” says how)")


def strict_error(which: str) -> str:
    """``check --strict``'s refusal: the servers named (``which``), the how-to left to the one warning above."""
    return (f"toolsearch: error: check --strict: config.yaml and the catalog disagree about MCP servers ({which}; the "
            "1 warning above says how to make them agree): the gate would judge servers the harness does not run as "
            "counted; once they agree, commit the catalog with the config, or drop --strict to check the catalog as it is")


def folder(tmp_path: Path, files=FILES, **servers: str) -> Path:
    """``tmp_path`` with copies of the sample ``files`` and a config.yaml configuring SERVERS, with
    ``servers`` in place of (or besides) them; a value ``None`` leaves that server out."""
    for name in files:
        shutil.copy(ROOT / "sample_catalogs" / name, tmp_path / name)
    entries = {**SERVERS, **servers}
    text = "".join(f"  {name}: {entry}\n" for name, entry in entries.items() if entry is not None)
    (tmp_path / "config.yaml").write_text("mcp_servers:\n" + text + SETTINGS, encoding="utf-8")
    return tmp_path


def recommend(where: Path, *more: str, files=FILES):
    return run_cli("recommend", *files, "--config", "config.yaml", *GOAL, *more, cwd=where)


def gate_command(lines: list[str], words: str) -> list[str]:
    """The gate line's command (``gate: toolsearch check …``, the command alone, followed by ``gate refused:
    WORDS``) as argv after ``toolsearch``."""
    line, refused = lines[-2:]
    assert line.startswith("gate: toolsearch check ") and "(" not in line, line
    assert refused == f"gate refused: {words}", refused
    return shlex.split(line[len("gate: "):])[1:]


def test_a_disabled_server_is_said_in_every_form_of_the_answer_and_its_gate_is_refused(tmp_path):
    where = folder(tmp_path, grafana="{command: mcp-grafana, enabled: false}")
    sentence = ("config.yaml sets up 1 MCP server otherwise than the catalog was listed with ('grafana': enabled: "
                f"false): these figures count its tools as the catalog lists it; drop the disabled server from the "
                f"catalog files; {AGAIN}")
    text = recommend(where)
    assert text.returncode == 0, text.stderr
    assert text.stderr.splitlines() == [f"toolsearch: warning: {sentence}"]
    lines = text.stdout.splitlines()
    assert lines[0] == "Reached at every listed context length for the catalog as listed."
    assert lines[2] == f"config servers: {sentence}"
    command = gate_command(lines, REFUSED_UNTIL_LISTED)

    block = recommend(where, "--yaml")
    comments = [line for line in block.stdout.splitlines() if line.startswith("#")]
    assert comments[5:7] == ["# reached at every listed context length for the catalog as listed",
                             f"# config servers: {sentence}"]
    assert comments[-3:] == ["# " + lines[-2], f"# {gate_before_merge_words()}", "# " + lines[-1]]
    assert yaml.safe_load(block.stdout) == {"tools": {"tool_search": {"threshold_pct": 5.8, "listing_max_tokens": 1851}}}

    markdown = recommend(where, "--format", "markdown").stdout.splitlines()
    assert markdown[0].endswith(", reached at every listed context length for the catalog as listed")
    assert f"- config servers: {sentence}" in markdown
    assert markdown[-3].startswith("**Gate:** `toolsearch check ") and markdown[-3].endswith("`")
    assert markdown[-1] == "**Gate refused:** " + REFUSED_UNTIL_LISTED.replace("mcp_servers", "mcp\\_servers")

    data = json.loads(recommend(where, "--json").stdout)
    assert (data["reached"], data["config_servers"], data["gate_refused"]) == (True, [sentence], REFUSED_UNTIL_LISTED)
    assert data["config_agreement"] == {"config": "config.yaml", "not_in_catalog": [],
                                        "set_up_otherwise": [{"server": "grafana", "differs": "enabled: false"}],
                                        "not_in_config": [], "mcp_servers_unreadable": None}

    # check's suggested settings (a goal it misses) are for the same catalog, and say so as recommend does
    missed = run_cli("check", *FILES, "--config", "config.yaml", "--context-lengths", "32k", "--goal", "full",
                     "--format", "json", cwd=where)
    assert missed.returncode == 1, missed.stderr
    suggestion = json.loads(missed.stdout)["suggestion"]
    assert (suggestion["config_servers"], suggestion["gate_refused"]) == ([sentence], REFUSED_UNTIL_LISTED)

    # the gate line, run as printed: refused, for the reason the answer gave
    strict = run_cli(*command, cwd=where)
    assert (strict.returncode, strict.stdout) == (2, "")
    assert strict.stderr.splitlines() == [f"toolsearch: warning: {sentence}",  # each sentence said once
                                          strict_error("set up otherwise: 'grafana': enabled: false")]


def test_a_tools_filter_the_catalog_was_not_listed_with_is_said_with_the_answer(tmp_path):
    where = folder(tmp_path, github="{command: npx, tools: {exclude: [create_issue, delete_file]}}")
    sentence = ("config.yaml sets up 1 MCP server otherwise than the catalog was listed with ('github': tools.exclude): "
                "these figures count its tools as the catalog lists it; copy the server's tools block from mcp_servers "
                f"in config.yaml under its config: in the catalog; {AGAIN}")
    text = recommend(where)
    assert text.returncode == 0, text.stderr
    assert f"config servers: {sentence}" in text.stdout.splitlines()
    strict = run_cli(*gate_command(text.stdout.splitlines(), REFUSED_UNTIL_LISTED), cwd=where)
    assert strict.returncode == 2 and strict.stderr.splitlines() == [
        f"toolsearch: warning: {sentence}", strict_error("set up otherwise: 'github': tools.exclude")]


def test_a_server_the_catalog_lacks_is_said_with_the_answer(tmp_path):
    where = folder(tmp_path, stripe="{command: npx, args: ['@stripe/mcp']}")
    sentence = ("config.yaml configures 1 MCP server the catalog does not have ('stripe'): these figures are for a "
                f"catalog without it; {SNAPSHOT}")
    data = json.loads(recommend(where, "--json").stdout)
    assert (data["config_servers"], data["gate_refused"]) == ([sentence], REFUSED_UNTIL_LISTED)
    text = recommend(where)
    strict = run_cli(*gate_command(text.stdout.splitlines(), REFUSED_UNTIL_LISTED), cwd=where)
    assert strict.returncode == 2 and strict.stderr.splitlines()[-1] == strict_error("not in the catalog: 'stripe'")


def test_a_config_that_agrees_with_the_catalog_gives_a_gate_that_passes(tmp_path):
    where = folder(tmp_path)
    text = recommend(where)
    assert (text.returncode, text.stderr) == (0, "")
    assert text.stdout.splitlines()[0] == "Reached at every listed context length."
    assert not any(line.startswith("config servers:") for line in text.stdout.splitlines())
    gate = text.stdout.splitlines()[-1]
    assert gate.endswith(" --goal names")
    data = json.loads(recommend(where, "--json").stdout)
    assert (data["config_servers"], data["gate_refused"]) == ([], None)
    assert data["config_agreement"]["not_in_config"] == []
    # the gate passes with the block merged into the config
    block = yaml.safe_load(recommend(where, "--yaml").stdout)["tools"]["tool_search"]
    config = yaml.safe_load((where / "config.yaml").read_text(encoding="utf-8"))
    config["tools"]["tool_search"].update(block)
    (where / "config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    passed = run_cli(*shlex.split(gate[len("gate: "):])[1:], cwd=where)
    assert (passed.returncode, passed.stderr) == (0, ""), passed.stderr


UNREAL = ("config.yaml does not configure 4 MCP servers the catalog has ('unreal', 'git', 'filesystem', 'jira'): "
          "{judged} them as registered, though the harness would not start them; drop them from the catalog files or "
          "add them to mcp_servers in config.yaml")
REFUSED_UNCONFIGURED = REFUSED_UNTIL_LISTED


def test_catalog_servers_the_config_never_configures_are_named_by_every_command(tmp_path):
    files = [*FILES, "unreal-editor.yaml"]
    where = folder(tmp_path, files=files)
    warning = "toolsearch: warning: " + UNREAL.format(judged="these figures count")
    for command in (["plan", *files, "--config", "config.yaml", "--context-length", "200k"],
                    ["sweep", *files, "--config", "config.yaml"],
                    ["costs", *files, "--config", "config.yaml"],
                    ["check", *files, "--config", "config.yaml", "--context-lengths", "200k", "--goal", "any"],
                    ["search", *files, "--config", "config.yaml", "-q", "issue"]):
        result = run_cli(*command, cwd=where)
        assert result.returncode == 0, (command, result.stderr)
        assert result.stderr.splitlines() == [warning], command
    strict = run_cli("check", *files, "--config", "config.yaml", "--strict", "--context-lengths", "200k", "--goal", "any",
                     cwd=where)
    assert (strict.returncode, strict.stdout) == (2, "")
    assert strict.stderr.splitlines() == [
        warning, strict_error("not configured: 'unreal', 'git', 'filesystem', 'jira'")]
    text = run_cli("recommend", *files, "--config", "config.yaml", "--context-lengths", "200k", "--goal", "any", cwd=where)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0] == "Reached at the context length 200K for the catalog as listed."
    assert lines[2] == "config servers: " + UNREAL.format(judged="these figures count")
    strict = run_cli(*gate_command(lines, REFUSED_UNCONFIGURED), cwd=where)
    assert strict.returncode == 2 and strict.stderr.splitlines()[-1].startswith("toolsearch: error: check --strict: ")
    report = run_cli("report", *files, "--config", "config.yaml", "--context-lengths", "200k", "--goal", "any",
                     "--no-lint", "--no-strategies", "-o", "report.html", cwd=where)
    assert report.returncode == 0 and warning in report.stderr.splitlines(), report.stderr
    html = (where / "report.html").read_text(encoding="utf-8")
    assert "config servers: config.yaml does not configure 4 MCP servers" in html
    assert f"gate refused: {REFUSED_UNCONFIGURED}" in html


def test_a_config_without_mcp_servers_says_nothing_about_servers(tmp_path):
    """A settings-only config (just tools.tool_search) does not say which servers the harness runs."""
    files = [*FILES, "unreal-editor.yaml"]
    folder(tmp_path, files=files)
    (tmp_path / "config.yaml").write_text(SETTINGS, encoding="utf-8")
    strict = run_cli("check", *files, "--config", "config.yaml", "--strict", "--context-lengths", "200k", "--goal", "any",
                     cwd=tmp_path)
    assert (strict.returncode, strict.stderr) == (0, "")
    data = json.loads(run_cli("recommend", *files, "--config", "config.yaml", "--context-lengths", "200k", "--goal",
                              "any", "--json", cwd=tmp_path).stdout)
    assert (data["config_servers"], data["gate_refused"], data["config_agreement"]["not_in_config"]) == ([], None, [])


def test_only_mcp_servers_are_named_and_a_hostile_name_stays_on_its_line(tmp_path):
    """A plugin toolset is not the config's to start; an MCP server whose name holds a line break and
    a bidi override is named on one line, its characters shown, in the warning and the block."""
    folder(tmp_path)
    extra = {"servers": [{"name": "todo", "kind": "plugin", "tools": [{"name": "add", "inputSchema": {"type": "object"}}]},
                         {"name": "evil\n# gate: rm -rf ~\u202e", "tools": [{"name": "x", "description": "Does x.",
                                                                             "inputSchema": {"type": "object"}}]}]}
    (tmp_path / "extra.yaml").write_text(yaml.safe_dump(extra), encoding="utf-8")
    files = [*FILES, "extra.yaml"]
    named = "'evil⟨U+000A⟩# gate: rm -rf ~⟨U+202E⟩'"
    plan = run_cli("plan", *files, "--config", "config.yaml", "--context-length", "200k", cwd=tmp_path)
    assert plan.stderr.splitlines() == [
        (f"toolsearch: warning: config.yaml does not configure 1 MCP server the catalog has ({named}): these figures "
         "count it as registered, though the harness would not start it; drop it from the catalog files or add it to "
         "mcp_servers in config.yaml")]
    block = run_cli("recommend", *files, "--config", "config.yaml", *GOAL, "--yaml", cwd=tmp_path).stdout.splitlines()
    gates = [line for line in block if line.startswith("# gate:")]
    assert len(gates) == 1 and gates[0].startswith("# gate: toolsearch check "), gates
    assert sum(named in line for line in block if line.startswith("# config servers: ")) == 1
