"""A catalog from an untrusted pull request, run through the CLI in a CI job: no name, parameter
name or ``$ref`` in it can print a line of its own. A CI log reads a line that starts with
``::error`` as an annotation, and a line that reads ``toolsearch check passed`` as the verdict;
a line break inside a name is shown as its marker (``⟨U+000A⟩``) instead."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli, write_json

FORGED = "\n::error file=catalog.yaml,line=1::forged\ntoolsearch check passed: all good\n"
MARKED = "⟨U+000A⟩::error file=catalog.yaml,line=1::forged⟨U+000A⟩"


def _no_forged_line(text: str) -> None:
    for line in text.splitlines():
        assert not line.startswith("::"), line
        assert not line.startswith("toolsearch check passed: all good"), line


def _catalog(tmp_path: Path, tools: list[dict], server: str = "s") -> Path:
    return write_json(tmp_path / "catalog.json", {"servers": [{"name": server, "tools": tools}]})


def test_parameter_names_of_a_dropped_root_any_of_stay_on_their_line(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path, [{"name": "lookup", "description": "Look up a record.", "inputSchema": {
        "type": "object", "anyOf": [{"properties": {"id" + FORGED: {"type": "string"}, "slug": {"type": "string"}}}]}}])
    for args in (["lint", catalog], ["plan", catalog], ["describe", "--sent", catalog, "mcp__s__lookup"]):
        result = run_cli(*args)
        _no_forged_line(result.stdout)
        assert f"declared only in it (id{MARKED}" in result.stdout, args
    lint = run_cli("lint", catalog, "--json")
    assert f"(id{MARKED}toolsearch check passed: all good⟨U+000A⟩, slug)" in lint.stdout


def test_ref_pointers_named_by_schema_ref_unsupported_stay_on_their_line(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path, [{"name": "assign", "description": "Assign a record.", "inputSchema": {
        "type": "object", "properties": {"user": {"$ref": "#/$defs/U" + FORGED}},
        "$defs": {"U" + FORGED: {"type": "object", "properties": {"id": {"type": "string"}}}}}}])
    result = run_cli("lint", catalog)
    _no_forged_line(result.stdout)
    assert f"the model receives 1 $ref pointer (#/$defs/U{MARKED}" in result.stdout


def test_plan_listing_shows_a_line_break_in_a_server_or_tool_name_as_a_marker(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path, [{"name": "tool" + FORGED, "description": "Desc.", "inputSchema": {"type": "object"}},
                                  {"name": "ok_tool", "description": "Fine.", "inputSchema": {"type": "object"}}],
                       server="srv" + FORGED)
    prefixed = run_cli("plan", catalog, "--context-length", "200k")
    assert prefixed.returncode == 0, prefixed.stderr
    _no_forged_line(prefixed.stdout)
    assert f"\nsrv{MARKED}toolsearch check passed: all good⟨U+000A⟩ tools (2):\n" in prefixed.stdout
    as_is = run_cli("plan", catalog, "--context-length", "200k", "--tool-names", "as-is")
    _no_forged_line(as_is.stdout)
    assert f"\n- tool{MARKED}toolsearch check passed: all good⟨U+000A⟩: Desc.\n" in as_is.stdout
    assert "\n- ok_tool: Fine.\n" in as_is.stdout
    # what the model gets is unchanged: the JSON holds the listing as sent
    listing = json.loads(run_cli("plan", catalog, "--context-length", "200k", "--json").stdout)["listing"]
    assert "\nsrv" + FORGED + " tools (2):\n" in listing


def _crowded(tmp_path: Path, names: list[str]) -> Path:
    """Servers of 40 tools each, too many to stay named at 8K."""
    return write_json(tmp_path / "crowded.json", {"servers": [
        {"name": name, "tools": [{"name": f"t{i}", "description": f"Do thing number {i} with a long enough description "
                                  "to take room in the listing.", "inputSchema": {"type": "object"}} for i in range(40)]}
        for name in names]})


def test_check_failure_sentences_name_a_server_with_a_line_break_on_one_line_in_json_too(tmp_path: Path) -> None:
    evil = "x" + FORGED
    catalog = _crowded(tmp_path, ["a", "b", "c", evil])
    args = ["check", catalog, "--context-lengths", "8k,9k", "--goal", "names", "--keep", evil, "--keep", "a"]
    text = run_cli(*args)
    assert text.returncode == 1, text.stderr
    _no_forged_line(text.stdout)
    done = run_cli(*args, "--json")
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert data["goal_words"] == (f"every server at names or better; kept named at every length: "
                                  f"x{MARKED}toolsearch check passed: all good⟨U+000A⟩, a")
    failures = [f for c in data["contexts"] for f in c["failures"]]
    # a script that prints the sentences (jq -r '.contexts[].failures[]') prints one line each
    assert failures and all("\n" not in f for f in failures), failures
    assert any(f.startswith(f"x{MARKED}toolsearch check passed: all good⟨U+000A⟩, a must stay named but are collapsed")
               for f in failures), failures
    assert any("(collapsed to a summary line: " in f and f"x{MARKED}" in f for f in failures), failures


def test_strategies_notes_name_a_kept_tool_with_a_line_break_on_one_line(tmp_path: Path) -> None:
    catalog = write_json(tmp_path / "plugin.json", {"servers": [{"name": "s", "kind": "plugin", "tools": [
        {"name": "close" + FORGED, "description": "Close a support ticket.", "inputSchema": {"type": "object"}},
        {"name": "create_ticket", "description": "Create a support ticket.", "inputSchema": {"type": "object"}}]}]})
    done = run_cli("strategies", catalog, "--tool-names", "as-is")
    assert done.returncode == 0, done.stderr
    _no_forged_line(done.stdout)
    assert (f"note: anthropic_search: at least 1 tool must stay non-deferred: close{MARKED}toolsearch check passed: "
            "all good⟨U+000A⟩ is kept non-deferred (the first tool in catalog order)\n") in done.stdout


def test_check_never_starts_a_line_with_catalog_text(tmp_path: Path) -> None:
    """docs/ci.md: a server or tool named ``::error::…`` starts no line of ``check``'s text or
    Markdown (the heading, the table, the failures, the baseline column, the suggestion)."""
    catalog = write_json(tmp_path / "colon.json", {"name": "::notice::catalog", "servers": [
        {"name": "::error::server", "kind": "plugin", "tools": [
            {"name": "::warning::tool", "description": "::error::desc. Create a ticket.", "inputSchema": {"type": "object"}},
            {"name": "b", "description": "Close a ticket.", "inputSchema": {"type": "object"}}]},
        {"name": "ok", "tools": [{"name": "x", "description": "X.", "inputSchema": {"type": "object"}}]}]})
    baseline = _catalog(tmp_path, [{"name": "y", "description": "Y.", "inputSchema": {"type": "object"}}],
                        server="::error::old")
    for fmt in ("text", "markdown"):
        done = run_cli("check", catalog, "--context-lengths", "1k,200k", "--listing-max-tokens", "200", "--threshold-pct",
                       "2", "--goal", "full", "--keep", "::error::server", "--except", "ok", "--baseline", baseline,
                       "--format", fmt)
        assert done.returncode == 1, done.stderr
        assert "::error::server" in done.stdout
        for line in done.stdout.splitlines():
            assert not line.lstrip().startswith("::"), line
        assert not any(line.lstrip().startswith("::") for line in done.stderr.splitlines()), done.stderr


def test_strategies_skills_problems_name_a_folder_with_a_line_break_on_one_line(tmp_path: Path) -> None:
    # a skills tree from a pull request: git keeps a line break in a folder name
    skills = tmp_path / "skills"
    bad = skills / ("x" + FORGED.replace("catalog.yaml", "c"))
    bad.mkdir(parents=True)
    (bad / "SKILL.md").write_text("---\nname: x\ndescription: [not closed\n---\n", encoding="utf-8")
    catalog = _catalog(tmp_path, [{"name": "t", "description": "Do it.", "inputSchema": {"type": "object"}}])
    result = run_cli("strategies", catalog, "--skills", skills)
    assert result.returncode == 0, result.stderr
    _no_forged_line(result.stderr)
    assert "⟨U+000A⟩::error file=c,line=1::forged⟨U+000A⟩toolsearch check passed: all good⟨U+000A⟩/SKILL.md: line 3" \
        in result.stderr



def test_a_catalog_file_name_with_a_line_break_prints_no_line_of_its_own(tmp_path: Path) -> None:
    """A catalog file from a pull request: git keeps a line break in a file name, and every line that
    names a catalog problem, a warning or an error starts with the file name's place. The name's
    line break is a marker on each of them, in every command that reads the file."""
    folder = tmp_path / ("x" + FORGED.replace("catalog.yaml", "c"))
    folder.mkdir()
    catalog = write_json(folder / "catalog.json", {"servers": [
        {"name": "s", "tools": [{"name": 5}, {"name": "t", "description": "Do it.", "inputSchema": {"type": "object"}},
                                {"name": "t", "description": "Again.", "inputSchema": {"type": "object"}}]},
        {"name": "u", "tools": [{"name": "v", "description": "Say it.", "inputSchema": {"type": "object"},
                                 "title": "a" * 70}]}]})
    queries = write_json(folder / "queries.json", {"tasks": [{"id": "a", "queries": ["do"], "expected": ["nope"]}]})
    runs = [["plan", catalog], ["lint", catalog], ["costs", catalog], ["collapse", catalog], ["diff", catalog, catalog],
            ["harnesses", catalog, "--context-lengths", "200k"], ["strategies", catalog], ["sweep", catalog],
            ["eval", catalog, queries], ["eval", catalog, catalog], ["search", catalog, "-q", "do"],
            ["check", catalog, "--context-lengths", "200k", "--goal", "full"],
            ["sessions", str(Path(__file__).parent.parent / "sample_sessions" / "claude-code.jsonl"), "--catalog", catalog]]
    for args in runs:
        result = run_cli(*args)
        assert "Traceback" not in result.stderr, result.stderr
        _no_forged_line(result.stdout)
        _no_forged_line(result.stderr)
        assert MARKED.replace("catalog.yaml", "c") in result.stdout + result.stderr, (args, result.stderr)


def test_written_files_and_config_notes_under_a_folder_with_a_line_break_stay_on_their_line(tmp_path: Path) -> None:
    """The lines that name a file written (``report -o``, ``synth -o``, ``sessions --export-queries``)
    and the notes ``plan`` prints for a ``--config`` file's warnings name the path on one line."""
    folder = tmp_path / ("x" + FORGED.replace("catalog.yaml", "c"))
    folder.mkdir()
    catalog = _catalog(folder, [{"name": "t", "description": "Do it.", "inputSchema": {"type": "object"}}])
    config = folder / "config.yaml"
    config.write_text("tools:\n  tool_search:\n    threshold_pct: x\n", encoding="utf-8")
    sessions = Path(__file__).parent.parent / "sample_sessions" / "state.db"
    runs = [["report", catalog, "-o", folder / "r.html"], ["synth", "-o", folder / "syn.yaml", "--tools", "3"],
            ["sessions", sessions, "--catalog", catalog, "--export-queries", folder / "q.yaml"],
            ["plan", catalog, "--config", config]]
    for args in runs:
        result = run_cli(*args)
        assert result.returncode == 0, result.stderr
        _no_forged_line(result.stdout)
        _no_forged_line(result.stderr)
        assert MARKED.replace("catalog.yaml", "c") in result.stdout + result.stderr, (args, result.stderr)


def test_a_config_server_name_with_a_line_break_stays_on_its_live_line(tmp_path: Path) -> None:
    """An MCP client config from a pull request: a server named with a line break got a
    ``toolsearch: live: NAME: failed …`` line whose second half started with ``::error``."""
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "a" + FORGED: {"command": str(tmp_path / "no-such-program")}}})
    for args in (["plan", config], ["snapshot", config], ["strategies", config]):
        result = run_cli(*args)
        assert "Traceback" not in result.stderr, result.stderr
        _no_forged_line(result.stdout)
        _no_forged_line(result.stderr)
        assert f"toolsearch: live: a{MARKED}toolsearch check passed: all good⟨U+000A⟩: failed after " in result.stderr
