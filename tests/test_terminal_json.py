"""``--json`` output is safe on a terminal: format characters arrive as ``\\uXXXX`` escapes.

Tool text from catalogs, servers and sessions is untrusted. A raw U+202E (right-to-left override)
reorders what a terminal shows, U+200B hides a break and TAG characters hide text. Every command's
JSON must write such characters as escapes and still parse back to the original text.
"""

from __future__ import annotations

import json
import unicodedata

import pytest

from conftest import run_cli_process as run_cli, write_json, write_yaml
from toolsearch.cli.common import dumps_json

RLO, ZWSP, LRI, PDI = "\u202e", "\u200b", "\u2066", "\u2069"
TAGS = "\U000E0001\U000E0041"  # LANGUAGE TAG + TAG LATIN CAPITAL LETTER A: astral Cf characters
DESCRIPTION = f"Read a file{RLO} from disk{ZWSP} now."
CATALOG = {
    "name": f"Hostile {RLO}catalog{TAGS}",
    "servers": [{"name": "files", "tools": [
        {"name": "read_file", "description": DESCRIPTION,
         "inputSchema": {"type": "object", "properties": {
             "path": {"type": "string", "description": f"the {LRI}path{PDI}"}}}},
        {"name": "write_file", "description": "Write a file."},
    ]}],
}


def session_file(path):
    """A recorded session (OpenAI messages) whose query and arguments carry the same characters."""
    call = {"id": "c1", "type": "function",
            "function": {"name": "tool_search", "arguments": json.dumps({"queries": [f"read{RLO} file{ZWSP}"]})}}
    return write_json(path, [{"id": "s1", "model": "m", "messages": [
        {"role": "user", "content": "read it"},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "tool_name": "tool_search",
         "content": json.dumps({"results": [{"query": f"read{RLO} file{ZWSP}", "matches": []}]})},
    ]}])


def raw_format_chars(text: str) -> list[str]:
    return sorted({f"U+{ord(c):04X}" for c in text if unicodedata.category(c) in ("Cf", "Cc") and c not in "\n"})


def strings(value) -> list[str]:
    """Every string in a JSON value (keys and values, at any depth)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


COMMANDS = {
    "plan": ["plan", "{catalog}", "--json"],
    "search": ["search", "{catalog}", "-q", f"read{RLO}", "--json"],
    "describe": ["describe", "{catalog}", "mcp__files__read_file", "--json"],
    "describe --sent": ["describe", "{catalog}", "mcp__files__read_file", "--sent", "--json"],
    "explain": ["explain", "{catalog}", "-q", f"read{RLO} file", "--json"],
    "lint": ["lint", "{catalog}", "--json"],
    "diff": ["diff", "{catalog}", "{other}", "--json"],
    "collapse": ["collapse", "{catalog}", "--json"],
    "sessions": ["sessions", "{session}", "--catalog", "{catalog}", "--json"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_json_output_escapes_format_characters(tmp_path, command):
    catalog = write_yaml(tmp_path / "hostile.yaml", CATALOG)
    session = session_file(tmp_path / "session.json")
    other = write_yaml(tmp_path / "other.yaml", {**CATALOG, "servers": [CATALOG["servers"][0] | {"tools": [
        CATALOG["servers"][0]["tools"][0], {"name": "write_file", "description": f"Write{RLO} a file."}]}]})
    args = [a.format(catalog=catalog, session=session, other=other) for a in COMMANDS[command]]
    result = run_cli(*args)
    assert "Traceback" not in result.stderr
    assert result.returncode in (0, 1), result.stderr
    assert raw_format_chars(result.stdout) == [], f"raw format characters in `{command} --json`"
    # (describe --sent shows the schemas only: their parameter description carries U+2066)
    char = LRI if command == "describe --sent" else RLO
    assert f"\\u{ord(char):04x}" in result.stdout
    data = json.loads(result.stdout)  # still valid JSON
    texts = strings(data)
    # the escapes decode to the original characters
    assert any(char in s for s in texts)
    if command in ("search", "describe", "plan"):
        assert any(DESCRIPTION in s for s in texts)
    if command == "lint":
        assert CATALOG["name"] in texts  # astral TAG characters round-trip through surrogate pairs
        assert "\\udb40\\udc01\\udb40\\udc41" in result.stdout
    if command == "sessions":
        assert any(f"read{RLO} file{ZWSP}" in s for s in texts)


def test_describe_text_output_is_escaped_too(tmp_path):
    catalog = write_yaml(tmp_path / "hostile.yaml", CATALOG)
    result = run_cli("describe", catalog, "mcp__files__read_file")
    assert result.returncode == 0, result.stderr
    assert raw_format_chars(result.stdout) == []
    *response, size = result.stdout.splitlines()  # the response, then its size
    assert json.loads("\n".join(response))["tools"]["mcp__files__read_file"]["description"] == DESCRIPTION
    assert size.startswith("response: ")


def test_search_text_output_shows_format_characters_as_markers(tmp_path):
    """Plain ``search`` prints each match's description, and for an empty result the sources
    available: a bidi override or zero-width character there reaches the terminal as a marker.
    So does the query echoed above each group (typed, pasted, or in --side-by-side)."""
    catalog = write_yaml(tmp_path / "hostile.yaml", {"name": "h", "servers": [
        {"name": f"fi{RLO}les", "tools": CATALOG["servers"][0]["tools"]}]})
    result = run_cli("search", catalog, "-q", "read file", "-q", f"zzqq{ZWSP}")
    assert result.returncode == 0, result.stderr
    assert raw_format_chars(result.stdout) == [], result.stdout
    assert "  1. mcp__fi_les__read_file  [" in result.stdout
    assert "]  Read a file⟨U+202E⟩ from disk⟨U+200B⟩ now." in result.stdout
    assert "query: zzqq⟨U+200B⟩\n  no matches\n  available source: fi⟨U+202E⟩les (2 tools)" in result.stdout
    side = run_cli("search", catalog, "-q", f"read{ZWSP} file", "--side-by-side")
    assert side.returncode == 0 and raw_format_chars(side.stdout) == [], side.stdout
    assert "query: read⟨U+200B⟩ file" in side.stdout


def test_describe_sent_text_output_shows_schemas_escaped(tmp_path):
    catalog = write_yaml(tmp_path / "hostile.yaml", CATALOG)
    result = run_cli("describe", catalog, "mcp__files__read_file", "--sent")
    assert result.returncode == 0, result.stderr
    assert raw_format_chars(result.stdout) == []
    # both schemas, with the markers the app's schema views show (--json keeps JSON's own escapes)
    assert '"description": "the ⟨U+2066⟩path⟨U+2069⟩"' in result.stdout
    assert result.stdout.count("⟨U+2066⟩") == 2 and "\\u2066" not in result.stdout


@pytest.mark.parametrize("text", [
    DESCRIPTION, TAGS, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u2067\u2068\ufeff\u00ad",
    "bell\x07 del\x7f csi\x9b[31m", "line\u2028para\u2029", "lone \ud800 surrogate",
])
def test_dumps_json_round_trips_and_escapes(text):
    value = {"k" + text: [text, {"nested": text}]}
    for indent in (None, 2):
        out = dumps_json(value, indent)
        assert raw_format_chars(out) == []
        assert not any(unicodedata.category(c) in ("Cs", "Zl", "Zp") for c in out)
        assert json.loads(out) == value
        out.encode("utf-8")  # printable as UTF-8 even with a lone surrogate in the value


def test_dumps_json_keeps_readable_text():
    value = {"name": "日本語 café 🏳️‍🌈 ñ", "n": 1}
    assert dumps_json(value, None) == json.dumps(value, ensure_ascii=False).replace("\u200d", "\\u200d")


@pytest.mark.parametrize("command", [
    ["plan"], ["plan", "--tool-names", "as-is"], ["sweep"], ["costs"], ["lint"], ["strategies"],
    ["collapse", "--context-length", "8k"],
])
def test_every_text_output_shows_format_characters_as_markers(tmp_path, command):
    """`plan` printed the listing, and `sweep`, `costs`, `lint`, `strategies` and `collapse` their
    tables, with raw bidi overrides and zero-width characters from the catalog: the terminal
    reordered or hid what it showed. Every command's text output goes through one stream that
    shows them as markers."""
    from conftest import run_cli as run_in_process

    catalog = write_yaml(tmp_path / "hostile.yaml", {"name": f"h{ZWSP}", "servers": [
        {"name": f"fi{RLO}les", "tools": CATALOG["servers"][0]["tools"]}]})
    result = run_in_process(command[0], catalog, *command[1:])
    assert result.returncode in (0, 1), result.stderr
    assert raw_format_chars(result.stdout + result.stderr) == [], result.stdout
    assert "fi⟨U+202E⟩les" in result.stdout or "h⟨U+200B⟩" in result.stdout


#: Every bidi control: embeddings and overrides, isolates, the marks (and the Arabic letter mark).
BIDI_CONTROLS = [*map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A)), "\u200e", "\u200f", "\u061c"]


def test_csv_shows_bidi_controls_and_invisible_characters_as_markers(tmp_path):
    """`sweep --csv` and `costs --csv` wrote a server's or tool's name with its bidi controls raw into
    the file: a spreadsheet obeys them and shows the cell (a right-to-left override: the rest of it)
    reordered. Every cell now carries them as the markers the text output and the app show
    (``⟨U+202E⟩``), zero-width and TAG characters too, from the one rule of
    :func:`toolsearch.engine.invisible.reveal`; an emoji sequence stays as it is."""
    from conftest import run_cli as run_in_process

    from toolsearch.engine.invisible import reveal

    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
    servers = [{"name": f"s{i}{char}x", "tools": [{"name": f"t{char}{ZWSP}\U000E0041", "description": "d",
                                                   "inputSchema": {"type": "object"}}]}
               for i, char in enumerate(BIDI_CONTROLS)]
    servers.append({"name": f"emoji{family}", "tools": CATALOG["servers"][0]["tools"]})
    catalog = write_yaml(tmp_path / "hostile.yaml", {"name": "h", "servers": servers})
    for command in ("sweep", "costs"):
        result = run_in_process(command, catalog, "--csv", "--tool-names", "as-is")
        assert result.returncode == 0, result.stderr
        assert raw_format_chars(result.stdout.replace(family, "")) == [], result.stdout
        for i, char in enumerate(BIDI_CONTROLS):
            assert f"s{i}⟨U+{ord(char):04X}⟩x" in result.stdout, (command, char)
        assert f"emoji{family}" in result.stdout
    costs = run_in_process("costs", catalog, "--csv", "--tool-names", "as-is").stdout
    assert "t⟨U+202E⟩⟨U+200B⟩⟨TAG 'A'⟩,s4⟨U+202E⟩x," in costs
    assert "t⟨U+202E⟩⟨U+200B⟩⟨TAG 'A'⟩" == reveal(f"t{RLO}{ZWSP}\U000E0041")  # the app's and the table's form


def test_a_newline_in_a_name_never_splits_a_table_row_or_the_catalog_line(tmp_path):
    """A catalog or server name holding a newline (a JSON key, a YAML "\\n") shows it as ``⟨U+000A⟩``
    where the text is one line: table cells and the line naming the catalog. Otherwise the name
    could print a line of its own ("FAKE: ...") and split a row of the servers table."""
    from conftest import run_cli as run_in_process
    catalog = write_yaml(tmp_path / "nl.yaml", {"name": "c\nFAKE: catalog ok", "servers": [
        {"name": "s\nFAKE row", "tools": [{"name": "t1", "description": "d"}]}]})
    for command in (["plan"], ["costs"], ["lint"], ["strategies"], ["collapse"], ["sweep", "--context-lengths", "8k"]):
        done = run_in_process(command[0], catalog, *command[1:])
        assert done.returncode in (0, 1), (command, done.stderr)
        lines = done.stdout.splitlines()
        # plan also prints the listing as the model receives it, where the newline is the model's text
        starts = ("FAKE: catalog",) if command[0] == "plan" else ("FAKE: catalog", "FAKE row")
        assert not any(line.startswith(starts) for line in lines), (command, done.stdout)
        if command[0] not in ("sweep", "costs"):  # these two do not name the catalog
            assert any("c⟨U+000A⟩FAKE: catalog ok" in line for line in lines), (command, done.stdout)
    rows = run_in_process("plan", catalog).stdout.splitlines()
    assert any(line.startswith("s⟨U+000A⟩FAKE row  mcp   1") for line in rows), rows


def test_a_stream_that_cannot_write_every_character_gets_escapes_not_a_traceback():
    """Output to a stream without UTF-8 (PYTHONIOENCODING=ascii, a Windows code page in a CI
    log) ended with UnicodeEncodeError at the first '·' or '→'. Characters the stream lacks are
    written as \\uXXXX escapes: the text stays readable and the JSON parses to the same object."""
    import os  # noqa: PLC0415
    import subprocess  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    from conftest import toolsearch_command  # noqa: PLC0415

    root = Path(__file__).resolve().parent.parent
    args = ["check", "sample_catalogs/team-workspace.yaml", "--baseline", "sample_catalogs/five-servers.yaml",
            "--context-lengths", "32k,200k", "--goal", "full"]

    def run(encoding: str, *more: str) -> subprocess.CompletedProcess:
        return subprocess.run([*toolsearch_command(), *args, *more], capture_output=True, cwd=root, timeout=120,
                              env={**os.environ, "PYTHONIOENCODING": encoding})

    text = run("ascii")
    assert text.returncode == 1 and b"Traceback" not in text.stderr, text.stderr
    assert b"the listing is names \\u00b7 9 of 9 servers named" in text.stdout
    assert json.loads(run("ascii", "--format", "json").stdout) == json.loads(run("utf-8", "--format", "json").stdout)


def test_csv_shows_a_lone_surrogate_as_a_marker_instead_of_a_traceback(tmp_path):
    """A JSON catalog may spell half of a UTF-16 pair (``"\\ud800"``), which no UTF-8 text holds:
    `sweep --csv` and `costs --csv` ended with a UnicodeEncodeError traceback. The cell shows it as
    ``⟨U+D800⟩``, as every other output does, and a formula cell still gets its leading ``'``."""
    from conftest import run_cli as run

    catalog = tmp_path / "surrogate.json"
    catalog.write_text('{"name": "h", "servers": [{"name": "s\\ud800", "tools": ['
                       '{"name": "=HYPERLINK(\\"x\\")\\udc00", "description": "d"}]}]}', encoding="utf-8")
    for command in ("sweep", "costs"):
        result = run(command, str(catalog), "--csv")
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
        assert "s⟨U+D800⟩" in result.stdout, result.stdout
    assert "'=HYPERLINK(\"\"x\"\")⟨U+DC00⟩" in run("costs", str(catalog), "--csv", "--tool-names", "as-is").stdout
