"""The ``toolsearch`` console script, run end to end on small catalog files (DESIGN.md CLI contract).

Each test runs the installed script in a subprocess and checks the exact output; expected values
are built by hand from the catalog and the active profile's text.
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ceil4, compact, run_cli, write_json, write_yaml
from toolsearch.engine.bridge import to_wire
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

TINY = {
    "name": "Tiny",
    "servers": [
        {"name": "github", "tools": [
            {"name": "create_issue", "description": "Open a new issue in a repository.",
             "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}},
            {"name": "list_issues", "description": "List issues."},
        ]},
        {"name": "shell", "kind": "core", "tools": [{"name": "terminal", "description": "Run a shell command."}]},
    ],
}

CREATE = {"type": "function", "function": {
    "name": "mcp__github__create_issue", "description": "Open a new issue in a repository.",
    "parameters": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}}}
LIST = {"type": "function", "function": {
    "name": "mcp__github__list_issues", "description": "List issues.",
    "parameters": {"type": "object", "properties": {}, "required": []}}}
TERMINAL = {"type": "function", "function": {
    "name": "terminal", "description": "Run a shell command.",
    "parameters": {"type": "object", "properties": {}, "required": []}}}


@pytest.fixture
def tiny(tmp_path):
    return write_yaml(tmp_path / "tiny.yaml", TINY)


def ok(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def one_line_error(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert result.stdout == ""
    return lines[0]


# --- plan -------------------------------------------------------------------------------------------

def test_plan_json_contract_and_exact_values(tiny, profile) -> None:
    data = json.loads(ok(run_cli("plan", tiny, "--context-length", "200000", "--json")))
    for key in ("tier", "listing_form", "budget", "context_length", "deferred_count", "deferred_tokens",
                "listing_tokens", "listing", "tool_search_description", "tools", "servers"):
        assert key in data
    header = profile.text("listing", "header")
    listing = "\n".join([header, "github tools (2):",
                         "- mcp__github__create_issue: Open a new issue in a repository.",
                         "- mcp__github__list_issues: List issues."])
    description = "\n\n".join([profile.text("tool_search", "description", count=2),
                               profile.text("framing", "listed"), listing])
    assert (data["tier"], data["listing_form"], data["budget"], data["context_length"]) == (1, "full", 4000, 200000)
    assert data["deferred_count"] == 2
    assert data["deferred_tokens"] == ceil4(len(compact(CREATE)) + len(compact(LIST)))
    assert data["listing"] == listing
    assert data["listing_tokens"] == ceil4(listing)
    assert data["tool_search_description"] == description
    tools = data["tools"]
    assert [t["function"]["name"] for t in tools] == ["terminal", "tool_search", "tool_describe", "tool_call"]
    assert tools[0] == TERMINAL
    assert tools[1]["function"]["description"] == description
    assert compact(tools[1]) == compact(Inspector.from_files([tiny]).plan(parse_config({}), 200000).tools[1])
    servers = {s["name"]: s for s in data["servers"]}
    assert list(servers) == ["github", "shell"]
    gh = servers["github"]
    assert {k: gh[k] for k in ("name", "kind", "tool_count", "state")} == {
        "name": "github", "kind": "mcp", "tool_count": 2, "state": "full"}
    assert gh["schema_tokens"] == data["deferred_tokens"]
    assert gh["full_tokens"] == ceil4("\n".join(listing.splitlines()[1:]))
    assert gh["names_tokens"] == ceil4("github tools (2):\nmcp__github__create_issue, mcp__github__list_issues")
    assert gh["summary_tokens"] == ceil4(profile.text("listing", "summary_line", label="github", count=2))
    sh = servers["shell"]
    assert (sh["kind"], sh["tool_count"], sh["state"], sh["schema_tokens"], sh["full_tokens"]) == (
        "core", 1, "visible", ceil4(compact(TERMINAL)), 0)


def test_plan_json_budget_legs_and_small_context(tiny) -> None:
    data = json.loads(ok(run_cli("plan", tiny, "--context-length", "1k", "--json")))
    assert (data["budget"], data["listing_form"], data["tier"]) == (50, "names", 1)
    assert data["listing"].endswith("github tools (2):\nmcp__github__create_issue, mcp__github__list_issues")
    assert data["servers"][0]["state"] == "names"
    data = json.loads(ok(run_cli("plan", tiny, "--context-length", "1000", "--threshold-pct", "1", "--json")))
    assert (data["budget"], data["listing_form"], data["tier"], data["listing"]) == (10, "none", 2, None)
    assert data["servers"][0]["state"] == "hidden"


def _one_tool_servers(path: Path, n: int) -> Path:
    return write_json(path, {"servers": [
        {"name": f"s{k:04d}", "tools": [{"name": "get_" + "x" * (k % 5), "description": "Get it.",
                                         "inputSchema": {"type": "object"}}]} for k in range(n)]})


def test_plan_json_steps_say_how_many_servers_are_collapsed_not_which(tmp_path) -> None:
    """Step k collapses the first k labels of ``collapse_order``; listing them at every step made
    ``plan --json`` grow with the square of the servers (10,000 one-tool servers: 1.26 GB of JSON).
    Each step gives ``collapsed_count`` and the one label it collapsed, so the output grows linearly
    and still says exactly which servers each step collapsed."""
    sizes = {}
    for n in (100, 400):
        text = ok(run_cli("plan", _one_tool_servers(tmp_path / f"{n}.json", n), "--context-length", "1000",
                          "--threshold-pct", "0.1", "--json"))
        data = json.loads(text)
        order, steps = data["collapse_order"], data["steps"]
        assert data["listing_form"] == "none" and len(order) == n and len(steps) == n + 2
        assert [s["form"] for s in steps[:3]] == ["full", "names", "mixed"] and steps[-1]["form"] == "groups"
        for index, step in enumerate(steps):
            assert set(step) == {"form", "collapsed_count", "collapsed_label", "tokens", "fits"}
            count = max(index - 1, 0)
            assert step["collapsed_count"] == count
            assert step["collapsed_label"] == (order[count - 1] if count else None)
            assert step["fits"] is False and isinstance(step["tokens"], int)
        sizes[n] = len(json.dumps(steps))
    assert sizes[400] < 5 * sizes[100], sizes  # a list per step: about 16 times as large


def test_plan_enabled_off_and_listing_off(tiny, profile) -> None:
    off = json.loads(ok(run_cli("plan", tiny, "--enabled", "off", "--json")))
    assert (off["tier"], off["listing_form"], off["tool_search_description"]) == (0, "none", None)
    assert [t["function"]["name"] for t in off["tools"]] == [
        "mcp__github__create_issue", "mcp__github__list_issues", "terminal"]
    no_listing = json.loads(ok(run_cli("plan", tiny, "--listing", "off", "--json")))
    assert (no_listing["tier"], no_listing["listing_form"]) == (2, "none")
    assert no_listing["tool_search_description"] == profile.text("tool_search", "description", count=2)


def test_plan_tool_names_as_is(tiny) -> None:
    data = json.loads(ok(run_cli("plan", tiny, "--tool-names", "as-is", "--json")))
    assert "- create_issue: Open a new issue in a repository." in data["listing"]
    assert "mcp__" not in data["listing"]


def test_plan_human_output(tiny) -> None:
    out = ok(run_cli("plan", tiny, "--context-length", "40000"))
    lines = out.splitlines()
    assert lines[0] == "catalog: Tiny (3 tools)"
    assert lines[1] == "context length: 40K; threshold_pct 5%, listing_max_tokens 4,000"
    assert lines[2] == "budget: 2,000 tokens = min(4,000, 2,000); decided by threshold_pct"
    assert lines[3].startswith("tier 1, listing form full · 1 of 1 servers named (2 tools); 2 deferred")
    assert out.rstrip().endswith("- mcp__github__list_issues: List issues.")


def test_plan_with_a_bpe_tokenizer(tiny) -> None:
    data = json.loads(ok(run_cli("plan", tiny, "--tokenizer", "o200k_base", "--json")))
    from toolsearch.engine.tokens import get_tokenizer

    assert data["planning_tokenizer"] == "o200k_base"
    assert data["listing_tokens"] == get_tokenizer("o200k_base").count(data["listing"])


def test_plan_negative_context_length_is_a_usage_error(tiny) -> None:
    line = one_line_error(run_cli("plan", tiny, "--context-length", "-5", "--threshold-pct", "50", "--json"))
    assert line == ("toolsearch plan: error: argument --context-length: expected a positive number of tokens "
                    "from 1 to 10,000,000,000 (e.g. 200000, 200k, 1m) or 'unknown', got '-5'")


def test_plan_config_file_bad_values_warn_and_still_run(tiny, tmp_path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("tools:\n  tool_search:\n    threshold_pct: abc\n    listing_max_tokens: 100\n"
                      "    defer: todo_list\n", encoding="utf-8")
    result = run_cli("plan", tiny, "--config", config, "--context-length", "1000000", "--json")
    data = json.loads(ok(result))
    assert data["config"]["threshold_pct"] == 5.0
    assert data["config"]["listing_max_tokens"] == 200
    assert data["budget"] == 200
    # each warning names the file and the line of the key, as a bad YAML error names its place
    assert result.stderr.splitlines() == [
        f"toolsearch: warning: {config}: line 5: tools.tool_search.defer: expected a YAML list of tool names "
        "(e.g. defer: [todo_list]), got a string 'todo_list'; using the curated default set",
        f"toolsearch: warning: {config}: line 3: tools.tool_search.threshold_pct: 'abc' is not a number, so the default 5% is used",
        f"toolsearch: warning: {config}: line 4: tools.tool_search.listing_max_tokens: 100 is outside 200..60,000, so it was clamped to 200 tokens"]


def test_plan_flags_override_the_config_file(tiny, tmp_path) -> None:
    config = write_yaml(tmp_path / "c.yaml", {"tools": {"tool_search": {"threshold_pct": 10, "enabled": "off"}}})
    data = json.loads(ok(run_cli("plan", tiny, "--config", config, "--context-length", "1000", "--json")))
    assert (data["tier"], data["config"]["threshold_pct"]) == (0, 10.0)
    data = json.loads(ok(run_cli("plan", tiny, "--config", config, "--enabled", "on", "--threshold-pct", "2",
                                 "--context-length", "100000", "--json")))
    assert (data["tier"], data["budget"], data["config"]["threshold_pct"]) == (1, 2000, 2.0)


def test_plan_combines_several_source_shapes(tiny, tmp_path) -> None:
    recorded = write_json(tmp_path / "linear.json", {"tools": [{"name": "save_issue", "description": "Save an issue."}]})
    funcs = write_json(tmp_path / "local.json", [{"type": "function", "function": {"name": "helper", "description": "Help."}}])
    data = json.loads(ok(run_cli("plan", tiny, recorded, funcs, "--json")))
    assert data["deferred_count"] == 4
    assert [s["name"] for s in data["servers"]] == ["github", "linear", "local", "shell"]
    assert "linear tools (1):\n- mcp__linear__save_issue: Save an issue." in data["listing"]
    assert "local tools (1):\n- helper: Help." in data["listing"]


# --- search / describe / explain / call -------------------------------------------------------------------

def test_search_json_is_exactly_the_tool_search_response(tiny) -> None:
    out = ok(run_cli("search", tiny, "-q", "create issue", "-q", "zzz", "--json"))
    bridge = Inspector.from_files([tiny]).bridge(parse_config({}))
    expected = bridge.tool_search({"queries": ["create issue", "zzz"]})
    assert out == to_wire(expected) + "\n"
    data = json.loads(out)
    assert data["results"][0]["matches"] == ["mcp__github__create_issue"]
    assert data["results"][1]["available_sources"] == [{"name": "github", "tool_count": 2}]
    assert data["tools"] == {"mcp__github__create_issue": {
        "source": "mcp", "source_name": "mcp-github", "description": "Open a new issue in a repository.",
        "required": ["title"]}}


def test_search_limit_and_human_output(tiny) -> None:
    data = json.loads(ok(run_cli("search", tiny, "-q", "issues", "--limit", "1", "--json")))
    assert data["results"][0]["matches"] == ["mcp__github__list_issues"]
    out = ok(run_cli("search", tiny, "-q", "mcp__github__create_issue"))
    assert out.splitlines()[0] == "query: mcp__github__create_issue"
    assert out.splitlines()[1].startswith("  1. mcp__github__create_issue  [exact name]  Open a new issue")


def test_search_result_line_is_one_line_and_marks_the_cut(tmp_path) -> None:
    """A result's description used to be its first 90 characters as they were: a newline split
    the result over two lines and the cut (mid-word) had no mark."""
    description = "Write a note.\n\nIt keeps   the text as given; " + "very " * 20 + "long."
    catalog = write_yaml(tmp_path / "notes.yaml", {"name": "notes", "servers": [{"name": "notes", "tools": [
        {"name": "write_note", "description": description, "inputSchema": {"type": "object"}}]}]})
    out = ok(run_cli("search", catalog, "-q", "write note")).splitlines()
    shown = "Write a note. It keeps the text as given; " + "very " * 9 + "ver…"  # 90 characters, then the mark
    assert out[1:-1] == [f"  1. mcp__notes__write_note  [{out[1].split('[')[1].split(']')[0]}]  {shown}"]
    assert out[-1].startswith("response: ")  # the response's size (characters and tokens) ends the output
    assert len(shown) == 91


def test_search_error_response_exits_1(tiny) -> None:
    result = run_cli("search", tiny, *sum((["-q", f"q{i}"] for i in range(8)), []), "--json")
    assert result.returncode == 1
    assert json.loads(result.stdout)["error"].startswith("too many queries: 8 > max 7.")


def test_describe_json(tiny, profile) -> None:
    result = run_cli("describe", tiny, "mcp__github__create_issue", "terminal", "nope", "--json")
    # the whole response is printed; a name not found or refused fails the run, as with --sent
    assert result.returncode == 1 and result.stderr == ""
    out = result.stdout
    assert json.loads(out) == {
        "tools": {"mcp__github__create_issue": {"description": "Open a new issue in a repository.",
                                                "parameters": CREATE["function"]["parameters"]}},
        "not_found": ["nope"], "hint": profile.text("hints", "describe_not_found"),
        "errors": {"terminal": profile.text("errors", "not_deferrable", name="terminal")},
    }
    bridge = Inspector.from_files([tiny]).bridge(parse_config({}))
    assert out == to_wire(bridge.tool_describe({"names": ["mcp__github__create_issue", "terminal", "nope"]})) + "\n"


def test_explain(tiny) -> None:
    out = ok(run_cli("explain", tiny, "-q", "create issue"))
    assert "tokens: create → creat, issue → issu" in out  # as the Search page and the gate line write it
    assert "gate term: create → creat (in 1 tool); answerable terms: 2; required coverage: 1" in out
    assert "excluded: 1 by the gate term" in out
    assert out.splitlines()[2].split() == ["word", "stem", "df", "idf", "role"]  # every column has a name
    data = json.loads(ok(run_cli("explain", tiny, "-q", "create issue", "--json")))
    assert (data["gate"], data["answerable"], data["required_coverage"], data["corpus_size"]) == (
        "creat", ["creat", "issu"], 1, 2)
    assert data["matches"] == ["mcp__github__create_issue"]
    assert [t["df"] for t in data["terms"]] == [1, 2]


def test_explain_says_when_its_table_stops_before_the_candidates_do(tiny) -> None:
    """The text table stopped at 40 rows without a word, under 'excluded: 854 by the gate term'."""
    lines = ok(run_cli("explain", "sample_catalogs/cloudflare-flat.yaml", "-q", "list zones")).splitlines()
    assert lines[-1] == ("40 of 200 candidates shown (at most 200 are listed: tools that contain a query stem, "
                         "admitted first); --json shows all 200")
    assert sum(1 for line in lines if "mcp__cloudflare__" in line) == 40
    assert "candidates shown" not in ok(run_cli("explain", tiny, "-q", "create issue"))


@pytest.mark.parametrize("variant", ["reference", "unicode", "evidence"])
def test_explain_shows_invisible_characters_of_the_query(tiny, variant) -> None:
    """explain printed the query with its bidi override and zero-width characters raw (search and
    the regex explain show them as markers)."""
    out = ok(run_cli("explain", tiny, "-q", "create\u202e issue\u200b", "--variant", variant))
    assert "query: create⟨U+202E⟩ issue⟨U+200B⟩" in out.splitlines()
    assert "\u202e" not in out and "\u200b" not in out


def test_call_valid_and_invalid(tiny) -> None:
    out = ok(run_cli("call", tiny, "mcp__github__create_issue", "-a", '{"title": "Bug"}', "--json"))
    assert json.loads(out) == {"dispatch": {"name": "mcp__github__create_issue", "server": "github",
                                            "tool": "create_issue", "arguments": {"title": "Bug"}}}
    result = run_cli("call", tiny, "mcp__github__create_issue", "--json")
    assert result.returncode == 1
    error = json.loads(result.stdout)
    assert (error["path"], error["constraint"]) == ("arguments", "required")
    assert "NOT invoked" in error["error"]


# --- sweep ------------------------------------------------------------------------------------------------

def test_sweep_csv(tiny) -> None:
    out = ok(run_cli("sweep", tiny, "--context-lengths", "1000,unknown", "--threshold-pcts", "1,5", "--csv"))
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["context_length", "threshold_pct", "listing_max_tokens", "budget", "tier", "listing_form",
                       "listing_tokens", "github", "shell"]
    names_tokens = ceil4(json.loads(ok(run_cli("plan", tiny, "--context-length", "1000", "--json")))["listing"])
    full_tokens = ceil4(json.loads(ok(run_cli("plan", tiny, "--json")))["listing"])
    assert rows[1:] == [
        ["1000", "1", "4000", "10", "2", "none", "0", "hidden", "visible"],
        ["unknown", "1", "4000", "4000", "1", "full", str(full_tokens), "full", "visible"],
        ["1000", "5", "4000", "50", "1", "names", str(names_tokens), "names", "visible"],
        ["unknown", "5", "4000", "4000", "1", "full", str(full_tokens), "full", "visible"],
    ]


def test_sweep_json_and_listing_caps(tiny) -> None:
    data = json.loads(ok(run_cli("sweep", tiny, "--context-lengths", "1000000", "--threshold-pcts", "50",
                                 "--listing-max-tokens", "100,300", "--json")))
    assert [(r["listing_max_tokens"], r["budget"], r["budget_winner"]) for r in data] == [
        (200, 200, "listing_max_tokens"), (300, 300, "listing_max_tokens")]
    assert data[0]["states"] == {"github": "full", "shell": "visible"}
    assert data[0]["counts"]["servers_named"] == 1 and data[0]["counts"]["label"].startswith("full · 1 of 1 servers named")


def test_sweep_json_and_csv_together_are_refused(tiny) -> None:
    """One output format, as for costs: before, --csv was dropped without a word and JSON printed."""
    done = run_cli("sweep", tiny, "--context-lengths", "1000", "--json", "--csv")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "toolsearch sweep: error: argument --csv: not allowed with argument --json\n"


def test_sweep_text_says_a_mixed_listing_by_counts() -> None:
    """The text table never says "mixed" alone: the form column reads like the app's grid cells."""
    out = ok(run_cli("sweep", Path(__file__).resolve().parent.parent / "sample_catalogs" / "team-workspace.yaml",
                     "--context-lengths", "32000",
                     "--threshold-pcts", "1,10"))
    *rows, key = out.splitlines()[2:]
    forms = [re.split(r"  +", line)[5] for line in rows]
    assert forms == ["mixed 2/9", "names"]  # names lists every server: the form alone, as in the grid
    assert key == "listing_form “mixed 2/9”: 2 of 9 servers named, the rest as summary lines"  # the grid's key



def test_sweep_with_a_config_sweeps_its_threshold_pct(tmp_path) -> None:
    """``sweep --config`` takes the block's threshold_pct as it takes its listing_max_tokens: an
    exported block checks back without retyping it (before, the rows were 1, 2, 5 and 10 %, and
    the block's 5.1 % was not among them)."""
    config = tmp_path / "config.yaml"
    config.write_text("tools:\n  tool_search:\n    threshold_pct: 5.1\n    listing_max_tokens: 1621\n", encoding="utf-8")
    team = Path(__file__).resolve().parent.parent / "sample_catalogs" / "team-workspace.yaml"
    out = ok(run_cli("sweep", team, "--config", config, "--context-lengths", "32k,1m"))
    assert [line.split()[:4] for line in out.splitlines()[2:]] == [["32K", "5.1", "1,621", "1,621"],
                                                                  ["1M", "5.1", "1,621", "1,621"]]
    out = ok(run_cli("sweep", team, "--context-lengths", "32k"))  # without a config: the default grid
    rows = [line for line in out.splitlines()[2:] if not line.startswith("listing_form ")]  # the key under it
    assert [line.split()[1] for line in rows] == ["1", "2", "5", "10", "20"]

# --- errors: exit 2, one line, no traceback ----------------------------------------------------------------

def test_missing_file(tmp_path) -> None:
    line = one_line_error(run_cli("plan", tmp_path / "missing.yaml"))
    assert line == f"toolsearch: error: {tmp_path / 'missing.yaml'}: cannot read file (No such file or directory)"


def test_malformed_yaml_names_line_and_column(tmp_path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("servers:\n  - name: gh\n    tools: [\n", encoding="utf-8")
    line = one_line_error(run_cli("plan", path))
    assert line.startswith(f"toolsearch: error: {path}: line 4, column 1: not valid YAML or JSON")


def test_json_array_of_non_objects(tmp_path) -> None:
    path = write_json(tmp_path / "arr.json", [1, 2, 3])
    line = one_line_error(run_cli("plan", path))
    assert line == (f"toolsearch: error: {path}: [0]: expected a function array (a list of tool objects), "
                    "got a list whose first item is a whole number")


def test_unknown_tokenizer(tiny) -> None:
    line = one_line_error(run_cli("plan", tiny, "--tokenizer", "gpt2"))
    assert line.startswith("toolsearch plan: error: argument --tokenizer: invalid choice: 'gpt2'")


@pytest.mark.parametrize("args, fragment", [
    (["plan"], "the following arguments are required: SOURCE; expected SOURCE: a catalog file (YAML/JSON) or an "
               "MCP client config"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["plan", "{tiny}", "--context-length", "lots"], "expected a positive number of tokens"),
    (["sweep", "{tiny}", "--threshold-pcts", "a,b"], "argument --threshold-pcts: expected a number of percent"),
    (["plan", "{tiny}", "--listing", "sometimes"], "argument --listing: invalid choice"),
])
def test_usage_errors_are_one_line(tiny, args, fragment) -> None:
    line = one_line_error(run_cli(*[a.replace("{tiny}", str(tiny)) for a in args]))
    assert fragment in line


def test_config_file_errors(tiny, tmp_path) -> None:
    line = one_line_error(run_cli("plan", tiny, "--config", tmp_path / "none.yaml"))
    assert "none.yaml: cannot read config file" in line
    bad = tmp_path / "bad-config.yaml"
    bad.write_text("tools: [\n", encoding="utf-8")
    line = one_line_error(run_cli("plan", tiny, "--config", bad))
    assert f"{bad}: line 2, column 1: not valid YAML" in line


def test_describe_and_call_argument_errors(tiny, tmp_path) -> None:
    line = one_line_error(run_cli("describe", tiny))
    assert line == "toolsearch: error: describe: expected at least one tool NAME after the SOURCE files"
    line = one_line_error(run_cli("describe", tmp_path / "gone.yaml", "x"))
    assert "the first argument must be a catalog file that exists" in line
    line = one_line_error(run_cli("call", tiny, "a", "b"))
    assert line == ("toolsearch: error: call: expected exactly one tool NAME after the SOURCE files; pass the call's "
                    "arguments with -a JSON (--arguments), e.g. -a '{\"title\": \"Bug\"}'")
    # the arguments written where a second name would go: the message says how to pass them
    line = one_line_error(run_cli("call", tiny, "a", "{}"))
    assert line == ("toolsearch: error: call: '{}' after the tool NAME reads as another tool name; pass the call's "
                    "arguments with -a JSON (--arguments), e.g. -a '{\"title\": \"Bug\"}'")
    line = one_line_error(run_cli("call", tiny, "x", "-a", "{nope"))
    assert line.startswith("toolsearch: error: --arguments: not valid JSON")


def test_bad_profile(tiny, tmp_path) -> None:
    path = write_yaml(tmp_path / "profile.yaml", {"listing": {"header": "x"}})
    line = one_line_error(run_cli("plan", tiny, "--profile", path))
    assert line == f"toolsearch: error: {path}: listing.group_heading: missing (every key of the default profile is required)"


def test_catalog_problems_go_to_stderr_and_the_rest_loads(tmp_path) -> None:
    path = write_yaml(tmp_path / "mixed.yaml", {"servers": [
        {"name": "a", "tools": [{"description": "no name"}, {"name": "ok", "description": "Fine."}]}, "oops"]})
    result = run_cli("plan", path, "--json")
    data = json.loads(ok(result))
    assert data["deferred_count"] == 1
    assert result.stderr.splitlines() == [
        f"toolsearch: catalog error: {path}: servers[0].tools[0]: expected a non-empty string 'name'; tool skipped",
        f"toolsearch: catalog error: {path}: servers[1]: expected a server mapping with name and tools, got a string; skipped",
    ]


def test_python_dash_m_toolsearch(tiny) -> None:
    result = subprocess.run([sys.executable, "-m", "toolsearch", "plan", str(tiny), "--json"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["deferred_count"] == 2


def test_same_server_in_two_files_is_merged_whatever_the_order(tmp_path) -> None:
    a = write_yaml(tmp_path / "a.yaml", {"servers": [{"name": "gh", "tools": [
        {"name": "create_issue", "description": "Open an issue."}]}]})
    b = write_yaml(tmp_path / "b.yaml", {"servers": [{"name": "gh", "tools": [
        {"name": "list_issues", "description": "List issues."},
        {"name": "create_issue", "description": "Open an issue (second copy)."}]}]})
    first = run_cli("plan", a, b, "--json")
    second = run_cli("plan", b, a, "--json")
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout
    plan = json.loads(first.stdout)
    assert [(s["name"], s["tool_count"]) for s in plan["servers"]] == [("gh", 2)]
    assert "gh tools (2):" in plan["listing"]
    assert "merged into one server" in first.stderr


def test_mcp_server_and_plugin_of_one_name_share_a_listing_group(tmp_path) -> None:
    path = write_yaml(tmp_path / "merge.yaml", {"servers": [
        {"name": "kanban", "kind": "mcp", "tools": [{"name": "move_card", "description": "Move a card."}]},
        {"name": "kanban", "kind": "plugin", "tools": [{"name": "board_view", "description": "Show the board."}]}]})
    plan = json.loads(run_cli("plan", path, "--json").stdout)
    assert "kanban tools (2):" in plan["listing"]
    assert "kanban-2" not in plan["listing"]


@pytest.mark.parametrize("template,message", [
    ("{label} tools ({nope}):", "listing.group_heading: unknown placeholder {nope}"),
    ("{label} tools ({count):", "listing.group_heading: placeholder '{count' is not closed"),
    # Python format syntax is not filled: '{count:,}' reached the model literally, without a word
    ("{label} tools ({count:,}):", "listing.group_heading: placeholder '{count:,}' has a format spec, "
                                   "index or conversion; only the plain form {count} is filled"),
    ("{label[0]} tools:", "listing.group_heading: placeholder '{label[0]}' has a format spec"),
])
def test_profile_placeholder_typos_are_errors(tiny, tmp_path, template, message) -> None:
    import yaml as _yaml

    from toolsearch.engine.profile import default_profile

    data = {section: dict(values) for section, values in default_profile().sections.items()}
    data["listing"]["group_heading"] = template
    path = tmp_path / "profile.yaml"
    path.write_text(_yaml.safe_dump(data), encoding="utf-8")
    line = one_line_error(run_cli("plan", tiny, "--profile", str(path)))
    assert line.startswith(f"toolsearch: error: {path}: {message}")


def test_every_command_help_prints_usage(capsys) -> None:
    """``toolsearch --help`` and ``toolsearch COMMAND --help`` for every command exit 0 with the
    usage on stdout (help texts may contain a literal ``%``, e.g. "40 % of the query's IDF").
    The console script runs for the top-level help and one command's; every command's help goes
    through the same ``main`` in this process (a process start per command only repeated those)."""
    import argparse  # noqa: PLC0415

    from toolsearch.cli import commands as cli  # noqa: PLC0415

    top = run_cli("--help")
    assert (top.returncode, top.stderr) == (0, "") and top.stdout.startswith("usage: toolsearch ")
    search = run_cli("search", "--help")
    assert (search.returncode, search.stderr) == (0, "") and search.stdout.startswith("usage: toolsearch search ")
    assert "40 % of the query's IDF" in " ".join(search.stdout.split())
    sub = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    commands = list(sub.choices)
    assert {"plan", "search", "describe", "explain", "call", "sweep", "recommend", "snapshot", "synth",
            "strategies", "eval", "lint", "diff", "collapse", "sessions"} <= set(commands)
    for command in commands:
        with pytest.raises(SystemExit) as exit_:
            cli.main([command, "--help"])
        out, err = capsys.readouterr()
        assert (exit_.value.code, err) == (0, ""), command
        assert out.startswith(f"usage: toolsearch {command} "), command


def test_search_and_explain_say_which_limit_ran() -> None:
    """--limit is a whole number as every whole-number option reads it (anything else is refused,
    exit 2), then clamped as the bridge clamps the model's limit: a value clamped to another number
    is said on stderr, a plain one is not."""
    team = Path(__file__).resolve().parent.parent / "sample_catalogs" / "team-workspace.yaml"
    odd = run_cli("search", team, "-q", "slack message", "--limit", "nan")
    assert odd.returncode == 2 and odd.stdout == ""
    assert odd.stderr.strip().splitlines() == [
        "toolsearch search: error: argument --limit: expected a whole number of matches per query (e.g. 5), got 'nan'"]
    assert ("toolsearch: note: --limit 999 is read as 25, as the bridge reads the model's limit: clamped to 1..25 "
            "(max_search_limit)") in run_cli("explain", team, "-q", "slack message", "--limit", "999").stderr
    assert "--limit" not in run_cli("search", team, "-q", "slack message", "--limit", "3").stderr


def test_text_tables_align_by_what_the_terminal_shows(tmp_path) -> None:
    """A server name with a zero-width space is written with a marker (⟨U+200B⟩), and a Japanese
    name takes two columns a character: the server table measured neither, so every column after
    such a name was pushed out of line."""
    catalog = tmp_path / "names.yaml"
    catalog.write_text("name: names\nservers:\n"
                       "  - name: 乗換案内\n    tools: [{name: a, description: x}]\n"
                       "  - name: \"ab\\u200bcd\\u001b[31m\"\n    tools: [{name: b, description: y}]\n"
                       "  - name: plain\n    tools: [{name: c, description: z}]\n", encoding="utf-8")
    result = run_cli("plan", catalog, "--context-length", "200k", "--tool-names", "as-is")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("server "))
    table = lines[start:start + 5]
    assert [line.split("  ")[0] for line in table[2:]] == ["ab⟨U+200B⟩cd⟨U+001B⟩[31m", "plain", "乗換案内"]
    # the column after the name ("mcp") starts at the same terminal column on every row
    from wcwidth import wcswidth

    assert len({wcswidth(line[:line.index("mcp")]) for line in table[2:]}) == 1
    assert wcswidth(table[0][:table[0].index("kind")]) == wcswidth(table[2][:table[2].index("mcp")])


def test_a_flag_replaces_the_config_files_warning_about_its_key(tiny, tmp_path) -> None:
    """The file's warnings name the file and line; a flag for the same key replaces that warning."""
    config = tmp_path / "config.yaml"
    config.write_text("tools:\n  tool_search:\n    listing_max_tokens: 50\n    treshold_pct: 3\n", encoding="utf-8")
    result = run_cli("plan", tiny, "--config", config, "--listing-max-tokens", "2000", "--json")
    ok(result)
    assert result.stderr.splitlines() == [
        f"toolsearch: warning: {config}: line 4: tools.tool_search.treshold_pct: unknown key, ignored; did you mean threshold_pct?"]
