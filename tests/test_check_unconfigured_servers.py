"""A harness config (``--config``) that configures an MCP server the catalog lacks: the catalog was
snapshotted before the server was added. Every command that plans with the config says so on
stderr, and ``check --strict`` refuses to gate (exit 2), since it would judge a catalog in which
the new server took no room and pushed no other server down to a summary line.
"""

from __future__ import annotations

import functools
from pathlib import Path

import yaml

from tests.conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
CATALOG = str(ROOT / "sample_catalogs" / "team-workspace.yaml")
GATE = ["--context-lengths", "32k,200k,1m", "--goal", "names"]
SETTINGS = "tools:\n  tool_search:\n    threshold_pct: 5.1\n    listing_max_tokens: 1621\n"


@functools.cache
def catalog_servers() -> tuple[str, ...]:
    """The catalog's MCP servers: a config that configures some configures the others too, unless a
    test is about one it leaves out (that is a warning of its own: tests/test_config_servers_agree.py).
    Read when a test first needs them, not when the module is imported: every pytest-xdist worker
    imports every test module, and parsing this YAML took 0.6 s of CPU in each."""
    return tuple(server["name"] for server in yaml.safe_load(Path(CATALOG).read_text(encoding="utf-8"))["servers"]
                 if server.get("kind", "mcp") == "mcp")


def write_config(tmp_path: Path, servers: str) -> str:
    path = tmp_path / "config.yaml"
    given = yaml.safe_load("mcp_servers:\n" + servers)["mcp_servers"]
    rest = "".join(f"  {name}: {{command: mcp-{name}}}\n" for name in catalog_servers() if name not in given)
    path.write_text("mcp_servers:\n" + servers + rest + SETTINGS, encoding="utf-8")
    return str(path)


def test_a_server_the_catalog_lacks_is_named_and_fails_a_strict_gate(tmp_path):
    config = write_config(tmp_path, "  github: {command: npx, args: [server-github]}\n"
                                    "  slack: {url: 'https://slack.example/mcp'}\n"
                                    "  stripe: {command: npx, args: ['@stripe/mcp']}\n"
                                    "  retired: {command: old-server, enabled: false}\n")
    warning = (f"toolsearch: warning: {config} configures 1 MCP server the catalog does not have ('stripe'): these "
               f"figures are for a catalog without it; list the servers' tools into the catalog again (toolsearch "
               f"snapshot {config} -o CATALOG)")
    strict = run_cli("check", CATALOG, "--config", config, "--strict", *GATE)
    assert strict.returncode == 2, strict.stdout
    assert strict.stdout == ""
    assert strict.stderr.splitlines() == [warning, (  # the warning said once, the error points at it
        f"toolsearch: error: check --strict: {config} and the catalog disagree about MCP servers (not in the catalog: "
        "'stripe'; the 1 warning above says how to make them agree): the gate would judge servers the harness does not run as counted; once they agree, commit the catalog with the config, or drop --strict to check the catalog as it is")]
    # without --strict the check runs, and says it; a disabled server is not started, so not missed
    loose = run_cli("check", CATALOG, "--config", config, *GATE)
    assert loose.returncode == 0, loose.stderr
    assert loose.stdout.startswith("toolsearch check passed")
    assert loose.stderr.splitlines() == [warning]
    for command in (["recommend", CATALOG, "--config", config, *GATE],
                    ["plan", CATALOG, "--config", config, "--context-length", "32k"]):
        result = run_cli(*command)
        assert result.returncode == 0, result.stderr
        assert warning in result.stderr.splitlines(), command


def test_a_config_whose_servers_are_all_in_the_catalog_passes_quietly(tmp_path):
    config = write_config(tmp_path, "  github: {command: npx, args: [server-github]}\n"
                                    "  grafana: {command: mcp-grafana}\n")
    result = run_cli("check", CATALOG, "--config", config, "--strict", *GATE)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_a_server_whose_snapshot_lists_no_tools_is_named_on_stderr(tmp_path):
    """A server new in config.yaml whose snapshot came back empty (``tools: []``) is in the catalog
    but takes no room and no goal counts it: plan, check and recommend say so, naming it, as they
    name a server the catalog lacks; the exit status is the verdict's."""
    catalog = tmp_path / "catalog.yaml"
    data = yaml.safe_load(Path(CATALOG).read_text(encoding="utf-8"))
    data["servers"].append({"name": "stripe", "kind": "mcp", "tools": []})
    catalog.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    config = write_config(tmp_path, "  github: {command: npx, args: [server-github]}\n"
                                    "  stripe: {command: npx, args: ['@stripe/mcp']}\n")
    warning = ("toolsearch: warning: server 'stripe' lists no tools in the catalog: it takes no room in the listing "
               "and no goal counts it; if it has tools, list them into the catalog again (toolsearch snapshot "
               f"{config} -o CATALOG)")
    for command, status in ((["check", catalog, "--config", config, "--strict", *GATE], 0),
                            (["recommend", catalog, "--config", config, *GATE], 0),
                            (["plan", catalog, "--config", config, "--context-length", "32k"], 0)):
        result = run_cli(*command)
        assert result.returncode == status, (command, result.stderr)
        assert result.stderr.splitlines() == [warning], command
    # without --config the command to list the tools again names no file
    alone = run_cli("plan", catalog, "--context-length", "32k")
    assert alone.stderr.splitlines() == [warning.replace(config, "CONFIG")]


def test_the_snapshot_hint_names_the_config_only_when_it_starts_the_empty_server(tmp_path):
    """A --config that holds only tools.tool_search (or starts other servers) cannot list the empty
    server's tools again: the hint names what kind of file would, and why this one does not."""
    catalog = tmp_path / "catalog.yaml"
    data = yaml.safe_load(Path(CATALOG).read_text(encoding="utf-8"))
    data["servers"].append({"name": "stripe", "kind": "mcp", "tools": []})
    catalog.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    settings_only = tmp_path / "cfg.yaml"
    settings_only.write_text(SETTINGS, encoding="utf-8")
    head = ("toolsearch: warning: server 'stripe' lists no tools in the catalog: it takes no room in the listing "
            "and no goal counts it; if it has tools, list them into the catalog again (toolsearch snapshot CONFIG "
            "-o CATALOG, CONFIG being the harness or MCP client config that starts it: ")
    result = run_cli("check", catalog, "--config", settings_only, "--strict", *GATE)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [head + f"{settings_only} configures no MCP server)"]
    others = tmp_path / "others"
    others.mkdir()
    config = write_config(others, "  github: {command: npx, args: [server-github]}\n")
    result = run_cli("plan", catalog, "--config", config, "--context-length", "32k")
    assert result.stderr.splitlines() == [
        head + f"{config} does not configure it)",
        (f"toolsearch: warning: {config} does not configure 1 MCP server the catalog has ('stripe'): these figures "
         f"count it as registered, though the harness would not start it; drop it from the catalog files or add it "
         f"to mcp_servers in {config}")]


def test_a_server_whose_tools_the_reader_skipped_is_left_to_its_catalog_error(tmp_path):
    """A server whose only tool was skipped (a catalog error names it) is not said to list no tools."""
    skipped = tmp_path / "skipped.yaml"
    skipped.write_text("servers:\n- name: y\n  tools:\n  - name: inf\n    annotations: {weight: -.inf}\n",
                       encoding="utf-8")
    result = run_cli("plan", CATALOG, skipped, "--context-length", "32k")
    assert result.returncode == 0, result.stderr
    assert [line.split(": ")[1] for line in result.stderr.splitlines()] == ["catalog error"]


def test_an_empty_server_is_named_even_when_the_reader_skipped_another_servers_tool(tmp_path):
    """The warning is per server: a skipped tool of server ``y`` (its catalog error names it) does
    not hide that server ``z`` of the same file lists none, whether the file is read alone, merged
    with another definition of ``y`` or given as a tools/list result of one server."""
    mixed = tmp_path / "mixed.yaml"
    mixed.write_text("servers:\n- name: y\n  tools:\n  - name: inf\n    annotations: {weight: -.inf}\n"
                     "- name: z\n  tools: []\n- name: w\n  tools: not-a-list\n", encoding="utf-8")
    more_y = tmp_path / "more.yaml"
    more_y.write_text("servers:\n- name: y\n  tools: []\n", encoding="utf-8")
    for sources in ([mixed], [mixed, more_y]):
        result = run_cli("plan", CATALOG, *sources, "--context-length", "32k")
        assert result.returncode == 0, result.stderr
        kinds = [line.split(": ")[1] for line in result.stderr.splitlines()]
        assert kinds.count("catalog error") == 2 and kinds[-1] == "warning", result.stderr
        assert kinds.count("catalog warning") == len(sources) - 1, result.stderr  # y defined twice
        assert "server 'z' lists no tools in the catalog" in result.stderr.splitlines()[-1]
    listed = tmp_path / "listed.json"
    listed.write_text('{"server": "q", "tools": [{"name": 3}]}', encoding="utf-8")
    result = run_cli("plan", CATALOG, listed, "--context-length", "32k")
    assert "no tools in the catalog" not in result.stderr and "catalog error" in result.stderr


def test_the_hard_cases_sample_names_its_empty_server_beside_its_catalog_errors():
    """The shipped hard-cases catalog has a registration error (colliding names on server docs)
    and a server with ``tools: []``: the error does not hide the empty server."""
    result = run_cli("plan", "sample_catalogs/hard-cases.yaml", "--context-length", "32k")
    assert result.returncode == 0, result.stderr
    assert "catalog error: sample_catalogs/hard-cases.yaml: server 'docs'" in result.stderr
    assert "warning: server 'empty-server' lists no tools in the catalog" in result.stderr


def test_a_server_the_config_filters_or_disables_otherwise_than_the_catalog_is_named(tmp_path):
    """The harness config's per-server registration settings (``enabled``, ``tools.include``,
    ``tools.exclude``, ``tools.resources``, ``tools.prompts``) were taken from the catalog as listed:
    a config that leaves a tool out or turns a server off after the snapshot was planned as if it
    did not, without a word. Each such server is named with what differs; ``check --strict``
    refuses, as for a server the catalog lacks."""
    config = write_config(tmp_path, "  github:\n    command: npx\n    tools: {exclude: [create_issue], prompts: false}\n"
                                    "  grafana: {command: mcp-grafana, enabled: false}\n"
                                    "  slack: {url: 'https://slack.example/mcp'}\n")
    words = (f"{config} sets up 2 MCP servers otherwise than the catalog was listed with ('github': tools.exclude, "
             f"tools.prompts; 'grafana': enabled: false): these figures count their tools as the catalog lists them")
    hint = (f"drop the disabled server from the catalog files; copy the server's tools block from mcp_servers in "
            f"{config} under its config: in the catalog; or list the servers again (toolsearch snapshot {config} -o "
            "CATALOG)")
    warning = f"toolsearch: warning: {words}; {hint}"
    loose = run_cli("check", CATALOG, "--config", config, *GATE)
    assert loose.returncode == 0, loose.stderr
    assert loose.stderr.splitlines() == [warning]
    strict = run_cli("check", CATALOG, "--config", config, "--strict", *GATE)
    assert (strict.returncode, strict.stdout) == (2, "")
    assert strict.stderr.splitlines() == [warning, (
        f"toolsearch: error: check --strict: {config} and the catalog disagree about MCP servers (set up otherwise: "
        "'github': tools.exclude, tools.prompts; 'grafana': enabled: false; the 1 warning above says how to make them "
        "agree): the gate would judge servers the harness does not run as counted; once they agree, commit the catalog with the config, or drop --strict to check the catalog as it is")]
    plan = run_cli("plan", CATALOG, "--config", config, "--context-length", "32k")
    assert plan.returncode == 0 and warning in plan.stderr.splitlines(), plan.stderr


def test_a_snapshot_listed_with_the_configs_per_server_settings_passes_quietly(tmp_path):
    """The same settings recorded in the catalog (``config:`` of each server, as ``snapshot`` writes
    it) as in the config: nothing to say."""
    catalog = yaml.safe_load(Path(CATALOG).read_text(encoding="utf-8"))
    for server in catalog["servers"]:
        if server["name"] == "github":
            server["config"] = {"tools": {"exclude": ["create_issue"], "prompts": False}}
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(catalog, sort_keys=False), encoding="utf-8")
    config = write_config(tmp_path, "  github:\n    command: npx\n    tools: {exclude: [create_issue], prompts: false}\n")
    result = run_cli("check", str(path), "--config", config, "--strict", *GATE)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_a_config_entry_the_harness_cannot_use_for_a_catalog_server_is_named(tmp_path):
    """An ``mcp_servers`` entry that cannot be used (a ``tools`` list where a mapping belongs) is a
    server the harness does not start; the catalog still lists it, so ``check --strict`` passed
    silently. It is named with why, as a server the config turns off."""
    config = write_config(tmp_path, "  github: {command: npx, tools: [create_issue]}\n")
    strict = run_cli("check", CATALOG, "--config", config, "--strict", *GATE)
    assert (strict.returncode, strict.stdout) == (2, "")
    warning = strict.stderr.splitlines()[0]
    assert warning == (f"toolsearch: warning: {config} sets up 1 MCP server otherwise than the catalog was listed with "
                       f"('github': an entry that cannot be used ({config}: mcp_servers.github.tools: expected a "
                       "mapping (include, exclude, resources, prompts), got a list)): these figures count its tools as "
                       f"the catalog lists it; fix the entry in mcp_servers of {config}")
    assert strict.stderr.splitlines()[1].startswith("toolsearch: error: check --strict: ")


def test_a_tools_block_written_otherwise_but_registering_the_same_passes_quietly(tmp_path):
    """``resources: true`` (the default), an ``exclude`` naming no tool the server has, ``prompts:
    false`` for a server that announces no prompts: the harness registers what the catalog lists,
    so nothing is said and a strict gate runs."""
    config = write_config(tmp_path, "  github:\n    command: npx\n"
                                    "    tools: {resources: true, exclude: [no_such_tool], prompts: 'off'}\n")
    result = run_cli("check", CATALOG, "--config", config, "--strict", *GATE)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
