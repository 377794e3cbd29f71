"""Reading limits: every YAML/JSON reader refuses an alias bomb, deep nesting and an oversize file
with one line naming the file and the limit, before it can exhaust memory; unclosed quotes and
bytes that are not UTF-8 are reported where they are."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli, toolsearch_command
from toolsearch.engine import readers
from toolsearch.engine.errors import CatalogError, ConfigError, InputLimitError, ProfileError, ToolsearchError

ROOT = Path(__file__).resolve().parent.parent
LIMIT = re.escape(f"{readers.MAX_ALIAS_NODES:,}")


def alias_bomb(levels: int = 25, fanout: int = 4, top: str = "servers") -> str:
    """A "billion laughs" YAML document: each anchor lists the previous one ``fanout`` times,
    so ``top`` expands to fanout**levels nodes (4**25, about 10**15) from about 1.3 KB."""
    lines = [f"lol00: &lol00 [{', '.join(['lol'] * fanout)}]"]
    for level in range(1, levels):
        lines.append(f"lol{level:02d}: &lol{level:02d} [{', '.join([f'*lol{level - 1:02d}'] * fanout)}]")
    lines.append(f"{top}: [{', '.join([f'*lol{levels - 1:02d}'] * fanout)}]")
    return "\n".join(lines) + "\n"


def catalog_bomb() -> str:
    """:func:`alias_bomb` where a catalog reader walks it: in a tool's ``inputSchema``."""
    return alias_bomb(top="bomb") + ("servers:\n  - name: s\n    tools:\n      - name: t\n"
                                     "        inputSchema: {type: object, properties: {p: {enum: *lol24}}}\n")


def deep_json(levels: int = 5000) -> str:
    return '{"servers": ' + "[" * levels + "]" * levels + "}"


def deep_yaml(levels: int = 300) -> str:
    return "servers: " + "[" * levels + "]" * levels + "\n"


def oversize(path: Path) -> Path:
    """A sparse file just over the size limit (costs no disk)."""
    with open(path, "wb") as fh:
        fh.truncate(readers.MAX_INPUT_BYTES + 1)
    return path


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """The CLI; a hang or a runaway parse fails the test through the timeout."""
    return subprocess.run([*toolsearch_command(), *map(str, args)], capture_output=True, text=True,
                          encoding="utf-8", timeout=timeout)


# --- the CLI ------------------------------------------------------------------------------------

def test_plan_refuses_a_yaml_alias_bomb_quickly_naming_the_file_and_the_limit(tmp_path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(catalog_bomb(), encoding="utf-8")
    assert 1000 < path.stat().st_size < 1500
    result = run("plan", path, timeout=30)
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and result.stderr.count("\n") == 1
    assert re.fullmatch(rf"toolsearch: error: {re.escape(str(path))}: line \d+, column \d+: YAML aliases would "
                        rf"expand to more than {LIMIT} nodes \(limit\); not read\n", result.stderr), result.stderr


@pytest.mark.parametrize("name, text", [("deep.json", deep_json()), ("deep.yaml", deep_yaml()),
                                        ("deep-block.yaml", "servers:\n" + "".join(" " * i + "- \n" for i in range(1, 600)))],
                         ids=["deep.json", "deep.yaml", "deep-block.yaml"])  # short ids: the test id is in the env
def test_plan_refuses_deep_nesting(tmp_path, name, text) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = run("plan", path)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""
    assert result.stderr.startswith(f"toolsearch: error: {path}: ")
    assert f"nested more than {readers.MAX_NESTING_DEPTH} levels deep (limit); not read" in result.stderr


def test_plan_refuses_an_oversize_file_before_reading_it(tmp_path) -> None:
    path = oversize(tmp_path / "huge.json")
    result = run("plan", path)
    assert result.returncode == 2, result.stderr
    assert result.stderr == (f"toolsearch: error: {path}: {readers.MAX_INPUT_BYTES + 1:,} bytes, over the 64 MiB "
                             "limit for one input file; not read\n")


def test_an_unclosed_quote_is_reported_where_it_opens(tmp_path) -> None:
    path = tmp_path / "quote.yaml"
    path.write_text('name: ok\nservers:\n  - name: "github\n    tools:\n      - name: a\n      - name: b\n'
                    "      - name: c\n", encoding="utf-8")
    result = run("plan", path)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"toolsearch: error: {path}: line 3, column 11: not valid YAML or JSON "
                                    "(a quoted string starts here and is not closed: "), result.stderr
    # the same in a harness config given with --config
    config = tmp_path / "config.yaml"
    config.write_text("tools:\n  tool_search:\n    listing: 'on\n    threshold_pct: 5\n", encoding="utf-8")
    catalog = ROOT / "sample_catalogs" / "issue-tracker.yaml"
    result = run("plan", catalog, "--config", config)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"toolsearch: error: {config}: line 3, column 14: not valid YAML "
                                    "(a quoted string starts here"), result.stderr


def test_an_unclosed_bracket_is_reported_where_it_opens(tmp_path) -> None:
    # PyYAML marks the end of the input: in a long catalog that place says nothing
    path = tmp_path / "bracket.yaml"
    path.write_text("servers:\n  - name: gh\n    tools: [\n      {name: a, inputSchema: {type: object}},\n"
                    "      {name: b, inputSchema: {type: object}}\n\n\n", encoding="utf-8")
    result = run_cli("plan", path)
    assert result.returncode == 2
    assert result.stderr == (f"toolsearch: error: {path}: line 3, column 12: not valid YAML or JSON (a '[' opens "
                             "here and is not closed: expected ',' or ']', but got '<stream end>' at line 8)\n")
    # closed by the wrong bracket, or left open before the next item: the error also names where it opens
    path.write_text('{"servers": [{"name": "gh", "tools": [{"name": "a", "inputSchema": {"type": "object"}\n]}]}\n',
                    encoding="utf-8")
    result = run_cli("plan", path)
    assert result.stderr == (f"toolsearch: error: {path}: line 2, column 1: not valid YAML or JSON (expected ',' "
                             "or '}', but got ']', inside the '{' that opens at line 1, column 39)\n")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_a_utf16_file_is_named_utf16(tmp_path, encoding) -> None:
    """Windows PowerShell's '>' and Notepad's "Unicode" write UTF-16 with a byte order mark; the error
    named only the first byte of the mark, which does not tell what the file is."""
    from toolsearch.analysis.sessions import load_sessions_bytes
    from toolsearch.analysis.session_formats import SessionSourceError

    text = (Path(__file__).resolve().parent.parent / "sample_catalogs" / "five-servers.yaml").read_text(encoding="utf-8")
    data = (b"\xfe\xff" if encoding == "utf-16-be" else b"") + text.encode(encoding)
    path = tmp_path / "catalog.yaml"
    path.write_bytes(data)
    result = run("plan", path)
    assert result.returncode == 2, result.stderr
    assert result.stderr == (f"toolsearch: error: {path}: line 1, column 1 (byte 0): not UTF-8 text (byte 0x{data[0]:02x}; "
                             "it starts with UTF-16's byte order mark: UTF-16 text); save the file as UTF-8\n")
    with pytest.raises(SessionSourceError, match=r"^up\.jsonl: line 1, column 1 \(byte 0\): not UTF-8 text \(byte "
                                                 r"0x..; it starts with UTF-16's byte order mark: UTF-16 text\); "):
        load_sessions_bytes(data, "up.jsonl")


def test_a_file_that_is_not_utf8_names_the_line_of_the_bad_byte(tmp_path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"servers:\n  - name: docs\n    tools:\n      - name: caf\xe9\n")
    result = run("plan", path)
    assert result.returncode == 2, result.stderr
    assert result.stderr == (f"toolsearch: error: {path}: line 4, column 18 (byte 52): not UTF-8 text (byte 0xe9); "
                             "save the file as UTF-8\n")
    config = tmp_path / "mcp.json"
    config.write_bytes(b'{"mcpServers": {\n  "x": {"command": "\xff"}}}\n')
    result = run("plan", config)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"toolsearch: error: {config}: line 2, column 21 (byte 37): not UTF-8 text")


# --- every reader -------------------------------------------------------------------------------

def _skill_list(path: Path):
    from toolsearch.analysis.skills import load_skills

    return load_skills(path)


def _sessions(path: Path):
    from toolsearch.analysis.sessions import load_sessions

    return load_sessions([path], "openai")


def _readers():
    from toolsearch.analysis import evaluation, skills, strategies
    from toolsearch.analysis.session_formats import SessionSourceError
    from toolsearch.engine import catalog, config, profile, scopes
    from toolsearch.live import client, mcpconfig

    return [  # (name, read(path), error class, YAML?)
        ("catalog", catalog.load_source, CatalogError, True),
        ("live source", client.read_source, CatalogError, True),
        ("mcp config", mcpconfig.load_mcp_config, ConfigError, True),
        ("harness config", config.load_config, ConfigError, True),
        ("profile", profile.load_profile, ProfileError, True),
        ("scope file", scopes.load_scope_file, scopes.ScopeError, True),
        ("query file", evaluation.load_queries, evaluation.QueryFileError, True),
        ("events file", strategies.load_events, strategies.StrategyError, True),
        ("skill list", _skill_list, skills.SkillError, True),
        ("session file", _sessions, SessionSourceError, False),
    ]


READERS = _readers()


@pytest.mark.parametrize("name, read, error, is_yaml", READERS, ids=[r[0] for r in READERS])
@pytest.mark.parametrize("kind", ["alias bomb", "deep", "oversize"])
def test_every_reader_refuses_inputs_over_the_limits(tmp_path, name, read, error, is_yaml, kind) -> None:
    if kind == "alias bomb" and not is_yaml:
        pytest.skip("JSON has no aliases")
    suffix = ".yaml" if is_yaml else ".json"
    path = tmp_path / f"input{suffix}"
    if kind == "alias bomb":
        path.write_text(alias_bomb(top="servers"), encoding="utf-8")
        expected = rf"YAML aliases would expand to more than {LIMIT} nodes \(limit\)"
    elif kind == "deep":
        path.write_text(deep_json() if not is_yaml else deep_yaml(), encoding="utf-8")
        expected = rf"nested more than {readers.MAX_NESTING_DEPTH} levels deep \(limit\)"
    else:
        oversize(path)
        expected = r"over the 64 MiB limit for one input file"
    with pytest.raises(InputLimitError) as info:
        read(path)
    assert isinstance(info.value, error)  # the reader's own handlers (CLI, pages) catch it
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(path)), message
    assert re.search(expected, message), message


@pytest.mark.parametrize("name, read, error, is_yaml", READERS, ids=[r[0] for r in READERS])
def test_every_reader_refuses_a_named_pipe_with_no_writer_instead_of_hanging(tmp_path, name, read, error,
                                                                                is_yaml) -> None:
    """``toolsearch eval CATALOG fifo.yaml`` (or plan, a config, a scope file…) on a FIFO nothing
    writes to hung in ``open`` for ever; it is one line naming the file."""
    import os  # noqa: PLC0415
    import threading  # noqa: PLC0415

    path = tmp_path / ("input.yaml" if is_yaml else "input.json")
    os.mkfifo(path)
    outcome: list[BaseException | object] = []

    def attempt() -> None:
        try:
            outcome.append(read(path))
        except BaseException as exc:  # noqa: BLE001 - the thread reports whatever happened
            outcome.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(5)
    if worker.is_alive():  # release the blocked open (a writer that closes at once), then fail
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(5)
        pytest.fail(f"{name}: reading a FIFO with no writer hung")
    assert len(outcome) == 1 and isinstance(outcome[0], error), outcome
    message = str(outcome[0])
    assert "\n" not in message and message.startswith(str(path)), message
    if name != "session file":  # refused before it is opened: not a regular file
        assert "a named pipe with nothing writing to it" in message, message


@pytest.mark.parametrize("name, read, error, is_yaml", READERS, ids=[r[0] for r in READERS])
def test_every_reader_refuses_a_key_given_twice(tmp_path, name, read, error, is_yaml) -> None:
    """The parsers keep the last of two equal keys and drop the first without a word: a task's
    second 'expected: []' silently made it an abstention test, a second 'servers: []' emptied a
    catalog. A key given twice is one line naming the file (and, in YAML, the place)."""
    if name == "session file":
        pytest.skip("recorded sessions are other programs' output, read line by line as they wrote it")
    if is_yaml:
        path = tmp_path / "input.yaml"
        path.write_text("servers: [1]\nother: 2\nservers: []\n", encoding="utf-8")
        expected = r"line 3, column 1: the key 'servers' is given twice in one mapping \(first at line 1\)"
    else:
        path = tmp_path / "input.json"
        path.write_text('{"servers": [1], "servers": []}', encoding="utf-8")
        expected = "the key 'servers' is given twice in one object; expected each key once"
    with pytest.raises(error) as info:
        read(path)
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(path)), message
    assert re.search(expected, message), message


def test_a_key_given_twice_in_json_with_comments_is_refused_and_merge_keys_still_read() -> None:
    with pytest.raises(ToolsearchError, match="the key 'a' is given twice in one object"):
        readers.load_data('{"a": 1, // note\n "a": 2,}', "c.json")
    assert readers.load_data("base: &b {x: 1}\nitem:\n  <<: *b\n  y: 2\n", "m.yaml") == {
        "base": {"x": 1}, "item": {"x": 1, "y": 2}}
    assert readers.load_data("a: 1\n'1': 2\n1: 3\n", "k.yaml") == {"a": 1, "1": 2, 1: 3}  # distinct keys


def test_yaml_keys_spelled_differently_that_read_as_one_key_are_refused(tmp_path) -> None:
    """`1`, `true` and `yes` are three spellings of one Python key (1 == True), as `~` and `null`
    are of None: the mapping kept only the last, so two properties of a schema vanished without
    a word. The catalog command refuses it in one line naming the place, as for a key given twice."""
    path = tmp_path / "keys.yaml"
    path.write_text("servers:\n  - name: s\n    tools:\n      - name: t\n        inputSchema:\n"
                    "          type: object\n          properties:\n            1: {type: string}\n"
                    "            '1': {type: integer}\n            yes: {type: number}\n", encoding="utf-8")
    result = run_cli("describe", path, "mcp__s__t")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr == (f"toolsearch: error: {path}: line 10, column 13: the key 'yes' reads as the same key "
                             "as '1' at line 8 of the same mapping, so one would be dropped; expected each key "
                             "once (put text keys in quotes)\n")
    for text in ("~: 1\nnull: 2\n", "1: a\n1.0: b\n", "on: 1\ntrue: 2\n", "0x1: a\n1: b\n"):
        with pytest.raises(ToolsearchError, match=r"^k\.yaml: line 2, column 1: the key '.*' reads as the same key"):
            readers.load_data(text, "k.yaml")
    assert readers.load_data("1: a\n2: b\n'1': c\n", "k.yaml") == {1: "a", 2: "b", "1": "c"}


def test_text_readers_and_uploads_share_the_limits() -> None:
    from toolsearch.analysis.evaluation import load_queries_text
    from toolsearch.analysis.skills import parse_skill_md
    from toolsearch.analysis.strategies import events_from_text
    from toolsearch.engine.catalog import load_text
    from toolsearch.engine.profile import profile_from_text
    from toolsearch.engine.scopes import scopes_from_text
    from toolsearch.live.mcpconfig import parse_config_text

    for parse in (load_text, parse_config_text, profile_from_text, scopes_from_text, load_queries_text,
                  events_from_text):
        with pytest.raises(InputLimitError, match=r"^up\.yaml: line \d+, column \d+: YAML aliases"):
            parse(alias_bomb(), "up.yaml")
    # A skill's frontmatter: that skill is skipped with the reason, the call does not fail.
    problems: list = []
    assert parse_skill_md("---\n" + alias_bomb(top="name") + "---\nbody\n", "SKILL.md", problems) is None
    assert len(problems) == 1 and "YAML aliases would expand" in problems[0].message
    assert problems[0].where.startswith("SKILL.md: line ")


def test_a_deep_jsonl_line_is_skipped_with_a_word_and_the_rest_is_read(tmp_path) -> None:
    from toolsearch.analysis.sessions import load_sessions

    good = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(good) + "\n" + "[" * 5000 + "]" * 5000 + "\n" + json.dumps(good) + "\n",
                    encoding="utf-8")
    loaded = load_sessions([path], "openai")
    assert len(loaded.sessions) == 2
    assert [(p.where, p.message) for p in loaded.problems] == [
        (f"{path}:2", f"top level: nested more than {readers.MAX_NESTING_DEPTH} levels deep (limit); not read; "
                      "line skipped")]


def test_ordinary_anchors_and_the_shipped_samples_still_load() -> None:
    text = ("shared: &schema {type: object, properties: {q: {type: string}}}\n"
            "servers:\n  - name: s\n    tools:\n      - {name: a, inputSchema: *schema}\n"
            "      - {name: b, inputSchema: *schema}\n")
    from toolsearch.engine.catalog import load_source, load_text

    catalog = load_text(text, "anchors.yaml")
    assert [t.input_schema for t in catalog.servers[0].tools] == [
        {"type": "object", "properties": {"q": {"type": "string"}}}] * 2
    for path in sorted((ROOT / "sample_catalogs").glob("*.yaml")):
        assert load_source(path).tool_count > 0


def long_text_bomb(copies: int, text_chars: int = 1_000_000) -> str:
    """A catalog whose one long description is anchored once and aliased ``copies`` times: few
    nodes, but ``copies`` x ``text_chars`` characters once expanded."""
    lines = [f"text: &text \"{'word ' * (text_chars // 5)}\"", "servers:", "  - name: s", "    tools:"]
    lines += [f"      - {{name: t{i}, description: *text}}" for i in range(copies)]
    return "\n".join(lines) + "\n"


def test_check_refuses_a_long_string_aliased_past_the_text_limit_quickly(tmp_path) -> None:
    # 1 MB of file, 100 MB of descriptions once expanded: more text than the largest file may hold
    path = tmp_path / "long-alias.yaml"
    path.write_text(long_text_bomb(100), encoding="utf-8")
    result = run("check", path, "--context-lengths", "32k", "--goal", "names", timeout=30)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    assert re.fullmatch(rf"toolsearch: error: {re.escape(str(path))}: line \d+, column \d+: YAML aliases would "
                        rf"expand to more than {readers.MAX_ALIAS_CHARS:,} characters of text \(limit\); not read\n",
                        result.stderr), result.stderr


def test_a_long_string_aliased_a_few_times_still_loads() -> None:
    from toolsearch.engine.catalog import load_text

    catalog = load_text(long_text_bomb(10), "few-aliases.yaml")
    assert [len(t.description) for t in catalog.servers[0].tools] == [1_000_000] * 10
    with pytest.raises(InputLimitError, match=r"characters of text \(limit\); not read$"):
        load_text(long_text_bomb(70), "many-aliases.yaml")


def test_a_recursive_alias_is_refused() -> None:
    with pytest.raises(InputLimitError, match=r"^r\.yaml: line 1, column \d+: an alias refers to a node that "
                                              r"contains it \(a recursive alias\); not read$"):
        readers.load_yaml("a: &a [1, *a]\n", "r.yaml", ToolsearchError)


# --- the app ------------------------------------------------------------------------------------

def test_an_alias_bomb_config_uploaded_on_the_live_page_is_a_message(tmp_path) -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / "live.py"), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    bomb = alias_bomb(top="mcpServers").encode()
    assert len(bomb) < 1500
    at.file_uploader(key="live_config_upload").set_value(("mcp.yaml", bomb, "application/x-yaml"))
    at.run()
    assert not at.exception, at.exception
    errors = [e.value for e in at.error]
    assert any("mcp\\.yaml" in e and "YAML aliases would expand to more than" in e and "limit" in e
               for e in errors), errors


def test_every_text_uploader_says_the_limit_the_readers_apply() -> None:
    """The upload boxes of text inputs carry the readers' limit (Streamlit's default box says 200 MB,
    which the readers then refused above 64 MiB); the session uploaders, which also take SQLite
    stores the readers do not cap, keep the app's. Checked on every uploader in the source, and
    as the browser receives it on the Live servers page."""
    import ast

    from streamlit.testing.v1 import AppTest

    from toolsearch.ui.sources import TEXT_UPLOAD_MB

    assert TEXT_UPLOAD_MB * 1024 * 1024 == readers.MAX_INPUT_BYTES
    calls = []
    for path in sorted((ROOT / "toolsearch" / "ui").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "file_uploader":
                keywords = {k.arg: ast.unparse(k.value) for k in node.keywords}
                calls.append((path.name, keywords.get("key", ""), keywords.get("max_upload_size")))
    sessions = {c for c in calls if "session" in c[1]}
    assert len(calls) == 10 and len(sessions) == 2, calls
    assert all(limit is None for *_, limit in sessions)
    assert all(limit == "TEXT_UPLOAD_MB" for c in calls if c not in sessions for limit in c[2:]), calls
    at = AppTest.from_file(str(ROOT / "pages" / "live.py"), default_timeout=60)
    at.run()
    box = next(e for e in at.get("file_uploader") if e.proto.id.endswith("live_config_upload"))
    assert box.proto.max_upload_size_mb == TEXT_UPLOAD_MB


def test_the_security_doc_states_the_limits_in_force() -> None:
    from toolsearch.live import reaper

    text = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    section = text.split("## Limits and processes", 1)[1]
    assert f"{readers.MAX_INPUT_BYTES // (1024 * 1024)} MiB per file" in section
    assert f"at most {readers.MAX_ALIAS_NODES:,} nodes added by expanding aliases" in section
    assert f"and at most {readers.MAX_ALIAS_CHARS // (1024 * 1024)} Mi characters of text" in section
    assert f"{readers.MAX_NESTING_DEPTH} levels of mappings and lists" in section
    from toolsearch.analysis.session_formats import MAX_STORE_SESSIONS

    assert f"At most {MAX_STORE_SESSIONS:,} sessions are read from one store" in section
    assert f"over the limit of\n{MAX_STORE_SESSIONS:,} per store: the newest {MAX_STORE_SESSIONS:,} read" in section
    assert reaper.STOP_GRACE == 1.0 and "SIGKILL one second later" in section
    assert f"`{reaper.ENV_MARK}`" in section
    from toolsearch.engine import constants
    from toolsearch.live import client

    flat = " ".join(section.split())
    assert f"`toolsearch synth` writes at most {constants.SYNTH_MAX_TOOLS:,} tools" in flat
    assert (f"While {constants.LIVE_SERVER_REQUESTS_MAX:,} of them wait" in flat
            and f"for {constants.LIVE_SERVER_REQUESTS_WAIT:g} seconds, it is closed" in flat)
    assert f"its first {client._CURSOR_SHOWN_CHARS} characters and its length" in flat
    assert f"At most {constants.LIVE_TOOLS_MAX:,} tools are kept from one server" in flat
    assert f"only its last {client._STDERR_READ_BYTES // 1024} KiB are kept" in flat


def test_a_deep_session_file_is_refused_when_its_format_is_sniffed_too(tmp_path) -> None:
    from toolsearch.analysis.session_formats import SessionSourceError
    from toolsearch.analysis.sessions import load_sessions, load_sessions_bytes

    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    for load in (lambda: load_sessions([path]), lambda: load_sessions_bytes(path.read_bytes(), str(path))):
        with pytest.raises(SessionSourceError, match=rf"^{re.escape(str(path))}: top level: nested more than "
                                                     rf"{readers.MAX_NESTING_DEPTH} levels deep \(limit\)"):
            load()


def test_deeply_nested_call_arguments_are_a_bridge_error_not_a_crash() -> None:
    from toolsearch.engine.catalog import load_source
    from toolsearch.engine.config import ToolSearchConfig
    from toolsearch.engine.inspector import Inspector

    bridge = Inspector(load_source(ROOT / "sample_catalogs" / "issue-tracker.yaml")).bridge(ToolSearchConfig())
    response = bridge.tool_call({"calls": "[" * 100_000 + "]" * 100_000})
    assert "nested more than" in json.dumps(response), response
    response = bridge.tool_call({"calls": [{"name": "x", "arguments": "{\"a\": " * 5000 + "1" + "}" * 5000}]})
    assert "nested more than" in json.dumps(response), response


def test_a_control_character_in_yaml_is_one_line_naming_its_line_and_column() -> None:
    """YAML refuses control characters with a two-line PyYAML message ('...\\n  in "<unicode
    string>", position 9'); the error is one line with the line, column and the character shown
    visibly, like every other YAML error. (Found uploading a binary tuning file on the Quality page.)"""
    with pytest.raises(ToolsearchError) as info:
        readers.load_yaml("a: 1\nb: x\x07y", "q.yaml", what="YAML or JSON")
    assert str(info.value) == ("q.yaml: line 2, column 5: not valid YAML or JSON (control character U+0007 is "
                               "not allowed)")
    with pytest.raises(ToolsearchError) as info:
        readers.load_data("\x00\x01binary", "t.yaml")
    assert str(info.value) == "t.yaml: line 1, column 1: not valid YAML or JSON (control character U+0000 is not allowed)"


@pytest.mark.parametrize("name, read, error, is_yaml", READERS, ids=[r[0] for r in READERS])
@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_every_reader_refuses_a_number_too_long_to_read(tmp_path, name, read, error, is_yaml, suffix) -> None:
    """Python reads integers of at most 4,300 digits: a longer one in a catalog (JSON or YAML)
    ended ``plan`` with a ValueError traceback ending in 'use sys.set_int_max_str_digits()'."""
    if name == "session file":
        pytest.skip("a session file is read line by line: see the JSON Lines test below")
    path = tmp_path / f"input{suffix}"
    path.write_text('{"servers": [\n  {"name": "s", "n": ' + "9" * 5000 + "}]}\n", encoding="utf-8")
    with pytest.raises(error) as info:
        read(path)
    assert isinstance(info.value, InputLimitError)
    assert str(info.value) == (f"{path}: line 2, column 22: a number 5,000 digits long, over the 4,300-digit "
                               "limit; not read")


@pytest.mark.parametrize("number, text", [
    ("0x" + "f" * 5000, "yaml"), ("0b" + "1" * 20000, "yaml"), ("0" + "7" * 8000, "yaml"),
    ("1" + ":59" * 3000, "yaml"), ("0x" + "f" * 5000, "jsonc")])
def test_a_number_in_another_base_too_long_to_write_in_decimal_is_refused(tmp_path, number, text) -> None:
    """YAML reads ``0x…``, ``0b…``, ``0…`` (octal) and ``1:30:…`` (base 60) integers, and JSONC
    ``0x…``, without Python's 4,300-digit limit, which only holds for decimal text: the catalog was
    read, and ``plan`` (any command that writes the number) ended with a ValueError traceback
    ending in 'use sys.set_int_max_str_digits()'. It is refused where it stands, as a long decimal
    number is."""
    path = tmp_path / f"catalog.{text}"
    head = "// a comment\n{" if text == "jsonc" else "{"
    path.write_text(head + '"name": "c", "servers": [{"name": "s", "tools": [{"name": "t", "inputSchema": '
                    '{"type": "object", "properties": {"n": {"type": "integer", "minimum": ' + number + '}}}}]}]}\n',
                    encoding="utf-8")
    done = run_cli("plan", str(path))
    line = 2 if text == "jsonc" else 1
    assert (done.returncode, done.stderr) == (2, f"toolsearch: error: {path}: line {line}, column 150: a number "
                                                 f"({number[:12]}…) over the 4,300-digit limit once written in "
                                                 "decimal; not read\n")


def test_a_jsonl_line_with_a_number_too_long_is_skipped_with_a_word(tmp_path) -> None:
    from toolsearch.analysis.sessions import load_sessions

    good = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(good) + '\n{"n": ' + "9" * 5000 + "}\n" + json.dumps(good) + "\n", encoding="utf-8")
    loaded = load_sessions([path], "openai")
    assert len(loaded.sessions) == 2
    assert [(p.where, p.message) for p in loaded.problems] == [
        (f"{path}:2", "line 1, column 7: a number 5,000 digits long, over the 4,300-digit limit; not read; "
                      "line skipped")]
