"""Hostile and careless inputs: each reader and command answers a bad input with one clear line
(never a traceback), and one bad part never takes the rest down."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import run_cli

from toolsearch.analysis import skills
from toolsearch.engine.errors import InputLimitError

ROOT = Path(__file__).resolve().parent.parent
SKILL = "---\nname: {name}\ndescription: A skill for {name}.\n---\nbody\n"


def _nest(top: Path, levels: int) -> Path:
    """A folder ``levels`` deep below ``top`` (made one level at a time: the whole path is longer
    than one system call takes)."""
    here = os.getcwd()
    try:
        os.chdir(top)
        for _ in range(levels):
            os.mkdir("d")
            os.chdir("d")
        return Path(os.getcwd())
    finally:
        os.chdir(here)


def _unnest(top: Path) -> None:
    """Remove the chain of folders :func:`_nest` made below ``top``, deepest first, one level at a
    time (``shutil.rmtree``, and so pytest's clean-up of old temporary folders, recurses per level)."""
    here = os.getcwd()
    try:
        os.chdir(top)
        depth = 0
        while os.path.isdir("d"):
            os.chdir("d")
            depth += 1
        for _ in range(depth):
            for name in os.listdir("."):
                os.unlink(name) if not os.path.isdir(name) else None
            os.chdir("..")
            os.rmdir("d")
    finally:
        os.chdir(here)


def test_a_skills_folder_nested_a_thousand_levels_deep_is_read(tmp_path: Path) -> None:
    # Path.rglob recursed once per level: the command ended with a RecursionError traceback.
    (tmp_path / "top").mkdir()
    (tmp_path / "top" / "SKILL.md").write_text(SKILL.format(name="top"))
    bottom = _nest(tmp_path, 1_100)
    try:
        (bottom / "deep").mkdir()
        (bottom / "deep" / "SKILL.md").write_text(SKILL.format(name="deep"))
        loaded = skills.load_skills(tmp_path)
        assert sorted(s.name for s in loaded.skills) == ["deep", "top"]
        result = run_cli("strategies", ROOT / "sample_catalogs" / "five-servers.yaml", "--skills", tmp_path)
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        assert "skills: 2;" in result.stdout
    finally:
        (bottom / "deep" / "SKILL.md").unlink(missing_ok=True)
        if (bottom / "deep").exists():
            (bottom / "deep").rmdir()
        _unnest(tmp_path)


def test_a_skills_folder_walk_stops_at_the_folder_limit(tmp_path: Path, monkeypatch) -> None:
    for name in ("a", "b", "c"):
        (tmp_path / name / "x").mkdir(parents=True)
    (tmp_path / "a" / "SKILL.md").write_text(SKILL.format(name="a"))
    monkeypatch.setattr(skills, "MAX_SKILL_FOLDERS", 6)
    try:
        skills.load_skills(tmp_path)
    except skills.SkillError as exc:
        assert isinstance(exc, InputLimitError)
        assert str(exc) == (f"{tmp_path}: more than 6 folders in it or below it (limit); give the folder that "
                            "holds the skills")
    else:
        raise AssertionError("the walk went past the folder limit")
    monkeypatch.setattr(skills, "MAX_SKILL_FOLDERS", 7)  # the folder itself and its six below
    assert [s.name for s in skills.load_skills(tmp_path).skills] == ["a"]


def test_a_link_to_a_folder_in_a_skills_folder_is_not_followed(tmp_path: Path) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "SKILL.md").write_text(SKILL.format(name="one"))
    (tmp_path / "one" / "loop").symlink_to(tmp_path)  # would find one/SKILL.md again, for ever
    (tmp_path / "two").mkdir()
    (tmp_path / "two" / "SKILL.md").symlink_to(tmp_path / "one" / "SKILL.md")  # a linked file is read
    loaded = skills.load_skills(tmp_path)
    assert [s.origin for s in loaded.skills] == [str(tmp_path / "one" / "SKILL.md")]
    assert len(loaded.problems) == 2  # "two" repeats the name "one", and differs from its folder name


def test_docs_security_states_the_skills_folder_limit() -> None:
    text = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    assert f"over at most {skills.MAX_SKILL_FOLDERS:,} folders" in text


def _catalog_json(tools: int, note: str = "") -> str:
    import json  # noqa: PLC0415

    return json.dumps({"servers": [{"name": "s", "tools": [
        {"name": f"t{i}", "description": f"Tool {i}. {note}", "inputSchema": {"type": "object"}}
        for i in range(tools)]}]}, indent=1)


def test_json_with_comments_over_its_limit_is_refused_in_one_line(tmp_path: Path, monkeypatch) -> None:
    # json5 reads about a megabyte in ten seconds: a 64 MiB JSONC file took over ten minutes.
    import json5  # noqa: PLC0415

    from toolsearch.engine import readers  # noqa: PLC0415

    monkeypatch.setattr(readers, "MAX_JSONC_CHARS", 2_000)
    small = tmp_path / "small.jsonc"
    small.write_text("// a comment\n" + _catalog_json(2))
    assert run_cli("plan", small).returncode == 0
    big = tmp_path / "big.jsonc"
    big.write_text("// a comment\n" + _catalog_json(40))
    monkeypatch.setattr(json5, "loads", lambda *a, **k: (_ for _ in ()).throw(AssertionError("json5 was called")))
    result = run_cli("plan", big)
    assert result.returncode == 2, result.stderr
    assert result.stderr == (f"toolsearch: error: {big}: {len(big.read_text()):,} characters of JSON with comments or "
                             "trailing commas, over the 2,000 bytes limit for them; not read: remove the comments and "
                             "trailing commas (plain JSON and YAML are read up to 64 MiB)\n")


def test_json_with_comments_is_read_up_to_256_kib(tmp_path: Path, monkeypatch) -> None:
    # A dense 1 MiB JSONC file ([1,1,1,...]) took 39 s and 84 MB in json5: the limit keeps the worst
    # case near ten seconds, and a file over it is refused before json5 sees it.
    import json5  # noqa: PLC0415

    from toolsearch.engine.readers import MAX_JSONC_CHARS, size_text  # noqa: PLC0415

    assert MAX_JSONC_CHARS == 256 * 1024 and size_text(MAX_JSONC_CHARS) == "256 KiB"
    big = tmp_path / "big.jsonc"
    text = "// a comment\n" + _catalog_json(2)
    big.write_text(text + " " * (MAX_JSONC_CHARS - len(text) + 1))
    monkeypatch.setattr(json5, "loads", lambda *a, **k: (_ for _ in ()).throw(AssertionError("json5 was called")))
    result = run_cli("plan", big)
    assert result.returncode == 2, result.stderr
    assert "over the 256 KiB limit for them; not read" in result.stderr, result.stderr


def test_a_large_broken_json_file_is_not_read_as_json_with_comments(tmp_path: Path, monkeypatch) -> None:
    # A plain JSON file with one typo and a URL in it ("//") went through json5 before its error.
    import json5  # noqa: PLC0415

    from toolsearch.engine import readers  # noqa: PLC0415

    monkeypatch.setattr(readers, "MAX_JSONC_CHARS", 2_000)
    monkeypatch.setattr(json5, "loads", lambda *a, **k: (_ for _ in ()).throw(AssertionError("json5 was called")))
    text = _catalog_json(40, "See https://example.com/docs.")
    broken = tmp_path / "broken.json"
    broken.write_text(text.replace('"t39"', '"t39" @', 1))
    result = run_cli("plan", broken)
    assert result.returncode == 2, result.stderr
    line = text[:text.index('"t39"')].count("\n") + 1
    assert result.stderr.startswith(f"toolsearch: error: {broken}: line {line}, column ")
    assert result.stderr.endswith("; a file over 2,000 bytes is not read as JSON with comments or trailing commas; "
                                  "if it has some, remove them\n")
    trailing = tmp_path / "trailing.json"  # YAML reads a trailing comma in a flow list
    trailing.write_text(text.replace("}\n  ]", "},\n  ]", 1))
    assert run_cli("plan", trailing).returncode == 0


def test_docs_security_states_the_jsonc_limit() -> None:
    from toolsearch.engine import readers  # noqa: PLC0415

    text = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    assert f"| JSON with comments | {readers.size_text(readers.MAX_JSONC_CHARS)} of JSON with" in text


def test_namespace_names_that_are_not_tools_or_already_taken_are_said() -> None:
    # They were left out of the namespace without a word: a mistyped name moved a tool up front.
    from test_strategies import CREATE, LIST, model  # noqa: PLC0415

    from toolsearch.analysis.strategies import OPENAI, Namespace, StrategySettings  # noqa: PLC0415

    settings = StrategySettings(namespaces=(
        Namespace("tracking", "Issue tracking.", (CREATE, "mcp__github__create_isue", "x\u202ey")),
        Namespace("more", "More.", (CREATE, LIST)),
        Namespace("ghost", "Nothing.", ("mcp__nope__a",))))
    notes = model(settings, skills=False).result(OPENAI).notes
    assert ("namespace 'tracking': 'mcp__github__create_isue', 'x⟨U+202E⟩y' are not tools of this catalog, "
            "so not in it") in notes
    assert f"namespace 'more': '{CREATE}' is already in an earlier namespace and stays there" in notes
    assert ("namespace 'ghost': 'mcp__nope__a' is not a tool of this catalog, so not in it; the namespace holds "
            "no tool and is left out") in notes


def test_namespaces_typed_on_the_strategies_page_take_tool_names_as_text() -> None:
    # A mapping in a tools list became the name "{'x': 1}" without a word.
    from streamlit.testing.v1 import AppTest  # noqa: PLC0415

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.session_state["strat_namespaces"] = "- {name: tracking, tools: [mcp__github__create_issue, {x: 1}]}"
    at.switch_page("toolsearch/ui/strategies.py").run()
    assert not at.exception, at.exception
    assert [e.value for e in at.error] == [
        r"Namespaces not used\: \[0\]\.tools\[1\]\: expected a tool wire name \(text\), got a mapping"]


def _enum_form(properties: dict) -> None:
    import streamlit as st  # noqa: PLC0415

    from toolsearch.ui import schema_form  # noqa: PLC0415

    arguments, _ = schema_form.render("t", {"type": "object", "properties": properties, "required": ["e"]}, {})
    st.session_state["sent"] = arguments


def test_enum_values_that_read_alike_get_labels_apart_in_the_call_form() -> None:
    # 1 and "1" both read "1": choosing the second sent the number 1. Repeats showed twice.
    from streamlit.testing.v1 import AppTest  # noqa: PLC0415

    from toolsearch.ui import schema_form  # noqa: PLC0415

    properties = {"e": {"enum": [1, "1", None, "null", "a", "a"]},
                  "m": {"type": "array", "items": {"enum": ["x", "x", 2, "2"]}},
                  "plain": {"enum": ["fast", "slow", "(not set)"]}}
    at = AppTest.from_function(_enum_form, args=(properties,), default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="t::e").options == ["1", '"1"', "null", '"null"', '"a"']
    assert at.multiselect(key="t::m").options == ['"x"', "2", '"2"']
    assert at.selectbox(key="t::plain").options == ["(not set)", '"fast"', '"slow"', '"(not set)"']
    at.selectbox(key="t::e").set_value('"1"').run()
    at.multiselect(key="t::m").set_value(['"2"']).run()
    at.selectbox(key="t::plain").set_value('"(not set)"').run()
    assert at.session_state["sent"] == {"e": "1", "m": ["2"], "plain": "(not set)"}
    shown = schema_form.widget_values("t", {"type": "object", "properties": properties, "required": ["e"]},
                                      {"e": "null", "m": [2, "x"]})
    assert shown["t::e"] == '"null"' and shown["t::m"] == ["2", '"x"'] and shown["t::plain"] == "(not set)"


def test_keys_in_a_json_argument_are_secrets_of_the_config() -> None:
    # Smithery writes a server's keys as a JSON --config argument: they showed in the config table,
    # the launch confirmation and whatever the server printed.
    import json  # noqa: PLC0415

    from toolsearch.live.mcpconfig import parse_config_text  # noqa: PLC0415

    config = {"mcpServers": {"brave": {"command": "npx", "args": [
        "-y", "@smithery/cli@latest", "run", "@smithery-ai/brave-search", "--config",
        json.dumps({"braveApiKey": "BSAx9f8e7d6c5b4a3", "region": "eu", "maxTokens": "500",
                    "clientSecret": "sec\"ret\u00e9-77", "token": "${BRAVE_TOKEN}"})]}}}
    spec = parse_config_text(json.dumps(config), "claude_desktop_config.json").servers[0]
    assert {"BSAx9f8e7d6c5b4a3", "sec\"ret\u00e9-77"} <= set(spec.secret_values())
    assert not {"eu", "500", "${BRAVE_TOKEN}"} & set(spec.secret_values())
    shown = json.dumps(spec.redacted(), ensure_ascii=False) + json.dumps(spec.launch_preview(), ensure_ascii=False)
    assert "BSAx9f8e7d6c5b4a3" not in shown and "sec\\\\\\\"ret" not in shown and "ret\u00e9-77" not in shown
    assert '\\"braveApiKey\\": \\"••••\\"' in shown and '\\"region\\": \\"eu\\"' in shown
    assert spec.scrub("key BSAx9f8e7d6c5b4a3 echoed") == "key •••• echoed"


def test_a_glued_header_option_and_a_jwt_option_are_masked() -> None:
    from toolsearch.live.mcpconfig import mask_arguments, secret_arguments  # noqa: PLC0415

    args = ["mcp-remote", "https://example.com/mcp", "-HAuthorization: Bearer AAAA1111bbbb",
            "--jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc", "-Hx"]
    assert mask_arguments(args) == ["mcp-remote", "https://example.com/mcp", "-HAuthorization: ••••", "--jwt", "••••",
                                    "-Hx"]
    assert {"Bearer AAAA1111bbbb", "AAAA1111bbbb", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc"} <= set(
        secret_arguments(args))


def _on_a_terminal(*args: str) -> str:
    """What ``toolsearch ARGS`` writes when its standard output is a terminal (a pseudo-terminal)."""
    import pty  # noqa: PLC0415
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    primary, secondary = pty.openpty()
    try:
        process = subprocess.Popen([sys.executable, "-m", "toolsearch", *args], stdout=secondary,
                                   stderr=subprocess.DEVNULL, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        os.close(secondary)
        chunks = []
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait(timeout=120)
    finally:
        os.close(primary)
    return b"".join(chunks).decode("utf-8")


def test_csv_on_a_terminal_shows_invisible_characters_as_markers(tmp_path: Path) -> None:
    # On a terminal a bidi override in a server's name reordered the rest of the line; in a file a
    # spreadsheet reordered the cell: both show the marker.
    import json  # noqa: PLC0415

    catalog = tmp_path / "bidi.json"
    catalog.write_text(json.dumps({"servers": [{"name": "srv\u202eevil", "tools": [
        {"name": "t", "description": "A tool.", "inputSchema": {"type": "object"}}]}]}))
    shown = _on_a_terminal("costs", str(catalog), "--csv")
    assert "srv⟨U+202E⟩evil" in shown and "\u202e" not in shown
    stored = run_cli("costs", catalog, "--csv")
    assert "srv⟨U+202E⟩evil" in stored.stdout and "\u202e" not in stored.stdout  # to a file or a program too


def test_a_user_option_with_a_password_and_a_pw_option_are_masked() -> None:
    # curl's -u / --user take USER:PASSWORD; the user name stays readable, a name alone is no secret,
    # and `python -u` (unbuffered) followed by a script keeps the script's name.
    from toolsearch.live.mcpconfig import mask_arguments, secret_arguments  # noqa: PLC0415

    args = ["mcp-proxy", "-u", "admin:hunter2x", "--user=ops:s3cr3t-77", "-uroot:toor99", "--proxy-user", "me",
            "--pw", "letmein42"]
    assert mask_arguments(args) == ["mcp-proxy", "-u", "admin:••••", "--user=ops:••••", "-uroot:••••",
                                    "--proxy-user", "me", "--pw", "••••"]
    assert {"hunter2x", "s3cr3t-77", "toor99", "letmein42"} == set(secret_arguments(args))
    assert mask_arguments(["python", "-u", "server.py", "--port", "8080"]) == [
        "python", "-u", "server.py", "--port", "8080"]
    assert secret_arguments(["python", "-u", "server.py"]) == []
