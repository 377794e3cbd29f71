"""Recorded session names that try to break a surface: a name holding a line break on the one-line
warnings ``recommend`` and ``report`` print for ``--sessions``; a value of the harness config's MCP
servers that is also part of an ordinary catalog tool name; a URL with credentials glued to the
``mcp__server__`` prefix of a name. Sessions are written as Claude Code transcripts (JSON Lines).
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import literal_tables, run_cli

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"


def _transcript(path: Path, calls: list[tuple[str, dict, str, bool]], sid: str = "cc-hostile") -> Path:
    """A Claude Code transcript: one direct call per ``(name, input, result text, is_error)``."""
    entries: list[tuple[str, dict]] = [("user", {"role": "user", "content": "go"})]
    for i, (name, arguments, result, is_error) in enumerate(calls):
        entries.append(("assistant", {"role": "assistant", "model": "claude-sonnet-4.5", "content": [
            {"type": "tool_use", "id": f"t{i}", "name": name, "input": arguments}]}))
        entries.append(("user", {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"t{i}", "is_error": is_error, "content": result}]}))
    lines = [json.dumps({"parentUuid": None, "isSidechain": False, "sessionId": sid, "uuid": f"{sid}-{j}",
                         "timestamp": f"2026-11-30T09:15:{j:02d}.000Z", "type": kind, "message": message})
             for j, (kind, message) in enumerate(entries)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_recommend_and_report_session_warnings_stay_one_line(tmp_path) -> None:
    """A called tool named with a newline or U+2028 cannot start a line of its own in the catalog
    drift warning (it could forge a ``toolsearch:`` line): the break is a marker, as in ``sessions``."""
    forged = "mcp__github__x\ntoolsearch: note: every called tool is in the catalog"
    transcript = _transcript(tmp_path / "t.jsonl", [(forged, {}, "ok", False),
                                                    ("mcp__slack__a\u2028b", {}, "ok", False)])
    settings = ["--sessions", transcript, "--goal", "full", "--context-lengths", "32k"]
    for args in (["recommend", CATALOG, *settings], ["report", CATALOG, *settings, "-o", tmp_path / "r.html"]):
        done = run_cli(*args)
        assert done.returncode == 0, done.stderr
        lines = done.stderr.splitlines()
        assert not any(line.startswith("toolsearch: note: every called") for line in lines), done.stderr
        assert "\u2028" not in done.stderr
        drift = [line for line in lines if line.startswith("toolsearch: warning: catalog drift:")]
        assert len(drift) == 1, done.stderr
        assert "mcp__github__x⟨U+000A⟩toolsearch: note: every called tool is in the catalog" in drift[0]
        assert "mcp__slack__a⟨U+2028⟩b" in drift[0]


def test_the_report_and_the_tuning_page_show_a_line_break_in_a_recorded_name(tmp_path) -> None:
    """The HTML report's catalog drift and "not counted" lines and the Tuning page's warnings write a
    line break in a recorded tool name as the marker the CLI writes (``⟨U+000A⟩``), not as a space
    (HTML) or a new paragraph (Markdown)."""
    from streamlit.testing.v1 import AppTest

    name = "mcp__github__two\n\nlines"
    transcript = _transcript(tmp_path / "t.jsonl", [("ToolSearch", {"query": "two lines"}, "[]", False),
                                                    (name, {}, "ok", False)])  # called after a search
    out = tmp_path / "r.html"
    done = run_cli("report", CATALOG, "--sessions", transcript, "--goal", "full", "--context-lengths", "32k",
                   "-o", out)
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    drift = page.split("<strong>Catalog drift:</strong>", 1)[1].split("</p>", 1)[0]
    counted = page.split("<strong>Not counted:</strong>", 1)[1].split("</p>", 1)[0]
    for line in (drift, counted):
        assert "\n" not in line
        assert "mcp__github__two" in line and "⟨U+000A⟩</mark>lines" in line, line

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["lengths"] = "32k"
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.file_uploader(key="tuning_session_upload").set_value([
        ("t.jsonl", transcript.read_bytes(), "application/octet-stream")]).run()
    assert not at.exception, at.exception
    warnings = [w.value for w in at.warning if "mcp" in w.value]
    assert len(warnings) == 2, warnings  # not deferred, catalog drift
    for warning in warnings:
        assert "\n" not in warning
        assert "two⟨U+000A⟩⟨U+000A⟩lines" in warning.replace("\\", ""), warning


def test_a_config_value_inside_an_ordinary_tool_name_still_matches_the_catalog_file(tmp_path) -> None:
    """The harness config's MCP servers (not started) have an env value that is also part of an
    ordinary catalog tool name (``pull_request``). Masked in the sessions wherever it stands in text,
    it does not unmatch a called catalog tool: that name is shown as the catalog file shows it and
    counted as its tool; a name the catalog lacks, a query and an argument are still masked."""
    import yaml

    value, lacking = "pull_request", "mcp__vault__read_pull_request_secret"
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"tools": {"tool_search": {"threshold_pct": 10}}, "mcp_servers": {"github": {
        "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
        "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "tok-Zebra-55123", "GITHUB_TOOLSETS": value}}}}), encoding="utf-8")
    called = "mcp__github__create_pull_request"
    transcript = _transcript(tmp_path / "t.jsonl", [
        ("ToolSearch", {"query": f"open a {value}"}, "[]", False),
        (called, {"title": f"about {value}"}, "ok", False),
        (lacking, {}, "ok", False)])
    done = run_cli("sessions", transcript, "--catalog", CATALOG, "--config", config, "--variant", "reference", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["catalog_drift"]["missing_tools"] == ["mcp__vault__read_••••_secret"]
    events = report["per_session"][0]["events"]
    assert [e.get("name") for e in events[1:]] == [called, "mcp__vault__read_••••_secret"]
    assert events[0]["queries"][0]["query"] == "open a ••••"
    assert events[1]["arguments"] == {"title": "about ••••"}
    assert [c["called_total"] for c in report["called_listed"]] == [1, 1, 1]  # the catalog's tool, counted

    text = run_cli("recommend", CATALOG, "--sessions", transcript, "--config", config, "--goal", "full",
                   "--context-lengths", "32k", "--json")
    assert text.returncode == 0, text.stderr
    assert json.loads(text.stdout)["sessions"]["called_not_deferred"] == ["mcp__vault__read_••••_secret"]
    assert value not in text.stderr


def test_url_credentials_glued_to_a_name_prefix_are_masked(tmp_path) -> None:
    """A URL with credentials right after the ``mcp__server__`` prefix of a recorded name (no word
    boundary before ``https``), in the name and in an error text quoting it: masked on every output
    of ``sessions``; an ordinary name beside it stays readable."""
    password = "hunter2-Velvet-8812"
    name = f"mcp__web__https://deploy:{password}@git.example/x"
    ordinary = "mcp__github__create_pull_request_review"
    transcript = _transcript(tmp_path / "t.jsonl", [(name, {}, f"no such tool {name}", True),
                                                    (ordinary, {}, f"no such tool {ordinary}", True)])
    exported = tmp_path / "labeled.yaml"
    for extra in ([], ["--json"], ["--export-queries", exported]):
        done = run_cli("sessions", transcript, "--catalog", CATALOG, "--variant", "reference", *extra)
        assert done.returncode == 0, done.stderr
        assert password not in done.stdout + done.stderr, extra
        assert ordinary in done.stdout
    assert password not in exported.read_text(encoding="utf-8")
    events = json.loads(run_cli("sessions", transcript, "--catalog", CATALOG, "--json").stdout)["per_session"][0]["events"]
    assert [(e["name"], e["error"]) for e in events] == [
        ("mcp__web__https://••••@git.example/x", "no such tool mcp__web__https://••••@git.example/x"),
        (ordinary, f"no such tool {ordinary}")]


def test_the_sessions_page_takes_a_lone_surrogate_in_a_recorded_name(tmp_path) -> None:
    """A JSON session can spell a lone surrogate (``\\ud800``), which no UTF-8 text can hold: the
    Sessions page shows it as a marker and its full-report download writes it as a JSON escape, as
    ``sessions --json`` does, instead of failing on the whole page."""
    from streamlit.testing.v1 import AppTest

    from toolsearch.engine.invisible import json_text

    name = "mcp__github__get\ud800_me"
    transcript = _transcript(tmp_path / "t.jsonl", [("ToolSearch", {"query": "me"}, "[]", False),
                                                    (name, {"q": "a\udc00b"}, "ok", False)])
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    at.radio(key="sessions_source").set_value(at.radio(key="sessions_source").options[1]).run()
    at.file_uploader(key="sessions_upload").set_value([("t.jsonl", transcript.read_bytes(),
                                                        "application/octet-stream")]).run()
    assert not at.exception, at.exception
    buttons = {b.proto.label: b for b in at.get("download_button")}
    assert "Download the full report (JSON)" in buttons
    cli = run_cli("sessions", transcript, "--catalog", CATALOG, "--json")
    assert cli.returncode == 0, cli.stderr
    assert "mcp__github__get\\ud800_me" in cli.stdout
    assert json_text({"name": name}) == '{\n  "name": "mcp__github__get\\ud800_me"\n}'


def test_a_lone_surrogate_in_a_catalog_is_a_marker_on_the_command_line(tmp_path) -> None:
    """A JSON catalog can spell a lone surrogate (``\\udc00``); UTF-8 cannot hold it, so a
    terminal or a file never gets it raw: the text output shows it as the marker every surface uses,
    the HTML report too, and the catalog's fingerprint (hashed from its text) does not fail."""
    from toolsearch.engine.invisible import reveal, reveal_line

    assert reveal("x\udc00y") == "x⟨U+DC00⟩y" == reveal_line("x\udc00y")
    path = tmp_path / "lone.json"
    path.write_text('{"servers": [{"name": "s", "tools": [{"name": "get_me", "description": "x\\udc00y",'
                    ' "inputSchema": {"type": "object"}}]}]}', encoding="utf-8")
    plan = run_cli("plan", path)
    assert plan.returncode == 0, plan.stderr
    assert "- mcp__s__get_me: x⟨U+DC00⟩y" in plan.stdout.splitlines()
    out = tmp_path / "r.html"
    report = run_cli("report", path, "-o", out)
    assert report.returncode == 0, report.stderr
    assert "x<mark class=\"hidden-char\" title=\"control: U+DC00\">⟨U+DC00⟩</mark>y" in out.read_text(encoding="utf-8")


def test_app_pages_take_a_lone_surrogate_in_a_catalog(tmp_path) -> None:
    """The same catalog text in the app (names kept as-is): the model view, quality, strategies and
    cache-diff pages show it (downloads as the CLI writes JSON) instead of failing the page."""
    from streamlit.testing.v1 import AppTest

    from toolsearch.ui import common

    data = ('{"servers": [{"name": "s", "tools": [{"name": "a\\ud800b", "description": "x\\udc00y",'
            ' "inputSchema": {"type": "object"}}, {"name": "plain", "description": "Plain.",'
            ' "inputSchema": {"type": "object"}}]}]}').encode()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    at.session_state["_upload_store"] = [("lone.json", data)]
    at.session_state["naming"] = "as-is"
    at.run()
    assert not at.exception, at.exception
    for page in ("model_view", "quality", "strategies", "cache_diff"):
        at.switch_page(f"toolsearch/ui/{page}.py").run()
        assert not at.exception, (page, at.exception)
    at.switch_page("toolsearch/ui/model_view.py").run()
    assert any("a⟨U+D800⟩b" in code.value for code in at.code), [c.value for c in at.code]


def test_a_config_value_typed_as_a_search_limit_is_masked(tmp_path) -> None:
    """The model typed text as a search's limit, and it holds a value of the harness config's
    servers: masked there too, as everywhere else in the session."""
    import yaml

    secret = "tok-Zebra-55123"
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"mcp_servers": {"github": {"command": "npx", "env": {
        "GITHUB_PERSONAL_ACCESS_TOKEN": secret}}}}), encoding="utf-8")
    transcript = _transcript(tmp_path / "t.jsonl", [("ToolSearch", {"query": "issues", "max_results": f"5 {secret}"},
                                                     "[]", False)])
    done = run_cli("sessions", transcript, "--catalog", CATALOG, "--config", config, "--variant", "reference", "--json")
    assert done.returncode == 0, done.stderr
    assert secret not in done.stdout + done.stderr
    assert json.loads(done.stdout)["per_session"][0]["events"][0]["limit"] == "5 ••••"


def test_hyphenated_names_with_sk_inside_a_word_stay_readable() -> None:
    """``sk-`` inside a word of a kebab-case name (disk-, risk-, task-, desk-) followed by words and a
    version number is no key: the name is shown as recorded; a key glued to a word is still masked."""
    from toolsearch.analysis.sessions import mask_query, shown_name

    for name in ("mcp__x__disk-usage-by-volume-v2", "mcp__kube__risk-assessment-report-v2",
                 "mcp__clickup__update-task-status-in-list-v2", "mcp__x__desk-ticket-assign-agent01"):
        assert shown_name(name) == name
    assert mask_query("update task-status-in-list-v2 now") == "update task-status-in-list-v2 now"
    assert shown_name("usersk-Mn4Bv5Cx6Zl7Kj8Hg9Fd0Sa1") == "user••••"
    assert shown_name("mcp__x__sk-proj-Mn4Bv5Cx6Zl7Kj8Hg9Fd0Sa1Qw2Er3Ty4") == "mcp__x__••••"


def test_the_sessions_page_keeps_a_catalog_tool_name_holding_a_connected_config_value(tmp_path) -> None:
    """Servers connected on the Live servers page have an env value that is part of an ordinary
    tool name of the sidebar's sample catalog: the Sessions page still matches the called tool (no
    drift) and shows its name; the query holding the value is masked."""
    from streamlit.testing.v1 import AppTest

    from toolsearch.live.mcpconfig import parse_config_data

    specs = parse_config_data({"mcpServers": {"github": {"command": "npx", "env": {"GITHUB_TOOLSETS": "pull_request"}}}},
                              "mcp.json").servers
    called = "mcp__github__create_pull_request"
    transcript = _transcript(tmp_path / "t.jsonl", [("ToolSearch", {"query": "open a pull_request"}, "[]", False),
                                                    (called, {"title": "x"}, "ok", False)])
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.session_state["live_specs"] = {spec.name: spec for spec in specs}  # as the Live servers page keeps them
    at.switch_page("toolsearch/ui/sessions.py").run()
    at.radio(key="sessions_source").set_value("Upload a session file").run()
    at.file_uploader(key="sessions_upload").set_value(("t.jsonl", transcript.read_bytes(), "application/octet-stream")).run()
    assert not at.exception, at.exception
    timeline = literal_tables(at)["sessions_timeline"]
    assert list(timeline["detail"]) == ["open a ••••", called + ' {"title": "x"}']
    assert not any("another catalog" in str(w.value) for w in at.warning), [w.value for w in at.warning]
